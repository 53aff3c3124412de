/*
 * submissions.h - the submissions of a hosted competition: DIR/submissions.jsonl,
 * one event a line, appended through the journal (journal.h: flock, a torn last
 * line cut, fsync), and each submission's files under DIR/submissions/ID/. This
 * module is the file's one writer and one reader (arena/HOSTING.md).
 *
 *   {"event": "received", "id": 7, "author": "alice", "bot": "fast",
 *    "sha256": "<64 hex>", "bytes": 1234, "time": "2026-12-07T06:00:00Z"}
 *   {"event": "state", "id": 7, "state": "building", "time": "..."}
 *   {"event": "state", "id": 7, "state": "failed", "stage": "building",
 *    "why": "the build exited with status 2 (build.log)", "time": "..."}
 *   {"event": "state", "id": 7, "state": "entered", "entry": "fast@2", "time": "..."}
 *   {"event": "disable", "id": 7, "why": "...", "time": "..."}
 *
 * States, in order: received -> unpacked -> building -> checking -> entered,
 * or failed at any stage with why. "received" is acknowledged only once
 * the upload is renamed into DIR/submissions/ID/upload and both it and the
 * event are fsync'd: the HTTP answer comes after submissions_receive()
 * returns. Ids count from 1 in the order received and are never reused.
 *
 * A submission's directory: upload (the archive as sent), tree/ (unpacked,
 * then built), build.log, check.log. An author's bot name is owned by the
 * author who first submitted it; another author's submission of that name is
 * refused.
 *
 * A restart (a stop or kill -9 of the host) reads the file back; a
 * submission left in unpacked, building or checking goes back through the
 * pipeline from its start (its tree removed and unpacked again), so work in
 * flight is redone, never lost and never entered twice (the league's add is
 * idempotent: league_entries.h).
 *
 * Limits (host_config.h): per_day submissions per author in any 24 hours,
 * failed ones not counted. A refusal returns -EAGAIN with the seconds until
 * the oldest counted submission leaves the window.
 *
 * Functions return 0 or a negative errno-style code with a sentence in err
 * (what was wrong, where, what to do); they never print or exit. One thread
 * at a time on one struct submissions (the caller's lock).
 */
#ifndef SKIPBO_SUBMISSIONS_H
#define SKIPBO_SUBMISSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SUBMISSIONS_FILE "submissions.jsonl"
#define SUBMISSIONS_DIR "submissions"

enum submission_state {
	SUBMISSION_RECEIVED,
	SUBMISSION_UNPACKED,
	SUBMISSION_BUILDING,
	SUBMISSION_CHECKING,
	SUBMISSION_ENTERED,
	SUBMISSION_FAILED,
};

struct submission {
	uint64_t id;
	char *author, *bot;
	char sha256[65];
	uint64_t bytes;
	enum submission_state state;
	enum submission_state failed_at; /* the stage it failed in (state FAILED): unpacked
					    (the archive or the manifest), building or checking */
	char *why;                       /* why it failed, or why it was disabled; NULL */
	char *entry;                     /* the league entry it became ("fast@2"); NULL */
	bool disabled;                   /* by the organiser */
	time_t received, changed;        /* times of its first and latest events */
	bool taken;                      /* in this process's pipeline now (not in the file) */
};

struct submissions {
	char *dir;
	struct submission *s;
	size_t n, cap;
	uint64_t read_to;                /* bytes of submissions.jsonl read */
};

/* "received", "unpacked", ... ; and back: 0 or -EINVAL. */
const char *submission_state_name(enum submission_state state);
int submission_state_parse(const char *name, enum submission_state *out);

/* Read DIR/submissions.jsonl (none yet: none). Strict: a line that is not an
 * event, or an event out of order, is -EBADMSG naming the file and line. */
int submissions_open(struct submissions *ss, const char *dir, char *err, size_t err_size);
void submissions_release(struct submissions *ss);

/* Read what another process appended since. */
int submissions_refresh(struct submissions *ss, char *err, size_t err_size);

/*
 * Take the upload at upload_path (a file in DIR/incoming/, written and
 * fsync'd by the caller) as author's submission of bot: checks bot's name
 * (names.h), the owner of the name (-EPERM), the per-day limit at now (-EAGAIN,
 * *retry_after seconds); then renames it into DIR/submissions/ID/upload,
 * fsyncs, and appends "received". *id on success. On a refusal the upload is
 * removed.
 */
int submissions_receive(struct submissions *ss, const char *author, const char *bot,
			const char *upload_path, int per_day, time_t now, uint64_t *id,
			long *retry_after, char *err, size_t err_size);

/* Append a state event for submission id (entry for ENTERED, why for FAILED, its stage
 * the state it is in: building, checking, or unpacked for one still received). A state
 * after entered or failed is -EINVAL. */
int submissions_set_state(struct submissions *ss, uint64_t id, enum submission_state state,
			  const char *entry, const char *why, char *err, size_t err_size);

/* The organiser's disable: the submission's entry is retired by the caller. */
int submissions_disable(struct submissions *ss, uint64_t id, const char *why, char *err,
			size_t err_size);

/* The submission with id, or NULL. */
struct submission *submissions_find(const struct submissions *ss, uint64_t id);

/*
 * A restart of the pipeline: every submission the file shows in unpacked,
 * building or checking (a stop or a kill -9 cut it short) gets a "received"
 * state event, so it is taken again from the start. The number of them, or a
 * negative code.
 */
int submissions_restart(struct submissions *ss, char *err, size_t err_size);

/*
 * The next submission the pipeline should take: the oldest received one,
 * not disabled or taken, whose author has no other submission taken or in
 * unpacked, building or checking; or NULL. The pipeline sets its taken. Its position in the queue, 1-based, and why a submission waits
 * ("behind 2 submissions", "alice's submission 4 is building") come from
 * submissions_queue().
 */
struct submission *submissions_next(const struct submissions *ss);
int submissions_queue(const struct submissions *ss, uint64_t id, size_t *position, char *why,
		      size_t why_size);

/* DIR/submissions/ID/NAME into out: 0 or -ENAMETOOLONG. */
int submissions_path(const struct submissions *ss, uint64_t id, const char *name, char *out,
		     size_t size);

#endif
