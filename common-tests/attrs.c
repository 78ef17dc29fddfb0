/*
 * Suite attrs: session, process group, signal mask and dispositions, umask,
 * credentials, scheduling and the terminal's foreground group.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus.h"
#include "../testlib/proc-children.h"

TestSuite(attrs);

static void set_disposition(int sig, void (*handler)(int))
{
	struct sigaction action = { .sa_handler = handler };

	cr_assert_eq(sigaction(sig, &action, NULL), 0);
}

Test(attrs, setsid_new_session)
{
	struct report report;

	PROBE_WITH(report, compat_setsid());
	cr_assert_eq(report.sid, report.pid);
	cr_assert_eq(report.pgid, report.pid);
}

Test(attrs, session_and_group_inherited)
{
	struct report report;

	probe_with(&report, NULL, 0);
	cr_assert_eq(report.sid, getsid(0));
	cr_assert_eq(report.pgid, getpgid(0));
}

Test(attrs, setpgid_zero_new_group)
{
	struct report report;

	PROBE_WITH(report, compat_setpgid(0));
	cr_assert_eq(report.pgid, report.pid);
	cr_assert_eq(report.sid, getsid(0));
}

/*
 * A pipe whose read end becomes our stdin, which children inherit (a dup2
 * action would do, but a backend's broken dup2 would leave them reading
 * criterion's stdin, which never ends); returns the write end: closing it
 * ends them.
 */
static int stdin_feed(void)
{
	int fds[2];

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
	cr_assert_eq(dup2(fds[0], 0), 0);
	cr_assert_eq(close(fds[0]), 0);
	return fds[1];
}

Test(attrs, setpgid_existing_group)
{
	int feed = stdin_feed();
	struct tiny tiny;
	struct compat_spawn request;
	struct report report;

	/* a group leader that lives until its stdin closes */
	tiny_request(&tiny, &request, "wait", NULL);
	ACTIONS(request, compat_setpgid(0));
	pid_t leader = spawn_ok(&request);

	PROBE_WITH(report, compat_setpgid(leader));
	cr_assert_eq(report.pgid, leader);
	cr_assert_eq(close(feed), 0);
	expect_exit(leader, 0);
}

Test(attrs, setpgid_missing_group_eperm)
{
	struct tiny tiny;
	struct compat_spawn request;

	/* a reaped child's pid names no group */
	tiny_request(&tiny, &request, NULL, NULL);
	pid_t gone = spawn_ok(&request);

	expect_exit(gone, 0);
	FAILS_WITH(EPERM, 0, compat_setpgid(gone));
}

/* A session leader cannot start another one (glibc runs setsid only once: refused there). */
Test(attrs, setsid_twice_eperm)
{
	FAILS_WITH(EPERM, 1, compat_setsid(), compat_setsid());
}

/* A session leader cannot change its group. */
Test(attrs, setsid_then_setpgid_eperm)
{
	FAILS_WITH(EPERM, 1, compat_setsid(), compat_setpgid(0));
}

/* A group leader cannot start a session. */
Test(attrs, setpgid_then_setsid_eperm)
{
	FAILS_WITH(EPERM, 1, compat_setpgid(0), compat_setsid());
}

/* The settable signals of a set (corpus.h says which are not). */
static uint64_t settable(uint64_t bits)
{
	return bits & settable_signals();
}

static void block_only(uint64_t bits)
{
	sigset_t mask = signal_set(bits);

	cr_assert_eq(sigprocmask(SIG_SETMASK, &mask, NULL), 0);
}

/*
 * The signals whose disposition tests change: the settable ones but
 * SIGCHLD, as we wait for our children (ignored, the kernel reaps them).
 */
static uint64_t disposable(uint64_t bits)
{
	return settable(bits) & ~SIGNAL_BIT(SIGCHLD);
}

/* Every disposable signal in bits to handler, the others to SIG_DFL. */
static void set_dispositions(uint64_t bits, void (*handler)(int))
{
	for (int sig = 1; sig <= 64; sig++)
		if (disposable(SIGNAL_BIT(sig)))
			set_disposition(sig, bits & SIGNAL_BIT(sig) ? handler : SIG_DFL);
}

