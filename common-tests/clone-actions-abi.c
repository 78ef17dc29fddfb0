/*
 * ABI tests of clone3() with CLONE_ACTIONS (series-clone-actions).
 *
 * Built by common-tests/clone-actions.mk against the series' uapi headers
 * (UAPI_INCLUDE_clone_actions, placed before the system headers).
 *
 * Every test runs in its own process (criterion), blocks SIGCHLD and starts
 * without children, so "no zombie" is waitid(P_ALL, WNOHANG) == ECHILD and
 * "no SIGCHLD" is sigpending(). The programs it execs are the corpus'
 * static probe (next to this binary) and /bin/true.
 */
#include "audit-netlink.h"
#include "clone-actions-spawn.h"
#include "fifo-child.h"
#include "fuse-stall.h"
#include "proc-children.h"
#include "seccomp-filter.h"
#include "tracefs.h"
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/audit.h>

#include <criterion/criterion.h>
#include <liburing.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static char *const true_argv[] = { "true", NULL };
static char *const empty_envp[] = { NULL };
static char probe_path[PATH_MAX], bigbss_path[PATH_MAX];

static long clone3_raw(void *args, size_t size)
{
	long ret = syscall(__NR_clone3, args, size);

	if (ret == 0)	/* a plain clone3() child of a size test */
		_exit(0);
	return ret < 0 ? -errno : ret;
}

static struct clone_action act_close(int fd)
{
	return (struct clone_action){ .kind = CLONE_ACTION_CLOSE, .close = { fd } };
}

static struct clone_action act_dup2(int oldfd, int newfd)
{
	return (struct clone_action){ .kind = CLONE_ACTION_DUP2, .dup2 = { oldfd, newfd } };
}

static struct clone_action act_open(int fd, const char *path, int flags, unsigned int mode)
{
	return (struct clone_action){
		.kind = CLONE_ACTION_OPEN,
		.open = { .fd = fd, .dirfd = AT_FDCWD, .path = CA_PTR(path),
			  .flags = (uint32_t)flags, .mode = mode },
	};
}

static struct clone_action act_exec(const char *path, char *const *argv, char *const *envp,
				    uint32_t flags)
{
	return (struct clone_action){
		.kind = CLONE_ACTION_EXECVEAT, .flags = flags,
		.execveat = { .dirfd = AT_FDCWD, .path = CA_PTR(path), .argv = CA_PTR(argv),
			      .envp = CA_PTR(envp) },
	};
}

static struct clone_action act_true(void)
{
	return act_exec("/bin/true", true_argv, empty_envp, 0);
}

static struct clone_action act_noop(void)
{
	return (struct clone_action){ .kind = CLONE_ACTION_CLOSE_RANGE,
				      .close_range = { 1000, 1000, 0 } };
}

/* A CLONE_ACTIONS spawn: returns the pid or -errno; *failed gets the index. */
static long spawn_flags(const struct clone_action *actions, size_t n, uint64_t flags,
			uint32_t *failed, int *pidfd)
{
	long ret = ca_spawn(actions, n, flags, pidfd, failed);

	return ret < 0 ? -errno : ret;
}

static long spawn(const struct clone_action *actions, size_t n, uint32_t *failed)
{
	return spawn_flags(actions, n, 0, failed, NULL);
}

/* Take the SIGCHLD of children reaped so far out of the pending set. */
static void drain_sigchld(void)
{
	const struct timespec zero = { 0, 0 };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	while (sigtimedwait(&chld, NULL, &zero) == SIGCHLD)
		continue;
}

static int wait_exit(pid_t pid)
{
	int status;

	cr_assert_eq(waitpid(pid, &status, 0), pid, "waitpid: %s", strerror(errno));
	cr_assert(WIFEXITED(status), "child did not exit: status %#x", status);
	drain_sigchld();
	return WEXITSTATUS(status);
}

/* No child of any kind left, and no SIGCHLD pending. */
static void assert_no_trace(void)
{
	siginfo_t info;
	sigset_t pending;

	cr_assert_eq(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | __WALL), -1,
		     "a child is left");
	cr_assert_eq(errno, ECHILD, "a child is left (waitid: %s)", strerror(errno));
	sigpending(&pending);
	cr_assert_eq(sigismember(&pending, SIGCHLD), 0, "SIGCHLD was sent");
}

/* Expect the spawn to fail with err at index, and leave nothing behind; what names the case. */
static void expect_refused(const struct clone_action *actions, size_t n, int err,
			   uint32_t index, const char *what)
{
	uint32_t failed = 0x5a5a5a5a;
	long ret = spawn(actions, n, &failed);

	cr_assert_eq(ret, -err, "%s%sexpected %s, got %ld (%s) at %" PRIu32, what,
		     *what ? ": " : "", strerror(err), ret,
		     ret < 0 ? strerror((int)-ret) : "a child", failed);
	cr_assert_eq(failed, index, "failed index %" PRIu32 ", expected %" PRIu32, failed,
		     index);
	assert_no_trace();
}

static void expect_failure(const struct clone_action *actions, size_t n, int err,
			   uint32_t index)
{
	expect_refused(actions, n, err, index, "");
}

/* path = the program name next to this binary */
static void sibling_path(char *path, const char *name)
{
	ssize_t len = readlink("/proc/self/exe", path, PATH_MAX - strlen(name) - 1);
	char *slash;

	cr_assert_gt(len, 0);
	path[len] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, name);
}

static void setup(void)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	sibling_path(probe_path, "probe");
	sibling_path(bigbss_path, "bigbss");
}

TestSuite(clone_actions, .init = setup, .timeout = 120);

/* ---- struct sizes ---- */

Test(clone_actions, sizes_ver0_to_ver2_unchanged)
{
	static const size_t sizes[] = { CLONE_ARGS_SIZE_VER0, CLONE_ARGS_SIZE_VER1,
					CLONE_ARGS_SIZE_VER2, CLONE_ARGS_SIZE_VER3 };

	cr_assert_eq(sizeof(struct clone_args), CLONE_ARGS_SIZE_VER3);
	cr_assert_eq(CLONE_ARGS_SIZE_VER3, 120);
	cr_assert_eq(sizeof(struct clone_action), CLONE_ACTION_SIZE_VER0);
	for (size_t i = 0; i < 4; i++) {
		struct clone_args args = { .exit_signal = SIGCHLD };
		long pid = clone3_raw(&args, sizes[i]);

		cr_assert_gt(pid, 0, "size %zu: %s", sizes[i], strerror((int)-pid));
		cr_assert_eq(wait_exit((pid_t)pid), 0);
	}
}

Test(clone_actions, ver3_fields_without_flag_are_e2big)
{
	struct clone_action list[] = { act_true() };
	__u64 *field;
	struct clone_args args;

	for (int i = 0; i < 4; i++) {
		memset(&args, 0, sizeof(args));
		args.exit_signal = SIGCHLD;
		field = &args.actions + i;
		*field = i == 0 || i == 3 ? CA_PTR(list) : 1;
		cr_assert_eq(clone3_raw(&args, sizeof(args)), -E2BIG, "field %d", i);
	}
	assert_no_trace();
}

Test(clone_actions, actions_need_ver3)
{
	struct clone_action list[] = { act_true() };
	struct clone_args args = {
		.flags = CLONE_ACTIONS, .exit_signal = SIGCHLD,
	};

	/* the action members are beyond the size: read as zero */
	(void)list;
	cr_assert_eq(clone3_raw(&args, CLONE_ARGS_SIZE_VER2), -EINVAL);
	assert_no_trace();
}

Test(clone_actions, actions_need_whole_clone_args)
{
	struct clone_action list[] = { act_true() };
	static const size_t sizes[] = { CLONE_ARGS_SIZE_VER3 - 8, CLONE_ARGS_SIZE_VER3 - 1 };
	struct clone_args args = {
		.flags = CLONE_ACTIONS, .exit_signal = SIGCHLD, .actions = CA_PTR(list),
		.nr_actions = 1, .action_size = sizeof(struct clone_action),
	};

	/* failed_action lies (partly) beyond the size: it would be dropped */
	for (size_t i = 0; i < 2; i++)
		cr_assert_eq(clone3_raw(&args, sizes[i]), -EINVAL, "size %zu", sizes[i]);
	assert_no_trace();
}

/* The generic clone3() checks fail before the list is read: "no index". */
Test(clone_actions, generic_errors_write_no_index)
{
	struct clone_action list[] = { act_true() };
	static char stack[16384];
	uint32_t failed;
	struct clone_args args;
	const struct clone_args base = {
		.flags = CLONE_ACTIONS, .exit_signal = SIGCHLD, .actions = CA_PTR(list),
		.nr_actions = 1, .action_size = sizeof(struct clone_action),
		.failed_action = CA_PTR(&failed),
	};

	for (int i = 0; i < 4; i++) {
		args = base;
		switch (i) {
		case 0:
			args.exit_signal = 65;
			break;
		case 1:
			args.flags |= CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
			break;
		case 2:
			args.set_tid_size = 1;
			break;
		case 3:
			args.stack = CA_PTR(stack);
			break;
		}
		failed = 0x5a5a5a5a;
		cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL, "case %d", i);
		cr_assert_eq(failed, CLONE_ACTION_NO_INDEX, "case %d: failed_action %#" PRIx32, i,
			     failed);
	}
	assert_no_trace();
}

Test(clone_actions, larger_clone_args)
{
	struct clone_action list[] = { act_true() };
	struct {
		struct clone_args args;
		uint64_t tail[2];
	} big = {
		.args = { .flags = CLONE_ACTIONS, .exit_signal = SIGCHLD,
			  .actions = CA_PTR(list), .nr_actions = 1,
			  .action_size = sizeof(struct clone_action) },
	};
	long pid = clone3_raw(&big, sizeof(big));

	cr_assert_gt(pid, 0, "%s", strerror((int)-pid));
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	big.tail[1] = 1;
	cr_assert_eq(clone3_raw(&big, sizeof(big)), -E2BIG);
	assert_no_trace();
}

