/*
 * shimtest: the posix_spawn shim's tests (DESIGN.md, "The posix_spawn shim").
 *
 *   shimtest OUTDIR                every backend, strict and fallback:
 *                                  OUTDIR/shim-BACKEND-MODE.tap
 *   shimtest OUTDIR BACKEND MODE   one backend in one mode
 *   shimtest case NAME SCRATCH     one case, in this process
 *
 * Each case makes posix_spawn or posix_spawnp calls (most spawn "probe",
 * which reports its state) and prints what came of them: return value,
 * errno on failure, the pid, the child's state and status, and whether the
 * caller's state changed. The harness runs every case twice in a process
 * of its own, under plain glibc and with LD_PRELOAD=libspawnshim.so, and
 * one TAP test per case holds that both printed the same and that the
 * shim's counts show every call routed; or, where the case's pin says the
 * backend cannot express it (or the kernel lacks the backend), that every
 * call was refused with ENOTSUP and counted (strict, a TAP skip), or ran
 * in glibc and was counted (fallback). Lines starting with '~' are
 * promises of the shim that glibc does not keep (errno kept on success):
 * left out of the comparison, and never printed under the shim.
 * libspawnshim.so, probe and tiny are found next to this program.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcompat.h"

#define REPORT_FD 100		/* the probe's report pipe, out of the cases' way */
#define SENTINEL_ERRNO EDOM
#define SENTINEL_PID (-7)

static char here[PATH_MAX];	/* this program's directory */
static const char *scratch;
static posix_spawn_file_actions_t fa;
static posix_spawnattr_t attr;
static char *probe_argv[] = { "probe", "100", "x y", NULL };
static char *child_env[] = { "SHIMTEST=1", "A=b c", NULL };

/* --- one case, in this process ------------------------------------------- */

struct call {
	bool search, null_envp, null_pid, null_path;
	const char *path;	/* NULL: the probe */
	char *const *argv;	/* NULL: probe_argv */
	bool with_fa, with_attr;
	bool fill_fds;		/* the fd table full up to the soft limit */
};

struct caller_state {
	sigset_t mask;
	int fd_flags[128];	/* -1: not open */
	char cwd[PATH_MAX];
	mode_t umask;
	void (*handler[NSIG])(int);
	struct rlimit nofile;
};

/* sigset_t has room for more signals than there are: compare those there are */
static bool same_mask(const sigset_t *a, const sigset_t *b)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(a, sig) != sigismember(b, sig))
			return false;
	return true;
}

static void snapshot(struct caller_state *s)
{
	memset(s, 0, sizeof(*s));
	pthread_sigmask(SIG_BLOCK, NULL, &s->mask);
	for (int fd = 0; fd < 128; fd++)
		s->fd_flags[fd] = fcntl(fd, F_GETFD);
	if (!getcwd(s->cwd, sizeof s->cwd))
		strcpy(s->cwd, "?");
	s->umask = umask(022);
	umask(s->umask);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0)
			s->handler[sig] = sa.sa_handler;
	}
	getrlimit(RLIMIT_NOFILE, &s->nofile);
}

static void compare_state(const struct caller_state *a, const struct caller_state *b)
{
	if (!same_mask(&a->mask, &b->mask))
		puts("caller changed: signal mask");
	if (memcmp(a->fd_flags, b->fd_flags, sizeof a->fd_flags))
		puts("caller changed: fds");
	if (strcmp(a->cwd, b->cwd))
		puts("caller changed: cwd");
	if (a->umask != b->umask)
		puts("caller changed: umask");
	if (memcmp(a->handler, b->handler, sizeof a->handler))
		puts("caller changed: signal handlers");
	if (a->nofile.rlim_cur != b->nofile.rlim_cur || a->nofile.rlim_max != b->nofile.rlim_max)
		puts("caller changed: RLIMIT_NOFILE");
}

/* The caller's open fds, wherever they are: /proc/self/fd less its own. */
static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (dir == NULL)
		return -1;
	while (readdir(dir) != NULL)
		n++;
	closedir(dir);
	return n - 3;	/* ".", ".." and the listing's own fd */
}

