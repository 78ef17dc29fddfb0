/* Suite files: the file actions, alone, combined and failing. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(files, .init = scratch_create, .fini = scratch_remove);

/* A scratch file with some content, and its path. */
static char *scratch_file(const char *name)
{
	char *path = scratch_path("%s", name);

	make_file(path, name, 0644);
	return path;
}

/*
 * The program has fd open on target. (Whether fd was close-on-exec cannot be
 * seen there: the exec closed such fds. An fd too many or too few is what
 * expect_fds_exactly() checks.)
 */
static void expect_fd(const struct report *report, int fd, const char *target)
{
	const struct report_fd *entry = report_fd(report, fd);

	cr_assert(entry != NULL, "fd %d is not open in the child", fd);
	cr_assert_str_eq(entry->target, target, "fd %d", fd);
}

static bool listed(int fd, const int *list)
{
	for (; *list >= 0; list++)
		if (*list == fd)
			return true;
	return false;
}

/*
 * The program's fds are exactly ours that it inherits (open, without
 * FD_CLOEXEC) but those in gone, plus those in added and its report fd
 * (argv[1]). Both lists end with -1.
 */
static void expect_fds_exactly(const struct report *report, const int *added, const int *gone)
{
	size_t count;
	int *ours = open_fds(&count), report_fd_number = atoi(report->argv[1]);

	for (size_t i = 0; i < count; i++)
		if (!(fcntl(ours[i], F_GETFD) & FD_CLOEXEC) && !listed(ours[i], gone))
			cr_assert_not_null(report_fd(report, ours[i]), "inherited fd %d is missing",
					   ours[i]);
	for (size_t i = 0; i < report->nfds; i++) {
		int fd = report->fds[i].fd;
		bool inherited = fcntl(fd, F_GETFD) == 0 && !listed(fd, gone);

		cr_assert(inherited || listed(fd, added) || fd == report_fd_number,
			  "fd %d is open in the child", fd);
	}
	free(ours);
}

#define NONE ((const int[]){ -1 })

static void expect_closed(const struct report *report, int fd)
{
	cr_assert_null(report_fd(report, fd), "fd %d is open in the child", fd);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	return st.st_mode & 07777;
}

Test(files, close_alone)
{
	int closed = open_file(scratch_file("a"), false), kept = open_file(scratch_file("b"), false);
	struct report report;

	PROBE_WITH(report, compat_close(closed));
	expect_closed(&report, closed);
	expect_fd(&report, kept, scratch_path("b"));
	expect_fds_exactly(&report, NONE, (const int[]){ closed, -1 });
}

Test(files, close_not_open_is_no_error)
{
	int fd = unused_fd();
	struct report report;

	PROBE_WITH(report, compat_close(fd));
	expect_closed(&report, fd);
}

Test(files, close_negative_fd_ebadf)
{
	FAILS_WITH(EBADF, 0, compat_close(-1));
}

Test(files, close_beyond_fd_limit_ebadf)
{
	FAILS_WITH(EBADF, 1, compat_chdir("/"), compat_close(getdtablesize()));
}

Test(files, dup2_alone)
{
	int fd = open_file(scratch_file("a"), true);
	struct report report;

	PROBE_WITH(report, compat_dup2(fd, 20));
	expect_fd(&report, 20, scratch_path("a"));
	expect_closed(&report, fd);
	expect_fds_exactly(&report, (const int[]){ 20, -1 }, NONE);
}

Test(files, dup2_onto_open_fd_replaces_it)
{
	int fd = open_file(scratch_file("a"), true), target = open_file(scratch_file("b"), false);
	struct report report;

	PROBE_WITH(report, compat_dup2(fd, target));
	expect_fd(&report, target, scratch_path("a"));
}

Test(files, dup2_same_fd_clears_cloexec)
{
	int fd = open_file(scratch_file("a"), true);
	struct report report;

	PROBE_WITH(report, compat_dup2(fd, fd));
	expect_fd(&report, fd, scratch_path("a"));
}

Test(files, dup2_same_fd_not_open_ebadf)
{
	int fd = unused_fd();

	FAILS_WITH(EBADF, 0, compat_dup2(fd, fd));
}

Test(files, dup2_from_unopened_fd_ebadf)
{
	FAILS_WITH(EBADF, 1, compat_chdir("/"), compat_dup2(unused_fd(), 20));
}

