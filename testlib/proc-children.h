/* SPDX-License-Identifier: MIT */
/*
 * What /proc says about this process's children and threads, for the
 * corpus and fuzzer tests that act while a spawn is in flight (signal the
 * child, wait until a thread sleeps).
 */
#ifndef SPAWNLAB_PROC_CHILDREN_H
#define SPAWNLAB_PROC_CHILDREN_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* The text of /proc/<path>/stat after the command name's ")", or NULL. */
static inline const char *proc_stat_fields(const char *path, char *buf, size_t size)
{
	char file[PATH_MAX];
	ssize_t len;
	char *end;
	int fd;

	snprintf(file, sizeof(file), "/proc/%s/stat", path);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	end = strrchr(buf, ')');
	return end && end[1] == ' ' ? end + 2 : NULL;
}

/* A child of process parent, waiting up to timeout_ms for one; 0 if none. */
static inline pid_t proc_find_child_of(pid_t parent, int timeout_ms)
{
	for (int waited = 0; waited <= timeout_ms; waited += 10) {
		DIR *proc = opendir("/proc");
		struct dirent *d;
		pid_t found = 0;

		while (proc && !found && (d = readdir(proc))) {
			char buf[512];
			const char *fields;
			int ppid;

			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			fields = proc_stat_fields(d->d_name, buf, sizeof(buf));
			if (fields && sscanf(fields, "%*c %d", &ppid) == 1 && ppid == parent)
				found = atoi(d->d_name);
		}
		if (proc)
			closedir(proc);
		if (found)
			return found;
		usleep(10000);
	}
	return 0;
}

/* A child of this process, waiting up to timeout_ms for one; 0 if none. */
static inline pid_t proc_find_child(int timeout_ms)
{
	return proc_find_child_of(getpid(), timeout_ms);
}

/* The state letter in /proc/<path>/stat ('S' sleeping), '?' if unknown. */
static inline char proc_state(const char *path)
{
	char buf[512];
	const char *fields = proc_stat_fields(path, buf, sizeof(buf));

	return fields ? fields[0] : '?';
}

/* The state letter of process pid. */
static inline char proc_process_state(pid_t pid)
{
	char path[32];

	snprintf(path, sizeof(path), "%d", pid);
	return proc_state(path);
}

/* The state letter of thread tid of this process. */
static inline char proc_thread_state(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "self/task/%d", tid);
	return proc_state(path);
}

#endif
