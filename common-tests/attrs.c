/* Suite attrs: session, process group, signal mask and dispositions, umask. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus.h"

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

Test(attrs, setpgid_existing_group)
{
	int feed[2];
	struct tiny tiny;
	struct compat_spawn request;
	struct report report;

	/* a group leader that lives until its stdin closes */
	cr_assert_eq(pipe2(feed, O_CLOEXEC), 0);
	tiny_request(&tiny, &request, "wait", NULL);
	ACTIONS(request, compat_setpgid(0), compat_dup2(feed[0], 0));
	pid_t leader = spawn_ok(&request);

	PROBE_WITH(report, compat_setpgid(leader));
	cr_assert_eq(report.pgid, leader);
	cr_assert_eq(close(feed[1]), 0);
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
};

/*
 * Holds the child in its setup: it opens to_child for writing (which waits
 * for this reader), then from_child for reading (which waits for this
 * writer). In between the child exists and has not exec'd: sig goes to our
 * process group, the child included.
 */
static void *signal_during_setup(void *arg)
{
	struct signal_in_setup *setup = arg;
	int reader = open(setup->to_child, O_RDONLY | O_CLOEXEC);

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
 * interrupted; the program's mask, from the last action, is empty.
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
		if (ignored_by_default(setup.sig))
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