Test(files, open_alone)
{
	struct report report;

	PROBE_WITH(report, compat_open(22, AT_FDCWD, scratch_file("a"), O_RDONLY, 0));
	expect_fd(&report, 22, scratch_path("a"));
	cr_assert_eq(report_fd(&report, 22)->flags & O_ACCMODE, O_RDONLY);
	expect_fds_exactly(&report, (const int[]){ 22, -1 }, NONE);
}

Test(files, open_onto_open_fd_replaces_it)
{
	int target = open_file(scratch_file("b"), false);
	struct report report;

	PROBE_WITH(report, compat_open(target, AT_FDCWD, scratch_file("a"), O_RDONLY, 0));
	expect_fd(&report, target, scratch_path("a"));
}

/* A spawn made in a thread of its own. */
struct thread_spawn {
	const struct compat_spawn *request;
	struct compat_result result;
};

static void *spawn_from_thread(void *arg)
{
	struct thread_spawn *s = arg;

	compat_spawn(backend(), s->request, &s->result);
	return NULL;
}

/*
 * At the fd limit only closing the target first makes room for the open,
 * and the spawn itself must need no free fd. With in_new_thread, this
 * thread spawns first, with fds free, and a new thread makes the spawn
 * with the table full: its first, for which what a backend keeps per
 * thread (iouring's ring) is made then, not at load time or at the
 * process's first spawn.
 */
static void open_onto_full_table(bool in_new_thread)
{
	enum { LIMIT = 64 };
	struct rlimit saved, low;
	char *path = scratch_file("a");
	int fd, first_filler = -1, thread_error = 0;
	struct tiny tiny;
	struct compat_spawn request;
	struct compat_result result;

	tiny_request(&tiny, &request, NULL, NULL);
	ACTIONS(request, compat_open(LIMIT - 1, AT_FDCWD, path, O_RDONLY, 0));
	if (in_new_thread) {
		spawn(&request, &result);
		cr_assert_eq(result.error, 0, "open with fds free: %s", strerror(result.error));
		expect_exit(result.pid, 0);
	}
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &saved), 0);
	low = saved;
	low.rlim_cur = LIMIT;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	while ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
		if (first_filler < 0)
			first_filler = fd;
	cr_assert_eq(errno, EMFILE);
	cr_assert(first_filler >= 0 && first_filler < LIMIT - 1);
	if (in_new_thread) {
		struct thread_spawn s = { .request = &request };
		pthread_t thread;

		/* a refused request has skipped at the first spawn */
		thread_error = pthread_create(&thread, NULL, spawn_from_thread, &s);
		if (thread_error == 0)
			pthread_join(thread, NULL);
		result = s.result;
	} else {
		spawn(&request, &result);
	}
	for (fd = first_filler; fd < LIMIT; fd++)
		close(fd);
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &saved), 0);
	cr_assert_eq(thread_error, 0, "pthread_create: %s", strerror(thread_error));
	cr_assert_eq(result.error, 0, "open onto a full table: %s", strerror(result.error));
	expect_exit(result.pid, 0);
}

Test(files, open_closes_target_first)
{
	open_onto_full_table(false);
}

Test(files, open_closes_target_first_in_new_thread)
{
	open_onto_full_table(true);
}

Test(files, open_flags_kept)
{
	char *path = scratch_path("new");
	struct report report;

	PROBE_WITH(report, compat_open(23, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT, 0600));
	expect_fd(&report, 23, path);
	cr_assert_eq(report_fd(&report, 23)->flags & (O_ACCMODE | O_APPEND), O_WRONLY | O_APPEND);
	cr_assert_eq(mode_of(path), 0600);
}

/*
 * open(2) ignores flag bits it does not know, and glibc's posix_spawn hands
 * addopen's flags to it as they are: glibc's tst-spawn5 swaps addopen's
 * flags and mode, asking for flags 0666 (O_RDWR, O_EXCL, O_NOCTTY and three
 * bits open(2) has no meaning for) and mode 0.
 */
Test(files, open_ignores_unknown_flag_bits_as_open)
{
	struct report report;

	PROBE_WITH(report, compat_open(22, AT_FDCWD, scratch_file("a"), 0666, O_RDONLY));
	expect_fd(&report, 22, scratch_path("a"));
	cr_assert_eq(report_fd(&report, 22)->flags & O_ACCMODE, O_RDWR);
}

