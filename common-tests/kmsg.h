/* SPDX-License-Identifier: MIT */
/*
 * The kernel log from a point on, for tests that must fail by themselves
 * when the kernel warns while they run (a lockdep report, a WARN_ON), not
 * only when someone reads the console afterwards. kmsg_mark() opens
 * /dev/kmsg at its end; kmsg_find() reads what was logged since and copies
 * out the first message that contains one of the needles. Needs root (or
 * dmesg_restrict 0).
 */
#ifndef SPAWNLAB_KMSG_H
#define SPAWNLAB_KMSG_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* /dev/kmsg opened at the end of the log: the fd, or -errno. */
static inline int kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/*
 * Read the messages logged since kmsg_mark() (or the last call) and copy
 * the first that contains one of needles[0..n) into found. True if one did.
 */
static inline bool kmsg_find(int fd, const char *const *needles, size_t n, char *found,
			     size_t size)
{
	char record[8192];
	ssize_t len;

	/* one record a read(); EPIPE: older records were overwritten, go on */
	while ((len = read(fd, record, sizeof(record) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		const char *text;

		if (len < 0)
			continue;
		record[len] = '\0';
		/* "priority,sequence,time,flags;text\n", then " KEY=value" lines */
		text = strchr(record, ';');
		text = text ? text + 1 : record;
		for (size_t i = 0; i < n; i++) {
			if (strstr(text, needles[i])) {
				snprintf(found, size, "%.*s", (int)strcspn(text, "\n"), text);
				return true;
			}
		}
	}
	return false;
}

/*
 * Would lockdep report a new problem now? 1: yes; 0: it turned itself off
 * (it reports once a boot, then stops); -1: the kernel has no lockdep.
 */
static inline int kmsg_lockdep_active(void)
{
	char stats[16384], *line;
	int fd = open("/proc/lockdep_stats", O_RDONLY | O_CLOEXEC);
	size_t have = 0;
	ssize_t len = 0;
	unsigned int on;

	if (fd < 0)
		return -1;
	while (have < sizeof(stats) - 1 &&
	       (len = read(fd, stats + have, sizeof(stats) - 1 - have)) > 0)
		have += (size_t)len;
	close(fd);
	stats[have] = '\0';
	line = strstr(stats, "debug_locks:");
	return line && sscanf(line, "debug_locks: %u", &on) == 1 ? on != 0 : -1;
}

#endif
