/*
 * seccomp_filter.c - the bots' system call filter (contract in
 * seccomp_filter.h).
 */
#include "seccomp_filter.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
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
