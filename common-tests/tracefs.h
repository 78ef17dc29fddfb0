/* SPDX-License-Identifier: MIT */
/*
 * The sched_process_fork tracepoint, for the series' ABI tests that show a
 * spawn is reported as a fork is. Turn the event on, spawn, read the trace,
 * turn it off (from the test's .fini, so that a failed test leaves it off
 * too). Tracefs is mounted at /sys/kernel/tracing if it is not there yet,
 * and unmounted again afterwards. Failures are criterion assertions.
 */
#ifndef SPAWNLAB_TRACEFS_H
#define SPAWNLAB_TRACEFS_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define TRACEFS_DIR "/sys/kernel/tracing"
#define TRACEFS_FORK_ENABLE TRACEFS_DIR "/events/sched/sched_process_fork/enable"

static bool tracefs_we_mounted;

/* Replace the contents of a tracefs file with text; false on error. */
static inline bool tracefs_write(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	bool ok = fd >= 0 && write(fd, text, (size_t)len) == len;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A tracefs file as a string, cut at size - 1 bytes ("" if unreadable). */
static inline const char *tracefs_read(const char *file, char *buf, size_t size)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	size_t have = 0;
	ssize_t n = 0;

	while (fd >= 0 && have < size - 1 && (n = read(fd, buf + have, size - 1 - have)) > 0)
		have += (size_t)n;
	buf[have] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

/* Empty the trace, then record sched_process_fork events. */
static inline void tracefs_fork_event_on(void)
{
	char on[8];

	if (access(TRACEFS_DIR "/trace", F_OK) != 0) {
		cr_assert(mount("tracefs", TRACEFS_DIR, "tracefs", 0, NULL) == 0,
			  "mount tracefs on " TRACEFS_DIR ": %s", strerror(errno));
		tracefs_we_mounted = true;
	}
	cr_assert(access(TRACEFS_FORK_ENABLE, W_OK) == 0, "%s: %s", TRACEFS_FORK_ENABLE,
		  strerror(errno));
	cr_assert(tracefs_read(TRACEFS_DIR "/tracing_on", on, sizeof(on))[0] == '1',
		  "tracing is off (" TRACEFS_DIR "/tracing_on)");
	cr_assert(tracefs_write(TRACEFS_DIR "/trace", ""), "emptying the trace: %s",
		  strerror(errno));
	cr_assert(tracefs_write(TRACEFS_FORK_ENABLE, "1"), "enabling sched_process_fork: %s",
		  strerror(errno));
}

/* For a test's .fini: stop recording, unmount what tracefs_fork_event_on() mounted. */
static inline void tracefs_fork_event_off(void)
{
	tracefs_write(TRACEFS_FORK_ENABLE, "0");
	if (tracefs_we_mounted && umount(TRACEFS_DIR) == 0)
		tracefs_we_mounted = false;
}

/*
 * Does the trace text have a sched_process_fork event whose parent is
 * task parent and whose child is task child? The event prints
 * "comm=P pid=N child_comm=C child_pid=M".
 */
static inline bool tracefs_has_fork(const char *trace, pid_t parent, pid_t child)
{
	const char *line = trace;

	while ((line = strstr(line, "sched_process_fork: "))) {
		const char *end = strchr(line, '\n');
		const char *p = strstr(line, " pid=");
		const char *c = strstr(line, " child_pid=");

		if (p && c && (!end || c < end) && atoi(p + 5) == parent &&
		    atoi(c + 11) == child)
			return true;
		if (!end)
			break;
		line = end;
	}
	return false;
}

#endif
