/* The backend registry, request checking and the spawn entry point. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backend.h"

/* The registry: one line a backend. */
static const struct compat_backend *const backends[] = {
	&compat_backend_posix,
	&compat_backend_vfork,
	&compat_backend_clone_actions,
	&compat_backend_iouring,
	&compat_backend_builder,
};

/* Why a request is refused when the backend lacks a feature. */
static const char *const missing_feature[COMPAT_FEATURES] = {
	[COMPAT_FEAT_CLOSE] = "no close",
	[COMPAT_FEAT_DUP2] = "no dup2",
	[COMPAT_FEAT_OPEN] = "no open",
	[COMPAT_FEAT_OPEN_AT] = "no open relative to a dirfd",
	[COMPAT_FEAT_CHDIR] = "no chdir",
	[COMPAT_FEAT_FCHDIR] = "no fchdir",
	[COMPAT_FEAT_CLOSE_FROM] = "no close_range",
	[COMPAT_FEAT_CLOSE_RANGE] = "no close_range but to the last fd without flags",
	[COMPAT_FEAT_SETSID] = "no setsid",
	[COMPAT_FEAT_SETPGID] = "no setpgid",
	[COMPAT_FEAT_ANY_ORDER] =
		"scheduling, setsid, setpgid, resetids only once each, in this order, before file actions",
	[COMPAT_FEAT_SIGMASK] = "no signal mask",
	[COMPAT_FEAT_SIGDEFAULT] = "no signal reset",
	[COMPAT_FEAT_UMASK] = "no umask",
	[COMPAT_FEAT_RESETIDS] = "no resetids",
	[COMPAT_FEAT_SETSCHEDULER] = "no scheduling policy",
	[COMPAT_FEAT_SETSCHEDPARAM] = "no scheduling priority",
	[COMPAT_FEAT_TCSETPGRP] = "no tcsetpgrp",
	[COMPAT_FEAT_EXEC_AT] = "no execveat",
	[COMPAT_FEAT_SEARCH] = "no PATH search",
	[COMPAT_FEAT_SEARCH_STRING] = "no PATH string but the caller's PATH",
	[COMPAT_FEAT_SEARCH_STOPS] = "a PATH search cannot stop at ENOEXEC, ELOOP or other errors",
	[COMPAT_FEAT_PIDFD] = "no pidfd",
	[COMPAT_FEAT_FAILED_STEP] = "no failing step",
};

const struct compat_backend *compat_backend_at(size_t index)
{
	return index < sizeof backends / sizeof backends[0] ? backends[index] : NULL;
}

const struct compat_backend *compat_backend_find(const char *name)
{
	const struct compat_backend *backend;

	for (size_t i = 0; (backend = compat_backend_at(i)) != NULL; i++)
		if (strcmp(backend->name, name) == 0)
			return backend;
	return NULL;
}

const char *compat_backend_name(const struct compat_backend *backend)
{
	return backend->name;
}

bool compat_backend_has(const struct compat_backend *backend, enum compat_feature feature)
{
	return backend->features & COMPAT_HAS(feature);
}

bool compat_backend_available(const struct compat_backend *backend)
{
	return backend->probe == NULL || backend->probe();
}

bool compat_fd_open_before(const struct compat_spawn *request, size_t i, int fd)
{
	while (i--) {
		const struct compat_action *a = &request->actions[i];

		switch (a->kind) {
		case COMPAT_CLOSE:
			if (a->fd == fd)
				return false;
			break;
		case COMPAT_CLOSE_RANGE:
			if ((unsigned int)fd >= a->close_range.first &&
			    (unsigned int)fd <= a->close_range.last &&
			    !(a->close_range.flags & CLOSE_RANGE_CLOEXEC))
				return false;
			break;
		case COMPAT_DUP2:
			if (a->dup2.target == fd)
				return true;
			break;
		case COMPAT_OPEN:
			if (a->open.target == fd)
				return true;
			break;
		default:
			break;
		}
	}
	return fd >= 0 && fcntl(fd, F_GETFD) >= 0;
}

/* Held while compat_fd_beyond_limit() raises RLIMIT_NOFILE. */
static pthread_mutex_t raising = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t raising_once = PTHREAD_ONCE_INIT;

static void raising_after_fork(void)
{
	pthread_mutex_init(&raising, NULL);	/* a thread of the parent held it */
}

static void raising_init(void)
{
	pthread_atfork(NULL, NULL, raising_after_fork);
}

