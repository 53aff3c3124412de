/*
 * programs.h - what each bot of a tournament runs, by content, so that a
 * resume never ranks the games of two versions of a bot together.
 *
 * A bot's files are its executable (command[0], resolved to an absolute
 * path) and the first later argument that names an existing regular file,
 * relative to the bot's cwd, outside the tournament's output directory
 * (whose files change game by game): the script an interpreter runs
 * ("python3 bot.py", "node bot.js", "java -jar bot.jar"), or a file a
 * compiled bot is given first. What those programs read besides (modules a
 * script imports, data files) is not covered. Each file is recorded with its
 * SHA-256 (libmd's SHA256File), or null when it cannot be read.
 */
#ifndef SKIPBO_PROGRAMS_H
#define SKIPBO_PROGRAMS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "config.h"

/*
 * The files of one bot, as "programs" lists them: [{"file": ..., "sha256":
 * ...}, ...], a new array; output_dir is the directory whose files are not
 * its script (above). NULL without memory.
 */
cJSON *programs_of_bot(const struct config_bot *b, const char *output_dir);

/*
 * A tournament.json's "programs" for cfg's bots, a new object:
 * {"<bot>": [{"file": "/abs/path", "sha256": "<64 hex digits>"}, ...], ...}.
 * NULL without memory.
 */
cJSON *programs_of_config(const struct config *cfg);

/*
 * Compare the "programs" of a tournament.json read back (was) with those of
 * now. Returns 0 when every bot of now runs the same files with the same
 * contents, or when was records none (written before programs were); 1 when
 * a bot changed, with a sentence in why naming the bot and the file.
 */
int programs_changed(const cJSON *was, const cJSON *now, char *why, size_t size);

#endif
