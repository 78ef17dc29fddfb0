/*
 * Backend "iouring": a chain of io_uring requests of series-iouring,
 * IORING_OP_CLONE at its head, then the request's actions as linked
 * requests, then the program as IORING_OP_EXEC, or with a PATH search one
 * EXEC per candidate, hard-linked so that a miss moves on to the next one.
 * Each request posts a CQE, in chain order: the CLONE's carries the pid
 * (or the pidfd), an action's its own result, so the failing step is known.
 * A close of an fd that is not open in the child is no error, as everywhere
 * in libcompat: it gets no request. Any other request that fails fails its
 * step and ends the chain (soft links), a CLOSE that a seccomp filter
 * refuses included, so that no program runs after a failed action.
 *
 * Each action is a linked request that the spawned task issues, in list
 * order (so any order of the actions is fine): close is IORING_OP_CLOSE,
 * dup2 IORING_OP_DUP (with IORING_DUP_SAME for dup2(fd, fd), which clears
 * FD_CLOEXEC), open IORING_OP_OPENAT with IORING_OPEN_FD_TARGET, chdir and
 * fchdir IORING_OP_CHDIR, setsid IORING_OP_SETSID, setpgid
 * IORING_OP_SETPGID(0, pgid), umask IORING_OP_UMASK, resetids
 * IORING_OP_RESETIDS (series-iouring's parity operations, DESIGN.md). The
 * signal actions are CLONE's: the last sigmask is the mask the program
 * starts with (IORING_CLONE_SIGMASK), the sigdefault sets together are
 * reset in the new process (IORING_CLONE_SIGDEFAULT), close_range is
 * IORING_OP_CLOSE with IORING_CLOSE_RANGE, scheduling IORING_OP_SCHED,
 * tcsetpgrp IORING_OP_TCSETPGRP: every action libcompat has.
 * A request refused at submission cancels the whole chain, CLONE
 * included: its own CQE names the failing action.
 *
 * Each thread keeps one ring, made at its first spawn and grown when a
 * chain does not fit, as a long-lived io_uring user would, and with it the
 * chain's results and the search's candidates: a spawn sets up nothing.
 * The ring never has an fd: io_uring_setup() registers it in a table of
 * the thread's own (IORING_SETUP_REGISTERED_FD_ONLY) instead of installing
 * one, and maps memory that the backend allocates (IORING_SETUP_NO_MMAP,
 * which that flag needs: with no fd there is nothing to mmap). So a spawn
 * works with a full fd table (a thread's first spawn included), the
 * caller's fd table does not change, and neither the spawned task nor its
 * program can inherit the ring. A fork() child, which has a copy of the
 * memory but not the registration, drops the copy at its first spawn and
 * makes a ring of its own. A ring is freed when its thread exits.
 *
 * Compiled against the series' uapi headers (abi/iouring.mk puts
 * UAPI_INCLUDE_iouring first for this file); on a kernel without the
 * series the probe says no.
 */
#include <linux/io_uring.h>

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"

#include "../abi/iouring-spawn.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* chain length: CLONE, actions, EXEC candidates */
#define IOURING_MAX_CHAIN 1024

/* the kernel's sigset_t, what CLONE's signal flags take in sqe->len */
#define KERNEL_SIGSET_SIZE (_NSIG / 8)

/*
 * liburing 2.3's INT_FLAG_REG_RING (src/int_flags.h, not installed): the
 * ring is entered through its registered index, enter_ring_fd, with
 * IORING_ENTER_REGISTERED_RING. io_uring_register_ring_fd() sets it; a
 * ring that is registered at setup has to set it itself.
 */
#define LIBURING_INT_FLAG_REG_RING 1

/*
 * Room for the header of the kernel's struct io_rings, which rings_size()
 * (io_uring/io_uring.c) puts before the CQEs, and for the alignment of the
 * SQ array after them: a cache line each at most (48 bytes of header
 * today, SMP_CACHE_BYTES at most 128 on the architectures Linux runs on).
 */
