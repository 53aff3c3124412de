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
#include <linux/audit.h>
#include <linux/errno.h>
#include <linux/filter.h>
#include <linux/ioctl.h>
#include <linux/seccomp.h>

#include "sandbox_start.h"
#include "sysinfo_view.h"

#if defined(__x86_64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_X86_64
static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			 "r"(r9) : "rcx", "r11", "memory");
	return r;
}

__asm__(".globl _start\n_start:\n\txor %ebp, %ebp\n\tmov %rsp, %rdi\n"
	"\tand $-16, %rsp\n\tcall launcher_main\n\thlt\n");
#elif defined(__aarch64__)
#define AUDIT_ARCH_SELF AUDIT_ARCH_AARCH64
static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}

__asm__(".globl _start\n_start:\n\tmov x29, #0\n\tmov x30, #0\n\tmov x0, sp\n"
	"\tbl launcher_main\n\tbrk #0\n");
#else
#error "the sandbox launcher supports x86-64 and AArch64 (CMakeLists.txt falls back to /bin/sh)"
#endif

static long sys3(long nr, long a, long b, long c)
{
	return sys6(nr, a, b, c, 0, 0, 0);
}

static long sys5(long nr, long a, long b, long c, long d, long e)
{
	return sys6(nr, a, b, c, d, e, 0);
}

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

/* "-p N": N, a decimal number (0: no limit); -1 if it is not one. */
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

	if (n < 0 || sys5(__NR_prlimit64, 0, 6 /* RLIMIT_NPROC */, (long)lim, 0, 0) < 0) {
		say("sandbox: cannot set the process limit\n");
		leave(126);
	}
}

/* ---- exec: the bot, as a shell would ---- */

static __attribute__((noreturn)) void exec_bot(char **argv, char **envp)
{
	long err = -sys3(__NR_execve, (long)argv[0], (long)argv, (long)envp);

	say("sandbox: cannot execute ");
	say(argv[0]);
	say(": ");
	say(error_words(err));
	say("\n");
	/* as a shell: 127 for a program not found, 126 for one found that cannot run */
	leave(err == ENOENT ? 127 : 126);
}

/* Every descriptor from `from` up closed (close_range, else one by one). */
static void close_from(long from)
{
	if (sys3(__NR_close_range, from, ~0U, 0) < 0)
		for (long fd = from; fd < 4096; fd++)
			sys3(__NR_close, fd, 0, 0);
}

/* ---- sysinfo: the launcher's answer (sysinfo_view.h) ---- */

/*
 * sysinfo, of this architecture, to the listener; everything else allowed
 * (the bot's main filter judges the rest, and kills other architectures).
 */
static struct sock_filter notify_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4 /* seccomp_data.arch */),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_SELF, 0, 3),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0 /* seccomp_data.nr */),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sysinfo, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static long started_s; /* CLOCK_MONOTONIC when the sandbox (or the game) started */

static long monotonic_s(void)
{
	long ts[2] = { 0, 0 };

	sys3(__NR_clock_gettime, 1 /* CLOCK_MONOTONIC */, (long)ts, 0);
	return ts[0];
}

static void zero(void *p, unsigned long n)
{
	volatile unsigned char *b = p;

	while (n--)
		*b++ = 0;
}

/*
 * The filter that sends sysinfo to a listener, on this process and every
 * process it starts from now: the listener's descriptor (close-on-exec), or
 * a negative error (a kernel before 5.0; EBUSY where a filter of the
 * machine's already has a listener), and then sysinfo stays the kernel's.
 * Loaded by a process that never calls sysinfo itself.
 */
static long listen_sysinfo(void)
{
	struct sock_fprog prog = { sizeof notify_insns / sizeof notify_insns[0], notify_insns };

	started_s = monotonic_s();
	return sys3(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
		    (long)&prog);
}

