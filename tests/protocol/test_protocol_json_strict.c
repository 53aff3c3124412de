/*
 * test_protocol_json_strict - the strict JSON reader (protocol/json_strict.h): what it
 * refuses and where it says the problem is, that what it accepts is the tree
 * cJSON would build, and the number readers' refusals and messages. Every
 * text parsed here is parsed into a pool too (json_strict_parse_pooled()),
 * which must answer alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "json_strict.h"
#include "protocol_json.h"

/* One pool for every pooled parse of this file: each parse reuses it. */
static struct json_pool pool;

/* The pooled parse of text refuses it exactly as e says. */
static void expect_pooled_refused(const char *text, size_t len, const struct json_strict_error *e)
{
	struct json_strict_error pe;
	cJSON *root = (cJSON *)&pe;

	assert_int_equal(json_strict_parse_pooled(text, len, &pool, &root, &pe), e->code);
	assert_null(root);
	assert_int_equal(pe.offset, e->offset);
	assert_int_equal(pe.line, e->line);
	assert_int_equal(pe.column, e->column);
	assert_string_equal(pe.message, e->message);
}

/* Parses text (its strlen) and expects code, and message words if any. */
static struct json_strict_error expect_refused(const char *text, size_t len, int code,
					       const char *words)
{
	struct json_strict_error e;
	cJSON *root = (cJSON *)&e; /* must come back NULL */
	int rc = json_strict_parse(text, len, &root, &e);

	if (rc != code)
		fail_msg("%s: got %d (%s), want %d", text, rc, rc ? e.message : "", code);
	assert_null(root);
	assert_int_equal(e.code, code);
	if (words && !strstr(e.message, words))
		fail_msg("%s: message \"%s\" lacks \"%s\"", text, e.message, words);
	assert_null(strchr(e.message, '\n'));
	expect_pooled_refused(text, len, &e);
	return e;
}

#define REFUSED(text, code, words) expect_refused((text), strlen(text), (code), (words))

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Node for node the same, numbers by their bits and kept literals
 * (cJSON_Compare() takes 1e400 for unequal to itself). */
static int same_tree(const cJSON *a, const cJSON *b)
{
	for (; a && b; a = a->next, b = b->next)
		if (a->type != b->type || !same_text(a->string, b->string) ||
		    !same_text(a->valuestring, b->valuestring) || a->valueint != b->valueint ||
		    memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0 ||
		    !same_tree(a->child, b->child))
			return 0;
	return !a && !b;
}

static cJSON *parse_ok(const char *text)
{
	struct json_strict_error e;
	cJSON *root = NULL;

	cJSON *pooled = NULL;

	if (json_strict_parse(text, strlen(text), &root, &e))
		fail_msg("%s: %s", text, e.message);
	assert_non_null(root);
	if (json_strict_parse_pooled(text, strlen(text), &pool, &pooled, &e))
		fail_msg("%s, pooled: %s", text, e.message);
	if (!same_tree(root, pooled))
		fail_msg("%s: the pooled tree differs", text);
	return root;
}

/* ---- duplicate keys ---------------------------------------------------------- */

static void test_duplicate_top_level(void **state)
{
	struct json_strict_error e;

	(void)state;
	e = REFUSED("{\"a\":1,\"a\":2}", JSON_STRICT_EDUPKEY, "duplicate key \"a\" in the top-level object");
	assert_int_equal(e.offset, 7);
	assert_int_equal(e.line, 1);
	assert_int_equal(e.column, 8);
	/* The same key written with an escape is the same key. */
	REFUSED("{\"ab\":1,\"a\\u0062\":2}", JSON_STRICT_EDUPKEY, "duplicate key \"ab\"");
	/* Different values do not matter, nor what lies between. */
	REFUSED("{\"type\":\"move\",\"move\":{},\"type\":\"move\"}", JSON_STRICT_EDUPKEY,
		"duplicate key \"type\" in the top-level object");
}

