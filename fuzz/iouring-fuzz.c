// SPDX-License-Identifier: MIT
/*
 * iouring-fuzz: a seeded fuzzer of series-iouring's spawn ABI
 * (IORING_OP_CLONE and IORING_OP_EXEC).
 *
 * Usage: iouring-fuzz [--seconds N] [--calls N] [--seed S]
 *            [--mode single|threads|storm|all] [--threads N] [--exec PATH]
 *            [--replay N] [--print]
 *
 * Chain number N is built from the seed and N alone (fuzz/fuzz.h):
 * a ring (plain, SQPOLL or DEFER_TASKRUN|SINGLE_ISSUER; 16 entries, or a
 * CQ of 2 or 4 that NOPs submitted first fill, so that the chain's CQEs
 * overflow), then CLONE (linked or hard-linked; IORING_CLONE_PIDFD or not;
 * now and then an unknown clone_flags bit, a non-zero unused field,
 * IOSQE_ASYNC or IO_DRAIN, a personality, not at the head, not linked) and
 * up to 9 linked requests: those DESIGN.md allows after CLONE (NOP, also
 * with an injected result, OPENAT, OPENAT2 (also onto a chosen fd,
 * IORING_OPEN_FD_TARGET), CLOSE, READ, WRITE, STATX,
 * MKDIRAT, FSYNC, FIXED_FD_INSTALL, CLOSE of a range (IORING_CLOSE_RANGE),
 * DUP (and IORING_DUP_SAME), the
 * chain-only RESETIDS, SETSID, SETPGID, CHDIR, UMASK, SCHED, TCSETPGRP, and EXEC; CLONE now
 * and then with IORING_CLONE_SIGMASK and IORING_CLONE_SIGDEFAULT), with fixed files, odd flags, bad
 * fds, paths and buffers and non-zero unused fields, and now and then one
 * it refuses (FILES_UPDATE, TIMEOUT, LINK_TIMEOUT, POLL_ADD and its
 * multishot, READ_MULTISHOT, ASYNC_CANCEL, MSG_RING, WAITID, ACCEPT, TEE, an
 * opcode past the last). An EXEC misses (ENOENT, EACCES, ENOEXEC, ENOTDIR,
 * ELOOP, EFAULT, EINVAL, EBADF) or runs `tiny` (next to this binary, or
 * --exec), directly, through a symlink, an fd or a #! script, which exits
 * with a status the chain picks.
 *
 * The model (model_chain()) says which res each CQE may have: the prep
 * errors of each request (a chain with one fails whole: those requests
 * get their error, the others -ECANCELED; CLONE's own IOSQE_ASYNC or
 * IO_DRAIN is such an error); CLONE refused at issue with -EINVAL on
 * SQPOLL rings, with IO_DRAIN later in its chain, or with a refused
 * request in its chain, the rest -ECANCELED; else CLONE gives the child's
 * pid (or a pidfd: the caller's lowest free fd) and the spawned task runs
 * the rest in order, each request's result from a model of the child's fd
 * table, the ring's fixed files and the work directory (and the task's
 * session, group and umask; a CHDIR that leaves the work directory ends
 * the model for the rest of the chain), until a failure
 * that is not hard-linked, an -EAGAIN or a successful EXEC cancels what
 * follows (-ECANCELED). After every chain it checks:
 *   1. one CQE per SQE arrives within CHAIN_TIMEOUT_MS, in chain order
 *      (after the fill NOPs, whose CQEs an SQPOLL ring posts before the
 *      chain is submitted), the CLONE's first, with flags 0, and none
 *      after them (seen when the ring is next used);
 *   2. each res is one the model allows;
 *   3. the child a CLONE reports exits as its chain says (the status of the
 *      program of its successful EXEC, else killed by SIGKILL) and is
 *      reaped; no child comes without a CLONE CQE that names it
 *      (waitid(P_ALL, WNOHANG | WNOWAIT) and /proc in single mode, the
 *      waiter thread in the others; the process is a child subreaper);
 *   4. the calling thread's fd table is unchanged but for the pidfd, which
 *      is close-on-exec and names the child; cwd, umask, signal mask,
 *      dispositions and ids are unchanged.
 * Each fuzzing thread has a file table and fs_struct of its own, the same
 * fds at the same numbers, rings at fixed fds and a work directory of its
 * own, so that a chain behaves the same in any thread and in a replay.
 * Modes: single, threads (with a waiter thread), storm (and SIGUSR1
 * storms, in which CLONE may fail with -EINTR, and with -ECANCELED when
 * io-wq could not fork its first worker); --mode all gives each a
 * third of the time. A violation prints the seed, the chain number, the
 * chain with what the model allowed and what came, and the command that
 * replays it (`--seed S --replay N`). Exit 1 on any violation, 2 on a
 * setup error (a kernel without the series' opcodes is one).
 *
 * Built by fuzz/fuzz.mk (static, against the series' uapi).
 */
#include "../abi/iouring-spawn.h"
#include "fuzz.h"

#include <linux/close_range.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/uio.h>

#define MAX_SQES 10
#define NSLOTS 4 /* the ring's fixed file table */
#define CHAIN_TIMEOUT_MS 30000
#define REAP_TIMEOUT_MS 30000
#define DETAILED_VIOLATIONS 20
/* single mode scans /proc for hidden children every this many chains (slow under KASAN) */
#define PROC_SCAN_EVERY 8
#define BUF_LEN 4096
#define KERNEL_ADDR 0xffffffff81000000ULL
#define SCRIPT_STATUS 42
#define TAG_FILL 0xf0
#define TAG_RESET 0xfe
#define O_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)
#define OPEN_HOW_SIZE_VER0 24 /* the kernel's: the smallest struct open_how */

/* the fds every fuzzing thread has, at these numbers (thread_setup()) */
enum {
	FD_NULL = 3, /* /dev/null, read-write */
	FD_ZERO,     /* /dev/zero, read-only */
	FD_DATA,     /* fz-data, read-only */
	FD_PIPE_R,   /* an empty pipe, O_NONBLOCK */
	FD_PIPE_W,
	FD_WORK,  /* the thread's work directory */
	FD_TESTS, /* tiny's directory, O_PATH */
	FD_TINY,  /* tiny, read-only */
	FD_SUB,	  /* fz-sub */
	FD_FREE,  /* the lowest free fd */
	RING_FD = 40, /* ring configuration c is at RING_FD + c */
	FD_CLOSED = 900,
};

/* what a path or fd names, for the model */
enum tgt {
	TG_NONE, /* a closed fd */
	TG_OTHER, /* fds 0-2, whatever the fuzzer got */
	TG_NULL, TG_ZERO, TG_PIPE_R, TG_PIPE_W, TG_RING,
	TG_WORK, TG_TESTS, TG_SUB, TG_NEWDIR, /* directories */
	TG_DATA, TG_NOEXEC, TG_JUNK, TG_SCRIPT, TG_TINY, TG_NEW, /* regular files */
	TG_LINK, /* the symlink fz-link itself (O_PATH | O_NOFOLLOW) */
};

static bool tg_dir(int t)
{
	return t >= TG_WORK && t <= TG_NEWDIR;
}

static bool tg_reg(int t)
{
	return t >= TG_DATA && t <= TG_NEW;
}

enum path {
	PA_DATA, PA_SUB, PA_NOEXEC, PA_JUNK, PA_SCRIPT, PA_LINK, PA_TINY, PA_NEW, PA_NEWDIR,
	PA_MISSING, PA_NOTDIR, PA_DOT, PA_ABS_TINY, PA_ABS_DATA, PA_EMPTY, PA_LONG, PA_NULL,
	NPATHS
};
/* the relative names; the others are made by arena_init() */
static const char *const path_names[NPATHS] = {
	"fz-data", "fz-sub", "fz-noexec", "fz-junk", "fz-script", "fz-link", "tiny", "fz-new",
	"fz-newdir", "fz-missing", "fz-data/x", ".", "/abs/tiny", "/abs/fz-data", "\"\"",
	"too-long", "NULL",
};

/* SQE fields a fuzzer may set where a request does not use them */
enum field { F_FD, F_IOPRIO, F_OFF, F_ADDR, F_LEN, F_OPFLAGS, F_BUF_INDEX, F_FILE_INDEX, F_ADDR3, F_PAD2 };
static const char *const field_names[] = { "fd", "ioprio", "off", "addr", "len", "op_flags",
					   "buf_index", "file_index", "addr3", "pad2" };
#define FB(f) (1U << (f))

enum kind {
	K_CLONE, K_NOP, K_OPENAT, K_OPENAT2, K_CLOSE, K_READ, K_WRITE, K_STATX, K_MKDIRAT,
	K_FSYNC, K_FILES_UPDATE, K_FD_INSTALL,
	/* series-iouring's parity operations: DUP, then those valid only in a chain */
	K_DUP, K_RESETIDS, K_SETSID, K_SETPGID, K_CHDIR, K_UMASK, K_SCHED, K_TCSETPGRP,
	K_EXEC,
	/* refused after CLONE (their prep passes) */
	K_TIMEOUT, K_LINK_TIMEOUT, K_POLL, K_POLL_MULTI, K_CANCEL, K_MSG_RING, K_WAITID,
	K_ACCEPT, K_TEE, K_READ_MULTI, K_BAD_OPCODE,
	NKINDS
};

struct fuzzer;
struct req;
struct want;

/*
 * A kind of request: the fields its prep requires to be zero (a poke there
 * is -EINVAL) and those it ignores (a poke there changes nothing), whether
 * io_init_req() lets it take ioprio and IOSQE_BUFFER_SELECT, its own prep
 * errors and, for those allowed after CLONE, what it does when the spawned
 * task issues it.
 */
struct kind_row {
	const char *name;
	uint8_t opcode;
	bool allowed, ioprio, bufsel;
	unsigned zero, ignored;
	errset (*prep)(const struct fuzzer *f, int i, bool creds);
	struct want (*run)(struct fuzzer *f, int i);
};

/* ---- what a CQE's res may be ---- */

struct want {
	errset errs; /* -errno results */
	bool ok;     /* or a result in [lo, hi] */
	long lo, hi;
	bool slot;   /* the result is a fixed file slot, which must have been free */
	bool any;    /* not modelled (after a CQE the model did not expect) */
};

static struct want w_errs(errset e)
{
	return (struct want){ .errs = e };
}

static struct want w_err(int e)
{
	return w_errs(ES(e));
}

static struct want w_range(long lo, long hi)
{
	return (struct want){ .ok = true, .lo = lo, .hi = hi };
}

static struct want w_val(long v)
{
	return w_range(v, v);
}

static struct want w_or(struct want a, struct want b)
{
	struct want w = a;

	w.errs = es_or(a.errs, b.errs);
	if (b.ok) {
		w.lo = a.ok && a.lo < b.lo ? a.lo : b.lo;
		w.hi = a.ok && a.hi > b.hi ? a.hi : b.hi;
		w.ok = true;
	}
	return w;
}

static bool w_has(const struct want *w, int res)
{
	if (w->any)
		return true;
	if (res < 0)
		return es_has(w->errs, -res);
	return w->ok && res >= w->lo && res <= w->hi;
}

static int w_print(char *out, size_t n, const struct want *w)
{
	int len = 0;

	if (w->any)
		return snprintf(out, n, "(not modelled)");
	if (w->ok && w->lo == w->hi)
		len = snprintf(out, n, "%ld", w->lo);
	else if (w->ok)
		len = snprintf(out, n, "%ld..%ld%s", w->lo, w->hi, w->slot ? " (a free slot)" : "");
	for (int e = 1; e < 128 && (size_t)len < n; e++)
		if (es_has(w->errs, e))
			len += snprintf(out + len, n - len, "%s-%s", len ? "|" : "",
					strerrorname_np(e) ? strerrorname_np(e) : "?");
	return len;
}

/* ---- a chain, as generated ---- */

enum { B_OK, B_NULL, B_KERNEL };		   /* a buffer */
enum { AV_TINY, AV_NULL, AV_BAD };		   /* EXEC's argv and envp */
enum { RB_PLAIN, RB_SQPOLL, RB_DEFER, NBASE };	   /* ring kinds */
static const char *const base_names[] = { "plain", "sqpoll", "defer" };
static const unsigned cq_sizes[] = { 0, 2, 4 }; /* 0: 16 entries */
#define NSIZES 3
#define NCFG (NBASE * NSIZES)

struct req {
	int kind;
	struct io_uring_sqe sqe; /* user_data is set when it is queued */
	int path;		 /* PA_* of the path, -1 none */
	int poke;		 /* the unused field set, -1 none */
	int buf;		 /* B_* of the buffer */
	int argv, envp;		 /* EXEC: AV_* */
	int status;		 /* EXEC: the exit status of the program it runs */
	int upd[2];		 /* FILES_UPDATE: the fds (the kernel may overwrite the arena's) */
};

struct chain {
	long long no;
	int cfg;   /* ring configuration: base * NSIZES + size */
	int personality; /* the one registered on the ring */
	int fill;  /* NOPs submitted before the chain */
	int n;
	int clone; /* index of the CLONE */
	struct req q[MAX_SQES];
};

/* ---- the model of the spawned task's state ---- */

enum { A_R = 1, A_W = 2 };

struct mfd {
	uint8_t tgt, acc;
	bool opath, cloexec;
};

struct model {
	struct mfd fd[FUZZ_FDS];
	struct mfd slot[NSLOTS];
	bool made_new, made_newdir;
	int pipe; /* bytes in the pipe, -1: unknown */
	/* what the request being modelled does if its res is the one expected */
	struct mfd pend;
	struct mfd pend_slots[NSLOTS];
	bool pend_new, pend_newdir;
	int status; /* EXEC */
	/* SETSID, SETPGID, UMASK, CHDIR: the task's session and group, umask */
	bool sess_leader, grp_leader;
	unsigned umask;
	bool lost; /* a CHDIR moved the cwd: what follows is not modelled */
};

/* ---- per-thread state ---- */

struct arena {
	char *path[NPATHS];
	char abs_data[PATH_MAX * 2];
	char longpath[PATH_MAX + 64];
	char buf[BUF_LEN];
	struct statx stx;
	struct open_how how[MAX_SQES][2]; /* room for a larger struct's tail */
	int upd[MAX_SQES][2];		  /* FILES_UPDATE's fds */
	char num[MAX_SQES][12];
	char *argv[MAX_SQES][3];
	char *envp[2];
	struct __kernel_timespec ts;
	siginfo_t si;
	sigset_t sigs[2]; /* CLONE's: the program's mask, the signals reset */
	struct sched_param sched[2]; /* SCHED's: priority 0, 1 */
};

struct ringslot {
	bool up;
	struct io_uring ring;
	unsigned entries;
	int personality;
	long long last; /* the last chain it ran */
};

struct got {
	int n;
	uint64_t ud[MAX_SQES + 8];
	int res[MAX_SQES + 8];
	uint32_t flags[MAX_SQES + 8];
};

struct fuzzer {
	int id;
	char work[PATH_MAX + 16];
	struct arena ar;
	struct ringslot ring[NCFG];
	struct chain c;
	struct got g;
	struct model m;
	struct want w[MAX_SQES];
	bool have[MAX_SQES];
	int res[MAX_SQES];
	struct fuzz_state before, now;
	char log[16384];
	size_t loglen;
	bool detailed; /* the chain's log was printed with a violation */
	/* for the watchdog: the chain under way (-1: none), since when, doing what */
	atomic_llong busy;
	atomic_long since;
	_Atomic(const char *) stage;
};

