/*
 * libcompat: one spawn API, several backends.
 *
 * A caller describes a spawn once (struct compat_spawn: the program, argv,
 * envp, an ordered list of child-side actions, whether a pidfd is wanted)
 * and hands it to a backend. Every backend gives the same result for the
 * same request, or refuses the request with ENOTSUP before anything is
 * spawned when it cannot express it. DESIGN.md ("libcompat: the spawn API",
 * "PATH search semantics") is the full contract; this header is its
 * reference.
 *
 * Built as gnu11 with _GNU_SOURCE.
 */
#ifndef LIBCOMPAT_H
#define LIBCOMPAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Child-side actions, run in list order before the exec. */
enum compat_action_kind {
	/* 0 is no kind: a zeroed action is refused with EINVAL. */
	COMPAT_CLOSE = 1,	/* close(fd); an fd that is not open is no error */
	COMPAT_DUP2,		/* dup2(fd, target); dup2(fd, fd) clears FD_CLOEXEC */
	COMPAT_OPEN,		/* close target, openat(dirfd, path, flags, mode) onto target */
	COMPAT_CHDIR,		/* chdir(path) */
	COMPAT_FCHDIR,		/* fchdir(fd) */
	COMPAT_CLOSE_RANGE,	/* close_range(first, last, flags); flags 0 or CLOSE_RANGE_CLOEXEC */
	COMPAT_SETSID,		/* setsid() */
	COMPAT_SETPGID,		/* setpgid(0, pgid) */
	COMPAT_SIGMASK,		/* the signal mask the program starts with (the last one wins) */
	COMPAT_SIGDEFAULT,	/* reset these signals to SIG_DFL (ignored ones included) */
	COMPAT_UMASK,		/* umask(mask) */
	COMPAT_RESETIDS,	/* effective uid and gid to the real ones (POSIX_SPAWN_RESETIDS) */
	COMPAT_SCHED,		/* sched_setscheduler(0, policy, {priority}); policy -1 keeps the
				 * policy: sched_setparam(0, {priority}) */
	COMPAT_TCSETPGRP,	/* tcsetpgrp(fd, getpgrp()): the child's group in the foreground */
};

struct compat_action {
	enum compat_action_kind kind;
	union {
		int fd;				/* CLOSE, FCHDIR, TCSETPGRP */
		struct {
			int fd, target;
		} dup2;				/* DUP2 */
		struct {
			int target, dirfd;
			const char *path;
			int flags;
			mode_t mode;
		} open;				/* OPEN */
		const char *path;		/* CHDIR */
		struct {
			unsigned int first, last, flags;
		} close_range;			/* CLOSE_RANGE */
		pid_t pgid;			/* SETPGID: 0 makes a new group */
		sigset_t signals;		/* SIGMASK, SIGDEFAULT */
		mode_t umask;			/* UMASK */
		struct {
			int policy, priority;
		} sched;			/* SCHED */
	};
};

/* Constructors, for readable action lists. */
static inline struct compat_action compat_close(int fd)
{
	return (struct compat_action){ .kind = COMPAT_CLOSE, .fd = fd };
}

static inline struct compat_action compat_dup2(int fd, int target)
{
	return (struct compat_action){ .kind = COMPAT_DUP2, .dup2 = { fd, target } };
}

static inline struct compat_action compat_open(int target, int dirfd, const char *path,
					       int flags, mode_t mode)
{
	return (struct compat_action){
		.kind = COMPAT_OPEN, .open = { target, dirfd, path, flags, mode }
	};
}

static inline struct compat_action compat_chdir(const char *path)
{
	return (struct compat_action){ .kind = COMPAT_CHDIR, .path = path };
}

static inline struct compat_action compat_fchdir(int fd)
{
	return (struct compat_action){ .kind = COMPAT_FCHDIR, .fd = fd };
}

static inline struct compat_action compat_close_range(unsigned int first, unsigned int last,
						      unsigned int flags)
{
	return (struct compat_action){
		.kind = COMPAT_CLOSE_RANGE, .close_range = { first, last, flags }
	};
}

static inline struct compat_action compat_setsid(void)
{
	return (struct compat_action){ .kind = COMPAT_SETSID };
}

static inline struct compat_action compat_setpgid(pid_t pgid)
{
	return (struct compat_action){ .kind = COMPAT_SETPGID, .pgid = pgid };
}

static inline struct compat_action compat_sigmask(const sigset_t *mask)
{
	return (struct compat_action){ .kind = COMPAT_SIGMASK, .signals = *mask };
}

static inline struct compat_action compat_sigdefault(const sigset_t *signals)
{
	return (struct compat_action){ .kind = COMPAT_SIGDEFAULT, .signals = *signals };
}

static inline struct compat_action compat_umask(mode_t mask)
{
	return (struct compat_action){ .kind = COMPAT_UMASK, .umask = mask };
}

/* POSIX_SPAWN_RESETIDS: seteuid(getuid()), then setegid(getgid()). */
static inline struct compat_action compat_resetids(void)
{
	return (struct compat_action){ .kind = COMPAT_RESETIDS };
}

/* POSIX_SPAWN_SETSCHEDULER (with its parameters): policy and priority. */
static inline struct compat_action compat_setscheduler(int policy, int priority)
{
	return (struct compat_action){ .kind = COMPAT_SCHED, .sched = { policy, priority } };
}

/* POSIX_SPAWN_SETSCHEDPARAM alone: the priority, in the policy the child has. */
static inline struct compat_action compat_setschedparam(int priority)
{
	return (struct compat_action){ .kind = COMPAT_SCHED, .sched = { -1, priority } };
}

/* glibc's posix_spawn_file_actions_addtcsetpgrp_np(fd). */
static inline struct compat_action compat_tcsetpgrp(int fd)
{
	return (struct compat_action){ .kind = COMPAT_TCSETPGRP, .fd = fd };
}

