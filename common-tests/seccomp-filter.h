/* SPDX-License-Identifier: MIT */
/*
 * Seccomp filters for the corpus' safety tests, which show that a spawn
 * meets the caller's filter as the system calls it stands for (the
 * series' own seccomp tests are in their kselftests and liburing tests).
 * Installing one sets
 * no_new_privs; it applies to the calling thread and what it spawns
 * afterwards, and cannot be removed: a criterion test installs it in its
 * own process. Failures are criterion assertions.
 */
#ifndef SPAWNLAB_SECCOMP_FILTER_H
#define SPAWNLAB_SECCOMP_FILTER_H

#include <criterion/criterion.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One rule of a seccomp filter: system call nr and a test of one argument. */
struct seccomp_rule {
	int nr;
	enum { ARG_ANY, ARG_EQUAL, ARG_NONZERO } test;
	unsigned int arg;	/* args[arg] is tested, all 64 bits */
	uint64_t value;		/* for ARG_EQUAL */
	uint32_t verdict;
};

#define RULES_MAX 4

/* args[i]'s low (half 0) or high (half 1) 32 bits, little-endian */
#define SECCOMP_ARG_HALF(i, half) \
	(uint32_t)(offsetof(struct seccomp_data, args[i]) + 4 * (half))

/* A filter with the verdict of the first rule that matches, else ALLOW. */
static inline void install_rules(const struct seccomp_rule *rules, size_t n)
{
	struct sock_filter code[RULES_MAX * 7 + 1];
	struct sock_fprog prog = { .filter = code };
	size_t len = 0;

	cr_assert_leq(n, RULES_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct seccomp_rule *r = &rules[i];
		bool equal = r->test == ARG_EQUAL;
		uint32_t lo = equal ? (uint32_t)r->value : 0;
		uint32_t hi = equal ? (uint32_t)(r->value >> 32) : 0;

		/* a mismatch jumps to the next rule, past this one's RET */
		code[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							   offsetof(struct seccomp_data, nr));
		code[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							   (uint32_t)r->nr, 0,
							   r->test == ARG_ANY ? 1 : 5);
		if (r->test != ARG_ANY) {
			/* ARG_EQUAL: both halves equal; ARG_NONZERO: either half not 0 */
			code[len++] = (struct sock_filter)BPF_STMT(
				BPF_LD | BPF_W | BPF_ABS, SECCOMP_ARG_HALF(r->arg, 0));
			code[len++] = (struct sock_filter)BPF_JUMP(
				BPF_JMP | BPF_JEQ | BPF_K, lo, 0, equal ? 3 : 2);
			code[len++] = (struct sock_filter)BPF_STMT(
				BPF_LD | BPF_W | BPF_ABS, SECCOMP_ARG_HALF(r->arg, 1));
			code[len++] = (struct sock_filter)BPF_JUMP(
				BPF_JMP | BPF_JEQ | BPF_K, hi, equal ? 0 : 1, equal ? 1 : 0);
		}
		code[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, r->verdict);
	}
	code[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)len;

	cr_assert_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	cr_assert_eq(syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0,
		     "seccomp: %s", strerror(errno));
}

/* A filter that gives system call nr the verdict, and allows the rest. */
static inline void install_filter(int nr, uint32_t verdict)
{
	const struct seccomp_rule rule = { .nr = nr, .test = ARG_ANY, .verdict = verdict };

	install_rules(&rule, 1);
}

#endif
