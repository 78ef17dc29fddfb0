/*
 * Backend "clone-actions": one clone3(CLONE_ACTIONS) call of
 * series-clone-actions. The request's actions become struct clone_action
 * entries, the program one execveat action, or with a PATH search one exec
 * action per candidate chained with CLONE_ACTION_F_EXEC_TRY_NEXT, so that
 * the kernel does the search. The kernel reports the failing index; it
 * leaves no child, zombie or SIGCHLD behind on failure.
 *
 * Compiled against the series' uapi headers (abi/clone-actions.mk
 * puts UAPI_INCLUDE_clone_actions first for this file); on a kernel without
 * the series the probe says no.
 */
#include "../abi/clone-actions-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend.h"

/* A kernel with the series says EINVAL to an empty list and writes the index. */
static bool clone_actions_probe(void)
{
	uint32_t failed = 0;

	return ca_spawn(NULL, 0, 0, NULL, &failed) < 0 && errno == EINVAL &&
	       failed == CLONE_ACTION_NO_INDEX;
}

/* The request's action i as the kernel's; 0 or an errno value. */
static int translate(const struct compat_spawn *request, size_t i, struct clone_action *out)
{
	const struct compat_action *in = &request->actions[i];

	memset(out, 0, sizeof(*out));
	switch (in->kind) {
	case COMPAT_CLOSE:
		/*
		 * libcompat: an fd that is not open is no error, one that cannot
		 * be is. An fd that is open is closed with CLOSE, which seccomp
		 * sees as close(); one that is not with CLOSE_RANGE(fd, fd),
		 * which has nothing to do and does not fail.
		 */
		if (in->fd >= 0 && in->fd < getdtablesize() &&
		    !compat_fd_open_before(request, i, in->fd)) {
			out->kind = CLONE_ACTION_CLOSE_RANGE;
			out->close_range.first = out->close_range.last = (uint32_t)in->fd;
		} else {
			out->kind = CLONE_ACTION_CLOSE;
			out->close.fd = in->fd < getdtablesize() ? in->fd : -1;
		}
		return 0;
	case COMPAT_DUP2:
		out->kind = CLONE_ACTION_DUP2;
		out->dup2.oldfd = in->dup2.fd;
		out->dup2.newfd = in->dup2.target;
		return 0;
	case COMPAT_OPEN:
		out->kind = CLONE_ACTION_OPEN;
		out->open.fd = in->open.target;
		out->open.dirfd = in->open.dirfd;
		out->open.path = CA_PTR(in->open.path);
		/*
		 * The action refuses flag bits it does not know, as openat2()
		 * does; posix_spawn's open(2) ignores them. Pass only the
		 * bits open(2) has a meaning for (O_LARGEFILE, 0 in a 64-bit
		 * glibc, the kernel adds by itself).
		 */
		out->open.flags = (uint32_t)(in->open.flags & COMPAT_OPEN_KNOWN_FLAGS);
		if (in->open.flags & (O_CREAT | __O_TMPFILE))
			out->open.mode = in->open.mode;
		return 0;
	case COMPAT_CHDIR:
		out->kind = CLONE_ACTION_CHDIR;
		out->chdir.path = CA_PTR(in->path);
		return 0;
	case COMPAT_FCHDIR:
		out->kind = CLONE_ACTION_FCHDIR;
		out->fchdir.fd = in->fd;
		return 0;
	case COMPAT_CLOSE_RANGE:
		out->kind = CLONE_ACTION_CLOSE_RANGE;
		out->close_range.first = in->close_range.first;
		out->close_range.last = in->close_range.last;
		out->close_range.flags = in->close_range.flags;
		return 0;
	case COMPAT_SETSID:
		out->kind = CLONE_ACTION_SETSID;
		return 0;
	case COMPAT_SETPGID:
		out->kind = CLONE_ACTION_SETPGID;
		out->setpgid.pgid = in->pgid;
		return 0;
	case COMPAT_SIGMASK:
		out->kind = CLONE_ACTION_SIGMASK;
		out->sigmask.how = SIG_SETMASK;
		out->sigmask.set = compat_signal_bits(&in->signals);
		return 0;
	case COMPAT_SIGDEFAULT:
		out->kind = CLONE_ACTION_SIGDEFAULT;
		out->sigdefault.set = compat_signal_bits(&in->signals);
		return 0;
	case COMPAT_UMASK:
		out->kind = CLONE_ACTION_UMASK;
		out->umask.mask = in->umask & 0777;
		return 0;
	case COMPAT_RESETIDS:
		out->kind = CLONE_ACTION_RESETIDS;
		return 0;
	case COMPAT_SCHED:
		out->kind = CLONE_ACTION_SCHED;
		out->sched.policy = in->sched.policy;
		out->sched.priority = in->sched.priority;
		return 0;
	case COMPAT_TCSETPGRP:
		out->kind = CLONE_ACTION_TCSETPGRP;
		out->tcsetpgrp.fd = in->fd;
		return 0;
	}
	return EINVAL;
}

