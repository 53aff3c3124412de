/*
 * bot.h - one bot executable as a child process, spoken to over pipes.
 *
 * The arena never blocks on a bot: every read and write runs against one
 * absolute CLOCK_MONOTONIC deadline with poll(). A bot runs in its own process
 * group with every descriptor but stdin/stdout/stderr closed, resource limits
 * applied, and a parent-death signal so it never outlives the arena. Its
 * stderr is read line by line whenever the bot is read or written: each line
 * goes to a handler (bot_set_stderr_handler) and to a log file, tagged with
 * the game and the process, up to a cap; past the cap the log is marked
 * truncated and the rest read and dropped, so the bot never blocks on it.
 *
 * Functions return 0 or a negative errno-style code (-ETIMEDOUT, -EPIPE, ...)
 * and never exit the process. SIGPIPE must be ignored by the caller (main).
 *
 * With spec.sandbox set the process is bwrap, which runs the bot in a
 * sandbox of its own (sandbox.h): then bot_stop() kills the sandbox's init,
 * and with it every process the bot made, whatever it did to escape. Where
 * the sandbox has hosts (sandbox_use_hosts), the process is a game's pid 1
 * in a host, the host's child and not the arena's, and bot_stop() kills it
 * the same way.
 *
 * What the caller must know:
 * - The parent-death signal (SIGKILL) fires when the *thread* that called
 *   bot_start() ends, not only the process: start bots from a thread that
 *   outlives them.
 * - Nothing else in the program may reap children it did not start
 *   (waitpid(-1, ...), SIGCHLD set to SIG_IGN): bot_exited() and bot_stop()
 *   need the bot's own exit status. reaper.h reaps everything else.
 * - Without the sandbox, a bot's forked children survive their parent in the
 *   bot's process group; bot_stop() kills them with the group, and reaps
 *   them. When the arena is the reaper of reaper.h, bot_stop() then kills
 *   whatever else was orphaned to the arena, so a process that left the
 *   group (setsid) and outlived its parent does not survive either.
 * - Deadlines are absolute clock_now_us() values; a deadline already past
 *   still gets one non-blocking attempt. INT64_MAX waits for ever.
 */
#ifndef SKIPBO_BOT_H
#define SKIPBO_BOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"

/*
 * Applied in the child before exec, as soft limits; a hard limit is never
 * raised above the arena's own (only root may). RLIMIT_CPU's hard limit is one
 * second above the soft one: SIGXCPU first, then SIGKILL. Sandboxed,
 * limits.processes is the number of processes the bot may have at once, itself
 * included, for root and an ordinary user alike: the sandbox sets RLIMIT_NPROC
 * inside its own user namespace, where it counts the sandbox's processes alone
 * (sandbox_start.h). Unsandboxed, RLIMIT_NPROC counts every process of the
 * user, not of the bot (the arena, the other bots, anything else the user
 * runs), and is not enforced at all for root (nor with CAP_SYS_RESOURCE): the
 * process group kill is what contains a forking bot. RLIMIT_AS stops
 * programs built with AddressSanitizer from starting (its shadow memory is
 * terabytes of address space). In a sandbox with cgroups, processes and
 * memory also count for the whole process tree.
 */
struct bot_limits {
	long cpu_seconds;   /* RLIMIT_CPU, 0 = unlimited */
	long memory_mb;     /* RLIMIT_AS, 0 = unlimited */
	long open_files;    /* RLIMIT_NOFILE, 0 = unchanged */
	long processes;     /* RLIMIT_NPROC, 0 = unchanged */
};

