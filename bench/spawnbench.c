/*
 * spawnbench: how fast each spawn method starts a program, on the running
 * kernel. DESIGN.md ("Benchmark and report") explains the method.
 *
 * Methods: fork+execve, vfork+execve, posix_spawn, posix_spawnp (raw glibc
 * calls); iouring-raw, clone-actions-raw, builder-raw (a process builder
 * per spawn) and builder-reuse-raw (one builder, committed per spawn),
 * each series' ABI called directly as a tuned program would (bench/raw.h);
 * vfork, iouring, clone-actions and builder, libcompat's backends, so that
 * the library's cost shows beside the call it wraps. The kernel methods run when the
 * running kernel has the series (libcompat's probe decides). Every method
 * spawns the same child, `stamp FD`, which writes CLOCK_MONOTONIC on FD
 * with its first instructions; the parent
 * takes the time before the spawn call (t0) and after waitpid (t2):
 *   first     = stamp - t0   spawn call to the child's first instruction
 *   roundtrip = t2 - t0      spawn + wait
 * Within a cell (one setting of the parent) the methods take turns in
 * blocks of --block spawns, after --warmup spawns each that are not kept.
 * The make-like cell gives every spawn what GNU make 4.3 asks of
 * posix_spawn() for a recipe line: RESETIDS, two dup2 and a signal mask.
 * The asynchronous cell (async_cell) starts k spawns before reaping any.
 *
 * Output: one TSV row per (cell, param, method, metric) on --out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcompat.h"
#include "raw.h"

/* --- options ---------------------------------------------------------- */

static struct {
	const char *out;
	const char *stamp;
	const char *tmp;
	const char *cells;
	const char *methods;
	const char *trace;	/* tracefs: trace the latency cells' measured spawns */
	const char *misses;	/* path cell: PATH entries before the child's */
	long iters;		/* base cell */
	long sweep_iters;	/* every other latency cell */
	long mem_iters;		/* cells with touched parent memory */
	long warmup;
	long block;
	long tput;		/* spawns per thread and repetition */
	long tput_reps;
	long async_spawns;	/* async cell: spawns per method, k and kind of round */
	long async_work;	/* async cell: the parent's work units per spawn */
} opt = {
	.tmp = "/tmp",
	.cells = "base,memory,path,env,dup2,make-like,tput,async,syscall",
	.misses = "0,1,6,16,64",
	.iters = 1000, .sweep_iters = 100, .mem_iters = 30, .warmup = 5,
	.block = 10, .tput = 50, .tput_reps = 3, .async_spawns = 320, .async_work = 100,
};

static void die(const char *what)
{
	fprintf(stderr, "spawnbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- methods ------------------------------------------------------------ */

enum method_kind { RAW_FORK, RAW_VFORK, RAW_POSIX_SPAWN, RAW_POSIX_SPAWNP, RAW_ABI, COMPAT };

struct method {
	const char *name;
	enum method_kind kind;
	const char *backend;		/* RAW_ABI, COMPAT: the libcompat backend (its probe) */
	const struct raw_method *raw;	/* RAW_ABI */
	const struct compat_backend *compat;
	bool selected;
	const char *unavailable;	/* why it cannot run on this kernel, or NULL */
};

static struct method methods[] = {
	{ .name = "fork+execve", .kind = RAW_FORK },
	{ .name = "vfork+execve", .kind = RAW_VFORK },
	{ .name = "posix_spawn", .kind = RAW_POSIX_SPAWN },
	{ .name = "posix_spawnp", .kind = RAW_POSIX_SPAWNP },
	{ .name = "vfork", .kind = COMPAT, .backend = "vfork" },
	{ .name = "iouring-raw", .kind = RAW_ABI, .backend = "iouring", .raw = &raw_iouring },
	{ .name = "iouring", .kind = COMPAT, .backend = "iouring" },
	{ .name = "clone-actions-raw", .kind = RAW_ABI, .backend = "clone-actions",
	  .raw = &raw_clone_actions },
	{ .name = "clone-actions", .kind = COMPAT, .backend = "clone-actions" },
	{ .name = "builder-raw", .kind = RAW_ABI, .backend = "builder", .raw = &raw_builder },
	{ .name = "builder", .kind = COMPAT, .backend = "builder" },
	{ .name = "builder-reuse-raw", .kind = RAW_ABI, .backend = "builder", .raw = &raw_builder_reuse },
};
#define N_METHODS (sizeof methods / sizeof methods[0])

static bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p; ) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && strncmp(p, name, n) == 0)
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

static void probe_methods(void)
{
	for (size_t i = 0; i < N_METHODS; i++) {
		struct method *m = &methods[i];

		m->selected = !opt.methods || in_list(opt.methods, m->name);
		if (!m->backend)
			continue;
		m->compat = compat_backend_find(m->backend);
		if (m->compat == NULL)
			m->unavailable = "libcompat has no such backend";
		else if (!compat_backend_available(m->compat))
			m->unavailable = "the running kernel lacks it (libcompat probe)";
	}
}

/* What one spawn does: the cell's setting of the request. */
/* the most PATH entries before the one holding the child */
#define MAX_MISSES 64
/* the most actions a request has: three dup2, or make's four */
#define MAX_ACTIONS 4

struct job {
	const char *path;	/* the child, absolute */
	const char *name;	/* searched in PATH when set */
	char **envp;
	int misses;		/* with name: the PATH entries before the child's folder */
	/* the actions, in glibc's order (set_actions()) */
	bool resetids;		/* POSIX_SPAWN_RESETIDS */
	int n_dup2;		/* dup2(devnull, dup2_first .. dup2_first + n_dup2 - 1) */
	int dup2_first;
	int devnull;
	const sigset_t *sigmask;	/* NULL, or the mask the program starts with */
	unsigned int batch;	/* async cell: spawns per submission */
	posix_spawn_file_actions_t files;	/* the actions as glibc's posix_spawn takes them */
	posix_spawnattr_t attr;
};

/*
 * The job's actions, in the order glibc's posix_spawn() runs them (and
 * libcompat's shim passes them on): RESETIDS, dup2(devnull, first ..
 * first + n_dup2 - 1), the signal mask (NULL: none); and glibc's file
 * actions and attributes for them. job->files must be initialised.
 */
