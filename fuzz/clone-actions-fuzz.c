/*
 * clone-actions-fuzz: a seeded fuzzer of clone3(CLONE_ACTIONS).
 *
 * Usage: clone-actions-fuzz [--seconds N] [--calls N] [--seed S]
 *            [--mode single|threads|storm|all] [--threads N] [--exec PATH]
 *            [--replay N] [--print]
 *
 * Call number N is built from the seed and N alone (its own PRNG stream):
 * a clone_args of 0 to 4097 bytes with random clone flags, exit signal,
 * stack, set_tid and pointers, and a list of up to 300 actions of kinds 0
 * to 20 with values biased toward edge cases (negative and limit fds,
 * paths that exist, do not, are too long, NULL, unmapped, in the kernel or
 * running into a PROT_NONE page, the same for argv and envp), random
 * element sizes with non-zero tails, and an nr_actions that may disagree
 * with the array, which always ends at a PROT_NONE page. Most lists end
 * in an exec of the static `tiny` next to this binary (--exec), which
 * exits with argv[1], so that many calls succeed.
 *
 * Before each call a model predicts the outcomes the ABI allows: DESIGN.md's
 * validation table ("The clone3 action-list ABI") for everything checked
 * before a child exists, then the system call semantics of each action on
 * a model of the child's fd table, cwd and session (see expect_call()).
 * After each call it checks:
 *   1. the calling thread's fd table is unchanged but for the pidfd of a
 *      success (which must name the child);
 *   2. no child is left: none at all in single mode (waitid() after every
 *      call, /proc every PROC_SCAN_EVERY calls); in the threaded modes a
 *      waiter thread (waitid(P_ALL, WNOHANG | WNOWAIT)) must never see an
 *      exited child that no successful call returned, and none is left
 *      when a phase ends;
 *   3. cwd, umask, signal mask of the thread, signal dispositions, process
 *      group, session and ids are unchanged;
 *   4. a failure's errno and failed_action index are among the predicted
 *      ones ("none" is CLONE_ACTION_NO_INDEX, "not written" the sentinel);
 *   5. a success returns a pid that exits normally with the predicted
 *      status, and failed_action says "none".
 * Each fuzzing thread has a file table and fs_struct of its own
 * (unshare(CLONE_FILES | CLONE_FS)) with the same descriptors, so a call
 * behaves the same in any thread and in a replay.
 *
 * Modes (--mode all, the default, gives each a third of the time):
 *   single   one thread
 *   threads  --threads (4) fuzzing threads and the waiter thread
 *   storm    the same and a thread that sends SIGUSR1 storms to the process
 * A violation prints the seed, the call number and the whole call;
 * `--seed S --replay N` runs that call again alone and prints it. The run
 * ends with a summary and exits 1 on any violation, 2 on a setup error.
 *
 * Adding an action kind is one row of kinds[] below: its fields and their
 * types (which give the table's static rules and the values to try), an
 * optional check of rules between fields and an optional model of what it
 * does at run time (without one, anything may happen at its index).
 *
 * The PRNG, state snapshots, child checks, options and phases are
 * fuzz/fuzz.h, shared with iouring-fuzz.
 *
 * Built by fuzz/fuzz.mk (static, against the series' uapi).
 */
#include "../abi/clone-actions-spawn.h"
#include "fuzz.h"
#include "../testlib/proc-children.h"
#include <linux/close_range.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

#define PAGE 4096
#define MAX_ELEMS 300
#define ACT_PAGES ((MAX_ELEMS * (PAGE + 8) + PAGE - 1) / PAGE)
/* the fds the model and the fd check cover; RLIMIT_NOFILE is set below it */
#define TBL FUZZ_FDS
#define NOFILE 1024
#define KERNEL_ADDR 0xffffffff81000000ULL
#define NONCANONICAL 0x0000800000000000ULL
#define LOW_ADDR 0x10ULL
#define SENTINEL 0xa5a5a5a5U
#define PIDFD_UNSET (-7)
#define REAP_TIMEOUT_MS 30000
#define DETAILED_VIOLATIONS 20
/* single mode scans /proc for hidden children every this many calls (slow under KASAN) */
#define PROC_SCAN_EVERY 8

/* the kernel's open flag bits (x86-64) that glibc spells otherwise */
#define K_O_LARGEFILE 0100000U
#define K_O_TMPFILE_BIT 020000000U
#define VALID_OPEN_FLAGS                                                              \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | \
	 O_DSYNC | O_ASYNC | O_DIRECT | K_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW |    \
	 O_NOATIME | O_CLOEXEC | O_SYNC | O_PATH | K_O_TMPFILE_BIT)

/* what a path lookup may answer when the model does not know the target */
#define ES_PATH ES(EACCES, EBADF, EFAULT, ELOOP, ENAMETOOLONG, ENOENT, ENOTDIR, ENOMEM)
#define ES_OPEN                                                                       \
	es_or(ES_PATH, ES(EEXIST, EINVAL, EISDIR, EMFILE, ENFILE, ENODEV, ENOSPC, ENXIO, \
			  EOPNOTSUPP, EOVERFLOW, EPERM, EROFS, ETXTBSY, EWOULDBLOCK, EFBIG))
#define ES_EXEC es_or(ES_PATH, ES(ENOEXEC, ETXTBSY, EISDIR, E2BIG, EINVAL, EPERM, ELIBBAD))
/* the errors a TRY_NEXT exec moves on after */
#define ES_CONTINUE ES(ENOENT, ENOTDIR, EACCES)

/* ---- what the model knows of paths and descriptors ---- */

enum target {
	T_UNKNOWN,
	T_TINY,
	T_LINK, /* a symlink to tiny */
	T_FILE, /* a file no one can exec */
	T_DIR_ROOT,
	T_DIR_TESTS,
	T_DIR_WORK,
	T_DIR_SUB,
	T_MISSING,
	T_NOTDIR, /* a path through a file */
};

static bool is_dir(int t)
{
	return t >= T_DIR_ROOT && t <= T_DIR_SUB;
}

enum path_id {
	P_TINY, P_LINK, P_NOEXEC, P_TESTS, P_WORK, P_SUB, P_ROOT, P_MISSING, P_NOTDIR,
	P_NEW, P_TOOLONG, P_LONGNAME, P_EMPTY, P_REL_TINY, P_REL_LINK, P_REL_NOEXEC,
	P_REL_SUB, P_REL_DOT, P_REL_NEW, P_STRADDLE, P_NULL, P_LOW, P_KERNEL,
	P_NONCANONICAL, P_GUARD, NPATHS
};

static const struct path_row paths[NPATHS] = {
	[P_TINY] = { "abs-tiny", PK_ABS, T_TINY, NULL },
	[P_LINK] = { "abs-link", PK_ABS, T_LINK, NULL },
	[P_NOEXEC] = { "abs-noexec", PK_ABS, T_FILE, NULL },
	[P_TESTS] = { "abs-tests-dir", PK_ABS, T_DIR_TESTS, NULL },
	[P_WORK] = { "abs-work-dir", PK_ABS, T_DIR_WORK, NULL },
	[P_SUB] = { "abs-sub-dir", PK_ABS, T_DIR_SUB, NULL },
	[P_ROOT] = { "/", PK_ABS, T_DIR_ROOT, NULL },
	[P_MISSING] = { "abs-missing", PK_ABS, T_MISSING, NULL },
	[P_NOTDIR] = { "abs-tiny/x", PK_ABS, T_NOTDIR, NULL },
	[P_NEW] = { "abs-new", PK_ABS, T_UNKNOWN, NULL },
	[P_TOOLONG] = { "too-long", PK_TOOLONG, 0, NULL },
	[P_LONGNAME] = { "long-name", PK_TOOLONG, 0, NULL },
	[P_EMPTY] = { "\"\"", PK_EMPTY, 0, NULL },
	[P_REL_TINY] = { "tiny", PK_REL, 0, "tiny" },
	[P_REL_LINK] = { "link", PK_REL, 0, "link" },
	[P_REL_NOEXEC] = { "noexec", PK_REL, 0, "noexec" },
	[P_REL_SUB] = { "sub", PK_REL, 0, "sub" },
	[P_REL_DOT] = { ".", PK_REL, 0, "." },
	[P_REL_NEW] = { "new", PK_REL, 0, "new" },
	[P_STRADDLE] = { "straddling", PK_FAULT, 0, NULL },
	[P_NULL] = { "NULL", PK_FAULT, 0, NULL },
	[P_LOW] = { "low-address", PK_FAULT, 0, NULL },
	[P_KERNEL] = { "kernel-address", PK_FAULT, 0, NULL },
	[P_NONCANONICAL] = { "non-canonical", PK_FAULT, 0, NULL },
	[P_GUARD] = { "PROT_NONE", PK_FAULT, 0, NULL },
};

/* The target of relative name @rel in directory @dir (setup() verifies this). */
static int lookup(const char *rel, int dir)
{
	if (!strcmp(rel, "."))
		return dir;
	if (!strcmp(rel, "new"))
		return T_UNKNOWN;
	if (dir == T_DIR_TESTS && !strcmp(rel, "tiny"))
		return T_TINY;
	if (dir == T_DIR_WORK && !strcmp(rel, "noexec"))
		return T_FILE;
	if (dir == T_DIR_WORK && !strcmp(rel, "link"))
		return T_LINK;
	if (dir == T_DIR_WORK && !strcmp(rel, "sub"))
		return T_DIR_SUB;
	return T_MISSING;
}

/* string vectors for argv and envp */
enum strv_id {
	SV_TINY_K, /* { "tiny", "K", NULL }: exits K */
	SV_LONG,   /* { "tiny", "7", "x", "y", NULL }: exits 7 */
	SV_EMPTY,
	SV_SOME, /* { "FUZZ=1", NULL } */
	SV_NULL,
	SV_BADSTR, /* this one and those after it fault */
	SV_STRADDLE_STR,
	SV_STRADDLE_ARRAY,
	SV_KERNEL,
	SV_GUARD,
	NSTRV
};

static const char *const strv_names[NSTRV] = {
	"tiny-K", "long", "empty", "some", "NULL", "bad-string", "straddling-string",
	"straddling-array", "kernel-address", "PROT_NONE",
};

/* ---- per-thread memory ---- */

/* page layout of an arena */
enum {
	PG_TEXT = 0,	  /* 4 pages of strings */
	PG_STRV = 4,	  /* 2 pages of string vectors */
	PG_EDGE0 = 6,	  /* a straddling string at its end; 7 is PROT_NONE */
	PG_EDGE1 = 8,	  /* a straddling pointer array; 9 is PROT_NONE */
	PG_EDGE2 = 10,	  /* a straddling failed_action; 11 is PROT_NONE */
	PG_RO = 12,	  /* read-only */
	PG_MISC = 13,	  /* failed_action, pidfd, tids, set_tid */
	PG_ARGS = 14,	  /* clone_args at its end; 15 is PROT_NONE */
	PG_ACTS = 16,	  /* the action array at the end of ACT_PAGES; then PROT_NONE */
	ARENA_PAGES = PG_ACTS + ACT_PAGES + 1,
};

struct arena {
	char *base;
	uint64_t path[NPATHS];
	uint64_t tiny_k; /* 256 vectors of 3 pointers */
	uint64_t strv[NSTRV];
	char *acts_end;
	uint32_t *fa;
	int *pidfd;
	pid_t *tids;
	pid_t *set_tid;
};

