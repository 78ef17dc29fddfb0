/*
 * stamp FD: the benchmark's child. Its first instructions read
 * CLOCK_MONOTONIC (a raw system call: no libc, no vDSO lookup, nothing runs
 * before it), then it writes the time in nanoseconds and its pid, two
 * 64-bit words in native order, on FD and exits 0. Built static with -nostdlib: the spawn ends at
 * this program's entry point, and nothing of a C runtime is measured.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/syscall.h>

static long sys3(long number, long a, long b, long c)
{
	long ret;

	__asm__ volatile ("syscall"
			  : "=a" (ret)
			  : "a" (number), "D" (a), "S" (b), "d" (c)
			  : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noreturn, used)) void stamp_main(long *sp)
{
	struct timespec now;

	sys3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&now, 0);
	uint64_t record[2] = { (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec,
			       (uint64_t)sys3(SYS_getpid, 0, 0, 0) };
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	long fd = -1;

	if (argc > 1) {
		fd = 0;
		for (const char *p = argv[1]; *p >= '0' && *p <= '9'; p++)
			fd = fd * 10 + (*p - '0');
	}
	long status = fd >= 0 && sys3(SYS_write, fd, (long)record, sizeof record) == sizeof record ? 0 : 1;

	for (;;)
		sys3(SYS_exit_group, status, 0, 0);
}

/* The entry point: the stack pointer holds argc, then argv. */
__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call stamp_main\n"
	"	hlt\n");