static void set_actions(struct job *job, bool resetids, int first, int n_dup2,
			const sigset_t *sigmask)
{
	job->resetids = resetids;
	job->dup2_first = first;
	job->n_dup2 = n_dup2;
	job->sigmask = sigmask;
	posix_spawn_file_actions_destroy(&job->files);
	posix_spawn_file_actions_init(&job->files);
	for (int i = 0; i < n_dup2; i++)
		posix_spawn_file_actions_adddup2(&job->files, job->devnull, first + i);
	posix_spawnattr_setflags(&job->attr, (resetids ? POSIX_SPAWN_RESETIDS : 0) |
					     (sigmask ? POSIX_SPAWN_SETSIGMASK : 0));
	if (sigmask)
		posix_spawnattr_setsigmask(&job->attr, sigmask);
}

/* MISS/NN/stamp: the candidates of the PATH entries that miss */
static char miss_stamp[MAX_MISSES][320];

/* The job as a raw method takes it: a PATH search as its candidates. */
static void raw_job(const struct job *job, char *const argv[], const char *paths[MAX_MISSES + 1],
		    struct raw_job *raw)
{
	size_t n = 0;

	for (; job->name && n < (size_t)job->misses; n++)
		paths[n] = miss_stamp[n];
	paths[n++] = job->path;
	*raw = (struct raw_job){
		.paths = paths,
		.n_paths = n,
		.argv = argv,
		.envp = job->envp,
		.resetids = job->resetids,
		.n_dup2 = job->n_dup2,
		.dup2_first = job->dup2_first,
		.devnull = job->devnull,
		.sigmask = job->sigmask,
		.batch = job->batch,
	};
}

/* What a raw method makes before timing, per thread and job; 0 or an errno value. */
static int prepare(const struct method *m, const struct job *job, char *const argv[],
		   void **prepared)
{
	const char *paths[MAX_MISSES + 1];
	struct raw_job raw;

	*prepared = NULL;
	if (m->kind != RAW_ABI)
		return 0;
	raw_job(job, argv, paths, &raw);
	*prepared = m->raw->prepare(&raw);
	return *prepared ? 0 : errno;
}

static void release(const struct method *m, void *prepared)
{
	if (prepared)
		m->raw->release(prepared);
}

/* The request a libcompat backend gets for a job. */
static void compat_request(const struct job *job, char *const argv[],
			   struct compat_action actions[MAX_ACTIONS], struct compat_spawn *request)
{
	size_t n = 0;

	if (job->resetids)
		actions[n++] = compat_resetids();
	for (int i = 0; i < job->n_dup2; i++)
		actions[n++] = compat_dup2(job->devnull, job->dup2_first + i);
	if (job->sigmask)
		actions[n++] = compat_sigmask(job->sigmask);
	*request = (struct compat_spawn){
		.exec_mode = job->name ? COMPAT_EXEC_SEARCH : COMPAT_EXEC_PATH,
		.path = job->name ? job->name : job->path,
		.argv = argv,
		.envp = job->envp,
		.actions = actions,
		.n_actions = n,
	};
}

/* NULL if the method can run the job, else why not. */
static const char *unsupported(const struct method *m, const struct job *job)
{
	static char reason[160];
	char *argv[] = { "stamp", "1", NULL };

	switch (m->kind) {
	case RAW_POSIX_SPAWN:
		return job->name ? "posix_spawn does not search PATH" : NULL;
	case RAW_ABI: {
		const char *paths[MAX_MISSES + 1];
		struct raw_job raw;

		raw_job(job, argv, paths, &raw);
		return m->raw->unsupported ? m->raw->unsupported(&raw) : NULL;
	}
	case COMPAT: {
		struct compat_action actions[MAX_ACTIONS];
		struct compat_spawn request;
		const char *why = NULL;

		compat_request(job, argv, actions, &request);
		int error = compat_check(m->compat, &request, &why);

		if (error == 0)
			return NULL;
		snprintf(reason, sizeof reason, "%s", why ? why : strerror(error));
		return reason;
	}
	default:
		return NULL;
	}
}

/*
 * The job's actions and exec, by hand, in a fork or vfork child. RESETIDS
 * as glibc's posix_spawn does it: the system calls themselves, as glibc's
 * set*id() wrappers would change the ids of every thread of a vfork
 * child's parent too.
 */
static void child_exec(const struct job *job, char *const argv[])
{
	if (job->resetids && (syscall(SYS_setresuid, -1, getuid(), -1) < 0 ||
			      syscall(SYS_setresgid, -1, getgid(), -1) < 0))
		_exit(126);
	for (int i = 0; i < job->n_dup2; i++)
		if (dup2(job->devnull, job->dup2_first + i) < 0)
			_exit(126);
	if (job->sigmask && sigprocmask(SIG_SETMASK, job->sigmask, NULL) < 0)
		_exit(126);
	if (job->name)
		execvpe(job->name, argv, job->envp);
	else
		execve(job->path, argv, job->envp);
	_exit(127);
}

static pid_t spawn_fork(const struct job *job, char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0)
		child_exec(job, argv);
	return pid < 0 ? -errno : pid;
}

static pid_t spawn_vfork(const struct job *job, char *const argv[])
{
	pid_t pid = vfork();

	if (pid == 0)
		child_exec(job, argv);
	return pid < 0 ? -errno : pid;
}

/*
 * Starts the job; returns the child's pid or -errno. *pidfd: -1 or an fd to
 * close. prepared: what prepare() made.
 */
static pid_t spawn_one(const struct method *m, const struct job *job, char *const argv[],
		       void *prepared, int *pidfd)
{
	pid_t pid = 0;
	int error;

	*pidfd = -1;
	switch (m->kind) {
	case RAW_FORK:
		return spawn_fork(job, argv);
	case RAW_VFORK:
		return spawn_vfork(job, argv);
	case RAW_POSIX_SPAWN:
	case RAW_POSIX_SPAWNP: {
		const posix_spawn_file_actions_t *files = job->n_dup2 ? &job->files : NULL;
		const posix_spawnattr_t *attr = job->resetids || job->sigmask ? &job->attr : NULL;

		if (m->kind == RAW_POSIX_SPAWN)
			error = posix_spawn(&pid, job->path, files, attr, argv, job->envp);
		else
			error = posix_spawnp(&pid, job->name ? job->name : job->path, files, attr,
					     argv, job->envp);
		return error ? -error : pid;
	}
	case RAW_ABI:
		return m->raw->spawn(prepared);
	case COMPAT: {
		struct compat_action actions[MAX_ACTIONS];
		struct compat_spawn request;
		struct compat_result result;

		compat_request(job, argv, actions, &request);
		error = compat_spawn(m->compat, &request, &result);
		if (error)
			return -error;
		*pidfd = result.pidfd;
		return result.pid > 0 ? result.pid : -ECHILD;
	}
	}
	return -EINVAL;
}

