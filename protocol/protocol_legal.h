/*
 * protocol_legal.h - inside the protocol library: a request's "legal" list in
 * both forms (PROTOCOL.md "Compact requests"), and the discards a compact
 * request leaves out. Not part of the public API.
 */
#ifndef SKIPBO_PROTOCOL_LEGAL_H
#define SKIPBO_PROTOCOL_LEGAL_H

#include "protocol_json.h"

/*
 * R4 and R5.3: with cards in hand, every distinct hand card may go on each of
 * the seat's 4 discard piles. Writes those discards in game_legal_moves()
 * order (cards from SKIP-BO up to 12, piles 0..3 for each) into out (room for
 * 4 * ENGINE_HAND_SIZE) and returns their count, 0 for an empty hand.
 */
int legal_discards(const struct seat_view *v, struct move *out);

/*
 * How many moves a compact request lists of legal[0..n-1]: n less the
 * trailing discards when they are exactly legal_discards(v) (*discard_any =
 * 1), n when there is no discard (*discard_any = 0). -1 when the discards are
 * anything else, which game_legal_moves() never gives.
 */
int legal_compact_count(const struct seat_view *v, const struct move *legal, int n,
			int *discard_any);

/*
 * Reads a request's "legal" array into r->legal (r->view already parsed).
 * discard_any is the request's "discard_any" member or NULL: NULL means the
 * ordinary form (move objects); a boolean means the compact form (arrays,
 * then the discards of legal_discards() when true). root is the request,
 * for messages.
 */
int legal_parse(const cJSON *root, const cJSON *legal, const cJSON *discard_any,
		struct protocol_request *r, struct protocol_diag *diag);

#endif
