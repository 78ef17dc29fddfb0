/*
 * The conformance corpus: helpers shared by its suites.
 *
 * Every test runs in a process of its own (criterion forks one per test),
 * so tests may change their own cwd, umask, PATH and signal state freely.
 */
#ifndef CORPUS_H
#define CORPUS_H

#include <criterion/criterion.h>
#include <stdint.h>

#include "libcompat.h"

/* The backend under test: $SPAWNLAB_BACKEND, or "vfork" when it is unset. */
const struct compat_backend *backend(void);
bool backend_has(enum compat_feature feature);

/* Absolute path of a program installed next to the corpus binary. */
const char *program(const char *name);

/* A scratch directory under /tmp for each test: the suites' .init and .fini. */
void scratch_create(void);
void scratch_remove(void);
/* A path in it (printf-style); the string lives as long as the test. */
char *scratch_path(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Files in the scratch directory (or anywhere), with exactly this mode. */
void make_file(const char *path, const char *content, mode_t mode);
/* An executable script run by "tiny", which exits with exit_code. */
void make_script(const char *path, int exit_code);
void make_dir(const char *path);
/* An fd open read-only on path; cloexec: whether with O_CLOEXEC. */
int open_file(const char *path, bool cloexec);
/* The /proc/self/fd link of one of our fds, as the probe reports it. */
char *fd_target(int fd);
/* An fd number that is not open here. */
int unused_fd(void);
/* Our open fds; *count of them. */
int *open_fds(size_t *count);

/* A request for "tiny" with up to two arguments (NULL: fewer). */
struct tiny {
	char *argv[4];
};
void tiny_request(struct tiny *tiny, struct compat_spawn *request, const char *arg1,
		  const char *arg2);
/* Make a request's program execveat(dirfd, path, flags). */
void exec_at(struct compat_spawn *request, int dirfd, const char *path, int flags);

/*
 * Spawn on the backend under test. A request the backend cannot express
 * (ENOTSUP before spawning) skips the test with the library's reason.
 */
void spawn(const struct compat_spawn *request, struct compat_result *result);
/* Skip as spawn() would if the backend refuses request: before other children exist. */
void skip_if_refused(const struct compat_spawn *request);
/* spawn() that must succeed; returns the child's pid. */
pid_t spawn_ok(const struct compat_spawn *request);
/*
 * spawn() that must fail with error at step: exactly that step when the
 * backend names failing steps, COMPAT_STEP_UNKNOWN when it does not. No
 * child may be left.
 */
void spawn_fails(const struct compat_spawn *request, int error, int step);
/* The checks of spawn_fails() on a result spawn() gave. */
void expect_failure(const struct compat_result *result, int error, int step);

/*
 * The backend accepted a request but did not give the documented result,
 * which happened as outcome says. strict is the request with the wish
 * (want_search_stops, ...) whose lack explains it: the backend must refuse
 * it, else the test fails. Reported as a skip "diverges: REASON: OUTCOME",
 * which run-corpus turns into TAP "not ok N - TEST # TODO diverges: ..."
 * (never a pass; the pinned expectations say where it may happen).
 */
void diverges(const struct compat_spawn *strict, const char *outcome) __attribute__((noreturn));

int wait_status(pid_t pid);
void expect_exit(pid_t pid, int code);
void expect_no_children(void);

/*
 * Make sure our process group is ours alone (criterion may have made us a
 * session leader already), so that kill(0, sig) reaches only us and our
 * children.
 */
void own_process_group(void);

/* Our cwd, umask, signal mask and handlers and fds, as text to compare. */
char *parent_state(void);

/* The probe and its report (report.c). */
struct probe {
	int read_fd, write_fd;	/* the report pipe; write_fd is inherited */
	char fd_arg[12];	/* write_fd in decimal: the probe's argv[1] */
	char *argv[3];
};

struct report_fd {
	int fd;
	int flags;
	char *target;
};

struct report {
	size_t argc, envc, nfds;
	char **argv, **env;
	char *cwd;
	mode_t umask;
	uint64_t blocked, ignored;	/* bit n-1: signal n */
	pid_t pid, ppid, sid, pgid;
	uid_t uid, euid;
	gid_t gid, egid;
	int policy, priority;	/* scheduling */
	struct report_fd *fds;
};

/* Make the report pipe and a request running the probe with argv {"probe", fd}. */
void probe_prepare(struct probe *probe, struct compat_spawn *request);
/* Spawn, read the report, expect the probe to exit 0; closes the pipe. */
void probe_run(struct probe *probe, const struct compat_spawn *request, struct report *report);
/* The second half of probe_run(): the report of the probe spawned as pid. */
void probe_read(struct probe *probe, pid_t pid, struct report *report);
/* Run the probe with these actions into report. */
void probe_with(struct report *report, const struct compat_action *actions, size_t count);
/* The reported fd, or NULL when it was not open. */
const struct report_fd *report_fd(const struct report *report, int fd);
bool report_has_env(const struct report *report, const char *entry);

/* Signal sets as the probe reports them, and back. */
uint64_t signal_bits(const sigset_t *set);
sigset_t signal_set(uint64_t bits);

/*
 * The signals a test can block, ignore and catch, as bits: 1 to 64 but
 * SIGKILL and SIGSTOP, which cannot be, and 32 and 33, which glibc keeps for
 * its threads (sigaction refuses them, sigprocmask leaves them alone).
 */
uint64_t settable_signals(void);
/* Two sets that tell a signal from its neighbours: 1, 3, 5, ... and 2, 4, 6, ... */
#define ODD_SIGNALS UINT64_C(0x5555555555555555)
#define EVEN_SIGNALS UINT64_C(0xaaaaaaaaaaaaaaaa)
/* The bit of signal sig. */
#define SIGNAL_BIT(sig) (UINT64_C(1) << ((sig) - 1))

/* Set a request's action list to the arguments. */
#define ACTIONS(request, ...)                                                        \
	struct compat_action actions_[] = { __VA_ARGS__ };                            \
	(request).actions = actions_;                                                 \
	(request).n_actions = sizeof actions_ / sizeof actions_[0]

/* probe_with() the arguments as the action list. */
#define PROBE_WITH(report, ...)                                                      \
	do {                                                                          \
		struct compat_action actions_[] = { __VA_ARGS__ };                    \
		probe_with(&(report), actions_, sizeof actions_ / sizeof actions_[0]); \
	} while (0)

/* tiny with the arguments as the action list must fail with error at step. */
#define FAILS_WITH(error, step, ...)                                                 \
	do {                                                                          \
		struct tiny tiny_;                                                    \
		struct compat_spawn request_;                                         \
		tiny_request(&tiny_, &request_, NULL, NULL);                          \
		ACTIONS(request_, __VA_ARGS__);                                       \
		spawn_fails(&request_, error, step);                                  \
	} while (0)

#endif