static char *pg(const struct arena *ar, int page)
{
	return ar->base + (size_t)page * PAGE;
}

static int classify_path(const struct arena *ar, uint64_t p)
{
	return fuzz_index_of(ar->path, NPATHS, p);
}

/* SV id of pointer p, K for SV_TINY_K in *k; -1 if unknown */
static int classify_strv(const struct arena *ar, uint64_t p, int *k)
{
	if (p >= ar->tiny_k && p < ar->tiny_k + 256 * 24 && (p - ar->tiny_k) % 24 == 0) {
		*k = (int)((p - ar->tiny_k) / 24);
		return SV_TINY_K;
	}
	for (int id = 0; id < NSTRV; id++)
		if (id != SV_TINY_K && ar->strv[id] == p)
			return id;
	return -1;
}

/* ---- options, shared state, statistics ---- */

static struct {
	char tiny[PATH_MAX], tests[PATH_MAX], work[PATH_MAX];
	pid_t pid, pgrp, sid;
	int nofile;
	uint64_t no_ns; /* namespace flags this kernel lacks: EINVAL at fork */
	int policy;	/* the caller's scheduling policy */
	bool ctty;	/* a controlling terminal we could not drop: no TCSETPGRP */
} opt;

struct fdm {
	uint8_t st;    /* FD_CLOSED, FD_OPEN, FD_MAYBE */
	uint8_t t;     /* target of an open fd */
	bool opath;    /* opened with O_PATH */
};
enum { FD_CLOSED, FD_OPEN, FD_MAYBE };

/* the fd table every fuzzing thread sets up (fd_setup()), as the model sees it */
static struct fdm fd_template[TBL];

static atomic_long n_ok, n_fail;

/* ---- one call, as generated ---- */

enum { PTR_OK, PTR_NULL, PTR_KERNEL, PTR_GUARD, PTR_RO, PTR_STRADDLE };
static const char *const ptr_names[] = { "ok", "NULL", "kernel-address", "PROT_NONE",
					 "read-only", "straddling" };

struct call {
	long long no;
	int style;
	/* clone_args: pointer members are filled in by place() */
	struct clone_args ca;
	size_t usize;
	int args_ptr, arr_ptr, fa_ptr;
	int args_tail; /* offset of a non-zero byte past 120, or -1 */
	bool stack, set_tid;
	/* the elements built (nr_actions may say otherwise) */
	uint32_t count;
	struct clone_action elem[MAX_ELEMS];
	int16_t tail[MAX_ELEMS]; /* offset of a non-zero byte past 64, or -1 */
	uint64_t args_addr;
};

/* ---- outcomes a call may have ---- */

#define IDX_NOT_WRITTEN (-1LL) /* failed_action keeps the sentinel */
#define IDX_ANY (-2LL)	       /* failed_action not checked */
#define IDX_NONE ((long long)CLONE_ACTION_NO_INDEX)

/* the validation table's rows (or the run) that decided a call's outcome */
enum rule {
	R_STRUCT, R_NO_ACTIONS, R_BELOW_VER3, R_FAILED_ACTION, R_NO_INDEX, R_ELEMENT, R_RUN,
	NRULES
};
static const char *const rule_names[NRULES] = {
	"unreadable clone_args", "list without CLONE_ACTIONS", "clone_args below VER3",
	"failed_action not writable", "errors of no action", "an element", "the actions ran",
};
static atomic_long n_rule[NRULES];

struct expect {
	enum rule rule;
	int nalt;
	struct alt {
		long long idx;
		errset errs;
	} alt[MAX_ELEMS + 8];
	bool may_succeed, status_any;
	bool status[256];
};

static void add_fail(struct expect *x, long long idx, errset errs)
{
	if (es_empty(errs))
		return;
	for (int i = 0; i < x->nalt; i++)
		if (x->alt[i].idx == idx) {
			x->alt[i].errs = es_or(x->alt[i].errs, errs);
			return;
		}
	x->alt[x->nalt++] = (struct alt){ idx, errs };
}

static void add_success(struct expect *x, int status)
{
	x->may_succeed = true;
	if (status < 0)
		x->status_any = true;
	else
		x->status[status & 0xff] = true;
}

/* ---- the model of the child at run time ---- */

struct model {
	const struct arena *ar;
	struct fdm fd[TBL];
	int cwd;
	bool sess_leader, pg_leader, pg_unknown, newpid;
	int policy; /* -2: unknown */
	/* permission checks may differ (new user namespace, an unmodelled kind) */
	bool perms;
};

/* one action's possible results: errors, and whether it may succeed */
struct step {
	errset errs;
	bool ok;
	int status; /* an exec's exit status on success, -1 any */
};

/* a lookup's result: target t if ok, else (or also) one of errs */
struct res {
	int t;
	errset errs;
	bool ok;
};

static struct res res_err(int e)
{
	return (struct res){ T_UNKNOWN, ES(e), false };
}

static struct res res_t(int t)
{
	return (struct res){ t, ES_NONE, true };
}

static struct res res_loose(errset errs)
{
	return (struct res){ T_UNKNOWN, errs, true };
}

static struct fdm *fdp(struct model *m, int fd)
{
	return fd >= 0 && fd < TBL ? &m->fd[fd] : NULL;
}

/* what fd (or AT_FDCWD) refers to */
static struct res fd_obj(struct model *m, int fd)
{
	struct fdm *f = fdp(m, fd);

	if (fd == AT_FDCWD)
		return m->cwd == T_UNKNOWN ? res_loose(ES_PATH) : res_t(m->cwd);
	if (!f || f->st == FD_CLOSED)
		return res_err(EBADF);
	if (f->st == FD_MAYBE)
		return res_loose(es_or(ES_PATH, ES(EBADF)));
	return f->t == T_UNKNOWN ? res_loose(ES_PATH) : res_t(f->t);
}

static struct res resolve(struct model *m, int dirfd, uint64_t ptr, bool empty_ok)
{
	int id = classify_path(m->ar, ptr);
	struct res r, base;

	if (id < 0)
		return res_loose(ES_PATH);
	switch (paths[id].kind) {
	case PK_FAULT:
		if (ptr == 0 && empty_ok) { /* whether NULL counts as "" is not ours to say */
			r = fd_obj(m, dirfd);
			r.errs = es_or(r.errs, ES(EFAULT));
			break;
		}
		return res_err(EFAULT);
	case PK_TOOLONG:
		return res_err(ENAMETOOLONG);
	case PK_EMPTY:
		r = empty_ok ? fd_obj(m, dirfd) : res_err(ENOENT);
		break;
	case PK_ABS:
		r = res_t(paths[id].target);
		break;
	case PK_REL:
		base = fd_obj(m, dirfd);
		if (!base.ok)
			return base;
		if (base.t == T_UNKNOWN)
			r = res_loose(es_or(base.errs, ES_PATH));
		else if (!is_dir(base.t))
			return res_err(ENOTDIR);
		else
			r = res_t(lookup(paths[id].rel, base.t));
		break;
	}
	if (m->perms)
		r.errs = es_or(r.errs, ES(EACCES, EPERM, EOVERFLOW));
	return r;
}

static void fail(struct step *st, int e)
{
	st->errs = es_or(st->errs, ES(e));
	st->ok = false;
}

static void run_none(struct model *m, const struct clone_action *a, struct step *st)
{
	(void)m, (void)a, (void)st;
}

static void run_close(struct model *m, const struct clone_action *a, struct step *st)
{
	struct fdm *f = fdp(m, a->close.fd);

	if (!f || f->st == FD_CLOSED)
		return fail(st, EBADF);
	if (f->st == FD_MAYBE)
		st->errs = ES(EBADF);
	f->st = FD_CLOSED;
}

static void run_dup2(struct model *m, const struct clone_action *a, struct step *st)
{
	struct fdm *o = fdp(m, a->dup2.oldfd), *n;

	if (!o || o->st == FD_CLOSED)
		return fail(st, EBADF);
	if (o->st == FD_MAYBE) {
		st->errs = ES(EBADF);
		*o = (struct fdm){ .st = FD_OPEN, .t = T_UNKNOWN };
	}
	if (a->dup2.oldfd == a->dup2.newfd)
		return;
	n = fdp(m, a->dup2.newfd);
	if (a->dup2.newfd >= opt.nofile || !n)
		return fail(st, EBADF);
	*n = *o;
}

/* open flags whose outcome the model predicts */
static bool simple_open(uint32_t flags, uint32_t mode)
{
	flags &= ~O_CLOEXEC;
	return !mode && (flags == O_RDONLY || flags == O_PATH || flags == O_DIRECTORY);
}

static void run_open(struct model *m, const struct clone_action *a, struct step *st)
{
	struct fdm *f = fdp(m, a->open.fd);
	struct res r;
	int t;

	/* closed first, as posix_spawn_file_actions_addopen(), unless it is the dirfd */
	if (f && a->open.fd != a->open.dirfd)
		f->st = FD_CLOSED;
	r = resolve(m, a->open.dirfd, a->open.path, false);
	st->errs = r.errs;
	st->ok = r.ok;
	t = r.t == T_LINK ? T_TINY : r.t;
	if (!simple_open(a->open.flags, a->open.mode) || (r.ok && t == T_UNKNOWN)) {
		st->errs = es_or(st->errs, ES_OPEN);
		t = T_UNKNOWN;
	} else if (r.ok && t == T_MISSING) {
		fail(st, ENOENT);
	} else if (r.ok && (t == T_NOTDIR || ((a->open.flags & O_DIRECTORY) && !is_dir(t)))) {
		fail(st, ENOTDIR);
	}
	if (st->ok && a->open.fd >= opt.nofile)
		fail(st, EBADF);
	if (st->ok && f)
		*f = (struct fdm){ .st = FD_OPEN, .t = (uint8_t)t, .opath = (a->open.flags & O_PATH) != 0 };
}

/* chdir()/fchdir() to what r names */
static void enter_dir(struct model *m, struct res r, struct step *st)
{
	st->errs = r.errs;
	st->ok = r.ok;
	if (!r.ok)
		return;
	if (r.t == T_UNKNOWN) {
		st->errs = es_or(st->errs, ES_PATH);
		m->cwd = T_UNKNOWN;
	} else if (is_dir(r.t)) {
		m->cwd = r.t;
	} else {
		fail(st, r.t == T_MISSING ? ENOENT : ENOTDIR);
	}
}

static void run_chdir(struct model *m, const struct clone_action *a, struct step *st)
{
	enter_dir(m, resolve(m, AT_FDCWD, a->chdir.path, false), st);
}

static void run_fchdir(struct model *m, const struct clone_action *a, struct step *st)
{
	enter_dir(m, fd_obj(m, a->fchdir.fd), st);
}

static void run_close_range(struct model *m, const struct clone_action *a, struct step *st)
{
	(void)st;
	if (a->close_range.flags & CLOSE_RANGE_CLOEXEC)
		return;
	for (uint64_t fd = a->close_range.first; fd <= a->close_range.last && fd < TBL; fd++)
		m->fd[fd].st = FD_CLOSED;
}

static void run_setsid(struct model *m, const struct clone_action *a, struct step *st)
{
	(void)a;
	if (m->pg_unknown)
		st->errs = ES(EPERM);
	else if (m->pg_leader)
		return fail(st, EPERM);
	m->pg_leader = m->sess_leader = true;
}

