/*
 * launcher.h - the sandbox's launcher: the first program bwrap runs in a
 * sandbox (sandbox_start.h). It moves the bot's pipes from descriptors 5
 * and 6 to 0 and 1, closes 5, 6 and its own descriptor 9, and executes the
 * bot: "LAUNCHER [-p N] PROGRAM ARGS...", with -p first setting RLIMIT_NPROC
 * (soft and hard) to N (sandbox_start.h; exit 126 if it cannot). An exec that
 * fails prints "sandbox: cannot execute PROGRAM: REASON" on stderr and exits
 * 127 (not found) or 126 (found, cannot run), as a shell would.
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
