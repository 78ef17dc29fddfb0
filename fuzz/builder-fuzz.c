/*
 * builder-fuzz: a seeded fuzzer of series-builder's process builder,
 * spawn_open(), spawn_config() and spawn_commit().
 *
 * Usage: builder-fuzz [--seconds N] [--calls N] [--seed S]
 *            [--mode single|threads|storm|all] [--threads N] [--exec PATH]
 *            [--replay N] [--print]
 *
 * One numbered step is one builder's life, built from the seed and the
 * step's number alone (its own PRNG stream), so `--seed S --replay N`
 * repeats step N and `--seed S --calls N --mode single` the first N steps:
 *   - spawn_open() with the flags mostly valid (CLOEXEC, INHERIT_FDS),
 *     sometimes unknown (then every later call names a closed fd);
 *   - sometimes the write end of a pipe, the sentinel, installed in the
 *     builder's table and closed in the caller;
 *   - up to 12 spawn_config() calls (sometimes 60-72 of the settings the
 *     child applies, past the limit of 64) of every operation, 0 and
 *     unknown ones too, with values biased toward edge cases; arguments
 *     shorter than VER0, at it, longer with a zero or a non-zero tail,
 *     longer than a page; NULL, kernel-address and straddling pointers;
 *     a builder fd that is closed, not a builder or O_PATH;
 *   - usually SPAWN_EXEC of `probe` or `tiny` (next to this binary; --exec
 *     names tiny), by path, dirfd, AT_EMPTY_PATH, symlink or a PATH search
 *     (a failing one first, now and then), which seals the builder;
 *   - then up to 6 commits (sometimes 20-30) of that one builder, each with
 *     its own argv, envp, fds and flags (PIDFD, CONSUME on the last one
 *     now and then, unknown bits), sizes, pointers and fds valid or not,
 *     mixed with config calls (EBUSY: sealed or spent) and read(), write(),
 *     ioctl() and pidfd calls on the builder, and a close() of the builder
 *     before the end now and then;
 *   - any call now and then made from another thread of the caller (same
 *     fd table), from a forked child (the inherited builder), or from a
 *     forked child with other credentials (setresuid to 65534 as root,
 *     else a new user namespace: EPERM);
 *   - close().
 * Every commit passes the write end of a pipe, last in its fds, onto a
 * target that probe's argv[1] names: `probe FD` reports its argv, env,
 * cwd, umask, blocked and ignored signals, ids, scheduling and fds
 * (common-tests/programs/probe.c); `tiny K` exits K.
 *
 * Before each call a model predicts every outcome that kernel/spawn.c
 * allows, on a model of the builder (its fd table, cwd, umask, signal
 * mask and defaults, environment, program, sealed and spent, settings
 * and their index, the settings the child applies and in what order)
 * and of the caller's fd table. After each call it checks:
 *   1. the errno is one that docs/spawn_open.2, spawn_config.2 (for the
 *      operation, with the errors of the call it stands for) or
 *      spawn_commit.2 (for the failed step, with the errors of a failed
 *      setting's call) document;
 *   2. the errno, and for a commit the failure record ({step, index}, or
 *      untouched), is one the model predicts; a config call's return is
 *      the setting's index; /proc/self/fdinfo of the builder says the
 *      flags, settings, sealed and spent the model has;
 *   3. the caller's fd table, cwd, umask, signal mask, signal
 *      dispositions, process group, session and ids are unchanged (a
 *      commit's pidfd, which must name its child, is closed first);
 *   4. no child is left by a failed commit: none at all in single mode
 *      (waitid() after every call, /proc after every failed commit); in
 *      the threaded modes a waiter thread must never see an exited child
 *      that no call returned, and none is left when a phase ends;
 *   5. a successful commit's child runs as configured: tiny exits with
 *      its argv[1]; probe exits 0 and reports the argv and environment
 *      of the commit (or SPAWN_ENV's), the model's cwd, umask, signal
 *      mask (SPAWN_SIGMASK's or the committing thread's), ignored signals
 *      (the caller's less SPAWN_SIGDEFAULT's), its pid, the committer as
 *      parent, the session and group, the caller's ids and the
 *      scheduling of the settings, and exactly the fds of the builder's
 *      table, after the commit's fds and the exec, with their files; an
 *      AUTOREAP child is never waitable and leaves no zombie;
 *   6. closing the builder leaves nothing: once its children are reaped,
 *      the sentinel's read end sees end of file (nothing holds the write
 *      end the builder had); and at the end of the run, as root, the
 *      spawn_builder slab holds no more objects than at its start (after
 *      a shrink, 100 of slack).
 * Signals 32 and 33 (glibc's) are left out of the signal checks. Each
 * fuzzing thread has a file table and fs_struct of its own
 * (unshare(CLONE_FILES | CLONE_FS)) with the same descriptors, which it
 * checks against the model's (open or not, close-on-exec), so a step
 * behaves the same in any thread and in a replay.
 *
 * Modes (--mode all, the default, gives each a third of the time):
 *   single   one thread
 *   threads  --threads (4) fuzzing threads and the waiter thread
 *   storm    the same and a thread that sends SIGUSR1 storms to the process
 * A violation prints the seed, the step and the call, with the step's
 * calls so far; `--seed S --replay N` runs step N again alone and prints
 * each call, what the model allowed and what happened. The run ends with a
 * summary and exits 1 on any violation, 2 on a setup error, 77 when the
 * kernel has no process builder (ENOSYS, or number 463 is another call):
 * it never passes there.
 *
 * The PRNG, state snapshots, child checks, options and phases are
 * fuzz/fuzz.h, shared with the other fuzzers. Built by fuzz/fuzz.mk
 * (static, against series-builder's uapi).
 */
#include "../abi/builder-spawn.h"
#include "fuzz.h"

#include <linux/close_range.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

#define PAGE 4096
/* the fds the model covers; RLIMIT_NOFILE is set below it */
#define TBL FUZZ_FDS
#define NOFILE 1024
#define KERNEL_ADDR 0xffffffff81000000ULL
#define SENTINEL 0xa5a5a5a5U
#define PIDFD_UNSET (-7)
#define REAP_TIMEOUT_MS 30000
#define DETAILED_VIOLATIONS 20
/* single mode scans /proc for hidden children every this many steps */
#define PROC_SCAN_EVERY 8
/* the settings a child applies, at most (kernel/spawn.c, spawn_config.2's E2BIG) */
#define CHILD_SETTINGS_MAX 64
#define MAX_CALLS 128
#define MAX_ENTRIES 8
/* more than MAX_ARG_STRLEN (32 pages): E2BIG wherever a string is copied */
#define BIG_STRING 140000
#define SIG(s) (1ULL << ((s) - 1))
/* glibc's own signals: probe's libc may block or hide them */
#define GLIBC_SIGS (SIG(32) | SIG(33))
#define KILLSTOP (SIG(SIGKILL) | SIG(SIGSTOP))

/* the kernel's open flag bits (x86-64) that glibc spells otherwise */
#define K_O_LARGEFILE 0100000ULL
#define K_O_TMPFILE_BIT 020000000ULL
#define K_O_SYNC_BIT 04000000ULL
#define VALID_OPEN_FLAGS                                                                    \
	((uint64_t)(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | \
		    O_DSYNC | O_ASYNC | O_DIRECT | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |        \
		    O_CLOEXEC | O_PATH) |                                                        \
	 K_O_LARGEFILE | K_O_TMPFILE_BIT | K_O_SYNC_BIT)
#define O_PATH_FLAGS ((uint64_t)(O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC))
#define VALID_RESOLVE                                                                  \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
	 RESOLVE_IN_ROOT | RESOLVE_CACHED)

/* what a path lookup may answer when the model does not know the target */
#define ES_PATH ES(EACCES, EBADF, EFAULT, ELOOP, ENAMETOOLONG, ENOENT, ENOTDIR, ENOMEM)
#define ES_OPEN                                                                           \
	es_or(ES_PATH, ES(EEXIST, EINVAL, EISDIR, EMFILE, ENFILE, ENODEV, ENOSPC, ENXIO,     \
			  EOPNOTSUPP, EOVERFLOW, EPERM, EROFS, ETXTBSY, EAGAIN, EFBIG, EXDEV))

/* ---- the caller's descriptors: every fuzzing thread has these ---- */

enum {
	FD_TESTS = 3,	/* tiny's and probe's directory, O_RDONLY */
	FD_TINY,	/* tiny, O_RDONLY */
	FD_WORK,	/* the work directory, O_PATH */
	FD_NOEXEC,	/* work/noexec, O_RDONLY */
	FD_PROBE,	/* probe, O_PATH */
	FD_NULL,	/* /dev/null, O_RDWR */
	FD_PTY,		/* a pseudo-terminal's slave (else /dev/null) */
	FD_PTMX,	/* its master (else /dev/null); never named in a call */
	FD_CGROUP,	/* the caller's cgroup2 directory (else /dev/null) */
	FD_FIRST_FREE,	/* spawn_open()'s fd */
	/* what a step makes, moved out of the way of the builder's fd */
	FD_REPORT_R = 900, FD_REPORT_W, FD_SENT_R, FD_SENT_W, FD_RESULT_R, FD_RESULT_W,
	FD_ROOT = NOFILE - 1, /* "/", O_RDONLY */
};

/* what a descriptor or a name refers to */
enum obj {
	OB_NONE, OB_STD0, OB_STD1, OB_STD2, OB_TESTS, OB_TINY, OB_PROBE, OB_WORK, OB_NOEXEC,
	OB_NULL, OB_PTY, OB_PTMX, OB_CGROUP, OB_ROOT, OB_SUB, OB_NEW, OB_LINK, OB_SENTINEL,
	OB_REPORT, OB_BUILDER,
	/* lookups only */
	OB_MISSING, OB_NOTDIR,
	OB_UNKNOWN, NOBJ
};

static const char *const obj_names[NOBJ] = {
	"closed", "stdin", "stdout", "stderr", "tests", "tiny", "probe", "work", "noexec",
	"/dev/null", "pty", "ptmx", "cgroup", "/", "sub", "new", "link", "sentinel", "report",
	"builder", "missing", "not-a-dir", "unknown",
};

static bool is_dir(int o)
{
	return o == OB_TESTS || o == OB_WORK || o == OB_ROOT || o == OB_SUB || o == OB_CGROUP;
}

/* ---- paths and string vectors that calls point to ---- */

enum path_id {
	P_TINY, P_PROBE, P_LINK, P_NOEXEC, P_TESTS, P_WORK, P_SUB, P_ROOT, P_NULL_DEV,
	P_MISSING, P_NOTDIR, P_NEW, P_REL_TINY, P_REL_PROBE, P_REL_LINK, P_REL_NOEXEC,
	P_REL_SUB, P_REL_DOT, P_REL_NEW, P_REL_MISSING, P_EMPTY, P_TOOLONG, P_LONGNAME,
	P_NULL, P_KERNEL, P_STRADDLE, P_GUARD, NPATHS
};

static const struct path_row paths[NPATHS] = {
	[P_TINY] = { "abs-tiny", PK_ABS, OB_TINY, NULL },
	[P_PROBE] = { "abs-probe", PK_ABS, OB_PROBE, NULL },
	[P_LINK] = { "abs-link", PK_ABS, OB_LINK, NULL },
	[P_NOEXEC] = { "abs-noexec", PK_ABS, OB_NOEXEC, NULL },
	[P_TESTS] = { "abs-tests", PK_ABS, OB_TESTS, NULL },
	[P_WORK] = { "abs-work", PK_ABS, OB_WORK, NULL },
	[P_SUB] = { "abs-sub", PK_ABS, OB_SUB, NULL },
	[P_ROOT] = { "/", PK_ABS, OB_ROOT, NULL },
	[P_NULL_DEV] = { "/dev/null", PK_ABS, OB_NULL, NULL },
	[P_MISSING] = { "abs-missing", PK_ABS, OB_MISSING, NULL },
	[P_NOTDIR] = { "abs-tiny/x", PK_ABS, OB_NOTDIR, NULL },
	[P_NEW] = { "abs-new", PK_ABS, OB_NEW, NULL },
	[P_REL_TINY] = { "tiny", PK_REL, 0, "tiny" },
	[P_REL_PROBE] = { "probe", PK_REL, 0, "probe" },
	[P_REL_LINK] = { "link", PK_REL, 0, "link" },
	[P_REL_NOEXEC] = { "noexec", PK_REL, 0, "noexec" },
	[P_REL_SUB] = { "sub", PK_REL, 0, "sub" },
	[P_REL_DOT] = { ".", PK_REL, 0, "." },
	[P_REL_NEW] = { "new", PK_REL, 0, "new" },
	[P_REL_MISSING] = { "missing", PK_REL, 0, "missing" },
	[P_EMPTY] = { "\"\"", PK_EMPTY, 0, NULL },
	[P_TOOLONG] = { "too-long", PK_TOOLONG, 0, NULL },
	[P_LONGNAME] = { "long-name", PK_TOOLONG, 0, NULL },
	[P_NULL] = { "NULL", PK_FAULT, 0, NULL },
	[P_KERNEL] = { "kernel-address", PK_FAULT, 0, NULL },
	[P_STRADDLE] = { "straddling", PK_FAULT, 0, NULL },
	[P_GUARD] = { "PROT_NONE", PK_FAULT, 0, NULL },
};

/* The target of relative name @rel in directory @dir (check_layout() verifies it). */
static int lookup(const char *rel, int dir)
{
	if (!strcmp(rel, "."))
		return dir;
	if (!strcmp(rel, "new"))
		return OB_NEW; /* made by an open with O_CREAT, in any directory */
	if (dir == OB_TESTS && !strcmp(rel, "tiny"))
		return OB_TINY;
	if (dir == OB_TESTS && !strcmp(rel, "probe"))
		return OB_PROBE;
	if (dir == OB_WORK && !strcmp(rel, "noexec"))
		return OB_NOEXEC;
	if (dir == OB_WORK && !strcmp(rel, "link"))
		return OB_LINK;
	if (dir == OB_WORK && !strcmp(rel, "sub"))
		return OB_SUB;
	return OB_MISSING;
}

/* a PATH search's entries, joined with ':' into SPAWN_EXEC's search */
enum entry_id { E_TESTS, E_WORK, E_SUB, E_MISSING, E_NOTDIR, E_EMPTY, E_REL_SUB, E_ROOT,
		E_TOOLONG, NENTRIES };
static const char *const entry_names[NENTRIES] = {
	"tests", "work", "sub", "missing", "noexec", "(empty)", "rel-sub", "/", "too-long",
};

/* string vectors: SPAWN_ENV's, a commit's envp (EV_BUILDER: 0) */
enum strv_id { SV_EMPTY, SV_SOME, SV_OTHER, SV_NULL, SV_BIG, SV_BADSTR, SV_STRADDLE_STR,
	       SV_STRADDLE_ARRAY, SV_KERNEL, NSTRV };
#define EV_BUILDER NSTRV
static const char *const strv_names[NSTRV + 1] = {
	"{}", "{FUZZ=1,B=2}", "{ENV2=x}", "NULL", "{big}", "{A=1,kernel-address}",
	"{straddling-string}", "straddling-array", "kernel-address", "0 (the builder's)",
};
static const char *const strv_some[] = { "FUZZ=1", "B=2", NULL };
static const char *const strv_other[] = { "ENV2=x", NULL };

/* a commit's argv: the program's (tiny K, or probe FD TOKEN), or another */
enum argv_id { AV_PROG, AV_EMPTY, AV_NULL, AV_BIG, AV_BADSTR, AV_STRADDLE_STR,
	       AV_STRADDLE_ARRAY, AV_KERNEL, NARGV };
static const char *const argv_names[NARGV] = {
	"program's", "{}", "NULL", "{tiny,big}", "{tiny,kernel-address}", "{straddling-string}",
	"straddling-array", "kernel-address",
};

/* a pointer: valid, or not */
enum { PTR_OK, PTR_NULL, PTR_KERNEL, PTR_STRADDLE, PTR_RO };
static const char *const ptr_names[] = { "ok", "NULL", "kernel-address", "straddling",
					 "read-only" };

/* ---- per-thread memory ---- */

/* page layout of an arena */
enum {
	PG_TEXT = 0,	/* 6 pages of strings and vectors made once */
	PG_SCRATCH = 6,	/* 3 pages of what a call needs (search, argv, envp) */
	PG_EDGE0 = 9,	/* a straddling string at its end; 10 is PROT_NONE */
	PG_EDGE1 = 11,	/* a straddling pointer array; 12 is PROT_NONE */
	PG_RO = 13,	/* read-only */
	PG_MISC = 14,	/* the failure record, the pidfd */
	PG_ARG = 15,	/* a call's struct at its end; 16 is PROT_NONE */
	PG_FDS = 17,	/* a commit's fds at its end; 18 is PROT_NONE */
	ARENA_PAGES = 19,
};

struct arena {
	char *base;
	uint64_t path[NPATHS];
	uint64_t strv[NSTRV];
	const char *entry[NENTRIES];
	char *scratch;
	struct spawn_failure *failed;
	int *pidfd;
};

static char *pg(const struct arena *ar, int page)
{
	return ar->base + (size_t)page * PAGE;
}

static int classify_path(const struct arena *ar, uint64_t p)
{
	return fuzz_index_of(ar->path, NPATHS, p);
}

static int classify_strv(const struct arena *ar, uint64_t p)
{
	return fuzz_index_of(ar->strv, NSTRV, p);
}

/* ---- what the whole run knows ---- */

static struct {
	char tiny[PATH_MAX], probe[PATH_MAX], tests[PATH_MAX], work[PATH_MAX];
	char link[NOBJ][PATH_MAX]; /* /proc/self/fd's text of each file, "" if not known */
	bool chr[NOBJ];		   /* a character device (those named in TCSETPGRP and CTTY) */
	pid_t pgrp, sid;
	uid_t uid;
	gid_t gid;
	bool root;		/* CAP_SYS_RESOURCE and CAP_SYS_NICE */
	bool pty, cgroup;	/* FD_PTY and FD_CGROUP are what they say */
	int policy, prio;	/* the caller's scheduling */
	uint64_t ignored;	/* signals the process ignores */
	rlim_t rtprio;		/* RLIMIT_RTPRIO's soft limit */
	rlim_t hard[RLIM_NLIMITS];
	uint64_t nr_open;
	char *big;		/* BIG_STRING bytes of 'x' */
	long slab;		/* spawn_builder's objects at the start, -1 unknown */
} opt;

/* the caller's table every fuzzing thread sets up (fd_setup()), as the model sees it */
struct fdm {
	uint8_t obj;
	bool cloexec, opath;
};
static struct fdm fd_template[TBL];

static atomic_long n_syscalls, n_ok, n_fail, n_commits, n_commits_ok, n_children, n_checked,
	n_forks, n_other_skipped;

/* ---- the model of a builder ---- */

/* a setting the child applies at commit, in config order */
struct cset {
	uint32_t op, index;
	int64_t value;		/* SETPGID */
	struct spawn_sched sched;
	uint8_t obj;		/* TCSETPGRP, CTTY: the file */
	struct spawn_rlimit rl;
};