static void exec_action(struct clone_action *out, int dirfd, const char *path, int flags,
			const struct compat_spawn *request, bool try_next)
{
	memset(out, 0, sizeof(*out));
	out->kind = CLONE_ACTION_EXECVEAT;
	out->flags = try_next ? CLONE_ACTION_F_EXEC_TRY_NEXT : 0;
	out->execveat.dirfd = dirfd;
	out->execveat.flags = (uint32_t)flags;
	out->execveat.path = CA_PTR(path);
	out->execveat.argv = CA_PTR(request->argv);
	out->execveat.envp = CA_PTR(request->envp);
}

static void clone_actions_spawn(const struct compat_spawn *request,
				struct compat_result *result)
{
	/* 16 KiB of stack: nothing to allocate for the list */
	struct clone_action list[CLONE_ACTIONS_MAX];
	size_t n = request->n_actions, max = CLONE_ACTIONS_MAX, total = n, paths_size = 0;
	uint32_t failed = CLONE_ACTION_NO_INDEX;
	char *paths = NULL;
	int pidfd = -1, error = 0;
	long pid;

	if (n >= max) {
		result->error = E2BIG;
		result->step = COMPAT_STEP_REQUEST;
		result->reason = "more actions than CLONE_ACTIONS_MAX";
		return;
	}
	for (size_t i = 0; i < n; i++) {
		error = translate(request, i, &list[i]);
		if (error) {
			result->error = error;
			result->step = (int)i;
			return;
		}
	}

	if (request->exec_mode == COMPAT_EXEC_SEARCH) {
		/* room for one more exec action: the one too long, below */
		size_t found = compat_path_candidates(request, max - n - 1, &paths, &paths_size,
						      &error, result);

		if (!found)
			goto out;
		for (const char *c = paths; found--; c += strlen(c) + 1)
			exec_action(&list[total++], AT_FDCWD, c, 0, request, true);
		if (error) {
			/*
			 * A candidate too long for PATH_MAX ends the search with
			 * ENAMETOOLONG once those before it failed: let the kernel
			 * say so for a path that is too long as well.
			 */
			static char too_long[PATH_MAX + 1];

			memset(too_long, 'x', PATH_MAX);
			exec_action(&list[total], AT_FDCWD, too_long, 0, request, false);
			total++;
		} else {
			list[total - 1].flags = 0;
		}
	} else {
		exec_action(&list[total++], request->dirfd, request->path, request->exec_flags,
			    request, false);
	}

	pid = ca_spawn(list, total, request->want_pidfd ? CLONE_PIDFD : 0, &pidfd, &failed);
	if (pid > 0) {
		result->pid = (pid_t)pid;
		result->pidfd = request->want_pidfd ? pidfd : -1;
		goto out;
	}
	result->error = errno;
	if (failed == CLONE_ACTION_NO_INDEX)
		result->step = COMPAT_STEP_CREATE;
	else if (failed < n)
		result->step = (int)failed;
	else
		result->step = COMPAT_STEP_EXEC;
	/* libcompat's search ends in ENOENT unless a candidate was denied */
	if (request->exec_mode == COMPAT_EXEC_SEARCH && result->step == COMPAT_STEP_EXEC &&
	    result->error == ENOTDIR)
		result->error = ENOENT;
out:
	free(paths);
}

const struct compat_backend compat_backend_clone_actions = {
	.name = "clone-actions",
	.features = COMPAT_HAS(COMPAT_FEATURES) - 1,
	.probe = clone_actions_probe,
	.spawn = clone_actions_spawn,
};
