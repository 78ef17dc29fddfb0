/* Suite load: concurrency and volume; nothing may grow or be left behind. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(load);

/* Spawn tiny exiting with code, and wait for it. */
static void run_tiny(int code)
{
	char arg[12];
	struct tiny tiny;
	struct compat_spawn request;

	snprintf(arg, sizeof arg, "%d", code);
	tiny_request(&tiny, &request, arg, NULL);
	expect_exit(spawn_ok(&request), code);
}

Test(load, two_thousand_spawns_leave_nothing)
{
	char *before = parent_state();

	for (int i = 0; i < 2000; i++)
		run_tiny(i % 200);
	expect_no_children();
	cr_assert_str_eq(parent_state(), before);
}

Test(load, a_hundred_failures_leave_nothing)
{
	struct tiny tiny;
	struct compat_spawn request;
	char *before = parent_state();

	tiny_request(&tiny, &request, NULL, NULL);
	for (int i = 0; i < 50; i++) {
		request.path = "/spawnlab/missing";
		spawn_fails(&request, ENOENT, COMPAT_STEP_EXEC);
		request.path = program("tiny");
		ACTIONS(request, compat_chdir("/spawnlab/missing"));
		spawn_fails(&request, ENOENT, 0);
		request.n_actions = 0;
	}
	cr_assert_str_eq(parent_state(), before);
}

enum { THREADS = 4, SPAWNS_PER_THREAD = 25 };

struct worker {
	pthread_t thread;
	int index;
	const struct compat_backend *backend;
	const char *tiny;
	int failures;
};

/* No criterion assertions off the main thread: count failures instead. */
static void *spawn_from_thread(void *arg)
{
	struct worker *worker = arg;

	for (int i = 0; i < SPAWNS_PER_THREAD; i++) {
		int code = worker->index * SPAWNS_PER_THREAD + i, status;
		char code_arg[12];
		char *argv[] = { "tiny", code_arg, NULL };
		struct compat_spawn request = { .path = worker->tiny, .argv = argv };
		struct compat_result result;

		snprintf(code_arg, sizeof code_arg, "%d", code);
		if (compat_spawn(worker->backend, &request, &result) != 0 ||
		    waitpid(result.pid, &status, 0) != result.pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != code)
			worker->failures++;
	}
	return NULL;
}

Test(load, four_threads_at_once)
{
	struct worker workers[THREADS];
	char *before = parent_state();

	for (int i = 0; i < THREADS; i++) {
		workers[i] = (struct worker){
			.index = i, .backend = backend(), .tiny = program("tiny")
		};
		cr_assert_eq(pthread_create(&workers[i].thread, NULL, spawn_from_thread, &workers[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		cr_assert_eq(pthread_join(workers[i].thread, NULL), 0);
		cr_assert_eq(workers[i].failures, 0, "thread %d: %d spawns went wrong", i,
			     workers[i].failures);
	}
	expect_no_children();
	cr_assert_str_eq(parent_state(), before);
}

static long resident_pages(void)
{
	long total, resident;
	FILE *statm = fopen("/proc/self/statm", "re");

	cr_assert(statm != NULL);
	cr_assert_eq(fscanf(statm, "%ld %ld", &total, &resident), 2);
	fclose(statm);
	return resident;
}

/* 256 MiB of private pages, written (MAP_POPULATE write-faults them all). */
Test(load, large_touched_parent)
{
	size_t size = 256u << 20;
	long page = sysconf(_SC_PAGESIZE), before = resident_pages();
	char *memory = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	cr_assert_neq(memory, MAP_FAILED, "mmap: %s", strerror(errno));
	cr_assert_geq(resident_pages() - before, (long)(size / (size_t)page));
	for (int i = 0; i < 10; i++)
		run_tiny(i);
	cr_assert_eq(munmap(memory, size), 0);
}

static pid_t test_pid;
static atomic_int delivered, ran_elsewhere;
static atomic_bool stop_pestering;

/* Counts deliveries here, and runs in a child (which shares our memory). */
static void count_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(getpid() == test_pid ? &delivered : &ran_elsewhere, 1);
}

/* SIGWINCH to our process group, children in their setup included. */
static void *pester(void *unused)
{
	const struct timespec pause = { .tv_nsec = 50 * 1000 };

	(void)unused;
	while (!atomic_load(&stop_pestering)) {
		kill(0, SIGWINCH);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/*
 * Spawns go on while signals arrive, and the caller's handler never runs in
 * a child: one that gets the signal before its exec takes it as SIG_DFL
 * (ignored for SIGWINCH). The test has a process group of its own.
 */
Test(load, spawn_while_signalled)
{
	struct sigaction counting = { .sa_handler = count_signal, .sa_flags = SA_RESTART };
	pthread_t pesterer;

	test_pid = getpid();
	own_process_group();
	cr_assert_eq(sigaction(SIGWINCH, &counting, NULL), 0);
	cr_assert_eq(pthread_create(&pesterer, NULL, pester, NULL), 0);
	for (int i = 0; i < 50; i++)
		run_tiny(i);
	atomic_store(&stop_pestering, true);
	cr_assert_eq(pthread_join(pesterer, NULL), 0);
	cr_assert_gt(atomic_load(&delivered), 0);
	cr_assert_eq(atomic_load(&ran_elsewhere), 0, "the caller's handler ran in a child");
	expect_no_children();
}
