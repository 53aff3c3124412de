/*
 * seccomp_filter.h - the system call filter every sandboxed bot runs under,
 * in the spirit of Docker's default profile: everything a program needs to
 * compute, allocate, read its files, make threads and processes and talk over
 * pipes is allowed; what reaches far into the kernel or out of the sandbox is
 * refused with EPERM (ENOSYS for clone3, so that libc falls back to clone,
 * whose flags the filter can see):
 * - kernel keyrings (keyctl, add_key, request_key): the organiser's keys;
 * - tracing and other processes' memory (ptrace, process_vm_readv/writev,
 *   kcmp), perf_event_open, bpf, userfaultfd, io_uring;
 * - namespaces and mounts (unshare, setns, clone with CLONE_NEW* flags, mount,
 *   umount2, pivot_root, chroot, the new mount API, open_by_handle_at);
 * - CPU affinity and NUMA policy (sched_setaffinity, set_mempolicy, mbind,
 *   migrate_pages, move_pages): a bot stays on the CPU it was pinned to;
 * - the machine (reboot, kexec, modules, swap, clock and time setting, acct,
 *   quotactl, syslog, sethostname/setdomainname, personality, ioperm/iopl),
 *   and TIOCSTI/TIOCLINUX on any descriptor;
 * - state that sandboxes share through a file they all see, which one
 *   process sets and another reads, a channel between processes alive at
 *   once: file locks (flock and fcntl's POSIX and open-file locks succeed
 *   and do nothing, so no process meets another's; F_GETLK: ENOLCK),
 *   notices of access (inotify: ENOSYS, fcntl F_NOTIFY), and the page cache
 *   as a bit store (fadvise DONTNEED does nothing, preadv2/pwritev2 with
 *   RWF_NOWAIT: EOPNOTSUPP, cachestat: ENOSYS), and futexes keyed by a
 *   shared file: a wait without FUTEX_PRIVATE_FLAG returns EAGAIN at once
 *   (the answer for a word that changed, which every caller handles by
 *   looking again), so no thread parks where another process can wake it;
 *   futex_waitv and futex_requeue, whose flags lie in memory: ENOSYS.
 * System calls of another architecture (a 32-bit int 0x80) kill the process.
 *
 * The filter is compiled once (libseccomp) into classic BPF, which bwrap
 * loads with --seccomp just before it executes the bot.
 */
#ifndef SKIPBO_SECCOMP_FILTER_H
#define SKIPBO_SECCOMP_FILTER_H

#include <stddef.h>

/*
 * The compiled filter: 0 and *bpf (malloc'ed, *len bytes, a multiple of 8),
 * or a negative errno-style code.
 */
int seccomp_filter_build(void **bpf, size_t *len);

#endif