/* The mask each pattern of signals 1..64 gives the program, realtime included. */
Test(attrs, sigmask_set)
{
	const uint64_t patterns[] = { ODD_SIGNALS, EVEN_SIGNALS };

	for (size_t i = 0; i < 2; i++) {
		sigset_t mask = signal_set(patterns[i]);
		struct report report;

		PROBE_WITH(report, compat_sigmask(&mask));
		cr_assert_eq(settable(report.blocked), settable(patterns[i]), "mask %#jx",
			     (uintmax_t)patterns[i]);
	}
}

Test(attrs, sigmask_inherited)
{
	const uint64_t patterns[] = { ODD_SIGNALS, EVEN_SIGNALS };

	for (size_t i = 0; i < 2; i++) {
		struct report report;

		block_only(patterns[i]);
		probe_with(&report, NULL, 0);
		cr_assert_eq(settable(report.blocked), settable(patterns[i]), "mask %#jx",
			     (uintmax_t)patterns[i]);
	}
}

Test(attrs, sigmask_empty_unblocks)
{
	sigset_t empty = signal_set(0);
	struct report report;

	block_only(~UINT64_C(0));
	PROBE_WITH(report, compat_sigmask(&empty));
	cr_assert_eq(settable(report.blocked), 0);
}

Test(attrs, sigmask_last_wins)
{
	sigset_t first = signal_set(ODD_SIGNALS), second = signal_set(EVEN_SIGNALS);
	struct report report;

	PROBE_WITH(report, compat_sigmask(&first), compat_sigmask(&second));
	cr_assert_eq(settable(report.blocked), settable(EVEN_SIGNALS));
}

struct from_thread {
	struct probe probe;
	struct compat_spawn request;
	struct compat_result result;
};

/* Spawns with this thread's mask, the odd signals; no assertions off the main thread. */
static void *spawn_with_odd_mask(void *arg)
{
	struct from_thread *spawned = arg;
	sigset_t mask = signal_set(ODD_SIGNALS);

	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	compat_spawn(backend(), &spawned->request, &spawned->result);
	return NULL;
}

/* The mask is the calling thread's, not the main thread's. */
Test(attrs, sigmask_of_calling_thread)
{
	struct from_thread spawned;
	pthread_t thread;
	struct report report;

	block_only(EVEN_SIGNALS);
	probe_prepare(&spawned.probe, &spawned.request);
	cr_assert_eq(pthread_create(&thread, NULL, spawn_with_odd_mask, &spawned), 0);
	cr_assert_eq(pthread_join(thread, NULL), 0);
	cr_assert_eq(spawned.result.error, 0, "spawn failed: %s", strerror(spawned.result.error));
	probe_read(&spawned.probe, spawned.result.pid, &report);
	cr_assert_eq(settable(report.blocked), settable(ODD_SIGNALS));
}

Test(attrs, ignored_inherited)
{
	const uint64_t patterns[] = { ODD_SIGNALS, EVEN_SIGNALS };

	for (size_t i = 0; i < 2; i++) {
		struct report report;

		set_dispositions(patterns[i], SIG_IGN);
		probe_with(&report, NULL, 0);
		cr_assert_eq(disposable(report.ignored), disposable(patterns[i]), "ignored %#jx",
			     (uintmax_t)patterns[i]);
	}
}

Test(attrs, sigdefault_resets_ignored)
{
	sigset_t reset = signal_set(ODD_SIGNALS);
	struct report report;

	set_dispositions(~UINT64_C(0), SIG_IGN);
	PROBE_WITH(report, compat_sigdefault(&reset));
	cr_assert_eq(disposable(report.ignored), disposable(EVEN_SIGNALS));
}

/* The odd signals, then the even ones below 32: the even realtime ones stay ignored. */
Test(attrs, sigdefault_sets_add_up)
{
	sigset_t first = signal_set(ODD_SIGNALS), second = signal_set(EVEN_SIGNALS & 0xffffffff);
	struct report report;

	set_dispositions(~UINT64_C(0), SIG_IGN);
	PROBE_WITH(report, compat_sigdefault(&first), compat_sigdefault(&second));
	cr_assert_eq(disposable(report.ignored), disposable(EVEN_SIGNALS & ~UINT64_C(0xffffffff)));
}