struct bmodel {
	bool open;		/* its fd is open */
	uint32_t flags;
	bool sealed, spent;
	uint32_t nsettings;
	struct fdm fd[TBL];
	int cwd;
	uint32_t umask;
	bool has_mask;
	uint64_t mask, sigdfl;
	bool setsid, pgrp_leader;
	int env;		/* SV_* or -1: none */
	int prog;		/* OB_TINY, OB_PROBE, OB_UNKNOWN */
	int exec_dirfd;		/* a commit fd over it may change what runs (exec_rel) */
	bool exec_rel;
	bool autoreap;
	int cgroup_index;	/* -1: none */
	int nchild;
	struct cset cs[CHILD_SETTINGS_MAX];
};

/* ---- a step, as generated ---- */

enum call_kind { C_CONFIG, C_COMMIT, C_POKE, C_CLOSE };
enum via { VIA_SELF, VIA_THREAD, VIA_FORK, VIA_OTHER };
static const char *const via_names[] = { "", " from another thread", " from a forked child",
					 " from a forked child with other credentials" };
/* the fd a call names as the builder */
enum bref { BR_BUILDER, BR_CLOSED, BR_DIR, BR_OPATH, BR_NEG };
static const char *const bref_names[] = { "builder", "a closed fd", "a directory", "an O_PATH fd",
					  "-1" };
/* a caller's fd a call names: a number, or what the step made */
enum cref { CR_NUM, CR_BUILDER, CR_SENTINEL, CR_REPORT };
enum poke { PK_READ, PK_WRITE, PK_IOCTL, PK_PIDFD_SIGNAL, PK_WAITID, NPOKES };
static const char *const poke_names[] = { "read", "write", "ioctl(TCGETS)", "pidfd_send_signal",
					  "waitid(P_PIDFD)" };

union cfg_arg {
	struct spawn_fd fd;
	struct spawn_open_arg open;
	struct spawn_range range;
	struct spawn_path path;
	struct spawn_value value;
	struct spawn_sigset sigset;
	struct spawn_strv strv;
	struct spawn_exec exec;
	struct spawn_sched sched;
	struct spawn_rlimit rlimit;
	unsigned char bytes[64];
};

struct cfg {
	uint32_t op;
	union cfg_arg arg;
	int cref;		/* INSTALL's and CGROUP's fd */
	uint8_t search[6];	/* SPAWN_EXEC's search, nsearch entries, when > 0 */
	int nsearch;
	size_t size;
	int ptr;
	/*
	 * offset of a non-zero byte past the op's struct, or -1: where
	 * gen_config() puts one; once placed, the first that place_cfg() put
	 */
	int tail;
};

struct commit {
	size_t size;
	int args_ptr, tail, fa_ptr, pidfd_ptr, fds_ptr, bad_entry;
	uint32_t flags, nr_fds, nbuilt;
	int argv, envp;
	int k;			/* tiny's exit status */
	int report_target;
	struct spawn_fd fd[MAX_ENTRIES];
	int cref[MAX_ENTRIES];
};

struct call {
	int kind, via, bref;
	union {
		struct cfg cfg;
		struct commit com;
		int poke;
	};
};

struct step {
	long long no;
	uint32_t open_flags;
	bool sentinel, sentinel_cloexec;
	int sentinel_target;
	int ncalls;
	struct call call[MAX_CALLS];
};

/* ---- outcomes ---- */

#define STEP_NOT_WRITTEN 0xffU /* the failure record keeps the sentinel */
#define STEP_ANY 0xfeU	       /* the record is not checked */
#define INDEX_ANY 0xfffffffeU

struct alt {
	uint32_t step, index;
	errset errs;
};

/* what a successful commit's child must be */
struct child_expect {
	int prog;		/* OB_TINY, OB_PROBE, or OB_UNKNOWN: any exit */
	int status;		/* tiny's, probe's (1 when it cannot report) */
	bool report;		/* probe reports */
	struct fdm fd[TBL];	/* its table after the exec */
	int cwd;
	uint32_t umask;
	uint64_t mask, ignored;
	int env;		/* SV_* or -1 (empty) */
	enum { PG_CALLER, PG_SELF, PG_VALUE } pg;
	int64_t pgid;
	bool session;		/* a session of its own */
	bool sched_known;
	int policy, prio;
	bool autoreap;
	pid_t ppid;
};

struct pred {
	bool ok;		/* may succeed */
	errset errs;		/* config, open, poke */
	bool open_closes;	/* SPAWN_OPEN: a failure past the range check closes the fd */
	int nalt;		/* commit */
	struct alt alt[CHILD_SETTINGS_MAX + 16];
	struct child_expect child;
};

static void add_alt(struct pred *p, uint32_t step, uint32_t index, errset errs)
{
	if (es_empty(errs))
		return;
	for (int i = 0; i < p->nalt; i++)
		if (p->alt[i].step == step && p->alt[i].index == index) {
			p->alt[i].errs = es_or(p->alt[i].errs, errs);
			return;
		}
	p->alt[p->nalt++] = (struct alt){ step, index, errs };
}

struct result {
	long ret;
	int err;
	struct spawn_failure fa;	/* the failure record after the call */
	bool fa_checked;
	bool skipped;			/* VIA_OTHER: no other credentials to be had */
	int code, status;		/* a reaped child's */
	bool reaped;
	int pidfd;
};

struct fuzzer {
	int id;
	struct arena ar;
	struct step step;
	int cur;		/* the call running */
	struct bmodel m;
	struct fdm cm[TBL];	/* the caller's table */
	int bfd;
	struct pred p;
	char sentinel_link[64], report_link[64];
	char pty_link[PATH_MAX];
	char token[32];		/* probe's argv[2]: step and call */
	char *out;		/* probe's report */
	/* the thread's state after setup, during a step, and now */
	struct fuzz_state before, during, now;
	char why[PATH_MAX * 2 + 256];
};

/* the text of /proc/self/fd/N for a model fd */
static const char *link_of(const struct fuzzer *f, int obj)
{
	switch (obj) {
	case OB_PTY:
		return f->pty_link;
	case OB_SENTINEL:
		return f->sentinel_link;
	case OB_REPORT:
		return f->report_link;
	default:
		return opt.link[obj];
	}
}

/* ---- the operations ---- */

enum field_type {
	F_BFD,	   /* s32: a builder's fd */
	F_CFD,	   /* s32: a caller's fd (struct cfg's cref) */
	F_TARGET,  /* s32: a builder's fd to put a file on */
	F_DIRFD,   /* s32: a builder's fd or AT_FDCWD */
	F_FDFLAGS, /* u32: SPAWN_FD_CLOEXEC */
	F_PAD,	   /* u32 */
	F_PATH,	   /* u64 pointer */
	F_OFLAGS,  /* u64 */
	F_MODE,	   /* u64 */
	F_RESOLVE, /* u64 */
	F_FIRST,   /* u32 */
	F_LAST,	   /* u32 */
	F_CRFLAGS, /* u32 */
	F_UMASK,   /* s64 */
	F_PGID,	   /* s64 */
	F_HOW,	   /* u32 */
	F_DFLHOW,  /* u32: 0 */
	F_SIGSET,  /* u64 */
	F_STRV,	   /* u64 pointer */
	F_XFLAGS,  /* u32 */
	F_SEARCH,  /* u64 pointer (struct cfg's search) */
	F_POLICY,  /* s32 */
	F_PRIO,	   /* s32 */
	F_RES,	   /* u32 */
	F_RLIM,	   /* u64 */
	F_ANY,	   /* not looked at */
};

struct field {
	const char *name;
	uint8_t off, size, type;
};

#define FLD(st, m, type) { #m, offsetof(struct st, m), sizeof(((struct st *)0)->m), type }
#define FD_FIELDS(fd_type, target_type)                                                  \
	{ FLD(spawn_fd, fd, fd_type), FLD(spawn_fd, target, target_type),                \
	  FLD(spawn_fd, flags, F_FDFLAGS), FLD(spawn_fd, __pad, F_PAD) }

typedef void model_fn(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p);
static model_fn m_install, m_dup2, m_open, m_close, m_close_range, m_chdir, m_fchdir, m_umask,
	m_sigmask, m_sigdefault, m_resetids, m_env, m_exec, m_setsid, m_setpgid, m_sched, m_tty,
	m_rlimit, m_cgroup, m_nnp, m_autoreap;

static const struct op_row {
	uint32_t op;
	const char *name;
	uint32_t ver0;
	struct field fields[7]; /* ending with an empty one */
	model_fn *model;
	unsigned weight;  /* how often a step's config calls pick it */
	bool child;	  /* applied by the child: counts towards CHILD_SETTINGS_MAX */
} ops[] = {
	{ SPAWN_INSTALL, "INSTALL", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_CFD, F_TARGET), m_install, 6, false },
	{ SPAWN_DUP2, "DUP2", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_BFD, F_TARGET), m_dup2, 6, false },
	{ SPAWN_OPEN, "OPEN", SPAWN_OPEN_ARG_SIZE_VER0,
	  { FLD(spawn_open_arg, fd, F_TARGET), FLD(spawn_open_arg, dirfd, F_DIRFD),
	    FLD(spawn_open_arg, path, F_PATH), FLD(spawn_open_arg, flags, F_OFLAGS),
	    FLD(spawn_open_arg, mode, F_MODE), FLD(spawn_open_arg, resolve, F_RESOLVE) },
	  m_open, 6, false },
	{ SPAWN_CLOSE, "CLOSE", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_BFD, F_ANY), m_close, 5, false },
	{ SPAWN_CLOSE_RANGE, "CLOSE_RANGE", SPAWN_RANGE_SIZE_VER0,
	  { FLD(spawn_range, first, F_FIRST), FLD(spawn_range, last, F_LAST),
	    FLD(spawn_range, flags, F_CRFLAGS), FLD(spawn_range, __pad, F_PAD) },
	  m_close_range, 3, false },
	{ SPAWN_CHDIR, "CHDIR", SPAWN_PATH_SIZE_VER0, { FLD(spawn_path, path, F_PATH) }, m_chdir, 4, false },
	{ SPAWN_FCHDIR, "FCHDIR", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_BFD, F_ANY), m_fchdir, 3, false },
	{ SPAWN_UMASK, "UMASK", SPAWN_VALUE_SIZE_VER0, { FLD(spawn_value, value, F_UMASK) }, m_umask, 4, false },
	{ SPAWN_SIGMASK, "SIGMASK", SPAWN_SIGSET_SIZE_VER0,
	  { FLD(spawn_sigset, how, F_HOW), FLD(spawn_sigset, __pad, F_PAD),
	    FLD(spawn_sigset, set, F_SIGSET) },
	  m_sigmask, 5, false },
	{ SPAWN_SIGDEFAULT, "SIGDEFAULT", SPAWN_SIGSET_SIZE_VER0,
	  { FLD(spawn_sigset, how, F_DFLHOW), FLD(spawn_sigset, __pad, F_PAD),
	    FLD(spawn_sigset, set, F_SIGSET) },
	  m_sigdefault, 4, false },
	{ SPAWN_RESETIDS, "RESETIDS", 0, {}, m_resetids, 2, true },
	{ SPAWN_ENV, "ENV", SPAWN_STRV_SIZE_VER0, { FLD(spawn_strv, strv, F_STRV) }, m_env, 3, false },
	{ SPAWN_EXEC, "EXEC", SPAWN_EXEC_SIZE_VER0,
	  { FLD(spawn_exec, dirfd, F_DIRFD), FLD(spawn_exec, flags, F_XFLAGS),
	    FLD(spawn_exec, path, F_PATH), FLD(spawn_exec, search, F_SEARCH) },
	  m_exec, 0, false },
	{ SPAWN_SETSID, "SETSID", 0, {}, m_setsid, 2, true },
	{ SPAWN_SETPGID, "SETPGID", SPAWN_VALUE_SIZE_VER0, { FLD(spawn_value, value, F_PGID) },
	  m_setpgid, 2, true },
	{ SPAWN_SCHED, "SCHED", SPAWN_SCHED_SIZE_VER0,
	  { FLD(spawn_sched, policy, F_POLICY), FLD(spawn_sched, priority, F_PRIO) }, m_sched, 2, true },
	{ SPAWN_TCSETPGRP, "TCSETPGRP", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_BFD, F_ANY), m_tty, 2, true },
	{ SPAWN_CTTY, "CTTY", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_BFD, F_ANY), m_tty, 2, true },
	{ SPAWN_RLIMIT, "RLIMIT", SPAWN_RLIMIT_SIZE_VER0,
	  { FLD(spawn_rlimit, resource, F_RES), FLD(spawn_rlimit, __pad, F_PAD),
	    FLD(spawn_rlimit, cur, F_RLIM), FLD(spawn_rlimit, max, F_RLIM) },
	  m_rlimit, 3, true },
	{ SPAWN_CGROUP, "CGROUP", SPAWN_FD_SIZE_VER0, FD_FIELDS(F_CFD, F_ANY), m_cgroup, 2, false },
	{ SPAWN_NO_NEW_PRIVS, "NO_NEW_PRIVS", 0, {}, m_nnp, 2, true },
	{ SPAWN_AUTOREAP, "AUTOREAP", 0, {}, m_autoreap, 1, false },
};

static const struct op_row *find_op(uint32_t op)
{
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (ops[i].op == op)
			return &ops[i];
	return NULL;
}

static uint64_t get_field(const union cfg_arg *a, const struct field *fl)
{
	uint64_t v = 0;

	memcpy(&v, a->bytes + fl->off, fl->size);
	if (fl->size == 4 && (fl->type == F_BFD || fl->type == F_CFD || fl->type == F_TARGET ||
			      fl->type == F_DIRFD || fl->type == F_POLICY || fl->type == F_PRIO))
		v = (uint64_t)(int64_t)(int32_t)v;
	return v;
}

static void put_field(union cfg_arg *a, const struct field *fl, uint64_t v)
{
	memcpy(a->bytes + fl->off, &v, fl->size);
}

/* ---- generating steps ---- */

static uint64_t gen_path(struct rng *r, const struct arena *ar, bool edge)
{
	if (edge)
		return ar->path[below(r, NPATHS)];
	return ar->path[PICK(r, P_TINY, P_PROBE, P_LINK, P_NOEXEC, P_TESTS, P_WORK, P_SUB, P_ROOT,
			     P_NULL_DEV, P_MISSING, P_REL_TINY, P_REL_NOEXEC, P_REL_SUB, P_REL_DOT,
			     P_NEW)];
}

/* a builder's fd: those fd_setup() makes (but the pty's master), others, edge values */
static uint64_t gen_bfd(struct rng *r, bool edge)
{
	if (!edge || chance(r, 50))
		return (uint32_t)PICK(r, 0, 1, 2, FD_TESTS, FD_TINY, FD_WORK, FD_NOEXEC, FD_PROBE,
				      FD_NULL, FD_PTY, FD_CGROUP, FD_ROOT, 20, 30);
	return (uint32_t)PICK(r, -1, AT_FDCWD, INT_MIN, INT_MAX, NOFILE, 1099, below(r, TBL));
}

/* a value for a field of this type: plausible, or (edge) anything interesting */
static uint64_t gen_value(struct rng *r, const struct arena *ar, int type, bool edge, int *cref)
{
	uint64_t any = rnd(r);

	switch (type) {
	case F_BFD:
		return gen_bfd(r, edge);
	case F_CFD:
		*cref = (int)PICK(r, CR_NUM, CR_NUM, CR_NUM, CR_NUM, CR_SENTINEL, CR_BUILDER);
		return *cref != CR_NUM ? 0 : edge ? (uint32_t)PICK(r, -1, NOFILE, INT_MAX, 899, 40)
						 : gen_bfd(r, false);
	case F_TARGET:
		if (edge && chance(r, 50))
			return (uint32_t)PICK(r, -1, NOFILE, INT_MAX, INT_MIN, TBL - 1);
		return (uint32_t)PICK(r, 0, 1, 2, 3, 5, 9, 12, 13, 20, 30, 64, FD_ROOT);
	case F_DIRFD:
		return chance(r, 40) ? (uint32_t)AT_FDCWD
				     : edge ? gen_bfd(r, true) : PICK(r, FD_TESTS, FD_WORK, FD_ROOT, FD_PROBE);
	case F_FDFLAGS:
		return !edge || chance(r, 50) ? PICK(r, 0, 0, SPAWN_FD_CLOEXEC)
					      : PICK(r, 2, ~0U, 1U << 31, (uint32_t)any);
	case F_PAD:
		return !edge || chance(r, 50) ? 0 : PICK(r, 1, ~0U, (uint32_t)any);
	case F_PATH:
		return gen_path(r, ar, edge);
	case F_OFLAGS:
		if (!edge || chance(r, 40))
			return PICK(r, O_RDONLY, O_RDONLY | O_CLOEXEC, O_PATH, O_PATH | O_CLOEXEC,
				    O_DIRECTORY, O_RDWR);
		return PICK(r, O_WRONLY | O_CREAT, O_RDWR | O_CREAT | O_EXCL, O_TMPFILE | O_RDWR,
			    O_CREAT | O_DIRECTORY, O_PATH | O_RDWR, O_PATH | O_NOFOLLOW,
			    O_RDONLY | O_NONBLOCK, 1ULL << 33, 1U << 25, (uint32_t)any);
	case F_MODE:
		return !edge ? 0 : PICK(r, 0, 0644, 07777, 010000, ~0ULL);
	case F_RESOLVE:
		return !edge || chance(r, 50) ? 0
					      : PICK(r, RESOLVE_NO_SYMLINKS, RESOLVE_BENEATH,
						     RESOLVE_BENEATH | RESOLVE_IN_ROOT, 0x100, 1ULL << 40);
	case F_FIRST:
		return !edge ? PICK(r, 3, 7, 12, 20, 100) : PICK(r, 0, 1023, 1024, ~0U, (uint32_t)any);
	case F_LAST:
		return !edge ? PICK(r, 30, 1022, ~0U) : PICK(r, 0, 3, 1023, ~0U, (uint32_t)any);
	case F_CRFLAGS:
		return !edge ? PICK(r, 0, 0, CLOSE_RANGE_CLOEXEC)
			     : PICK(r, CLOSE_RANGE_UNSHARE, CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC, 8,
				    (uint32_t)any);
	case F_UMASK:
		return !edge ? PICK(r, 0, 022, 077, 0777, 027) : PICK(r, 01000, ~0ULL, 1ULL << 63, 1ULL << 40);
	case F_PGID:
		if (!edge)
			return PICK(r, 0, 0, (uint64_t)opt.pgrp);
		return PICK(r, ~0ULL, 1, INT_MAX, 1ULL << 33, 1ULL << 63, 0x7ffffff0);
	case F_HOW:
		return !edge || chance(r, 50) ? PICK(r, SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK)
					      : PICK(r, 3, ~0U, 0x100);
	case F_DFLHOW:
		return !edge || chance(r, 50) ? 0 : PICK(r, 1, 2, ~0U);
	case F_SIGSET:
		return PICK(r, 0, SIG(SIGUSR1), SIG(SIGUSR2), SIG(SIGTERM), SIG(SIGPIPE), ~0ULL,
			    KILLSTOP, SIG(64), GLIBC_SIGS, SIG(SIGTERM) | SIG(SIGPIPE), any);
	case F_STRV:
		return ar->strv[!edge ? PICK(r, SV_EMPTY, SV_SOME, SV_OTHER) : below(r, NSTRV)];
	case F_XFLAGS:
		return !edge ? 0
			     : PICK(r, AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW,
				    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR, ~0U);
	case F_SEARCH:
		return !edge ? 0 : ar->path[PICK(r, P_NULL, P_KERNEL, P_STRADDLE, P_GUARD)];
	case F_POLICY:
		if (!edge)
			return (uint32_t)PICK(r, -1, SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO,
					      SCHED_RR);
		return (uint32_t)PICK(r, -2, SCHED_DEADLINE, 7, SCHED_RESET_ON_FORK,
				      SCHED_RESET_ON_FORK | SCHED_FIFO, INT_MIN, INT_MAX);
	case F_PRIO:
		return !edge ? PICK(r, 0, 0, 1, 50, 99) : (uint32_t)PICK(r, -1, 100, INT_MAX);
	case F_RES:
		if (!edge || chance(r, 50))
			return PICK(r, RLIMIT_CORE, RLIMIT_NOFILE, RLIMIT_MSGQUEUE, RLIMIT_NICE,
				    RLIMIT_RTPRIO, RLIMIT_SIGPENDING);
		return PICK(r, RLIM_NLIMITS, 100, ~0U);
	case F_RLIM:
		if (!edge)
			return PICK(r, 0, 64, 1024, 4096, RLIM_INFINITY);
		return PICK(r, 1ULL << 62, ~0ULL - 1, opt.nr_open, opt.nr_open + 1, any);
	default:
		return edge ? any : 0;
	}
}

