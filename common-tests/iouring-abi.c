// SPDX-License-Identifier: MIT
/*
 * ABI tests of IORING_OP_CLONE / IORING_OP_EXEC (series-iouring), run in
 * the guest on the iouring kernel. The RFC's liburing test scenarios
 * (fail sequence, unlinked CLONE, CLONE not at the head, NOP chain, EXEC
 * outside a chain, $PATH search), re-written, plus what the fixes of the
 * series promise: the pid (or pidfd) in the CLONE CQE, SIGCHLD, CQE order
 * and count, wake-ups in plain and DEFER_TASKRUN rings, CLONE refused on
 * SQPOLL rings and with IOSQE_ASYNC, the hazards review found (issue 11),
 * a ring closed under a spawn, no zombie or leak after 1000 spawns, the
 * caller's seccomp filter judging an EXEC as the execve() or execveat() it
 * stands for, the sched_process_fork tracepoint reporting a CLONE, and the
 * rest of what issue 11 found: the ring usable and the pid known while a
 * chain blocks, no lockdep report and no D state around an execve() of the
 * submitter, EXEC's path read at submit, a dup of the ring closed in a
 * chain, CLONE refused under a tracer that follows forks, audit records of
 * a chain's EXEC.
 *
 * Exec targets: iouring-child, and probe and tiny, next to this binary.
 */
#include "iouring-spawn.h"
#include "audit-netlink.h"
#include "kmsg.h"
#include "proc-children.h"
#include "seccomp-filter.h"
#include "tracefs.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

extern char **environ;

/* generous: the guest is a TCG emulation of a KASAN/lockdep kernel */
#define CQE_TIMEOUT_S 60

static char child_dir[PATH_MAX];
static char child_path[PATH_MAX + 32];

static void find_child(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	cr_assert(n > 0, "readlink /proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	slash = strrchr(self, '/');
	cr_assert(slash);
	*slash = '\0';
	snprintf(child_dir, sizeof(child_dir), "%s", self);
	snprintf(child_path, sizeof(child_path), "%s/iouring-child", self);
	cr_assert(access(child_path, X_OK) == 0, "%s: %s", child_path,
		  strerror(errno));
}

static void setup(void)
{
	find_child();
	if (!iou_spawn_supported())
		cr_skip_test("kernel has no IORING_OP_CLONE/EXEC (probe)");
}

static void ring_init(struct io_uring *ring, unsigned int flags)
{
	struct io_uring_params p = { .flags = flags, .sq_thread_idle = 1000 };
	int ret = io_uring_queue_init_params(16, ring, &p);

	cr_assert(ret == 0, "io_uring_queue_init_params(%#x): %s", flags,
		  strerror(-ret));
}

static struct io_uring_sqe *sqe_get(struct io_uring *ring, __u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	cr_assert(sqe);
	sqe->user_data = ud;
	return sqe;
}

/* SQE 1: CLONE, linked to what follows */
static struct io_uring_sqe *clone_head(struct io_uring *ring,
				       unsigned int clone_flags)
{
	struct io_uring_sqe *sqe = sqe_get(ring, 1);

	io_uring_prep_clone(sqe, clone_flags);
	sqe->flags |= IOSQE_IO_LINK;
	return sqe;
}

/* SQE ud: EXEC of path with the caller's environment */
static struct io_uring_sqe *exec_sqe(struct io_uring *ring, __u64 ud,
				     const char *path, char *const argv[])
{
	struct io_uring_sqe *sqe = sqe_get(ring, ud);

	io_uring_prep_exec(sqe, path, argv, environ);
	return sqe;
}

/*
 * Submit, then collect exactly n CQEs into res[] in arrival order, checking
 * that user_data counts up from 1 (the tests number their SQEs that way).
 * No CQE may follow: the count is exact.
 */
static void submit_and_reap_n(struct io_uring *ring, int n, int *res,
			      int check_extra)
{
	struct __kernel_timespec ts = { .tv_sec = CQE_TIMEOUT_S };
	struct io_uring_cqe *cqe;
	int i, ret;

	ret = io_uring_submit(ring);
	cr_assert(ret >= 0, "submit: %s", strerror(-ret));
	for (i = 0; i < n; i++) {
		/* -EINTR: a handled signal (SIGCHLD in some tests) */
		do {
			ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		} while (ret == -EINTR);
		cr_assert(ret == 0, "CQE %d of %d: %s", i + 1, n, strerror(-ret));
		cr_expect(cqe->user_data == (__u64)i + 1,
			  "CQE %d has user_data %llu", i + 1,
			  (unsigned long long)cqe->user_data);
		res[i] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	if (!check_extra)
		return;
	/* nothing else may arrive */
	usleep(100 * 1000);
	ret = io_uring_peek_cqe(ring, &cqe);
	cr_assert(ret == -EAGAIN, "unexpected extra CQE: user_data %llu res %d",
		  ret ? 0ULL : (unsigned long long)cqe->user_data,
		  ret ? 0 : cqe->res);
}

static void submit_and_reap(struct io_uring *ring, int n, int *res)
{
	submit_and_reap_n(ring, n, res, 1);
}

/* reap pid with plain waitpid() (no __WALL: needs exit signal SIGCHLD) */
static int reap(pid_t pid)
{
	int status;
	pid_t got;

	do {
		got = waitpid(pid, &status, 0);
	} while (got < 0 && errno == EINTR);
	cr_assert(got == pid, "waitpid(%d): %d (%s)", pid, got, strerror(errno));
	return status;
}

static void assert_no_children(void)
{
	int status;
	pid_t got = waitpid(-1, &status, WNOHANG | __WALL);

	cr_assert(got < 0 && errno == ECHILD,
		  "a child is left: waitpid(-1) = %d", got);
}

static void expect_exit(int status, int code)
{
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == code,
		  "child status %#x, expected exit %d", status, code);
}

static void expect_killed(int status)
{
	cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "child status %#x, expected SIGKILL", status);
}

static void marker_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "/tmp/iouring-abi-%d-%s", getpid(), name);
	unlink(buf);
}

TestSuite(iouring, .init = setup, .timeout = 300);

Test(iouring, probe_lists_clone_and_exec)
{
	struct io_uring_probe *probe = io_uring_get_probe();

	cr_assert(probe);
	cr_expect(probe->last_op >= IORING_OP_EXEC, "last_op %d", probe->last_op);
	cr_expect(io_uring_opcode_supported(probe, IORING_OP_CLONE));
	cr_expect(io_uring_opcode_supported(probe, IORING_OP_EXEC));
	io_uring_free_probe(probe);
}

