/* Running the probe and reading its report (format: programs/probe.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"

void probe_prepare(struct probe *probe, struct compat_spawn *request)
{
	int fds[2];

	/* only the write end goes to the probe */
	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	cr_assert_eq(fcntl(fds[1], F_SETFD, 0), 0);
	probe->read_fd = fds[0];
	probe->write_fd = fds[1];
	snprintf(probe->fd_arg, sizeof probe->fd_arg, "%d", probe->write_fd);
	probe->argv[0] = "probe";
	probe->argv[1] = probe->fd_arg;
	probe->argv[2] = NULL;
	*request = (struct compat_spawn){ .path = program("probe"), .argv = probe->argv };
}

static char *read_all(int fd)
{
	size_t size = 0, capacity = 4096;
	char *text = malloc(capacity);
	ssize_t got;

	cr_assert(text != NULL);
	while ((got = read(fd, text + size, capacity - size - 1)) != 0) {
		if (got < 0) {
			cr_assert_eq(errno, EINTR, "read report: %s", strerror(errno));
			continue;
		}
		size += (size_t)got;
		if (capacity - size < 2) {
			capacity *= 2;
			text = realloc(text, capacity);
			cr_assert(text != NULL);
		}
	}
	text[size] = '\0';
	return text;
}

static char *unhex(const char *hex)
{
	size_t length = strlen(hex) / 2;
	char *text = malloc(length + 1);

	cr_assert(text != NULL);
	for (size_t i = 0; i < length; i++) {
		unsigned int byte;

		cr_assert_eq(sscanf(hex + 2 * i, "%2x", &byte), 1, "bad hex in report: %s", hex);
		text[i] = (char)byte;
	}
	text[length] = '\0';
	return text;
}

static void push(char ***list, size_t *count, char *item)
{
	*list = realloc(*list, (*count + 1) * sizeof **list);
	cr_assert(*list != NULL);
	(*list)[(*count)++] = item;
}

static void parse_fd(struct report *report, const char *value)
{
	struct report_fd entry;
	int consumed;
	unsigned int flags;

	/* an fd the probe reports survived its exec: its FD_CLOEXEC, always 0, is not read */
	cr_assert_eq(sscanf(value, "%d %*d %o %n", &entry.fd, &flags, &consumed), 2,
		     "bad fd line: %s", value);
	entry.flags = (int)flags;
	entry.target = unhex(value + consumed);
	report->fds = realloc(report->fds, (report->nfds + 1) * sizeof *report->fds);
	cr_assert(report->fds != NULL);
	report->fds[report->nfds++] = entry;
}

/* One "key value" line; returns whether it was the final "end". */
static bool parse_line(struct report *report, char *line)
{
	char *value = strchr(line, ' ');
	unsigned int umask_bits;

	if (value)
		*value++ = '\0';
	else
		value = line + strlen(line);
	if (strcmp(line, "argv") == 0)
		push(&report->argv, &report->argc, unhex(value));
	else if (strcmp(line, "env") == 0)
		push(&report->env, &report->envc, unhex(value));
	else if (strcmp(line, "cwd") == 0)
		report->cwd = unhex(value);
	else if (strcmp(line, "umask") == 0 && sscanf(value, "%o", &umask_bits) == 1)
		report->umask = umask_bits;
	else if (strcmp(line, "blocked") == 0)
		report->blocked = strtoull(value, NULL, 16);
	else if (strcmp(line, "ignored") == 0)
		report->ignored = strtoull(value, NULL, 16);
	else if (strcmp(line, "ids") == 0)
		cr_assert_eq(sscanf(value, "%d %d %d %d", &report->pid, &report->ppid,
				    &report->sid, &report->pgid), 4);
	else if (strcmp(line, "creds") == 0)
		cr_assert_eq(sscanf(value, "%u %u %u %u", &report->uid, &report->euid, &report->gid,
				    &report->egid), 4);
	else if (strcmp(line, "sched") == 0)
		cr_assert_eq(sscanf(value, "%d %d", &report->policy, &report->priority), 2);
	else if (strcmp(line, "fd") == 0)
		parse_fd(report, value);
	else
		cr_assert_str_eq(line, "end", "unknown report line");
	return strcmp(line, "end") == 0;
}

void probe_run(struct probe *probe, const struct compat_spawn *request, struct report *report)
{
	probe_read(probe, spawn_ok(request), report);
}

void probe_read(struct probe *probe, pid_t pid, struct report *report)
{
	cr_assert_eq(close(probe->write_fd), 0);
	char *text = read_all(probe->read_fd), *line, *rest = text;
	bool ended = false;

	cr_assert_eq(close(probe->read_fd), 0);
	expect_exit(pid, 0);
	*report = (struct report){ .cwd = NULL };
	while (!ended && (line = strtok_r(rest, "\n", &rest)) != NULL)
		ended = parse_line(report, line);
	cr_assert(ended, "the probe's report is incomplete");
	cr_assert_eq(report->pid, pid, "the report is not from the spawned child");
	cr_assert_eq(report->ppid, getpid());
}

void probe_with(struct report *report, const struct compat_action *actions, size_t count)
{
	struct probe probe;
	struct compat_spawn request;

	probe_prepare(&probe, &request);
	request.actions = actions;
	request.n_actions = count;
	probe_run(&probe, &request, report);
}

const struct report_fd *report_fd(const struct report *report, int fd)
{
	for (size_t i = 0; i < report->nfds; i++)
		if (report->fds[i].fd == fd)
			return &report->fds[i];
	return NULL;
}

bool report_has_env(const struct report *report, const char *entry)
{
	for (size_t i = 0; i < report->envc; i++)
		if (strcmp(report->env[i], entry) == 0)
			return true;
	return false;
}
