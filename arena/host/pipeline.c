/*
 * pipeline.c - submissions taken from received to entered (contract in
 * pipeline.h). The build is build.c's; here are the threads, the
 * unpacking in a child process, the check as a subprocess and the entry.
 *
 * Workers: config.builds threads, each taking submissions_next() under
 * the one lock, so at most that many submissions are worked on at once,
 * one per author. The lock guards the struct submissions only; nothing
 * slow runs under it.
 */
#include "pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "clock.h"
#include "league_config.h"
#include "league_entries.h"
#include "manifest.h"
#include "names.h"
#include "reaper.h"
#include "submissions.h"
#include "tree.h"
#include "unpack.h"

#define WHY_MAX 2048
#define POLL_US 50000

extern char **environ;

struct pipeline {
	char *dir, *arena, *unpacker;
	struct host_config config;
	enum sandbox_mode sandbox;
	struct build_toolchain tc;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	atomic_bool stop;
	struct submissions ss;
	pthread_t *workers;
	int nworkers;
};

/* What a worker knows of the submission it works on. */
struct job {
	uint64_t id;
	char bot[NAMES_LEN_MAX + 1];
	char folder[PATH_MAX], tree[PATH_MAX], upload[PATH_MAX], build_log[PATH_MAX],
		check_log[PATH_MAX], replays[PATH_MAX];
};

/* Append a state under the lock; failed with why when state is FAILED. */
static int set_state(struct pipeline *p, const struct job *j, enum submission_state state,
		     const char *entry, const char *why)
{
	char err[512];
	int ret;

	pthread_mutex_lock(&p->lock);
	ret = submissions_set_state(&p->ss, j->id, state, entry, why, err, sizeof(err));
	pthread_mutex_unlock(&p->lock);
	if (ret < 0)
		fprintf(stderr, "skipbo-arena: host: submission %" PRIu64 ": %s\n", j->id, err);
	return ret;
}

static int fail(struct pipeline *p, const struct job *j, const char *why)
{
	set_state(p, j, SUBMISSION_FAILED, NULL, why);
	return -1;
}

/* ---- 1. unpacked ---- */

/* The host's unpacker, skipbo-unpack, next to the arena's program; NULL without memory. */
static char *unpacker_path(const char *arena)
{
	char real[PATH_MAX], *slash, *path = NULL;

	if (!realpath(arena, real) || !(slash = strrchr(real, '/')))
		snprintf(real, sizeof(real), "%s", arena);
	if ((slash = strrchr(real, '/')))
		*slash = '\0';
	if (asprintf(&path, "%s/skipbo-unpack", slash ? real : ".") < 0)
		return NULL;
	return path;
}

/* The unpacker's answer, "CODE\nWHY\n", into buf; 0, -EINTR on a stop, or -ECHILD when
 * it ended without one (its status in *status) or -ETIMEDOUT past build_seconds (build_clock_over). */
static int unpack_answer(struct pipeline *p, struct bot *b, char *buf, size_t size,
			 int *status)
{
	struct build_floor bf;
	struct build_clock bc;
	char note[512];
	size_t got = 0;
	int lines = 0;

	*status = 0;
	build_clock_start(&bc);
	build_floor_start(&bf, bot_pid(b));
	while (lines < 2) {
		const char *line;
		size_t len;
		int r = bot_read_line_live(b, &line, &len, clock_now_us() + POLL_US);

		if (atomic_load(&p->stop))
			return -EINTR;
		if (r == 0) {
			got += (size_t)snprintf(buf + got, size - got, "%s%.*s", lines ? "\n" : "",
						(int)len, line);
			got = got < size ? got : size - 1;
			lines++;
		} else if (r != -ETIMEDOUT) {
			break;
		} else if (build_clock_over(&bc, p->config.build_seconds)) {
			return -ETIMEDOUT;
		}
		/* starved like a build, moved like one; it has no log for the note */
		build_floor_check(&bf, note, sizeof(note));
	}
	/* its exit, within the guard too: it has nothing left to do but end */
	while (!bot_exited(b, status)) {
		if (atomic_load(&p->stop))
			return -EINTR;
		if (build_clock_over(&bc, p->config.build_seconds))
			return -ETIMEDOUT;
		usleep(POLL_US / 5);
	}
	return lines == 2 ? 0 : -ECHILD;
}

