/*
 * work_sender.c - a lease's results sent while it is played (contract in
 * work_sender.h).
 */
#include "work_sender.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "record.h"
#include "replay_file.h"
#include "replay_pack.h"
#include "tournament.h"

/* Times the last batch is posted before its games are given up. */
#define WORK_SEND_TRIES 5

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Where the replay of the record just parsed is: 0, or -ENOENT when it has none. */
static int replay_of(struct record_reader *rd, const struct record *rec, const char *line,
		     size_t len, const char **file, uint64_t *offset, uint64_t *at)
{
	const cJSON *tree;

	if (rec->replay_known) {
		if (!rec->replay || !rec->has_replay_at)
			return -ENOENT;
		*file = rec->replay;
		*offset = rec->replay_offset;
		*at = rec->replay_line;
		return 0;
	}
	if (!(tree = record_tree(rd, line, len)))
		return -ENOMEM;
	*file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tree, "replay"));
	*offset = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tree,
										   "replay_offset"));
	*at = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tree,
									       "replay_line"));
	return *file && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(tree, "replay_offset")) ?
	       0 : -ENOENT;
}

/*
 * The records after s->offset (WORK_SEND_GAMES at most, whole lines only)
 * onto records, their replays (a line each) onto replays; their number in *n
 * and the offset past them in *end. 0, or a negative errno with err.
 */
static int read_games(struct work_sender *s, FILE *records, FILE *replays, int *n,
		      uint64_t *end, char *err, size_t err_size)
{
	struct record_reader rd;
	struct replay_reader rr;
	char path[PATH_MAX], *line = NULL, *doc = NULL;
	size_t cap = 0, dlen;
	ssize_t len;
	FILE *f;
	int ret = 0;

	*n = 0;
	*end = s->offset;
	snprintf(path, sizeof(path), "%s/games.jsonl", s->dir);
	if (!(f = fopen(path, "re")))
		return errno == ENOENT ? 0 : -errno;
	record_reader_init(&rd);
	replay_reader_init(&rr);
	if (fseeko(f, (off_t)s->offset, SEEK_SET) < 0) {
		ret = -errno;
		goto out;
	}
	while (*n < WORK_SEND_GAMES && (len = getline(&line, &cap, f)) > 0 &&
	       line[len - 1] == '\n') {
		struct record rec;
		const char *file;
		uint64_t offset, at;

		if ((ret = record_parse(&rd, line, (size_t)len - 1, RECORD_KEYS, &rec)) < 0 ||
		    (ret = replay_of(&rd, &rec, line, (size_t)len - 1, &file, &offset, &at)) < 0) {
			snprintf(err, err_size, "%s: a record without its replay: %s", path,
				 ret == -EBADMSG ? rd.why : strerror(-ret));
			goto out;
		}
		snprintf(path, sizeof(path), "%s/%s", s->dir, file);
		if (!(doc = replay_reader_get(&rr, path, offset, at, &dlen))) {
			ret = -errno;
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
			goto out;
		}
		fwrite(line, 1, (size_t)len, records);
		fwrite(doc, 1, dlen, replays);
		free(doc);
		doc = NULL;
		*end += (uint64_t)len;
		(*n)++;
		snprintf(path, sizeof(path), "%s/games.jsonl", s->dir);
	}
out:
	free(line);
	record_reader_release(&rd);
	replay_reader_release(&rr);
	fclose(f);
	return ret;
}

/* The host's answer to a batch: its expiry, and what it refused said on the log. */
static void take_answer(struct work_sender *s, const struct work_answer *a)
{
	cJSON *doc = cJSON_ParseWithLengthOpts(a->body, a->len + 1, NULL, 1), *r;
	double expires = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc,
										"expires_in"));

	if (expires >= 1 && expires <= 86400)
		s->expires_in = (unsigned)expires;
	s->accepted += (uint64_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc,
										       "accepted"));
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "rejected")) {
		const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "id"));
		const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "why"));

		s->rejected++;
		fprintf(s->log, "work: lease %s: the host refused game %s: %s\n", s->lease->id,
			id ? id : "?", why ? why : "no reason given");
	}
	cJSON_Delete(doc);
}

/* Post one batch (the next games, or none): 1 posted with games left to read,
 * 0 posted, -ESTALE dropped, -EIO not posted. */
