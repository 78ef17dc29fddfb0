/* Run PROGRAM, searched for in PATH as execvp(3) does, with its
   standard output going to FILE: one clone3() call, in which no code
   of this program runs in the child. */

#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PTR(p)  ((uint64_t) (uintptr_t) (p))

extern char **environ;

/* Make *act an exec of FILE that lets the next exec try if FILE is
   missing or not executable. */
static void
set_exec(struct clone_action *act, const char *file, char *argv[])
{
    act->kind = CLONE_ACTION_EXECVEAT;
    act->flags = CLONE_ACTION_F_EXEC_TRY_NEXT;
    act->execveat.dirfd = AT_FDCWD;
    act->execveat.path = PTR(file);
    act->execveat.argv = PTR(argv);
    act->execveat.envp = PTR(environ);
}

int
main(int argc, char *argv[])
{
    char                 *search, *dir, *file;
    const char           *path;
    pid_t                pid;
    size_t               n, max;
    uint32_t             failed;
    struct clone_args    args;
    struct clone_action  *act;
    int                  status;

    if (argc < 3) {
        fprintf(stderr, "Usage: %s FILE PROGRAM [ARG...]\n", argv[0]);
        exit(EXIT_FAILURE);
    }

    path = getenv("PATH");
    search = strdup(path != NULL ? path : "/usr/bin:/bin");
    if (search == NULL)
        err(EXIT_FAILURE, "strdup");

    /* The open, then at most one exec per PATH entry. */

    max = 2;
    for (char *p = search; *p != '\0'; p++)
        max += *p == ':';
    act = calloc(max, sizeof(*act));
    if (act == NULL)
        err(EXIT_FAILURE, "calloc");

    act[0].kind = CLONE_ACTION_OPEN;
    act[0].open.fd = STDOUT_FILENO;
    act[0].open.dirfd = AT_FDCWD;
    act[0].open.path = PTR(argv[1]);
    act[0].open.flags = O_WRONLY | O_CREAT | O_TRUNC;
    act[0].open.mode = 0644;
    n = 1;

    if (strchr(argv[2], '/') != NULL) {
        set_exec(&act[n++], argv[2], &argv[2]);
    } else {
        while ((dir = strsep(&search, ":")) != NULL) {
            if (*dir == '\0')
                dir = ".";      /* Empty entry: this directory */
            if (asprintf(&file, "%s/%s", dir, argv[2]) == -1)
                err(EXIT_FAILURE, "asprintf");
            set_exec(&act[n++], file, &argv[2]);
        }
    }
    act[n - 1].flags = 0;       /* The last exec ends the search */

    memset(&args, 0, sizeof(args));
    args.flags = CLONE_ACTIONS;
    args.exit_signal = SIGCHLD;
    args.actions = PTR(act);
    args.nr_actions = n;
    args.action_size = sizeof(struct clone_action);
    args.failed_action = PTR(&failed);

    failed = CLONE_ACTION_NO_INDEX;     /* If the kernel lacks it */
    pid = syscall(SYS_clone3, &args, sizeof(args));
    if (pid == -1) {
        if (failed == CLONE_ACTION_NO_INDEX)
            err(EXIT_FAILURE, "clone3");
        if (act[failed].kind == CLONE_ACTION_OPEN)
            err(EXIT_FAILURE, "action %u, open %s", (unsigned) failed,
                argv[1]);
        err(EXIT_FAILURE, "action %u, exec %s", (unsigned) failed,
            (char *) (uintptr_t) act[failed].execveat.path);
    }

    if (waitpid(pid, &status, 0) == -1)
        err(EXIT_FAILURE, "waitpid");
    if (WIFEXITED(status))
        printf("PID %jd exited, status %d\n", (intmax_t) pid,
               WEXITSTATUS(status));
    else
        printf("PID %jd killed by signal %d\n", (intmax_t) pid,
               WTERMSIG(status));
    exit(EXIT_SUCCESS);
}