static void run_setpgid(struct model *m, const struct clone_action *a, struct step *st)
{
	int pgid = a->setpgid.pgid;

	if (a->setpgid.pid != 0 || m->pg_unknown || m->newpid ||
	    (pgid != 0 && pgid != opt.pgrp)) {
		/* another process, or a group that may or may not exist */
		st->errs = ES(ESRCH, EPERM, EACCES);
		m->pg_unknown = true;
		return;
	}
	if (m->sess_leader)
		return fail(st, EPERM);
	m->pg_leader = pgid == 0;
}

static void run_exec(struct model *m, const struct clone_action *a, struct step *st)
{
	struct res r = resolve(m, a->execveat.dirfd, a->execveat.path,
			       a->execveat.flags & AT_EMPTY_PATH);
	int t = r.t, k = 0, argv, envp;

	st->errs = r.errs;
	st->ok = false;
	if (!r.ok)
		return;
	if (t == T_LINK) {
		if (a->execveat.flags & AT_SYMLINK_NOFOLLOW)
			return fail(st, ELOOP);
		t = T_TINY;
	}
	if (t == T_UNKNOWN)
		st->errs = es_or(st->errs, ES_EXEC);
	else if (t == T_MISSING)
		return fail(st, ENOENT);
	else if (t == T_NOTDIR)
		return fail(st, ENOTDIR);
	else if (t != T_TINY)
		return fail(st, EACCES);
	/* the file is found and can be run: argv and envp are read next */
	argv = classify_strv(m->ar, a->execveat.argv, &k);
	envp = classify_strv(m->ar, a->execveat.envp, &(int){ 0 });
	if (argv >= SV_BADSTR || envp >= SV_BADSTR)
		return fail(st, EFAULT);
	if (argv < 0 || envp < 0)
		st->errs = es_or(st->errs, ES(EFAULT));
	st->ok = true;
	st->status = t == T_UNKNOWN || argv < 0 ? -1 : argv == SV_TINY_K ? k : argv == SV_LONG ? 7 : 0;
}

static void run_resetids(struct model *m, const struct clone_action *a, struct step *st)
{
	(void)a;
	if (m->perms) /* in a new user namespace the real ids are not mapped */
		st->errs = ES(EINVAL, EPERM);
}

static bool rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* sched_setscheduler(), or sched_setparam() for policy -1 */
static void run_sched(struct model *m, const struct clone_action *a, struct step *st)
{
	int policy = a->sched.policy == -1 ? m->policy : a->sched.policy & ~SCHED_RESET_ON_FORK;
	uint32_t prio = (uint32_t)a->sched.priority;

	if (m->perms)
		st->errs = ES(EPERM);
	if (policy == -2 || policy == SCHED_EXT) { /* unknown, or per kernel configuration */
		st->errs = es_or(st->errs, ES(EINVAL, EPERM));
		m->policy = -2;
		return;
	}
	if ((policy != SCHED_OTHER && policy != SCHED_BATCH && policy != SCHED_IDLE &&
	     !rt_policy(policy)) ||
	    prio > 99 || rt_policy(policy) != (prio != 0))
		return fail(st, EINVAL);
	m->policy = policy;
}

/* Without a controlling terminal (setup() drops it) there is no foreground to set. */
static void run_tcsetpgrp(struct model *m, const struct clone_action *a, struct step *st)
{
	struct fdm *f = fdp(m, a->tcsetpgrp.fd);

	if (!f || f->st == FD_CLOSED)
		return fail(st, EBADF);
	fail(st, f->opath ? EBADF : ENOTTY); /* ioctl() on an O_PATH fd: EBADF */
	if (f->st == FD_MAYBE || f->t == T_UNKNOWN)
		st->errs = es_or(st->errs, ES(EBADF, ENOTTY));
}

/* ---- the action kinds ---- */

enum field_type {
	F_FD,	   /* s32: negative is EBADF */
	F_DIRFD,   /* s32: negative but AT_FDCWD is EBADF */
	F_PATH,	   /* u64 pointer */
	F_ARGV,	   /* u64 pointer */
	F_ENVP,	   /* u64 pointer */
	F_OFLAGS,  /* u32: outside VALID_OPEN_FLAGS is EINVAL */
	F_MODE,	   /* u32: beyond 07777 is EINVAL */
	F_FIRST,   /* u32 close_range first */
	F_LAST,	   /* u32 close_range last */
	F_CRFLAGS, /* u32: beyond UNSHARE | CLOEXEC is EINVAL */
	F_PID,	   /* s32: negative is EINVAL */
	F_PGID,	   /* s32: negative is EINVAL */
	F_HOW,	   /* u32: not SIG_BLOCK/UNBLOCK/SETMASK is EINVAL */
	F_PAD,	   /* u32: non-zero is EINVAL */
	F_SIGSET,  /* u64 */
	F_UMASK,   /* u32: beyond 0777 is EINVAL */
	F_XFLAGS,  /* u32: beyond AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW is EINVAL */
	F_POLICY,  /* s32: below -1 is EINVAL */
	F_PRIO,	   /* s32 */
	F_ANY,	   /* no rule known */
};

struct field {
	const char *name;
	uint8_t off, size, type;
};

#define FIELD(member, f, type)                                              \
	{ #f, offsetof(struct clone_action, member.f),                      \
	  sizeof(((struct clone_action *)0)->member.f), type }

struct kind_row {
	uint32_t kind;
	const char *name;
	struct field fields[6];
	/* rules between fields: the errors they give */
	errset (*check)(const struct clone_action *a);
	/* what it does in the child; NULL: anything may happen at its index */
	void (*run)(struct model *m, const struct clone_action *a, struct step *st);
	/* how often lists that should work pick it (0: never) */
	unsigned weight;
};

static errset check_open(const struct clone_action *a)
{
	if (a->open.mode && !(a->open.flags & (O_CREAT | K_O_TMPFILE_BIT)))
		return ES(EINVAL);
	return ES_NONE;
}

static errset check_close_range(const struct clone_action *a)
{
	return a->close_range.first > a->close_range.last ? ES(EINVAL) : ES_NONE;
}

static const struct kind_row kinds[] = {
	{ CLONE_ACTION_CLOSE, "CLOSE", { FIELD(close, fd, F_FD) }, NULL, run_close, 6 },
	{ CLONE_ACTION_DUP2, "DUP2",
	  { FIELD(dup2, oldfd, F_FD), FIELD(dup2, newfd, F_FD) }, NULL, run_dup2, 6 },
	{ CLONE_ACTION_OPEN, "OPEN",
	  { FIELD(open, fd, F_FD), FIELD(open, dirfd, F_DIRFD), FIELD(open, path, F_PATH),
	    FIELD(open, flags, F_OFLAGS), FIELD(open, mode, F_MODE) },
	  check_open, run_open, 6 },
	{ CLONE_ACTION_CHDIR, "CHDIR", { FIELD(chdir, path, F_PATH) }, NULL, run_chdir, 4 },
	{ CLONE_ACTION_FCHDIR, "FCHDIR", { FIELD(fchdir, fd, F_FD) }, NULL, run_fchdir, 3 },
	{ CLONE_ACTION_CLOSE_RANGE, "CLOSE_RANGE",
	  { FIELD(close_range, first, F_FIRST), FIELD(close_range, last, F_LAST),
	    FIELD(close_range, flags, F_CRFLAGS) },
	  check_close_range, run_close_range, 5 },
	{ CLONE_ACTION_SETSID, "SETSID", {}, NULL, run_setsid, 2 },
	{ CLONE_ACTION_SETPGID, "SETPGID",
	  { FIELD(setpgid, pid, F_PID), FIELD(setpgid, pgid, F_PGID) }, NULL, run_setpgid, 2 },
	{ CLONE_ACTION_SIGMASK, "SIGMASK",
	  { FIELD(sigmask, how, F_HOW), FIELD(sigmask, __pad, F_PAD),
	    FIELD(sigmask, set, F_SIGSET) },
	  NULL, run_none, 5 },
	{ CLONE_ACTION_SIGDEFAULT, "SIGDEFAULT", { FIELD(sigdefault, set, F_SIGSET) }, NULL,
	  run_none, 4 },
	{ CLONE_ACTION_UMASK, "UMASK", { FIELD(umask, mask, F_UMASK) }, NULL, run_none, 4 },
	{ CLONE_ACTION_EXECVEAT, "EXECVEAT",
	  { FIELD(execveat, dirfd, F_DIRFD), FIELD(execveat, flags, F_XFLAGS),
	    FIELD(execveat, path, F_PATH), FIELD(execveat, argv, F_ARGV),
	    FIELD(execveat, envp, F_ENVP) },
	  NULL, run_exec, 0 },
	{ CLONE_ACTION_RESETIDS, "RESETIDS", {}, NULL, run_resetids, 2 },
	{ CLONE_ACTION_SCHED, "SCHED",
	  { FIELD(sched, policy, F_POLICY), FIELD(sched, priority, F_PRIO) }, NULL, run_sched, 2 },
	{ CLONE_ACTION_TCSETPGRP, "TCSETPGRP", { FIELD(tcsetpgrp, fd, F_FD) }, NULL, run_tcsetpgrp, 1 },
	/*
	 * A kind whose run is NULL is not modelled: its member's layout is
	 * taken to be the whole union, and any outcome at its index passes.
	 */
};

static const struct kind_row *find_kind(uint32_t kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

/* the bytes a kind's member covers, from the start of the action */
static size_t kind_used(const struct kind_row *row)
{
	size_t end = offsetof(struct clone_action, close);

	if (!row->run) /* layout unknown: every byte may be used */
		return sizeof(struct clone_action);
	for (const struct field *f = row->fields; f->name; f++)
		if (f->off + f->size > end)
			end = f->off + f->size;
	return end;
}

static uint64_t get_field(const struct clone_action *a, const struct field *f)
{
	uint64_t v = 0;

	memcpy(&v, (const char *)a + f->off, f->size);
	return v;
}

static void put_field(struct clone_action *a, const struct field *f, uint64_t v)
{
	memcpy((char *)a + f->off, &v, f->size);
}

/* the static rule of a field of this type; no rule: none */
static errset field_errors(const struct field *f, uint64_t v)
{
	int32_t s = (int32_t)v;
	uint32_t u = (uint32_t)v;

	switch (f->type) {
	case F_FD:
		return s < 0 ? ES(EBADF) : ES_NONE;
	case F_DIRFD:
		return s < 0 && s != AT_FDCWD ? ES(EBADF) : ES_NONE;
	case F_OFLAGS:
		return u & ~VALID_OPEN_FLAGS ? ES(EINVAL) : ES_NONE;
	case F_MODE:
		return u & ~07777U ? ES(EINVAL) : ES_NONE;
	case F_CRFLAGS:
		return u & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC) ? ES(EINVAL) : ES_NONE;
	case F_PID:
	case F_PGID:
		return s < 0 ? ES(EINVAL) : ES_NONE;
	case F_HOW:
		return u > SIG_SETMASK ? ES(EINVAL) : ES_NONE;
	case F_PAD:
		return u ? ES(EINVAL) : ES_NONE;
	case F_UMASK:
		return u & ~0777U ? ES(EINVAL) : ES_NONE;
	case F_XFLAGS:
		return u & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) ? ES(EINVAL) : ES_NONE;
	case F_POLICY:
		return s < -1 ? ES(EINVAL) : ES_NONE;
	default:
		return ES_NONE;
	}
}

/*
 * The validation table's verdict on one element, without its place in the
 * list: the errors it gives for sure, and in *unknown those that a kind
 * without rules here may give (and then it may also pass).
 */
