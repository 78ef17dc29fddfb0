/*
 * Backend "posix": glibc's posix_spawn and posix_spawnp with the _np
 * extensions of glibc 2.36 (addtcsetpgrp_np came in 2.35). What they
 * cannot express is refused; glibc does not say which step failed, nor
 * return a pidfd (2.39 would).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

/* The request translated into glibc's two objects. */
struct posix_plan {
	posix_spawn_file_actions_t files;
	posix_spawnattr_t attr;
	short flags;
	sigset_t defaults;
};

/* With SETSCHEDULER glibc takes the priority from the parameters too. */
static int add_sched(struct posix_plan *plan, int policy, int priority)
{
	const struct sched_param param = { .sched_priority = priority };

	if (policy == -1) {
		plan->flags |= POSIX_SPAWN_SETSCHEDPARAM;
	} else {
		plan->flags |= POSIX_SPAWN_SETSCHEDULER;
		int error = posix_spawnattr_setschedpolicy(&plan->attr, policy);

		if (error)
			return error;
	}
	return posix_spawnattr_setschedparam(&plan->attr, &param);
}

static int add_action(struct posix_plan *plan, const struct compat_action *action)
{
	switch (action->kind) {
	case COMPAT_CLOSE:
		return posix_spawn_file_actions_addclose(&plan->files, action->fd);
	case COMPAT_DUP2:
		return posix_spawn_file_actions_adddup2(&plan->files, action->dup2.fd,
							action->dup2.target);
	case COMPAT_OPEN:
		return posix_spawn_file_actions_addopen(&plan->files, action->open.target,
							action->open.path, action->open.flags,
							action->open.mode);
	case COMPAT_CHDIR:
		return posix_spawn_file_actions_addchdir_np(&plan->files, action->path);
	case COMPAT_FCHDIR:
		return posix_spawn_file_actions_addfchdir_np(&plan->files, action->fd);
	case COMPAT_CLOSE_RANGE:
		return posix_spawn_file_actions_addclosefrom_np(&plan->files,
								(int)action->close_range.first);
	case COMPAT_SETSID:
		plan->flags |= POSIX_SPAWN_SETSID;
		return 0;
	case COMPAT_SETPGID:
		plan->flags |= POSIX_SPAWN_SETPGROUP;
		return posix_spawnattr_setpgroup(&plan->attr, action->pgid);
	case COMPAT_SIGMASK:
		plan->flags |= POSIX_SPAWN_SETSIGMASK;
		return posix_spawnattr_setsigmask(&plan->attr, &action->signals);
	case COMPAT_SIGDEFAULT:
		plan->flags |= POSIX_SPAWN_SETSIGDEF;
		return sigorset(&plan->defaults, &plan->defaults, &action->signals) ? errno : 0;
	case COMPAT_RESETIDS:
		plan->flags |= POSIX_SPAWN_RESETIDS;
		return 0;
	case COMPAT_SCHED:
		return add_sched(plan, action->sched.policy, action->sched.priority);
	case COMPAT_TCSETPGRP:
		return posix_spawn_file_actions_addtcsetpgrp_np(&plan->files, action->fd);
	case COMPAT_UMASK:
		break;
	}
	return ENOTSUP;		/* not among the features: compat_check() refused it */
}

static int plan_and_spawn(struct posix_plan *plan, const struct compat_spawn *request,
			  pid_t *pid)
{
	for (size_t i = 0; i < request->n_actions; i++) {
		int error = add_action(plan, &request->actions[i]);

		if (error)
			return error;
	}
	int error = posix_spawnattr_setsigdefault(&plan->attr, &plan->defaults);

	if (error == 0)
		error = posix_spawnattr_setflags(&plan->attr, plan->flags);
	if (error)
		return error;
	if (request->exec_mode == COMPAT_EXEC_SEARCH)
		return posix_spawnp(pid, request->path, &plan->files, &plan->attr,
				    request->argv, request->envp);
	return posix_spawn(pid, request->path, &plan->files, &plan->attr, request->argv,
			   request->envp);
}

