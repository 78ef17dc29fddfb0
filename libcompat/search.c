/* The exec and its PATH search, as DESIGN.md "PATH search semantics" states. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

bool compat_name_is_searched(const char *name)
{
	return name[0] != '\0' && strchr(name, '/') == NULL;
}

int compat_path_next(const char **cursor, const char *name, char candidate[PATH_MAX])
{
	const char *entry = *cursor;

	if (entry == NULL)
		return -1;
	const char *colon = strchr(entry, ':');
	size_t entry_len = colon ? (size_t)(colon - entry) : strlen(entry);
	size_t name_len = strlen(name);

	*cursor = colon ? colon + 1 : NULL;
	/* an empty entry is the current directory: the bare name */
	size_t slash = entry_len > 0;
	if (entry_len + slash + name_len + 1 > PATH_MAX)
		return ENAMETOOLONG;
	memcpy(candidate, entry, entry_len);
	candidate[entry_len] = '/';
	memcpy(candidate + entry_len + slash, name, name_len + 1);
	return 0;
}

/* the candidates of a search, or its outcome when there are none; a count or -errno */
static long candidates(const struct compat_spawn *request, size_t max, char **buf,
		       size_t *size, int *stop)
{
	const char *cursor = request->search_path;
	size_t name_len = strlen(request->path), entries = 1, off = 0;
	long n = 0;

	for (const char *p = cursor; (p = strchr(p, ':')) != NULL; p++)
		entries++;
	/* no candidate is longer than its entry, a '/', the name and a NUL */
	size_t need = strlen(cursor) + entries * (name_len + 2);

	if (need > *size) {
		char *bigger = realloc(*buf, need);

		if (!bigger)
			return -ENOMEM;
		*buf = bigger;
		*size = need;
	}
	for (;;) {
		int error = compat_path_next(&cursor, request->path, *buf + off);

		if (error < 0)
			return n;
		if (error) {
			*stop = error;
			return n;
		}
		if ((size_t)++n > max)
			return -E2BIG;
		off += strlen(*buf + off) + 1;
	}
}

size_t compat_path_candidates(const struct compat_spawn *request, size_t max, char **buf,
			      size_t *size, int *stop, struct compat_result *result)
{
	long n;

	*stop = 0;
	n = candidates(request, max, buf, size, stop);
	if (n > 0)
		return (size_t)n;
	if (n == -E2BIG) {
		result->error = E2BIG;
		result->step = COMPAT_STEP_REQUEST;
		result->reason = "PATH has more entries than the backend can take";
	} else if (n < 0) {
		result->error = (int)-n;
		result->step = COMPAT_STEP_CREATE;
	} else {
		/* no candidate at all, or the first one too long */
		result->error = *stop ? *stop : ENOENT;
		result->step = COMPAT_STEP_EXEC;
	}
	return 0;
}

bool compat_path_has_long_entry(const char *path)
{
	while (path) {
		const char *colon = strchr(path, ':');

		if ((colon ? (size_t)(colon - path) : strlen(path)) >= PATH_MAX)
			return true;
		path = colon ? colon + 1 : NULL;
	}
	return false;
}

bool compat_search_continues(int error)
{
	return error == ENOENT || error == ENOTDIR || error == EACCES;
}

static int search_and_exec(const struct compat_spawn *request)
{
	char candidate[PATH_MAX];
	const char *cursor = request->search_path;
	bool denied = false;

	for (;;) {
		int error = compat_path_next(&cursor, request->path, candidate);

		if (error < 0)
			return denied ? EACCES : ENOENT;
		if (error == 0) {
			execve(candidate, request->argv, request->envp);
			error = errno;
		}
		if (!compat_search_continues(error))
			return error;
		denied = denied || error == EACCES;
	}
}

int compat_exec(const struct compat_spawn *request)
{
	if (request->exec_mode == COMPAT_EXEC_SEARCH)
		return search_and_exec(request);
	execveat(request->dirfd, request->path, request->argv, request->envp,
		 request->exec_flags);
	return errno;
}
