/*
 * Backend "builder": series-builder's process builder, one per request.
 * spawn_open() on a copy of the caller's fd table (INHERIT_FDS: the table
 * posix_spawn's file actions act on), close-on-exec; one spawn_config()
 * per action, in list order; SPAWN_EXEC with the program, or for a search
 * the name and the resolved PATH string (the kernel searches, with
 * libcompat's rules: it goes on after ENOENT, ENOTDIR and EACCES only);
 * spawn_commit() with CONSUME (the table and cwd move into the child) and
 * PIDFD when wanted; close().
 *
 * The kernel applies the fd, cwd, umask and signal settings at once, in
 * the caller, to the builder's state, and checks the others (setsid,
 * setpgid, resetids, scheduling, tcsetpgrp) then, for the child to apply
 * at commit in the same order. Each action is exactly one setting, so a
 * setting's index, which spawn_commit()'s failure record names, is its
 * action's: a config call that fails is its action's step, so is a
 * setting that fails in the child; the exec's open at SPAWN_EXEC and the
 * commit's exec are COMPAT_STEP_EXEC; a commit refused before any step,
 * or whose task could not be made, COMPAT_STEP_CREATE. The kernel leaves
 * no child on failure, and the builder goes with its fd.
 *
 * Compiled against the series' uapi headers (abi/builder.mk puts
 * UAPI_INCLUDE_builder first for this file); on a kernel without the
 * series the probe says no.
 */
#include "../abi/builder-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backend.h"

/* What /proc/self/fd says of a builder. */
#define BUILDER_LINK "anon_inode:[spawn_builder]"

/*
 * kernel/spawn.c's SPAWN_CHILD_SETTINGS_MAX (not in the uapi): how many
 * settings of a builder its child applies; E2BIG beyond.
 */
#define CHILD_SETTINGS_MAX 64

/* The kernel's MAX_ARG_STRLEN (32 pages): the longest search SPAWN_EXEC takes. */
#define SEARCH_MAX (32 * 4096)

/* The major number of /dev/null, /dev/zero and the other memory devices. */
#define MEM_MAJOR 1

/*
 * SPAWN_OPEN checks flags and mode as openat2() does, where open(2)
 * ignores what it has no use for (fs/open.c's build_open_how()): with
 * O_PATH only these flags, a mode only to create (the kernel's
 * __O_TMPFILE is glibc's without O_DIRECTORY), no file type bits.
 * O_LARGEFILE it adds as open(2) and openat2() do.
 */
#define OPEN_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)
#define OPEN_CREATES (O_CREAT | (__O_TMPFILE & ~O_DIRECTORY))

static int open_builder(const void *flags)
{
	return sb_open(*(const unsigned int *)flags);
}

/*
 * A kernel with the series gives a builder, an fd that /proc/self/fd names
 * as one (on 6.13 and later, number 463 is setxattrat(), which fails with
 * these arguments). With a full table too: tst-spawn3 under the shim fills
 * it before its first spawn.
 */
static bool builder_probe(void)
{
	const unsigned int flags = SPAWN_OPEN_CLOEXEC;
	char link[32], target[sizeof BUILDER_LINK];
	int fd = compat_fd_beyond_limit(open_builder, &flags);

	if (fd < 0)
		return false;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	if (readlink(link, target, sizeof target) != sizeof target - 1 ||
	    memcmp(target, BUILDER_LINK, sizeof target - 1) != 0)
		return false;	/* what another call returned is not ours to close */
	close(fd);
	return true;
}

/*
 * One setting: 0 or an errno value. EINTR is tried again: a blocking open
 * (a FIFO) runs in the caller, where a signal with a handler ends it.
 */
