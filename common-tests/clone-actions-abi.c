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
#include "clone-actions-spawn.h"
#include "proc-children.h"
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/audit.h>

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static char *const true_argv[] = { "true", NULL };
static char *const empty_envp[] = { NULL };
static char probe_path[PATH_MAX];

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

/* Expect the spawn to fail with err at index, and leave nothing behind. */
static void expect_failure(const struct clone_action *actions, size_t n, int err,
			   uint32_t index)
{
	uint32_t failed = 0x5a5a5a5a;
	long ret = spawn(actions, n, &failed);

	cr_assert_eq(ret, -err, "expected %s, got %ld (%s) at %" PRIu32, strerror(err), ret,
		     ret < 0 ? strerror((int)-ret) : "a child", failed);
	cr_assert_eq(failed, index, "failed index %" PRIu32 ", expected %" PRIu32, failed,
		     index);
	assert_no_trace();
}

static void setup(void)
{
	sigset_t chld;
	ssize_t len;
	char *slash;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	len = readlink("/proc/self/exe", probe_path, sizeof(probe_path) - 7);
	cr_assert_gt(len, 0);
	probe_path[len] = '\0';
	slash = strrchr(probe_path, '/');
	strcpy(slash + 1, "probe");
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

static char *make_file(const char *name, const char *content, mode_t mode)
{
	static char path[4][PATH_MAX];
	static int next;
	char *p = path[next++ % 4];
	int fd;

	snprintf(p, PATH_MAX, "/tmp/clone-actions-%d-%s", getpid(), name);
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
	list[0] = (struct clone_action){ .kind = CLONE_ACTION_EXECVEAT + 1 };
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

struct fifo_spawn {
	const char *fifo;
	long ret;
	uint32_t failed;
};

/* OPEN of a fifo (blocks until a writer comes), then a CLOSE that fails */
static void *fifo_spawner(void *arg)
{
	struct fifo_spawn *f = arg;
	struct clone_action list[] = { act_open(5, f->fifo, O_RDONLY, 0), act_close(77),
				       act_true() };

	f->ret = spawn(list, 3, &f->failed);
	return NULL;
}

Test(clone_actions, blocking_wait_returns_when_spawn_fails)
{
	struct blocked_wait w = { 0 };
	struct fifo_spawn f = { 0 };
	char fifo[PATH_MAX];
	pthread_t spawner_thread, waiter_thread;
	int fd;

	snprintf(fifo, sizeof(fifo), "/tmp/clone-actions-wait-%d", getpid());
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	f.fifo = fifo;
	cr_assert_eq(pthread_create(&spawner_thread, NULL, fifo_spawner, &f), 0);
	cr_assert_gt(proc_find_child(5000), 0, "no child appeared");
	/* the in-flight child is the only child: wait(-1) sleeps on it */
	cr_assert_eq(pthread_create(&waiter_thread, NULL, blocking_waiter, &w), 0);
	for (int i = 0; i < 500 && (!w.tid || proc_thread_state(w.tid) != 'S'); i++)
		usleep(10000);
	usleep(100000);
	cr_assert_eq(w.done, 0, "waitpid returned early: %d (%s)", w.ret, strerror(w.err));
	fd = open(fifo, O_WRONLY | O_NONBLOCK);
	cr_assert_geq(fd, 0, "the child does not hold the fifo open: %s", strerror(errno));
	pthread_join(spawner_thread, NULL);
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

Test(clone_actions, caller_killed_while_child_blocks)
{
	char fifo[PATH_MAX];
	pid_t caller;
	int status;

	snprintf(fifo, sizeof(fifo), "/tmp/clone-actions-fifo-%d", getpid());
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	caller = fork();
	if (caller == 0) {
		struct clone_action list[] = { act_open(5, fifo, O_RDONLY, 0), act_true() };
		uint32_t failed;

		spawn(list, 2, &failed);	/* blocks: no writer */
		_exit(3);
	}
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

static void install_filter(int nr, uint32_t verdict)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, verdict),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = code };

	cr_assert_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	cr_assert_eq(syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0,
		     "seccomp: %s", strerror(errno));
}

Test(clone_actions, seccomp_errno_on_execveat)
{
	struct clone_action list[] = { act_noop(), act_true() };

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