/* Unpack the upload into a fresh tree with the host's unpacker: a process of its own
 * under limits of its own, in the sandbox where there is one, like a build (the upload
 * shown read-only as a file its command names), so that a fault of a decompressor
 * cannot take the host nor reach past the tree. 0, -EINTR, or why. */
static int unpack(struct pipeline *p, const struct job *j, char *why, size_t why_size)
{
	uint64_t total = (uint64_t)p->config.build_disk_mb << 20;
	struct unpack_limits defaults = UNPACK_LIMITS_DEFAULT;
	char buf[WHY_MAX + 16] = "", n[3][24];
	char *argv[] = { p->unpacker, (char *)j->upload, (char *)j->tree, n[0], n[1], n[2], NULL };
	struct bot_spec spec = { 0 };
	struct sandbox *sb = NULL;
	struct bot *b = NULL;
	int status = 0, ret;

	if ((ret = tree_remove(j->tree)) < 0 || mkdir(j->tree, 0755) < 0) {
		snprintf(why, why_size, "the host cannot make the folder to unpack into: %s",
			 strerror(ret < 0 ? -ret : errno));
		return -EIO;
	}
	/* as root the sandbox's uid reads the upload, and its folder (the sandbox shows the
	 * folder of a file its command names); no other sandbox sees that folder */
	if (geteuid() == 0 && (chmod(j->upload, 0644) < 0 || chmod(j->folder, 0755) < 0)) {
		snprintf(why, why_size, "the host cannot open the upload to its unpacker: %s",
			 strerror(errno));
		return -EIO;
	}
	if (total > defaults.total_bytes)
		total = defaults.total_bytes;
	snprintf(n[0], sizeof(n[0]), "%llu", (unsigned long long)p->config.upload_mb << 20);
	snprintf(n[1], sizeof(n[1]), "%llu", (unsigned long long)total);
	snprintf(n[2], sizeof(n[2]), "%llu", (unsigned long long)(defaults.file_bytes < total ?
								 defaults.file_bytes : total));
	spec.name = "unpacker";
	spec.argv = argv;
	spec.cwd = j->tree;
	spec.cpu = -1;
	spec.limits = (struct bot_limits){ 0, 0, 0, p->config.build_processes };
	if ((ret = build_sandbox_start(&spec, SANDBOX_AUTO, &sb, &b, why, why_size)) == 0)
		ret = unpack_answer(p, b, buf, sizeof(buf), &status);
	if (build_sandbox_end(j->tree, b, sb) < 0 && ret == 0) {
		snprintf(why, why_size, "the host cannot take the unpacked folder back");
		return -EPERM;
	}
	if (ret == -EINTR || (ret < 0 && !b))
		return ret == -EINTR ? ret : -EIO;
	if (ret == -ETIMEDOUT) {
		snprintf(why, why_size, "the unpacking ran past %d s (build_seconds in "
			 "host.jsonc): submit a smaller archive", p->config.build_seconds);
		return ret;
	}
	if (ret < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, why_size, "the unpacking stopped at a limit of the host's unpacker "
			 "(%s): submit a smaller archive", WIFSIGNALED(status) ?
			 strsignal(WTERMSIG(status)) : "no answer");
		return -EFBIG;
	}
	if (atoi(buf) < 0) {
		snprintf(why, why_size, "the archive was refused: %s", strchr(buf, '\n') + 1);
		return -EINVAL;
	}
	return 0;
}

/* ---- 3. checking ---- */

/* The bot's command, absolute (manifest.h's run: a file of the tree, else a system
 * program), NULL-terminated into argv (freed by the caller); 0 or why. */