/* the ops a step with many settings makes: those the child applies and that pass */
static const uint32_t many_ops[] = { SPAWN_RESETIDS, SPAWN_NO_NEW_PRIVS, SPAWN_SETPGID,
				     SPAWN_RLIMIT, SPAWN_SCHED };

static const struct op_row *pick_op(struct rng *r)
{
	unsigned total = 0, n;

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		total += ops[i].weight;
	n = below(r, total);
	for (size_t i = 0;; i++) {
		if (n < ops[i].weight)
			return &ops[i];
		n -= ops[i].weight;
	}
}

/* what generation leaves out: writes to what the model relies on, a limit probe cannot run with */
static void sanitize_cfg(const struct arena *ar, struct cfg *c)
{
	union cfg_arg *a = &c->arg;
	int id;

	if (c->op == SPAWN_OPEN) {
		id = classify_path(ar, a->open.path);
		if (id != P_NEW && id != P_REL_NEW)
			a->open.flags &= ~(uint64_t)(O_CREAT | O_ACCMODE | O_TRUNC | O_APPEND) &
					 ~K_O_TMPFILE_BIT;
		else if (!(a->open.mode & ~07777ULL))
			a->open.mode &= 0644; /* never a program */
	}
	/* probe opens a directory to list its fds */
	if (c->op == SPAWN_RLIMIT && a->rlimit.resource == RLIMIT_NOFILE) {
		if (a->rlimit.cur < 1024)
			a->rlimit.cur = 1024;
		if (a->rlimit.max < 1024)
			a->rlimit.max = 1024;
	}
}

static void gen_fields(struct rng *r, const struct arena *ar, struct cfg *c, const struct op_row *row,
		       bool edge)
{
	for (const struct field *fl = row->fields; fl->name; fl++)
		put_field(&c->arg, fl, gen_value(r, ar, fl->type, edge && chance(r, 40), &c->cref));
}

static void gen_config(struct rng *r, const struct arena *ar, struct call *call,
		       const struct op_row *row, bool edge)
{
	struct cfg *c = &call->cfg;

	call->kind = C_CONFIG;
	memset(c, 0, sizeof(*c));
	c->op = row->op;
	c->cref = CR_NUM;
	c->tail = -1;
	gen_fields(r, ar, c, row, edge);
	c->size = row->ver0;
	c->ptr = row->ver0 ? PTR_OK : PTR_NULL;
	if (edge && chance(r, 50)) {
		switch (below(r, 5)) {
		case 0:
			c->size = PICK(r, 0, row->ver0 ? row->ver0 - 1 : 8, row->ver0 / 2, row->ver0 + 8, 64,
				       PAGE, PAGE + 1, 1 << 20, ~0UL);
			break;
		case 1: /* a non-zero byte past what the kernel knows */
			c->size = row->ver0 + 8 * (1 + below(r, 4));
			c->tail = (int)(row->ver0 + below(r, (uint32_t)(c->size - row->ver0)));
			break;
		case 2:
			c->ptr = PICK(r, PTR_NULL, PTR_KERNEL, PTR_STRADDLE);
			break;
		case 3: /* another op, or none known, with the same bytes */
			c->op = chance(r, 50) ? PICK(r, 0, 23, 1000, ~0U) : ops[below(r, ARRAY_SIZE(ops))].op;
			break;
		case 4:
			c->size = PICK(r, row->ver0 + 8, PAGE);
			break;
		}
	}
	sanitize_cfg(ar, c);
}

/* SPAWN_EXEC: a program found (tiny or probe), or, if doomed, one that is not */
static void gen_exec(struct rng *r, const struct arena *ar, struct call *call, bool doomed)
{
	static const struct {
		int dirfd, path;
		uint32_t flags;
	} good[] = {
		{ AT_FDCWD, P_PROBE, 0 },	{ AT_FDCWD, P_PROBE, 0 },      { AT_FDCWD, P_TINY, 0 },
		{ FD_TESTS, P_REL_PROBE, 0 },	{ FD_TESTS, P_REL_TINY, 0 },   { FD_PROBE, P_EMPTY, AT_EMPTY_PATH },
		{ FD_TINY, P_EMPTY, AT_EMPTY_PATH }, { AT_FDCWD, P_LINK, 0 }, { FD_WORK, P_REL_LINK, 0 },
		{ AT_FDCWD, P_PROBE, AT_SYMLINK_NOFOLLOW },
	}, bad[] = {
		{ AT_FDCWD, P_MISSING, 0 },	{ AT_FDCWD, P_NOEXEC, 0 },     { AT_FDCWD, P_NOTDIR, 0 },
		{ AT_FDCWD, P_ROOT, 0 },	{ AT_FDCWD, P_LINK, AT_SYMLINK_NOFOLLOW },
		{ FD_WORK, P_REL_NOEXEC, 0 },	{ AT_FDCWD, P_EMPTY, 0 },      { AT_FDCWD, P_NULL_DEV, 0 },
		{ AT_FDCWD, P_EMPTY, AT_EMPTY_PATH },
	};
	struct cfg *c;
	int i;

	gen_config(r, ar, call, find_op(SPAWN_EXEC), false);
	c = &call->cfg;
	if (chance(r, 30)) { /* a PATH search: misses, then the entry with the program, or none */
		static const uint8_t misses[] = { E_MISSING, E_NOTDIR, E_SUB, E_WORK, E_EMPTY,
						  E_REL_SUB, E_ROOT, E_TOOLONG };

		c->arg.exec.dirfd = chance(r, 80) ? AT_FDCWD : FD_TESTS;
		c->arg.exec.path = ar->path[doomed ? PICK(r, P_REL_TINY, P_REL_NOEXEC, P_REL_SUB,
							  P_REL_MISSING, P_REL_DOT)
						   : PICK(r, P_REL_PROBE, P_REL_PROBE, P_REL_TINY, P_REL_LINK)];
		c->nsearch = (int)below(r, 4);
		for (i = 0; i < c->nsearch; i++)
			c->search[i] = misses[below(r, ARRAY_SIZE(misses) - 1)]; /* E_TOOLONG below */
		if (doomed && chance(r, 30))
			c->search[c->nsearch++] = E_TOOLONG;
		if (!doomed || chance(r, 20))
			c->search[c->nsearch++] = chance(r, 85) ? E_TESTS : E_WORK;
		if (chance(r, 30))
			c->search[c->nsearch++] = misses[below(r, ARRAY_SIZE(misses))];
		if (!c->nsearch)
			c->search[c->nsearch++] = E_MISSING;
		return;
	}
	i = doomed ? (int)below(r, ARRAY_SIZE(bad)) : (int)below(r, ARRAY_SIZE(good));
	c->arg.exec.dirfd = doomed ? bad[i].dirfd : good[i].dirfd;
	c->arg.exec.path = ar->path[doomed ? bad[i].path : good[i].path];
	c->arg.exec.flags = doomed ? bad[i].flags : good[i].flags;
}

static void gen_commit(struct rng *r, struct call *call, bool consume)
{
	struct commit *c = &call->com;
	uint32_t extra = PICK(r, 0, 0, 0, 1, 1, 2, 3);

	call->kind = C_COMMIT;
	memset(c, 0, sizeof(*c));
	c->size = sizeof(struct spawn_commit_args);
	c->tail = -1;
	c->fa_ptr = chance(r, 85) ? PTR_OK : PICK(r, PTR_NULL, PTR_RO, PTR_KERNEL);
	c->flags = (chance(r, 30) ? SPAWN_COMMIT_PIDFD : 0) | (consume ? SPAWN_COMMIT_CONSUME : 0);
	c->argv = chance(r, 92) ? AV_PROG : (int)below(r, NARGV);
	c->envp = chance(r, 92) ? (int)PICK(r, EV_BUILDER, EV_BUILDER, SV_EMPTY, SV_SOME, SV_OTHER)
				: (int)PICK(r, SV_BIG, SV_BADSTR, SV_STRADDLE_STR, SV_STRADDLE_ARRAY,
					    SV_KERNEL);
	c->k = (int)below(r, 256);
	c->report_target = (int)PICK(r, 1, 3, 9, 20, 50, 200, 1000);
	for (uint32_t i = 0; i < extra; i++) {
		c->cref[i] = (int)PICK(r, CR_NUM, CR_NUM, CR_NUM, CR_NUM, CR_SENTINEL, CR_BUILDER);
		c->fd[i] = (struct spawn_fd){
			.fd = (int)PICK(r, 0, 1, 2, FD_TESTS, FD_TINY, FD_NOEXEC, FD_PROBE, FD_NULL,
					FD_PTY, FD_ROOT, 40),
			.target = (int)PICK(r, 0, 1, 2, 5, 9, 20, FD_ROOT),
			.flags = chance(r, 25) ? SPAWN_FD_CLOEXEC : 0,
		};
	}
	c->cref[extra] = CR_REPORT;
	c->fd[extra] = (struct spawn_fd){ .target = c->report_target };
	c->nbuilt = c->nr_fds = extra + 1;
	if (!chance(r, 15))
		return;
	for (uint32_t n = 1 + below(r, 2); n; n--) {
		struct spawn_fd *e = &c->fd[below(r, c->nbuilt)];

		switch (below(r, 9)) {
		case 0: /* a size of its own, without case 1's tail */
			c->size = PICK(r, 0, 40, 47, 56, PAGE, PAGE + 1);
			c->tail = -1;
			break;
		case 1:
			c->size = 56 + 8 * below(r, 3);
			c->tail = (int)(48 + below(r, (uint32_t)(c->size - 48)));
			break;
		case 2:
			c->args_ptr = PICK(r, PTR_NULL, PTR_KERNEL, PTR_STRADDLE);
			break;
		case 3:
			c->flags |= SPAWN_COMMIT_PIDFD;
			c->pidfd_ptr = PICK(r, PTR_NULL, PTR_RO, PTR_KERNEL);
			break;
		case 4:
			c->flags |= PICK(r, 4, 1U << 31);
			break;
		case 5:
			c->nr_fds = PICK(r, 0, c->nbuilt - 1, c->nbuilt + 1, SPAWN_COMMIT_FDS_MAX + 1, ~0U);
			break;
		case 6:
			c->fds_ptr = PICK(r, PTR_NULL, PTR_KERNEL, PTR_STRADDLE);
			break;
		case 7:
			e->target = (int)PICK(r, -1, NOFILE, INT_MAX);
			break;
		case 8:
			if (chance(r, 50))
				e->flags = PICK(r, 2, ~0U);
			else
				e->__pad = 1;
			break;
		}
	}
}

static const struct op_row *many_op(struct rng *r)
{
	return find_op(many_ops[below(r, ARRAY_SIZE(many_ops))]);
}

/* step no: open, config calls, the exec, commits mixed with other calls, close */
static void gen_step(const struct arena *ar, long long no, struct step *s)
{
	struct rng r = rng_for(no);
	bool many = chance(&r, 4);
	int npre = many ? 60 + (int)below(&r, 13) : (int)PICK(&r, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12);
	int ncommits = chance(&r, 5) ? 20 + (int)below(&r, 11) : (int)below(&r, 7);
	int n = 0, close_at = chance(&r, 3) ? 1 + (int)below(&r, 8) : -1;

	s->no = no;
	s->open_flags = chance(&r, 4) ? (uint32_t)PICK(&r, 4, 8, 1U << 31, ~0U, rnd(&r))
				      : (uint32_t)PICK(&r, 0, SPAWN_OPEN_CLOEXEC, SPAWN_OPEN_INHERIT_FDS,
						       SPAWN_OPEN_INHERIT_FDS,
						       SPAWN_OPEN_CLOEXEC | SPAWN_OPEN_INHERIT_FDS);
	s->sentinel = chance(&r, 35);
	s->sentinel_target = (int)PICK(&r, 0, 1, 3, 9, 12, 20, 500, FD_ROOT);
	s->sentinel_cloexec = chance(&r, 30);
	for (int i = 0; i < npre; i++) {
		if (many && i % 8 == 0) { /* values that pass, for the limit */
			gen_config(&r, ar, &s->call[n], find_op(SPAWN_RESETIDS), false);
		} else {
			bool edge = !many && chance(&r, 25);

			gen_config(&r, ar, &s->call[n], many ? many_op(&r) : pick_op(&r), edge);
		}
		n++;
		if (chance(&r, 3))
			gen_commit(&r, &s->call[n++], false); /* not sealed yet */
	}
	if (chance(&r, 88)) {
		if (chance(&r, 15))
			gen_exec(&r, ar, &s->call[n++], true);
		gen_exec(&r, ar, &s->call[n++], chance(&r, 8));
	}
	for (int i = 0; i < ncommits && n < MAX_CALLS - 6; i++) {
		if (chance(&r, 12))
			gen_config(&r, ar, &s->call[n++], pick_op(&r), chance(&r, 25));
		if (chance(&r, 4)) {
			s->call[n].kind = C_POKE;
			s->call[n++].poke = (int)below(&r, NPOKES);
		}
		gen_commit(&r, &s->call[n++], i == ncommits - 1 && chance(&r, 20));
	}
	if (n && s->call[n - 1].kind == C_COMMIT && (s->call[n - 1].com.flags & SPAWN_COMMIT_CONSUME)) {
		gen_commit(&r, &s->call[n++], false);
		gen_config(&r, ar, &s->call[n++], pick_op(&r), false);
	}
	s->ncalls = n;
	for (int i = 0; i < n; i++) {
		struct call *c = &s->call[i];

		c->via = VIA_SELF;
		c->bref = BR_BUILDER;
		if (c->kind != C_CONFIG && c->kind != C_COMMIT)
			continue;
		c->via = chance(&r, 3) ? VIA_THREAD : chance(&r, 2) ? VIA_FORK
						     : chance(&r, 1) ? VIA_OTHER : VIA_SELF;
		if (chance(&r, 4))
			c->bref = (int)PICK(&r, BR_CLOSED, BR_DIR, BR_OPATH, BR_NEG);
	}
	if (close_at >= 0 && close_at < n) { /* the builder closed before the end */
		memmove(&s->call[close_at + 1], &s->call[close_at], (size_t)(n - close_at) * sizeof(s->call[0]));
		s->call[close_at] = (struct call){ .kind = C_CLOSE, .bref = BR_BUILDER };
		s->ncalls++;
	}
}

/* ---- the model of a config call ---- */

static void fail(struct pred *p, int e)
{
	p->errs = es_or(p->errs, ES(e));
	p->ok = false;
}

static void maybe(struct pred *p, errset errs)
{
	p->errs = es_or(p->errs, errs);
}

/* an fd of the builder's table, or NULL out of range */
static struct fdm *bfdp(struct bmodel *m, int64_t fd)
{
	return fd >= 0 && fd < TBL ? &m->fd[fd] : NULL;
}

static bool bopen(struct bmodel *m, int64_t fd)
{
	struct fdm *d = bfdp(m, fd);

	return d && d->obj != OB_NONE;
}

/* what a lookup gives: target t if ok, else (or also, when loose) one of errs */
struct res {
	int t;
	errset errs;
	bool ok;
};

static struct res res_err(int e)
{
	return (struct res){ OB_UNKNOWN, ES(e), false };
}

static struct res res_t(int t)
{
	if (t == OB_NEW) /* there, or not yet */
		return (struct res){ t, ES(ENOENT), true };
	return (struct res){ t, ES_NONE, true };
}

/* what fd (or AT_FDCWD) refers to, in the builder's table */
static struct res fd_obj(struct bmodel *m, int64_t fd)
{
	if (fd == AT_FDCWD)
		return res_t(m->cwd);
	if (!bopen(m, fd))
		return res_err(EBADF);
	if (m->fd[fd].obj == OB_UNKNOWN)
		return (struct res){ OB_UNKNOWN, ES_PATH, true };
	return res_t(m->fd[fd].obj);
}

/* a name relative to what base refers to */
static struct res below_dir(struct res base, const char *rel)
{
	if (!base.ok)
		return base;
	if (base.t == OB_UNKNOWN)
		return (struct res){ OB_UNKNOWN, es_or(base.errs, ES_PATH), true };
	if (!is_dir(base.t))
		return res_err(ENOTDIR);
	return res_t(lookup(rel, base.t));
}

static struct res resolve(const struct fuzzer *f, struct bmodel *m, int64_t dirfd, uint64_t ptr,
			  bool empty_ok)
{
	int id = classify_path(&f->ar, ptr);

	if (id < 0)
		return (struct res){ OB_UNKNOWN, ES_PATH, true };
	switch (paths[id].kind) {
	case PK_FAULT:
		return res_err(EFAULT);
	case PK_TOOLONG:
		return res_err(ENAMETOOLONG);
	case PK_EMPTY:
		return empty_ok ? fd_obj(m, dirfd) : res_err(ENOENT);
	case PK_ABS:
		return res_t(paths[id].target);
	default:
		return below_dir(fd_obj(m, dirfd), paths[id].rel);
	}
}

/* struct spawn_fd's flags and pad */
static bool fd_arg_bad(const struct spawn_fd *a, uint32_t allowed)
{
	return (a->flags & ~allowed) || a->__pad;
}

