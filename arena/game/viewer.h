/*
 * viewer.h - the replay viewer: one self-contained HTML page (inline CSS and
 * JavaScript, nothing fetched) that shows the table of a replay document
 * (results/README.md, "Replays") at every decision: seats, stocks, discard
 * piles, hands, building piles, draw pile and completed heap, each move, its
 * time, faults at their moment and the result, game by game in a match.
 *
 * The page carries the replay document itself and its script replays the
 * events, which hold every card (the deck and each draw), so the page needs
 * nothing else to draw the table; viewer_write_page() adds each decision's
 * legal moves, which the engine makes again, for the page to show the
 * request the bot answered. The page's template is viewer_page.html.
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
 * The same with the requests of its decisions (viewer_requests()) as a
 * second script element, "requests", for the page to show the legal moves
 * each seat was asked to choose from; requests NULL for none.
 */
int viewer_format_requests(struct jsonw *w, const char *text, size_t len, const char *requests,
			   size_t requests_len);

/*
 * Re-check the replay document text (len bytes) as replay_check() does and
 * write into out, as JSON, the request of every position of every game: per
 * game an array with an entry per position (the deal, then after each
 * decision or removal), {"c":I,"m":[MOVE...]}, the legal moves of the seat to
 * move in the protocol's encoding (PROTOCOL.md 4.1) and the index of the one
 * it played (-1: it was removed, or the game is over). Replays do not carry
 * the requests; the engine makes them again from the recorded decisions.
 * Returns replay_check()'s value (err says why), or -ENOMEM.
 */
int viewer_requests(const char *text, size_t len, struct jsonw *out, char *err, size_t err_size);

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