static int bot_command(const struct job *j, char *const *run, char ***argv, char *why,
		       size_t why_size)
{
	size_t n = 0;
	char path[PATH_MAX];
	struct stat st;

	while (run[n])
		n++;
	if (!(*argv = calloc(n + 1, sizeof(**argv))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *arg = strncmp(run[i], "./", 2) == 0 ? run[i] + 2 : run[i];
		bool found = false;

		if (arg[0] != '/' && snprintf(path, sizeof(path), "%s/%s", j->tree, arg) <
		    (int)sizeof(path) && stat(path, &st) == 0)
			found = true;
		for (const char *d = BUILD_PATH; !found && i == 0 && !strchr(arg, '/') && *d;) {
			size_t len = strcspn(d, ":");

			snprintf(path, sizeof(path), "%.*s/%s", (int)len, d, arg);
			found = access(path, X_OK) == 0;
			d += len + (d[len] == ':');
		}
		if (i == 0 && !found && arg[0] != '/') {
			snprintf(why, why_size, "run[0] \"%.100s\" is neither a file of the upload "
				 "after its build nor a program of the system: check \"run\" in "
				 MANIFEST_FILE " or the build", run[0]);
			return -ENOENT;
		}
		if (!((*argv)[i] = strdup(found ? path : arg)))
			return -ENOMEM;
	}
	return 0;
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The first fault of check.log, with its reproduce line, into why. */
static void first_fault(const char *log, char *why, size_t why_size)
{
	char line[2048], fault[600] = "", again[1200] = "";
	FILE *fp = fopen(log, "re");

	while (fp && !again[0] && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!fault[0] && strncmp(line, "  PROBLEM ", 10) == 0)
			snprintf(fault, sizeof(fault), "%.599s", strchr(line, ':') ?
				 strchr(line, ':') + 2 : line + 2);
		else if (fault[0] && strncmp(line, "  reproduce: ", 13) == 0)
			snprintf(again, sizeof(again), "%.1199s", line + 13);
	}
	if (fp)
		fclose(fp);
	if (fault[0])
		snprintf(why, why_size, "the check found a fault: %s; reproduce: %s (check.log "
			 "has the whole report)", fault, again[0] ? again : "see check.log");
	else
		snprintf(why, why_size, "the check failed before a game: see check.log");
}

/* The environment of check: the host's, PATH the system's. NULL without memory. */
static char **check_env(void)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	if (!(env = calloc(n + 2, sizeof(*env))))
		return NULL;
	env[k++] = "PATH=" BUILD_PATH;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "PATH=", 5))
			env[k++] = environ[i];
	return env;
}

/* One run of check against opponent (NULL: its default); 0 when the bot passed. */
static int check_once(struct pipeline *p, const struct job *j, char **bot, const char *opponent,
		      char *why, size_t why_size)
{
	char games[16], *args[64 + 16];
	char **env = check_env();
	int64_t guard;
	size_t n = 0;
	int fd, status;
	pid_t pid;

	snprintf(games, sizeof(games), "%d", p->config.check_games);
	args[n++] = p->arena;
	args[n++] = "check";
	args[n++] = "--sandbox";
	args[n++] = (char *)sandbox_mode_name(p->sandbox);
	args[n++] = "--games";
	args[n++] = games;
	args[n++] = "--replays";
	args[n++] = (char *)j->replays;
	if (opponent) {
		args[n++] = "--opponent";
		args[n++] = (char *)opponent;
	}
	args[n++] = "--";
	for (size_t i = 0; bot[i] && n < sizeof(args) / sizeof(args[0]) - 1; i++)
		args[n++] = bot[i];
	args[n] = NULL;
	fd = open(j->check_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0 && env)
		reaper_hold();
	if (fd < 0 || !env || (pid = fork()) < 0) {
		snprintf(why, why_size, "the host cannot run the check: %s", strerror(errno));
		if (fd >= 0 && env)
			reaper_release();
		if (fd >= 0)
			close(fd);
		free(env);
		return -EIO;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || chdir(j->tree) < 0)
			_exit(127);
		execve(p->arena, args, env);
		_exit(127);
	}
	/* the arena's reaper takes any child it does not know for an orphan */
	if (reaper_track(pid) < 0)
		kill(pid, SIGKILL);
	reaper_release();
	close(fd);
	free(env);
	/* far above any check that plays: its games and starts at their time limits */
	guard = clock_now_us() + (int64_t)p->config.check_games * 200 * 1000000;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (atomic_load(&p->stop) || clock_now_us() > guard) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			reaper_forget(pid);
			if (atomic_load(&p->stop))
				return -EINTR;
			snprintf(why, why_size, "the check did not end within %d s: see check.log",
				 p->config.check_games * 200);
			return -ETIMEDOUT;
		}
		usleep(POLL_US);
	}
	reaper_forget(pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	first_fault(j->check_log, why, why_size);
	return -EPROTO;
}

