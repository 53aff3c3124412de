/*
 * manifest.h - how a submitted bot is built and run: its skipbo.json, or,
 * without one, the defaults of the starter kit it is recognised as
 * (bots/starter/, arena/HOSTING.md "Manifest").
 *
 *   {"language": "python"}                    a kit's defaults, by name
 *   {"build": "make", "run": ["./bot"]}       a shell line to build with, and
 *                                             the bot's command (argv)
 *   {"language": "c", "private": true}        played only by the host and its
 *                                             trusted workers (arena/WORKERS.md)
 *
 * "language" is one of c, cpp, go, java, javascript, python, rust; "build"
 * (optional, a string run by /bin/sh -c in the tree) and "run" (an array of
 * strings, its first a path inside the tree or a program of the system)
 * override the kit's. Without skipbo.json the kit is recognised by its
 * files: bot.py, bot.js, bot.c, bot.cpp, go.mod, Bot.java, Cargo.toml, in
 * that order; nothing recognised is an error that says to add skipbo.json.
 * Strict: an unknown key, a wrong type, an unknown language, a "run" that
 * leaves the tree ("..", an absolute path that is not a system program)
 * are errors naming the key. Reading is all it does; it runs nothing.
 */
#ifndef SKIPBO_MANIFEST_H
#define SKIPBO_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define MANIFEST_FILE "skipbo.json"

struct manifest {
	char *language;   /* the kit's name, or NULL for a manifest without one */
	char *build;      /* a shell line, or NULL: nothing to build */
	char **run;       /* the bot's command, NULL-terminated; paths relative to the tree */
	bool private_;    /* "private": its files never go to an untrusted worker */
};

/*
 * Read tree/skipbo.json, or recognise the kit in tree. 0 with *m (release
 * with manifest_release), or -EINVAL / -ENOENT with a sentence in err
 * naming the file and the key, or what to add.
 */
int manifest_read(const char *tree, struct manifest *m, char *err, size_t err_size);
void manifest_release(struct manifest *m);

/* The languages a manifest may name, NULL-terminated, for docs and errors. */
extern const char *const manifest_languages[];

#endif