static struct {
	char tiny[PATH_MAX], tests[PATH_MAX], top[PATH_MAX];
} opt;

static struct fuzzer *fuzzers[MAX_THREADS];
static atomic_long n_child, n_ran, n_refused, n_prep, n_cfg[NCFG], n_kind[NKINDS];

static uint64_t ud_of(long long no, int i)
{
	return (uint64_t)no << 8 | (unsigned)i;
}

/* ---- the model: paths and fds ---- */

static const struct mfd *fd_of(const struct model *m, int fd)
{
	return fd >= 0 && fd < FUZZ_FDS && m->fd[fd].tgt != TG_NONE ? &m->fd[fd] : NULL;
}

static int lowest_free(const struct model *m)
{
	int fd = 0;

	while (fd < FUZZ_FDS && m->fd[fd].tgt != TG_NONE)
		fd++;
	return fd;
}

/* what relative name path names in directory dir: a TG_*, or -errno */
static int name_in(const struct model *m, int dir, int path)
{
	if (path == PA_DOT)
		return dir;
	if (dir == TG_TESTS)
		return path == PA_TINY ? TG_TINY : -ENOENT;
	if (dir != TG_WORK)
		return -ENOENT;
	switch (path) {
	case PA_DATA: return TG_DATA;
	case PA_SUB: return TG_SUB;
	case PA_NOEXEC: return TG_NOEXEC;
	case PA_JUNK: return TG_JUNK;
	case PA_SCRIPT: return TG_SCRIPT;
	case PA_LINK: return TG_LINK;
	case PA_NEW: return m->made_new ? TG_NEW : -ENOENT;
	case PA_NEWDIR: return m->made_newdir ? TG_NEWDIR : -ENOENT;
	case PA_NOTDIR: return -ENOTDIR;
	default: return -ENOENT;
	}
}

/*
 * What path, looked up from dirfd, names: a TG_*, or -errno. empty: an
 * empty path names dirfd (AT_EMPTY_PATH); follow: a final symlink is
 * followed; *dir: the directory the last name was looked up in.
 */
static int resolve(const struct model *m, int dirfd, int path, bool empty, bool follow, int *dir)
{
	const struct mfd *d = fd_of(m, dirfd);
	int t;

	*dir = TG_NONE;
	switch (path) {
	case PA_NULL:
		return -EFAULT;
	case PA_LONG:
		return -ENAMETOOLONG;
	case PA_EMPTY:
		if (!empty)
			return -ENOENT;
		return dirfd == AT_FDCWD ? TG_WORK : d ? d->tgt : -EBADF;
	case PA_ABS_TINY:
		return TG_TINY;
	case PA_ABS_DATA:
		*dir = TG_WORK;
		return TG_DATA;
	}
	if (dirfd == AT_FDCWD)
		*dir = TG_WORK;
	else if (!d)
		return -EBADF;
	else if (!tg_dir(d->tgt))
		return -ENOTDIR;
	else
		*dir = d->tgt;
	t = name_in(m, *dir, path);
	return t == TG_LINK && follow ? TG_TINY : t;
}

/*
 * The file a request that needs one works on: its fd in the child's
 * table, or with IOSQE_FIXED_FILE the ring's slot; NULL: -EBADF. Without
 * a fixed file, an O_PATH fd is -EBADF too (fget() skips them).
 */
static const struct mfd *file_of(const struct model *m, const struct io_uring_sqe *s)
{
	const struct mfd *d;

	if (s->flags & IOSQE_FIXED_FILE)
		return (unsigned)s->fd < NSLOTS && m->slot[s->fd].tgt != TG_NONE ? &m->slot[s->fd] : NULL;
	d = fd_of(m, s->fd);
	return d && !d->opath ? d : NULL;
}

/* ---- the kinds: prep ---- */

/* what getname() says at prep of path (empty: LOOKUP_EMPTY) */
static errset name_errors(int path, bool empty)
{
	if (path == PA_NULL)
		return ES(EFAULT);
	if (path == PA_LONG)
		return ES(ENAMETOOLONG);
	if (path == PA_EMPTY && !empty)
		return ES(ENOENT);
	return ES_NONE;
}

static errset fixed_is_ebadf(const struct io_uring_sqe *s)
{
	return s->flags & IOSQE_FIXED_FILE ? ES(EBADF) : ES_NONE;
}

static errset prep_clone(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	/*
	 * IOSQE_ASYNC, or its own IO_DRAIN (the core marks a drained request
	 * async before its prep), is refused at prep; IO_DRAIN later in the
	 * chain marks the head only after its prep, and CLONE fails at issue.
	 */
	unsigned sigs = s->clone_flags & (IORING_CLONE_SIGMASK | IORING_CLONE_SIGDEFAULT);
	/* the signal flags' sets: valid, of the kernel's size (gen_req()) */
	bool bad = (s->clone_flags & ~(IORING_CLONE_PIDFD | IORING_CLONE_SIGMASK |
				       IORING_CLONE_SIGDEFAULT)) || creds ||
		   (sigs && s->len != _NSIG / 8) ||
		   (s->flags & (IOSQE_FIXED_FILE | IOSQE_ASYNC | IOSQE_IO_DRAIN)) ||
		   !(s->flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK)) || i > 0;

	return bad ? ES(EINVAL) : ES_NONE;
}

static errset prep_nop(const struct fuzzer *f, int i, bool creds)
{
	(void)creds;
	return f->c.q[i].sqe.nop_flags & ~IORING_NOP_INJECT_RESULT ? ES(EINVAL) : ES_NONE;
}

/* OPENAT's and OPENAT2's IORING_OPEN_FD_TARGET: file_index is a plain fd */
static bool open_fd_target(const struct io_uring_sqe *s)
{
	return s->ioprio & IORING_OPEN_FD_TARGET;
}

static errset prep_open_common(const struct req *q, uint64_t flags)
{
	errset e = es_or(fixed_is_ebadf(&q->sqe), name_errors(q->path, false));

	if (q->sqe.ioprio & ~IORING_OPEN_FD_TARGET)
		e = es_or(e, ES(EINVAL));
	if (q->sqe.file_index && !open_fd_target(&q->sqe) && (flags & O_CLOEXEC))
		e = es_or(e, ES(EINVAL));
	return e;
}

static errset prep_openat(const struct fuzzer *f, int i, bool creds)
{
	(void)creds;
	return prep_open_common(&f->c.q[i], f->c.q[i].sqe.open_flags);
}

static errset prep_openat2(const struct fuzzer *f, int i, bool creds)
{
	const struct req *q = &f->c.q[i];
	const struct open_how *how = &f->ar.how[i][0];
	const char *tail = (const char *)&f->ar.how[i][1];

	(void)creds;
	if (q->sqe.len < OPEN_HOW_SIZE_VER0)
		return ES(EINVAL);
	if (!q->sqe.addr2)
		return ES(EFAULT);
	for (unsigned b = 0; b + sizeof(*how) < q->sqe.len; b++)
		if (tail[b])
			return ES(E2BIG);
	return prep_open_common(q, how->flags);
}

/* CLOSE's IORING_CLOSE_RANGE: fd to len, close_range()'s flags */
static bool close_range_req(const struct io_uring_sqe *s)
{
	return s->ioprio & IORING_CLOSE_RANGE;
}

static errset prep_close(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	errset e = fixed_is_ebadf(s);

	(void)creds;
	if (s->ioprio & ~IORING_CLOSE_RANGE)
		e = es_or(e, ES(EINVAL));
	if (!close_range_req(s))
		return es_or(e, s->file_index && s->fd ? ES(EINVAL) : ES_NONE);
	if (s->file_index || (s->close_flags & ~CLOSE_RANGE_CLOEXEC) || (uint32_t)s->fd > s->len)
		e = es_or(e, ES(EINVAL));
	return e;
}

/* the buffer is imported at prep, unless the kernel picks one at issue */
static errset prep_rw(const struct fuzzer *f, int i, bool creds)
{
	const struct req *q = &f->c.q[i];

	(void)creds;
	return q->buf == B_KERNEL && !(q->sqe.flags & IOSQE_BUFFER_SELECT) ? ES(EFAULT) : ES_NONE;
}

static errset prep_statx(const struct fuzzer *f, int i, bool creds)
{
	const struct req *q = &f->c.q[i];

	(void)creds;
	return es_or(fixed_is_ebadf(&q->sqe),
		     name_errors(q->path, q->sqe.statx_flags & AT_EMPTY_PATH));
}

static errset prep_mkdirat(const struct fuzzer *f, int i, bool creds)
{
	const struct req *q = &f->c.q[i];

	(void)creds;
	return es_or(fixed_is_ebadf(&q->sqe), name_errors(q->path, false));
}

static errset prep_fsync(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;

	(void)creds;
	return (s->fsync_flags & ~IORING_FSYNC_DATASYNC) || (int64_t)s->off < 0 ? ES(EINVAL)
										 : ES_NONE;
}

static errset prep_files_update(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;

	(void)creds;
	return (s->flags & IOSQE_FIXED_FILE) || !s->len ? ES(EINVAL) : ES_NONE;
}

static errset prep_fd_install(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	errset e = s->flags & IOSQE_FIXED_FILE ? ES_NONE : ES(EBADF);

	if (s->install_fd_flags & ~IORING_FIXED_FD_NO_CLOEXEC)
		e = es_or(e, ES(EINVAL));
	return creds ? es_or(e, ES(EPERM)) : e;
}

/* EXEC's fd is a directory fd: IOSQE_FIXED_FILE is -EBADF, as for OPENAT */
static errset prep_exec(const struct fuzzer *f, int i, bool creds)
{
	return es_or(fixed_is_ebadf(&f->c.q[i].sqe), creds ? ES(EINVAL) : ES_NONE);
}

/* a LINK_TIMEOUT needs a request before it in its link, not another LINK_TIMEOUT */
static errset prep_link_timeout(const struct fuzzer *f, int i, bool creds)
{
	(void)creds;
	return i == 0 || f->c.q[i - 1].kind == K_LINK_TIMEOUT ? ES(EINVAL) : ES_NONE;
}

static errset prep_bad_opcode(const struct fuzzer *f, int i, bool creds)
{
	(void)f, (void)i, (void)creds;
	return ES(EINVAL);
}

/* ---- the kinds: what the spawned task's issue does ---- */

static struct want run_nop(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	int v = s->nop_flags & IORING_NOP_INJECT_RESULT ? (int)s->len : 0;

	return v < 0 ? w_err(-v) : w_val(v);
}

/* the result of opening (or creating) t; sets m->pend for apply() */
static struct want opened(struct model *m, const struct io_uring_sqe *s, int t, uint64_t flags)
{
	uint32_t slot = s->file_index;
	int acc = flags & O_ACCMODE;

	m->pend = (struct mfd){ .tgt = t, .opath = flags & O_PATH, .cloexec = flags & O_CLOEXEC,
				.acc = flags & O_PATH ? 0 : acc == O_RDONLY ? A_R : acc == O_WRONLY ? A_W : A_R | A_W };
	if (open_fd_target(s))
		return w_val(slot); /* run_open() checked it */
	if (!slot)
		return w_val(lowest_free(m));
	if (slot == IORING_FILE_INDEX_ALLOC) {
		struct want w = w_range(0, NSLOTS - 1);

		w.slot = true;
		for (int i = 0; i < NSLOTS; i++)
			if (m->slot[i].tgt == TG_NONE)
				return w;
		return w_err(ENFILE);
	}
	return slot - 1 >= NSLOTS ? w_err(EINVAL) : w_val(0);
}

/* OPENAT and OPENAT2: flags, mode and resolve as the kernel got them (two: OPENAT2's checks) */
static struct want run_open(struct fuzzer *f, int i, uint64_t flags, uint64_t mode,
			    uint64_t res_flags, bool two)
{
	struct model *m = &f->m;
	const struct req *q = &f->c.q[i];
	int t, dir;
	bool creat, created = false;

	if (two && ((res_flags & ~(uint64_t)0x3f) || (!(flags & O_CREAT) && mode) ||
		    ((flags & O_PATH) && (flags & ~(uint64_t)O_PATH_FLAGS))))
		return w_err(EINVAL);
	if (open_fd_target(&q->sqe)) {
		/* checked before the open: the limit (the spawned task's is ours) */
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) || q->sqe.file_index >= rl.rlim_cur)
			return w_err(EBADF);
		if (q->sqe.file_index >= FUZZ_FDS)
			return (struct want){ .any = true };
	}
	if (flags & O_PATH)
		flags &= O_PATH_FLAGS;
	creat = flags & O_CREAT;
	if ((res_flags & RESOLVE_BENEATH) && (q->path == PA_ABS_TINY || q->path == PA_ABS_DATA))
		return w_err(EXDEV);
	t = resolve(m, q->sqe.fd, q->path, false, !(flags & O_NOFOLLOW), &dir);
	if (t == TG_TINY && q->path == PA_LINK && (res_flags & (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)))
		return w_err(res_flags & RESOLVE_NO_SYMLINKS ? ELOOP : EXDEV);
	if (t == -ENOENT && creat && q->path == PA_NEW && dir == TG_WORK)
		t = TG_NEW, created = true;
	if (t < 0)
		return w_err(-t);
	if (creat && (flags & O_EXCL) && !created)
		return w_err(EEXIST);
	if (t == TG_LINK && !(flags & O_PATH))
		return w_err(ELOOP);
	if (tg_dir(t) && (creat || (!(flags & O_PATH) && (flags & O_ACCMODE) != O_RDONLY)))
		return w_err(EISDIR);
	if ((flags & O_DIRECTORY) && !tg_dir(t))
		return w_err(ENOTDIR);
	m->pend_new = created;
	return opened(m, &q->sqe, t, flags);
}

static struct want run_openat(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;

	return run_open(f, i, s->open_flags, s->len, 0, false);
}

static struct want run_openat2(struct fuzzer *f, int i)
{
	const struct open_how *how = &f->ar.how[i][0];

	return run_open(f, i, how->flags, how->mode, how->resolve, true);
}

static struct want run_close(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;

	/* the spawned task's own table: all of the range, rings' fds too */
	if (close_range_req(s))
		return w_val(0);

	if (s->file_index) {
		uint32_t slot = s->file_index - 1;

		if (slot >= NSLOTS)
			return w_err(EINVAL);
		return f->m.slot[slot].tgt == TG_NONE ? w_err(EBADF) : w_val(0);
	}
	return fd_of(&f->m, s->fd) ? w_val(0) : w_err(EBADF);
}

static struct want run_rw(struct fuzzer *f, int i, bool write)
{
	const struct req *q = &f->c.q[i];
	const struct io_uring_sqe *s = &q->sqe;
	const struct mfd *d = file_of(&f->m, s);
	long len = s->len;
	bool null = q->buf == B_NULL && len;

