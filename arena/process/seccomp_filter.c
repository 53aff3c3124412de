/*
 * seccomp_filter.c - the bots' system call filter (contract in
 * seccomp_filter.h).
 */
#include "seccomp_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* Refused with EPERM, whatever their arguments. */
static const char *const refused[] = {
	"keyctl", "add_key", "request_key",
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"perf_event_open", "bpf", "userfaultfd", "io_uring_setup", "io_uring_enter",
	"io_uring_register", "fanotify_init", "lookup_dcookie",
	"unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot",
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"open_by_handle_at", "name_to_handle_at",
	"sched_setaffinity", "set_mempolicy", "mbind", "migrate_pages", "move_pages",
	"reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module", "create_module", "swapon", "swapoff", "acct", "quotactl",
	"quotactl_fd", "syslog", "sethostname", "setdomainname", "personality", "ioperm",
	"iopl", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "stime",
	"uselib", "ustat", "sysfs", "_sysctl", "vhangup", "nfsservctl", "vm86", "vm86old",
};

/*
 * State every sandbox of a file shares, which one process can set and
 * another read: a channel between a bot's processes alive at once (one
 * started ahead for the next game, another rotation of the deal played at
 * the same time). Each entry: a system call, and the argument that must
 * match (arg NO_ARG: any call), and the answer. Every argument here is an
 * int, of which the kernel reads the low 32 bits, so those are compared
 * (INT) whatever a raw call puts above them.
 */
#define NO_ARG 6u
#define INT 0xffffffffu
/* a futex operation without FUTEX_PRIVATE_FLAG, whatever its clock bit */
#define FUTEX_SHARED_MASK (INT & ~(uint64_t)FUTEX_CLOCK_REALTIME)
#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif
#ifndef FUTEX2_PRIVATE
#define FUTEX2_PRIVATE 128
#endif

struct shared_state_rule {
	const char *name;
	unsigned arg;
	uint64_t value, mask; /* arg & mask == value */
	int errno_value;      /* 0: pretend it worked */
};

static const struct shared_state_rule shared_state[] = {
	/* file locks: a lock on a file shown to every sandbox is seen by all. Taking one
	 * does nothing and succeeds, so no process ever meets another's (a program that
	 * locks its own files, as the JVM does its perf data, runs as before); asking
	 * who holds one is refused */
	{ "flock", NO_ARG, 0, 0, 0 },
	{ "fcntl", 1, F_SETLK, INT, 0 },
	{ "fcntl", 1, F_SETLKW, INT, 0 },
	{ "fcntl", 1, F_OFD_SETLK, INT, 0 },
	{ "fcntl", 1, F_OFD_SETLKW, INT, 0 },
	{ "fcntl", 1, F_GETLK, INT, ENOLCK },
	{ "fcntl", 1, F_OFD_GETLK, INT, ENOLCK },
	/* who reads what: notices of another process's access to a shared file */
	{ "fcntl", 1, F_NOTIFY, INT, EPERM },
	{ "inotify_init", NO_ARG, 0, 0, ENOSYS },
	{ "inotify_init1", NO_ARG, 0, 0, ENOSYS },
	/* the page cache as a bit store: evicting a shared file's pages, and
	 * asking whether they are cached without the time a read takes */
	{ "fadvise64", 3, POSIX_FADV_DONTNEED, INT, 0 },
	{ "preadv2", 5, RWF_NOWAIT, RWF_NOWAIT, EOPNOTSUPP },
	{ "pwritev2", 5, RWF_NOWAIT, RWF_NOWAIT, EOPNOTSUPP },
	{ "cachestat", NO_ARG, 0, 0, ENOSYS },
	/* evicting pages of a file every sandbox maps: with the arena's pins
	 * (cache_pin.h) the one write left; reclaiming one's own memory early
	 * is advice a program can do without */
	{ "madvise", 2, MADV_PAGEOUT, INT, 0 },
	{ "madvise", 2, MADV_COLD, INT, 0 },
	{ "process_madvise", NO_ARG, 0, 0, ENOSYS },
	/* futexes any two sandboxes can meet on: a shared (not FUTEX_PRIVATE_FLAG)
	 * futex on a page of a file they all map is keyed by the file, so a wake in
	 * one sandbox reaches a waiter in another. A shared wait returns EAGAIN at
	 * once, as if the word had changed, which every caller must handle by
	 * looking again (glibc's pthread_join, which waits shared, loops until the
	 * thread is gone), so no thread ever parks where another process can wake
	 * it; wakes then find nobody. The clock bit is the only one left free */
	{ "futex", 1, FUTEX_WAIT, FUTEX_SHARED_MASK, EAGAIN },
	{ "futex", 1, FUTEX_WAIT_BITSET, FUTEX_SHARED_MASK, EAGAIN },
	{ "futex", 1, FUTEX_LOCK_PI, FUTEX_SHARED_MASK, EAGAIN },
	{ "futex", 1, FUTEX_LOCK_PI2, FUTEX_SHARED_MASK, EAGAIN },
	{ "futex", 1, FUTEX_TRYLOCK_PI, FUTEX_SHARED_MASK, EAGAIN },
	{ "futex", 1, FUTEX_WAIT_REQUEUE_PI, FUTEX_SHARED_MASK, EAGAIN },
	/* futex2: a shared wait, and the calls whose flags lie in memory the filter
	 * cannot read (no libc needs them) */
	{ "futex_wait", 3, 0, FUTEX2_PRIVATE, EAGAIN },
	{ "futex_waitv", NO_ARG, 0, 0, ENOSYS },
	{ "futex_requeue", NO_ARG, 0, 0, ENOSYS },
};