Test(clone_actions, larger_action_size)
{
	struct {
		struct clone_action action;
		uint64_t tail;
	} list[2] = { { act_close(100), 0 }, { act_true(), 0 } };
	uint32_t failed = 0;
	struct clone_args args = {
		.flags = CLONE_ACTIONS, .exit_signal = SIGCHLD,
		.actions = CA_PTR(list), .nr_actions = 2, .action_size = sizeof(list[0]),
		.failed_action = CA_PTR(&failed),
	};
	long ret;

	list[0].action = (struct clone_action){ .kind = CLONE_ACTION_CLOSE_RANGE,
						.close_range = { 100, 100, 0 } };
	ret = clone3_raw(&args, sizeof(args));
	cr_assert_gt(ret, 0, "%s", strerror((int)-ret));
	cr_assert_eq(wait_exit((pid_t)ret), 0);
	list[1].tail = 1;
	cr_assert_eq(clone3_raw(&args, sizeof(args)), -E2BIG);
	cr_assert_eq(failed, 1);
	assert_no_trace();
}

/* ---- success paths ---- */

Test(clone_actions, exec_true)
{
	struct clone_action list[] = { act_true() };
	uint32_t failed = 7;
	long pid = spawn(list, 1, &failed);

	cr_assert_gt(pid, 0, "%s", strerror((int)-pid));
	cr_assert_eq(failed, CLONE_ACTION_NO_INDEX);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
}

/* Run probe with the actions, report on fd 3 to a pipe; returns the report. */
static char *probe_report(struct clone_action *setup_actions, size_t n, uint64_t flags)
{
	static char report[65536];
	struct clone_action list[64];
	char fdarg[] = "3";
	char *argv[] = { "probe", fdarg, NULL };
	int pipefd[2];
	size_t len = 0;
	ssize_t got;
	uint32_t failed;
	long pid;

	cr_assert_lt(n, 62);
	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0);
	memcpy(list, setup_actions, n * sizeof(*list));
	list[n] = act_dup2(pipefd[1], 3);
	list[n + 1] = act_exec(probe_path, argv, empty_envp, 0);
	pid = spawn_flags(list, n + 2, flags, &failed, NULL);
	cr_assert_gt(pid, 0, "%s at %" PRIu32, strerror((int)-pid), failed);
	close(pipefd[1]);
	while ((got = read(pipefd[0], report + len, sizeof(report) - 1 - len)) > 0)
		len += (size_t)got;
	report[len] = '\0';
	close(pipefd[0]);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	return report;
}

