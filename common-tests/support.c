/* Helpers shared by the corpus suites; see corpus.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/hooks.h>

#include "corpus.h"

#define BACKEND_VARIABLE "SPAWNLAB_BACKEND"
#define DEFAULT_BACKEND "vfork"

static const char *selected_name(void)
{
	const char *name = getenv(BACKEND_VARIABLE);

	return name ? name : DEFAULT_BACKEND;
}

/* Runs once in the runner: an unknown or unsupported backend runs nothing. */
ReportHook(PRE_ALL)(struct criterion_test_set *tests)
{
	(void)tests;
	const struct compat_backend *chosen = compat_backend_find(selected_name());

	if (chosen == NULL || !compat_backend_available(chosen)) {
		fprintf(stderr, "corpus: backend %s is %s\n", selected_name(),
			chosen ? "not supported by the running kernel" : "unknown");
		exit(2);
	}
}

const struct compat_backend *backend(void)
{
	const struct compat_backend *chosen = compat_backend_find(selected_name());

	cr_assert(chosen != NULL, "unknown backend %s", selected_name());
	return chosen;
}

bool backend_has(enum compat_feature feature)
{
	return compat_backend_has(backend(), feature);
}

const char *program(const char *name)
{
	static char self[PATH_MAX];
	char *path;

	if (self[0] == '\0') {
		ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);

		cr_assert(length > 0, "readlink /proc/self/exe: %s", strerror(errno));
		self[length] = '\0';
	}
	char copy[PATH_MAX];

	strcpy(copy, self);
	cr_assert(asprintf(&path, "%s/%s", dirname(copy), name) > 0);
	return path;
}

static char scratch[] = "/tmp/spawnlab-XXXXXX";

void scratch_create(void)
{
	cr_assert(mkdtemp(scratch) != NULL, "mkdtemp: %s", strerror(errno));
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

void scratch_remove(void)
{
	nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *scratch_path(const char *format, ...)
{
	char *relative, *path;
	va_list args;

	va_start(args, format);
	cr_assert(vasprintf(&relative, format, args) >= 0);
	va_end(args);
	cr_assert(asprintf(&path, "%s/%s", scratch, relative) > 0);
	free(relative);
	return path;
}

void make_file(const char *path, const char *content, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	cr_assert(fd >= 0, "create %s: %s", path, strerror(errno));
	size_t length = strlen(content);

	cr_assert_eq(write(fd, content, length), (ssize_t)length);
	cr_assert_eq(fchmod(fd, mode), 0);
	cr_assert_eq(close(fd), 0);
}

void make_script(const char *path, int exit_code)
{
	char *content;

	cr_assert(asprintf(&content, "#!%s %d\n", program("tiny"), exit_code) > 0);
	make_file(path, content, 0755);
	free(content);
}

void make_dir(const char *path)
{
	cr_assert(mkdir(path, 0755) == 0, "mkdir %s: %s", path, strerror(errno));
}

int open_file(const char *path, bool cloexec)
{
	int fd = open(path, O_RDONLY | (cloexec ? O_CLOEXEC : 0));

	cr_assert(fd >= 0, "open %s: %s", path, strerror(errno));
	return fd;
}

char *fd_target(int fd)
{
	char link[32], target[PATH_MAX];

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t length = readlink(link, target, sizeof target - 1);

	cr_assert(length > 0, "readlink %s: %s", link, strerror(errno));
	target[length] = '\0';
	return strdup(target);
}

int unused_fd(void)
{
	int fd = 500;

	while (fcntl(fd, F_GETFD) >= 0)
		fd++;
	return fd;
}

void tiny_request(struct tiny *tiny, struct compat_spawn *request, const char *arg1,
		  const char *arg2)
{
	*tiny = (struct tiny){ { "tiny", (char *)arg1, arg1 ? (char *)arg2 : NULL, NULL } };
	*request = (struct compat_spawn){ .path = program("tiny"), .argv = tiny->argv };
}

void exec_at(struct compat_spawn *request, int dirfd, const char *path, int flags)
{
	request->exec_mode = COMPAT_EXEC_AT;
	request->dirfd = dirfd;
	request->path = path;
	request->exec_flags = flags;
}

static _Noreturn void skip_refused(const char *reason)
{
	cr_skip_test("backend %s: %s", compat_backend_name(backend()), reason);
}

void skip_if_refused(const struct compat_spawn *request)
{
	const char *reason;

	if (compat_check(backend(), request, &reason) == ENOTSUP)
		skip_refused(reason);
}

void spawn(const struct compat_spawn *request, struct compat_result *result)
{
	compat_spawn(backend(), request, result);
	if (result->error != ENOTSUP || result->step != COMPAT_STEP_REQUEST)
		return;
	/* a skip must be the capability query's verdict, with nothing spawned */
	const char *reason;

	cr_assert_eq(compat_check(backend(), request, &reason), ENOTSUP);
	cr_assert_str_eq(reason, result->reason);
	cr_assert_eq(result->pid, 0);
	expect_no_children();
	skip_refused(reason);
}

pid_t spawn_ok(const struct compat_spawn *request)
{
	struct compat_result result;

	spawn(request, &result);
	cr_assert_eq(result.error, 0, "spawn failed: %s at step %d", strerror(result.error),
		     result.step);
	cr_assert_eq(result.step, COMPAT_STEP_NONE);
	cr_assert_gt(result.pid, 0);
	cr_assert_eq(result.pidfd >= 0, request->want_pidfd);
	return result.pid;
}

void spawn_fails(const struct compat_spawn *request, int error, int step)
{
	struct compat_result result;

	spawn(request, &result);
	expect_failure(&result, error, step);
}

void expect_failure(const struct compat_result *result, int error, int step)
{
	cr_assert_eq(result->error, error, "expected %s, got %s", strerror(error),
		     strerror(result->error));
	if (!backend_has(COMPAT_FEAT_FAILED_STEP) && step != COMPAT_STEP_REQUEST)
		step = COMPAT_STEP_UNKNOWN;
	cr_assert_eq(result->step, step, "failed at step %d, expected %d", result->step, step);
	cr_assert_eq(result->pid, 0);
	cr_assert_eq(result->pidfd, -1);
	expect_no_children();
}

void diverges(const struct compat_spawn *strict, const char *outcome)
{
	const char *reason;

	cr_assert_eq(compat_check(backend(), strict, &reason), ENOTSUP,
		     "backend %s claims the documented result, but %s",
		     compat_backend_name(backend()), outcome);
	cr_skip_test("diverges: %s: %s", reason, outcome);
}

int wait_status(pid_t pid)
{
	int status;
	pid_t waited;

	while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		continue;
	cr_assert_eq(waited, pid, "waitpid %d: %s", pid, strerror(errno));
	return status;
}

void expect_exit(pid_t pid, int code)
{
	int status = wait_status(pid);

	cr_assert(WIFEXITED(status), "child %d did not exit: status %#x", pid, status);
	cr_assert_eq(WEXITSTATUS(status), code);
}

void expect_no_children(void)
{
	siginfo_t info;

	errno = 0;
	cr_assert_eq(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT), -1,
		     "a child is left (pid %d)", info.si_pid);
	cr_assert_eq(errno, ECHILD);
}

void own_process_group(void)
{
	cr_assert(getpgid(0) == getpid() || setpgid(0, 0) == 0, "setpgid: %s", strerror(errno));
}

int *open_fds(size_t *count)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;
	int *fds = NULL;

	cr_assert(dir != NULL);
	*count = 0;
	while ((entry = readdir(dir)) != NULL) {
		int fd = atoi(entry->d_name);

		if (entry->d_name[0] == '.' || fd == dirfd(dir))
			continue;
		fds = realloc(fds, (*count + 1) * sizeof *fds);
		cr_assert(fds != NULL);
		fds[(*count)++] = fd;
	}
	closedir(dir);
	return fds;
}