/* Open /dev/null (close-on-exec) until EMFILE, the fds into *fds. */
static int fill_table(int *fds, int max)
{
	int n = 0, fd;

	while (n < max && (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		fds[n++] = fd;
	return n;
}

/* s with the scratch directory as $S and pipe inodes left out */
static void put_path(const char *s)
{
	size_t n = strlen(scratch);

	if (strncmp(s, "pipe:[", 6) == 0)
		s = "pipe";
	if (strncmp(s, scratch, n) == 0)
		printf(" $S%s\n", s + n);
	else
		printf(" %s\n", s);
}

static void unhex(const char *hex, char *out, size_t size)
{
	size_t i = 0;
	unsigned int byte;

	while (i + 1 < size && sscanf(hex, "%2x", &byte) == 1) {
		out[i++] = (char)byte;
		hex += 2;
	}
	out[i] = '\0';
}

/* The probe's report, without what differs from run to run. */
static void put_report(const char *report, pid_t child)
{
	char line[PATH_MAX + 64], text[PATH_MAX], key[16], hex[2 * PATH_MAX + 2];
	int fd, cloexec, pid, ppid, sid, pgid;
	unsigned long long bits;
	char flags[16];

	while (sscanf(report, "%[^\n]\n", line) == 1) {
		report = strchr(report, '\n') + 1;
		if (sscanf(line, "%15s %[0-9a-f]", key, hex) == 2 &&
		    (!strcmp(key, "argv") || !strcmp(key, "env") || !strcmp(key, "cwd"))) {
			unhex(hex, text, sizeof text);
			printf("  %s", key);
			put_path(text);
		} else if (sscanf(line, "fd %d %d %15s %s", &fd, &cloexec, flags, hex) == 4) {
			unhex(hex, text, sizeof text);
			printf("  fd %d %d %s ->", fd, cloexec, flags);
			put_path(text);
		} else if (sscanf(line, "ids %d %d %d %d", &pid, &ppid, &sid, &pgid) == 4) {
			printf("  ids child %d parent %d sid %s pgid %s\n", pid == child,
			       ppid == getpid(),
			       sid == pid ? "own" : sid == getsid(0) ? "caller's" : "other",
			       pgid == pid ? "own" : pgid == getpgrp() ? "caller's" : "other");
		} else if (sscanf(line, "ignored %llx", &bits) == 1) {
			/* glibc leaves its SIGCANCEL and SIGSETXID (32, 33) ignored */
			printf("  ignored %llx\n", bits & ~(3ULL << 31));
		} else {
			printf("  %s\n", line);
		}
	}
}

static void wait_for(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		printf("  wait: %s\n", strerror(errno));
	else if (WIFEXITED(status))
		printf("  status exit %d\n", WEXITSTATUS(status));
	else
		printf("  status signal %d\n", WTERMSIG(status));
}

static int calls;
/* NULL, which the compiler must not see: posix_spawn's path is nonnull */
static const char *volatile no_path;

/* One call as the case set it up, and what came of it. */
static void run(const struct call *c)
{
	char probe[PATH_MAX + 8], report[65536];
	struct caller_state before, after;
	int p[2], rc, error, filler[4096], filled = 0;
	pid_t pid = SENTINEL_PID;
	size_t got = 0;
	ssize_t n;

	snprintf(probe, sizeof probe, "%s/probe", here);
	if (pipe2(p, O_CLOEXEC) || dup2(p[1], REPORT_FD) < 0 ||
	    fcntl(p[0], F_DUPFD_CLOEXEC, REPORT_FD + 1) < 0) {
		perror("shimtest: report pipe");
		exit(2);
	}
	close(p[1]);
	if (c->fill_fds)
		filled = fill_table(filler, 4096);
	snapshot(&before);
	errno = SENTINEL_ERRNO;
	rc = (c->search ? posix_spawnp : posix_spawn)(
		c->null_pid ? NULL : &pid, c->null_path ? no_path : c->path ? c->path : probe,
		c->with_fa ? &fa : NULL, c->with_attr ? &attr : NULL,
		c->argv ? c->argv : probe_argv, c->null_envp ? NULL : child_env);
	error = errno;
	snapshot(&after);
	while (filled > 0)
		close(filler[--filled]);
	calls++;
	printf("spawn rc=%d", rc);
	if (rc)
		printf(" errno=%d", error);
	printf(" pid %s\n", pid == SENTINEL_PID ? "untouched" : pid > 0 ? "set" : "written");
	if (rc == 0 && error != SENTINEL_ERRNO)
		printf("~errno changed on success: %d\n", error);
	compare_state(&before, &after);
	close(REPORT_FD);
	while ((n = read(p[0], report + got, sizeof report - 1 - got)) > 0)
		got += (size_t)n;
	report[got] = '\0';
	close(p[0]);
	if (rc == 0)
		wait_for(c->null_pid ? -1 : pid);
	put_report(report, pid);
	if (waitpid(-1, NULL, WNOHANG) >= 0)
		puts("children left");
}

/* Put an fd on path at exactly fd. */
static void open_at(int fd, const char *path, int flags)
{
	int got = open(path, flags);

	if (got < 0 || (got != fd && (dup3(got, fd, flags & O_CLOEXEC) < 0 || close(got)))) {
		perror(path);
		exit(2);
	}
}

static char *in_scratch(const char *name)
{
	static char paths[4][PATH_MAX];
	static int next;
	char *path = paths[next++ % 4];

	snprintf(path, PATH_MAX, "%s/%s", scratch, name);
	return path;
}

static void make_file(const char *name, const char *content, mode_t mode)
{
	int fd = open(in_scratch(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, content, strlen(content)) < 0 || fchmod(fd, mode) || close(fd)) {
		perror(name);
		exit(2);
	}
}

static void put_mode(const char *name)
{
	struct stat st;

	if (stat(in_scratch(name), &st) == 0)
		printf("  %s mode %o\n", name, st.st_mode & 07777);
	else
		printf("  %s: %s\n", name, strerror(errno));
}

static void set_flags(short flags)
{
	printf("  setflags %d\n", posix_spawnattr_setflags(&attr, flags));
}

/* Run the call with the request built so far, then start a new one. */
static void spawn_next(const struct call *c)
{
	run(c);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
}

static void spawn_fa(void)
{
	spawn_next(&(struct call){ .with_fa = true });
}

static void spawn_attr(void)
{
	spawn_next(&(struct call){ .with_attr = true });
}

static void spawn_path(const char *path)
{
	spawn_next(&(struct call){ .path = path });
}

static void spawnp(const char *name, const char *path)
{
	setenv("PATH", path, 1);
	spawn_next(&(struct call){ .search = true, .path = name, .with_fa = true,
				   .with_attr = true });
}

/*
 * The cases. Each starts with fds 0-2, a fresh scratch dir as cwd, fa and
 * attr inited; a case's calls are all routed or all refused.
 */

static void c_plain(void)
{
	spawn_next(&(struct call){ 0 });
	spawn_next(&(struct call){ .with_fa = true, .with_attr = true });
	spawn_next(&(struct call){ .null_pid = true });
	spawn_next(&(struct call){ .null_envp = true });
}

/* never inited, as a static object is: glibc reads no action, no flag */
static void c_zeroed_objects(void)
{
	memset(&fa, 0, sizeof fa);
	memset(&attr, 0, sizeof attr);
	run(&(struct call){ .with_fa = true, .with_attr = true });
}

static void c_null_path(void)
{
	run(&(struct call){ .null_path = true });
}

static void c_close(void)
{
	open_at(3, "/etc/hostname", O_RDONLY);
	posix_spawn_file_actions_addclose(&fa, 3);
	spawn_fa();
	posix_spawn_file_actions_addclose(&fa, 77);	/* not open: no error */
	spawn_fa();
}

/* valid when added, beyond the limit when spawned: the child's EBADF */
static void c_close_beyond_lowered_limit(void)
{
	struct rlimit limit;

	printf("  add %d\n", posix_spawn_file_actions_addclose(&fa, 200));
	getrlimit(RLIMIT_NOFILE, &limit);
	limit.rlim_cur = 128;
	setrlimit(RLIMIT_NOFILE, &limit);
	spawn_fa();
}

/* glibc's add functions refuse an fd at the limit with EBADF */
static void c_add_beyond_limit(void)
{
	int fd = getdtablesize();

	printf("  add %d %d %d %d %d %d\n", posix_spawn_file_actions_addclose(&fa, fd),
	       posix_spawn_file_actions_addclose(&fa, -1),
	       posix_spawn_file_actions_adddup2(&fa, fd, 3),
	       posix_spawn_file_actions_addopen(&fa, fd, "/etc/hostname", O_RDONLY, 0),
	       posix_spawn_file_actions_addclosefrom_np(&fa, fd),
	       posix_spawn_file_actions_addtcsetpgrp_np(&fa, fd));
	spawn_fa();
}

static void c_dup2(void)
{
	open_at(3, "/etc/hostname", O_RDONLY | O_CLOEXEC);
	posix_spawn_file_actions_adddup2(&fa, 3, 7);
	spawn_fa();
	posix_spawn_file_actions_adddup2(&fa, 3, 3);	/* clears FD_CLOEXEC */
	spawn_fa();
	posix_spawn_file_actions_adddup2(&fa, 60, 7);	/* not open: EBADF */
	spawn_fa();
}

static void c_open(void)
{
	posix_spawn_file_actions_addopen(&fa, 5, "/etc/hostname", O_RDONLY, 0);
	spawn_fa();
	posix_spawn_file_actions_addopen(&fa, 5, in_scratch("new"), O_WRONLY | O_CREAT | O_TRUNC,
					 0640);
	spawn_fa();
	put_mode("new");
	/* glibc's tst-spawn5 swaps flags and mode; open(2) ignores unknown bits */
	posix_spawn_file_actions_addopen(&fa, 5, in_scratch("swapped"), 0666, O_WRONLY | O_CREAT);
	spawn_fa();
	put_mode("swapped");
	posix_spawn_file_actions_addopen(&fa, 5, "/nonexistent/x", O_RDONLY, 0);
	spawn_fa();
}

/* glibc dup2()s an open that lands below its target, dropping O_CLOEXEC */
static void c_open_cloexec_dropped(void)
{
	posix_spawn_file_actions_addopen(&fa, 9, "/etc/hostname", O_RDONLY | O_CLOEXEC, 0);
	spawn_fa();
	/* an earlier action frees the fd below the target */
	open_at(3, "/etc/hostname", O_RDONLY);
	posix_spawn_file_actions_addclose(&fa, 3);
	posix_spawn_file_actions_addopen(&fa, 4, "/etc/hostname", O_RDONLY | O_CLOEXEC, 0);
	spawn_fa();
}

/* the target is the lowest free fd: O_CLOEXEC holds, the exec closes it */
static void c_open_cloexec_kept(void)
{
	posix_spawn_file_actions_addopen(&fa, 3, "/etc/hostname", O_RDONLY | O_CLOEXEC, 0);
	spawn_fa();
	open_at(3, "/etc/hostname", O_RDONLY);
	posix_spawn_file_actions_addopen(&fa, 4, "/etc/hostname", O_RDONLY | O_CLOEXEC, 0);
	spawn_fa();
}

static void c_chdir(void)
{
	mkdir(in_scratch("sub"), 0755);
	posix_spawn_file_actions_addchdir_np(&fa, in_scratch("sub"));
	spawn_fa();
	posix_spawn_file_actions_addchdir_np(&fa, in_scratch("none"));
	spawn_fa();
	open_at(3, in_scratch("sub"), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	posix_spawn_file_actions_addfchdir_np(&fa, 3);
	spawn_fa();
	posix_spawn_file_actions_addfchdir_np(&fa, 60);
	spawn_fa();
}

static void c_closefrom(void)
{
	static char *argv[] = { "probe", "3", NULL };

	open_at(3, "/etc/hostname", O_RDONLY);
	open_at(4, "/etc/hostname", O_RDONLY);
	open_at(5, "/etc/hostname", O_RDONLY);
	posix_spawn_file_actions_adddup2(&fa, REPORT_FD, 3);
	posix_spawn_file_actions_addclosefrom_np(&fa, 4);
	run(&(struct call){ .with_fa = true, .argv = argv });
}

static void c_tcsetpgrp_not_a_tty(void)
{
	open_at(3, "/etc/hostname", O_RDONLY);
	posix_spawn_file_actions_addtcsetpgrp_np(&fa, 3);
	spawn_fa();
}

static void c_session_and_group(void)
{
	set_flags(POSIX_SPAWN_SETSID);
	spawn_attr();
	set_flags(POSIX_SPAWN_SETPGROUP);
	spawn_attr();
	set_flags(POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, getpgrp());
	spawn_attr();
	/* setsid comes first: a session leader cannot change its group, EPERM */
	set_flags(POSIX_SPAWN_SETSID | POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, getpgrp());
	spawn_attr();
}

static sigset_t two_signals(int a, int b)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, a);
	sigaddset(&set, b);
	return set;
}

static void on_signal(int sig)
{
	(void)sig;
}

/* the caller's mask and dispositions without attributes */
static void c_caller_signals(void)
{
	sigset_t set = two_signals(SIGUSR2, SIGUSR2);

	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, on_signal);
	run(&(struct call){ 0 });
}