/* One spawn and wait; the child's stamp arrives on stamp_fd. 0 or an errno value. */
static int measure_one(const struct method *m, const struct job *job, char *const argv[],
		       void *prepared, int stamp_fd, uint64_t *first, uint64_t *roundtrip)
{
	int pidfd, status;
	uint64_t t0 = now_ns();
	pid_t pid = spawn_one(m, job, argv, prepared, &pidfd);

	if (pid < 0)
		return -pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	uint64_t t2 = now_ns();

	if (pidfd >= 0)
		close(pidfd);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return ECHILD;
	/* { time, pid }: a record of another child (one that a failed spawn
	 * left running) is skipped */
	uint64_t record[2];

	do {
		if (read(stamp_fd, record, sizeof record) != sizeof record)
			return EIO;
	} while (record[1] != (uint64_t)pid);
	if (record[0] < t0)
		return ERANGE;
	*first = record[0] - t0;
	*roundtrip = t2 - t0;
	return 0;
}

/* --- statistics and output ------------------------------------------------ */

static FILE *out;
static int cell_no, cell_total;	/* progress */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* min, median, p90 (nearest rank), mean of n sorted values */
static void stats(const double *v, size_t n, double s[4])
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s[0] = v[0];
	s[1] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s[2] = v[(9 * n + 9) / 10 - 1];
	s[3] = sum / (double)n;
}

static void row_status(const char *cell, const char *param, const struct method *m,
		       const char *metric, const char *status)
{
	fprintf(out, "%s\t%s\t%s\t%s\t-\t0\t-\t-\t-\t-\t%s\n", cell, param, m->name, metric, status);
}

static void row_values(const char *cell, const char *param, const struct method *m,
		       const char *metric, const char *unit, double *v, size_t n)
{
	double s[4];

	qsort(v, n, sizeof *v, cmp_double);
	stats(v, n, s);
	fprintf(out, "%s\t%s\t%s\t%s\t%s\t%zu\t%.0f\t%.0f\t%.0f\t%.0f\tok\n", cell, param, m->name,
		metric, unit, n, s[0], s[1], s[2], s[3]);
	fflush(out);
}

static void row_samples(const char *cell, const char *param, const struct method *m,
			const char *metric, uint64_t *v, size_t n)
{
	double *d = malloc(n * sizeof *d);

	if (!d)
		die("malloc");
	qsort(v, n, sizeof *v, cmp_u64);
	for (size_t i = 0; i < n; i++)
		d[i] = (double)v[i];
	row_values(cell, param, m, metric, "ns", d, n);
	free(d);
}

/* --- latency cells ---------------------------------------------------------- */

static int stamp_pipe[2];
static char stamp_arg[16];
static char *stamp_argv[] = { "stamp", stamp_arg, NULL };

/* Can m run the job here? NULL or the status to report. */
static const char *cannot_run(const struct method *m, const struct job *job)
{
	static char status[200];
	const char *why;

	if (m->unavailable) {
		snprintf(status, sizeof status, "unavailable: %s", m->unavailable);
		return status;
	}
	if ((why = unsupported(m, job)) != NULL) {
		snprintf(status, sizeof status, "unsupported: %s", why);
		return status;
	}
	return NULL;
}

static void drain_stamps(void)
{
	uint64_t junk[128];

	while (read(stamp_pipe[0], junk, sizeof junk) > 0)
		continue;
}

/*
 * --trace DIR: a kernel tracer set up in the tracefs DIR (vm/profile's
 * guest script chooses it and its options, function-fork among them) runs
 * for this process and its children during the measured spawns of each
 * latency cell, not during the warm-up. tracing_on is opened once, in
 * main(), so that no open() or close() of it is traced.
 */
static int tracing_on_fd = -1;

static void trace_switch(bool on)
{
	char path[PATH_MAX], pid[16];
	int fd;

	if (tracing_on_fd < 0)
		return;
	if (on) {
		snprintf(path, sizeof path, "%s/set_ftrace_pid", opt.trace);
		snprintf(pid, sizeof pid, "%d", (int)getpid());
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0 || write(fd, pid, strlen(pid)) < 0)
			die(path);
		close(fd);
	}
	if (write(tracing_on_fd, on ? "1" : "0", 1) != 1)
		die("tracing_on");
}

static void latency_cell(const char *cell, const char *param, const struct job *job, long iters)
{
	uint64_t *first[N_METHODS] = { 0 }, *rt[N_METHODS] = { 0 };
	void *prepared[N_METHODS] = { 0 };
	long n[N_METHODS] = { 0 };
	int error[N_METHODS] = { 0 };
	bool active[N_METHODS];
	uint64_t start = now_ns();

	fprintf(stderr, "spawnbench: [%d/%d] %s %s: %ld spawns per method\n", ++cell_no, cell_total,
		cell, param, iters);
	for (size_t i = 0; i < N_METHODS; i++) {
		const char *status;

		active[i] = false;
		if (!methods[i].selected)
			continue;
		if ((status = cannot_run(&methods[i], job)) != NULL) {
			row_status(cell, param, &methods[i], "first", status);
			row_status(cell, param, &methods[i], "roundtrip", status);
			continue;
		}
		first[i] = malloc((size_t)iters * sizeof(uint64_t));
		rt[i] = malloc((size_t)iters * sizeof(uint64_t));
		if (!first[i] || !rt[i])
			die("malloc");
		error[i] = prepare(&methods[i], job, stamp_argv, &prepared[i]);
		active[i] = !error[i];
	}
	/* warm-up, then turns of one block per method */
	for (size_t i = 0; i < N_METHODS; i++)
		for (long k = 0; active[i] && k < opt.warmup; k++) {
			uint64_t a, b;

			if ((error[i] = measure_one(&methods[i], job, stamp_argv, prepared[i],
						    stamp_pipe[0], &a, &b)))
				active[i] = false;
		}
	trace_switch(true);
	for (bool more = true; more; ) {
		more = false;
		for (size_t i = 0; i < N_METHODS; i++) {
			for (long k = 0; active[i] && k < opt.block && n[i] < iters; k++) {
				error[i] = measure_one(&methods[i], job, stamp_argv, prepared[i],
						       stamp_pipe[0], &first[i][n[i]], &rt[i][n[i]]);
				if (error[i])
					active[i] = false;
				else
					n[i]++;
			}
			if (active[i] && n[i] < iters)
				more = true;
		}
	}
	trace_switch(false);
	drain_stamps();
	for (size_t i = 0; i < N_METHODS; i++) {
		if (!first[i])
			continue;
		release(&methods[i], prepared[i]);
		if (error[i]) {
			char status[160];

			snprintf(status, sizeof status, "error: %s after %ld spawns",
				 strerror(error[i]), n[i]);
			row_status(cell, param, &methods[i], "first", status);
			row_status(cell, param, &methods[i], "roundtrip", status);
			fprintf(stderr, "spawnbench: %s %s %s: %s\n", cell, param, methods[i].name, status);
		} else {
			row_samples(cell, param, &methods[i], "first", first[i], (size_t)n[i]);
			row_samples(cell, param, &methods[i], "roundtrip", rt[i], (size_t)n[i]);
		}
		free(first[i]);
		free(rt[i]);
	}
	fprintf(stderr, "spawnbench: %s %s: done in %.1f s\n", cell, param,
		(double)(now_ns() - start) / 1e9);
}

