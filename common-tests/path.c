/*
 * Suite path: PATH search as DESIGN.md states it. Each entry is a scratch
 * directory e<i>; a program found there is a script exiting with i, so the
 * exit status says which entry won. The caller's PATH is set with setenv().
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"

TestSuite(path, .init = scratch_create, .fini = scratch_remove);

/* The current directory's program exits with this. */
#define IN_CWD 40

/* Make entries e0..e<count-1> and set PATH to them. */
static void set_entries(int count)
{
	char *path = strdup("");

	for (int i = 0; i < count; i++) {
		char *entry = scratch_path("e%d", i), *longer;

		make_dir(entry);
		cr_assert(asprintf(&longer, "%s%s%s", path, i ? ":" : "", entry) > 0);
		free(path);
		path = longer;
	}
	cr_assert_eq(setenv("PATH", path, 1), 0);
}

/* The program "prog" in entry i. */
static char *prog_in(int entry)
{
	return scratch_path("e%d/prog", entry);
}

static void put_prog(int entry)
{
	make_script(prog_in(entry), entry);
}

/* A cwd holding its own "prog" (exiting IN_CWD). */
static void enter_cwd_with_prog(void)
{
	make_dir(scratch_path("cwd"));
	make_script(scratch_path("cwd/prog"), IN_CWD);
	cr_assert_eq(chdir(scratch_path("cwd")), 0);
}

static void search_request(struct compat_spawn *request, char **argv, const char *name)
{
	argv[0] = (char *)name;
	argv[1] = NULL;
	*request = (struct compat_spawn){
		.exec_mode = COMPAT_EXEC_SEARCH, .path = name, .argv = argv
	};
}

static void search_exits(const char *name, int code)
{
	char *argv[2];
	struct compat_spawn request;

	search_request(&request, argv, name);
	expect_exit(spawn_ok(&request), code);
}

static void search_fails(const char *name, int error)
{
	char *argv[2];
	struct compat_spawn request;

	search_request(&request, argv, name);
	spawn_fails(&request, error, COMPAT_STEP_EXEC);
}

/*
 * An error other than ENOENT, ENOTDIR and EACCES ends the search there,
 * although a later entry has the program (which exits with later). A
 * backend that cannot stop a search (it refuses want_search_stops) still
 * accepts the plain one: if the later program runs instead, that is its
 * divergence, shown as one.
 */
static void search_stops(const char *name, int error, int later)
{
	char *argv[2];
	struct compat_spawn request;
	struct compat_result result;

	search_request(&request, argv, name);
	spawn(&request, &result);
	if (result.error == 0) {
		expect_exit(result.pid, later);
		request.want_search_stops = true;
		diverges(&request, "the search went on and a later entry's program ran");
	}
	expect_failure(&result, error, COMPAT_STEP_EXEC);
}

Test(path, found_in_first_of_16)
{
	set_entries(16);
	put_prog(0);
	put_prog(7);
	put_prog(15);
	search_exits("prog", 0);
}

Test(path, found_in_middle_of_16)
{
	set_entries(16);
	put_prog(7);
	put_prog(15);
	search_exits("prog", 7);
}

Test(path, found_in_last_of_16)
{
	set_entries(16);
	put_prog(15);
	search_exits("prog", 15);
}

Test(path, found_in_last_of_64)
{
	set_entries(64);
	put_prog(63);
	search_exits("prog", 63);
}

Test(path, not_found_enoent)
{
	set_entries(16);
	search_fails("prog", ENOENT);
}

Test(path, eacces_then_found)
{
	set_entries(16);
	make_file(prog_in(3), "#!/bin/sh\n", 0644);
	put_prog(9);
	search_exits("prog", 9);
}

Test(path, eacces_only)
{
	set_entries(16);
	make_file(prog_in(3), "#!/bin/sh\n", 0644);
	search_fails("prog", EACCES);
}

Test(path, directory_named_like_program_skipped)
{
	set_entries(8);
	make_dir(prog_in(2));
	put_prog(5);
	search_exits("prog", 5);
}

