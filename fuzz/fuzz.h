/* SPDX-License-Identifier: MIT */
/*
 * What the seeded fuzzers of the series (clone-actions-fuzz, iouring-fuzz,
 * builder-fuzz) share: errno sets, a PRNG with one stream per call (so that
 * `--seed S --replay N` rebuilds call N alone), a snapshot of the calling
 * thread's state (fd table, cwd, umask, signal mask, process group, ids)
 * and the state a thread starts from, the work directory and the rows of
 * the paths calls name, checks for children that no call reported, reaping
 * with a time limit, the options they share and the phases they run in:
 *   single   one thread; the program checks for children after every call
 *   threads  --threads fuzzing threads and a waiter thread that must never
 *            see an exited child that no call returned (waitid() with
 *            WNOWAIT: the threads reap their own)
 *   storm    the same and a thread that sends SIGUSR1 storms to the process
 * A program includes this once (single translation unit), sets fz.name and
 * fz.unit, calls fuzz_parse(), sets fz_hooks and calls fuzz_run().
 */
#ifndef SPAWNLAB_FUZZ_H
#define SPAWNLAB_FUZZ_H

#include "../testlib/proc-children.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* the fds a state snapshot covers */
#define FUZZ_FDS 1100
#define MAX_THREADS 16
/* how long a spawning thread may take to claim its exited child before the waiter objects */
#define WAITER_GRACE_S 15

/* ---- errno sets ---- */

typedef struct {
	uint64_t w[2];
} errset;

static const errset ES_NONE;
static const errset ES_ANY = { { ~0ULL, ~0ULL } };

static errset es_list(const int *list)
{
	errset s = ES_NONE;

	for (; *list; list++)
		if (*list > 0 && *list < 128)
			s.w[*list / 64] |= 1ULL << (*list % 64);
	return s;
}
#define ES(...) es_list((const int[]){ __VA_ARGS__, 0 })

static errset es_or(errset a, errset b)
{
	return (errset){ { a.w[0] | b.w[0], a.w[1] | b.w[1] } };
}

static inline errset es_minus(errset a, errset b)
{
	return (errset){ { a.w[0] & ~b.w[0], a.w[1] & ~b.w[1] } };
}

static inline errset es_and(errset a, errset b)
{
	return (errset){ { a.w[0] & b.w[0], a.w[1] & b.w[1] } };
}

static bool es_has(errset s, int e)
{
	return e > 0 && e < 128 && (s.w[e / 64] >> (e % 64) & 1);
}

static bool es_empty(errset s)
{
	return !s.w[0] && !s.w[1];
}

static inline bool es_any(errset s)
{
	return s.w[0] == ~0ULL && s.w[1] == ~0ULL;
}

/* "EINVAL|ENOENT", "any errno", or nothing for the empty set */
static inline void print_errset(FILE *out, errset s)
{
	const char *sep = "";

	if (es_any(s)) {
		fprintf(out, "any errno");
		return;
	}
	for (int e = 1; e < 128; e++)
		if (es_has(s, e)) {
			fprintf(out, "%s%s", sep, strerrorname_np(e) ? strerrorname_np(e) : "?");
			sep = "|";
		}
}

/*
 * What copy_struct_from_user() gives for a struct the kernel knows as
 * ksize bytes, sent as usize bytes (ksize < usize <= a page) that end a
 * page, when the pointer is 8 bytes past the struct (so its last word is
 * in the PROT_NONE page that follows) and tail is the offset of the only
 * non-zero byte placed past ksize (or -1). The tail is checked word by
 * word before the copy: a non-zero byte it reaches before the unreadable
 * word is E2BIG, else the fault is EFAULT. The byte at tail is read at
 * offset tail - 8.
 */
static inline int straddled_struct_errno(size_t ksize, int tail)
{
	return tail >= 0 && (size_t)tail >= ksize + 8 ? E2BIG : EFAULT;
}

/* ---- options every fuzzer takes ---- */

