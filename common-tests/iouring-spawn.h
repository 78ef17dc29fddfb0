/* SPDX-License-Identifier: MIT */
/*
 * Prep helpers for IORING_OP_CLONE and IORING_OP_EXEC (series-iouring) on
 * top of liburing 2.3, which predates them. The opcode numbers and SQE
 * fields come from the series' uapi header: build with
 * -I build/uapi/iouring/include ahead of the system include
 * directories. That header must be included before <liburing.h>: liburing
 * 2.3 carries its own copy of the uapi under the same include guard
 * (LINUX_IO_URING_H), so whichever comes first wins.
 */
#ifndef SPAWNLAB_IOURING_SPAWN_H
#define SPAWNLAB_IOURING_SPAWN_H

#include <linux/io_uring.h>
#include <liburing.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#ifndef IORING_CLONE_PIDFD
#error "<linux/io_uring.h> is not series-iouring's: put its uapi include directory first"
#endif

/*
 * CLONE: must head a chain, so the caller adds IOSQE_IO_LINK (or
 * IOSQE_IO_HARDLINK). Completes with the child's pid, or with a pidfd
 * when flags has IORING_CLONE_PIDFD.
 */
static inline void iou_prep_clone(struct io_uring_sqe *sqe, unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_CLONE, sqe, 0, NULL, 0, 0);
	sqe->clone_flags = flags;
}

/*
 * EXEC: execveat(dfd, path, argv, envp, flags) in the task spawned by the
 * CLONE heading the chain. dfd is an ordinary file descriptor (of the
 * child's file table, a copy of the parent's), not a fixed-file index.
 */
static inline void iou_prep_execveat(struct io_uring_sqe *sqe, int dfd,
				     const char *path, char *const argv[],
				     char *const envp[], unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_EXEC, sqe, dfd, path, 0,
			 (__u64)(unsigned long)argv);
	sqe->addr3 = (__u64)(unsigned long)envp;
	sqe->execve_flags = flags;
}

static inline void iou_prep_exec(struct io_uring_sqe *sqe, const char *path,
				 char *const argv[], char *const envp[])
{
	iou_prep_execveat(sqe, AT_FDCWD, path, argv, envp, 0);
}

/*
 * 1 if the running kernel has both ops (io_uring_get_probe), else 0. The
 * numbers are local to the series: a kernel whose last op is not EXEC gives
 * them to other ops (6.13 and later do), so it does not count.
 */
static inline int iou_spawn_supported(void)
{
	struct io_uring_probe *probe = io_uring_get_probe();
	int ok;

	if (!probe)
		return 0;
	ok = probe->last_op == IORING_OP_EXEC &&
	     io_uring_opcode_supported(probe, IORING_OP_CLONE) &&
	     io_uring_opcode_supported(probe, IORING_OP_EXEC);
	io_uring_free_probe(probe);
	return ok;
}

/*
 * How many tasks named iou-spawn exist: spawned tasks that never exec'd or
 * exited. -1 if /proc cannot be read.
 */
static inline int iou_count_spawn_tasks(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-spawn", 9))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

#endif
