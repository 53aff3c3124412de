/*
 * manifest.c - how a submitted bot is built and run (contract in manifest.h).
 *
 * The kits' defaults are those of their READMEs under bots/starter/, made
 * to build inside the tree: every product stays in it (bot, classes/,
 * target/), so a build can see and write nothing else. Toolchain settings
 * that only the pipeline knows (the C libraries' flags, the caches under
 * /tmp) come in the build's environment (arena/HOSTING.md, "Manifest").
 */
#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "json_strict.h"
#include "jsonc.h"

#define MANIFEST_BYTES_MAX (64 * 1024)
#define BUILD_LINE_MAX 4096
#define RUN_ARGS_MAX 64

const char *const manifest_languages[] = { "c", "cpp", "go", "java", "javascript", "python",
					   "rust", NULL };

struct kit {
	const char *language;
	const char *file;  /* the file it is recognised by */
	const char *build; /* NULL: nothing to build */
	const char *run[10];
};

/* In the order of recognition (manifest.h). Rust's run is read from Cargo.toml. */
static const struct kit kits[] = {
	{ "python", "bot.py", NULL, { "python3", "bot.py" } },
	{ "javascript", "bot.js", NULL, { "node", "bot.js" } },
	{ "c", "bot.c", "cc -std=c11 -O2 $CFLAGS bot.c $LDLIBS -o bot", { "./bot" } },
	{ "cpp", "bot.cpp", "g++ -std=c++17 -O2 bot.cpp -o bot", { "./bot" } },
	{ "go", "go.mod", "go build -o bot .", { "./bot" } },
	{ "java", "Bot.java", "javac -d classes Bot.java",
	  { "java", "-Xmx256m", "-XX:CompressedClassSpaceSize=64m",
	    "-XX:ReservedCodeCacheSize=64m", "-XX:+UseSerialGC", "-cp", "classes", "Bot" } },
	{ "rust", "Cargo.toml", "cargo build --release --offline", { NULL } },
};

#define NKITS (sizeof(kits) / sizeof(kits[0]))

/* Directories whose programs a "run" may name by an absolute path (the sandbox shows them). */
static const char *const system_dirs[] = { "/usr/", "/bin/", NULL };

void manifest_release(struct manifest *m)
{
	free(m->language);
	free(m->build);
	for (size_t i = 0; m->run && m->run[i]; i++)
		free(m->run[i]);
	free(m->run);
	memset(m, 0, sizeof(*m));
}

static const struct kit *kit_named(const char *language)
{
	for (size_t i = 0; i < NKITS; i++)
		if (strcmp(kits[i].language, language) == 0)
			return &kits[i];
	return NULL;
}

/* A copy of argv (count n, or NULL-terminated when n is 0) into m->run. */
static int set_run(struct manifest *m, const char *const *argv, size_t n)
{
	if (!n)
		while (argv[n])
			n++;
	if (!(m->run = calloc(n + 1, sizeof(*m->run))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(m->run[i] = strdup(argv[i])))
			return -ENOMEM;
	return 0;
}

/* The whole of tree/name (a regular file, not a link, at most max bytes) into *text. */
static int read_small(const char *tree, const char *name, size_t max, char **text, size_t *len)
{
	char path[4096];
	struct stat st;
	ssize_t got;
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", tree, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)) < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		ret = -EINVAL;
		goto out;
	}
	if (!(*text = malloc((size_t)st.st_size + 1))) {
		ret = -ENOMEM;
		goto out;
	}
	got = read(fd, *text, (size_t)st.st_size);
	if (got != st.st_size) {
		free(*text);
		*text = NULL;
		ret = -EIO;
		goto out;
	}
	(*text)[got] = '\0';
	*len = (size_t)got;
out:
	close(fd);
	return ret;
}