/* the caller's table: an fd's file, or NULL if it is not open */
static const struct fdm *cfd(const struct fuzzer *f, int64_t fd)
{
	return fd >= 0 && fd < TBL && f->cm[fd].obj != OB_NONE ? &f->cm[fd] : NULL;
}

static void m_install(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_fd *d = &a->fd;
	const struct fdm *src = cfd(f, d->fd);

	if (fd_arg_bad(d, SPAWN_FD_CLOEXEC))
		return fail(p, EINVAL);
	if (d->target < 0 || !src)
		return fail(p, EBADF);
	if (src->obj == OB_BUILDER)
		return fail(p, EINVAL);
	if (d->target >= NOFILE)
		return fail(p, EBADF);
	n->fd[d->target] = (struct fdm){ src->obj, d->flags & SPAWN_FD_CLOEXEC, src->opath };
}

static void m_dup2(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_fd *d = &a->fd;

	(void)f;
	if (fd_arg_bad(d, SPAWN_FD_CLOEXEC))
		return fail(p, EINVAL);
	if (d->fd < 0 || d->target < 0 || !bopen(n, d->fd))
		return fail(p, EBADF);
	if (d->fd == d->target) {
		n->fd[d->fd].cloexec = d->flags & SPAWN_FD_CLOEXEC;
		return;
	}
	if (d->target >= NOFILE)
		return fail(p, EBADF);
	n->fd[d->target] = n->fd[d->fd];
	n->fd[d->target].cloexec = d->flags & SPAWN_FD_CLOEXEC;
}

/* openat2()'s own checks of flags, mode and resolve (build_open_flags()) */
static bool open_args_bad(uint64_t flags, uint64_t mode, uint64_t resolve)
{
	bool create = flags & (O_CREAT | K_O_TMPFILE_BIT);

	return (flags & ~VALID_OPEN_FLAGS) || (resolve & ~(uint64_t)VALID_RESOLVE) ||
	       ((resolve & RESOLVE_BENEATH) && (resolve & RESOLVE_IN_ROOT)) ||
	       (create && (mode & ~07777ULL)) || (!create && mode) ||
	       (flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT) ||
	       ((flags & K_O_TMPFILE_BIT) && (!(flags & O_DIRECTORY) || !(flags & O_ACCMODE))) ||
	       ((flags & O_PATH) && (flags & ~O_PATH_FLAGS));
}

static void m_open(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_open_arg *o = &a->open;
	uint64_t flags = o->flags & O_PATH ? o->flags : o->flags | O_NOCTTY;
	uint64_t plain = flags & ~(uint64_t)(O_CLOEXEC | O_NOCTTY);
	struct res r;
	int t;

	if (o->fd < 0 || o->fd >= NOFILE)
		return fail(p, EBADF);
	/* closed first, as posix_spawn_file_actions_addopen(), whatever happens next */
	p->open_closes = true;
	n->fd[o->fd].obj = OB_NONE;
	if (open_args_bad(flags, o->mode, o->resolve))
		return fail(p, EINVAL);
	r = resolve(f, n, o->dirfd, o->path, false);
	p->errs = r.errs;
	p->ok = r.ok;
	t = r.t == OB_LINK ? OB_TINY : r.t;
	if (o->resolve || (plain != O_RDONLY && plain != O_PATH && plain != O_DIRECTORY)) {
		maybe(p, ES_OPEN); /* not modelled: anything an open says */
		t = OB_UNKNOWN;
	} else if (r.ok && t == OB_MISSING) {
		return fail(p, ENOENT);
	} else if (r.ok && (t == OB_NOTDIR || ((flags & O_DIRECTORY) && !is_dir(t) && t != OB_UNKNOWN &&
					       t != OB_NEW))) {
		return fail(p, ENOTDIR);
	} else if (t == OB_NEW && (flags & O_DIRECTORY)) { /* a file, or nothing */
		fail(p, ENOTDIR);
	}
	if (p->ok)
		n->fd[o->fd] = (struct fdm){ (uint8_t)t, o->flags & O_CLOEXEC, (flags & O_PATH) != 0 };
}

static void m_close(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f;
	if (fd_arg_bad(&a->fd, 0))
		return fail(p, EINVAL);
	if (!bopen(n, a->fd.fd))
		return fail(p, EBADF);
	n->fd[a->fd.fd].obj = OB_NONE;
}

static void m_close_range(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_range *c = &a->range;

	(void)f;
	if ((c->flags & ~CLOSE_RANGE_CLOEXEC) || c->__pad || c->first > c->last)
		return fail(p, EINVAL);
	for (uint64_t fd = c->first; fd <= c->last && fd < TBL; fd++) {
		if (c->flags & CLOSE_RANGE_CLOEXEC)
			n->fd[fd].cloexec = true;
		else
			n->fd[fd].obj = OB_NONE;
	}
}

/* chdir()/fchdir() to what r names */
static void enter_dir(struct bmodel *n, struct res r, struct pred *p)
{
	p->errs = r.errs;
	p->ok = r.ok;
	if (!r.ok)
		return;
	if (r.t == OB_UNKNOWN) {
		maybe(p, ES_PATH);
		n->cwd = OB_UNKNOWN;
	} else if (is_dir(r.t)) {
		n->cwd = r.t;
	} else if (r.t == OB_NEW) {
		fail(p, ENOTDIR);
	} else {
		fail(p, r.t == OB_MISSING ? ENOENT : ENOTDIR);
	}
}

static void m_chdir(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	enter_dir(n, resolve(f, n, AT_FDCWD, a->path.path, false), p);
}

static void m_fchdir(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f;
	if (fd_arg_bad(&a->fd, 0))
		return fail(p, EINVAL);
	/* the number is unsigned there: AT_FDCWD is not the cwd */
	enter_dir(n, a->fd.fd < 0 ? res_err(EBADF) : fd_obj(n, a->fd.fd), p);
}

static void m_umask(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f;
	if (a->value.value & ~(int64_t)0777)
		return fail(p, EINVAL);
	n->umask = (uint32_t)a->value.value;
}

static void m_sigmask(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_sigset *s = &a->sigset;

	if (s->__pad || s->how > SIG_SETMASK)
		return fail(p, EINVAL);
	if (!n->has_mask) /* the configuring thread's, which is the caller's */
		n->mask = f->during.mask;
	if (s->how == SIG_BLOCK)
		n->mask |= s->set;
	else if (s->how == SIG_UNBLOCK)
		n->mask &= ~s->set;
	else
		n->mask = s->set;
	n->mask &= ~KILLSTOP;
	n->has_mask = true;
}

static void m_sigdefault(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f;
	if (a->sigset.how || a->sigset.__pad)
		return fail(p, EINVAL);
	n->sigdfl |= a->sigset.set & ~KILLSTOP;
}

/* a setting the child applies: E2BIG past the limit */
static struct cset *add_child(struct bmodel *n, uint32_t op, struct pred *p)
{
	struct cset *s;

	if (n->nchild >= CHILD_SETTINGS_MAX) {
		fail(p, E2BIG);
		return NULL;
	}
	s = &n->cs[n->nchild++];
	*s = (struct cset){ .op = op, .index = n->nsettings };
	return s;
}

static void m_resetids(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f, (void)a;
	add_child(n, SPAWN_RESETIDS, p);
}

/* a vector of strings as the kernel copies it: EFAULT, E2BIG or fine */
static int strv_error(int id)
{
	switch (id) {
	case SV_EMPTY:
	case SV_SOME:
	case SV_OTHER:
	case EV_BUILDER:
		return 0;
	case SV_BIG:
		return E2BIG;
	default:
		return EFAULT;
	}
}

static void m_env(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	int id = classify_strv(&f->ar, a->strv.strv), e = id < 0 ? 0 : strv_error(id);

	if (id < 0)
		maybe(p, ES(EFAULT, E2BIG));
	else if (e)
		return fail(p, e);
	n->env = id;
}

/* one exec candidate as the config call opens it: the program, or errors */
static struct res exec_open(struct res r, uint32_t flags)
{
	if (!r.ok)
		return r;
	switch (r.t) {
	case OB_LINK:
		return flags & AT_SYMLINK_NOFOLLOW ? res_err(ELOOP) : res_t(OB_TINY);
	case OB_TINY:
	case OB_PROBE:
		return r;
	case OB_MISSING:
		return res_err(ENOENT);
	case OB_NOTDIR:
		return res_err(ENOTDIR);
	case OB_NEW: /* never a program (sanitize_cfg()) */
		return (struct res){ OB_NEW, ES(ENOENT, EACCES), false };
	case OB_UNKNOWN:
		return (struct res){ OB_UNKNOWN, es_or(r.errs, ES(EACCES, ENOEXEC, ETXTBSY)), true };
	default: /* a directory, a device, a pipe, a file without x bits */
		return res_err(EACCES);
	}
}

static const errset *search_goes_on(void)
{
	static errset s;

	s = ES(ENOENT, ENOTDIR, EACCES);
	return &s;
}

/*
 * SPAWN_EXEC: the program resolved now, from the builder's cwd and table;
 * a search tries each entry's candidate while the error is one a search
 * goes on after, and fails with EACCES if a candidate gave it, else ENOENT.
 */
