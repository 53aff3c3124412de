/*
 * attack_stderr_flood - flood stderr, then exit so that the arena starts the
 * bot again and the flood starts over: a cap per start alone would let the
 * log grow by that cap at every start. attack_stderr_flood TOKEN BYTES
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	long bytes = argc > 2 ? atol(argv[2]) : 1 << 20;
	char chunk[4096];

	memset(chunk, 'x', sizeof chunk);
	chunk[sizeof chunk - 1] = '\n';
	for (long done = 0; done < bytes; done += (long)sizeof chunk)
		if (write(2, chunk, sizeof chunk) < 0)
			break;
	exit(3);
}
