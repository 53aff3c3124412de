/*
 * protocol_legal.c - a request's legal moves, in the ordinary form (move
 * objects) and in the compact form a bot asks for in its hello (arrays, the
 * discards left out). Both end in the same struct protocol_request.
 */
#include <stdio.h>
#include <string.h>

#include "protocol_legal.h"

int legal_discards(const struct seat_view *v, struct move *out)
{
	unsigned cards = 0;
	int n = 0;

	for (int i = 0; i < v->hand_size && i < ENGINE_HAND_SIZE; i++)
		if (v->hand[i] <= 12)
			cards |= 1u << v->hand[i];
	for (; cards; cards &= cards - 1)
		for (int d = 0; d < ENGINE_DISCARD_PILES; d++)
			out[n++] = (struct move){ .kind = MOVE_DISCARD, .source = SOURCE_HAND,
						  .owner = (uint8_t)v->seat,
						  .card = (uint8_t)__builtin_ctz(cards),
						  .target = (uint8_t)d };
	return n;
}

int legal_compact_count(const struct seat_view *v, const struct move *legal, int n,
			int *discard_any)
{
	struct move all[ENGINE_DISCARD_PILES * ENGINE_HAND_SIZE];
	int k = 0, listed = n, nall;

	while (listed > 0 && legal[listed - 1].kind == MOVE_DISCARD)
		listed--;
	*discard_any = listed < n;
	if (!*discard_any)
		return n;
	nall = legal_discards(v, all);
	if (nall != n - listed)
		return -1;
	for (; k < nall; k++)
		if (!move_equal(&all[k], &legal[listed + k]) || legal[listed + k].owner != v->seat)
			return -1;
	return listed;
}

/* The fields of the compact arrays after the leading word, with their ranges. */
enum { AF_SEAT, AF_PILE, AF_CARD, AF_TO };
static const struct {
	const char *name;
	long min, max;
} array_fields[] = {
	[AF_SEAT] = { "seat", 0, ENGINE_MAX_PLAYERS - 1 },
	[AF_PILE] = { "pile", 0, ENGINE_DISCARD_PILES - 1 },
	[AF_CARD] = { "card", CARD_SKIPBO, 12 },
	[AF_TO] = { "to", 0, ENGINE_BUILDING_PILES - 1 },
};

/* Each array form is named by its first element (PROTOCOL.md "Compact requests"). */
static const struct {
	const char *word;
	int kind, source, n;
	int field[4];
	const char *shape;
} forms[] = {
	{ "hand", MOVE_PLAY, SOURCE_HAND, 2, { AF_CARD, AF_TO }, "[\"hand\",card,to]" },
	{ "stock", MOVE_PLAY, SOURCE_STOCK, 3, { AF_SEAT, AF_CARD, AF_TO }, "[\"stock\",seat,card,to]" },
	{ "discard", MOVE_PLAY, SOURCE_DISCARD, 4, { AF_SEAT, AF_PILE, AF_CARD, AF_TO },
	  "[\"discard\",seat,pile,card,to]" },
	{ "pass", MOVE_PASS, 0, 0, { 0 }, "[\"pass\"]" },
};

static int array_move(const cJSON *item, int i, struct move *m, struct protocol_diag *diag)
{
	const cJSON *e;
	char safe[JSON_SAFE_MAX], where[JSON_PATH_MAX];
	long val[4] = { 0 };
	int form = -1, k = 0, rc;

	if (!json_is(item, cJSON_Array))
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "\"legal[%d]\" must be an array such as [\"hand\",card,to] in a request "
				 "with \"discard_any\", got %s", i, json_type_name(item));
	e = item->child;
	for (int f = 0; json_is(e, cJSON_String) && e->valuestring &&
			f < (int)(sizeof(forms) / sizeof(forms[0])); f++)
		if (strcmp(e->valuestring, forms[f].word) == 0)
			form = f;
	if (form < 0 && json_is(e, cJSON_String) && e->valuestring)
		return json_fail(diag, PROTOCOL_EVALUE, 0,
				 "unknown value \"%s\" for \"legal[%d][0]\"; valid: \"hand\", \"stock\", "
				 "\"discard\", \"pass\"", json_safe(e->valuestring, safe), i);
	if (form < 0)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "\"legal[%d][0]\" must be \"hand\", \"stock\", \"discard\" or \"pass\", got %s",
				 i, json_type_name(e));
	for (e = e->next; e && k < forms[form].n; e = e->next, k++) {
		int af = forms[form].field[k];

		if (json_number_in(e, array_fields[af].min, array_fields[af].max, &val[k]))
			continue;
		snprintf(where, sizeof(where), "legal[%d][%d] (%s)", i, k + 1, array_fields[af].name);
		rc = json_elem_int(e, where, array_fields[af].min, array_fields[af].max, 0, &val[k], diag);
		return rc ? rc : json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" must be an integer", where);
	}
	if (e || k < forms[form].n)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"legal[%d]\" must be %s, got %d elements",
				 i, forms[form].shape, cJSON_GetArraySize(item));
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)forms[form].kind;
	m->source = (uint8_t)forms[form].source;
	for (k = 0; k < forms[form].n; k++) {
		uint8_t v = (uint8_t)val[k];

		switch (forms[form].field[k]) {
		case AF_SEAT: m->owner = v; break;
		case AF_PILE: m->pile = v; break;
		case AF_CARD: m->card = v; break;
		default: m->target = v; break;
		}
	}
	return 0;
}

int legal_parse(const cJSON *root, const cJSON *legal, const cJSON *discard_any,
		struct protocol_request *r, struct protocol_diag *diag)
{
	static const struct json_path top = { "", -1 };
	struct move discards[ENGINE_DISCARD_PILES * ENGINE_HAND_SIZE];
	const cJSON *item;
	int rc, card_given, nd, any = 0;

	r->compact = discard_any != NULL;
	if (r->compact && (rc = json_get_bool(root, discard_any, &top, "discard_any", 1, &any, diag)))
		return rc;
	r->n_legal = 0;
	cJSON_ArrayForEach(item, legal) {
		const struct json_path at = { "legal", r->n_legal };
		struct move *mv = &r->legal[r->n_legal];

		if (r->n_legal == ENGINE_MAX_MOVES)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"legal\" has more than %d moves",
					 ENGINE_MAX_MOVES);
		if (r->compact)
			rc = array_move(item, r->n_legal, mv, diag);
		else if (!json_is(item, cJSON_Object))
			rc = json_fail(diag, PROTOCOL_EFIELD, 0, "\"legal[%d]\" must be an object", r->n_legal);
		else
			rc = json_move(item, &at, 1, mv, &card_given, diag);
		if (rc)
			return rc;
		if (mv->kind != MOVE_PLAY || mv->source == SOURCE_HAND)
			mv->owner = (uint8_t)r->view.seat;
		r->n_legal++;
	}
	if (!any)
		return 0;
	nd = legal_discards(&r->view, discards);
	if (r->n_legal + nd > ENGINE_MAX_MOVES)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "\"legal\" with the discards \"discard_any\" stands for has more than %d moves",
				 ENGINE_MAX_MOVES);
	memcpy(r->legal + r->n_legal, discards, (size_t)nd * sizeof(discards[0]));
	r->n_legal += nd;
	return 0;
}