static void c_signal_attrs(void)
{
	sigset_t set = two_signals(SIGUSR1, SIGTERM);

	signal(SIGINT, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	signal(SIGTERM, on_signal);
	posix_spawnattr_setsigmask(&attr, &set);
	set_flags(POSIX_SPAWN_SETSIGMASK);
	spawn_attr();
	/* SIGKILL cannot be reset: glibc goes on without it */
	set = two_signals(SIGUSR2, SIGKILL);
	posix_spawnattr_setsigdefault(&attr, &set);
	set_flags(POSIX_SPAWN_SETSIGDEF);
	spawn_attr();
}

/* real ids of nobody (as root), effective root's: the child drops to nobody */
static void c_resetids(void)
{
	if (setresgid(65534, (gid_t)-1, (gid_t)-1) == 0 && setresuid(65534, (uid_t)-1, (uid_t)-1) == 0)
		puts("  real ids 65534");
	set_flags(POSIX_SPAWN_RESETIDS);
	spawn_attr();
}

static void c_scheduling(void)
{
	struct sched_param param = { .sched_priority = 0 };

	/* the priority alone: the child keeps the caller's policy, not attr's */
	sched_setscheduler(0, SCHED_BATCH, &param);
	posix_spawnattr_setschedparam(&attr, &param);
	set_flags(POSIX_SPAWN_SETSCHEDPARAM);
	spawn_attr();
	param.sched_priority = 1;
	posix_spawnattr_setschedpolicy(&attr, SCHED_FIFO);
	posix_spawnattr_setschedparam(&attr, &param);
	set_flags(POSIX_SPAWN_SETSCHEDULER);
	spawn_attr();
	/* SCHED_OTHER takes priority 0 only: the child's EINVAL */
	posix_spawnattr_setschedparam(&attr, &param);
	set_flags(POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSCHEDPARAM);
	spawn_attr();
}

/* setflags refuses an unknown flag; one written into the object is ignored */
static void c_unknown_attr_flags(void)
{
	set_flags(0x100);
	set_flags(POSIX_SPAWN_USEVFORK);
	attr.__flags |= 0x100;
	spawn_attr();
}

/* GNU make's request: RESETIDS, a mask, dup2 x2; then ninja's */
static void c_make_and_ninja(void)
{
	sigset_t set;
	int p[2];

	if (pipe(p))
		exit(2);
	sigemptyset(&set);
	posix_spawnattr_setsigmask(&attr, &set);
	set_flags(POSIX_SPAWN_RESETIDS | POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	spawn_next(&(struct call){ .with_fa = true, .with_attr = true });
	posix_spawnattr_setsigmask(&attr, &set);
	set_flags(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	spawn_next(&(struct call){ .with_fa = true, .with_attr = true });
}

static void c_exec_errors(void)
{
	static char too_long[PATH_MAX + 16];

	spawn_path("/nonexistent/program");
	memset(too_long, 'a', sizeof too_long - 1);
	too_long[0] = '/';
	spawn_path(too_long);
	make_file("noexec", "#!/bin/sh\n", 0644);
	spawn_path(in_scratch("noexec"));
	make_file("garbage", "no shebang, no ELF\n", 0755);
	spawn_path(in_scratch("garbage"));
}

static void c_spawnp_found(void)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof path, "/nonexistent:%s", here);
	spawnp("probe", path);
}

/* a name with a '/' is not searched, nor is an empty one */
static void c_spawnp_unsearched(void)
{
	char path[PATH_MAX + 8];

	snprintf(path, sizeof path, "%s/probe", here);
	spawnp(path, "/nonexistent");
	spawnp("", "/bin");
}

static void c_spawnp_default_path(void)
{
	static char *argv[] = { "true", NULL };

	unsetenv("PATH");
	run(&(struct call){ .search = true, .path = "true", .argv = argv });
}

static void c_spawnp_not_found(void)
{
	char name[NAME_MAX + 16];

	spawnp("probe", "/nonexistent:/nonexistent2");
	spawnp("probe", "/etc/hostname:/nonexistent");
	make_file("probe", "", 0644);
	spawnp("probe", scratch);
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	spawnp(name, "/nonexistent:/bin");
}

/* glibc ends with the last entry's error, absolute or relative */
static void c_spawnp_enotdir_last(void)
{
	spawnp("probe", "/nonexistent:/etc/hostname");
	make_file("file", "", 0644);
	spawnp("probe", "/nonexistent:file");
}

/* ENOEXEC ends the search: the later entry's probe does not run */
static void c_spawnp_enoexec_stops(void)
{
	char path[2 * PATH_MAX];

	make_file("probe", "no shebang, no ELF\n", 0755);
	snprintf(path, sizeof path, "%s:%s", scratch, here);
	spawnp("probe", path);
}

/* glibc skips an entry of PATH_MAX bytes in its own way: the shim refuses */
static void c_spawnp_long_entry(void)
{
	static char path[PATH_MAX + 32];

	memset(path, 'x', PATH_MAX + 1);
	path[0] = '/';
	strcpy(path + PATH_MAX + 1, ":/bin");
	spawnp("probe", path);
}

/* the last entry's error depends on the child's cwd: the shim refuses */
static void c_spawnp_relative_last_after_chdir(void)
{
	posix_spawn_file_actions_addchdir_np(&fa, "/");
	spawnp("probe", "/nonexistent:rel");
}

static int cancelled_rc = -1;

static void *cancelled_spawner(void *arg)
{
	(void)arg;
	pthread_cancel(pthread_self());
	cancelled_rc = posix_spawn(NULL, "/nonexistent/program", NULL, NULL, probe_argv,
				   child_env);
	pthread_testcancel();
	return NULL;
}

/* posix_spawn is no cancellation point: a pending cancel waits until after it */
static void c_pending_cancel(void)
{
	pthread_t thread;
	void *result;

	pthread_create(&thread, NULL, cancelled_spawner, NULL);
	pthread_join(thread, &result);
	calls++;
	printf("cancel: spawn rc=%d %s\n", cancelled_rc, result == PTHREAD_CANCELED ? "then cancelled" :
	       "not cancelled");
}

#define THREADS 8
#define PER_THREAD 25
#define PROCESSES 4

static char tiny[PATH_MAX + 8];
static int thread_failures, thread_errors, errno_changes;
static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;

static void *spawner(void *arg)
{
	char *argv[] = { "tiny", NULL };
	int failures = 0, errors = 0, changes = 0;

	(void)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		sigset_t before, after;
		pid_t pid;
		int status = -1, rc;

		pthread_sigmask(SIG_BLOCK, NULL, &before);
		errno = SENTINEL_ERRNO;
		rc = posix_spawn(&pid, tiny, &fa, NULL, argv, child_env);
		pthread_sigmask(SIG_BLOCK, NULL, &after);
		if (!same_mask(&before, &after))
			failures++;
		if (rc) {
			errors++;
			continue;
		}
		changes += errno != SENTINEL_ERRNO;
		if (waitpid(pid, &status, 0) != pid || status != 0)
			failures++;
	}
	pthread_mutex_lock(&failure_lock);
	thread_failures += failures;
	thread_errors += errors;
	errno_changes += changes;
	pthread_mutex_unlock(&failure_lock);
	return NULL;
}

