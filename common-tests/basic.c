/* Suite basic: the program, argv and envp, exit status, exec errors. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(basic, .init = scratch_create, .fini = scratch_remove);

static char *program_dir(void)
{
	return dirname(strdup(program("probe")));
}

/* A request for the program at path that must fail with error at the exec. */
static void exec_fails(const char *path, int error)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	request.path = path;
	spawn_fails(&request, error, COMPAT_STEP_EXEC);
}

/* Run the probe found as the program given by mode, dirfd, path and flags. */
static void probe_found_as(enum compat_exec_mode mode, int dirfd, const char *path, int flags)
{
	struct probe probe;
	struct compat_spawn request;
	struct report report;

	probe_prepare(&probe, &request);
	request.exec_mode = mode;
	request.dirfd = dirfd;
	request.path = path;
	request.exec_flags = flags;
	probe_run(&probe, &request, &report);
}

static void probe_with_env(char **env, struct report *report)
{
	struct probe probe;
	struct compat_spawn request;

	probe_prepare(&probe, &request);
	request.envp = env;
	probe_run(&probe, &request, report);
}

Test(basic, absolute_path)
{
	struct probe probe;
	struct compat_spawn request;
	struct report report;

	probe_prepare(&probe, &request);
	probe_run(&probe, &request, &report);
	cr_assert_eq(report.argc, 2);
	cr_assert_str_eq(report.argv[0], "probe");
	cr_assert_str_eq(report.argv[1], probe.fd_arg);
}

Test(basic, relative_path_from_cwd)
{
	cr_assert_eq(chdir(program_dir()), 0);
	probe_found_as(COMPAT_EXEC_PATH, AT_FDCWD, "./probe", 0);
}

/* In our cwd, old, ./prog exits 1; in new it exits 2. */
static void enter_old(void)
{
	make_dir(scratch_path("old"));
	make_dir(scratch_path("new"));
	make_script(scratch_path("old/prog"), 1);
	make_script(scratch_path("new/prog"), 2);
	cr_assert_eq(chdir(scratch_path("old")), 0);
}

/* ./prog is taken from the cwd change_dir leaves (glibc's tst-spawn-chdir). */
static void runs_new_prog(struct compat_action change_dir)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	request.path = "./prog";
	request.actions = &change_dir;
	request.n_actions = 1;
	expect_exit(spawn_ok(&request), 2);
}

Test(basic, relative_path_after_chdir)
{
	enter_old();
	runs_new_prog(compat_chdir("../new"));
}

Test(basic, relative_path_after_fchdir)
{
	enter_old();
	int fd = open("../new", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	runs_new_prog(compat_fchdir(fd));
}

Test(basic, bare_name_is_a_path_not_searched)
{
	cr_assert_eq(setenv("PATH", "/nonexistent", 1), 0);
	cr_assert_eq(chdir(program_dir()), 0);
	probe_found_as(COMPAT_EXEC_PATH, AT_FDCWD, "probe", 0);
}

Test(basic, relative_to_dirfd)
{
	int dirfd = open(program_dir(), O_PATH | O_DIRECTORY | O_CLOEXEC);

	cr_assert_geq(dirfd, 0);
	probe_found_as(COMPAT_EXEC_AT, dirfd, "probe", 0);
}

Test(basic, empty_path_with_dirfd)
{
	int fd = open(program("probe"), O_PATH | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	probe_found_as(COMPAT_EXEC_AT, fd, "", AT_EMPTY_PATH);
}

Test(basic, symlink_followed)
{
	char *link = scratch_path("link");

	cr_assert_eq(symlink(program("probe"), link), 0);
	probe_found_as(COMPAT_EXEC_PATH, AT_FDCWD, link, 0);
}

Test(basic, symlink_nofollow_eloop)
{
	struct tiny tiny;
	struct compat_spawn request;
	char *link = scratch_path("link");

	cr_assert_eq(symlink(program("tiny"), link), 0);
	tiny_request(&tiny, &request, NULL, NULL);
	exec_at(&request, AT_FDCWD, link, AT_SYMLINK_NOFOLLOW);
	spawn_fails(&request, ELOOP, COMPAT_STEP_EXEC);
}

Test(basic, argv_odd_bytes)
{
	static char high[129];
	struct probe probe;
	struct compat_spawn request;
	struct report report;

	for (int i = 0; i < 128; i++)
		high[i] = (char)(0x80 + i);
	probe_prepare(&probe, &request);
	char *argv[] = { "\x01name with spaces", probe.fd_arg, "", " ", "a\nb", "\t\x7f\x1b[0m",
			 "--", "-", "%s%n", high, "", NULL };

	request.argv = argv;
	probe_run(&probe, &request, &report);
	cr_assert_eq(report.argc, sizeof argv / sizeof argv[0] - 1);
	for (size_t i = 0; i < report.argc; i++)
		cr_assert_str_eq(report.argv[i], argv[i], "argv[%zu]", i);
}

Test(basic, env_empty)
{
	char *no_env[] = { NULL };
	struct report report;

	probe_with_env(no_env, &report);
	cr_assert_eq(report.envc, 0);
}

Test(basic, env_thousand_variables)
{
	enum { COUNT = 1000 };
	char *env[COUNT + 1];
	struct report report;

	for (int i = 0; i < COUNT; i++)
		cr_assert(asprintf(&env[i], "VARIABLE_%d=value %d", i, i * 7) > 0);
	env[COUNT] = NULL;
	probe_with_env(env, &report);
	cr_assert_eq(report.envc, COUNT);
	for (int i = 0; i < COUNT; i++)
		cr_assert_str_eq(report.env[i], env[i]);
}

Test(basic, env_odd_bytes)
{
	char *env[] = { "A=", "=starts with equals", "no equals sign", "B=\n\t\x7f\xff", "A=again",
			NULL };
	struct report report;

	probe_with_env(env, &report);
	cr_assert_eq(report.envc, sizeof env / sizeof env[0] - 1);
	for (size_t i = 0; i < report.envc; i++)
		cr_assert_str_eq(report.env[i], env[i], "env[%zu]", i);
}

Test(basic, env_null_is_callers_environ)
{
	struct report report;

	cr_assert_eq(setenv("SPAWNLAB_MARK", "from the caller", 1), 0);
	probe_with_env(NULL, &report);
	cr_assert(report_has_env(&report, "SPAWNLAB_MARK=from the caller"));
}

Test(basic, exit_status)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, "42", NULL);
	expect_exit(spawn_ok(&request), 42);
}

