// SPDX-License-Identifier: MIT
/*
 * Stress test of IORING_OP_CLONE/EXEC (series-iouring), run in the guest on
 * the debug kernel:
 *
 *   iouring-stress [-n SPAWNS] [-t THREADS] [-s]
 *
 * Phase 1 (skipped with -s) spawns SPAWNS children one after the other from one plain ring;
 * phase 2 spawns SPAWNS children in total from THREADS threads at once,
 * each with its own ring, in turn plain and DEFER_TASKRUN|SINGLE_ISSUER (the
 * series refuses CLONE on SQPOLL rings and with IOSQE_ASYNC: ABI tests).
 * Every spawn is CLONE + EXEC of
 * iouring-child (next to this binary), its two CQEs are checked and the
 * child is reaped by the pid of the CLONE CQE. A CQE that takes more than
 * 60 s is a stuck spawn. A CLONE that fails with -EINTR (a signal pending
 * for the thread, see spawn_one()) is retried and counted. MemAvailable
 * and SUnreclaim (/proc/meminfo, after shrinking the slab caches) are
 * printed after a warm-up and after each phase; growth beyond the limits
 * below is a failure. Exit status 0 when everything passed.
 */
#include "iouring-spawn.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* allowed growth over the run; slab churn and page cache stay below */
#define MAX_SLAB_GROWTH_KB	(8 * 1024)
#define MAX_AVAIL_DROP_KB	(16 * 1024)

static char child_path[PATH_MAX + 32];
static int failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	failures++;
	if (failures <= 20) {
		va_start(ap, fmt);
		fputs("FAIL: ", stdout);
		vprintf(fmt, ap);
		putchar('\n');
		fflush(stdout);
		va_end(ap);
	}
	pthread_mutex_unlock(&fail_lock);
}

static long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			val = atol(line + len + 1);
			break;
		}
	fclose(f);
	return val;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct worker {
	pthread_t thread;
	unsigned int setup_flags;
	const char *name;
	int spawns;
	int done;
};

static int clone_eintr;