/* What n spawns of spawner() came to; a failure ends the case. */
static void put_many(const char *what, int n)
{
	calls += n;
	printf("%s: %d spawns, %d failed, %d errors\n", what, n, thread_failures, thread_errors);
	if (errno_changes)
		printf("~errno changed on success: %d times\n", errno_changes);
	if (thread_failures)
		exit(1);
	if (waitpid(-1, NULL, WNOHANG) >= 0)
		puts("children left");
}

/* N threads spawning at once, each holding its own mask and errno */
static void c_threads(void)
{
	pthread_t thread[THREADS];
	sigset_t set;

	posix_spawn_file_actions_addclose(&fa, 77);
	for (int i = 0; i < THREADS; i++) {
		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN + i);
		pthread_sigmask(SIG_SETMASK, &set, NULL);
		pthread_create(&thread[i], NULL, spawner, NULL);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(thread[i], NULL);
	put_many("threads", THREADS * PER_THREAD);
}

/* processes spawning at once, each appending its lines to the counts */
static void c_processes(void)
{
	pid_t pid[PROCESSES];
	int status;

	posix_spawn_file_actions_addclose(&fa, 77);
	for (int i = 0; i < PROCESSES; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			spawner(NULL);
			_exit(thread_failures ? 1 : thread_errors ? 4 : errno_changes ? 3 : 0);
		}
	}
	for (int i = 0; i < PROCESSES; i++) {
		if (pid[i] < 0 || waitpid(pid[i], &status, 0) != pid[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) == 1)
			thread_failures++;
		thread_errors += WEXITSTATUS(status) == 4 ? PER_THREAD : 0;
		errno_changes += WEXITSTATUS(status) == 3;
	}
	put_many("processes", PROCESSES * PER_THREAD);
}

