/* SPDX-License-Identifier: MIT */
/*
 * Audit records of this process's children, for the series' ABI tests:
 * does a spawn's setup and exec leave the records that the equivalent
 * system calls would?
 *
 * audit_nl_start() opens a NETLINK_AUDIT socket, makes this process the
 * audit daemon (enabled, pid) and adds one exit-filter rule: always record
 * the given system calls of tasks whose parent is this process. For other
 * rules, audit_nl_open() does the first part and audit_nl_add_rule() adds
 * the one rule: on io_uring operations (AUDIT_FILTER_URING_EXIT), or a
 * watch on a file.
 * audit_nl_collect() reads the records, grouped into events by serial
 * number, until the wanted events came or time is up. audit_nl_stop()
 * deletes the rule, stops being the daemon and puts "enabled" back; it is
 * safe to call twice (call it from the test's .fini as well).
 *
 * There is one audit daemon per system: every user of this file takes
 * AUDIT_NL_LOCK first, so parallel tests wait for each other. Root in the
 * initial user and pid namespaces only (CAP_AUDIT_CONTROL).
 */
#ifndef SPAWNLAB_AUDIT_NETLINK_H
#define SPAWNLAB_AUDIT_NETLINK_H

#include <linux/audit.h>
#include <linux/netlink.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define AUDIT_NL_LOCK "/tmp/spawnlab-audit-netlink.lock"
#define AUDIT_NL_EVENTS 128
#define AUDIT_NL_EVENT_TEXT 4096

struct audit_nl {
	int fd;		/* the NETLINK_AUDIT socket; -1 when stopped */
	int lock;	/* the flock()ed AUDIT_NL_LOCK */
	uint32_t seq;
	uint32_t old_enabled;
	bool daemon;
	bool rule_added;
	/* the rule, to delete it again: an audit_rule_data and its string */
	union {
		struct audit_rule_data rule;
		char rule_buf[sizeof(struct audit_rule_data) + PATH_MAX];
	};
	size_t rule_len;
};

/* The records of one event, one a line, as "type=1300 audit(...): ...". */
struct audit_event {
	unsigned long serial;
	size_t len;
	char text[AUDIT_NL_EVENT_TEXT];
};

struct audit_log {
	size_t n;
	size_t dropped;		/* records that did not fit */
	struct audit_event ev[AUDIT_NL_EVENTS];
};

/*
 * An event to look for: one system call, or io_uring operation (its
 * URINGOP record: syscall = AUDIT_WANT_URING_OP(opcode)), and, if path,
 * its PATH record.
 */
struct audit_want {
	int syscall;
	pid_t pid;		/* 0: any */
	const char *success;	/* "yes" or "no"; NULL: either */
	const char *exit;	/* the return value as audit prints it; NULL: any */
	const char *path;	/* a PATH record's name; NULL: none needed */
};

/* above every system call number */
#define AUDIT_WANT_URING_BASE 0x10000
#define AUDIT_WANT_URING_OP(op) (AUDIT_WANT_URING_BASE + (op))