Test(basic, signal_death)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, "kill", "15");
	int status = wait_status(spawn_ok(&request));

	cr_assert(WIFSIGNALED(status), "status %#x", status);
	cr_assert_eq(WTERMSIG(status), SIGTERM);
}

Test(basic, pidfd_returned)
{
	struct tiny tiny;
	struct compat_spawn request;
	struct compat_result result;
	siginfo_t info;

	tiny_request(&tiny, &request, "5", NULL);
	request.want_pidfd = true;
	spawn(&request, &result);
	cr_assert_eq(result.error, 0);
	cr_assert_geq(result.pidfd, 0);
	cr_assert_eq(fcntl(result.pidfd, F_GETFD), FD_CLOEXEC);
	cr_assert_eq(waitid(P_PIDFD, (id_t)result.pidfd, &info, WEXITED), 0);
	cr_assert_eq(info.si_pid, result.pid);
	cr_assert_eq(info.si_code, CLD_EXITED);
	cr_assert_eq(info.si_status, 5);
	cr_assert_eq(close(result.pidfd), 0);
}

Test(basic, e2big)
{
	enum { SIZE = 256 * 1024 };	/* over MAX_ARG_STRLEN (128 KiB) */
	char *huge = malloc(SIZE + 1);
	struct tiny tiny;
	struct compat_spawn request;

	cr_assert(huge != NULL);
	memset(huge, 'x', SIZE);
	huge[SIZE] = '\0';
	tiny_request(&tiny, &request, huge, NULL);
	spawn_fails(&request, E2BIG, COMPAT_STEP_EXEC);
}

Test(basic, exec_directory_eacces)
{
	exec_fails(scratch_path("."), EACCES);
}

Test(basic, exec_without_x_bit_eacces)
{
	char *path = scratch_path("plain");
	char *content;

	cr_assert(asprintf(&content, "#!%s 0\n", program("tiny")) > 0);
	make_file(path, content, 0644);
	exec_fails(path, EACCES);
}

Test(basic, script_with_shebang)
{
	struct tiny tiny;
	struct compat_spawn request;

	tiny_request(&tiny, &request, NULL, NULL);
	request.path = scratch_path("script");
	make_script(request.path, 9);
	expect_exit(spawn_ok(&request), 9);
}

/* No fallback to /bin/sh, as with posix_spawn (execvp would run it). */
Test(basic, script_without_shebang_enoexec)
{
	char *path = scratch_path("script");

	make_file(path, "exit 3\n", 0755);
	exec_fails(path, ENOEXEC);
}

Test(basic, symlink_loop_eloop)
{
	char *first = scratch_path("first"), *second = scratch_path("second");

	cr_assert_eq(symlink(second, first), 0);
	cr_assert_eq(symlink(first, second), 0);
	exec_fails(first, ELOOP);
}

Test(basic, missing_program_enoent)
{
	exec_fails(scratch_path("missing"), ENOENT);
}

Test(basic, file_as_directory_enotdir)
{
	char *file = scratch_path("file");

	make_file(file, "", 0755);
	exec_fails(scratch_path("file/probe"), ENOTDIR);
}