	if (!d)
		return w_err(EBADF);
	if (s->flags & IOSQE_BUFFER_SELECT)
		return w_err(ENOBUFS);
	if (!(d->acc & (write ? A_W : A_R)))
		return w_err(EBADF);
	if (s->rw_flags & ~(uint32_t)RWF_SUPPORTED)
		return w_err(EOPNOTSUPP);
	if (s->rw_flags & RWF_HIPRI)
		return w_err(EINVAL);
	switch (d->tgt) {
	case TG_NULL:
		return w_val(write ? len : 0);
	case TG_ZERO:
		return null ? w_err(EFAULT) : w_val(len);
	case TG_RING:
		return w_err(EINVAL);
	case TG_PIPE_W:
		return null ? w_err(EFAULT) : w_val(len);
	case TG_PIPE_R:
		if (!len)
			return w_val(0);
		if (f->m.pipe < 0)
			return w_or(w_range(1, len), w_errs(ES(EAGAIN, EFAULT)));
		if (!f->m.pipe)
			return w_err(EAGAIN);
		return null ? w_err(EFAULT) : w_val(len < f->m.pipe ? len : f->m.pipe);
	default:
		/*
		 * io_uring's READ calls a file's ->read (a directory's gives
		 * -EISDIR) only while bytes are left to read (loop_rw_iter()):
		 * one of 0 bytes is 0. The model follows the opcode as io_uring
		 * issues it (DESIGN.md, Semantics: the spawned task issues the
		 * requests as io-wq does), not read(2).
		 */
		if (tg_dir(d->tgt))
			return len ? w_err(EISDIR) : w_val(0);
		if (!tg_reg(d->tgt))
			return (struct want){ .any = true };
		if (null)
			return w_or(w_val(0), w_err(EFAULT));
		return write ? w_val(len) : w_range(0, len);
	}
}

static struct want run_read(struct fuzzer *f, int i)
{
	return run_rw(f, i, false);
}

static struct want run_write(struct fuzzer *f, int i)
{
	return run_rw(f, i, true);
}

static struct want run_statx(struct fuzzer *f, int i)
{
	const struct req *q = &f->c.q[i];
	const struct io_uring_sqe *s = &q->sqe;
	unsigned flags = s->statx_flags;
	int t, dir;

	if ((s->len & STATX__RESERVED) || (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
	    (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE)))
		return w_err(EINVAL);
	t = resolve(&f->m, s->fd, q->path, flags & AT_EMPTY_PATH, !(flags & AT_SYMLINK_NOFOLLOW), &dir);
	if (t < 0)
		return w_err(-t);
	return q->buf == B_OK ? w_val(0) : w_err(EFAULT);
}

static struct want run_mkdirat(struct fuzzer *f, int i)
{
	const struct req *q = &f->c.q[i];
	int dir, t = resolve(&f->m, q->sqe.fd, q->path, false, false, &dir);

	if (t >= 0)
		return w_err(EEXIST);
	if (t == -ENOENT && q->path == PA_NEWDIR && dir == TG_WORK) {
		f->m.pend_newdir = true;
		return w_val(0);
	}
	return w_err(-t);
}

static struct want run_fsync(struct fuzzer *f, int i)
{
	const struct mfd *d = file_of(&f->m, &f->c.q[i].sqe);

	if (!d)
		return w_err(EBADF);
	/* an O_PATH file (a fixed one) has no fsync either */
	return (tg_dir(d->tgt) || tg_reg(d->tgt)) && !d->opath ? w_val(0) : w_err(EINVAL);
}

/*
 * FILES_UPDATE's slot offset. io_files_update_prep() keeps sqe->off in a
 * u32, so the 64-bit -1 that io_uring_prep_files_update() makes of an int
 * IORING_FILE_INDEX_ALLOC asks for allocation too. The model follows the
 * opcode as io_uring issues it (DESIGN.md, Semantics: the spawned task
 * issues the chain's requests as io-wq does); it compared all 64 bits, and
 * took such an update for one at slot 2^64-1 that skipped its -1 and -2.
 */
static uint32_t upd_offset(const struct io_uring_sqe *s)
{
	return (uint32_t)s->off;
}

/*
 * FILES_UPDATE from the child's fds, as __io_sqe_files_update() and
 * io_files_update_with_index_alloc() do it: done ? done : err, the slots
 * in m->pend_slots (for the allocating form, apply() reads them back).
 */
static struct want run_files_update(struct fuzzer *f, int i)
{
	struct model *m = &f->m;
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	const int *fds = f->c.q[i].upd;
	uint32_t off = upd_offset(s);
	bool alloc = off == IORING_FILE_INDEX_ALLOC;
	int done, err = 0, nfree = 0;

	memcpy(m->pend_slots, m->slot, sizeof(m->slot));
	if (!alloc && off + s->len > NSLOTS)
		return w_err(EINVAL);
	for (int k = 0; k < NSLOTS; k++)
		nfree += m->slot[k].tgt == TG_NONE;
	for (done = 0; done < (int)s->len; done++) {
		const struct mfd *d = fd_of(m, fds[done]);

		if (!alloc && fds[done] == IORING_REGISTER_FILES_SKIP)
			continue;
		if (!alloc)
			m->pend_slots[off + done] = (struct mfd){ 0 };
		if (!alloc && fds[done] == -1)
			continue;
		if (!d || d->opath || d->tgt == TG_RING) {
			err = -EBADF;
			break;
		}
		if (alloc && !nfree--) {
			err = -ENFILE;
			break;
		}
		if (!alloc)
			m->pend_slots[off + done] = *d;
	}
	return done ? w_val(done) : w_err(-err);
}

static struct want run_fd_install(struct fuzzer *f, int i)
{
	const struct mfd *d = file_of(&f->m, &f->c.q[i].sqe);

	if (!d)
		return w_err(EBADF);
	f->m.pend = *d;
	f->m.pend.cloexec = !(f->c.q[i].sqe.install_fd_flags & IORING_FIXED_FD_NO_CLOEXEC);
	return w_val(lowest_free(&f->m));
}

static struct want run_exec(struct fuzzer *f, int i)
{
	const struct req *q = &f->c.q[i];
	unsigned flags = q->sqe.execve_flags;
	int t, dir;

	if (q->path == PA_NULL || q->path == PA_LONG || (q->path == PA_EMPTY && !(flags & AT_EMPTY_PATH)))
		return w_errs(name_errors(q->path, false));
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return w_err(EINVAL);
	t = resolve(&f->m, q->sqe.fd, q->path, flags & AT_EMPTY_PATH, !(flags & AT_SYMLINK_NOFOLLOW), &dir);
	if (t == TG_LINK)
		return w_err(ELOOP);
	if (t < 0)
		return w_err(-t);
	if (t != TG_TINY && t != TG_JUNK && t != TG_SCRIPT)
		return w_err(EACCES);
	if (q->argv == AV_BAD || q->envp == AV_BAD)
		return w_err(EFAULT);
	if (t == TG_JUNK)
		return w_err(ENOEXEC);
	/* a script named from a close-on-exec fd: its interpreter could not open it */
	if (t == TG_SCRIPT && q->sqe.fd != AT_FDCWD && q->path != PA_ABS_TINY &&
	    q->path != PA_ABS_DATA && fd_of(&f->m, q->sqe.fd)->cloexec)
		return w_err(ENOENT);
	f->m.status = t == TG_SCRIPT ? SCRIPT_STATUS : q->argv == AV_NULL ? 0 : q->status;
	return w_val(0);
}

/* ---- the parity operations ---- */

/* DUP: dup3()'s flags, IORING_DUP_SAME in ioprio; both fds the task's own */
static errset prep_dup(const struct fuzzer *f, int i, bool creds)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	errset e = fixed_is_ebadf(s);

	if (creds || (s->ioprio & ~IORING_DUP_SAME) || (s->dup_flags & ~O_CLOEXEC) ||
	    ((uint32_t)s->fd == s->len && !(s->ioprio & IORING_DUP_SAME)))
		e = es_or(e, ES(EINVAL));
	return e;
}

static struct want run_dup(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	const struct mfd *d = fd_of(&f->m, s->fd);
	struct rlimit rl;

	if (!d)
		return w_err(EBADF);
	if ((uint32_t)s->fd != s->len &&
	    (getrlimit(RLIMIT_NOFILE, &rl) || s->len >= rl.rlim_cur))
		return w_err(EBADF);
	if (s->len >= FUZZ_FDS)
		return (struct want){ .any = true };
	/* a ring's fd is replaced in a chain; DUP_SAME keeps the file */
	f->m.pend = *d;
	f->m.pend.cloexec = s->dup_flags & O_CLOEXEC;
	return w_val(s->len);
}

/*
 * The requests valid only in a CLONE chain: -EINVAL at prep unless the
 * chain has a CLONE at its head; no personality; IOSQE_FIXED_FILE is
 * -EBADF for CHDIR and TCSETPGRP (their fd is the task's), -EINVAL for
 * the others.
 */
static errset prep_chain_only(const struct fuzzer *f, int i, bool creds)
{
	const struct chain *c = &f->c;
	const struct io_uring_sqe *s = &c->q[i].sqe;
	bool in_chain = c->q[0].kind == K_CLONE;
	errset e = ES_NONE;

	for (int j = 0; j < i; j++)
		in_chain = in_chain && (c->q[j].sqe.flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK));
	if (!in_chain || creds)
		e = ES(EINVAL);
	if (s->flags & IOSQE_FIXED_FILE)
		e = es_or(e, c->q[i].kind == K_CHDIR || c->q[i].kind == K_TCSETPGRP ? ES(EBADF) :
										      ES(EINVAL));
	if (c->q[i].kind == K_UMASK && (s->len & ~0777U))
		e = es_or(e, ES(EINVAL));
	if (c->q[i].kind == K_SCHED && ((int)s->len < -1 || !s->addr))
		e = es_or(e, ES(EINVAL));
	if (c->q[i].kind == K_CHDIR && s->addr && s->fd != AT_FDCWD)
		e = es_or(e, ES(EINVAL));
	return e;
}

/* the fuzzer runs as root, with the same real and effective ids */
static struct want run_resetids(struct fuzzer *f, int i)
{
	(void)f, (void)i;
	return w_val(0);
}

/* the task leads no group at first; its sid is its pid, which CLONE gave */
static struct want run_setsid(struct fuzzer *f, int i)
{
	const struct chain *c = &f->c;

	(void)i;
	if (f->m.grp_leader)
		return w_err(EPERM);
	if (c->q[c->clone].sqe.clone_flags & IORING_CLONE_PIDFD)
		return w_range(1, INT_MAX);
	return w_val(f->res[c->clone]);
}

/* setpgid(0, 0), of a bad group (EINVAL), of the fuzzer (not a child: ESRCH) */
static struct want run_setpgid(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;

	if ((int)s->len < 0)
		return w_err(EINVAL);
	if (s->fd)
		return w_err(ESRCH);
	return f->m.sess_leader ? w_err(EPERM) : w_val(0);
}

/* chdir(path) or fchdir(fd); one that moves the cwd elsewhere ends the model */
static struct want run_chdir(struct fuzzer *f, int i)
{
	const struct req *q = &f->c.q[i];
	const struct mfd *d;
	int t, dir;

	if (q->sqe.addr) {
		t = resolve(&f->m, AT_FDCWD, q->path, false, true, &dir);
		if (t < 0)
			return w_err(-t);
	} else {
		d = fd_of(&f->m, q->sqe.fd);
		if (!d)
			return w_err(EBADF);
		t = d->tgt;
	}
	if (t == TG_WORK)
		return w_val(0);
	if (!tg_dir(t))
		return w_err(ENOTDIR);
	f->m.lost = true;
	return w_val(0);
}

/* SCHED: SCHED_BATCH, SCHED_OTHER or -1 with priority 0; SCHED_OTHER with 1, 77 */
static struct want run_sched(struct fuzzer *f, int i)
{
	const struct io_uring_sqe *s = &f->c.q[i].sqe;
	const struct sched_param *p = (const struct sched_param *)(uintptr_t)s->addr;
	int policy = (int)s->len;

	if (policy != -1 && policy != SCHED_OTHER && policy != SCHED_BATCH && policy != SCHED_IDLE)
		return w_err(EINVAL);
	return p->sched_priority ? w_err(EINVAL) : w_val(0);
}

/* TCSETPGRP of our fds: none is a terminal (fds 0-2 may be) */
static struct want run_tcsetpgrp(struct fuzzer *f, int i)
{
	const struct mfd *d = fd_of(&f->m, f->c.q[i].sqe.fd);

	if (!d || d->opath)
		return w_err(EBADF);
	if (d->tgt == TG_OTHER)
		return (struct want){ .any = true };
	return w_err(ENOTTY);
}

static struct want run_umask(struct fuzzer *f, int i)
{
	(void)i;
	return w_val(f->m.umask);
}

/*
 * The model's state after request i gave res, which it allowed; false (why
 * says why) if res is still wrong: an allocated fixed-file slot that was
 * not free.
 */
static bool apply(struct fuzzer *f, int i, int res, char *why, size_t n)
{
	struct model *m = &f->m;
	const struct req *q = &f->c.q[i];
	const struct io_uring_sqe *s = &q->sqe;

	switch (q->kind) {
	case K_OPENAT:
	case K_OPENAT2:
	case K_FD_INSTALL:
		if (res < 0)
			break;
		if (q->kind == K_FD_INSTALL || !s->file_index || open_fd_target(s))
			m->fd[res] = m->pend;
		else if (s->file_index != IORING_FILE_INDEX_ALLOC)
			m->slot[s->file_index - 1] = m->pend;
		else if (m->slot[res].tgt != TG_NONE)
			return snprintf(why, n, "slot %d was not free", res), false;
		else
			m->slot[res] = m->pend;
		m->made_new |= m->pend_new;
		break;
	case K_MKDIRAT:
		m->made_newdir |= res == 0 && m->pend_newdir;
		break;
	case K_DUP:
		if (res >= 0 && res < FUZZ_FDS)
			m->fd[res] = m->pend;
		break;
	case K_SETSID:
		if (res > 0)
			m->sess_leader = m->grp_leader = true;
		break;
	case K_SETPGID:
		m->grp_leader |= res == 0;
		break;
	case K_UMASK:
		if (res >= 0)
			m->umask = s->len;
		break;
	case K_CLOSE:
		if (res == 0 && close_range_req(s)) {
			for (uint32_t fd = (uint32_t)s->fd; fd < FUZZ_FDS && fd <= s->len; fd++) {
				if (!(s->close_flags & CLOSE_RANGE_CLOEXEC))
					m->fd[fd] = (struct mfd){ 0 };
				else if (m->fd[fd].tgt != TG_NONE)
					m->fd[fd].cloexec = true;
			}
		} else if (res == 0 && s->file_index)
			m->slot[s->file_index - 1] = (struct mfd){ 0 };
		else if (res == 0)
			m->fd[s->fd] = (struct mfd){ 0 };
		break;
	case K_READ:
	case K_WRITE:
		if (res > 0 && m->pipe >= 0) {
			const struct mfd *d = file_of(m, s);

			if (d && d->tgt == (q->kind == K_READ ? TG_PIPE_R : TG_PIPE_W))
				m->pipe += q->kind == K_READ ? -res : res;
		} else if (res == -EFAULT) {
			m->pipe = -1;
		}
		break;
	case K_FILES_UPDATE:
		if (upd_offset(s) != IORING_FILE_INDEX_ALLOC) {
			if (res > 0 || upd_offset(s) + s->len <= NSLOTS)
				memcpy(m->slot, m->pend_slots, sizeof(m->slot));
			break;
		}
		for (int k = 0; k < res; k++) {
			int slot = f->ar.upd[i][k]; /* the kernel wrote the slot it took there */

			if (slot < 0 || slot >= NSLOTS || m->slot[slot].tgt != TG_NONE)
				return snprintf(why, n, "it wrote slot %d, not a free one", slot), false;
			m->slot[slot] = m->fd[q->upd[k]];
		}
		break;
	}
	return true;
}

