/*
 * libspawnshim.so: glibc 2.36's posix_spawn and posix_spawnp over a
 * libcompat backend, for a program started with LD_PRELOAD.
 *
 * Each call becomes one libcompat request (the attributes and file actions
 * as actions, in the order glibc runs them) for the backend that
 * SPAWNLAB_BACKEND names (vfork when unset). A request the backend cannot
 * express fails with ENOTSUP (SPAWNLAB_SHIM_MODE=strict, the default) or
 * runs in glibc's own posix_spawn (SPAWNLAB_SHIM_MODE=fallback). Each call
 * appends one line to the file SPAWNLAB_SHIM_COUNTS names, if set.
 * DESIGN.md, "The posix_spawn shim", is the contract.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

/*
 * A file action as glibc 2.36 stores it (posix/spawn_int.h, private):
 * posix_spawn_file_actions_t's __actions points to __used of them.
 */
struct glibc_action {
	enum {
		GLIBC_CLOSE,
		GLIBC_DUP2,
		GLIBC_OPEN,
		GLIBC_CHDIR,
		GLIBC_FCHDIR,
		GLIBC_CLOSEFROM,
		GLIBC_TCSETPGRP,
	} tag;
	union {
		int fd;			/* CLOSE, FCHDIR, CLOSEFROM, TCSETPGRP */
		struct {
			int fd, newfd;
		} dup2;
		struct {
			int fd;
			char *path;
			int oflag;
			mode_t mode;
		} open;
		char *path;		/* CHDIR */
	};
};

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
		     const posix_spawnattr_t *, char *const[], char *const[]);

static struct {
	const struct compat_backend *backend;
	const char *backend_name;
	const char *unusable;		/* why no request can go to the backend */
	bool fallback;			/* SPAWNLAB_SHIM_MODE=fallback */
	bool layout_known;		/* glibc_action is this glibc's */
	const char *counts;		/* SPAWNLAB_SHIM_COUNTS */
	spawn_fn *glibc_spawn, *glibc_spawnp;
} shim;

static pthread_once_t shim_once = PTHREAD_ONCE_INIT;

/* Set while this thread is in a backend: the posix backend calls posix_spawn. */
static __thread bool in_backend;

/* Whether glibc_action decodes what this glibc's add functions store. */
static bool layout_matches(void)
{
	posix_spawn_file_actions_t fa;
	const struct glibc_action *a;
	bool ok;

	if (strcmp(gnu_get_libc_version(), "2.36") != 0 || posix_spawn_file_actions_init(&fa))
		return false;
	ok = !posix_spawn_file_actions_addclose(&fa, 3) &&
	     !posix_spawn_file_actions_adddup2(&fa, 4, 5) &&
	     !posix_spawn_file_actions_addopen(&fa, 6, "/", O_RDONLY | O_DIRECTORY, 0640) &&
	     !posix_spawn_file_actions_addchdir_np(&fa, "/") &&
	     !posix_spawn_file_actions_addtcsetpgrp_np(&fa, 7) && fa.__used == 5;
	a = (const struct glibc_action *)fa.__actions;
	ok = ok && a[0].tag == GLIBC_CLOSE && a[0].fd == 3 && a[1].tag == GLIBC_DUP2 &&
	     a[1].dup2.fd == 4 && a[1].dup2.newfd == 5 && a[2].tag == GLIBC_OPEN &&
	     a[2].open.fd == 6 && strcmp(a[2].open.path, "/") == 0 &&
	     a[2].open.oflag == (O_RDONLY | O_DIRECTORY) && a[2].open.mode == 0640 &&
	     a[3].tag == GLIBC_CHDIR && strcmp(a[3].path, "/") == 0 &&
	     a[4].tag == GLIBC_TCSETPGRP && a[4].fd == 7;
	posix_spawn_file_actions_destroy(&fa);
	return ok;
}