Test(path, eacces_wins_over_later_enoent)
{
	set_entries(8);
	make_dir(prog_in(0));
	search_fails("prog", EACCES);
}

Test(path, enotdir_entries_skipped)
{
	char *file = scratch_path("file"), *path;

	set_entries(2);
	put_prog(1);
	make_file(file, "", 0755);
	cr_assert(asprintf(&path, "%s:%s:%s", file, file, getenv("PATH")) > 0);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	search_exits("prog", 1);
}

Test(path, enotdir_only_enoent)
{
	char *file = scratch_path("file");

	make_file(file, "", 0755);
	cr_assert_eq(setenv("PATH", file, 1), 0);
	search_fails("prog", ENOENT);
}

Test(path, empty_leading_entry_is_cwd)
{
	set_entries(2);
	put_prog(1);
	enter_cwd_with_prog();
	char *path;

	cr_assert(asprintf(&path, ":%s", getenv("PATH")) > 0);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	search_exits("prog", IN_CWD);
}

Test(path, empty_middle_entry_is_cwd)
{
	char *path;

	set_entries(2);
	put_prog(1);
	enter_cwd_with_prog();
	cr_assert(asprintf(&path, "%s::%s", scratch_path("e0"), scratch_path("e1")) > 0);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	search_exits("prog", IN_CWD);
}

Test(path, empty_trailing_entry_is_cwd)
{
	char *path;

	set_entries(1);
	enter_cwd_with_prog();
	cr_assert(asprintf(&path, "%s:", scratch_path("e0")) > 0);
	cr_assert_eq(setenv("PATH", path, 1), 0);
	search_exits("prog", IN_CWD);
}

Test(path, empty_path_is_cwd)
{
	enter_cwd_with_prog();
	cr_assert_eq(setenv("PATH", "", 1), 0);
	search_exits("prog", IN_CWD);
}

/* A relative entry is taken from the child's cwd after the chdir action. */
Test(path, relative_entry_after_chdir)
{
	char *argv[2];
	struct compat_spawn request;

	make_dir(scratch_path("old"));
	make_dir(scratch_path("old/bin"));
	make_script(scratch_path("old/bin/prog"), 1);
	make_dir(scratch_path("new"));
	make_dir(scratch_path("new/bin"));
	make_script(scratch_path("new/bin/prog"), 2);
	cr_assert_eq(chdir(scratch_path("old")), 0);
	cr_assert_eq(setenv("PATH", "bin", 1), 0);
	search_request(&request, argv, "prog");
	struct compat_action actions[] = { compat_chdir(scratch_path("new")) };

	request.actions = actions;
	request.n_actions = 1;
	expect_exit(spawn_ok(&request), 2);
}

/* A failing chdir is reported as itself, not as a fruitless search. */
Test(path, chdir_enotdir_before_search)
{
	char *argv[2], *file = scratch_path("file");
	struct compat_spawn request;

	set_entries(1);
	make_file(file, "", 0644);
	search_request(&request, argv, "prog");
	ACTIONS(request, compat_chdir(file));
	spawn_fails(&request, ENOTDIR, 0);
}

Test(path, name_with_slash_not_searched)
{
	set_entries(1);
	make_dir(scratch_path("e0/sub"));
	make_script(scratch_path("e0/sub/prog"), 0);
	make_dir(scratch_path("cwd"));
	make_dir(scratch_path("cwd/sub"));
	make_script(scratch_path("cwd/sub/prog"), IN_CWD);
	cr_assert_eq(chdir(scratch_path("cwd")), 0);
	search_exits("sub/prog", IN_CWD);
}

Test(path, name_with_slash_not_found_in_path)
{
	set_entries(1);
	make_dir(scratch_path("e0/sub"));
	make_script(scratch_path("e0/sub/prog"), 0);
	cr_assert_eq(chdir(scratch_path("e0")), 0);
	search_fails("./prog", ENOENT);
}

/* Not searched: in a PATH of a directory, "dir/" would be EACCES. */
Test(path, empty_name_enoent)
{
	set_entries(1);
	enter_cwd_with_prog();
	search_fails("", ENOENT);
}

