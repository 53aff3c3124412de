/*
 * attack.h - what the attack bots share: a bot that plays legal moves (the
 * first of "legal", as badbot good does) and tries one attack on the arena,
 * its opponents or the machine, and helpers to find and reach processes.
 *
 * usage: attack_NAME TOKEN [ARG...]
 *
 * TOKEN is a string the test chose: every process an attack bot starts
 * carries it in its command line, so the test can find whatever survives.
 * Each program defines attack_main(), run once when the first request has
 * arrived (a game is on: the arena and an opponent are at work), and reports
 * on stderr, which the arena copies into the bot's log:
 *
 *   ATTACK <name>: blocked: <what stopped it>
 *   ATTACK <name>: SUCCEEDED: <what it got>
 *
 * Then the bot goes on playing, so a failed attack costs it nothing. A test
 * passes when the line says "blocked" - and the effect it can see for itself
 * (records, processes, files) says the same.
 */
#ifndef SKIPBO_ATTACK_H
#define SKIPBO_ATTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cJSON;

/* The program's attack; argv as given to main (argv[1] the token). */
void attack_main(int argc, char **argv);

/*
 * Every message the arena sends (hello, game_start, request, game_end), before
 * the bot answers it, and for the first request after attack_main: for an
 * attack that follows the game. The program may define it; by default it
 * does nothing. msg belongs to the caller.
 */
void attack_message(const struct cJSON *msg);

/* The token (argv[1]). */
extern const char *attack_token;

/* Write the report line on stderr. */
void attack_report(const char *name, bool succeeded, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Processes visible in /proc, other than this one, whose program's name
 * (argv[0] without its directory) holds marker: up to max pids into out.
 * Returns how many. (The whole command line would also match bwrap's init,
 * whose arguments name the bot.)
 */
size_t attack_find(const char *marker, pid_t *out, size_t max);

/* The arena as the attacker sees it: its parent if that is skipbo-arena, else by name. 0 if none. */
pid_t attack_find_arena(void);

/* Read some bytes of pid's memory through /proc/pid/mem: bytes read, or -errno. */
long attack_read_memory(pid_t pid);

/* Sleep ms milliseconds. */
void attack_sleep_ms(long ms);

#endif
