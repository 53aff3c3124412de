/*
 * protocol_fastparse.h - inside the protocol library: a single-pass reader
 * for request lines exactly as protocol_encode_request() writes them, tried
 * by protocol_parse_message() before the strict reader. Not part of the
 * public API.
 *
 * The request is the line a bot reads for every decision; building a JSON
 * tree for it and walking the tree costs more than the rest of a simple
 * bot's decision. This reader fills struct protocol_request straight from the
 * bytes, and accepts only what the strict reader would turn into the same
 * struct: anything else, however harmless, makes it give up, and the strict
 * reader parses the line and says what is wrong with it.
 */
#ifndef SKIPBO_PROTOCOL_FASTPARSE_H
#define SKIPBO_PROTOCOL_FASTPARSE_H

#include "protocol.h"

/* fastparse_request(): the line is not in the exact form this reader takes. */
#define FASTPARSE_GAVE_UP 1

/*
 * Reads line[0..len) (line[len] == '\0') into m->request when it is a request
 * in the exact form protocol_encode_request() writes, either form of "legal":
 * its key order, no white space, no escapes, printable ASCII strings, event
 * types this library knows, every integer in the range the strict reader
 * checks. Returns 0 then, with m->request what the strict reader makes of the
 * line: the same game, turn, move, times, view, fault and compact, the same
 * events[0..n_events) and legal[0..n_legal), byte for byte. Returns
 * FASTPARSE_GAVE_UP at the first byte that is anything else, and when memory
 * for the events runs out; m->request is then unspecified and the caller
 * parses the line with the strict reader. m->type and m->type_name are left
 * to the caller.
 */
int fastparse_request(struct protocol_message *m, const char *line, size_t len);

/*
 * Room for n more events after m->request.events[0..n_events), growing the
 * array (m->events_cap) as needed. 0 or PROTOCOL_ENOMEM (the array is then
 * unchanged). Both readers use it.
 */
int request_events_reserve(struct protocol_message *m, size_t n);

/*
 * 1 when a and b hold the same request: game, turn, move, times, view, fault,
 * compact, events[0..n_events) and legal[0..n_legal), byte for byte; 0 if
 * anything differs. What the two readers' results are compared with.
 */
int request_equal(const struct protocol_request *a, const struct protocol_request *b);

/*
 * protocol_parse_message() without this reader: the strict reader alone, for
 * every line this reader gives up on, and for the tests and the fuzz target
 * that hold the two readers' results side by side.
 */
int strict_parse_message(struct protocol_message *m, const char *line, size_t len,
			 struct protocol_diag *diag);

#endif
