/*
 * league_hide.h - what of a league's directory its sandboxed bots may not
 * see: all of it, except the way down to an entry's working directory that
 * lies inside it (a hosted competition's bots live in
 * DIR/submissions/ID/tree, arena/HOSTING.md).
 *
 * The directory is hidden whole unless an entry works in a directory below
 * it. Then, on the way from the league's directory down to each such
 * working directory, every sibling is hidden: DIR's files and folders but
 * the one that leads on, and so on down; the working directory itself is
 * left to the sandbox's view (sandbox_view.h), which shows it as the bot's
 * own and hides the other bots' files in it. Nothing is followed through a
 * symbolic link: a link on the way is hidden like a sibling and leads
 * nowhere. Something made in the directory later is not on the list, and
 * is seen by no bot all the same: the view shows only the bots' own
 * folders and the system's.
 */
#ifndef SKIPBO_LEAGUE_HIDE_H
#define SKIPBO_LEAGUE_HIDE_H

#include <stddef.h>

#include "strlist.h"

/*
 * The paths to hide into *out (canonical, the caller frees it with
 * strlist_free): dir itself, or its parts as above for the working
 * directories cwds (ncwds of them, absolute; those not strictly below dir
 * change nothing). 0, or -ENOMEM, or the error of realpath(3) on dir.
 */
int league_hide(const char *dir, const char *const *cwds, size_t ncwds, struct strlist *out);

#endif