/* --- throughput cells ----------------------------------------------------------- */

struct worker {
	pthread_t thread;
	const struct method *method;
	const struct job *job;
	pthread_barrier_t *barrier;
	int pipe[2];
	char arg[16];
	char *argv[3];
	void *prepared;
	uint64_t end;		/* when its last spawn was reaped */
	int error;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	uint64_t a, b;

	w->error = prepare(w->method, w->job, w->argv, &w->prepared);
	pthread_barrier_wait(w->barrier);
	for (long i = 0; i < opt.tput && !w->error; i++)
		w->error = measure_one(w->method, w->job, w->argv, w->prepared, w->pipe[0], &a, &b);
	w->end = now_ns();	/* the thread's teardown is not timed, as its prepare is not */
	release(w->method, w->prepared);
	return NULL;
}

/* spawns per second of nthreads threads spawning and waiting; <0: -errno */
static double throughput(const struct method *m, const struct job *job, int nthreads)
{
	struct worker w[2];
	pthread_barrier_t barrier;
	double rate;
	int error = 0;

	pthread_barrier_init(&barrier, NULL, (unsigned)nthreads + 1);
	for (int t = 0; t < nthreads; t++) {
		w[t] = (struct worker){ .method = m, .job = job, .barrier = &barrier };
		if (pipe2(w[t].pipe, O_NONBLOCK) < 0)
			die("pipe2");
		snprintf(w[t].arg, sizeof w[t].arg, "%d", w[t].pipe[1]);
		w[t].argv[0] = "stamp";
		w[t].argv[1] = w[t].arg;
		w[t].argv[2] = NULL;
		if ((errno = pthread_create(&w[t].thread, NULL, worker_run, &w[t])))
			die("pthread_create");
	}
	pthread_barrier_wait(&barrier);
	uint64_t start = now_ns(), end = start;

	for (int t = 0; t < nthreads; t++) {
		pthread_join(w[t].thread, NULL);
		if (w[t].error)
			error = w[t].error;
		if (w[t].end > end)
			end = w[t].end;
		close(w[t].pipe[0]);
		close(w[t].pipe[1]);
	}
	rate = (double)(nthreads * opt.tput) * 1e9 / (double)(end - start);
	pthread_barrier_destroy(&barrier);
	return error ? -error : rate;
}

static void throughput_cell(const struct job *job, int nthreads)
{
	char param[16];
	double *rates[N_METHODS] = { 0 };
	int error[N_METHODS] = { 0 };
	uint64_t start = now_ns();

	snprintf(param, sizeof param, "%d-thread%s", nthreads, nthreads > 1 ? "s" : "");
	fprintf(stderr, "spawnbench: [%d/%d] tput %s: %ld x %ld spawns per thread and method\n",
		++cell_no, cell_total, param, opt.tput_reps, opt.tput);
	for (size_t i = 0; i < N_METHODS; i++) {
		const char *status;

		if (!methods[i].selected)
			continue;
		if ((status = cannot_run(&methods[i], job)) != NULL) {
			row_status("tput", param, &methods[i], "spawns_per_s", status);
			continue;
		}
		rates[i] = malloc((size_t)opt.tput_reps * sizeof(double));
		if (!rates[i])
			die("malloc");
	}
	for (long r = 0; r < opt.tput_reps; r++)
		for (size_t i = 0; i < N_METHODS; i++) {
			if (!rates[i] || error[i])
				continue;
			double rate = throughput(&methods[i], job, nthreads);

			if (rate < 0)
				error[i] = (int)-rate;
			else
				rates[i][r] = rate;
		}
	for (size_t i = 0; i < N_METHODS; i++) {
		if (!rates[i])
			continue;
		if (error[i]) {
			char status[160];

			snprintf(status, sizeof status, "error: %s", strerror(error[i]));
			row_status("tput", param, &methods[i], "spawns_per_s", status);
		} else {
			row_values("tput", param, &methods[i], "spawns_per_s", "1/s", rates[i],
				   (size_t)opt.tput_reps);
		}
		free(rates[i]);
	}
	fprintf(stderr, "spawnbench: tput %s: done in %.1f s\n", param,
		(double)(now_ns() - start) / 1e9);
}

/* --- asynchronous cells ----------------------------------------------------------- */

/*
 * k spawns before the first reap. iouring-raw submits k CLONE+EXEC chains
 * with one io_uring_enter() that does not wait, and takes the pids from
 * the CLONE CQEs afterwards; the others make k spawns back to back
 * (builder-reuse-raw k commits: the builder has no asynchronous commit). Then
 * the k children are reaped with waitpid. Two kinds of round take turns:
 *   free     spawns_per_s = k / (first spawn call .. last reap)
 *   working  between the spawn calls and the reap the parent does
 *            k x --async-work units of its own work; parent_ns = first
 *            spawn call .. end of that work. "no-spawn" does the same
 *            work alone: the slowdown of a parent that keeps working is
 *            a method's parent_ns over no-spawn's.
 */
#define ASYNC_METHODS "vfork+execve,posix_spawn,clone-actions-raw,iouring-raw,builder-reuse-raw"
#define ASYNC_MAX_K 32

static struct method no_spawn = { .name = "no-spawn", .selected = true };
static volatile uint64_t work_sink;

