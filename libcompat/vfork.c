/*
 * Backend "vfork", the reference: clone(CLONE_VM | CLONE_VFORK) and the
 * action list run in the child by our own code. The child reports errno
 * and the failing step through the memory it shares with the parent, which
 * sleeps until the child has exec'd or exited.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"

/* The child runs on this much of the parent's stack: it needs a PATH_MAX buffer. */
#define VFORK_STACK_SIZE (32 * 1024)

struct vfork_child {
	const struct compat_spawn *request;
	sigset_t caller_mask;	/* the program's mask unless an action sets one */
	int error;		/* the child writes error and step when it fails */
	int step;
};

/* Only an fd that can never be open is an error (glibc agrees). */
static int close_action(int fd)
{
	if (close(fd) == 0)
		return 0;
	return fd < 0 || fd >= getdtablesize() ? EBADF : 0;
}

static int dup2_action(int fd, int target)
{
	if (fd != target)
		return dup2(fd, target) < 0 ? errno : 0;
	int flags = fcntl(fd, F_GETFD);

	if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
		return errno;
	return 0;
}

/* Like POSIX's addopen: the target is closed first. O_CLOEXEC stays. */
static int open_action(const struct compat_action *action)
{
	int target = action->open.target;

	close(target);
	int fd = openat(action->open.dirfd, action->open.path, action->open.flags,
			action->open.mode);

	if (fd < 0)
		return errno;
	if (fd == target)
		return 0;
	int error = dup3(fd, target, action->open.flags & O_CLOEXEC) < 0 ? errno : 0;

	close(fd);
	return error;
}

static int sigdefault_action(const sigset_t *signals)
{
	const struct sigaction default_action = { .sa_handler = SIG_DFL };

	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sigismember(signals, sig) != 1)
			continue;
		if (sigaction(sig, &default_action, NULL) < 0)
			return errno;
	}
	return 0;
}

/*
 * POSIX_SPAWN_RESETIDS as glibc does it: the system calls themselves, as
 * glibc's set*id() wrappers would make every thread of the caller, whose
 * memory we share, change its ids too.
 */
static int resetids_action(void)
{
	if (syscall(SYS_setresuid, -1, getuid(), -1) < 0)
		return errno;
	if (syscall(SYS_setresgid, -1, getgid(), -1) < 0)
		return errno;
	return 0;
}

/* A policy of -1 keeps the policy and sets the priority (POSIX_SPAWN_SETSCHEDPARAM). */
static int sched_action(int policy, int priority)
{
	const struct sched_param param = { .sched_priority = priority };

	if (policy == -1)
		return sched_setparam(0, &param) < 0 ? errno : 0;
	return sched_setscheduler(0, policy, &param) < 0 ? errno : 0;
}

static int result_of(int returned)
{
	return returned < 0 ? errno : 0;
}

static int run_action(const struct compat_action *action, sigset_t *exec_mask)
{
	switch (action->kind) {
	case COMPAT_CLOSE:
		return close_action(action->fd);
	case COMPAT_DUP2:
		return dup2_action(action->dup2.fd, action->dup2.target);
	case COMPAT_OPEN:
		return open_action(action);
	case COMPAT_CHDIR:
		return result_of(chdir(action->path));
	case COMPAT_FCHDIR:
		return result_of(fchdir(action->fd));
	case COMPAT_CLOSE_RANGE:
		return result_of(close_range(action->close_range.first, action->close_range.last,
					     (int)action->close_range.flags));
	case COMPAT_SETSID:
		return result_of(setsid());
	case COMPAT_SETPGID:
		return result_of(setpgid(0, action->pgid));
	case COMPAT_SIGMASK:
		*exec_mask = action->signals;
		return 0;
	case COMPAT_SIGDEFAULT:
		return sigdefault_action(&action->signals);
	case COMPAT_UMASK:
		umask(action->umask);
		return 0;
	case COMPAT_RESETIDS:
		return resetids_action();
	case COMPAT_SCHED:
		return sched_action(action->sched.policy, action->sched.priority);
	case COMPAT_TCSETPGRP:
		/* every signal is blocked: SIGTTOU does not stop a background group */
		return result_of(tcsetpgrp(action->fd, getpgrp()));
	}
	return EINVAL;
}

/*
 * The parent's handlers must not run in the child, which shares its memory:
 * caught signals go back to SIG_DFL, as the exec would do anyway.
 */
static void reset_caught_signals(void)
{
	const struct sigaction default_action = { .sa_handler = SIG_DFL };
	struct sigaction current;

	for (int sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &current) == 0 && current.sa_handler != SIG_DFL &&
		    current.sa_handler != SIG_IGN)
			sigaction(sig, &default_action, NULL);
}

static _Noreturn void report(struct vfork_child *child, int error, int step)
{
	child->error = error;
	child->step = step;
	_exit(127);
}

/* Runs with every signal blocked until just before the exec. */
static int vfork_child_main(void *arg)
{
	struct vfork_child *child = arg;
	const struct compat_spawn *request = child->request;
	sigset_t exec_mask = child->caller_mask;

	for (size_t i = 0; i < request->n_actions; i++) {
		int error = run_action(&request->actions[i], &exec_mask);

		if (error)
			report(child, error, (int)i);
	}
	reset_caught_signals();
	sigprocmask(SIG_SETMASK, &exec_mask, NULL);
	report(child, compat_exec(request), COMPAT_STEP_EXEC);
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		continue;
}

static void vfork_backend_spawn(const struct compat_spawn *request, struct compat_result *result)
{
	_Alignas(16) char stack[VFORK_STACK_SIZE];
	struct vfork_child child = { .request = request, .step = COMPAT_STEP_NONE };
	int flags = CLONE_VM | CLONE_VFORK | SIGCHLD | (request->want_pidfd ? CLONE_PIDFD : 0);
	int pidfd = -1;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &child.caller_mask);
	pid_t pid = clone(vfork_child_main, stack + sizeof stack, flags, &child, &pidfd);
	int clone_error = errno;

	pthread_sigmask(SIG_SETMASK, &child.caller_mask, NULL);
	if (pid < 0) {
		result->error = clone_error;
		result->step = COMPAT_STEP_CREATE;
		return;
	}
	if (child.error) {
		if (pidfd >= 0)
			close(pidfd);
		reap(pid);
		result->error = child.error;
		result->step = child.step;
		return;
	}
	result->pid = pid;
	result->pidfd = pidfd;
}

const struct compat_backend compat_backend_vfork = {
	.name = "vfork",
	.features = COMPAT_HAS(COMPAT_FEATURES) - 1,
	.spawn = vfork_backend_spawn,
};