static errset element_errors(const struct clone_action *a, errset *unknown)
{
	const struct kind_row *row = find_kind(a->kind);
	errset errs = ES_NONE;
	size_t used;

	*unknown = ES_NONE;
	if (a->flags & ~CLONE_ACTION_F_EXEC_TRY_NEXT)
		errs = ES(EINVAL);
	if ((a->flags & CLONE_ACTION_F_EXEC_TRY_NEXT) && a->kind != CLONE_ACTION_EXECVEAT)
		errs = ES(EINVAL);
	if (!row)
		return ES(EINVAL);
	if (!row->run) {
		*unknown = ES_ANY;
		return errs;
	}
	for (const struct field *f = row->fields; f->name; f++)
		errs = es_or(errs, field_errors(f, get_field(a, f)));
	if (row->check)
		errs = es_or(errs, row->check(a));
	used = kind_used(row);
	for (size_t b = used; b < sizeof(*a); b++)
		if (((const unsigned char *)a)[b])
			errs = es_or(errs, ES(EINVAL));
	return errs;
}

/* ---- generating calls ---- */

struct fuzzer {
	int id;
	struct arena ar;
	struct call call;
	struct expect x;
	/* the thread's state after setup, and now */
	struct fuzz_state before, now;
};

static uint64_t gen_path(struct rng *r, const struct arena *ar, bool edge)
{
	if (edge)
		return ar->path[below(r, NPATHS)];
	return ar->path[PICK(r, P_TINY, P_LINK, P_NOEXEC, P_TESTS, P_WORK, P_SUB, P_ROOT,
			     P_MISSING, P_REL_TINY, P_REL_NOEXEC, P_REL_SUB, P_REL_DOT, P_NEW)];
}

static uint64_t gen_strv(struct rng *r, const struct arena *ar, bool argv, bool edge)
{
	int id = edge ? (int)below(r, NSTRV) : argv ? SV_TINY_K : (int)PICK(r, SV_EMPTY, SV_SOME, SV_NULL);

	return id == SV_TINY_K ? ar->tiny_k + 24 * below(r, 256) : ar->strv[id];
}

static uint64_t gen_fd(struct rng *r, bool edge)
{
	if (!edge || chance(r, 50))
		return (uint32_t)PICK(r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 1023);
	return (uint32_t)PICK(r, -1, AT_FDCWD, INT_MIN, 9, 1022, 1024, 1025, INT_MAX,
			      below(r, TBL));
}

/* a value for a field of this type: plausible, or (edge) anything interesting */
static uint64_t gen_value(struct rng *r, const struct arena *ar, int type, bool edge)
{
	uint64_t any = edge ? rnd(r) : 0;

	if (edge && chance(r, 10))
		return PICK(r, 0, 1, ~0ULL, (uint64_t)INT_MAX, (uint64_t)(uint32_t)INT_MIN, any);
	switch (type) {
	case F_FD:
		return gen_fd(r, edge);
	case F_DIRFD:
		return chance(r, 40) ? (uint32_t)AT_FDCWD : !edge ? PICK(r, 3, 5, 1023) : gen_fd(r, edge);
	case F_PATH:
		return gen_path(r, ar, edge);
	case F_ARGV:
		return gen_strv(r, ar, true, edge);
	case F_ENVP:
		return gen_strv(r, ar, false, edge);
	case F_OFLAGS:
		if (!edge || chance(r, 40))
			return PICK(r, O_RDONLY, O_RDONLY | O_CLOEXEC, O_PATH, O_DIRECTORY);
		return PICK(r, O_WRONLY | O_CREAT, O_RDWR | O_CREAT | O_EXCL, O_TMPFILE | O_RDWR,
			    O_RDWR | O_TRUNC, O_PATH | O_NOFOLLOW, O_RDONLY | O_NONBLOCK, 04,
			    1U << 25, 1U << 31, (uint32_t)any);
	case F_MODE:
		return !edge ? 0 : PICK(r, 0, 0644, 07777, 010000, (uint32_t)any);
	case F_FIRST:
		return !edge ? PICK(r, 3, 7, 10, 100) : PICK(r, 0, 3, 7, 1023, 1024, ~0U, (uint32_t)any);
	case F_LAST:
		return !edge ? PICK(r, 1023, ~0U) : PICK(r, 0, 3, 7, 1023, 1024, ~0U, (uint32_t)any);
	case F_CRFLAGS:
		return !edge ? PICK(r, 0, 0, CLOSE_RANGE_CLOEXEC, CLOSE_RANGE_UNSHARE)
			     : PICK(r, CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC, 1, 8, (uint32_t)any);
	case F_PID:
	case F_PGID:
		if (!edge)
			return type == F_PID ? 0 : PICK(r, 0, 0, (uint32_t)opt.pgrp);
		return (uint32_t)PICK(r, 0, -1, 1, opt.pid, opt.pgrp, INT_MAX, INT_MIN,
				      1 + below(r, 32768));
	case F_HOW:
		return !edge ? PICK(r, SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK) : PICK(r, 3, ~0U, 0x100, (uint32_t)any);
	case F_PAD:
		return !edge ? 0 : PICK(r, 1, (uint32_t)any);
	case F_SIGSET:
		return PICK(r, 0, 1ULL << (SIGUSR1 - 1), 1ULL << (SIGUSR2 - 1), 1ULL << (SIGTERM - 1),
			    ~0ULL, (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)), 1ULL << 63,
			    rnd(r));
	case F_UMASK:
		return !edge ? PICK(r, 0, 022, 077, 0777) : PICK(r, 01000, 0x80000000U, ~0U, (uint32_t)any);
	case F_XFLAGS:
		return !edge ? 0 : PICK(r, AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW,
					AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR,
					AT_SYMLINK_FOLLOW, (uint32_t)any);
	case F_POLICY:
		if (!edge)
			return (uint32_t)PICK(r, -1, SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR);
		return (uint32_t)PICK(r, -2, 4, SCHED_DEADLINE, SCHED_EXT, SCHED_RESET_ON_FORK,
				      SCHED_RESET_ON_FORK | SCHED_FIFO, INT_MAX, INT_MIN, (uint32_t)any);
	case F_PRIO:
		return !edge ? PICK(r, 0, 0, 1, 50, 99) : (uint32_t)PICK(r, -1, 100, INT_MAX, (uint32_t)any);
	default:
		return edge ? any : 0;
	}
}

static void gen_fields(struct rng *r, const struct arena *ar, struct clone_action *a,
		       const struct kind_row *row, bool edge)
{
	for (const struct field *f = row->fields; f->name; f++)
		put_field(a, f, row->run ? gen_value(r, ar, f->type, edge) : 0);
}

/* an exec that works (or, if doomed, fails at lookup as a PATH search's candidates do) */
static void gen_exec(struct rng *r, const struct arena *ar, struct clone_action *a, bool doomed)
{
	static const struct {
		int dirfd, path;
		uint32_t flags;
	} good[] = {
		{ AT_FDCWD, P_TINY, 0 },	  { 3, P_REL_TINY, 0 },
		{ 4, P_EMPTY, AT_EMPTY_PATH },	  { AT_FDCWD, P_LINK, 0 },
		{ 5, P_REL_LINK, 0 },		  { AT_FDCWD, P_TINY, AT_SYMLINK_NOFOLLOW },
	}, bad[] = {
		{ AT_FDCWD, P_MISSING, 0 },	  { AT_FDCWD, P_NOEXEC, 0 },
		{ AT_FDCWD, P_NOTDIR, 0 },	  { 5, P_REL_NOEXEC, 0 },
		{ AT_FDCWD, P_ROOT, 0 },	  { 3, P_REL_NOEXEC, 0 },
		{ AT_FDCWD, P_LINK, AT_SYMLINK_NOFOLLOW },
	};
	int i = doomed ? (int)below(r, ARRAY_SIZE(bad)) : (int)below(r, ARRAY_SIZE(good));
	const struct kind_row *row = find_kind(CLONE_ACTION_EXECVEAT);

	*a = (struct clone_action){ .kind = CLONE_ACTION_EXECVEAT };
	gen_fields(r, ar, a, row, false);
	a->execveat.dirfd = doomed ? bad[i].dirfd : good[i].dirfd;
	a->execveat.path = ar->path[doomed ? bad[i].path : good[i].path];
	a->execveat.flags = doomed ? bad[i].flags : good[i].flags;
}

static const struct kind_row *pick_kind(struct rng *r, bool cheap)
{
	unsigned total = 0, n;

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		total += kinds[i].weight;
	do {
		n = below(r, total);
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
			if (n < kinds[i].weight) {
				if (!cheap || kinds[i].run == run_none)
					return &kinds[i];
				break;
			}
			n -= kinds[i].weight;
		}
	} while (1);
}

static void gen_action(struct rng *r, const struct arena *ar, struct clone_action *a,
		       const struct kind_row *row, bool edge)
{
	*a = (struct clone_action){ .kind = row->kind };
	gen_fields(r, ar, a, row, edge);
}

/* a list meant to work: setup actions, then one exec or a PATH search */
static void gen_clean_list(struct rng *r, const struct arena *ar, struct call *c)
{
	bool cheap = chance(r, 5);
	uint32_t setup = cheap ? 150 + below(r, 100) : (uint32_t)PICK(r, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 8);
	uint32_t execs = chance(r, 85) ? 1 : 2 + below(r, 3);

	c->count = 0;
	while (c->count < setup)
		gen_action(r, ar, &c->elem[c->count++], pick_kind(r, cheap), false);
	for (uint32_t i = 0; i < execs; i++) {
		struct clone_action *a = &c->elem[c->count++];

		gen_exec(r, ar, a, i + 1 < execs && chance(r, 70));
		if (i + 1 < execs)
			a->flags = CLONE_ACTION_F_EXEC_TRY_NEXT;
	}
}

static void gen_wild_list(struct rng *r, const struct arena *ar, struct call *c)
{
	uint32_t n = PICK(r, 0, 1) ? below(r, 11) : chance(r, 40) ? 250 + below(r, 10) : below(r, MAX_ELEMS + 1);

	for (c->count = 0; c->count < n; c->count++) {
		struct clone_action *a = &c->elem[c->count];
		const struct kind_row *row = &kinds[below(r, ARRAY_SIZE(kinds))];

		if (chance(r, 20)) { /* any kind, valid or not, with random bytes */
			*a = (struct clone_action){ .kind = below(r, 21) };
			for (int w = 0; w < 7; w++)
				a->__reserved[w] = chance(r, 30) ? rnd(r) : 0;
			continue;
		}
		if (c->count + 1 == n && chance(r, 80))
			row = find_kind(CLONE_ACTION_EXECVEAT);
		gen_action(r, ar, a, row, chance(r, 50));
		if (a->kind == CLONE_ACTION_EXECVEAT && c->count + 1 < n && chance(r, 50))
			a->flags = CLONE_ACTION_F_EXEC_TRY_NEXT;
	}
}