int compat_fd_beyond_limit(int (*make)(const void *arg), const void *arg)
{
	struct rlimit limit, raised;
	sigset_t all, mask;
	int fd = make(arg), error = errno;

	if (fd >= 0 || error != EMFILE)
		return fd;
	pthread_once(&raising_once, raising_init);
	/* a handler that spawns must not find the lock held by its own thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &mask);
	pthread_mutex_lock(&raising);
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
		raised = limit;
		for (rlim_t more = 1; fd < 0 && error == EMFILE && more <= 8 &&
		     more <= limit.rlim_max - limit.rlim_cur; more++) {
			raised.rlim_cur = limit.rlim_cur + more;
			if (setrlimit(RLIMIT_NOFILE, &raised) != 0)
				break;
			fd = make(arg);
			error = errno;
		}
		setrlimit(RLIMIT_NOFILE, &limit);
	}
	pthread_mutex_unlock(&raising);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	errno = error;
	return fd;
}

uint64_t compat_signal_bits(const sigset_t *set)
{
	uint64_t bits = 0;

	for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
		if (sigismember(set, sig) == 1)
			bits |= UINT64_C(1) << (sig - 1);
	return bits;
}

static const char *caller_path(void)
{
	const char *path = getenv("PATH");

	return path ? path : COMPAT_DEFAULT_PATH;
}

/* Whether a path is taken relative to dirfd rather than the cwd or root. */
static bool relative_to(int dirfd, const char *path)
{
	return dirfd != AT_FDCWD && path[0] != '/';
}

static const char *malformed_action(const struct compat_action *action)
{
	switch (action->kind) {
	case COMPAT_OPEN:
		return action->open.path ? NULL : "open without a path";
	case COMPAT_CHDIR:
		return action->path ? NULL : "chdir without a path";
	case COMPAT_CLOSE_RANGE:
		return action->close_range.flags & ~CLOSE_RANGE_CLOEXEC ?
		       "unknown close_range flags" : NULL;
	case COMPAT_CLOSE:
	case COMPAT_DUP2:
	case COMPAT_FCHDIR:
	case COMPAT_SETSID:
	case COMPAT_SETPGID:
	case COMPAT_SIGMASK:
	case COMPAT_SIGDEFAULT:
	case COMPAT_UMASK:
	case COMPAT_RESETIDS:
	case COMPAT_SCHED:
	case COMPAT_TCSETPGRP:
		return NULL;
	}
	return "unknown action kind";
}

static const char *malformed(const struct compat_spawn *request)
{
	if (request->path == NULL)
		return "no program";
	if (request->argv == NULL)
		return "no argv";
	if (request->exec_mode > COMPAT_EXEC_SEARCH)
		return "unknown exec mode";
	if (request->exec_flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return "unknown exec flags";
	if (request->exec_mode != COMPAT_EXEC_AT && request->exec_flags != 0)
		return "exec flags without COMPAT_EXEC_AT";
	if (request->exec_mode != COMPAT_EXEC_SEARCH && request->search_path != NULL)
		return "search_path without COMPAT_EXEC_SEARCH";
	if (request->n_actions > 0 && request->actions == NULL)
		return "no action list";
	for (size_t i = 0; i < request->n_actions; i++) {
		const char *why = malformed_action(&request->actions[i]);

		if (why)
			return why;
	}
	return NULL;
}

static enum compat_feature action_feature(const struct compat_action *action)
{
	switch (action->kind) {
	case COMPAT_CLOSE:
		return COMPAT_FEAT_CLOSE;
	case COMPAT_DUP2:
		return COMPAT_FEAT_DUP2;
	case COMPAT_OPEN:
		return relative_to(action->open.dirfd, action->open.path) ?
		       COMPAT_FEAT_OPEN_AT : COMPAT_FEAT_OPEN;
	case COMPAT_CHDIR:
		return COMPAT_FEAT_CHDIR;
	case COMPAT_FCHDIR:
		return COMPAT_FEAT_FCHDIR;
	case COMPAT_CLOSE_RANGE:
		return action->close_range.last == ~0U && action->close_range.flags == 0 ?
		       COMPAT_FEAT_CLOSE_FROM : COMPAT_FEAT_CLOSE_RANGE;
	case COMPAT_SETSID:
		return COMPAT_FEAT_SETSID;
	case COMPAT_SETPGID:
		return COMPAT_FEAT_SETPGID;
	case COMPAT_SIGMASK:
		return COMPAT_FEAT_SIGMASK;
	case COMPAT_SIGDEFAULT:
		return COMPAT_FEAT_SIGDEFAULT;
	case COMPAT_UMASK:
		return COMPAT_FEAT_UMASK;
	case COMPAT_RESETIDS:
		return COMPAT_FEAT_RESETIDS;
	case COMPAT_SCHED:
		return action->sched.policy == -1 ? COMPAT_FEAT_SETSCHEDPARAM : COMPAT_FEAT_SETSCHEDULER;
	case COMPAT_TCSETPGRP:
		return COMPAT_FEAT_TCSETPGRP;
	}
	__builtin_unreachable();	/* malformed() refused unknown kinds */
}

/*
 * Where glibc runs an action, relative to the others: its attributes in a
 * fixed order (scheduling, setsid, setpgid, resetids), each at most once,
 * then the file actions in list order. The signal actions' place does not
 * matter (0).
 */
static int fixed_rank(enum compat_action_kind kind)
{
	switch (kind) {
	case COMPAT_SIGMASK:
	case COMPAT_SIGDEFAULT:
		return 0;
	case COMPAT_SCHED:
		return 1;
	case COMPAT_SETSID:
		return 2;
	case COMPAT_SETPGID:
		return 3;
	case COMPAT_RESETIDS:
		return 4;
	default:
		return 5;
	}
}

/* Whether the list strays from the one order a fixed-order backend (glibc) runs. */
static bool needs_any_order(const struct compat_spawn *request)
{
	int stage = 0;

	for (size_t i = 0; i < request->n_actions; i++) {
		int rank = fixed_rank(request->actions[i].kind);

		if (rank == 0)
			continue;
		if (rank < 5 && rank <= stage)
			return true;
		stage = rank;
	}
	return false;
}

static unsigned int needed_features(const struct compat_spawn *request)
{
	unsigned int needed = 0;

	for (size_t i = 0; i < request->n_actions; i++)
		needed |= COMPAT_HAS(action_feature(&request->actions[i]));
	if (needs_any_order(request))
		needed |= COMPAT_HAS(COMPAT_FEAT_ANY_ORDER);
	if (request->exec_mode == COMPAT_EXEC_AT &&
	    (request->exec_flags != 0 || relative_to(request->dirfd, request->path)))
		needed |= COMPAT_HAS(COMPAT_FEAT_EXEC_AT);
	if (request->exec_mode == COMPAT_EXEC_SEARCH && compat_name_is_searched(request->path)) {
		needed |= COMPAT_HAS(COMPAT_FEAT_SEARCH);
		if (request->search_path && strcmp(request->search_path, caller_path()) != 0)
			needed |= COMPAT_HAS(COMPAT_FEAT_SEARCH_STRING);
	}
	if (request->want_pidfd)
		needed |= COMPAT_HAS(COMPAT_FEAT_PIDFD);
	if (request->want_failed_step)
		needed |= COMPAT_HAS(COMPAT_FEAT_FAILED_STEP);
	if (request->want_search_stops)
		needed |= COMPAT_HAS(COMPAT_FEAT_SEARCH_STOPS);
	return needed;
}

int compat_check(const struct compat_backend *backend, const struct compat_spawn *request,
		 const char **reason)
{
	*reason = malformed(request);
	if (*reason)
		return EINVAL;
	unsigned int missing = needed_features(request) & ~backend->features;

	if (missing) {
		*reason = missing_feature[__builtin_ctz(missing)];
		return ENOTSUP;
	}
	*reason = backend->refuse ? backend->refuse(request) : NULL;
	return *reason ? ENOTSUP : 0;
}

/* The request as backends get it (see struct compat_backend). */
static struct compat_spawn resolved(const struct compat_spawn *request)
{
	struct compat_spawn copy = *request;

	if (copy.envp == NULL)
		copy.envp = environ;
	if (copy.exec_mode == COMPAT_EXEC_SEARCH && compat_name_is_searched(copy.path)) {
		if (copy.search_path == NULL)
			copy.search_path = caller_path();
	} else if (copy.exec_mode != COMPAT_EXEC_AT) {
		copy.exec_mode = COMPAT_EXEC_AT;
		copy.dirfd = AT_FDCWD;
		copy.search_path = NULL;
	}
	return copy;
}

int compat_spawn(const struct compat_backend *backend, const struct compat_spawn *request,
		 struct compat_result *result)
{
	*result = (struct compat_result){ .pidfd = -1, .step = COMPAT_STEP_NONE };
	result->error = compat_check(backend, request, &result->reason);
	if (result->error) {
		result->step = COMPAT_STEP_REQUEST;
		return result->error;
	}
	struct compat_spawn ready = resolved(request);

	backend->spawn(&ready, result);
	return result->error;
}
