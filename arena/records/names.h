/*
 * names.h - the names a user gives things the arena keeps in files: bots,
 * tournaments, a league's entries, a hosted competition's accounts. One
 * rule for all of them, because each becomes part of a file name
 * (logs/<bot>.stderr, results/<name>/) or a record's field.
 */
#ifndef SKIPBO_NAMES_H
#define SKIPBO_NAMES_H

#include <stddef.h>

/* The longest name, in bytes (a UTF-8 letter takes 2 to 4). */
#define NAMES_LEN_MAX 64

/* The rule in words, for messages. */
#define NAMES_RULE "1 to 64 bytes of letters (UTF-8 too), digits, '-', '_' or '.', not starting with '.'"

/* 1 when s is a name: NAMES_RULE. A letter beyond ASCII is a well-formed UTF-8
 * code point from U+00C0 on, less what could hide or reorder text on a
 * terminal (spaces, joiners, direction marks, variation selectors, ...). */
int names_valid(const char *s);

/*
 * The length of the UTF-8 letter that s starts with, within avail bytes, or 0
 * when it is none (names_valid's letters beyond ASCII). Readers of names in
 * records take a name's bytes as printable ASCII or such letters.
 */
size_t names_utf8_letter(const char *s, size_t avail);

#endif