static void m_exec(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_exec *e = &a->exec;
	const struct cfg *c = &f->step.call[f->cur].cfg;
	int id = classify_path(&f->ar, e->path), found = -1, nc;
	bool search, eacces_sure = false, eacces_maybe = false, ended = false;
	errset on = *search_goes_on();

	if (e->flags & ~(uint32_t)(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return fail(p, EINVAL);
	if (e->dirfd < 0 && e->dirfd != AT_FDCWD)
		return fail(p, EBADF);
	if (id < 0 || paths[id].kind == PK_FAULT)
		return fail(p, EFAULT);
	if (id == P_TOOLONG)
		return fail(p, ENAMETOOLONG);
	if (id == P_EMPTY && !(e->flags & AT_EMPTY_PATH))
		return fail(p, ENOENT);
	search = e->search && paths[id].kind == PK_REL;
	if (search && !c->nsearch)
		return fail(p, EFAULT); /* a search pointer that cannot be read */
	p->ok = false;
	nc = search ? c->nsearch : 1;
	for (int i = 0; i < nc && !ended; i++) {
		struct res r;

		if (!search) {
			r = resolve(f, n, e->dirfd, e->path, e->flags & AT_EMPTY_PATH);
		} else {
			switch (c->search[i]) {
			case E_TOOLONG:
				r = res_err(ENAMETOOLONG);
				break;
			case E_EMPTY:
				r = resolve(f, n, e->dirfd, e->path, false);
				break;
			case E_REL_SUB:
				r = below_dir(below_dir(fd_obj(n, e->dirfd), "sub"), paths[id].rel);
				break;
			default: {
				static const int dirs[NENTRIES] = {
					[E_TESTS] = OB_TESTS, [E_WORK] = OB_WORK, [E_SUB] = OB_SUB,
					[E_MISSING] = OB_MISSING, [E_NOTDIR] = OB_NOEXEC, [E_ROOT] = OB_ROOT,
				};
				int d = dirs[c->search[i]];

				r = d == OB_MISSING ? res_err(ENOENT) : below_dir(res_t(d), paths[id].rel);
			}
			}
		}
		r = exec_open(r, e->flags);
		if (r.ok) { /* a program; a loose one may also fail */
			p->ok = true;
			found = found < 0 || found == r.t ? r.t : OB_UNKNOWN;
			if (es_empty(r.errs))
				break;
		}
		/* the errors that end here, and whether the search may go on */
		if (!search) {
			maybe(p, r.errs);
			break;
		}
		maybe(p, es_minus(r.errs, on));
		if (es_empty(es_and(r.errs, on)))
			ended = true;
		eacces_sure |= es_empty(es_minus(r.errs, ES(EACCES))) && !r.ok;
		eacces_maybe |= es_has(r.errs, EACCES);
		if (i == nc - 1 && !ended) /* every candidate failed */
			maybe(p, eacces_sure ? ES(EACCES) : eacces_maybe ? ES(EACCES, ENOENT) : ES(ENOENT));
	}
	n->sealed = true;
	n->prog = found < 0 ? OB_UNKNOWN : found;
	n->exec_dirfd = e->dirfd;
	n->exec_rel = paths[id].kind != PK_ABS;
}

static void m_setsid(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f, (void)a;
	if (n->setsid || n->pgrp_leader)
		return fail(p, EPERM);
	if (add_child(n, SPAWN_SETSID, p))
		n->setsid = true;
}

/* no pid can be this large (PID_MAX_LIMIT) */
#define NO_GROUP 4194304

static void m_setpgid(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	int64_t v = a->value.value;
	struct cset *s;

	(void)f;
	if (v < 0 || v > INT_MAX)
		return fail(p, EINVAL);
	if (n->setsid || v >= NO_GROUP)
		return fail(p, EPERM);
	if (v && v != opt.pgrp) /* a group in our session, or not */
		maybe(p, ES(EPERM));
	if ((s = add_child(n, SPAWN_SETPGID, p))) {
		s->value = v;
		n->pgrp_leader = v == 0;
	}
}

static bool rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static void m_sched(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	int policy = a->sched.policy, prio = a->sched.priority, max = 0;
	struct cset *s;

	(void)f;
	if (policy != -1)
		policy &= ~SCHED_RESET_ON_FORK;
	if (rt_policy(policy) && prio < 1)
		return fail(p, EINVAL);
	if (rt_policy(policy) || policy == -1)
		max = 99;
	else if (policy != SCHED_OTHER && policy != SCHED_BATCH && policy != SCHED_IDLE)
		return fail(p, EINVAL);
	if (prio < 0 || prio > max)
		return fail(p, EINVAL);
	if ((rlim_t)prio > opt.rtprio && !opt.root)
		return fail(p, EPERM);
	if ((s = add_child(n, SPAWN_SCHED, p)))
		s->sched = a->sched;
}

static void m_tty(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_fd *d = &a->fd;
	uint32_t op = f->step.call[f->cur].cfg.op;
	struct cset *s;

	if (fd_arg_bad(d, 0))
		return fail(p, EINVAL);
	if (op == SPAWN_CTTY && !n->setsid)
		return fail(p, EPERM);
	if (!bopen(n, d->fd) || n->fd[d->fd].opath)
		return fail(p, EBADF);
	if (!opt.chr[n->fd[d->fd].obj])
		return fail(p, ENOTTY);
	if ((s = add_child(n, op, p)))
		s->obj = n->fd[d->fd].obj;
}

/* a limit as prlimit64() reads it */
static uint64_t rlim_of(uint64_t v)
{
	return v >= RLIM_INFINITY ? RLIM_INFINITY : v;
}

static void m_rlimit(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct spawn_rlimit *l = &a->rlimit;
	struct cset *s;

	(void)f;
	if (l->__pad || l->resource >= RLIM_NLIMITS || rlim_of(l->cur) > rlim_of(l->max))
		return fail(p, EINVAL);
	if (l->resource == RLIMIT_NOFILE && rlim_of(l->max) > opt.nr_open)
		return fail(p, EPERM);
	if (rlim_of(l->max) > opt.hard[l->resource] && !opt.root)
		return fail(p, EPERM);
	if ((s = add_child(n, SPAWN_RLIMIT, p)))
		s->rl = *l;
}

static void m_cgroup(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	const struct fdm *src = cfd(f, a->fd.fd);

	if (fd_arg_bad(&a->fd, 0))
		return fail(p, EINVAL);
	if (!src || src->obj != OB_CGROUP)
		return fail(p, EBADF);
	n->cgroup_index = (int)n->nsettings;
}

static void m_nnp(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f, (void)a;
	add_child(n, SPAWN_NO_NEW_PRIVS, p);
}

static void m_autoreap(struct fuzzer *f, struct bmodel *n, const union cfg_arg *a, struct pred *p)
{
	(void)f, (void)a, (void)p;
	n->autoreap = true;
}

/* ---- the model of a commit ---- */

/*
 * The settings the child applies, in config order, on what it is then:
 * each one's failure is an alternative (SETTING, its index); returns
 * false when one certainly fails. The child's expectations follow.
 */
static bool expect_child_settings(const struct bmodel *m, struct pred *p)
{
	struct child_expect *x = &p->child;
	bool ctty = false;
	rlim_t hard[RLIM_NLIMITS];

	memcpy(hard, opt.hard, sizeof(hard));
	for (int i = 0; i < m->nchild; i++) {
		const struct cset *s = &m->cs[i];
		int policy = s->sched.policy, prio = s->sched.priority;
		errset errs = ES_NONE;
		bool dies = false;

		switch (s->op) {
		case SPAWN_SETSID: /* config refused it for a group leader but as below */
			if (x->pg == PG_SELF)
				dies = true, errs = ES(EPERM);
			x->pg = PG_SELF;
			x->session = true;
			break;
		case SPAWN_SETPGID:
			if (s->value == 0) {
				x->pg = PG_SELF;
			} else if (s->value == opt.pgrp) {
				x->pg = PG_CALLER;
			} else { /* a group of the session at config time */
				errs = ES(EPERM, ESRCH);
				x->pg = PG_VALUE;
				x->pgid = s->value;
			}
			break;
		case SPAWN_SCHED:
			if (policy == -1) { /* sched_setparam() */
				if (!x->sched_known)
					errs = ES(EINVAL, EPERM);
				else if (rt_policy(x->policy & ~SCHED_RESET_ON_FORK) ? prio < 1 : prio != 0)
					dies = true, errs = ES(EINVAL);
				x->prio = prio;
			} else {
				if (rt_policy(policy & ~SCHED_RESET_ON_FORK) || !opt.root)
					errs = ES(EPERM); /* RT bandwidth, or the rules of a user */
				x->policy = policy;
				x->prio = prio;
			}
			break;
		case SPAWN_TCSETPGRP: /* the terminal must be the child's, of its session */
			if ((s->obj != OB_PTY && s->obj != OB_PTMX) || !ctty)
				dies = true, errs = ES(ENOTTY);
			break;
		case SPAWN_CTTY: /* after SETSID (config): the pty is nobody's terminal */
			if (s->obj == OB_PTY || s->obj == OB_PTMX)
				ctty = true;
			else
				dies = true, errs = ES(ENOTTY);
			break;
		case SPAWN_RLIMIT:
			if (rlim_of(s->rl.max) > hard[s->rl.resource] && !opt.root)
				dies = true, errs = ES(EPERM);
			hard[s->rl.resource] = rlim_of(s->rl.max);
			break;
		}
		add_alt(p, SPAWN_STEP_SETTING, s->index, errs);
		if (dies)
			return false;
	}
	return true;
}

/* the child's table after the commit's fds and the exec; report: whether probe can report */
static void expect_child_fds(struct fuzzer *f, const struct commit *c, struct pred *p)
{
	struct child_expect *x = &p->child;

	memcpy(x->fd, f->m.fd, sizeof(x->fd));
	for (uint32_t i = 0; i < c->nr_fds; i++) {
		const struct fdm *src = cfd(f, c->fd[i].fd);

		x->fd[c->fd[i].target] = (struct fdm){ src->obj, c->fd[i].flags & SPAWN_FD_CLOEXEC,
						       src->opath };
	}
	for (int fd = 0; fd < TBL; fd++)
		if (x->fd[fd].cloexec)
			x->fd[fd].obj = OB_NONE;
}

/* the errors and failure records a commit may have, and its child if it succeeds */
static void expect_commit(struct fuzzer *f, const struct call *call, struct pred *p)
{
	const struct commit *c = &call->com;
	struct bmodel *m = &f->m;
	struct child_expect *x = &p->child;
	bool rewalk = false;
	int e;

	p->nalt = 0;
	p->ok = false;
	if (call->bref != BR_BUILDER || !m->open)
		return add_alt(p, STEP_NOT_WRITTEN, 0, ES(call->bref == BR_DIR ? EINVAL : EBADF));
	if (c->size < SPAWN_COMMIT_SIZE_VER0)
		return add_alt(p, STEP_NOT_WRITTEN, 0, ES(EINVAL));
	if (c->size > PAGE)
		return add_alt(p, STEP_NOT_WRITTEN, 0, ES(E2BIG));
	if (c->args_ptr == PTR_STRADDLE && c->size > sizeof(struct spawn_commit_args))
		return add_alt(p, STEP_NOT_WRITTEN, 0,
			       ES(straddled_struct_errno(sizeof(struct spawn_commit_args), c->tail)));
	if (c->args_ptr != PTR_OK)
		return add_alt(p, STEP_NOT_WRITTEN, 0, ES(EFAULT));
	if (c->tail >= 0)
		return add_alt(p, STEP_NOT_WRITTEN, 0, ES(E2BIG));
	if (c->fa_ptr == PTR_RO || c->fa_ptr == PTR_KERNEL)
		return add_alt(p, STEP_ANY, 0, ES(EFAULT));
	/* the record says {NONE, NO_INDEX} from here on, unless a step fails */
	if ((c->flags & ~(uint32_t)(SPAWN_COMMIT_PIDFD | SPAWN_COMMIT_CONSUME)) || c->argv == AV_NULL ||
	    ((c->flags & SPAWN_COMMIT_PIDFD) && c->pidfd_ptr == PTR_NULL))
		return add_alt(p, SPAWN_STEP_NONE, SPAWN_NO_INDEX, ES(EINVAL));
	if (c->nr_fds > SPAWN_COMMIT_FDS_MAX)
		return add_alt(p, SPAWN_STEP_NONE, SPAWN_NO_INDEX, ES(E2BIG));
	if (call->via == VIA_OTHER)
		return add_alt(p, SPAWN_STEP_NONE, SPAWN_NO_INDEX, ES(EPERM));
	if (!m->sealed)
		return add_alt(p, SPAWN_STEP_NONE, SPAWN_NO_INDEX, ES(EINVAL));
	if (m->spent)
		return add_alt(p, SPAWN_STEP_NONE, SPAWN_NO_INDEX, ES(EBUSY));
	for (uint32_t i = 0; i < c->nr_fds; i++) {
		const struct spawn_fd *d = &c->fd[i];

		if (c->fds_ptr == PTR_NULL || c->fds_ptr == PTR_KERNEL || i >= c->nbuilt ||
		    (c->fds_ptr == PTR_STRADDLE && i == c->nbuilt - 1))
			return add_alt(p, SPAWN_STEP_FD, i, ES(EFAULT));
		if (fd_arg_bad(d, SPAWN_FD_CLOEXEC))
			return add_alt(p, SPAWN_STEP_FD, i, ES(EINVAL));
		if (d->target < 0 || d->target >= NOFILE || !cfd(f, d->fd))
			return add_alt(p, SPAWN_STEP_FD, i, ES(EBADF));
		if (cfd(f, d->fd)->obj == OB_BUILDER) /* as INSTALL */
			return add_alt(p, SPAWN_STEP_FD, i, ES(EINVAL));
	}
	/* argv, then envp: their copies fail with the exec's step and no index */
	e = c->argv == AV_PROG || c->argv == AV_EMPTY ? 0 : c->argv == AV_BIG ? E2BIG : EFAULT;
	if (!e)
		e = strv_error(c->envp);
	if (e)
		return add_alt(p, SPAWN_STEP_EXEC, SPAWN_NO_INDEX, ES(e));
	/* the task's creation: the process limits, the cgroup's checks */
	add_alt(p, SPAWN_STEP_CREATE, SPAWN_NO_INDEX, ES(EAGAIN, ENOMEM));
	if (m->cgroup_index >= 0)
		add_alt(p, SPAWN_STEP_SETTING, (uint32_t)m->cgroup_index,
			ES(EACCES, EBUSY, EPERM, EOPNOTSUPP, ENOENT, ENODEV, EINVAL));
	/* the child: the pidfd's store, the fds (checked above), the settings */
	if ((c->flags & SPAWN_COMMIT_PIDFD) && c->pidfd_ptr != PTR_OK)
		return add_alt(p, SPAWN_STEP_CREATE, SPAWN_NO_INDEX, ES(EFAULT));
	memset(x, 0, sizeof(*x));
	x->pg = PG_CALLER;
	x->sched_known = true;
	x->policy = opt.policy;
	x->prio = opt.prio;
	if (!expect_child_settings(m, p))
		return;
	/*
	 * The exec of the path SPAWN_EXEC found; a filesystem that revalidates
	 * names walks it again in the child's table, where a commit fd may have
	 * replaced its dirfd.
	 */
	for (uint32_t i = 0; i < c->nr_fds; i++)
		rewalk |= m->exec_rel && c->fd[i].target == m->exec_dirfd;
	if (rewalk)
		add_alt(p, SPAWN_STEP_EXEC, INDEX_ANY, es_or(ES_PATH, ES(ENOEXEC, ETXTBSY)));
	p->ok = true;
	expect_child_fds(f, c, p);
	x->prog = m->prog;
	x->cwd = m->cwd;
	x->umask = m->umask;
	x->mask = m->has_mask ? m->mask : f->during.mask;
	x->ignored = opt.ignored & ~m->sigdfl;
	x->env = c->envp == EV_BUILDER ? m->env : c->envp;
	x->autoreap = m->autoreap;
	x->ppid = call->via == VIA_SELF || call->via == VIA_THREAD ? fz.pid : 0; /* 0: the helper's */
	if (rewalk)
		x->prog = OB_UNKNOWN;
	x->report = x->prog == OB_PROBE && c->argv == AV_PROG &&
		    x->fd[c->report_target].obj == OB_REPORT;
	if (x->prog == OB_TINY)
		x->status = c->argv == AV_EMPTY ? 0 : c->k;
	else if (x->report)
		x->status = 0;
	else if (c->argv == AV_EMPTY || x->fd[c->report_target].obj == OB_NONE)
		x->status = 1; /* probe without its report fd */
	else /* probe writes to whatever its fd is, if it can */
		x->prog = OB_UNKNOWN;
}

/* ---- what the man pages document ---- */

/* the errors of the call a setting stands for (spawn_config.2, spawn_commit.2: "Besides ...") */
static errset doc_call(uint32_t op)
{
	switch (op) {
	case SPAWN_INSTALL:
	case SPAWN_DUP2:
		return ES(EBADF, EBUSY, EINTR, EINVAL, EMFILE);
	case SPAWN_OPEN: /* open(2), openat2(2) */
		return es_or(ES_OPEN, ES(EBUSY, EDQUOT, EINTR, E2BIG));
	case SPAWN_CLOSE:
		return ES(EBADF, EINTR, EIO, ENOSPC, EDQUOT);
	case SPAWN_CLOSE_RANGE:
		return ES(EINVAL, EMFILE, ENOMEM);
	case SPAWN_CHDIR:
		return ES(EACCES, EFAULT, EIO, ELOOP, ENAMETOOLONG, ENOENT, ENOMEM, ENOTDIR);
	case SPAWN_FCHDIR:
		return ES(EACCES, EBADF, EIO, ENOMEM, ENOTDIR);
	case SPAWN_SIGMASK:
	case SPAWN_SIGDEFAULT:
		return ES(EFAULT, EINVAL);
	case SPAWN_RESETIDS: /* setresuid(2) */
		return ES(EAGAIN, EINVAL, EPERM);
	case SPAWN_EXEC: /* execve(2), execveat(2) */
		return ES(E2BIG, EACCES, EAGAIN, EBADF, EFAULT, EINVAL, EIO, EISDIR, ELIBBAD, ELOOP,
			  EMFILE, ENAMETOOLONG, ENFILE, ENOENT, ENOEXEC, ENOMEM, ENOTDIR, EPERM, ETXTBSY);
	case SPAWN_SETSID:
		return ES(EPERM);
	case SPAWN_SETPGID:
		return ES(EACCES, EINVAL, EPERM, ESRCH);
	case SPAWN_SCHED:
		return ES(EINVAL, EPERM, ESRCH);
	case SPAWN_TCSETPGRP: /* tcsetpgrp(3), ioctl(2) */
	case SPAWN_CTTY:
		return ES(EBADF, EFAULT, EINVAL, EIO, ENOTTY, EPERM);
	case SPAWN_RLIMIT:
		return ES(EFAULT, EINVAL, EPERM, ESRCH);
	case SPAWN_CGROUP: /* clone3(2)'s CLONE_INTO_CGROUP */
		return ES(EACCES, EBADF, EBUSY, EOPNOTSUPP);
	case SPAWN_NO_NEW_PRIVS: /* prctl(2) */
		return ES(EINVAL, EPERM);
	default:
		return ES_NONE;
	}
}

/* spawn_config.2's ERRORS, and those of the call op stands for */
static errset doc_config(uint32_t op)
{
	return es_or(ES(E2BIG, EBADF, EBUSY, EFAULT, EINVAL, ENOMEM, ENOTTY, EPERM), doc_call(op));
}

/* the op of the setting with this index, or 0 */
static uint32_t setting_op(const struct bmodel *m, uint32_t index)
{
	if ((int64_t)index == m->cgroup_index)
		return SPAWN_CGROUP;
	for (int i = 0; i < m->nchild; i++)
		if (m->cs[i].index == index)
			return m->cs[i].op;
	return 0;
}

/* spawn_commit.2's ERRORS for a failure at this step (any step if the record is not read) */
static errset doc_commit(const struct bmodel *m, const struct result *res)
{
	errset all = ES(E2BIG, EAGAIN, EBADF, EBUSY, EFAULT, EINTR, EINVAL, ENOMEM, EPERM);

	if (!res->fa_checked) {
		for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
			all = es_or(all, doc_call(ops[i].op));
		return all;
	}
	switch (res->fa.step) {
	case SPAWN_STEP_EXEC:
		return es_or(all, doc_call(SPAWN_EXEC));
	case SPAWN_STEP_SETTING:
		return es_or(all, doc_call(setting_op(m, res->fa.index)));
	case SPAWN_STEP_FD: /* dup2(2) */
		return es_or(all, doc_call(SPAWN_DUP2));
	case SPAWN_STEP_CREATE: /* clone(2) */
		return es_or(all, ES(ENOSPC));
	default:
		return all;
	}
}

/* ---- predictions of the other calls ---- */

/* the size of the op's struct as the kernel has it (ksize): where its last field ends */
static size_t op_size(const struct op_row *row)
{
	size_t n = 0;

	for (const struct field *fl = row->fields; fl->name; fl++)
		n = (size_t)fl->off + fl->size;
	return n;
}

/* the checks before an op's own, in kernel/spawn.c's order */
static void expect_config(struct fuzzer *f, const struct call *call, struct bmodel *next, struct pred *p)
{
	const struct cfg *c = &call->cfg;
	const struct op_row *row = find_op(c->op);

	p->ok = true;
	p->errs = ES_NONE;
	if (call->bref != BR_BUILDER || !f->m.open)
		return fail(p, call->bref == BR_DIR ? EINVAL : EBADF);
	if (!row)
		return fail(p, EINVAL);
	if (!row->ver0 ? c->size != 0 : c->size < row->ver0)
		return fail(p, EINVAL);
	if (row->ver0 && c->size > PAGE)
		return fail(p, E2BIG);
	if (row->ver0 && c->ptr == PTR_STRADDLE && c->size > op_size(row))
		return fail(p, straddled_struct_errno(op_size(row), c->tail));
	if (row->ver0 && c->ptr != PTR_OK)
		return fail(p, EFAULT);
	if (row->ver0 && c->tail >= 0)
		return fail(p, E2BIG);
	if (call->via == VIA_OTHER)
		return fail(p, EPERM);
	if (f->m.sealed || f->m.spent)
		return fail(p, EBUSY);
	row->model(f, next, &c->arg, p);
}

/* read(), write(), ioctl() and the pidfd calls on a builder */
static void expect_poke(const struct fuzzer *f, const struct call *c, struct pred *p)
{
	static const int answer[NPOKES] = { EINVAL, EINVAL, ENOTTY, EBADF, EBADF };

	p->ok = false;
	p->errs = ES(f->m.open ? answer[c->poke] : EBADF);
}

/* ---- placing a call in the arena ---- */

static uint64_t ptr_of(const struct arena *ar, int kind, const char *ok)
{
	switch (kind) {
	case PTR_OK:
		return SB_PTR(ok);
	case PTR_NULL:
		return 0;
	case PTR_KERNEL:
		return KERNEL_ADDR;
	case PTR_RO:
		return SB_PTR(pg(ar, PG_RO));
	default: /* its last 8 bytes in the PROT_NONE page */
		return SB_PTR(ok + 8);
	}
}

/* size bytes of src at the end of page, a non-zero byte at tail; the start */
static char *place_at_end(const struct arena *ar, int page, const void *src, size_t len, size_t size,
			  int tail)
{
	char *end = pg(ar, page + 1), *at = end - (size <= PAGE ? size : 64);

	memset(pg(ar, page), 0, PAGE);
	memcpy(at, src, len < size ? len : size);
	if (tail >= 0 && (size_t)tail < size && size <= PAGE)
		at[tail] = 0x5a;
	return at;
}

/* a caller's fd that a call names */
static int32_t cref_fd(const struct fuzzer *f, int cref, int32_t num)
{
	switch (cref) {
	case CR_BUILDER:
		return f->bfd;
	case CR_SENTINEL:
		return FD_SENT_R;
	case CR_REPORT:
		return FD_REPORT_W;
	default:
		return num;
	}
}

static uint64_t place_cfg(struct fuzzer *f, struct cfg *c)
{
	const struct arena *ar = &f->ar;
	const struct op_row *row = find_op(c->op);
	char *at;

	if (c->op == SPAWN_INSTALL || c->op == SPAWN_CGROUP)
		c->arg.fd.fd = cref_fd(f, c->cref, c->arg.fd.fd);
	if (c->op == SPAWN_EXEC && c->nsearch) {
		char *s = ar->scratch;

		for (int i = 0; i < c->nsearch; i++)
			s += sprintf(s, "%s%s", i ? ":" : "", ar->entry[c->search[i]]);
		c->arg.exec.search = SB_PTR(ar->scratch);
	}
	at = place_at_end(ar, PG_ARG, &c->arg, sizeof(c->arg), c->size, c->tail);
	/*
	 * The kernel wants zeros past its struct of the op sent, where another
	 * op's fields may be (gen_config()): the model judges the bytes placed.
	 */
	c->tail = -1;
	for (size_t i = row ? op_size(row) : 0; row && c->size <= PAGE && i < c->size; i++)
		if (at[i]) {
			c->tail = (int)i;
			break;
		}
	return ptr_of(ar, c->ptr, at);
}

/* a string into the scratch's second part */
static char *put_scratch(char **at, const char *s)
{
	char *p = strcpy(*at, s);

	*at += strlen(s) + 1;
	return p;
}

/* a commit's argv for the program the model says the builder runs */
static uint64_t place_argv(struct fuzzer *f, const struct commit *c)
{
	const struct arena *ar = &f->ar;
	char *text = ar->scratch + 2 * PAGE, num[16];
	uint64_t *v = (uint64_t *)(ar->scratch + 2 * PAGE + 1024);

	switch (c->argv) {
	case AV_NULL:
		return 0;
	case AV_KERNEL:
		return KERNEL_ADDR;
	case AV_STRADDLE_ARRAY:
		return SB_PTR(pg(ar, PG_EDGE1) + PAGE - 8);
	case AV_EMPTY:
		v[0] = 0;
		return SB_PTR(v);
	case AV_PROG:
		if (f->m.prog == OB_PROBE) {
			snprintf(num, sizeof(num), "%d", c->report_target);
			v[0] = SB_PTR(put_scratch(&text, "probe"));
			v[1] = SB_PTR(put_scratch(&text, num));
			v[2] = SB_PTR(put_scratch(&text, f->token));
			v[3] = 0;
			return SB_PTR(v);
		}
		/* tiny, or a program the model does not know: an fd probe would not find */
		snprintf(num, sizeof(num), "%d", f->m.prog == OB_TINY ? c->k : 250);
		v[1] = SB_PTR(put_scratch(&text, num));
		break;
	case AV_BIG:
		v[1] = SB_PTR(opt.big);
		break;
	case AV_BADSTR:
		v[1] = KERNEL_ADDR;
		break;
	default: /* AV_STRADDLE_STR */
		v[1] = ar->path[P_STRADDLE];
		break;
	}
	v[0] = SB_PTR(put_scratch(&text, "tiny"));
	v[2] = 0;
	return SB_PTR(v);
}

static uint64_t place_commit(struct fuzzer *f, struct commit *c)
{
	const struct arena *ar = &f->ar;
	size_t len = c->nbuilt * sizeof(c->fd[0]);
	char *fds = pg(ar, PG_FDS + 1) - len + (c->fds_ptr == PTR_STRADDLE ? 8 : 0);
	struct spawn_commit_args a;

	for (uint32_t i = 0; i < c->nbuilt; i++)
		c->fd[i].fd = cref_fd(f, c->cref[i], c->fd[i].fd);
	memset(pg(ar, PG_FDS), 0, PAGE);
	memcpy(fds, c->fd, c->fds_ptr == PTR_STRADDLE ? len - 8 : len); /* the rest is PROT_NONE */
	a = (struct spawn_commit_args){
		.argv = place_argv(f, c),
		.envp = c->envp == EV_BUILDER ? 0 : ar->strv[c->envp],
		.fds = c->fds_ptr == PTR_STRADDLE ? SB_PTR(fds) : ptr_of(ar, c->fds_ptr, fds),
		.nr_fds = c->nr_fds,
		.flags = c->flags,
		.pidfd = ptr_of(ar, c->pidfd_ptr, (char *)ar->pidfd),
		.failed = ptr_of(ar, c->fa_ptr, (char *)ar->failed),
	};
	*ar->failed = (struct spawn_failure){ SENTINEL, SENTINEL };
	*ar->pidfd = PIDFD_UNSET;
	return ptr_of(ar, c->args_ptr, place_at_end(ar, PG_ARG, &a, sizeof(a), c->size, c->tail));
}

/* ---- running a call ---- */

/* the fd a call names as its builder */
static int bref_fd(const struct fuzzer *f, int bref)
{
	static const int fds[] = { [BR_CLOSED] = 899, [BR_DIR] = FD_TESTS, [BR_OPATH] = FD_WORK,
				   [BR_NEG] = -1 };

	return bref == BR_BUILDER ? f->bfd : fds[bref];
}

/* the system call; in a forked child too (async-signal-safe) */
static void exec_call(const struct fuzzer *f, const struct call *c, uint64_t argp, struct result *res)
{
	int bfd = bref_fd(f, c->bref);
	char buf[64];
	siginfo_t si;

	switch (c->kind) {
	case C_CONFIG:
		res->ret = sb_config(bfd, c->cfg.op, (const void *)(uintptr_t)argp, c->cfg.size);
		break;
	case C_COMMIT:
		res->ret = syscall(__NR_spawn_commit, bfd, argp, c->com.size);
		break;
	case C_CLOSE:
		res->ret = close(bfd);
		break;
	default:
		switch (c->poke) {
		case PK_READ:
			res->ret = read(bfd, buf, 1);
			break;
		case PK_WRITE:
			res->ret = write(bfd, "x", 1);
			break;
		case PK_IOCTL:
			res->ret = ioctl(bfd, TCGETS, buf);
			break;
		case PK_PIDFD_SIGNAL:
			res->ret = syscall(SYS_pidfd_send_signal, bfd, 0, NULL, 0);
			break;
		default:
			res->ret = syscall(SYS_waitid, P_PIDFD, bfd, &si, WEXITED | WNOHANG, NULL);
			break;
		}
	}
	res->err = res->ret < 0 ? errno : 0;
	res->fa = *(volatile struct spawn_failure *)f->ar.failed;
	res->pidfd = *(volatile int *)f->ar.pidfd;
}

struct thread_call {
	const struct fuzzer *f;
	const struct call *c;
	uint64_t argp;
	struct result *res;
};

static void *thread_call(void *arg)
{
	struct thread_call *t = arg;

	exec_call(t->f, t->c, t->argp, t->res);
	return NULL;
}

/* other credentials, in a forked child: nobody as root, else a user namespace */
static bool become_other(void)
{
	if (geteuid() == 0)
		return !syscall(SYS_setgroups, 0, NULL) && !syscall(SYS_setresgid, 65534, 65534, 65534) &&
		       !syscall(SYS_setresuid, 65534, 65534, 65534);
	return !syscall(SYS_unshare, CLONE_NEWUSER);
}

/* fd onto the fixed number to, close-on-exec */
static void move_fd(int fd, int to)
{
	if (fd == to && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0)
		return;
	if (fd < 0 || dup3(fd, to, O_CLOEXEC) != to)
		die("dup3 to %d: %s", to, strerror(errno));
	close(fd);
}

static void make_pipe(int r, int w, int flags)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC | flags))
		die("pipe2: %s", strerror(errno));
	move_fd(p[0], r);
	move_fd(p[1], w);
}

