/*
 * viewer_states REPLAY - print the table the engine computes at every step of
 * every game of a replay, in the form test_viewer_browser.py reads from the viewer
 * page's DOM: step 0 is the table before the first decision, step k the table
 * after the k-th decision or removal (R11) with everything that follows from it.
 *
 *   game G step K
 *   turn T to_move S draw D completed C
 *   building V/SIZE V/SIZE V/SIZE V/SIZE
 *   seat S stock N top X hand A,B removed R discards A,B|C||
 *
 * Cards are 1-12, SB for SKIP-BO, - for none; hands sorted (SB first), discard
 * piles bottom first. The engine is the reference: the page replays the events
 * in JavaScript and must show the same.
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static void card(int c, char *buf, size_t size)
{
	if (c == CARD_NONE)
		snprintf(buf, size, "-");
	else if (c == CARD_SKIPBO)
		snprintf(buf, size, "SB");
	else
		snprintf(buf, size, "%d", c);
}

static void print_state(const struct game *g, int game_no, int step)
{
	struct seat_view v;
	char c[8];

	game_view(g, 0, &v);
	printf("game %d step %d\n", game_no, step);
	printf("turn %" PRIu32 " to_move %d draw %d completed %d\nbuilding", v.turn,
	       game_to_move(g), v.draw_size, v.completed_size);
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		printf(" %d/%d", v.building_value[p], v.building_size[p]);
	printf("\n");
	for (int s = 0; s < v.players; s++) {
		struct seat_view own;

		game_view(g, s, &own);
		card(v.stock_top[s], c, sizeof(c));
		printf("seat %d stock %d top %s hand ", s, v.stock_size[s], c);
		for (int i = 0; i < own.hand_size; i++) {
			card(own.hand[i], c, sizeof(c));
			printf("%s%s", i ? "," : "", c);
		}
		printf(" removed %d discards ", v.removed[s]);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			for (int i = 0; i < v.discard_size[s][p]; i++) {
				card(v.discard[s][p][i], c, sizeof(c));
				printf("%s%s", i ? "," : "", c);
			}
			printf("%s", p + 1 < ENGINE_DISCARD_PILES ? "|" : "\n");
		}
	}
}

static int get_int(const cJSON *o, const char *key)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(j) ? j->valueint : 0;
}

static int play_game(const cJSON *root, const cJSON *jg, int game_no)
{
	struct game_rules rules = { 0 };
	const cJSON *e, *seed = cJSON_GetObjectItemCaseSensitive(jg, "seed");
	struct game *g;
	int step = 0, err = 0;

	rules.players = get_int(root, "players");
	rules.partnership = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "partnership"));
	rules.stock_size = get_int(jg, "stock_size");
	rules.dealer = get_int(jg, "dealer");
	rules.seed = cJSON_IsString(seed) ? strtoull(seed->valuestring, NULL, 10) : 0;
	if (!(g = game_new(&rules, &err))) {
		fprintf(stderr, "viewer_states: game %d: %s\n", game_no, engine_strerror(err));
		return 1;
	}
	print_state(g, game_no, step);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(jg, "events")) {
		const char *type = cJSON_GetObjectItemCaseSensitive(e, "type")->valuestring;
		const cJSON *from = cJSON_GetObjectItemCaseSensitive(e, "from");
		struct move m = { 0 };
		int ret;

		if (strcmp(type, "removed") == 0) {
			ret = game_remove_seat(g, get_int(e, "seat"));
		} else if (strcmp(type, "play") == 0) {
			m.kind = MOVE_PLAY;
			m.source = strcmp(from->valuestring, "hand") == 0 ? SOURCE_HAND :
				strcmp(from->valuestring, "stock") == 0 ? SOURCE_STOCK : SOURCE_DISCARD;
			m.owner = (uint8_t)get_int(e, "owner");
			m.pile = (uint8_t)get_int(e, "pile");
			m.card = (uint8_t)get_int(e, "card");
			m.target = (uint8_t)get_int(e, "to");
			ret = game_apply(g, &m);
		} else if (strcmp(type, "discard") == 0) {
			m.kind = MOVE_DISCARD;
			m.card = (uint8_t)get_int(e, "card");
			m.target = (uint8_t)get_int(e, "pile");
			ret = game_apply(g, &m);
		} else if (strcmp(type, "pass") == 0) {
			m.kind = MOVE_PASS;
			ret = game_apply(g, &m);
		} else {
			continue;
		}
		if (ret < 0) {
			fprintf(stderr, "viewer_states: game %d step %d: %s\n", game_no, step + 1,
				engine_strerror(ret));
			game_free(g);
			return 1;
		}
		print_state(g, game_no, ++step);
	}
	game_free(g);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *f;
	char *text;
	long len;
	cJSON *root, *jg;
	int game_no = 0, status = 0;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: viewer_states REPLAY\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len)
		return 2;
	text[len] = '\0';
	fclose(f);
	if (!(root = cJSON_Parse(text))) {
		fprintf(stderr, "viewer_states: %s: not JSON\n", argv[1]);
		return 2;
	}
	cJSON_ArrayForEach(jg, cJSON_GetObjectItemCaseSensitive(root, "games"))
		status |= play_game(root, jg, ++game_no);
	cJSON_Delete(root);
	free(text);
	return status;
}
