/*
 * Suite safety: what a spawn must not let through, on every backend.
 *
 * A seccomp filter holds the spawn's calls as it holds the caller's; a
 * tracer that follows forks sees the child, or the spawn is refused; a
 * caller killed while its child waits in an action leaves nothing behind;
 * a thread blocked in waitpid(-1) returns when a spawn fails; a set-uid
 * exec that fails past its point of no return runs nothing after it; a
 * child never has more privilege than its caller. glibc (posix) and vfork
 * show what users have today, the kernel backends what each design gives.
 *
 * Filters, tracees, killed callers and dropped privileges live in a helper
 * process that the test forks: it spawns through libcompat and sends what
 * happened (struct outcome) back on a pipe. A hazard that a backend's design
 * has and no request can refuse is reported as a divergence on that backend
 * (pinned in expected.txt) and fails on any other. DESIGN.md, "Safety suite".
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"
#include "fifo-child.h"
#include "seccomp-filter.h"
#include "../testlib/proc-children.h"

TestSuite(safety, .init = scratch_create, .fini = scratch_remove, .timeout = 120);

/* The unprivileged ids the helper takes where a test needs them. */
#define USER_ID 1000
/* How long a caller may take to die, a waiter to return, a child to go. */
#define LIMIT_MS 10000

/*
 * The hazards of the backends' designs that the library cannot refuse (no
 * wish of struct compat_spawn names them), one list per test: where a
 * backend is listed, the test diverges with its reason; on any other
 * backend the same outcome is a failure.
 */
struct hazard {
	const char *backend, *reason;
};

static const struct hazard close_unseen[] = {
	{ "iouring", "seccomp never sees io_uring requests: a filter that denies close does not "
		     "hold the chain's CLOSE" },
	{ NULL, NULL },
};

#define ORPHANED "a user-space child runs its actions on its own: its caller's death does not end it"
static const struct hazard orphaned[] = {
	{ "posix", ORPHANED },
	{ "vfork", ORPHANED },
	{ NULL, NULL },
};

/*
 * series-iouring's spawned task is a process from CLONE on, its pid in
 * CLONE's CQE before the chain runs, and a chain that fails leaves it to
 * be reaped (clone-exec-blocking's released_ring_ends_blocked_chain and
 * killed_submitter_ends_blocked_chain reap the killed task as subreapers):
 * killed with its caller, it is reparented as any orphan.
 */
#define REPARENTED "a spawned task is a process, its pid posted, from CLONE on: killed with its " \
		   "caller, it goes to the subreaper as a zombie to reap"
static const struct hazard reparented[] = {
	{ "iouring", REPARENTED },
	{ NULL, NULL },
};

static _Noreturn void hazard(const struct hazard *hazards, const char *outcome)
{
	const char *name = compat_backend_name(backend());

	for (; hazards->backend; hazards++)
		if (strcmp(hazards->backend, name) == 0)
			cr_skip_test("diverges: %s: %s", hazards->reason, outcome);
	cr_assert_fail("%s (no hazard of backend %s's design)", outcome, name);
	abort();	/* not reached */
}

/* What a helper saw of one spawn. */
struct outcome {
	struct compat_result result;	/* its reason is not sent */
	int status;			/* the child's wait status, when it was spawned */
	char report[2048];		/* what the program wrote on the report pipe */
};

/*
 * A helper process and the probe request it spawns: the probe writes its
 * report on the report pipe (report[1], inherited), which the helper reads
 * once the child is gone; outcomes go to the test on their own pipe.
 */
struct helper {
	pid_t pid;
	int outcomes[2];
	int report[2];		/* report[0] does not block */
	char report_arg[12];
	char *argv[3];
};

static char *no_environment[] = { NULL };