/*
 * The call in a forked child of this thread, which reports its result
 * (and reaps a child it made) through a pipe; *helper: its pid. False if
 * the child gave no result.
 */
static bool fork_call(struct fuzzer *f, const struct call *c, uint64_t argp, struct result *res,
		      pid_t *helper)
{
	siginfo_t si;
	ssize_t got;
	pid_t pid;

	make_pipe(FD_RESULT_R, FD_RESULT_W, 0);
	pid = fork();
	if (pid == 0) {
		struct result r = { 0 };

		if (c->via == VIA_OTHER && !become_other())
			r.skipped = true;
		else
			exec_call(f, c, argp, &r);
		if (c->kind == C_COMMIT && r.ret > 0) {
			close(FD_REPORT_W);
			memset(&si, 0, sizeof(si));
			r.reaped = waitid(P_PID, (pid_t)r.ret, &si, WEXITED | __WALL) == 0;
			r.code = si.si_code;
			r.status = si.si_status;
		}
		_exit(write(FD_RESULT_W, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(FD_RESULT_W);
	if (pid < 0)
		die("fork: %s", strerror(errno));
	*helper = pid;
	if (!fz_single)
		live_set(0, pid);
	atomic_fetch_add(&n_forks, 1);
	do
		got = read(FD_RESULT_R, res, sizeof(*res));
	while (got < 0 && errno == EINTR);
	while (waitid(P_PID, pid, &si, WEXITED | __WALL) < 0 && errno == EINTR)
		continue;
	if (!fz_single)
		live_set(pid, 0);
	close(FD_RESULT_R);
	return got == sizeof(*res);
}

/* ---- printing ---- */

static void print_value(FILE *out, const struct fuzzer *f, const struct cfg *c, const struct field *fl,
			uint64_t v)
{
	int id;

	switch (fl->type) {
	case F_PATH:
	case F_SEARCH:
		for (int i = 0; fl->type == F_SEARCH && i < c->nsearch; i++)
			fprintf(out, "%s%s", i ? ":" : "", entry_names[c->search[i]]);
		if (fl->type == F_SEARCH && (c->nsearch || !v)) {
			fprintf(out, "%s", c->nsearch ? "" : "0");
			break;
		}
		id = classify_path(&f->ar, v);
		if (id >= 0)
			fprintf(out, "%s", paths[id].name);
		else
			fprintf(out, "%#" PRIx64 "?", v);
		break;
	case F_STRV:
		id = classify_strv(&f->ar, v);
		if (id >= 0)
			fprintf(out, "%s", strv_names[id]);
		else
			fprintf(out, "%#" PRIx64 "?", v);
		break;
	case F_BFD:
	case F_CFD:
	case F_TARGET:
	case F_DIRFD:
	case F_POLICY:
	case F_PRIO:
	case F_UMASK:
	case F_PGID:
		if ((int64_t)v == AT_FDCWD && fl->type == F_DIRFD)
			fprintf(out, "AT_FDCWD");
		else if (fl->type == F_UMASK)
			fprintf(out, "%#" PRIo64, v);
		else
			fprintf(out, "%" PRId64, (int64_t)v);
		break;
	case F_MODE:
		fprintf(out, "%#" PRIo64, v);
		break;
	default:
		fprintf(out, "%#" PRIx64, v);
	}
}

static void print_call(FILE *out, const struct fuzzer *f, int i)
{
	const struct call *call = &f->step.call[i];
	const struct cfg *c = &call->cfg;
	const struct commit *m = &call->com;
	const struct op_row *row;

	fprintf(out, "  [%d] ", i);
	if (call->bref != BR_BUILDER)
		fprintf(out, "(on %s) ", bref_names[call->bref]);
	switch (call->kind) {
	case C_CLOSE:
		fprintf(out, "close(builder)\n");
		return;
	case C_POKE:
		fprintf(out, "%s(builder)\n", poke_names[call->poke]);
		return;
	case C_CONFIG:
		row = find_op(c->op);
		if (row)
			fprintf(out, "config %s(", row->name);
		else
			fprintf(out, "config op %u(", c->op);
		fprintf(out, "size %zu%s, %s)", c->size, c->tail >= 0 ? ", non-zero tail" : "", ptr_names[c->ptr]);
		for (const struct field *fl = row ? row->fields : NULL; fl && fl->name; fl++) {
			fprintf(out, " %s=", fl->name);
			print_value(out, f, c, fl, get_field(&c->arg, fl));
		}
		break;
	default:
		fprintf(out, "commit(size %zu%s, args %s): flags %#x argv %s envp %s pidfd %s failed %s "
			     "nr_fds %u fds %s {", m->size, m->tail >= 0 ? ", non-zero tail" : "",
			ptr_names[m->args_ptr], m->flags, argv_names[m->argv], strv_names[m->envp],
			ptr_names[m->pidfd_ptr], ptr_names[m->fa_ptr], m->nr_fds, ptr_names[m->fds_ptr]);
		for (uint32_t e = 0; e < m->nbuilt; e++)
			fprintf(out, "%s%s%d->%d%s%s", e ? ", " : "", m->cref[e] == CR_REPORT ? "report " : "",
				m->fd[e].fd, m->fd[e].target, m->fd[e].flags ? " flags" : "",
				m->fd[e].__pad ? " pad" : "");
		fprintf(out, "} tiny %d", m->k);
	}
	fprintf(out, "%s\n", via_names[call->via]);
}

static const char *step_name(uint32_t step)
{
	static const char *const names[] = { "NONE", "SETTING", "FD", "CREATE", "EXEC" };

	return step < ARRAY_SIZE(names) ? names[step] : step == STEP_NOT_WRITTEN ? "not written" : "any";
}

static void print_pred(FILE *out, const struct fuzzer *f, const struct call *call)
{
	const struct pred *p = &f->p;
	const char *sep = "";

	fprintf(out, "      allowed: ");
	if (p->ok) {
		fprintf(out, "success");
		sep = " or ";
	}
	if (call->kind != C_COMMIT) {
		if (!es_empty(p->errs)) {
			fprintf(out, "%s", sep);
			print_errset(out, p->errs);
		}
		fprintf(out, "\n");
		return;
	}
	for (int i = 0; i < p->nalt; i++) {
		fprintf(out, "%s", sep);
		print_errset(out, p->alt[i].errs);
		if (p->alt[i].step == STEP_NOT_WRITTEN || p->alt[i].step == STEP_ANY)
			fprintf(out, " (record %s)", step_name(p->alt[i].step));
		else if (p->alt[i].index == SPAWN_NO_INDEX)
			fprintf(out, " at {%s}", step_name(p->alt[i].step));
		else if (p->alt[i].index == INDEX_ANY)
			fprintf(out, " at {%s, any}", step_name(p->alt[i].step));
		else
			fprintf(out, " at {%s, %u}", step_name(p->alt[i].step), p->alt[i].index);
		sep = " or ";
	}
	if (p->ok)
		fprintf(out, "; the child: %s exiting %d%s", obj_names[p->child.prog], p->child.status,
			p->child.autoreap ? ", autoreaped" : "");
	fprintf(out, "\n");
}

static void print_result(FILE *out, const struct call *call, const struct result *res)
{
	fprintf(out, "      got: ");
	if (res->skipped)
		fprintf(out, "skipped (no other credentials)");
	else if (res->ret >= 0)
		fprintf(out, "%ld", res->ret);
	else
		fprintf(out, "%s", strerrorname_np(res->err) ? strerrorname_np(res->err) : "?");
	if (call->kind == C_COMMIT && res->fa_checked) {
		if (res->fa.step == SENTINEL)
			fprintf(out, ", record not written");
		else
			fprintf(out, ", record {%s, %#x}", step_name(res->fa.step), res->fa.index);
	}
	if (call->kind == C_COMMIT && res->ret > 0 && res->reaped)
		fprintf(out, ", child %s %d", res->code == CLD_EXITED ? "exit" : "signal", res->status);
	fprintf(out, "\n");
}

static void violation(struct fuzzer *f, const struct result *res, const char *fmt, ...)
{
	long n = violation_begin(f->step.no, f->id);
	const struct call *call = f->cur >= 0 ? &f->step.call[f->cur] : NULL;
	va_list ap;

	if (call)
		printf("call %d: ", f->cur);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!fz.print && n <= DETAILED_VIOLATIONS) { /* --print shows every call anyway */
		printf("  open(%#x)%s\n", f->step.open_flags,
		       f->step.sentinel ? ", the sentinel installed first" : "");
		for (int i = 0; call && i <= f->cur; i++)
			print_call(stdout, f, i);
		if (call)
			print_pred(stdout, f, call);
		if (call && res)
			print_result(stdout, call, res);
		printf("  replay: %s --seed %#" PRIx64 " --replay %lld\n", program_invocation_name,
		       fz.seed, f->step.no);
	}
	violation_end();
}

/* ---- checks ---- */

/* hex of a probe line into out; false if it is not hex */
static bool unhex(const char *hex, char *out, size_t n)
{
	size_t i = 0;

	for (; hex[0] && hex[0] != '\n' && i + 1 < n; hex += 2) {
		unsigned int byte;

		if (sscanf(hex, "%2x", &byte) != 1)
			return false;
		out[i++] = (char)byte;
	}
	out[i] = '\0';
	return true;
}

/* the strings a vector id stands for */
static const char *const *strv_strings(int id)
{
	static const char *const none[] = { NULL };

	return id == SV_SOME ? strv_some : id == SV_OTHER ? strv_other : none;
}

/*
 * probe's report against the model (probe.c: argv, env, cwd, umask,
 * blocked, ignored, ids, creds, sched, one line per fd, end). NULL if it
 * matches, else why not (in f->why).
 */
static const char *check_report(struct fuzzer *f, const struct commit *c, pid_t pid)
{
	const struct child_expect *x = &f->p.child;
	const char *const *env = strv_strings(x->env);
	char num[16], text[PATH_MAX], *line, *save = NULL;
	const char *argv[] = { "probe", num, f->token };
	static __thread bool seen[TBL];
	int nargv = 0, nenv = 0;
	bool end = false;

	snprintf(num, sizeof(num), "%d", c->report_target);
	memset(seen, 0, sizeof(seen));
	for (line = strtok_r(f->out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b, cc, d;
		long long ids[4];
		int fd, cloexec, len;
		unsigned int fl;

		if (!strncmp(line, "argv ", 5)) {
			if (!unhex(line + 5, text, sizeof(text)) || nargv >= 3 || strcmp(text, argv[nargv]))
				return snprintf(f->why, sizeof(f->why), "argv[%d] is \"%s\"", nargv, text), f->why;
			nargv++;
		} else if (!strncmp(line, "env ", 4)) {
			if (!unhex(line + 4, text, sizeof(text)) || !env[nenv] || strcmp(text, env[nenv]))
				return snprintf(f->why, sizeof(f->why), "environ[%d] is \"%s\"", nenv, text), f->why;
			nenv++;
		} else if (!strncmp(line, "cwd ", 4)) {
			if (!unhex(line + 4, text, sizeof(text)) ||
			    (x->cwd != OB_UNKNOWN && strcmp(text, opt.link[x->cwd])))
				return snprintf(f->why, sizeof(f->why), "the cwd is %s, not %s", text,
						obj_names[x->cwd]), f->why;
		} else if (sscanf(line, "umask %llo", &a) == 1) {
			if (a != x->umask)
				return snprintf(f->why, sizeof(f->why), "the umask is %#llo, not %#o", a, x->umask),
				       f->why;
		} else if (sscanf(line, "blocked %llx", &a) == 1 || sscanf(line, "ignored %llx", &a) == 1) {
			uint64_t want = line[0] == 'b' ? x->mask : x->ignored;

			if ((a & ~GLIBC_SIGS) != (want & ~GLIBC_SIGS))
				return snprintf(f->why, sizeof(f->why), "%.7s signals are %#llx, not %#" PRIx64,
						line, a, want), f->why;
		} else if (sscanf(line, "ids %lld %lld %lld %lld", &ids[0], &ids[1], &ids[2], &ids[3]) == 4) {
			long long pgid = x->pg == PG_CALLER ? opt.pgrp : x->pg == PG_SELF ? pid : x->pgid;

			if (ids[0] != pid || (x->ppid && ids[1] != x->ppid) ||
			    ids[2] != (x->session ? pid : opt.sid) || ids[3] != pgid)
				return snprintf(f->why, sizeof(f->why),
						"pid/ppid/sid/pgid are %lld/%lld/%lld/%lld, not %d/%d/%d/%lld",
						ids[0], ids[1], ids[2], ids[3], pid, x->ppid,
						x->session ? pid : opt.sid, pgid), f->why;
		} else if (sscanf(line, "creds %llu %llu %llu %llu", &a, &b, &cc, &d) == 4) {
			if (a != opt.uid || b != opt.uid || cc != opt.gid || d != opt.gid)
				return snprintf(f->why, sizeof(f->why), "the ids are %llu %llu %llu %llu", a, b, cc, d),
				       f->why;
		} else if (sscanf(line, "sched %lld %lld", &ids[0], &ids[1]) == 2) {
			if (x->sched_known && (ids[0] != x->policy || ids[1] != x->prio))
				return snprintf(f->why, sizeof(f->why), "the scheduling is %lld/%lld, not %d/%d",
						ids[0], ids[1], x->policy, x->prio), f->why;
		} else if (sscanf(line, "fd %d %d %o %n", &fd, &cloexec, &fl, &len) == 3) {
			const char *want;

			if (fd < 0 || fd >= TBL || x->fd[fd].obj == OB_NONE || cloexec)
				return snprintf(f->why, sizeof(f->why), "fd %d is open", fd), f->why;
			want = link_of(f, x->fd[fd].obj);
			if (!unhex(line + len, text, sizeof(text)) || (*want && strcmp(text, want)))
				return snprintf(f->why, sizeof(f->why), "fd %d is %s, not %s (%s)", fd, text,
						obj_names[x->fd[fd].obj], want), f->why;
			seen[fd] = true;
		} else if (!strcmp(line, "end")) {
			end = true;
		} else {
			return snprintf(f->why, sizeof(f->why), "probe said \"%.100s\"", line), f->why;
		}
	}
	if (!end || nargv != 3 || env[nenv])
		return snprintf(f->why, sizeof(f->why), "the report is cut (%d of 3 argv, environ %s, %s)",
				nargv, env[nenv] ? "short" : "complete", end ? "end" : "no end"), f->why;
	for (int fd = 0; fd < TBL; fd++)
		if (x->fd[fd].obj != OB_NONE && !seen[fd])
			return snprintf(f->why, sizeof(f->why), "fd %d (%s) is not open", fd,
					obj_names[x->fd[fd].obj]), f->why;
	return NULL;
}

/* the report pipe's content until end of file; false on a time-out */
static bool read_report(struct fuzzer *f)
{
	size_t len = 0;
	ssize_t got = -1;
	struct pollfd p = { FD_REPORT_R, POLLIN, 0 };

	for (;;) {
		int n = poll(&p, 1, REAP_TIMEOUT_MS);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got = read(FD_REPORT_R, f->out + len, 65535 - len);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
		if (len == 65535)
			len = 0; /* far too much: keep reading to the end, the check fails */
	}
	f->out[len] = '\0';
	return got == 0;
}

/* an AUTOREAP child: gone (pidfd readable, then no such pid), never waitable */
static bool wait_gone(pid_t pid, int pidfd)
{
	int pfd = pidfd >= 0 ? pidfd : (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { pfd, POLLIN, 0 };

	while (pfd >= 0 && poll(&p, 1, REAP_TIMEOUT_MS) < 0 && errno == EINTR)
		continue;
	if (pfd >= 0 && pfd != pidfd)
		close(pfd);
	for (int ms = 0; ms < 5000; ms++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		usleep(1000);
	}
	return false;
}

/* a successful commit's child: its report, its exit; reaped here unless a helper did */
static void check_child(struct fuzzer *f, const struct call *call, struct result *res)
{
	const struct child_expect *x = &f->p.child;
	pid_t pid = (pid_t)res->ret;
	bool got_all = read_report(f);
	const char *why = NULL;
	siginfo_t si;

	atomic_fetch_add(&n_children, 1);
	if (call->via == VIA_SELF || call->via == VIA_THREAD) {
		if (!fz_single)
			live_set(0, pid);
		if (x->autoreap) {
			if (!wait_gone(pid, res->pidfd))
				violation(f, res, "invariant 5: the AUTOREAP child %d is still there", pid);
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, pid, &si, WEXITED | WNOHANG | __WALL) && si.si_pid == pid)
				violation(f, res, "invariant 5: the AUTOREAP child %d was waitable", pid);
		} else {
			if (!reap_child(pid, res->pidfd, REAP_TIMEOUT_MS, &si))
				violation(f, res, "invariant 5: the child did not exit within %d ms",
					  REAP_TIMEOUT_MS);
			res->reaped = true;
			res->code = si.si_code;
			res->status = si.si_status;
		}
		if (!fz_single)
			live_set(pid, 0);
	} else if (x->autoreap && res->reaped) {
		violation(f, res, "invariant 5: the helper could wait for its AUTOREAP child");
	}
	if (!got_all)
		violation(f, res, "invariant 5: the report pipe stayed open for %d ms", REAP_TIMEOUT_MS);
	if (res->reaped && (res->code != CLD_EXITED ||
			    (x->prog != OB_UNKNOWN && res->status != x->status)))
		violation(f, res, "invariant 5: the child %s %d, not exit %d",
			  res->code == CLD_EXITED ? "exited" : "was killed by", res->status, x->status);
	if (x->report && (why = check_report(f, &call->com, pid)))
		violation(f, res, "invariant 5: %s", why);
	if (x->report && !why)
		atomic_fetch_add(&n_checked, 1);
}

/* does the record match the alternative's step and index */
static bool record_matches(const struct alt *a, const struct result *res)
{
	if (!res->fa_checked || a->step == STEP_ANY)
		return true;
	if (a->step == STEP_NOT_WRITTEN)
		return res->fa.step == SENTINEL && res->fa.index == SENTINEL;
	return res->fa.step == a->step && (a->index == INDEX_ANY || res->fa.index == a->index);
}

/* after a CONSUME commit: whether it got as far as the child (copy_process()) */
static bool consumed(const struct fuzzer *f, const struct commit *c, const struct result *res)
{
	if (res->ret > 0)
		return true;
	switch (res->fa.step) {
	case SPAWN_STEP_SETTING:
		return (int64_t)res->fa.index != f->m.cgroup_index;
	case SPAWN_STEP_EXEC:
		return res->fa.index != SPAWN_NO_INDEX;
	case SPAWN_STEP_CREATE: /* the pidfd's store fails in the child */
		return res->err == EFAULT && (c->flags & SPAWN_COMMIT_PIDFD) && c->pidfd_ptr != PTR_OK;
	default:
		return false;
	}
}

/* what /proc/thread-self/fdinfo says of the builder */
struct fdinfo {
	unsigned int flags, settings;
	int sealed, spent;
};

static struct fdinfo read_fdinfo(const struct fuzzer *f)
{
	struct fdinfo i = { ~0U, ~0U, -1, -1 };
	char path[64], buf[512];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/thread-self/fdinfo/%d", f->bfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len : 0] = '\0';
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		sscanf(l, "spawn-flags: %x", &i.flags);
		sscanf(l, "settings: %u", &i.settings);
		sscanf(l, "sealed: %d", &i.sealed);
		sscanf(l, "spent: %d", &i.spent);
	}
	return i;
}

/* /proc's view of the builder: the flags, settings, sealed and spent of the model */
static void check_fdinfo(struct fuzzer *f, const struct result *res)
{
	struct fdinfo i;

	if (!f->m.open)
		return;
	i = read_fdinfo(f);
	if (i.flags != f->m.flags || i.settings != f->m.nsettings || i.sealed != f->m.sealed ||
	    i.spent != f->m.spent)
		violation(f, res, "invariant 2: fdinfo says flags %#x, %u settings, sealed %d, spent %d; "
				  "the model %#x, %u, %d, %d", i.flags, i.settings, i.sealed, i.spent,
			  f->m.flags, f->m.nsettings, f->m.sealed, f->m.spent);
}

static void check_config(struct fuzzer *f, const struct call *call, const struct bmodel *next,
			 const struct result *res)
{
	const struct pred *p = &f->p;

	if (res->ret >= 0) {
		if (!p->ok)
			violation(f, res, "invariant 2: the call succeeded");
		else if (res->ret != f->m.nsettings)
			violation(f, res, "invariant 2: the index is %ld, not %u", res->ret, f->m.nsettings);
		if (p->ok) {
			f->m = *next;
			f->m.nsettings++;
		}
		return;
	}
	count_errno(res->err);
	if (!es_has(doc_config(call->cfg.op), res->err))
		violation(f, res, "invariant 1: %s is not documented for this setting",
			  strerrorname_np(res->err));
	else if (!es_has(p->errs, res->err))
		violation(f, res, "invariant 2: errno not allowed");
	if (p->open_closes) /* SPAWN_OPEN closed the fd before it failed */
		f->m.fd[call->cfg.arg.open.fd].obj = OB_NONE;
}

static void check_commit(struct fuzzer *f, const struct call *call, struct result *res)
{
	const struct commit *c = &call->com;
	const struct pred *p = &f->p;
	bool ok_record = false;

	atomic_fetch_add(&n_commits, 1);
	res->fa_checked = c->fa_ptr == PTR_OK;
	if (res->ret > 0) {
		atomic_fetch_add(&n_commits_ok, 1);
		if (!p->ok)
			violation(f, res, "invariant 2: the commit succeeded");
		if (res->fa_checked && (res->fa.step != SPAWN_STEP_NONE || res->fa.index != SPAWN_NO_INDEX))
			violation(f, res, "invariant 2: a success left the record {%u, %#x}", res->fa.step,
				  res->fa.index);
		if (call->via == VIA_SELF || call->via == VIA_THREAD) {
			bool asked = (c->flags & SPAWN_COMMIT_PIDFD) && c->pidfd_ptr == PTR_OK;
			bool fresh = asked && res->pidfd >= 0 && res->pidfd < TBL &&
				     f->cm[res->pidfd].obj == OB_NONE;
			int named = fresh ? pidfd_pid(res->pidfd) : -1;
			/* an autoreaped child may be gone already: its pidfd names no pid */
			bool gone = fresh && named == -1 && p->child.autoreap;

			if (asked && named != res->ret && !gone)
				violation(f, res, "invariant 3: the pidfd %d names %d, not %ld", res->pidfd,
					  named, res->ret);
			else if (!asked && res->pidfd != PIDFD_UNSET)
				violation(f, res, "invariant 3: a pidfd (%d) without SPAWN_COMMIT_PIDFD",
					  res->pidfd);
			if (named != res->ret && !gone)
				res->pidfd = -1;
		}
		check_child(f, call, res);
		if (res->pidfd >= 0 && (call->via == VIA_SELF || call->via == VIA_THREAD))
			close(res->pidfd);
	} else {
		count_errno(res->err);
		for (int i = 0; i < p->nalt; i++)
			ok_record |= es_has(p->alt[i].errs, res->err) && record_matches(&p->alt[i], res);
		if (!es_has(doc_commit(&f->m, res), res->err))
			violation(f, res, "invariant 1: %s is not documented for this step",
				  strerrorname_np(res->err));
		else if (!ok_record)
			violation(f, res, "invariant 2: errno or record not allowed");
	}
	/* a failure without a record to read: fdinfo tells whether the child took the table */
	if ((c->flags & SPAWN_COMMIT_CONSUME) && f->m.open && f->m.sealed && !f->m.spent)
		f->m.spent = res->ret > 0 || res->fa_checked ? consumed(f, c, res)
							     : read_fdinfo(f).spent == 1;
}

/* ---- steps ---- */

/* /proc's text for a pipe's fd: "pipe:[INODE]" */
static void pipe_link(int fd, char out[64])
{
	struct stat st;

	snprintf(out, 64, "pipe:[%lu]", fstat(fd, &st) ? 0UL : (unsigned long)st.st_ino);
}

/* TCSETPGRP and CTTY never name the fuzzer's own terminal, nor a file the model does not know */
static void sanitize_tty(const struct fuzzer *f, struct cfg *c)
{
	int64_t fd = c->arg.fd.fd;
	int o = fd >= 0 && fd < TBL ? f->m.fd[fd].obj : OB_NONE;

	if ((c->op == SPAWN_TCSETPGRP || c->op == SPAWN_CTTY) &&
	    (o == OB_STD0 || o == OB_STD1 || o == OB_STD2 || o == OB_UNKNOWN))
		c->arg.fd.fd = -1;
}

static void run_call(struct fuzzer *f, int i)
{
	struct call *call = &f->step.call[i];
	struct result res = { 0 };
	static __thread struct bmodel next;
	uint64_t argp = 0;
	pid_t helper = 0;
	int broken;

	f->cur = i;
	memset(&f->p, 0, sizeof(f->p));
	snprintf(f->token, sizeof(f->token), "s%lldc%d", f->step.no, i);
	switch (call->kind) {
	case C_CONFIG:
		sanitize_tty(f, &call->cfg);
		argp = place_cfg(f, &call->cfg);
		next = f->m;
		expect_config(f, call, &next, &f->p);
		break;
	case C_COMMIT:
		make_pipe(FD_REPORT_R, FD_REPORT_W, 0);
		f->cm[FD_REPORT_W] = (struct fdm){ OB_REPORT, true, false };
		pipe_link(FD_REPORT_R, f->report_link);
		argp = place_commit(f, &call->com);
		expect_commit(f, call, &f->p);
		break;
	case C_POKE:
		expect_poke(f, call, &f->p);
		break;
	case C_CLOSE:
		f->p.ok = f->m.open;
		f->p.errs = f->m.open ? ES_NONE : ES(EBADF);
		break;
	}
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		print_call(stdout, f, i);
		print_pred(stdout, f, call);
		pthread_mutex_unlock(&out_lock);
	}
	if (call->via == VIA_THREAD) {
		struct thread_call t = { f, call, argp, &res };
		pthread_t th;

		if ((errno = pthread_create(&th, NULL, thread_call, &t)))
			die("pthread_create: %s", strerror(errno));
		pthread_join(th, NULL);
	} else if (call->via != VIA_SELF) {
		if (!fork_call(f, call, argp, &res, &helper))
			violation(f, NULL, "the forked child %d gave no result", helper);
	} else {
		exec_call(f, call, argp, &res);
	}
	if (call->kind == C_COMMIT) {
		close(FD_REPORT_W);
		f->cm[FD_REPORT_W].obj = OB_NONE;
	}
	if (helper && f->p.child.ppid == 0)
		f->p.child.ppid = f->p.child.autoreap ? 0 : helper;
	atomic_fetch_add(&n_syscalls, 1);
	if (res.skipped) {
		atomic_fetch_add(&n_other_skipped, 1);
	} else if (call->kind == C_CONFIG) {
		check_config(f, call, &next, &res);
	} else if (call->kind == C_COMMIT) {
		check_commit(f, call, &res);
	} else {
		if (res.ret >= 0 ? !f->p.ok : !es_has(f->p.errs, res.err))
			violation(f, &res, "invariant 2: %s on the builder not allowed",
				  call->kind == C_CLOSE ? "close()" : poke_names[call->poke]);
		if (call->kind == C_CLOSE && res.ret == 0) {
			f->m.open = false;
			f->cm[f->bfd].obj = OB_NONE;
			take_state(&f->during);
		}
	}
	atomic_fetch_add(res.ret >= 0 ? &n_ok : &n_fail, 1);
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		print_result(stdout, call, &res);
		pthread_mutex_unlock(&out_lock);
	}
	if (call->kind == C_COMMIT)
		close(FD_REPORT_R);
	check_fdinfo(f, &res);
	take_state(&f->now);
	if ((broken = state_diff(&f->during, &f->now, f->why, sizeof(f->why))))
		violation(f, &res, "invariant 3: %s", f->why);
	if (dispositions_diff(f->why, sizeof(f->why)))
		violation(f, &res, "invariant 3: %s", f->why);
	if (fz_single && children(f->why, sizeof(f->why), call->kind == C_COMMIT && res.ret < 0))
		violation(f, &res, "invariant 4: %s", f->why);
}

