/*
 * json_strict.h - strict JSON reading for every text that comes from outside:
 * a bot's line, an arena line on the bot side, and the arena's own files (the
 * tournament file, games.jsonl lines, replays). Part of skipbo_protocol; it
 * depends on cJSON only.
 *
 * json_strict_parse() builds an ordinary cJSON tree, so the code that walks
 * it stays as it is, but it refuses what cJSON lets through: a key twice in
 * one object (cJSON keeps the first, most parsers the last, so the two sides
 * of a pipe could read different values), anything outside RFC 8259 (leading
 * zeros, "+1", ".5", raw control characters in strings, lone UTF-16
 * surrogates, invalid UTF-8, whitespace other than space, tab, CR and LF),
 * and nesting deeper than JSON_STRICT_DEPTH_MAX. Every refusal says where:
 * byte offset, line and column, and for a duplicate key the key and the
 * path of its object ("duplicate key \"card\" in move").
 *
 * Numbers are read only through json_strict_int() and json_strict_double(),
 * never through valueint or valuedouble directly: they know how the number
 * was written, so 7.0, 7e0 and 1e400 are not taken for integers, values out
 * of range never reach a cast, and the message quotes the literal as it was
 * written ("move.card: expected an integer from 0 to 12, found 7.0").
 *
 * Number nodes of a parsed tree: valuedouble is the literal's value as
 * strtod() reads it in the C locale (+-HUGE_VAL for a literal beyond the
 * double range, as cJSON gives it), valueint what cJSON would store. A
 * literal that is not a plain integer (one with a fraction or an exponent, or
 * an integer beyond +-JSON_STRICT_INT_MAX) also keeps its text in valuestring,
 * owned by the node (cJSON_Delete() frees it; cJSON_Duplicate() copies it);
 * valuestring of a plain integer is NULL. Nodes made with cJSON's own calls
 * have no text and are read by their value alone.
 *
 * Memory: nodes and strings come from cJSON_malloc(), so the trees are freed
 * and edited with cJSON's own calls and cJSON_InitHooks() applies to them;
 * json_strict_parse_pooled() takes them from a caller's struct json_pool
 * instead (for a reader of one line after another: no malloc or free per
 * node, and cJSON's allocator, which other code of the process may have
 * hooked, is left alone).
 * Threads: no static mutable state; any number of threads may parse and read
 * at once.
 */
#ifndef SKIPBO_JSON_STRICT_H
#define SKIPBO_JSON_STRICT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Deepest nesting of arrays and objects accepted (the root object is level 1). */
#define JSON_STRICT_DEPTH_MAX 128
/* Integers are exact up to here (2^53 - 1, RFC 8259's interoperable range);
 * json_strict_int() ranges must lie within +-JSON_STRICT_INT_MAX. */
#define JSON_STRICT_INT_MAX INT64_C(9007199254740991)
#define JSON_STRICT_MESSAGE_MAX 256

/* Return codes (negative). */
enum json_strict_code {
	JSON_STRICT_OK = 0,
	JSON_STRICT_ENOMEM = -1,
	JSON_STRICT_EINVAL = -2,    /* a bad argument: NULL text or out, min > max, a range past +-JSON_STRICT_INT_MAX */
	/* json_strict_parse(): the text is refused; offset, line and column say where */
	JSON_STRICT_ESYNTAX = -3,   /* not JSON by RFC 8259 (also: a NUL byte, "\u0000" in a string, empty text) */
	JSON_STRICT_EUTF8 = -4,     /* invalid UTF-8; offset = the first bad byte */
	JSON_STRICT_EDUPKEY = -5,   /* an object holds a key twice; offset = the second one */
	JSON_STRICT_EDEPTH = -6,    /* nested deeper than JSON_STRICT_DEPTH_MAX */
	JSON_STRICT_ETRAILING = -7, /* a complete value followed by more than whitespace; offset = the excess */
	/* the number readers: the value is refused; the message names the field */
	JSON_STRICT_EMISSING = -10, /* no value (item NULL) and JSON_STRICT_OPTIONAL not given */
	JSON_STRICT_EVALUE = -11,   /* not a number, not an integer, not finite, or outside [min, max] */
};

/* What was wrong. Parse errors fill every field; reader errors set offset,
 * line and column to 0. */
