/*
 * For backend authors: what a backend provides, and the helpers they share.
 *
 * To add a backend: write libcompat/<name>.c defining
 * `const struct compat_backend compat_backend_<name>`, declare it below and
 * add it to the registry table in compat.c. The tests need no change.
 */
#ifndef LIBCOMPAT_BACKEND_H
#define LIBCOMPAT_BACKEND_H

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>

#include "libcompat.h"

struct compat_backend {
	const char *name;
	/* COMPAT_HAS() bits of what it can express */
	unsigned int features;
	/* whether the running kernel supports it; NULL: always */
	bool (*probe)(void);
	/* reason to refuse a request its features allow; NULL: none */
	const char *(*refuse)(const struct compat_spawn *request);
	/*
	 * Run a request compat_check() accepted, resolved: envp and (for
	 * COMPAT_EXEC_SEARCH) search_path are set; COMPAT_EXEC_SEARCH comes
	 * only with a name that is searched; every other program comes as
	 * COMPAT_EXEC_AT (AT_FDCWD and no flags for a plain path). result
	 * arrives as
	 * { .pid = 0, .pidfd = -1, .error = 0, .step = COMPAT_STEP_NONE }.
	 */
	void (*spawn)(const struct compat_spawn *request, struct compat_result *result);
};

extern const struct compat_backend compat_backend_posix;
extern const struct compat_backend compat_backend_vfork;
extern const struct compat_backend compat_backend_clone_actions;
extern const struct compat_backend compat_backend_iouring;
extern const struct compat_backend compat_backend_builder;

/*
 * Whether fd is open in the child just before the request's action i, as
 * far as the caller can know: the actions before it that open, dup2 onto
 * or close fd decide, else whether fd is open in the caller now (another
 * thread may still close it before the child is made).
 */
bool compat_fd_open_before(const struct compat_spawn *request, size_t i, int fd);

/*
 * make(arg), a call that creates one fd, and when it fails with EMFILE the
 * same with the soft RLIMIT_NOFILE raised, so that the fd lands beyond the
 * limit of a caller whose table is full up to it (glibc's tst-spawn3 fills
 * it before it spawns). One thread at a time, with its signals blocked (or
 * two could leave the limit raised); another thread's fd can take the first
 * one beyond, so up to 8 tries, one fd further each; the limit is put back
 * at once. At the hard limit it stays EMFILE. Returns what make returns,
 * an fd or -1 with errno.
 */
int compat_fd_beyond_limit(int (*make)(const void *arg), const void *arg);

/* A signal set as kernel ABIs take it: bit n - 1 for signal n, 1 to 64. */
uint64_t compat_signal_bits(const sigset_t *set);

/* The flags that open(2) knows; it ignores the other bits. */
#define COMPAT_OPEN_KNOWN_FLAGS                                                              \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DSYNC | \
	 O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC |  \
	 O_SYNC | O_PATH | __O_TMPFILE)

/* PATH search (search.c), shared so that every backend searches alike. */

/* Whether name is looked up in PATH at all: non-empty and without '/'. */
bool compat_name_is_searched(const char *name);

/*
 * Write the candidate of the next PATH entry into candidate and advance
 * *cursor (start it at the PATH string). Returns 0, ENAMETOOLONG when the
 * candidate does not fit, or -1 after the last entry.
 */
int compat_path_next(const char **cursor, const char *name, char candidate[PATH_MAX]);

/*
 * Every candidate of the request's search (COMPAT_EXEC_SEARCH, resolved),
 * as NUL-terminated strings one after another in *buf, which is grown to
 * fit (*size: its size) and may be kept for the next call: the buffer is
 * sized from the request, never PATH_MAX per entry. *stop is 0, or
 * ENAMETOOLONG when the search ends at a candidate too long for PATH_MAX
 * (the ones before it are there). Returns how many candidates there are;
 * 0 when there is nothing to exec, with result set: the search's error
 * (no candidate, or the first too long), ENOMEM, or E2BIG (refused) for
 * more than max candidates.
 */
size_t compat_path_candidates(const struct compat_spawn *request, size_t max, char **buf,
			      size_t *size, int *stop, struct compat_result *result);

/*
 * Whether the PATH string (NULL: none) has an entry of PATH_MAX bytes or
 * more. glibc's posix_spawnp skips such an entry without trying it: the
 * empty entry it then sees means the cwd, and the last entry skipped ends
 * the search with whatever errno held (DESIGN.md, "PATH search
 * semantics"). libcompat's search ends there with ENAMETOOLONG.
 */
bool compat_path_has_long_entry(const char *path);

/* Whether an exec error moves the search on to the next entry. */
bool compat_search_continues(int error);

/*
 * Exec the resolved request in the calling process (the child); returns
 * the errno value when it fails. Async-signal-safe; allocates nothing.
 */
int compat_exec(const struct compat_spawn *request);

#endif
