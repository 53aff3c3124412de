/*
 * launcher.h - the sandbox's launcher: the first program bwrap runs in a
 * sandbox (sandbox_start.h). It moves the bot's pipes from descriptors 5
 * and 6 to 0 and 1, closes 5, 6 and its own descriptor 9, and executes the
 * bot: "LAUNCHER [-p N] PROGRAM ARGS...", with -p first setting RLIMIT_NPROC
 * (soft and hard) to N (sandbox_start.h; exit 126 if it cannot). An exec that
 * fails prints "sandbox: cannot execute PROGRAM: REASON" on stderr and exits
 * 127 (not found) or 126 (found, cannot run), as a shell would.
 *
 * Two more modes serve hosts (sandbox_host.h, sandbox_start.h):
 * - "LAUNCHER -H [-p N] PROGRAM ARGS" is a host, run by bwrap with
 *   CAP_SYS_ADMIN and without the filter, which it reads from descriptor 8.
 *   For each message on its control socket (descriptor 5) bringing a
 *   game's four descriptors (the bot's stdin, stdout and stderr, the game's
 *   socket) it forks the game's pid 1 in fresh PID and IPC namespaces. That
 *   sends one byte on the game's socket (the kernel adds its pid as a
 *   credential) and forks the bot, which drops every capability, sets
 *   RLIMIT_NPROC to N, installs the filter and executes PROGRAM; when the
 *   bot ends, pid 1 sends "S" and its wait status, and exits, which ends
 *   every process of the game. It exits too if the game's socket closes.
 *   The host exits when its control socket closes.
 * - "LAUNCHER -C" is a game's client, the arena's child outside the
 *   sandbox: it sends the host (descriptor 7) the bot's pipes (5, 6 and 2)
 *   and a socket of its own, writes the game's pid as {"child-pid": N} on
 *   descriptor 4 as bwrap's --info-fd would, and exits as bwrap would when
 *   the bot does: its exit code, or 128 + the signal that ended it; 126
 *   if the host is gone, 137 if the game was killed.
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
