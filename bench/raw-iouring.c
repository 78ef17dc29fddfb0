/*
 * spawnbench's iouring-raw method: a CLONE+EXEC chain of series-iouring
 * on a ring of the spawning thread's own, made before timing, its fd
 * registered (io_uring_enter() then skips the fd lookup). The chain's
 * SQEs are prepared once; a spawn copies them into the ring and submits
 * them with one io_uring_enter() that also waits for their CQEs (all
 * posted when the child is done with the chain). A job's RESETIDS and
 * dup2s are IORING_OP_RESETIDS and IORING_OP_DUP requests between CLONE
 * and EXEC, its signal mask CLONE's IORING_CLONE_SIGMASK (series-iouring's
 * parity patches). A PATH search is one EXEC per candidate, hard-linked.
 * For the asynchronous cell, submit() puts n copies of the chain into the
 * ring and submits them with one io_uring_enter() that does not wait;
 * collect() takes their CQEs later.
 */
#include "../abi/iouring-spawn.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "raw.h"

/* a CQE's user_data: the spawn's number in its batch << 8 | its place in the chain */
#define CHAIN_SHIFT 8
#define CHAIN_MASK ((1u << CHAIN_SHIFT) - 1)

struct raw_iouring {
	struct io_uring ring;
	unsigned int len;		/* requests in the chain */
	unsigned int n_actions;		/* RESETIDS and DUPs, between CLONE and EXEC */
	unsigned int batch;		/* the most chains in one submission */
	struct io_uring_sqe chain[];
};

static const char *iouring_unsupported(const struct raw_job *job)
{
	(void)job;
	return NULL;
}

static void iouring_release(void *prepared)
{
	struct raw_iouring *r = prepared;

	io_uring_queue_exit(&r->ring);
	free(r);
}

static void *iouring_prepare(const struct raw_job *job)
{
	size_t n_actions = job->resetids + (size_t)job->n_dup2;
	size_t len = 1 + n_actions + job->n_paths;
	unsigned int batch = job->batch ? job->batch : 1;
	struct raw_iouring *r;
	unsigned int entries = 8;
	int ret;

	if (len > CHAIN_MASK + 1 || batch > RAW_MAX_BATCH) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r) + len * sizeof(r->chain[0]));
	if (!r)
		return NULL;
	while (entries < len * batch)
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
	r->n_actions = (unsigned int)n_actions;
	r->batch = batch;
	io_uring_prep_clone_sigs(&r->chain[0], 0, job->sigmask, NULL);
	if (job->resetids)
		io_uring_prep_resetids(&r->chain[1]);
	for (int i = 0; i < job->n_dup2; i++)
		io_uring_prep_dup(&r->chain[1 + job->resetids + i], job->devnull,
				  job->dup2_first + i, 0);
	for (size_t i = 0; i <= n_actions; i++)
		r->chain[i].flags |= IOSQE_IO_LINK;
	for (size_t i = 0; i < job->n_paths; i++) {
		struct io_uring_sqe *sqe = &r->chain[1 + n_actions + i];

		io_uring_prep_exec(sqe, job->paths[i], job->argv, job->envp);
		if (i + 1 < job->n_paths)
			sqe->flags |= IOSQE_IO_HARDLINK;
	}
	return r;
}

/* n copies of the chain into the submission queue */
static void iouring_fill(struct raw_iouring *r, unsigned int n)
{
	for (unsigned int s = 0; s < n; s++)
		for (unsigned int i = 0; i < r->len; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

			*sqe = r->chain[i];
			sqe->user_data = (__u64)s << CHAIN_SHIFT | i;
		}
}

/*
 * The CQEs of n chains: pids[s] = chain s's child, or -errno when no EXEC
 * of it ran (the child killed itself: reaped here). 0 or -errno.
 */
static int iouring_reap_cqes(struct raw_iouring *r, pid_t *pids, unsigned int n)
{
	int exec_error[RAW_MAX_BATCH], action_error[RAW_MAX_BATCH];
	struct io_uring_cqe *cqe;
	unsigned int s, at;
	int ret;

	for (s = 0; s < n; s++) {
		pids[s] = -ECANCELED;
		exec_error[s] = -ENOENT;
		action_error[s] = 0;
	}
	for (unsigned int i = 0; i < n * r->len; i++) {
		ret = io_uring_wait_cqe(&r->ring, &cqe);
		if (ret < 0)
			return ret;
		s = (unsigned int)(cqe->user_data >> CHAIN_SHIFT);
		if (s >= n)
			return -EPROTO;
		at = (unsigned int)(cqe->user_data & CHAIN_MASK);
		if (at == 0)
			pids[s] = cqe->res;
		else if (at <= r->n_actions) {
			/* an action's result (a DUP's is its fd): only an error matters */
			if (cqe->res < 0 && !action_error[s])
				action_error[s] = cqe->res;
		} else if (cqe->res == 0)
			exec_error[s] = 0;
		else if (exec_error[s] && cqe->res != -ECANCELED)
			exec_error[s] = cqe->res;
		io_uring_cqe_seen(&r->ring, cqe);
	}
	for (s = 0; s < n; s++)
		if (pids[s] > 0 && (action_error[s] || exec_error[s])) {
			waitpid(pids[s], NULL, 0);
			pids[s] = action_error[s] ? action_error[s] : exec_error[s];
		}
	return 0;
}

static pid_t iouring_spawn(void *prepared)
{
	struct raw_iouring *r = prepared;
	pid_t pid;
	int ret;

	iouring_fill(r, 1);
	ret = io_uring_submit_and_wait(&r->ring, r->len);
	if (ret != (int)r->len)
		return ret < 0 ? ret : -EAGAIN;
	ret = iouring_reap_cqes(r, &pid, 1);
	return ret < 0 ? ret : pid;
}

static int iouring_submit(void *prepared, unsigned int n)
{
	struct raw_iouring *r = prepared;
	int ret;

	if (n > r->batch)
		return -EINVAL;
	iouring_fill(r, n);
	ret = io_uring_submit(&r->ring);
	if (ret != (int)(n * r->len))
		return ret < 0 ? ret : -EAGAIN;
	return 0;
}

static int iouring_collect(void *prepared, pid_t *pids, unsigned int n)
{
	return iouring_reap_cqes(prepared, pids, n);
}

const struct raw_method raw_iouring = {
	.unsupported = iouring_unsupported,
	.prepare = iouring_prepare,
	.spawn = iouring_spawn,
	.submit = iouring_submit,
	.collect = iouring_collect,
	.release = iouring_release,
};