static const struct kind_row kinds[NKINDS] = {
	[K_CLONE] = { "CLONE", IORING_OP_CLONE, false, false, false,
		      FB(F_FD) | FB(F_IOPRIO) | FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_BUF_INDEX) |
			      FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
		      0, prep_clone, NULL },
	[K_NOP] = { "NOP", IORING_OP_NOP, true, false, false, FB(F_IOPRIO),
		    FB(F_FD) | FB(F_OFF) | FB(F_ADDR) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX) |
			    FB(F_ADDR3) | FB(F_PAD2),
		    prep_nop, run_nop },
	[K_OPENAT] = { "OPENAT", IORING_OP_OPENAT, true, true, false, FB(F_BUF_INDEX),
		       FB(F_OFF) | FB(F_ADDR3) | FB(F_PAD2), prep_openat, run_openat },
	[K_OPENAT2] = { "OPENAT2", IORING_OP_OPENAT2, true, true, false,
			FB(F_BUF_INDEX), FB(F_OPFLAGS) | FB(F_ADDR3) | FB(F_PAD2),
			prep_openat2, run_openat2 },
	[K_CLOSE] = { "CLOSE", IORING_OP_CLOSE, true, true, false,
		      FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_OPFLAGS) | FB(F_BUF_INDEX),
		      FB(F_ADDR3) | FB(F_PAD2), prep_close, run_close },
	[K_READ] = { "READ", IORING_OP_READ, true, true, true, 0,
		     FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2), prep_rw, run_read },
	[K_WRITE] = { "WRITE", IORING_OP_WRITE, true, true, false, 0,
		      FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2), prep_rw, run_write },
	[K_STATX] = { "STATX", IORING_OP_STATX, true, false, false,
		      FB(F_IOPRIO) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX), FB(F_ADDR3) | FB(F_PAD2),
		      prep_statx, run_statx },
	[K_MKDIRAT] = { "MKDIRAT", IORING_OP_MKDIRAT, true, false, false,
			FB(F_IOPRIO) | FB(F_OFF) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX),
			FB(F_ADDR3) | FB(F_PAD2), prep_mkdirat, run_mkdirat },
	[K_FSYNC] = { "FSYNC", IORING_OP_FSYNC, true, false, false,
		      FB(F_IOPRIO) | FB(F_ADDR) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX),
		      FB(F_ADDR3) | FB(F_PAD2), prep_fsync, run_fsync },
	[K_FILES_UPDATE] = { "FILES_UPDATE", IORING_OP_FILES_UPDATE, false, false, false,
			     FB(F_IOPRIO) | FB(F_OPFLAGS) | FB(F_FILE_INDEX),
			     FB(F_FD) | FB(F_BUF_INDEX) | FB(F_ADDR3) | FB(F_PAD2), prep_files_update,
			     run_files_update },
	[K_FD_INSTALL] = { "FIXED_FD_INSTALL", IORING_OP_FIXED_FD_INSTALL, true, false, false,
			   FB(F_IOPRIO) | FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_BUF_INDEX) |
				   FB(F_FILE_INDEX) | FB(F_ADDR3),
			   FB(F_PAD2), prep_fd_install, run_fd_install },
	[K_DUP] = { "DUP", IORING_OP_DUP, true, true, false,
		    FB(F_OFF) | FB(F_ADDR) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX) | FB(F_ADDR3) |
			    FB(F_PAD2),
		    0, prep_dup, run_dup },
	[K_RESETIDS] = { "RESETIDS", IORING_OP_RESETIDS, true, false, false,
			 FB(F_FD) | FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_OPFLAGS) |
				 FB(F_BUF_INDEX) | FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
			 0, prep_chain_only, run_resetids },
	[K_SETSID] = { "SETSID", IORING_OP_SETSID, true, false, false,
		       FB(F_FD) | FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_OPFLAGS) |
			       FB(F_BUF_INDEX) | FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
		       0, prep_chain_only, run_setsid },
	[K_SETPGID] = { "SETPGID", IORING_OP_SETPGID, true, false, false,
			FB(F_OFF) | FB(F_ADDR) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) |
				FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
			0, prep_chain_only, run_setpgid },
	[K_CHDIR] = { "CHDIR", IORING_OP_CHDIR, true, false, false,
		      FB(F_OFF) | FB(F_LEN) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX) |
			      FB(F_ADDR3) | FB(F_PAD2),
		      0, prep_chain_only, run_chdir },
	[K_UMASK] = { "UMASK", IORING_OP_UMASK, true, false, false,
		      FB(F_FD) | FB(F_OFF) | FB(F_ADDR) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) |
			      FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
		      0, prep_chain_only, run_umask },
	[K_SCHED] = { "SCHED", IORING_OP_SCHED, true, false, false,
		      FB(F_FD) | FB(F_OFF) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX) |
			      FB(F_ADDR3) | FB(F_PAD2),
		      0, prep_chain_only, run_sched },
	[K_TCSETPGRP] = { "TCSETPGRP", IORING_OP_TCSETPGRP, true, false, false,
			  FB(F_OFF) | FB(F_ADDR) | FB(F_LEN) | FB(F_OPFLAGS) | FB(F_BUF_INDEX) |
				  FB(F_FILE_INDEX) | FB(F_ADDR3) | FB(F_PAD2),
			  0, prep_chain_only, run_tcsetpgrp },
	[K_EXEC] = { "EXEC", IORING_OP_EXEC, true, false, false,
		     FB(F_IOPRIO) | FB(F_LEN) | FB(F_BUF_INDEX) | FB(F_FILE_INDEX), FB(F_PAD2),
		     prep_exec, run_exec },
	[K_TIMEOUT] = { "TIMEOUT", IORING_OP_TIMEOUT },
	[K_LINK_TIMEOUT] = { "LINK_TIMEOUT", IORING_OP_LINK_TIMEOUT, .prep = prep_link_timeout },
	[K_POLL] = { "POLL_ADD", IORING_OP_POLL_ADD },
	[K_POLL_MULTI] = { "POLL_ADD(multishot)", IORING_OP_POLL_ADD },
	[K_CANCEL] = { "ASYNC_CANCEL", IORING_OP_ASYNC_CANCEL },
	[K_MSG_RING] = { "MSG_RING", IORING_OP_MSG_RING },
	[K_WAITID] = { "WAITID", IORING_OP_WAITID },
	[K_ACCEPT] = { "ACCEPT", IORING_OP_ACCEPT },
	[K_TEE] = { "TEE", IORING_OP_TEE },
	[K_READ_MULTI] = { "READ_MULTISHOT", IORING_OP_READ_MULTISHOT, .bufsel = true },
	[K_BAD_OPCODE] = { "OPCODE_LAST", IORING_OP_LAST, .prep = prep_bad_opcode },
};

/* the errors request i's prep gives (none: it passes), io_init_req() first */
static errset prep_errors(const struct fuzzer *f, int i)
{
	const struct req *q = &f->c.q[i];
	const struct io_uring_sqe *s = &q->sqe;
	const struct kind_row *k = &kinds[q->kind];
	bool creds = s->personality && s->personality == f->c.personality;
	errset e = ES_NONE;

	if (s->flags & ~0x7fU)
		e = es_or(e, ES(EINVAL));
	if ((s->flags & IOSQE_BUFFER_SELECT) && !k->bufsel)
		e = es_or(e, ES(EOPNOTSUPP));
	if (s->ioprio && !k->ioprio)
		e = es_or(e, ES(EINVAL));
	if (s->personality && !creds)
		e = es_or(e, ES(EINVAL));
	if (q->poke >= 0 && (k->zero & FB(q->poke)))
		e = es_or(e, ES(EINVAL));
	return k->prep ? es_or(e, k->prep(f, i, creds)) : e;
}

/* ---- generating chains ---- */

struct gen {
	struct rng *r;
	struct fuzzer *f;
	int opened[MAX_SQES]; /* fds the chain opens if all goes well */
	int nopened, next_fd;
};

static void opens_fd(struct gen *g)
{
	g->opened[g->nopened++] = g->next_fd++;
}

/* an fd for a request that works on one */
static int pick_fd(struct gen *g)
{
	if (g->nopened && chance(g->r, 35))
		return g->opened[below(g->r, g->nopened)];
	return (int)PICK(g->r, FD_NULL, FD_ZERO, FD_DATA, FD_DATA, FD_PIPE_R, FD_PIPE_W, FD_PIPE_W,
			 FD_WORK, FD_TESTS, FD_TINY, FD_SUB, FD_CLOSED, -1, RING_FD + g->f->c.cfg);
}

/* a dirfd: one that may create only creates in the work directory */
static int pick_dirfd(struct gen *g, bool creating)
{
	if (creating)
		return (int)PICK(g->r, AT_FDCWD, AT_FDCWD, AT_FDCWD, FD_WORK, FD_WORK, FD_DATA, FD_CLOSED);
	if (g->nopened && chance(g->r, 15))
		return g->opened[below(g->r, g->nopened)];
	return (int)PICK(g->r, AT_FDCWD, AT_FDCWD, AT_FDCWD, FD_WORK, FD_TESTS, FD_SUB, FD_DATA,
			 FD_TINY, FD_CLOSED, -1);
}

/* a path: one that may create only names fz-new, or fails */
static int pick_path(struct gen *g, bool creating)
{
	if (creating)
		return (int)PICK(g->r, PA_NEW, PA_NEW, PA_NEW, PA_DATA, PA_SUB, PA_NOTDIR, PA_ABS_DATA,
				 PA_DOT, PA_EMPTY, PA_NULL, PA_LONG);
	if (chance(g->r, 10))
		return (int)PICK(g->r, PA_EMPTY, PA_NULL, PA_LONG);
	return (int)below(g->r, PA_EMPTY);
}

static uint64_t buf_ptr(struct gen *g, struct req *q, void *ok)
{
	uint32_t p = below(g->r, 100);

	q->buf = p < 88 ? B_OK : p < 94 ? B_NULL : B_KERNEL;
	return q->buf == B_OK ? (uint64_t)(uintptr_t)ok : q->buf == B_NULL ? 0 : KERNEL_ADDR;
}

/* sets one of the fields in mask to a non-zero value */
static void poke(struct gen *g, struct req *q, unsigned mask)
{
	struct io_uring_sqe *s = &q->sqe;
	uint64_t v = PICK(g->r, 1, 7, 0x8000, 0xffffffff);
	int fields[16], n = 0;

	for (int fl = F_FD; fl <= F_PAD2; fl++)
		if (mask & FB(fl))
			fields[n++] = fl;
	if (!n)
		return;
	q->poke = fields[below(g->r, n)];
	switch (q->poke) {
	case F_FD: s->fd = (int)v; break;
	case F_IOPRIO: s->ioprio = (uint16_t)v; break;
	case F_OFF: s->off = v; break;
	case F_ADDR: s->addr = v; break;
	case F_LEN: s->len = (uint32_t)v; break;
	case F_OPFLAGS: s->rw_flags = (uint32_t)v; break;
	case F_BUF_INDEX: s->buf_index = (uint16_t)v; break;
	case F_FILE_INDEX: s->file_index = (uint32_t)v; break;
	case F_ADDR3: s->addr3 = v; break;
	case F_PAD2: s->__pad2[0] = v; break;
	}
}

static uint64_t open_flags(struct gen *g, bool *creating)
{
	*creating = chance(g->r, 30);
	if (*creating)
		return PICK(g->r, O_WRONLY | O_CREAT, O_RDWR | O_CREAT | O_EXCL, O_RDONLY | O_CREAT,
			    O_WRONLY, O_RDWR | O_CREAT | O_CLOEXEC);
	return PICK(g->r, O_RDONLY, O_RDONLY | O_CLOEXEC, O_RDONLY | O_NONBLOCK, O_RDONLY | O_DIRECTORY,
		    O_PATH, O_PATH | O_NOFOLLOW, O_PATH | O_DIRECTORY, O_RDONLY | O_NOFOLLOW);
}

/* OPENAT or OPENAT2 (how) with a direct descriptor now and then */
static void gen_open(struct gen *g, struct req *q, int i, bool two)
{
	struct open_how *how = &g->f->ar.how[i][0];
	bool creating;
	uint64_t flags = open_flags(g, &creating);
	int dfd = pick_dirfd(g, creating);

	q->path = pick_path(g, creating);
	if (!two) {
		io_uring_prep_openat(&q->sqe, dfd, g->f->ar.path[q->path], (int)flags, creating ? 0644 : 0);
	} else {
		memset(g->f->ar.how[i], 0, sizeof(g->f->ar.how[i]));
		how->flags = flags;
		how->mode = creating || chance(g->r, 5) ? 0644 : 0;
		if (!creating && chance(g->r, 25))
			how->resolve = PICK(g->r, RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS, 0x80);
		if (how->resolve == RESOLVE_NO_SYMLINKS && (flags & (O_PATH | O_NOFOLLOW)))
			how->resolve = 0;
		io_uring_prep_openat2(&q->sqe, dfd, g->f->ar.path[q->path], how);
		if (chance(g->r, 12)) {
			q->sqe.len = (uint32_t)PICK(g->r, 8, sizeof(*how) + 8, sizeof(*how) + 8);
			((char *)&g->f->ar.how[i][1])[3] = chance(g->r, 50);
		}
		if (chance(g->r, 3))
			q->sqe.addr2 = 0;
	}
	if (!creating && chance(g->r, 12)) {
		q->sqe.file_index = (uint32_t)PICK(g->r, 1, 2, NSLOTS, NSLOTS + 1, IORING_FILE_INDEX_ALLOC);
	} else if (chance(g->r, 12)) {
		/* onto a chosen fd: a free one, one of ours, a ring's, beyond the limit */
		q->sqe.ioprio = IORING_OPEN_FD_TARGET;
		q->sqe.file_index = (uint32_t)PICK(g->r, 30, FD_NULL, FD_DATA, FD_WORK, FD_TINY,
						   RING_FD + g->f->c.cfg, 1 << 20, -1);
	} else {
		opens_fd(g);
	}
}

static void gen_close(struct gen *g, struct req *q)
{
	if (chance(g->r, 12)) {
		/* a range: of free fds, ours, a ring's, to the last fd; inverted */
		uint32_t first = (uint32_t)PICK(g->r, FD_FREE, FD_PIPE_R, FD_SUB, 20,
						RING_FD + g->f->c.cfg, 0),
			 last = (uint32_t)PICK(g->r, first, first + 3, 30, ~0U, first - 1);

		io_uring_prep_close_range(&q->sqe, first, last,
					  chance(g->r, 30) ? CLOSE_RANGE_CLOEXEC : 0);
		if (chance(g->r, 3))
			q->sqe.close_flags |= CLOSE_RANGE_UNSHARE;
		if (chance(g->r, 3))
			q->sqe.file_index = 1;
	} else if (chance(g->r, 15)) {
		io_uring_prep_close_direct(&q->sqe, below(g->r, NSLOTS + 1));
		if (chance(g->r, 10))
			q->sqe.fd = FD_NULL;
	} else {
		io_uring_prep_close(&q->sqe, chance(g->r, 10) ? (int)below(g->r, 3) : pick_fd(g));
	}
}

/* the fd of a request that needs a file: an fd, or (*fixed) a fixed file slot */
static int file_fd(struct gen *g, bool *fixed)
{
	*fixed = chance(g->r, 12);
	return *fixed ? (int)below(g->r, NSLOTS + 1) : pick_fd(g);
}