/* The pid of the test, and the first signal whose handler ran in another process. */
static pid_t test_pid;
static volatile sig_atomic_t ran_elsewhere;

static void note_elsewhere(int sig)
{
	if (getpid() != test_pid)
		ran_elsewhere = sig;
}

/* What a signal does by default to a process that is not stopped. */
static bool ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

struct signal_in_setup {
	char *to_child, *from_child;	/* FIFOs the child's actions open */
	int sig;
	bool delivered;
	bool child_existed;	/* when sig was sent */
};

/*
 * Holds the child in its setup: it opens to_child for writing (which waits
 * for this reader), then from_child for reading (which waits for this
 * writer). In between the child has not exec'd: sig goes to our process
 * group, the child included if it exists yet (a backend that applies the
 * actions in the caller, builder, makes the child after them).
 */
static void *signal_during_setup(void *arg)
{
	struct signal_in_setup *setup = arg;
	int reader = open(setup->to_child, O_RDONLY | O_CLOEXEC);

	setup->child_existed = proc_find_child_of(test_pid, 0) > 0;
	setup->delivered = reader >= 0 && kill(0, setup->sig) == 0;
	int writer = open(setup->from_child, O_WRONLY | O_CLOEXEC);

	close(reader);
	close(writer);
	return NULL;
}

/*
 * A caught signal that reaches the child during its setup is taken as
 * SIG_DFL once the program's mask lets it through: the caller's handler
 * never runs in the child, which shares the caller's memory. Every settable
 * signal but SIGTSTP, SIGTTIN and SIGTTOU, which would stop the child before
 * its exec. The signal stays blocked in the caller: a kernel backend's child
 * runs its actions with the caller's mask, and the FIFO opens must not be
 * interrupted; the program's mask, from the last action, is empty. Where
 * no child existed yet when the signal was sent (the actions ran in the
 * caller), the signal reached only the caller and the program exits 0.
 */
Test(attrs, caught_becomes_default, .init = scratch_create, .fini = scratch_remove)
{
	struct signal_in_setup setup = {
		.to_child = scratch_path("to-child"), .from_child = scratch_path("from-child")
	};
	const struct rlimit no_core = { 0, 0 };
	sigset_t empty = signal_set(0);
	struct tiny tiny;
	struct compat_spawn request;

	test_pid = getpid();
	own_process_group();
	cr_assert_eq(setrlimit(RLIMIT_CORE, &no_core), 0);
	cr_assert_eq(mkfifo(setup.to_child, 0600), 0);
	cr_assert_eq(mkfifo(setup.from_child, 0600), 0);
	block_only(settable_signals());
	set_dispositions(settable_signals(), note_elsewhere);
	set_disposition(SIGCHLD, note_elsewhere);	/* caught, it reaps nothing */
	tiny_request(&tiny, &request, NULL, NULL);
	ACTIONS(request, compat_open(30, AT_FDCWD, setup.to_child, O_WRONLY, 0),
		compat_open(31, AT_FDCWD, setup.from_child, O_RDONLY, 0), compat_sigmask(&empty));
	for (setup.sig = 1; setup.sig <= 64; setup.sig++) {
		if (!settable(SIGNAL_BIT(setup.sig)) || setup.sig == SIGTSTP ||
		    setup.sig == SIGTTIN || setup.sig == SIGTTOU)
			continue;
		pthread_t thread;

		cr_assert_eq(pthread_create(&thread, NULL, signal_during_setup, &setup), 0);
		pid_t pid = spawn_ok(&request);

		cr_assert_eq(pthread_join(thread, NULL), 0);
		cr_assert(setup.delivered, "signal %d not sent", setup.sig);
		int status = wait_status(pid);

		cr_assert_eq(ran_elsewhere, 0, "the caller's handler of signal %d ran in the child",
			     ran_elsewhere);
		if (ignored_by_default(setup.sig) || !setup.child_existed)
			cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				  "signal %d: status %#x", setup.sig, status);
		else
			cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == setup.sig,
				  "signal %d: status %#x", setup.sig, status);
	}
}

