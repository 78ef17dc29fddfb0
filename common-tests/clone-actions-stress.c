/*
 * clone-actions-stress: many clone3(CLONE_ACTIONS) spawns, memory before/after.
 *
 * Usage: clone-actions-stress [N]   (default 10000)
 * Every tenth spawn fails on purpose (close of an fd that is not open) and
 * must leave nothing behind; the others exec /bin/true and are reaped.
 * Prints MemAvailable, Slab and a few slab caches' active objects after a
 * warm-up, at half-way and at the end. KASAN's quarantine holds freed objects
 * for a while, so a leak shows as growth in the second half, when the
 * quarantine is full; the run fails when that growth passes the limits below
 * or when any spawn misbehaves.
 *
 * Built by common-tests/clone-actions.mk.
 */
#include "clone-actions-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 500
/* second-half growth limits */
#define MAX_AVAIL_DROP_KB (16 * 1024)
#define MAX_OBJ_GROWTH 500

static const char *const caches[] = { "task_struct", "pid", "files_cache", "fs_cache",
				      "sighand_cache", "signal_cache", "cred_jar", "filp" };
#define NCACHES (sizeof(caches) / sizeof(caches[0]))

struct sample {
	long avail_kb, slab_kb;
	long objs[NCACHES];
};

static long meminfo(const char *key)
{
	char line[256];
	long value = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			value = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return value;
}

static void sample(struct sample *s)
{
	char line[512], name[64];
	long active;
	FILE *f;

	s->avail_kb = meminfo("MemAvailable");
	s->slab_kb = meminfo("Slab");
	for (size_t i = 0; i < NCACHES; i++)
		s->objs[i] = -1;
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld", name, &active) != 2)
			continue;
		for (size_t i = 0; i < NCACHES; i++)
			if (!strcmp(name, caches[i]))
				s->objs[i] = active;
	}
	fclose(f);
}

static void print(const char *label, const struct sample *s)
{
	printf("%-8s MemAvailable %ld kB, Slab %ld kB", label, s->avail_kb, s->slab_kb);
	for (size_t i = 0; i < NCACHES; i++)
		if (s->objs[i] >= 0)
			printf(", %s %ld", caches[i], s->objs[i]);
	printf("\n");
}

static char *const argv[] = { "true", NULL };
static char *const envp[] = { NULL };

static int one_spawn(long i)
{
	struct clone_action list[3] = {
		{ .kind = CLONE_ACTION_CLOSE_RANGE, .close_range = { 3, ~0U, 0 } },
		{ .kind = CLONE_ACTION_DUP2, .dup2 = { 2, 2 } },
		{ .kind = CLONE_ACTION_EXECVEAT,
		  .execveat = { .dirfd = AT_FDCWD, .path = CA_PTR("/bin/true"), .argv = CA_PTR(argv),
				.envp = CA_PTR(envp) } },
	};
	uint32_t failed = 0;
	int pidfd = -1, status;
	long pid;

	if (i % 10 == 9)
		list[1] = (struct clone_action){ .kind = CLONE_ACTION_CLOSE, .close = { 500 } };
	pid = ca_spawn(list, 3, i % 3 ? 0 : CLONE_PIDFD, &pidfd, &failed);
	if (i % 10 == 9) {
		if (pid != -1 || errno != EBADF || failed != 1) {
			fprintf(stderr, "spawn %ld: expected EBADF at 1, got %ld (%s) at %u\n", i,
				pid, strerror(errno), failed);
			return -1;
		}
		return 0;
	}
	if (pid <= 0) {
		fprintf(stderr, "spawn %ld: %s at %u\n", i, strerror(errno), failed);
		return -1;
	}
	if (waitpid((pid_t)pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "spawn %ld: bad exit %#x\n", i, status);
		return -1;
	}
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

int main(int argc, char **argv_main)
{
	long n = argc > 1 ? strtol(argv_main[1], NULL, 10) : 10000;
	struct sample start, mid, end;
	struct timespec t0, t1;
	siginfo_t info;
	long i, bad = 0;

	signal(SIGCHLD, SIG_DFL);
	for (i = 0; i < WARMUP; i++)
		bad += one_spawn(i) != 0;
	sample(&start);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		bad += one_spawn(i) != 0;
		if (i == n / 2)
			sample(&mid);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sample(&end);
	print("start", &start);
	print("half", &mid);
	print("end", &end);
	printf("spawns %ld (%ld failing on purpose), unexpected results %ld, %.1f us per spawn\n",
	       n, n / 10, bad,
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n);
	if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | __WALL) != -1 || errno != ECHILD) {
		printf("FAIL: a child is left\n");
		return 1;
	}
	if (bad) {
		printf("FAIL: %ld unexpected results\n", bad);
		return 1;
	}
	if (mid.avail_kb - end.avail_kb > MAX_AVAIL_DROP_KB) {
		printf("FAIL: MemAvailable fell by %ld kB in the second half\n",
		       mid.avail_kb - end.avail_kb);
		return 1;
	}
	for (size_t c = 0; c < NCACHES; c++)
		if (mid.objs[c] >= 0 && end.objs[c] - mid.objs[c] > MAX_OBJ_GROWTH) {
			printf("FAIL: %s grew by %ld objects in the second half\n", caches[c],
			       end.objs[c] - mid.objs[c]);
			return 1;
		}
	printf("PASS\n");
	return 0;
}