/* "/proc/PID/mem" into path (32 bytes). */
static void mem_path(char *path, unsigned pid)
{
	static const char head[] = "/proc/", tail[] = "/mem";
	char digits[12];
	int n = 0, at = 0;

	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) && n < 11);
	for (int i = 0; head[i]; i++)
		path[at++] = head[i];
	while (n)
		path[at++] = digits[--n];
	for (int i = 0; i <= 4; i++)
		path[at++] = tail[i];
}

/*
 * One notification: the view written into the caller's memory, through
 * /proc/PID/mem (process_vm_writev is refused by the bot's filter, under
 * which the launcher of a sandbox of its own runs), then the answer, 0.
 * The caller may be gone, and its pid taken by another process, before the
 * open: the notification still valid after it means the file is its
 * memory. What cannot be written is EFAULT, as the kernel's own; a memory
 * that cannot be opened (a bot that made itself not dumpable) ENOSYS. A
 * write through that file also lands on the bot's read-only pages (a
 * private copy, as mprotect and a write would make), never on a shared
 * mapping the bot could not write itself: the kernel refuses that one.
 */
static void answer(long listener)
{
	struct seccomp_notif n;
	struct seccomp_notif_resp r;
	struct sysinfo si;
	char path[32];
	long fd, err = -ENOSYS;

	zero(&n, sizeof n); /* the kernel wants it zeroed */
	if (sys3(__NR_ioctl, listener, (long)SECCOMP_IOCTL_NOTIF_RECV, (long)&n) < 0)
		return; /* the caller went first (ENOENT), or a signal */
	if (n.data.nr == __NR_sysinfo && n.pid) {
		mem_path(path, n.pid);
		fd = sys3(__NR_openat, -100 /* AT_FDCWD */, (long)path, 02000002 /* O_RDWR|O_CLOEXEC */);
		if (fd >= 0) {
			if (sys3(__NR_ioctl, listener, (long)SECCOMP_IOCTL_NOTIF_ID_VALID, (long)&n.id) < 0) {
				sys3(__NR_close, fd, 0, 0);
				return;
			}
			sysinfo_view_fill(&si, monotonic_s() - started_s);
			err = sys5(__NR_pwrite64, fd, (long)&si, sizeof si, (long)n.data.args[0], 0) ==
			      (long)sizeof si ? 0 : -EFAULT;
			sys3(__NR_close, fd, 0, 0);
		}
	}
	zero(&r, sizeof r);
	r.id = n.id;
	r.error = (int)err;
	sys3(__NR_ioctl, listener, (long)SECCOMP_IOCTL_NOTIF_SEND, (long)&r);
}

/*
 * Until the bot (a child) ends: sysinfo answered for it and every process
 * of its (listener < 0: none to answer), then its wait status; -1 as soon as
 * descriptor quit (>= 0) is readable or closed.
 */
static long supervise(long listener, long bot, int quit)
{
	/* struct pollfd: fd, events, revents; POLLIN 1 */
	struct { int fd; short events, revents; } fds[3];
	long pidfd = sys3(__NR_pidfd_open, bot, 0, 0);
	long slice[2] = { 0, 100000000 }; /* without a pidfd (Linux < 5.3): a look at the bot each 0.1 s */
	int status = 0;

	for (;;) {
		fds[0].fd = (int)pidfd;
		fds[1].fd = (int)listener;
		fds[2].fd = quit;
		for (int i = 0; i < 3; i++) {
			fds[i].events = 1;
			fds[i].revents = 0;
		}
		if (sys6(__NR_ppoll, (long)fds, 3, pidfd < 0 ? (long)slice : 0, 0, 8, 0) == -EINTR)
			continue;
		if (quit >= 0 && fds[2].revents)
			return -1;
		if (listener >= 0 && (fds[1].revents & 1))
			answer(listener);
		else if (fds[1].revents)
			listener = -1; /* POLLHUP: no process under the filter any more */
		if (pidfd >= 0 ? fds[0].revents != 0 :
		    sys6(__NR_wait4, bot, (long)&status, 1 /* WNOHANG */ | 0x40000000, 0, 0, 0) != 0)
			break;
	}
	if (pidfd >= 0)
		while (sys6(__NR_wait4, bot, (long)&status, 0x40000000 /* __WALL */, 0, 0, 0) == -EINTR)
			;
	return status;
}