static void gen_rw(struct gen *g, struct req *q, bool write)
{
	bool fixed;
	int fd = file_fd(g, &fixed);
	uint64_t buf = buf_ptr(g, q, g->f->ar.buf);
	unsigned len = (unsigned)PICK(g->r, 0, 1, 16, 100, BUF_LEN);
	uint64_t off = PICK(g->r, -1, 0, 0, 64, 4096);

	if (write)
		io_uring_prep_write(&q->sqe, fd, (void *)(uintptr_t)buf, len, off);
	else
		io_uring_prep_read(&q->sqe, fd, (void *)(uintptr_t)buf, len, off);
	if (fixed)
		q->sqe.flags |= IOSQE_FIXED_FILE;
	if (chance(g->r, 5))
		q->sqe.rw_flags = (uint32_t)PICK(g->r, RWF_HIPRI, 0x40000000);
	if (!write && chance(g->r, 3)) {
		q->sqe.flags |= IOSQE_BUFFER_SELECT;
		q->sqe.buf_group = 7;
	}
}

static void gen_statx(struct gen *g, struct req *q)
{
	int dfd = pick_dirfd(g, false);
	unsigned flags = 0, mask = STATX_BASIC_STATS;
	uint64_t buf;

	q->path = pick_path(g, false);
	if (chance(g->r, 25))
		flags = (unsigned)PICK(g->r, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_STATX_FORCE_SYNC,
				       AT_STATX_SYNC_TYPE, 0x1);
	if (q->path == PA_EMPTY && chance(g->r, 60)) {
		flags |= AT_EMPTY_PATH;
		dfd = chance(g->r, 80) ? pick_fd(g) : AT_FDCWD;
	}
	if (q->path == PA_NULL)
		flags &= ~AT_EMPTY_PATH;
	if (chance(g->r, 8))
		mask = (unsigned)PICK(g->r, STATX__RESERVED, STATX_ALL);
	buf = buf_ptr(g, q, &g->f->ar.stx);
	io_uring_prep_statx(&q->sqe, dfd, g->f->ar.path[q->path], (int)flags, mask,
			    (struct statx *)(uintptr_t)buf);
}

static void gen_mkdirat(struct gen *g, struct req *q)
{
	q->path = (int)PICK(g->r, PA_NEWDIR, PA_NEWDIR, PA_NEWDIR, PA_NEWDIR, PA_SUB, PA_DATA, PA_LINK,
			    PA_NOTDIR, PA_DOT, PA_EMPTY, PA_NULL, PA_LONG, PA_ABS_TINY);
	io_uring_prep_mkdirat(&q->sqe, pick_dirfd(g, true), g->f->ar.path[q->path],
			      (mode_t)PICK(g->r, 0755, 0700));
}

static void gen_fsync(struct gen *g, struct req *q)
{
	bool fixed;
	int fd = file_fd(g, &fixed);

	io_uring_prep_fsync(&q->sqe, fd, chance(g->r, 20) ? IORING_FSYNC_DATASYNC : 0);
	if (fixed)
		q->sqe.flags |= IOSQE_FIXED_FILE;
	if (chance(g->r, 5))
		q->sqe.fsync_flags = 2;
	if (chance(g->r, 5))
		q->sqe.off = -1;
}

static void gen_files_update(struct gen *g, struct req *q, int i)
{
	unsigned nr = 1 + below(g->r, 2);
	int off = chance(g->r, 20) ? (int)IORING_FILE_INDEX_ALLOC : (int)below(g->r, NSLOTS + 1);

	for (unsigned k = 0; k < nr; k++)
		q->upd[k] = g->nopened && chance(g->r, 30) ? g->opened[below(g->r, g->nopened)]
			: (int)PICK(g->r, FD_DATA, FD_NULL, FD_PIPE_W, FD_TINY, FD_TESTS, -1, -2,
				    FD_CLOSED, RING_FD + g->f->c.cfg);
	memcpy(g->f->ar.upd[i], q->upd, sizeof(q->upd));
	io_uring_prep_files_update(&q->sqe, g->f->ar.upd[i], nr, off);
}

static void gen_fd_install(struct gen *g, struct req *q)
{
	io_uring_prep_rw(IORING_OP_FIXED_FD_INSTALL, &q->sqe, (int)below(g->r, NSLOTS + 1), NULL, 0, 0);
	if (chance(g->r, 95))
		q->sqe.flags |= IOSQE_FIXED_FILE;
	if (chance(g->r, 30))
		q->sqe.install_fd_flags = chance(g->r, 85) ? IORING_FIXED_FD_NO_CLOEXEC : 2;
	opens_fd(g);
}

static void gen_dup(struct gen *g, struct req *q)
{
	int oldfd = pick_fd(g);
	/* onto a free fd, one of ours, a ring's, the old one, beyond the limit */
	int newfd = chance(g->r, 15) ? oldfd :
		    (int)PICK(g->r, 1, 30, 31, FD_NULL, FD_DATA, FD_WORK, FD_TINY,
			      RING_FD + g->f->c.cfg, 1 << 30, -1);

	io_uring_prep_dup(&q->sqe, oldfd, newfd, chance(g->r, 30) ? O_CLOEXEC : 0);
	if (newfd == oldfd ? chance(g->r, 90) : chance(g->r, 10))
		q->sqe.ioprio = IORING_DUP_SAME;
	if (chance(g->r, 3))
		q->sqe.dup_flags |= O_NONBLOCK;
	if (chance(g->r, 2))
		q->sqe.ioprio |= 2;
}

/* CHDIR that stays in the work directory, fails, or (rarely) moves */
static void gen_chdir(struct gen *g, struct req *q)
{
	if (chance(g->r, 50)) {
		q->path = (int)PICK(g->r, PA_DOT, PA_DOT, PA_MISSING, PA_DATA, PA_NOTDIR, PA_SUB);
		io_uring_prep_chdir(&q->sqe, g->f->ar.path[q->path]);
		if (chance(g->r, 5))
			q->sqe.fd = FD_WORK;
	} else {
		io_uring_prep_fchdir(&q->sqe, (int)PICK(g->r, FD_WORK, FD_WORK, FD_DATA, FD_NULL,
							FD_CLOSED, -1, FD_SUB));
	}
}

static void gen_exec(struct gen *g, struct req *q, int i)
{
	struct arena *ar = &g->f->ar;
	int dfd = (int)PICK(g->r, AT_FDCWD, AT_FDCWD, AT_FDCWD, FD_TESTS, FD_TESTS, FD_WORK, FD_TINY,
			    FD_DATA, FD_CLOSED);
	unsigned flags = 0, p;
	uint64_t argv, envp;

	q->path = (int)PICK(g->r, PA_ABS_TINY, PA_ABS_TINY, PA_ABS_TINY, PA_TINY, PA_TINY, PA_LINK,
			    PA_SCRIPT, PA_JUNK, PA_NOEXEC, PA_SUB, PA_MISSING, PA_NOTDIR, PA_EMPTY,
			    PA_NULL, PA_LONG, PA_DATA, PA_DOT);
	if (q->path == PA_EMPTY && chance(g->r, 70)) {
		flags = AT_EMPTY_PATH;
		dfd = (int)PICK(g->r, FD_TINY, FD_TINY, FD_WORK, FD_DATA, FD_NULL, FD_PIPE_R, FD_CLOSED,
				AT_FDCWD);
	} else if (chance(g->r, 12)) {
		flags = (unsigned)PICK(g->r, AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW, 0x4);
	}
	q->status = i + 1 + 16 * (int)below(g->r, 8);
	snprintf(ar->num[i], sizeof(ar->num[i]), "%d", q->status);
	ar->argv[i][0] = "tiny";
	ar->argv[i][1] = ar->num[i];
	ar->argv[i][2] = NULL;
	p = below(g->r, 100);
	q->argv = p < 88 ? AV_TINY : p < 94 ? AV_NULL : AV_BAD;
	p = below(g->r, 100);
	q->envp = p < 60 ? AV_NULL : p < 94 ? AV_TINY : AV_BAD;
	argv = q->argv == AV_TINY ? (uint64_t)(uintptr_t)ar->argv[i] : q->argv == AV_NULL ? 0 : KERNEL_ADDR;
	envp = q->envp == AV_TINY ? (uint64_t)(uintptr_t)ar->envp : q->envp == AV_NULL ? 0 : KERNEL_ADDR;
	io_uring_prep_execveat(&q->sqe, dfd, ar->path[q->path], (char *const *)(uintptr_t)argv,
			       (char *const *)(uintptr_t)envp, flags);
}

/* one of the kinds DESIGN.md refuses after CLONE, its prep valid */
static void gen_refused(struct gen *g, struct req *q)
{
	struct io_uring_sqe *s = &q->sqe;
	struct arena *ar = &g->f->ar;

	q->kind = K_TIMEOUT + (int)below(g->r, K_BAD_OPCODE - K_TIMEOUT + 1);
	switch (q->kind) {
	case K_TIMEOUT: io_uring_prep_timeout(s, &ar->ts, 0, 0); break;
	case K_LINK_TIMEOUT: io_uring_prep_link_timeout(s, &ar->ts, 0); break;
	case K_POLL: io_uring_prep_poll_add(s, FD_PIPE_R, POLLIN); break;
	case K_POLL_MULTI: io_uring_prep_poll_multishot(s, FD_PIPE_R, POLLIN); break;
	case K_CANCEL: io_uring_prep_cancel64(s, 12345, 0); break;
	case K_MSG_RING: io_uring_prep_msg_ring(s, RING_FD + g->f->c.cfg, 0, 0x77, 0); break;
	case K_WAITID:
		io_uring_prep_rw(IORING_OP_WAITID, s, 0, NULL, P_ALL, (uint64_t)(uintptr_t)&ar->si);
		s->file_index = WEXITED;
		break;
	case K_ACCEPT: io_uring_prep_accept(s, FD_PIPE_R, NULL, NULL, 0); break;
	case K_TEE: io_uring_prep_tee(s, FD_PIPE_R, FD_PIPE_W, 16, 0); break;
	case K_READ_MULTI:
		io_uring_prep_rw(IORING_OP_READ_MULTISHOT, s, FD_PIPE_R, NULL, 0, 0);
		s->flags |= IOSQE_BUFFER_SELECT;
		s->buf_group = 7;
		break;
	default:
		io_uring_prep_nop(s);
		s->opcode = IORING_OP_LAST;
	}
}

/* link flags, and odd ones now and then */
static void gen_flags(struct gen *g, struct req *q, bool last)
{
	struct io_uring_sqe *s = &q->sqe;
	const struct kind_row *k = &kinds[q->kind];

	if (!last || q->kind == K_CLONE || chance(g->r, 4))
		s->flags |= chance(g->r, q->kind == K_CLONE ? 90 : 80) ? IOSQE_IO_LINK : IOSQE_IO_HARDLINK;
	if (!k->run && q->kind != K_CLONE)
		return;
	if (chance(g->r, 5))
		s->flags |= IOSQE_ASYNC;
	if (chance(g->r, 1))
		s->flags |= IOSQE_IO_DRAIN;
	if (chance(g->r, 1))
		s->flags |= PICK(g->r, IOSQE_BUFFER_SELECT, 0x80);
	if (chance(g->r, 3))
		s->flags |= IOSQE_FIXED_FILE;
	if (chance(g->r, 3))
		s->personality = chance(g->r, 70) ? g->f->c.personality : 999;
	if (chance(g->r, q->kind == K_CLONE ? 6 : 4))
		poke(g, q, (k->zero | k->ignored) &
			   ~(q->kind == K_CLONE && (s->clone_flags & (IORING_CLONE_SIGMASK |
								       IORING_CLONE_SIGDEFAULT)) ?
				     FB(F_ADDR) | FB(F_OFF) | FB(F_LEN) :
			     q->kind == K_CLOSE && close_range_req(s) ?
				     FB(F_LEN) | FB(F_OPFLAGS) : 0));
}

/* FILES_UPDATE is refused after CLONE: rare, so that most chains run */
static const uint8_t body_weights[K_EXEC + 1] = {
	[K_CLONE] = 1, [K_NOP] = 8, [K_OPENAT] = 10, [K_OPENAT2] = 4, [K_CLOSE] = 8,
	[K_READ] = 8, [K_WRITE] = 6, [K_STATX] = 6, [K_MKDIRAT] = 4, [K_FSYNC] = 3,
	[K_FILES_UPDATE] = 1, [K_FD_INSTALL] = 4, [K_DUP] = 6, [K_RESETIDS] = 2, [K_SETSID] = 2,
	[K_SETPGID] = 2, [K_CHDIR] = 3, [K_UMASK] = 2, [K_SCHED] = 2, [K_TCSETPGRP] = 1, [K_EXEC] = 24,
};

static int pick_kind(struct gen *g)
{
	unsigned total = 0, x;
	int k;

	for (k = 0; k <= K_EXEC; k++)
		total += body_weights[k];
	x = below(g->r, total);
	for (k = 0; x >= body_weights[k]; k++)
		x -= body_weights[k];
	return k;
}

static void gen_req(struct gen *g, struct req *q, int i, int kind)
{
	q->kind = kind;
	switch (kind) {
	case K_CLONE:
		io_uring_prep_clone(&q->sqe, chance(g->r, 40) ? IORING_CLONE_PIDFD : 0);
		if (chance(g->r, 3))
			q->sqe.clone_flags |= (uint32_t)PICK(g->r, 1U << 3, 1U << 31);
		/* the program's mask, signals reset: valid sets (check 4: not ours) */
		if (chance(g->r, 15))
			io_uring_prep_clone_sigs(&q->sqe, q->sqe.clone_flags, &g->f->ar.sigs[0],
						 chance(g->r, 50) ? &g->f->ar.sigs[1] : NULL);
		else if (chance(g->r, 5))
			io_uring_prep_clone_sigs(&q->sqe, q->sqe.clone_flags, NULL,
						 &g->f->ar.sigs[1]);
		break;
	case K_NOP:
		io_uring_prep_nop(&q->sqe);
		if (chance(g->r, 30)) {
			q->sqe.nop_flags = IORING_NOP_INJECT_RESULT;
			q->sqe.len = (uint32_t)(int)PICK(g->r, 0, 5, -EIO, -EPERM, -ENOENT, -EBADF);
		}
		if (chance(g->r, 3))
			q->sqe.nop_flags |= 2;
		break;
	case K_OPENAT: gen_open(g, q, i, false); break;
	case K_OPENAT2: gen_open(g, q, i, true); break;
	case K_CLOSE: gen_close(g, q); break;
	case K_READ: gen_rw(g, q, false); break;
	case K_WRITE: gen_rw(g, q, true); break;
	case K_STATX: gen_statx(g, q); break;
	case K_MKDIRAT: gen_mkdirat(g, q); break;
	case K_FSYNC: gen_fsync(g, q); break;
	case K_FILES_UPDATE: gen_files_update(g, q, i); break;
	case K_FD_INSTALL: gen_fd_install(g, q); break;
	case K_DUP: gen_dup(g, q); break;
	case K_RESETIDS: io_uring_prep_resetids(&q->sqe); break;
	case K_SETSID: io_uring_prep_setsid(&q->sqe); break;
	case K_SETPGID:
		io_uring_prep_setpgid(&q->sqe, chance(g->r, 10) ? getpid() : 0,
				      chance(g->r, 10) ? -1 : 0);
		break;
	case K_CHDIR: gen_chdir(g, q); break;
	case K_UMASK:
		io_uring_prep_umask(&q->sqe, (mode_t)PICK(g->r, 022, 077, 0, 0777, 01022));
		break;
	case K_SCHED: {
		int k = (int)below(g->r, 6);
		/* no SCHED_IDLE: a chain and program at idle weight may starve */
		static const int policy[] = { SCHED_BATCH, SCHED_OTHER, -1, SCHED_OTHER, 77, -2 };

		io_uring_prep_sched(&q->sqe, policy[k], &g->f->ar.sched[k == 3]);
		break;
	}
	case K_TCSETPGRP:
		io_uring_prep_tcsetpgrp(&q->sqe, (int)PICK(g->r, FD_NULL, FD_DATA, FD_TESTS,
							   FD_CLOSED, -1, RING_FD + g->f->c.cfg));
		break;
	case K_EXEC: gen_exec(g, q, i); break;
	default: gen_refused(g, q);
	}
}