static void mutate_list(struct rng *r, const struct arena *ar, struct call *c)
{
	uint32_t i = below(r, c->count);
	struct clone_action *a = &c->elem[i];
	const struct kind_row *row = c->count ? find_kind(a->kind) : NULL;
	uint32_t op = below(r, 9);
	int nf = 0;

	if (!c->count) {
		c->count = 1;
		gen_action(r, ar, a, &kinds[below(r, ARRAY_SIZE(kinds))], true);
		return;
	}
	while (row && row->fields[nf].name)
		nf++;
	switch (op) {
	case 0: /* one field to an edge value */
	case 1:
		if (nf) {
			const struct field *f = &row->fields[below(r, nf)];

			put_field(a, f, gen_value(r, ar, f->type, true));
		}
		break;
	case 2: /* another kind, same bytes */
		a->kind = chance(r, 50) ? below(r, 21) : kinds[below(r, ARRAY_SIZE(kinds))].kind;
		break;
	case 3:
		a->flags = PICK(r, CLONE_ACTION_F_EXEC_TRY_NEXT, 2, 1U << 31, (uint32_t)rnd(r));
		break;
	case 4: /* a byte the kind does not use */
		if (row && kind_used(row) < sizeof(*a))
			((unsigned char *)a)[kind_used(row) + below(r, sizeof(*a) - kind_used(row))] =
				1 + below(r, 255);
		break;
	case 5: /* no exec at the end */
		c->count--;
		break;
	case 6: /* something after the exec */
	case 7: /* or a copy of an action anywhere */
		if (c->count < MAX_ELEMS) {
			uint32_t at = op == 6 ? c->count : below(r, c->count + 1);

			memmove(&c->elem[at + 1], &c->elem[at], (c->count - at) * sizeof(*a));
			gen_action(r, ar, &c->elem[at], pick_kind(r, false), chance(r, 30));
			c->count++;
		}
		break;
	case 8: { /* two actions change places */
		uint32_t j = below(r, c->count);
		struct clone_action t = *a;

		*a = c->elem[j];
		c->elem[j] = t;
		break;
	}
	}
}

static const uint64_t benign_flags[] = {
	CLONE_NEWNS,  CLONE_NEWUTS,	     CLONE_NEWIPC,   CLONE_NEWPID,
	CLONE_NEWUSER, CLONE_NEWCGROUP,	     CLONE_NEWTIME,  CLONE_IO,
	CLONE_UNTRACED, CLONE_CLEAR_SIGHAND, CLONE_SYSVSEM,
};
static const uint64_t other_flags[] = {
	CLONE_VM,	  CLONE_FS,	     CLONE_FILES,	 CLONE_SIGHAND,
	CLONE_PTRACE,	  CLONE_VFORK,	     CLONE_PARENT,	 CLONE_THREAD,
	CLONE_SETTLS,	  CLONE_PARENT_SETTID, CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID,
	CLONE_DETACHED,	  CLONE_NEWNET,	     CLONE_INTO_CGROUP, 0x11,
	1ULL << 41,	  1ULL << 63,
};
/* what CLONE_ACTIONS may be combined with (DESIGN.md's forbidden list, generic checks) */
#define ALLOWED_FLAGS                                                                   \
	(CLONE_ACTIONS | CLONE_PIDFD | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |          \
	 CLONE_NEWPID | CLONE_NEWUSER | CLONE_NEWCGROUP | CLONE_NEWTIME | CLONE_NEWNET |    \
	 CLONE_IO | CLONE_UNTRACED | CLONE_CLEAR_SIGHAND | CLONE_SYSVSEM | CLONE_INTO_CGROUP)
#define NS_FLAGS                                                                           \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWUSER |           \
	 CLONE_NEWCGROUP | CLONE_NEWTIME | CLONE_NEWNET)

static void mutate_args(struct rng *r, struct call *c)
{
	struct clone_args *ca = &c->ca;

	switch (below(r, 15)) {
	case 0:
		c->usize = PICK(r, 0, 8, 63, 64, 80, 88, 104, 112, 119, 121, 127, 4096, 4097,
				64 + below(r, 77));
		break;
	case 1:
		if (c->usize > sizeof(*ca) && c->usize <= PAGE)
			c->args_tail = sizeof(*ca) + below(r, c->usize - sizeof(*ca));
		break;
	case 2:
		c->args_ptr = PICK(r, PTR_NULL, PTR_KERNEL, PTR_STRADDLE);
		break;
	case 3:
		ca->flags |= other_flags[below(r, ARRAY_SIZE(other_flags))];
		break;
	case 4: /* no CLONE_ACTIONS, list members set (gen_call() keeps it harmless) */
		ca->flags &= CLONE_PIDFD;
		break;
	case 5:
		ca->exit_signal = PICK(r, 0, SIGUSR1, 64, 65, (1ULL << 32) | SIGCHLD, rnd(r));
		break;
	case 6: /* a stack, with or without a size, or a size alone */
		c->stack = chance(r, 70);
		ca->stack_size = c->stack ? PICK(r, 0, 4096, 8192) : 4096;
		break;
	case 7: /* set_tid the generic checks refuse (a valid one would reach copy_process()) */
		ca->set_tid_size = PICK(r, 0, 1, 33);
		c->set_tid = ca->set_tid_size != 1;
		break;
	case 8:
		ca->flags |= CLONE_INTO_CGROUP;
		ca->cgroup = PICK(r, 3, 0, ~0ULL, 1023, 1ULL << 31);
		break;
	case 9:
		ca->nr_actions = PICK(r, 0, c->count - 1, c->count + 1, c->count + 7, 256, 257,
				      300, (1ULL << 32) | c->count, ~0ULL);
		break;
	case 10:
		ca->action_size = PICK(r, 0, 8, 63, 65, 68, 72, 4096, 4097, 4104, 1ULL << 32);
		break;
	case 11:
		if (ca->action_size > sizeof(struct clone_action) && ca->action_size <= PAGE && c->count)
			c->tail[below(r, c->count)] = below(r, ca->action_size - sizeof(struct clone_action));
		break;
	case 12:
		c->fa_ptr = PICK(r, PTR_NULL, PTR_RO, PTR_STRADDLE, PTR_KERNEL);
		break;
	case 13:
		c->arr_ptr = PICK(r, PTR_NULL, PTR_KERNEL, PTR_GUARD);
		break;
	case 14:
		ca->flags |= benign_flags[below(r, ARRAY_SIZE(benign_flags))];
		break;
	}
}

/* OPEN never writes to, truncates or creates anything the model relies on */
static void sanitize(const struct arena *ar, struct call *c)
{
	for (uint32_t i = 0; i < c->count; i++) {
		struct clone_action *a = &c->elem[i];
		int id;

		if (a->kind == CLONE_ACTION_TCSETPGRP && opt.ctty)
			a->tcsetpgrp.fd = -1; /* our terminal's foreground is not the fuzzer's to move */
		if (a->kind != CLONE_ACTION_OPEN)
			continue;
		id = classify_path(ar, a->open.path);
		if (id != P_NEW && id != P_REL_NEW)
			a->open.flags &= ~(O_CREAT | K_O_TMPFILE_BIT | O_ACCMODE | O_TRUNC | O_APPEND);
	}
}

static void gen_call(const struct arena *ar, long long no, struct call *c)
{
	struct rng r = rng_for(no);
	uint32_t style = below(&r, 100), list_mutations = 0, args_mutations = 0, n;

	c->no = no;
	c->style = style < 45 ? 0 : style < 80 ? 1 : 2;
	for (n = c->style == 0 ? 0 : c->style == 1 ? 1 + below(&r, 3) : 2 + below(&r, 4); n; n--)
		*(chance(&r, 60) ? &list_mutations : &args_mutations) += 1;
	if (c->style < 2)
		gen_clean_list(&r, ar, c);
	else
		gen_wild_list(&r, ar, c);
	while (list_mutations--)
		mutate_list(&r, ar, c);

	c->ca = (struct clone_args){
		.flags = CLONE_ACTIONS | (chance(&r, 50) ? CLONE_PIDFD : 0),
		.exit_signal = SIGCHLD,
		.nr_actions = c->count,
		.action_size = chance(&r, 85) ? sizeof(struct clone_action) : PICK(&r, 72, 128, 4096),
	};
	c->usize = chance(&r, 90) ? sizeof(c->ca) : PICK(&r, 128, 136, 140);
	c->args_ptr = c->arr_ptr = c->fa_ptr = PTR_OK;
	c->args_tail = -1;
	c->stack = c->set_tid = false;
	for (int i = 0; i < MAX_ELEMS; i++)
		c->tail[i] = -1;
	if (chance(&r, 6))
		c->ca.flags |= benign_flags[below(&r, ARRAY_SIZE(benign_flags))];
	while (args_mutations--)
		mutate_args(&r, c);

	/* a tail byte only where the size says there is a tail */
	if (c->args_tail >= 0 && (size_t)c->args_tail >= c->usize)
		c->args_tail = -1;
	for (uint32_t i = 0; i < c->count; i++)
		if (c->ca.action_size <= sizeof(struct clone_action) || c->ca.action_size > PAGE ||
		    (uint64_t)c->tail[i] >= c->ca.action_size - sizeof(struct clone_action))
			c->tail[i] = -1;
	/* without CLONE_ACTIONS: a plain clone3() that must say E2BIG, nothing it could fork */
	if (!(c->ca.flags & CLONE_ACTIONS)) {
		c->ca.flags &= CLONE_PIDFD;
		c->ca.exit_signal = SIGCHLD;
		c->ca.set_tid_size = c->ca.stack_size = c->ca.cgroup = 0;
		c->stack = c->set_tid = false;
		if (c->usize < sizeof(c->ca) || c->usize > PAGE)
			c->usize = sizeof(c->ca);
		c->args_ptr = c->fa_ptr = PTR_OK;
	}
	sanitize(ar, c);
}

static uint64_t ptr_of(const struct arena *ar, int cat, uint64_t ok, uint64_t straddle)
{
	switch (cat) {
	case PTR_OK:
		return ok;
	case PTR_NULL:
		return 0;
	case PTR_KERNEL:
		return KERNEL_ADDR;
	case PTR_GUARD:
		return (uint64_t)(uintptr_t)(pg(ar, PG_EDGE0) + PAGE);
	case PTR_RO:
		return (uint64_t)(uintptr_t)pg(ar, PG_RO);
	default:
		return straddle;
	}
}

/* Writes the call into the arena: the array ends at a PROT_NONE page, so do the args. */
static void place(const struct arena *ar, struct call *c)
{
	size_t asize = c->ca.action_size, stride = asize >= 64 && asize <= PAGE ? asize : 64;
	char *base = ar->acts_end - c->count * stride, *args;
	struct clone_args *ca = &c->ca;

	for (uint32_t i = 0; i < c->count; i++) {
		char *e = base + i * stride;

		memcpy(e, &c->elem[i], sizeof(c->elem[i]));
		memset(e + sizeof(c->elem[i]), 0, stride - sizeof(c->elem[i]));
		if (c->tail[i] >= 0 && (size_t)c->tail[i] < stride - sizeof(c->elem[i]))
			e[sizeof(c->elem[i]) + c->tail[i]] = (char)(0x5a + i);
	}
	ca->pidfd = CA_PTR(ar->pidfd);
	ca->child_tid = CA_PTR(&ar->tids[0]);
	ca->parent_tid = CA_PTR(&ar->tids[1]);
	ca->stack = c->stack ? CA_PTR(pg(ar, PG_MISC)) : 0;
	ca->set_tid = c->set_tid ? CA_PTR(ar->set_tid) : 0;
	ca->actions = ptr_of(ar, c->arr_ptr, CA_PTR(base), 0);
	ca->failed_action = ptr_of(ar, c->fa_ptr, CA_PTR(ar->fa), CA_PTR(pg(ar, PG_EDGE2) + PAGE - 2));
	args = pg(ar, PG_ARGS) + PAGE - (c->usize <= PAGE ? c->usize : PAGE);
	memset(pg(ar, PG_ARGS), 0, PAGE);
	memcpy(args, ca, c->usize < sizeof(*ca) ? c->usize : sizeof(*ca));
	if (c->args_tail >= 0)
		args[c->args_tail] = 0x3c;
	c->args_addr = ptr_of(ar, c->args_ptr, CA_PTR(args), CA_PTR(args + 8));
	*ar->fa = SENTINEL;
	*ar->pidfd = PIDFD_UNSET;
}