static void test_duplicate_nested(void **state)
{
	struct json_strict_error e;

	(void)state;
	e = REFUSED("{\"move\":{\"card\":7,\"to\":2,\"card\":8}}", JSON_STRICT_EDUPKEY,
		    "duplicate key \"card\" in move");
	assert_int_equal(e.offset, 25);
	REFUSED("{\"legal\":[{\"a\":1},{\"a\":1,\"a\":1}]}", JSON_STRICT_EDUPKEY,
		"duplicate key \"a\" in legal[1]");
	REFUSED("{\"view\":{\"players\":[{},{\"discards\":[[],{\"x\":1,\"x\":2}]}]}}",
		JSON_STRICT_EDUPKEY, "duplicate key \"x\" in view.players[1].discards[1]");
	REFUSED("[[{\"k\":[],\"k\":{}}]]", JSON_STRICT_EDUPKEY, "duplicate key \"k\" in [0][0]");
	/* The same key in sibling or nested objects is no duplicate. */
	cJSON_Delete(parse_ok("{\"a\":{\"a\":{\"a\":1}},\"b\":[{\"a\":1},{\"a\":2}]}"));
}

/* Objects past the size where a hash set takes over from the member scan. */
static void test_duplicate_large_object(void **state)
{
	char text[4096];
	size_t n = 0;
	cJSON *root;

	(void)state;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "{");
	for (int k = 0; k < 100; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\"key%d\":%d", k ? "," : "", k, k);
	snprintf(text + n, sizeof(text) - n, "}");
	root = parse_ok(text);
	assert_int_equal(cJSON_GetArraySize(root), 100);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(root, "key99")->valuedouble, 99);
	cJSON_Delete(root);
	/* A repeat of the first key, late; and of a key after the switch. */
	snprintf(text + n, sizeof(text) - n, ",\"key0\":1}");
	REFUSED(text, JSON_STRICT_EDUPKEY, "duplicate key \"key0\" in the top-level object");
	snprintf(text + n, sizeof(text) - n, ",\"x\":1,\"key57\":1}");
	REFUSED(text, JSON_STRICT_EDUPKEY, "duplicate key \"key57\"");
}

/* ---- grammar ------------------------------------------------------------------ */