/* RFC: a failing request cancels the rest of the chain */
Test(iouring, failing_request_cancels_rest)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[3];

	ring_init(&ring, 0);
	clone_head(&ring, 0);
	sqe = sqe_get(&ring, 2);
	io_uring_prep_nop(sqe);
	sqe->nop_flags = IORING_NOP_INJECT_RESULT;
	sqe->len = -255;
	sqe->flags |= IOSQE_IO_LINK;
	sqe = sqe_get(&ring, 3);
	io_uring_prep_nop(sqe);
	submit_and_reap(&ring, 3, res);

	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == -255, "failing NOP: %d", res[1]);
	cr_expect(res[2] == -ECANCELED, "NOP after it: %d", res[2]);
	/* no EXEC: the spawned task kills itself */
	expect_killed(reap(res[0]));
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* RFC: CLONE not linked is -EINVAL */
Test(iouring, unlinked_clone_is_einval)
{
	struct io_uring ring;
	int res[1];

	ring_init(&ring, 0);
	io_uring_prep_clone(sqe_get(&ring, 1), 0);
	submit_and_reap(&ring, 1, res);
	cr_expect(res[0] == -EINVAL, "unlinked CLONE: %d", res[0]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* RFC: CLONE not at the head is -EINVAL and the head is cancelled */
Test(iouring, clone_not_at_head)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[3];

	ring_init(&ring, 0);
	sqe = sqe_get(&ring, 1);
	io_uring_prep_nop(sqe);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = sqe_get(&ring, 2);
	io_uring_prep_clone(sqe, 0);
	sqe->flags |= IOSQE_IO_LINK;
	io_uring_prep_nop(sqe_get(&ring, 3));
	submit_and_reap(&ring, 3, res);
	cr_expect(res[0] == -ECANCELED, "head NOP: %d", res[0]);
	cr_expect(res[1] == -EINVAL, "CLONE in the middle: %d", res[1]);
	cr_expect(res[2] == -ECANCELED, "last NOP: %d", res[2]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* RFC: a chain of NOPs after CLONE completes, in order */
Test(iouring, nop_chain)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[6], i;

	ring_init(&ring, 0);
	clone_head(&ring, 0);
	for (i = 2; i <= 6; i++) {
		sqe = sqe_get(&ring, i);
		io_uring_prep_nop(sqe);
		if (i < 6)
			sqe->flags |= IOSQE_IO_LINK;
	}
	submit_and_reap(&ring, 6, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	for (i = 1; i < 6; i++)
		cr_expect(res[i] == 0, "NOP %d: %d", i, res[i]);
	expect_killed(reap(res[0]));
	io_uring_queue_exit(&ring);
}

/* RFC: EXEC outside a CLONE chain is -EINVAL */
Test(iouring, exec_outside_chain)
{
	char *argv[] = { "iouring-child", "5", NULL };
	struct io_uring ring;
	int res[1];

	ring_init(&ring, 0);
	exec_sqe(&ring, 1, child_path, argv);
	submit_and_reap(&ring, 1, res);
	cr_expect(res[0] == -EINVAL, "EXEC alone: %d", res[0]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/*
 * RFC: $PATH search with hard-linked EXECs: -ENOENT for the misses, 0 for
 * the hit, -ECANCELED after it, and the program really runs: it creates a
 * file and its exit status is reaped with the pid of the CLONE CQE.
 */
Test(iouring, path_search)
{
	const char *dirs[] = { "/nonexistent-a", "/nonexistent-b", child_dir,
			       "/bin" };
	char paths[4][PATH_MAX + 32], marker[PATH_MAX];
	char *argv[] = { "iouring-child", "7", marker, NULL };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[5], i;

	marker_path(marker, sizeof(marker), "path");
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	for (i = 0; i < 4; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/iouring-child", dirs[i]);
		sqe = exec_sqe(&ring, i + 2, paths[i], argv);
		if (i < 3)
			sqe->flags |= IOSQE_IO_HARDLINK;
	}
	submit_and_reap(&ring, 5, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == -ENOENT, "miss 1: %d", res[1]);
	cr_expect(res[2] == -ENOENT, "miss 2: %d", res[2]);
	cr_expect(res[3] == 0, "hit: %d", res[3]);
	cr_expect(res[4] == -ECANCELED, "after the hit: %d", res[4]);
	expect_exit(reap(res[0]), 7);
	cr_expect(access(marker, F_OK) == 0, "the program did not run");
	unlink(marker);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* EXEC of an fd: execve_flags AT_EMPTY_PATH with an empty path */
Test(iouring, exec_fd_empty_path)
{
	char *argv[] = { "iouring-child", "21", NULL };
	struct io_uring ring;
	int res[2], fd;

	fd = open(child_path, O_RDONLY | O_CLOEXEC);
	cr_assert(fd >= 0);
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	io_uring_prep_execveat(sqe_get(&ring, 2), fd, "", argv, environ, AT_EMPTY_PATH);
	submit_and_reap(&ring, 2, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == 0, "EXEC(fd, \"\", AT_EMPTY_PATH): %d", res[1]);
	expect_exit(reap(res[0]), 21);
	close(fd);
	io_uring_queue_exit(&ring);
}

/*
 * CLONE, then an EXEC of a missing file linked by link to an EXEC of
 * second; the child runs neither, so it kills itself. CQE results in res.
 */
static void miss_then_exec(unsigned int link, const char *second, int res[3])
{
	char *argv[] = { "iouring-child", NULL };
	struct io_uring ring;

	ring_init(&ring, 0);
	clone_head(&ring, 0);
	exec_sqe(&ring, 2, "/nonexistent-a/x", argv)->flags |= link;
	exec_sqe(&ring, 3, second, argv);
	submit_and_reap(&ring, 3, res);
	io_uring_queue_exit(&ring);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	expect_killed(reap(res[0]));
}

/* all EXECs miss: the child kills itself, every CQE is there */
Test(iouring, path_search_all_miss)
{
	int res[3];

	miss_then_exec(IOSQE_IO_HARDLINK, "/nonexistent-b/x", res);
	cr_expect(res[1] == -ENOENT && res[2] == -ENOENT, "%d %d", res[1], res[2]);
}

/* a soft-linked failing EXEC cancels the EXEC after it */
Test(iouring, soft_link_failure_cancels)
{
	int res[3];

	miss_then_exec(IOSQE_IO_LINK, child_path, res);
	cr_expect(res[1] == -ENOENT, "miss: %d", res[1]);
	cr_expect(res[2] == -ECANCELED, "soft-linked EXEC: %d", res[2]);
}

/* CLONE; EXEC in one ring mode, waiting with a timeout: a missed wake-up fails */
static void spawn_in_mode(unsigned int setup_flags, unsigned int clone_sqe_flags)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "3", marker, NULL };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[3], round;

	ring_init(&ring, setup_flags);
	for (round = 0; round < 3; round++) {
		marker_path(marker, sizeof(marker), "mode");
		sqe = clone_head(&ring, 0);
		sqe->flags |= clone_sqe_flags;
		sqe = sqe_get(&ring, 2);
		io_uring_prep_nop(sqe);
		sqe->flags |= IOSQE_IO_LINK;
		exec_sqe(&ring, 3, child_path, argv);
		submit_and_reap(&ring, 3, res);
		cr_assert(res[0] > 0, "CLONE: %d", res[0]);
		cr_expect(res[1] == 0, "NOP: %d", res[1]);
		cr_expect(res[2] == 0, "EXEC: %d", res[2]);
		/* exit 3, not 99: the child starts with no signal blocked */
		expect_exit(reap(res[0]), 3);
		cr_expect(access(marker, F_OK) == 0, "the program did not run");
		unlink(marker);
	}
	io_uring_queue_exit(&ring);
	assert_no_children();
}

Test(iouring, mode_plain)
{
	spawn_in_mode(0, 0);
}


Test(iouring, mode_defer_taskrun)
{
	spawn_in_mode(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER, 0);
}

/*
 * CLONE issued by an io-wq worker (IOSQE_ASYNC) or the SQPOLL thread would
 * copy that thread, whose credentials, seccomp filter, no_new_privs and
 * affinity are the ring creator's of long ago: refused, nothing runs.
 */
static void refused_in_mode(unsigned int setup_flags, unsigned int clone_sqe_flags)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "3", marker, NULL };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int res[2];

	marker_path(marker, sizeof(marker), "refused");
	ring_init(&ring, setup_flags);
	sqe = clone_head(&ring, 0);
	sqe->flags |= clone_sqe_flags;
	exec_sqe(&ring, 2, child_path, argv);
	submit_and_reap(&ring, 2, res);
	cr_expect(res[0] == -EINVAL, "CLONE: %d", res[0]);
	cr_expect(res[1] == -ECANCELED, "EXEC: %d", res[1]);
	usleep(100 * 1000);
	cr_expect(access(marker, F_OK) != 0, "the program ran");
	io_uring_queue_exit(&ring);
	assert_no_children();
}

Test(iouring, clone_refused_in_sqpoll)
{
	refused_in_mode(IORING_SETUP_SQPOLL, 0);
}

Test(iouring, clone_async_refused_plain)
{
	refused_in_mode(0, IOSQE_ASYNC);
}

Test(iouring, clone_async_refused_defer_taskrun)
{
	refused_in_mode(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
			IOSQE_ASYNC);
}

Test(iouring, clone_async_refused_sqpoll)
{
	refused_in_mode(IORING_SETUP_SQPOLL, IOSQE_ASYNC);
}

/*
 * A refused CLONE cancels its chain even when it is hard-linked: a hard
 * link lets the next request run after a failure, and with no task made
 * that request would run in the submitter (here: close the submitter's own
 * fd). Refused by the issuing thread (IOSQE_ASYNC) and by what the chain
 * holds (a TIMEOUT, which completes later).
 */
static void refused_hardlinked(unsigned int clone_sqe_flags, bool timeout_in_chain)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int n = timeout_in_chain ? 3 : 2, res[3];
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;

	cr_assert_geq(fd, 0, "open /dev/null: %s", strerror(errno));
	ring_init(&ring, 0);
	sqe = clone_head(&ring, 0);
	sqe->flags = IOSQE_IO_HARDLINK | clone_sqe_flags;
	sqe = sqe_get(&ring, 2);
	io_uring_prep_close(sqe, fd);
	if (timeout_in_chain) {
		sqe->flags |= IOSQE_IO_HARDLINK;
		io_uring_prep_timeout(sqe_get(&ring, 3), &ts, 0, 0);
	}
	submit_and_reap(&ring, n, res);
	cr_expect(res[0] == -EINVAL, "CLONE: %d", res[0]);
	for (int i = 1; i < n; i++)
		cr_expect(res[i] == -ECANCELED, "request %d after the refused CLONE: %d", i + 1,
			  res[i]);
	cr_expect(fcntl(fd, F_GETFD) >= 0,
		  "the chain of a refused CLONE closed the submitter's fd %d", fd);
	close(fd);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

Test(iouring, refused_hardlinked_clone_cancels_chain_async)
{
	refused_hardlinked(IOSQE_ASYNC, false);
}

Test(iouring, refused_hardlinked_clone_cancels_chain_op)
{
	refused_hardlinked(0, true);
}

/* the pid in the CLONE CQE is the child's: plain waitpid() reaps it */
static volatile sig_atomic_t got_sigchld;

static void on_sigchld(int sig)
{
	(void)sig;
	got_sigchld = 1;
}

Test(iouring, pid_in_cqe_and_sigchld)
{
	char *argv[] = { "iouring-child", "42", NULL };
	struct sigaction sa = { .sa_handler = on_sigchld,
				.sa_flags = SA_RESTART };
	struct io_uring ring;
	int res[2];

	cr_assert(sigaction(SIGCHLD, &sa, NULL) == 0);
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	exec_sqe(&ring, 2, child_path, argv);
	submit_and_reap(&ring, 2, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == 0, "EXEC: %d", res[1]);
	expect_exit(reap(res[0]), 42);
	/* the exit was signalled with SIGCHLD */
	cr_expect(got_sigchld, "no SIGCHLD");
	io_uring_queue_exit(&ring);
	assert_no_children();
}

Test(iouring, pidfd)
{
	char *argv[] = { "iouring-child", "9", NULL };
	struct io_uring ring;
	siginfo_t info;
	char link[64], target[128];
	ssize_t n;
	int res[2];

	ring_init(&ring, 0);
	clone_head(&ring, IORING_CLONE_PIDFD);
	exec_sqe(&ring, 2, child_path, argv);
	submit_and_reap(&ring, 2, res);
	cr_assert(res[0] >= 0, "CLONE(PIDFD): %d", res[0]);
	cr_expect(res[1] == 0, "EXEC: %d", res[1]);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", res[0]);
	n = readlink(link, target, sizeof(target) - 1);
	cr_assert(n > 0);
	target[n] = '\0';
	cr_expect(strstr(target, "pidfd") != NULL, "fd %d is %s", res[0], target);
	cr_expect(fcntl(res[0], F_GETFD) & FD_CLOEXEC, "pidfd without O_CLOEXEC");
	memset(&info, 0, sizeof(info));
	cr_assert(waitid(P_PIDFD, res[0], &info, WEXITED) == 0, "waitid: %s",
		  strerror(errno));
	cr_expect(info.si_code == CLD_EXITED && info.si_status == 9,
		  "code %d status %d", info.si_code, info.si_status);
	close(res[0]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* no fd left for the pidfd: CLONE fails, the chain is cancelled, the child exits */
Test(iouring, pidfd_emfile)
{
	char *argv[] = { "iouring-child", NULL };
	struct rlimit rl = { .rlim_cur = 64, .rlim_max = 64 };
	struct io_uring ring;
	int res[2], status;
	pid_t pid;

	ring_init(&ring, 0);
	cr_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	while (open("/dev/null", O_RDONLY) >= 0)
		;
	cr_assert(errno == EMFILE);
	clone_head(&ring, IORING_CLONE_PIDFD);
	exec_sqe(&ring, 2, child_path, argv);
	submit_and_reap(&ring, 2, res);
	cr_expect(res[0] == -EMFILE, "CLONE(PIDFD): %d", res[0]);
	cr_expect(res[1] == -ECANCELED, "EXEC: %d", res[1]);
	/* the child existed: it is reaped like any other, killed */
	do {
		pid = waitpid(-1, &status, 0);
	} while (pid < 0 && errno == EINTR);
	cr_assert(pid > 0, "waitpid: %s", strerror(errno));
	expect_killed(status);
	assert_no_children();
}

Test(iouring, unknown_clone_flag_is_einval)
{
	struct io_uring ring;
	int res[2];

	ring_init(&ring, 0);
	clone_head(&ring, 1U << 31);
	io_uring_prep_nop(sqe_get(&ring, 2));
	submit_and_reap(&ring, 2, res);
	cr_expect(res[0] == -EINVAL, "CLONE: %d", res[0]);
	cr_expect(res[1] == -ECANCELED, "NOP: %d", res[1]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/*
 * Only requests that finish when their issue returns may follow CLONE: a
 * TIMEOUT or POLL_ADD would complete after the next request ran, and
 * ASYNC_CANCEL reached a WARN_ON_ONCE. The CLONE fails, nothing runs.
 */
Test(iouring, requests_completing_later_are_refused)
{
	static const char *const names[] = { "LINK_TIMEOUT", "TIMEOUT", "POLL_ADD",
					     "ASYNC_CANCEL" };
	struct __kernel_timespec ts = { .tv_sec = 1 };
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "0", marker, NULL };
	int pipefd[2];

	cr_assert(pipe(pipefd) == 0);
	for (int kind = 0; kind < 4; kind++) {
		struct io_uring ring;
		struct io_uring_sqe *sqe;
		int res[3];

		marker_path(marker, sizeof(marker), "later");
		ring_init(&ring, 0);
		clone_head(&ring, 0);
		sqe = sqe_get(&ring, 2);
		if (kind == 0)
			io_uring_prep_link_timeout(sqe, &ts, 0);
		else if (kind == 1)
			io_uring_prep_timeout(sqe, &ts, 0, 0);
		else if (kind == 2)
			io_uring_prep_poll_add(sqe, pipefd[0], POLLIN);
		else
			io_uring_prep_cancel64(sqe, 12345, 0);
		sqe->flags |= IOSQE_IO_LINK;
		exec_sqe(&ring, 3, child_path, argv);
		submit_and_reap(&ring, 3, res);
		cr_expect(res[0] == -EINVAL, "%s: CLONE %d", names[kind], res[0]);
		cr_expect(res[1] == -ECANCELED, "%s: %d", names[kind], res[1]);
		cr_expect(res[2] == -ECANCELED, "%s: EXEC %d", names[kind], res[2]);
		cr_expect(access(marker, F_OK) != 0, "%s: the program ran", names[kind]);
		io_uring_queue_exit(&ring);
		assert_no_children();
	}
	close(pipefd[0]);
	close(pipefd[1]);
}

/*
 * The spawned task pid ran iouring-child with exit code 0 and marker as
 * its file (runs), or killed itself without running it; removes marker.
 */
static void expect_ran(pid_t pid, const char *marker, bool runs)
{
	if (runs)
		expect_exit(reap(pid), 0);
	else
		expect_killed(reap(pid));
	cr_expect((access(marker, F_OK) == 0) == runs, "the program %s", runs ? "did not run" : "ran");
	unlink(marker);
}

/*
 * SQE 2, already in the ring after the CLONE, must complete with want; the
 * EXEC after it then runs the program (runs) or is cancelled, and the
 * spawned task kills itself.
 */
static void expect_then_exec(struct io_uring *ring, const char *what, int want, bool runs)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "0", marker, NULL };
	int res[3];

	marker_path(marker, sizeof(marker), "after");
	exec_sqe(ring, 3, child_path, argv);
	submit_and_reap(ring, 3, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == want, "%s: %d, expected %d", what, res[1], want);
	cr_expect(res[2] == (runs ? 0 : -ECANCELED), "EXEC after %s: %d", what, res[2]);
	expect_ran(res[0], marker, runs);
	io_uring_queue_exit(ring);
	assert_no_children();
}

/* an error at issue is the request's own result; a hard link goes on */
Test(iouring, issue_error_is_posted)
{
	static char buf[16];
	struct io_uring ring;
	struct io_uring_sqe *sqe;

	ring_init(&ring, 0);
	clone_head(&ring, 0);
	sqe = sqe_get(&ring, 2);
	io_uring_prep_read(sqe, 1000, buf, sizeof(buf), 0);
	sqe->flags |= IOSQE_IO_HARDLINK;
	expect_then_exec(&ring, "READ of a bad fd", -EBADF, true);
}

/* STATX only sets its result when it fails: it must still break the link */
Test(iouring, failed_statx_cancels_rest)
{
	static struct statx stx;
	struct io_uring ring;
	struct io_uring_sqe *sqe;

	ring_init(&ring, 0);
	clone_head(&ring, 0);
	sqe = sqe_get(&ring, 2);
	io_uring_prep_statx(sqe, AT_FDCWD, "/nonexistent", 0, STATX_BASIC_STATS, &stx);
	sqe->flags |= IOSQE_IO_LINK;
	expect_then_exec(&ring, "STATX of a missing path", -ENOENT, false);
}

/*
 * A personality is refused at prep on EXEC (commit_creds() BUG()s on
 * overridden credentials) and on CLONE (the whole chain would run with
 * them): the request fails with -EINVAL, the rest of the chain is
 * cancelled, nothing runs.
 */
static void personality_refused(bool on_clone)
{
	char *argv[] = { "iouring-child", NULL };
	struct io_uring ring;
	struct io_uring_sqe *clone, *exec;
	int res[2], id;

	ring_init(&ring, 0);
	id = io_uring_register_personality(&ring);
	cr_assert(id > 0, "register personality: %d", id);
	clone = clone_head(&ring, 0);
	exec = exec_sqe(&ring, 2, child_path, argv);
	(on_clone ? clone : exec)->personality = id;
	submit_and_reap(&ring, 2, res);
	cr_expect(res[0] == (on_clone ? -EINVAL : -ECANCELED), "CLONE: %d", res[0]);
	cr_expect(res[1] == (on_clone ? -ECANCELED : -EINVAL), "EXEC: %d", res[1]);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

Test(iouring, exec_with_personality_is_einval)
{
	personality_refused(false);
}

Test(iouring, clone_with_personality_is_einval)
{
	personality_refused(true);
}

/* SIGKILL to the spawned task while a request blocks ends the chain there */
Test(iouring, sigkill_stops_chain)
{
	char fifo[PATH_MAX], marker[PATH_MAX];
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	pid_t task;
	int res[3];

	marker_path(fifo, sizeof(fifo), "fifo");
	marker_path(marker, sizeof(marker), "after-kill");
	cr_assert(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	sqe = sqe_get(&ring, 2);
	io_uring_prep_openat(sqe, AT_FDCWD, fifo, O_RDONLY, 0);
	sqe->flags |= IOSQE_IO_HARDLINK;
	sqe = sqe_get(&ring, 3);
	io_uring_prep_openat(sqe, AT_FDCWD, marker, O_WRONLY | O_CREAT, 0644);
	cr_assert(io_uring_submit(&ring) == 3);
	task = proc_find_child(5000);
	cr_assert(task > 0, "no spawned task appeared");
	usleep(200 * 1000);	/* let it block in the fifo open */
	cr_assert(kill(task, SIGKILL) == 0, "kill: %s", strerror(errno));
	submit_and_reap(&ring, 3, res);
	cr_expect(res[0] == task, "CLONE: %d, the task was %d", res[0], task);
	cr_expect(res[1] < 0, "fifo OPENAT: %d", res[1]);
	cr_expect(res[2] == -ECANCELED, "OPENAT after the kill: %d", res[2]);
	cr_expect(access(marker, F_OK) != 0, "a request ran after SIGKILL");
	expect_killed(reap(task));
	unlink(marker);
	unlink(fifo);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	return in >= 0 && out >= 0 && chmod(to, mode) == 0 ? 0 : -1;
}

/*
 * For forked processes, which must not use criterion's assertions: wait
 * for n CQEs and put their results in res[] in arrival order. 0, or the
 * error of the wait (-ETIME after CQE_TIMEOUT_S).
 */
static int wait_cqes(struct io_uring *ring, int n, int *res)
{
	struct __kernel_timespec ts = { .tv_sec = CQE_TIMEOUT_S };
	struct io_uring_cqe *cqe;

	for (int i = 0; i < n; i++) {
		int ret;

		do {
			ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		} while (ret == -EINTR);
		if (ret)
			return ret;
		res[i] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/*
 * As uid 1000: CLONE, EXEC of a set-uid root program made to fail after
 * exec's point of no return (RLIMIT_AS of 64 KiB: the new stack cannot
 * grow), hard-linked to MKDIRAT of a path only root may create. Exit 0 when
 * the EXEC failed as planned, 2 when the set-up failed, 3 when it did not.
 */
static int failed_setuid_exec_chain(const char *suid, const char *target)
{
	char *argv[] = { "iouring-child", NULL }, *envp[] = { NULL };
	struct rlimit as, small;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int res[3] = { 0 }, i;

	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ||
	    io_uring_queue_init(8, &ring, 0))
		return 2;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_clone(sqe, 0);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_exec(sqe, suid, argv, envp);
	sqe->flags |= IOSQE_IO_HARDLINK;
	io_uring_prep_mkdirat(io_uring_get_sqe(&ring), AT_FDCWD, target, 0755);
	getrlimit(RLIMIT_AS, &as);
	small = as;
	small.rlim_cur = 64 << 10;
	setrlimit(RLIMIT_AS, &small);
	i = io_uring_submit(&ring);
	setrlimit(RLIMIT_AS, &as);
	if (i != 3 || wait_cqes(&ring, 3, res))
		return 2;
	fprintf(stderr, "set-uid chain: CLONE %d, EXEC %d, MKDIRAT %d\n", res[0], res[1], res[2]);
	if (res[0] > 0)
		waitpid(res[0], NULL, 0);
	return res[0] > 0 && res[1] < 0 ? 0 : 3;
}

Test(iouring, failed_setuid_exec_runs_nothing_after)
{
	char dir[PATH_MAX], target[PATH_MAX + 8], suid[PATH_MAX];
	pid_t pid;
	int status;

	marker_path(dir, sizeof(dir), "rootonly");
	rmdir(dir);
	cr_assert(mkdir(dir, 0700) == 0, "mkdir: %s", strerror(errno));
	snprintf(target, sizeof(target), "%s/x", dir);
	marker_path(suid, sizeof(suid), "suid");
	cr_assert(copy_file(child_path, suid, 04755) == 0, "copy: %s", strerror(errno));
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0)
		_exit(failed_setuid_exec_chain(suid, target));
	status = reap(pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the unprivileged chain: status %#x (2: set-up failed, 3: the EXEC did not fail)",
		  status);
	cr_expect(access(target, F_OK) != 0,
		  "MKDIRAT ran with the credentials of a set-uid exec that failed");
	rmdir(target);
	rmdir(dir);
	unlink(suid);
	assert_no_children();
}

/* the ring is closed right after submission: the child still execs */
Test(iouring, ring_closed_after_spawn)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "11", marker, NULL };
	struct io_uring ring;
	int status, ret;
	pid_t pid;

	marker_path(marker, sizeof(marker), "closed");
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	exec_sqe(&ring, 2, child_path, argv);
	ret = io_uring_submit(&ring);
	cr_assert(ret == 2, "submit: %d", ret);
	io_uring_queue_exit(&ring);

	do {
		pid = waitpid(-1, &status, 0);
	} while (pid < 0 && errno == EINTR);
	cr_assert(pid > 0, "waitpid: %s", strerror(errno));
	expect_exit(status, 11);
	cr_expect(access(marker, F_OK) == 0, "the program did not run");
	unlink(marker);
	assert_no_children();
}

/*
 * The submitting process exits right after io_uring_submit(), before any
 * CQE: the child still execs (it is reparented to us, the subreaper), and
 * nothing hangs in the parent's exit, which waits for its inflight
 * requests, nor in ours.
 */
Test(iouring, parent_exits_after_submit)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "13", marker, NULL };
	int status, seen = 0, code = -1;
	pid_t helper, pid;

	marker_path(marker, sizeof(marker), "orphan");
	cr_assert(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	helper = fork();
	cr_assert(helper >= 0);
	if (helper == 0) {
		struct io_uring ring;
		struct io_uring_sqe *sqe;

		if (io_uring_queue_init(8, &ring, 0))
			_exit(2);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_clone(sqe, 0);
		sqe->flags |= IOSQE_IO_LINK;
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_exec(sqe, child_path, argv, environ);
		_exit(io_uring_submit(&ring) == 2 ? 0 : 3);
	}
	/* the helper, then the spawned child, reparented to us */
	while (seen < 2) {
		pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		cr_assert(pid > 0, "waitpid: %s (seen %d)", strerror(errno), seen);
		seen++;
		if (pid == helper)
			cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				  "helper status %#x", status);
		else
			code = WIFEXITED(status) ? WEXITSTATUS(status) : -status;
	}
	cr_expect(code == 13, "spawned child: %d", code);
	cr_expect(access(marker, F_OK) == 0, "the program did not run");
	unlink(marker);
	assert_no_children();
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	cr_assert(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}


/* 1000 spawns in a row: no zombie, no leaked fd or task, all CQEs there */
Test(iouring, thousand_spawns, .timeout = 1200)
{
	char *argv[] = { "iouring-child", "0", NULL };
	struct io_uring ring;
	int fds_before, i, res[2];

	fds_before = count_fds();
	ring_init(&ring, 0);
	for (i = 0; i < 1000; i++) {
		clone_head(&ring, 0);
		exec_sqe(&ring, 2, child_path, argv);
		submit_and_reap_n(&ring, 2, res, 0);
		cr_assert(res[0] > 0 && res[1] == 0, "spawn %d: %d %d", i,
			  res[0], res[1]);
		expect_exit(reap(res[0]), 0);
	}
	io_uring_queue_exit(&ring);
	assert_no_children();
	cr_expect(count_fds() == fds_before, "fds: %d before, %d after",
		  fds_before, count_fds());
	cr_expect(iou_count_spawn_tasks() == 0, "iou-spawn tasks left");
}

/*
 * ---- the caller's seccomp filter judges an EXEC ----
 *
 * A filter sees an EXEC as the call a C caller would make: execve() when
 * it has dirfd AT_FDCWD and no flags, else execveat(), with the EXEC's
 * arguments. ERRNO verdicts fail it with their errno, any other verdict
 * with -EPERM. The filters are installed by this process, the submitter:
 * the spawned task has them because it is a copy of it.
 */

/*
 * CLONE, then EXEC(dfd, path, flags) of iouring-child, which exits 0 and
 * creates a file. The EXEC must complete with want: with 0 the program
 * runs; otherwise the spawned task kills itself, as after any failed
 * EXEC, and the program never ran. Returns the spawned task's pid, reaped.
 */
static pid_t exec_expect(int dfd, const char *path, unsigned int flags, int want)
{
	char marker[PATH_MAX];
	char *argv[] = { "iouring-child", "0", marker, NULL };
	struct io_uring ring;
	int res[2];

	marker_path(marker, sizeof(marker), "exec");
	ring_init(&ring, 0);
	clone_head(&ring, 0);
	io_uring_prep_execveat(sqe_get(&ring, 2), dfd, path, argv, environ, flags);
	submit_and_reap(&ring, 2, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] == want, "EXEC(dirfd %d, \"%s\", flags %#x): %d (%s), expected %d (%s)",
		  dfd, path, flags, res[1], strerror(-res[1]), want, strerror(-want));
	expect_ran(res[0], marker, want == 0);
	io_uring_queue_exit(&ring);
	assert_no_children();
	return res[0];
}

/* iouring-child open for an EXEC of the fd (AT_EMPTY_PATH) */
static int open_child(void)
{
	int fd = open(child_path, O_RDONLY | O_CLOEXEC);

	cr_assert(fd >= 0, "%s: %s", child_path, strerror(errno));
	return fd;
}

/* execve() refused: a plain EXEC fails with the errno; an EXEC of an fd is execveat() */
Test(iouring, seccomp_errno_on_execve_refuses_plain_exec)
{
	int fd = open_child();

	install_filter(__NR_execve, SECCOMP_RET_ERRNO | EPERM);
	exec_expect(AT_FDCWD, child_path, 0, -EPERM);
	exec_expect(fd, "", AT_EMPTY_PATH, 0);
	close(fd);
}

/* execveat() refused: an EXEC with a dirfd or flags fails with the errno, a plain one runs */
Test(iouring, seccomp_errno_on_execveat_spares_plain_exec)
{
	int fd = open_child(), dir = open(child_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	cr_assert(dir >= 0, "%s: %s", child_dir, strerror(errno));
	install_filter(__NR_execveat, SECCOMP_RET_ERRNO | ENOSYS);
	exec_expect(AT_FDCWD, child_path, 0, 0);
	exec_expect(fd, "", AT_EMPTY_PATH, -ENOSYS);
	exec_expect(dir, "iouring-child", 0, -ENOSYS);
	exec_expect(AT_FDCWD, child_path, AT_SYMLINK_NOFOLLOW, -ENOSYS);
	close(dir);
	close(fd);
}

/* the filter sees the arguments: the dirfd, the flags, the path pointer */
Test(iouring, seccomp_sees_exec_arguments)
{
	static char path_copy[sizeof(child_path)];
	int fd = open_child(), other_fd = open_child();
	const struct seccomp_rule rules[] = {
		{ .nr = __NR_execveat, .test = ARG_EQUAL, .arg = 0, .value = (uint32_t)fd,
		  .verdict = SECCOMP_RET_ERRNO | EXDEV },
		{ .nr = __NR_execveat, .test = ARG_EQUAL, .arg = 4, .value = AT_SYMLINK_NOFOLLOW,
		  .verdict = SECCOMP_RET_ERRNO | ENOTNAM },
		{ .nr = __NR_execve, .test = ARG_EQUAL, .arg = 0, .value = (uintptr_t)child_path,
		  .verdict = SECCOMP_RET_ERRNO | ENOTBLK },
	};

	strcpy(path_copy, child_path);
	install_rules(rules, 3);
	exec_expect(fd, "", AT_EMPTY_PATH, -EXDEV);
	exec_expect(other_fd, "", AT_EMPTY_PATH, 0);
	exec_expect(AT_FDCWD, child_path, AT_SYMLINK_NOFOLLOW, -ENOTNAM);
	exec_expect(AT_FDCWD, child_path, 0, -ENOTBLK);
	exec_expect(AT_FDCWD, path_copy, 0, 0);
	close(other_fd);
	close(fd);
}

static volatile sig_atomic_t got_sigsys;

static void on_sigsys(int sig)
{
	(void)sig;
	got_sigsys = 1;
}

/*
 * A verdict for execve() that cannot be carried out on a call nobody made
 * (kill, trap, trace, notify, ERRNO 0): the plain EXEC fails with -EPERM,
 * and the submitter is neither killed (the test goes on) nor signalled (it
 * catches SIGSYS).
 */
static void verdict_refuses_exec(uint32_t verdict)
{
	struct sigaction sa = { .sa_handler = on_sigsys };

	cr_assert(sigaction(SIGSYS, &sa, NULL) == 0);
	install_filter(__NR_execve, verdict);
	exec_expect(AT_FDCWD, child_path, 0, -EPERM);
	cr_expect(!got_sigsys, "the submitter got SIGSYS");
}

Test(iouring, seccomp_kill_process_is_eperm_and_submitter_lives)
{
	verdict_refuses_exec(SECCOMP_RET_KILL_PROCESS);
}

Test(iouring, seccomp_kill_thread_is_eperm)
{
	verdict_refuses_exec(SECCOMP_RET_KILL_THREAD);
}

Test(iouring, seccomp_trap_is_eperm_without_sigsys)
{
	verdict_refuses_exec(SECCOMP_RET_TRAP);
}

Test(iouring, seccomp_trace_is_eperm)
{
	verdict_refuses_exec(SECCOMP_RET_TRACE);
}

Test(iouring, seccomp_user_notif_is_eperm)
{
	verdict_refuses_exec(SECCOMP_RET_USER_NOTIF);
}

Test(iouring, seccomp_errno_zero_is_eperm)
{
	verdict_refuses_exec(SECCOMP_RET_ERRNO | 0);
}

/*
 * ---- the sched_process_fork tracepoint reports a CLONE ----
 *
 * Tools that follow process lineage read this event: the task a CLONE
 * creates is reported with the submitting thread as its parent, as a
 * fork() child is. A fork() first shows that the trace records this
 * thread's forks at all.
 */
Test(iouring, fork_tracepoint_reports_clone, .fini = tracefs_fork_event_off)
{
	static char trace[1 << 18];
	pid_t self = (pid_t)syscall(SYS_gettid), control, spawned;

	tracefs_fork_event_on();
	control = fork();
	cr_assert(control >= 0, "fork: %s", strerror(errno));
	if (control == 0)
		_exit(0);
	expect_exit(reap(control), 0);
	spawned = exec_expect(AT_FDCWD, child_path, 0, 0);
	tracefs_read(TRACEFS_DIR "/trace", trace, sizeof(trace));
	cr_assert(tracefs_has_fork(trace, self, control),
		  "the control fork() (pid=%d child_pid=%d) is not in the trace:\n%.2000s",
		  self, control, trace);
	cr_expect(tracefs_has_fork(trace, self, spawned),
		  "no sched_process_fork with pid=%d child_pid=%d for the CLONE; the trace:\n%.2000s",
		  self, spawned, trace);
}

/*
 * ---- the chain without the ring's lock (issue 11, points 5 to 8) ----
 *
 * The spawned task issues its chain without the ring's uring_lock and
 * posts each CQE when its request is done: the CLONE CQE comes before the
 * chain runs, the ring stays usable while a request of the chain blocks,
 * and no lock of the ring is held across the exec. The chains below block
 * on a FIFO open until the test opens the FIFO itself.
 */

/*
 * How long something the kernel should do at once may take while a chain
 * blocks. A kernel that makes it wait for the chain makes it wait for as
 * long as the test keeps the FIFO shut, so any bound tells the two apart:
 * this one leaves room for a TCG guest.
 */
#define PROMPT_S 2

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * A FIFO with no writer: an OPENAT of it for reading blocks its chain
 * until fifo_unblock() opens it (O_RDWR does not block, and is a writer).
 */
static struct {
	char path[PATH_MAX];
	int fd;
} fifo = { .fd = -1 };

static void fifo_unblock(void)
{
	if (fifo.fd < 0 && fifo.path[0])
		fifo.fd = open(fifo.path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

/*
 * A test's .fini: whatever failed, no chain stays blocked (the FIFO stays
 * open until the test's process has exited, which waits for its chains).
 */
static void fifo_fini(void)
{
	fifo_unblock();
	if (fifo.path[0])
		unlink(fifo.path);
}

/* A new FIFO, the old one (if any) unblocked, closed and removed. */
static void fifo_make(void)
{
	fifo_fini();
	if (fifo.fd >= 0)
		close(fifo.fd);
	fifo.fd = -1;
	marker_path(fifo.path, sizeof(fifo.path), "fifo");
	cr_assert(mkfifo(fifo.path, 0600) == 0, "mkfifo: %s", strerror(errno));
}

/* SQEs 1 to 3, soft-linked: CLONE, OPENAT(file, O_RDONLY), EXEC(path, argv) */
static void open_chain(struct io_uring *ring, const char *file, const char *path,
		       char *const argv[])
{
	struct io_uring_sqe *sqe;

	clone_head(ring, 0);
	sqe = sqe_get(ring, 2);
	io_uring_prep_openat(sqe, AT_FDCWD, file, O_RDONLY, 0);
	sqe->flags |= IOSQE_IO_LINK;
	exec_sqe(ring, 3, path, argv);
}

/* the chain that blocks: its OPENAT is of the FIFO */
static void fifo_chain(struct io_uring *ring, const char *path, char *const argv[])
{
	open_chain(ring, fifo.path, path, argv);
}

/* The CQEs of a ring by user_data (1 to CQE_UD_MAX), in any order. */
#define CQE_UD_MAX 8
struct cqes {
	bool seen[CQE_UD_MAX + 1];
	int res[CQE_UD_MAX + 1];
};

/*
 * Collect CQEs into c until the one with user_data ud has come (true) or
 * secs seconds have passed (false).
 */
static bool cqes_wait(struct io_uring *ring, struct cqes *c, unsigned int ud, double secs)
{
	double end = now_s() + secs;

	while (!c->seen[ud] && now_s() < end) {
		double left = end - now_s();
		struct __kernel_timespec ts = { .tv_sec = (long long)left,
			.tv_nsec = (long long)((left - (double)(long long)left) * 1e9) };
		struct io_uring_cqe *cqe;
		__u64 got;
		int ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);

		if (ret == -EINTR || ret == -ETIME)
			continue;
		cr_assert(ret == 0, "waiting for CQE %u: %s", ud, strerror(-ret));
		got = cqe->user_data;
		cr_assert(got >= 1 && got <= CQE_UD_MAX && !c->seen[got],
			  "unexpected CQE: user_data %llu res %d", (unsigned long long)got, cqe->res);
		c->seen[got] = true;
		c->res[got] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return c->seen[ud];
}

/* waitpid(pid) for at most secs seconds: true, with *status, if it was reaped */
static bool reap_within(pid_t pid, double secs, int *status)
{
	double end = now_s() + secs;

	do {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid)
			return true;
		cr_assert(got == 0 || errno == EINTR, "waitpid(%d): %s", pid, strerror(errno));
		usleep(10 * 1000);
	} while (now_s() < end);
	return false;
}

/* a second thread's NOP (user_data 4) on the ring; returns io_uring_submit()'s result */
static void *submit_nop(void *arg)
{
	struct io_uring *ring = arg;
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		return (void *)(long)-EBUSY;
	io_uring_prep_nop(sqe);
	sqe->user_data = 4;
	return (void *)(long)io_uring_submit(ring);
}

/*
 * While the chain blocks on the FIFO: the CLONE CQE, the pid, is there,
 * and another thread's NOP on the same ring completes (the RFC kept the
 * ring's lock across the chain: the thread slept in D state in
 * io_uring_enter() and the pid came with the chain's end). Then the rest
 * of the chain completes as before.
 */
Test(iouring, ring_usable_while_chain_blocks, .fini = fifo_fini)
{
	char *argv[] = { "iouring-child", "17", NULL };
	struct io_uring ring;
	struct cqes c = { 0 };
	struct timespec join_by;
	pthread_t thread;
	void *submitted;
	double start;

	fifo_make();
	ring_init(&ring, 0);
	fifo_chain(&ring, child_path, argv);
	cr_assert(io_uring_submit(&ring) == 3);
	start = now_s();
	if (cqes_wait(&ring, &c, 1, PROMPT_S))
		cr_log_info("the CLONE CQE after %.3f s", now_s() - start);
	else
		cr_expect_fail("no CLONE CQE within %d s while the chain blocks on a FIFO open",
			       PROMPT_S);
	cr_assert(pthread_create(&thread, NULL, submit_nop, &ring) == 0);
	start = now_s();
	if (cqes_wait(&ring, &c, 4, PROMPT_S))
		cr_log_info("the second thread's NOP CQE after %.3f s", now_s() - start);
	else
		cr_expect_fail("a NOP submitted by a second thread got no CQE within %d s while the chain "
			       "blocks", PROMPT_S);

	fifo_unblock();
	clock_gettime(CLOCK_REALTIME, &join_by);
	join_by.tv_sec += CQE_TIMEOUT_S;
	cr_assert(pthread_timedjoin_np(thread, &submitted, &join_by) == 0,
		  "the second thread is still in io_uring_submit()");
	cr_expect((long)submitted == 1, "the second thread's submit: %ld", (long)submitted);
	for (unsigned int ud = 1; ud <= 4; ud++)
		cr_assert(cqes_wait(&ring, &c, ud, CQE_TIMEOUT_S), "CQE %u never came", ud);
	cr_assert(c.res[1] > 0, "CLONE: %d", c.res[1]);
	cr_expect(c.res[2] >= 0, "OPENAT of the FIFO: %d", c.res[2]);
	cr_expect(c.res[3] == 0, "EXEC: %d", c.res[3]);
	cr_expect(c.res[4] == 0, "NOP: %d", c.res[4]);
	expect_exit(reap(c.res[1]), 17);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/*
 * Forked: with a READ of an empty pipe pending on its ring, run CLONE ->
 * EXEC(iouring-child 0) to its end, then execve() iouring-child 6, whose
 * begin_new_exec() cancels the READ. Exits 6, or 2 (set-up), 3 (spawn) or
 * 4 (execve) when a step fails.
 */
static int chain_then_execve(void)
{
	char *spawned[] = { "iouring-child", "0", NULL }, *argv[] = { "iouring-child", "6", NULL };
	static char buf[8];
	struct io_uring ring;
	int pipefd[2], res[2], status;

	alarm(CQE_TIMEOUT_S);
	if (pipe(pipefd) || io_uring_queue_init(8, &ring, 0))
		return 2;
	io_uring_prep_read(io_uring_get_sqe(&ring), pipefd[0], buf, sizeof(buf), 0);
	if (io_uring_submit(&ring) != 1)
		return 2;
	clone_head(&ring, 0);
	exec_sqe(&ring, 2, child_path, spawned);
	if (io_uring_submit(&ring) != 2 || wait_cqes(&ring, 2, res) || res[0] <= 0 || res[1])
		return 3;
	if (waitpid(res[0], &status, 0) != res[0] || !WIFEXITED(status) || WEXITSTATUS(status))
		return 3;
	execve(child_path, argv, environ);
	return 4;
}

/*
 * The RFC's spawned task took the new program's cred_guard_mutex (in
 * bprm_execve()) under the ring's uring_lock; an execve() takes its own
 * cred_guard_mutex, then uring_lock to cancel its pending requests: an
 * AB-BA order, which lockdep reports. The test reads the kernel log itself.
 */
Test(iouring, no_lockdep_after_chain_then_execve)
{
	static const char *const splats[] = { "circular locking", "WARNING:", "BUG:" };
	char found[512];
	int kmsg, status, lockdep = kmsg_lockdep_active();
	pid_t pid;

	if (lockdep < 0)
		cr_skip_test("the kernel has no lockdep (/proc/lockdep_stats): nothing to check");
	if (lockdep == 0)
		cr_skip_test("lockdep turned itself off after an earlier report in this boot "
			     "(see the console): it cannot report this test's");
	kmsg = kmsg_mark();
	cr_assert(kmsg >= 0, "/dev/kmsg: %s", strerror(-kmsg));
	pid = fork();
	cr_assert(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(chain_then_execve());
	cr_assert(reap_within(pid, CQE_TIMEOUT_S + 10, &status), "the process did not end");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 6,
		  "status %#x (2: set-up, 3: the spawn, 4: execve failed)", status);
	cr_expect(!kmsg_find(kmsg, splats, 3, found, sizeof(found)), "the kernel logged: %s", found);
	close(kmsg);
	assert_no_children();
}

/*
 * Forked: spawns the FIFO chain (CLONE -> OPENAT(FIFO) -> EXEC iouring-child
 * 0), writes one byte to the pipe *report reads, then execve()s
 * iouring-child 5. Its end of the pipe is close-on-exec: end of file on
 * *report means the execve() got that far, or the process died.
 */
static pid_t fork_execve_submitter(int *report)
{
	int pipefd[2];
	char byte;
	pid_t pid;

	cr_assert(pipe2(pipefd, O_CLOEXEC) == 0);
	pid = fork();
	cr_assert(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		char *spawned[] = { "iouring-child", "0", NULL };
		char *argv[] = { "iouring-child", "5", NULL };
		struct io_uring ring;

		close(pipefd[0]);
		if (io_uring_queue_init(8, &ring, 0))
			_exit(2);
		fifo_chain(&ring, child_path, spawned);
		if (io_uring_submit(&ring) != 3 || write(pipefd[1], "s", 1) != 1)
			_exit(2);
		execve(child_path, argv, environ);
		_exit(3);
	}
	close(pipefd[1]);
	cr_assert(read(pipefd[0], &byte, 1) == 1, "the submitter failed before its execve()");
	*report = pipefd[0];
	return pid;
}

/*
 * Watch the submitter pid for secs seconds, or until its execve() has got
 * past closing report (*exec_done: when, else 0). Returns the longest time
 * it spent in D state without a break.
 */
static double watch_submitter(pid_t pid, int report, double secs, double *exec_done)
{
	double end = now_s() + secs, d_since = 0, d_longest = 0;

	while (!*exec_done && now_s() < end) {
		struct pollfd p = { .fd = report, .events = POLLIN };
		char byte;

		if (poll(&p, 1, 10) == 1 && read(report, &byte, 1) == 0)
			*exec_done = now_s();
		if (proc_process_state(pid) != 'D')
			d_since = 0;
		else if (!d_since)
			d_since = now_s();
		else if (now_s() - d_since > d_longest)
			d_longest = now_s() - d_since;
	}
	return d_longest;
}

/*
 * The submitter calls execve() while its chain blocks on the FIFO: it must
 * never sleep in D state (the RFC's chain held uring_lock, and execve()
 * cancelling the ring's requests waited for it uninterruptibly), and it
 * ends once the chain does. Run 1 lets it go on (the FIFO is opened after
 * 3 s), run 2 kills it after 1 s. A hazard the series leaves (DESIGN.md,
 * "Hazards"): execve() waits for the submitter's chains, as for all its
 * io_uring requests, and SIGKILL does not end that wait; the test logs
 * whether it did and how long execve() waited, and holds the submitter to
 * ending, killed, once the chain is over.
 */
Test(iouring, submitter_execve_while_chain_blocks, .fini = fifo_fini)
{
	cr_assert(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	for (int run = 1; run <= 2; run++) {
		double start, exec_done = 0, d_longest, opened, later;
		bool reaped = false, killed = false;
		int report, status;
		pid_t pid, spawned;

		fifo_make();
		pid = fork_execve_submitter(&report);
		start = now_s();
		spawned = proc_find_child_of(pid, 5000);
		cr_assert(spawned > 0, "the submitter's chain has no task");
		d_longest = watch_submitter(pid, report, run == 1 ? 3 : 1, &exec_done);
		if (run == 2 && !exec_done) {
			cr_assert(kill(pid, SIGKILL) == 0, "kill: %s", strerror(errno));
			killed = true;
			reaped = reap_within(pid, 2, &status);
			cr_log_info("run 2: SIGKILL %s the submitter while its chain blocks (state %c)",
				    reaped ? "ended" : "did not end", reaped ? '-' : proc_process_state(pid));
		} else if (run == 2) {
			cr_log_info("run 2: the execve() did not wait for the chain: nothing to kill");
		}
		opened = now_s();
		fifo_unblock();
		later = watch_submitter(pid, report, CQE_TIMEOUT_S, &exec_done);
		d_longest = later > d_longest ? later : d_longest;
		cr_expect(d_longest < 0.5, "run %d: the submitter slept in D state for %.2f s in a row",
			  run, d_longest);
		if (run == 1) {
			cr_expect(exec_done, "the submitter's execve() never got past close-on-exec");
			cr_log_info("the submitter's execve() took %.2f s; the FIFO was opened at %.2f s: "
				    "it %s for the chain", exec_done - start, opened - start,
				    exec_done >= opened ? "waited" : "did not wait");
		}
		if (!reaped)
			cr_assert(reap_within(pid, CQE_TIMEOUT_S, &status),
				  "the submitter did not end once its chain did");
		if (!killed)
			expect_exit(status, 5);
		else
			cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
				  "run 2: status %#x, not killed by SIGKILL", status);
		close(report);
		/* reparented to us: it exits 0 only if its OPENAT waited for our open */
		cr_assert(reap_within(spawned, CQE_TIMEOUT_S, &status), "the chain's task did not end");
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "run %d: the chain's task: status %#x: the chain did not block on the FIFO",
			  run, status);
	}
	assert_no_children();
}

/*
 * ---- what a chain's EXEC reads at submit; the ring's fd in a chain ----
 */

/* an executable file at path with text as its contents */
static void write_script(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ssize_t len = (ssize_t)strlen(text);

	cr_assert(fd >= 0, "%s: %s", path, strerror(errno));
	cr_assert(write(fd, text, (size_t)len) == len, "%s: %s", path, strerror(errno));
	close(fd);
}

/* a program built next to this binary (make tests builds them all) */
static void sibling(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", child_dir, name);
	cr_assert(access(path, X_OK) == 0, "%s: %s (make tests builds it)", path, strerror(errno));
}

/*
 * EXEC reads its path at submission, as OPENAT does: the buffer may be
 * reused once io_uring_enter() returns. Here it is overwritten while the
 * chain waits on the FIFO, to name a script that exits 33: the program it
 * named at submit, iouring-child 7, must run. argv and envp are still read
 * when the exec runs, like a WRITE's buffer: they stay as they are here.
 */
Test(iouring, exec_path_read_at_submit, .fini = fifo_fini)
{
	static char path[PATH_MAX + 32];
	char tiny[PATH_MAX + 32], script[PATH_MAX], shebang[PATH_MAX + 64];
	char *argv[] = { "iouring-child", "7", NULL };
	struct io_uring ring;
	int res[3], status;

	sibling(tiny, sizeof(tiny), "tiny");
	marker_path(script, sizeof(script), "exits-33");
	snprintf(shebang, sizeof(shebang), "#!%s 33\n", tiny);
	write_script(script, shebang);
	fifo_make();
	snprintf(path, sizeof(path), "%s", child_path);
	ring_init(&ring, 0);
	fifo_chain(&ring, path, argv);
	cr_assert(io_uring_submit(&ring) == 3);
	snprintf(path, sizeof(path), "%s", script);
	fifo_unblock();
	submit_and_reap(&ring, 3, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] >= 0, "OPENAT of the FIFO: %d", res[1]);
	cr_expect(res[2] == 0, "EXEC: %d", res[2]);
	status = reap(res[0]);
	cr_expect(!WIFEXITED(status) || WEXITSTATUS(status) != 33,
		  "the EXEC ran %s, written into its path buffer after the submission", script);
	expect_exit(status, 7);
	unlink(script);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/* text in hex, as probe reports strings */
static void to_hex(const char *text, char *hex, size_t size)
{
	for (size_t i = 0; text[i] && 2 * i + 2 < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)text[i]);
}

/*
 * A dup() of the ring's fd is not close-on-exec: only a CLOSE in the chain
 * keeps the ring from the new program (it could use the ring's registered
 * files, buffers and personalities). CLONE -> CLOSE(dup), hard-linked to
 * EXEC(probe): the CLOSE succeeds, and probe, which runs either way, has
 * no io_uring fd among those it reports.
 */
Test(iouring, close_ring_dup_in_chain)
{
	char probe[PATH_MAX + 32], report_arg[16], report[16384], ring_hex[64] = "", line[32];
	char *argv[] = { "probe", report_arg, NULL };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int pipefd[2], dup_fd, report_fd, res[3];
	size_t have = 0;
	ssize_t n;

	sibling(probe, sizeof(probe), "probe");
	cr_assert(pipe2(pipefd, O_CLOEXEC) == 0);
	report_fd = dup(pipefd[1]);
	ring_init(&ring, 0);
	dup_fd = dup(ring.ring_fd);
	cr_assert(report_fd >= 0 && dup_fd >= 0, "dup: %s", strerror(errno));
	snprintf(report_arg, sizeof(report_arg), "%d", report_fd);
	clone_head(&ring, 0);
	sqe = sqe_get(&ring, 2);
	io_uring_prep_close(sqe, dup_fd);
	sqe->flags |= IOSQE_IO_HARDLINK;
	exec_sqe(&ring, 3, probe, argv);
	submit_and_reap(&ring, 3, res);
	close(report_fd);
	close(pipefd[1]);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	expect_exit(reap(res[0]), 0);
	while (have < sizeof(report) - 1 &&
	       (n = read(pipefd[0], report + have, sizeof(report) - 1 - have)) > 0)
		have += (size_t)n;
	report[have] = '\0';
	close(pipefd[0]);

	cr_expect(res[1] == 0, "CLOSE of a dup of the ring's fd (%d): %d", dup_fd, res[1]);
	cr_expect(res[2] == 0, "EXEC of probe: %d", res[2]);
	cr_assert(strstr(report, "\nend\n"), "probe's report is incomplete:\n%s", report);
	to_hex("anon_inode:[io_uring]", ring_hex, sizeof(ring_hex));
	snprintf(line, sizeof(line), "\nfd %d ", dup_fd);
	cr_expect(!strstr(report, ring_hex) && !strstr(report, line),
		  "the new program has the ring open (fd %d):\n%s", dup_fd, report);
	close(dup_fd);
	io_uring_queue_exit(&ring);
	assert_no_children();
}

/*
 * ---- a tracer that follows forks sees the spawn, or there is none ----
 *
 * The spawned task is untraced (CLONE_UNTRACED): a tracer that follows the
 * submitter's children (strace -f, a ptrace sandbox) would never see the
 * program the chain runs. CLONE fails with -EPERM under such a tracer, as
 * clone3's CLONE_ACTIONS does; a tracer that follows nothing loses nothing.
 */

/*
 * The tracee: stops for its tracer, then spawns CLONE -> EXEC(iouring-child
 * 0 marker). Exit 0 when CLONE is -EPERM and EXEC -ECANCELED, 1 when the
 * child was spawned (reaped here), 2 on anything else.
 */
static int traced_spawn(const char *marker)
{
	char *argv[] = { "iouring-child", "0", (char *)marker, NULL };
	struct io_uring ring;
	int res[2];

	alarm(CQE_TIMEOUT_S);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP) ||
	    io_uring_queue_init(8, &ring, 0))
		return 2;
	clone_head(&ring, 0);
	exec_sqe(&ring, 2, child_path, argv);
	if (io_uring_submit(&ring) != 2 || wait_cqes(&ring, 2, res))
		return 2;
	if (res[0] > 0) {
		waitpid(res[0], NULL, 0);
		return 1;
	}
	return res[0] == -EPERM && res[1] == -ECANCELED ? 0 : 2;
}