/* the ring configuration of a chain: the first draw of its stream */
static int gen_cfg(struct rng *r)
{
	return (int)below(r, NBASE) * NSIZES + (chance(r, 60) ? 0 : 1 + (int)below(r, 2));
}

/*
 * The rest of chain c->no from its stream r: CLONE (2%: alone and not
 * linked; 3%: behind a NOP), then up to the ring's SQ size of requests,
 * one of them refused after CLONE in 8% of the chains.
 */
static void gen_chain(struct fuzzer *f, struct rng *r)
{
	struct chain *c = &f->c;
	struct gen g = { .r = r, .f = f, .next_fd = FD_FREE };
	unsigned size = cq_sizes[c->cfg % NSIZES], max = size ? size : MAX_SQES;
	uint32_t shape = below(r, 100);
	int refused;

	c->fill = size ? (int)below(r, size + 1) : 0;
	c->clone = shape >= 2 && shape < 5 ? 1 : 0;
	c->n = shape < 2 ? 1 : c->clone + 1 + (int)below(r, max - c->clone);
	refused = c->n > c->clone + 1 && chance(r, 8) ? c->clone + 1 + (int)below(r, c->n - c->clone - 1) : -1;
	for (int i = 0; i < c->n; i++) {
		struct req *q = &c->q[i];

		*q = (struct req){ .path = -1, .poke = -1 };
		gen_req(&g, q, i, i == c->clone ? K_CLONE : i < c->clone ? K_NOP : i == refused ? K_TIMEOUT : pick_kind(&g));
		if (shape >= 2)
			gen_flags(&g, q, i == c->n - 1);
	}
}

/* ---- printing ---- */

static const char *fd_name(int fd, char *buf, size_t n)
{
	static const char *const names[] = { [FD_NULL] = "null", [FD_ZERO] = "zero",
		[FD_DATA] = "data", [FD_PIPE_R] = "pipe-r", [FD_PIPE_W] = "pipe-w",
		[FD_WORK] = "work", [FD_TESTS] = "tests", [FD_TINY] = "tiny", [FD_SUB] = "sub" };

	if (fd == AT_FDCWD)
		return "AT_FDCWD";
	if (fd >= FD_NULL && fd < FD_FREE)
		snprintf(buf, n, "%d(%s)", fd, names[fd]);
	else if (fd >= RING_FD && fd < RING_FD + NCFG)
		snprintf(buf, n, "%d(ring)", fd);
	else
		snprintf(buf, n, "%d", fd);
	return buf;
}

static const char *const buf_names[] = { "ok", "NULL", "kernel-address" };
static const char *const av_names[] = { "{tiny,N}", "NULL", "kernel-address" };

/* request i in one line */
static void describe(const struct fuzzer *f, int i, char *out, size_t n)
{
	static const char *const flag_names[] = { "fixed", "drain", "link", "hardlink", "async",
						  "bufsel", "skip", "bit7" };
	const struct req *q = &f->c.q[i];
	const struct io_uring_sqe *s = &q->sqe;
	char a[32];
	int len = snprintf(out, n, "%s", kinds[q->kind].name);

#define ADD(...) (len += snprintf(out + len, (size_t)len < n ? n - len : 0, __VA_ARGS__))
	for (int b = 0; b < 8; b++)
		if (s->flags & 1U << b)
			ADD(" %s", flag_names[b]);
	if (s->personality)
		ADD(" personality=%u", s->personality);
	switch (q->kind) {
	case K_CLONE:
		ADD(" clone_flags=%#x", s->clone_flags);
		if (s->clone_flags & (IORING_CLONE_SIGMASK | IORING_CLONE_SIGDEFAULT))
			ADD(" mask=%s dfl=%s len=%u", s->addr ? "{USR2}" : "-",
			    s->off ? "{TERM,PIPE}" : "-", s->len);
		break;
	case K_DUP:
		ADD(" old=%s new=%u flags=%#x ioprio=%#x", fd_name(s->fd, a, sizeof(a)), s->len,
		    s->dup_flags, s->ioprio);
		break;
	case K_SETPGID:
		ADD(" pid=%d pgid=%d", s->fd, (int)s->len);
		break;
	case K_CHDIR:
		if (s->addr)
			ADD(" fd=%s path=%s", fd_name(s->fd, a, sizeof(a)), path_names[q->path]);
		else
			ADD(" fchdir fd=%s", fd_name(s->fd, a, sizeof(a)));
		break;
	case K_UMASK:
		ADD(" mask=%#o", s->len);
		break;
	case K_SCHED:
		ADD(" policy=%d priority=%d", (int)s->len,
		    ((const struct sched_param *)(uintptr_t)s->addr)->sched_priority);
		break;
	case K_RESETIDS:
	case K_SETSID:
		break;
	case K_NOP:
		ADD(" nop_flags=%#x len=%d", s->nop_flags, (int)s->len);
		break;
	case K_OPENAT:
	case K_OPENAT2:
		ADD(" dirfd=%s path=%s", fd_name(s->fd, a, sizeof(a)), path_names[q->path]);
		if (q->kind == K_OPENAT)
			ADD(" flags=%#x mode=%#o", s->open_flags, s->len);
		else if (s->addr2)
			ADD(" how={flags=%#llx mode=%#llo resolve=%#llx} size=%u",
			    (unsigned long long)f->ar.how[i][0].flags, (unsigned long long)f->ar.how[i][0].mode,
			    (unsigned long long)f->ar.how[i][0].resolve, s->len);
		else
			ADD(" how=NULL size=%u", s->len);
		ADD(" file_index=%#x", s->file_index);
		if (s->ioprio)
			ADD(" ioprio=%#x", s->ioprio);
		break;
	case K_CLOSE:
		ADD(" fd=%s file_index=%u", fd_name(s->fd, a, sizeof(a)), s->file_index);
		if (s->ioprio)
			ADD(" ioprio=%#x last=%u close_flags=%#x", s->ioprio, s->len, s->close_flags);
		break;
	case K_READ:
	case K_WRITE:
		ADD(" fd=%s buf=%s len=%u off=%lld rw_flags=%#x", fd_name(s->fd, a, sizeof(a)),
		    buf_names[q->buf], s->len, (long long)s->off, s->rw_flags);
		break;
	case K_STATX:
		ADD(" dirfd=%s path=%s flags=%#x mask=%#x buf=%s", fd_name(s->fd, a, sizeof(a)),
		    path_names[q->path], s->statx_flags, s->len, buf_names[q->buf]);
		break;
	case K_MKDIRAT:
		ADD(" dirfd=%s path=%s mode=%#o", fd_name(s->fd, a, sizeof(a)), path_names[q->path], s->len);
		break;
	case K_FSYNC:
		ADD(" fd=%s flags=%#x off=%lld", fd_name(s->fd, a, sizeof(a)), s->fsync_flags, (long long)s->off);
		break;
	case K_FILES_UPDATE:
		ADD(" fds={%d,%d} nr=%u off=%d", q->upd[0], q->upd[1], s->len, (int)s->off);
		break;
	case K_FD_INSTALL:
		ADD(" slot=%d flags=%#x", s->fd, s->install_fd_flags);
		break;
	case K_EXEC:
		ADD(" dirfd=%s path=%s flags=%#x argv=%s envp=%s (exit %d)", fd_name(s->fd, a, sizeof(a)),
		    path_names[q->path], s->execve_flags, av_names[q->argv], av_names[q->envp], q->status);
		break;
	default:
		ADD(" fd=%d", s->fd);
	}
	if (q->poke >= 0)
		ADD(" %s=%#llx(unused)", field_names[q->poke],
		    q->poke == F_OFF ? (unsigned long long)s->off : q->poke == F_ADDR ? (unsigned long long)s->addr
		    : q->poke == F_ADDR3 ? (unsigned long long)s->addr3 : q->poke == F_PAD2 ? (unsigned long long)s->__pad2[0]
		    : q->poke == F_IOPRIO ? (unsigned long long)s->ioprio : 0ULL);
#undef ADD
}

/* the chain, what the model allows and what came, into f->log */
static void log_chain(struct fuzzer *f)
{
	const struct chain *c = &f->c;
	size_t n = sizeof(f->log);
	int len;

	len = snprintf(f->log, n, "  chain %lld: ring %s", c->no, base_names[c->cfg / NSIZES]);
	if (cq_sizes[c->cfg % NSIZES])
		len += snprintf(f->log + len, n - len, ", CQ of %u, %d NOPs first", cq_sizes[c->cfg % NSIZES], c->fill);
	len += snprintf(f->log + len, n - len, "\n");
	for (int i = 0; i < c->n && (size_t)len < n - 600; i++) {
		char d[400], w[160];

		describe(f, i, d, sizeof(d));
		w_print(w, sizeof(w), &f->w[i]);
		len += snprintf(f->log + len, n - len, "    %d %s\n        want %s, got ", i, d, w);
		if (f->have[i])
			len += snprintf(f->log + len, n - len, "%d%s%s\n", f->res[i],
					f->res[i] < 0 ? " " : "", f->res[i] < 0 ? strerrorname_np(-f->res[i]) ?: "?" : "");
		else
			len += snprintf(f->log + len, n - len, "no CQE\n");
	}
	f->loglen = (size_t)len < n ? (size_t)len : n - 1;
}

/* a violation of chain f->c; the first ones show the chain and the replay command */
static void chain_violation(struct fuzzer *f, const char *fmt, ...)
{
	long n = violation_begin(f->c.no, f->id);
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!fz.print && n <= DETAILED_VIOLATIONS && !f->detailed) {
		fputs(f->log, stdout);
		printf("  replay: %s --seed %#" PRIx64 " --replay %lld\n", program_invocation_name, fz.seed,
		       f->c.no);
		f->detailed = true;
	}
	violation_end();
}

/* ---- rings ---- */

/*
 * The thread's ring of configuration cfg, made on first use at fd
 * RING_FD + cfg with NSLOTS empty fixed file slots and a personality.
 */
static struct ringslot *ring_get(struct fuzzer *f, int cfg)
{
	struct ringslot *rs = &f->ring[cfg];
	struct io_uring_params p = { 0 };
	unsigned entries = cq_sizes[cfg % NSIZES] ? cq_sizes[cfg % NSIZES] : 16;
	int fd = RING_FD + cfg, ret;

	if (rs->up)
		return rs;
	if (cfg / NSIZES == RB_SQPOLL) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 10;
	} else if (cfg / NSIZES == RB_DEFER) {
		p.flags |= IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER;
	}
	if (cq_sizes[cfg % NSIZES]) {
		p.flags |= IORING_SETUP_CQSIZE;
		p.cq_entries = entries;
	}
	ret = io_uring_queue_init_params(entries, &rs->ring, &p);
	if (ret)
		die("io_uring_queue_init_params(%u, %#x): %s", entries, p.flags, strerror(-ret));
	if (dup3(rs->ring.ring_fd, fd, O_CLOEXEC) != fd)
		die("dup3 of a ring to fd %d: %s", fd, strerror(errno));
	close(rs->ring.ring_fd);
	rs->ring.ring_fd = rs->ring.enter_ring_fd = fd;
	ret = io_uring_register_files_sparse(&rs->ring, NSLOTS);
	if (ret)
		die("io_uring_register_files_sparse: %s", strerror(-ret));
	rs->personality = io_uring_register_personality(&rs->ring);
	if (rs->personality <= 0)
		die("io_uring_register_personality: %s", strerror(-rs->personality));
	rs->entries = p.sq_entries;
	rs->last = -1;
	rs->up = true;
	take_state(&f->before);
	return rs;
}

static void ring_drop(struct fuzzer *f, int cfg)
{
	if (!f->ring[cfg].up)
		return;
	io_uring_queue_exit(&f->ring[cfg].ring);
	f->ring[cfg].up = false;
	take_state(&f->before);
}

/* invariant 1: nothing comes after a chain's CQEs (seen when the ring is used again) */
static void leftovers(struct fuzzer *f, struct ringslot *rs)
{
	struct io_uring_cqe *cqe;

	io_uring_get_events(&rs->ring);
	while (io_uring_peek_cqe(&rs->ring, &cqe) == 0) {
		violation_begin(rs->last, f->id);
		printf("invariant 1: a CQE (user_data %#llx, res %d) came after the chain's CQEs were in\n",
		       (unsigned long long)cqe->user_data, cqe->res);
		violation_end();
		io_uring_cqe_seen(&rs->ring, cqe);
	}
}

static struct io_uring_sqe *next_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe;

	while (!(sqe = io_uring_get_sqe(ring)))
		if (io_uring_sqring_wait(ring) < 0)
			die("the SQ ring is full");
	return sqe;
}

/*
 * Submits what is queued, n SQEs; false (a violation) if the kernel took
 * another number. On an SQPOLL ring liburing counts what the thread has
 * not taken yet too (the fill NOPs).
 */
static bool submit(struct fuzzer *f, struct io_uring *ring, int n)
{
	int ret;

	do
		ret = io_uring_submit(ring);
	while (ret == -EINTR);
	if (ret == n || (ret > n && (ring->flags & IORING_SETUP_SQPOLL)))
		return true;
	chain_violation(f, "invariant 1: io_uring_submit() of %d SQEs returned %d", n, ret);
	return false;
}

/* the CQEs that come within CHAIN_TIMEOUT_MS, up to want, into f->g */
static void collect(struct fuzzer *f, struct io_uring *ring, int want)
{
	struct got *g = &f->g;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (g->n = 0; g->n < want;) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts;
		long ms;
		int ret;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = CHAIN_TIMEOUT_MS - ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0)
			break;
		ts = (struct __kernel_timespec){ ms / 1000, ms % 1000 * 1000000 };
		ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		if (ret == -EINTR)
			continue;
		if (ret)
			break;
		g->ud[g->n] = cqe->user_data;
		g->res[g->n] = cqe->res;
		g->flags[g->n++] = cqe->flags;
		io_uring_cqe_seen(ring, cqe);
	}
}

/* ---- checks ---- */

/*
 * Invariant 1: the fill NOPs' CQEs (res 0), then one per request in
 * chain order, flags 0. Sets f->have[] and f->res[]; false and why if not.
 */
static bool check_order(struct fuzzer *f, char *why, size_t n)
{
	const struct chain *c = &f->c;
	const struct got *g = &f->g;
	bool ok = true;

	memset(f->have, 0, sizeof(f->have));
	for (int k = 0; k < g->n; k++) {
		uint64_t want = k < c->fill ? ud_of(c->no, TAG_FILL + k) : ud_of(c->no, k - c->fill);
		int i = (int)(g->ud[k] & 0xff);

		if (g->ud[k] >> 8 == (uint64_t)c->no && i < c->n) {
			f->have[i] = true;
			f->res[i] = g->res[k];
		}
		if (ok && g->ud[k] != want) {
			snprintf(why, n, "CQE %d has user_data %#llx, expected %#llx (%s)", k,
				 (unsigned long long)g->ud[k], (unsigned long long)want,
				 k < c->fill ? "a fill NOP" : "the chain's next request");
			ok = false;
		} else if (ok && g->flags[k]) {
			snprintf(why, n, "CQE %d has flags %#x", k, g->flags[k]);
			ok = false;
		} else if (ok && k < c->fill && g->res[k]) {
			snprintf(why, n, "fill NOP %d completed with %d", k, g->res[k]);
			ok = false;
		}
	}
	if (ok && g->n < c->fill + c->n) {
		snprintf(why, n, "%d of %d CQEs came within %d ms", g->n, c->fill + c->n, CHAIN_TIMEOUT_MS);
		ok = false;
	}
	return ok;
}