/* ---- the oracle ---- */

/* Only for elements < count: the array ends at a PROT_NONE page. */
static bool readable(const struct call *c, uint64_t i)
{
	return c->arr_ptr == PTR_OK && i < c->count;
}

/*
 * The table's rows about the elements, in list order: the first element
 * with an error decides. Returns false when the list cannot pass.
 */
static bool expect_elements(const struct call *c, uint64_t nr, struct expect *x)
{
	bool exec_seen = false, after_final = false;

	for (uint64_t i = 0; i < nr; i++) {
		const struct clone_action *a = &c->elem[i];
		errset errs = ES_NONE, unknown = ES_NONE;
		bool exec = false, final = false;

		if (!readable(c, i)) {
			errs = ES(EFAULT);
		} else {
			exec = a->kind == CLONE_ACTION_EXECVEAT;
			final = exec && !(a->flags & CLONE_ACTION_F_EXEC_TRY_NEXT);
			if (c->tail[i] >= 0)
				errs = ES(E2BIG);
			errs = es_or(errs, element_errors(a, &unknown));
			if ((exec_seen && !exec) || (i == nr - 1 && !final))
				errs = es_or(errs, ES(EINVAL));
		}
		if (after_final) /* the first action after the final exec */
			errs = es_or(errs, ES(EINVAL));
		add_fail(x, (long long)i, es_or(errs, unknown));
		if (!es_empty(errs))
			return false;
		exec_seen |= exec;
		after_final = final;
	}
	return true;
}

/* what the actions may do when they run, on the model */
static void expect_run(const struct fuzzer *f, const struct call *c, struct expect *x)
{
	struct model m = { .ar = &f->ar, .cwd = T_DIR_WORK };
	/* a PATH search: where its first EACCES may be, whether there may be none */
	uint32_t eacces[MAX_ELEMS];
	int neacces = 0;
	bool no_eacces = true, searched = false;

	memcpy(m.fd, fd_template, sizeof(m.fd));
	m.policy = opt.policy;
	m.perms = c->ca.flags & CLONE_NEWUSER;
	m.newpid = c->ca.flags & CLONE_NEWPID;
	for (uint32_t i = 0; i < c->ca.nr_actions; i++) {
		const struct clone_action *a = &c->elem[i];
		const struct kind_row *row = find_kind(a->kind);
		struct step st = { ES_NONE, true, -1 };
		errset cont;

		if (row->run) {
			row->run(&m, a, &st);
		} else {
			st.errs = ES_ANY;
			m.perms = m.pg_unknown = true;
			m.policy = -2;
		}
		if (a->kind != CLONE_ACTION_EXECVEAT) {
			add_fail(x, i, st.errs);
			if (!st.ok)
				return;
			continue;
		}
		if (st.ok)
			add_success(x, st.status);
		cont = es_and(st.errs, ES_CONTINUE);
		add_fail(x, i, es_minus(st.errs, ES_CONTINUE));
		if (es_empty(cont))
			return;
		if (a->flags & CLONE_ACTION_F_EXEC_TRY_NEXT) {
			if (es_has(cont, EACCES) && no_eacces)
				eacces[neacces++] = i;
			if (es_empty(es_minus(cont, ES(EACCES))))
				no_eacces = false;
			searched = true;
			continue;
		}
		if (!searched) {
			add_fail(x, i, cont);
			return;
		}
		/* the last candidate failed too: the first EACCES, else ENOENT here */
		for (int j = 0; j < neacces; j++)
			add_fail(x, eacces[j], ES(EACCES));
		if (no_eacces && es_has(cont, EACCES))
			add_fail(x, i, ES(EACCES));
		if (no_eacces && (es_has(cont, ENOENT) || es_has(cont, ENOTDIR)))
			add_fail(x, i, ES(ENOENT));
		return;
	}
}

/*
 * Every outcome DESIGN.md allows for call c, in the order the checks are
 * documented: the struct itself (not written), the list's members without
 * CLONE_ACTIONS (E2BIG, not written), a short struct (EINVAL, not
 * written), failed_action (EFAULT), the errors of no action (index none),
 * the elements (their index), then the actions as they run.
 */
static void expect_call(const struct fuzzer *f, const struct call *c, struct expect *x)
{
	const struct clone_args *ca = &c->ca;
	uint64_t flags = ca->flags;
	errset e = ES_NONE;

	x->rule = R_STRUCT;
	x->nalt = 0;
	x->may_succeed = x->status_any = false;
	memset(x->status, 0, sizeof(x->status));
	if (c->usize > PAGE)
		e = ES(E2BIG);
	else if (c->usize < 64)
		e = ES(EINVAL);
	else if (c->args_ptr == PTR_STRADDLE)
		e = ES(straddled_struct_errno(sizeof(*ca), c->args_tail));
	else if (c->args_ptr != PTR_OK)
		e = ES(EFAULT);
	else if (c->args_tail >= 0)
		e = ES(E2BIG);
	if (!es_empty(e))
		return add_fail(x, IDX_NOT_WRITTEN, e);
	x->rule = R_NO_ACTIONS;
	if (!(flags & CLONE_ACTIONS))
		return add_fail(x, IDX_NOT_WRITTEN, ES(E2BIG));
	x->rule = R_BELOW_VER3;
	if (c->usize < sizeof(*ca))
		return add_fail(x, IDX_NOT_WRITTEN, ES(EINVAL));
	x->rule = R_FAILED_ACTION;
	if (c->fa_ptr != PTR_OK && c->fa_ptr != PTR_NULL)
		return add_fail(x, IDX_ANY, ES(EFAULT));

	if (c->set_tid || ca->set_tid_size || ca->exit_signal != SIGCHLD ||
	    (flags & ~ALLOWED_FLAGS) || c->stack || ca->stack_size ||
	    ((flags & CLONE_INTO_CGROUP) && ca->cgroup > INT_MAX) || !ca->nr_actions ||
	    ca->action_size < sizeof(struct clone_action) || ca->action_size % 8)
		e = ES(EINVAL);
	if (ca->nr_actions > CLONE_ACTIONS_MAX || ca->action_size > PAGE)
		e = es_or(e, ES(E2BIG));
	x->rule = R_NO_INDEX;
	if (!es_empty(e))
		return add_fail(x, IDX_NONE, e);

	x->rule = R_ELEMENT;
	if (!expect_elements(c, ca->nr_actions, x))
		return;
	x->rule = R_RUN;
	/* copy_process() may refuse some namespace and cgroup combinations */
	if ((flags & CLONE_INTO_CGROUP) ||
	    (flags & (CLONE_NEWIPC | CLONE_SYSVSEM)) == (CLONE_NEWIPC | CLONE_SYSVSEM))
		add_fail(x, IDX_NONE, ES_ANY);
	else if (flags & NS_FLAGS)
		add_fail(x, IDX_NONE, ES(ENOMEM, ENOSPC));
	if (flags & opt.no_ns)
		add_fail(x, IDX_NONE, ES(EINVAL));
	expect_run(f, c, x);
}

/* ---- printing ---- */

static const struct {
	uint64_t bit;
	const char *name;
} flag_names[] = {
	{ CLONE_ACTIONS, "ACTIONS" },	  { CLONE_PIDFD, "PIDFD" },
	{ CLONE_VM, "VM" },		  { CLONE_FS, "FS" },
	{ CLONE_FILES, "FILES" },	  { CLONE_SIGHAND, "SIGHAND" },
	{ CLONE_PTRACE, "PTRACE" },	  { CLONE_VFORK, "VFORK" },
	{ CLONE_PARENT, "PARENT" },	  { CLONE_THREAD, "THREAD" },
	{ CLONE_NEWNS, "NEWNS" },	  { CLONE_SYSVSEM, "SYSVSEM" },
	{ CLONE_SETTLS, "SETTLS" },	  { CLONE_PARENT_SETTID, "PARENT_SETTID" },
	{ CLONE_CHILD_CLEARTID, "CHILD_CLEARTID" }, { CLONE_DETACHED, "DETACHED" },
	{ CLONE_UNTRACED, "UNTRACED" },	  { CLONE_CHILD_SETTID, "CHILD_SETTID" },
	{ CLONE_NEWCGROUP, "NEWCGROUP" }, { CLONE_NEWUTS, "NEWUTS" },
	{ CLONE_NEWIPC, "NEWIPC" },	  { CLONE_NEWUSER, "NEWUSER" },
	{ CLONE_NEWPID, "NEWPID" },	  { CLONE_NEWNET, "NEWNET" },
	{ CLONE_IO, "IO" },		  { CLONE_CLEAR_SIGHAND, "CLEAR_SIGHAND" },
	{ CLONE_INTO_CGROUP, "INTO_CGROUP" }, { CLONE_NEWTIME, "NEWTIME" },
};

static void print_flags(FILE *out, uint64_t flags)
{
	const char *sep = "";

	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (flags & flag_names[i].bit) {
			fprintf(out, "%s%s", sep, flag_names[i].name);
			flags &= ~flag_names[i].bit;
			sep = "|";
		}
	if (flags || !*sep)
		fprintf(out, "%s%#" PRIx64, sep, flags);
}

static void print_value(FILE *out, const struct arena *ar, const struct field *f, uint64_t v)
{
	int id, k = 0;

	switch (f->type) {
	case F_PATH:
		id = classify_path(ar, v);
		if (id >= 0)
			fprintf(out, "%s", paths[id].name);
		else
			fprintf(out, "%#" PRIx64 "?", v);
		break;
	case F_ARGV:
	case F_ENVP:
		id = classify_strv(ar, v, &k);
		if (id == SV_TINY_K)
			fprintf(out, "{tiny,%d}", k);
		else if (id >= 0)
			fprintf(out, "%s", strv_names[id]);
		else
			fprintf(out, "%#" PRIx64 "?", v);
		break;
	case F_FD:
	case F_DIRFD:
	case F_PID:
	case F_PGID:
		if ((int32_t)v == AT_FDCWD && f->type == F_DIRFD)
			fprintf(out, "AT_FDCWD");
		else
			fprintf(out, "%d", (int32_t)v);
		break;
	case F_MODE:
	case F_UMASK:
		fprintf(out, "%#" PRIo64, v);
		break;
	default:
		fprintf(out, "%#" PRIx64, v);
	}
}

static void print_action(FILE *out, const struct arena *ar, uint32_t i, const struct clone_action *a,
			 int tail)
{
	const struct kind_row *row = find_kind(a->kind);

	fprintf(out, "    [%u] ", i);
	if (row)
		fprintf(out, "%s", row->name);
	else
		fprintf(out, "kind=%u", a->kind);
	if (a->flags == CLONE_ACTION_F_EXEC_TRY_NEXT)
		fprintf(out, " TRY_NEXT");
	else if (a->flags)
		fprintf(out, " action-flags=%#x", a->flags);
	for (const struct field *f = row ? row->fields : NULL; f && f->name; f++) {
		fprintf(out, " %s=", f->name);
		print_value(out, ar, f, get_field(a, f));
	}
	for (size_t b = row ? kind_used(row) : 8; b < sizeof(*a); b++)
		if (((const unsigned char *)a)[b])
			fprintf(out, " byte%zu=%#x", b, ((const unsigned char *)a)[b]);
	if (tail >= 0)
		fprintf(out, " tail-byte%d!=0", 64 + tail);
	fprintf(out, "\n");
}

