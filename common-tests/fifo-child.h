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

/* The child of parent, once it sleeps (in the FIFO's open). */
static inline pid_t blocked_child_of(pid_t parent)
{
	pid_t child = proc_find_child_of(parent, 5000);
	char state = '?';

	cr_assert_gt(child, 0, "no child of %d appeared", parent);
	for (int i = 0; i < 500 && (state = proc_process_state(child)) != 'S'; i++)
		usleep(10000);
	cr_assert_eq(state, 'S', "the child %d does not sleep: state %c", child, state);
	return child;
}

#endif
