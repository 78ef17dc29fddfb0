/*
 * Suite errors: failures are synchronous and precise, refusals come before
 * anything is spawned, and nothing of the parent changes, whatever happens.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(errors, .init = scratch_create, .fini = scratch_remove);

static void on_signal(int sig)
{
	(void)sig;
}

/* Give the parent state worth keeping: cwd, umask, mask and handlers. */
static void set_parent_state(void)
{
	struct sigaction caught = { .sa_handler = on_signal }, ignored = { .sa_handler = SIG_IGN };
	sigset_t mask;

	make_dir(scratch_path("sub"));
	cr_assert_eq(chdir(scratch_path(".")), 0);
	umask(023);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	cr_assert_eq(sigprocmask(SIG_BLOCK, &mask, NULL), 0);
	cr_assert_eq(sigaction(SIGUSR1, &caught, NULL), 0);
	cr_assert_eq(sigaction(SIGUSR2, &ignored, NULL), 0);
}

/* Actions that change what the parent must keep; the last one may fail. */
#define BUSY_ACTIONS(last)                                                               \
	compat_setsid(), compat_chdir("sub"),                                             \
	compat_open(60, AT_FDCWD, scratch_path("a"), O_RDWR | O_CREAT, 0600),             \
	compat_dup2(60, 61), compat_close(60), compat_sigmask(&unblocked),                \
	compat_sigdefault(&reset), (last)

Test(errors, state_kept_after_success)
{
	sigset_t unblocked, reset;
	struct report report;

	sigemptyset(&unblocked);
	sigfillset(&reset);
	set_parent_state();
	char *before = parent_state();

	PROBE_WITH(report, BUSY_ACTIONS(compat_close(3)));
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
	cr_assert_str_eq(parent_state(), before);
}

Test(errors, state_kept_after_failure)
{
	sigset_t unblocked, reset;

	sigemptyset(&unblocked);
	sigfillset(&reset);
	set_parent_state();
	char *before = parent_state();

	FAILS_WITH(ENOENT, 7, BUSY_ACTIONS(compat_chdir("missing")));
	cr_assert_str_eq(parent_state(), before);
}

Test(errors, state_kept_after_exec_failure)
{
	struct tiny tiny;
	struct compat_spawn request;

	set_parent_state();
	char *before = parent_state();

	tiny_request(&tiny, &request, NULL, NULL);
	request.path = scratch_path("missing");
	spawn_fails(&request, ENOENT, COMPAT_STEP_EXEC);
	cr_assert_str_eq(parent_state(), before);
}

Test(errors, umask_kept_after_umask_action)
{
	struct report report;

	umask(022);
	PROBE_WITH(report, compat_umask(077));
	cr_assert_eq(report.umask, 077);
	cr_assert_eq(umask(022), 022);
}

Test(errors, pidfd_not_left_after_failure)
{
	struct tiny tiny;
	struct compat_spawn request;
	char *before = parent_state();

	tiny_request(&tiny, &request, NULL, NULL);
	request.path = scratch_path("missing");
	request.want_pidfd = true;
	spawn_fails(&request, ENOENT, COMPAT_STEP_EXEC);
	cr_assert_str_eq(parent_state(), before);
}

/* A failed spawn reaps its own child, not an exited one the caller has not reaped. */
Test(errors, failure_reaps_only_its_child)
{
	struct tiny tiny;
	struct compat_spawn request;
	struct compat_result result;
	siginfo_t info;

	tiny_request(&tiny, &request, NULL, NULL);
	pid_t other = spawn_ok(&request);

	cr_assert_eq(waitid(P_PID, (id_t)other, &info, WEXITED | WNOWAIT), 0);
	request.path = scratch_path("missing");
	spawn(&request, &result);
	cr_assert_eq(result.error, ENOENT);
	expect_exit(other, 0);
	expect_no_children();
}

/* With want_failed_step the step must be named; spawn_fails() checks it. */
Test(errors, failed_step_names_the_action)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	request.want_failed_step = true;
	ACTIONS(request, compat_chdir("/"), compat_chdir(scratch_path("missing")), compat_chdir("/"));
	spawn_fails(&request, ENOENT, 1);
}

Test(errors, failed_step_names_the_exec)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	request.want_failed_step = true;
	request.path = scratch_path("missing");
	ACTIONS(request, compat_chdir("/"));
	spawn_fails(&request, ENOENT, COMPAT_STEP_EXEC);
}

Test(errors, zeroed_action_einval)
{
	struct compat_action zeroed = { .kind = 0 };

	FAILS_WITH(EINVAL, COMPAT_STEP_REQUEST, compat_chdir("/"), zeroed);
}

Test(errors, unknown_close_range_flags_einval)
{
	FAILS_WITH(EINVAL, COMPAT_STEP_REQUEST, compat_close_range(3, ~0U, 1u << 30));
}

Test(errors, unknown_exec_flags_einval)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	exec_at(&request, AT_FDCWD, request.path, 0x40000000);
	spawn_fails(&request, EINVAL, COMPAT_STEP_REQUEST);
}

Test(errors, missing_argv_einval)
{
	struct compat_spawn request = { .path = program("tiny") };

	spawn_fails(&request, EINVAL, COMPAT_STEP_REQUEST);
}

/*
 * For one feature, a request that needs it (and the features it implies):
 * sets *needs to their COMPAT_HAS() bits.
 */
