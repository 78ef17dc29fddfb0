/*
 * spawnbench's iouring-raw method: a CLONE+EXEC chain of series-iouring
 * on a ring of the spawning thread's own, made before timing, its fd
 * registered (io_uring_enter() then skips the fd lookup). The chain's
 * SQEs are prepared once; a spawn copies them into the ring and submits
 * them with one io_uring_enter() that also waits for their CQEs (all
 * posted when the child is done with the chain). A PATH search is one
 * EXEC per candidate, hard-linked.
 */
#include "../common-tests/iouring-spawn.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "raw.h"

struct raw_iouring {
	struct io_uring ring;
	unsigned int len;		/* requests in the chain */
	struct io_uring_sqe chain[];
};

static const char *iouring_unsupported(const struct raw_job *job)
{
	return job->n_dup2 ? "io_uring has no dup2" : NULL;
}

static void iouring_release(void *prepared)
{
	struct raw_iouring *r = prepared;

	io_uring_queue_exit(&r->ring);
	free(r);
}

static void *iouring_prepare(const struct raw_job *job)
{
	size_t len = 1 + job->n_paths;
	struct raw_iouring *r = calloc(1, sizeof(*r) + len * sizeof(r->chain[0]));
	unsigned int entries = 8;
	int ret;

	if (!r)
		return NULL;
	while (entries < len)
		entries *= 2;
	ret = io_uring_queue_init(entries, &r->ring, 0);
	if (ret < 0) {
		free(r);
		errno = -ret;
		return NULL;
	}
	ret = io_uring_register_ring_fd(&r->ring);
	if (ret != 1) {
		iouring_release(r);
		errno = ret < 0 ? -ret : EBUSY;
		return NULL;
	}
	r->len = (unsigned int)len;
	iou_prep_clone(&r->chain[0], 0);
	r->chain[0].flags |= IOSQE_IO_LINK;
	for (size_t i = 0; i < job->n_paths; i++) {
		struct io_uring_sqe *sqe = &r->chain[1 + i];

		iou_prep_exec(sqe, job->paths[i], job->argv, job->envp);
		if (i + 1 < job->n_paths)
			sqe->flags |= IOSQE_IO_HARDLINK;
		sqe->user_data = 1 + i;
	}
	return r;
}

static pid_t iouring_spawn(void *prepared)
{
	struct raw_iouring *r = prepared;
	struct io_uring_cqe *cqe;
	int pid = -ECANCELED, exec_error = -ENOENT, ret;
	unsigned int i;

	for (i = 0; i < r->len; i++)
		*io_uring_get_sqe(&r->ring) = r->chain[i];
	ret = io_uring_submit_and_wait(&r->ring, r->len);
	if (ret != (int)r->len)
		return ret < 0 ? ret : -EAGAIN;
	for (i = 0; i < r->len; i++) {
		ret = io_uring_wait_cqe(&r->ring, &cqe);
		if (ret < 0)
			return ret;
		if (cqe->user_data == 0)
			pid = cqe->res;
		else if (cqe->res == 0)
			exec_error = 0;
		else if (exec_error && cqe->res != -ECANCELED)
			exec_error = cqe->res;
		io_uring_cqe_seen(&r->ring, cqe);
	}
	if (pid > 0 && exec_error) {
		/* no EXEC ran: the child killed itself */
		waitpid(pid, NULL, 0);
		return exec_error;
	}
	return pid;
}

const struct raw_method raw_iouring = {
	.unsupported = iouring_unsupported,
	.prepare = iouring_prepare,
	.spawn = iouring_spawn,
	.release = iouring_release,
};