#define RINGS_HEADROOM 256

struct iouring_thread {
	struct io_uring ring;
	size_t sqes_size;		/* the SQE memory's size (the rings' is ring.sq.ring_sz) */
	unsigned int entries;		/* the ring's size; 0: no ring */
	unsigned long generation;	/* the fork_generation it was made in */
	int *res;			/* a result per request of the chain */
	size_t *action;			/* the action each request of the chain stands for */
	struct sched_param *sched;	/* a SCHED request's parameter, read at submission */
	char *paths;			/* the search's candidates */
	size_t paths_size;
};

static __thread struct iouring_thread self;
static unsigned long fork_generation;	/* fork() children made so far, as each one counts */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;

static void drop_ring(struct iouring_thread *t)
{
	struct io_uring_rsrc_update slot = { .offset = (unsigned int)t->ring.enter_ring_fd };

	if (!t->entries)
		return;
	/*
	 * The registration is the ring's only reference: dropping it frees
	 * the ring (by the index: liburing 2.3 unregisters by the fd, and
	 * there is none). A fork() child has no registration, only a copy of
	 * the memory.
	 */
	if (t->generation == fork_generation)
		syscall(__NR_io_uring_register, t->ring.enter_ring_fd,
			IORING_UNREGISTER_RING_FDS | IORING_REGISTER_USE_REGISTERED_RING, &slot, 1);
	munmap(t->ring.sq.sqes, t->sqes_size);
	munmap(t->ring.sq.ring_ptr, t->ring.sq.ring_sz);
	t->entries = 0;
}

/*
 * Make t->ring, of entries SQEs (a power of two, at most 1024) and twice as
 * many CQEs, without an fd: 0 or an errno value. The kernel maps the rings
 * and the SQEs from memory allocated here (IORING_SETUP_NO_MMAP), sized
 * as rings_size() will want, and registers the ring instead of installing
 * an fd (IORING_SETUP_REGISTERED_FD_ONLY): io_uring_setup() returns its
 * registered index. liburing 2.3 cannot set such a ring up (2.5's
 * io_uring_queue_init_mem() can): struct io_uring is filled in here as
 * its io_uring_queue_mmap() does, from the offsets the kernel returns.
 */
