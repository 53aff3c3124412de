/*
 * reaper.h - the arena as the parent of last resort of everything its bots
 * leave behind.
 *
 * After reaper_start() the arena is a child subreaper
 * (PR_SET_CHILD_SUBREAPER): a process a bot orphans - a double fork, a
 * daemon after setsid() - is re-parented to the arena rather than to the
 * machine's init. A thread then reaps every child of the arena that is not a
 * live bot process as soon as it exits (SIGCHLD, with a check every second
 * in case a signal is lost), so no zombie piles up however many a bot makes.
 * A live bot process is left alone: bot_exited() and bot_stop() need its
 * exit status, and its zombie keeps its pid, which is its process group id,
 * from being reused before bot_stop() has killed the group.
 *
 * What the program must know:
 * - reaper_start() blocks SIGCHLD in the calling thread: call it in main
 *   before any thread starts, so that every thread inherits the mask.
 * - Children are started with bot_start(), or registered as a bot's are
 *   (reaper_hold, start, reaper_track, reaper_release; reaper_forget once
 *   waited for): any other child would be reaped as an orphan the moment
 *   it exits, its exit status lost.
 * - Without reaper_start() (a test program, say) nothing changes but that
 *   reaper_kill_orphans() does nothing.
 */
#ifndef SKIPBO_REAPER_H
#define SKIPBO_REAPER_H

#include <sys/types.h>

/* Become a child subreaper and start the reaping thread. 0 or -errno. */
int reaper_start(void);

/*
 * Kill (SIGKILL) every child of the arena that is not a live bot process and
 * reap it, round after round (killing a process orphans its own children to
 * the arena), until none is left or timeout_ms have passed.
 */
void reaper_kill_orphans(int timeout_ms);

/*
 * For bot_spawn.c and any other starter of children: reaper_hold() before fork or clone and reaper_release() after
 * reaper_track(), so the thread never takes a bot for an orphan; then
 * reaper_forget() once bot_stop() has reaped it. reaper_track() returns 0 or
 * -ENOMEM.
 */
void reaper_hold(void);
int reaper_track(pid_t pid);
void reaper_release(void);
void reaper_forget(pid_t pid);

#endif
