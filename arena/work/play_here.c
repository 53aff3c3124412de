/*
 * play_here.c - given games played here and their replays returned
 * (contract in play_here.h).
 */
#include "play_here.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lease_source.h"
#include "replay_find.h"
#include "sandbox.h"
#include "tournament.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int play_here_remove(const char *dir)
{
	return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 ? -errno : 0;
}

/* cfg's bots in a sandbox of its mode, dir and setup's paths hidden: 0 with *sb (NULL: off). */
static int open_sandbox(const struct config *cfg, const char *dir,
			const struct play_here_setup *setup, struct sandbox **sb, char *err,
			size_t err_size)
{
	struct bot_spec *specs = calloc(cfg->nbots + 1, sizeof(*specs));
	const char **hide = calloc(setup->nhide + 2, sizeof(*hide));
	struct sandbox_setup s = { 0 };
	char note[4096] = "";
	int ret = -ENOMEM;

	*sb = NULL;
	config_sandbox_setup(cfg, &s);
	s.bots = specs;
	s.nbots = cfg->nbots;
	s.hide = hide;
	s.nhide = setup->nhide + 1;
	if (!specs || !hide)
		goto out;
	for (size_t i = 0; i < cfg->nbots; i++)
		specs[i] = (struct bot_spec){ .name = cfg->bots[i].name, .argv = cfg->bots[i].argv,
					      .cwd = cfg->bots[i].cwd };
	hide[0] = dir;
	for (size_t i = 0; i < setup->nhide; i++)
		hide[i + 1] = setup->hide[i];
	if ((ret = sandbox_open(&s, sb, note, sizeof(note))) < 0)
		snprintf(err, err_size, "sandbox: %s", note[0] ? note : strerror(-ret));
out:
	free(specs);
	free(hide);
	return ret;
}

/* The replay documents of the run in dir, one per game. */
static int collect(const char *dir, const struct schedule_game *games, size_t n, char **docs,
		   size_t *lens, char *err, size_t err_size)
{
	for (size_t i = 0; i < n; i++) {
		int code = -ENOMEM;

		if (!(docs[i] = replay_find(dir, games[i].id, &lens[i], &code, err, err_size))) {
			while (i > 0)
				free(docs[--i]);
			return code < 0 ? code : -ENOENT;
		}
		/* a document as a pack holds it ends with its newline: the text alone */
		while (lens[i] && docs[i][lens[i] - 1] == '\n')
			docs[i][--lens[i]] = '\0';
	}
	return 0;
}

int play_here(const struct config *cfg, const struct schedule_game *games, size_t n,
	      const struct play_here_setup *setup, char **docs, size_t *lens, char *err,
	      size_t err_size)
{
	static const struct play_here_setup none = { 0 };
	struct tournament_options topt = { .quiet = 1 };
	struct config here = *cfg;
	struct lease_source src;
	const char *tmp = setup && setup->tmpdir ? setup->tmpdir : getenv("TMPDIR");
	char dir[PATH_MAX];
	FILE *progress = NULL;
	int ret;

	err[0] = '\0';
	if (!setup)
		setup = &none;
	snprintf(dir, sizeof(dir), "%s/skipbo-here-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ret = -errno;
		snprintf(err, err_size, "no directory to play in (\"%s\"): %s", dir, strerror(errno));
		return ret;
	}
	/* a shallow copy: only what differs is the run's own */
	here.output = dir;
	here.concurrency = 1;
	here.replays = CONFIG_REPLAYS_ALL;
	if ((ret = open_sandbox(&here, dir, setup, &topt.sandbox, err, err_size)) < 0)
		goto out;
	here.sandbox = topt.sandbox ? (int)sandbox_mode_of(topt.sandbox) : SANDBOX_OFF;
	if ((ret = lease_source_init_games(&src, games, n, &here, err, err_size)) < 0)
		goto out;
	topt.source = &src.source;
	if (!(progress = fopen("/dev/null", "w"))) {
		ret = -errno;
		snprintf(err, err_size, "/dev/null: %s", strerror(errno));
	} else {
		topt.progress = progress;
		ret = tournament_run(&here, &topt, err, err_size);
		fclose(progress);
	}
	lease_source_release(&src);
	if (ret == 1) {
		ret = -EINTR;
		snprintf(err, err_size, "stopped before its games were played");
	}
	if (ret == 0)
		ret = collect(dir, games, n, docs, lens, err, err_size);
out:
	if (ret == -ENOMEM && !err[0])
		snprintf(err, err_size, "out of memory");
	sandbox_close(topt.sandbox);
	play_here_remove(dir);
	return ret;
}
