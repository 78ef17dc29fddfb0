/* SPDX-License-Identifier: MIT */
/*
 * A FUSE file system whose one file can never be opened: the daemon reads
 * the FUSE_OPEN request and never answers it. A task that opens the file
 * sleeps in request_wait_answer() (fs/fuse/dev.c); once it has a fatal
 * signal it waits uninterruptibly (D state) until the request ends. That is
 * the one uninterruptible wait a test can cause on purpose.
 *
 * No libfuse (the guest has none): the daemon is a forked child of the
 * caller that speaks the protocol of <linux/fuse.h> itself. It answers
 * FUSE_INIT, FUSE_LOOKUP of FUSE_STALL_NAME (a regular file) and
 * FUSE_GETATTR, reports each FUSE_OPEN it reads with the pid of the task
 * that asked, and answers everything else with ENOSYS. fuse_stall_stop()
 * kills it: closing the last /dev/fuse fd aborts the connection, which
 * ends the held request with ECONNABORTED. Root only (mount).
 */
#ifndef SPAWNLAB_FUSE_STALL_H
#define SPAWNLAB_FUSE_STALL_H

#include <linux/fuse.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUSE_STALL_NAME "held"
#define FUSE_STALL_FILE_ID 2

struct fuse_stall {
	pid_t daemon;		/* 0 when stopped */
	int report;		/* the daemon's reports; -1 when closed */
	bool mounted;
	int init_minor;		/* the protocol minor the daemon answered INIT with */
	char dir[PATH_MAX];	/* the mount point */
};

/* What the daemon reports to the test: one of these per event. */
struct fuse_stall_report {
	char what;		/* 'I': INIT answered, 'O': an OPEN read */
	int value;		/* 'I': the minor version, 'O': the pid that asked */
};

static inline void fuse_stall_reply(int dev, const struct fuse_in_header *in, int error,
				    const void *out, size_t len)
{
	struct fuse_out_header h = {
		.len = (uint32_t)(sizeof(h) + len), .error = error, .unique = in->unique,
	};
	struct iovec iov[2] = { { &h, sizeof(h) }, { (void *)out, len } };

	if (writev(dev, iov, out ? 2 : 1) < 0)
		_exit(2);
}

static inline void fuse_stall_attr(struct fuse_attr *attr, uint64_t nodeid)
{
	memset(attr, 0, sizeof(*attr));
	attr->ino = nodeid;
	attr->mode = nodeid == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0444;
	attr->nlink = nodeid == FUSE_ROOT_ID ? 2 : 1;
	attr->blksize = 4096;
}

static inline void fuse_stall_tell(int report, char what, int value)
{
	struct fuse_stall_report r = { what, value };

	if (write(report, &r, sizeof(r)) != sizeof(r))
		_exit(2);
}

/* The daemon: serve dev until the connection ends. Never returns. */
static inline void fuse_stall_serve(int dev, int report)
{
	static char buf[(1 << 20) + 4096] __attribute__((aligned(8)));
	const struct fuse_in_header *in = (const void *)buf;
	const void *arg = buf + sizeof(*in);

	for (;;) {
		ssize_t n = read(dev, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;	/* ENOENT: a request withdrawn before we read it */
		if (n < (ssize_t)sizeof(*in))
			_exit(0);	/* ENODEV: unmounted or aborted */

		switch (in->opcode) {
		case FUSE_INIT: {
			const struct fuse_init_in *init = arg;
			struct fuse_init_out out = {
				.major = FUSE_KERNEL_VERSION,
				.minor = init->minor < FUSE_KERNEL_MINOR_VERSION ?
						 init->minor : FUSE_KERNEL_MINOR_VERSION,
				.max_readahead = init->max_readahead,
				.max_write = 4096,
				.time_gran = 1,
			};

			fuse_stall_reply(dev, in, 0, &out, sizeof(out));
			fuse_stall_tell(report, 'I', (int)out.minor);
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out out = {
				.nodeid = FUSE_STALL_FILE_ID, .generation = 1,
				.entry_valid = 3600, .attr_valid = 3600,
			};

			if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, FUSE_STALL_NAME)) {
				fuse_stall_reply(dev, in, -ENOENT, NULL, 0);
				break;
			}
			fuse_stall_attr(&out.attr, out.nodeid);
			fuse_stall_reply(dev, in, 0, &out, sizeof(out));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out out = { .attr_valid = 3600 };

			fuse_stall_attr(&out.attr, in->nodeid);
			fuse_stall_reply(dev, in, 0, &out, sizeof(out));
			break;
		}
		case FUSE_OPEN:
			fuse_stall_tell(report, 'O', (int)in->pid);	/* and never answer */
			break;
		case FUSE_INTERRUPT:
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break;	/* no answer expected */
		default:
			fuse_stall_reply(dev, in, -ENOSYS, NULL, 0);
			break;
		}
	}
}