/* check against each anchor of the league (none entered yet: check's default, the easy
 * bot). 0, -EINTR, or why. */
static int check(struct pipeline *p, const struct job *j, char **bot, char *why,
		 size_t why_size)
{
	struct league_entries es;
	char err[512], command[2048];
	int ret = 0, checked = 0;

	unlink(j->check_log);
	if (league_entries_open(&es, p->dir, err, sizeof(err)) < 0)
		memset(&es, 0, sizeof(es));
	for (size_t i = 0; ret == 0 && i < es.n; i++) {
		const struct league_entry *e = &es.e[i];
		size_t at = 0;

		if (!e->anchor || e->retired)
			continue;
		/* check splits the opponent's command on spaces */
		for (size_t k = 0; e->bot.argv[k] && at < sizeof(command); k++)
			at += (size_t)snprintf(command + at, sizeof(command) - at, "%s%s",
					       k ? " " : "", e->bot.argv[k]);
		if (at >= sizeof(command))
			continue;
		ret = check_once(p, j, bot, command, why, why_size);
		checked++;
	}
	if (es.dir)
		league_entries_release(&es);
	return ret == 0 && !checked ? check_once(p, j, bot, NULL, why, why_size) : ret;
}

/* ---- 4. entered ---- */

/* The entry already made for this submission's tree (a stop between the league's add and
 * the "entered" event), into name; 1 when there is one. */
static int entered_before(struct pipeline *p, const struct job *j, char *name, size_t size)
{
	struct league_entries es;
	char err[512];
	int found = 0;

	if (league_entries_open(&es, p->dir, err, sizeof(err)) < 0)
		return 0;
	for (size_t i = 0; i < es.n && !found; i++)
		if (es.e[i].bot.cwd && strcmp(es.e[i].bot.cwd, j->tree) == 0) {
			snprintf(name, size, "%s", es.e[i].name);
			found = 1;
		}
	league_entries_release(&es);
	return found;
}

/* 1 when the bot name belongs in the league to something other than this host's
 * submissions (an anchor, a bot of league.jsonc, a `league add`). */
static int name_foreign(struct pipeline *p, const struct league_entries *es, const char *bot)
{
	char prefix[PATH_MAX];
	int i = league_entries_find(es, bot);
	size_t n;

	if (i < 0)
		return 0;
	n = (size_t)snprintf(prefix, sizeof(prefix), "%s/%s/", p->dir, SUBMISSIONS_DIR);
	return es->e[i].anchor || es->e[i].declared || !es->e[i].bot.cwd ||
	       strncmp(es->e[i].bot.cwd, prefix, n) != 0;
}

