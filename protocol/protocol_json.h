/*
 * protocol_json.h - inside the protocol library: reading one line into a
 * cJSON object and reading its fields, each failure explained in a struct
 * protocol_diag. Not part of the public API.
 *
 * Field names in messages are paths ("move.from", "view.players[1].hand_size")
 * built from the caller's prefix, so a bot author sees exactly which field.
 */
#ifndef SKIPBO_PROTOCOL_JSON_H
#define SKIPBO_PROTOCOL_JSON_H

#include <cjson/cJSON.h>

#include "json_strict.h"
#include "protocol.h"

/* Records code, offset and a formatted message in diag (if any); returns code. */
int json_fail(struct protocol_diag *diag, int code, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Checks the line's length (limit max_len), parses it with
 * json_strict_parse() (no NUL, UTF-8, no duplicate key, RFC 8259), and checks
 * that it is one object and nothing more. pool NULL: on success *out owns the
 * tree (free with cJSON_Delete); otherwise the tree is the pool's
 * (json_strict_parse_pooled()).
 */
int json_parse_line(const char *line, size_t len, size_t max_len, struct json_pool *pool,
		    cJSON **out, struct protocol_diag *diag);

/* The "type" string of a message object, or ETYPE. */
int json_message_type(const cJSON *obj, const char **type, struct protocol_diag *diag);

/* Fields: 0 = found and well typed, 1 = absent and not required (a JSON null
 * counts as absent), < 0 = error (EMISSING, EFIELD). Numbers are read with
 * json_strict_int(), whose sentences the messages are. */
int json_int(const cJSON *obj, const char *prefix, const char *name, long min, long max,
	     int required, long *out, struct protocol_diag *diag);
int json_string(const cJSON *obj, const char *prefix, const char *name, int required,
		const char **out, struct protocol_diag *diag);
int json_bool(const cJSON *obj, const char *prefix, const char *name, int required, int *out,
	      struct protocol_diag *diag);
int json_array(const cJSON *obj, const char *prefix, const char *name, int required,
	       const cJSON **out, struct protocol_diag *diag);
int json_object(const cJSON *obj, const char *prefix, const char *name, int required,
		const cJSON **out, struct protocol_diag *diag);

/* An array element (no name): an integer in [min, max], or null if allow_null
 * (then *out = -1). where names the element for messages. */
int json_elem_int(const cJSON *item, const char *where, long min, long max, int allow_null,
		  long *out, struct protocol_diag *diag);

/* Cuts the copy src into dst[size] at a UTF-8 character boundary. */
void json_copy_cut(char *dst, const char *src, size_t size);

/* Copies a string field into a fixed buffer; EFIELD if it does not fit. */
int json_copy_string(const cJSON *obj, const char *prefix, const char *name, int required,
		     char *dst, size_t size, struct protocol_diag *diag);

/* ---- the fast path: one walk per object, paths spelt out only on failure ---- */

/* item is of that cJSON type (cJSON_Number, cJSON_String, ...; NULL is not). */
static inline int json_is(const cJSON *item, int type)
{
	return item && (item->type & 0xFF) == type;
}

/* item is a number written as an integer (json_strict.h: no literal kept)
 * in [min, max]; then *out is it. json_strict_int() without its message. */
static inline int json_number_in(const cJSON *item, long min, long max, long *out)
{
	double d;

	if (!json_is(item, cJSON_Number) || item->valuestring)
		return 0;
	d = item->valuedouble;
	if (!(d >= (double)min && d <= (double)max) || (double)(long)d != d)
		return 0;
	*out = (long)d;
	return 1;
}

/*
 * Where an object sits, for messages: base alone when index < 0 ("", "time.",
 * "move."), else base[index]. ("view.players[2].", "legal[7].").
 */
struct json_path {
	const char *base;
	int index;
};

#define JSON_PATH_MAX 64

/* The prefix p stands for: p->base itself, or written into out. */
const char *json_path_str(const struct json_path *p, char out[JSON_PATH_MAX]);

/*
 * Walks obj's members once: out[k] = the first member named names[k] (as
 * cJSON_GetObjectItemCaseSensitive() would find it), NULL if there is none.
 * Each name is looked for first right after the previous match, so names
 * listed in the order the arena writes them cost one comparison per member.
 */
void json_fields(const cJSON *obj, const char *const *names, int n, const cJSON **out);

/*
 * json_int() and friends for a member item that json_fields() found in obj
 * (NULL when absent), the prefix given as a path. A well-formed value is
 * taken without formatting anything; otherwise the answer, code and message
 * are those of json_int() etc. on obj with the prefix spelt out.
 */
int json_get_int(const cJSON *obj, const cJSON *item, const struct json_path *at,
		 const char *name, long min, long max, int required, long *out,
		 struct protocol_diag *diag);
int json_get_string(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    const char *name, int required, const char **out, struct protocol_diag *diag);
int json_get_bool(const cJSON *obj, const cJSON *item, const struct json_path *at,
		  const char *name, int required, int *out, struct protocol_diag *diag);
int json_get_array(const cJSON *obj, const cJSON *item, const struct json_path *at,
		   const char *name, int required, const cJSON **out, struct protocol_diag *diag);
int json_get_object(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    const char *name, int required, const cJSON **out, struct protocol_diag *diag);

/*
 * The required "from" member (item, found by json_fields() in obj): a
 * SOURCE_* value in *source, or PROTOCOL_EVALUE naming the valid words.
 */
int json_get_source(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    int *source, struct protocol_diag *diag);

/*
 * A move object in the move encoding (PROTOCOL.md "Moves"), at path at
 * ("move.", "legal[3]."). need_card: the "card" of stock and discard plays is
 * required (the arena's legal list) or optional (a bot's answer); *card_given
 * says whether it was there. Hand plays and discards get owner 0: the reader
 * does not know the mover.
 */
int json_move(const cJSON *obj, const struct json_path *at, int need_card, struct move *m,
	      int *card_given, struct protocol_diag *diag);

/*
 * A string from the line, fit to quote in a message: printable ASCII kept,
 * every other byte '?', cut at 32 bytes with "...". Returns out.
 */
#define JSON_SAFE_MAX 36
const char *json_safe(const char *s, char out[JSON_SAFE_MAX]);

/* "number", "string", "array", ... for messages. */
const char *json_type_name(const cJSON *item);

/* The string at key of obj (case-sensitive), or NULL when absent or not a string. */
const char *json_string_at(const cJSON *obj, const char *key);

#endif
