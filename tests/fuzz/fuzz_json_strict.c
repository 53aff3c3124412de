/*
 * fuzz_json_strict - json_strict_parse() on any bytes. A refusal must come
 * with a code, a position inside the text and a one-line message. A text it
 * accepts has every number read by both number readers (which must agree),
 * and the tree printed by cJSON must be accepted again as the same tree.
 * json_strict_parse_pooled() into one pool reused from input to input must
 * answer alike: the same code and message, or a tree that prints the same.
 */
#include <math.h>
#include <string.h>

#include "fuzz_target.h"
#include "json_strict.h"

/* Reads every number under item; 1 if one of them is not finite (cJSON prints
 * it as null, so the reprinted tree differs there). */
static int read_numbers(const cJSON *item)
{
	struct json_strict_error e;
	int64_t i;
	double d;
	int infinite = 0, rc_int, rc_double;

	for (; item; item = item->next) {
		if (item->child)
			infinite |= read_numbers(item->child);
		if (!cJSON_IsNumber(item))
			continue;
		rc_int = json_strict_int(item, "a.", "b", -JSON_STRICT_INT_MAX, JSON_STRICT_INT_MAX, 0,
					 &i, &e);
		FUZZ_CHECK(rc_int == 0 || (rc_int == JSON_STRICT_EVALUE && strstr(e.message, "a.b: ")));
		rc_double = json_strict_double(item, "a.", "b", -HUGE_VAL, HUGE_VAL, 0, &d, &e);
		FUZZ_CHECK(rc_double == 0 || rc_double == JSON_STRICT_EVALUE);
		/* An integer is a finite number of the same value. */
		FUZZ_CHECK(rc_int != 0 || (rc_double == 0 && d == (double)i));
		FUZZ_CHECK((rc_double == 0) == (isfinite(item->valuedouble) != 0));
		/* Plain integers keep no text; numbers with a fraction or exponent do. */
		FUZZ_CHECK(!item->valuestring || strpbrk(item->valuestring, ".eE") ||
			   strlen(item->valuestring) >= 16);
		infinite |= !isfinite(item->valuedouble);
	}
	return infinite;
}

/* The pooled parse of data agrees with the plain one (rc, e, root). */
static void check_pooled(const uint8_t *data, size_t size, int rc, const struct json_strict_error *e,
			 const cJSON *root)
{
	static struct json_pool pool; /* reachable to the end: not a leak */
	struct json_strict_error pe;
	cJSON *pooled = NULL;
	char *a, *b;

	FUZZ_CHECK(json_strict_parse_pooled((const char *)data, size, &pool, &pooled, &pe) == rc);
	if (rc) {
		FUZZ_CHECK(pooled == NULL && pe.offset == e->offset &&
			   strcmp(pe.message, e->message) == 0);
		return;
	}
	a = cJSON_PrintUnformatted(root);
	b = cJSON_PrintUnformatted(pooled);
	FUZZ_CHECK(a && b && strcmp(a, b) == 0);
	cJSON_free(a);
	cJSON_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_strict_error e;
	cJSON *root = NULL, *again = NULL;
	char *text;
	int rc = json_strict_parse((const char *)data, size, &root, &e);

	check_pooled(data, size, rc, &e, root);
	if (rc) {
		FUZZ_CHECK(root == NULL && rc == e.code && rc < 0);
		FUZZ_CHECK(e.offset <= size && e.line >= 1 && e.column >= 1);
		FUZZ_CHECK(e.message[0] && !strchr(e.message, '\n'));
		return 0;
	}
	FUZZ_CHECK(root != NULL);
	if (!read_numbers(root)) {
		text = cJSON_PrintUnformatted(root);
		FUZZ_CHECK(text != NULL);
		rc = json_strict_parse(text, strlen(text), &again, &e);
		if (rc)
			fprintf(stderr, "reprinted text refused: %s\n", e.message);
		FUZZ_CHECK(rc == 0);
		FUZZ_CHECK(cJSON_Compare(root, again, 1));
		cJSON_Delete(again);
		cJSON_free(text);
	}
	cJSON_Delete(root);
	return 0;
}
