/*
 * system_needs.h - the system files the bots of a tournament need, derived
 * from their commands: what `--sandbox sealed` copies to memory when the
 * tournament names no "system" (system_copy.h, SECURITY.md).
 *
 * Among the system directories (/usr, /etc, /bin, /sbin, /lib*), a bot needs:
 * - its program: argv[0] as the arena resolves it (bot_resolve), every
 *   symbolic link on the way to the file kept (/usr/bin/java ->
 *   /etc/alternatives/java -> /usr/lib/jvm/.../bin/java); a script's #!
 *   interpreter, "/usr/bin/env NAME" with NAME found in path;
 * - the ELF closure of every ELF file included (its program, the ELF files of
 *   the runtime trees below, and those of a bot's own files it runs): the
 *   interpreter (PT_INTERP) and each DT_NEEDED library, found as the loader
 *   finds it (DT_RPATH, DT_RUNPATH with $ORIGIN, /etc/ld.so.cache, then the
 *   default directories), recursively, the links on the way kept;
 * - the runtime tree of an interpreter the starter kits use, told by the
 *   canonical path of the program: Python (/usr/bin/python3.X:
 *   /usr/lib/python3.X, /usr/lib/python3/dist-packages,
 *   /usr/local/lib/python3.X), Java (the JDK above bin/java, less what only
 *   development tools read: jmods, include, man, docs, legal, demo, sample,
 *   src.zip) and Node.js (/usr/share/nodejs, /usr/lib/nodejs), each where
 *   present;
 * - every argument that names an existing file or directory there;
 * - and for every bot: /etc whole, /bin/sh (the launcher's stand-in,
 *   launcher.h), `true` in path (the sandbox's probe, run again before
 *   hosts start games: without it every game would start a sandbox of its
 *   own), /usr/lib/locale/C.utf8 (LANG=C.UTF-8), iconv's module index
 *   beside libc and the target of /etc/localtime.
 * A program of another language (an interpreter not in the table) gets its
 * ELF closure only: its organiser names the rest in "system".
 *
 * Nothing is run: files are read (ELF headers with elf_info.h, #! lines).
 */
#ifndef SKIPBO_SYSTEM_NEEDS_H
#define SKIPBO_SYSTEM_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

struct bot_spec;

/*
 * The paths bots (nbots of them) need, into out: canonical but for the
 * symbolic links kept as links, each a file, a link or a directory whose
 * whole tree is needed, sorted, none under another. path is the PATH a
 * sandboxed bot has, its directories separated by ':' (sandbox_view.h).
 * A bot whose program cannot be found is left out (its start fails
 * anyway). 0; or a negative errno-style code with why naming the bot:
 * -ENOEXEC where a bot's program, or its interpreter, is a malformed ELF
 * file (why names the file and the fault), -ENOMEM.
 */
int system_needs_derive(const struct bot_spec *bots, size_t nbots, const char *path,
			struct strlist *out, char *why, size_t why_size);

/*
 * Can what bot needs be derived? False, with why saying so and naming
 * "system", where its program (after its #! lines) is a system program
 * that runs what it is told beyond a runtime of the table above: a shell,
 * perl, an interpreter not in the table. Its own native program, Python,
 * Java and Node.js can. path as above.
 */
bool system_needs_known(const struct bot_spec *bot, const char *path, char *why,
			size_t why_size);

#endif
