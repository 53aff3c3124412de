/*
 * launcher.h - the sandbox's launcher: the first program bwrap runs in a
 * sandbox (sandbox_start.h). It moves the bot's pipes from descriptors 5
 * and 6 to 0 and 1, closes 5, 6 and its own descriptor 9, and executes the
 * bot: "LAUNCHER [-p N] PROGRAM ARGS...", with -p first setting RLIMIT_NPROC
 * (soft and hard) to N, 0 for none (sandbox_start.h; exit 126 if it cannot). An exec that
 * fails prints "sandbox: cannot execute PROGRAM: REASON" on stderr and exits
 * 127 (not found) or 126 (found, cannot run), as a shell would.
 *
 * sysinfo(2) tells a bot the machine's free memory and process count, which
 * a bot in another sandbox alive at once can move: a channel. So before the
 * bot runs, the launcher loads a second filter that sends sysinfo to it as a
 * seccomp user notification (SECCOMP_FILTER_FLAG_NEW_LISTENER; bwrap's
 * --seccomp makes no listener), and it answers each call with the view of
 * sysinfo_view.h, written into the caller's memory through /proc/PID/mem
 * once the notification is known to be still valid. It stays, the bot's
 * parent, to answer (it writes PROGRAM ARGS over its own command line, as a
 * host's game does), and exits when the bot does, with the bot's status as
 * bwrap reports one (the exit code, or 128 + the signal); it ignores the
 * signals sent to a whole process group (SIGHUP, SIGINT, SIGQUIT, SIGUSR1,
 * SIGUSR2, SIGPIPE, SIGALRM, SIGTERM), which the bot meets alone. The
 * launcher never calls sysinfo, so no process of the sandbox reaches the
 * kernel's. A launcher gone (killed by the bot, or the sandbox ending)
 * closes the listener, and the kernel then fails every sysinfo with ENOSYS
 * at once: a bot never waits on a supervisor that is not there. The answer
 * needs nothing of the arena's: an arena stopped (SIGSTOP, a debugger)
 * holds no bot's sysinfo, and one killed takes its sandboxes with it. Where the
 * kernel gives no listener (before Linux 5.0; EBUSY under a filter of the
 * machine's that has one), sysinfo is the kernel's, and the launcher stays
 * all the same: the bot is always its child, where the arena looks for it
 * (its CPU time, bot_status.c).
 *
 * As a host (sandbox_host.h), "LAUNCHER -H [-p N] PROGRAM ARGS", run by
 * bwrap with CAP_SYS_ADMIN and without the filter, which it reads from
 * descriptor 8, it starts games: for each message on its control socket
 * (descriptor 5) that brings a game's four descriptors (the bot's stdin,
 * stdout and stderr, and the game's socket, the arena's other end) it forks
 * the game's pid 1 in fresh PID, mount and IPC namespaces. That mounts the
 * game's own /proc, sends "P" on the game's socket (the kernel adds its pid
 * as a credential, in the arena's numbering) and forks the bot, which drops
 * every capability, sets RLIMIT_NPROC to N, installs the filter and executes
 * PROGRAM (or says why not on its stderr and exits 126 or 127); pid 1 loads
 * the sysinfo filter before, and answers the bot's sysinfo (above): no
 * process of the game can signal it or reach its memory. Before it
 * forks the bot, pid 1 writes PROGRAM ARGS over its own command line, the
 * rest zeroed: /proc/1/cmdline, which the bot can read, shows its command
 * and nothing of the launcher's (a host's -p always has ten digits, so what
 * is zeroed is always as long). When the
 * bot ends, pid 1 sends "S" and the bot's wait status (4 bytes, the host's
 * order) and exits, which ends every process of the game; it exits as well
 * when the game's socket closes. A game that cannot start says why on its
 * stderr and closes the socket. The host exits when its control socket
 * closes.
 *
 * It is a static program without libc (launcher_program.c), compiled into
 * the arena and executed from a sealed memfd as /proc/self/fd/9, so that it
 * needs no file on disk and costs a fraction of /bin/sh's start (README,
 * performance). Where it cannot run (a machine other than x86-64 or
 * AArch64, vm.memfd_noexec = 2), the sandbox uses /bin/sh for the same.
 */
#ifndef SKIPBO_LAUNCHER_H
#define SKIPBO_LAUNCHER_H

/*
 * A sealed memfd (close-on-exec) holding the launcher: the caller owns it.
 * -1 where there is none (see above).
 */
int launcher_open(void);

#endif