/* one spawn: CLONE + EXEC, two CQEs, reap; 0 when all is well, 1: retry */
static int spawn_one(struct io_uring *ring, struct worker *w, int i)
{
	struct __kernel_timespec ts = { .tv_sec = 60 };
	char *argv[] = { "iouring-child", "0", NULL };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int res[2], k, ret, status;
	pid_t got;

	sqe = io_uring_get_sqe(ring);
	io_uring_prep_clone(sqe, 0);
	sqe->flags |= IOSQE_IO_LINK;
	sqe->user_data = 1;
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_exec(sqe, child_path, argv, environ);
	sqe->user_data = 2;
	ret = io_uring_submit(ring);
	if (ret < 0) {
		fail("%s spawn %d: submit: %s", w->name, i, strerror(-ret));
		return -1;
	}
	for (k = 0; k < 2; k++) {
		/* a signal may interrupt the wait: wait again */
		do {
			ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		} while (ret == -EINTR);
		if (ret) {
			fail("%s spawn %d: CQE %d: %s (stuck?)", w->name, i, k + 1,
			     strerror(-ret));
			return -1;
		}
		if (cqe->user_data != (__u64)k + 1)
			fail("%s spawn %d: CQE %d has user_data %llu", w->name, i,
			     k + 1, (unsigned long long)cqe->user_data);
		res[k] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	if (res[0] == -EINTR && res[1] == -ECANCELED) {
		/*
		 * A signal was pending for this thread when CLONE ran inline
		 * (the SIGCHLD of another thread's child): copy_process()
		 * refuses to fork then, and io_uring cannot restart the fork
		 * the way the fork() system call does. Nothing was spawned.
		 */
		__atomic_add_fetch(&clone_eintr, 1, __ATOMIC_RELAXED);
		return 1;
	}
	if (res[0] <= 0 || res[1] != 0) {
		fail("%s spawn %d: CLONE %d EXEC %d", w->name, i, res[0], res[1]);
		return -1;
	}
	do {
		got = waitpid(res[0], &status, 0);
	} while (got < 0 && errno == EINTR);
	if (got != res[0] || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fail("%s spawn %d: waitpid(%d) = %d status %#x", w->name, i,
		     res[0], got, status);
		return -1;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct io_uring_params p = { .flags = w->setup_flags,
				     .sq_thread_idle = 100 };
	struct io_uring ring;
	int i, ret;

	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret) {
		fail("%s: ring setup: %s", w->name, strerror(-ret));
		return NULL;
	}
	for (i = 0; i < w->spawns; i++) {
		ret = spawn_one(&ring, w, i);
		if (ret > 0) {
			i--;
			continue;
		}
		if (ret < 0)
			break;
		w->done++;
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

/*
 * Make the numbers comparable: shrink every slab cache, which also empties
 * KASAN's quarantine of freed objects (it holds up to 1/32 of memory and
 * would otherwise look like growth), and drop clean caches when possible.
 */
static void settle(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	FILE *f;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	if (f) {
		fputs("3\n", f);
		fclose(f);
	}
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		f = fopen(path, "w");
		if (f) {
			fputs("1\n", f);
			fclose(f);
		}
	}
	closedir(d);
}

static void snapshot(const char *when, long *avail, long *slab)
{
	settle();
	*avail = meminfo_kb("MemAvailable");
	*slab = meminfo_kb("SUnreclaim");
	printf("%-18s MemAvailable %8ld kB  SUnreclaim %8ld kB  Slab %8ld kB\n",
	       when, *avail, *slab, meminfo_kb("Slab"));
	fflush(stdout);
}


int main(int argc, char *argv[])
{
	static const struct worker kinds[] = {
		{ .setup_flags = 0, .name = "plain" },
		{ .setup_flags = IORING_SETUP_DEFER_TASKRUN |
				 IORING_SETUP_SINGLE_ISSUER,
		  .name = "defer_taskrun" },
	};
	long avail0, slab0, avail1, slab1, avail2, slab2;
	int spawns = 10000, nthreads = 4, opt, i, total, skip_phase1 = 0;
	struct worker *workers, one;
	char self[PATH_MAX], *slash;
	ssize_t n;
	double t0;

	while ((opt = getopt(argc, argv, "n:t:s")) != -1) {
		switch (opt) {
		case 's':
			skip_phase1 = 1;
			break;
		case 'n':
			spawns = atoi(optarg);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n SPAWNS] [-t THREADS] [-s]\n",
				argv[0]);
			return 2;
		}
	}
	if (spawns < 1 || nthreads < 1)
		return 2;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(child_path, sizeof(child_path), "%s/iouring-child", self);
	if (access(child_path, X_OK)) {
		fprintf(stderr, "%s: %s\n", child_path, strerror(errno));
		return 2;
	}
	if (!iou_spawn_supported()) {
		printf("SKIP: kernel has no IORING_OP_CLONE/EXEC (probe)\n");
		return 77;
	}

	/* warm-up: caches, slabs, page cache of the child binary */
	memset(&one, 0, sizeof(one));
	one.name = "warm-up";
	one.spawns = 200;
	worker_main(&one);
	snapshot("before", &avail0, &slab0);

	if (!skip_phase1) {
		memset(&one, 0, sizeof(one));
		one.name = "sequential";
		one.spawns = spawns;
		t0 = now();
		worker_main(&one);
		printf("phase 1: %d/%d sequential spawns in %.1f s\n", one.done,
		       spawns, now() - t0);
		snapshot("after phase 1", &avail1, &slab1);
	}

	workers = calloc(nthreads, sizeof(*workers));
	if (!workers)
		return 2;
	total = 0;
	t0 = now();
	for (i = 0; i < nthreads; i++) {
		workers[i] = kinds[i % (sizeof(kinds) / sizeof(kinds[0]))];
		workers[i].spawns = spawns / nthreads +
				    (i < spawns % nthreads ? 1 : 0);
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i])) {
			fail("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(workers[i].thread, NULL);
		printf("  thread %d (%s): %d/%d spawns\n", i, workers[i].name,
		       workers[i].done, workers[i].spawns);
		total += workers[i].done;
	}
	printf("phase 2: %d/%d spawns from %d threads in %.1f s\n", total,
	       spawns, nthreads, now() - t0);
	snapshot("after phase 2", &avail2, &slab2);

	if (waitpid(-1, NULL, WNOHANG | __WALL) != -1 || errno != ECHILD)
		fail("children left behind");
	i = iou_count_spawn_tasks();
	if (i)
		fail("%d iou-spawn tasks left", i);
	printf("SUnreclaim growth %ld kB, MemAvailable drop %ld kB; CLONE -EINTR retried %d times\n",
	       slab2 - slab0, avail0 - avail2, clone_eintr);
	if (slab2 - slab0 > MAX_SLAB_GROWTH_KB)
		fail("SUnreclaim grew by %ld kB", slab2 - slab0);
	if (avail0 - avail2 > MAX_AVAIL_DROP_KB)
		fail("MemAvailable dropped by %ld kB", avail0 - avail2);

	printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