static void put_fds(FILE *out)
{
	size_t count;
	int *fds = open_fds(&count);

	for (size_t i = 0; i < count; i++) {
		char *target = fd_target(fds[i]);

		fprintf(out, "fd %d %s\n", fds[i], target);
		free(target);
	}
	free(fds);
}

char *parent_state(void)
{
	char *text, cwd[PATH_MAX];
	size_t size;
	FILE *out = open_memstream(&text, &size);
	sigset_t mask;

	cr_assert(out != NULL && getcwd(cwd, sizeof cwd) != NULL);
	mode_t mask_bits = umask(0);

	umask(mask_bits);
	sigprocmask(SIG_BLOCK, NULL, &mask);
	fprintf(out, "cwd %s\numask %o\nblocked %lx\n", cwd, (unsigned int)mask_bits,
		(unsigned long)signal_bits(&mask));
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction action;

		if (sigaction(sig, NULL, &action) == 0)
			fprintf(out, "signal %d %p %#x\n", sig, (void *)action.sa_handler,
				(unsigned int)action.sa_flags);
	}
	put_fds(out);
	fclose(out);
	return text;
}

uint64_t signal_bits(const sigset_t *set)
{
	uint64_t bits = 0;

	for (int sig = 1; sig <= 64; sig++)
		if (sigismember(set, sig) == 1)
			bits |= SIGNAL_BIT(sig);
	return bits;
}

sigset_t signal_set(uint64_t bits)
{
	sigset_t set;

	sigemptyset(&set);
	for (int sig = 1; sig <= 64; sig++)
		if (bits & SIGNAL_BIT(sig))
			sigaddset(&set, sig);
	return set;
}

uint64_t settable_signals(void)
{
	return ~(SIGNAL_BIT(SIGKILL) | SIGNAL_BIT(SIGSTOP) | SIGNAL_BIT(32) | SIGNAL_BIT(33));
}
