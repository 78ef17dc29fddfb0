/*
 * spawnbench's builder methods: series-builder's process builder called
 * directly. Both give the child the caller's fd table, as fork and the
 * other methods do (spawn_open(SPAWN_OPEN_INHERIT_FDS), close-on-exec
 * fds closed at the exec), then SPAWN_RESETIDS when the job asks for it,
 * one SPAWN_DUP2 of /dev/null per dup2, SPAWN_SIGMASK for a signal mask
 * and SPAWN_EXEC: the child's path, or for a PATH search its name with the
 * candidates' directories as the search string, made before timing.
 *   builder-raw        a builder per spawn, as libcompat and posix_spawn()
 *                      on a builder use it: open, the settings, one
 *                      spawn_commit() with SPAWN_COMMIT_CONSUME, close()
 *   builder-reuse-raw  the builder opened and configured once, before
 *                      timing (its PATH search too); a spawn is one
 *                      spawn_commit() with the spawn's argv and envp: the
 *                      reuse that the design promises
 */
#include "../abi/builder-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "raw.h"

struct raw_builder {
	int bfd;			/* builder-reuse-raw's, configured; else -1 */
	bool resetids, set_sigmask;
	int n_dup2, dup2_first, devnull;
	struct spawn_sigset sigmask;
	struct spawn_exec exec;
	struct spawn_commit_args args;
	char search[];			/* a PATH search's directories, ':' between */
};

/* the name every candidate of the job ends with */
static const char *candidate_name(const struct raw_job *job)
{
	const char *slash = strrchr(job->paths[job->n_paths - 1], '/');

	return slash ? slash + 1 : job->paths[job->n_paths - 1];
}

/* a PATH search is a name and directories: its candidates must share the name */
static const char *builder_unsupported(const struct raw_job *job)
{
	const char *name = candidate_name(job);
	size_t len = strlen(name);

	for (size_t i = 0; job->n_paths > 1 && i < job->n_paths; i++) {
		size_t n = strlen(job->paths[i]);

		if (n <= len + 1 || job->paths[i][n - len - 1] != '/' || strcmp(job->paths[i] + n - len, name))
			return "a PATH search's candidates must share their name";
	}
	return NULL;
}

static void *builder_prepare(const struct raw_job *job)
{
	size_t len = 1;
	struct raw_builder *r;
	char *at;

	if (builder_unsupported(job)) {
		errno = EINVAL;
		return NULL;
	}
	for (size_t i = 0; job->n_paths > 1 && i < job->n_paths; i++)
		len += strlen(job->paths[i]) + 1;
	r = calloc(1, sizeof(*r) + len);
	if (!r)
		return NULL;
	r->bfd = -1;
	r->resetids = job->resetids;
	r->n_dup2 = job->n_dup2;
	r->dup2_first = job->dup2_first;
	r->devnull = job->devnull;
	if (job->sigmask) {
		r->set_sigmask = true;
		r->sigmask = (struct spawn_sigset){ .how = SIG_SETMASK,
						    .set = compat_signal_bits(job->sigmask) };
	}
	r->exec = (struct spawn_exec){ .dirfd = AT_FDCWD, .path = SB_PTR(job->paths[0]) };
	if (job->n_paths > 1) {
		at = r->search;
		for (size_t i = 0; i < job->n_paths; i++) {
			size_t dir = strlen(job->paths[i]) - strlen(candidate_name(job)) - 1;

			memcpy(at, job->paths[i], dir);
			at += dir;
			*at++ = i + 1 < job->n_paths ? ':' : '\0';
		}
		r->exec.path = SB_PTR(candidate_name(job));
		r->exec.search = SB_PTR(r->search);
	}
	r->args = (struct spawn_commit_args){ .argv = SB_PTR(job->argv), .envp = SB_PTR(job->envp) };
	return r;
}

/* a builder with the job's settings, sealed: its fd, or -errno */
static int builder_make(const struct raw_builder *r)
{
	int bfd = sb_open(SPAWN_OPEN_CLOEXEC | SPAWN_OPEN_INHERIT_FDS), error;

	if (bfd < 0)
		return -errno;
	if (r->resetids && sb_config(bfd, SPAWN_RESETIDS, NULL, 0) < 0)
		goto fail;
	for (int i = 0; i < r->n_dup2; i++) {
		struct spawn_fd dup2 = { .fd = r->devnull, .target = r->dup2_first + i };

		if (sb_set(bfd, SPAWN_DUP2, &dup2) < 0)
			goto fail;
	}
	if (r->set_sigmask && sb_set(bfd, SPAWN_SIGMASK, &r->sigmask) < 0)
		goto fail;
	if (sb_set(bfd, SPAWN_EXEC, &r->exec) >= 0)
		return bfd;
fail:
	error = errno;
	close(bfd);
	return -error;
}

/* one commit: the child's pid, or -errno with no child left */
static pid_t builder_commit(int bfd, const struct spawn_commit_args *args)
{
	long pid = sb_commit(bfd, args);

	return pid < 0 ? -errno : (pid_t)pid;
}

static pid_t builder_spawn(void *prepared)
{
	struct raw_builder *r = prepared;
	struct spawn_commit_args args = r->args;
	int bfd = builder_make(r);
	pid_t pid;

	if (bfd < 0)
		return bfd;
	args.flags = SPAWN_COMMIT_CONSUME;
	pid = builder_commit(bfd, &args);
	close(bfd);
	return pid;
}

static void *builder_reuse_prepare(const struct raw_job *job)
{
	struct raw_builder *r = builder_prepare(job);

	if (r && (r->bfd = builder_make(r)) < 0) {
		errno = -r->bfd;
		free(r);
		return NULL;
	}
	return r;
}

static pid_t builder_reuse_spawn(void *prepared)
{
	struct raw_builder *r = prepared;

	return builder_commit(r->bfd, &r->args);
}

static void builder_release(void *prepared)
{
	struct raw_builder *r = prepared;

	if (r->bfd >= 0)
		close(r->bfd);
	free(r);
}

const struct raw_method raw_builder = {
	.unsupported = builder_unsupported,
	.prepare = builder_prepare,
	.spawn = builder_spawn,
	.release = builder_release,
};

const struct raw_method raw_builder_reuse = {
	.unsupported = builder_unsupported,
	.prepare = builder_reuse_prepare,
	.spawn = builder_reuse_spawn,
	.release = builder_release,
};
