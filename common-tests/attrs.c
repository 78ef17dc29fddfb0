/* Suite attrs: session, process group, signal mask and dispositions, umask. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(attrs);

static sigset_t signals(int first, int second)
{
	sigset_t set;

	sigemptyset(&set);
	if (first)
		sigaddset(&set, first);
	if (second)
		sigaddset(&set, second);
	return set;
}

static uint64_t bit(int sig)
{
	return UINT64_C(1) << (sig - 1);
}

static void set_disposition(int sig, void (*handler)(int))
{
	struct sigaction action = { .sa_handler = handler };

	cr_assert_eq(sigaction(sig, &action, NULL), 0);
}

static void on_signal(int sig)
{
	(void)sig;
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

Test(attrs, sigmask_set)
{
	sigset_t mask = signals(SIGUSR1, SIGTERM);
	struct report report;

	PROBE_WITH(report, compat_sigmask(&mask));
	cr_assert_eq(report.blocked, bit(SIGUSR1) | bit(SIGTERM));
}

Test(attrs, sigmask_inherited)
{
	sigset_t mask = signals(SIGUSR2, 0), now;
	struct report report;

	cr_assert_eq(sigprocmask(SIG_BLOCK, &mask, NULL), 0);
	cr_assert_eq(sigprocmask(SIG_BLOCK, NULL, &now), 0);
	probe_with(&report, NULL, 0);
	cr_assert_eq(report.blocked, signal_bits(&now));
	cr_assert(report.blocked & bit(SIGUSR2));
}

Test(attrs, sigmask_empty_unblocks)
{
	sigset_t mask = signals(SIGUSR2, 0), empty = signals(0, 0);
	struct report report;

	cr_assert_eq(sigprocmask(SIG_BLOCK, &mask, NULL), 0);
	PROBE_WITH(report, compat_sigmask(&empty));
	cr_assert_eq(report.blocked, 0);
}

Test(attrs, sigmask_last_wins)
{
	sigset_t first = signals(SIGUSR1, 0), second = signals(SIGHUP, 0);
	struct report report;

	PROBE_WITH(report, compat_sigmask(&first), compat_sigmask(&second));
	cr_assert_eq(report.blocked, bit(SIGHUP));
}

Test(attrs, ignored_inherited)
{
	struct report report;

	set_disposition(SIGUSR1, SIG_IGN);
	probe_with(&report, NULL, 0);
	cr_assert(report.ignored & bit(SIGUSR1));
}

Test(attrs, sigdefault_resets_ignored)
{
	sigset_t reset = signals(SIGUSR1, 0);
	struct report report;

	set_disposition(SIGUSR1, SIG_IGN);
	set_disposition(SIGUSR2, SIG_IGN);
	PROBE_WITH(report, compat_sigdefault(&reset));
	cr_assert_not(report.ignored & bit(SIGUSR1));
	cr_assert(report.ignored & bit(SIGUSR2));
}

Test(attrs, sigdefault_sets_add_up)
{
	sigset_t first = signals(SIGUSR1, 0), second = signals(SIGUSR2, 0);
	struct report report;

	set_disposition(SIGUSR1, SIG_IGN);
	set_disposition(SIGUSR2, SIG_IGN);
	set_disposition(SIGHUP, SIG_IGN);
	PROBE_WITH(report, compat_sigdefault(&first), compat_sigdefault(&second));
	cr_assert_eq(report.ignored & (bit(SIGUSR1) | bit(SIGUSR2) | bit(SIGHUP)), bit(SIGHUP));
}

Test(attrs, caught_becomes_default)
{
	struct report report;

	set_disposition(SIGUSR1, on_signal);
	probe_with(&report, NULL, 0);
	cr_assert_not(report.ignored & bit(SIGUSR1));
	cr_assert_not(report.blocked & bit(SIGUSR1));
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
