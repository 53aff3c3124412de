/*
 * json_strict.c - a strict JSON parser that builds cJSON trees (the number
 * readers are in json_strict_get.c, the pool in json_pool.c). One pass over
 * the text: it checks the grammar, finds duplicate keys and reads plain
 * integers without strtod(), which is also what makes it faster than cJSON's
 * own parser on the protocol's messages.
 */
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_pool.h"
#include "json_strict.h"
#include "json_strict_internal.h"
#include "protocol_text.h"

/* Objects with more members than this find duplicates with a hash set. */
#define SMALL_OBJECT 16
/* Objects nested up to this deep keep their keys' prefixes (key_prefix()). */
#define PREFIX_DEPTH 8
/* Longest key, string or literal quoted in a message. */
#define QUOTE_MAX JSON_STRICT_QUOTE_MAX
#define PATH_SHOWN_MAX 120

struct frame {
	const char *key; /* the member being read, in an object */
	long index;      /* the element being read, in an array (key NULL) */
};

struct parser {
	const unsigned char *s;
	size_t len, pos;
	int depth;
	locale_t c_locale; /* made on the first number that needs strtod_l() */
	struct json_pool *pool; /* NULL: nodes and strings from cJSON_malloc() */
	uint64_t prefixes[PREFIX_DEPTH][SMALL_OBJECT]; /* of the objects being read */
	struct json_strict_error *err;
	struct frame frames[JSON_STRICT_DEPTH_MAX];
};

/* ---- errors ---------------------------------------------------------------- */

