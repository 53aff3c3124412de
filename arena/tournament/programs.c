/*
 * programs.c - the files each bot runs and their SHA-256 (contract in programs.h).
 */
#include "programs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sha2.h>

#include "termsafe.h"

/* Whether path lies in directory dir (a real path, "" for none). */
static int is_inside(const char *path, const char *dir)
{
	char real[PATH_MAX];
	size_t n = strlen(dir);

	return n && realpath(path, real) && strncmp(real, dir, n) == 0 && real[n] == '/';
}

/*
 * The bot's script into path: the first argument after command[0] naming a
 * regular file outside the output directory out (a real path, "" while it
 * does not exist): a file the arena writes there, games.jsonl given to a bot
 * to read, changes with every game. 1, or 0 for none.
 */
static int find_script(const struct config_bot *b, const char *out, char *path, size_t size)
{
	struct stat st;

	for (size_t k = 1; b->argv[k]; k++) {
		int n = b->argv[k][0] == '/' ? snprintf(path, size, "%s", b->argv[k]) :
			snprintf(path, size, "%s/%s", b->cwd, b->argv[k]);

		if (n > 0 && (size_t)n < size && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    !is_inside(path, out))
			return 1;
	}
	return 0;
}

static int add_file(cJSON *files, const char *path)
{
	char hex[SHA256_DIGEST_STRING_LENGTH];
	cJSON *f = cJSON_CreateObject();

	if (!f || !cJSON_AddItemToArray(files, f) || !cJSON_AddStringToObject(f, "file", path))
		return -1;
	if (SHA256File(path, hex))
		return cJSON_AddStringToObject(f, "sha256", hex) ? 0 : -1;
	return cJSON_AddNullToObject(f, "sha256") ? 0 : -1;
}

cJSON *programs_of_bot(const struct config_bot *b, const char *output_dir)
{
	char script[PATH_MAX], output[PATH_MAX] = "";
	cJSON *files = cJSON_CreateArray();

	if (!realpath(output_dir, output))
		output[0] = '\0';
	if (!files || add_file(files, b->argv[0]) < 0 ||
	    (find_script(b, output, script, sizeof(script)) && add_file(files, script) < 0)) {
		cJSON_Delete(files);
		return NULL;
	}
	return files;
}

cJSON *programs_of_config(const struct config *cfg)
{
	cJSON *programs = cJSON_CreateObject();

	for (size_t i = 0; programs && i < cfg->nbots; i++) {
		cJSON *files = programs_of_bot(&cfg->bots[i], cfg->output);

		if (!files || !cJSON_AddItemToObject(programs, cfg->bots[i].name, files)) {
			cJSON_Delete(files);
			cJSON_Delete(programs);
			return NULL;
		}
	}
	return programs;
}

static const char *string_of(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "abcdef012345" for a digest, "unreadable" for none. */
static const char *short_hash(const char *hex, char *buf, size_t size)
{
	snprintf(buf, size, "%.12s", hex ? hex : "unreadable");
	return buf;
}

int programs_changed(const cJSON *was, const cJSON *now, char *why, size_t size)
{
	const cJSON *old_all = cJSON_GetObjectItemCaseSensitive(was, "programs");
	const cJSON *new_all = cJSON_GetObjectItemCaseSensitive(now, "programs"), *bot;
	char a[16], b[16];

	if (!cJSON_IsObject(old_all))
		return 0;
	cJSON_ArrayForEach(bot, new_all) {
		const cJSON *old = cJSON_GetObjectItemCaseSensitive(old_all, bot->string), *f;
		int i = 0;

		if (cJSON_GetArraySize(old) != cJSON_GetArraySize(bot)) {
			snprintf(why, size, "bot \"%s\" runs other files than its recorded games did "
				 "(%d then, %d now)", bot->string, cJSON_GetArraySize(old),
				 cJSON_GetArraySize(bot));
			return 1;
		}
		cJSON_ArrayForEach(f, bot) {
			const cJSON *o = cJSON_GetArrayItem(old, i++);
			const char *path = string_of(f, "file"), *h1 = string_of(o, "sha256");
			const char *h2 = string_of(f, "sha256");
			char shown[PATH_MAX], then[PATH_MAX];

			if (!path || !string_of(o, "file") || strcmp(path, string_of(o, "file"))) {
				snprintf(why, size, "bot \"%s\" runs \"%s\", its recorded games ran "
					 "\"%s\"", bot->string,
					 termsafe_copy(shown, sizeof(shown), path ? path : "?"),
					 termsafe_copy(then, sizeof(then), string_of(o, "file") ?
						       string_of(o, "file") : "?"));
				return 1;
			}
			if ((h1 || h2) && (!h1 || !h2 || strcmp(h1, h2))) {
				snprintf(why, size, "bot \"%s\" changed since its recorded games: \"%s\" "
					 "has SHA-256 %s... now, %s... then", bot->string,
					 termsafe_copy(shown, sizeof(shown), path),
					 short_hash(h2, a, sizeof(a)), short_hash(h1, b, sizeof(b)));
				return 1;
			}
		}
	}
	return 0;
}