static bool report_has(const char *report, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = report; (p = strstr(p, line)); p += n)
		if ((p == report || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* F_GETFL of fd in a probe report, -1 if not open. */
static int report_fd_flags(const char *report, int fd)
{
	char key[32];
	const char *p;
	int cloexec;
	unsigned int flags;

	snprintf(key, sizeof(key), "\nfd %d ", fd);
	p = strstr(report, key);
	if (!p || sscanf(p + strlen(key), "%d %o", &cloexec, &flags) != 2)
		return -1;
	return (int)flags;
}

static const char *hex(const char *s)
{
	static char buf[PATH_MAX * 2 + 1];
	size_t i;

	for (i = 0; s[i]; i++)
		sprintf(buf + 2 * i, "%02x", (unsigned char)s[i]);
	buf[2 * i] = '\0';
	return buf;
}

Test(clone_actions, dup2_same_fd_clears_cloexec)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct clone_action list[] = { act_dup2(fd, fd) };
	char line[64];
	char *report = probe_report(list, 1, 0);

	snprintf(line, sizeof(line), "fd %d 0 ", fd);
	cr_assert(strstr(report, line), "fd %d still close-on-exec:\n%s", fd, report);
	cr_assert_eq(fcntl(fd, F_GETFD), FD_CLOEXEC, "parent's flag changed");
}

Test(clone_actions, open_onto_exact_fd)
{
	struct clone_action list[] = {
		act_open(7, "/dev/null", O_WRONLY, 0),
		act_open(0, "/dev/zero", O_RDONLY, 0),
	};
	int before = fcntl(7, F_GETFD);
	char *report = probe_report(list, 2, 0);

	cr_assert_eq(report_fd_flags(report, 7) & O_ACCMODE, O_WRONLY, "%s", report);
	cr_assert_eq(report_fd_flags(report, 0) & O_ACCMODE, O_RDONLY, "%s", report);
	cr_assert_eq(fcntl(7, F_GETFD), before, "the caller's fd 7 changed");
}

Test(clone_actions, process_attributes)
{
	sigset_t mask;
	struct clone_action list[] = {
		{ .kind = CLONE_ACTION_CHDIR, .chdir = { CA_PTR("/proc") } },
		{ .kind = CLONE_ACTION_UMASK, .umask = { 027 } },
		{ .kind = CLONE_ACTION_SETSID },
		{ .kind = CLONE_ACTION_SIGMASK,
		  .sigmask = { SIG_SETMASK, 0, (1ULL << (SIGUSR1 - 1)) | (1ULL << (SIGKILL - 1)) } },
		{ .kind = CLONE_ACTION_SIGDEFAULT, .sigdefault = { 1ULL << (SIGUSR2 - 1) } },
	};
	char *report;
	mode_t old;
	pid_t pid;

	pid_t sid_before = getsid(0), pgid_before = getpgid(0);

	signal(SIGUSR2, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	old = umask(022);
	report = probe_report(list, 5, 0);
	cr_assert(report_has(report, "umask 27"), "%s", report);
	{
		char want[2 * PATH_MAX + 8];

		snprintf(want, sizeof(want), "cwd %s", hex("/proc"));
		cr_assert(report_has(report, want), "%s", report);
	}
	cr_assert(report_has(report, "blocked 200"), "SIGUSR1 only:\n%s", report);
	/* SIGHUP stays ignored, SIGUSR2 is reset */
	{
		const char *p = strstr(report, "\nignored ");
		unsigned long long ignored;

		cr_assert(p && sscanf(p, "\nignored %llx", &ignored) == 1, "%s", report);
		cr_assert(ignored & (1ULL << (SIGHUP - 1)), "%s", report);
		cr_assert_not(ignored & (1ULL << (SIGUSR2 - 1)), "%s", report);
	}
	/* ids PID PPID SID PGID: a session leader */
	{
		int p, pp, sid, pgid;
		const char *ids = strstr(report, "ids ");

		cr_assert(ids);
		cr_assert_eq(sscanf(ids, "ids %d %d %d %d", &p, &pp, &sid, &pgid), 4);
		cr_assert_eq(sid, p);
		cr_assert_eq(pgid, p);
		cr_assert_eq(pp, getpid());
	}
	/* the caller is untouched */
	cr_assert_eq(umask(old), 022);
	sigprocmask(SIG_BLOCK, NULL, &mask);
	cr_assert_eq(sigismember(&mask, SIGUSR1), 0);
	cr_assert_eq(signal(SIGUSR2, SIG_DFL), SIG_IGN);
	pid = getpid();
	cr_assert_eq(getsid(0), sid_before);
	cr_assert_eq(getpgid(0), pgid_before);
	(void)pid;
}

Test(clone_actions, setpgid_and_fchdir)
{
	int dirfd = open("/dev", O_RDONLY | O_DIRECTORY);
	struct clone_action list[] = {
		{ .kind = CLONE_ACTION_SETPGID, .setpgid = { 0, 0 } },
		{ .kind = CLONE_ACTION_FCHDIR, .fchdir = { dirfd } },
		{ .kind = CLONE_ACTION_CLOSE_RANGE, .close_range = { 200, ~0U, 0 } },
	};
	char *report;

	cr_assert_eq(dup2(dirfd, 200), 200);
	cr_assert_eq(dup2(dirfd, 300), 300);
	report = probe_report(list, 3, 0);
	char want[2 * PATH_MAX + 8];
	int p, pp, sid, pgid;
	const char *ids = strstr(report, "ids ");

	snprintf(want, sizeof(want), "cwd %s", hex("/dev"));
	cr_assert(report_has(report, want), "%s", report);
	cr_assert(ids);
	cr_assert_eq(sscanf(ids, "ids %d %d %d %d", &p, &pp, &sid, &pgid), 4);
	cr_assert_eq(pgid, p);
	cr_assert_neq(sid, p);
	cr_assert_eq(report_fd_flags(report, 200), -1, "%s", report);
	cr_assert_eq(report_fd_flags(report, 300), -1, "%s", report);
	cr_assert_neq(report_fd_flags(report, dirfd), -1, "%s", report);
	cr_assert_eq(fcntl(200, F_GETFD), 0, "the caller's fd 200 was closed");
}

/* ---- PATH search through exec chains ---- */

/* /tmp/clone-actions-PID-NAME, in one of four buffers */
static char *temp_path(const char *name)
{
	static char path[4][PATH_MAX];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, PATH_MAX, "/tmp/clone-actions-%d-%s", getpid(), name);
	return p;
}

static char *make_file(const char *name, const char *content, mode_t mode)
{
	char *p = temp_path(name);
	int fd;

	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	cr_assert_geq(fd, 0, "%s: %s", p, strerror(errno));
	cr_assert_eq(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	chmod(p, mode);
	return p;
}

Test(clone_actions, exec_chain_finds_later_candidate)
{
	char *noexec = make_file("noexec", "#!/bin/true\n", 0644);
	struct clone_action list[] = {
		act_exec("/nonexistent/true", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec("/dev/null/true", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec(noexec, true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_true(),
	};
	uint32_t failed;
	long pid = spawn(list, 4, &failed);

	cr_assert_gt(pid, 0, "%s at %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	unlink(noexec);
}

Test(clone_actions, exec_chain_errors)
{
	char *noexec = make_file("noexec2", "#!/bin/true\n", 0644);
	char *garbage = make_file("garbage", "\x01\x02\x03\x04garbage", 0755);
	struct clone_action eacces[] = {
		act_exec("/nonexistent/a", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec(noexec, true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec("/nonexistent/b", true_argv, empty_envp, 0),
	};
	struct clone_action enoent[] = {
		act_exec("/nonexistent/a", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec("/nonexistent/b", true_argv, empty_envp, 0),
	};
	struct clone_action enoexec[] = {
		act_exec(garbage, true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_true(),
	};

	expect_failure(eacces, 3, EACCES, 1);
	expect_failure(enoent, 2, ENOENT, 1);
	/* ENOTDIR from the last candidate of a search is still "not found" */
	enoent[1] = act_exec("/dev/null/b", true_argv, empty_envp, 0);
	expect_failure(enoent, 2, ENOENT, 1);
	/* but a lone exec reports its own error */
	expect_failure(&enoent[1], 1, ENOTDIR, 0);
	expect_failure(enoexec, 2, ENOEXEC, 0);
	unlink(noexec);
	unlink(garbage);
}

/* ---- validation: nothing is created ---- */

Test(clone_actions, list_shape)
{
	struct clone_action no_exec[] = { act_close(100) };
	struct clone_action after_exec[] = { act_true(), act_close(100) };
	struct clone_action after_try[] = {
		act_exec("/bin/true", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_close(100), act_true(),
	};
	struct clone_action try_last[] = {
		act_exec("/bin/true", true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
	};
	uint32_t failed = 0;

	expect_failure(no_exec, 1, EINVAL, 0);
	expect_failure(after_exec, 2, EINVAL, 1);
	expect_failure(after_try, 3, EINVAL, 1);
	expect_failure(try_last, 1, EINVAL, 0);
	cr_assert_eq(spawn(no_exec, 0, &failed), -EINVAL);
	cr_assert_eq(failed, CLONE_ACTION_NO_INDEX);
	assert_no_trace();
}

Test(clone_actions, action_limit)
{
	static struct clone_action list[CLONE_ACTIONS_MAX + 1];
	uint32_t failed = 0;
	long pid;

	for (size_t i = 0; i < CLONE_ACTIONS_MAX; i++)
		list[i] = (struct clone_action){ .kind = CLONE_ACTION_CLOSE_RANGE,
						 .close_range = { 1000, 1000, 0 } };
	list[CLONE_ACTIONS_MAX - 1] = act_true();
	pid = spawn(list, CLONE_ACTIONS_MAX, &failed);
	cr_assert_gt(pid, 0, "%s at %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	list[CLONE_ACTIONS_MAX - 1] = list[0];
	list[CLONE_ACTIONS_MAX] = act_true();
	cr_assert_eq(spawn(list, CLONE_ACTIONS_MAX + 1, &failed), -E2BIG);
	cr_assert_eq(failed, CLONE_ACTION_NO_INDEX);
	assert_no_trace();
}

Test(clone_actions, action_size_limits)
{
	struct clone_action list[] = { act_true() };
	uint32_t failed;
	struct clone_args args = {
		.flags = CLONE_ACTIONS, .exit_signal = SIGCHLD,
		.actions = CA_PTR(list), .nr_actions = 1,
		.failed_action = CA_PTR(&failed),
	};

	args.action_size = CLONE_ACTION_SIZE_VER0 - 8;
	cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL);
	args.action_size = 0;
	cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL);
	args.action_size = (uint64_t)sysconf(_SC_PAGESIZE) + 8;
	cr_assert_eq(clone3_raw(&args, sizeof(args)), -E2BIG);
	assert_no_trace();
}

Test(clone_actions, unknown_kinds_flags_and_bytes)
{
	struct clone_action list[2] = { [1] = act_true() };

	list[0] = (struct clone_action){ .kind = 0 };
	expect_failure(list, 2, EINVAL, 0);
	list[0] = (struct clone_action){ .kind = CLONE_ACTION_TCSETPGRP + 1 };
	expect_failure(list, 2, EINVAL, 0);
	list[0] = (struct clone_action){ .kind = 0xffffffff };
	expect_failure(list, 2, EINVAL, 0);
	list[0] = act_close(100);
	list[0].flags = 2;
	expect_failure(list, 2, EINVAL, 0);
	list[0].flags = CLONE_ACTION_F_EXEC_TRY_NEXT;
	expect_failure(list, 2, EINVAL, 0);
	list[0] = act_close(100);
	list[0].__reserved[6] = 1;
	expect_failure(list, 2, EINVAL, 0);
	list[0] = act_close(100);
	list[0].__reserved[0] |= 1ULL << 32;	/* the bytes after close.fd */
	expect_failure(list, 2, EINVAL, 0);
	list[0] = (struct clone_action){ .kind = CLONE_ACTION_SETSID, .__reserved = { 1 } };
	expect_failure(list, 2, EINVAL, 0);
	list[0] = (struct clone_action){ .kind = CLONE_ACTION_SIGMASK,
					 .sigmask = { SIG_BLOCK, 1, 0 } };
	expect_failure(list, 2, EINVAL, 0);
	list[1].__reserved[5] = 1;	/* after execveat.envp */
	list[0] = act_close(100);
	expect_failure(list, 2, EINVAL, 1);
}

Test(clone_actions, bad_static_arguments)
{
	struct clone_action list[2] = { [1] = act_true() };
	const struct {
		struct clone_action action;
		int err;
	} cases[] = {
		{ act_close(-1), EBADF },
		{ act_dup2(-1, 3), EBADF },
		{ act_dup2(0, -2), EBADF },
		{ act_open(-1, "/dev/null", O_RDONLY, 0), EBADF },
		{ act_open(5, "/dev/null", O_RDONLY, 0644), EINVAL },
		{ act_open(5, "/dev/null", O_CREAT | O_WRONLY, 01000000), EINVAL },
		{ act_open(5, "/dev/null", 1 << 30, 0), EINVAL },
		{ { .kind = CLONE_ACTION_FCHDIR, .fchdir = { -5 } }, EBADF },
		{ { .kind = CLONE_ACTION_CLOSE_RANGE, .close_range = { 5, 4, 0 } }, EINVAL },
		{ { .kind = CLONE_ACTION_CLOSE_RANGE, .close_range = { 3, 4, 1 << 7 } }, EINVAL },
		{ { .kind = CLONE_ACTION_SETPGID, .setpgid = { -1, 0 } }, EINVAL },
		{ { .kind = CLONE_ACTION_SETPGID, .setpgid = { 0, -1 } }, EINVAL },
		{ { .kind = CLONE_ACTION_SIGMASK, .sigmask = { 7, 0, 0 } }, EINVAL },
		{ { .kind = CLONE_ACTION_UMASK, .umask = { 01000 } }, EINVAL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		list[0] = cases[i].action;
		expect_failure(list, 2, cases[i].err, 0);
	}
	list[0] = act_close(100);
	list[1].execveat.flags = AT_EACCESS;
	expect_failure(list, 2, EINVAL, 1);
	list[1] = act_true();
	list[1].execveat.dirfd = -7;
	expect_failure(list, 2, EBADF, 1);
}

Test(clone_actions, forbidden_clone_flags)
{
	static const uint64_t flags[] = {
		CLONE_VM, CLONE_FS, CLONE_FILES, CLONE_SIGHAND, CLONE_PTRACE, CLONE_VFORK,
		CLONE_PARENT, CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, CLONE_SETTLS,
		CLONE_PARENT_SETTID, CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID,
	};
	struct clone_action list[] = { act_true() };
	uint32_t failed;
	int tid;
	struct clone_args args = {
		.exit_signal = SIGCHLD, .actions = CA_PTR(list), .nr_actions = 1,
		.action_size = sizeof(struct clone_action), .failed_action = CA_PTR(&failed),
		.parent_tid = CA_PTR(&tid), .child_tid = CA_PTR(&tid),
	};
	static char stack[16384];

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		args.flags = CLONE_ACTIONS | flags[i];
		args.exit_signal = flags[i] & (CLONE_THREAD | CLONE_PARENT) ? 0 : SIGCHLD;
		failed = 0;
		cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL, "flag %#" PRIx64, flags[i]);
		cr_assert_eq(failed, CLONE_ACTION_NO_INDEX, "flag %#" PRIx64, flags[i]);
	}
	args.flags = CLONE_ACTIONS;
	args.exit_signal = SIGCHLD;
	args.stack = CA_PTR(stack);
	args.stack_size = sizeof(stack);
	cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL, "stack");
	assert_no_trace();
}

/* ---- EFAULT everywhere ---- */

/* Two pages, the second inaccessible; returns the start of the second. */
static char *guard_page(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(mprotect(p + page, (size_t)page, PROT_NONE), 0);
	return p + page;
}

Test(clone_actions, efault_positions)
{
	char *hole = guard_page();
	struct clone_action *tail = (struct clone_action *)hole - 2;
	char *const bad_argv[] = { "true", hole, NULL };
	struct clone_action list[2];
	uint32_t failed;

	/* the array itself: third element unreadable */
	tail[0] = act_close(100);
	tail[1] = act_close(101);
	expect_failure(tail, 3, EFAULT, 2);
	expect_failure((struct clone_action *)hole, 1, EFAULT, 0);
	/* the failed index pointer */
	list[0] = act_true();
	cr_assert_eq(spawn(list, 1, (uint32_t *)hole), -EFAULT);
	assert_no_trace();
	/* each path, argv and envp, and an argv element */
	list[0] = act_open(5, hole, O_RDONLY, 0);
	list[1] = act_true();
	expect_failure(list, 2, EFAULT, 0);
	list[0] = (struct clone_action){ .kind = CLONE_ACTION_CHDIR, .chdir = { CA_PTR(hole) } };
	expect_failure(list, 2, EFAULT, 0);
	list[0] = act_exec(hole, true_argv, empty_envp, 0);
	expect_failure(list, 1, EFAULT, 0);
	list[0] = act_exec("/bin/true", (char *const *)hole, empty_envp, 0);
	expect_failure(list, 1, EFAULT, 0);
	list[0] = act_exec("/bin/true", true_argv, (char *const *)hole, 0);
	expect_failure(list, 1, EFAULT, 0);
	list[0] = act_exec("/bin/true", bad_argv, empty_envp, 0);
	expect_failure(list, 1, EFAULT, 0);
	/* a bad path in a TRY_NEXT exec stops the search */
	list[0] = act_exec(hole, true_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT);
	list[1] = act_true();
	expect_failure(list, 2, EFAULT, 0);
	(void)failed;
}

/* ---- runtime failures leave the caller as it was ---- */

static int count_fds(void)
{
	int n = 0;
	char path[64];

	for (int fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	}
	return n;
}

Test(clone_actions, runtime_failures_leave_no_trace)
{
	struct clone_action list[5];
	char cwd[PATH_MAX], cwd2[PATH_MAX];
	sigset_t before, after;
	int fds = count_fds();
	mode_t old = umask(022);
	int pidfd = -1;
	uint32_t failed;

	cr_assert(getcwd(cwd, sizeof(cwd)));
	sigprocmask(SIG_BLOCK, NULL, &before);

	list[0] = act_open(9, "/tmp", O_RDONLY, 0);
	list[1] = (struct clone_action){ .kind = CLONE_ACTION_CHDIR, .chdir = { CA_PTR("/") } };
	list[2] = (struct clone_action){ .kind = CLONE_ACTION_UMASK, .umask = { 077 } };
	list[4] = act_true();
	list[3] = act_close(77);
	expect_failure(list, 5, EBADF, 3);
	list[3] = act_dup2(77, 5);
	expect_failure(list, 5, EBADF, 3);
	list[3] = act_open(5, "/nonexistent", O_RDONLY, 0);
	expect_failure(list, 5, ENOENT, 3);
	list[3] = (struct clone_action){ .kind = CLONE_ACTION_CHDIR,
					 .chdir = { CA_PTR("/nonexistent") } };
	expect_failure(list, 5, ENOENT, 3);
	list[3] = (struct clone_action){ .kind = CLONE_ACTION_FCHDIR, .fchdir = { 0 } };
	expect_failure(list, 5, ENOTDIR, 3);
	list[3] = (struct clone_action){ .kind = CLONE_ACTION_SETPGID, .setpgid = { 1, 0 } };
	expect_failure(list, 5, ESRCH, 3);
	list[3] = act_noop();
	list[4] = act_exec("/nonexistent", true_argv, empty_envp, 0);
	expect_failure(list, 5, ENOENT, 4);
	list[4] = act_exec("/tmp", true_argv, empty_envp, 0);
	expect_failure(list, 5, EACCES, 4);
	/* with CLONE_PIDFD: no pidfd appears, the field is not a new fd */
	cr_assert_eq(spawn_flags(list, 5, CLONE_PIDFD, &failed, &pidfd), -EACCES);
	cr_assert_eq(failed, 4);
	if (pidfd >= 0)
		cr_assert_eq(fcntl(pidfd, F_GETFD), -1, "pidfd %d left open", pidfd);
	assert_no_trace();

	cr_assert_eq(count_fds(), fds);
	cr_assert(getcwd(cwd2, sizeof(cwd2)));
	cr_assert_str_eq(cwd, cwd2);
	cr_assert_eq(umask(old), 022);
	sigprocmask(SIG_BLOCK, NULL, &after);
	cr_assert_eq(memcmp(&before, &after, sizeof(before)), 0);
}

/* ---- pidfd ---- */

Test(clone_actions, pidfd_waitid)
{
	char *const argv[] = { "sh", "-c", "exit 42", NULL };
	struct clone_action list[] = { act_exec("/bin/sh", argv, empty_envp, 0) };
	int pidfd = -1;
	uint32_t failed;
	siginfo_t info = { 0 };
	long pid = spawn_flags(list, 1, CLONE_PIDFD, &failed, &pidfd);

	cr_assert_gt(pid, 0, "%s", strerror((int)-pid));
	cr_assert_geq(pidfd, 0);
	cr_assert_eq(fcntl(pidfd, F_GETFD), FD_CLOEXEC);
	cr_assert_eq(waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED), 0,
		     "%s", strerror(errno));
	cr_assert_eq(info.si_pid, pid);
	cr_assert_eq(info.si_code, CLD_EXITED);
	cr_assert_eq(info.si_status, 42);
	close(pidfd);
}

Test(clone_actions, exit_signal_must_be_sigchld)
{
	/* exec resets exit_signal to SIGCHLD (de_thread()): ask for nothing else */
	const int signals[] = { 0, SIGUSR1, SIGRTMIN };
	struct clone_action list[] = { act_true() };
	uint32_t failed;
	struct clone_args args = {
		.flags = CLONE_ACTIONS, .actions = CA_PTR(list), .nr_actions = 1,
		.action_size = sizeof(struct clone_action), .failed_action = CA_PTR(&failed),
	};

	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		args.exit_signal = (uint64_t)signals[i];
		failed = 0;
		cr_assert_eq(clone3_raw(&args, sizeof(args)), -EINVAL, "signal %d", signals[i]);
		cr_assert_eq(failed, CLONE_ACTION_NO_INDEX);
	}
	assert_no_trace();
}

/* ---- threads ---- */

#define THREADS 4
#define PER_THREAD 25

static void *spawner(void *arg)
{
	struct clone_action good[] = { act_true() };
	struct clone_action bad[] = { act_close(99), act_true() };
	long n = 0;

	(void)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		uint32_t failed;
		long pid = spawn(good, 1, &failed);
		int status;

		if (pid > 0 && waitpid((pid_t)pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			n++;
		if (spawn(bad, 2, &failed) == -EBADF && failed == 0)
			n++;
	}
	return (void *)n;
}

static volatile int waiter_stop;
static volatile long waiter_reaped;

/* wait(-1) in a loop: it must never see a failed child. */
static void *waiter(void *arg)
{
	(void)arg;
	while (!waiter_stop) {
		siginfo_t info = { 0 };

		if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | __WALL | WNOWAIT) == 0 &&
		    info.si_pid != 0)
			waiter_reaped++;
		usleep(100);
	}
	return NULL;
}

Test(clone_actions, threads_spawn_at_once)
{
	pthread_t threads[THREADS], w;
	long total = 0;

	pthread_create(&w, NULL, waiter, NULL);
	for (int i = 0; i < THREADS; i++)
		cr_assert_eq(pthread_create(&threads[i], NULL, spawner, NULL), 0);
	for (int i = 0; i < THREADS; i++) {
		void *n;

		pthread_join(threads[i], &n);
		total += (long)n;
	}
	waiter_stop = 1;
	pthread_join(w, NULL);
	cr_assert_eq(total, THREADS * PER_THREAD * 2);
	drain_sigchld();
	assert_no_trace();
}

/* ---- a blocking wait() in another thread ---- */

struct blocked_wait {
	volatile pid_t tid;
	volatile int done;
	pid_t ret;
	int err;
};

static void *blocking_waiter(void *arg)
{
	struct blocked_wait *w = arg;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->ret = waitpid(-1, NULL, 0);
	w->err = errno;
	w->done = 1;
	return NULL;
}

/* A spawn in another thread of this process. */
struct bg_spawn {
	const struct clone_action *list;
	size_t n;
	long ret;
	uint32_t failed;
	volatile int done;
	pthread_t thread;
};

static void *bg_spawn_run(void *arg)
{
	struct bg_spawn *s = arg;

	s->ret = spawn(s->list, s->n, &s->failed);
	s->done = 1;
	return NULL;
}

static void bg_spawn_start(struct bg_spawn *s, const struct clone_action *list, size_t n)
{
	*s = (struct bg_spawn){ .list = list, .n = n };
	cr_assert_eq(pthread_create(&s->thread, NULL, bg_spawn_run, s), 0);
}

/* Wait for the spawn to return, 20 s at most. */
static void bg_spawn_join(struct bg_spawn *s)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 20;
	cr_assert_eq(pthread_timedjoin_np(s->thread, NULL, &deadline), 0,
		     "the spawn did not return within 20 s");
}

static char *make_fifo(const char *name)
{
	char *p = temp_path(name);

	unlink(p);
	cr_assert_eq(mkfifo(p, 0600), 0, "mkfifo %s: %s", p, strerror(errno));
	return p;
}

Test(clone_actions, blocking_wait_returns_when_spawn_fails)
{
	struct blocked_wait w = { 0 };
	struct bg_spawn f;
	char *fifo = make_fifo("wait");
	/* OPEN of a fifo (blocks until a writer comes), then a CLOSE that fails */
	struct clone_action list[] = { act_open(5, fifo, O_RDONLY, 0), act_close(77),
				       act_true() };
	pthread_t waiter_thread;
	int fd;

	bg_spawn_start(&f, list, 3);
	cr_assert_gt(proc_find_child(5000), 0, "no child appeared");
	/* the in-flight child is the only child: wait(-1) sleeps on it */
	cr_assert_eq(pthread_create(&waiter_thread, NULL, blocking_waiter, &w), 0);
	for (int i = 0; i < 500 && (!w.tid || proc_thread_state(w.tid) != 'S'); i++)
		usleep(10000);
	usleep(100000);
	cr_assert_eq(w.done, 0, "waitpid returned early: %d (%s)", w.ret, strerror(w.err));
	fd = open(fifo, O_WRONLY | O_NONBLOCK);
	cr_assert_geq(fd, 0, "the child does not hold the fifo open: %s", strerror(errno));
	bg_spawn_join(&f);
	cr_assert_eq(f.ret, -EBADF, "spawn: %ld", f.ret);
	cr_assert_eq(f.failed, 1);
	for (int i = 0; i < 500 && !w.done; i++)
		usleep(10000);
	cr_assert(w.done, "waitpid(-1) in another thread still sleeps after the spawn failed");
	cr_assert_eq(w.ret, -1);
	cr_assert_eq(w.err, ECHILD, "waitpid: %s", strerror(w.err));
	pthread_join(waiter_thread, NULL);
	close(fd);
	unlink(fifo);
	assert_no_trace();
}

/* ---- an action's deferred work ---- */

/* The final fput() of a closed file is done before the next action. */
Test(clone_actions, close_releases_file_before_exec)
{
	char *script = make_file("written", "#!/bin/true\n", 0755);
	char *const argv[] = { script, NULL };
	struct clone_action list[] = { act_open(10, script, O_WRONLY, 0), act_close(10),
				       act_exec(script, argv, empty_envp, 0) };
	uint32_t failed = 0;
	long pid = spawn(list, 3, &failed);

	cr_assert_gt(pid, 0, "spawn: %s at action %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	unlink(script);
	assert_no_trace();
}

/* ---- a tracer that follows forks ---- */

/*
 * The tracee: stops for its tracer, then spawns. Exit 0 when the spawn is
 * refused with EPERM and no index, 1 when it spawned, 2 on anything else.
 */
static int traced_spawn(void)
{
	struct clone_action list[] = { act_true() };
	uint32_t failed = 0;
	long ret;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
		return 2;
	ret = spawn(list, 1, &failed);
	if (ret > 0) {
		waitpid((pid_t)ret, NULL, 0);
		return 1;
	}
	return ret == -EPERM && failed == CLONE_ACTION_NO_INDEX ? 0 : 2;
}

Test(clone_actions, tracer_following_forks_is_not_bypassed)
{
	static const long options[] = { PTRACE_O_TRACEFORK, PTRACE_O_TRACEVFORK,
					 PTRACE_O_TRACECLONE };

	for (size_t i = 0; i < 3; i++) {
		pid_t tracee = fork();
		int status;

		cr_assert_geq(tracee, 0);
		if (tracee == 0)
			_exit(traced_spawn());
		cr_assert_eq(waitpid(tracee, &status, 0), tracee);
		cr_assert(WIFSTOPPED(status), "status %#x", status);
		cr_assert_eq(ptrace(PTRACE_SETOPTIONS, tracee, NULL, (void *)options[i]), 0,
			     "PTRACE_SETOPTIONS: %s", strerror(errno));
		cr_assert_eq(ptrace(PTRACE_CONT, tracee, NULL, NULL), 0);
		/* let every other stop go on, with its signal */
		while (waitpid(tracee, &status, __WALL) == tracee && WIFSTOPPED(status))
			ptrace(PTRACE_CONT, tracee, NULL,
			       (void *)(long)(WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status)));
		cr_assert(WIFEXITED(status), "tracee status %#x", status);
		cr_assert_eq(WEXITSTATUS(status), 0,
			     "option %#lx: the tracee %s", options[i],
			     WEXITSTATUS(status) == 1 ? "spawned a child its tracer never saw" :
							"got another error");
		drain_sigchld();
	}
	assert_no_trace();
}

/* ---- fatal signal to the caller while the child blocks ---- */

/*
 * A forked caller that spawns [OPEN(5, path, O_RDONLY), EXEC true], for a
 * path whose open blocks; it exits 3 if the spawn ever returns.
 */
static pid_t fork_blocked_caller(const char *path)
{
	pid_t caller = fork();

	cr_assert_geq(caller, 0, "fork: %s", strerror(errno));
	if (caller == 0) {
		struct clone_action list[] = { act_open(5, path, O_RDONLY, 0), act_true() };
		uint32_t failed;

		spawn(list, 2, &failed);
		_exit(3);
	}
	return caller;
}

Test(clone_actions, caller_killed_while_child_blocks)
{
	char fifo[PATH_MAX];
	pid_t caller;
	int status;

	snprintf(fifo, sizeof(fifo), "/tmp/clone-actions-fifo-%d", getpid());
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	caller = fork_blocked_caller(fifo);	/* blocks: no writer */
	usleep(300000);
	cr_assert_eq(kill(caller, SIGKILL), 0);
	cr_assert_eq(waitpid(caller, &status, 0), caller);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %#x", status);
	drain_sigchld();
	/* the blocked child is gone too: nobody opens the fifo for reading */
	{
		int fd = open(fifo, O_WRONLY | O_NONBLOCK);

		cr_assert_eq(fd, -1, "a reader is still there");
		cr_assert_eq(errno, ENXIO);
	}
	unlink(fifo);
	assert_no_trace();
}

/* ---- seccomp ---- */

/* execveat(fd, "", argv, envp, AT_EMPTY_PATH): the program open at fd */
static struct clone_action act_exec_fd(int fd, char *const *argv)
{
	struct clone_action a = act_exec("", argv, empty_envp, 0);

	a.execveat.dirfd = fd;
	a.execveat.flags = AT_EMPTY_PATH;
	return a;
}

Test(clone_actions, seccomp_errno_on_execveat)
{
	int fd = open("/bin/true", O_RDONLY | O_CLOEXEC);
	struct clone_action list[] = { act_noop(), act_exec_fd(fd, true_argv) };

	/* the exec of an fd, which a C caller makes with execveat() */
	cr_assert_geq(fd, 0, "/bin/true: %s", strerror(errno));
	install_filter(__NR_execveat, SECCOMP_RET_ERRNO | ENOMSG);
	expect_failure(list, 2, ENOMSG, 1);
}

Test(clone_actions, seccomp_errno_on_execve)
{
	struct clone_action list[] = { act_noop(), act_true() };

	/* a filter that only knows execve() still sees the exec action */
	install_filter(__NR_execve, SECCOMP_RET_ERRNO | ENOTSUP);
	expect_failure(list, 2, ENOTSUP, 1);
}

Test(clone_actions, seccomp_errno_on_setup_action)
{
	struct clone_action list[] = { act_noop(), act_dup2(0, 5), act_true() };

	install_filter(__NR_dup2, SECCOMP_RET_ERRNO | EXDEV);
	expect_failure(list, 3, EXDEV, 1);
}

Test(clone_actions, seccomp_kill_refuses_and_caller_lives)
{
	struct clone_action list[] = { { .kind = CLONE_ACTION_UMASK, .umask = { 022 } },
				       act_true() };

	install_filter(__NR_umask, SECCOMP_RET_KILL_PROCESS);
	expect_failure(list, 2, EPERM, 0);
}

Test(clone_actions, seccomp_trap_refuses_without_sigsys)
{
	struct clone_action list[] = { { .kind = CLONE_ACTION_SETSID }, act_true() };
	sigset_t pending;

	install_filter(__NR_setsid, SECCOMP_RET_TRAP);
	expect_failure(list, 2, EPERM, 0);
	sigpending(&pending);
	cr_assert_eq(sigismember(&pending, SIGSYS), 0);
}

Test(clone_actions, seccomp_errno_zero_is_eperm)
{
	struct clone_action list[] = { { .kind = CLONE_ACTION_UMASK, .umask = { 022 } },
				       act_true() };

	install_filter(__NR_umask, SECCOMP_RET_ERRNO | 0);
	expect_failure(list, 2, EPERM, 0);
}

Test(clone_actions, seccomp_allowed_spawn_works)
{
	struct clone_action list[] = { act_noop(), act_dup2(0, 5), act_true() };
	uint32_t failed;
	long pid;

	install_filter(__NR_mknodat, SECCOMP_RET_KILL_PROCESS);
	pid = spawn(list, 3, &failed);
	cr_assert_gt(pid, 0, "%s at %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
}

/* ---- audit: each action and the exec leave their system call's records ---- */

static struct audit_nl audit = { .fd = -1, .lock = -1 };
static struct audit_log audit_log;

static void audit_fini(void)
{
	audit_nl_stop(&audit);
}

/* Record the openat, chdir and execve calls of this test's children. */
static void audit_children(void)
{
	static const int nrs[] = { __NR_openat, __NR_chdir, __NR_execve };
	int err = audit_nl_start(&audit, nrs, 3);

	cr_assert_eq(err, 0, "cannot be the audit daemon (CONFIG_AUDIT?): %s", strerror(-err));
}

/*
 * What a spawn [OPEN(path, flags, 0600), CHDIR("/"), EXEC true] stands
 * for, as system calls in a forked child (the chdir and exec only with
 * exec). Its records are the model of the spawn's. Returns its pid.
 */
static pid_t fork_equivalent(const char *path, int flags, bool exec)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(path, flags, 0600);

		if (exec && fd >= 0 && chdir("/") == 0)
			execve("/bin/true", true_argv, empty_envp);
		_exit(fd < 0);
	}
	waitpid(pid, NULL, 0);
	drain_sigchld();
	return pid;
}

static const char *syscall_name(int nr)
{
	return nr == __NR_openat ? "openat" : nr == __NR_chdir ? "chdir" :
	       nr == __NR_execve ? "execve" : "?";
}

/*
 * The records of wants[0..n) must come within 5 s, from process pid (0:
 * any child of this test); who names it in the messages.
 */
static void audit_expect(const struct audit_want *wants, size_t n, pid_t pid, const char *who)
{
	struct audit_want w[8];

	cr_assert_leq(n, 8);
	for (size_t i = 0; i < n; i++) {
		w[i] = wants[i];
		w[i].pid = pid;
	}
	if (!audit_nl_collect(&audit, &audit_log, w, n, 5000))
		audit_log_print(&audit_log, stderr);
	for (size_t i = 0; i < n; i++)
		cr_assert(audit_log_find(&audit_log, &w[i]),
			  "%s left no audit record of %s (syscall=%d pid=%d success=%s exit=%s) "
			  "with a PATH record of %s", who, syscall_name(w[i].syscall),
			  w[i].syscall, (int)pid, w[i].success ? w[i].success : "any",
			  w[i].exit ? w[i].exit : "any", w[i].path);
}

Test(clone_actions, audit_records_each_action_and_exec, .fini = audit_fini)
{
	char *file = make_file("audited", "", 0600);
	struct clone_action list[] = {
		act_open(10, file, O_RDONLY | O_CREAT, 0600),
		{ .kind = CLONE_ACTION_CHDIR, .chdir = { CA_PTR("/") } },
		act_true(),
	};
	const struct audit_want wants[] = {
		{ __NR_openat, 0, "yes", NULL, file },
		{ __NR_chdir, 0, "yes", "0", "/" },
		{ __NR_execve, 0, "yes", "0", "/bin/true" },
	};
	uint32_t failed;
	long pid;

	audit_children();
	audit_expect(wants, 3, fork_equivalent(file, O_RDONLY | O_CREAT, true),
		     "open+chdir+execve in a forked child");
	pid = spawn(list, 3, &failed);
	cr_assert_gt(pid, 0, "spawn: %s at %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	unlink(file);
	audit_expect(wants, 3, (pid_t)pid, "the spawn");
}

Test(clone_actions, audit_records_failed_open, .fini = audit_fini)
{
	char absent[PATH_MAX];
	struct clone_action list[2];
	const struct audit_want want = { __NR_openat, 0, "no", "-2", absent };

	snprintf(absent, sizeof(absent), "/tmp/clone-actions-%d-absent", getpid());
	list[0] = act_open(10, absent, O_RDONLY, 0);
	list[1] = act_true();
	audit_children();
	audit_expect(&want, 1, fork_equivalent(absent, O_RDONLY, false),
		     "a failing open in a forked child");
	expect_failure(list, 2, ENOENT, 0);
	/* the failed child's pid is never returned: any child of this test */
	audit_expect(&want, 1, 0, "the spawn");
}

/* ---- a killed caller and a child in an uninterruptible wait ---- */

static struct fuse_stall stall = { .report = -1 };
static pid_t stalled_caller;

/* Bounded waitpid(): true if pid was reaped within timeout_ms. */
static bool reap_within(pid_t pid, int timeout_ms, int *status)
{
	for (int waited = 0; waited <= timeout_ms; waited += 10) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		usleep(10000);
	}
	return false;
}

/* Poll pid's state until it is one of states; the last state seen. */
static char state_within(pid_t pid, const char *states, int timeout_ms)
{
	char state = proc_process_state(pid);

	for (int waited = 0; waited < timeout_ms && !strchr(states, state); waited += 10) {
		usleep(10000);
		state = proc_process_state(pid);
	}
	return state;
}

/* Abort the connection, which releases every task of the test. */
static void stall_fini(void)
{
	fuse_stall_stop(&stall);
	if (stalled_caller > 0) {
		kill(stalled_caller, SIGKILL);
		waitpid(stalled_caller, NULL, 0);
		stalled_caller = 0;
	}
}

Test(clone_actions, caller_killed_while_child_blocks_uninterruptibly, .fini = stall_fini)
{
	char dir[PATH_MAX], file[PATH_MAX + 16];
	char child_state, caller_state = 0;
	int err, child, status;
	bool reaped;

	snprintf(dir, sizeof(dir), "/tmp/clone-actions-fuse-%d", getpid());
	err = fuse_stall_start(&stall, dir);
	cr_assert_eq(err, 0, "cannot mount the test's FUSE file system (CONFIG_FUSE_FS?): %s",
		     strerror(-err));
	snprintf(file, sizeof(file), "%s/%s", dir, FUSE_STALL_NAME);
	stalled_caller = fork_blocked_caller(file);
	cr_assert(fuse_stall_wait(&stall, 'O', 10000, &child),
		  "the spawn's OPEN never reached the FUSE daemon");
	cr_assert_eq(proc_find_child_of(stalled_caller, 1000), child,
		     "the FUSE_OPEN came from pid %d, not from the caller's child", child);
	child_state = state_within(child, "SD", 5000);
	cr_assert(strchr("SD", child_state), "the child is not asleep in its open: state %c",
		  child_state);

	/* Now the killed caller's child waits for the request uninterruptibly. */
	cr_assert_eq(kill(stalled_caller, SIGKILL), 0);
	reaped = reap_within(stalled_caller, 5000, &status);
	if (!reaped)
		caller_state = proc_process_state(stalled_caller);
	child_state = proc_process_state(child);
	fuse_stall_stop(&stall);	/* ends the held request */
	if (!reaped)
		cr_assert(reap_within(stalled_caller, 10000, &status),
			  "the killed caller is not reaped even after the FUSE connection ended");
	stalled_caller = 0;
	drain_sigchld();
	cr_assert(reaped,
		  "the SIGKILLed caller was not reaped within 5 s (state %c, its child's %c): it "
		  "waits without bound for a child that sleeps uninterruptibly in a FUSE open; "
		  "only aborting the FUSE connection released it", caller_state, child_state);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "caller status %#x", status);
	cr_assert_eq(state_within(child, "?", 5000), '?',
		     "the spawned child (pid %d) is still there after the request ended", child);
	assert_no_trace();
}

/*
 * ---- seccomp sees each action as the system calls a C caller makes ----
 *
 * A filter must not be able to tell a CLONE_ACTIONS child from glibc's
 * posix_spawn() child: same calls, same arguments, same bits.
 */

#define ERRNO(e) (SECCOMP_RET_ERRNO | (e))

/* rt_sigprocmask(how, set, ...) and rt_sigaction(sig, act, ...) that change something */
static const struct seccomp_rule no_signal_changes[] = {
	{ .nr = __NR_rt_sigprocmask, .test = ARG_NONZERO, .arg = 1, .verdict = ERRNO(EPERM) },
	{ .nr = __NR_rt_sigaction, .test = ARG_NONZERO, .arg = 1, .verdict = ERRNO(EPERM) },
};

Test(clone_actions, seccomp_sees_the_sigmask_set)
{
	struct clone_action list[] = {
		act_noop(),
		{ .kind = CLONE_ACTION_SIGMASK, .sigmask = { SIG_BLOCK, 0, 1ULL << (SIGUSR1 - 1) } },
		act_true(),
	};

	install_rules(no_signal_changes, 2);
	expect_refused(list, 3, EPERM, 1, "rt_sigprocmask() with a set");
}

Test(clone_actions, seccomp_sees_the_sigdefault_action)
{
	struct clone_action list[] = {
		act_noop(),
		{ .kind = CLONE_ACTION_SIGDEFAULT, .sigdefault = { 1ULL << (SIGUSR1 - 1) } },
		act_true(),
	};

	install_rules(no_signal_changes, 2);
	expect_refused(list, 3, EPERM, 1, "rt_sigaction() with an action");
}

/* How a filter saw AT_FDCWD in openat()'s args[0], by the errno it gave. */
#define FDCWD_ZERO_EXTENDED ENOANO
#define FDCWD_SIGN_EXTENDED EBADRQC

static const char *fdcwd_seen(int err)
{
	return err == FDCWD_ZERO_EXTENDED ? "zero-extended (0x00000000ffffff9c)" :
	       err == FDCWD_SIGN_EXTENDED ? "sign-extended (0xffffffffffffff9c)" :
					    strerror(err);
}

Test(clone_actions, seccomp_sees_int_arguments_as_a_c_call)
{
	const struct seccomp_rule rules[] = {
		{ .nr = __NR_openat, .test = ARG_EQUAL, .arg = 0, .value = (uint32_t)AT_FDCWD,
		  .verdict = ERRNO(FDCWD_ZERO_EXTENDED) },
		{ .nr = __NR_openat, .test = ARG_EQUAL, .arg = 0, .value = (uint64_t)(int64_t)AT_FDCWD,
		  .verdict = ERRNO(FDCWD_SIGN_EXTENDED) },
	};
	struct clone_action list[] = { act_open(5, "/", O_RDONLY | O_DIRECTORY, 0), act_true() };
	uint32_t failed = 0;
	int direct;
	long ret;

	install_rules(rules, 2);
	/* calibrate: what this program's own openat() puts in the register */
	cr_assert_eq(openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY), -1,
		     "the filter did not see AT_FDCWD in a direct openat()");
	direct = errno;
	cr_assert(direct == FDCWD_ZERO_EXTENDED || direct == FDCWD_SIGN_EXTENDED,
		  "direct openat(): %s", strerror(direct));
	ret = spawn(list, 2, &failed);
	cr_assert_eq(ret, -direct, "a direct openat() shows AT_FDCWD %s, the OPEN action %s",
		     fdcwd_seen(direct), ret > 0 ? "not at all (it spawned)" : fdcwd_seen((int)-ret));
	cr_assert_eq(failed, 0, "failed index %" PRIu32, failed);
	assert_no_trace();
}

Test(clone_actions, seccomp_sees_the_close_of_open)
{
	const struct seccomp_rule rule = { .nr = __NR_close, .test = ARG_EQUAL, .arg = 0,
					   .value = 10, .verdict = ERRNO(EPERM) };
	struct clone_action list[] = { act_open(10, "/dev/null", O_RDONLY, 0), act_true() };

	/* posix_spawn() closes the target whether or not it is open */
	close(10);
	install_rules(&rule, 1);
	expect_refused(list, 2, EPERM, 0, "close(10) refused, OPEN onto fd 10 (not open)");
	cr_assert_eq(dup2(0, 10), 10);
	expect_refused(list, 2, EPERM, 0, "close(10) refused, OPEN onto fd 10 (open)");
}

Test(clone_actions, seccomp_sees_the_move_of_open)
{
	const struct seccomp_rule rules[] = {
		{ .nr = __NR_dup2, .test = ARG_ANY, .verdict = ERRNO(EPERM) },
		{ .nr = __NR_dup3, .test = ARG_ANY, .verdict = ERRNO(EPERM) },
	};
	struct clone_action list[] = { act_open(10, "/dev/null", O_RDONLY, 0), act_true() };
	int lowest = fcntl(0, F_DUPFD, 0);
	uint32_t failed = 0;
	long pid;

	/* the open lands on the lowest free fd, below 10: dup2() moves it */
	cr_assert_lt(lowest, 10, "no free fd below 10");
	close(lowest);
	close(10);
	install_rules(rules, 2);
	expect_refused(list, 2, EPERM, 0, "dup2() refused, OPEN onto fd 10 moved from a lower fd");
	/* an open that lands on its target needs no dup2() */
	list[0] = act_open(lowest, "/dev/null", O_RDONLY, 0);
	pid = spawn(list, 2, &failed);
	cr_assert_gt(pid, 0, "an OPEN onto the lowest free fd %d, which needs no dup2(): %s at %" PRIu32,
		     lowest, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
}

Test(clone_actions, seccomp_sees_a_plain_exec_as_execve)
{
	struct clone_action list[] = { act_noop(), act_true() };
	uint32_t failed = 0;
	long pid;

	/* a path from the cwd without flags is execve(): execveat() is never called */
	install_filter(__NR_execveat, ERRNO(ENOSYS));
	pid = spawn(list, 2, &failed);
	cr_assert_gt(pid, 0, "a filter that refuses only execveat() refused a plain exec: %s at %" PRIu32,
		     strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
}

/* ---- the fork tracepoint sees a spawn ---- */

Test(clone_actions, fork_tracepoint_sees_the_spawn, .fini = tracefs_fork_event_off)
{
	static char trace[1 << 18];
	struct clone_action list[] = { act_true() };
	pid_t me = (pid_t)syscall(SYS_gettid), forked;
	uint32_t failed = 0;
	long pid;

	tracefs_fork_event_on();
	/* a fork() first: its event shows that the trace works */
	forked = fork();
	if (forked == 0)
		_exit(0);
	cr_assert_gt(forked, 0);
	cr_assert_eq(wait_exit(forked), 0);
	pid = spawn(list, 1, &failed);
	cr_assert_gt(pid, 0, "%s at %" PRIu32, strerror((int)-pid), failed);
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	tracefs_write(TRACEFS_FORK_ENABLE, "0");
	tracefs_read(TRACEFS_DIR "/trace", trace, sizeof(trace));
	cr_assert(tracefs_has_fork(trace, me, forked),
		  "no event for a plain fork() either (pid=%d child_pid=%d); the trace:\n%.2000s",
		  me, forked, trace);
	cr_assert(tracefs_has_fork(trace, me, (pid_t)pid),
		  "fork() has its sched_process_fork event, the spawn (pid=%d child_pid=%ld) has "
		  "none; the trace:\n%.2000s", me, pid, trace);
}

/*
 * ---- a signal during the setup waits for the new program ----
 *
 * The child runs its actions with every signal blocked, as glibc's
 * posix_spawn() child does: a signal sent to it then is not an error of
 * the action it interrupts; it stays pending and meets the new program,
 * which starts with the mask the list asked for.
 */

static void do_nothing(int sig)
{
	(void)sig;
}

/* The wait status of child pid, which must end within timeout_s seconds. */
static int wait_status(pid_t pid, int timeout_s)
{
	int status = 0;
	pid_t got;

	for (int i = 0; (got = waitpid(pid, &status, WNOHANG)) == 0 && i < timeout_s * 100; i++)
		usleep(10000);
	cr_assert_eq(got, pid, "child %d: %s", pid,
		     got == 0 ? "still there after the time limit" : strerror(errno));
	drain_sigchld();
	return status;
}

/*
 * Spawn list, whose first action opens fifo for reading, from another
 * thread; send SIGUSR1, which this process handles, to the child while it
 * blocks in that OPEN, then let it go on. The spawn must succeed: returns
 * the child's wait status.
 */
static int status_after_signal_in_open(const struct clone_action *list, size_t n,
				       const char *fifo)
{
	struct sigaction handled = { .sa_handler = do_nothing };
	struct bg_spawn s;
	int fd = -1;

	cr_assert_eq(sigaction(SIGUSR1, &handled, NULL), 0);
	bg_spawn_start(&s, list, n);
	cr_assert_eq(kill(blocked_child_of(getpid()), SIGUSR1), 0);
	/* time for a kernel that lets the signal end the OPEN to do it */
	for (int i = 0; i < 100 && !s.done; i++)
		usleep(10000);
	if (!s.done)
		fd = release_fifo(fifo);
	bg_spawn_join(&s);
	if (fd >= 0)
		close(fd);
	unlink(fifo);
	cr_assert_gt(s.ret, 0, "a SIGUSR1 sent while the child blocked in its OPEN failed the "
		     "spawn: %s at %" PRIu32, strerror((int)-s.ret), s.failed);
	return wait_status((pid_t)s.ret, 20);
}

Test(clone_actions, signal_in_setup_is_delivered_after_exec)
{
	char *fifo = make_fifo("sigfifo");
	struct clone_action list[] = { act_open(5, fifo, O_RDONLY, 0), act_true() };
	int status = status_after_signal_in_open(list, 2, fifo);

	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
		  "the new program did not die of the pending SIGUSR1: status %#x", status);
}

Test(clone_actions, signal_in_setup_stays_blocked_by_sigmask)
{
	char *fifo = make_fifo("sigfifo2");
	struct clone_action list[] = {
		act_open(5, fifo, O_RDONLY, 0),
		{ .kind = CLONE_ACTION_SIGMASK, .sigmask = { SIG_BLOCK, 0, 1ULL << (SIGUSR1 - 1) } },
		act_true(),
	};
	int status = status_after_signal_in_open(list, 3, fifo);

	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "a program that starts with SIGUSR1 blocked and pending: status %#x", status);
}

/* The mask probe starts with, from a caller with mask caller_mask, after a SIGMASK action. */
static uint64_t started_mask(uint64_t caller_mask, int how, uint64_t set)
{
	struct clone_action list[] = { { .kind = CLONE_ACTION_SIGMASK, .sigmask = { how, 0, set } } };
	sigset_t mask, old;
	unsigned long long blocked = ~0ULL;
	const char *line;

	sigemptyset(&mask);
	for (int sig = 1; sig <= 64; sig++)
		if (caller_mask & (1ULL << (sig - 1)))
			sigaddset(&mask, sig);
	sigprocmask(SIG_SETMASK, &mask, &old);
	line = strstr(probe_report(list, 1, 0), "\nblocked ");
	sigprocmask(SIG_SETMASK, &old, NULL);
	cr_assert(line && sscanf(line, "\nblocked %llx", &blocked) == 1, "no mask in the report");
	return blocked;
}

Test(clone_actions, program_starts_with_the_asked_mask)
{
	const uint64_t usr1 = 1ULL << (SIGUSR1 - 1), usr2 = 1ULL << (SIGUSR2 - 1);
	uint64_t got;

	got = started_mask(usr2, SIG_BLOCK, usr1);
	cr_assert_eq(got, usr1 | usr2, "caller {SIGUSR2} + SIG_BLOCK {SIGUSR1}: blocked %#" PRIx64,
		     got);
	got = started_mask(usr1 | usr2, SIG_UNBLOCK, usr1);
	cr_assert_eq(got, usr2, "caller {SIGUSR1, SIGUSR2} + SIG_UNBLOCK {SIGUSR1}: blocked %#" PRIx64,
		     got);
}

/* ---- an exec that fails past its point of no return ends the search ---- */

struct spawn_result {
	long ret;
	uint32_t failed;
	int status;		/* the child's wait status */
	char report[256];	/* what the program wrote to fd 3 */
};

/*
 * Spawn [DUP2(pipe, 3), execs...] from a forked process whose RLIMIT_AS is
 * 64 MiB (too small for bigbss, enough for probe) and wait for the child,
 * 20 s at most.
 */
static struct spawn_result spawn_with_64mib_as(const struct clone_action *execs, size_t n)
{
	struct spawn_result r = { 0 };
	struct clone_action list[4];
	int result[2], report[2], status;
	ssize_t got, len;
	pid_t worker;

	cr_assert_lt(n, 4);
	cr_assert_eq(pipe2(result, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(report, O_CLOEXEC), 0);
	list[0] = act_dup2(report[1], 3);
	memcpy(list + 1, execs, n * sizeof(*execs));
	worker = fork();
	cr_assert_geq(worker, 0);
	if (worker == 0) {
		const struct rlimit low = { 64 << 20, 64 << 20 };

		alarm(20);
		if (setrlimit(RLIMIT_AS, &low) == 0) {
			r.ret = spawn(list, n + 1, &r.failed);
			if (r.ret > 0)
				waitpid((pid_t)r.ret, &r.status, 0);
			if (write(result[1], &r, sizeof(r)) != sizeof(r))
				_exit(1);
		}
		_exit(0);
	}
	close(result[1]);
	close(report[1]);
	got = read(result[0], &r, sizeof(r));
	close(result[0]);
	status = wait_status(worker, 30);
	cr_assert_eq(got, (ssize_t)sizeof(r), "the spawning process reported nothing: status %#x",
		     status);
	len = read(report[0], r.report, sizeof(r.report) - 1);
	r.report[len > 0 ? len : 0] = '\0';
	close(report[0]);
	return r;
}

Test(clone_actions, exec_failing_past_no_return_ends_the_search)
{
	char *const big_argv[] = { "bigbss", NULL };
	char fdarg[] = "3";
	char *const probe_argv[] = { "probe", fdarg, NULL };
	struct clone_action execs[] = {
		act_exec(bigbss_path, big_argv, empty_envp, CLONE_ACTION_F_EXEC_TRY_NEXT),
		act_exec(probe_path, probe_argv, empty_envp, 0),
	};
	struct clone_action big = act_exec(bigbss_path, big_argv, empty_envp, 0);
	struct spawn_result r;
	uint32_t failed = 0;
	long pid;

	/* bigbss runs, but under the limit its .bss fails past the point of no return */
	pid = spawn(&big, 1, &failed);
	cr_assert_gt(pid, 0, "%s: %s", bigbss_path, strerror((int)-pid));
	cr_assert_eq(wait_exit((pid_t)pid), 0);
	r = spawn_with_64mib_as(&big, 1);
	cr_assert(r.ret > 0 && WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV,
		  "bigbss under the limit: spawn %ld (%s), status %#x", r.ret,
		  r.ret < 0 ? strerror((int)-r.ret) : "a child", r.status);
	/* the second candidate, probe, runs under it */
	r = spawn_with_64mib_as(&execs[1], 1);
	cr_assert(r.ret > 0 && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0 && r.report[0],
		  "probe under the limit: spawn %ld, status %#x", r.ret, r.status);

	r = spawn_with_64mib_as(execs, 2);
	if (r.ret > 0)
		cr_assert(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV,
			  "the child of an exec that failed past the point of no return: status %#x",
			  r.status);
	else
		cr_assert_eq(r.failed, 1, "the spawn failed with %s at %" PRIu32 ", not at the exec",
			     strerror((int)-r.ret), r.failed);
	cr_assert_str_empty(r.report, "the second candidate ran after the first had failed past "
			    "the point of no return; it wrote:\n%s", r.report);
	assert_no_trace();
}

/* ---- the cgroup freezer freezes a spawn in flight ---- */

/* cgroupfs files are read and written with tracefs.h's helpers, as tracefs files are */
#define CGROUP_ROOT "/sys/fs/cgroup"

static struct {
	bool mounted;
	char dir[64];
	pid_t worker;
	const char *fifo;
} freezer;

static void freezer_file(const char *name, char *path)
{
	snprintf(path, PATH_MAX, "%s/%s", freezer.dir, name);
}

static void freezer_cleanup(void)
{
	char path[PATH_MAX];

	if (freezer.worker > 0) {
		freezer_file("cgroup.freeze", path);
		tracefs_write(path, "0");
		kill(freezer.worker, SIGKILL);
		waitpid(freezer.worker, NULL, 0);
	}
	/* the killed worker's child may take a moment to leave */
	for (int i = 0; freezer.dir[0] && i < 500 && rmdir(freezer.dir) && errno == EBUSY; i++)
		usleep(10000);
	if (freezer.mounted)
		umount(CGROUP_ROOT);
	if (freezer.fifo)
		unlink(freezer.fifo);
}

/*
 * The worker: joins the cgroup and spawns list. Exits 0 when the child
 * exits 0, the spawn's errno when it fails, 255 for a child that fails and
 * 254 when the worker cannot join the cgroup.
 */
static void freezer_worker(const struct clone_action *list, size_t n)
{
	char path[PATH_MAX];
	uint32_t failed;
	int status;
	long pid;

	freezer_file("cgroup.procs", path);
	if (!tracefs_write(path, "0"))
		_exit(254);
	pid = spawn(list, n, &failed);
	if (pid < 0)
		_exit((int)-pid);
	_exit(waitpid((pid_t)pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0 ? 0 : 255);
}

static const char *worker_result(int code)
{
	return code == 255 ? "its child failed" : code == 254 ? "it could not join the cgroup" :
								 strerror(code);
}

Test(clone_actions, cgroup_freezer_freezes_a_spawn_in_flight, .fini = freezer_cleanup)
{
	const char *fifo = freezer.fifo = make_fifo("freezer");
	struct clone_action list[] = { act_open(5, fifo, O_RDONLY, 0), act_true() };
	char path[PATH_MAX], events[4096];
	bool frozen = false;
	int status, fd;

	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) != 0) {
		cr_assert_eq(mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL), 0,
			     "mount cgroup2 on " CGROUP_ROOT ": %s", strerror(errno));
		freezer.mounted = true;
	}
	snprintf(freezer.dir, sizeof(freezer.dir), CGROUP_ROOT "/clone-actions-%d", getpid());
	cr_assert_eq(mkdir(freezer.dir, 0755), 0, "%s: %s", freezer.dir, strerror(errno));
	freezer.worker = fork();
	cr_assert_geq(freezer.worker, 0);
	if (freezer.worker == 0)
		freezer_worker(list, 2);
	blocked_child_of(freezer.worker);

	freezer_file("cgroup.freeze", path);
	cr_assert(tracefs_write(path, "1"), "freezing: %s", strerror(errno));
	freezer_file("cgroup.events", path);
	for (int i = 0; i < 1000 && !frozen; i++) {
		frozen = report_has(tracefs_read(path, events, sizeof(events)), "frozen 1");
		if (!frozen)
			usleep(10000);
	}
	cr_assert(frozen, "a cgroup with a spawn in flight did not freeze within 10 s:\n%s", events);
	freezer_file("cgroup.freeze", path);
	cr_assert(tracefs_write(path, "0"), "thawing: %s", strerror(errno));

	fd = release_fifo(fifo);
	status = wait_status(freezer.worker, 20);
	freezer.worker = 0;
	cr_assert(WIFEXITED(status), "the worker: status %#x", status);
	cr_assert_eq(WEXITSTATUS(status), 0, "the spawn frozen and thawed in its OPEN: %s",
		     worker_result(WEXITSTATUS(status)));
	cr_assert_geq(fd, 0, "nobody opened the fifo for reading");
	close(fd);
}

/* ---- the caller's pending task work is not the child's ---- */

/*
 * The caller of clone3() has TIF_NOTIFY_SIGNAL set, by an io_uring
 * completion queued as its task work, while it is inside the system call:
 * copy_process() copies the flag into the child. A fork() child clears it
 * on its first return to user space; a CLONE_ACTIONS child runs its
 * actions first and must clear it itself, or each interruptible wait of an
 * action (a FIFO's OPEN) ends at once with EINTR though nobody sent a
 * signal.
 *
 * A seccomp filter stops the caller's clone3() at its entry and hands it
 * to the supervisor thread; the filter is installed with
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, so that once the notification is
 * received the caller waits only killably. The supervisor then writes a
 * byte into a pipe on which the caller has an io_uring READ pending: the
 * completion becomes the caller's task work, added with TWA_SIGNAL, which
 * sets TIF_NOTIFY_SIGNAL on the caller and does not end its wait. The
 * supervisor lets clone3() go on, and opens the FIFO for writing once the
 * child really sleeps in its OPEN: a writer there before the child would
 * let the OPEN succeed without waiting.
 */
struct notify_supervisor {
	sem_t ready;		/* posted once listener is set */
	int listener;		/* the filter's notification fd */
	int pipe_w;		/* the write end of the caller's READ pipe */
	struct io_uring *ring;	/* the caller's ring, to look at its CQ */
	const char *fifo;
	volatile int spawn_done;
	/* results */
	int recv_err, write_err, send_err;	/* 0 or the errno */
	struct seccomp_notif notif;
	unsigned int cq_ready_in_clone3;	/* CQEs posted while the caller was stopped */
	int writer;				/* the FIFO's write end, or -1 */
};

#define NOTIFY_BYTE 'n'

/* Does pid sleep (off its run queue) in the wait of a FIFO's open? */
static bool sleeps_in_fifo_open(pid_t pid)
{
	char path[64], wchan[64] = "";
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, wchan, sizeof(wchan) - 1);
	close(fd);
	wchan[len > 0 ? len : 0] = '\0';
	return !strcmp(wchan, "wait_for_partner") || !strcmp(wchan, "fifo_open");
}