/*
 * tst-spawn3's setting: the fd table full up to the soft RLIMIT_NOFILE
 * when the call is made (the report pipe below the limit), so the shim has
 * no fd for its counts line. The line must still come, and the caller
 * keep its limit and fds: an fd kept from load time would show as one fd
 * fewer filled here and one more open at the end (wherever it is).
 */
static void c_table_full(void)
{
	struct rlimit limit;
	int fds[4096], n;

	getrlimit(RLIMIT_NOFILE, &limit);
	limit.rlim_cur = REPORT_FD + 20 < limit.rlim_max ? REPORT_FD + 20 : limit.rlim_max;
	setrlimit(RLIMIT_NOFILE, &limit);
	/* how many fds the caller has left: the same under glibc and the shim */
	n = fill_table(fds, 4096);
	printf("  fds free %d\n", n);
	while (n > 0)
		close(fds[--n]);
	spawn_next(&(struct call){ .fill_fds = true });
	spawn_next(&(struct call){ .fill_fds = true, .with_fa = true, .with_attr = true });
}

/* the same from 8 threads at once: every line comes, the limit stays */
static void c_threads_table_full(void)
{
	struct rlimit before, after;
	pthread_t thread[THREADS];
	int fds[4096], n;

	getrlimit(RLIMIT_NOFILE, &before);
	before.rlim_cur = 64 < before.rlim_max ? 64 : before.rlim_max;
	setrlimit(RLIMIT_NOFILE, &before);
	n = fill_table(fds, 4096);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&thread[i], NULL, spawner, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(thread[i], NULL);
	getrlimit(RLIMIT_NOFILE, &after);
	printf("  fds free %d, limit %s\n", n,
	       after.rlim_cur == before.rlim_cur && after.rlim_max == before.rlim_max ? "kept" :
	       "changed");
	while (n > 0)
		close(fds[--n]);
	put_many("threads", THREADS * PER_THREAD);
}