/* Rust's program: target/release/NAME, NAME read from [package] of Cargo.toml. */
static int rust_run(const char *tree, struct manifest *m, char *err, size_t err_size)
{
	char *text = NULL, *line, *save = NULL, name[128] = "", program[160];
	bool in_package = false;
	const char *argv[2] = { program, NULL };
	size_t len;
	int ret = read_small(tree, "Cargo.toml", MANIFEST_BYTES_MAX, &text, &len);

	if (ret < 0) {
		snprintf(err, err_size, "Cargo.toml: cannot be read (%s)", strerror(-ret));
		return ret;
	}
	for (line = strtok_r(text, "\n", &save); line && !name[0]; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (line[0] == '[')
			in_package = strncmp(line, "[package]", 9) == 0;
		else if (in_package && sscanf(line, "name = \"%127[A-Za-z0-9_-]\"", name) != 1)
			name[0] = '\0';
	}
	free(text);
	if (!name[0]) {
		snprintf(err, err_size, "Cargo.toml: no name = \"...\" of letters, digits, '-' and "
			 "'_' under [package]: name the package there, or add a skipbo.json with "
			 "\"run\" (arena/HOSTING.md, \"Manifest\")");
		return -EINVAL;
	}
	snprintf(program, sizeof(program), "./target/release/%s", name);
	return set_run(m, argv, 0);
}

/* The defaults of kit into m; the caller's manifest may override them. */
static int kit_defaults(const char *tree, const struct kit *kit, struct manifest *m, char *err,
			size_t err_size)
{
	if (!(m->language = strdup(kit->language)) || (kit->build && !(m->build = strdup(kit->build))))
		return -ENOMEM;
	if (kit->run[0])
		return set_run(m, kit->run, 0);
	return rust_run(tree, m, err, err_size);
}

/* NULL when arg stays in the tree (or names a system program, for the program); else why. */
static const char *leaves_tree(const char *arg, bool program)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return "has a \"..\" component: name files inside the upload";
		if (!p[n])
			break;
		p += n + 1;
	}
	if (arg[0] != '/')
		return NULL;
	for (size_t i = 0; system_dirs[i]; i++)
		if (program && strncmp(arg, system_dirs[i], strlen(system_dirs[i])) == 0)
			return NULL;
	return program ? "is an absolute path outside /usr and /bin: name the program by a path "
			 "inside the upload (./bot), or a system program by its name (python3)" :
			 "is an absolute path: name files by their paths inside the upload";
}

static int fault(const char *key, const char *what, char *err, size_t err_size)
{
	snprintf(err, err_size, MANIFEST_FILE ": %s%s%s (arena/HOSTING.md, \"Manifest\")", key,
		 *key ? ": " : "", what);
	return -EINVAL;
}

static int read_run(const cJSON *run, struct manifest *m, char *err, size_t err_size)
{
	const char *argv[RUN_ARGS_MAX];
	char key[32], what[320];
	size_t n = 0;
	const char *why;

	if (!cJSON_IsArray(run) || cJSON_GetArraySize(run) < 1 ||
	    cJSON_GetArraySize(run) > RUN_ARGS_MAX)
		return fault("run", "expected an array of 1 to 64 strings: the bot's command, such "
			     "as [\"./bot\"]", err, err_size);
	for (const cJSON *a = run->child; a; a = a->next, n++) {
		snprintf(key, sizeof(key), "run[%zu]", n);
		if (!cJSON_IsString(a) || !a->valuestring[0] || strlen(a->valuestring) > 1024)
			return fault(key, "expected a string of 1 to 1024 bytes", err, err_size);
		if ((why = leaves_tree(a->valuestring, n == 0))) {
			snprintf(what, sizeof(what), "\"%.80s\" %s", a->valuestring, why);
			return fault(key, what, err, err_size);
		}
		argv[n] = a->valuestring;
	}
	for (size_t i = 0; m->run && m->run[i]; i++)
		free(m->run[i]);
	free(m->run);
	m->run = NULL;
	return set_run(m, argv, n);
}

static bool keys_has(const char *const *keys, const char *key)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, key))
			return true;
	return false;
}