static struct {
	const char *name; /* the program's, for messages */
	const char *unit; /* what one numbered step is: "call", "chain" */
	uint64_t seed;
	double seconds;
	long max_calls;
	int threads;
	const char *mode;
	long long replay;
	bool print;
	const char *exec; /* --exec: the program the children run */
	pid_t pid;
} fz = { .seconds = 60, .threads = 4, .mode = "all", .replay = -1 };

/* what a fuzzer plugs into the phases: per-thread setup, step no, per-thread teardown (optional) */
static struct {
	void (*setup)(int thread);
	void (*one)(int thread, long long no);
	void (*done)(int thread);
} fz_hooks;

/* ---- seeded PRNG: splitmix64, one stream per call ---- */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

static bool chance(struct rng *r, unsigned pct)
{
	return below(r, 100) < pct;
}

#define PICK(r, ...)                                                     \
	({                                                               \
		const uint64_t pick_[] = { __VA_ARGS__ };                \
		pick_[below(r, ARRAY_SIZE(pick_))];                      \
	})

/* the stream of call no: depends on the seed and no alone */
static struct rng rng_for(long long no)
{
	struct rng r = { fz.seed ^ ((uint64_t)no * 0xd1342543de82ef95ULL) };

	rnd(&r);
	return r;
}

/* ---- shared state and statistics ---- */

static atomic_llong next_call;
static atomic_long n_calls, n_violations, n_signals, n_waiter_polls;
static atomic_long n_errno[134];
static atomic_bool stop;
/* one thread and no waiter: the program checks for children itself */
static bool fz_single;
static struct timespec deadline;
static const char *phase = "single";
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* pids of successful calls not reaped yet, for the waiter thread */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t live[MAX_THREADS * 2];

static void live_set(pid_t old, pid_t new)
{
	pthread_mutex_lock(&live_lock);
	for (size_t i = 0; i < ARRAY_SIZE(live); i++)
		if (live[i] == old) {
			live[i] = new;
			break;
		}
	pthread_mutex_unlock(&live_lock);
}

static bool live_has(pid_t pid)
{
	bool found = false;

	pthread_mutex_lock(&live_lock);
	for (size_t i = 0; i < ARRAY_SIZE(live); i++)
		found |= live[i] == pid;
	pthread_mutex_unlock(&live_lock);
	return found;
}

static void count_errno(int e)
{
	atomic_fetch_add(&n_errno[e > 0 && e < 134 ? e : 0], 1);
}

/*
 * Starts the report of violation number n (returned) of step no (-1: of no
 * step) in thread (-1: none), holding out_lock: the caller prints the rest
 * and calls violation_end().
 */
static long violation_begin(long long no, int thread)
{
	long n = atomic_fetch_add(&n_violations, 1) + 1;

	pthread_mutex_lock(&out_lock);
	printf("VIOLATION %ld: seed %#" PRIx64 " %s %lld (%s, thread %d): ", n, fz.seed, fz.unit,
	       no, phase, thread);
	return n;
}

static void violation_end(void)
{
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* a violation that belongs to no step (the waiter's, a phase's end) */
static void violation_note(const char *fmt, ...)
{
	va_list ap;

	violation_begin(-1, -1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	violation_end();
}

/* a setup error: exit 2 */
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", fz.name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [--seconds N] [--calls N] [--seed S]\n"
			"         [--mode single|threads|storm|all] [--threads N] [--exec PATH]\n"
			"         [--replay N] [--print]\n", fz.name);
	exit(2);
}

/* ---- the calling thread's state ---- */

struct fuzz_state {
	bool open[FUZZ_FDS];
	struct fdsnap {
		int fdflags, flflags;
		dev_t dev;
		ino_t ino;
	} fd[FUZZ_FDS];
	char cwd[PATH_MAX];
	mode_t umask;
	uint64_t mask;
	pid_t pgrp, sid;
	uid_t uid[3];
	gid_t gid[3];
};