/* ---- messages over a unix socket: one byte, descriptors or credentials ---- */

struct iov {
	void *base;
	unsigned long len;
};

struct msg {
	void *name;
	unsigned namelen;
	struct iov *iov;
	unsigned long iovlen;
	void *control;
	unsigned long controllen;
	int flags;
};

/* struct cmsghdr: its data starts 16 bytes in, on both machines */
#define CMSG_HEAD 16
#define SOL_SOCKET_ 1
#define SCM_RIGHTS_ 1
#define MSG_CMSG_CLOEXEC_ 0x40000000
#define HOST_FDS 4 /* the bot's stdin, stdout, stderr, and the game's socket */

struct control {
	unsigned long len;
	int level, type;
	int data[HOST_FDS];
};

static long send_bytes(int sock, const void *data, unsigned long len, const int *fds, int nfds)
{
	struct iov iov = { (void *)data, len };
	struct control c;
	struct msg m = { 0, 0, &iov, 1, 0, 0, 0 };

	if (nfds) {
		c.len = CMSG_HEAD + (unsigned long)nfds * sizeof(int);
		c.level = SOL_SOCKET_;
		c.type = SCM_RIGHTS_;
		for (int i = 0; i < nfds; i++)
			c.data[i] = fds[i];
		m.control = &c;
		m.controllen = sizeof c;
	}
	return sys3(__NR_sendmsg, sock, (long)&m, 0x4000 /* MSG_NOSIGNAL */);
}

/* One message into data (at most len bytes), its control part into c: its length, 0 at EOF. */
static long receive(int sock, void *data, unsigned long len, struct control *c)
{
	struct iov iov = { data, len };
	struct msg m = { 0, 0, &iov, 1, c, sizeof *c, 0 };
	long n;

	c->len = 0;
	do
		n = sys3(__NR_recvmsg, sock, (long)&m, MSG_CMSG_CLOEXEC_);
	while (n == -EINTR);
	if (m.controllen < CMSG_HEAD)
		c->len = 0;
	return n;
}

/* ---- the host: a long-lived sandbox that starts one bot process per game ---- */

#define CLONE_NEWNS_ 0x00020000
#define CLONE_NEWIPC_ 0x08000000
#define CLONE_NEWPID_ 0x20000000
#define SIGCHLD_ 17
#define MS_RDONLY_ 1
#define MS_NOSUID_ 2
#define MS_NODEV_ 4
#define MS_NOEXEC_ 8
#define MS_REMOUNT_ 32
#define MS_BIND_ 4096
#define MS_REC_ 16384
#define MS_PRIVATE_ (1 << 18)
#define ST_KEPT 0xc0f /* the mount flags statfs reports that a remount must keep... */
#define ST_RELATIME_ 0x1000 /* ...and relatime, which mount calls 1 << 21 */
#define PR_SET_NO_NEW_PRIVS_ 38
#define PR_SET_SECCOMP_ 22
#define SECCOMP_MODE_FILTER_ 2
#define PR_CAP_AMBIENT_ 47
#define PR_CAP_AMBIENT_CLEAR_ALL_ 4
#define FILTER_MAX (4096 * 8) /* BPF_MAXINSNS instructions of 8 bytes */

struct filter {
	unsigned short len;
	void *insns;
};

static char filter_insns[FILTER_MAX];
static struct filter filter;

/* The seccomp filter from its descriptor into memory, once (sandbox_start.h). */
static void read_filter(void)
{
	long got = 0, n;

	while (got < FILTER_MAX && (n = sys3(__NR_read, SANDBOX_SECCOMP_FD, (long)filter_insns + got,
					     FILTER_MAX - got)) != 0) {
		if (n == -EINTR)
			continue;
		if (n < 0)
			break;
		got += n;
	}
	sys3(__NR_close, SANDBOX_SECCOMP_FD, 0, 0);
	if (got <= 0 || got % 8 || got >= FILTER_MAX) {
		say("sandbox: cannot read the system call filter\n");
		leave(126);
	}
	filter.len = (unsigned short)(got / 8);
	filter.insns = filter_insns;
}