/* The members of skipbo.json over the defaults of its language. */
static int read_members(const char *tree, const cJSON *root, struct manifest *m, char *err,
			size_t err_size)
{
	static const char *const keys[] = { "language", "build", "run", "private", NULL };
	const cJSON *language = cJSON_GetObjectItemCaseSensitive(root, "language");
	const cJSON *private_ = cJSON_GetObjectItemCaseSensitive(root, "private");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(root, "build");
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(root, "run");
	const struct kit *kit = NULL;
	char what[300];
	int near, ret;

	for (const cJSON *k = root->child; k; k = k->next) {
		if (!keys_has(keys, k->string)) {
			near = jsonc_nearest(k->string, keys);
			snprintf(what, sizeof(what), "unknown key; %s%s%s", near >= 0 ?
				 "did you mean \"" : "expected language, build, run and private",
				 near >= 0 ? keys[near] : "", near >= 0 ? "\"?" : "");
			return fault(k->string, what, err, err_size);
		}
	}
	if (language && (!cJSON_IsString(language) || !(kit = kit_named(language->valuestring))))
		return fault("language", "expected one of \"c\", \"cpp\", \"go\", \"java\", "
			     "\"javascript\", \"python\", \"rust\"", err, err_size);
	if (build && (!cJSON_IsString(build) || !build->valuestring[0] ||
		      strlen(build->valuestring) > BUILD_LINE_MAX))
		return fault("build", "expected a shell line of 1 to 4096 bytes, run by /bin/sh in "
			     "the upload's folder", err, err_size);
	if (private_ && !cJSON_IsBool(private_))
		return fault("private", "expected true (the bot is played only by the host and "
			     "trusted workers) or false", err, err_size);
	m->private_ = cJSON_IsTrue(private_);
	if (!kit && !run)
		return fault("", "without \"language\", \"run\" is needed: the bot's command, such "
			     "as {\"build\": \"make\", \"run\": [\"./bot\"]}", err, err_size);
	if (kit && (ret = kit_defaults(tree, kit, m, err, err_size)) < 0)
		return ret;
	if (build) {
		free(m->build);
		if (!(m->build = strdup(build->valuestring)))
			return -ENOMEM;
	}
	return run ? read_run(run, m, err, err_size) : 0;
}

int manifest_read(const char *tree, struct manifest *m, char *err, size_t err_size)
{
	struct json_strict_error why;
	cJSON *root = NULL;
	char *text = NULL;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = read_small(tree, MANIFEST_FILE, MANIFEST_BYTES_MAX, &text, &len);
	if (ret == -ENOENT) {
		for (size_t i = 0; i < NKITS; i++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s", tree, kits[i].file);
			if (access(path, F_OK) == 0) {
				ret = kit_defaults(tree, &kits[i], m, err, err_size);
				goto out;
			}
		}
		snprintf(err, err_size, "the upload has none of bot.py, bot.js, bot.c, bot.cpp, "
			 "go.mod, Bot.java, Cargo.toml at its top: submit a starter kit's folder "
			 "(bots/starter/), or add a " MANIFEST_FILE " such as {\"build\": \"make\", "
			 "\"run\": [\"./bot\"]} (arena/HOSTING.md, \"Manifest\")");
		ret = -ENOENT;
		goto out;
	}
	if (ret < 0) {
		snprintf(err, err_size, MANIFEST_FILE ": %s", ret == -EINVAL ?
			 "expected a regular file of at most 64 KiB, not a link" : strerror(-ret));
		goto out;
	}
	if (json_strict_parse(text, len, &root, &why) < 0) {
		snprintf(err, err_size, MANIFEST_FILE ":%lu:%lu: %s", why.line, why.column,
			 why.message);
		ret = -EINVAL;
		goto out;
	}
	ret = cJSON_IsObject(root) ? read_members(tree, root, m, err, err_size) :
		fault("", "expected an object such as {\"language\": \"python\"}", err, err_size);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	if (ret < 0)
		manifest_release(m);
	cJSON_Delete(root);
	free(text);
	return ret;
}
