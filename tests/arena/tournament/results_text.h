/*
 * results_text.h - results_open() with tournament.json given as text, for
 * the tests of what reads and writes a tournament's directory.
 */
#ifndef SKIPBO_TEST_RESULTS_TEXT_H
#define SKIPBO_TEST_RESULTS_TEXT_H

#include "results.h"
#include "tournament_file.h"

/* results_open with tournament.json's document made from text (strict JSON). */
static inline int open_text(const char *dir, const char *text, struct results **r, char *err,
			    size_t err_size)
{
	struct records_tournament_doc d = { 0 };
	int ret = records_tournament_doc_parse(text, &d);

	if (ret == 0)
		ret = results_open(dir, &d, r, err, err_size);
	records_tournament_doc_release(&d);
	return ret;
}

#endif
