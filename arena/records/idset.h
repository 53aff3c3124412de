/*
 * idset.h - the record ids a reader has counted, per source file, so that a
 * record whose id came before (a forged or doubled line) is not counted
 * twice.
 *
 * Ids of the arena's own form, "t<table>-d<deal>-r<rotation>", take about a
 * bit each: one bitmap per (source, table) over deal and rotation, so the
 * set stays small beside the report's sums however many records are read.
 * Any other id is kept whole.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_IDSET_H
#define SKIPBO_IDSET_H

struct idset;

/* An empty set in *out: 0 or -ENOMEM. */
int idset_new(struct idset **out);

/* 1 if (source, id) is in the set already, else add it and 0; -ENOMEM. */
int idset_add(struct idset *s, unsigned source, const char *id);

/* NULL is fine. */
void idset_free(struct idset *s);

#endif