static int ring_create(struct iouring_thread *t, unsigned int entries)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_NO_MMAP |
			 IORING_SETUP_REGISTERED_FD_ONLY,
	};
	struct io_uring *ring = &t->ring;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t rings_size, sqes_size;
	char *rings, *sqes;
	int index, error;

	rings_size = RINGS_HEADROOM + 2 * (size_t)entries * sizeof(struct io_uring_cqe) +
		     (size_t)entries * sizeof(__u32);
	rings_size = (rings_size + page - 1) & ~(page - 1);
	sqes_size = (size_t)entries * sizeof(struct io_uring_sqe);
	sqes_size = (sqes_size + page - 1) & ~(page - 1);
	rings = mmap(NULL, rings_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rings == MAP_FAILED)
		return errno;
	sqes = mmap(NULL, sqes_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sqes == MAP_FAILED) {
		error = errno;
		munmap(rings, rings_size);
		return error;
	}
	p.cq_off.user_addr = (uintptr_t)rings;
	p.sq_off.user_addr = (uintptr_t)sqes;
	index = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (index < 0) {
		error = errno;
		munmap(sqes, sqes_size);
		munmap(rings, rings_size);
		return error;
	}
	memset(ring, 0, sizeof(*ring));
	ring->sq.khead = (unsigned int *)(rings + p.sq_off.head);
	ring->sq.ktail = (unsigned int *)(rings + p.sq_off.tail);
	ring->sq.kring_mask = (unsigned int *)(rings + p.sq_off.ring_mask);
	ring->sq.kring_entries = (unsigned int *)(rings + p.sq_off.ring_entries);
	ring->sq.kflags = (unsigned int *)(rings + p.sq_off.flags);
	ring->sq.kdropped = (unsigned int *)(rings + p.sq_off.dropped);
	ring->sq.array = (unsigned int *)(rings + p.sq_off.array);
	ring->sq.sqes = (struct io_uring_sqe *)sqes;
	ring->sq.ring_sz = rings_size;
	ring->sq.ring_ptr = rings;
	ring->cq.khead = (unsigned int *)(rings + p.cq_off.head);
	ring->cq.ktail = (unsigned int *)(rings + p.cq_off.tail);
	ring->cq.kring_mask = (unsigned int *)(rings + p.cq_off.ring_mask);
	ring->cq.kring_entries = (unsigned int *)(rings + p.cq_off.ring_entries);
	ring->cq.koverflow = (unsigned int *)(rings + p.cq_off.overflow);
	ring->cq.cqes = (struct io_uring_cqe *)(rings + p.cq_off.cqes);
	if (p.cq_off.flags)
		ring->cq.kflags = (unsigned int *)(rings + p.cq_off.flags);
	ring->cq.ring_sz = rings_size;
	ring->cq.ring_ptr = rings;
	ring->sq.ring_mask = *ring->sq.kring_mask;
	ring->sq.ring_entries = *ring->sq.kring_entries;
	ring->cq.ring_mask = *ring->cq.kring_mask;
	ring->cq.ring_entries = *ring->cq.kring_entries;
	ring->flags = p.flags;
	ring->features = p.features;
	ring->ring_fd = -1;
	ring->enter_ring_fd = index;
	ring->int_flags = LIBURING_INT_FLAG_REG_RING;
	t->sqes_size = sqes_size;
	t->entries = entries;
	/* what the kernel laid out must lie in what it was given */
	if (p.sq_entries != entries || p.cq_entries != 2 * entries ||
	    (size_t)p.sq_off.array + entries * sizeof(__u32) > rings_size ||
	    (size_t)p.cq_off.cqes + 2 * (size_t)entries * sizeof(struct io_uring_cqe) > rings_size) {
		t->generation = fork_generation;
		drop_ring(t);
		return EOVERFLOW;
	}
	/* each SQ slot names the SQE of its index, as liburing's setup does */
	for (unsigned int i = 0; i < entries; i++)
		ring->sq.array[i] = i;
	return 0;
}

static void thread_exit(void *arg)
{
	struct iouring_thread *t = arg;

	drop_ring(t);
	free(t->res);
	free(t->action);
	free(t->sched);
	free(t->paths);
	*t = (struct iouring_thread){ 0 };
}

static void forked_child(void)
{
	fork_generation++;
}

static void init_once(void)
{
	if (pthread_key_create(&thread_key, thread_exit) == 0)
		pthread_atfork(NULL, NULL, forked_child);
}

/* Makes t's ring hold a chain of len requests; 0 or an errno value. */
static int thread_ring(struct iouring_thread *t, size_t len)
{
	unsigned int entries = 8;
	struct sched_param *sched;
	size_t *action;
	int *res, ret;

	pthread_once(&once, init_once);
	if (t->generation != fork_generation)
		drop_ring(t);		/* our fork() parent's: only our copy goes */
	if (t->entries >= len)
		return 0;
	drop_ring(t);
	while (entries < len)
		entries *= 2;
	res = realloc(t->res, entries * sizeof(*res));
	if (!res)
		return ENOMEM;
	t->res = res;
	action = realloc(t->action, entries * sizeof(*action));
	if (!action)
		return ENOMEM;
	t->action = action;
	sched = realloc(t->sched, entries * sizeof(*sched));
	if (!sched)
		return ENOMEM;
	t->sched = sched;
	ret = ring_create(t, entries);
	if (ret)
		return ret;
	t->generation = fork_generation;
	pthread_setspecific(thread_key, t);
	return 0;
}

/*
 * The series with the parity operations: every opcode that this
 * <linux/io_uring.h> knows after EXEC (the actions' requests), and with
 * them CLONE's signal flags. Probed through the thread's own fd-less ring
 * (made here, kept for its first spawn), so that a caller whose fd table
 * is full learns what the backend can do (glibc's tst-spawn3 probes so).
 */
