/*
 * probe: reports the state it was started with, for the corpus to check.
 *
 * Usage: probe REPORT_FD [ARG...]. Writes to REPORT_FD one line a fact:
 *   argv HEX                  each argument, argv[0] first
 *   env HEX                   each environment string
 *   cwd HEX
 *   umask OCTAL
 *   blocked HEX               bit n-1 set: signal n (1..64) is blocked
 *   ignored HEX               bit n-1 set: signal n is ignored
 *   ids PID PPID SID PGID
 *   creds RUID EUID RGID EGID
 *   sched POLICY PRIORITY     sched_getscheduler() and the priority
 *   fd N CLOEXEC FLAGS HEX    each open fd: FD_CLOEXEC (0 or 1), F_GETFL in
 *                             octal, and its /proc/self/fd link
 *   end
 * HEX is a string's bytes in hex (nothing for the empty string). Exits 0
 * once everything is written.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_hex(FILE *out, const char *value)
{
	for (const unsigned char *byte = (const unsigned char *)value; *byte; byte++)
		fprintf(out, "%02x", *byte);
	fputc('\n', out);
}

static void put_string(FILE *out, const char *key, const char *value)
{
	fprintf(out, "%s ", key);
	put_hex(out, value);
}

static void put_signals(FILE *out)
{
	sigset_t mask;
	uint64_t blocked = 0, ignored = 0;

	sigprocmask(SIG_BLOCK, NULL, &mask);
	for (int sig = 1; sig <= 64; sig++) {
		struct sigaction action;

		if (sigismember(&mask, sig) == 1)
			blocked |= UINT64_C(1) << (sig - 1);
		if (sigaction(sig, NULL, &action) == 0 && action.sa_handler == SIG_IGN)
			ignored |= UINT64_C(1) << (sig - 1);
	}
	fprintf(out, "blocked %" PRIx64 "\nignored %" PRIx64 "\n", blocked, ignored);
}

static void put_fds(FILE *out)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;

	if (dir == NULL)
		exit(1);
	while ((entry = readdir(dir)) != NULL) {
		char link[32], target[PATH_MAX];
		int fd = atoi(entry->d_name);

		if (entry->d_name[0] == '.' || fd == dirfd(dir))
			continue;
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t length = readlink(link, target, sizeof target - 1);

		if (length < 0)
			exit(1);
		target[length] = '\0';
		fprintf(out, "fd %d %d %o ", fd, (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0,
			(unsigned int)fcntl(fd, F_GETFL));
		put_hex(out, target);
	}
	closedir(dir);
}

int main(int argc, char **argv)
{
	char cwd[PATH_MAX];
	FILE *out = argc > 1 ? fdopen(atoi(argv[1]), "w") : NULL;

	if (out == NULL || getcwd(cwd, sizeof cwd) == NULL)
		return 1;
	for (int i = 0; i < argc; i++)
		put_string(out, "argv", argv[i]);
	for (char **env = environ; *env; env++)
		put_string(out, "env", *env);
	put_string(out, "cwd", cwd);
	mode_t mask = umask(0);

	fprintf(out, "umask %o\n", (unsigned int)mask);
	put_signals(out);
	fprintf(out, "ids %d %d %d %d\n", getpid(), getppid(), getsid(0), getpgid(0));
	fprintf(out, "creds %u %u %u %u\n", (unsigned int)getuid(), (unsigned int)geteuid(),
		(unsigned int)getgid(), (unsigned int)getegid());
	struct sched_param param;

	if (sched_getparam(0, &param) < 0)
		return 1;
	fprintf(out, "sched %d %d\n", sched_getscheduler(0), param.sched_priority);
	put_fds(out);
	fprintf(out, "end\n");
	return fclose(out) == 0 ? 0 : 1;
}
