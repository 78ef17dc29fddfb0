/* SPDX-License-Identifier: MIT */
/*
 * One clone3(CLONE_ACTIONS) call of series-clone-actions, for libcompat's
 * backend, the benchmark's raw method and the fuzzer. The ABI comes from the series' uapi header: build with
 * -I build/uapi/clone-actions/include ahead of the system include
 * directories.
 */
#ifndef SPAWNLAB_CLONE_ACTIONS_SPAWN_H
#define SPAWNLAB_CLONE_ACTIONS_SPAWN_H

#include <linux/sched.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_ACTIONS
#error "<linux/sched.h> is not series-clone-actions': put its uapi include directory first"
#endif

/* a user pointer as a __u64 field of the ABI */
#define CA_PTR(p) ((uint64_t)(uintptr_t)(p))

/*
 * clone3(CLONE_ACTIONS | flags) with exit signal SIGCHLD: the child's pid,
 * or -1 with errno and the failed action's index in *failed. With
 * CLONE_PIDFD in flags the pidfd goes to *pidfd.
 */
static inline long ca_spawn(const struct clone_action *actions, size_t n,
			    uint64_t flags, int *pidfd, uint32_t *failed)
{
	struct clone_args args = {
		.flags = CLONE_ACTIONS | flags,
		.pidfd = CA_PTR(pidfd),
		.exit_signal = SIGCHLD,
		.actions = CA_PTR(actions),
		.nr_actions = n,
		.action_size = sizeof(struct clone_action),
		.failed_action = CA_PTR(failed),
	};

	return syscall(__NR_clone3, &args, sizeof(args));
}

#endif
