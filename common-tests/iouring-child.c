// SPDX-License-Identifier: MIT
/*
 * Exec target of the io_uring CLONE/EXEC tests: iouring-child CODE [FILE]
 * creates FILE (if given) and exits with CODE, or with 99 when it starts
 * with any signal blocked (a mask leaked from an io_uring worker thread).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	sigset_t mask;
	int sig;

	if (sigprocmask(SIG_SETMASK, NULL, &mask))
		return 98;
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&mask, sig) == 1)
			return 99;
	if (argc > 2) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			return 97;
		close(fd);
	}
	return argc > 1 ? atoi(argv[1]) : 0;
}