static void test_syntax(void **state)
{
	static const struct {
		const char *text;
		size_t offset;
		const char *words;
	} bad[] = {
		{ "{\"a\":01}", 5, "must not start with 0" },
		{ "{\"a\":-01}", 5, "must not start with 0" },
		{ "{\"a\":+1}", 5, "expected a value" },
		{ "{\"a\":.5}", 5, "expected a value" },
		{ "{\"a\":1.}", 7, "digit after the decimal point" },
		{ "{\"a\":1e}", 7, "digit in the exponent" },
		{ "{\"a\":-}", 6, "digit after '-'" },
		{ "{\"a\":NaN}", 5, "expected a value" },
		{ "{\"a\":Infinity}", 5, "expected a value" },
		{ "{\"a\":tru}", 5, "expected a value" },
		{ "{\"a\":'x'}", 5, "expected a value" },
		{ "[1,]", 3, "expected a value" },
		{ "{\"a\":1,}", 7, "expected a key in double quotes" },
		{ "{a:1}", 1, "expected a key in double quotes" },
		{ "{\"a\" 1}", 5, "expected ':'" },
		{ "{\"a\":1 \"b\":2}", 7, "expected ',' or '}'" },
		{ "[1 2]", 3, "expected ',' or ']'" },
		{ "{\"a\":\"x\ty\"}", 7, "control character 0x09" },
		{ "{\"a\":\"\\x\"}", 6, "invalid escape \"\\x\"" },
		{ "{\"a\":\"\\u12\"}", 6, "4 hexadecimal digits" },
		{ "{\"a\":\"\\ud800\"}", 6, "unpaired UTF-16 surrogate \\ud800" },
		{ "{\"a\":\"\\udc00\\ud800\"}", 6, "unpaired UTF-16 surrogate \\udc00" },
		{ "{\"a\":\"\\ud800\\u0041\"}", 6, "unpaired UTF-16 surrogate" },
		{ "{\"a\":\"\\u0000\"}", 6, "NUL characters are not accepted" },
		{ "{\"a\":1}//", 7, "more text after the value" },
		{ "{\"a\":1}\f", 7, "more text after the value" },
		{ "\xef\xbb\xbf{}", 0, "expected a value" },
		{ "   ", 3, "the text is empty" },
		{ "{\"a\":[1,2", 9, "the text ends before the array is closed" },
		{ "{\"a\":\"abc", 9, "the text ends before a string is closed" },
		{ "{\"a\"", 4, "the text ends before the object is closed" },
		{ "{\"a\":", 5, "the text ends before a value is complete" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int code = strstr(bad[i].words, "more text") ? JSON_STRICT_ETRAILING : JSON_STRICT_ESYNTAX;
		struct json_strict_error e = expect_refused(bad[i].text, strlen(bad[i].text), code,
							    bad[i].words);

		if (e.offset != bad[i].offset)
			fail_msg("%s: offset %zu, want %zu", bad[i].text, e.offset, bad[i].offset);
	}
	/* A NUL byte anywhere, even after a complete value. */
	assert_int_equal(expect_refused("{}\0", 3, JSON_STRICT_ESYNTAX, "NUL byte").offset, 2);
	assert_int_equal(expect_refused("{\"a\0\":1}", 8, JSON_STRICT_ESYNTAX, "NUL byte").offset, 3);
}

static void test_utf8_and_position(void **state)
{
	struct json_strict_error e;
	static const char text[] = "{\n  \"name\": \"caf\xc3\xa9\",\n  \"x\": [1, 2,, 3]\n}";

	(void)state;
	e = REFUSED("{\"a\":\"caf\xe9\"}", JSON_STRICT_EUTF8, "invalid UTF-8 (byte 0xe9)");
	assert_int_equal(e.offset, 9);
	REFUSED("{\"a\":\"\xed\xa0\x80\"}", JSON_STRICT_EUTF8, NULL); /* an encoded surrogate */
	REFUSED("{\"a\":\"\xc0\xaf\"}", JSON_STRICT_EUTF8, NULL);    /* overlong */
	/* Line and column: the column counts characters, so "é" is one. */
	e = REFUSED(text, JSON_STRICT_ESYNTAX, "expected a value");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 14);
	assert_int_equal(e.offset, (size_t)(strstr(text, ",, 3") - text) + 1);
	e = REFUSED("{\n\"k\":1,\n\"k\":2}", JSON_STRICT_EDUPKEY, "duplicate key \"k\"");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 1);
}

static void test_depth(void **state)
{
	char text[2 * JSON_STRICT_DEPTH_MAX + 8];
	int n = JSON_STRICT_DEPTH_MAX;

	(void)state;
	memset(text, '[', (size_t)n);
	memset(text + n, ']', (size_t)n);
	text[2 * n] = '\0';
	cJSON_Delete(parse_ok(text));
	memset(text, '[', (size_t)n + 1);
	memset(text + n + 1, ']', (size_t)n + 1);
	text[2 * n + 2] = '\0';
	assert_int_equal(REFUSED(text, JSON_STRICT_EDEPTH, "deeper than 128 levels").offset, 128);
}

static void test_bad_arguments(void **state)
{
	struct json_strict_error e;
	cJSON *root;

	(void)state;
	assert_int_equal(json_strict_parse(NULL, 0, &root, &e), JSON_STRICT_EINVAL);
	assert_null(root);
	assert_int_equal(json_strict_parse("{}", 2, NULL, &e), JSON_STRICT_EINVAL);
	/* err may be NULL. */
	assert_int_equal(json_strict_parse("{", 1, &root, NULL), JSON_STRICT_ESYNTAX);
}