static void take_state(struct fuzz_state *s)
{
	sigset_t mask;

	for (int fd = 0; fd < FUZZ_FDS; fd++) {
		struct fdsnap *d = &s->fd[fd];
		struct stat st;

		d->fdflags = fcntl(fd, F_GETFD);
		s->open[fd] = d->fdflags >= 0;
		if (!s->open[fd])
			continue;
		d->flflags = fcntl(fd, F_GETFL);
		d->dev = fstat(fd, &st) ? 0 : st.st_dev;
		d->ino = st.st_ino;
	}
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		snprintf(s->cwd, sizeof(s->cwd), "(getcwd: %s)", strerror(errno));
	s->umask = umask(0);
	umask(s->umask);
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	s->mask = 0;
	for (int sig = 1; sig <= 64; sig++)
		if (sigismember(&mask, sig) == 1)
			s->mask |= 1ULL << (sig - 1);
	s->pgrp = getpgrp();
	s->sid = getsid(0);
	getresuid(&s->uid[0], &s->uid[1], &s->uid[2]);
	getresgid(&s->gid[0], &s->gid[1], &s->gid[2]);
}

/*
 * What changed from a to b (why says how): 1 for the fd table, 3 for the
 * rest (cwd, umask, signal mask, process group, session, ids), 0 if nothing.
 */
static int state_diff(const struct fuzz_state *a, const struct fuzz_state *b, char *why, size_t n)
{
	for (int fd = 0; fd < FUZZ_FDS; fd++) {
		const struct fdsnap *x = &a->fd[fd], *y = &b->fd[fd];

		if (a->open[fd] != b->open[fd] ||
		    (a->open[fd] && (x->fdflags != y->fdflags || x->flflags != y->flflags ||
				     x->dev != y->dev || x->ino != y->ino))) {
			snprintf(why, n, "the caller's fd %d changed (%s)", fd,
				 !b->open[fd] ? "closed" : !a->open[fd] ? "new" : "other file or flags");
			return 1;
		}
	}
	if (strcmp(a->cwd, b->cwd))
		snprintf(why, n, "the caller's cwd changed from %s to %s", a->cwd, b->cwd);
	else if (a->umask != b->umask)
		snprintf(why, n, "the caller's umask changed from %#o to %#o", a->umask, b->umask);
	else if (a->mask != b->mask)
		snprintf(why, n, "the calling thread's signal mask changed from %#" PRIx64 " to %#" PRIx64,
			 a->mask, b->mask);
	else if (a->pgrp != b->pgrp || a->sid != b->sid)
		snprintf(why, n, "the caller's process group/session changed from %d/%d to %d/%d",
			 a->pgrp, a->sid, b->pgrp, b->sid);
	else if (memcmp(a->uid, b->uid, sizeof(a->uid)) || memcmp(a->gid, b->gid, sizeof(a->gid)))
		snprintf(why, n, "the caller's ids changed");
	else
		return 0;
	return 3;
}

static struct sigaction dispositions[65];

static void save_dispositions(void)
{
	for (int sig = 1; sig <= 64; sig++)
		sigaction(sig, NULL, &dispositions[sig]);
}

static const char *dispositions_diff(char *why, size_t n)
{
	for (int sig = 1; sig <= 64; sig++) {
		struct sigaction now;

		if (sigaction(sig, NULL, &now))
			continue;
		if (now.sa_handler != dispositions[sig].sa_handler ||
		    now.sa_flags != dispositions[sig].sa_flags) {
			snprintf(why, n, "the disposition of signal %d changed", sig);
			return why;
		}
	}
	return NULL;
}

/*
 * What a thread's calls start from (after it made its own fd table and
 * fs_struct and its descriptors): cwd work, umask 022, SIGUSR2 and SIGTERM
 * blocked; *before is that state.
 */
static inline void fuzz_thread_state(const char *work, struct fuzz_state *before)
{
	sigset_t mask;

	if (chdir(work))
		die("chdir %s: %s", work, strerror(errno));
	umask(022);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGTERM);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	take_state(before);
}

