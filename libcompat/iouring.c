/*
 * Backend "iouring": a chain of io_uring requests of series-iouring,
 * IORING_OP_CLONE at its head, then the request's actions as linked
 * requests, then the program as IORING_OP_EXEC, or with a PATH search one
 * EXEC per candidate, hard-linked so that a miss moves on to the next one.
 * Each request posts a CQE, in chain order: the CLONE's carries the pid
 * (or the pidfd), an action's its own result, so the failing step is known.
 *
 * What io_uring can express as a linked request in the child is little:
 * of the actions, only close (IORING_OP_CLOSE acts on the spawned task's
 * file table). dup2, open onto a given fd, chdir, fchdir, close_range,
 * setsid, setpgid, sigmask, sigdefault and umask have no opcode: they are
 * refused with ENOTSUP through the capability query.
 *
 * Compiled against the series' uapi headers (common-tests/iouring.mk puts
 * UAPI_INCLUDE_iouring first for this file); on a kernel without the
 * series the probe says no.
 */
#include <linux/io_uring.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"

#include "../common-tests/iouring-spawn.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* chain length: CLONE, actions, EXEC candidates */
#define IOURING_MAX_CHAIN 1024

static bool iouring_probe(void)
{
	return iou_spawn_supported();
}

/* libcompat: an fd that can never be open is EBADF, one that is not, no error */
static bool fd_can_be_open(int fd)
{
	struct rlimit rl;

	if (fd < 0)
		return false;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)fd >= rl.rlim_cur)
		return false;
	return true;
}

static pid_t pidfd_to_pid(int pidfd)
{
	char path[64], line[128];
	pid_t pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid;
}