static void fill_error(struct json_strict_error *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void fill_error(struct json_strict_error *err, int code, const char *fmt, va_list ap)
{
	memset(err, 0, sizeof(*err));
	err->code = code;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

int json_strict_set_error(struct json_strict_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		fill_error(err, code, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int parse_error(struct parser *ps, int code, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* json_strict_set_error() with the position of byte at: line and column (1-based, the
 * column in UTF-8 characters). */
static int parse_error(struct parser *ps, int code, size_t at, const char *fmt, ...)
{
	struct json_strict_error *err = ps->err;
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	fill_error(err, code, fmt, ap);
	va_end(ap);
	err->offset = at;
	err->line = err->column = 1;
	for (size_t i = 0; i < at; i++) {
		if (ps->s[i] == '\n') {
			err->line++;
			err->column = 1;
		} else if ((ps->s[i] & 0xc0) != 0x80) {
			err->column++;
		}
	}
	return code;
}

const char *json_strict_quote(const char *s, size_t n, char out[JSON_STRICT_QUOTE_MAX + 4])
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n > QUOTE_MAX) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
	return out;
}

/* The path of the container at depth levels ("move", "view.players[1]"), or
 * "the top-level object"; a long path keeps its end. */
static const char *path_of(const struct parser *ps, int levels, char *out, size_t size)
{
	char full[JSON_STRICT_DEPTH_MAX * (QUOTE_MAX + 8)], key[QUOTE_MAX + 4];
	size_t n = 0;

	full[0] = '\0';
	for (int d = 0; d < levels && n < sizeof(full); d++) {
		const struct frame *f = &ps->frames[d];

		if (f->key)
			n += (size_t)snprintf(full + n, sizeof(full) - n, "%s%s", n ? "." : "",
					      json_strict_quote(f->key, strlen(f->key), key));
		else
			n += (size_t)snprintf(full + n, sizeof(full) - n, "[%ld]", f->index);
	}
	n = strlen(full);
	if (n == 0)
		snprintf(out, size, "the top-level object");
	else if (n > PATH_SHOWN_MAX)
		snprintf(out, size, "...%s", full + n - PATH_SHOWN_MAX);
	else
		snprintf(out, size, "%s", full);
	return out;
}

/* ---- memory ---------------------------------------------------------------- */

/* Memory for the tree being built: from the pool (json_pool.h), or cJSON's allocator. */
static inline void *take(struct parser *ps, size_t size)
{
	if (!ps->pool)
		return cJSON_malloc(size);
	return json_pool_take(ps->pool, size);
}

/* Frees a subtree the parse gives up on; a pool's memory stays in the pool. */
static void drop(struct parser *ps, cJSON *item)
{
	if (!ps->pool)
		cJSON_Delete(item);
}

/* ---- nodes ----------------------------------------------------------------- */

static cJSON *new_node(struct parser *ps, int type)
{
	cJSON *node = take(ps, sizeof(*node));

	if (!node) {
		parse_error(ps, JSON_STRICT_ENOMEM, ps->pos, "out of memory");
		return NULL;
	}
	memset(node, 0, sizeof(*node));
	node->type = type;
	return node;
}

/* Appends item to parent's children the way cJSON_AddItemToArray() does
 * (the first child's prev is the last child), so the tree can be edited
 * with cJSON's calls afterwards. */
static void append(cJSON *parent, cJSON *item, cJSON **tail)
{
	if (!*tail) {
		parent->child = item;
	} else {
		(*tail)->next = item;
		item->prev = *tail;
	}
	parent->child->prev = item;
	*tail = item;
}

static inline void skip_ws(struct parser *ps)
{
	/* Lines from the arena have no whitespace: one test and out. */
	if (ps->pos < ps->len && ps->s[ps->pos] > ' ')
		return;
	while (ps->pos < ps->len) {
		unsigned char c = ps->s[ps->pos];

		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return;
		ps->pos++;
	}
}

static int end_error(struct parser *ps, const char *what)
{
	return parse_error(ps, JSON_STRICT_ESYNTAX, ps->len, "the text ends before %s", what);
}

/* ---- strings --------------------------------------------------------------- */

static int hex4(const unsigned char *s, unsigned *out)
{
	static const char digits[] = "0123456789abcdef";
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		/* | 0x20 makes A-F lower case; below '0' nothing may map onto a digit. */
		const char *d = s[i] >= '0' ? strchr(digits, s[i] | 0x20) : NULL;

		if (!d)
			return -1;
		v = v << 4 | (unsigned)(d - digits);
	}
	*out = v;
	return 0;
}

static size_t put_utf8(unsigned cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* One \u escape at s[i] (the backslash), with its low surrogate if any, into
 * o; *used = bytes of text read. The text is known to reach the closing
 * quote, so s[i + 5] exists whenever an escape is complete. */
static int unicode_escape(struct parser *ps, size_t i, size_t end, char *o, size_t *written,
			  size_t *used)
{
	const unsigned char *s = ps->s;
	unsigned cp, low;

	if (end - i < 6 || hex4(s + i + 2, &cp))
		return parse_error(ps, JSON_STRICT_ESYNTAX, i,
				   "\\u must be followed by 4 hexadecimal digits");
	*used = 6;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return parse_error(ps, JSON_STRICT_ESYNTAX, i,
				   "unpaired UTF-16 surrogate \\u%04x in a string", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (end - i < 12 || s[i + 6] != '\\' || s[i + 7] != 'u' || hex4(s + i + 8, &low) ||
		    low < 0xdc00 || low > 0xdfff)
			return parse_error(ps, JSON_STRICT_ESYNTAX, i,
					   "unpaired UTF-16 surrogate \\u%04x in a string", cp);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		*used = 12;
	}
	if (cp == 0)
		return parse_error(ps, JSON_STRICT_ESYNTAX, i,
				   "\\u0000 in a string: NUL characters are not accepted");
	*written = put_utf8(cp, o);
	return 0;
}

/* Decodes the escapes of s[start..end-1] into o (room for end - start bytes:
 * no escape decodes to more bytes than it takes). */
static int unescape(struct parser *ps, size_t start, size_t end, char *o)
{
	const unsigned char *s = ps->s;
	size_t i = start, n = 0;

	while (i < end) {
		size_t written = 0, used = 0;
		int rc;

		if (s[i] != '\\') {
			o[n++] = (char)s[i++];
			continue;
		}
		switch (s[i + 1]) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u':
			if ((rc = unicode_escape(ps, i, end, o + n, &written, &used)))
				return rc;
			n += written;
			i += used;
			continue;
		default: {
			char q[QUOTE_MAX + 4];

			return parse_error(ps, JSON_STRICT_ESYNTAX, i, "invalid escape \"\\%s\" in a string",
					   json_strict_quote((const char *)s + i + 1, 1, q));
		}
		}
		i += 2;
	}
	o[n] = '\0';
	return 0;
}

/* The string starting at the quote at ps->pos, into a new cJSON_malloc()
 * buffer; ps->pos ends after the closing quote. */
static int parse_string(struct parser *ps, char **out)
{
	const unsigned char *s = ps->s;
	size_t start = ps->pos + 1, i = start;
	int escapes = 0, rc;
	char *buf;

	for (;;) {
		unsigned char c;

		if (i >= ps->len)
			return end_error(ps, "a string is closed");
		c = s[i];
		if (c == '"')
			break;
		if (c == '\\') {
			escapes = 1;
			i += 2;
			continue;
		}
		if (c < 0x20)
			return parse_error(ps, JSON_STRICT_ESYNTAX, i,
					   "control character 0x%02x in a string (write it as \\u%04x)", c, c);
		i++;
	}
	buf = take(ps, i - start + 1);
	if (!buf)
		return parse_error(ps, JSON_STRICT_ENOMEM, start, "out of memory");
	if (!escapes) {
		memcpy(buf, s + start, i - start);
		buf[i - start] = '\0';
	} else if ((rc = unescape(ps, start, i, buf))) {
		if (!ps->pool)
			cJSON_free(buf);
		return rc;
	}
	*out = buf;
	ps->pos = i + 1;
	return 0;
}

/* ---- numbers --------------------------------------------------------------- */

static int is_digit(const struct parser *ps, size_t i)
{
	return i < ps->len && ps->s[i] >= '0' && ps->s[i] <= '9';
}

/* The literal of a number that is not a plain integer: kept in valuestring,
 * read with strtod_l() in the C locale (cJSON's strtod() would follow the
 * program's locale). */
static int number_text(struct parser *ps, cJSON *item, size_t start, size_t end)
{
	char *text = take(ps, end - start + 1);

	if (!text)
		return parse_error(ps, JSON_STRICT_ENOMEM, start, "out of memory");
	memcpy(text, ps->s + start, end - start);
	text[end - start] = '\0';
	item->valuestring = text;
	if (!ps->c_locale) {
		ps->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		if (!ps->c_locale)
			return parse_error(ps, JSON_STRICT_ENOMEM, start, "out of memory");
	}
	item->valuedouble = strtod_l(text, NULL, ps->c_locale);
	return 0;
}

static int parse_number(struct parser *ps, cJSON *item)
{
	const unsigned char *s = ps->s;
	size_t start = ps->pos, i = start;
	uint64_t v = 0;
	int digits = 0, plain = 1, rc;
	double d;

	if (s[i] == '-')
		i++;
	if (!is_digit(ps, i))
		return i >= ps->len ? end_error(ps, "a number is complete")
				    : parse_error(ps, JSON_STRICT_ESYNTAX, i, "expected a digit after '-'");
	if (s[i] == '0' && is_digit(ps, i + 1))
		return parse_error(ps, JSON_STRICT_ESYNTAX, start, "a number must not start with 0");
	for (; is_digit(ps, i); i++, digits++)
		if (digits < 17)
			v = v * 10 + (uint64_t)(s[i] - '0');
	if (i < ps->len && s[i] == '.') {
		plain = 0;
		if (!is_digit(ps, ++i))
			return parse_error(ps, JSON_STRICT_ESYNTAX, i, "expected a digit after the decimal point");
		while (is_digit(ps, i))
			i++;
	}
	if (i < ps->len && (s[i] == 'e' || s[i] == 'E')) {
		plain = 0;
		i++;
		if (i < ps->len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (!is_digit(ps, i))
			return parse_error(ps, JSON_STRICT_ESYNTAX, i, "expected a digit in the exponent");
		while (is_digit(ps, i))
			i++;
	}
	item->type = cJSON_Number;
	if (plain && digits <= 16 && v <= (uint64_t)JSON_STRICT_INT_MAX) {
		d = (double)v; /* exact below 2^53 */
		item->valuedouble = s[start] == '-' ? -d : d;
		if (v < INT_MAX) {
			item->valueint = s[start] == '-' ? -(int)v : (int)v;
			ps->pos = i;
			return 0;
		}
	} else if ((rc = number_text(ps, item, start, i))) {
		return rc;
	}
	/* valueint as cJSON sets it: saturated, never a cast of an out-of-range double. */
	d = item->valuedouble;
	item->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
	ps->pos = i;
	return 0;
}

/* ---- objects: duplicate keys ----------------------------------------------- */

/* A hash set of the members of one large object. */
struct keyset {
	const cJSON **slots;
	size_t cap, n;
};

static uint64_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211u;
	return h;
}

/* Adds item; 1 if a member of that name is there already, -1 without memory. */
static int keyset_add(struct keyset *set, const cJSON *item)
{
	size_t i;

	if (2 * (set->n + 1) > set->cap) {
		struct keyset grown = { NULL, set->cap ? 2 * set->cap : 64, 0 };

		grown.slots = calloc(grown.cap, sizeof(*grown.slots));
		if (!grown.slots)
			return -1;
		for (size_t k = 0; k < set->cap; k++)
			if (set->slots[k])
				keyset_add(&grown, set->slots[k]);
		free(set->slots);
		*set = grown;
	}
	for (i = key_hash(item->string) & (set->cap - 1); set->slots[i];
	     i = (i + 1) & (set->cap - 1))
		if (strcmp(set->slots[i]->string, item->string) == 0)
			return 1;
	set->slots[i] = item;
	set->n++;
	return 0;
}

/* The first 8 bytes of a key, zero-padded. Keys hold no NUL, so keys of
 * fewer than 8 bytes are equal exactly when their prefixes are, and keys
 * with different prefixes always differ. */
static uint64_t key_prefix(const char *key)
{
	uint64_t p = 0;

	for (int i = 0; i < 8 && key[i]; i++)
		p |= (uint64_t)(unsigned char)key[i] << (8 * i);
	return p;
}

/*
 * Whether obj (n members so far) has a member named like item already; item
 * is not linked yet. Small objects compare the prefixes of their keys, kept
 * in prefixes (NULL when nested too deep), and search member by member only
 * when a prefix matches; from SMALL_OBJECT members on, a hash set of them is
 * kept in set. Returns 1 (a duplicate), 0, or -1 without memory.
 */
static int duplicate_key(const cJSON *obj, const cJSON *item, size_t n, uint64_t *prefixes,
			 struct keyset *set)
{
	const char *key = item->string;

	if (n < SMALL_OBJECT) {
		if (prefixes) {
			uint64_t p = key_prefix(key);
			size_t j = 0;

			while (j < n && prefixes[j] != p)
				j++;
			prefixes[n] = p;
			if (j == n)
				return 0;
		}
		for (const cJSON *c = obj->child; c; c = c->next)
			if (c->string[0] == key[0] && strcmp(c->string, key) == 0)
				return 1;
		return 0;
	}
	if (!set->slots)
		for (const cJSON *c = obj->child; c; c = c->next)
			if (keyset_add(set, c) < 0)
				return -1;
	return keyset_add(set, item);
}

/* ---- values ---------------------------------------------------------------- */

static int parse_value(struct parser *ps, cJSON *item);

/* The message for a duplicate key: out of parse_object() to keep its frame small. */
static int __attribute__((noinline)) duplicate_error(struct parser *ps, size_t at, const char *key)
{
	char path[PATH_SHOWN_MAX + 8], q[QUOTE_MAX + 4];

	return parse_error(ps, JSON_STRICT_EDUPKEY, at, "duplicate key \"%s\" in %s",
			   json_strict_quote(key, strlen(key), q), path_of(ps, ps->depth - 1, path, sizeof(path)));
}

static int parse_object(struct parser *ps, cJSON *obj)
{
	struct keyset set = { NULL, 0, 0 };
	struct frame *f = &ps->frames[ps->depth - 1];
	uint64_t *prefixes = ps->depth <= PREFIX_DEPTH ? ps->prefixes[ps->depth - 1] : NULL;
	cJSON *tail = NULL, *item;
	size_t n = 0;
	int rc = 0, dup;

	obj->type = cJSON_Object;
	ps->pos++;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->s[ps->pos] == '}') {
		ps->pos++;
		return 0;
	}
	for (;; n++) {
		size_t key_at = ps->pos;

		if (ps->pos >= ps->len) {
			rc = end_error(ps, "the object is closed");
			break;
		}
		if (ps->s[ps->pos] != '"') {
			rc = parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos, "expected a key in double quotes");
			break;
		}
		if (!(item = new_node(ps, cJSON_NULL))) {
			rc = JSON_STRICT_ENOMEM;
			break;
		}
		if ((rc = parse_string(ps, &item->string)) ||
		    (dup = duplicate_key(obj, item, n, prefixes, &set)) != 0) {
			if (rc == 0)
				rc = dup > 0 ? duplicate_error(ps, key_at, item->string)
					     : parse_error(ps, JSON_STRICT_ENOMEM, key_at, "out of memory");
			drop(ps, item);
			break;
		}
		append(obj, item, &tail);
		skip_ws(ps);
		if (ps->pos >= ps->len) {
			rc = end_error(ps, "the object is closed");
			break;
		}
		if (ps->s[ps->pos] != ':') {
			rc = parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos, "expected ':' after the key");
			break;
		}
		ps->pos++;
		f->key = item->string;
		if ((rc = parse_value(ps, item)))
			break;
		skip_ws(ps);
		if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
			ps->pos++;
			skip_ws(ps);
			continue;
		}
		if (ps->pos < ps->len && ps->s[ps->pos] == '}') {
			ps->pos++;
			break;
		}
		rc = ps->pos >= ps->len ? end_error(ps, "the object is closed")
					: parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos,
						      "expected ',' or '}' after an object member");
		break;
	}
	free(set.slots);
	return rc;
}