static struct compat_spawn needing(enum compat_feature feature, struct compat_action actions[2],
				   unsigned int *needs)
{
	static char *argv[] = { "tiny", NULL };
	struct compat_spawn request = { .path = program("tiny"), .argv = argv, .actions = actions };
	sigset_t none;

	sigemptyset(&none);
	*needs = COMPAT_HAS(feature);
	request.n_actions = feature <= COMPAT_FEAT_TCSETPGRP;
	switch (feature) {
	case COMPAT_FEAT_CLOSE: actions[0] = compat_close(100); break;
	case COMPAT_FEAT_DUP2: actions[0] = compat_dup2(0, 100); break;
	case COMPAT_FEAT_OPEN: actions[0] = compat_open(100, AT_FDCWD, "x", O_RDONLY, 0); break;
	case COMPAT_FEAT_OPEN_AT: actions[0] = compat_open(100, 0, "x", O_RDONLY, 0); break;
	case COMPAT_FEAT_CHDIR: actions[0] = compat_chdir("/"); break;
	case COMPAT_FEAT_FCHDIR: actions[0] = compat_fchdir(0); break;
	case COMPAT_FEAT_CLOSE_FROM: actions[0] = compat_close_range(100, ~0U, 0); break;
	case COMPAT_FEAT_CLOSE_RANGE: actions[0] = compat_close_range(100, 200, 0); break;
	case COMPAT_FEAT_SETSID: actions[0] = compat_setsid(); break;
	case COMPAT_FEAT_SETPGID: actions[0] = compat_setpgid(0); break;
	case COMPAT_FEAT_ANY_ORDER:
		actions[0] = compat_chdir("/");
		actions[1] = compat_setsid();
		request.n_actions = 2;
		*needs |= COMPAT_HAS(COMPAT_FEAT_CHDIR) | COMPAT_HAS(COMPAT_FEAT_SETSID);
		break;
	case COMPAT_FEAT_SIGMASK: actions[0] = compat_sigmask(&none); break;
	case COMPAT_FEAT_SIGDEFAULT: actions[0] = compat_sigdefault(&none); break;
	case COMPAT_FEAT_UMASK: actions[0] = compat_umask(0); break;
	case COMPAT_FEAT_RESETIDS: actions[0] = compat_resetids(); break;
	case COMPAT_FEAT_SETSCHEDULER: actions[0] = compat_setscheduler(SCHED_OTHER, 0); break;
	case COMPAT_FEAT_SETSCHEDPARAM: actions[0] = compat_setschedparam(0); break;
	case COMPAT_FEAT_TCSETPGRP: actions[0] = compat_tcsetpgrp(0); break;
	case COMPAT_FEAT_EXEC_AT:
		request.exec_mode = COMPAT_EXEC_AT;
		request.dirfd = 0;
		request.path = "tiny";
		break;
	case COMPAT_FEAT_SEARCH_STRING:
		request.search_path = "/spawnlab/nowhere";
		*needs |= COMPAT_HAS(COMPAT_FEAT_SEARCH);
		/* fall through */
	case COMPAT_FEAT_SEARCH:
		request.exec_mode = COMPAT_EXEC_SEARCH;
		request.path = "tiny";
		break;
	case COMPAT_FEAT_PIDFD: request.want_pidfd = true; break;
	case COMPAT_FEAT_FAILED_STEP: request.want_failed_step = true; break;
	case COMPAT_FEAT_SEARCH_STOPS: request.want_search_stops = true; break;
	case COMPAT_FEATURES: break;
	}
	return request;
}

#define LACKS(feature) COMPAT_HAS(COMPAT_FEAT_##feature)

/*
 * What each backend cannot express, pinned apart from the features the
 * library declares: common-tests/features.txt, made into lines
 * { "BACKEND", LACKS(FEATURE) | ... } by common-tests/build.mk. A backend
 * that declares less (or more) fails, instead of skipping more tests.
 */
static const struct {
	const char *backend;
	unsigned int lacks;
} pinned_features[] = {
#include "pinned-features.h"
};

static unsigned int pinned_lacks(const char *name)
{
	for (size_t i = 0; i < sizeof pinned_features / sizeof pinned_features[0]; i++)
		if (strcmp(pinned_features[i].backend, name) == 0)
			return pinned_features[i].lacks;
	cr_assert_fail("backend %s has no line in pinned_features", name);
	return 0;
}

/*
 * The backend declares exactly the pinned features, and the capability
 * query refuses exactly what they lack, before spawning.
 */
Test(errors, refusals_follow_features)
{
	unsigned int lacking = pinned_lacks(compat_backend_name(backend()));

	for (enum compat_feature feature = 0; feature < COMPAT_FEATURES; feature++) {
		struct compat_action actions[2];
		unsigned int needs;
		struct compat_spawn request = needing(feature, actions, &needs);
		const char *reason;

		cr_assert_eq(backend_has(feature), !(lacking & COMPAT_HAS(feature)),
			     "backend %s %s feature %d, which pinned_features says it %s",
			     compat_backend_name(backend()), backend_has(feature) ? "declares" : "lacks",
			     feature, backend_has(feature) ? "lacks" : "has");
		int verdict = compat_check(backend(), &request, &reason);

		cr_assert_eq(verdict, needs & lacking ? ENOTSUP : 0, "feature %d: %s", feature,
			     reason ? reason : "accepted");
		if (verdict == 0)
			continue;
		struct compat_result result;
		char *before = parent_state();

		cr_assert_eq(compat_spawn(backend(), &request, &result), ENOTSUP);
		cr_assert_eq(result.step, COMPAT_STEP_REQUEST);
		cr_assert_str_eq(result.reason, reason);
		cr_assert_eq(result.pid, 0);
		expect_no_children();
		cr_assert_str_eq(parent_state(), before);
	}
}