/* Wait up to timeout_ms for the daemon's next report of kind what. */
static inline bool fuse_stall_wait(struct fuse_stall *fs, char what, int timeout_ms,
				   int *value)
{
	struct pollfd p = { .fd = fs->report, .events = POLLIN };
	struct fuse_stall_report r;

	while (poll(&p, 1, timeout_ms) == 1 && read(fs->report, &r, sizeof(r)) == sizeof(r)) {
		if (r.what == what) {
			*value = r.value;
			return true;
		}
	}
	return false;
}

/* Kill the daemon (which aborts the connection), unmount, remove dir. */
static inline void fuse_stall_stop(struct fuse_stall *fs)
{
	if (fs->daemon > 0) {
		kill(fs->daemon, SIGKILL);
		waitpid(fs->daemon, NULL, 0);
		fs->daemon = 0;
	}
	if (fs->report >= 0)
		close(fs->report);
	fs->report = -1;
	if (fs->mounted)
		umount2(fs->dir, MNT_DETACH);
	fs->mounted = false;
	if (fs->dir[0])
		rmdir(fs->dir);
	fs->dir[0] = '\0';
}

/* /dev/fuse, made (and removed again) if the system has no node for it. */
static inline int fuse_stall_open_dev(void)
{
	int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);

	if (fd >= 0 || errno != ENOENT)
		return fd;
	if (mknod("/dev/fuse", S_IFCHR | 0600, makedev(10, 229)) < 0)
		return -1;
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	unlink("/dev/fuse");
	return fd;
}

/*
 * Mount the file system on dir (created here) and wait until its daemon
 * has answered FUSE_INIT. 0, or -errno with everything undone.
 */
static inline int fuse_stall_start(struct fuse_stall *fs, const char *dir)
{
	char opts[128];
	int pipefd[2], dev, err;

	memset(fs, 0, sizeof(*fs));
	fs->report = -1;
	if (mkdir(dir, 0700) < 0)
		return -errno;
	snprintf(fs->dir, sizeof(fs->dir), "%s", dir);
	dev = fuse_stall_open_dev();
	if (dev < 0 || pipe2(pipefd, O_CLOEXEC) < 0) {
		err = -errno;
		if (dev >= 0)
			close(dev);
		fuse_stall_stop(fs);
		return err;
	}
	/* /dev/fuse reads fail (EPERM) until a mount uses it: mount first */
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0", dev);
	err = mount("fuse", dir, "fuse", MS_NOSUID | MS_NODEV, opts) < 0 ? -errno : 0;
	fs->mounted = !err;
	if (!err) {
		fs->daemon = fork();
		if (fs->daemon == 0) {
			/* the test's crash must not leave a task stuck on this mount */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(pipefd[0]);
			fuse_stall_serve(dev, pipefd[1]);
		}
		err = fs->daemon < 0 ? -errno : 0;
	}
	close(pipefd[1]);
	fs->report = pipefd[0];
	close(dev);	/* the daemon holds the only descriptor now */
	if (!err && !fuse_stall_wait(fs, 'I', 5000, &fs->init_minor))
		err = -ETIMEDOUT;
	if (err)
		fuse_stall_stop(fs);
	return err;
}

#endif
