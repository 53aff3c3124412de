/*
 * protocol_text.c - the line buffer, number and string writers, UTF-8
 * checking, name tables and error names of the protocol library.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol_text.h"

void protocol_buf_init(struct protocol_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void protocol_buf_release(struct protocol_buf *b)
{
	free(b->data);
	protocol_buf_init(b);
}

int text_reserve(struct protocol_buf *b, size_t more)
{
	size_t need, cap;
	char *grown;

	/* + 1 keeps room for the terminating NUL at all times. */
	if (more > PROTOCOL_ARENA_LINE_MAX || b->len + more + 1 > PROTOCOL_ARENA_LINE_MAX + 1)
		return PROTOCOL_ETOOLONG;
	need = b->len + more + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 1024;
	while (cap < need)
		cap *= 2;
	grown = realloc(b->data, cap);
	if (!grown)
		return PROTOCOL_ENOMEM;
	b->data = grown;
	b->cap = cap;
	return 0;
}

int text_begin(struct protocol_buf *b, size_t n)
{
	int rc;

	b->len = 0;
	rc = text_reserve(b, n);
	if (rc == 0)
		text_finish(b);
	return rc;
}

void text_put_u64(struct protocol_buf *b, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		b->data[b->len++] = tmp[--n];
}

void text_put_i64(struct protocol_buf *b, int64_t v)
{
	if (v < 0) {
		text_putc(b, '-');
		/* Negate in unsigned arithmetic so INT64_MIN is safe. */
		text_put_u64(b, 0 - (uint64_t)v);
	} else {
		text_put_u64(b, (uint64_t)v);
	}
}

int text_put_string(struct protocol_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(s);

	if (text_utf8_check((const unsigned char *)s, n) != n)
		return PROTOCOL_EINVAL;
	text_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;

		if (c == '"' || c == '\\') {
			text_putc(b, '\\');
			text_putc(b, (char)c);
		} else if (c < 0x20) {
			TEXT_PUT_LIT(b, "\\u00");
			text_putc(b, hex[c >> 4]);
			text_putc(b, hex[c & 15]);
		} else {
			text_putc(b, (char)c);
		}
	}
	text_putc(b, '"');
	return 0;
}

size_t text_utf8_check(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp, min;

		/* Lines are nearly all ASCII: skip 8 such bytes at a time. */
		if (len - i >= 8) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080u)) {
				i += 8;
				continue;
			}
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
			min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
			min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			return i;
		}
		if (len - i <= n)
			return i;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8. */
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += n + 1;
	}
	return len;
}

static const char *const source_names[] = {
	[SOURCE_HAND] = "hand",
	[SOURCE_STOCK] = "stock",
	[SOURCE_DISCARD] = "discard",
};

const char *text_source_name(int source)
{
	if (source < SOURCE_HAND || source > SOURCE_DISCARD)
		return NULL;
	return source_names[source];
}

int text_source_parse(const char *name)
{
	for (int s = SOURCE_HAND; s <= SOURCE_DISCARD; s++)
		if (strcmp(name, source_names[s]) == 0)
			return s;
	return -1;
}

static const char *const reason_names[] = {
	[END_NONE] = "none",
	[END_STOCK_EMPTIED] = "stock_emptied",
	[END_STALEMATE] = "stalemate",
	[END_TURN_CAP] = "turn_cap",
	[END_FORFEIT] = "forfeit",
};

const char *text_reason_name(int reason)
{
	if (reason < END_NONE || reason > END_FORFEIT)
		return NULL;
	return reason_names[reason];
}

int text_reason_parse(const char *name)
{
	for (int r = END_NONE; r <= END_FORFEIT; r++)
		if (strcmp(name, reason_names[r]) == 0)
			return r;
	return -1;
}

const char *protocol_strerror(int code)
{
	switch (code) {
	case PROTOCOL_OK: return "success";
	case PROTOCOL_ENOMEM: return "out of memory";
	case PROTOCOL_EINVAL: return "invalid argument";
	case PROTOCOL_EEOF: return "end of input";
	case PROTOCOL_EIO: return "input/output error";
	case PROTOCOL_ENOTJSON: return "not JSON";
	case PROTOCOL_ENOTOBJECT: return "not a JSON object";
	case PROTOCOL_ETRAILING: return "trailing characters after the JSON object";
	case PROTOCOL_ETOOLONG: return "line too long";
	case PROTOCOL_EUTF8: return "invalid UTF-8";
	case PROTOCOL_EDUPKEY: return "duplicate key";
	case PROTOCOL_ETYPE: return "wrong message type";
	case PROTOCOL_EMISSING: return "missing field";
	case PROTOCOL_EFIELD: return "mistyped or out-of-range field";
	case PROTOCOL_EVALUE: return "unknown value";
	case PROTOCOL_EVERSION: return "unsupported protocol version";
	case PROTOCOL_EILLEGAL: return "illegal move";
	default: return "unknown error";
	}
}

#define PROTOCOL_FAULT_KIND_NAME_(id, name) [PROTOCOL_FAULT_##id] = name,
const char *const protocol_fault_kind_names[PROTOCOL_FAULT_KINDS] = {
	PROTOCOL_FAULT_KIND_LIST(PROTOCOL_FAULT_KIND_NAME_)
};

int protocol_fault_kind_from_name(const char *name)
{
	for (int k = 0; name && k < PROTOCOL_FAULT_KINDS; k++)
		if (strcmp(name, protocol_fault_kind_names[k]) == 0)
			return k;
	return -1;
}

int protocol_fault_kind_of(int code)
{
	switch (code) {
	case PROTOCOL_ENOTJSON:
	case PROTOCOL_ENOTOBJECT:
	case PROTOCOL_ETRAILING:
	case PROTOCOL_ETOOLONG:
	case PROTOCOL_EUTF8:
	case PROTOCOL_EDUPKEY:
		return PROTOCOL_FAULT_MALFORMED;
	case PROTOCOL_ETYPE:
	case PROTOCOL_EMISSING:
	case PROTOCOL_EFIELD:
	case PROTOCOL_EVALUE:
	case PROTOCOL_EVERSION:
		return PROTOCOL_FAULT_PROTOCOL;
	case PROTOCOL_EILLEGAL:
		return PROTOCOL_FAULT_ILLEGAL;
	default:
		return -1;
	}
}

const char *protocol_fault_kind(int code)
{
	int k = protocol_fault_kind_of(code);

	return k < 0 ? NULL : protocol_fault_kind_names[k];
}