/* How the program is found. */
enum compat_exec_mode {
	COMPAT_EXEC_PATH,	/* execve(path): absolute, or relative to the child's cwd */
	COMPAT_EXEC_AT,		/* execveat(dirfd, path, flags) */
	COMPAT_EXEC_SEARCH,	/* path is a name searched in search_path (DESIGN.md) */
};

/* The PATH searched when neither search_path nor the caller's PATH is set. */
#define COMPAT_DEFAULT_PATH "/bin:/usr/bin"

struct compat_spawn {
	enum compat_exec_mode exec_mode;
	const char *path;		/* path, or with COMPAT_EXEC_SEARCH the name */
	int dirfd;			/* COMPAT_EXEC_AT only */
	int exec_flags;			/* COMPAT_EXEC_AT only: AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW */
	const char *search_path;	/* COMPAT_EXEC_SEARCH only; NULL: the caller's PATH */
	char *const *argv;		/* NULL-terminated, required */
	char *const *envp;		/* NULL-terminated; NULL: the caller's environ */
	const struct compat_action *actions;
	size_t n_actions;
	bool want_pidfd;		/* return a pidfd for the child */
	bool want_failed_step;		/* refuse unless failures name the failing step */
	bool want_search_stops;		/* refuse unless a search stops at other errors */
};

/* Values of compat_result.step besides an action's index (>= 0). */
enum compat_step {
	COMPAT_STEP_NONE = -1,		/* no failure */
	COMPAT_STEP_REQUEST = -2,	/* refused before anything was spawned; see reason */
	COMPAT_STEP_CREATE = -3,	/* creating the child failed */
	COMPAT_STEP_EXEC = -4,		/* the exec, PATH search included */
	COMPAT_STEP_UNKNOWN = -5,	/* the backend cannot tell which step failed */
};

struct compat_result {
	pid_t pid;		/* the child, > 0 on success; 0 on failure */
	int pidfd;		/* with want_pidfd, on success; else -1 */
	int error;		/* 0 or an errno value */
	int step;		/* an action's index or an enum compat_step */
	const char *reason;	/* with COMPAT_STEP_REQUEST: why, e.g. "no umask" */
};

/*
 * What a backend can express. A request needs one feature per action
 * (chosen by the action's arguments), plus those its program, pidfd and
 * failed-step wishes imply; it is refused with ENOTSUP and the feature's
 * reason when the backend lacks one.
 */
enum compat_feature {
	COMPAT_FEAT_CLOSE,		/* "no close" */
	COMPAT_FEAT_DUP2,		/* "no dup2" */
	COMPAT_FEAT_OPEN,		/* open at the cwd or by absolute path */
	COMPAT_FEAT_OPEN_AT,		/* open relative to another directory fd */
	COMPAT_FEAT_CHDIR,
	COMPAT_FEAT_FCHDIR,
	COMPAT_FEAT_CLOSE_FROM,		/* close_range(first, ~0U, 0) */
	COMPAT_FEAT_CLOSE_RANGE,	/* any other close_range */
	COMPAT_FEAT_SETSID,
	COMPAT_FEAT_SETPGID,
	COMPAT_FEAT_ANY_ORDER,		/* setsid, setpgid, scheduling or resetids repeated,
					 * after file actions or in another order than
					 * glibc's (DESIGN.md) */
	COMPAT_FEAT_SIGMASK,
	COMPAT_FEAT_SIGDEFAULT,
	COMPAT_FEAT_UMASK,
	COMPAT_FEAT_RESETIDS,
	COMPAT_FEAT_SETSCHEDULER,	/* a scheduling policy (and its priority) */
	COMPAT_FEAT_SETSCHEDPARAM,	/* a priority alone, the policy kept */
	COMPAT_FEAT_TCSETPGRP,
	COMPAT_FEAT_EXEC_AT,		/* the program given by a dirfd or exec flags */
	COMPAT_FEAT_SEARCH,		/* search a name in the caller's PATH */
	COMPAT_FEAT_SEARCH_STRING,	/* search a PATH string other than the caller's */
	COMPAT_FEAT_SEARCH_STOPS,	/* a search ends at an error other than ENOENT,
					 * ENOTDIR or EACCES (DESIGN.md) */
	COMPAT_FEAT_PIDFD,
	COMPAT_FEAT_FAILED_STEP,	/* failures name the failing action or the exec */
	COMPAT_FEATURES			/* how many there are */
};

#define COMPAT_HAS(feature) (1u << (feature))

/* A backend; see libcompat/backend.h. */
struct compat_backend;

/* The registered backends by position, NULL past the last one. */
const struct compat_backend *compat_backend_at(size_t index);

/* The backend called name, or NULL. */
const struct compat_backend *compat_backend_find(const char *name);

const char *compat_backend_name(const struct compat_backend *backend);

bool compat_backend_has(const struct compat_backend *backend, enum compat_feature feature);

/* Whether the running kernel supports the backend (probed, not guessed). */
bool compat_backend_available(const struct compat_backend *backend);

/*
 * The capability query for one request: 0 if the backend can run it,
 * EINVAL if it is malformed, ENOTSUP if the backend cannot express it.
 * *reason is NULL or a static string saying why.
 */
int compat_check(const struct compat_backend *backend, const struct compat_spawn *request,
		 const char **reason);

/*
 * Spawn. Returns 0 or the errno value also stored in result->error. On
 * failure nothing is left behind: no child, no zombie, no new fd in the
 * caller, no change to its cwd, umask or signal state.
 */
int compat_spawn(const struct compat_backend *backend, const struct compat_spawn *request,
		 struct compat_result *result);

#endif
