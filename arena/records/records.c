/*
 * records.c - games.jsonl read line by line (contract in records.h).
 */
#include "records.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read a block at a time; a line longer than a block grows the buffer. */
#define BLOCK (1 << 20)

struct block_reader {
	int fd;
	char *buf;
	size_t cap, start, end; /* buf[start..end) is read and not yet handed over */
	int eof;
};

/* More bytes after what is in the buffer: 0, or a negative errno. */
static int fill(struct block_reader *b)
{
	ssize_t n;

	if (b->start > 0) {
		memmove(b->buf, b->buf + b->start, b->end - b->start);
		b->end -= b->start;
		b->start = 0;
	}
	if (b->end == b->cap) {
		char *grown = realloc(b->buf, 2 * b->cap);

		if (!grown)
			return -ENOMEM;
		b->buf = grown;
		b->cap *= 2;
	}
	do
		n = read(b->fd, b->buf + b->end, b->cap - b->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	b->eof = n == 0;
	b->end += (size_t)n;
	return 0;
}

int records_read_lines(const char *path, int (*fn)(void *ctx, const struct records_line *line),
		       void *ctx, const volatile sig_atomic_t *stop, struct records_counts *counts)
{
	struct block_reader b = { .cap = BLOCK };
	struct records_counts n = { 0 };
	struct records_line line = { 0 };
	int rc = 0;

	if ((b.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (!(b.buf = malloc(b.cap))) {
		close(b.fd);
		return -ENOMEM;
	}
	while (rc == 0) {
		char *nl = memchr(b.buf + b.start, '\n', b.end - b.start);

		if (!nl) {
			if (b.eof) {
				/* a record still being written: a later read will see it whole */
				n.torn = b.end > b.start;
				break;
			}
			rc = fill(&b);
			continue;
		}
		if (stop && *stop) {
			rc = -EINTR;
			break;
		}
		line.text = b.buf + b.start;
		line.len = (size_t)(nl - line.text);
		line.lineno++;
		n.lines++;
		rc = fn(ctx, &line);
		line.offset += line.len + 1;
		b.start += line.len + 1;
	}
	free(b.buf);
	close(b.fd);
	if (counts)
		*counts = n;
	return rc;
}

struct scan {
	int (*fn)(void *ctx, const struct results_record *rec);
	void *ctx;
	struct record_reader rd;
	char why[JSON_STRICT_MESSAGE_MAX + 32];
	size_t lineno; /* of the line that stopped the scan */
};

static int scan_line(void *ctx, const struct records_line *line)
{
	struct scan *s = ctx;
	struct record r;
	struct results_record rec = { .record = &r, .reader = &s->rd, .line = line->text,
				      .offset = line->offset, .length = line->len + 1 };
	int ret = record_parse(&s->rd, line->text, line->len, RECORD_KEYS, &r);

	if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "%s", ret == -ENOMEM ? strerror(ENOMEM) : s->rd.why);
	} else {
		rec.id = r.id;
		rec.players = r.players;
		memcpy(rec.placings, r.placings, sizeof(rec.placings));
		if ((ret = s->fn(s->ctx, &rec)) < 0)
			snprintf(s->why, sizeof(s->why), "%s", strerror(-ret));
	}
	if (ret < 0)
		s->lineno = line->lineno;
	return ret;
}

int records_scan_dir(const char *dir, int (*fn)(void *ctx, const struct results_record *rec),
		     void *ctx, char *err, size_t err_size)
{
	struct scan s = { .fn = fn, .ctx = ctx };
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	record_reader_init(&s.rd);
	ret = records_read_lines(path, scan_line, &s, NULL, NULL);
	if (ret < 0 && s.lineno)
		snprintf(err, err_size, "\"%s\", line %zu: %s", path, s.lineno, s.why);
	else if (ret < 0)
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	record_reader_release(&s.rd);
	return ret;
}