/*
 * Trace tracee, stopped by its raise(SIGSTOP), with ptrace options until
 * it exits, letting every other stop go on with its signal. Returns its
 * wait status; *events counts the ptrace event stops.
 */
static int trace_until_exit(pid_t tracee, long options, int *events)
{
	int status;

	cr_assert(waitpid(tracee, &status, 0) == tracee && WIFSTOPPED(status), "status %#x", status);
	cr_assert(ptrace(PTRACE_SETOPTIONS, tracee, NULL, (void *)options) == 0,
		  "PTRACE_SETOPTIONS: %s", strerror(errno));
	cr_assert(ptrace(PTRACE_CONT, tracee, NULL, NULL) == 0);
	*events = 0;
	while (waitpid(tracee, &status, __WALL) == tracee && WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status);

		*events += status >> 16 != 0;
		ptrace(PTRACE_CONT, tracee, NULL, (void *)(long)(sig == SIGTRAP ? 0 : sig));
	}
	return status;
}

Test(iouring, clone_refused_when_tracer_follows_forks)
{
	static const long options[] = { PTRACE_O_TRACEFORK, PTRACE_O_TRACEVFORK,
					 PTRACE_O_TRACECLONE, 0 };
	static const char *const names[] = { "TRACEFORK", "TRACEVFORK", "TRACECLONE",
					     "no option" };

	for (int i = 0; i < 4; i++) {
		char marker[PATH_MAX];
		int status, events, want = options[i] ? 0 : 1;
		pid_t tracee;

		marker_path(marker, sizeof(marker), "traced");
		tracee = fork();
		cr_assert(tracee >= 0, "fork: %s", strerror(errno));
		if (tracee == 0)
			_exit(traced_spawn(marker));
		status = trace_until_exit(tracee, options[i], &events);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == want,
			  "%s: tracee status %#x, expected exit %d (0: CLONE -EPERM, 1: the program "
			  "ran, unseen by its tracer, 2: another result)", names[i], status, want);
		cr_expect((access(marker, F_OK) == 0) == (want == 1), "%s: the program %s", names[i],
			  want ? "did not run" : "ran");
		cr_expect(events == 0, "%s: %d ptrace events", names[i], events);
		unlink(marker);
	}
	assert_no_children();
}

