/*
 * viewer.c - the replay viewer page: the template viewer_page.html (compiled
 * in as viewer_page[] by CMake) with the replay document put in at its marker.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "viewer.h"

#include "check.h"
#include "durable.h"
#include "engine.h"
#include "replay.h"

extern const char viewer_page[];

#define MARKER "<!--REPLAY-->"

/*
 * The requests of a replay's games as its re-check reaches each position: for
 * each game an array with one entry per position (the deal, then after each
 * decision or removal, as the page's steps go), each {"c":I,"m":[MOVES]}: the
 * legal moves of the seat to move in the protocol's encoding, and the index
 * of the one it played (-1: none, it was removed or the game ended).
 */
struct requests {
	struct jsonw *w;
	struct move legal[ENGINE_MAX_MOVES];
	int n;      /* legal moves of the position not written yet */
	int games;  /* games begun */
};

static void requests_pending(struct requests *q, const struct game *g)
{
	q->n = game_to_move(g) < 0 ? 0 : game_legal_moves(g, q->legal);
	if (q->n < 0)
		q->n = 0;
}

static void requests_flush(struct requests *q, const struct move *played, int last)
{
	char mv[CHECK_MOVE_MAX];
	int chosen = -1;

	for (int i = 0; played && i < q->n && chosen < 0; i++)
		if (move_equal(&q->legal[i], played))
			chosen = i;
	jsonw_printf(q->w, "{\"c\":%d,\"m\":[", chosen);
	for (int i = 0; i < q->n; i++) {
		check_format_move(&q->legal[i], mv, sizeof(mv));
		if (i)
			jsonw_text(q->w, ",");
		jsonw_string(q->w, mv);
	}
	jsonw_text(q->w, last ? "]}" : "]},");
}

static void requests_start(void *ctx, int game, const struct game *g)
{
	struct requests *q = ctx;

	(void)game;
	jsonw_text(q->w, q->games++ ? ",[" : "[");
	requests_pending(q, g);
}

static void requests_move(void *ctx, int seat, const struct move *m, int64_t elapsed_us,
			  const struct game *g)
{
	(void)seat;
	(void)elapsed_us;
	requests_flush(ctx, m, 0);
	requests_pending(ctx, g);
}

static void requests_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	(void)f;
	requests_flush(ctx, NULL, 0);
	requests_pending(ctx, g);
}

static void requests_end(void *ctx, int game, const struct game *g)
{
	struct requests *q = ctx;

	(void)game;
	(void)g;
	requests_flush(q, NULL, 1);
	jsonw_text(q->w, "]");
}

int viewer_requests(const char *text, size_t len, struct jsonw *out, char *err, size_t err_size)
{
	struct requests q = { .w = out };
	const struct referee_observer obs = { .ctx = &q, .game_start = requests_start,
		.move = requests_move, .fault = requests_fault, .game_end = requests_end };
	int ret;

	jsonw_reset(out);
	jsonw_text(out, "[");
	ret = replay_walk(text, len, NULL, &obs, NULL, err, err_size);
	jsonw_text(out, "]");
	if (ret == 0 && jsonw_error(out))
		ret = -ENOMEM;
	return ret;
}

int viewer_format(struct jsonw *w, const char *text, size_t len)
{
	return viewer_format_requests(w, text, len, NULL, 0);
}

int viewer_format_requests(struct jsonw *w, const char *text, size_t len, const char *requests,
			   size_t requests_len)
{
	const char *at = strstr(viewer_page, MARKER);
	size_t from = 0;

	jsonw_reset(w);
	if (!at)
		return -EINVAL;
	jsonw_raw(w, viewer_page, (size_t)(at - viewer_page));
	jsonw_text(w, "<script id=\"replay\" type=\"application/json\">");
	/* Outside strings JSON has none of these characters, inside strings the
	 * escapes mean the same characters: the document is unchanged for
	 * JSON.parse, and "</script>" in a bot's fault line cannot end the element. */
	for (size_t i = 0; i < len; i++) {
		const char *esc = text[i] == '<' ? "\\u003c" : text[i] == '>' ? "\\u003e" :
			text[i] == '&' ? "\\u0026" : NULL;

		if (!esc)
			continue;
		jsonw_raw(w, text + from, i - from);
		jsonw_text(w, esc);
		from = i + 1;
	}
	jsonw_raw(w, text + from, len - from);
	jsonw_text(w, "</script>");
	if (requests) {
		/* made here from the engine's moves: no '<', '>' or '&' in it */
		jsonw_text(w, "\n<script id=\"requests\" type=\"application/json\">");
		jsonw_raw(w, requests, requests_len);
		jsonw_text(w, "</script>");
	}
	at += strlen(MARKER);
	jsonw_text(w, at);
	return jsonw_error(w) ? -ENOMEM : 0;
}

int viewer_write_page(const char *name, const char *text, size_t len, const char *page_path,
		      struct jsonw *page, char *err, size_t err_size)
{
	char why[512];
	struct jsonw requests;
	int ret;

	jsonw_init(&requests);
	ret = viewer_requests(text, len, &requests, why, sizeof(why));
	if (ret != 0 && ret != -ENOMEM) {
		snprintf(err, err_size, "%s: %s", name, why);
		ret = -EBADMSG;
	} else if (ret < 0 ||
		   (ret = viewer_format_requests(page, text, len, requests.data, requests.len)) < 0 ||
		   (ret = durable_write(page_path, page->data, page->len)) < 0) {
		snprintf(err, err_size, "%s: cannot write its page \"%s\": %s", name, page_path,
			 strerror(-ret));
	}
	jsonw_release(&requests);
	return ret;
}
