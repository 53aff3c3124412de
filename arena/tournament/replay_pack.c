/*
 * replay_pack.c - replays appended to packs, synced in groups (contract in
 * replay_pack.h).
 */
#include "replay_pack.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"

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
	free(p->pending);
	p->pending = NULL;
	p->npending = p->cap = 0;
	p->fd = -1;
}

/* A new pack with a name no other worker, run or shard takes (64 random bits). */
static int open_pack(struct replay_pack *p)
{
	char path[PATH_MAX];
	uint64_t token;

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
	p->written = 0;
	return 0;
}

int replay_pack_sync(struct replay_pack *p)
{
	char path[PATH_MAX];
	size_t done = 0;

	if (p->fd < 0)
		return 0;
	while (done < p->npending) {
		ssize_t n = write(p->fd, p->pending + done, p->npending - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	p->written += p->npending;
	p->npending = 0;
	if (fdatasync(p->fd) < 0)
		return -errno;
	if (p->new_entry) {
		snprintf(path, sizeof(path), "%s/%s", p->dir, p->name);
		int ret = durable_sync_parent(path);

		if (ret < 0)
			return ret;
		p->new_entry = 0;
	}
	return 0;
}

int replay_pack_add(struct replay_pack *p, const char *frame, size_t len,
		    struct replay_location *at)
{
	int ret;

	if (p->fd >= 0 && p->written + p->npending >= p->max_bytes) {
		if ((ret = replay_pack_sync(p)) < 0)
			return ret;
		close(p->fd);
		p->fd = -1;
	}
	if (p->fd < 0 && (ret = open_pack(p)) < 0)
		return ret;
	if (p->npending + len > p->cap) {
		size_t cap = p->cap ? p->cap : 1 << 16;
		char *grown;

		while (cap < p->npending + len)
			cap *= 2;
		if (!(grown = realloc(p->pending, cap)))
			return -ENOMEM;
		p->pending = grown;
		p->cap = cap;
	}
	memcpy(p->pending + p->npending, frame, len);
	strlcpy(at->file, p->name, sizeof(at->file));
	at->offset = p->written + p->npending;
	at->bytes = len;
	p->npending += len;
	return 0;
}