static void print_call(FILE *out, const struct fuzzer *f, const struct call *c)
{
	const struct clone_args *ca = &c->ca;

	fprintf(out, "  clone3(args %s, size %zu%s): flags ", ptr_names[c->args_ptr], c->usize,
		c->args_tail >= 0 ? ", non-zero tail" : "");
	print_flags(out, ca->flags);
	fprintf(out, " exit_signal %#llx stack %s/%llu set_tid %s/%llu cgroup %llu\n",
		(unsigned long long)ca->exit_signal, c->stack ? "set" : "0",
		(unsigned long long)ca->stack_size, c->set_tid ? "set" : "0",
		(unsigned long long)ca->set_tid_size, (unsigned long long)ca->cgroup);
	fprintf(out, "  actions %s nr_actions %llu (%u built) action_size %llu failed_action %s\n",
		ptr_names[c->arr_ptr], (unsigned long long)ca->nr_actions, c->count,
		(unsigned long long)ca->action_size, ptr_names[c->fa_ptr]);
	for (uint32_t i = 0; i < c->count; i++)
		print_action(out, &f->ar, i, &c->elem[i], c->tail[i]);
}

static void print_expect(FILE *out, const struct expect *x)
{
	const char *sep = "";

	fprintf(out, "  expected: ");
	if (x->may_succeed) {
		fprintf(out, "success (exit");
		if (x->status_any)
			fprintf(out, " any");
		for (int s = 0; s < 256 && !x->status_any; s++)
			if (x->status[s])
				fprintf(out, " %d", s);
		fprintf(out, ")");
		sep = " or ";
	}
	for (int i = 0; i < x->nalt; i++) {
		fprintf(out, "%s", sep);
		print_errset(out, x->alt[i].errs);
		if (x->alt[i].idx == IDX_NOT_WRITTEN)
			fprintf(out, " with failed_action not written");
		else if (x->alt[i].idx == IDX_NONE)
			fprintf(out, " at index none");
		else if (x->alt[i].idx >= 0)
			fprintf(out, " at %lld", x->alt[i].idx);
		sep = " or ";
	}
	fprintf(out, "\n");
}

/* ---- checks ---- */

struct result {
	long ret;
	int err;
	bool fa_checked;
	uint32_t fa;
	int code, status; /* of a reaped child */
};

static void print_result(FILE *out, const struct call *c, const struct result *res)
{
	fprintf(out, "  got: ");
	if (res->ret > 0)
		fprintf(out, "pid %ld (%s %d)", res->ret,
			res->code == CLD_EXITED ? "exit" : res->code == CLD_KILLED ? "signal" : "code",
			res->status);
	else
		fprintf(out, "%s", strerrorname_np(res->err) ? strerrorname_np(res->err) : "?");
	if (!res->fa_checked)
		fprintf(out, ", failed_action %s\n", c->fa_ptr == PTR_NULL ? "NULL" : "not readable");
	else if (res->fa == SENTINEL)
		fprintf(out, ", failed_action not written\n");
	else if (res->fa == CLONE_ACTION_NO_INDEX)
		fprintf(out, ", failed_action none\n");
	else
		fprintf(out, ", failed_action %u\n", res->fa);
}

static void violation(const struct fuzzer *f, const struct result *res, const char *fmt, ...)
{
	long n = violation_begin(f ? f->call.no : -1, f ? f->id : -1);
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (f && !fz.print && n <= DETAILED_VIOLATIONS) { /* --print shows every call anyway */
		print_call(stdout, f, &f->call);
		print_expect(stdout, &f->x);
		if (res)
			print_result(stdout, &f->call, res);
		printf("  replay: %s --seed %#" PRIx64 " --replay %lld\n",
		       program_invocation_name, fz.seed, f->call.no);
	} else if (f && res && !fz.print) {
		print_expect(stdout, &f->x);
		print_result(stdout, &f->call, res);
	}
	violation_end();
}

static bool matches(const struct expect *x, const struct result *res)
{
	for (int i = 0; i < x->nalt; i++) {
		const struct alt *a = &x->alt[i];
		bool idx_ok = !res->fa_checked || a->idx == IDX_ANY ||
			      (a->idx == IDX_NOT_WRITTEN ? res->fa == SENTINEL
							 : res->fa == (uint32_t)a->idx);

		if (es_has(a->errs, res->err) && idx_ok)
			return true;
	}
	return false;
}

/* waits for pid to exit (up to REAP_TIMEOUT_MS), reaps it; false on timeout */
static bool reap(pid_t pid, int pidfd, struct result *res)
{
	siginfo_t si;
	bool exited = reap_child(pid, pidfd, REAP_TIMEOUT_MS, &si);

	res->code = si.si_code;
	res->status = si.si_status;
	return exited;
}

/* checks the outcome of a success; the child is reaped */
static void check_success(struct fuzzer *f, struct result *res)
{
	const struct call *c = &f->call;
	const struct expect *x = &f->x;
	int pidfd = -1, named = -1;
	pid_t pid = (pid_t)res->ret;

	if (!fz_single)
		live_set(0, pid);
	if (c->ca.flags & CLONE_PIDFD) {
		pidfd = *f->ar.pidfd;
		if (pidfd >= 0 && pidfd < TBL && !f->before.open[pidfd])
			named = pidfd_pid(pidfd);
		else
			pidfd = -1;
		if (named != pid)
			violation(f, res, "invariant 5: the pidfd %d names pid %d, not %d",
				  *f->ar.pidfd, named, pid);
	} else if (*f->ar.pidfd != PIDFD_UNSET) {
		violation(f, res, "invariant 1: a pidfd (%d) without CLONE_PIDFD", *f->ar.pidfd);
	}
	if (!reap(pid, named == pid ? pidfd : -1, res))
		violation(f, res, "invariant 5: the child did not exit within %d ms", REAP_TIMEOUT_MS);
	if (!fz_single)
		live_set(pid, 0);
	if (pidfd >= 0)
		close(pidfd);
	if (!x->may_succeed)
		violation(f, res, "invariant 4: the call succeeded");
	else if (res->code != CLD_EXITED || (!x->status_any && !x->status[res->status & 0xff]))
		violation(f, res, "invariant 5: the child did not exit with the expected status");
	else if (res->fa_checked && res->fa != CLONE_ACTION_NO_INDEX)
		violation(f, res, "invariant 5: failed_action is %#x after a success", res->fa);
}

static void one_call(struct fuzzer *f, long long no)
{
	struct call *c = &f->call;
	struct result res = { 0 };
	char why[PATH_MAX * 2 + 200];
	int broken;

	gen_call(&f->ar, no, c);
	place(&f->ar, c);
	expect_call(f, c, &f->x);
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		printf("call %lld (thread %d, %s):\n", no, f->id, phase);
		print_call(stdout, f, c);
		print_expect(stdout, &f->x);
		pthread_mutex_unlock(&out_lock);
	}
	res.ret = syscall(__NR_clone3, c->args_addr, c->usize);
	res.err = errno;
	if (res.ret == 0) /* a plain clone3() child, if the kernel made one */
		syscall(SYS_exit_group, 0);
	res.fa_checked = c->fa_ptr == PTR_OK;
	res.fa = res.fa_checked ? *(volatile uint32_t *)f->ar.fa : 0;
	if (*(volatile uint32_t *)pg(&f->ar, PG_RO))
		violation(f, &res, "invariant 4: the read-only failed_action changed");
	atomic_fetch_add(&n_calls, 1);
	atomic_fetch_add(&n_rule[f->x.rule], 1);
	if (res.ret > 0) {
		atomic_fetch_add(&n_ok, 1);
		check_success(f, &res);
	} else {
		atomic_fetch_add(&n_fail, 1);
		count_errno(res.err);
		if (!matches(&f->x, &res))
			violation(f, &res, "invariant 4: errno/index not allowed");
	}
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		print_result(stdout, c, &res);
		pthread_mutex_unlock(&out_lock);
	}
	take_state(&f->now);
	if ((broken = state_diff(&f->before, &f->now, why, sizeof(why))))
		violation(f, &res, "invariant %d: %s", broken, why);
	if (dispositions_diff(why, sizeof(why)))
		violation(f, &res, "invariant 3: %s", why);
	if (fz_single && children(why, sizeof(why), no % PROC_SCAN_EVERY == 0 || fz.replay >= 0))
		violation(f, &res, "invariant 2: %s", why);
}

/* ---- setup ---- */

static char *put_str(char **text, const char *s)
{
	char *at = *text;

	strcpy(at, s);
	*text += strlen(s) + 1;
	return at;
}

