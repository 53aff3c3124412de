/*
 * protocol_decode.c - the arena reads a bot's hello and its moves. Every
 * refusal names the field and says what was expected, because the bot's
 * author sees only this sentence in the tournament report.
 */
#include <stdio.h>
#include <string.h>

#include "protocol_json.h"
#include "protocol_text.h"

static const char *const action_names[] = {
	[MOVE_PLAY] = "play",
	[MOVE_DISCARD] = "discard",
	[MOVE_PASS] = "pass",
};

/* The members of a move object, in the order the arena writes them. */
enum { MF_ACTION, MF_FROM, MF_SEAT, MF_PILE, MF_CARD, MF_TO, MF_N };
static const char *const move_fields[MF_N] = {
	[MF_ACTION] = "action", [MF_FROM] = "from", [MF_SEAT] = "seat",
	[MF_PILE] = "pile",     [MF_CARD] = "card", [MF_TO] = "to",
};

int json_move(const cJSON *obj, const struct json_path *at, int need_card, struct move *m,
	      int *card_given, struct protocol_diag *diag)
{
	const cJSON *f[MF_N];
	const char *action = NULL;
	char safe[JSON_SAFE_MAX], prefix[JSON_PATH_MAX];
	long card = CARD_NONE, to = 0, seat = 0, pile = 0;
	int rc, kind = -1, source = 0;

	memset(m, 0, sizeof(*m));
	*card_given = 0;
	json_fields(obj, move_fields, MF_N, f);
	if ((rc = json_get_string(obj, f[MF_ACTION], at, "action", 1, &action, diag)))
		return rc;
	for (int k = MOVE_PLAY; k <= MOVE_PASS; k++)
		if (action[0] == action_names[k][0] && strcmp(action, action_names[k]) == 0)
			kind = k;
	if (kind < 0)
		return json_fail(diag, PROTOCOL_EVALUE, 0,
				 "unknown value \"%s\" for \"%saction\"; valid: \"play\", \"discard\", \"pass\"",
				 json_safe(action, safe), json_path_str(at, prefix));
	m->kind = (uint8_t)kind;
	if (kind == MOVE_PASS)
		return 0;
	if (kind == MOVE_DISCARD) {
		if ((rc = json_get_int(obj, f[MF_CARD], at, "card", CARD_SKIPBO, 12, 1, &card, diag)) ||
		    (rc = json_get_int(obj, f[MF_PILE], at, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &to,
				       diag)))
			return rc;
		m->source = SOURCE_HAND; /* R4: a discard always comes from the hand */
		m->card = (uint8_t)card;
		m->target = (uint8_t)to;
		*card_given = 1;
		return 0;
	}
	if ((rc = json_get_source(obj, f[MF_FROM], at, &source, diag)))
		return rc;
	if (source != SOURCE_HAND &&
	    (rc = json_get_int(obj, f[MF_SEAT], at, "seat", 0, ENGINE_MAX_PLAYERS - 1, 1, &seat, diag)))
		return rc;
	if (source == SOURCE_DISCARD &&
	    (rc = json_get_int(obj, f[MF_PILE], at, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &pile,
			       diag)))
		return rc;
	/* R4: the card of a stock or discard play is known from the pile, so an
	 * answer may leave it out; from the hand it says which card. */
	rc = json_get_int(obj, f[MF_CARD], at, "card", CARD_SKIPBO, 12,
			  need_card || source == SOURCE_HAND, &card, diag);
	if (rc < 0)
		return rc;
	*card_given = rc == 0;
	if ((rc = json_get_int(obj, f[MF_TO], at, "to", 0, ENGINE_BUILDING_PILES - 1, 1, &to, diag)))
		return rc;
	m->source = (uint8_t)source;
	m->owner = (uint8_t)seat;
	m->pile = (uint8_t)pile;
	m->card = (uint8_t)card;
	m->target = (uint8_t)to;
	return 0;
}

/* "features": an array of strings; those this arena knows set their bit,
 * others are ignored, so a bot can ask for features newer arenas offer. */
static int hello_features(const cJSON *root, unsigned *features, struct protocol_diag *diag)
{
	const cJSON *list, *item;
	int rc = json_array(root, "", "features", 0, &list, diag), i = 0;

	if (rc)
		return rc < 0 ? rc : 0;
	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsString(item) || !item->valuestring)
			return json_fail(diag, PROTOCOL_EFIELD, 0,
					 "\"features[%d]\" must be a string such as \"compact_legal\", got %s",
					 i, json_type_name(item));
		if (strcmp(item->valuestring, "compact_legal") == 0)
			*features |= PROTOCOL_FEATURE_COMPACT_LEGAL;
		i++;
	}
	return 0;
}

int protocol_decode_hello(const char *line, size_t len, struct protocol_bot_hello *out,
			  struct protocol_diag *diag)
{
	cJSON *root = NULL;
	const char *type;
	char safe[JSON_SAFE_MAX];
	long version;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = json_parse_line(line, len, PROTOCOL_LINE_MAX, NULL, &root, diag)) ||
	    (rc = json_message_type(root, &type, diag)))
		goto out;
	if (strcmp(type, "hello") != 0) {
		rc = json_fail(diag, PROTOCOL_ETYPE, 0, "expected \"type\":\"hello\", got \"%s\"",
			       json_safe(type, safe));
		goto out;
	}
	if ((rc = json_int(root, "", "protocol", 0, 1000000, 1, &version, diag)))
		goto out;
	if (version != PROTOCOL_VERSION) {
		rc = json_fail(diag, PROTOCOL_EVERSION, 0,
			       "the bot speaks protocol %ld; this arena speaks protocol %d", version,
			       PROTOCOL_VERSION);
		goto out;
	}
	out->protocol = (int)version;
	if ((rc = json_copy_string(root, "", "name", 1, out->name, sizeof(out->name), diag)) < 0 ||
	    (rc = json_copy_string(root, "", "version", 0, out->version, sizeof(out->version), diag)) < 0 ||
	    (rc = json_copy_string(root, "", "author", 0, out->author, sizeof(out->author), diag)) < 0 ||
	    (rc = hello_features(root, &out->features, diag)) < 0)
		goto out;
	rc = 0;
	if (!out->name[0])
		rc = json_fail(diag, PROTOCOL_EFIELD, 0, "field \"name\" must not be empty");