static void shim_init(void)
{
	const char *mode = getenv("SPAWNLAB_SHIM_MODE");

	shim.backend_name = getenv("SPAWNLAB_BACKEND");
	if (shim.backend_name == NULL)
		shim.backend_name = "vfork";
	shim.backend = compat_backend_find(shim.backend_name);
	if (shim.backend == NULL)
		shim.unusable = "no such backend";
	else if (!compat_backend_available(shim.backend))
		shim.unusable = "backend not supported by this kernel";
	shim.fallback = mode != NULL && strcmp(mode, "fallback") == 0;
	shim.layout_known = layout_matches();
	shim.counts = getenv("SPAWNLAB_SHIM_COUNTS");
	shim.glibc_spawn = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawn");
	shim.glibc_spawnp = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawnp");
}

/* One call of posix_spawn or posix_spawnp. */
struct shim_call {
	bool search;
	const char *path;
	const posix_spawn_file_actions_t *fa;
	const posix_spawnattr_t *attr;
	char *const *argv, *const *envp;
	struct compat_action *actions;
	struct compat_spawn request;
};

static const char *const kind_name[] = {
	[COMPAT_CLOSE] = "close", [COMPAT_DUP2] = "dup2", [COMPAT_OPEN] = "open",
	[COMPAT_CHDIR] = "chdir", [COMPAT_FCHDIR] = "fchdir",
	[COMPAT_CLOSE_RANGE] = "closefrom", [COMPAT_SETSID] = "setsid",
	[COMPAT_SETPGID] = "setpgid", [COMPAT_SIGMASK] = "sigmask",
	[COMPAT_SIGDEFAULT] = "sigdefault", [COMPAT_UMASK] = "umask",
	[COMPAT_RESETIDS] = "resetids", [COMPAT_SCHED] = "sched",
	[COMPAT_TCSETPGRP] = "tcsetpgrp",
};
#define KINDS (sizeof kind_name / sizeof kind_name[0])

/*
 * The counts file, opened for one line. A caller whose fd table is full
 * up to its soft RLIMIT_NOFILE (tst-spawn3 fills it before it spawns)
 * would lose the line: compat_fd_beyond_limit() raises the limit for the
 * open alone (DESIGN.md: why not an fd kept from load time). At the hard
 * limit the line is lost, and the harness sees it missing.
 */