static void arena_init(struct arena *ar)
{
	char *text, *k_str[256], *tiny_str, *end;
	uint64_t *v;
	char buf[PATH_MAX + 16];

	ar->base = mmap(NULL, (size_t)ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ar->base == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	text = pg(ar, PG_TEXT);
#define PATH_AT(id, s) (ar->path[id] = CA_PTR(put_str(&text, s)))
	PATH_AT(P_TINY, opt.tiny);
	snprintf(buf, sizeof(buf), "%s/link", opt.work);
	PATH_AT(P_LINK, buf);
	snprintf(buf, sizeof(buf), "%s/noexec", opt.work);
	PATH_AT(P_NOEXEC, buf);
	PATH_AT(P_TESTS, opt.tests);
	PATH_AT(P_WORK, opt.work);
	snprintf(buf, sizeof(buf), "%s/sub", opt.work);
	PATH_AT(P_SUB, buf);
	PATH_AT(P_ROOT, "/");
	PATH_AT(P_MISSING, "/nonexistent-clone-actions-fuzz/x");
	snprintf(buf, sizeof(buf), "%s/x", opt.tiny);
	PATH_AT(P_NOTDIR, buf);
	snprintf(buf, sizeof(buf), "%s/new", opt.work);
	PATH_AT(P_NEW, buf);
	ar->path[P_TOOLONG] = CA_PTR(text);
	*text++ = '/';
	for (int i = 0; i < 2100; i++, text += 2)
		memcpy(text, "./", 2);
	*text++ = '\0';
	ar->path[P_LONGNAME] = CA_PTR(text);
	*text++ = '/';
	memset(text, 'n', 300);
	text += 300;
	*text++ = '\0';
	PATH_AT(P_EMPTY, "");
	for (int id = P_REL_TINY; id <= P_REL_NEW; id++)
		PATH_AT(id, paths[id].rel);
#undef PATH_AT
	end = pg(ar, PG_EDGE0) + PAGE;
	memcpy(end - 8, "/fuzzstr", 8); /* no NUL before the PROT_NONE page */
	ar->path[P_STRADDLE] = CA_PTR(end - 8);
	ar->path[P_NULL] = 0;
	ar->path[P_LOW] = LOW_ADDR;
	ar->path[P_KERNEL] = KERNEL_ADDR;
	ar->path[P_NONCANONICAL] = NONCANONICAL;
	ar->path[P_GUARD] = CA_PTR(end);

	tiny_str = put_str(&text, "tiny");
	for (int k = 0; k < 256; k++) {
		snprintf(buf, sizeof(buf), "%d", k);
		k_str[k] = put_str(&text, buf);
	}
	v = (uint64_t *)pg(ar, PG_STRV);
	ar->tiny_k = CA_PTR(v);
	for (int k = 0; k < 256; k++, v += 3) {
		v[0] = CA_PTR(tiny_str);
		v[1] = CA_PTR(k_str[k]);
		v[2] = 0;
	}
#define STRV(id, ...)                                                  \
	do {                                                           \
		const uint64_t init_[] = { __VA_ARGS__, 0 };           \
		ar->strv[id] = CA_PTR(v);                              \
		memcpy(v, init_, sizeof(init_));                       \
		v += ARRAY_SIZE(init_);                                \
	} while (0)
	STRV(SV_LONG, CA_PTR(tiny_str), CA_PTR(k_str[7]), CA_PTR(put_str(&text, "x")),
	     CA_PTR(put_str(&text, "y")));
	ar->strv[SV_EMPTY] = CA_PTR(v);
	*v++ = 0;
	STRV(SV_SOME, CA_PTR(put_str(&text, "FUZZ=1")));
	STRV(SV_BADSTR, CA_PTR(tiny_str), KERNEL_ADDR);
	STRV(SV_STRADDLE_STR, CA_PTR(tiny_str), ar->path[P_STRADDLE]);
#undef STRV
	end = pg(ar, PG_EDGE1) + PAGE;
	*(uint64_t *)(end - 8) = CA_PTR(tiny_str); /* and no NULL before PROT_NONE */
	ar->strv[SV_STRADDLE_ARRAY] = CA_PTR(end - 8);
	ar->strv[SV_NULL] = 0;
	ar->strv[SV_KERNEL] = KERNEL_ADDR;
	ar->strv[SV_GUARD] = CA_PTR(end);
	if (text > pg(ar, PG_STRV) || (char *)v > pg(ar, PG_EDGE0))
		die("arena text overflow");

	ar->fa = (uint32_t *)pg(ar, PG_MISC);
	ar->pidfd = (int *)(pg(ar, PG_MISC) + 64);
	ar->tids = (pid_t *)(pg(ar, PG_MISC) + 128);
	ar->set_tid = (pid_t *)(pg(ar, PG_MISC) + 256);
	ar->acts_end = pg(ar, PG_ACTS + ACT_PAGES);
	if (mprotect(pg(ar, PG_EDGE0 + 1), PAGE, PROT_NONE) ||
	    mprotect(pg(ar, PG_EDGE1 + 1), PAGE, PROT_NONE) ||
	    mprotect(pg(ar, PG_EDGE2 + 1), PAGE, PROT_NONE) ||
	    mprotect(pg(ar, PG_RO), PAGE, PROT_READ) ||
	    mprotect(pg(ar, PG_ARGS + 1), PAGE, PROT_NONE) ||
	    mprotect(ar->acts_end, PAGE, PROT_NONE))
		die("mprotect: %s", strerror(errno));
}

/* the descriptors every fuzzing thread has: fd_template says what they are */
static void fd_setup(void)
{
	static const struct {
		const char *path;
		int flags, fd;
	} fds[] = {
		{ opt.tests, O_RDONLY | O_DIRECTORY, 3 },
		{ opt.tiny, O_RDONLY, 4 },
		{ opt.work, O_PATH | O_DIRECTORY, 5 },
		{ NULL, O_RDONLY, 6 }, /* work/noexec */
		{ "/", O_RDONLY | O_DIRECTORY, NOFILE - 1 },
	};
	char noexec[PATH_MAX + 16];

	snprintf(noexec, sizeof(noexec), "%s/noexec", opt.work);
	if (syscall(SYS_close_range, 3, ~0U, 0))
		die("close_range: %s", strerror(errno));
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		int fd = open(fds[i].path ? fds[i].path : noexec, fds[i].flags | O_CLOEXEC);

		if (fd >= 0 && fd != fds[i].fd) {
			if (dup3(fd, fds[i].fd, O_CLOEXEC) < 0)
				die("dup3 to %d: %s", fds[i].fd, strerror(errno));
			close(fd);
		} else if (fd < 0) {
			die("open %s: %s", fds[i].path ? fds[i].path : noexec, strerror(errno));
		}
	}
}

static void thread_setup(struct fuzzer *f)
{
	if (unshare(CLONE_FILES | CLONE_FS))
		die("unshare: %s", strerror(errno));
	fd_setup();
	fuzz_thread_state(opt.work, &f->before);
}

static struct fuzzer *fuzzers[MAX_THREADS];

static void hook_setup(int thread)
{
	thread_setup(fuzzers[thread]);
}

static void hook_one(int thread, long long no)
{
	one_call(fuzzers[thread], no);
}

/* the model's assumptions about the file system, checked once */
static void check_layout(void)
{
	static const struct {
		const char *dir;
		int t;
	} dirs[] = { { "/", T_DIR_ROOT }, { opt.tests, T_DIR_TESTS }, { opt.work, T_DIR_WORK } };
	const char *names[] = { "tiny", "noexec", "link", "sub" };
	char path[PATH_MAX * 2];
	struct stat st;

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++)
		for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
			int t = lookup(names[n], dirs[d].t);
			bool exists;

			snprintf(path, sizeof(path), "%s/%s", dirs[d].dir, names[n]);
			exists = !lstat(path, &st);
			if (exists != (t != T_MISSING))
				die("%s %s, which the model does not expect", path,
				    exists ? "exists" : "is missing");
		}
	snprintf(path, sizeof(path), "%s/sub", opt.work);
	for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
		snprintf(path, sizeof(path), "%s/sub/%s", opt.work, names[n]);
		if (!lstat(path, &st))
			die("%s exists, which the model does not expect", path);
	}
	if (stat(opt.tiny, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 0111) != 0111)
		die("%s is not a program everyone may run (--exec)", opt.tiny);
	if (!lstat("/nonexistent-clone-actions-fuzz", &st))
		die("/nonexistent-clone-actions-fuzz exists");
}

static void remove_work_dir(void)
{
	const char *const files[] = { "noexec", "link", "new", "sub/new" };
	char path[PATH_MAX * 2];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", opt.work, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/new", opt.tests);
	unlink(path);
	unlink("/new");
	snprintf(path, sizeof(path), "%s/sub", opt.work);
	rmdir(path);
	rmdir(opt.work);
}

static const struct {
	uint64_t flag;
	const char *name;
} namespaces[] = {
	{ CLONE_NEWNS, "mnt" },	      { CLONE_NEWUTS, "uts" },   { CLONE_NEWIPC, "ipc" },
	{ CLONE_NEWPID, "pid" },      { CLONE_NEWUSER, "user" }, { CLONE_NEWCGROUP, "cgroup" },
	{ CLONE_NEWTIME, "time" },    { CLONE_NEWNET, "net" },
};

static void setup(void)
{
	struct rlimit rl;
	struct stat st;
	char *slash;
	int tty;

	opt.pid = getpid();
	opt.pgrp = getpgrp();
	opt.sid = getsid(0);
	if (!*opt.tiny) {
		ssize_t n = readlink("/proc/self/exe", opt.tiny, sizeof(opt.tiny) - 8);

		if (n <= 0)
			die("readlink /proc/self/exe: %s", strerror(errno));
		opt.tiny[n] = '\0';
		strcpy(strrchr(opt.tiny, '/') + 1, "tiny");
	} else if (opt.tiny[0] != '/') {
		die("--exec needs an absolute path");
	}
	snprintf(opt.tests, sizeof(opt.tests), "%s", opt.tiny);
	slash = strrchr(opt.tests, '/');
	if (slash == opt.tests)
		die("put tiny in a directory other than /");
	*slash = '\0';
	if (strcmp(slash + 1, "tiny"))
		die("the program to exec must be called tiny (the model looks it up by name)");

	/* the limit the model works with: fds 1023 open, 1024 beyond it */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max < NOFILE)
		die("RLIMIT_NOFILE's hard limit is below %d", NOFILE);
	rl.rlim_cur = NOFILE;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit: %s", strerror(errno));
	opt.nofile = NOFILE;
	fuzz_process_setup();

	fuzz_work_dir("clone-actions-fuzz", opt.tiny, opt.work);
	check_layout();
	for (size_t i = 0; i < ARRAY_SIZE(namespaces); i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/ns/%s", namespaces[i].name);
		if (access(path, F_OK))
			opt.no_ns |= namespaces[i].flag;
	}
	for (int fd = 0; fd < TBL; fd++)
		fd_template[fd] = (struct fdm){ .st = FD_CLOSED, .t = T_UNKNOWN };
	for (int fd = 0; fd < 3; fd++) { /* a terminal, pipe or log file: not a program, not a dir */
		bool plain = !fstat(fd, &st) && !S_ISDIR(st.st_mode) &&
			     !(S_ISREG(st.st_mode) && (st.st_mode & 0111));

		fd_template[fd] = (struct fdm){ .st = FD_OPEN, .t = plain ? T_FILE : T_UNKNOWN };
	}
	fd_template[3] = (struct fdm){ .st = FD_OPEN, .t = T_DIR_TESTS };
	fd_template[4] = (struct fdm){ .st = FD_OPEN, .t = T_TINY };
	fd_template[5] = (struct fdm){ .st = FD_OPEN, .t = T_DIR_WORK, .opath = true };
	fd_template[6] = (struct fdm){ .st = FD_OPEN, .t = T_FILE };
	fd_template[NOFILE - 1] = (struct fdm){ .st = FD_OPEN, .t = T_DIR_ROOT };

	opt.policy = sched_getscheduler(0);
	tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (tty >= 0) { /* a session leader would hang up its session: keep it, and no TCSETPGRP */
		opt.ctty = getsid(0) == getpid() || ioctl(tty, TIOCNOTTY) != 0;
		close(tty);
	}

	for (int i = 0; i < MAX_THREADS; i++) {
		fuzzers[i] = calloc(1, sizeof(*fuzzers[i]));
		if (!fuzzers[i])
			die("out of memory");
		fuzzers[i]->id = i;
		arena_init(&fuzzers[i]->ar);
	}
}

static void summary(double seconds)
{
	printf("clone-actions-fuzz: seed %#" PRIx64 ", %ld calls in %.1f s: %ld succeeded, %ld failed (",
	       fz.seed, atomic_load(&n_calls), seconds, atomic_load(&n_ok), atomic_load(&n_fail));
	print_errno_counts();
	printf(")\ndecided by: ");
	for (int r = 0; r < NRULES; r++)
		printf("%s%s %ld", r ? ", " : "", rule_names[r], atomic_load(&n_rule[r]));
	printf("\n");
}

int main(int argc, char **argv)
{
	fz.name = "clone-actions-fuzz";
	fz.unit = "call";
	fuzz_parse(argc, argv);
	if (fz.exec)
		snprintf(opt.tiny, sizeof(opt.tiny), "%s", fz.exec);
	setup();
	printf("clone-actions-fuzz: seed %#" PRIx64 " (--seed %#" PRIx64 " repeats this run, "
	       "--replay N one call); exec %s; work %s\n",
	       fz.seed, fz.seed, opt.tiny, opt.work);
	fz_hooks.setup = hook_setup;
	fz_hooks.one = hook_one;
	return fuzz_run(remove_work_dir, summary);
}