/* ---- the work directory and the paths calls name ---- */

/*
 * A new directory in $TMPDIR (name: PREFIX-XXXXXX) into work (PATH_MAX):
 * noexec, a file no one can exec; link, a symlink to tiny; sub, empty.
 */
static inline void fuzz_work_dir(const char *prefix, const char *tiny, char *work)
{
	char path[PATH_MAX + 16];
	int fd;

	snprintf(work, PATH_MAX, "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
	if (!mkdtemp(work) || chmod(work, 0755))
		die("mkdtemp %s: %s", work, strerror(errno));
	snprintf(path, sizeof(path), "%s/noexec", work);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || close(fd))
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/link", work);
	if (symlink(tiny, path))
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/sub", work);
	if (mkdir(path, 0755))
		die("%s: %s", path, strerror(errno));
}

/* a path a call names: what it is, and what the model knows of it */
enum path_kind { PK_ABS, PK_REL, PK_EMPTY, PK_TOOLONG, PK_FAULT };

struct path_row {
	const char *name;
	enum path_kind kind;
	int target;	 /* PK_ABS */
	const char *rel; /* PK_REL */
};

/* the index of pointer p in v[n] (a path, a string vector), or -1 */
static inline int fuzz_index_of(const uint64_t *v, int n, uint64_t p)
{
	for (int i = 0; i < n; i++)
		if (v[i] == p)
			return i;
	return -1;
}

/* ---- children ---- */

/*
 * No child may be left, in single mode: waitid() sees live children and
 * zombies; with scan, /proc also shows one that wait() hides (EXIT_DEAD
 * but never released), which stays there. NULL, or why says which.
 */
static const char *children(char *why, size_t n, bool scan)
{
	siginfo_t si = { 0 };
	DIR *proc;
	struct dirent *d;

	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0) {
		snprintf(why, n, "a child is left (waitid: pid %d%s)", si.si_pid,
			 si.si_pid ? ", exited" : " none exited");
		return why;
	}
	proc = scan ? opendir("/proc") : NULL;
	while (proc && (d = readdir(proc))) {
		char buf[512];
		const char *fields;
		char state;
		int ppid;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		fields = proc_stat_fields(d->d_name, buf, sizeof(buf));
		if (fields && sscanf(fields, "%c %d", &state, &ppid) == 2 && ppid == fz.pid) {
			snprintf(why, n, "a child is left: /proc/%s, state %c", d->d_name, state);
			closedir(proc);
			return why;
		}
	}
	if (proc)
		closedir(proc);
	return NULL;
}

/* the pid a pidfd of this thread names (fdinfo), or -1 */
static int pidfd_pid(int pidfd)
{
	char path[64], buf[512], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/thread-self/fdinfo/%d", pidfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	p = strstr(buf, "\nPid:");
	return p ? atoi(p + 5) : -1;
}

/*
 * Waits up to timeout_ms for child pid to exit (polling pidfd if it is one
 * that names it, else one of its own), SIGKILLs it then, and reaps it into
 * *si; false if it had to be killed.
 */
static bool reap_child(pid_t pid, int pidfd, int timeout_ms, siginfo_t *si)
{
	int pfd = pidfd >= 0 ? pidfd : (int)syscall(SYS_pidfd_open, pid, 0);
	struct timespec t0, t1;
	bool exited = true;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (pfd >= 0) {
		struct pollfd p = { pfd, POLLIN, 0 };
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = timeout_ms - ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0) {
			exited = false;
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&p, 1, (int)ms) > 0)
			break;
	}
	if (pfd >= 0 && pfd != pidfd)
		close(pfd);
	memset(si, 0, sizeof(*si));
	while (waitid(P_PID, pid, si, WEXITED | __WALL) < 0 && errno == EINTR)
		continue;
	return exited;
}

/* ---- phases ---- */