struct shim_case {
	const char *name;
	void (*run)(void);
	const char *refused_by;	/* backends that cannot express it; "*": all */
};

/*
 * clone-actions, builder and iouring (series-iouring at parity) can
 * express everything, as vfork; iouring's PATH search cannot stop
 */
static const struct shim_case cases[] = {
	{ "plain", c_plain, "" },
	{ "zeroed_objects", c_zeroed_objects, "" },
	{ "null_path", c_null_path, "*" },
	{ "close", c_close, "" },
	{ "close_beyond_lowered_limit", c_close_beyond_lowered_limit, "" },
	{ "add_beyond_limit", c_add_beyond_limit, "" },
	{ "dup2", c_dup2, "" },
	{ "open", c_open, "" },
	{ "open_cloexec_dropped", c_open_cloexec_dropped, "" },
	{ "open_cloexec_kept", c_open_cloexec_kept, "posix" },
	{ "chdir", c_chdir, "" },
	{ "closefrom", c_closefrom, "" },
	{ "tcsetpgrp_not_a_tty", c_tcsetpgrp_not_a_tty, "" },
	{ "session_and_group", c_session_and_group, "" },
	{ "caller_signals", c_caller_signals, "" },
	{ "signal_attrs", c_signal_attrs, "" },
	{ "resetids", c_resetids, "" },
	{ "scheduling", c_scheduling, "" },
	{ "unknown_attr_flags", c_unknown_attr_flags, "" },
	{ "make_and_ninja", c_make_and_ninja, "" },
	{ "exec_errors", c_exec_errors, "" },
	/* iouring: its PATH search does not stop at ENOEXEC as glibc's does */
	{ "spawnp_found", c_spawnp_found, "iouring" },
	{ "spawnp_unsearched", c_spawnp_unsearched, "" },
	{ "spawnp_default_path", c_spawnp_default_path, "iouring" },
	{ "spawnp_not_found", c_spawnp_not_found, "iouring" },
	{ "spawnp_enotdir_last", c_spawnp_enotdir_last, "iouring" },
	{ "spawnp_enoexec_stops", c_spawnp_enoexec_stops, "iouring" },
	{ "spawnp_long_entry", c_spawnp_long_entry, "*" },
	{ "spawnp_relative_last_after_chdir", c_spawnp_relative_last_after_chdir, "*" },
	{ "pending_cancel", c_pending_cancel, "" },
	{ "threads", c_threads, "" },
	{ "processes", c_processes, "" },
	{ "table_full", c_table_full, "" },
	{ "threads_table_full", c_threads_table_full, "" },
};
#define N_CASES (sizeof cases / sizeof cases[0])