/* Release the child's OPEN once it waits in it; give up when the spawn returns or after 20 s. */
static int release_fifo_when_waited_in(const char *fifo, volatile int *spawn_done)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		pid_t child = proc_find_child(0);

		if (child > 0 && sleeps_in_fifo_open(child))
			return open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (!*spawn_done && now.tv_sec - start.tv_sec < 20);
	return -1;
}

static void *notify_supervisor_run(void *arg)
{
	struct notify_supervisor *s = arg;
	struct seccomp_notif_resp resp = { 0 };
	const char byte = NOTIFY_BYTE;

	while (sem_wait(&s->ready) != 0)
		continue;
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, &s->notif) != 0) {
		s->recv_err = errno;
		return NULL;
	}
	/* the caller now waits killably: this sets its TIF_NOTIFY_SIGNAL */
	if (write(s->pipe_w, &byte, 1) != 1)
		s->write_err = errno;
	s->cq_ready_in_clone3 = io_uring_cq_ready(s->ring);
	resp.id = s->notif.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) != 0) {
		s->send_err = errno;
		return NULL;
	}
	s->writer = release_fifo_when_waited_in(s->fifo, &s->spawn_done);
	return NULL;
}

Test(clone_actions, child_does_not_inherit_pending_task_work_signal)
{
	const struct seccomp_rule stop_clone3 = { .nr = __NR_clone3, .test = ARG_ANY,
						  .verdict = SECCOMP_RET_USER_NOTIF };
	char *fifo = make_fifo("notify");
	struct clone_action list[] = { act_open(5, fifo, O_RDONLY, 0), act_true() };
	struct notify_supervisor s = { .fifo = fifo, .writer = -1 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe = NULL;
	struct __kernel_timespec five_s = { .tv_sec = 5 };
	pthread_t supervisor;
	uint32_t failed = CLONE_ACTION_NO_INDEX;
	unsigned int cq_ready_after_spawn;
	char got = 0;
	int p[2], cqe_res = 0, cqe_err;
	long ret;

	/* a plain ring: its completions are task work added with TWA_SIGNAL */
	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	cr_assert_eq(io_uring_queue_init(8, &ring, 0), 0, "io_uring_queue_init");
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, p[0], &got, 1, 0);
	cr_assert_eq(io_uring_submit(&ring), 1);
	cr_assert_eq(io_uring_cq_ready(&ring), 0, "a READ of an empty pipe completed");

	s.pipe_w = p[1];
	s.ring = &ring;
	cr_assert_eq(sem_init(&s.ready, 0, 0), 0);
	/* before the filter, which stops this thread's clone3(), pthread_create()'s too */
	cr_assert_eq(pthread_create(&supervisor, NULL, notify_supervisor_run, &s), 0);
	s.listener = install_rules_flags(&stop_clone3, 1,
					 SECCOMP_FILTER_FLAG_NEW_LISTENER |
					 SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV);
	sem_post(&s.ready);

	ret = spawn(list, 2, &failed);
	/* no system call since clone3(), which ran the task work on its way out */
	cq_ready_after_spawn = io_uring_cq_ready(&ring);
	s.spawn_done = 1;
	pthread_join(supervisor, NULL);
	cqe_err = io_uring_wait_cqe_timeout(&ring, &cqe, &five_s);
	if (!cqe_err) {
		cqe_res = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	close(s.listener);
	close(p[0]);
	close(p[1]);
	if (s.writer >= 0)
		close(s.writer);
	unlink(fifo);
	sem_destroy(&s.ready);

	cr_assert_eq(s.recv_err, 0, "SECCOMP_IOCTL_NOTIF_RECV: %s", strerror(s.recv_err));
	cr_assert_eq(s.notif.data.nr, __NR_clone3, "the filter stopped system call %d",
		     s.notif.data.nr);
	cr_assert_eq(s.write_err, 0, "write to the pipe: %s", strerror(s.write_err));
	cr_assert_eq(s.send_err, 0, "SECCOMP_IOCTL_NOTIF_SEND: %s", strerror(s.send_err));
	cr_assert_eq(s.cq_ready_in_clone3, 0,
		     "the READ completed while its submitter was stopped in clone3(): not as "
		     "its task work, so nothing set its TIF_NOTIFY_SIGNAL");
	cr_assert_gt(ret, 0,
		     "the spawn failed with %s at action %" PRIu32 ", though no signal was sent: "
		     "the child inherited its caller's TIF_NOTIFY_SIGNAL",
		     strerror((int)-ret), failed);
	cr_assert_geq(s.writer, 0, "the child's OPEN of the fifo did not wait for a writer");
	cr_assert_eq(wait_exit((pid_t)ret), 0);
	cr_assert_eq(cq_ready_after_spawn, 1,
		     "the READ's completion did not run as the caller left clone3(): the "
		     "caller's own TIF_NOTIFY_SIGNAL was lost");
	cr_assert_eq(cqe_err, 0, "the caller's READ did not complete: %s", strerror(-cqe_err));
	cr_assert_eq(cqe_res, 1, "the caller's READ: %d", cqe_res);
	cr_assert_eq(got, NOTIFY_BYTE, "the caller's READ got %#x", got);
	assert_no_trace();
}