/* ---- the pool ------------------------------------------------------------------- */

static size_t cjson_allocations;

static void *counting_malloc(size_t size)
{
	cjson_allocations++;
	return malloc(size);
}

/* A pooled parse keeps off cJSON's allocator (which the arena may hook). */
static void test_pool_leaves_cjson_allocator(void **state)
{
	cJSON_Hooks hooks = { counting_malloc, free };
	const char *text = "{\"a\":[1,2.5,\"s\\n\"],\"b\":{\"c\":1e3,\"d\":null}}";
	cJSON *root = NULL;

	(void)state;
	cJSON_InitHooks(&hooks);
	cjson_allocations = 0;
	assert_int_equal(json_strict_parse_pooled(text, strlen(text), &pool, &root, NULL), 0);
	assert_int_equal(cjson_allocations, 0);
	cJSON_Delete(parse_ok(text));
	assert_true(cjson_allocations > 0);
	cJSON_InitHooks(NULL);
}

/* Keys alike in their first 8 bytes, and duplicates in objects nested
 * deeper than the prefixes are kept for. */
static void test_pool_keys(void **state)
{
	char text[512];
	size_t n = 0;

	(void)state;
	cJSON_Delete(parse_ok("{\"stock_size\":1,\"stock_sizes\":2,\"stock_si\":3,\"stock_s\":4}"));
	REFUSED("{\"stock_size\":1,\"stock_top\":2,\"stock_size\":3}", JSON_STRICT_EDUPKEY,
		"duplicate key \"stock_size\"");
	REFUSED("{\"abcdefgh\":1,\"abcdefgh\":2}", JSON_STRICT_EDUPKEY, "duplicate key \"abcdefgh\"");
	for (int d = 0; d < 12; d++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"k%d\":", d);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"x\":1,\"y\":2,\"x\":3}");
	for (int d = 0; d < 12; d++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "}");
	REFUSED(text, JSON_STRICT_EDUPKEY, "duplicate key \"x\" in k0.k1.k2");
}

/* A text larger than the pool's first block, then small ones again: each
 * tree is whole, whatever the pool held before. */
static void test_pool_grows_and_reuses(void **state)
{
	size_t cap = 400000, n = 0;
	char *text = malloc(cap);
	cJSON *root = NULL;

	(void)state;
	assert_non_null(text);
	n += (size_t)snprintf(text + n, cap - n, "[");
	for (int k = 0; k < 20000; k++)
		n += (size_t)snprintf(text + n, cap - n, "%s{\"k\":\"value %d\"}", k ? "," : "", k);
	snprintf(text + n, cap - n, "]");
	for (int round = 0; round < 2; round++) {
		assert_int_equal(json_strict_parse_pooled(text, strlen(text), &pool, &root, NULL), 0);
		assert_int_equal(cJSON_GetArraySize(root), 20000);
		assert_string_equal(cJSON_GetArrayItem(root, 19999)->child->valuestring, "value 19999");
		cJSON_Delete(parse_ok("{\"small\":[1,2,3]}"));
	}
	free(text);
	assert_int_equal(json_strict_parse_pooled("{}", 2, NULL, &root, NULL), JSON_STRICT_EINVAL);
	assert_null(root);
	json_pool_release(&pool);
	cJSON_Delete(parse_ok("[true]"));
}

/* ---- what is accepted ----------------------------------------------------------- */

