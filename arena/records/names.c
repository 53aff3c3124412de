/*
 * names.c - the one rule for names (names.h).
 */
#include "names.h"

#include <ctype.h>
#include <string.h>

int names_valid(const char *s)
{
	if (!*s || strlen(s) > NAMES_LEN_MAX || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return 0;
	return 1;
}