static int enter(struct pipeline *p, const struct job *j, char **argv, char *name,
		 char *why, size_t why_size)
{
	struct league_config lc;
	struct league_entries es;
	struct config_bot bot = { 0 };
	char *no_env[] = { NULL }, *err, bot_name[sizeof(j->bot)];
	int ret;

	if (!(err = malloc(CONFIG_ERR_MAX)))
		return -ENOMEM;
	memcpy(bot_name, j->bot, sizeof(bot_name));
	bot.name = bot_name;
	bot.argv = argv;
	bot.cwd = (char *)j->tree;
	bot.env = no_env;
	if (league_config_load(p->dir, &lc, err, CONFIG_ERR_MAX) == 0) {
		bot.limits = lc.base.limits;
		league_config_release(&lc);
	} else {
		config_default_limits(&bot.limits);
	}
	if ((ret = league_entries_open(&es, p->dir, err, CONFIG_ERR_MAX)) < 0) {
		snprintf(why, why_size, "the host cannot read the league's entries: %.400s", err);
		goto out;
	}
	if (name_foreign(p, &es, j->bot)) {
		snprintf(why, why_size, "the name \"%s\" is taken in the league by a bot not "
			 "submitted here (an anchor or the organiser's): submit under another name",
			 j->bot);
		ret = -EEXIST;
	} else if ((ret = league_entries_add(&es, &bot, 0, name, err, CONFIG_ERR_MAX)) < 0) {
		snprintf(why, why_size, "the league refused the entry: %.400s", err);
	}
	league_entries_release(&es);
out:
	free(err);
	return ret < 0 ? ret : 0;
}

/* ---- the stages in order ---- */

/* path holding text alone. */
static void write_note(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);

	/* a note for the author's page: nothing to do when it cannot be written */
	if (fd >= 0 && write(fd, text, strlen(text)) >= 0)
		fsync(fd);
	if (fd >= 0)
		close(fd);
}

static void work(struct pipeline *p, const struct job *j)
{
	char why[WHY_MAX], name[LEAGUE_ENTRY_NAME_MAX], **argv = NULL;
	struct manifest m = { 0 };
	int ret;

	if (entered_before(p, j, name, sizeof(name))) {
		set_state(p, j, SUBMISSION_ENTERED, name, NULL);
		return;
	}
	if ((ret = unpack(p, j, why, sizeof(why))) < 0) {
		if (ret != -EINTR)
			fail(p, j, why);
		return;
	}
	if (manifest_read(j->tree, &m, why, sizeof(why)) < 0) {
		fail(p, j, why);
		return;
	}
	if (set_state(p, j, SUBMISSION_UNPACKED, NULL, NULL) < 0 ||
	    set_state(p, j, SUBMISSION_BUILDING, NULL, NULL) < 0)
		goto out;
	if (m.build && (ret = build_run(j->tree, m.build, j->build_log, &p->config, &p->tc,
					&p->stop, why, sizeof(why))) < 0) {
		if (ret != -EINTR)
			fail(p, j, why);
		goto out;
	}
	if (!m.build)
		write_note(j->build_log, "nothing to build: the manifest has no build\n");
	if ((ret = bot_command(j, m.run, &argv, why, sizeof(why))) < 0) {
		fail(p, j, ret == -ENOMEM ? "out of memory" : why);
		goto out;
	}
	if (set_state(p, j, SUBMISSION_CHECKING, NULL, NULL) < 0)
		goto out;
	if ((ret = check(p, j, argv, why, sizeof(why))) < 0) {
		if (ret != -EINTR)
			fail(p, j, why);
		goto out;
	}
	if (atomic_load(&p->stop))
		goto out;
	if (enter(p, j, argv, name, why, sizeof(why)) < 0)
		fail(p, j, why);
	else
		set_state(p, j, SUBMISSION_ENTERED, name, NULL);
out:
	free_argv(argv);
	manifest_release(&m);
}

/* The paths of submission s into j. */
static int job_init(struct pipeline *p, const struct submission *s, struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->id = s->id;
	snprintf(j->bot, sizeof(j->bot), "%s", s->bot);
	if (submissions_path(&p->ss, s->id, NULL, j->folder, sizeof(j->folder)) < 0 ||
	    submissions_path(&p->ss, s->id, "tree", j->tree, sizeof(j->tree)) < 0 ||
	    submissions_path(&p->ss, s->id, "upload", j->upload, sizeof(j->upload)) < 0 ||
	    submissions_path(&p->ss, s->id, "build.log", j->build_log, sizeof(j->build_log)) < 0 ||
	    submissions_path(&p->ss, s->id, "check.log", j->check_log, sizeof(j->check_log)) < 0 ||
	    submissions_path(&p->ss, s->id, "replays", j->replays, sizeof(j->replays)) < 0)
		return -ENAMETOOLONG;
	return 0;
}

