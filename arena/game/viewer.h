/*
 * viewer.h - the replay viewer: one self-contained HTML page (inline CSS and
 * JavaScript, nothing fetched) that shows the table of a replay document
 * (results/README.md, "Replays") at every decision: seats, stocks, discard
 * piles, hands, building piles, draw pile and completed heap, each move, its
 * time, faults at their moment and the result, game by game in a match.
 *
 * The page carries the replay document itself and its script replays the
 * events, which hold every card (the deck and each draw), so the page needs
 * nothing else. The page's template is viewer_page.html.
 */
#ifndef SKIPBO_VIEWER_H
#define SKIPBO_VIEWER_H

#include <stddef.h>

#include "jsonw.h"

/*
 * Replace w's text with the viewer page of the replay document text (len
 * bytes). The document is embedded as it is, with '<', '>' and '&' written as
 * JSON escapes so that no text in it can end the script element; call
 * replay_check() first: the page trusts the document to be a valid replay.
 * Returns 0, or -ENOMEM (-EINVAL: the template has lost its marker).
 */
int viewer_format(struct jsonw *w, const char *text, size_t len);

/*
 * The page of the replay document text (len bytes), written durably to
 * page_path, after the replay re-checks (replay_check). name says which
 * replay it is in messages. page is a reused buffer. Returns 0, or a
 * negative errno with a sentence in err: -EBADMSG when the replay does not
 * re-check (the first mismatch named), else why the page could not be
 * written.
 */
int viewer_write_page(const char *name, const char *text, size_t len, const char *page_path,
		      struct jsonw *page, char *err, size_t err_size);

#endif