Test(attrs, umask_set)
{
	struct report report;

	umask(022);
	PROBE_WITH(report, compat_umask(0017));
	cr_assert_eq(report.umask, 0017);
}

Test(attrs, umask_inherited)
{
	struct report report;

	umask(027);
	probe_with(&report, NULL, 0);
	cr_assert_eq(report.umask, 027);
}

Test(attrs, umask_last_wins)
{
	struct report report;

	PROBE_WITH(report, compat_umask(0077), compat_umask(0002));
	cr_assert_eq(report.umask, 0002);
}

/* Real uid 1000 and gid 2000, effective and saved ids 0. */
static void set_real_ids(void)
{
	if (setresgid(2000, 0, 0) != 0 || setresuid(1000, 0, 0) != 0)
		cr_skip_test("needs root: setresuid/setresgid: %s", strerror(errno));
}

Test(attrs, resetids_takes_real_ids)
{
	struct report report;

	set_real_ids();
	PROBE_WITH(report, compat_resetids());
	cr_assert_eq(report.euid, 1000, "effective uid %u", (unsigned int)report.euid);
	cr_assert_eq(report.egid, 2000, "effective gid %u", (unsigned int)report.egid);
	cr_assert_eq(report.uid, 1000);
	cr_assert_eq(report.gid, 2000);
	cr_assert(geteuid() == 0 && getegid() == 0, "the caller's effective ids changed");
}

/*
 * RESETIDS in a child that shares the caller's memory, as glibc's and
 * vfork's children and the kernel's CLONE_ACTIONS child do, marks that
 * memory non-dumpable when the effective uid changes (commit_creds()), so
 * the caller's PR_GET_DUMPABLE changes too, to fs.suid_dumpable. That is
 * glibc's behaviour, and a backend whose child shares that memory gives
 * the same; a child that never shares it (builder's) leaves the caller's
 * flag as it was, 1. Any other value is wrong.
 */
