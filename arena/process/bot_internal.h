/*
 * bot_internal.h - what the files of a bot process share (bot_host.c,
 * bot_spawn.c, bot_path.c, bot_io.c, bot_status.c): the struct itself, its
 * state and the end of its stderr, a start of one kind. Not part of the
 * arena's API. They read top-down: bot_host.c uses bot_spawn.c, which uses
 * bot_path.c, bot_io.c and bot_status.c; bot_io.c uses bot_status.c.
 */
#ifndef SKIPBO_BOT_INTERNAL_H
#define SKIPBO_BOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "bot.h"
#include "sandbox_start.h"

/* How long bwrap may take to make the sandbox's init (a host: a game's pid 1). */
#define SANDBOX_START_MS 10000
/*
 * The same for a bot at SCHED_IDLE (a build): it gets a CPU only when no
 * other process wants one, so on a busy machine its bwrap may wait far
 * longer for one; the build's own clock is what bounds it.
 */
#define SANDBOX_START_IDLE_MS 60000

struct bot {
	pid_t pid;              /* also the process group id */
	int in_fd;              /* bot's stdin (we write), -1 once closed */
	int out_fd;             /* bot's stdout (we read) */
	int err_fd;             /* bot's stderr, -1 after EOF */
	int log_fd;             /* stderr log, -1 = discard */
	size_t log_cap;
	size_t log_total_cap;   /* the log file's size at most, 0 = no cap */
	size_t log_kept;
	bool log_truncated;
	bool log_midline;       /* last byte kept was not a newline */
	char log_prefix[BOT_TAG_MAX + 32]; /* "[tag pid N] " before each line in the log */
	size_t log_prefix_len;
	char log_out[2 * BOT_STDERR_LINE_MAX + 64 * 1024]; /* tagged lines not yet written */
	size_t log_out_len;
	char err_line[BOT_STDERR_LINE_MAX]; /* stderr bytes after its last newline */
	size_t err_len;
	struct bot_stderr_handler handler;
	char *buf;              /* stdout bytes: [start, len) not yet returned */
	size_t buf_cap;
	size_t buf_start;
	size_t buf_len;
	size_t buf_scanned;     /* bytes from buf_start known to hold no newline */
	bool out_eof;
	int read_error;         /* sticky -EMSGSIZE once a line overflowed */
	clockid_t cpu_clock;    /* the process's CPU-time clock */
	bool have_cpu_clock;
	bool exited;            /* seen exited (still a zombie until bot_stop) */
	int status;
	struct sandbox *sandbox;   /* NULL: unsandboxed */
	struct sandbox_start sbx;  /* its uid, cgroup and bwrap arguments */
	pid_t init_pid;            /* the sandbox's init, in the arena's PID namespace; 0 = unknown */
	int init_fd;               /* a pidfd of that init, -1 = none (kernel before 5.3) */
	struct bot *host;          /* a game of a host: the host (sandbox_host.h); pid and
				    * init_pid are the game's pid 1 */
	int game_fd;               /* a game of a host: its socket (launcher.h); else -1 */
};

/*
 * environ with extra ("KEY=VALUE", NULL-terminated, may be NULL) laid over
 * it, the same KEY replaced; strings borrowed. 0 or -ENOMEM. (bot_path.c)
 */
int bot_envp(char *const *extra, char ***out);

/*
 * execvp's search for file in envp's PATH: 0 and a malloc'ed path, or
 * -ENOENT / -EACCES (found, cannot run), -ENOMEM. (bot_path.c)
 */
int bot_resolve_in(const char *file, char **envp, char **out);

/*
 * A binary or a script with a #! line: 0; else -ENOEXEC and a sentence
 * naming the bot in why. (bot_path.c)
 */
int bot_check_format(const char *path, const char *name, char *why, size_t why_size);

/*
 * bot_start() of one kind (sandbox_start.h), a child of the arena's: ALONE
 * for a bot without the sandbox too. (bot_spawn.c)
 */
int bot_spawn(const struct bot_spec *spec, enum sandbox_start_kind kind, struct bot **out,
	      char *why, size_t why_size);

/* bot_spawn.c's helpers for a game of a host (bot_host.c): */
/* O_NONBLOCK on: 0 or -errno. */
int bot_fd_nonblock(int fd);
/* The stderr log (bot_spec.stderr_path) opened safely: the fd, or -1 (read and drop). */
int bot_open_log(const char *path);
/*
 * "bot NAME: its sandbox did not start: " and the first line on err_fd, or
 * that bwrap ended without a word, or said nothing for SANDBOX_START_MS, into why.
 */
void bot_sandbox_failure(int err_fd, const char *name, char *why, size_t why_size);

/*
 * The threads that start a sandbox's hosts (bot_host.c): opened by
 * sandbox_use_hosts, closed (the threads joined) once every host is
 * stopped. 0 or -errno.
 */
struct bot_hosts;
int bot_hosts_open(struct bot_hosts **out);
void bot_hosts_close(struct bot_hosts *hs);

/* Start hosts ahead for the next phase (sandbox_host_plan_ahead), without waiting. */
void bot_hosts_ahead(struct sandbox *sb);

/* Wait until no host is starting. */
void bot_hosts_wait(struct bot_hosts *hs);

/* Send the sandbox's init (bwrap's, or a game's pid 1) SIGKILL, without waiting. (bot_spawn.c) */
void bot_kill_sandbox(struct bot *b);

/* Close *fd if open and set it to -1. */
void bot_close_fd(int *fd);

/* stderr is done with: pass on a last line without its newline, write
 * what the log still holds. */
void bot_finish_stderr(struct bot *b);

/*
 * Has the process exited? Peeked with WNOWAIT: the zombie stays until
 * bot_stop, so its pid - which is the process group id - cannot be reused
 * by another process before the group is killed. (bot_status.c)
 */
bool bot_peek_exited(struct bot *b);

/*
 * Sandboxed: find the bot's own process (the first child of the sandbox's
 * init) and set its CPU clock; nothing if it is not there (yet).
 */
void bot_find_cpu_clock(struct bot *b);

/* Free the read buffer and b itself; the descriptors must be closed. */
void bot_free(struct bot *b);

#endif
