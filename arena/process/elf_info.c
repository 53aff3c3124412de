/*
 * elf_info.c - an ELF file's interpreter and needed libraries, and the
 * loader's cache (contract in elf_info.h).
 *
 * Only pread at checked offsets: a count or offset in the file is trusted
 * for nothing but the range it is checked to lie in. ELF32 headers are
 * widened to the ELF64 ones on reading, so that one path reads both.
 */
#include "elf_info.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

/* A string in the dynamic string table: a path or a name. */
#define STRING_MAX 4096

struct elf_file {
	int fd;
	uint64_t size;
	const char *path;
	char *why;
	size_t why_size;
};

static int malformed(struct elf_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int malformed(struct elf_file *f, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(f->why, f->why_size, "\"%s\" is not a valid ELF file: %s", f->path, what);
	return -ENOEXEC;
}

/* len bytes at off, all inside the file: 0, or -1. */
static int read_at(struct elf_file *f, uint64_t off, void *buf, size_t len)
{
	size_t got = 0;

	if (off > f->size || len > f->size - off)
		return -1;
	while (got < len) {
		ssize_t n = pread(f->fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* Program header i (phoff checked by the caller), widened. */
static int read_phdr(struct elf_file *f, unsigned char cls, uint64_t phoff, size_t i,
		     Elf64_Phdr *ph)
{
	if (cls == ELFCLASS64)
		return read_at(f, phoff + i * sizeof *ph, ph, sizeof *ph);
	Elf32_Phdr p32;

	if (read_at(f, phoff + i * sizeof p32, &p32, sizeof p32) < 0)
		return -1;
	*ph = (Elf64_Phdr){ .p_type = p32.p_type, .p_offset = p32.p_offset,
			    .p_vaddr = p32.p_vaddr, .p_filesz = p32.p_filesz,
			    .p_memsz = p32.p_memsz };
	return 0;
}

/* Dynamic entry i of the section at off, widened. */
static int read_dyn(struct elf_file *f, unsigned char cls, uint64_t off, size_t i, Elf64_Dyn *d)
{
	if (cls == ELFCLASS64)
		return read_at(f, off + i * sizeof *d, d, sizeof *d);
	Elf32_Dyn d32;

	if (read_at(f, off + i * sizeof d32, &d32, sizeof d32) < 0)
		return -1;
	d->d_tag = d32.d_tag;
	d->d_un.d_val = d32.d_un.d_val;
	return 0;
}

/* The file offset of address addr, through the PT_LOAD segments: 0, or -1 when in none. */
static int addr_offset(const Elf64_Phdr *ph, size_t n, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && addr >= ph[i].p_vaddr &&
		    addr - ph[i].p_vaddr < ph[i].p_filesz) {
			*off = ph[i].p_offset + (addr - ph[i].p_vaddr);
			return 0;
		}
	return -1;
}

/* A NUL-terminated string of at most max bytes at off, into buf (STRING_MAX): 0, or -1. */
static int read_string(struct elf_file *f, uint64_t off, uint64_t max, char *buf)
{
	size_t len = max < STRING_MAX ? (size_t)max : STRING_MAX;

	if (off > f->size)
		return -1;
	if (len > f->size - off)
		len = (size_t)(f->size - off);
	if (len == 0 || read_at(f, off, buf, len) < 0 || !memchr(buf, '\0', len))
		return -1;
	return 0;
}

/* The directories of a DT_RUNPATH or DT_RPATH string, into l. */
static void split_dirs(const char *s, struct strlist *l)
{
	while (*s) {
		size_t n = strcspn(s, ":");
		char dir[STRING_MAX];

		if (n) {
			snprintf(dir, sizeof dir, "%.*s", (int)n, s);
			strlist_add(l, dir);
		}
		s += n + (s[n] == ':');
	}
}

/* The dynamic section (ph[dyn]): the needed names and the search paths. */
static int read_dynamic(struct elf_file *f, unsigned char cls, const Elf64_Phdr *ph, size_t nph,
			const Elf64_Phdr *dyn, struct elf_info *e)
{
	size_t entsize = cls == ELFCLASS64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn), n;
	uint64_t strtab = 0, strsz = 0, stroff;
	bool has_strtab = false;
	char s[STRING_MAX];
	Elf64_Dyn d;

	if (dyn->p_offset > f->size || dyn->p_filesz > f->size - dyn->p_offset)
		return malformed(f, "its dynamic section lies past its end");
	n = (size_t)(dyn->p_filesz / entsize);
	if (n > ELF_INFO_MAX_DYN)
		return malformed(f, "its dynamic section has %zu entries (%d at most)", n,
				 ELF_INFO_MAX_DYN);
	/* first pass: where the strings are */
	for (size_t i = 0; i < n; i++) {
		if (read_dyn(f, cls, dyn->p_offset, i, &d) < 0)
			return malformed(f, "its dynamic section cannot be read");
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_STRTAB) {
			strtab = d.d_un.d_ptr;
			has_strtab = true;
		} else if (d.d_tag == DT_STRSZ) {
			strsz = d.d_un.d_val;
		}
	}
	if (!has_strtab)
		return 0;
	if (addr_offset(ph, nph, strtab, &stroff) < 0 || stroff > f->size ||
	    strsz > f->size - stroff)
		return malformed(f, "its dynamic string table lies outside its loaded segments");
	for (size_t i = 0; i < n; i++) {
		struct strlist *to = NULL;

		if (read_dyn(f, cls, dyn->p_offset, i, &d) < 0 || d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_NEEDED)
			to = &e->needed;
		else if (d.d_tag == DT_RUNPATH || d.d_tag == DT_RPATH)
			to = d.d_tag == DT_RUNPATH ? &e->runpath : &e->rpath;
		if (!to)
			continue;
		if (d.d_un.d_val >= strsz || read_string(f, stroff + d.d_un.d_val,
							  strsz - d.d_un.d_val, s) < 0)
			return malformed(f, "a name of its dynamic section lies outside its string "
					 "table");
		if (to == &e->needed)
			strlist_add(to, s);
		else
			split_dirs(s, to);
	}
	return 0;
}

/* The program headers: the interpreter and the dynamic section. */
static int read_program(struct elf_file *f, unsigned char cls, uint64_t phoff, size_t phnum,
			struct elf_info *e)
{
	size_t entsize = cls == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	Elf64_Phdr *ph, *dyn = NULL;
	char s[STRING_MAX];
	int ret = 0;

	if (phnum > ELF_INFO_MAX_PHNUM)
		return malformed(f, "it has %zu program headers (%d at most)", phnum,
				 ELF_INFO_MAX_PHNUM);
	if (phoff > f->size || phnum * entsize > f->size - phoff)
		return malformed(f, "its program headers lie past its end");
	if (!(ph = calloc(phnum ? phnum : 1, sizeof *ph)))
		return -ENOMEM;
	for (size_t i = 0; i < phnum && ret == 0; i++) {
		if (read_phdr(f, cls, phoff, i, &ph[i]) < 0)
			ret = malformed(f, "its program headers cannot be read");
		else if (ph[i].p_type == PT_DYNAMIC && !dyn)
			dyn = &ph[i];
		else if (ph[i].p_type == PT_INTERP && !e->interp) {
			if (ph[i].p_filesz == 0 ||
			    read_string(f, ph[i].p_offset, ph[i].p_filesz, s) < 0)
				ret = malformed(f, "its interpreter's name lies past its end or has "
						"no end");
			else if (!(e->interp = strdup(s)))
				ret = -ENOMEM;
		}
	}
	if (ret == 0 && dyn)
		ret = read_dynamic(f, cls, ph, phnum, dyn, e);
	free(ph);
	if (ret == 0 && (e->needed.error || e->runpath.error || e->rpath.error))
		ret = -ENOMEM;
	return ret;
}

/* The machine and the program header table of e's class, widened: 0, or -1 when cut short. */
static int read_header(struct elf_file *f, struct elf_info *e, uint64_t *phoff, size_t *phnum,
		       size_t *phentsize)
{
	Elf64_Ehdr h64;
	Elf32_Ehdr h32;

	if (e->elf_class == ELFCLASS64) {
		if (read_at(f, 0, &h64, sizeof h64) < 0)
			return -1;
		e->machine = h64.e_machine;
		*phoff = h64.e_phoff;
		*phnum = h64.e_phnum;
		*phentsize = h64.e_phentsize;
	} else {
		if (read_at(f, 0, &h32, sizeof h32) < 0)
			return -1;
		e->machine = h32.e_machine;
		*phoff = h32.e_phoff;
		*phnum = h32.e_phnum;
		*phentsize = h32.e_phentsize;
	}
	return 0;
}

int elf_info_read(const char *path, struct elf_info *e, char *why, size_t why_size)
{
	struct elf_file f = { .path = path, .why = why, .why_size = why_size };
	unsigned char ident[EI_NIDENT];
	uint64_t phoff;
	size_t phnum, phentsize;
	struct stat st;
	int ret;

	memset(e, 0, sizeof *e);
	why[0] = '\0';
	if ((f.fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return -errno;
	if (fstat(f.fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	ret = 0;
	if (!S_ISREG(st.st_mode))
		goto out;
	f.size = (uint64_t)st.st_size;
	if (read_at(&f, 0, ident, sizeof ident) < 0 || memcmp(ident, ELFMAG, SELFMAG) != 0 ||
	    ident[EI_DATA] != HOST_DATA)
		goto out;
	e->elf_class = ident[EI_CLASS];
	if (e->elf_class != ELFCLASS64 && e->elf_class != ELFCLASS32) {
		ret = malformed(&f, "its class is %u, neither 32 nor 64 bits", ident[EI_CLASS]);
		goto out;
	}
	if (read_header(&f, e, &phoff, &phnum, &phentsize) < 0) {
		ret = malformed(&f, "its header is cut short");
		goto out;
	}
	if (phnum && phentsize != (e->elf_class == ELFCLASS64 ? sizeof(Elf64_Phdr) :
				   sizeof(Elf32_Phdr))) {
		ret = malformed(&f, "its program headers are %zu bytes each", phentsize);
		goto out;
	}
	ret = read_program(&f, e->elf_class, phoff, phnum, e);
	if (ret == 0)
		ret = 1;
out:
	close(f.fd);
	return ret;
}

void elf_info_release(struct elf_info *e)
{
	free(e->interp);
	strlist_free(&e->needed);
	strlist_free(&e->runpath);
	strlist_free(&e->rpath);
	memset(e, 0, sizeof *e);
}

/* ---- /etc/ld.so.cache ---- */

#define CACHE_MAGIC "glibc-ld.so.cache1.1"
#define CACHE_MAX (64u << 20)

/* The new format's header and entries (glibc's dl-cache.h). */
struct cache_header {
	char magic[sizeof CACHE_MAGIC - 1];
	uint32_t nlibs, len_strings;
	uint8_t flags, pad[3];
	uint32_t extension_offset, unused[3];
};

struct cache_entry {
	int32_t flags;
	uint32_t key, value;   /* offsets of strings, from the file's start */
	uint32_t osversion;
	uint64_t hwcap;
};

/* The string at off in data (size bytes), or NULL when not one. */
static const char *cache_string(const char *data, size_t size, uint32_t off)
{
	return off < size && memchr(data + off, '\0', size - off) ? data + off : NULL;
}

int elf_cache_read(const char *path, struct elf_cache *c)
{
	struct cache_header h;
	struct stat st;
	char *data = NULL;
	int fd, ret = -ENOEXEC;
	ssize_t n;

	memset(c, 0, sizeof *c);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof h ||
	    st.st_size > (off_t)CACHE_MAX || !(data = malloc((size_t)st.st_size)))
		goto out;
	n = pread(fd, data, (size_t)st.st_size, 0);
	if (n != st.st_size)
		goto out;
	memcpy(&h, data, sizeof h);
	if (memcmp(h.magic, CACHE_MAGIC, sizeof h.magic) != 0 ||
	    h.nlibs > ((size_t)n - sizeof h) / sizeof(struct cache_entry))
		goto out;
	for (uint32_t i = 0; i < h.nlibs; i++) {
		struct cache_entry ent;
		const char *key, *value;

		memcpy(&ent, data + sizeof h + i * sizeof ent, sizeof ent);
		key = cache_string(data, (size_t)n, ent.key);
		value = cache_string(data, (size_t)n, ent.value);
		if (!key || !value)
			goto out;
		strlist_add(&c->names, key);
		strlist_add(&c->paths, value);
	}
	ret = c->names.error ? c->names.error : c->paths.error;
out:
	if (ret < 0)
		elf_cache_release(c);
	free(data);
	close(fd);
	return ret;
}

void elf_cache_release(struct elf_cache *c)
{
	strlist_free(&c->names);
	strlist_free(&c->paths);
}
