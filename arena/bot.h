/*
 * bot.h - one bot executable as a child process, spoken to over pipes.
 *
 * The arena never blocks on a bot: every read and write runs against one
 * absolute CLOCK_MONOTONIC deadline with poll(). A bot runs in its own process
 * group with every descriptor but stdin/stdout/stderr closed, resource limits
 * applied, and a parent-death signal so it never outlives the arena. Its
 * stderr is copied to a log file up to a cap, then marked truncated and
 * drained without being kept.
 *
 * Functions return 0 or a negative errno-style code (-ETIMEDOUT, -EPIPE, ...)
 * and never exit the process. SIGPIPE must be ignored by the caller (main).
 */
#ifndef SKIPBO_BOT_H
#define SKIPBO_BOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bot_limits {
	long cpu_seconds;   /* RLIMIT_CPU, 0 = unlimited */
	long memory_mb;     /* RLIMIT_AS, 0 = unlimited */
	long open_files;    /* RLIMIT_NOFILE, 0 = unchanged */
	long processes;     /* RLIMIT_NPROC, 0 = unchanged */
};

struct bot_spec {
	const char *name;          /* for messages */
	char *const *argv;         /* argv[0] is looked up in PATH if it has no '/' */
	const char *cwd;           /* NULL = inherit */
	char *const *env;          /* extra "KEY=VALUE" strings added to the environment, NULL-terminated; may be NULL */
	const char *stderr_path;   /* log file, opened for append; NULL = discard */
	size_t stderr_cap;         /* bytes kept in the log per process start */
	int cpu;                   /* pin to this CPU, -1 = no pinning */
	struct bot_limits limits;
};

#define BOT_LINE_MAX (64 * 1024) /* longest line a bot may send, newline excluded */

struct bot;

/*
 * Start the bot. On success *out owns the process and its pipes. Exec failure
 * (no such file, not executable) is reported back over a close-on-exec pipe
 * and returned as its negative errno, with a sentence in why.
 */
int bot_start(const struct bot_spec *spec, struct bot **out, char *why, size_t why_size);

/* Write one line (a '\n' is appended) before deadline_us (monotonic µs). -ETIMEDOUT, -EPIPE. */
int bot_write_line(struct bot *b, const char *line, size_t len, int64_t deadline_us);

/*
 * Read one line before deadline_us. On success *line points into the bot's
 * buffer (NUL-terminated, newline removed, valid until the next call) and
 * *len is its length. -ETIMEDOUT: no complete line in time; -EPIPE: the bot
 * closed stdout (EOF); -EMSGSIZE: the line passed BOT_LINE_MAX (the rest of
 * it is not read). Drains stderr into the log while waiting.
 */
int bot_read_line(struct bot *b, const char **line, size_t *len, int64_t deadline_us);

/* Has the process exited? 1 and *status (as from waitpid) if reaped, 0 if still running. */
int bot_exited(struct bot *b, int *status);

/* Kill the whole process group: SIGTERM, then SIGKILL after grace_ms; reap; close
 * everything and free b. Safe on NULL. */
void bot_stop(struct bot *b, int grace_ms);

/* Close stdin, wait up to grace_ms for a clean exit, then as bot_stop. */
void bot_close(struct bot *b, int grace_ms);

pid_t bot_pid(const struct bot *b);

/* Monotonic clock in microseconds. */
int64_t clock_now_us(void);

#endif
