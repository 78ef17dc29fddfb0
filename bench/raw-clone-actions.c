/*
 * spawnbench's clone-actions-raw method: one clone3(CLONE_ACTIONS) of
 * series-clone-actions per spawn, its clone_args and action list (RESETIDS,
 * the dup2s, the signal mask, then one exec action per candidate, chained
 * with CLONE_ACTION_F_EXEC_TRY_NEXT for a PATH search) made once.
 */
#include "../abi/clone-actions-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "backend.h"
#include "raw.h"

struct raw_clone_actions {
	struct clone_args args;
	struct clone_action actions[];
};

static void *clone_actions_prepare(const struct raw_job *job)
{
	size_t n = job->resetids + (size_t)job->n_dup2 + (job->sigmask != NULL) + job->n_paths;
	struct raw_clone_actions *r = calloc(1, sizeof(*r) + n * sizeof(r->actions[0]));
	struct clone_action *a;

	if (!r)
		return NULL;
	a = r->actions;
	if (job->resetids) {
		a->kind = CLONE_ACTION_RESETIDS;
		a++;
	}
	for (int i = 0; i < job->n_dup2; i++, a++) {
		a->kind = CLONE_ACTION_DUP2;
		a->dup2.oldfd = job->devnull;
		a->dup2.newfd = job->dup2_first + i;
	}
	if (job->sigmask) {
		a->kind = CLONE_ACTION_SIGMASK;
		a->sigmask.how = SIG_SETMASK;
		a->sigmask.set = compat_signal_bits(job->sigmask);
		a++;
	}
	for (size_t i = 0; i < job->n_paths; i++, a++) {
		a->kind = CLONE_ACTION_EXECVEAT;
		a->flags = i + 1 < job->n_paths ? CLONE_ACTION_F_EXEC_TRY_NEXT : 0;
		a->execveat.dirfd = AT_FDCWD;
		a->execveat.path = CA_PTR(job->paths[i]);
		a->execveat.argv = CA_PTR(job->argv);
		a->execveat.envp = CA_PTR(job->envp);
	}
	r->args = (struct clone_args){
		.flags = CLONE_ACTIONS,
		.exit_signal = SIGCHLD,
		.actions = CA_PTR(r->actions),
		.nr_actions = n,
		.action_size = sizeof(r->actions[0]),
	};
	return r;
}

static pid_t clone_actions_spawn(void *prepared)
{
	struct raw_clone_actions *r = prepared;
	long pid = syscall(__NR_clone3, &r->args, sizeof(r->args));

	return pid < 0 ? -errno : (pid_t)pid;
}

const struct raw_method raw_clone_actions = {
	.prepare = clone_actions_prepare,
	.spawn = clone_actions_spawn,
	.release = free,
};
