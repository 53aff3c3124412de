/*
 * test_human_render.c - the human player's board (bots/human/render.c) in
 * 80 columns: an opponent's long turn is wrapped onto indented lines, never
 * cut, and the piles are numbered 0-3 as in the protocol, discard piles
 * listed bottom to top.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"

/* The board after an opponent's turn of 14 plays and a discard. */
static char *board(void)
{
	static struct protocol_request req;
	struct render_game g = { .players = 2, .seat = 0 };
	struct event ev[16] = { { .kind = EVENT_TURN, .seat = 1 } };
	char *text = NULL;
	size_t size = 0, n = 1;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	strcpy(g.names[0], "you");
	strcpy(g.names[1], "robot");
	for (int k = 0; k < 14; k++)
		ev[n++] = (struct event){ .kind = EVENT_PLAY, .seat = 1, .owner = 1,
			.source = SOURCE_HAND, .card = (uint8_t)(k % 12 + 1), .target = (uint8_t)(k % 4) };
	ev[n++] = (struct event){ .kind = EVENT_DISCARD, .seat = 1, .card = 9, .target = 3 };
	req.events = ev;
	req.n_events = n;
	req.view.players = 2;
	req.view.seat = 0;
	req.view.building_value[2] = 5;
	req.view.discard_size[0][1] = 3;
	memcpy(req.view.discard[0][1], (uint8_t[]){ 12, 11, 10 }, 3);
	render_request(out, &req, &g);
	fclose(out);
	return text;
}

static void test_long_turn_wraps(void **state)
{
	char *text = board(), *line, *save = NULL;
	int lines = 0;

	(void)state;
	for (line = strtok_r(text + strlen("\033[H\033[2J"), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) > 79)
			fail_msg("a line of %zu columns: \"%s\"", strlen(line), line);
		if (!strncmp(line, "robot:", 6) || !strncmp(line, "   ", 3))
			lines++;
	}
	free(text);
	text = board();
	if (lines < 2 || !strstr(text, "discarded 9 on 3\n") || !strstr(text, "\n   "))
		fail_msg("the turn is not wrapped whole:\n%s", text);
	free(text);
}

static void test_piles_numbered_as_the_protocol(void **state)
{
	char *text = board();

	(void)state;
	if (!strstr(text, "Building piles:   0: empty   1: empty   2: 5") ||
	    !strstr(text, "discard piles 0 to 3, each bottom to top") ||
	    !strstr(text, " 12 11 10 ") || !strstr(text, " hand>0, "))
		fail_msg("piles not numbered 0-3 or discards not bottom to top:\n%s", text);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_turn_wraps),
		cmocka_unit_test(test_piles_numbered_as_the_protocol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
