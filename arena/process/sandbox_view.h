/*
 * sandbox_view.h - what a sandboxed bot sees of the file system: an
 * allowlist (SECURITY.md).
 *
 * The sandbox's root is an empty read-only tmpfs. Into it go:
 * - the system's read-only directories: /usr, /etc, and /bin, /sbin, /lib,
 *   /lib32, /lib64, /libx32 (as the symbolic links they are on a merged-/usr
 *   system, else bound);
 * - the bot's own files, bound read-only at their canonical paths: its
 *   program, the interpreter on its #! line when that lies outside the
 *   system directories, every argument that names an existing file, and
 *   every argument that names a directory of its own (below);
 * - the folder of its program and of its script, the first argument that
 *   names a file (`python3 bots/mine/bot.py`), in full when it is a directory of its
 *   own (below) and holds no program of anyone out of the tournament (a file
 *   with an execute bit or the extension of the bot's code, not a bot's own),
 *   so a bot finds the files beside it;
 * - its working directory, in full only when it is a directory of its own
 *   (writable only with bot_spec.cwd_writable, for a build);
 *   otherwise (the default working directory of `run` is the tournament
 *   file's folder) an empty directory of that name holding only the bot's
 *   own files that lie there;
 * - a private /tmp and /dev/shm, /proc of its own PID
 *   namespace and a minimal /dev.
 * A directory is "of its own" when it is at least two levels deep, holds no
 * path the arena hides (the output directory, the tournament file) and no
 * other bot's working directory (a folder two bots share as their working
 * directory is neither's), is not a home directory nor holds one, and is not
 * a system directory. Inside
 * what is shown, the paths the arena hides and the other bots' own files
 * (those not the bot's own too) are hidden again. No /sys, /home, /root,
 * /run, /var, /srv, /opt or /mnt.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_SANDBOX_VIEW_H
#define SKIPBO_SANDBOX_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

/* Size of the private /tmp and /dev/shm, each. */
#define SANDBOX_SCRATCH_MB 128

struct bot_spec;

struct sandbox_view {
	struct strlist system;        /* system directories, bound read-only */
	struct strlist links, targets; /* system names that are symbolic links, and their targets */
	struct strlist hide;          /* canonical paths no bot may see */
	struct strlist homes;         /* home directories: never shown as a directory */
	struct strlist others;        /* every bot's own files, hidden from the other bots */
	struct strlist cwds;          /* every bot's working directory, once a bot */
	char *path_env;               /* "PATH=" the arena's PATH less what a bot does not see */
	const char *copy;             /* sealed: each system directory, and each bot's own
				       * file but a writable working directory, is bound from
				       * its copy under this directory (system_copy.h), where
				       * the copy has it (a derived one may hold no /sbin, say:
				       * then none is shown); NULL: the host's */
};

/*
 * Find the system directories (system, NULL: the usual ones) and the homes,
 * make the hidden paths canonical (those that do not exist yet as they
 * will be), and filter path (the arena's PATH) into path_env. A usual name
 * that is a symbolic link (/bin -> usr/bin) is shown as one when its target
 * is, or holds, a system directory.
 */
int sandbox_view_init(struct sandbox_view *v, const char *path, const char *const *hide,
		      size_t nhide, const char *const *system, size_t nsystem);

void sandbox_view_release(struct sandbox_view *v);

/* Count spec's working directory among the bots' (before sandbox_view_own for any). */
int sandbox_view_add_cwd(struct sandbox_view *v, const struct bot_spec *spec);

/* The usual system directories, NULL-terminated: /usr, /etc, /bin, /sbin, /lib, /lib32,
 * /lib64, /libx32. */
extern const char *const sandbox_view_system_dirs[];

/* Is path a equal to b, or a directory above it (by their text; "/" is above all)? */
bool sandbox_view_covers(const char *a, const char *b);

/* Does every bot see path, without it being its own (under a system directory)? */
bool sandbox_view_system(const struct sandbox_view *v, const char *path);

/*
 * The own files of spec, whose program is program (as bot_start() resolved
 * it; relative to its working directory), canonical, into own (those a bot
 * sees anyway left out); its working directory, canonical, into *cwd, and
 * unless prog is NULL the program, canonical, into *prog (both malloc'ed;
 * NULL if they do not exist).
 */
int sandbox_view_own(const struct sandbox_view *v, const struct bot_spec *spec,
		     const char *program, struct strlist *own, char **cwd, char **prog);

/*
 * Files next to spec's program or scripts that it cannot see, because their
 * folder is not of its own: 1 and a sentence in why naming a few of them, the
 * reason and the way to show them; 0 when it sees them all (why ""). Call
 * once every bot's own files are in v->others.
 */
int sandbox_view_unseen(const struct sandbox_view *v, const struct bot_spec *spec,
			const char *program, char *why, size_t why_size);

/* bwrap's arguments for the file system of a bot with these own files and cwd (for a
 * host: without the covers of /proc, which each game makes, sandbox_start.h). With
 * cwd_writable, cwd is bound writable when it is one of own (a build's tree); every
 * other own file stays read-only. */
void sandbox_view_mounts(const struct sandbox_view *v, const struct strlist *own,
			 const char *cwd, bool cwd_writable, bool host, struct strlist *argv);

#endif