/* the sentinel: a pipe whose write end only the builder's table holds */
static void install_sentinel(struct fuzzer *f)
{
	const struct step *s = &f->step;
	struct spawn_fd a = { .fd = FD_SENT_W, .target = s->sentinel_target,
			      .flags = s->sentinel_cloexec ? SPAWN_FD_CLOEXEC : 0 };
	struct result res = { 0 };

	make_pipe(FD_SENT_R, FD_SENT_W, O_NONBLOCK);
	pipe_link(FD_SENT_R, f->sentinel_link);
	f->cm[FD_SENT_R] = (struct fdm){ OB_SENTINEL, true, false };
	if (f->m.open) {
		res.ret = sb_set(f->bfd, SPAWN_INSTALL, &a);
		res.err = errno;
		if (res.ret != f->m.nsettings)
			violation(f, &res, "installing the sentinel gave %ld (%s), not %u", res.ret,
				  strerror(res.err), f->m.nsettings);
		f->m.fd[a.target] = (struct fdm){ OB_SENTINEL, s->sentinel_cloexec, false };
		f->m.nsettings++;
	}
	close(FD_SENT_W);
}

/* after the builder's close and its children's end: the write end is gone */
static void check_sentinel(struct fuzzer *f)
{
	struct pollfd p = { FD_SENT_R, POLLIN, 0 };
	char byte;
	int n;

	while ((n = poll(&p, 1, 5000)) < 0 && errno == EINTR)
		continue;
	if (n <= 0 || read(FD_SENT_R, &byte, 1) != 0)
		violation(f, NULL, "invariant 6: the builder is closed and its children are gone, but "
				   "the sentinel pipe's write end is still open");
	close(FD_SENT_R);
	f->cm[FD_SENT_R].obj = OB_NONE;
}

static void run_step(struct fuzzer *f, long long no)
{
	struct step *s = &f->step;
	struct bmodel *m = &f->m;
	struct result res = { 0 };
	bool valid;

	gen_step(&f->ar, no, s);
	f->cur = -1;
	valid = !(s->open_flags & ~(uint32_t)(SPAWN_OPEN_CLOEXEC | SPAWN_OPEN_INHERIT_FDS));
	memset(m, 0, sizeof(*m));
	m->flags = s->open_flags;
	if (s->open_flags & SPAWN_OPEN_INHERIT_FDS)
		memcpy(m->fd, fd_template, sizeof(m->fd));
	m->cwd = OB_WORK;
	m->umask = 022;
	m->env = -1;
	m->prog = OB_UNKNOWN;
	m->cgroup_index = -1;
	memcpy(f->cm, fd_template, sizeof(f->cm));
	if (fz.print) {
		pthread_mutex_lock(&out_lock);
		printf("step %lld (thread %d, %s): open(%#x)%s\n", no, f->id, phase, s->open_flags,
		       s->sentinel ? ", then the sentinel" : "");
		pthread_mutex_unlock(&out_lock);
	}
	res.ret = f->bfd = sb_open(s->open_flags);
	res.err = errno;
	atomic_fetch_add(&n_syscalls, 1);
	if (f->bfd >= 0) {
		m->open = true;
		f->cm[f->bfd] = (struct fdm){ OB_BUILDER, s->open_flags & SPAWN_OPEN_CLOEXEC, false };
		if (!valid)
			violation(f, &res, "invariant 2: spawn_open(%#x) succeeded", s->open_flags);
		if (fcntl(f->bfd, F_GETFD) != (s->open_flags & SPAWN_OPEN_CLOEXEC ? FD_CLOEXEC : 0))
			violation(f, &res, "invariant 2: the builder's close-on-exec flag is not as asked");
	} else {
		f->bfd = FD_FIRST_FREE;
		count_errno(res.err);
		if (!es_has(ES(EINVAL, EMFILE, ENFILE, ENOMEM, ENOSYS), res.err))
			violation(f, &res, "invariant 1: spawn_open(): %s is not documented",
				  strerrorname_np(res.err));
		else if (valid || res.err != EINVAL)
			violation(f, &res, "invariant 2: spawn_open(%#x): %s", s->open_flags,
				  strerrorname_np(res.err));
	}
	if (s->sentinel)
		install_sentinel(f);
	check_fdinfo(f, &res);
	take_state(&f->during);
	for (int i = 0; i < s->ncalls; i++)
		run_call(f, i);
	f->cur = -1;
	if (m->open && close(f->bfd))
		violation(f, NULL, "close(builder): %s", strerror(errno));
	if (s->sentinel)
		check_sentinel(f);
	take_state(&f->now);
	if (state_diff(&f->before, &f->now, f->why, sizeof(f->why)))
		violation(f, NULL, "invariant 3 after the step: %s", f->why);
	if (fz_single && children(f->why, sizeof(f->why), no % PROC_SCAN_EVERY == 0 || fz.replay >= 0))
		violation(f, NULL, "invariant 4 after the step: %s", f->why);
	atomic_fetch_add(&n_calls, 1);
}

/* ---- setup ---- */

static char *put_str(char **text, const char *s)
{
	char *at = strcpy(*text, s);

	*text += strlen(s) + 1;
	return at;
}

/* a NULL-terminated vector of the n pointers v at *text, 8-byte aligned */
static uint64_t put_vec(char **text, const uint64_t *v, size_t n)
{
	uint64_t *at = (uint64_t *)(((uintptr_t)*text + 7) & ~(uintptr_t)7);

	for (size_t i = 0; i < n; i++)
		at[i] = v[i];
	at[n] = 0;
	*text = (char *)(at + n + 1);
	return SB_PTR(at);
}