static bool iouring_probe(void)
{
	size_t size = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
	struct iouring_thread *t = &self;
	struct io_uring_probe *probe;
	bool ok;

	if (thread_ring(t, 1))
		return false;
	probe = calloc(1, size);
	if (!probe)
		return false;
	ok = syscall(__NR_io_uring_register, t->ring.enter_ring_fd,
		     IORING_REGISTER_PROBE | IORING_REGISTER_USE_REGISTERED_RING, probe, 256) == 0 &&
	     iou_spawn_probed(probe) && probe->last_op == IORING_OP_LAST - 1;
	for (int op = IORING_OP_EXEC + 1; ok && op < IORING_OP_LAST; op++)
		ok = io_uring_opcode_supported(probe, op);
	free(probe);
	return ok;
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

/*
 * Whether the fd of the close action i is open in the child when its
 * turn comes: the child's table is a copy of ours, changed by the actions
 * before it (the ring has no fd; a pidfd comes after the copy).
 */
static bool close_is_open(const struct compat_spawn *request, size_t i)
{
	return compat_fd_open_before(request, i, request->actions[i].fd);
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

/*
 * The request that the spawned task issues for action a, linked to the
 * next one; NULL for an action that CLONE's flags carry (sigmask,
 * sigdefault). Actions that compat_check() lets through only.
 */
static struct io_uring_sqe *prep_action(struct io_uring *ring, const struct compat_action *a,
				       struct sched_param *param)
{
	struct io_uring_sqe *sqe;

	if (a->kind == COMPAT_SIGMASK || a->kind == COMPAT_SIGDEFAULT)
		return NULL;
	sqe = io_uring_get_sqe(ring);
	switch (a->kind) {
	case COMPAT_CLOSE:
		io_uring_prep_close(sqe, a->fd);
		break;
	case COMPAT_DUP2:
		if (a->dup2.fd == a->dup2.target)
			io_uring_prep_dup_same(sqe, a->dup2.fd, 0);
		else
			io_uring_prep_dup(sqe, a->dup2.fd, a->dup2.target, 0);
		break;
	case COMPAT_OPEN:
		/* openat(2)'s rules: unknown flag bits ignored, the mode only to create */
		io_uring_prep_openat_fd(sqe, a->open.dirfd, a->open.path, a->open.flags,
					a->open.mode, a->open.target);
		break;
	case COMPAT_CHDIR:
		io_uring_prep_chdir(sqe, a->path);
		break;
	case COMPAT_FCHDIR:
		io_uring_prep_fchdir(sqe, a->fd);
		break;
	case COMPAT_SETSID:
		io_uring_prep_setsid(sqe);
		break;
	case COMPAT_SETPGID:
		io_uring_prep_setpgid(sqe, 0, a->pgid);
		break;
	case COMPAT_UMASK:
		io_uring_prep_umask(sqe, a->umask & 0777);
		break;
	case COMPAT_RESETIDS:
		io_uring_prep_resetids(sqe);
		break;
	case COMPAT_CLOSE_RANGE:
		io_uring_prep_close_range(sqe, a->close_range.first, a->close_range.last,
					  a->close_range.flags);
		break;
	case COMPAT_TCSETPGRP:
		io_uring_prep_tcsetpgrp(sqe, a->fd);
		break;
	case COMPAT_SCHED:
		/* policy -1: the priority alone, as sched_setparam() */
		param->sched_priority = a->sched.priority;
		io_uring_prep_sched(sqe, a->sched.policy, param);
		break;
	default:
		/* compat_check() refused the others */
		io_uring_prep_nop(sqe);
		break;
	}
	sqe->flags |= IOSQE_IO_LINK;
	return sqe;
}

static void iouring_spawn(const struct compat_spawn *request, struct compat_result *result)
{
	struct iouring_thread *t = &self;
	size_t n = request->n_actions, total, execs = 1, i;
	int error = 0, too_long = 0, clone_res, ret;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	const char *candidate;
	int attempts = 0;
	bool want_mask = false, want_dfl = false;
	sigset_t mask, dfl;
	size_t reqs;

	sigemptyset(&mask);
	sigemptyset(&dfl);

	for (i = 0; i < n; i++) {
		const struct compat_action *a = &request->actions[i];

		if (a->kind == COMPAT_CLOSE && !fd_can_be_open(a->fd)) {
			result->error = EBADF;
			result->step = (int)i;
			return;
		}
		/* CLONE's flags: the last mask wins, the resets add up */
		if (a->kind == COMPAT_SIGMASK) {
			mask = a->signals;
			want_mask = true;
		} else if (a->kind == COMPAT_SIGDEFAULT) {
			sigorset(&dfl, &dfl, &a->signals);
			want_dfl = true;
		}
	}
	if (n + 2 > IOURING_MAX_CHAIN) {
		result->error = E2BIG;
		result->step = COMPAT_STEP_REQUEST;
		result->reason = "more actions than the chain allows";
		return;
	}
	if (request->exec_mode == COMPAT_EXEC_SEARCH) {
		execs = compat_path_candidates(request, IOURING_MAX_CHAIN - 1 - n, &t->paths,
					       &t->paths_size, &too_long, result);
		if (!execs)
			return;
	}
	total = 1 + n + execs;
	error = thread_ring(t, total);
	if (error) {
		result->error = error;
		result->step = COMPAT_STEP_CREATE;
		return;
	}

again:
	sqe = io_uring_get_sqe(&t->ring);
	io_uring_prep_clone(sqe, request->want_pidfd ? IORING_CLONE_PIDFD : 0);
	if (want_mask) {
		sqe->clone_flags |= IORING_CLONE_SIGMASK;
		sqe->addr = (uintptr_t)&mask;
	}
	if (want_dfl) {
		sqe->clone_flags |= IORING_CLONE_SIGDEFAULT;
		sqe->off = (uintptr_t)&dfl;
	}
	if (want_mask || want_dfl)
		sqe->len = KERNEL_SIGSET_SIZE;
	sqe->flags |= IOSQE_IO_LINK;
	sqe->user_data = 0;
	reqs = 0;
	for (i = 0; i < n; i++) {
		const struct compat_action *a = &request->actions[i];

		/* a close of an fd that is not open is no error: no request */
		if (a->kind == COMPAT_CLOSE && !close_is_open(request, i))
			continue;
		sqe = prep_action(&t->ring, a, &t->sched[reqs]);
		if (!sqe)
			continue;
		t->action[reqs++] = i;
		sqe->user_data = reqs;
	}
	total = 1 + reqs + execs;
	candidate = t->paths;
	for (i = 0; i < execs; i++) {
		sqe = io_uring_get_sqe(&t->ring);
		if (request->exec_mode == COMPAT_EXEC_SEARCH) {
			io_uring_prep_exec(sqe, candidate, request->argv, request->envp);
			candidate += strlen(candidate) + 1;
		} else {
			io_uring_prep_execveat(sqe, request->dirfd, request->path, request->argv,
					  request->envp, (unsigned int)request->exec_flags);
		}
		if (i + 1 < execs)
			sqe->flags |= IOSQE_IO_HARDLINK;
		sqe->user_data = 1 + reqs + i;
	}
	/* one io_uring_enter(): the chain, and its CQEs, all posted when the child is done */
	ret = io_uring_submit_and_wait(&t->ring, (unsigned int)total);
	if (ret != (int)total) {
		/* SUBMIT_ALL: all of the chain or, when it fails, nothing */
		result->error = ret < 0 ? -ret : EAGAIN;
		result->step = COMPAT_STEP_CREATE;
		drop_ring(t);	/* SQEs may be left in it */
		return;
	}
	for (i = 0; i < total; i++) {
		do {
			ret = io_uring_wait_cqe(&t->ring, &cqe);
		} while (ret == -EINTR);

		if (ret < 0) {
			/* cannot happen short of a kernel bug: say so, leave it */
			result->error = -ret;
			result->step = COMPAT_STEP_UNKNOWN;
			drop_ring(t);
			return;
		}
		if (cqe->user_data < total)
			t->res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&t->ring, cqe);
	}

	clone_res = t->res[0];
	if (clone_res == -EINTR && ++attempts < 100) {
		/*
		 * A signal was pending when CLONE ran: copy_process() refuses
		 * to fork then, and unlike fork(), io_uring does not restart
		 * it. Nothing was spawned (the chain is cancelled): retry.
		 */
		goto again;
	}
	if (clone_res < 0) {
		/*
		 * A request refused at submission (a range whose first fd is
		 * above its last, an empty path to open) fails the whole chain:
		 * CLONE and the others are cancelled, it alone has its error.
		 * Nothing was spawned.
		 */
		for (i = 0; clone_res == -ECANCELED && i < reqs; i++) {
			if (t->res[1 + i] < 0 && t->res[1 + i] != -ECANCELED) {
				result->error = -t->res[1 + i];
				result->step = (int)t->action[i];
				return;
			}
		}
		result->error = -clone_res;
		result->step = COMPAT_STEP_CREATE;
		return;
	}
	for (i = 0; i < reqs; i++) {
		size_t a = t->action[i];
		int res = t->res[1 + i];

		if (res >= 0)
			continue;
		result->error = -res;
		result->step = (int)a;
		reap(clone_res, request->want_pidfd);
		return;
	}
	for (i = 0; i < execs; i++) {
		if (t->res[1 + reqs + i] == 0) {
			if (request->want_pidfd) {
				result->pidfd = clone_res;
				result->pid = pidfd_to_pid(clone_res);
			} else {
				result->pid = clone_res;
			}
			return;
		}
	}

	/* every EXEC failed; the error libcompat's search would end with */
	{
		bool denied = false;

		for (i = 0; i < execs && !error; i++) {
			int e = -t->res[1 + reqs + i];

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
}

const struct compat_backend compat_backend_iouring = {
	.name = "iouring",
	.features = COMPAT_HAS(COMPAT_FEAT_CLOSE) | COMPAT_HAS(COMPAT_FEAT_DUP2) |
		    COMPAT_HAS(COMPAT_FEAT_OPEN) | COMPAT_HAS(COMPAT_FEAT_OPEN_AT) |
		    COMPAT_HAS(COMPAT_FEAT_CLOSE_FROM) | COMPAT_HAS(COMPAT_FEAT_CLOSE_RANGE) |
		    COMPAT_HAS(COMPAT_FEAT_CHDIR) | COMPAT_HAS(COMPAT_FEAT_FCHDIR) |
		    COMPAT_HAS(COMPAT_FEAT_SETSID) | COMPAT_HAS(COMPAT_FEAT_SETPGID) |
		    COMPAT_HAS(COMPAT_FEAT_ANY_ORDER) | COMPAT_HAS(COMPAT_FEAT_SIGMASK) |
		    COMPAT_HAS(COMPAT_FEAT_SIGDEFAULT) | COMPAT_HAS(COMPAT_FEAT_UMASK) |
		    COMPAT_HAS(COMPAT_FEAT_RESETIDS) | COMPAT_HAS(COMPAT_FEAT_SETSCHEDULER) |
		    COMPAT_HAS(COMPAT_FEAT_SETSCHEDPARAM) | COMPAT_HAS(COMPAT_FEAT_TCSETPGRP) |
		    COMPAT_HAS(COMPAT_FEAT_EXEC_AT) |
		    COMPAT_HAS(COMPAT_FEAT_SEARCH) | COMPAT_HAS(COMPAT_FEAT_SEARCH_STRING) |
		    COMPAT_HAS(COMPAT_FEAT_PIDFD) | COMPAT_HAS(COMPAT_FEAT_FAILED_STEP),
	.probe = iouring_probe,
	.spawn = iouring_spawn,
};