static int parse_array(struct parser *ps, cJSON *arr)
{
	struct frame *f = &ps->frames[ps->depth - 1];
	cJSON *tail = NULL, *item;
	int rc;

	arr->type = cJSON_Array;
	f->key = NULL;
	f->index = 0;
	ps->pos++;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->s[ps->pos] == ']') {
		ps->pos++;
		return 0;
	}
	for (;; f->index++) {
		if (!(item = new_node(ps, cJSON_NULL)))
			return JSON_STRICT_ENOMEM;
		append(arr, item, &tail);
		if ((rc = parse_value(ps, item)))
			return rc;
		skip_ws(ps);
		if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->pos < ps->len && ps->s[ps->pos] == ']') {
			ps->pos++;
			return 0;
		}
		return ps->pos >= ps->len ? end_error(ps, "the array is closed")
					  : parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos,
							"expected ',' or ']' after an array element");
	}
}

static int literal(struct parser *ps, const char *word, size_t n, cJSON *item, int type)
{
	if (ps->len - ps->pos < n || memcmp(ps->s + ps->pos, word, n) != 0)
		return parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos, "expected a value");
	item->type = type;
	ps->pos += n;
	return 0;
}

/* The value at ps->pos (whitespace before it allowed) into item. */
static int parse_value(struct parser *ps, cJSON *item)
{
	int rc;

	skip_ws(ps);
	if (ps->pos >= ps->len)
		return end_error(ps, "a value is complete");
	switch (ps->s[ps->pos]) {
	case '{':
	case '[':
		if (ps->depth == JSON_STRICT_DEPTH_MAX)
			return parse_error(ps, JSON_STRICT_EDEPTH, ps->pos,
					   "arrays and objects nested deeper than %d levels",
					   JSON_STRICT_DEPTH_MAX);
		ps->depth++;
		rc = ps->s[ps->pos] == '{' ? parse_object(ps, item) : parse_array(ps, item);
		ps->depth--;
		return rc;
	case '"':
		item->type = cJSON_String;
		return parse_string(ps, &item->valuestring);
	case 't':
		return literal(ps, "true", 4, item, cJSON_True);
	case 'f':
		return literal(ps, "false", 5, item, cJSON_False);
	case 'n':
		return literal(ps, "null", 4, item, cJSON_NULL);
	default:
		if (ps->s[ps->pos] == '-' || (ps->s[ps->pos] >= '0' && ps->s[ps->pos] <= '9'))
			return parse_number(ps, item);
		return parse_error(ps, JSON_STRICT_ESYNTAX, ps->pos, "expected a value");
	}
}

