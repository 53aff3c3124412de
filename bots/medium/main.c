/*
 * skipbo-medium - the medium reference bot (policy in medium.h).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "botloop.h"
#include "medium.h"

static int medium_answer(void *ctx, const struct protocol_request *req)
{
	(void)ctx;
	return medium_choose(&req->view, req->legal, req->n_legal);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: skipbo-medium\n");
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	const struct botloop_policy policy = { .name = "medium", .version = "1.0", .choose = medium_answer };
	if (botloop_run(&policy, stdin, stdout) < 0)
		errx(1, "lost the arena");
	return 0;
}