/* The same tree as cJSON's own parser, for texts both accept. */
static void test_same_tree_as_cjson(void **state)
{
	static const char *const texts[] = {
		"{\"type\":\"request\",\"game\":\"g1\",\"turn\":7,\"view\":{\"hand\":[0,4,5],\"partner\":null,"
		"\"removed\":false,\"ok\":true},\"events\":[],\"legal\":[{}]}",
		" [ 1 , -2 , 3.25 , -0.5e-3 , 1E+2 , 12345678901234567890 , 0 , -0 ] ",
		"\"esc: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\u20ac \\ud83d\\ude00\"",
		"{\"\":\"\",\"\\u00e9\":\"caf\xc3\xa9\",\"k\":[[],{},[[]]]}",
		"\r\n\t0\r\n",
		"1e-400",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		cJSON *ours = parse_ok(texts[i]);
		cJSON *theirs = cJSON_Parse(texts[i]);

		assert_non_null(theirs);
		if (!cJSON_Compare(ours, theirs, 1))
			fail_msg("different trees for %s", texts[i]);
		cJSON_Delete(ours);
		cJSON_Delete(theirs);
	}
}

/* The tree is an ordinary cJSON tree: edits, copies and printing work. */
static void test_tree_is_cjson(void **state)
{
	cJSON *root = parse_ok("{\"a\":[1,2.5,3],\"b\":{\"c\":1e3}}"), *copy, *arr, *again;
	char *text;

	(void)state;
	arr = cJSON_GetObjectItemCaseSensitive(root, "a");
	assert_true(cJSON_AddItemToArray(arr, cJSON_CreateNumber(4)));
	assert_int_equal(cJSON_GetArraySize(arr), 4);
	assert_int_equal(cJSON_GetArrayItem(arr, 3)->valuedouble, 4);
	cJSON_DeleteItemFromArray(arr, 1);
	cJSON_DeleteItemFromArray(arr, 2);
	assert_int_equal(cJSON_GetArraySize(arr), 2);
	assert_true(cJSON_AddItemToObject(root, "d", cJSON_CreateString("x")));
	copy = cJSON_Duplicate(root, 1);
	assert_true(cJSON_Compare(root, copy, 1));
	/* The copy keeps the literal: 1e3 is still not an integer in it. */
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(copy, "b"),
							     "c")->valuestring, "1e3");
	text = cJSON_PrintUnformatted(copy);
	assert_string_equal(text, "{\"a\":[1,3],\"b\":{\"c\":1000},\"d\":\"x\"}");
	again = parse_ok(text);
	assert_true(cJSON_Compare(again, copy, 1));
	cJSON_free(text);
	cJSON_Delete(again);
	cJSON_Delete(copy);
	cJSON_Delete(root);
}

static void test_number_values(void **state)
{
	cJSON *root = parse_ok("[7,-3,-0,9007199254740991,9007199254740992,2.5,1e3,1e400,-1e400,"
			       "3000000000,-3000000000,123456789012345678901234567890]");
	const cJSON *n[12];
	int i = 0;
	const cJSON *item;

	(void)state;
	cJSON_ArrayForEach(item, root) n[i++] = item;
	assert_int_equal(i, 12);
	/* Plain integers keep no text; everything else keeps it as written. */
	for (i = 0; i < 4; i++)
		assert_null(n[i]->valuestring);
	assert_true(signbit(n[2]->valuedouble));
	assert_string_equal(n[4]->valuestring, "9007199254740992");
	assert_string_equal(n[6]->valuestring, "1e3");
	assert_true(n[5]->valuedouble == 2.5);
	assert_true(isinf(n[7]->valuedouble) && n[7]->valuedouble > 0);
	assert_true(isinf(n[8]->valuedouble) && n[8]->valuedouble < 0);
	/* valueint saturates as cJSON's does. */
	assert_int_equal(n[7]->valueint, INT32_MAX);
	assert_int_equal(n[8]->valueint, INT32_MIN);
	assert_int_equal(n[9]->valueint, INT32_MAX);
	assert_int_equal(n[10]->valueint, INT32_MIN);
	assert_int_equal(n[1]->valueint, -3);
	assert_true(n[11]->valuedouble == 123456789012345678901234567890.0);
	cJSON_Delete(root);
}

/* ---- the number readers -------------------------------------------------------------- */