static int config(int bfd, unsigned int op, const void *arg, size_t size)
{
	while (sb_config(bfd, op, arg, size) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

static int fd_setting(int bfd, unsigned int op, int fd, int target)
{
	const struct spawn_fd arg = { .fd = fd, .target = target };

	return config(bfd, op, &arg, sizeof arg);
}

static int range_setting(int bfd, unsigned int first, unsigned int last, unsigned int flags)
{
	const struct spawn_range arg = { .first = first, .last = last, .flags = flags };

	return config(bfd, SPAWN_CLOSE_RANGE, &arg, sizeof arg);
}

static int value_setting(int bfd, unsigned int op, long long value)
{
	const struct spawn_value arg = { .value = value };

	return config(bfd, op, &arg, sizeof arg);
}

static int signals_setting(int bfd, unsigned int op, unsigned int how, const sigset_t *set)
{
	const struct spawn_sigset arg = { .how = how, .set = compat_signal_bits(set) };

	return config(bfd, op, &arg, sizeof arg);
}

/*
 * libcompat's close: an fd that is not open in the builder (EBADF) is no
 * error unless it can never be open. That setting is then a range of the
 * one fd, which closes nothing, so that every action is one setting.
 */
static int close_setting(int bfd, int fd)
{
	int error = fd_setting(bfd, SPAWN_CLOSE, fd, 0);

	if (error == EBADF && fd >= 0 && fd < getdtablesize())
		error = range_setting(bfd, (unsigned int)fd, (unsigned int)fd, 0);
	return error;
}

/* libcompat's open, as open(2) reads its flags and mode (OPEN_PATH_FLAGS). */
static int open_setting(int bfd, const struct compat_action *a)
{
	int flags = a->open.flags & COMPAT_OPEN_KNOWN_FLAGS;
	struct spawn_open_arg arg = {
		.fd = a->open.target, .dirfd = a->open.dirfd, .path = SB_PTR(a->open.path)
	};

	if (flags & O_PATH)
		flags &= OPEN_PATH_FLAGS;
	arg.flags = (unsigned int)flags;
	if (flags & OPEN_CREATES)
		arg.mode = a->open.mode & 07777;
	return config(bfd, SPAWN_OPEN, &arg, sizeof arg);
}

/* Action a as one setting of the builder: 0 or an errno value. */
static int apply(int bfd, const struct compat_action *a)
{
	switch (a->kind) {
	case COMPAT_CLOSE:
		return close_setting(bfd, a->fd);
	case COMPAT_DUP2:
		/* dup2(fd, fd) clears FD_CLOEXEC: no SPAWN_FD_CLOEXEC */
		return fd_setting(bfd, SPAWN_DUP2, a->dup2.fd, a->dup2.target);
	case COMPAT_OPEN:
		return open_setting(bfd, a);
	case COMPAT_CHDIR: {
		const struct spawn_path arg = { .path = SB_PTR(a->path) };

		return config(bfd, SPAWN_CHDIR, &arg, sizeof arg);
	}
	case COMPAT_FCHDIR:
		return fd_setting(bfd, SPAWN_FCHDIR, a->fd, 0);
	case COMPAT_CLOSE_RANGE:
		return range_setting(bfd, a->close_range.first, a->close_range.last,
				     a->close_range.flags);
	case COMPAT_SETSID:
		return config(bfd, SPAWN_SETSID, NULL, 0);
	case COMPAT_SETPGID:
		return value_setting(bfd, SPAWN_SETPGID, a->pgid);
	case COMPAT_SIGMASK:
		return signals_setting(bfd, SPAWN_SIGMASK, SIG_SETMASK, &a->signals);
	case COMPAT_SIGDEFAULT:
		return signals_setting(bfd, SPAWN_SIGDEFAULT, 0, &a->signals);
	case COMPAT_UMASK:
		/* umask(2) keeps these bits; SPAWN_UMASK refuses others */
		return value_setting(bfd, SPAWN_UMASK, a->umask & 0777);
	case COMPAT_RESETIDS:
		return config(bfd, SPAWN_RESETIDS, NULL, 0);
	case COMPAT_SCHED: {
		const struct spawn_sched arg = { .policy = a->sched.policy,
						 .priority = a->sched.priority };

		return config(bfd, SPAWN_SCHED, &arg, sizeof arg);
	}
	case COMPAT_TCSETPGRP:
		return fd_setting(bfd, SPAWN_TCSETPGRP, a->fd, 0);
	}
	return EINVAL;
}

/* Whether a chdir or fchdir comes before action i: the child's cwd may differ from ours. */
static bool cwd_moved_before(const struct compat_spawn *request, size_t i)
{
	while (i--)
		if (request->actions[i].kind == COMPAT_CHDIR ||
		    request->actions[i].kind == COMPAT_FCHDIR)
			return true;
	return false;
}

/*
 * Whether open action i, after a setsid, could make a terminal the child's
 * controlling terminal, as open(2) does in a session leader that has none:
 * the builder opens in the caller, O_NOCTTY implied. Not with O_NOCTTY,
 * O_PATH or O_DIRECTORY, nor write-only (open(2) takes a terminal opened
 * for reading only), nor where the path names now no character device or
 * a memory one (/dev/null), which the caller can tell only for a path it
 * sees as the child will: absolute, or relative to a cwd no action moved.
 */
static bool may_take_terminal(const struct compat_spawn *request, size_t i)
{
	const struct compat_action *a = &request->actions[i];
	struct stat st;

	if (a->open.flags & (O_NOCTTY | O_PATH | O_DIRECTORY) ||
	    (a->open.flags & O_ACCMODE) == O_WRONLY)
		return false;
	if (a->open.path[0] != '/' && (a->open.dirfd != AT_FDCWD || cwd_moved_before(request, i)))
		return true;
	return stat(a->open.path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) != MEM_MAJOR;
}

static bool applied_by_child(enum compat_action_kind kind)
{
	return kind == COMPAT_SETSID || kind == COMPAT_SETPGID || kind == COMPAT_RESETIDS ||
	       kind == COMPAT_SCHED || kind == COMPAT_TCSETPGRP;
}

static const char *builder_refuse(const struct compat_spawn *request)
{
	size_t in_child = 0;
	bool leader = false;

	for (size_t i = 0; i < request->n_actions; i++) {
		enum compat_action_kind kind = request->actions[i].kind;

		in_child += applied_by_child(kind);
		leader = leader || kind == COMPAT_SETSID;
		if (leader && kind == COMPAT_OPEN && may_take_terminal(request, i))
			return "no open after setsid that may take a controlling terminal (O_NOCTTY is implied)";
	}
	if (in_child > CHILD_SETTINGS_MAX)
		return "no more than 64 setsid, setpgid, resetids, scheduling and tcsetpgrp actions";
	if (request->exec_mode == COMPAT_EXEC_SEARCH && compat_name_is_searched(request->path)) {
		const char *path = request->search_path ? request->search_path : getenv("PATH");

		if (path && strlen(path) >= SEARCH_MAX)
			return "no PATH of MAX_ARG_STRLEN bytes or more";
	}
	return NULL;
}

/* The step of a failed commit. */
static int commit_step(const struct spawn_failure *failed, size_t n_actions)
{
	switch (failed->step) {
	case SPAWN_STEP_SETTING:
		/* one setting per action: its index is the action's */
		return failed->index < n_actions ? (int)failed->index : COMPAT_STEP_UNKNOWN;
	case SPAWN_STEP_EXEC:
		return COMPAT_STEP_EXEC;
	default:
		/* CREATE, or NONE: refused before any step (a tracer that follows forks) */
		return COMPAT_STEP_CREATE;
	}
}

static void builder_spawn(const struct compat_spawn *request, struct compat_result *result)
{
	const unsigned int open_flags = SPAWN_OPEN_CLOEXEC | SPAWN_OPEN_INHERIT_FDS;
	const bool search = request->exec_mode == COMPAT_EXEC_SEARCH;
	const struct spawn_exec exec = {
		.dirfd = search ? AT_FDCWD : request->dirfd,
		.flags = search ? 0 : (unsigned int)request->exec_flags,
		.path = SB_PTR(request->path),
		.search = search ? SB_PTR(request->search_path) : 0,
	};
	struct spawn_failure failed = { .step = SPAWN_STEP_NONE, .index = SPAWN_NO_INDEX };
	int pidfd = -1, error, bfd;
	const struct spawn_commit_args commit = {
		.argv = SB_PTR(request->argv),
		.envp = SB_PTR(request->envp),
		.flags = SPAWN_COMMIT_CONSUME | (request->want_pidfd ? SPAWN_COMMIT_PIDFD : 0),
		.pidfd = SB_PTR(&pidfd),
		.failed = SB_PTR(&failed),
	};
	long pid;

	bfd = compat_fd_beyond_limit(open_builder, &open_flags);
	if (bfd < 0) {
		result->error = errno;
		result->step = COMPAT_STEP_CREATE;
		return;
	}
	for (size_t i = 0; i < request->n_actions; i++) {
		error = apply(bfd, &request->actions[i]);
		if (error) {
			result->error = error;
			result->step = (int)i;
			goto out;
		}
	}
	error = config(bfd, SPAWN_EXEC, &exec, sizeof exec);
	if (error) {
		result->error = error;
		result->step = COMPAT_STEP_EXEC;
		goto out;
	}
	pid = sb_commit(bfd, &commit);
	if (pid > 0) {
		result->pid = (pid_t)pid;
		result->pidfd = pidfd;
		goto out;
	}
	result->error = errno;
	result->step = commit_step(&failed, request->n_actions);
out:
	close(bfd);
}

const struct compat_backend compat_backend_builder = {
	.name = "builder",
	.features = COMPAT_HAS(COMPAT_FEATURES) - 1,
	.probe = builder_probe,
	.refuse = builder_refuse,
	.spawn = builder_spawn,
};