struct bot_spec {
	const char *name;          /* for messages */
	char *const *argv;         /* argv[0] is looked up in PATH (the bot's environment's)
	                              if it has no '/'; a relative path with '/' is taken
	                              from cwd, as after a chdir */
	const char *cwd;           /* NULL = inherit */
	bool cwd_writable;         /* sandboxed: cwd bound writable when it is the bot's own
	                              (sandbox_view.h); a build's tree, never a bot's */
	char *const *env;          /* extra "KEY=VALUE" strings added to the environment, NULL-terminated; may be NULL */
	const char *stderr_path;   /* log file, opened for append; NULL = none (the lines still
	                              reach the handler). It must be a
	                              regular file with one link, or not exist: a symbolic link,
	                              FIFO or anything else is not opened, and stderr is then
	                              read and dropped */
	size_t stderr_cap;         /* bytes kept in the log per process start, tags included;
	                              past it one line "[log truncated]" and the rest is read
	                              and dropped */
	size_t stderr_total_cap;   /* the log file never grows past this many bytes, whatever
	                              number of starts append to it; 0 = no such cap */
	int cpu;                   /* pin to this CPU, -1 = no pinning */
	bool idle;                 /* run at the lowest priority (SCHED_IDLE), inherited by
	                              every process it starts: it gets a CPU only when no
	                              other process wants it (a build beside the games) */
	struct bot_limits limits;
	struct sandbox *sandbox;   /* from sandbox_open(); NULL = run unsandboxed */
};

#define BOT_LINE_MAX (64 * 1024) /* longest line a bot may send, newline excluded */
#define BOT_STDERR_LINE_MAX 1024 /* a longer stderr line is passed on in pieces this long */
#define BOT_TAG_MAX 64           /* bytes of a log tag kept */

struct bot;

/*
 * Start the bot. On success *out owns the process and its pipes. Exec failure
 * (no such file, not executable) is reported back over a close-on-exec pipe
 * and returned as its negative errno, with a sentence in why (a failed chdir,
 * limit or CPU pinning likewise): -ENOENT, -EACCES, -EINVAL, ...; a file
 * that is neither a binary nor a script with a #! line is refused before
 * anything starts: -ENOEXEC (a shell would otherwise run it, whatever its
 * language). Returns once
 * the exec has succeeded or failed (sandboxed: once bwrap has made the
 * sandbox's init, or failed with its message in why); no process is left
 * behind on failure. Thread-safe: bots may be started from several threads
 * at once.
 */
int bot_start(const struct bot_spec *spec, struct bot **out, char *why, size_t why_size);

/* Write one line (a '\n' is appended) before deadline_us (monotonic µs). -ETIMEDOUT, -EPIPE. */
int bot_write_line(struct bot *b, const char *line, size_t len, int64_t deadline_us);

/*
 * Read one line before deadline_us. On success *line points into the bot's
 * buffer (NUL-terminated, newline removed, valid until the next call) and
 * *len is its length. -ETIMEDOUT: no complete line in time; -EPIPE: the bot
 * closed stdout (EOF); -EMSGSIZE: the line passed BOT_LINE_MAX (the rest of
 * it is not read, and every later call returns -EMSGSIZE too). After
 * -ETIMEDOUT a partial line is kept: a later call may still complete it.
 * Drains stderr into the log while waiting.
 */
int bot_read_line(struct bot *b, const char **line, size_t *len, int64_t deadline_us);

/*
 * As bot_read_line(), but gives up early with -ECHILD once the process has
 * exited and no complete line is there: its output can stay open because a
 * process it left behind holds it, and waiting for the deadline would turn
 * an exit into a timeout. The exit is checked every BOT_EXIT_CHECK_MS.
 */
#define BOT_EXIT_CHECK_MS 20
int bot_read_line_live(struct bot *b, const char **line, size_t *len, int64_t deadline_us);

/*
 * Output the bot wrote that no read has returned yet: what the buffer holds
 * after one non-blocking read of its stdout. Returns the number of bytes (0:
 * none; an EOF is left for the next read to report) or a negative errno. It
 * blocks never: the referee calls it before each request, when nothing may
 * be there.
 */
long bot_unread_output(struct bot *b);

