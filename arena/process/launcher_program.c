/*
 * launcher_program.c - the program bwrap runs in the sandbox before the bot
 * (contract in launcher.h): a static program without libc, so that its start
 * costs an exec and a handful of system calls, without a dynamic loader,
 * libc's start-up or the CPU feature probes that trap to the hypervisor in
 * a virtual machine.
 *
 * Built on its own (CMakeLists.txt: -nostdlib -static) and embedded in the
 * arena; x86-64 and AArch64 only.
 */
#include <asm/unistd.h>
#include <linux/errno.h>

#include "sandbox_start.h"

#if defined(__x86_64__)
static long sys3(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

static long sys4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return r;
}

__asm__(".globl _start\n_start:\n\txor %ebp, %ebp\n\tmov %rsp, %rdi\n"
	"\tand $-16, %rsp\n\tcall launcher_main\n\thlt\n");
#elif defined(__aarch64__)
static long sys3(long nr, long a, long b, long c)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
}

static long sys4(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}

__asm__(".globl _start\n_start:\n\tmov x29, #0\n\tmov x30, #0\n\tmov x0, sp\n"
	"\tbl launcher_main\n\tbrk #0\n");
#else
#error "the sandbox launcher supports x86-64 and AArch64 (CMakeLists.txt falls back to /bin/sh)"
#endif

void launcher_main(long *sp) __attribute__((noreturn, used));

static __attribute__((noreturn)) void leave(int code)
{
	for (;;)
		sys3(__NR_exit_group, code, 0, 0);
}

static void say(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	sys3(__NR_write, 2, (long)s, n);
}

/* The words a shell would print for the errors an exec meets. */
static const char *error_words(long err)
{
	switch (err) {
	case ENOENT: return "No such file or directory";
	case EACCES: return "Permission denied";
	case ENOEXEC: return "Exec format error";
	case ENOMEM: return "Cannot allocate memory";
	case E2BIG: return "Argument list too long";
	case ETXTBSY: return "Text file busy";
	case ELOOP: return "Too many levels of symbolic links";
	case ENOTDIR: return "Not a directory";
	case EPERM: return "Operation not permitted";
	case ENAMETOOLONG: return "File name too long";
	default: return "cannot execute";
	}
}

/* "-p N": N, a decimal number; -1 if it is not one. */
static long number(const char *s)
{
	long n = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > 100000000)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

/* RLIMIT_NPROC, soft and hard, to n: counted in the sandbox's user namespace. */
static void limit_processes(long n)
{
	unsigned long long lim[2] = { (unsigned long long)n, (unsigned long long)n };

	if (n < 0 || sys4(__NR_prlimit64, 0, 6 /* RLIMIT_NPROC */, (long)lim, 0) < 0) {
		say("sandbox: cannot set the process limit\n");
		leave(126);
	}
}

/* sp: the stack at entry, argc then argv, NULL, then envp. */
void launcher_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	long err;

	/* launcher [-p N] PROGRAM ARGS: the program is a canonical path, never "-p" */
	if (argc >= 3 && argv[1][0] == '-' && argv[1][1] == 'p' && !argv[1][2]) {
		limit_processes(number(argv[2]));
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		leave(127);
	if (sys3(__NR_dup3, SANDBOX_STDIN_FD, 0, 0) < 0 ||
	    sys3(__NR_dup3, SANDBOX_STDOUT_FD, 1, 0) < 0)
		leave(126);
	sys3(__NR_close, SANDBOX_STDIN_FD, 0, 0);
	sys3(__NR_close, SANDBOX_STDOUT_FD, 0, 0);
	sys3(__NR_close, SANDBOX_LAUNCHER_FD, 0, 0);
	err = -sys3(__NR_execve, (long)argv[1], (long)(argv + 1), (long)envp);
	say("sandbox: cannot execute ");
	say(argv[1]);
	say(": ");
	say(error_words(err));
	say("\n");
	/* as a shell: 127 for a program not found, 126 for one found that cannot run */
	leave(err == ENOENT ? 127 : 126);
}