out:
	cJSON_Delete(root);
	return rc;
}

static int move_matches(const struct move *want, int card_given, const struct move *legal)
{
	if (want->kind != legal->kind)
		return 0;
	switch (want->kind) {
	case MOVE_PASS:
		return 1;
	case MOVE_DISCARD:
		return want->card == legal->card && want->target == legal->target;
	default:
		break;
	}
	if (want->source != legal->source || want->target != legal->target)
		return 0;
	if (want->source != SOURCE_HAND && want->owner != legal->owner)
		return 0;
	if (want->source == SOURCE_DISCARD && want->pile != legal->pile)
		return 0;
	return !card_given || want->card == legal->card;
}

static const char *card_name(int card, char *buf, size_t size)
{
	if (card == CARD_SKIPBO)
		return "SKIP-BO";
	if (card == CARD_NONE)
		return "?";
	snprintf(buf, size, "%d", card);
	return buf;
}

/* The move in words: "play of card 7 from the hand to building pile 2". */
static void describe_move(const struct move *m, int card_given, char *out, size_t size)
{
	char c[8];
	const char *card = card_given ? card_name(m->card, c, sizeof(c)) : "?";

	switch (m->kind) {
	case MOVE_PASS:
		snprintf(out, size, "pass");
		break;
	case MOVE_DISCARD:
		snprintf(out, size, "discard of card %s onto discard pile %d", card, m->target);
		break;
	default:
		if (m->source == SOURCE_HAND)
			snprintf(out, size, "play of card %s from the hand to building pile %d", card,
				 m->target);
		else if (m->source == SOURCE_STOCK)
			snprintf(out, size, "play of card %s from the stock of seat %d to building pile %d",
				 card, m->owner, m->target);
		else
			snprintf(out, size,
				 "play of card %s from discard pile %d of seat %d to building pile %d", card,
				 m->pile, m->owner, m->target);
		break;
	}
}

/* With the game at hand, ask the engine why the move is refused. */
static const char *engine_reason(const struct game *g, const struct move *want, int card_given)
{
	struct move m = *want;
	int seat = game_to_move(g);
	int rc;

	if (seat < 0)
		return engine_strerror(ENGINE_EOVER);
	if (m.kind == MOVE_PLAY && m.source == SOURCE_HAND)
		m.owner = (uint8_t)seat;
	if (m.kind == MOVE_DISCARD)
		m.owner = (uint8_t)seat;
	if (m.kind == MOVE_PLAY && m.source != SOURCE_HAND && !card_given) {
		/* The view is large, but this runs only for a refused move. */
		struct seat_view v;

		game_view(g, seat, &v);
		m.card = CARD_NONE;
		if (m.source == SOURCE_STOCK && v.stock_size[m.owner] > 0)
			m.card = v.stock_top[m.owner];
		if (m.source == SOURCE_DISCARD && v.discard_size[m.owner][m.pile] > 0)
			m.card = v.discard[m.owner][m.pile][v.discard_size[m.owner][m.pile] - 1];
	}
	rc = game_check_move(g, &m);
	return rc ? engine_strerror(rc) : NULL;
}

int protocol_decode_move(const char *line, size_t len, const struct move *legal, int n_legal,
			 const struct game *g, struct move *out, struct protocol_diag *diag)
{
	cJSON *root = NULL;
	const cJSON *mv;
	const char *type, *why = NULL;
	char said[128], safe[JSON_SAFE_MAX];
	static const struct json_path move_path = { "move.", -1 };
	struct move want;
	int rc, card_given;

	if ((rc = json_parse_line(line, len, PROTOCOL_LINE_MAX, NULL, &root, diag)) ||
	    (rc = json_message_type(root, &type, diag)))
		goto out;
	if (strcmp(type, "move") != 0) {
		rc = json_fail(diag, PROTOCOL_ETYPE, 0, "expected \"type\":\"move\", got \"%s\"",
			       json_safe(type, safe));
		goto out;
	}
	if ((rc = json_object(root, "", "move", 1, &mv, diag)) ||
	    (rc = json_move(mv, &move_path, 0, &want, &card_given, diag)))
		goto out;
	for (int i = 0; i < n_legal; i++) {
		if (move_matches(&want, card_given, &legal[i])) {
			*out = legal[i];
			goto out;
		}
	}
	describe_move(&want, card_given, said, sizeof(said));
	if (g)
		why = engine_reason(g, &want, card_given);
	if (why)
		rc = json_fail(diag, PROTOCOL_EILLEGAL, 0, "illegal move (%s): %s", said, why);
	else
		rc = json_fail(diag, PROTOCOL_EILLEGAL, 0,
			       "illegal move (%s): not among the %d legal moves of the request", said,
			       n_legal);
out:
	cJSON_Delete(root);
	return rc;
}