/*
 * ---- audit: a chain's EXEC is recorded as an io_uring operation ----
 *
 * Rules on execve() do not match it (it is no system call), but an
 * io_uring rule on EXEC does, and so does a watch on the program: an
 * URINGOP record of the spawned task with the EXECVE and PATH records of
 * the exec. The RFC marked CLONE and EXEC audit_skip: nothing was recorded.
 */
static struct audit_nl audit = { .fd = -1, .lock = -1 };
static struct audit_log audit_log;

static void audit_fini(void)
{
	audit_nl_stop(&audit);
}

/* Be the audit daemon with one rule (see audit_nl_add_rule()). */
static void audit_rule(uint32_t list, const int *nrs, size_t n, const char *watch)
{
	int err = audit_nl_open(&audit);

	cr_assert(err == 0, "cannot be the audit daemon (CONFIG_AUDIT?): %s", strerror(-err));
	err = audit_nl_add_rule(&audit, list, nrs, n, watch);
	cr_assert(err == 0, "adding the audit rule: %s", strerror(-err));
}

/* Read audit records until the events of wants[0..n) came, 5 s at most. */
static void audit_collect(const struct audit_want *wants, size_t n)
{
	if (!audit_nl_collect(&audit, &audit_log, wants, n, 5000))
		audit_log_print(&audit_log, stderr);
}