static void fail_game(const char *what, long err)
{
	say("sandbox: cannot ");
	say(what);
	say(": ");
	say(error_words(-err));
	say("\n");
	leave(126);
}

static long fork_flags(long flags)
{
	return sys6(__NR_clone, flags | SIGCHLD_, 0, 0, 0, 0, 0);
}

/*
 * The bot's process: no capabilities, the filter, then the program. Its
 * pipes are on 0 to 2 already.
 */
static __attribute__((noreturn)) void run_bot(char **argv, char **envp, long nproc)
{
	unsigned cap_head[2] = { 0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0 };
	unsigned cap_data[6] = { 0 };

	close_from(3);
	if (nproc)
		limit_processes(nproc);
	if (sys3(__NR_prctl, PR_CAP_AMBIENT_, PR_CAP_AMBIENT_CLEAR_ALL_, 0) < 0 ||
	    sys3(__NR_capset, (long)cap_head, (long)cap_data, 0) < 0 ||
	    sys3(__NR_prctl, PR_SET_NO_NEW_PRIVS_, 1, 0) < 0)
		fail_game("drop its capabilities", -EPERM);
	if (sys3(__NR_prctl, PR_SET_SECCOMP_, SECCOMP_MODE_FILTER_, (long)&filter) < 0)
		fail_game("install the system call filter", -EPERM);
	exec_bot(argv, envp);
}

/* from bound onto path, read-only, keeping what else the mount was (as bwrap's --ro-bind) */
static long bind_read_only(const char *from, const char *path)
{
	long st[16], err;

	if ((err = sys5(__NR_mount, (long)from, (long)path, 0, MS_BIND_ | MS_REC_, 0)) < 0 ||
	    (err = sys3(__NR_statfs, (long)path, (long)st, 0)) < 0)
		return err;
	/* struct statfs: f_flags after 7 words, the fsid and 2 words */
	return sys5(__NR_mount, 0, (long)path, 0,
		    MS_REMOUNT_ | MS_BIND_ | MS_RDONLY_ | (st[10] & ST_KEPT) |
		    (st[10] & ST_RELATIME_ ? 1L << 21 : 0), 0);
}

#define ARGS_MAX 65536
#define ARGV_MAX 4096
static char args_copy[ARGS_MAX];
static char *argv_copy[ARGV_MAX];
static char *command_line; /* its first string, as the kernel laid it out */

/*
 * A game's pid 1 is a fork of the host, so its /proc/1/cmdline, which every
 * bot can read, is the host's command line: the launcher's options before
 * the bot's command. Before it starts the bot, pid 1 copies the bot's
 * command (bot, NULL-terminated, within the strings from first on) for its
 * own use and writes it over the start of those strings, the rest zeroed: a
 * game shows the bot's command alone. The host, which no bot sees, keeps
 * its own. What does not fit the copy is left as it is.
 */
static char **hide_options(char *first, char **bot)
{
	long n = 0, at = 0, end;

	while (bot[n])
		n++;
	if (n == 0 || n >= ARGV_MAX)
		return bot;
	end = bot[n - 1] - first;
	while (first[end])
		end++;
	for (long i = 0; i < n; i++) {
		long k = 0;

		argv_copy[i] = args_copy + at;
		do {
			if (at >= ARGS_MAX)
				return bot;
			args_copy[at++] = bot[i][k];
		} while (bot[i][k++]);
	}
	argv_copy[n] = 0;
	for (long i = 0; i <= end; i++)
		first[i] = i < at ? args_copy[i] : 0;
	return argv_copy;
}

/*
 * The game's own /proc, showing its processes alone and nothing of the
 * machine (subset=pid: no /proc/sys, no counters, sandbox_start.h); on a
 * kernel without subset=pid, the whole /proc with bwrap's read-only covers
 * and the arena's. Mounts of the game's own mount namespace, made private
 * first so that none reaches the host's.
 */
