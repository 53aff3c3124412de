/*
 * elf_info.h - what the dynamic loader reads of an ELF file before it runs
 * it: the interpreter (PT_INTERP), the libraries it needs (DT_NEEDED) and
 * where to look for them (DT_RUNPATH, DT_RPATH); and the loader's cache
 * (/etc/ld.so.cache). Read with <elf.h> through the program headers, as
 * the loader does, never by running anything: the files are the bots'
 * programs, which nobody trusts. A leaf: uses only strlist.
 *
 * ELF64 and ELF32, in the machine's byte order (a file in the other order
 * cannot run here: read as one that needs nothing). Every offset, size and
 * count is checked against the file; a file that breaks one is malformed,
 * never read past its end.
 */
#ifndef SKIPBO_ELF_INFO_H
#define SKIPBO_ELF_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strlist.h"

/* Limits of what is read: no real file comes near them. */
#define ELF_INFO_MAX_PHNUM 4096       /* program headers */
#define ELF_INFO_MAX_DYN (1 << 16)    /* entries of the dynamic section */

struct elf_info {
	unsigned char elf_class;  /* ELFCLASS32 or ELFCLASS64 */
	uint16_t machine;         /* e_machine */
	char *interp;             /* PT_INTERP's path; NULL: none (static, a library) */
	struct strlist needed;    /* DT_NEEDED names, in order */
	struct strlist runpath;   /* DT_RUNPATH's directories, as written ($ORIGIN kept) */
	struct strlist rpath;     /* DT_RPATH's, the same */
};

/*
 * Read path's headers into *e. 1: an ELF file of this byte order, read;
 * 0: not one (no ELF magic, too short for it, the other byte order), *e
 * empty; negative errno-style code: cannot be opened (-errno), or
 * -ENOEXEC when malformed, with why naming the file and what is wrong.
 * Release *e with elf_info_release() in every case.
 */
int elf_info_read(const char *path, struct elf_info *e, char *why, size_t why_size);

void elf_info_release(struct elf_info *e);

/* The loader's cache, read once. */
struct elf_cache {
	struct strlist names, paths; /* entry i: library names[i] at paths[i], in the cache's order */
};

/*
 * Read the cache at path (the new format, "glibc-ld.so.cache1.1"). 0; or a
 * negative errno-style code: it cannot be read (-errno), or -ENOEXEC when it
 * is not that format or malformed; *c is then empty, which a caller treats
 * as no cache (the loader's default directories remain).
 */
int elf_cache_read(const char *path, struct elf_cache *c);

void elf_cache_release(struct elf_cache *c);

#endif