/* The collected event of w, described as what: NULL (a failure) if none came. */
static const struct audit_event *audit_expect_event(const struct audit_want *w, const char *what)
{
	const struct audit_event *e = audit_log_find(&audit_log, w);

	cr_expect(e, "no audit event of %s: pid %d, with a PATH record of %s", what, (int)w->pid,
		  w->path);
	return e;
}

/* The same for an exec of iouring-child: its event has the EXECVE record too. */
static void audit_expect_exec(const struct audit_want *w, const char *what)
{
	const struct audit_event *e = audit_expect_event(w, what);
	char execve[32];

	snprintf(execve, sizeof(execve), "type=%d ", AUDIT_EXECVE);
	cr_expect(!e || (strstr(e->text, execve) && strstr(e->text, " a0=\"iouring-child\"")),
		  "%s: no EXECVE record with a0=\"iouring-child\":\n%s", what, e ? e->text : "");
}

/* CLONE -> OPENAT(/dev/null) -> EXEC(iouring-child 0), to the end: the spawned pid */
static pid_t spawn_open_exec(void)
{
	char *argv[] = { "iouring-child", "0", NULL };
	struct io_uring ring;
	int res[3];

	ring_init(&ring, 0);
	open_chain(&ring, "/dev/null", child_path, argv);
	submit_and_reap(&ring, 3, res);
	cr_assert(res[0] > 0, "CLONE: %d", res[0]);
	cr_expect(res[1] >= 0 && res[2] == 0, "OPENAT: %d, EXEC: %d", res[1], res[2]);
	expect_exit(reap(res[0]), 0);
	io_uring_queue_exit(&ring);
	return res[0];
}