static int post_batch(struct work_sender *s, bool last)
{
	struct work_answer a;
	char err[PATH_MAX + 256], head[96], *games = NULL, *docs = NULL, *frame = NULL;
	char *body = NULL, path[LEASE_ID_MAX + 64];
	size_t glen = 0, dlen = 0, flen = 0, hlen;
	uint64_t end;
	FILE *m = open_memstream(&games, &glen), *r = open_memstream(&docs, &dlen);
	int n = 0, ret;

	ret = m && r ? read_games(s, m, r, &n, &end, err, sizeof(err)) : -ENOMEM;
	if (m)
		fclose(m);
	if (r)
		fclose(r);
	/* the replays as one frame of the host's packs, which it appends as it is */
	if (ret == 0 && n && (ret = replay_pack_frame(docs, dlen, &frame, &flen)) < 0)
		snprintf(err, sizeof(err), "the replays compressed: %s", strerror(-ret));
	free(docs);
	if (ret < 0) {
		fprintf(s->log, "work: lease %s: %s\n", s->lease->id, err);
		free(games);
		free(frame);
		return -EIO;
	}
	/* the last batch says done only once nothing is left behind it */
	hlen = (size_t)snprintf(head, sizeof(head),
				"{\"done\": %s, \"games\": %d, \"replays\": %zu}\n",
				last && n < WORK_SEND_GAMES ? "true" : "false", n, flen);
	if (!(body = malloc(hlen + glen + flen + 1))) {
		free(games);
		free(frame);
		return -EIO;
	}
	memcpy(body, head, hlen);
	memcpy(body + hlen, games ? games : "", glen);
	memcpy(body + hlen + glen, frame ? frame : "", flen);
	free(games);
	free(frame);
	snprintf(path, sizeof(path), "api/work/leases/%s/results", s->lease->id);
	ret = work_http_request(&s->http, "POST", path, "application/octet-stream", body,
				hlen + glen + flen, WORK_HTTP_ANSWER_MAX, &a, err, sizeof(err));
	free(body);
	if (ret < 0) {
		fprintf(s->log, "work: lease %s: results not sent, sent again later: %s\n",
			s->lease->id, err);
		return -EIO;
	}
	/* 404: the host knows no such lease of this worker (it lost it): ended as well */
	if (a.status == 409 || a.status == 404) {
		work_answer_reason(&a, err, sizeof(err));
		fprintf(s->log, "work: lease %s ended on the host (%s): dropped\n", s->lease->id,
			err);
		work_answer_release(&a);
		return -ESTALE;
	}
	if (a.status != 200) {
		work_answer_reason(&a, err, sizeof(err));
		fprintf(s->log, "work: lease %s: results refused (HTTP %ld), sent again later: "
			"%s\n", s->lease->id, a.status, err);
		work_answer_release(&a);
		return -EIO;
	}
	take_answer(s, &a);
	work_answer_release(&a);
	pthread_mutex_lock(&s->lock);
	s->offset = end;
	s->sent += (uint64_t)n;
	pthread_mutex_unlock(&s->lock);
	return n == WORK_SEND_GAMES ? 1 : 0;
}

static void *sender_main(void *arg)
{
	struct work_sender *s = arg;
	uint64_t last_post = now_ms();
	int tries = 0;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		uint64_t heartbeat = (uint64_t)s->expires_in * 1000 / 3, due, t = now_ms();
		bool finishing = s->finishing, done = s->done, games = s->counted > s->sent;
		struct timespec until;
		int ret;

		due = last_post + (games ? WORK_SEND_MS : heartbeat);
		if (!finishing && t < due && s->counted - s->sent < WORK_SEND_GAMES) {
			clock_gettime(CLOCK_MONOTONIC, &until);
			t = due - t < WORK_SEND_MS ? due - t : WORK_SEND_MS;
			until.tv_sec += (time_t)(t / 1000);
			until.tv_nsec += (long)(t % 1000) * 1000000;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->wake, &s->lock, &until);
			continue;
		}
		pthread_mutex_unlock(&s->lock);
		/* everything there is, batch after batch; the last one says done */
		while ((ret = post_batch(s, finishing && done)) == 1)
			;
		last_post = now_ms();
		pthread_mutex_lock(&s->lock);
		s->failed = ret == -EIO;
		if (ret == -ESTALE) {
			s->dropped = true;
			tournament_request_stop();
			break;
		}
		/* the last games are tried a few times more before they are given up */
		if (finishing && (ret == 0 || ++tries > WORK_SEND_TRIES))
			break;
		if (finishing) {
			pthread_mutex_unlock(&s->lock);
			sleep(WORK_SEND_MS / 1000);
			pthread_mutex_lock(&s->lock);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int work_sender_start(struct work_sender *s, const struct lease *l, const char *dir,
		      const char *url, const char *token, const char *cacert, FILE *log,
		      char *err, size_t err_size)
{
	pthread_condattr_t attr;
	int ret;

	memset(s, 0, sizeof(*s));
	s->lease = l;
	s->dir = dir;
	s->log = log;
	s->expires_in = l->expires_in;
	if ((ret = work_http_init(&s->http, url, token, cacert, err, err_size)) < 0)
		return ret;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if ((ret = pthread_create(&s->thread, NULL, sender_main, s)) != 0) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
		work_http_release(&s->http);
		snprintf(err, err_size, "the sender's thread: %s", strerror(ret));
		return -ret;
	}
	return 0;
}

void work_sender_counted(struct work_sender *s)
{
	pthread_mutex_lock(&s->lock);
	if (++s->counted - s->sent >= WORK_SEND_GAMES)
		pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

int work_sender_finish(struct work_sender *s, bool done)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	s->finishing = true;
	s->done = done;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	ret = s->dropped ? -ESTALE : s->failed ? 0 : 1;
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	work_http_release(&s->http);
	return ret;
}