static void on_sigusr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&n_signals, 1);
}

/*
 * What both need of the process: fds 0-2 open, SIGUSR1 counted (storms),
 * SIGTERM and SIGPIPE ignored, SIGCHLD default; the dispositions saved.
 */
static void fuzz_process_setup(void)
{
	struct sigaction sa = { .sa_handler = on_sigusr1, .sa_flags = SA_RESTART };

	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			die("cannot fill fd %d", fd);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	save_dispositions();
}

static bool past_deadline(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline.tv_sec ||
	       (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

static void *fuzz_thread(void *arg)
{
	int id = (int)(intptr_t)arg;

	fz_hooks.setup(id);
	while (!atomic_load(&stop)) {
		long long no = atomic_fetch_add(&next_call, 1);

		if (fz.max_calls && no >= fz.max_calls) {
			atomic_store(&stop, true);
			break;
		}
		fz_hooks.one(id, no);
		if (past_deadline())
			atomic_store(&stop, true);
	}
	if (fz_hooks.done)
		fz_hooks.done(id);
	return NULL;
}

/*
 * With other threads spawning: an exited child that no successful call
 * returned must never be visible, even for a moment that lasts. WNOWAIT:
 * the threads reap their own children.
 */
static void *waiter_thread(void *arg)
{
	struct suspect {
		pid_t pid;
		struct timespec since;
	} sus[8] = { 0 };

	(void)arg;
	while (!atomic_load(&stop)) {
		siginfo_t si = { 0 };
		struct timespec now;

		atomic_fetch_add(&n_waiter_polls, 1);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 && si.si_pid &&
		    !live_has(si.si_pid)) {
			bool known = false;

			for (size_t i = 0; i < ARRAY_SIZE(sus); i++)
				known |= sus[i].pid == si.si_pid;
			for (size_t i = 0; i < ARRAY_SIZE(sus) && !known; i++)
				if (!sus[i].pid) {
					sus[i] = (struct suspect){ si.si_pid, now };
					break;
				}
		}
		for (size_t i = 0; i < ARRAY_SIZE(sus); i++) {
			siginfo_t s2 = { 0 };

			if (!sus[i].pid)
				continue;
			/* gone, or claimed by the thread that spawned it: fine */
			if (live_has(sus[i].pid) ||
			    waitid(P_PID, sus[i].pid, &s2, WEXITED | WNOHANG | WNOWAIT | __WALL) ||
			    !s2.si_pid) {
				sus[i].pid = 0;
			} else if (now.tv_sec - sus[i].since.tv_sec > WAITER_GRACE_S) {
				violation_note("invariant 2: pid %d is a waitable child that no %s returned (for %d s)",
					       sus[i].pid, fz.unit, WAITER_GRACE_S);
				waitid(P_PID, sus[i].pid, &s2, WEXITED | __WALL);
				sus[i].pid = 0;
			}
		}
		usleep(300);
	}
	return NULL;
}

static void *storm_thread(void *arg)
{
	struct rng r = { fz.seed ^ 0x5707 };

	(void)arg;
	while (!atomic_load(&stop)) {
		for (uint32_t n = below(&r, 64); n; n--)
			kill(fz.pid, SIGUSR1);
		usleep(below(&r, 2000));
	}
	return NULL;
}

/* runs one phase: nthreads fuzzing threads, with the waiter and storm threads if asked */
static void run_phase(const char *name, int nthreads, bool waiter, bool storm, double seconds)
{
	pthread_t w, s, t[MAX_THREADS];
	char why[512];
	long before = atomic_load(&n_calls);

	phase = name;
	fz_single = nthreads == 1 && !waiter;
	atomic_store(&stop, false);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += (time_t)seconds;
	deadline.tv_nsec += (long)((seconds - (time_t)seconds) * 1e9);
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	if (waiter)
		pthread_create(&w, NULL, waiter_thread, NULL);
	if (storm)
		pthread_create(&s, NULL, storm_thread, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, fuzz_thread, (void *)(intptr_t)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	atomic_store(&stop, true);
	if (waiter)
		pthread_join(w, NULL);
	if (storm)
		pthread_join(s, NULL);
	if (children(why, sizeof(why), true))
		violation_note("invariant 2 at the end of phase %s: %s", name, why);
	printf("phase %s: %ld %ss\n", name, atomic_load(&n_calls) - before, fz.unit);
	fflush(stdout);
}

/* ---- options, the run, the summary ---- */

/*
 * Parses the options (--seconds N, --calls N, --seed S, --mode M,
 * --threads N, --replay N, --exec PATH, --print); without --seed, picks
 * one from the clock.
 */
static void fuzz_parse(int argc, char **argv)
{
	bool seeded = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fz.pid = getpid();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--print")) {
			fz.print = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seconds"))
			fz.seconds = strtod(v, NULL);
		else if (!strcmp(a, "--calls"))
			fz.max_calls = strtol(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			fz.seed = strtoull(v, NULL, 0), seeded = true;
		else if (!strcmp(a, "--mode"))
			fz.mode = v;
		else if (!strcmp(a, "--threads"))
			fz.threads = atoi(v);
		else if (!strcmp(a, "--replay"))
			fz.replay = strtoll(v, NULL, 0);
		else if (!strcmp(a, "--exec"))
			fz.exec = v;
		else
			usage();
	}
	if (fz.threads < 1 || fz.threads > MAX_THREADS)
		die("--threads must be 1 to %d", MAX_THREADS);
	if (strcmp(fz.mode, "all") && strcmp(fz.mode, "single") && strcmp(fz.mode, "threads") &&
	    strcmp(fz.mode, "storm"))
		usage();
	if (!seeded) {
		struct timespec t;

		clock_gettime(CLOCK_REALTIME, &t);
		fz.seed = ((uint64_t)t.tv_nsec << 20) ^ (uint64_t)t.tv_sec ^ ((uint64_t)getpid() << 40);
	}
}

/* --replay N alone, or the phases --mode asks for (all: a third of the time each); seconds taken */
static double run_phases(void)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (fz.replay >= 0) {
		fz.print = true;
		fz.max_calls = fz.replay + 1;
		atomic_store(&next_call, fz.replay);
		run_phase("replay", 1, false, false, 3600);
	} else {
		bool all = !strcmp(fz.mode, "all");
		double part = all ? fz.seconds / 3 : fz.seconds;

		if (all || !strcmp(fz.mode, "single"))
			run_phase("single", 1, false, false, part);
		if (all || !strcmp(fz.mode, "threads"))
			run_phase("threads", fz.threads, true, false, part);
		if (all || !strcmp(fz.mode, "storm"))
			run_phase("storm", fz.threads, true, true, part);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* "EINVAL 3, ENOENT 5" from n_errno */
static void print_errno_counts(void)
{
	for (int e = 0, first = 1; e < 134; e++) {
		long n = atomic_load(&n_errno[e]);

		if (n) {
			printf("%s%s %ld", first ? "" : ", ",
			       e && strerrorname_np(e) ? strerrorname_np(e) : "other", n);
			first = 0;
		}
	}
}

/*
 * The run, fz_hooks set and the program's setup done: the phases, then
 * cleanup(), summary(seconds taken) and the verdict; returns the exit status.
 */
static int fuzz_run(void (*cleanup)(void), void (*summary)(double seconds))
{
	double seconds = run_phases();

	cleanup();
	summary(seconds);
	printf("SIGUSR1 handled %ld, waiter polls %ld; violations %ld\n", atomic_load(&n_signals),
	       atomic_load(&n_waiter_polls), atomic_load(&n_violations));
	if (atomic_load(&n_violations)) {
		printf("FAIL: %ld violations; each prints its replay command\n", atomic_load(&n_violations));
		return 1;
	}
	printf("PASS\n");
	return 0;
}

#endif
