/*
 * play_here.h - given games played on this machine as the host's own run
 * would play them: their index, id, told id, seed and seats kept, in
 * rotation phases (lease_source.h), by a tournament_run of their own into a
 * new directory, each bot in the sandbox of cfg's mode. Their replay
 * documents come back; the directory is removed. The host re-plays a
 * sample of an untrusted worker's games with it (arena/WORKERS.md, "Trust").
 *
 * The run shares tournament_run's one stop request with every other run of
 * the process: a stop asked of them ends this one too (-EINTR).
 */
#ifndef SKIPBO_PLAY_HERE_H
#define SKIPBO_PLAY_HERE_H

#include <stddef.h>

#include "config.h"
#include "schedule.h"

struct play_here_setup {
	const char *tmpdir;             /* the run's directory is made here; NULL: $TMPDIR, else /tmp */
	const char *const *hide;        /* paths no bot may see, besides the run's directory */
	size_t nhide;
};

/*
 * The n games of cfg (seats as indices into cfg's bots) played here, one at
 * a time. 0 with docs[i] (malloc'd, NUL-terminated, lens[i] bytes without
 * it) the replay document of games[i]; or a negative errno with err: -EINTR
 * (a stop was asked), -ENOTSUP or -EACCES (the sandbox: no sandbox here of
 * the mode, or a bot cannot run in it), -ENOENT (a game left no replay),
 * -ENOMEM, or the run's error. On failure no document is left.
 */
int play_here(const struct config *cfg, const struct schedule_game *games, size_t n,
	      const struct play_here_setup *setup, char **docs, size_t *lens, char *err,
	      size_t err_size);

/* The tree at dir removed, links not followed: 0, or a negative errno. */
int play_here_remove(const char *dir);

#endif
