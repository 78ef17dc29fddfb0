/* SPDX-License-Identifier: MIT */
/*
 * A child held in a blocking action: it opens a FIFO for reading, which
 * waits until a writer comes. For the criterion tests that act on a spawn
 * in flight (signal it, kill its caller, freeze it, wait beside it).
 */
#ifndef SPAWNLAB_FIFO_CHILD_H
#define SPAWNLAB_FIFO_CHILD_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../testlib/proc-children.h"

/*
 * Open fifo's write end, which lets a child blocked opening it for reading
 * go on; tries for 10 s while no reader is there. The fd, or -1.
 */
static inline int release_fifo(const char *fifo)
{
	int fd = -1;

	for (int i = 0; i < 1000 && fd < 0; i++) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno != ENXIO)
			break;
		if (fd < 0)
			usleep(10000);
	}
	return fd;
}

/*
 * Where a spawn waits in the FIFO's open: in the child of parent, whose pid
 * this returns once it sleeps; or, on a backend that applies the actions
 * in the caller before any child exists (builder), in the caller: when no
 * child has appeared within 5 s, 0 once the caller's spawning thread
 * sleeps (spawner: its /proc path, "PID" or "self/task/TID").
 */
static inline pid_t blocked_spawn_of(pid_t parent, const char *spawner)
{
	pid_t child = proc_find_child_of(parent, 5000);
	char path[32], state = '?';
	const char *who = spawner;

	if (child > 0) {
		snprintf(path, sizeof(path), "%d", child);
		who = path;
	}
	for (int i = 0; i < 500 && (state = proc_state(who)) != 'S'; i++)
		usleep(10000);
	cr_assert_eq(state, 'S', "%s %s does not sleep: state %c",
		     child > 0 ? "the child" : "no child appeared, and the spawning thread", who,
		     state);
	return child;
}

#endif