Test(attrs, resetids_caller_dumpable_as_glibc)
{
	char *const argv[] = { "true", NULL };
	int glibc, status, suid_dumpable = -1;
	struct report report;
	posix_spawnattr_t attr;
	FILE *f;
	pid_t pid;

	f = fopen("/proc/sys/fs/suid_dumpable", "r");
	cr_assert(f && fscanf(f, "%d", &suid_dumpable) == 1, "fs.suid_dumpable unreadable");
	fclose(f);
	cr_assert_neq(suid_dumpable, 1, "fs.suid_dumpable is 1: RESETIDS changes nothing to compare");
	set_real_ids();
	cr_assert_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	cr_assert_eq(posix_spawnattr_init(&attr), 0);
	cr_assert_eq(posix_spawnattr_setflags(&attr, POSIX_SPAWN_RESETIDS), 0);
	cr_assert_eq(posix_spawn(&pid, "/bin/true", NULL, &attr, argv, environ), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	posix_spawnattr_destroy(&attr);
	glibc = prctl(PR_GET_DUMPABLE);
	cr_assert_eq(glibc, suid_dumpable, "after glibc's RESETIDS child the caller's dumpable flag "
		     "is %d, fs.suid_dumpable %d", glibc, suid_dumpable);

	cr_assert_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	PROBE_WITH(report, compat_resetids());
	cr_assert_eq(report.euid, 1000);
	int dumpable = prctl(PR_GET_DUMPABLE);

	cr_assert(dumpable == glibc || dumpable == 1,
		  "the caller's dumpable flag: %d, glibc's %d, before the spawn 1", dumpable, glibc);
}

Test(attrs, effective_ids_inherited)
{
	struct report report;

	set_real_ids();
	probe_with(&report, NULL, 0);
	cr_assert_eq(report.euid, 0);
	cr_assert_eq(report.egid, 0);
	cr_assert_eq(report.uid, 1000);
	cr_assert_eq(report.gid, 2000);
}

static void set_scheduler(int policy, int priority)
{
	const struct sched_param param = { .sched_priority = priority };

	if (sched_setscheduler(0, policy, &param) != 0) {
		cr_assert_eq(errno, EPERM, "sched_setscheduler: %s", strerror(errno));
		cr_skip_test("needs root: a realtime policy: %s", strerror(errno));
	}
}

static void expect_sched(const struct report *report, int policy, int priority)
{
	cr_assert_eq(report->policy, policy, "policy %d, expected %d", report->policy, policy);
	cr_assert_eq(report->priority, priority, "priority %d, expected %d", report->priority,
		     priority);
}

/* SCHED_FIFO and SCHED_RR need privilege (checked on ourselves first). */
Test(attrs, setscheduler_realtime)
{
	const struct { int policy, priority; } wanted[] = { { SCHED_FIFO, 1 }, { SCHED_RR, 2 } };

	set_scheduler(SCHED_FIFO, 1);
	set_scheduler(SCHED_OTHER, 0);
	for (size_t i = 0; i < 2; i++) {
		struct report report;

		PROBE_WITH(report, compat_setscheduler(wanted[i].policy, wanted[i].priority));
		expect_sched(&report, wanted[i].policy, wanted[i].priority);
	}
}

/* Unprivileged: glibc's posix_spawnattr_setschedpolicy() refuses these two. */
Test(attrs, setscheduler_batch_and_idle)
{
	const int policies[] = { SCHED_BATCH, SCHED_IDLE };

	for (size_t i = 0; i < 2; i++) {
		struct report report;

		PROBE_WITH(report, compat_setscheduler(policies[i], 0));
		expect_sched(&report, policies[i], 0);
	}
}

/* The priority alone: the policy is the caller's (SCHED_RR here). */
Test(attrs, setschedparam_keeps_policy)
{
	struct report report;

	set_scheduler(SCHED_RR, 1);
	PROBE_WITH(report, compat_setschedparam(2));
	expect_sched(&report, SCHED_RR, 2);
}

Test(attrs, scheduling_inherited)
{
	struct report report;

	set_scheduler(SCHED_BATCH, 0);
	probe_with(&report, NULL, 0);
	expect_sched(&report, SCHED_BATCH, 0);
}

/* SCHED_OTHER takes only priority 0: the system call's EINVAL, at its step. */
Test(attrs, setscheduler_bad_priority_einval)
{
	FAILS_WITH(EINVAL, 0, compat_setscheduler(SCHED_OTHER, 1));
}

/*
 * A pty master. /dev/ptmx needs devpts on /dev/pts (vm/init mounts it in
 * the guests); where nothing mounted it, a devpts of the test's own, in a
 * mount namespace of the test's process, detached once open.
 */
static int pty_master(void)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (master >= 0)
		return master;
	int why = errno;
	char *pts = scratch_path("pts");

	make_dir(pts);
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("devpts", pts, "devpts", 0, "ptmxmode=0600") != 0)
		cr_skip_test("no pty: /dev/ptmx: %s; a devpts of our own: %s", strerror(why),
			     strerror(errno));
	master = open(scratch_path("pts/ptmx"), O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_assert(master >= 0, "open ptmx: %s", strerror(errno));
	return master;
}

/*
 * A new pty becomes our controlling terminal (criterion runs each test in
 * a session leader without one); returns the slave's fd. The master stays
 * open until the test's process ends.
 */
static int controlling_terminal(void)
{
	int master = pty_master();

	cr_assert_eq(unlockpt(master), 0, "unlockpt: %s", strerror(errno));
	int slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);

	cr_assert(slave >= 0, "TIOCGPTPEER: %s", strerror(errno));
	umount2(scratch_path("pts"), MNT_DETACH);	/* when pty_master() mounted it */
	cr_assert(getsid(0) == getpid() || setsid() >= 0, "setsid: %s", strerror(errno));
	cr_assert_eq(ioctl(slave, TIOCSCTTY, 0), 0, "TIOCSCTTY: %s", strerror(errno));
	cr_assert_eq(tcgetpgrp(slave), getpgrp());
	return slave;
}

/* A child that waits for its stdin (stdin_feed()) to close. */
struct waiting {
	struct tiny tiny;
	struct compat_action actions[2];
	struct compat_spawn request;
};

