/*
 * record_internal.h - what record.c, record_fast.c and record_strict.c share;
 * not for other modules.
 */
#ifndef SKIPBO_RECORD_INTERNAL_H
#define SKIPBO_RECORD_INTERNAL_H

#include "record.h"

/*
 * The strict reader: the line parsed into rd->root (from rd->pool), then
 * checked at level. 0, -EBADMSG with rd->why, or -ENOMEM.
 */
int record_parse_strict(struct record_reader *rd, const char *line, size_t len,
			enum record_level level, struct record *rec);

/*
 * The fast path: the arena's own layout (record_format()) only, every
 * RECORD_FULL check applied. 0 with *rec filled, or -1 when the line is
 * anything else (the strict reader then decides), or -ENOMEM.
 */
int record_parse_fast(struct record_reader *rd, const char *line, size_t len, struct record *rec);

/* Room for n faults in rd->faults. 0 or -ENOMEM. */
int record_reserve_faults(struct record_reader *rd, size_t n);

/* A bot name is printed on terminals and in reports: 1 to RECORD_NAME_MAX bytes of printable
 * ASCII or UTF-8 letters (names.h). */
bool record_printable_name(const char *s, size_t len);

#endif