/*
 * CPU time (user + system, all threads) the bot's process has used so far,
 * in µs, or -1 when it cannot be read (the process is gone, or, sandboxed,
 * not found yet: the bot is the first child of the sandbox's init, found
 * through /proc/<pid>/task/<tid>/children). Processes it started are not
 * included.
 */
int64_t bot_cpu_us(const struct bot *b);

/*
 * Has the process exited? 1 and *status (as from waitpid; status may be NULL)
 * if it has, 0 if still running. It stays a zombie until bot_stop(), so its
 * pid, which is the process group id, cannot be reused before the group is
 * killed. Sandboxed, the status is the bot's: bwrap passes an exit code on,
 * and reports a death by signal N as code 128 + N, which is given back here
 * as that signal; a game in a host reports the bot's status itself (a game
 * ended before, as by SIGKILL).
 */
int bot_exited(struct bot *b, int *status);

/*
 * Kill the whole process group: SIGTERM (skipped if the bot already exited),
 * up to grace_ms for the bot to exit, then SIGKILL to the group whatever
 * happened; reap; kill what it orphaned (see above); copy its last stderr to
 * the log; close everything and free b. Sandboxed, the sandbox's init gets
 * SIGKILL at once (a pid 1 ignores SIGTERM), which ends every process in
 * it, and bot_stop() returns once they are all gone and the sandbox's
 * cgroup is removed. Safe on NULL.
 */
void bot_stop(struct bot *b, int grace_ms);

/* Close stdin, wait up to grace_ms for a clean exit, then as bot_stop. */
void bot_close(struct bot *b, int grace_ms);

/*
 * Where the bot's stderr lines go besides the log. line() gets each line with
 * its newline removed (a line longer than BOT_STDERR_LINE_MAX in pieces; a
 * last line without a newline when stderr ends or the bot is stopped), on
 * the thread that reads, writes, polls or stops the bot, and must not call
 * back into this bot. Nothing is copied: the text is valid during the call.
 */
struct bot_stderr_handler {
	void (*line)(void *ctx, const char *line, size_t len);
	void *ctx;
};

/* Send the stderr lines from now on to h (h.line NULL: to the log only);
 * returns the handler it replaces, so a caller can put it back. */
struct bot_stderr_handler bot_set_stderr_handler(struct bot *b, struct bot_stderr_handler h);

/*
 * Each line kept in the log from now on starts with "[TAG pid PID] " (TAG
 * cut at BOT_TAG_MAX bytes; before the first tag, and with tag NULL,
 * "[pid PID] "): several processes of one bot append to one log, a line
 * each write, so the tags tell their lines apart.
 */
void bot_set_stderr_tag(struct bot *b, const char *tag);

/* Read what stderr holds now, without waiting (bounded, as while waiting
 * for a line), so its lines reach the handler before the caller goes on. */
void bot_poll_stderr(struct bot *b);

/* As bot_poll_stderr, then up to ms more until stderr ends: the last words of a
 * bot that faulted, which may come after its deadline. */
void bot_wait_stderr(struct bot *b, int ms);

/* The process started, also its process group id: bwrap when sandboxed (a game in a
 * host: the game's pid 1, whose group is the host's). */
pid_t bot_pid(const struct bot *b);

/*
 * After a start fault: " (it ran in the sandbox, which shows ...)" when the
 * bot ran sandboxed and exited with 126 or 127 (its shell could not execute
 * something), or sealed with the system files derived from the bots'
 * commands (system_needs.h) and exited with any status but 0 (naming
 * "system" as what to extend); else "". Static text.
 */
const char *bot_exit_hint(struct bot *b);

/*
 * The program bot_start() would execute for spec: argv[0] when it holds a
 * '/', else its PATH lookup (the PATH of spec->env, else the arena's). 0 and
 * *path (malloc'ed), or -ENOENT, -EACCES (found but not executable), -ENOMEM.
 */
int bot_resolve(const struct bot_spec *spec, char **path);

#endif