static void game_proc(void)
{
	static const char *const read_only[] = { "/proc/sys", "/proc/sysrq-trigger", "/proc/irq",
						 "/proc/bus" };
	static const char *const masked[] = SANDBOX_PROC_MASKED;
	const long flags = MS_NOSUID_ | MS_NODEV_ | MS_NOEXEC_;
	long err;

	if ((err = sys5(__NR_mount, 0, (long)"/", 0, MS_REC_ | MS_PRIVATE_, 0)) < 0)
		fail_game("mount the game's /proc", err);
	if (sys5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", flags,
		 (long)"subset=pid") == 0)
		return;
	if ((err = sys5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", flags, 0)) < 0)
		fail_game("mount the game's /proc", err);
	for (unsigned i = 0; i < sizeof read_only / sizeof read_only[0]; i++)
		if ((err = bind_read_only(read_only[i], read_only[i])) < 0 && err != -ENOENT)
			fail_game("make /proc/sys read-only", err);
	for (unsigned i = 0; i < sizeof masked / sizeof masked[0]; i++)
		if ((err = bind_read_only("/dev/null", masked[i])) < 0 && err != -ENOENT)
			fail_game("cover a file of /proc", err);
}

/*
 * A game, as pid 1 of fresh PID, mount and IPC namespaces, with the bot's
 * pipes on 0 to 2 and the game's socket on 3: its own /proc, its pid to the
 * arena, the bot as its child; the bot's status to the arena when it ends.
 * Its exit ends every process of the game; so does the arena's end of the
 * socket closing.
 */
static __attribute__((noreturn)) void run_game(char **argv, char **envp, long nproc)
{
	long bot, listener, bot_status;
	char status[5] = { 'S' };

	close_from(4);
	argv = hide_options(command_line, argv);
	game_proc();
	/* the kernel adds the credentials, the pid among them, for the arena's socket */
	if (send_bytes(3, "P", 1, 0, 0) < 0)
		leave(126);
	/* pid 1 answers the bot's sysinfo: no process of the game can kill it, nor
	 * reach its memory (it keeps capabilities the bot has not) */
	listener = listen_sysinfo();
	if ((bot = fork_flags(0)) < 0)
		fail_game("start the bot", bot);
	if (bot == 0)
		run_bot(argv, envp, nproc);
	for (int fd = 0; fd < 3; fd++)
		sys3(__NR_close, fd, 0, 0);
	if ((bot_status = supervise(listener, bot, 3)) < 0)
		leave(1); /* the arena is done with the game */
	for (int i = 0; i < 4; i++)
		status[1 + i] = (char)(bot_status >> (8 * i));
	send_bytes(3, status, sizeof status, 0, 0);
	leave(0);
}

/*
 * "-H [-p N] PROGRAM ARGS": the host (launcher.h). It reads the filter, then
 * starts a game for each message on its control socket (descriptor 5) that
 * brings the game's four descriptors, until the socket closes.
 */
static __attribute__((noreturn)) void host(char **argv, char **envp, long nproc)
{
	read_filter();
	sys3(__NR_close, SANDBOX_STDOUT_FD, 0, 0);
	sys3(__NR_close, SANDBOX_LAUNCHER_FD, 0, 0);
	for (;;) {
		struct control c;
		char what = 0;
		long n = receive(SANDBOX_STDIN_FD, &what, 1, &c), game;
		int nfds = c.len > CMSG_HEAD ? (int)((c.len - CMSG_HEAD) / sizeof(int)) : 0;

		if (n <= 0)
			leave(0);
		/* the games that ended: their numbers stay taken until now */
		while (sys6(__NR_wait4, -1, 0, 1 /* WNOHANG */ | 0x40000000, 0, 0, 0) > 0)
			;
		if (nfds > HOST_FDS)
			nfds = HOST_FDS;
		if (what == 'G' && nfds == HOST_FDS && c.level == SOL_SOCKET_ && c.type == SCM_RIGHTS_) {
			game = fork_flags(CLONE_NEWPID_ | CLONE_NEWNS_ | CLONE_NEWIPC_);
			if (game == 0) {
				/* 0 to 2 are taken here: a descriptor received lands on 3 at the lowest */
				for (int i = 0; i < HOST_FDS; i++)
					if (c.data[i] != i && sys3(__NR_dup3, c.data[i], i, 0) < 0)
						leave(126);
				run_game(argv, envp, nproc);
			}
			if (game < 0) {
				sys3(__NR_dup3, c.data[2], 2, 0);
				say("sandbox: cannot make the game's namespaces: ");
				say(error_words(-game));
				say("\n");
			}
		}
		for (int i = 0; i < nfds; i++)
			sys3(__NR_close, c.data[i], 0, 0);
		sys3(__NR_dup3, 0, 2, 0); /* nothing to say until the next game */
	}
}

/*
 * A sandbox of its own: the launcher stays, the bot's parent, to answer its
 * sysinfo (launcher.h), and ends as the bot ends, with its status as bwrap
 * reports one (the code, or 128 + the signal). It ignores the signals a
 * terminal or the arena sends the whole process group, so that the bot
 * meets them alone, as before; SIGKILL ends it, and with it the sandbox.
 * Without a listener it stays all the same, only waiting: the arena finds
 * the bot, for its CPU time, as the launcher's child (bot_status.c).
 */
static __attribute__((noreturn)) void alone(char **argv, char **envp)
{
	static const int group_signals[] = { 1, 2, 3, 10, 12, 13, 14, 15 };
	/* struct sigaction as the kernel takes it: handler, flags, restorer, mask */
	unsigned long ignore[4] = { 1 /* SIG_IGN */, 0, 0, 0 };
	long listener = listen_sysinfo(), bot, status;

	/* the bot can read the launcher's command line: its own command, as in a host's game */
	argv = hide_options(command_line, argv);
	if ((bot = fork_flags(0)) < 0)
		exec_bot(argv, envp);
	if (bot == 0) {
		if (listener >= 0)
			sys3(__NR_close, listener, 0, 0);
		exec_bot(argv, envp);
	}
	/* the bot's pipes at once: the arena sees the bot's stdout close when the bot closes it */
	for (int fd = 0; fd < 3; fd++)
		sys3(__NR_close, fd, 0, 0);
	for (unsigned i = 0; i < sizeof group_signals / sizeof group_signals[0]; i++)
		sys5(__NR_rt_sigaction, group_signals[i], (long)ignore, 0, 8, 0);
	status = supervise(listener, bot, -1);
	leave((status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff);
}

/* sp: the stack at entry, argc then argv, NULL, then envp. */
void launcher_main(long *sp)
{
	long argc = sp[0], nproc = 0;
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	int hosting = 0;

	command_line = argv[0];

	if (argc >= 2 && argv[1][0] == '-' && argv[1][1] == 'H' && !argv[1][2]) {
		hosting = 1;
		argv++;
		argc--;
	}
	/* launcher [-H] [-p N] PROGRAM ARGS: the program is a canonical path, never "-p" */
	if (argc >= 3 && argv[1][0] == '-' && argv[1][1] == 'p' && !argv[1][2]) {
		nproc = number(argv[2]);
		if (nproc < 0)
			limit_processes(-1);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		leave(127);
	if (hosting)
		host(argv + 1, envp, nproc);
	if (nproc)
		limit_processes(nproc);
	if (sys3(__NR_dup3, SANDBOX_STDIN_FD, 0, 0) < 0 ||
	    sys3(__NR_dup3, SANDBOX_STDOUT_FD, 1, 0) < 0)
		leave(126);
	sys3(__NR_close, SANDBOX_STDIN_FD, 0, 0);
	sys3(__NR_close, SANDBOX_STDOUT_FD, 0, 0);
	sys3(__NR_close, SANDBOX_LAUNCHER_FD, 0, 0);
	alone(argv + 1, envp);
}