static void arena_init(struct arena *ar)
{
	char *text, *end, buf[PATH_MAX + 16];
	static const char *const abs_names[] = {
		[P_LINK] = "link", [P_NOEXEC] = "noexec", [P_SUB] = "sub", [P_NEW] = "new",
	};

	ar->base = mmap(NULL, (size_t)ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ar->base == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	text = pg(ar, PG_TEXT);
	for (int id = 0; id < NPATHS; id++) {
		const struct path_row *row = &paths[id];

		if (row->kind == PK_REL) {
			ar->path[id] = SB_PTR(put_str(&text, row->rel));
		} else if (row->kind == PK_ABS) {
			if (id < (int)ARRAY_SIZE(abs_names) && abs_names[id])
				snprintf(buf, sizeof(buf), "%s/%s", opt.work, abs_names[id]);
			else if (id == P_MISSING)
				snprintf(buf, sizeof(buf), "/nonexistent-builder-fuzz/x");
			else if (id == P_NOTDIR)
				snprintf(buf, sizeof(buf), "%s/x", opt.tiny);
			else
				snprintf(buf, sizeof(buf), "%s",
					 id == P_TINY ? opt.tiny : id == P_PROBE ? opt.probe
					 : id == P_TESTS ? opt.tests : id == P_WORK ? opt.work
					 : id == P_ROOT ? "/" : "/dev/null");
			ar->path[id] = SB_PTR(put_str(&text, buf));
		}
	}
	ar->path[P_EMPTY] = SB_PTR(put_str(&text, ""));
	ar->path[P_TOOLONG] = SB_PTR(text); /* longer than PATH_MAX */
	*text++ = '/';
	for (int i = 0; i < 2100; i++, text += 2)
		memcpy(text, "./", 2);
	*text++ = '\0';
	ar->path[P_LONGNAME] = SB_PTR(text); /* a name longer than NAME_MAX */
	*text++ = '/';
	memset(text, 'n', 300);
	text += 300;
	*text++ = '\0';
	end = pg(ar, PG_EDGE0) + PAGE;
	memcpy(end - 8, "/fuzzstr", 8); /* no NUL before the PROT_NONE page */
	ar->path[P_STRADDLE] = SB_PTR(end - 8);
	ar->path[P_NULL] = 0;
	ar->path[P_KERNEL] = KERNEL_ADDR;
	ar->path[P_GUARD] = SB_PTR(end);
	end = pg(ar, PG_EDGE1) + PAGE;
	*(uint64_t *)(end - 8) = ar->path[P_EMPTY]; /* and no NULL before PROT_NONE */

	snprintf(buf, sizeof(buf), "%s/sub", opt.work);
	ar->entry[E_TESTS] = put_str(&text, opt.tests);
	ar->entry[E_WORK] = put_str(&text, opt.work);
	ar->entry[E_SUB] = put_str(&text, buf);
	ar->entry[E_MISSING] = put_str(&text, "/nonexistent-builder-fuzz");
	snprintf(buf, sizeof(buf), "%s/noexec", opt.work);
	ar->entry[E_NOTDIR] = put_str(&text, buf);
	ar->entry[E_EMPTY] = "";
	ar->entry[E_REL_SUB] = "sub";
	ar->entry[E_ROOT] = "/";
	ar->entry[E_TOOLONG] = (const char *)(uintptr_t)ar->path[P_TOOLONG];

	ar->strv[SV_EMPTY] = put_vec(&text, (const uint64_t[]){ 0 }, 0);
	ar->strv[SV_SOME] = put_vec(&text, (const uint64_t[]){ SB_PTR(strv_some[0]), SB_PTR(strv_some[1]) }, 2);
	ar->strv[SV_OTHER] = put_vec(&text, (const uint64_t[]){ SB_PTR(strv_other[0]) }, 1);
	ar->strv[SV_NULL] = 0;
	ar->strv[SV_BIG] = put_vec(&text, (const uint64_t[]){ SB_PTR(opt.big) }, 1);
	ar->strv[SV_BADSTR] = put_vec(&text, (const uint64_t[]){ SB_PTR("A=1"), KERNEL_ADDR }, 2);
	ar->strv[SV_STRADDLE_STR] = put_vec(&text, (const uint64_t[]){ ar->path[P_STRADDLE] }, 1);
	ar->strv[SV_STRADDLE_ARRAY] = SB_PTR(end - 8);
	ar->strv[SV_KERNEL] = KERNEL_ADDR;
	if (text > pg(ar, PG_SCRATCH))
		die("arena text overflow");
	ar->scratch = pg(ar, PG_SCRATCH);
	ar->failed = (struct spawn_failure *)pg(ar, PG_MISC);
	ar->pidfd = (int *)(pg(ar, PG_MISC) + 64);
	if (mprotect(pg(ar, PG_EDGE0 + 1), PAGE, PROT_NONE) ||
	    mprotect(pg(ar, PG_EDGE1 + 1), PAGE, PROT_NONE) || mprotect(pg(ar, PG_RO), PAGE, PROT_READ) ||
	    mprotect(pg(ar, PG_ARG + 1), PAGE, PROT_NONE) || mprotect(pg(ar, PG_FDS + 1), PAGE, PROT_NONE))
		die("mprotect: %s", strerror(errno));
}

/* path opened with flags onto fd, close-on-exec; NULL: /dev/null */
static void open_at(const char *path, int flags, int fd)
{
	move_fd(open(path ? path : "/dev/null", (path ? flags : O_RDWR) | O_CLOEXEC), fd);
}

/* the text of /proc/thread-self/fd/FD into out (PATH_MAX), "" if it cannot be read */
static void fd_link(int fd, char *out)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", fd);
	n = readlink(path, out, PATH_MAX - 1);
	out[n > 0 ? n : 0] = '\0';
}

/* the descriptors every fuzzing thread has: fd_template says what they are */
static void fd_setup(struct fuzzer *f)
{
	char path[PATH_MAX + 16];
	int master = -1;

	if (syscall(SYS_close_range, 3, ~0U, 0))
		die("close_range: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/noexec", opt.work);
	open_at(opt.tests, O_RDONLY | O_DIRECTORY, FD_TESTS);
	open_at(opt.tiny, O_RDONLY, FD_TINY);
	open_at(opt.work, O_PATH | O_DIRECTORY, FD_WORK);
	open_at(path, O_RDONLY, FD_NOEXEC);
	open_at(opt.probe, O_PATH, FD_PROBE);
	open_at(NULL, 0, FD_NULL);
	if (opt.pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (master < 0 || grantpt(master) || unlockpt(master) || ptsname_r(master, path, sizeof(path)))
			die("a pseudo-terminal: %s", strerror(errno));
		/*
		 * The master took the lowest free fd, FD_PTY: onto its own first,
		 * or the slave's move onto FD_PTY would close it (and leave
		 * FD_PTY closed, where spawn_open() then puts the builder).
		 */
		move_fd(master, FD_PTMX);
		open_at(path, O_RDWR | O_NOCTTY, FD_PTY);
		fd_link(FD_PTY, f->pty_link);
	} else {
		open_at(NULL, 0, FD_PTY);
		open_at(NULL, 0, FD_PTMX);
	}
	open_at(opt.cgroup ? opt.link[OB_CGROUP] : NULL, O_RDONLY | O_DIRECTORY, FD_CGROUP);
	open_at("/", O_RDONLY | O_DIRECTORY, FD_ROOT);
	for (int fd = 0; fd < TBL; fd++) { /* the table each step's model starts from */
		int fl = fcntl(fd, F_GETFD);

		if ((fl >= 0) != (fd_template[fd].obj != OB_NONE) ||
		    (fl >= 0 && (fl == FD_CLOEXEC) != fd_template[fd].cloexec))
			die("fd %d is not what the model has (%s)", fd, obj_names[fd_template[fd].obj]);
	}
}

static struct fuzzer *fuzzers[MAX_THREADS];

static void hook_setup(int thread)
{
	struct fuzzer *f = fuzzers[thread];

	if (unshare(CLONE_FILES | CLONE_FS))
		die("unshare: %s", strerror(errno));
	fd_setup(f);
	fuzz_thread_state(opt.work, &f->before);
}

static void hook_one(int thread, long long no)
{
	run_step(fuzzers[thread], no);
}

/* the model's assumptions about the file system, checked once */
static void check_layout(void)
{
	const char *const dirs[] = { "/", opt.tests, opt.work };
	const int dir_objs[] = { OB_ROOT, OB_TESTS, OB_WORK };
	const char *const names[] = { "tiny", "probe", "noexec", "link", "sub", "missing" };
	char path[PATH_MAX * 2];
	struct stat st;

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++)
		for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
			bool expected = lookup(names[n], dir_objs[d]) != OB_MISSING;

			snprintf(path, sizeof(path), "%s/%s", dirs[d], names[n]);
			if (!lstat(path, &st) != expected)
				die("%s %s, which the model does not expect", path, expected ? "is missing" : "exists");
		}
	for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
		snprintf(path, sizeof(path), "%s/sub/%s", opt.work, names[n]);
		if (!lstat(path, &st))
			die("%s exists, which the model does not expect", path);
	}
	if (stat(opt.tiny, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 0111) != 0111 ||
	    stat(opt.probe, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 0111) != 0111)
		die("%s and %s must be programs everyone may run (--exec names tiny)", opt.tiny, opt.probe);
	if (!lstat("/nonexistent-builder-fuzz", &st))
		die("/nonexistent-builder-fuzz exists");
}

/* what the run made, "new" wherever an open created it */
static void remove_work_dir(void)
{
	const char *const dirs[] = { opt.work, opt.tests, "", opt.link[OB_SUB] };
	const char *const files[] = { "noexec", "link", "new" };
	char path[PATH_MAX * 2];

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		snprintf(path, sizeof(path), "%s/new", dirs[d]);
		unlink(path);
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", opt.work, files[i]);
		unlink(path);
	}
	rmdir(opt.link[OB_SUB]);
	rmdir(opt.work);
}

/* dir/name into out (PATH_MAX) */
static void join(char *out, const char *dir, const char *name)
{
	if (snprintf(out, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		die("%s/%s: too long", dir, name);
}

/* the kernel has no process builder: say so, and do not pass */
static void skip(const char *fmt, ...)
{
	va_list ap;

	printf("builder-fuzz: SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(77);
}

/* spawn_open(0) must make a builder: number 463 is another call in 6.13 and later */
static void probe_builder(void)
{
	char link[64], target[64] = "";
	int fd = sb_open(0);

	if (fd < 0)
		skip("spawn_open(0): %s; this kernel has no process builder (series-builder)",
		     strerrorname_np(errno));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (readlink(link, target, sizeof(target) - 1) < 0)
		target[0] = '\0';
	close(fd);
	if (strcmp(target, "anon_inode:[spawn_builder]"))
		skip("system call %d made \"%s\", not a builder: another call has its number here",
		     __NR_spawn_open, target);
}

/* the caller's cgroup2 directory, if the hierarchy is mounted whole */
static void find_cgroup(void)
{
	char line[PATH_MAX], cg[PATH_MAX] = "", mnt[PATH_MAX] = "", root[PATH_MAX];
	FILE *in = fopen("/proc/self/cgroup", "re");
	int fd;

	while (in && fgets(line, sizeof(line), in))
		if (sscanf(line, "0::%4095s", cg) == 1)
			break;
	if (in)
		fclose(in);
	in = fopen("/proc/self/mountinfo", "re");
	while (in && fgets(line, sizeof(line), in) && !*mnt) {
		char *dash = strstr(line, " - cgroup2 ");

		if (dash && sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) == 2 && strcmp(root, "/"))
			*mnt = '\0';
	}
	if (in)
		fclose(in);
	if (!*cg || !*mnt)
		return;
	if (snprintf(opt.link[OB_CGROUP], PATH_MAX, "%s%s", mnt, strcmp(cg, "/") ? cg : "") >= PATH_MAX)
		return;
	fd = open(opt.link[OB_CGROUP], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	opt.cgroup = fd >= 0;
	if (fd >= 0)
		close(fd);
}

/* objects in the spawn_builder slab after a shrink, or -1 (not root, no such slab) */
static long slab_count(void)
{
	int fd = open("/sys/kernel/slab/spawn_builder/shrink", O_WRONLY | O_CLOEXEC);
	FILE *in;
	char line[512];
	long n = -1;

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			n = -1;
		close(fd);
	}
	in = fopen("/proc/slabinfo", "re");
	while (in && fgets(line, sizeof(line), in))
		if (sscanf(line, "spawn_builder %ld", &n) == 1)
			break;
	if (in)
		fclose(in);
	return n;
}

/* CapEff has CAP_SYS_NICE and CAP_SYS_RESOURCE */
static bool privileged(void)
{
	FILE *in = fopen("/proc/self/status", "re");
	unsigned long long caps = 0;
	char line[256];

	while (in && fgets(line, sizeof(line), in))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (in)
		fclose(in);
	return (caps >> 23 & 1) && (caps >> 24 & 1);
}

static void setup(void)
{
	char path[PATH_MAX];
	struct sched_param param;
	struct rlimit rl;
	FILE *in;
	int tty;

	probe_builder();
	if (!*opt.tiny) {
		ssize_t n = readlink("/proc/self/exe", opt.probe, sizeof(opt.probe) - 8);

		if (n <= 0)
			die("readlink /proc/self/exe: %s", strerror(errno));
		opt.probe[n] = '\0';
		strcpy(strrchr(opt.probe, '/') + 1, "tiny");
		snprintf(opt.tiny, sizeof(opt.tiny), "%s", opt.probe);
	}
	if (!realpath(opt.tiny, opt.tests) || strcmp(strrchr(opt.tests, '/'), "/tiny") ||
	    strrchr(opt.tests, '/') == opt.tests)
		die("%s: the program to exec must be called tiny, in a directory other than /", opt.tiny);
	snprintf(opt.tiny, sizeof(opt.tiny), "%s", opt.tests);
	*strrchr(opt.tests, '/') = '\0';
	join(opt.probe, opt.tests, "probe");

	/* the limit the model works with: fd 1023 open, 1024 beyond it */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max < NOFILE)
		die("RLIMIT_NOFILE's hard limit is below %d", NOFILE);
	rl.rlim_cur = NOFILE;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit: %s", strerror(errno));
	fuzz_process_setup();
	fuzz_work_dir("builder-fuzz", opt.tiny, path);
	/* probe reports the cwd and fds as the kernel names them */
	if (!realpath(path, opt.work))
		die("realpath %s: %s", path, strerror(errno));
	check_layout();

	for (int fd = 0; fd < 3; fd++) {
		fd_link(fd, opt.link[OB_STD0 + fd]);
		fd_template[fd] = (struct fdm){ OB_STD0 + fd, fcntl(fd, F_GETFD) == FD_CLOEXEC, false };
	}
	snprintf(opt.link[OB_TESTS], PATH_MAX, "%s", opt.tests);
	snprintf(opt.link[OB_TINY], PATH_MAX, "%s", opt.tiny);
	snprintf(opt.link[OB_PROBE], PATH_MAX, "%s", opt.probe);
	snprintf(opt.link[OB_WORK], PATH_MAX, "%s", opt.work);
	join(opt.link[OB_NOEXEC], opt.work, "noexec");
	join(opt.link[OB_SUB], opt.work, "sub");
	strcpy(opt.link[OB_NULL], "/dev/null");
	strcpy(opt.link[OB_ROOT], "/");
	strcpy(opt.link[OB_BUILDER], "anon_inode:[spawn_builder]");
	opt.chr[OB_NULL] = opt.chr[OB_PTY] = opt.chr[OB_PTMX] = true;
	find_cgroup();
	tty = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	opt.pty = tty >= 0;
	if (tty >= 0)
		close(tty);

	opt.uid = getuid();
	opt.gid = getgid();
	if (geteuid() != opt.uid || getegid() != opt.gid)
		die("the model wants the real and effective ids equal");
	opt.root = privileged();
	opt.pgrp = getpgrp();
	opt.sid = getsid(0);
	opt.policy = sched_getscheduler(0);
	opt.prio = sched_getparam(0, &param) ? 0 : param.sched_priority;
	for (int r = 0; r < RLIM_NLIMITS; r++) {
		opt.hard[r] = getrlimit(r, &rl) ? 0 : rl.rlim_max;
		if (r == RLIMIT_RTPRIO)
			opt.rtprio = rl.rlim_cur;
	}
	in = fopen("/proc/sys/fs/nr_open", "re");
	if (!in || fscanf(in, "%" SCNu64, &opt.nr_open) != 1)
		die("/proc/sys/fs/nr_open: %s", strerror(errno));
	fclose(in);
	for (int sig = 1; sig <= 64; sig++)
		if (dispositions[sig].sa_handler == SIG_IGN)
			opt.ignored |= SIG(sig);
	opt.big = malloc(BIG_STRING + 1);
	if (!opt.big)
		die("out of memory");
	memset(opt.big, 'x', BIG_STRING);
	opt.big[BIG_STRING] = '\0';

	for (int fd = 3; fd < TBL; fd++)
		fd_template[fd] = (struct fdm){ OB_NONE, false, false };
	fd_template[FD_TESTS] = (struct fdm){ OB_TESTS, true, false };
	fd_template[FD_TINY] = (struct fdm){ OB_TINY, true, false };
	fd_template[FD_WORK] = (struct fdm){ OB_WORK, true, true };
	fd_template[FD_NOEXEC] = (struct fdm){ OB_NOEXEC, true, false };
	fd_template[FD_PROBE] = (struct fdm){ OB_PROBE, true, true };
	fd_template[FD_NULL] = (struct fdm){ OB_NULL, true, false };
	fd_template[FD_PTY] = (struct fdm){ opt.pty ? OB_PTY : OB_NULL, true, false };
	fd_template[FD_PTMX] = (struct fdm){ opt.pty ? OB_PTMX : OB_NULL, true, false };
	fd_template[FD_CGROUP] = (struct fdm){ opt.cgroup ? OB_CGROUP : OB_NULL, true, false };
	fd_template[FD_ROOT] = (struct fdm){ OB_ROOT, true, false };

	opt.slab = slab_count();
	for (int i = 0; i < MAX_THREADS; i++) {
		fuzzers[i] = calloc(1, sizeof(*fuzzers[i]));
		if (!fuzzers[i] || !(fuzzers[i]->out = malloc(65536)))
			die("out of memory");
		fuzzers[i]->id = i;
		arena_init(&fuzzers[i]->ar);
	}
}

/* the work directory; the builders' slab back where it started */
static void cleanup(void)
{
	long now = opt.slab >= 0 ? slab_count() : -1;

	remove_work_dir();
	if (opt.slab < 0 || now < 0)
		printf("spawn_builder slab: not checked (not root, or no such slab)\n");
	else if (now > opt.slab + 100)
		violation_note("invariant 6: the spawn_builder slab holds %ld objects, %ld at the start",
			       now, opt.slab);
	else
		printf("spawn_builder slab: %ld objects, %ld at the start\n", now, opt.slab);
}

static void summary(double seconds)
{
	printf("builder-fuzz: seed %#" PRIx64 ", %ld steps of %ld calls in %.1f s: %ld succeeded, "
	       "%ld failed (", fz.seed, atomic_load(&n_calls), atomic_load(&n_syscalls), seconds,
	       atomic_load(&n_ok), atomic_load(&n_fail));
	print_errno_counts();
	printf(")\ncommits %ld, %ld succeeded: %ld children, %ld probe reports checked; "
	       "%ld calls from forked children, %ld with no other credentials to be had\n",
	       atomic_load(&n_commits), atomic_load(&n_commits_ok), atomic_load(&n_children),
	       atomic_load(&n_checked), atomic_load(&n_forks), atomic_load(&n_other_skipped));
}

int main(int argc, char **argv)
{
	fz.name = "builder-fuzz";
	fz.unit = "step";
	fuzz_parse(argc, argv);
	if (fz.exec)
		snprintf(opt.tiny, sizeof(opt.tiny), "%s", fz.exec);
	setup();
	printf("builder-fuzz: seed %#" PRIx64 " (--seed %#" PRIx64 " repeats this run, --replay N "
	       "one step); exec %s and %s; work %s; pty %s, cgroup %s, %sprivileged\n",
	       fz.seed, fz.seed, opt.tiny, opt.probe, opt.work, opt.pty ? "yes" : "no",
	       opt.cgroup ? opt.link[OB_CGROUP] : "no", opt.root ? "" : "not ");
	fz_hooks.setup = hook_setup;
	fz_hooks.one = hook_one;
	return fuzz_run(cleanup, summary);
}