/* reap the child of a failed spawn, which kills itself */
static void reap(int clone_res, bool pidfd)
{
	siginfo_t info;

	if (clone_res < 0)
		return;
	if (pidfd) {
		while (waitid(P_PIDFD, clone_res, &info, WEXITED) < 0 && errno == EINTR)
			;
		close(clone_res);
	} else {
		while (waitpid(clone_res, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

static void iouring_spawn(const struct compat_spawn *request, struct compat_result *result)
{
	size_t n = request->n_actions, total, execs = 0, i;
	char (*candidates)[PATH_MAX] = NULL;
	int *res = NULL, error = 0, too_long = 0, clone_res;
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	bool ring_up = false;
	int attempts = 0;

	for (i = 0; i < n; i++) {
		/* compat_check() let only close through */
		if (!fd_can_be_open(request->actions[i].fd)) {
			result->error = EBADF;
			result->step = (int)i;
			return;
		}
	}

	candidates = malloc(IOURING_MAX_CHAIN * sizeof(*candidates));
	res = calloc(IOURING_MAX_CHAIN, sizeof(*res));
	if (!candidates || !res) {
		result->error = ENOMEM;
		result->step = COMPAT_STEP_CREATE;
		goto out;
	}
	if (request->exec_mode == COMPAT_EXEC_SEARCH) {
		const char *cursor = request->search_path;

		for (;;) {
			int e;

			if (1 + n + execs == IOURING_MAX_CHAIN) {
				result->error = E2BIG;
				result->step = COMPAT_STEP_REQUEST;
				result->reason = "PATH has more entries than the chain allows";
				goto out;
			}
			e = compat_path_next(&cursor, request->path, candidates[execs]);
			if (e < 0)
				break;
			if (e) {
				/* the search ends at a candidate too long for PATH_MAX */
				too_long = e;
				break;
			}
			execs++;
		}
		if (!execs) {
			result->error = too_long ? too_long : ENOENT;
			result->step = COMPAT_STEP_EXEC;
			goto out;
		}
	} else {
		execs = 1;
	}
	total = 1 + n + execs;

	{
		struct io_uring_params p = { .flags = IORING_SETUP_SUBMIT_ALL };
		unsigned int entries = 8;
		int ret;

		while (entries < total)
			entries *= 2;
		ret = io_uring_queue_init_params(entries, &ring, &p);
		if (ret < 0) {
			result->error = -ret;
			result->step = COMPAT_STEP_CREATE;
			goto out;
		}
		ring_up = true;
	}

again:
	sqe = io_uring_get_sqe(&ring);
	iou_prep_clone(sqe, request->want_pidfd ? IORING_CLONE_PIDFD : 0);
	sqe->flags |= IOSQE_IO_LINK;
	sqe->user_data = 0;
	for (i = 0; i < n; i++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_close(sqe, request->actions[i].fd);
		/* a close of an fd that is not open (EBADF) must not stop the chain */
		sqe->flags |= IOSQE_IO_HARDLINK;
		sqe->user_data = 1 + i;
	}
	for (i = 0; i < execs; i++) {
		sqe = io_uring_get_sqe(&ring);
		if (request->exec_mode == COMPAT_EXEC_SEARCH)
			iou_prep_exec(sqe, candidates[i], request->argv, request->envp);
		else
			iou_prep_execveat(sqe, request->dirfd, request->path, request->argv,
					  request->envp, (unsigned int)request->exec_flags);
		if (i + 1 < execs)
			sqe->flags |= IOSQE_IO_HARDLINK;
		sqe->user_data = 1 + n + i;
	}
	{
		int ret = io_uring_submit(&ring);

		/* SUBMIT_ALL: all of the chain or, when it fails, nothing */
		if (ret != (int)total) {
			result->error = ret < 0 ? -ret : EAGAIN;
			result->step = COMPAT_STEP_CREATE;
			goto out;
		}
	}
	for (i = 0; i < total; i++) {
		int ret;

		do {
			ret = io_uring_wait_cqe(&ring, &cqe);
		} while (ret == -EINTR);

		if (ret < 0) {
			/* cannot happen short of a kernel bug: say so, leave it */
			result->error = -ret;
			result->step = COMPAT_STEP_UNKNOWN;
			goto out;
		}
		if (cqe->user_data < total)
			res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}

	clone_res = res[0];
	if (clone_res == -EINTR && ++attempts < 100) {
		/*
		 * A signal was pending when CLONE ran: copy_process() refuses
		 * to fork then, and unlike fork(), io_uring does not restart
		 * it. Nothing was spawned (the chain is cancelled): retry.
		 */
		goto again;
	}
	if (clone_res < 0) {
		result->error = -clone_res;
		result->step = COMPAT_STEP_CREATE;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (res[1 + i] < 0 && res[1 + i] != -EBADF) {
			result->error = -res[1 + i];
			result->step = (int)i;
			reap(clone_res, request->want_pidfd);
			goto out;
		}
	}
	for (i = 0; i < execs; i++) {
		if (res[1 + n + i] == 0) {
			if (request->want_pidfd) {
				result->pidfd = clone_res;
				result->pid = pidfd_to_pid(clone_res);
			} else {
				result->pid = clone_res;
			}
			goto out;
		}
	}

	/* every EXEC failed; the error libcompat's search would end with */
	{
		bool denied = false;

		error = 0;
		for (i = 0; i < execs && !error; i++) {
			int e = -res[1 + n + i];

			if (request->exec_mode != COMPAT_EXEC_SEARCH || !compat_search_continues(e))
				error = e;
			denied = denied || e == EACCES;
		}
		if (!error)
			error = too_long ? too_long : denied ? EACCES : ENOENT;
	}
	result->error = error;
	result->step = COMPAT_STEP_EXEC;
	reap(clone_res, request->want_pidfd);
out:
	if (ring_up)
		io_uring_queue_exit(&ring);
	free(candidates);
	free(res);
}

const struct compat_backend compat_backend_iouring = {
	.name = "iouring",
	.features = COMPAT_HAS(COMPAT_FEAT_CLOSE) | COMPAT_HAS(COMPAT_FEAT_EXEC_AT) |
		    COMPAT_HAS(COMPAT_FEAT_SEARCH) | COMPAT_HAS(COMPAT_FEAT_SEARCH_STRING) |
		    COMPAT_HAS(COMPAT_FEAT_PIDFD) | COMPAT_HAS(COMPAT_FEAT_FAILED_STEP),
	.probe = iouring_probe,
	.spawn = iouring_spawn,
};