static int run_case(const char *name)
{
	for (size_t i = 0; i < N_CASES; i++) {
		if (strcmp(cases[i].name, name) != 0)
			continue;
		if (chdir(scratch) || posix_spawn_file_actions_init(&fa) ||
		    posix_spawnattr_init(&attr))
			return 2;
		setvbuf(stdout, NULL, _IONBF, 0);
		cases[i].run();
		/* an fd the shim kept would be one more, wherever it is */
		printf("fds open %d\n", open_fds());
		printf("calls %d\n", calls);
		return 0;
	}
	fprintf(stderr, "shimtest: no case %s\n", name);
	return 2;
}

/* --- the harness ------------------------------------------------------------ */

struct outcome {
	char *output;		/* what the case printed */
	int status;
	int routed, refused, unusable, fallback, malformed;
	char reason[128];	/* of the first call not routed */
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void read_counts(const char *path, struct outcome *o)
{
	FILE *f = fopen(path, "re");
	char line[1024], word[16];

	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f)) {
		char *reason = strstr(line, " reason=");

		if (sscanf(line, "%15s pid=%*d call=", word) != 1 || reason == NULL ||
		    line[strlen(line) - 1] != '\n') {
			o->malformed++;
			continue;
		}
		if (!strcmp(word, "routed")) {
			o->routed++;
			continue;
		}
		if (!strcmp(word, "refused"))
			o->refused++;
		else if (!strcmp(word, "unusable"))
			o->unusable++;
		else if (!strcmp(word, "fallback"))
			o->fallback++;
		else
			o->malformed++;
		if (o->reason[0] == '\0')
			snprintf(o->reason, sizeof o->reason, "%.*s", (int)strcspn(reason + 8, "\n"),
				 reason + 8);
	}
	fclose(f);
}

/* Run one case in a process of its own; backend NULL: plain glibc. */
static void run_process(const char *name, const char *backend, const char *mode,
			struct outcome *o)
{
	char self[PATH_MAX + 16], shim[PATH_MAX + 32], dir[] = "/tmp/shimtest.XXXXXX";
	char counts[sizeof dir + 8];
	size_t size = 0, got = 0;
	int p[2];
	pid_t pid;
	ssize_t n;

	memset(o, 0, sizeof(*o));
	snprintf(self, sizeof self, "%s/shimtest", here);
	snprintf(shim, sizeof shim, "%s/libspawnshim.so", here);
	if (!mkdtemp(dir) || pipe2(p, O_CLOEXEC)) {
		perror("shimtest");
		exit(2);
	}
	snprintf(counts, sizeof counts, "%s.counts", dir);
	unlink(counts);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		unsetenv("LD_PRELOAD");
		if (backend) {
			setenv("LD_PRELOAD", shim, 1);
			setenv("SPAWNLAB_BACKEND", backend, 1);
			setenv("SPAWNLAB_SHIM_MODE", mode, 1);
			setenv("SPAWNLAB_SHIM_COUNTS", counts, 1);
		}
		/* the case starts with 0, 1 and 2 only */
		if (dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || close_range(3, ~0U, 0))
			_exit(2);
		execl(self, "shimtest", "case", name, dir, (char *)NULL);
		_exit(2);
	}
	close(p[1]);
	do {
		if (got + 4096 > size)
			o->output = realloc(o->output, size += 65536);
		n = read(p[0], o->output + got, size - got - 1);
		got += n > 0 ? (size_t)n : 0;
	} while (n > 0);
	o->output[got] = '\0';
	close(p[0]);
	waitpid(pid, &o->status, 0);
	read_counts(counts, o);
	unlink(counts);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* the output without its '~' lines; *promises: how many there were */
static char *compared(const char *output, int *promises)
{
	char *out = malloc(strlen(output) + 1), *o = out;

	*promises = 0;
	for (const char *line = output; *line;) {
		size_t len = strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');

		if (line[0] == '~')
			(*promises)++;
		else
			o = mempcpy(o, line, len);
		line += len;
	}
	*o = '\0';
	return out;
}