/* The PATH searched is the caller's, not the one in the child's envp. */
Test(path, child_environment_path_ignored)
{
	char *argv[2], *env[2];
	struct compat_spawn request;

	set_entries(2);
	put_prog(1);
	cr_assert(asprintf(&env[0], "PATH=%s", scratch_path("e1")) > 0);
	env[1] = NULL;
	cr_assert_eq(setenv("PATH", scratch_path("e0"), 1), 0);
	search_request(&request, argv, "prog");
	request.envp = env;
	spawn_fails(&request, ENOENT, COMPAT_STEP_EXEC);
}

/* A PATH string given with the request is searched instead of the caller's. */
static void search_string_exits(const char *search_path, int code)
{
	char *argv[2];
	struct compat_spawn request;

	search_request(&request, argv, "prog");
	request.search_path = search_path;
	expect_exit(spawn_ok(&request), code);
}

Test(path, search_path_string_given)
{
	set_entries(2);
	put_prog(0);
	put_prog(1);
	search_string_exits(scratch_path("e1"), 1);
}

Test(path, search_path_string_same_as_callers)
{
	set_entries(2);
	put_prog(1);
	search_string_exits(getenv("PATH"), 1);
}

/* ENOEXEC ends the search: no /bin/sh fallback, no later entry. */
Test(path, enoexec_stops_search)
{
	set_entries(2);
	make_file(prog_in(0), "exit 3\n", 0755);
	put_prog(1);
	search_stops("prog", ENOEXEC, 1);
}

Test(path, eloop_stops_search)
{
	set_entries(2);
	cr_assert_eq(symlink(prog_in(0), prog_in(0)), 0);
	put_prog(1);
	search_stops("prog", ELOOP, 1);
}

/* An entry of length bytes, "/x/x/...": directories that do not exist. */
static char *missing_entry(size_t length)
{
	char *entry = malloc(length + 1);

	cr_assert(entry != NULL);
	for (size_t i = 0; i < length; i++)
		entry[i] = i % 2 ? 'x' : '/';
	entry[length] = '\0';
	return entry;
}

/* PATH: the entry, then e1 (whose program exits 1). */
static void set_entry_then_e1(const char *entry)
{
	char *path;

	set_entries(2);
	put_prog(1);
	cr_assert(asprintf(&path, "%s:%s", entry, scratch_path("e1")) > 0);
	cr_assert_eq(setenv("PATH", path, 1), 0);
}

/* A candidate of PATH_MAX bytes, entry + "/prog", cannot be a path: ENAMETOOLONG ends the search. */
Test(path, candidate_of_path_max_stops_search)
{
	set_entry_then_e1(missing_entry(PATH_MAX - strlen("/prog")));
	search_stops("prog", ENAMETOOLONG, 1);
}

/* One byte less is a path: it does not exist, and the search goes on. */
Test(path, candidate_below_path_max_goes_on)
{
	set_entry_then_e1(missing_entry(PATH_MAX - strlen("/prog") - 1));
	search_exits("prog", 1);
}

/*
 * An entry of PATH_MAX bytes or more is no exception: ENAMETOOLONG, alone
 * or before others. (glibc 2.36 skips it, so that the cwd is searched
 * next, or the search ends with a stale errno: DESIGN.md.)
 */
Test(path, entry_of_path_max_stops_search)
{
	char *entry = missing_entry(PATH_MAX);

	enter_cwd_with_prog();
	cr_assert_eq(setenv("PATH", entry, 1), 0);
	search_fails("prog", ENAMETOOLONG);
	set_entry_then_e1(entry);
	search_stops("prog", ENAMETOOLONG, 1);
}

/* The default, /bin:/usr/bin, has no cwd entry: our cwd's sh is not run. */
Test(path, unset_path_uses_default)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct compat_spawn request = {
		.exec_mode = COMPAT_EXEC_SEARCH, .path = "sh", .argv = argv
	};

	make_script(scratch_path("sh"), IN_CWD);
	cr_assert_eq(chdir(scratch_path(".")), 0);
	cr_assert_eq(unsetenv("PATH"), 0);
	expect_exit(spawn_ok(&request), 3);
}
