/* The exec and its PATH search, as DESIGN.md "PATH search semantics" states. */
#include <errno.h>
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