static int add_shared_state_rule(scmp_filter_ctx ctx, const struct shared_state_rule *s)
{
	int nr = seccomp_syscall_resolve_name(s->name);
	uint32_t action = SCMP_ACT_ERRNO((uint32_t)s->errno_value);
	struct scmp_arg_cmp cmp = { s->arg, SCMP_CMP_MASKED_EQ, s->mask, s->value };

	/* a name this architecture does not have is nothing to refuse */
	if (nr == __NR_SCMP_ERROR)
		return 0;
	if (s->arg == NO_ARG)
		return seccomp_rule_add(ctx, action, nr, 0);
	return seccomp_rule_add_array(ctx, action, nr, 1, &cmp);
}

/* clone with any of these makes a namespace. */
static const unsigned long namespaces[] = {
	CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
	CLONE_NEWCGROUP,
};

static int add_rules(scmp_filter_ctx ctx)
{
	int r = 0;

	for (size_t i = 0; i < sizeof refused / sizeof refused[0] && r == 0; i++) {
		int nr = seccomp_syscall_resolve_name(refused[i]);

		/* a name this architecture does not have is nothing to refuse */
		if (nr != __NR_SCMP_ERROR)
			r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
	}
	/* one rule a flag: rules for one system call are or'ed */
	for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0] && r == 0; i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, namespaces[i], namespaces[i]));
	for (size_t i = 0; i < sizeof shared_state / sizeof shared_state[0] && r == 0; i++)
		r = add_shared_state_rule(ctx, &shared_state[i]);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX));
	return r;
}

int seccomp_filter_build(void **bpf, size_t *len)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	void *buf = NULL;
	off_t size;
	int fd = -1, r;

	if (!ctx)
		return -ENOMEM;
	/* bwrap sets no_new_privs itself; the arena's child already has */
	if ((r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) < 0 || (r = add_rules(ctx)) < 0)
		goto out;
	/* a binary tree of the system call numbers: every call of the bot's runs
	 * through the filter, the allowed ones most (ignored where unsupported) */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if ((fd = memfd_create("skipbo-seccomp", MFD_CLOEXEC)) < 0) {
		r = -errno;
		goto out;
	}
	if ((r = seccomp_export_bpf(ctx, fd)) < 0)
		goto out;
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size % 8 || !(buf = malloc((size_t)size)) ||
	    pread(fd, buf, (size_t)size, 0) != size) {
		r = size <= 0 || size % 8 ? -EINVAL : buf ? -EIO : -ENOMEM;
		goto out;
	}
	*bpf = buf;
	*len = (size_t)size;
	buf = NULL;
	r = 0;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return r;
}