static bool pinned(const struct shim_case *c, const char *backend)
{
	size_t len = strlen(backend);

	if (!strcmp(c->refused_by, "*"))
		return true;
	for (const char *p = c->refused_by; (p = strstr(p, backend)) != NULL; p += len)
		if ((p == c->refused_by || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

/* Every call refused with ENOTSUP, nothing else printed but setup lines. */
static bool refused_cleanly(const char *output)
{
	for (const char *line = output; *line; line += strcspn(line, "\n") + 1) {
		if (!strncmp(line, "spawn ", 6) &&
		    strncmp(line, "spawn rc=95 errno=95 pid untouched\n", 35))
			return false;
		if (!strncmp(line, "caller", 6) || !strncmp(line, "children", 8) ||
		    line[0] == '~' || !line[strcspn(line, "\n")])
			break;
	}
	return strstr(output, "caller changed") == NULL && strstr(output, "children left") == NULL &&
	       strstr(output, "\n~") == NULL;
}

static void diagnose(FILE *tap, const char *label, const char *text)
{
	fprintf(tap, "# %s:\n", label);
	for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
		fprintf(tap, "#   %.*s\n", (int)strcspn(line, "\n"), line);
}

/* One TAP test: the case under glibc, then under the shim. Returns whether ok. */
static bool check_case(FILE *tap, int n, const struct shim_case *c, const char *backend,
		       const char *mode, bool available)
{
	struct outcome plain, shim;
	bool strict = strcmp(mode, "strict") == 0;
	bool refused = !available || pinned(c, backend);
	int calls = -1, promises, plain_promises;
	char *want, *got, why[256] = "";

	run_process(c->name, NULL, NULL, &plain);
	run_process(c->name, backend, mode, &shim);
	want = compared(plain.output, &plain_promises);
	got = compared(shim.output, &promises);
	if (strstr(plain.output, "calls "))
		sscanf(strstr(plain.output, "calls "), "calls %d", &calls);
	if (plain.status != 0 || shim.status != 0 || calls < 1)
		snprintf(why, sizeof why, "a case process failed (status %d, %d)", plain.status,
			 shim.status);
	else if (shim.malformed)
		snprintf(why, sizeof why, "%d malformed count lines", shim.malformed);
	else if (promises)
		snprintf(why, sizeof why, "the shim changed errno on success");
	else if (refused && strict && !refused_cleanly(shim.output))
		snprintf(why, sizeof why, "not refused cleanly with ENOTSUP");
	else if (refused && strict && (available ? shim.refused : shim.unusable) != calls)
		snprintf(why, sizeof why, "%d of %d calls counted %s", available ? shim.refused :
			 shim.unusable, calls, available ? "refused" : "unusable");
	else if (!(refused && strict) && strcmp(want, got))
		snprintf(why, sizeof why, "results differ from glibc's");
	else if (!(refused && strict) && (refused ? shim.fallback : shim.routed) != calls)
		snprintf(why, sizeof why, "%d routed, %d refused, %d fallen back of %d calls",
			 shim.routed, shim.refused, shim.fallback, calls);
	if (why[0]) {
		fprintf(tap, "not ok %d - shim::%s\n# %s\n", n, c->name, why);
		diagnose(tap, "glibc", plain.output);
		diagnose(tap, "shim", shim.output);
	} else if (refused && strict) {
		fprintf(tap, "ok %d - shim::%s # SKIP backend %s: %s\n", n, c->name, backend,
			shim.reason);
	} else {
		fprintf(tap, "ok %d - shim::%s\n# calls %d: routed %d, fallen back %d%s%s\n", n,
			c->name, calls, shim.routed, shim.fallback, shim.reason[0] ? ": " : "",
			shim.reason);
	}
	free(plain.output);
	free(shim.output);
	free(want);
	free(got);
	return why[0] == '\0';
}

static int check_backend(const char *outdir, const char *backend, const char *mode)
{
	const struct compat_backend *b = compat_backend_find(backend);
	char path[PATH_MAX];
	int failed = 0, skipped = 0;
	FILE *tap;

	if (b == NULL || (strcmp(mode, "strict") && strcmp(mode, "fallback"))) {
		fprintf(stderr, "shimtest: no backend %s or mode %s\n", backend, mode);
		return 2;
	}
	snprintf(path, sizeof path, "%s/shim-%s-%s.tap", outdir, backend, mode);
	tap = fopen(path, "we");
	if (tap == NULL) {
		perror(path);
		return 2;
	}
	setvbuf(tap, NULL, _IOLBF, 0);
	fprintf(tap, "1..%zu\n", N_CASES);
	for (size_t i = 0; i < N_CASES; i++) {
		bool available = compat_backend_available(b);

		if (!check_case(tap, (int)i + 1, &cases[i], backend, mode, available))
			failed++;
		else if (!strcmp(mode, "strict") && (!available || pinned(&cases[i], backend)))
			skipped++;
	}
	fclose(tap);
	printf("== shim on %s, %s: %zu passed, %d failed, %d skipped (refused)\n", backend, mode,
	       N_CASES - failed - skipped, failed, skipped);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "strict", "fallback" };
	const struct compat_backend *b;
	ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
	int status = 0;

	if (n <= 0 || !strrchr(here, '/'))
		return 2;
	*strrchr(here, '/') = '\0';
	snprintf(tiny, sizeof tiny, "%s/tiny", here);
	if (argc == 4 && !strcmp(argv[1], "case")) {
		scratch = argv[3];
		return run_case(argv[2]);
	}
	if (argc == 4)
		return check_backend(argv[1], argv[2], argv[3]);
	if (argc != 2) {
		fprintf(stderr, "usage: shimtest OUTDIR [BACKEND MODE] | shimtest case NAME SCRATCH\n");
		return 2;
	}
	for (size_t i = 0; (b = compat_backend_at(i)) != NULL; i++)
		for (size_t m = 0; m < 2; m++)
			status |= check_backend(argv[1], compat_backend_name(b), modes[m]);
	return status;
}