Test(files, open_relative_to_dirfd)
{
	int dirfd = open(scratch_path("."), O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct report report;

	cr_assert_geq(dirfd, 0);
	scratch_file("a");
	PROBE_WITH(report, compat_open(22, dirfd, "a", O_RDONLY, 0));
	expect_fd(&report, 22, scratch_path("a"));
}

Test(files, open_creat_honours_umask_action)
{
	char *path = scratch_path("new");
	struct report report;

	PROBE_WITH(report, compat_umask(077), compat_open(22, AT_FDCWD, path, O_WRONLY | O_CREAT, 0666));
	cr_assert_eq(mode_of(path), 0600);
	cr_assert_eq(report.umask, 077);
}

Test(files, open_creat_honours_callers_umask)
{
	char *path = scratch_path("new");
	struct report report;

	umask(027);
	PROBE_WITH(report, compat_open(22, AT_FDCWD, path, O_WRONLY | O_CREAT, 0666));
	cr_assert_eq(mode_of(path), 0640);
}

/* O_CLOEXEC stays on the target: usable by later actions, gone at exec. */
Test(files, open_cloexec_kept)
{
	make_dir(scratch_path("sub"));
	struct report report;

	PROBE_WITH(report, compat_open(24, AT_FDCWD, scratch_path("sub"), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0),
		   compat_fchdir(24));
	expect_closed(&report, 24);
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
}

Test(files, open_missing_enoent)
{
	FAILS_WITH(ENOENT, 0, compat_open(22, AT_FDCWD, scratch_path("missing"), O_RDONLY, 0));
}

Test(files, chdir_alone)
{
	make_dir(scratch_path("sub"));
	struct report report;

	PROBE_WITH(report, compat_chdir(scratch_path("sub")));
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
}

Test(files, chdir_missing_enoent)
{
	FAILS_WITH(ENOENT, 0, compat_chdir(scratch_path("missing")));
}

Test(files, fchdir_alone)
{
	make_dir(scratch_path("sub"));
	int fd = open(scratch_path("sub"), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct report report;

	cr_assert_geq(fd, 0);
	PROBE_WITH(report, compat_fchdir(fd));
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
}

Test(files, fchdir_unopened_fd_ebadf)
{
	FAILS_WITH(EBADF, 0, compat_fchdir(unused_fd()));
}

Test(files, fchdir_to_file_enotdir)
{
	FAILS_WITH(ENOTDIR, 0, compat_fchdir(open_file(scratch_file("a"), true)));
}

/* Order matters: a relative open after a chdir opens in the new cwd... */
Test(files, chdir_then_relative_open)
{
	make_dir(scratch_path("sub"));
	make_file(scratch_path("sub/a"), "", 0644);
	cr_assert_eq(chdir(scratch_path(".")), 0);
	struct report report;

	PROBE_WITH(report, compat_chdir("sub"), compat_open(22, AT_FDCWD, "a", O_RDONLY, 0));
	expect_fd(&report, 22, scratch_path("sub/a"));
}

/* ...and before it, in the old one. */
Test(files, relative_open_then_chdir)
{
	make_dir(scratch_path("sub"));
	scratch_file("a");
	cr_assert_eq(chdir(scratch_path(".")), 0);
	struct report report;

	PROBE_WITH(report, compat_open(22, AT_FDCWD, "a", O_RDONLY, 0), compat_chdir("sub"));
	expect_fd(&report, 22, scratch_path("a"));
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
}

Test(files, dup2_then_close)
{
	int fd = open_file(scratch_file("a"), false);
	struct report report;

	PROBE_WITH(report, compat_dup2(fd, 25), compat_close(fd));
	expect_fd(&report, 25, scratch_path("a"));
	expect_closed(&report, fd);
}

Test(files, close_then_dup2_ebadf)
{
	int fd = open_file(scratch_file("a"), false);

	FAILS_WITH(EBADF, 1, compat_close(fd), compat_dup2(fd, 25));
}

Test(files, stdout_to_pipe_read_back)
{
	struct probe probe;
	struct compat_spawn request;
	struct report report;

	probe_prepare(&probe, &request);
	char *pipe_target = fd_target(probe.write_fd);
	char *argv[] = { "probe", "1", NULL };

	request.argv = argv;
	ACTIONS(request, compat_dup2(probe.write_fd, 1), compat_close(probe.write_fd));
	probe_run(&probe, &request, &report);
	expect_fd(&report, 1, pipe_target);
	expect_closed(&report, probe.write_fd);
	cr_assert_str_eq(report.argv[1], "1");
}

Test(files, cloexec_not_inherited_rest_are)
{
	int plain = open_file(scratch_file("a"), false), cloexec = open_file(scratch_file("b"), true);
	struct report report;

	probe_with(&report, NULL, 0);
	expect_fd(&report, plain, scratch_path("a"));
	expect_closed(&report, cloexec);
	expect_fds_exactly(&report, NONE, NONE);
}

/* fds first..first+3 open on file a */
static void open_four(int first)
{
	int fd = open_file(scratch_file("a"), true);

	for (int i = 0; i < 4; i++)
		cr_assert_eq(dup2(fd, first + i), first + i);
}

Test(files, close_range_to_last_fd)
{
	struct probe probe;
	struct compat_spawn request;
	struct report report;

	open_four(30);
	probe_prepare(&probe, &request);
	char *argv[] = { "probe", "3", NULL };

	request.argv = argv;
	ACTIONS(request, compat_dup2(probe.write_fd, 3), compat_close_range(4, ~0U, 0));
	probe_run(&probe, &request, &report);
	for (size_t i = 0; i < report.nfds; i++)
		cr_assert_lt(report.fds[i].fd, 4, "fd %d is still open", report.fds[i].fd);
	cr_assert_not_null(report_fd(&report, 3));
}

Test(files, close_range_bounded)
{
	struct report report;

	open_four(30);
	PROBE_WITH(report, compat_close_range(30, 32, 0));
	for (int fd = 30; fd <= 32; fd++)
		expect_closed(&report, fd);
	expect_fd(&report, 33, scratch_path("a"));
}

/* CLOSE_RANGE_CLOEXEC: still open for later actions, closed at the exec. */
Test(files, close_range_cloexec)
{
	struct report report;

	open_four(30);
	PROBE_WITH(report, compat_close_range(30, 32, CLOSE_RANGE_CLOEXEC), compat_dup2(31, 40));
	for (int fd = 30; fd <= 32; fd++)
		expect_closed(&report, fd);
	expect_fd(&report, 33, scratch_path("a"));
	expect_fd(&report, 40, scratch_path("a"));
}

Test(files, close_range_inverted_einval)
{
	FAILS_WITH(EINVAL, 0, compat_close_range(32, 30, 0));
}

/* A failure at action 3 of 5 reports it and runs nothing after it. */
Test(files, failure_mid_list_stops)
{
	char *before = scratch_path("before"), *after = scratch_path("after");
	int fd = open_file(scratch_file("a"), false);

	FAILS_WITH(ENOENT, 3, compat_dup2(fd, 40), compat_close(fd),
		   compat_open(41, AT_FDCWD, before, O_WRONLY | O_CREAT, 0644),
		   compat_open(42, AT_FDCWD, scratch_path("missing"), O_RDONLY, 0),
		   compat_open(43, AT_FDCWD, after, O_WRONLY | O_CREAT, 0644));
	cr_assert_eq(access(before, F_OK), 0, "the actions before the failure did not run");
	cr_assert_eq(access(after, F_OK), -1, "an action after the failure ran");
}

Test(files, combination)
{
	make_dir(scratch_path("sub"));
	struct report report;

	PROBE_WITH(report, compat_open(50, AT_FDCWD, scratch_file("a"), O_RDONLY, 0),
		   compat_dup2(50, 51), compat_close(50), compat_chdir(scratch_path("sub")),
		   compat_open(52, AT_FDCWD, "new", O_WRONLY | O_CREAT, 0644));
	expect_closed(&report, 50);
	expect_fd(&report, 51, scratch_path("a"));
	expect_fd(&report, 52, scratch_path("sub/new"));
	cr_assert_str_eq(report.cwd, scratch_path("sub"));
	expect_fds_exactly(&report, (const int[]){ 51, 52, -1 }, NONE);
}

/*
 * A dup2 target shares our open file description, offset included (as
 * glibc's tst-spawn checks): the probe writes its report through fd 40 at
 * our offset, and our offset moves past it.
 */
Test(files, dup2_shares_file_offset)
{
	char *path = scratch_path("report");
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	char *argv[] = { "probe", "40", NULL }, start[11];
	struct compat_spawn request = { .path = program("probe"), .argv = argv };
	struct stat st;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "0123456789", 10), 10);
	ACTIONS(request, compat_dup2(fd, 40));
	expect_exit(spawn_ok(&request), 0);
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert_gt(st.st_size, 10, "the probe wrote nothing after our 10 bytes");
	cr_assert_eq(lseek(fd, 0, SEEK_CUR), st.st_size, "our offset did not move with the child's");
	cr_assert_eq(pread(fd, start, 10, 0), 10);
	start[10] = '\0';
	cr_assert_str_eq(start, "0123456789", "the child wrote from offset 0");
}