/* the child's fd table when the CLONE issues: a copy of the caller's */
static void model_init(struct fuzzer *f)
{
	/* all close-on-exec (fd_setup()) */
	static const struct mfd templ[FD_FREE] = {
		[FD_NULL] = { TG_NULL, A_R | A_W, false, true }, [FD_ZERO] = { TG_ZERO, A_R, false, true },
		[FD_DATA] = { TG_DATA, A_R, false, true }, [FD_PIPE_R] = { TG_PIPE_R, A_R, false, true },
		[FD_PIPE_W] = { TG_PIPE_W, A_W, false, true }, [FD_WORK] = { TG_WORK, A_R, false, true },
		[FD_TESTS] = { TG_TESTS, 0, true, true }, [FD_TINY] = { TG_TINY, A_R, false, true },
		[FD_SUB] = { TG_SUB, A_R, false, true },
	};
	struct model *m = &f->m;

	memset(m, 0, sizeof(*m));
	m->umask = f->before.umask;
	for (int fd = 0; fd < FUZZ_FDS; fd++) {
		if (!f->before.open[fd])
			continue;
		if (fd >= FD_NULL && fd < FD_FREE)
			m->fd[fd] = templ[fd];
		else if (fd >= RING_FD && fd < RING_FD + NCFG)
			m->fd[fd] = (struct mfd){ .tgt = TG_RING, .acc = A_R | A_W, .cloexec = true };
		else
			m->fd[fd] = (struct mfd){ .tgt = TG_OTHER, .acc = A_R | A_W };
	}
}

static bool has_flag(const struct chain *c, unsigned flag)
{
	for (int i = 0; i < c->n; i++)
		if (c->q[i].sqe.flags & flag)
			return true;
	return false;
}

/*
 * Does io-wq issue the CLONE? It does with IOSQE_ASYNC and with IO_DRAIN
 * anywhere in the chain (the core then forces the head async). A chain
 * whose last SQE still asks for a link is ended by the submission, which
 * issues its CLONE in the submitter (RFC v3's patch 24; before, the
 * core queued such a link to io-wq).
 */
static bool clone_via_iowq(const struct chain *c)
{
	return (c->q[0].sqe.flags & IOSQE_ASYNC) || has_flag(c, IOSQE_IO_DRAIN);
}

/*
 * Is CLONE refused at issue (-EINVAL)? It is when io-wq or the SQPOLL
 * thread issues it, and when a later request of the chain is one that
 * the spawned task may not run.
 */
static bool clone_refused(const struct chain *c)
{
	if (c->cfg / NSIZES == RB_SQPOLL || clone_via_iowq(c))
		return true;
	for (int i = 1; i < c->n; i++)
		if (!kinds[c->q[i].kind].allowed)
			return true;
	return false;
}

enum { CH_NONE, CH_KILLED, CH_EXIT, CH_ANY }; /* what the child must do */

/*
 * Invariant 2: sets f->w[] (what each CQE may be) from the model and the
 * CQEs before it; returns what the child must do (with *status for
 * CH_EXIT), *bad the first request whose res the model does not allow
 * (-1: none) and why for a res it allowed but that is still wrong.
 */
static int model_chain(struct fuzzer *f, int *status, int *bad, char *why, size_t n)
{
	const struct chain *c = &f->c;
	errset pe[MAX_SQES];
	bool prep_fail = false, stopped = false;
	int child = CH_KILLED;

	*bad = -1;
	*why = '\0';
	for (int i = 0; i < c->n; i++) {
		pe[i] = prep_errors(f, i);
		prep_fail |= !es_empty(pe[i]);
		f->w[i] = (struct want){ .any = true };
	}
	if (prep_fail) {
		atomic_fetch_add(&n_prep, 1);
		for (int i = 0; i < c->n; i++) {
			f->w[i] = es_empty(pe[i]) ? w_err(ECANCELED) : w_errs(pe[i]);
			if (*bad < 0 && f->have[i] && !w_has(&f->w[i], f->res[i]))
				*bad = i;
		}
		return *bad >= 0 && f->have[c->clone] && f->res[c->clone] >= 0 ? CH_ANY : CH_NONE;
	}
	if (clone_refused(c)) {
		f->w[0] = w_err(EINVAL);
		atomic_fetch_add(&n_refused, 1);
	} else if (c->q[0].sqe.clone_flags & IORING_CLONE_PIDFD) {
		int fd = 0;

		while (fd < FUZZ_FDS && f->before.open[fd])
			fd++;
		f->w[0] = w_val(fd);
	} else {
		f->w[0] = w_range(1, INT_MAX);
	}
	if (!strcmp(phase, "storm")) { /* a signal pending when CLONE forks */
		f->w[0] = w_or(f->w[0], w_err(EINTR));
		/*
		 * io-wq forks its first worker from the submitting thread
		 * (task_work); a signal pending there makes the fork fail, and
		 * after WORKER_INIT_LIMIT tries io-wq cancels what it queued.
		 */
		if (c->cfg / NSIZES != RB_SQPOLL && clone_via_iowq(c))
			f->w[0] = w_or(f->w[0], w_err(ECANCELED));
	}
	if (!f->have[0] || !w_has(&f->w[0], f->res[0])) {
		*bad = f->have[0] ? 0 : -1;
		return f->have[0] && f->res[0] >= 0 ? CH_ANY : CH_NONE;
	}
	model_init(f);
	for (int i = 1; i < c->n; i++) {
		const struct req *q = &c->q[i];
		int res = f->res[i];

		if (f->res[0] < 0 || stopped) {
			f->w[i] = w_err(ECANCELED);
		} else if (f->m.lost) {
			f->w[i] = (struct want){ .any = true };
		} else {
			f->m.pend_new = f->m.pend_newdir = false;
			f->w[i] = kinds[q->kind].run(f, i);
		}
		if (!f->have[i])
			return CH_ANY;
		if (!w_has(&f->w[i], res) ||
		    (!stopped && f->res[0] >= 0 && !f->m.lost && !apply(f, i, res, why, n))) {
			*bad = i;
			return CH_ANY;
		}
		if (f->res[0] < 0 || stopped)
			continue;
		/* as in any io_uring link, a short read or write fails the request */
		if (res < 0 || ((q->kind == K_READ || q->kind == K_WRITE) && res < (int)q->sqe.len)) {
			stopped = !(q->sqe.flags & IOSQE_IO_HARDLINK) || res == -EAGAIN;
		} else if (q->kind == K_EXEC) {
			stopped = true;
			child = f->m.lost ? CH_ANY : CH_EXIT;
			*status = f->m.status;
		}
	}
	return f->res[0] < 0 ? CH_NONE : child;
}

static void describe_status(const siginfo_t *si, char *out, size_t n)
{
	if (si->si_code == CLD_EXITED)
		snprintf(out, n, "exited with %d", si->si_status);
	else if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED)
		snprintf(out, n, "was killed by %s", sigabbrev_np(si->si_status) ?: "?");
	else
		snprintf(out, n, "is gone (si_code %d)", si->si_code);
}

/*
 * Invariants 3 and 4 for the child the CLONE CQE names: its pidfd, its
 * end (expect, status) and its reaping.
 */
static void check_child(struct fuzzer *f, int expect, int status)
{
	const struct chain *c = &f->c;
	int r = f->res[c->clone], pfd = -1;
	char how[64];
	siginfo_t si;
	pid_t pid = r;

	if (!f->have[c->clone] || r < 0)
		return;
	if (c->q[c->clone].sqe.clone_flags & IORING_CLONE_PIDFD) {
		pfd = r;
		if (r >= FUZZ_FDS || f->before.open[r]) {
			chain_violation(f, "invariant 4: the CLONE's pidfd %d was open before", r);
			return;
		}
		if (!(fcntl(r, F_GETFD) & FD_CLOEXEC))
			chain_violation(f, "invariant 4: the pidfd %d is not close-on-exec", r);
		pid = pidfd_pid(r);
		if (pid <= 0) {
			chain_violation(f, "invariant 4: fd %d, the CLONE's pidfd, names no process", r);
			close(r);
			return;
		}
	}
	atomic_fetch_add(&n_child, 1);
	if (!fz_single)
		live_set(0, pid);
	if (!reap_child(pid, pfd, REAP_TIMEOUT_MS, &si))
		chain_violation(f, "invariant 3: the child %d did not exit within %d ms (killed)", pid,
				REAP_TIMEOUT_MS);
	if (!fz_single)
		live_set(pid, 0);
	if (pfd >= 0)
		close(pfd);
	describe_status(&si, how, sizeof(how));
	if (si.si_pid != pid)
		chain_violation(f, "invariant 3: pid %d is no child of the caller", pid);
	else if (expect == CH_EXIT && (si.si_code != CLD_EXITED || si.si_status != status))
		chain_violation(f, "invariant 3: the child %s; its successful EXEC runs a program that exits with %d",
				how, status);
	else if (expect == CH_KILLED && (si.si_code != CLD_KILLED || si.si_status != SIGKILL))
		chain_violation(f, "invariant 3: the child %s; with no successful EXEC it must be killed by SIGKILL",
				how);
	else if (expect == CH_NONE)
		chain_violation(f, "invariant 3: a child (it %s) from a chain the model says spawns none", how);
	if (expect == CH_EXIT && si.si_code == CLD_EXITED)
		atomic_fetch_add(&n_ran, 1);
}

/* ---- one chain ---- */

static void fd_setup(struct fuzzer *f, bool fresh);

/* after a change in the caller's fd table: the template back, strays closed */
static void resync(struct fuzzer *f)
{
	fd_setup(f, false);
	for (int cfg = 0; cfg < NCFG; cfg++)
		if (f->ring[cfg].up && fcntl(RING_FD + cfg, F_GETFD) < 0)
			ring_drop(f, cfg);
	take_state(&f->before);
}

/* what a chain leaves: created names, bytes in the pipe, a drain the next request would get */
static void cleanup(struct fuzzer *f, struct ringslot *rs)
{
	/* in fz-sub too: after a CHDIR into it, a relative create lands there */
	static const char *const made[] = { "fz-new", "fz-newdir", "fz-sub/fz-new", "fz-sub/fz-newdir" };
	char path[PATH_MAX * 2];

	for (size_t i = 0; i < ARRAY_SIZE(made); i++) {
		snprintf(path, sizeof(path), "%s/%s", f->work, made[i]);
		if (unlink(path))
			rmdir(path);
	}
	while (read(FD_PIPE_R, f->ar.buf, BUF_LEN) > 0)
		continue;
	if (rs->up && has_flag(&f->c, IOSQE_IO_DRAIN)) {
		struct io_uring_sqe *s = next_sqe(&rs->ring);
		/*
		 * The NOP inherits the chain's drain (drain_next), which also
		 * forces it to io-wq; in a storm, io-wq may fail to fork its
		 * first worker (a signal pending in the submitter) and cancel
		 * it, as for CLONE (model_chain()). Not on SQPOLL rings, whose
		 * thread takes no signals.
		 */
		bool cancel_ok = !strcmp(phase, "storm") && f->c.cfg / NSIZES != RB_SQPOLL;

		io_uring_prep_nop(s);
		s->user_data = ud_of(f->c.no, TAG_RESET);
		if (!submit(f, &rs->ring, 1))
			return;
		collect(f, &rs->ring, 1);
		if (f->g.n != 1 || f->g.ud[0] != ud_of(f->c.no, TAG_RESET) ||
		    (f->g.res[0] && !(cancel_ok && f->g.res[0] == -ECANCELED)))
			chain_violation(f, "invariant 1: the NOP after a chain with IO_DRAIN did not "
					"complete with 0%s: %d CQE(s), the first user_data %#llx res %d",
					cancel_ok ? " (or -ECANCELED from io-wq in a storm)" : "",
					f->g.n, f->g.n ? (unsigned long long)f->g.ud[0] : 0ULL,
					f->g.n ? f->g.res[0] : 0);
	}
}

static void reset_slots(struct fuzzer *f, struct ringslot *rs)
{
	int none[NSLOTS];
	int ret;

	for (int i = 0; i < NSLOTS; i++)
		none[i] = -1;
	ret = io_uring_register_files_update(&rs->ring, 0, none, NSLOTS);
	if (ret != NSLOTS)
		chain_violation(f, "emptying the fixed file table gave %d", ret);
}

/*
 * Waits for the fill NOPs' n CQEs on an SQPOLL ring. Its thread may take
 * the NOPs and the chain in one batch; it posts the NOPs' CQEs at the end
 * of the batch, after it queued a request for io-wq (a CLONE it refuses
 * there), whose CQE can then come first: io_uring orders only linked
 * requests. false (a violation) if they do not come.
 */
static bool fills_posted(struct fuzzer *f, struct io_uring *ring, int n)
{
	struct __kernel_timespec ts = { CHAIN_TIMEOUT_MS / 1000, 0 };
	struct io_uring_cqe *cqe;

	while (io_uring_wait_cqes(ring, &cqe, n, &ts, NULL) == -EINTR)
		;
	if ((int)io_uring_cq_ready(ring) >= n)
		return true;
	chain_violation(f, "invariant 1: %u of the %d fill NOPs' CQEs came within %d ms",
			io_uring_cq_ready(ring), n, CHAIN_TIMEOUT_MS);
	return false;
}

/* queues and submits the fill NOPs, then the chain; false: the ring is no good */
static bool submit_chain(struct fuzzer *f, struct ringslot *rs)
{
	const struct chain *c = &f->c;

	for (int j = 0; j < c->fill; j++) {
		struct io_uring_sqe *s = next_sqe(&rs->ring);

		io_uring_prep_nop(s);
		s->user_data = ud_of(c->no, TAG_FILL + j);
	}
	if (c->fill && !submit(f, &rs->ring, c->fill))
		return false;
	if (c->fill && (rs->ring.flags & IORING_SETUP_SQPOLL) && !fills_posted(f, &rs->ring, c->fill))
		return false;
	for (int i = 0; i < c->n; i++) {
		struct io_uring_sqe *s = next_sqe(&rs->ring);

		*s = c->q[i].sqe;
		s->user_data = ud_of(c->no, i);
	}
	return submit(f, &rs->ring, c->n);
}

/* invariants 1 to 3 for the CQEs that came */
static void check_cqes(struct fuzzer *f)
{
	const struct chain *c = &f->c;
	char order[256], why[256], w[160];
	bool ordered = check_order(f, order, sizeof(order));
	int status = 0, bad, expect = model_chain(f, &status, &bad, why, sizeof(why));

	for (int i = 0; i < c->n; i++) {
		atomic_fetch_add(&n_kind[c->q[i].kind], 1);
		if (f->have[i] && f->res[i] < 0)
			count_errno(-f->res[i]);
	}
	log_chain(f);
	if (!ordered)
		chain_violation(f, "invariant 1: %s", order);
	if (bad >= 0) {
		w_print(w, sizeof(w), &f->w[bad]);
		chain_violation(f, "invariant 2: request %d (%s) completed with %d%s%s, the model allows %s%s%s",
				bad, kinds[c->q[bad].kind].name, f->res[bad], f->res[bad] < 0 ? " " : "",
				f->res[bad] < 0 ? strerrorname_np(-f->res[bad]) ?: "?" : "", w,
				*why ? ": " : "", why);
	}
	check_child(f, expect, status);
}

