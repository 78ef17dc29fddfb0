/* SPDX-License-Identifier: MIT */
/*
 * What the io_uring CLONE/EXEC code (libcompat's backend, the benchmark's
 * raw method, the fuzzer) shares on top of series-liburing's liburing,
 * whose io_uring_prep_clone() and io_uring_prep_exec*() prep the two ops.
 * The opcode numbers and SQE fields come from the series' uapi
 * header: build with -I build/uapi/iouring/include ahead of liburing's
 * include directory and the system's. That header must be included before
 * <liburing.h>: liburing carries its own copy of the uapi under the same
 * include guard (LINUX_IO_URING_H), so whichever comes first wins.
 */
#ifndef SPAWNLAB_IOURING_SPAWN_H
#define SPAWNLAB_IOURING_SPAWN_H

#include <string.h>
#include <sys/utsname.h>
#include <linux/io_uring.h>
#include <liburing.h>

#ifndef IORING_CLONE_PIDFD
#error "<linux/io_uring.h> is not series-iouring's: put its uapi include directory first"
#endif

/*
 * 1 if a probe of the running kernel shows both ops, else 0. The numbers
 * are local to the series, which is based on 6.12: a kernel that is not
 * 6.12 (6.16's last op, 62, is among the series' numbers), or whose last
 * op is not EXEC or one of the series' ops after it that this
 * <linux/io_uring.h> knows (IORING_OP_DUP, ...), gives them to other ops,
 * so it does not count.
 */
static inline int iou_spawn_probed(const struct io_uring_probe *probe)
{
	struct utsname u;

	return !uname(&u) && !strncmp(u.release, "6.12.", 5) &&
	       probe->last_op >= IORING_OP_EXEC &&
	       probe->last_op < IORING_OP_LAST &&
	       io_uring_opcode_supported(probe, IORING_OP_CLONE) &&
	       io_uring_opcode_supported(probe, IORING_OP_EXEC);
}

/* iou_spawn_probed() of io_uring_get_probe(), whose ring takes an fd */
static inline int iou_spawn_supported(void)
{
	struct io_uring_probe *probe = io_uring_get_probe();
	int ok;

	if (!probe)
		return 0;
	ok = iou_spawn_probed(probe);
	io_uring_free_probe(probe);
	return ok;
}

#endif