static int open_counts(const void *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

/*
 * One line per call, appended in one write: OUTCOME pid=P call=F
 * backend=B error=E [KIND=N...] reason=WHY (DESIGN.md). errno is kept.
 */
static void count(const struct shim_call *call, const char *outcome, int error,
		  const char *reason)
{
	unsigned int n[KINDS] = { 0 };
	char line[512];
	int len, fd, saved = errno;

	if (shim.counts == NULL)
		return;
	for (size_t i = 0; i < call->request.n_actions; i++)
		n[call->actions[i].kind]++;
	len = snprintf(line, sizeof line, "%s pid=%d call=%s backend=%.32s error=%d", outcome,
		       (int)getpid(), call->search ? "posix_spawnp" : "posix_spawn",
		       shim.backend_name, error);
	for (size_t k = 0; k < KINDS; k++)
		if (n[k])
			len += snprintf(line + len, sizeof line - len, " %s=%u", kind_name[k], n[k]);
	len += snprintf(line + len, sizeof line - len, " reason=%s\n", reason ? reason : "-");
	fd = compat_fd_beyond_limit(open_counts, shim.counts);
	if (fd >= 0) {
		if (write(fd, line, (size_t)len) != len) {
			/* nothing to do: the harness sees the line missing */
		}
		close(fd);
	}
	errno = saved;
}

static void add(struct shim_call *call, struct compat_action action)
{
	call->actions[call->request.n_actions++] = action;
}

/*
 * glibc opens, then dup2()s the new fd onto the target when the open
 * lands elsewhere, which drops O_CLOEXEC: the flag holds only when the
 * target is the lowest fd free in the child then (every fd below it open).
 */
static bool open_lands_on_target(const struct shim_call *call, int target)
{
	for (int fd = 0; fd < target; fd++)
		if (!compat_fd_open_before(&call->request, call->request.n_actions, fd))
			return false;
	return true;
}

static void add_file_action(struct shim_call *call, const struct glibc_action *a)
{
	int flags;

	switch (a->tag) {
	case GLIBC_CLOSE:
		add(call, compat_close(a->fd));
		break;
	case GLIBC_DUP2:
		add(call, compat_dup2(a->dup2.fd, a->dup2.newfd));
		break;
	case GLIBC_OPEN:
		flags = a->open.oflag;
		if (!open_lands_on_target(call, a->open.fd))
			flags &= ~O_CLOEXEC;
		add(call, compat_open(a->open.fd, AT_FDCWD, a->open.path, flags, a->open.mode));
		break;
	case GLIBC_CHDIR:
		add(call, compat_chdir(a->path));
		break;
	case GLIBC_FCHDIR:
		add(call, compat_fchdir(a->fd));
		break;
	case GLIBC_CLOSEFROM:
		add(call, compat_close_range((unsigned int)a->fd, ~0U, 0));
		break;
	case GLIBC_TCSETPGRP:
		add(call, compat_tcsetpgrp(a->fd));
		break;
	}
	/* glibc skips a tag it does not know */
}

/* Whether the call searches PATH: posix_spawnp of a name without '/'. */
static bool searched(const struct shim_call *call)
{
	return call->search && call->path && compat_name_is_searched(call->path);
}

/*
 * The call as a libcompat request: glibc's child resets signals, then sets
 * the scheduling, setsid, setpgid, resetids, runs the file actions in
 * order and last sets the signal mask. Returns NULL or why not.
 */
static const char *translate(struct shim_call *call)
{
	static char *const no_env[] = { NULL };
	const struct glibc_action *files = NULL;
	size_t n_files = 0;
	short flags = 0;

	if (call->fa && call->fa->__used > 0) {
		if (!shim.layout_known)
			return "file actions of a glibc other than 2.36";
		files = (const struct glibc_action *)call->fa->__actions;
		n_files = (size_t)call->fa->__used;
	}
	if (call->attr)
		posix_spawnattr_getflags(call->attr, &flags);
	/* at most five attribute actions and the mask */
	call->actions = malloc((n_files + 6) * sizeof(*call->actions));
	if (call->actions == NULL)
		return "out of memory";
	call->request = (struct compat_spawn){
		.exec_mode = call->search ? COMPAT_EXEC_SEARCH : COMPAT_EXEC_PATH,
		.path = call->path,
		.argv = call->argv,
		/* execve()'s NULL envp is an empty environment, libcompat's is environ */
		.envp = call->envp ? call->envp : no_env,
		.actions = call->actions,
		/* glibc's search ends at ENOEXEC and the like */
		.want_search_stops = searched(call),
	};
	if (flags & POSIX_SPAWN_SETSIGDEF) {
		sigset_t set;

		posix_spawnattr_getsigdefault(call->attr, &set);
		add(call, compat_sigdefault(&set));
	}
	if (flags & (POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSCHEDPARAM)) {
		struct sched_param param;
		int policy;

		posix_spawnattr_getschedparam(call->attr, &param);
		posix_spawnattr_getschedpolicy(call->attr, &policy);
		add(call, flags & POSIX_SPAWN_SETSCHEDULER ?
			  compat_setscheduler(policy, param.sched_priority) :
			  compat_setschedparam(param.sched_priority));
	}
	if (flags & POSIX_SPAWN_SETSID)
		add(call, compat_setsid());
	if (flags & POSIX_SPAWN_SETPGROUP) {
		pid_t pgid;

		posix_spawnattr_getpgroup(call->attr, &pgid);
		add(call, compat_setpgid(pgid));
	}
	if (flags & POSIX_SPAWN_RESETIDS)
		add(call, compat_resetids());
	for (size_t i = 0; i < n_files; i++)
		add_file_action(call, &files[i]);
	if (flags & POSIX_SPAWN_SETSIGMASK) {
		sigset_t set;

		posix_spawnattr_getsigmask(call->attr, &set);
		add(call, compat_sigmask(&set));
	}
	return NULL;
}

/* The PATH entry posix_spawnp tries last, or NULL. */
static const char *last_entry(void)
{
	const char *path = getenv("PATH"), *colon;

	if (path == NULL)
		path = COMPAT_DEFAULT_PATH;
	colon = strrchr(path, ':');
	return colon ? colon + 1 : path;
}

static bool changes_cwd(const struct shim_call *call)
{
	for (size_t i = 0; i < call->request.n_actions; i++)
		if (call->actions[i].kind == COMPAT_CHDIR || call->actions[i].kind == COMPAT_FCHDIR)
			return true;
	return false;
}

/* Where the shim itself cannot give glibc's result (DESIGN.md). */
static const char *shim_refuse(const struct shim_call *call)
{
	if (!searched(call))
		return NULL;
	if (compat_path_has_long_entry(getenv("PATH")))
		return "no PATH entry of PATH_MAX bytes or more";
	if (last_entry()[0] != '/' && changes_cwd(call))
		return "no PATH search ending in a relative entry after chdir or fchdir";
	return NULL;
}

/*
 * glibc ends a fruitless search with the last entry's error, libcompat
 * with ENOENT (when no entry gave EACCES): the last entry's ENOTDIR, as
 * the child would have seen it from the same cwd (shim_refuse()).
 */
static int search_error(const struct shim_call *call, int error)
{
	char candidate[PATH_MAX];
	const char *entry = last_entry();

	if (error != ENOENT || !searched(call) ||
	    compat_path_next(&entry, call->path, candidate) != 0)
		return error;
	return access(candidate, F_OK) < 0 && errno == ENOTDIR ? ENOTDIR : error;
}

static int glibc(const struct shim_call *call, pid_t *pid)
{
	return (call->search ? shim.glibc_spawnp : shim.glibc_spawn)(pid, call->path, call->fa,
								    call->attr, call->argv,
								    call->envp);
}

/*
 * A call the backend does not run: refused, or glibc's own. A backend
 * that cannot run any call (shim.unusable) is counted "unusable", not
 * "refused": that is no answer to the request, and a harness that named
 * the backend fails on it.
 */
static int not_routed(struct shim_call *call, pid_t *pid, const char *reason, bool unusable)
{
	int error;

	if (!shim.fallback) {
		count(call, unusable ? "unusable" : "refused", ENOTSUP, reason);
		return ENOTSUP;
	}
	error = glibc(call, pid);
	count(call, "fallback", error, reason);
	return error;
}

static int routed(struct shim_call *call, pid_t *pid)
{
	struct compat_result result;
	int error;

	in_backend = true;
	error = compat_spawn(shim.backend, &call->request, &result);
	in_backend = false;
	if (result.step == COMPAT_STEP_REQUEST)
		return not_routed(call, pid, result.reason, false);
	error = search_error(call, error);
	if (error == 0 && pid)
		*pid = result.pid;
	count(call, "routed", error, NULL);
	return error;
}

static int shim_spawn(struct shim_call *call, pid_t *pid)
{
	int saved = errno, cancel, error;
	const char *why;
	bool unusable;

	pthread_once(&shim_once, shim_init);
	if (in_backend)
		return glibc(call, pid);
	/* glibc's spawn is no cancellation point; the vfork backend's waitpid is */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	why = translate(call);
	unusable = why == NULL && shim.unusable != NULL;
	if (unusable)
		why = shim.unusable;
	if (why == NULL)
		why = shim_refuse(call);
	error = why ? not_routed(call, pid, why, unusable) : routed(call, pid);
	free(call->actions);
	pthread_setcancelstate(cancel, NULL);
	/* glibc's child leaves its errno in the caller's; we keep it on success */
	errno = error ? error : saved;
	return error;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct shim_call call = { .path = path, .fa = fa, .attr = attr, .argv = argv,
				  .envp = envp };

	return shim_spawn(&call, pid);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct shim_call call = { .search = true, .path = file, .fa = fa, .attr = attr,
				  .argv = argv, .envp = envp };

	return shim_spawn(&call, pid);
}
