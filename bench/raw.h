/*
 * spawnbench's raw kernel methods: each series' ABI called directly, as a
 * tuned program would call it, beside the libcompat backend that wraps it.
 * What a long-lived program makes once is made before timing, per thread
 * and cell (prepare): io_uring's ring and chain, clone3's clone_args and
 * action list, the reused process builder; a spawn is then one
 * io_uring_enter(), one clone3() or one spawn_commit() (builder-raw, a
 * builder per spawn, opens and configures it in the spawn). A
 * method that can start many spawns with one call (io_uring) also has
 * submit and collect, for the asynchronous cell. Each method is in a file
 * of its own, compiled against its series' uapi headers (bench/bench.mk).
 */
#ifndef SPAWNBENCH_RAW_H
#define SPAWNBENCH_RAW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What one spawn of a cell does. */
struct raw_job {
	const char *const *paths;	/* the child: its path, or a PATH search's candidates */
	size_t n_paths;
	char *const *argv;
	char *const *envp;
	bool resetids;			/* POSIX_SPAWN_RESETIDS, before the dup2s */
	int n_dup2;			/* dup2(devnull, dup2_first ..
				 * dup2_first + n_dup2 - 1) in the child */
	int dup2_first;
	int devnull;
	const sigset_t *sigmask;	/* NULL, or the signal mask the program starts with */
	unsigned int batch;		/* the most spawns one submit() starts; 0: one */
};

/* the largest batch */
#define RAW_MAX_BATCH 64

struct raw_method {
	/* NULL if the method can express the job, else why not; NULL: every job */
	const char *(*unsupported)(const struct raw_job *job);
	/* everything the spawns of job need; NULL with errno set */
	void *(*prepare)(const struct raw_job *job);
	/* one spawn: the child's pid, or -errno with no child left */
	pid_t (*spawn)(void *prepared);
	/*
	 * NULL, or: start n <= batch spawns with one call and return at once;
	 * 0 or -errno (then nothing is left to collect)
	 */
	int (*submit)(void *prepared, unsigned int n);
	/*
	 * after submit(n): wait until the n spawns are started; pids[i] = the
	 * child's pid, or -errno with no child left; 0 or -errno
	 */
	int (*collect)(void *prepared, pid_t *pids, unsigned int n);
	void (*release)(void *prepared);
};

extern const struct raw_method raw_iouring, raw_clone_actions, raw_builder, raw_builder_reuse;

#endif