/* The parent's work: a unit is 256 dependent multiply-adds. */
static void __attribute__((noinline)) work(long units)
{
	uint64_t x = work_sink;

	for (long i = 0; i < units * 256; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	work_sink = x;
}

static bool batches(const struct method *m)
{
	return m->kind == RAW_ABI && m->raw->submit;
}

/* One round: k spawns (none for no-spawn), `units` of work, the reap. 0 or an errno value. */
static int async_round(const struct method *m, const struct job *job, void *prepared,
		       unsigned int k, long units, uint64_t *parent, uint64_t *round)
{
	pid_t pids[ASYNC_MAX_K];
	unsigned int started = 0;
	int error = 0, status;
	uint64_t t0 = now_ns();

	if (m == &no_spawn)
		k = 0;
	else if (batches(m)) {
		error = -m->raw->submit(prepared, k);
		started = error ? 0 : k;
	} else {
		while (started < k) {
			int pidfd;
			pid_t pid = spawn_one(m, job, stamp_argv, prepared, &pidfd);

			if (pidfd >= 0)
				close(pidfd);
			if (pid < 0) {
				error = -pid;
				break;
			}
			pids[started++] = pid;
		}
	}
	work(units);
	uint64_t t1 = now_ns();

	if (started && batches(m)) {
		int ret = m->raw->collect(prepared, pids, started);

		if (ret < 0) {
			error = -ret;
			started = 0;
		}
	}
	for (unsigned int i = 0; i < started; i++) {
		if (pids[i] < 0) {
			error = error ? error : -pids[i];
			continue;
		}
		while (waitpid(pids[i], &status, 0) < 0)
			if (errno != EINTR) {
				status = -1;
				break;
			}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			error = error ? error : ECHILD;
	}
	*round = now_ns() - t0;
	*parent = t1 - t0;
	drain_stamps();
	return error;
}

struct async_run {
	struct method *m;
	void *prepared;
	double *rate;		/* free rounds: spawns/s */
	uint64_t *parent;	/* working rounds: ns */
	long n;
	int error;
	bool active;
};

static void async_rows(const char *param, struct async_run *a, unsigned int k)
{
	if (a->error) {
		char status[160];

		snprintf(status, sizeof status, "error: %s after %ld rounds of %u",
			 strerror(a->error), a->n, k);
		if (a->m != &no_spawn)
			row_status("async", param, a->m, "spawns_per_s", status);
		row_status("async", param, a->m, "parent_ns", status);
		fprintf(stderr, "spawnbench: async %s %s: %s\n", param, a->m->name, status);
		return;
	}
	if (a->m != &no_spawn)
		row_values("async", param, a->m, "spawns_per_s", "1/s", a->rate, (size_t)a->n);
	row_samples("async", param, a->m, "parent_ns", a->parent, (size_t)a->n);
}

static void async_cell(const struct job *base, unsigned int k)
{
	struct async_run runs[N_METHODS + 1];
	size_t n_runs = 0;
	struct job job = *base;
	long rounds = (opt.async_spawns + k - 1) / k, turn = (opt.block + k - 1) / k;
	long units = (long)k * opt.async_work;
	char param[8];
	uint64_t start = now_ns(), parent, round;

	job.batch = k;
	snprintf(param, sizeof param, "%u", k);
	fprintf(stderr, "spawnbench: [%d/%d] async k=%u: %ld rounds per method and kind\n",
		++cell_no, cell_total, k, rounds);
	for (size_t i = 0; i <= N_METHODS; i++) {
		struct method *m = i < N_METHODS ? &methods[i] : &no_spawn;
		struct async_run *a = &runs[n_runs];
		const char *status = NULL;

		if (!m->selected)
			continue;
		if (m != &no_spawn && !in_list(ASYNC_METHODS, m->name))
			status = "unsupported: not one of the asynchronous cell's methods";
		else if (m != &no_spawn)
			status = cannot_run(m, &job);
		if (status) {
			row_status("async", param, m, "spawns_per_s", status);
			row_status("async", param, m, "parent_ns", status);
			continue;
		}
		*a = (struct async_run){ .m = m };
		a->rate = malloc((size_t)rounds * sizeof(double));
		a->parent = malloc((size_t)rounds * sizeof(uint64_t));
		if (!a->rate || !a->parent)
			die("malloc");
		a->error = prepare(m, &job, stamp_argv, &a->prepared);
		a->active = !a->error;
		/* warm-up: free rounds, not kept */
		for (long w = 0; a->active && w < (opt.warmup + k - 1) / k; w++)
			if ((a->error = async_round(m, &job, a->prepared, k, 0, &parent, &round)))
				a->active = false;
		n_runs++;
	}
	for (bool more = true; more; ) {
		more = false;
		for (struct async_run *a = runs; a < runs + n_runs; a++) {
			for (long t = 0; a->active && t < turn && a->n < rounds; t++) {
				if (a->m != &no_spawn) {
					a->error = async_round(a->m, &job, a->prepared, k, 0, &parent,
							       &round);
					if (a->error)
						break;
					a->rate[a->n] = (double)k * 1e9 / (double)round;
				}
				if ((a->error = async_round(a->m, &job, a->prepared, k, units,
							    &a->parent[a->n], &round)))
					break;
				a->n++;
			}
			a->active = a->active && !a->error;
			if (a->active && a->n < rounds)
				more = true;
		}
	}
	for (struct async_run *a = runs; a < runs + n_runs; a++) {
		release(a->m, a->prepared);
		async_rows(param, a, k);
		free(a->rate);
		free(a->parent);
	}
	fprintf(stderr, "spawnbench: async k=%u: done in %.1f s\n", k,
		(double)(now_ns() - start) / 1e9);
}

/* --- the parent's settings -------------------------------------------------------- */

static void *memory;
static size_t memory_size;

/* 0 or an errno value */
static int set_memory(size_t size, bool touch)
{
	if (memory)
		munmap(memory, memory_size);
	memory = NULL;
	memory_size = 0;
	if (size == 0)
		return 0;
	memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memory == MAP_FAILED) {
		memory = NULL;
		return errno;
	}
	memory_size = size;
	/* 4 KiB pages everywhere: the host may have THP, the guest has not */
	madvise(memory, size, MADV_NOHUGEPAGE);
	if (touch)
		for (size_t off = 0; off < size; off += 4096)
			((volatile char *)memory)[off] = 1;
	return 0;
}

static char *empty_env[] = { NULL };

