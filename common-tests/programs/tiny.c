/*
 * tiny: a small static child.
 *   tiny              exits 0
 *   tiny N [...]      exits N; as a script interpreter, "#!/path/tiny N"
 *   tiny kill SIG     kills itself with signal SIG
 *   tiny wait         exits 0 once its stdin reaches end of file
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	if (strcmp(argv[1], "kill") == 0 && argc > 2) {
		kill(getpid(), atoi(argv[2]));
		return 125;
	}
	if (strcmp(argv[1], "wait") == 0) {
		char byte;

		while (read(0, &byte, 1) > 0)
			continue;
		return 0;
	}
	return atoi(argv[1]);
}
