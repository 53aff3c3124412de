/*
 * botloop.c - the bots' message loop (see botloop.h).
 */
#include <stdlib.h>
#include <string.h>

#include "botloop.h"

static int answer(const struct botloop_policy *p, const struct protocol_request *req,
		  struct protocol_buf *out_line, FILE *out)
{
	if (req->n_legal <= 0) {
		fprintf(stderr, "%s: request %s/%u has no legal moves; not answering\n", p->name,
			req->game, (unsigned)req->move);
		return 0;
	}
	int i = p->choose(p->ctx, req);
	if (i < 0 || i >= req->n_legal)
		i = 0;
	int rc = protocol_format_move(out_line, &req->legal[i]);
	if (rc == 0)
		rc = protocol_write_line(out, out_line);
	return rc;
}

/* Compact requests are shorter to read; SKIPBO_COMPACT=0 asks for the
 * ordinary ones, to compare the two. */
static unsigned hello_features(void)
{
	const char *v = getenv("SKIPBO_COMPACT");

	return v && strcmp(v, "0") == 0 ? 0 : PROTOCOL_FEATURE_COMPACT_LEGAL;
}

int botloop_run(const struct botloop_policy *p, FILE *in, FILE *out)
{
	struct protocol_buf line, reply;
	struct protocol_diag diag;
	/* A request holds a whole seat_view: too big for some thread stacks. */
	struct protocol_message *msg = malloc(sizeof(*msg));
	int rc = 0;

	protocol_buf_init(&line);
	protocol_buf_init(&reply);
	if (!msg)
		return PROTOCOL_ENOMEM;
	protocol_message_init(msg);
	for (;;) {
		rc = protocol_read_line(in, &line);
		if (rc == PROTOCOL_EEOF) {
			rc = 0;
			break;
		}
		if (rc < 0)
			break;
		if (protocol_parse_message(msg, line.data, line.len, &diag) < 0) {
			fprintf(stderr, "%s: ignoring a line I cannot read: %s\n", p->name, diag.message);
			continue;
		}
		switch (msg->type) {
		case PROTOCOL_MSG_HELLO:
			rc = protocol_format_hello_features(&reply, p->name, p->version, NULL,
							    hello_features());
			if (rc == 0)
				rc = protocol_write_line(out, &reply);
			break;
		case PROTOCOL_MSG_GAME_START:
			if (p->game_start)
				p->game_start(p->ctx, &msg->game_start);
			break;
		case PROTOCOL_MSG_REQUEST:
			rc = answer(p, &msg->request, &reply, out);
			break;
		case PROTOCOL_MSG_GAME_END:
			if (p->game_end)
				p->game_end(p->ctx, &msg->game_end);
			break;
		case PROTOCOL_MSG_QUIT:
			goto out;
		default:
			break; /* unknown types are ignored (PROTOCOL.md) */
		}
		if (rc < 0)
			break;
	}
out:
	protocol_message_release(msg);
	free(msg);
	protocol_buf_release(&line);
	protocol_buf_release(&reply);
	return rc;
}
