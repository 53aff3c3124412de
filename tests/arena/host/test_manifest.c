/*
 * test_manifest.c - a submitted bot's manifest (manifest.h): each starter
 * kit recognised from a copy of each folder of bots/starter/, skipbo.json over a kit's
 * defaults or alone, and every refusal with its message.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "remove_tree.h"

#include "manifest.h"

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_manifest.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	free(f);
	return 0;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(fp = fopen(path, "w"));
	fputs(text, fp);
	fclose(fp);
}

/* The run argv joined by spaces. */
static void joined(const struct manifest *m, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; m->run[i]; i++) {
		if (i)
			strlcat(out, " ", size);
		strlcat(out, m->run[i], size);
	}
}

static void test_each_kit(void **state)
{
	static const struct {
		const char *kit, *build, *run;
	} want[] = {
		{ "python", NULL, "python3 bot.py" },
		{ "javascript", NULL, "node bot.js" },
		{ "c", "cc -std=c11 -O2 $CFLAGS bot.c $LDLIBS -o bot", "./bot" },
		{ "cpp", "g++ -std=c++17 -O2 bot.cpp -o bot", "./bot" },
		{ "go", "go build -o bot .", "./bot" },
		{ "java", "javac -d classes Bot.java",
		  "java -Xmx256m -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m "
		  "-XX:+UseSerialGC -cp classes Bot" },
		{ "rust", "cargo build --release --offline", "./target/release/skipbo-starter-rust" },
	};
	struct fixture *f = *state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char cmd[PATH_MAX * 2], tree[PATH_MAX], err[512] = "", run[512];
		struct manifest m;

		snprintf(tree, sizeof(tree), "%s/%s", f->dir, want[i].kit);
		snprintf(cmd, sizeof(cmd), "cp -r '%s/bots/starter/%s' '%s'", SOURCE_DIR,
			 want[i].kit, tree);
		assert_int_equal(system(cmd), 0);
		if (manifest_read(tree, &m, err, sizeof(err)) < 0)
			fail_msg("%s: %s", want[i].kit, err);
		assert_string_equal(m.language, want[i].kit);
		if (want[i].build)
			assert_string_equal(m.build, want[i].build);
		else
			assert_null(m.build);
		joined(&m, run, sizeof(run));
		assert_string_equal(run, want[i].run);
		manifest_release(&m);
	}
}

static void test_overrides(void **state)
{
	struct fixture *f = *state;
	char err[512] = "", run[512];
	struct manifest m;

	/* the kit's language named, its run replaced */
	write_file(f->dir, "bot.py", "print()\n");
	write_file(f->dir, MANIFEST_FILE, "{\"language\": \"python\", \"run\": [\"python3\", "
		   "\"-u\", \"bot.py\"]}");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), 0);
	assert_string_equal(m.language, "python");
	assert_null(m.build);
	joined(&m, run, sizeof(run));
	assert_string_equal(run, "python3 -u bot.py");
	assert_false(m.private_);
	manifest_release(&m);

	/* private: never sent to an untrusted worker */
	write_file(f->dir, MANIFEST_FILE, "{\"language\": \"python\", \"private\": true}");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), 0);
	assert_true(m.private_);
	manifest_release(&m);

	/* a build of its own with a language's run */
	write_file(f->dir, MANIFEST_FILE, "{\"language\": \"c\", \"build\": \"make bot\"}");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), 0);
	assert_string_equal(m.build, "make bot");
	assert_string_equal(m.run[0], "./bot");
	manifest_release(&m);

	/* no language: build and run as written, a system program by its absolute path */
	write_file(f->dir, MANIFEST_FILE, "{\"build\": \"make\", \"run\": [\"/usr/bin/python3\", "
		   "\"src/main.py\"]}");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), 0);
	assert_null(m.language);
	assert_string_equal(m.build, "make");
	joined(&m, run, sizeof(run));
	assert_string_equal(run, "/usr/bin/python3 src/main.py");
	manifest_release(&m);
}

/* skipbo.json holding text is refused with an error holding each word. */
static void refused(struct fixture *f, const char *text, int code, const char *w1, const char *w2)
{
	char err[512] = "";
	struct manifest m;

	write_file(f->dir, MANIFEST_FILE, text);
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), code);
	if (!strstr(err, w1) || !strstr(err, w2))
		fail_msg("%s: %s", text, err);
}

static void test_refusals(void **state)
{
	struct fixture *f = *state;
	char err[512] = "", path[PATH_MAX];
	struct manifest m;

	/* nothing recognised */
	write_file(f->dir, "main.lua", "print()\n");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "add a skipbo.json"));

	refused(f, "{\"langauge\": \"c\"}", -EINVAL, "langauge: unknown key", "did you mean \"language\"");
	refused(f, "{\"colour\": 1}", -EINVAL, "colour: unknown key", "expected language, build, run and private");
	refused(f, "{\"language\": \"c\", \"private\": 1}", -EINVAL, "private: expected true", "");
	refused(f, "{\"language\": \"lua\"}", -EINVAL, "language: expected one of", "\"python\"");
	refused(f, "{\"language\": 3}", -EINVAL, "language: expected one of", "");
	refused(f, "{\"build\": \"make\"}", -EINVAL, "\"run\" is needed", "");
	refused(f, "{\"language\": \"c\", \"build\": 7}", -EINVAL, "build: expected a shell line", "");
	refused(f, "{\"language\": \"c\", \"build\": \"\"}", -EINVAL, "build: expected a shell line", "");
	refused(f, "{\"run\": []}", -EINVAL, "run: expected an array of 1 to 64", "");
	refused(f, "{\"run\": \"./bot\"}", -EINVAL, "run: expected an array", "");
	refused(f, "{\"run\": [\"./bot\", 3]}", -EINVAL, "run[1]: expected a string", "");
	refused(f, "{\"run\": [\"../other/bot\"]}", -EINVAL, "run[0]", "\"..\" component");
	refused(f, "{\"run\": [\"./a/../../b\"]}", -EINVAL, "run[0]", "\"..\" component");
	refused(f, "{\"run\": [\"/home/x/bot\"]}", -EINVAL, "run[0]", "outside /usr and /bin");
	refused(f, "{\"run\": [\"python3\", \"/etc/passwd\"]}", -EINVAL, "run[1]", "absolute path");
	refused(f, "{\"run\": [\"python3\", \"/usr/lib/x.py\"]}", -EINVAL, "run[1]", "absolute path");
	refused(f, "{\"run\": [\"python3\", \"..\"]}", -EINVAL, "run[1]", "\"..\" component");
	refused(f, "[\"./bot\"]", -EINVAL, "expected an object", "");
	refused(f, "{\"run\": [\"./bot\"],}", -EINVAL, "skipbo.json:1:", "");
	refused(f, "{\"run\": [\"./bot\"], \"run\": [\"./x\"]}", -EINVAL, "duplicate key", "run");
	/* a link is not followed */
	snprintf(path, sizeof(path), "%s/%s", f->dir, MANIFEST_FILE);
	unlink(path);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a link"));
	/* a Rust crate without a package name */
	unlink(path);
	write_file(f->dir, "Cargo.toml", "[dependencies]\nname = \"x\"\n");
	write_file(f->dir, MANIFEST_FILE, "{\"language\": \"rust\"}");
	assert_int_equal(manifest_read(f->dir, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "Cargo.toml: no name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_each_kit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overrides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