static char **big_env(void)
{
	enum { VARS = 30, VALUE = 1000 };
	char **envp = calloc(VARS + 1, sizeof *envp);

	if (!envp)
		die("calloc");
	for (int i = 0; i < VARS; i++) {
		envp[i] = malloc(VALUE + 32);
		if (!envp[i])
			die("malloc");
		int len = snprintf(envp[i], 32, "SPAWNBENCH_VAR_%02d=", i);

		memset(envp[i] + len, 'a' + i % 26, VALUE);
		envp[i][len + VALUE] = '\0';
	}
	return envp;
}

static char hit_dir[300], stamp_path[PATH_MAX], miss_root[300];

/* A folder with a copy of the child, and 64 empty folders for PATH misses. */
static void make_dirs(void)
{
	char dir[256];

	if (strlen(opt.tmp) > 200) {
		fprintf(stderr, "spawnbench: --tmp %s: too long\n", opt.tmp);
		exit(2);
	}
	snprintf(dir, sizeof dir, "%s/spawnbench.%d", opt.tmp, (int)getpid());
	if (mkdir(dir, 0755) < 0)
		die(dir);
	snprintf(hit_dir, sizeof hit_dir, "%s/hit", dir);
	snprintf(miss_root, sizeof miss_root, "%s/miss", dir);
	if (mkdir(hit_dir, 0755) < 0 || mkdir(miss_root, 0755) < 0)
		die("mkdir");
	for (int i = 0; i < MAX_MISSES; i++) {
		char miss[PATH_MAX];

		snprintf(miss, sizeof miss, "%s/%02d", miss_root, i);
		if (mkdir(miss, 0755) < 0)
			die(miss);
		snprintf(miss_stamp[i], sizeof miss_stamp[i], "%s/%02d/stamp", miss_root, i);
	}
	snprintf(stamp_path, sizeof stamp_path, "%s/stamp", hit_dir);
	int from = open(opt.stamp, O_RDONLY), to;

	if (from < 0)
		die(opt.stamp);
	to = open(stamp_path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (to < 0)
		die(stamp_path);
	char buf[65536];
	ssize_t got;

	while ((got = read(from, buf, sizeof buf)) > 0)
		if (write(to, buf, (size_t)got) != got)
			die("write");
	close(from);
	close(to);
}

static void remove_dirs(void)
{
	char path[PATH_MAX];

	unlink(stamp_path);
	rmdir(hit_dir);
	for (int i = 0; i < MAX_MISSES; i++) {
		snprintf(path, sizeof path, "%s/%02d", miss_root, i);
		rmdir(path);
	}
	rmdir(miss_root);
	snprintf(path, sizeof path, "%s/spawnbench.%d", opt.tmp, (int)getpid());
	rmdir(path);
}

/* PATH with `misses` empty folders before the one holding the child */
static void set_path(int misses)
{
	size_t size = (size_t)(misses + 1) * (strlen(miss_root) + 8) + strlen(hit_dir) + 1;
	char *path = malloc(size), *p = path;

	if (!path)
		die("malloc");
	for (int i = 0; i < misses; i++)
		p += sprintf(p, "%s/%02d:", miss_root, i);
	strcpy(p, hit_dir);
	setenv("PATH", path, 1);
	free(path);
}

/* --- capability table ------------------------------------------------------------ */

static const char *const feature_names[COMPAT_FEATURES] = {
	[COMPAT_FEAT_CLOSE] = "close an fd",
	[COMPAT_FEAT_DUP2] = "dup2 onto a chosen fd",
	[COMPAT_FEAT_OPEN] = "open onto a chosen fd (cwd or absolute)",
	[COMPAT_FEAT_OPEN_AT] = "open relative to a directory fd",
	[COMPAT_FEAT_CHDIR] = "chdir",
	[COMPAT_FEAT_FCHDIR] = "fchdir",
	[COMPAT_FEAT_CLOSE_FROM] = "close every fd from N (closefrom)",
	[COMPAT_FEAT_CLOSE_RANGE] = "close_range, any range or flags",
	[COMPAT_FEAT_SETSID] = "setsid",
	[COMPAT_FEAT_SETPGID] = "setpgid",
	[COMPAT_FEAT_ANY_ORDER] = "setsid/setpgid/scheduling/resetids in any order, repeated",
	[COMPAT_FEAT_SIGMASK] = "set the signal mask",
	[COMPAT_FEAT_SIGDEFAULT] = "reset signals to default",
	[COMPAT_FEAT_UMASK] = "umask",
	[COMPAT_FEAT_RESETIDS] = "reset the effective ids to the real ones",
	[COMPAT_FEAT_SETSCHEDULER] = "scheduling policy",
	[COMPAT_FEAT_SETSCHEDPARAM] = "scheduling priority alone",
	[COMPAT_FEAT_TCSETPGRP] = "tcsetpgrp (foreground process group)",
	[COMPAT_FEAT_EXEC_AT] = "exec by dirfd / execveat flags",
	[COMPAT_FEAT_SEARCH] = "PATH search (caller's PATH)",
	[COMPAT_FEAT_SEARCH_STRING] = "PATH search in a given PATH string",
	[COMPAT_FEAT_SEARCH_STOPS] = "PATH search stops at errors but ENOENT, ENOTDIR, EACCES",
	[COMPAT_FEAT_PIDFD] = "returns a pidfd",
	[COMPAT_FEAT_FAILED_STEP] = "failure names the failing step",
};

/* TSV: feature, then yes/no per registered backend; the host need not run them. */
static void print_caps(void)
{
	const struct compat_backend *b;

	fprintf(out, "feature");
	for (size_t i = 0; (b = compat_backend_at(i)) != NULL; i++)
		fprintf(out, "\t%s", compat_backend_name(b));
	fprintf(out, "\n");
	for (int f = 0; f < COMPAT_FEATURES; f++) {
		if (feature_names[f])
			fprintf(out, "%s", feature_names[f]);
		else
			fprintf(out, "feature %d", f);
		for (size_t i = 0; (b = compat_backend_at(i)) != NULL; i++)
			fprintf(out, "\t%s", compat_backend_has(b, (enum compat_feature)f) ? "yes" : "no");
		fprintf(out, "\n");
	}
}

/* --- the syscall cell -------------------------------------------------------------- */

/*
 * One getppid() round trip (entry, the call, the exit), for scale: what a
 * spawn saves by not returning to user space between two system calls, as
 * the in-kernel designs' children do. A sample is the mean of a batch.
 */
static void syscall_cell(long iters)
{
	enum { BATCH = 1000 };
	uint64_t *v = calloc((size_t)iters, sizeof(*v));

	if (!v)
		die("calloc");
	for (long i = 0; i < iters; i++) {
		uint64_t t0 = now_ns();

		for (int j = 0; j < BATCH; j++)
			syscall(SYS_getppid);
		v[i] = (now_ns() - t0) / BATCH;
	}
	row_samples("syscall", "getppid", &no_spawn, "roundtrip", v, (size_t)iters);
	free(v);
}

/* --- main -------------------------------------------------------------------------- */

static void usage(FILE *to)
{
	fprintf(to,
		"usage: spawnbench [options]\n"
		"  --out FILE         results as TSV (default: standard output)\n"
		"  --stamp PATH       the child (default: stamp next to spawnbench)\n"
		"  --tmp DIR          where the PATH folders are made (default /tmp)\n"
		"  --cells LIST       of base,memory,path,env,dup2,make-like,tput,async,\n"
		"                     syscall (default: all)\n"
		"  --methods LIST     of fork+execve,vfork+execve,posix_spawn,posix_spawnp,\n"
		"                     vfork,iouring-raw,iouring,clone-actions-raw,clone-actions,\n"
		"                     builder-raw,builder,builder-reuse-raw (default: all);\n"
		"                     vfork, iouring, clone-actions and builder are\n"
		"                     libcompat's backends, the -raw ones call the series'\n"
		"                     ABI directly (builder-reuse-raw: one builder, a commit\n"
		"                     per spawn)\n"
		"  --iters N          spawns per method in the base cell (default %ld)\n"
		"  --sweep-iters N    in the other latency cells (default %ld)\n"
		"  --mem-iters N      with touched parent memory (default %ld)\n"
		"  --warmup N         spawns per method and cell not kept (default %ld)\n"
		"  --block N          spawns per method per turn (default %ld)\n"
		"  --tput N           spawns per thread in a throughput run (default %ld)\n"
		"  --tput-reps N      throughput runs per method (default %ld)\n"
		"  --async-spawns N   async cell: spawns per method, k and kind of round\n"
		"                     (default %ld; k = 1, 8, 32 spawns before the reap)\n"
		"  --async-work N     async cell: the parent's work per spawn in a working\n"
		"                     round, in units of 256 multiply-adds (default %ld)\n"
		"  --path-misses LIST path cell: PATH entries before the child's, each of\n"
		"                     0 (the absolute path) to %d (default %s)\n"
		"  --trace DIR        run the tracer set up in the tracefs DIR (tracing_on,\n"
		"                     set_ftrace_pid) during the measured spawns of the\n"
		"                     latency cells; needs --methods with one method\n"
		"  --aslr             keep address space randomisation (default: off, so\n"
		"                     that the page tables fork copies are alike run to run)\n"
		"  --list             print the methods and whether they run here\n"
		"  --caps             print the libcompat capability table (TSV)\n",
		opt.iters, opt.sweep_iters, opt.mem_iters, opt.warmup, opt.block, opt.tput,
		opt.tput_reps, opt.async_spawns, opt.async_work, MAX_MISSES, opt.misses);
}

static long number(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || v < 1) {
		fprintf(stderr, "spawnbench: not a positive number: %s\n", arg);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	bool list = false, caps = false, aslr = false;
	static char default_stamp[PATH_MAX];

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--aslr") == 0)
			aslr = true;
	/*
	 * Without address randomisation, the parent's and the children's
	 * layouts, and so the page tables that fork copies, are the same in
	 * every run: the icount runs then repeat to the instruction.
	 */
	int persona = personality(0xffffffff);

	if (!aslr && persona != -1 && !(persona & ADDR_NO_RANDOMIZE) &&
	    personality((unsigned long)persona | ADDR_NO_RANDOMIZE) != -1) {
		execv("/proc/self/exe", argv);
		personality((unsigned long)persona);	/* no re-exec: go on as we are */
	}

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;

		if (strcmp(a, "--list") == 0) { list = true; takes = false; }
		else if (strcmp(a, "--aslr") == 0) takes = false;
		else if (strcmp(a, "--caps") == 0) { caps = true; takes = false; }
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); return 0; }
		else if (!v) { usage(stderr); return 2; }
		else if (strcmp(a, "--out") == 0) opt.out = v;
		else if (strcmp(a, "--stamp") == 0) opt.stamp = v;
		else if (strcmp(a, "--tmp") == 0) opt.tmp = v;
		else if (strcmp(a, "--cells") == 0) opt.cells = v;
		else if (strcmp(a, "--methods") == 0) opt.methods = v;
		else if (strcmp(a, "--trace") == 0) opt.trace = v;
		else if (strcmp(a, "--path-misses") == 0) opt.misses = v;
		else if (strcmp(a, "--iters") == 0) opt.iters = number(v);
		else if (strcmp(a, "--sweep-iters") == 0) opt.sweep_iters = number(v);
		else if (strcmp(a, "--mem-iters") == 0) opt.mem_iters = number(v);
		else if (strcmp(a, "--warmup") == 0) opt.warmup = strcmp(v, "0") ? number(v) : 0;
		else if (strcmp(a, "--block") == 0) opt.block = number(v);
		else if (strcmp(a, "--tput") == 0) opt.tput = number(v);
		else if (strcmp(a, "--tput-reps") == 0) opt.tput_reps = number(v);
		else if (strcmp(a, "--async-spawns") == 0) opt.async_spawns = number(v);
		else if (strcmp(a, "--async-work") == 0) opt.async_work = number(v);
		else { usage(stderr); return 2; }
		if (takes)
			i++;
	}
	int misses[MAX_MISSES + 1], n_misses = 0;

	for (const char *p = opt.misses; *p; p++) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 0 || v > MAX_MISSES || n_misses > MAX_MISSES ||
		    (*end != ',' && *end != '\0')) {
			fprintf(stderr, "spawnbench: --path-misses %s: numbers 0 to %d\n", opt.misses,
				MAX_MISSES);
			return 2;
		}
		misses[n_misses++] = (int)v;
		p = *end ? end : end - 1;
	}
	out = stdout;
	if (opt.out && !(out = fopen(opt.out, "w")))
		die(opt.out);
	if (caps) {
		print_caps();
		return 0;
	}
	probe_methods();
	size_t n_selected = 0;

	for (size_t i = 0; i < N_METHODS; i++)
		n_selected += methods[i].selected;
	if (opt.trace && n_selected != 1) {
		fprintf(stderr, "spawnbench: --trace needs --methods with one method\n");
		return 2;
	}
	if (opt.trace) {
		char path[PATH_MAX];

		snprintf(path, sizeof path, "%s/tracing_on", opt.trace);
		if ((tracing_on_fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			die(path);
	}
	if (list) {
		for (size_t i = 0; i < N_METHODS; i++)
			fprintf(out, "%s\t%s\n", methods[i].name,
				methods[i].unavailable ? methods[i].unavailable : "available");
		return 0;
	}
	if (!opt.stamp) {
		ssize_t len = readlink("/proc/self/exe", default_stamp, sizeof default_stamp - 7);

		if (len < 0)
			die("/proc/self/exe");
		default_stamp[len] = '\0';
		char *slash = strrchr(default_stamp, '/');

		strcpy(slash ? slash + 1 : default_stamp, "stamp");
		opt.stamp = default_stamp;
	}
	make_dirs();
	if (pipe2(stamp_pipe, O_NONBLOCK) < 0)
		die("pipe2");
	/* the write end must be inherited, the read end need not */
	fcntl(stamp_pipe[0], F_SETFD, FD_CLOEXEC);
	snprintf(stamp_arg, sizeof stamp_arg, "%d", stamp_pipe[1]);

	struct utsname u;

	uname(&u);
	fprintf(out, "# spawnbench kernel=%s machine=%s cpus=%ld clock=CLOCK_MONOTONIC aslr=%s iters=%ld "
		"sweep_iters=%ld mem_iters=%ld warmup=%ld block=%ld tput=%ld tput_reps=%ld "
		"async_spawns=%ld async_work=%ld\n",
		u.release, u.machine, sysconf(_SC_NPROCESSORS_ONLN),
		personality(0xffffffff) & ADDR_NO_RANDOMIZE ? "off" : "on", opt.iters, opt.sweep_iters,
		opt.mem_iters, opt.warmup, opt.block, opt.tput, opt.tput_reps, opt.async_spawns,
		opt.async_work);
	for (size_t i = 0; i < N_METHODS; i++)
		if (methods[i].selected)
			fprintf(out, "# method %s: %s\n", methods[i].name,
				methods[i].unavailable ? methods[i].unavailable : "available");
	fprintf(out, "cell\tparam\tmethod\tmetric\tunit\tn\tmin\tmedian\tp90\tmean\tstatus\n");
	fflush(out);

	struct job job = { .path = stamp_path, .envp = empty_env };

	job.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (job.devnull < 0)
		die("/dev/null");
	posix_spawn_file_actions_init(&job.files);
	posix_spawnattr_init(&job.attr);

	uint64_t start = now_ns();

	cell_total = in_list(opt.cells, "base") + 4 * in_list(opt.cells, "memory") +
		     n_misses * in_list(opt.cells, "path") + 2 * in_list(opt.cells, "env") +
		     2 * in_list(opt.cells, "dup2") + in_list(opt.cells, "make-like") +
		     2 * in_list(opt.cells, "tput") + 3 * in_list(opt.cells, "async");
	if (in_list(opt.cells, "base"))
		latency_cell("base", "-", &job, opt.iters);
	if (in_list(opt.cells, "memory")) {
		static const struct { const char *name; size_t size; bool touch; } mem[] = {
			{ "small", 0, false },
			{ "256M-touched", 256ul << 20, true },
			{ "1G-touched", 1ul << 30, true },
			{ "1G-untouched", 1ul << 30, false },
		};
		for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
			int error = set_memory(mem[i].size, mem[i].touch);

			if (error) {
				char status[100];

				snprintf(status, sizeof status, "unavailable: mmap: %s", strerror(error));
				for (size_t m = 0; m < N_METHODS; m++)
					if (methods[m].selected)
						row_status("memory", mem[i].name, &methods[m], "first", status);
				continue;
			}
			latency_cell("memory", mem[i].name, &job,
				     mem[i].touch ? opt.mem_iters : opt.sweep_iters);
		}
		set_memory(0, false);
	}
	if (in_list(opt.cells, "path")) {
		char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

		for (int i = 0; i < n_misses; i++) {
			char param[8];

			snprintf(param, sizeof param, "%d", misses[i]);
			set_path(misses[i]);
			job.name = misses[i] ? "stamp" : NULL;	/* 0: the absolute path */
			job.misses = misses[i];
			latency_cell("path", param, &job, opt.sweep_iters);
		}
		job.name = NULL;
		job.misses = 0;
		if (saved)
			setenv("PATH", saved, 1);
		else
			unsetenv("PATH");
		free(saved);
	}
	if (in_list(opt.cells, "env")) {
		latency_cell("env", "empty", &job, opt.sweep_iters);
		job.envp = big_env();
		latency_cell("env", "30KiB", &job, opt.sweep_iters);
		job.envp = empty_env;
	}
	if (in_list(opt.cells, "dup2")) {
		latency_cell("dup2", "0", &job, opt.sweep_iters);
		set_actions(&job, false, 0, 3, NULL);
		latency_cell("dup2", "3", &job, opt.sweep_iters);
		set_actions(&job, false, 0, 0, NULL);
	}
	if (in_list(opt.cells, "make-like")) {
		/*
		 * GNU make 4.3's posix_spawn() of a recipe line: RESETIDS,
		 * its output (here /dev/null) onto 1 and 2, and a mask with
		 * no signal blocked
		 */
		static sigset_t unblocked;

		sigemptyset(&unblocked);
		set_actions(&job, true, 1, 2, &unblocked);
		latency_cell("make-like", "-", &job, opt.sweep_iters);
		set_actions(&job, false, 0, 0, NULL);
	}
	if (in_list(opt.cells, "tput")) {
		throughput_cell(&job, 1);
		throughput_cell(&job, 2);
	}
	if (in_list(opt.cells, "async")) {
		static const unsigned int ks[] = { 1, 8, ASYNC_MAX_K };

		for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
			async_cell(&job, ks[i]);
	}
	if (in_list(opt.cells, "syscall"))
		syscall_cell(opt.sweep_iters);
	fprintf(out, "# done in %.1f s\n", (double)(now_ns() - start) / 1e9);
	fprintf(stderr, "spawnbench: all cells done in %.1f s\n", (double)(now_ns() - start) / 1e9);
	remove_dirs();
	return fclose(out) == 0 ? 0 : 1;
}