/* The helper's pipes and, unless probe is NULL, a request for the probe. */
static void helper_prepare(struct helper *h, struct compat_spawn *probe)
{
	cr_assert_eq(pipe2(h->outcomes, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	cr_assert_eq(pipe2(h->report, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	cr_assert_eq(fcntl(h->report[1], F_SETFD, 0), 0);
	cr_assert_eq(fcntl(h->report[0], F_SETFL, O_NONBLOCK), 0);
	snprintf(h->report_arg, sizeof h->report_arg, "%d", h->report[1]);
	h->argv[0] = "probe";
	h->argv[1] = h->report_arg;
	h->argv[2] = NULL;
	/* no environment: the report stays short */
	if (probe)
		*probe = (struct compat_spawn){
			.path = program("probe"), .argv = h->argv, .envp = no_environment
		};
}

/* Fork the helper; true in the helper, which must end with _exit(). */
static bool helper_fork(struct helper *h)
{
	h->pid = fork();
	cr_assert_geq(h->pid, 0, "fork: %s", strerror(errno));
	if (h->pid == 0) {
		close(h->outcomes[0]);
		return true;
	}
	close(h->outcomes[1]);
	return false;
}

/* What the report pipe holds now, as a string. */
static void drain_report(int fd, char *text, size_t size)
{
	size_t length = 0;
	ssize_t got;

	while (length < size - 1 && (got = read(fd, text + length, size - 1 - length)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		length += (size_t)got;
	}
	text[length] = '\0';
}

static int reap(pid_t pid)
{
	int status = -1;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	return status;
}

/* In the helper: send an outcome to the test. */
static void send_outcome(struct helper *h, const struct outcome *o)
{
	if (write(h->outcomes[1], o, sizeof *o) != (ssize_t)sizeof *o)
		_exit(4);
}

/* In the helper: spawn, wait for the child, send what happened. */
static void helper_spawn(struct helper *h, const struct compat_spawn *request)
{
	struct outcome o = { .status = -1 };

	compat_spawn(backend(), request, &o.result);
	o.result.reason = NULL;
	if (o.result.pid > 0)
		o.status = reap(o.result.pid);
	drain_report(h->report[0], o.report, sizeof o.report);
	send_outcome(h, &o);
}

/* The helper's next outcome. */
static struct outcome helper_outcome(struct helper *h)
{
	struct outcome o;
	size_t length = 0;
	ssize_t got;

	while (length < sizeof o &&
	       (got = read(h->outcomes[0], (char *)&o + length, sizeof o - length)) != 0) {
		cr_assert(got > 0 || errno == EINTR, "read: %s", strerror(errno));
		if (got > 0)
			length += (size_t)got;
	}
	cr_assert_eq(length, sizeof o, "the helper sent no outcome");
	return o;
}

static void helper_close(struct helper *h)
{
	close(h->outcomes[0]);
	close(h->report[0]);
	close(h->report[1]);
}

/* The helper has exited 0 (2: a set-up step failed); its pipes are closed. */
static void helper_end(struct helper *h)
{
	int status = reap(h->pid);

	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the helper: status %#x", status);
	helper_close(h);
}

static void expect_nothing_ran(const struct outcome *o)
{
	cr_assert_str_empty(o->report, "the program ran; it reported:\n%s", o->report);
}

/* Wait up to ms for child pid to change state; its status, or -1 if it did not. */
static int wait_for(pid_t pid, int ms)
{
	int status;

	for (int waited = 0; waited <= ms; waited += 10) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			return status;
		cr_assert(got == 0 || errno == EINTR, "waitpid %d: %s", pid, strerror(errno));
		usleep(10000);
	}
	return -1;
}

/* The uid, gids and groups of an unprivileged user: no capability is left. */
static int drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(USER_ID, USER_ID, USER_ID) ||
	    setresuid(USER_ID, USER_ID, USER_ID))
		return -1;
	return 0;
}

static void need_root(const char *why)
{
	if (geteuid() != 0)
		cr_skip_test("needs root: %s", why);
}

/* ---- seccomp ---- */

#define DENY(call) { .nr = (call), .test = ARG_ANY, .verdict = SECCOMP_RET_ERRNO | EPERM }

/* The outcome of request from a helper that installs the filter first. */
static struct outcome spawn_filtered(struct helper *h, const struct compat_spawn *request,
				     const struct seccomp_rule *rules, size_t n)
{
	if (helper_fork(h)) {
		install_rules(rules, n);
		helper_spawn(h, request);
		_exit(0);
	}
	struct outcome o = helper_outcome(h);

	helper_end(h);
	return o;
}

/* A filter that denies both exec calls stops the spawn's exec. */
Test(safety, seccomp_denied_exec_stops_spawn)
{
	const struct seccomp_rule rules[] = { DENY(__NR_execve), DENY(__NR_execveat) };
	struct helper h;
	struct compat_spawn request;

	helper_prepare(&h, &request);
	skip_if_refused(&request);
	struct outcome o = spawn_filtered(&h, &request, rules, 2);

	expect_nothing_ran(&o);
	expect_failure(&o.result, EPERM, COMPAT_STEP_EXEC);
}

/* A filter that denies opening files stops a spawn with an open action. */
Test(safety, seccomp_denied_open_stops_spawn)
{
	const struct seccomp_rule rules[] = { DENY(__NR_open), DENY(__NR_openat) };
	char *file = scratch_path("file");
	struct helper h;
	struct compat_spawn request;

	make_file(file, "", 0644);
	helper_prepare(&h, &request);
	ACTIONS(request, compat_open(20, AT_FDCWD, file, O_RDONLY, 0));
	skip_if_refused(&request);
	struct outcome o = spawn_filtered(&h, &request, rules, 2);

	expect_nothing_ran(&o);
	expect_failure(&o.result, EPERM, 0);
}

/*
 * A filter that denies close(fd): the close action must not close it. The
 * spawn fails with EPERM, or, as libcompat's close rule (and glibc) let a
 * failed close of an open fd pass, the program starts with fd still open.
 */
Test(safety, seccomp_denied_close_does_not_happen)
{
	char *file = scratch_path("file");
	struct helper h;
	struct compat_spawn request;

	make_file(file, "", 0644);
	int fd = open_file(file, false);
	const struct seccomp_rule rule = {
		.nr = __NR_close, .test = ARG_EQUAL, .arg = 0, .value = (uint64_t)fd,
		.verdict = SECCOMP_RET_ERRNO | EPERM
	};
	char open_line[32];

	helper_prepare(&h, &request);
	ACTIONS(request, compat_close(fd));
	skip_if_refused(&request);
	struct outcome o = spawn_filtered(&h, &request, &rule, 1);

	if (o.result.pid == 0) {
		expect_nothing_ran(&o);
		expect_failure(&o.result, EPERM, 0);
		return;
	}
	cr_assert(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0, "the probe: status %#x",
		  o.status);
	snprintf(open_line, sizeof open_line, "\nfd %d ", fd);
	if (strstr(o.report, open_line) == NULL)
		hazard(close_unseen, "the filter denied close, and the program started without the fd");
}

/* ---- ptrace ---- */

/* What a tracer that follows forks saw of its tracee. */
struct trace {
	pid_t announced;	/* the new pid of a fork, vfork or clone event */
	pid_t traced;		/* another process that stopped for the tracer */
	int status;		/* the tracee's exit status */
};

/*
 * Trace tracee, stopped by itself, with PTRACE_O_TRACEFORK, TRACEVFORK and
 * TRACECLONE until it exits. Each stop goes on: event stops, the SIGSTOP of
 * an auto-attached child and exec's SIGTRAP without their signal, others
 * with it.
 */
static struct trace follow_forks(pid_t tracee)
{
	const long options = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;
	struct trace t = { 0 };
	int status = reap(tracee);

	cr_assert(WIFSTOPPED(status), "the tracee did not stop: status %#x", status);
	cr_assert_eq(ptrace(PTRACE_SETOPTIONS, tracee, NULL, (void *)options), 0,
		     "PTRACE_SETOPTIONS: %s", strerror(errno));
	cr_assert_eq(ptrace(PTRACE_CONT, tracee, NULL, NULL), 0);
	for (;;) {
		pid_t pid = waitpid(-1, &status, __WALL);

		if (pid < 0 && errno == EINTR)
			continue;
		cr_assert_gt(pid, 0, "waitpid: %s", strerror(errno));
		if (pid == tracee && !WIFSTOPPED(status)) {
			t.status = status;
			return t;
		}
		if (!WIFSTOPPED(status))
			continue;
		int event = status >> 16, sig = WSTOPSIG(status);
		unsigned long message;

		if (pid != tracee)
			t.traced = pid;
		else if ((event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
			  event == PTRACE_EVENT_CLONE) &&
			 ptrace(PTRACE_GETEVENTMSG, pid, NULL, &message) == 0)
			t.announced = (pid_t)message;
		if (event || sig == SIGTRAP || (sig == SIGSTOP && pid != tracee))
			sig = 0;
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}
}

/*
 * A tracer following forks sees the spawned child (an event announcing it,
 * the child traced), or the spawn is refused with EPERM before a child
 * exists (clone-actions' rule). A program its tracer never saw is the hazard.
 */
Test(safety, tracer_following_forks_sees_the_child)
{
	struct helper h;
	struct compat_spawn request;

	helper_prepare(&h, &request);
	skip_if_refused(&request);
	if (helper_fork(&h)) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
			_exit(2);
		helper_spawn(&h, &request);
		_exit(0);
	}
	struct trace t = follow_forks(h.pid);

	cr_assert(WIFEXITED(t.status) && WEXITSTATUS(t.status) == 0, "the tracee: status %#x",
		  t.status);
	struct outcome o = helper_outcome(&h);

	helper_close(&h);
	if (o.result.pid == 0) {
		expect_nothing_ran(&o);
		expect_failure(&o.result, EPERM, COMPAT_STEP_CREATE);
		return;
	}
	cr_assert(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0 && o.report[0],
		  "the probe did not run: status %#x", o.status);
	cr_assert(t.announced || t.traced,
		  "the program ran, and the tracer saw neither an event nor the child");
	cr_assert_eq(t.announced, o.result.pid, "the event announced %d, the child is %d",
		     t.announced, o.result.pid);
	cr_assert_eq(t.traced, o.result.pid, "the tracer traced %d, the child is %d", t.traced,
		     o.result.pid);
}

/* ---- a child held in an action ---- */

/* A FIFO in the scratch directory: opening it for reading waits for a writer. */
static char *make_fifo(void)
{
	char *fifo = scratch_path("fifo");

	cr_assert_eq(mkfifo(fifo, 0600), 0, "mkfifo: %s", strerror(errno));
	return fifo;
}

/* the kernel's PF_EXITING, in /proc/PID/stat's flags: the task is in do_exit() */
#define TASK_PF_EXITING 0x4

/*
 * Whether process pid is gone, a zombie, has SIGKILL pending or is already
 * exiting (a task that took its SIGKILL off the pending set is in do_exit()
 * until it becomes a zombie: slow under a debug kernel in TCG).
 */
static bool going(pid_t pid)
{
	char path[64], line[256], stat[512];
	const char *fields;
	bool ending = false;
	unsigned int flags;
	FILE *status;

	snprintf(path, sizeof path, "%d", pid);
	fields = proc_stat_fields(path, stat, sizeof stat);
	if (fields && sscanf(fields, "%*c %*d %*d %*d %*d %*d %u", &flags) == 1 &&
	    (flags & TASK_PF_EXITING))
		return true;
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	status = fopen(path, "re");
	if (status == NULL)
		return true;
	while (fgets(line, sizeof line, status)) {
		unsigned long long pending;

		if (strncmp(line, "State:\tZ", 8) == 0 || strncmp(line, "State:\tX", 8) == 0)
			ending = true;
		if ((sscanf(line, "SigPnd: %llx", &pending) == 1 ||
		     sscanf(line, "ShdPnd: %llx", &pending) == 1) &&
		    (pending & SIGNAL_BIT(SIGKILL)))
			ending = true;
	}
	fclose(status);
	return ending;
}

/*
 * The caller is killed while its spawn waits in an action (an open of a
 * FIFO that has no writer): it dies within 10 s, and its child goes too,
 * neither left waiting nor as a zombie under the test, a subreaper. A child
 * that outlives its caller and later runs the program is the hazard
 * (posix, vfork); a child killed with its caller that comes to the
 * subreaper as a zombie is iouring's design (REPARENTED), and on any
 * other backend a failure. Where the spawn waits in the caller itself,
 * before any child exists (builder), nothing may be left waiting in the
 * open once the caller died, and no child may appear.
 */
Test(safety, killed_caller_leaves_nothing)
{
	char *fifo = make_fifo();
	struct helper h;
	struct compat_spawn request;

	helper_prepare(&h, &request);
	ACTIONS(request, compat_open(20, AT_FDCWD, fifo, O_RDONLY, 0));
	skip_if_refused(&request);
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	if (helper_fork(&h)) {
		helper_spawn(&h, &request);
		_exit(3);
	}
	char caller[16];

	snprintf(caller, sizeof caller, "%d", h.pid);
	pid_t child = blocked_spawn_of(h.pid, caller);

	cr_assert_eq(kill(h.pid, SIGKILL), 0);
	int status = wait_for(h.pid, LIMIT_MS);

	cr_assert(status != -1, "the caller did not die within %d ms of SIGKILL", LIMIT_MS);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the caller: status %#x",
		  status);
	if (child == 0) {
		int writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

		cr_assert(writer < 0 && errno == ENXIO,
			  "the caller died in the spawn, and the FIFO still has a reader");
		helper_close(&h);
		expect_no_children();
		return;
	}
	if (!going(child)) {
		int writer = release_fifo(fifo);
		char report[2048];

		cr_assert_geq(writer, 0, "the child does not hold the FIFO open: %s", strerror(errno));

		wait_for(child, LIMIT_MS);
		close(writer);
		drain_report(h.report[0], report, sizeof report);
		hazard(orphaned, report[0] ?
			"the caller died, its child stayed in the blocked action and ran the program "
			"once the action returned" :
			"the caller died, its child stayed in the blocked action");
	}
	for (int i = 0; i < LIMIT_MS / 10 && kill(child, 0) == 0; i++) {
		siginfo_t info = { 0 };

		if (waitid(P_PID, (id_t)child, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid != 0) {
			bool killed = info.si_code == CLD_KILLED && info.si_status == SIGKILL;

			cr_assert(killed, "the child of the killed caller is left as a zombie under "
				  "the subreaper, not killed (si_code %d, status %d)", info.si_code,
				  info.si_status);
			waitpid(child, NULL, 0);
			hazard(reparented, "the caller died, its child was killed with it and left "
					   "as a zombie under the subreaper");
		}
		usleep(10000);
	}
	cr_assert_neq(kill(child, 0), 0, "the child of the killed caller is still there after %d ms",
		      LIMIT_MS);
	helper_close(&h);
	expect_no_children();
}

/* A spawn in a thread of the test's process. */
struct spawner {
	const struct compat_spawn *request;
	struct compat_result result;
	pthread_t thread;
	_Atomic pid_t tid;
};

static void *spawn_in_thread(void *arg)
{
	struct spawner *s = arg;

	s->tid = (pid_t)syscall(SYS_gettid);
	compat_spawn(backend(), s->request, &s->result);
	return NULL;
}

/* waitpid(-1, &status, 0) in a thread. */
struct waiter {
	pthread_t thread;
	_Atomic pid_t tid;
	atomic_bool done;
	pid_t got;
	int error;
};

static void *wait_for_any(void *arg)
{
	struct waiter *w = arg;
	int status;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->got = waitpid(-1, &status, 0);
	w->error = errno;
	w->done = true;
	return NULL;
}

/*
 * A thread that sleeps in waitpid(-1) while a spawn's child is the only
 * child returns (ECHILD, or that child reaped) once the spawn has failed:
 * a failed child that vanishes without waking it leaves it asleep. Where
 * the spawn waits in the caller before any child exists (builder), the
 * waiter has no child to wait for and returns ECHILD at once.
 */
Test(safety, blocked_waitpid_returns_when_spawn_fails)
{
	char *fifo = make_fifo();
	struct tiny tiny;
	struct compat_spawn request;
	struct spawner s = { .request = &request };
	struct waiter w = { .got = 0 };
	struct timespec deadline;

	tiny_request(&tiny, &request, NULL, NULL);
	ACTIONS(request, compat_open(20, AT_FDCWD, fifo, O_RDONLY, 0),
		compat_chdir(scratch_path("missing")));
	skip_if_refused(&request);
	cr_assert_eq(pthread_create(&s.thread, NULL, spawn_in_thread, &s), 0);
	char spawning[32];

	for (int i = 0; i < 500 && !s.tid; i++)
		usleep(10000);
	snprintf(spawning, sizeof spawning, "self/task/%d", s.tid);
	pid_t child = blocked_spawn_of(getpid(), spawning);

	cr_assert_eq(pthread_create(&w.thread, NULL, wait_for_any, &w), 0);
	for (int i = 0; i < 500 && !w.done && (!w.tid || proc_thread_state(w.tid) != 'S'); i++)
		usleep(10000);
	usleep(100000);
	cr_assert(!w.done || child == 0, "waitpid(-1) returned while the child waited: %d (%s)",
		  w.got, strerror(w.error));
	int writer = release_fifo(fifo);

	cr_assert_geq(writer, 0, "the spawn does not hold the FIFO open: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += LIMIT_MS / 1000;
	cr_assert_eq(pthread_timedjoin_np(s.thread, NULL, &deadline), 0,
		     "the spawn did not return within %d ms of the FIFO's release", LIMIT_MS);
	for (int i = 0; i < LIMIT_MS / 10 && !w.done; i++)
		usleep(10000);
	cr_assert(w.done, "waitpid(-1) in another thread still sleeps %d ms after the spawn failed",
		  LIMIT_MS);
	cr_assert_eq(pthread_join(w.thread, NULL), 0);
	cr_assert((child && w.got == child) || (w.got == -1 && w.error == ECHILD),
		  "waitpid(-1) returned %d (%s), the failed child was %d", w.got, strerror(w.error),
		  child);
	close(writer);
	expect_failure(&s.result, ENOENT, 1);
}

/* ---- credentials ---- */

static void copy_program(const char *from, const char *to, mode_t mode)
{
	char buffer[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	ssize_t got;

	cr_assert(in >= 0 && out >= 0, "copy %s to %s: %s", from, to, strerror(errno));
	while ((got = read(in, buffer, sizeof buffer)) > 0)
		cr_assert_eq(write(out, buffer, (size_t)got), got);
	cr_assert_eq(got, 0);
	cr_assert_eq(fchmod(out, mode), 0);
	close(in);
	close(out);
}

/* This process's VmSize in bytes. */
static unsigned long long address_space(void)
{
	FILE *status = fopen("/proc/self/status", "re");
	unsigned long long kib = 0;
	char line[256];

	while (status && fgets(line, sizeof line, status))
		if (sscanf(line, "VmSize: %llu kB", &kib) == 1)
			break;
	if (status)
		fclose(status);
	return kib << 10;
}

/*
 * As uid 1000, a PATH search whose first candidate is a set-uid root copy
 * of bigbss (256 MiB of .bss) and whose second is the probe, under a soft
 * RLIMIT_AS too small for that .bss: the set-uid exec fails past its point
 * of no return, with the new credentials already taken, and the search must
 * end there (the probe, run as root or not, would be the hazard). The
 * helper checks the set-up first: the set-uid program runs without the
 * limit and not under it, the probe runs under it.
 */
Test(safety, failed_setuid_exec_runs_nothing_after)
{
	need_root("a set-uid root program and an unprivileged caller");
	char *setuid_program = scratch_path("a/prog"), *search;
	struct helper h;
	struct compat_spawn request, alone, probe_alone;

	cr_assert(asprintf(&search, "%s:%s", scratch_path("a"), scratch_path("b")) > 0);
	cr_assert_eq(chmod(scratch_path("."), 0755), 0);
	make_dir(scratch_path("a"));
	make_dir(scratch_path("b"));
	copy_program(program("bigbss"), setuid_program, 04755);
	cr_assert_eq(symlink(program("probe"), scratch_path("b/prog")), 0);
	helper_prepare(&h, &request);
	probe_alone = request;
	h.argv[0] = "prog";
	request.exec_mode = COMPAT_EXEC_SEARCH;
	request.path = "prog";
	skip_if_refused(&request);
	alone = request;
	alone.exec_mode = COMPAT_EXEC_PATH;
	alone.path = setuid_program;
	if (helper_fork(&h)) {
		if (drop_privileges() || setenv("PATH", search, 1))
			_exit(2);
		helper_spawn(&h, &alone);
		struct rlimit limit;

		getrlimit(RLIMIT_AS, &limit);
		limit.rlim_cur = address_space() + (32 << 20);
		if (limit.rlim_cur >= 192 << 20 || setrlimit(RLIMIT_AS, &limit))
			_exit(2);
		helper_spawn(&h, &alone);
		helper_spawn(&h, &probe_alone);
		helper_spawn(&h, &request);
		_exit(0);
	}
	struct outcome unlimited = helper_outcome(&h), limited = helper_outcome(&h),
		       probe = helper_outcome(&h), searched = helper_outcome(&h);

	helper_end(&h);
	cr_assert(unlimited.result.pid > 0 && WIFEXITED(unlimited.status) &&
			  WEXITSTATUS(unlimited.status) == 0,
		  "the set-uid program does not run for uid %d: %s, status %#x", USER_ID,
		  strerror(unlimited.result.error), unlimited.status);
	cr_assert(limited.result.pid > 0 ? WIFSIGNALED(limited.status) :
					   limited.result.error != 0,
		  "the set-uid program did not fail under the limit: status %#x", limited.status);
	cr_assert(probe.result.pid > 0 && strstr(probe.report, "\ncreds 1000 1000 1000 1000\n"),
		  "the probe does not run under the limit: %s, status %#x, report:\n%s",
		  strerror(probe.result.error), probe.status, probe.report);
	cr_assert_str_empty(searched.report,
			    "the search ran its next candidate after the set-uid exec had failed "
			    "past its point of no return; it reported:\n%s",
			    searched.report);
	if (searched.result.pid > 0)
		cr_assert(WIFSIGNALED(searched.status), "the child: status %#x", searched.status);
	else
		cr_assert_neq(searched.result.error, 0);
}

/* The lines of /proc/PID/status that say what a process may do. */
static void privileges(pid_t pid, char *text, size_t size)
{
	static const char *const fields[] = {
		"Uid:", "Gid:", "Groups:", "CapInh:", "CapPrm:", "CapEff:", "CapBnd:",
		"CapAmb:", "NoNewPrivs:", "Seccomp:", "Seccomp_filters:",
	};
	char path[64], line[512];
	size_t length = 0;
	FILE *status;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	status = fopen(path, "re");
	text[0] = '\0';
	while (status && fgets(line, sizeof line, status))
		for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
			if (strncmp(line, fields[i], strlen(fields[i])) == 0 &&
			    length + strlen(line) < size)
				length += (size_t)snprintf(text + length, size - length, "%s", line);
	if (status)
		fclose(status);
}

/*
 * A caller that dropped to uid 1000 (no capabilities), set no_new_privs and
 * installed a seccomp filter spawns "tiny wait", which waits on the stdin
 * it inherits: the running program has exactly the caller's ids, groups,
 * capability sets, no_new_privs and seccomp mode and filter count. The
 * helper spawns once as root before the drop, so a backend that keeps
 * state from an earlier spawn (iouring's ring) made it privileged.
 */
Test(safety, child_has_no_more_privilege_than_caller)
{
	need_root("a caller that drops to an unprivileged uid");
	char *argv[] = { "tiny", "wait", NULL };
	struct compat_spawn request = { .path = program("tiny"), .argv = argv };
	struct compat_spawn before = request;
	struct helper h;
	int input[2];

	before.argv = (char *[]){ "tiny", NULL };
	helper_prepare(&h, NULL);
	cr_assert_eq(pipe2(input, O_CLOEXEC), 0);
	skip_if_refused(&request);
	if (helper_fork(&h)) {
		struct outcome o = { .status = -1 }, caller = { .status = -1 };

		helper_spawn(&h, &before);
		if (drop_privileges() || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    dup2(input[0], 0) != 0)
			_exit(2);
		install_filter(__NR_acct, SECCOMP_RET_ERRNO | EPERM);
		privileges(getpid(), caller.report, sizeof caller.report);
		compat_spawn(backend(), &request, &o.result);
		o.result.reason = NULL;
		if (o.result.pid > 0) {
			privileges(o.result.pid, o.report, sizeof o.report);
			close(input[1]);
			o.status = reap(o.result.pid);
		}
		send_outcome(&h, &caller);
		send_outcome(&h, &o);
		_exit(0);
	}
	close(input[0]);
	close(input[1]);
	struct outcome first = helper_outcome(&h), caller = helper_outcome(&h),
		       spawned = helper_outcome(&h);

	helper_end(&h);
	cr_assert(first.result.pid > 0 && WIFEXITED(first.status), "the spawn as root failed: %s",
		  strerror(first.result.error));
	cr_assert(spawned.result.pid > 0, "the spawn as uid %d failed: %s", USER_ID,
		  strerror(spawned.result.error));
	cr_assert(WIFEXITED(spawned.status) && WEXITSTATUS(spawned.status) == 0,
		  "tiny wait: status %#x", spawned.status);
	cr_assert(strstr(caller.report, "Uid:\t1000\t1000\t1000\t1000\n") &&
			  strstr(caller.report, "CapEff:\t0000000000000000\n") &&
			  strstr(caller.report, "NoNewPrivs:\t1\n") &&
			  strstr(caller.report, "Seccomp:\t2\n"),
		  "the caller did not drop its privileges:\n%s", caller.report);
	cr_assert_str_eq(spawned.report, caller.report,
			 "the child's privileges differ from its caller's; the child:\n%s\ncaller:\n%s",
			 spawned.report, caller.report);
}
