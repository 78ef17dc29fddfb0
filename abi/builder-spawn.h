/* SPDX-License-Identifier: MIT */
/*
 * The three system calls of series-builder (spawn_open, spawn_config,
 * spawn_commit), for libcompat's builder backend, the benchmark's raw
 * methods and the fuzzer. The ABI comes from the series' uapi headers:
 * build with -I build/uapi/builder/include ahead of the system include
 * directories.
 */
#ifndef SPAWNLAB_BUILDER_SPAWN_H
#define SPAWNLAB_BUILDER_SPAWN_H

#include <linux/spawn.h>

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_spawn_open
#error "<asm/unistd.h> is not series-builder's: put its uapi include directory first"
#endif

/* a user pointer as a __u64 field of the ABI */
#define SB_PTR(p) ((uint64_t)(uintptr_t)(p))

/*
 * A builder fd (SPAWN_OPEN_* flags), or -1 with errno. Every other
 * argument register is 0: where the number is not spawn_open() (6.13 and
 * later: setxattrat()), that call fails on zeros (EINVAL) instead of
 * acting on whatever the registers held.
 */
static inline int sb_open(unsigned int flags)
{
	return syscall(__NR_spawn_open, flags, 0L, 0L, 0L, 0L, 0L);
}

/* Apply one setting: 0, or -1 with errno. arg NULL and size 0 for none. */
static inline int sb_config(int bfd, unsigned int op, const void *arg, size_t size)
{
	return syscall(__NR_spawn_config, bfd, op, arg, size);
}

/* spawn_config() with the struct the operation takes */
#define sb_set(bfd, op, arg) sb_config((bfd), (op), (arg), sizeof(*(arg)))

/*
 * Create the process: its pid, or -1 with errno and what failed in
 * args->failed (when set).
 */
static inline long sb_commit(int bfd, const struct spawn_commit_args *args)
{
	return syscall(__NR_spawn_commit, bfd, args, sizeof(*args));
}

#endif