/*
 * The child in group pgid (0: a new one); with a terminal (not -1), it
 * puts its group in the terminal's foreground.
 */
static void waiting_request(struct waiting *child, pid_t pgid, int terminal)
{
	tiny_request(&child->tiny, &child->request, "wait", NULL);
	child->actions[0] = compat_setpgid(pgid);
	child->actions[1] = compat_tcsetpgrp(terminal);
	child->request.actions = child->actions;
	child->request.n_actions = terminal == -1 ? 1 : 2;
}

/*
 * A thread that kills every child of ours that stops: a setup that runs
 * tcsetpgrp from a background group with SIGTTOU deliverable stops there,
 * and the spawn would never return (a vfork caller blocks the signals a
 * test timeout would use).
 */
struct stop_watch {
	pthread_t thread;
	bool done;		/* atomic */
	pid_t stopped;		/* the first child found stopped, and killed */
};

static pid_t stopped_child(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *entry;
	pid_t found = 0;

	while (proc && !found && (entry = readdir(proc)) != NULL) {
		char buf[512], state;
		const char *fields = proc_stat_fields(entry->d_name, buf, sizeof buf);
		int ppid;

		if (fields && sscanf(fields, "%c %d", &state, &ppid) == 2 && ppid == getpid() &&
		    (state == 'T' || state == 't'))
			found = atoi(entry->d_name);
	}
	if (proc)
		closedir(proc);
	return found;
}

static void *watch_stops(void *arg)
{
	struct stop_watch *watch = arg;

	while (!__atomic_load_n(&watch->done, __ATOMIC_ACQUIRE)) {
		pid_t stopped = stopped_child();

		if (stopped) {
			kill(stopped, SIGKILL);
			if (watch->stopped == 0)
				watch->stopped = stopped;
		}
		usleep(20000);
	}
	return NULL;
}

/* spawn_ok() under a stop_watch: no child may stop meanwhile. */
static pid_t spawn_unstopped(const struct compat_spawn *request)
{
	struct stop_watch watch = { .done = false };

	cr_assert_eq(pthread_create(&watch.thread, NULL, watch_stops, &watch), 0);
	pid_t pid = spawn_ok(request);

	__atomic_store_n(&watch.done, true, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(watch.thread, NULL), 0);
	cr_assert_eq(watch.stopped, 0, "child %d stopped during the spawn (SIGTTOU?), killed",
		     watch.stopped);
	return pid;
}

static void expect_foreground(int terminal, pid_t group)
{
	pid_t foreground = tcgetpgrp(terminal);

	cr_assert_eq(foreground, group, "foreground group %d, expected %d", foreground, group);
}

/* The group the child made is the terminal's foreground group. */
Test(attrs, tcsetpgrp_own_group, .init = scratch_create, .fini = scratch_remove)
{
	int terminal = controlling_terminal(), feed = stdin_feed();
	struct waiting child;

	waiting_request(&child, 0, terminal);
	pid_t pid = spawn_unstopped(&child.request);

	expect_foreground(terminal, pid);
	cr_assert_eq(close(feed), 0);
	expect_exit(pid, 0);
}

/* The child's group, not its pid: it joins a group another child leads. */
Test(attrs, tcsetpgrp_joined_group, .init = scratch_create, .fini = scratch_remove)
{
	int terminal = controlling_terminal(), feed = stdin_feed();
	struct waiting leader, member;

	waiting_request(&leader, 0, -1);
	waiting_request(&member, 0, terminal);
	skip_if_refused(&member.request);
	pid_t leader_pid = spawn_ok(&leader.request);

	expect_foreground(terminal, getpgrp());
	member.actions[0] = compat_setpgid(leader_pid);
	pid_t member_pid = spawn_unstopped(&member.request);

	expect_foreground(terminal, leader_pid);
	cr_assert_eq(close(feed), 0);
	expect_exit(leader_pid, 0);
	expect_exit(member_pid, 0);
}

Test(attrs, tcsetpgrp_not_a_terminal_enotty)
{
	int fds[2];

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
	FAILS_WITH(ENOTTY, 0, compat_tcsetpgrp(fds[0]));
}