static void posix_backend_spawn(const struct compat_spawn *request, struct compat_result *result)
{
	struct posix_plan plan = { .flags = 0 };
	pid_t pid = 0;

	sigemptyset(&plan.defaults);
	int error = posix_spawn_file_actions_init(&plan.files);

	if (error == 0) {
		error = posix_spawnattr_init(&plan.attr);
		if (error == 0) {
			error = plan_and_spawn(&plan, request, &pid);
			posix_spawnattr_destroy(&plan.attr);
		}
		posix_spawn_file_actions_destroy(&plan.files);
	}
	if (error) {
		/* glibc ends a fruitless search with the last entry's error */
		if (error == ENOTDIR && request->exec_mode == COMPAT_EXEC_SEARCH)
			error = ENOENT;
		result->error = error;
		result->step = COMPAT_STEP_UNKNOWN;
		return;
	}
	result->pid = pid;
}

/* What the features allow but glibc would still do differently. */
static const char *posix_refuse(const struct compat_spawn *request)
{
	bool searched = request->exec_mode == COMPAT_EXEC_SEARCH &&
			compat_name_is_searched(request->path);

	/* posix searches only the caller's PATH (its features) */
	if (searched && compat_path_has_long_entry(getenv("PATH")))
		return "no PATH entry of PATH_MAX bytes or more";
	for (size_t i = 0; i < request->n_actions; i++) {
		const struct compat_action *action = &request->actions[i];

		/* their ENOTDIR would be mistaken for the search's (see above) */
		if (searched && (action->kind == COMPAT_CHDIR || action->kind == COMPAT_FCHDIR ||
				 action->kind == COMPAT_OPEN))
			return "no PATH search after chdir, fchdir or open";

		/* glibc dup2()s the opened fd onto the target, dropping O_CLOEXEC */
		if (action->kind == COMPAT_OPEN && (action->open.flags & O_CLOEXEC))
			return "no O_CLOEXEC on open";
		/* addclosefrom_np() takes EBADF where close_range() does nothing */
		if (action->kind == COMPAT_CLOSE_RANGE &&
		    action->close_range.first >= (unsigned int)getdtablesize())
			return "no close_range from beyond the fd limit";
		/* posix_spawnattr_setschedpolicy() takes no other policy */
		if (action->kind == COMPAT_SCHED && action->sched.policy != -1 &&
		    action->sched.policy != SCHED_OTHER && action->sched.policy != SCHED_FIFO &&
		    action->sched.policy != SCHED_RR)
			return "no scheduling policy but SCHED_OTHER, SCHED_FIFO and SCHED_RR";
	}
	return NULL;
}

const struct compat_backend compat_backend_posix = {
	.name = "posix",
	.features = COMPAT_HAS(COMPAT_FEAT_CLOSE) | COMPAT_HAS(COMPAT_FEAT_DUP2) |
		    COMPAT_HAS(COMPAT_FEAT_OPEN) | COMPAT_HAS(COMPAT_FEAT_CHDIR) |
		    COMPAT_HAS(COMPAT_FEAT_FCHDIR) | COMPAT_HAS(COMPAT_FEAT_CLOSE_FROM) |
		    COMPAT_HAS(COMPAT_FEAT_SETSID) | COMPAT_HAS(COMPAT_FEAT_SETPGID) |
		    COMPAT_HAS(COMPAT_FEAT_SIGMASK) | COMPAT_HAS(COMPAT_FEAT_SIGDEFAULT) |
		    COMPAT_HAS(COMPAT_FEAT_RESETIDS) | COMPAT_HAS(COMPAT_FEAT_SETSCHEDULER) |
		    COMPAT_HAS(COMPAT_FEAT_SETSCHEDPARAM) | COMPAT_HAS(COMPAT_FEAT_TCSETPGRP) |
		    COMPAT_HAS(COMPAT_FEAT_SEARCH) | COMPAT_HAS(COMPAT_FEAT_SEARCH_STOPS),
	.refuse = posix_refuse,
	.spawn = posix_backend_spawn,
};