struct json_strict_error {
	int code;            /* the code returned */
	size_t offset;       /* byte offset of the problem in the text */
	unsigned long line;  /* 1-based line of offset (lines end at '\n') */
	unsigned long column;/* 1-based column of offset, in characters (UTF-8 sequences) */
	/* One sentence, no newline, no position: a caller reading a file prints
	 * "%s:%lu:%lu: %s" with its name, line, column and message. */
	char message[JSON_STRICT_MESSAGE_MAX];
};

/*
 * Parses exactly one JSON value from text[0..len-1] (no NUL terminator
 * needed; a NUL byte inside is refused), with whitespace allowed around it.
 * Any value is accepted at the root; callers that want an object check
 * cJSON_IsObject(). Errors come in the order: NUL byte, invalid UTF-8, then
 * the first problem of the grammar, depth or keys in document order.
 *
 * Returns 0 and sets *out to a tree the caller owns (free with
 * cJSON_Delete()); or a negative JSON_STRICT_* code with *out NULL and err
 * (may be NULL) filled.
 */
int json_strict_parse(const char *text, size_t len, cJSON **out, struct json_strict_error *err);

/*
 * A bump allocator for the trees of json_strict_parse_pooled(): its memory is
 * kept from one parse to the next, so a reader of similar lines stops calling
 * malloc() once the first few lines are read. All zero (json_pool_init()) is
 * an empty pool.
 */
struct json_pool_block;
struct json_pool {
	struct json_pool_block *blocks; /* the newest first */
};

void json_pool_init(struct json_pool *pool);
/* Frees the pool's memory, and with it the tree last parsed into it. */
void json_pool_release(struct json_pool *pool);

/*
 * json_strict_parse() with every node and string of the tree taken from pool:
 * the same checks, answers and messages. The tree belongs to the pool: it
 * stays valid until the next json_strict_parse_pooled() into the same pool
 * (which reuses the memory) or json_pool_release(), and must never be given
 * to cJSON_Delete() or to cJSON calls that free or add nodes.
 */
int json_strict_parse_pooled(const char *text, size_t len, struct json_pool *pool, cJSON **out,
			     struct json_strict_error *err);

/* Flags of the readers. */
#define JSON_STRICT_OPTIONAL 1u /* item NULL (absent): return 1, *out untouched */
#define JSON_STRICT_NULLABLE 2u /* a JSON null: return 1, *out untouched */

/*
 * The number readers. item is the value to read (NULL when absent: look it
 * up with cJSON_GetObjectItemCaseSensitive() or take an array element).
 * prefix and name (either may be NULL or "") name it in messages, written
 * one after the other: ("time.", "move_ms") gives "time.move_ms",
 * ("placings[2]", NULL) gives "placings[2]".
 *
 * json_strict_int(): an integer in [min, max], with
 * -JSON_STRICT_INT_MAX <= min <= max <= JSON_STRICT_INT_MAX. An integer is
 * a number written without fraction or exponent: 7, -3 and -0 (read as 0)
 * are integers; 7.0, -0.0, 7e0 and 1e3 are not, whatever their value.
 *
 * json_strict_double(): a finite number in [min, max] (min <= max, neither
 * NaN; -HUGE_VAL or HUGE_VAL leave a side open). Any JSON number literal is
 * accepted, an integer too; 1e400 and -1e400 are not finite and are refused.
 *
 * Returns 0 with *out set; 1 when item is absent or null and the flags allow
 * it (*out untouched); or a negative code with *out untouched and err (may be
 * NULL) holding a message such as
 *   move.card: expected an integer from 0 to 12, found 7.0
 *   view.hand[2]: expected an integer from 0 to 12 or null, found the string "7"
 *   missing field "time.move_ms": expected an integer from 0 to 2147483647
 * JSON_STRICT_EMISSING, JSON_STRICT_EVALUE, or JSON_STRICT_EINVAL for a bad
 * range or a NULL out.
 */
int json_strict_int(const cJSON *item, const char *prefix, const char *name, int64_t min,
		    int64_t max, unsigned flags, int64_t *out, struct json_strict_error *err);
int json_strict_double(const cJSON *item, const char *prefix, const char *name, double min,
		       double max, unsigned flags, double *out, struct json_strict_error *err);

#endif
