/*
 * spawnbench's raw kernel methods: each series' ABI called directly, as a
 * tuned program would call it, beside the libcompat backend that wraps it.
 * What a long-lived program makes once is made before timing, per thread
 * and cell (prepare): io_uring's ring and chain, clone3's clone_args and
 * action list; a spawn is then one io_uring_enter() or one clone3(). Each
 * method is in a file of its own, compiled against its series' uapi
 * headers (bench/bench.mk).
 */
#ifndef SPAWNBENCH_RAW_H
#define SPAWNBENCH_RAW_H

#include <stddef.h>
#include <sys/types.h>

/* What one spawn of a cell does. */
struct raw_job {
	const char *const *paths;	/* the child: its path, or a PATH search's candidates */
	size_t n_paths;
	char *const *argv;
	char *const *envp;
	int n_dup2;			/* dup2(devnull, 0 .. n_dup2 - 1) in the child */
	int devnull;
};

struct raw_method {
	/* NULL if the method can express the job, else why not; NULL: every job */
	const char *(*unsupported)(const struct raw_job *job);
	/* everything the spawns of job need; NULL with errno set */
	void *(*prepare)(const struct raw_job *job);
	/* one spawn: the child's pid, or -errno with no child left */
	pid_t (*spawn)(void *prepared);
	void (*release)(void *prepared);
};

extern const struct raw_method raw_iouring, raw_clone_actions;

#endif