static void *worker(void *arg)
{
	struct pipeline *p = arg;
	char err[512];

	pthread_mutex_lock(&p->lock);
	while (!atomic_load(&p->stop)) {
		struct submission *s;
		struct timespec until;
		struct job j;
		int ret;

		if (submissions_refresh(&p->ss, err, sizeof(err)) < 0)
			fprintf(stderr, "skipbo-arena: host: %s\n", err);
		if (!(s = submissions_next(&p->ss))) {
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += 1;
			pthread_cond_timedwait(&p->wake, &p->lock, &until);
			continue;
		}
		s->taken = true;
		ret = job_init(p, s, &j);
		pthread_mutex_unlock(&p->lock);
		if (ret < 0)
			fail(p, &j, "the competition's directory has too long a path");
		else
			work(p, &j);
		pthread_mutex_lock(&p->lock);
		if ((s = submissions_find(&p->ss, j.id)))
			s->taken = false;
		/* the author's next one may go now */
		pthread_cond_broadcast(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void pipeline_free(struct pipeline *p)
{
	submissions_release(&p->ss);
	build_toolchain_release(&p->tc);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	free(p->workers);
	free(p->dir);
	free(p->arena);
	free(p->unpacker);
	free(p);
}

int pipeline_start(const struct pipeline_setup *setup, struct pipeline **out, char *err,
		   size_t err_size)
{
	struct pipeline *p = calloc(1, sizeof(*p));
	char real[PATH_MAX];
	int ret;

	*out = NULL;
	if (!p) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	atomic_init(&p->stop, false);
	p->config = setup->config;
	p->sandbox = setup->sandbox;
	/* canonical: the sandbox binds the tree at its canonical path, the league matches it */
	if (!realpath(setup->dir, real)) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", setup->dir, strerror(errno));
		goto fail;
	}
	if (!(p->dir = strdup(real)) || !(p->arena = strdup(setup->arena)) ||
	    !(p->unpacker = unpacker_path(setup->arena)) ||
	    !(p->workers = calloc((size_t)setup->config.builds, sizeof(*p->workers))) ||
	    build_toolchain_find(setup->arena, &p->tc) < 0) {
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	if ((ret = submissions_open(&p->ss, p->dir, err, err_size)) < 0)
		goto fail;
	/* what a stop or a kill -9 left half done goes through again from the start */
	if ((ret = submissions_restart(&p->ss, err, err_size)) < 0)
		goto fail;
	for (; p->nworkers < setup->config.builds; p->nworkers++)
		if ((ret = -pthread_create(&p->workers[p->nworkers], NULL, worker, p)) < 0) {
			snprintf(err, err_size, "cannot start the pipeline's threads: %s",
				 strerror(-ret));
			pipeline_stop(p);
			return ret;
		}
	*out = p;
	return 0;
fail:
	pipeline_free(p);
	return ret;
}

void pipeline_poke(struct pipeline *p)
{
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

void pipeline_stop(struct pipeline *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	pipeline_poke(p);
	for (int i = 0; i < p->nworkers; i++)
		pthread_join(p->workers[i], NULL);
	pipeline_free(p);
}

bool pipeline_entry_private(const char *dir, const char *entry)
{
	char err[1024], tree[PATH_MAX];
	struct submissions ss;
	struct manifest m;
	bool private_ = false, found = false;

	if (submissions_open(&ss, dir, err, sizeof(err)) < 0)
		return true;
	for (size_t i = ss.n; i-- > 0 && !found;) {
		if (!ss.s[i].entry || strcmp(ss.s[i].entry, entry))
			continue;
		found = true;
		if (submissions_path(&ss, ss.s[i].id, "tree", tree, sizeof(tree)) < 0 ||
		    manifest_read(tree, &m, err, sizeof(err)) < 0) {
			private_ = true;
			continue;
		}
		private_ = m.private_;
		manifest_release(&m);
	}
	submissions_release(&ss);
	return private_;
}