/* json_strict_parse() and json_strict_parse_pooled(): pool may be NULL. */
static int parse_text(const char *text, size_t len, struct json_pool *pool, cJSON **out,
		      struct json_strict_error *err)
{
	struct parser parser, *ps = &parser;
	const char *nul;
	cJSON *root = NULL;
	size_t bad;
	int rc;

	if (out)
		*out = NULL;
	if (!text || !out)
		return json_strict_set_error(err, JSON_STRICT_EINVAL, "json_strict_parse: NULL argument");
	/* The frames are written before they are read: not cleared. */
	ps->pos = 0;
	ps->depth = 0;
	ps->c_locale = (locale_t)0;
	ps->s = (const unsigned char *)text;
	ps->len = len;
	ps->err = err;
	ps->pool = pool;
	if (pool)
		json_pool_reset(pool);
	nul = memchr(text, '\0', len);
	bad = text_utf8_check(ps->s, len);
	if (nul) {
		rc = parse_error(ps, JSON_STRICT_ESYNTAX, (size_t)(nul - text), "NUL byte");
		goto out;
	}
	if (bad != len) {
		rc = parse_error(ps, JSON_STRICT_EUTF8, bad, "invalid UTF-8 (byte 0x%02x)", ps->s[bad]);
		goto out;
	}
	skip_ws(ps);
	if (ps->pos >= len) {
		rc = parse_error(ps, JSON_STRICT_ESYNTAX, len, "no value: the text is empty");
		goto out;
	}
	if (!(root = new_node(ps, cJSON_NULL))) {
		rc = JSON_STRICT_ENOMEM;
		goto out;
	}
	if ((rc = parse_value(ps, root)))
		goto out;
	skip_ws(ps);
	if (ps->pos < len) {
		rc = parse_error(ps, JSON_STRICT_ETRAILING, ps->pos, "more text after the value");
		goto out;
	}
	*out = root;
	root = NULL;
out:
	if (ps->c_locale)
		freelocale(ps->c_locale);
	drop(ps, root);
	return rc;
}

int json_strict_parse(const char *text, size_t len, cJSON **out, struct json_strict_error *err)
{
	return parse_text(text, len, NULL, out, err);
}

int json_strict_parse_pooled(const char *text, size_t len, struct json_pool *pool, cJSON **out,
			     struct json_strict_error *err)
{
	if (!pool) {
		if (out)
			*out = NULL;
		return json_strict_set_error(err, JSON_STRICT_EINVAL, "json_strict_parse_pooled: NULL pool");
	}
	return parse_text(text, len, pool, out, err);
}