/* an io_uring rule on OPENAT (the control: audited in the RFC too) and EXEC */
Test(iouring, audit_sees_chain_exec_by_uring_rule, .fini = audit_fini)
{
	static const int ops[] = { IORING_OP_OPENAT, IORING_OP_EXEC };
	pid_t pid;

	audit_rule(AUDIT_FILTER_URING_EXIT, ops, 2, NULL);
	pid = spawn_open_exec();
	const struct audit_want wants[] = {
		{ .syscall = AUDIT_WANT_URING_OP(IORING_OP_OPENAT), .pid = pid, .path = "/dev/null" },
		{ .syscall = AUDIT_WANT_URING_OP(IORING_OP_EXEC), .pid = pid, .path = child_path },
	};

	audit_collect(wants, 2);
	audit_expect_event(&wants[0], "the chain's OPENAT (a control: audit sees the spawned task)");
	audit_expect_exec(&wants[1], "the chain's EXEC, under an io_uring rule on EXEC");
}

/* a watch on iouring-child; the control: an execve() of it in a forked child */
Test(iouring, audit_sees_chain_exec_by_watch, .fini = audit_fini)
{
	char *argv[] = { "iouring-child", "0", NULL };
	pid_t forked, spawned;

	audit_rule(AUDIT_FILTER_EXIT, NULL, 0, child_path);
	forked = fork();
	cr_assert(forked >= 0, "fork: %s", strerror(errno));
	if (forked == 0) {
		execve(child_path, argv, environ);
		_exit(3);
	}
	expect_exit(reap(forked), 0);
	spawned = spawn_open_exec();
	const struct audit_want wants[] = {
		{ .syscall = __NR_execve, .pid = forked, .path = child_path },
		{ .syscall = AUDIT_WANT_URING_OP(IORING_OP_EXEC), .pid = spawned, .path = child_path },
	};

	audit_collect(wants, 2);
	audit_expect_exec(&wants[0], "execve() in a forked child (a control: the watch works)");
	audit_expect_exec(&wants[1], "the chain's EXEC, under a watch on the program");
}