/* The value of {"v": literal} read as an integer in [min, max]. */
static int read_int(const char *literal, int64_t min, int64_t max, unsigned flags, int64_t *out,
		    struct json_strict_error *e)
{
	char text[600];
	cJSON *root;
	int rc;

	snprintf(text, sizeof(text), "{\"v\":%s}", literal);
	root = parse_ok(text);
	rc = json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "v"), "move.", "card", min, max,
			     flags, out, e);
	cJSON_Delete(root);
	return rc;
}

static void expect_int_refused(const char *literal, int64_t min, int64_t max, const char *message)
{
	struct json_strict_error e;
	int64_t v = 42;

	assert_int_equal(read_int(literal, min, max, 0, &v, &e), JSON_STRICT_EVALUE);
	assert_int_equal(v, 42);
	assert_string_equal(e.message, message);
}

static void test_int_accepts(void **state)
{
	struct json_strict_error e;
	int64_t v;

	(void)state;
	assert_int_equal(read_int("7", 0, 12, 0, &v, &e), 0);
	assert_int_equal(v, 7);
	assert_int_equal(read_int("-0", 0, 12, 0, &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(read_int("9007199254740991", 0, JSON_STRICT_INT_MAX, 0, &v, &e), 0);
	assert_int_equal(v, JSON_STRICT_INT_MAX);
	assert_int_equal(read_int("-9007199254740991", -JSON_STRICT_INT_MAX, 0, 0, &v, &e), 0);
	assert_int_equal(v, -JSON_STRICT_INT_MAX);
}

static void test_int_refuses_fraction(void **state)
{
	(void)state;
	expect_int_refused("7.0", 0, 12, "move.card: expected an integer from 0 to 12, found 7.0");
	expect_int_refused("-0.0", 0, 12, "move.card: expected an integer from 0 to 12, found -0.0");
	expect_int_refused("7.5", 0, 12, "move.card: expected an integer from 0 to 12, found 7.5");
}

static void test_int_refuses_exponent(void **state)
{
	(void)state;
	expect_int_refused("1e3", 0, 5000, "move.card: expected an integer from 0 to 5000, found 1e3");
	expect_int_refused("7e0", 0, 12, "move.card: expected an integer from 0 to 12, found 7e0");
	expect_int_refused("70E-1", 0, 12, "move.card: expected an integer from 0 to 12, found 70E-1");
}

static void test_int_refuses_beyond_double(void **state)
{
	(void)state;
	expect_int_refused("1e400", 0, 12, "move.card: expected an integer from 0 to 12, found 1e400");
	expect_int_refused("-1e400", 0, 12, "move.card: expected an integer from 0 to 12, found -1e400");
}

static void test_int_refuses_huge(void **state)
{
	char digits[500];

	(void)state;
	expect_int_refused("9223372036854775808", 0, JSON_STRICT_INT_MAX,
			   "move.card: expected an integer from 0 to 9007199254740991, found "
			   "9223372036854775808");
	expect_int_refused("-9223372036854775809", -JSON_STRICT_INT_MAX, 0,
			   "move.card: expected an integer from -9007199254740991 to 0, found "
			   "-9223372036854775809");
	/* 2^53 itself is past the exact range. */
	expect_int_refused("9007199254740992", 0, JSON_STRICT_INT_MAX,
			   "move.card: expected an integer from 0 to 9007199254740991, found "
			   "9007199254740992");
	/* A literal too long to quote is cut. */
	memset(digits, '9', 400);
	digits[400] = '\0';
	expect_int_refused(digits, 0, 12, "move.card: expected an integer from 0 to 12, found "
			   "99999999999999999999999999999999...");
}

static void test_int_refuses_range_and_type(void **state)
{
	struct json_strict_error e;
	int64_t v = 42;
	double d;

	(void)state;
	expect_int_refused("13", 0, 12, "move.card: expected an integer from 0 to 12, found 13");
	expect_int_refused("-1", 0, 12, "move.card: expected an integer from 0 to 12, found -1");
	expect_int_refused("\"7\"", 0, 12, "move.card: expected an integer from 0 to 12, found the string \"7\"");
	expect_int_refused("true", 0, 12, "move.card: expected an integer from 0 to 12, found true");
	expect_int_refused("null", 0, 12, "move.card: expected an integer from 0 to 12, found null");
	expect_int_refused("[7]", 0, 12, "move.card: expected an integer from 0 to 12, found an array");
	expect_int_refused("{}", 0, 12, "move.card: expected an integer from 0 to 12, found an object");
	assert_int_equal(json_strict_int(NULL, "time.", "move_ms", 0, 100, 0, &v, &e), JSON_STRICT_EMISSING);
	assert_string_equal(e.message, "missing field \"time.move_ms\": expected an integer from 0 to 100");
	assert_int_equal(v, 42);
	/* Optional and nullable: 1, and *out keeps the caller's default. */
	assert_int_equal(json_strict_int(NULL, "", "x", 0, 1, JSON_STRICT_OPTIONAL, &v, &e), 1);
	assert_int_equal(read_int("null", 0, 12, JSON_STRICT_NULLABLE, &v, &e), 1);
	assert_int_equal(v, 42);
	assert_int_equal(read_int("13", 0, 12, JSON_STRICT_NULLABLE, &v, &e), JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "move.card: expected an integer from 0 to 12 or null, found 13");
	/* Bad ranges are the caller's error. */
	assert_int_equal(read_int("1", 5, 4, 0, &v, &e), JSON_STRICT_EINVAL);
	assert_int_equal(read_int("1", 0, JSON_STRICT_INT_MAX + 1, 0, &v, &e), JSON_STRICT_EINVAL);
	assert_int_equal(json_strict_int(NULL, NULL, NULL, 0, 1, 0, NULL, &e), JSON_STRICT_EINVAL);
	/* No name at all. */
	assert_int_equal(json_strict_int(NULL, NULL, NULL, 0, 1, 0, &v, &e), JSON_STRICT_EMISSING);
	assert_string_equal(e.message, "missing value: expected an integer from 0 to 1");
	assert_int_equal(json_strict_double(cJSON_GetArrayItem(NULL, 0), "", NULL, 0, 1, 0, &d, &e),
			 JSON_STRICT_EMISSING);
}

/* Nodes made with cJSON's own calls carry no literal: read by value. */
static void test_int_cjson_nodes(void **state)
{
	cJSON *n[4] = { cJSON_CreateNumber(7), cJSON_CreateNumber(7.5), cJSON_CreateNumber(NAN),
			cJSON_CreateNumber(1e300) };
	struct json_strict_error e;
	int64_t v;

	(void)state;
	assert_int_equal(json_strict_int(n[0], "", "n", 0, 12, 0, &v, &e), 0);
	assert_int_equal(v, 7);
	for (int i = 1; i < 4; i++)
		assert_int_equal(json_strict_int(n[i], "", "n", 0, 12, 0, &v, &e), JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "n: expected an integer from 0 to 12, found 1.0000000000000001e+300");
	for (int i = 0; i < 4; i++)
		cJSON_Delete(n[i]);
}

/* The protocol's inline fast path accepts exactly what json_strict_int() does. */
static void test_fast_path_agrees(void **state)
{
	static const char *const literals[] = { "0", "7", "12", "13", "-1", "-0", "7.0", "1e1", "1e400",
						"-1e400", "9007199254740993", "\"7\"", "null", "true",
						"[]", "2.5" };
	struct json_strict_error e;

	(void)state;
	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
		char text[64];
		cJSON *root;
		int64_t strict;
		long fast;
		int ok;

		snprintf(text, sizeof(text), "[%s]", literals[i]);
		root = parse_ok(text);
		ok = json_number_in(root->child, 0, 12, &fast);
		assert_int_equal(ok, json_strict_int(root->child, "", "x", 0, 12, 0, &strict, &e) == 0);
		if (ok)
			assert_int_equal(fast, strict);
		cJSON_Delete(root);
	}
}

static void test_double_reader(void **state)
{
	cJSON *root = parse_ok("[2.5,7,1e400,-1e400,1e-400,\"2\",-0.0]");
	const cJSON *n[7];
	struct json_strict_error e;
	const cJSON *item;
	double d = 42;
	int i = 0;

	(void)state;
	cJSON_ArrayForEach(item, root) n[i++] = item;
	assert_int_equal(json_strict_double(n[0], "rating.", "k", 0, 10, 0, &d, &e), 0);
	assert_true(d == 2.5);
	assert_int_equal(json_strict_double(n[1], "rating.", "k", 0, 10, 0, &d, &e), 0);
	assert_true(d == 7);
	d = 42;
	assert_int_equal(json_strict_double(n[2], "rating.", "k", -HUGE_VAL, HUGE_VAL, 0, &d, &e),
			 JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "rating.k: expected a finite number, found 1e400");
	assert_int_equal(json_strict_double(n[3], "rating.", "k", 0, HUGE_VAL, 0, &d, &e), JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "rating.k: expected a number of at least 0, found -1e400");
	assert_true(d == 42);
	assert_int_equal(json_strict_double(n[4], "rating.", "k", 0, 10, 0, &d, &e), 0);
	assert_true(d == 0);
	assert_int_equal(json_strict_double(n[5], "rating.", "k", -HUGE_VAL, 1.5, 0, &d, &e),
			 JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "rating.k: expected a number of at most 1.5, found the string \"2\"");
	assert_int_equal(json_strict_double(n[0], "rating.", "k", 3, 10, 0, &d, &e), JSON_STRICT_EVALUE);
	assert_string_equal(e.message, "rating.k: expected a number from 3 to 10, found 2.5");
	assert_int_equal(json_strict_double(n[6], "", "z", -1, 1, 0, &d, &e), 0);
	assert_true(d == 0 && signbit(d));
	assert_int_equal(json_strict_double(n[0], "", "k", NAN, 1, 0, &d, &e), JSON_STRICT_EINVAL);
	assert_int_equal(json_strict_double(n[0], "", "k", 2, 1, 0, &d, &e), JSON_STRICT_EINVAL);
	assert_int_equal(json_strict_double(NULL, "", "k", 0, 1, JSON_STRICT_OPTIONAL, &d, &e), 1);
	assert_int_equal(json_strict_double(NULL, "", "k", 0, 1, 0, &d, &e), JSON_STRICT_EMISSING);
	assert_string_equal(e.message, "missing field \"k\": expected a number from 0 to 1");
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duplicate_top_level),
		cmocka_unit_test(test_duplicate_nested),
		cmocka_unit_test(test_duplicate_large_object),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_utf8_and_position),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_pool_leaves_cjson_allocator),
		cmocka_unit_test(test_pool_keys),
		cmocka_unit_test(test_pool_grows_and_reuses),
		cmocka_unit_test(test_same_tree_as_cjson),
		cmocka_unit_test(test_tree_is_cjson),
		cmocka_unit_test(test_number_values),
		cmocka_unit_test(test_int_accepts),
		cmocka_unit_test(test_int_refuses_fraction),
		cmocka_unit_test(test_int_refuses_exponent),
		cmocka_unit_test(test_int_refuses_beyond_double),
		cmocka_unit_test(test_int_refuses_huge),
		cmocka_unit_test(test_int_refuses_range_and_type),
		cmocka_unit_test(test_int_cjson_nodes),
		cmocka_unit_test(test_fast_path_agrees),
		cmocka_unit_test(test_double_reader),
	};

	int failed;

	json_pool_init(&pool);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	json_pool_release(&pool);
	return failed;
}
