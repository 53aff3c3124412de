/*
 * pipeline.h - a hosted competition's submissions taken from received to
 * entered (arena/HOSTING.md "The pipeline"), in a thread of their own:
 *
 * 1. unpacked: the upload unpacked (unpack.h) into DIR/submissions/ID/tree by
 *    skipbo-unpack, a process of its own with limits (found next to
 *    setup.arena), started like a build (build_sandbox_start: in the sandbox
 *    where one can be made, the upload read-only, at the lowest priority),
 *    refusals failing the submission with the entry and reason; then the
 *    manifest read (manifest.h);
 * 2. building: the manifest's build (manifest.h) run by /bin/sh in the
 *    sandbox (sandbox.h) with the tree as its writable working directory:
 *    no network, no other author's files, caps on wall and CPU time, memory,
 *    processes and the tree's size (host_config.h); at the lowest priority
 *    (SCHED_IDLE), so builds take only the CPU the league's games leave;
 *    output in build.log;
 * 3. checking: `skipbo-arena check` of the built bot, sandboxed, against each
 *    of the league's anchors (check_games games each), its report in
 *    check.log; any fault of the bot fails the submission with the first
 *    fault and its reproduce line; at the host's priority, since its
 *    verdicts on slow moves are taken on the wall clock;
 * 4. entered: league_entries_add() of the bot under its name (NAME, or NAME@K
 *    when NAME is taken: the previous version plays until then).
 *
 * config.builds worker threads each take the next submission
 * (submissions_next) under one lock, so at most that many are in stages 1-3
 * at once, and one per author. pipeline_poke wakes them; they also look
 * every second. Each state change is appended to submissions.jsonl (submissions.h)
 * before the next stage starts, so a page that reads the file sees it live.
 * A submission found in stages 1-3 at start (a stop or a kill -9) is taken
 * again from the start (submissions_restart), unless the league has an entry
 * of its tree already (a stop between the league's add and the "entered"
 * event): then it is marked entered, its tree untouched.
 *
 * A bot name that the league holds for an anchor, a bot of league.jsonc or
 * a `league add` is refused at entering. The builds' sandbox, the check and
 * the league need DIR reachable by the sandbox's uids when the host runs as
 * root (chmod o+x).
 */
#ifndef SKIPBO_PIPELINE_H
#define SKIPBO_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "host_config.h"
#include "sandbox.h"

struct pipeline;

struct pipeline_setup {
	const char *dir;          /* the competition's directory: its league and its submissions */
	const char *arena;        /* the skipbo-arena program to run check with (/proc/self/exe) */
	struct host_config config;
	/* the league's sandbox (sandbox.h): a check plays in the sandbox the league's games will */
	enum sandbox_mode sandbox;
};

/* Start the pipeline's threads. 0 with *out, or a negative errno with err. */
int pipeline_start(const struct pipeline_setup *setup, struct pipeline **out, char *err,
		   size_t err_size);

/* Tell the pipeline that submissions.jsonl has a new submission (wakes it). */
void pipeline_poke(struct pipeline *p);

/* Stop: unpackings, builds and checks in flight are killed (and redone at the next
 * start); waits for the threads. NULL is fine. */
void pipeline_stop(struct pipeline *p);

/*
 * Whether the league entry called entry was entered from a submission in dir
 * whose skipbo.json says "private": true (manifest.h). An entry of no
 * submission (an anchor of league.jsonc) is not; one whose files cannot be
 * read is, so that a fault never sends a bot's files to an untrusted worker.
 */
bool pipeline_entry_private(const char *dir, const char *entry);

#endif
