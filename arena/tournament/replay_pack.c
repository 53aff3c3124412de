/*
 * replay_pack.c - replays appended to packs, a zstd frame a batch (contract
 * in replay_pack.h).
 */
#include "replay_pack.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "durable.h"

/* Level 3 (zstd's default); a 128 KiB window holds the dozens of games before one at
 * stock 1, and keeps the memory small. */
#define PACK_ZSTD_LEVEL 3
#define PACK_ZSTD_WINDOW_LOG 17

void replay_pack_init(struct replay_pack *p, const char *dir)
{
	memset(p, 0, sizeof(*p));
	p->dir = dir;
	p->fd = -1;
	p->max_bytes = REPLAY_PACK_MAX;
}

void replay_pack_release(struct replay_pack *p)
{
	if (p->fd >= 0)
		close(p->fd);
	ZSTD_freeCCtx(p->zstd);
	free(p->pending.data);
	free(p->sealed.data);
	replay_pack_init(p, p->dir);
}

int replay_pack_needs_open(const struct replay_pack *p)
{
	return p->fd < 0 || p->end >= p->max_bytes;
}

/* A new pack with a name no other worker, run or shard takes (64 random bits). */
static int open_pack(struct replay_pack *p)
{
	char path[PATH_MAX];
	uint64_t token;

	if (p->lines || p->sealed.len)
		return -EBUSY; /* the old pack's documents are not written yet */
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	do {
		arc4random_buf(&token, sizeof(token));
		snprintf(p->name, sizeof(p->name), "replays/%016llx.jsonl.zst",
			 (unsigned long long)token);
		if (snprintf(path, sizeof(path), "%s/%s", p->dir, p->name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		p->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	} while (p->fd < 0 && errno == EEXIST);
	if (p->fd < 0)
		return -errno;
	p->new_entry = 1;
	p->end = 0;
	return 0;
}

/* Room for n more bytes in b. */
static int reserve(struct replay_batch *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 1 << 16;
	char *grown;

	while (cap < b->len + n)
		cap *= 2;
	if (cap == b->cap)
		return 0;
	if (!(grown = realloc(b->data, cap)))
		return -ENOMEM;
	b->data = grown;
	b->cap = cap;
	return 0;
}

/* Run the stream over in (NULL: end the frame) into the pending batch. */
static int compress(struct replay_pack *p, const char *in, size_t len)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	ZSTD_EndDirective how = in ? ZSTD_e_continue : ZSTD_e_end;
	size_t left;

	do {
		if (reserve(&p->pending, ZSTD_CStreamOutSize()) < 0)
			return -ENOMEM;
		ZSTD_outBuffer ob = { p->pending.data + p->pending.len,
				      p->pending.cap - p->pending.len, 0 };

		left = ZSTD_compressStream2(p->zstd, &ob, &ib, how);
		if (ZSTD_isError(left))
			return -EIO;
		p->pending.len += ob.pos;
	} while (in ? ib.pos < ib.size : left != 0);
	return 0;
}

int replay_pack_add(struct replay_pack *p, const char *doc, size_t len,
		    struct replay_location *at)
{
	int ret;

	if (replay_pack_needs_open(p) && (ret = open_pack(p)) < 0)
		return ret;
	if (!p->zstd) {
		if (!(p->zstd = ZSTD_createCCtx()))
			return -ENOMEM;
		ZSTD_CCtx_setParameter(p->zstd, ZSTD_c_compressionLevel, PACK_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(p->zstd, ZSTD_c_windowLog, PACK_ZSTD_WINDOW_LOG);
	}
	if ((ret = compress(p, doc, len)) < 0)
		return ret;
	strlcpy(at->file, p->name, sizeof(at->file));
	at->offset = p->end;
	at->line = p->lines++;
	return 0;
}

int replay_pack_seal(struct replay_pack *p)
{
	struct replay_batch empty = p->sealed;
	int ret;

	if (!p->lines)
		return 0;
	if ((ret = compress(p, NULL, 0)) < 0)
		return ret;
	p->end += p->pending.len;
	p->lines = 0;
	p->sealed = p->pending;
	p->pending = empty;
	p->pending.len = 0;
	return 0;
}

int replay_pack_sync(struct replay_pack *p)
{
	struct replay_batch *b = &p->sealed;
	char path[PATH_MAX];
	size_t done = 0;
	int ret;

	if (!b->len)
		return 0;
	while (done < b->len) {
		ssize_t n = write(p->fd, b->data + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	b->len = 0;
	if (fdatasync(p->fd) < 0)
		return -errno;
	if (p->new_entry) {
		snprintf(path, sizeof(path), "%s/%s", p->dir, p->name);
		if ((ret = durable_sync_parent(path)) < 0)
			return ret;
		p->new_entry = 0;
	}
	return 0;
}