/* invariants 3 and 4 for the caller, once the chain is over */
static void check_caller(struct fuzzer *f)
{
	char why[PATH_MAX * 2 + 200];
	pid_t stray;

	take_state(&f->now);
	if (state_diff(&f->before, &f->now, why, sizeof(why))) {
		chain_violation(f, "invariant 4: %s", why);
		resync(f);
	}
	if (dispositions_diff(why, sizeof(why)))
		chain_violation(f, "invariant 4: %s", why);
	if (fz_single && children(why, sizeof(why), f->c.no % PROC_SCAN_EVERY == 0 || fz.replay >= 0)) {
		chain_violation(f, "invariant 3: %s", why);
		while ((stray = proc_find_child(0)) > 0 && !kill(stray, SIGKILL))
			waitpid(stray, NULL, __WALL);
	}
}

static long mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

static void stage(struct fuzzer *f, const char *what)
{
	atomic_store(&f->stage, what);
}

static void one_chain(int thread, long long no)
{
	struct fuzzer *f = fuzzers[thread];
	struct chain *c = &f->c;
	struct rng r = rng_for(no);
	struct ringslot *rs;
	bool ok;

	atomic_store(&f->since, mono_s());
	atomic_store(&f->busy, no);
	stage(f, "making its ring");
	c->no = no;
	c->cfg = gen_cfg(&r);
	rs = ring_get(f, c->cfg);
	c->personality = rs->personality;
	gen_chain(f, &r);
	memset(f->have, 0, sizeof(f->have));
	for (int i = 0; i < c->n; i++)
		f->w[i] = (struct want){ .any = true };
	f->g.n = 0;
	f->detailed = false;
	log_chain(f);
	stage(f, "reading what the ring's last chain left");
	leftovers(f, rs);
	stage(f, "emptying the fixed file table");
	reset_slots(f, rs);
	stage(f, "submitting");
	ok = submit_chain(f, rs);
	if (ok) {
		stage(f, "waiting for the CQEs");
		collect(f, &rs->ring, c->fill + c->n);
		rs->last = no;
		atomic_fetch_add(&n_calls, 1);
		atomic_fetch_add(&n_cfg[c->cfg], 1);
		stage(f, "checking the CQEs and reaping the child");
		check_cqes(f);
	}
	stage(f, "cleaning up");
	if (!ok || f->g.n < c->fill + c->n)
		ring_drop(f, c->cfg);
	cleanup(f, rs);
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		printf("chain %lld (thread %d, %s)%s\n", no, f->id, phase, f->detailed ? ": above" : ":");
		if (!f->detailed)
			fputs(f->log, stdout);
		pthread_mutex_unlock(&out_lock);
	}
	if (fz.replay >= 0 && rs->up) {
		usleep(200 * 1000);
		leftovers(f, rs);
	}
	stage(f, "checking the caller");
	check_caller(f);
	atomic_store(&f->busy, -1);
}

/* ---- the watchdog: a chain that never ends ---- */

/* longer than any chain may take: its CQEs, its child's exit, a drain NOP */
#define STUCK_S (2 * CHAIN_TIMEOUT_MS / 1000 + REAP_TIMEOUT_MS / 1000 + 60)

/* what the kernel says of task dir (/proc/PID or /proc/self/task/TID) */
static void dump_task(const char *dir /* < 128 */)
{
	static const char *const files[] = { "comm", "wchan", "stack" };
	char path[160], buf[4096], stat[512];
	const char *fields;

	fields = proc_stat_fields(dir + strlen("/proc/"), stat, sizeof(stat));
	printf("  %s, state %c:\n", dir, fields ? fields[0] : '?');
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = '\0';
		printf("    %s: %s%s", files[i], buf, n > 0 && buf[n - 1] == '\n' ? "" : "\n");
	}
}

/* every task of dir (/proc/self or /proc/PID) */
static void dump_tasks(const char *dir)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/task", dir);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			char task[128];

			snprintf(task, sizeof(task), "%s/%.16s", path, e->d_name);
			dump_task(task);
		}
	if (d)
		closedir(d);
}

/*
 * Invariant 1 for a chain that hangs (CQEs, the child, the ring): once a
 * chain has been under way for STUCK_S, print where the fuzzer's threads
 * and children wait, and exit: nothing would report otherwise.
 */
static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(5);
		for (int i = 0; i < MAX_THREADS; i++) {
			struct fuzzer *f = fuzzers[i];
			long long no = atomic_load(&f->busy);
			long for_s = mono_s() - atomic_load(&f->since);
			char self[32];
			pid_t child;

			if (no < 0 || for_s < STUCK_S || no != atomic_load(&f->busy))
				continue;
			violation_begin(no, f->id);
			printf("invariant 1: the chain has been under way for %ld s, %s; the fuzzer's "
			       "threads and children:\n", for_s, atomic_load(&f->stage));
			snprintf(self, sizeof(self), "/proc/%d", fz.pid);
			dump_tasks(self);
			while ((child = proc_find_child(0)) > 0) {
				snprintf(self, sizeof(self), "/proc/%d", child);
				dump_tasks(self);
				kill(child, SIGKILL);
				waitpid(child, NULL, __WALL | WNOHANG);
			}
			fputs(f->log, stdout);
			printf("  replay: %s --seed %#" PRIx64 " --replay %lld\n", program_invocation_name,
			       fz.seed, no);
			violation_end();
			_exit(1);
		}
	}
	return NULL;
}

/* ---- setup ---- */

/* moves fd to number at (close-on-exec) */
static void put_fd(int fd, int at, const char *what)
{
	if (fd < 0)
		die("%s: %s", what, strerror(errno));
	if (fd != at && (dup3(fd, at, O_CLOEXEC) != at || close(fd)))
		die("%s to fd %d: %s", what, at, strerror(errno));
}

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX * 2];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fchmod(fd, mode) ||
	    close(fd))
		die("%s: %s", path, strerror(errno));
}

/* the thread's work directory: what the model's name_in() says is there */
static void make_work(struct fuzzer *f)
{
	char path[PATH_MAX * 2], script[PATH_MAX + 16];

	snprintf(f->work, sizeof(f->work), "%s/t%d", opt.top, f->id);
	if (mkdir(f->work, 0755) && errno != EEXIST)
		die("%s: %s", f->work, strerror(errno));
	write_file(f->work, "fz-data", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 0644);
	write_file(f->work, "fz-noexec", "not a program\n", 0644);
	write_file(f->work, "fz-junk", "junk, not a program\n", 0755);
	snprintf(script, sizeof(script), "#!%s %d\n", opt.tiny, SCRIPT_STATUS);
	write_file(f->work, "fz-script", script, 0755);
	snprintf(path, sizeof(path), "%s/fz-sub", f->work);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/fz-link", f->work);
	if (symlink(opt.tiny, path) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
}

/*
 * The template fds at their numbers; fresh: nothing else above stdio,
 * else only the thread's rings stay.
 */
static void fd_setup(struct fuzzer *f, bool fresh)
{
	char path[PATH_MAX * 2];
	int p[2];

	for (int fd = FD_NULL; fd < FUZZ_FDS; fd++)
		if (fresh || fd < RING_FD || fd >= RING_FD + NCFG || !f->ring[fd - RING_FD].up)
			close(fd);
	put_fd(open("/dev/null", O_RDWR | O_CLOEXEC), FD_NULL, "/dev/null");
	put_fd(open("/dev/zero", O_RDONLY | O_CLOEXEC), FD_ZERO, "/dev/zero");
	snprintf(path, sizeof(path), "%s/fz-data", f->work);
	put_fd(open(path, O_RDONLY | O_CLOEXEC), FD_DATA, path);
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) || fcntl(p[1], F_SETFL, 0))
		die("pipe: %s", strerror(errno));
	put_fd(p[0], FD_PIPE_R, "pipe");
	put_fd(p[1], FD_PIPE_W, "pipe");
	put_fd(open(f->work, O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_WORK, f->work);
	put_fd(open(opt.tests, O_PATH | O_DIRECTORY | O_CLOEXEC), FD_TESTS, opt.tests);
	put_fd(open(opt.tiny, O_RDONLY | O_CLOEXEC), FD_TINY, opt.tiny);
	snprintf(path, sizeof(path), "%s/fz-sub", f->work);
	put_fd(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_SUB, path);
}

static void arena_init(struct fuzzer *f)
{
	struct arena *ar = &f->ar;

	for (int i = 0; i < NPATHS; i++)
		ar->path[i] = (char *)path_names[i];
	snprintf(ar->abs_data, sizeof(ar->abs_data), "%s/fz-data", f->work);
	memset(ar->longpath, 'a', sizeof(ar->longpath) - 1);
	ar->longpath[sizeof(ar->longpath) - 1] = '\0';
	ar->path[PA_ABS_TINY] = opt.tiny;
	ar->path[PA_ABS_DATA] = ar->abs_data;
	ar->path[PA_EMPTY] = "";
	ar->path[PA_LONG] = ar->longpath;
	/* CLONE's sets: SIGUSR2 blocked; SIGTERM and SIGPIPE, which we ignore, reset */
	sigemptyset(&ar->sigs[0]);
	sigaddset(&ar->sigs[0], SIGUSR2);
	sigaddset(&ar->sigs[0], SIGKILL);
	ar->sched[0].sched_priority = 0;
	ar->sched[1].sched_priority = 1;
	sigemptyset(&ar->sigs[1]);
	sigaddset(&ar->sigs[1], SIGTERM);
	sigaddset(&ar->sigs[1], SIGPIPE);
	ar->path[PA_NULL] = NULL;
	ar->envp[0] = "FUZZ=1";
	ar->envp[1] = NULL;
	ar->ts = (struct __kernel_timespec){ .tv_sec = 1 };
}

/* a fuzzing thread: its own file table, fs, work directory, fds; no ring yet */
static void thread_setup(int thread)
{
	struct fuzzer *f = fuzzers[thread];
	sigset_t mask;

	if (unshare(CLONE_FILES | CLONE_FS))
		die("unshare: %s", strerror(errno));
	for (int cfg = 0; cfg < NCFG; cfg++)
		f->ring[cfg].up = false;
	make_work(f);
	fd_setup(f, true);
	if (chdir(f->work))
		die("chdir %s: %s", f->work, strerror(errno));
	umask(022);
	arena_init(f);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGTERM);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	take_state(&f->before);
}

static void thread_done(int thread)
{
	struct fuzzer *f = fuzzers[thread];

	for (int cfg = 0; cfg < NCFG; cfg++)
		if (f->ring[cfg].up) {
			leftovers(f, &f->ring[cfg]);
			ring_drop(f, cfg);
		}
}

/* the model's assumptions about tiny's directory, checked once */
static void check_layout(void)
{
	char path[PATH_MAX * 2];
	struct stat st;

	for (int p = 0; p < PA_ABS_TINY; p++) {
		if (p == PA_DOT)
			continue;
		snprintf(path, sizeof(path), "%s/%s", opt.tests, path_names[p]);
		if (!lstat(path, &st) != (p == PA_TINY))
			die("%s %s, which the model does not expect", path, p == PA_TINY ? "is missing" : "exists");
	}
	if (stat(opt.tiny, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 0111) != 0111)
		die("%s is not a program everyone may run (--exec)", opt.tiny);
}

static void setup(void)
{
	char path[PATH_MAX * 2], *slash;
	ssize_t n;

	if (fz.exec) {
		snprintf(path, sizeof(path), "%s", fz.exec);
	} else {
		n = readlink("/proc/self/exe", path, sizeof(path) - 8);
		if (n <= 0)
			die("readlink /proc/self/exe: %s", strerror(errno));
		path[n] = '\0';
		strcpy(strrchr(path, '/') + 1, "tiny");
	}
	/* no symlink in the paths: RESOLVE_NO_SYMLINKS must not see one */
	if (!realpath(path, opt.tiny))
		die("%s: %s", path, strerror(errno));
	snprintf(opt.tests, sizeof(opt.tests), "%s", opt.tiny);
	slash = strrchr(opt.tests, '/');
	if (slash == opt.tests || strcmp(slash + 1, "tiny"))
		die("the program to exec must be called tiny, in a directory other than /");
	*slash = '\0';
	check_layout();
	if (!iou_spawn_supported())
		die("this kernel has no IORING_OP_CLONE/EXEC (io_uring probe): it is not series-iouring's");
	/* a child nobody reports must come to us, not to init */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		die("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	fuzz_process_setup();
	snprintf(path, sizeof(path), "%s/iouring-fuzz-XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(path) || chmod(path, 0755) || !realpath(path, opt.top))
		die("mkdtemp %s: %s", path, strerror(errno));
	for (int i = 0; i < MAX_THREADS; i++) {
		fuzzers[i] = calloc(1, sizeof(*fuzzers[i]));
		if (!fuzzers[i])
			die("out of memory");
		fuzzers[i]->id = i;
		fuzzers[i]->busy = -1;
	}
}

static void remove_work(void)
{
	static const char *const files[] = { "fz-data", "fz-noexec", "fz-junk", "fz-script",
					     "fz-link", "fz-new" };
	char path[PATH_MAX * 2];

	for (int t = 0; t < MAX_THREADS; t++) {
		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			snprintf(path, sizeof(path), "%s/t%d/%s", opt.top, t, files[i]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/t%d/fz-sub", opt.top, t);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/t%d/fz-newdir", opt.top, t);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/t%d", opt.top, t);
		rmdir(path);
	}
	rmdir(opt.top);
}

static void summary(double seconds)
{
	printf("iouring-fuzz: seed %#" PRIx64 ", %ld chains in %.1f s: %ld spawned a child (%ld ran "
	       "the program of an EXEC), %ld refused at issue, %ld failed at prep\nCQE errors: ",
	       fz.seed, atomic_load(&n_calls), seconds, atomic_load(&n_child), atomic_load(&n_ran),
	       atomic_load(&n_refused), atomic_load(&n_prep));
	print_errno_counts();
	printf("\nrings:");
	for (int cfg = 0; cfg < NCFG; cfg++)
		printf(" %s/%u %ld", base_names[cfg / NSIZES], cq_sizes[cfg % NSIZES] ?: 32,
		       atomic_load(&n_cfg[cfg]));
	printf("\nrequests:");
	for (int k = 0; k < NKINDS; k++)
		printf(" %s %ld", kinds[k].name, atomic_load(&n_kind[k]));
	printf("\n");
}

int main(int argc, char **argv)
{
	pthread_t dog;

	fz.name = "iouring-fuzz";
	fz.unit = "chain";
	fuzz_parse(argc, argv);
	setup();
	printf("iouring-fuzz: seed %#" PRIx64 " (--seed %#" PRIx64 " repeats this run, --replay N "
	       "one chain); exec %s; work %s\n", fz.seed, fz.seed, opt.tiny, opt.top);
	fz_hooks.setup = thread_setup;
	fz_hooks.one = one_chain;
	fz_hooks.done = thread_done;
	if (pthread_create(&dog, NULL, watchdog, NULL))
		die("pthread_create: %s", strerror(errno));
	return fuzz_run(remove_work, summary);
}