static inline long audit_nl_ms_left(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 +
	       (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

static inline struct timespec audit_nl_deadline(int timeout_ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += timeout_ms / 1000;
	t.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

/* Wait until deadline for a datagram: its length, 0 on timeout, or -errno. */
static inline ssize_t audit_nl_recv(struct audit_nl *a, void *buf, size_t size,
				    const struct timespec *deadline)
{
	struct pollfd p = { .fd = a->fd, .events = POLLIN };
	long left;
	ssize_t n;

	while ((left = audit_nl_ms_left(deadline)) > 0) {
		int ready = poll(&p, 1, (int)left);

		if (ready < 0 && errno != EINTR)
			return -errno;
		if (ready <= 0)
			continue;
		n = recv(a->fd, buf, size, 0);
		if (n >= 0)
			return n;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
	return 0;
}

/* The message at *off of a datagram of n bytes, or NULL; moves *off on. */
static inline struct nlmsghdr *audit_nl_next(char *buf, size_t n, size_t *off)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + *off);

	if (*off + NLMSG_HDRLEN > n || h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > n - *off)
		return NULL;
	*off += NLMSG_ALIGN(h->nlmsg_len);
	return h;
}

/*
 * Send one request and wait for its acknowledgement and, with reply, for
 * the answer of the same type. Records that come meanwhile are dropped:
 * call this only while no wanted record is on its way. 0 or -errno.
 */
static inline int audit_nl_request(struct audit_nl *a, uint16_t type, const void *data,
				   size_t len, void *reply, size_t reply_len)
{
	static char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct timespec deadline = audit_nl_deadline(5000);
	bool acked = false, answered = !reply;
	ssize_t n;

	if (NLMSG_SPACE(len) > sizeof(buf))
		return -EINVAL;
	memset(buf, 0, NLMSG_SPACE(len));
	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = ++a->seq;
	memcpy(NLMSG_DATA(h), data, len);
	if (sendto(a->fd, buf, h->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;

	while (!acked || !answered) {
		n = audit_nl_recv(a, buf, sizeof(buf), &deadline);
		if (n <= 0)
			return n ? (int)n : -ETIMEDOUT;
		for (size_t off = 0; (h = audit_nl_next(buf, (size_t)n, &off));) {
			if (h->nlmsg_seq != a->seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				int err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;

				if (err)
					return err;
				acked = true;
			} else if (h->nlmsg_type == type && reply) {
				size_t got = h->nlmsg_len - NLMSG_HDRLEN;

				memcpy(reply, NLMSG_DATA(h), got < reply_len ? got : reply_len);
				answered = true;
			}
		}
	}
	return 0;
}

static inline int audit_nl_set(struct audit_nl *a, uint32_t mask, uint32_t enabled, uint32_t pid)
{
	struct audit_status s = { .mask = mask, .enabled = enabled, .pid = pid };

	return audit_nl_request(a, AUDIT_SET, &s, sizeof(s), NULL, 0);
}

/* Undo whatever audit_nl_start() did; safe to call again. */
static inline void audit_nl_stop(struct audit_nl *a)
{
	if (a->fd < 0)
		return;
	if (a->rule_added)
		audit_nl_request(a, AUDIT_DEL_RULE, &a->rule, a->rule_len, NULL, 0);
	if (a->daemon) {
		/* in this order, the records of the change come to us, not the console */
		audit_nl_set(a, AUDIT_STATUS_ENABLED, a->old_enabled, 0);
		audit_nl_set(a, AUDIT_STATUS_PID, 0, 0);
	}
	a->rule_added = a->daemon = false;
	close(a->fd);
	close(a->lock);
	a->fd = a->lock = -1;
}

/* Become the audit daemon, with no rule yet. 0, or -errno with everything undone. */
static inline int audit_nl_open(struct audit_nl *a)
{
	struct audit_status old = { 0 };
	int err;

	memset(a, 0, sizeof(*a));
	a->fd = a->lock = -1;
	a->lock = open(AUDIT_NL_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (a->lock < 0 || flock(a->lock, LOCK_EX) < 0) {
		err = -errno;
		if (a->lock >= 0)
			close(a->lock);
		a->lock = -1;
		return err;
	}
	a->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (a->fd < 0) {
		err = -errno;
		close(a->lock);
		a->lock = -1;
		return err;
	}

	err = audit_nl_request(a, AUDIT_GET, &old, sizeof(old), &old, sizeof(old));
	if (err)
		goto fail;
	a->old_enabled = old.enabled;
	err = audit_nl_set(a, AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID, 1, (uint32_t)getpid());
	if (err)
		goto fail;
	a->daemon = true;
	return 0;

fail:
	audit_nl_stop(a);
	return err;
}

/*
 * Add the one rule of an open session: always record, on filter list
 * (AUDIT_FILTER_EXIT: at a system call's exit; AUDIT_FILTER_URING_EXIT: at
 * an io_uring operation's), the calls or operations nrs[0..n) (n == 0:
 * all) of this process's children; with watch, only those that use the
 * file at that absolute path. 0, or -errno with the session stopped.
 */
static inline int audit_nl_add_rule(struct audit_nl *a, uint32_t list, const int *nrs, size_t n,
				    const char *watch)
{
	struct audit_rule_data *r = &a->rule;
	size_t len = watch ? strlen(watch) : 0;
	int err;

	memset(a->rule_buf, 0, sizeof(a->rule_buf));
	if (len >= PATH_MAX) {
		audit_nl_stop(a);
		return -ENAMETOOLONG;
	}
	r->flags = list;
	r->action = AUDIT_ALWAYS;
	for (size_t i = 0; i < n; i++)
		r->mask[nrs[i] / 32] |= 1U << (nrs[i] % 32);
	if (!n)
		memset(r->mask, 0xff, sizeof(r->mask));
	r->fields[r->field_count] = AUDIT_PPID;
	r->fieldflags[r->field_count] = AUDIT_EQUAL;
	r->values[r->field_count++] = (uint32_t)getpid();
	if (watch) {
		/* a string field's value is its length; the text goes to buf */
		r->fields[r->field_count] = AUDIT_WATCH;
		r->fieldflags[r->field_count] = AUDIT_EQUAL;
		r->values[r->field_count++] = (uint32_t)len;
		memcpy(r->buf, watch, len);
		r->buflen = (uint32_t)len;
	}
	a->rule_len = sizeof(*r) + len;
	err = audit_nl_request(a, AUDIT_ADD_RULE, r, a->rule_len, NULL, 0);
	if (err) {
		audit_nl_stop(a);
		return err;
	}
	a->rule_added = true;
	return 0;
}

/*
 * Become the audit daemon and record the system calls nrs[0..n) of this
 * process's children at their exit. 0, or -errno with everything undone.
 */
static inline int audit_nl_start(struct audit_nl *a, const int *nrs, size_t n)
{
	int err = audit_nl_open(a);

	return err ? err : audit_nl_add_rule(a, AUDIT_FILTER_EXIT, nrs, n, NULL);
}

/* Add one record to the event of its serial number. */
static inline void audit_log_add(struct audit_log *log, int type, const char *text, size_t len)
{
	struct audit_event *e = NULL;
	char line[AUDIT_NL_EVENT_TEXT];
	unsigned long serial;
	int n;

	n = snprintf(line, sizeof(line), "type=%d %.*s\n", type, (int)strnlen(text, len), text);
	if (sscanf(line, "type=%*d audit(%*u.%*u:%lu)", &serial) != 1)
		serial = 0;
	for (size_t i = 0; i < log->n && !e; i++)
		if (log->ev[i].serial == serial)
			e = &log->ev[i];
	if (!e && log->n < AUDIT_NL_EVENTS) {
		e = &log->ev[log->n++];
		e->serial = serial;
		e->len = 0;
	}
	if (!e || n < 0 || (size_t)n >= sizeof(line) || e->len + (size_t)n >= sizeof(e->text)) {
		log->dropped++;
		return;
	}
	memcpy(e->text + e->len, line, (size_t)n + 1);
	e->len += (size_t)n;
}

/* Does this record line (up to its '\n') have the field key=value? */
static inline bool audit_record_has(const char *line, const char *key, const char *value)
{
	const char *end = strchr(line, '\n');
	size_t klen = strlen(key), vlen = strlen(value);

	for (const char *p = line; (p = strstr(p, key)) && p < end; p += klen) {
		const char *v = p + klen + 1;

		if ((p == line || p[-1] == ' ') && p[klen] == '=' && !strncmp(v, value, vlen) &&
		    (v[vlen] == ' ' || v[vlen] == '\n'))
			return true;
	}
	return false;
}

/* Is this record line of type type? */
static inline bool audit_record_is(const char *line, int type)
{
	char prefix[16];

	snprintf(prefix, sizeof(prefix), "type=%d ", type);
	return !strncmp(line, prefix, strlen(prefix));
}

static inline bool audit_event_matches(const struct audit_event *e, const struct audit_want *w)
{
	bool uring = w->syscall >= AUDIT_WANT_URING_BASE, syscall = false, path = !w->path;
	char nr[16], pid[16], name[PATH_MAX + 2];

	snprintf(nr, sizeof(nr), "%d", uring ? w->syscall - AUDIT_WANT_URING_BASE : w->syscall);
	snprintf(pid, sizeof(pid), "%d", (int)w->pid);
	snprintf(name, sizeof(name), "\"%s\"", w->path ? w->path : "");
	for (const char *l = e->text; *l; l = strchr(l, '\n') + 1) {
		if (audit_record_is(l, uring ? AUDIT_URINGOP : AUDIT_SYSCALL))
			syscall = audit_record_has(l, uring ? "uring_op" : "syscall", nr) &&
				  (!w->pid || audit_record_has(l, "pid", pid)) &&
				  (!w->success || audit_record_has(l, "success", w->success)) &&
				  (!w->exit || audit_record_has(l, "exit", w->exit));
		else if (w->path && audit_record_is(l, AUDIT_PATH))
			path |= audit_record_has(l, "name", name);
	}
	return syscall && path;
}

/* The first event of the log that the want describes, or NULL. */
static inline const struct audit_event *audit_log_find(const struct audit_log *log,
						       const struct audit_want *w)
{
	for (size_t i = 0; i < log->n; i++)
		if (audit_event_matches(&log->ev[i], w))
			return &log->ev[i];
	return NULL;
}

static inline bool audit_log_has_all(const struct audit_log *log, const struct audit_want *wants,
				     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!audit_log_find(log, &wants[i]))
			return false;
	return true;
}

/*
 * Empty the log, then read records into it until it holds an event for
 * each of wants[0..n) or timeout_ms has passed. True if all came.
 */
static inline bool audit_nl_collect(struct audit_nl *a, struct audit_log *log,
				    const struct audit_want *wants, size_t n, int timeout_ms)
{
	static char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct timespec deadline = audit_nl_deadline(timeout_ms);
	struct nlmsghdr *h;
	ssize_t len;

	log->n = log->dropped = 0;
	while (!audit_log_has_all(log, wants, n)) {
		len = audit_nl_recv(a, buf, sizeof(buf), &deadline);
		if (len <= 0)
			return false;
		/*
		 * kauditd sends one record a datagram, whose nlmsg_len leaves
		 * out the header (audit_log_end()): trust the datagram's length.
		 */
		h = (struct nlmsghdr *)buf;
		if ((size_t)len >= NLMSG_HDRLEN && h->nlmsg_type >= AUDIT_SYSCALL)
			audit_log_add(log, h->nlmsg_type, NLMSG_DATA(h), (size_t)len - NLMSG_HDRLEN);
	}
	return true;
}

static inline void audit_log_print(const struct audit_log *log, FILE *out)
{
	fprintf(out, "%zu audit events (%zu records dropped):\n", log->n, log->dropped);
	for (size_t i = 0; i < log->n; i++)
		fputs(log->ev[i].text, out);
}

#endif
