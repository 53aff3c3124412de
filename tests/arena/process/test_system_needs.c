/*
 * test_system_needs.c - the system files derived from the bots' commands
 * for a sealed sandbox (arena/process/system_needs.h, elf_info.h).
 *
 * On the machine's real files, each case skipped with its reason where
 * they are absent: a C bot needs the loader and libc, and not
 * /usr/share/doc; python3 its standard library; java its JDK; a script
 * "#!/usr/bin/env python3" env and python's library; the links of a chain
 * kept; sealed without "system", hosts still start games (their probe runs
 * `true`, which the derived files must hold). On ELF files written here: the needs of a valid one found; every
 * truncation, bad offsets, huge counts and random bytes give an error
 * naming the file or nothing, never a crash (the build runs under ASan); a
 * DT_NEEDED loop through $ORIGIN ends, and what lies past it is found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "elf_info.h"
#include "launcher.h"
#include "reaper.h"
#include "sandbox.h"
#include "sandbox_view.h"
#include "system_needs.h"

#define PATH_DIRS "/usr/local/bin:/usr/bin:/bin"

static char dir[] = TEST_DIR "/needs.XXXXXX";

static void write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* The needs of one bot with argv (NULL-terminated): the return code, out filled. */
static int derive(char *const *argv, struct strlist *out, char *why, size_t why_size)
{
	struct bot_spec spec = { .name = "t", .argv = argv };

	memset(out, 0, sizeof *out);
	return system_needs_derive(&spec, 1, PATH_DIRS, out, why, why_size);
}

/* Is path in what out makes visible (an entry, or under a directory of it)? */
static bool covered(const struct strlist *out, const char *path)
{
	for (size_t i = 0; i < out->n; i++)
		if (sandbox_view_covers(out->v[i], path))
			return true;
	return false;
}

/* Does an entry of out end with suffix? */
static bool has_suffix(const struct strlist *out, const char *suffix)
{
	size_t n = strlen(suffix);

	for (size_t i = 0; i < out->n; i++)
		if (strlen(out->v[i]) >= n && strcmp(out->v[i] + strlen(out->v[i]) - n, suffix) == 0)
			return true;
	return false;
}

static void test_c_bot(void **state)
{
	char *argv[] = { C_BOT_PATH, NULL }, why[512];
	struct strlist out;
	struct elf_info e;

	(void)state;
	assert_int_equal(elf_info_read(C_BOT_PATH, &e, why, sizeof why), 1);
	if (!e.interp) {
		elf_info_release(&e);
		print_message("skipped: %s is linked statically\n", C_BOT_PATH);
		skip();
	}
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	/* the loader by the name the program gives, through its links */
	assert_true(covered(&out, e.interp) || has_suffix(&out, strrchr(e.interp, '/')));
	assert_true(has_suffix(&out, "/libc.so.6"));
	assert_true(covered(&out, "/etc/passwd"));
	assert_false(covered(&out, "/usr/share/doc"));
	assert_false(covered(&out, "/usr/bin/python3"));
	/* the program itself is the bot's own, not a system file */
	assert_false(covered(&out, C_BOT_PATH));
	/* sorted, none under another */
	for (size_t i = 1; i < out.n; i++) {
		assert_true(strcmp(out.v[i - 1], out.v[i]) < 0);
		assert_false(sandbox_view_covers(out.v[i - 1], out.v[i]));
	}
	elf_info_release(&e);
	strlist_free(&out);
}

/* The python3.X that /usr/bin/python3 is, into version; false (skipped) when none. */
static bool system_python(char *version, size_t size)
{
	char real[PATH_MAX];
	const char *base;

	if (!realpath("/usr/bin/python3", real))
		return false;
	base = strrchr(real, '/') + 1;
	return strncmp(base, "python3.", 8) == 0 && snprintf(version, size, "%s", base) < (int)size;
}

static void test_python(void **state)
{
	char *argv[] = { "/usr/bin/python3", "bot.py", NULL }, why[512], version[64], lib[128];
	struct strlist out;

	(void)state;
	if (!system_python(version, sizeof version)) {
		print_message("skipped: /usr/bin/python3 is not installed\n");
		skip();
	}
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	snprintf(lib, sizeof lib, "/usr/lib/%s/encodings/__init__.py", version);
	assert_true(covered(&out, lib));
	/* the link and what it names */
	assert_true(strlist_has(&out, "/usr/bin/python3"));
	snprintf(lib, sizeof lib, "/usr/bin/%s", version);
	assert_true(covered(&out, lib));
	assert_true(has_suffix(&out, "/libc.so.6"));
	assert_false(covered(&out, "/usr/share/doc"));
	strlist_free(&out);
}

static void test_java(void **state)
{
	char *argv[] = { "/usr/bin/java", "-cp", ".", "Bot", NULL }, why[512], real[PATH_MAX];
	char jdk[PATH_MAX], path[PATH_MAX + 32];
	struct strlist out;
	size_t len = 0;

	(void)state;
	if (!realpath("/usr/bin/java", real) || strncmp(real, "/usr/lib/jvm/", 13) != 0 ||
	    (len = strlen(real)) < 9 || strcmp(real + len - 9, "/bin/java") != 0) {
		print_message("skipped: /usr/bin/java is not a JDK's under /usr/lib/jvm\n");
		skip();
	}
	snprintf(jdk, sizeof jdk, "%.*s", (int)(len - 9), real);
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	assert_true(strlist_has(&out, "/usr/bin/java"));
	assert_true(covered(&out, real));
	snprintf(path, sizeof path, "%s/lib/modules", jdk);
	assert_true(covered(&out, path));
	/* libjvm.so's libraries: libjvm is found through the tree's ELF files */
	assert_true(has_suffix(&out, "/libm.so.6") || covered(&out, "/usr/lib/x86_64-linux-gnu"));
	snprintf(path, sizeof path, "%s/jmods", jdk);
	assert_false(covered(&out, path));
	strlist_free(&out);
}


static void test_env_script(void **state)
{
	char path[PATH_MAX], version[64], lib[128], why[512];
	char *argv[] = { path, NULL };
	const char text[] = "#!/usr/bin/env python3\nprint('hello')\n";
	struct strlist out;

	(void)state;
	if (!system_python(version, sizeof version)) {
		print_message("skipped: /usr/bin/python3 is not installed\n");
		skip();
	}
	snprintf(path, sizeof path, "%s/bot.py", dir);
	write_file(path, text, sizeof text - 1, 0755);
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	assert_true(covered(&out, "/usr/bin/env"));
	snprintf(lib, sizeof lib, "/usr/lib/%s/os.py", version);
	assert_true(covered(&out, lib));
	assert_false(covered(&out, path));
	strlist_free(&out);
}

static void test_link_chain(void **state)
{
	char why[512], target[PATH_MAX];
	char *argv[] = { "/bin/sh", NULL };
	struct strlist out;
	ssize_t n;

	(void)state;
	if ((n = readlink("/usr/bin/sh", target, sizeof target - 1)) <= 0) {
		print_message("skipped: /usr/bin/sh is not a symbolic link\n");
		skip();
	}
	target[n] = '\0';
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	/* the link itself, as a link, and the file it names */
	assert_true(strlist_has(&out, "/usr/bin/sh"));
	assert_true(has_suffix(&out, target[0] == '/' ? strrchr(target, '/') : target));
	/* /bin -> usr/bin is the view's to make, never copied */
	assert_false(strlist_has(&out, "/bin"));
	strlist_free(&out);
}

/* Sealed without "system", hosts start games: the probe they run again finds `true`. */
static void test_sealed_hosts(void **state)
{
	char folder[PATH_MAX], bot[PATH_MAX + 8], note[2048];
	char *argv[] = { bot, NULL };
	struct bot_spec spec = { .name = "c", .argv = argv, .cpu = -1 };
	struct sandbox_setup setup = { .mode = SANDBOX_SEALED, .bots = &spec, .nbots = 1 };
	struct sandbox *sb = NULL;
	struct stat st;
	char *program;
	int fd;

	(void)state;
	/* the bot in a folder of its own, readable by the sandbox's uids */
	snprintf(folder, sizeof folder, "%s/c", dir);
	snprintf(bot, sizeof bot, "%s/bot", folder);
	assert_int_equal(mkdir(folder, 0755), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(stat(C_BOT_PATH, &st), 0);
	assert_non_null(program = malloc((size_t)st.st_size));
	assert_true((fd = open(C_BOT_PATH, O_RDONLY | O_CLOEXEC)) >= 0);
	assert_int_equal(read(fd, program, (size_t)st.st_size), st.st_size);
	close(fd);
	write_file(bot, program, (size_t)st.st_size, 0755);
	free(program);
	if (reaper_start() < 0 || sandbox_open(&setup, &sb, note, sizeof note) < 0 || !sb) {
		print_message("skipped: no sealed sandbox here: %s\n", note);
		skip();
	}
	assert_int_equal(sandbox_mode_of(sb), SANDBOX_SEALED);
	if ((fd = launcher_open()) < 0) {
		sandbox_close(sb);
		print_message("skipped: no launcher here, and so no hosts\n");
		skip();
	}
	close(fd);
	assert_int_equal(sandbox_use_hosts(sb, true), 0);
	sandbox_close(sb);
}

/* ---- ELF files written here ---- */

/* Layout of the file elf_write makes; tests patch it at these offsets. */
#define OFF_PHDR 64
#define OFF_INTERP 256
#define OFF_STR 320
#define OFF_DYN 512
#define VADDR 0x400000

struct elf_spec {
	const char *needed[4];
	const char *runpath;
	bool interp;
};

/* A small ELF64 file into buf (1024 bytes): its length. */
static size_t elf_build(const struct elf_spec *s, unsigned char *buf)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + OFF_PHDR);
	Elf64_Dyn *d = (Elf64_Dyn *)(buf + OFF_DYN);
	size_t str = 1, nd = 0, len;

	memset(buf, 0, 1024);
	memcpy(h->e_ident, ELFMAG, SELFMAG);
	h->e_ident[EI_CLASS] = ELFCLASS64;
	h->e_ident[EI_DATA] = ELFDATA2LSB;
	h->e_ident[EI_VERSION] = EV_CURRENT;
	h->e_type = ET_DYN;
	h->e_machine = EM_X86_64;
	h->e_version = EV_CURRENT;
	h->e_phoff = OFF_PHDR;
	h->e_ehsize = sizeof *h;
	h->e_phentsize = sizeof *ph;
	h->e_phnum = 3;
	for (size_t i = 0; i < 4 && s->needed[i]; i++) {
		d[nd].d_tag = DT_NEEDED;
		d[nd++].d_un.d_val = str;
		str += (size_t)sprintf((char *)buf + OFF_STR + str, "%s", s->needed[i]) + 1;
	}
	if (s->runpath) {
		d[nd].d_tag = DT_RUNPATH;
		d[nd++].d_un.d_val = str;
		str += (size_t)sprintf((char *)buf + OFF_STR + str, "%s", s->runpath) + 1;
	}
	d[nd].d_tag = DT_STRTAB;
	d[nd++].d_un.d_ptr = VADDR + OFF_STR;
	d[nd].d_tag = DT_STRSZ;
	d[nd++].d_un.d_val = str;
	d[nd++].d_tag = DT_NULL;
	len = OFF_DYN + nd * sizeof *d;
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = 0, .p_vaddr = VADDR,
			      .p_filesz = len, .p_memsz = len };
	ph[1] = (Elf64_Phdr){ .p_type = PT_DYNAMIC, .p_offset = OFF_DYN,
			      .p_vaddr = VADDR + OFF_DYN, .p_filesz = nd * sizeof *d };
	if (s->interp) {
		const char interp[] = "/lib64/ld-linux-x86-64.so.2";

		memcpy(buf + OFF_INTERP, interp, sizeof interp);
		ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP, .p_offset = OFF_INTERP,
				      .p_filesz = sizeof interp };
	} else {
		ph[2].p_type = PT_NOTE;
	}
	return len;
}

/* Derive for the bot whose program is data: 0 or -ENOEXEC naming it, never more. */
static int derive_bytes(const char *name, const unsigned char *data, size_t len)
{
	char path[PATH_MAX], why[512];
	char *argv[] = { path, NULL };
	struct strlist out;
	int ret;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_file(path, data, len, 0755);
	ret = derive(argv, &out, why, sizeof why);
	if (ret != 0) {
		assert_int_equal(ret, -ENOEXEC);
		assert_non_null(strstr(why, path));
	}
	strlist_free(&out);
	return ret;
}

static bool libc_present(void)
{
	return access("/lib/x86_64-linux-gnu/libc.so.6", R_OK) == 0 ||
	       access("/usr/lib/x86_64-linux-gnu/libc.so.6", R_OK) == 0;
}

static void test_elf_valid(void **state)
{
	struct elf_spec s = { .needed = { "libc.so.6" }, .interp = true };
	unsigned char buf[1024];
	char path[PATH_MAX], why[512];
	char *argv[] = { path, NULL };
	struct strlist out;
	size_t len = elf_build(&s, buf);

	(void)state;
	if (!libc_present()) {
		print_message("skipped: no x86-64 libc.so.6 here\n");
		skip();
	}
	snprintf(path, sizeof path, "%s/valid", dir);
	write_file(path, buf, len, 0755);
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	assert_true(has_suffix(&out, "/libc.so.6"));
	assert_true(has_suffix(&out, "/ld-linux-x86-64.so.2"));
	strlist_free(&out);
}

static void test_elf_truncated(void **state)
{
	struct elf_spec s = { .needed = { "libc.so.6", "libm.so.6" }, .runpath = "$ORIGIN/lib",
			      .interp = true };
	unsigned char buf[1024];
	size_t len = elf_build(&s, buf);
	int errors = 0;

	(void)state;
	for (size_t cut = 0; cut < len; cut++)
		errors += derive_bytes("cut", buf, cut) != 0;
	/* past the header, every cut leaves an offset past the end */
	assert_true(errors >= (int)(len - sizeof(Elf64_Ehdr)));
}

static void test_elf_bad_fields(void **state)
{
	struct elf_spec s = { .needed = { "libc.so.6" }, .interp = true };
	unsigned char buf[1024];
	size_t len;
	Elf64_Ehdr *h = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + OFF_PHDR);
	Elf64_Dyn *d = (Elf64_Dyn *)(buf + OFF_DYN);

	(void)state;
	len = elf_build(&s, buf);
	h->e_phoff = UINT64_MAX - 8;
	assert_int_equal(derive_bytes("phoff", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	h->e_phnum = 0xffff;
	assert_int_equal(derive_bytes("phnum", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	h->e_phentsize = 7;
	assert_int_equal(derive_bytes("phentsize", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	ph[1].p_filesz = UINT64_MAX;
	assert_int_equal(derive_bytes("dynsize", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	ph[1].p_offset = 1ull << 40;
	assert_int_equal(derive_bytes("dynoff", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	ph[2].p_offset = UINT64_MAX - 2;
	assert_int_equal(derive_bytes("interpoff", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	memset(buf + OFF_INTERP, 'x', 64); /* no NUL within its size */
	ph[2].p_filesz = 16;
	assert_int_equal(derive_bytes("interpnul", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	d[0].d_un.d_val = 1u << 30; /* a name past the string table */
	assert_int_equal(derive_bytes("name", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	d[1].d_un.d_ptr = 0x10; /* the string table in no segment */
	assert_int_equal(derive_bytes("strtab", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	d[2].d_un.d_val = UINT64_MAX; /* its size past the end */
	assert_int_equal(derive_bytes("strsz", buf, len), -ENOEXEC);
	len = elf_build(&s, buf);
	h->e_ident[EI_CLASS] = 9;
	assert_int_equal(derive_bytes("class", buf, len), -ENOEXEC);
	/* the other byte order cannot run here: nothing needed, no fault */
	len = elf_build(&s, buf);
	h->e_ident[EI_DATA] = ELFDATA2MSB;
	assert_int_equal(derive_bytes("msb", buf, len), 0);
}

static void test_elf_garbage(void **state)
{
	struct elf_spec s = { .needed = { "libc.so.6" }, .runpath = "$ORIGIN", .interp = true };
	unsigned char buf[1024], bad[1024];
	size_t len = elf_build(&s, buf);
	unsigned seed = 35;

	(void)state;
	/* random bytes over random places of a valid file: an answer each time, no crash */
	for (int round = 0; round < 400; round++) {
		memcpy(bad, buf, len);
		for (int k = 0; k < 1 + round % 8; k++)
			bad[SELFMAG + (size_t)rand_r(&seed) % (len - SELFMAG)] =
				(unsigned char)rand_r(&seed);
		derive_bytes("garbage", bad, len);
	}
	/* and files of random bytes behind the magic */
	for (int round = 0; round < 100; round++) {
		memcpy(bad, ELFMAG, SELFMAG);
		for (size_t i = SELFMAG; i < sizeof bad; i++)
			bad[i] = (unsigned char)rand_r(&seed);
		bad[EI_CLASS] = round % 2 ? ELFCLASS32 : ELFCLASS64;
		bad[EI_DATA] = ELFDATA2LSB;
		derive_bytes("random", bad, sizeof bad);
	}
}

static void test_elf_loop(void **state)
{
	struct elf_spec prog = { .needed = { "liba.so" }, .runpath = "$ORIGIN", .interp = true };
	struct elf_spec a = { .needed = { "libb.so", "libc.so.6" }, .runpath = "$ORIGIN" };
	struct elf_spec b = { .needed = { "liba.so", "libb.so" }, .runpath = "${ORIGIN}" };
	unsigned char buf[1024];
	char path[PATH_MAX], why[512];
	char *argv[] = { path, NULL };
	struct strlist out;
	size_t len;

	(void)state;
	if (!libc_present()) {
		print_message("skipped: no x86-64 libc.so.6 here\n");
		skip();
	}
	len = elf_build(&a, buf);
	snprintf(path, sizeof path, "%s/liba.so", dir);
	write_file(path, buf, len, 0644);
	len = elf_build(&b, buf);
	snprintf(path, sizeof path, "%s/libb.so", dir);
	write_file(path, buf, len, 0644);
	len = elf_build(&prog, buf);
	snprintf(path, sizeof path, "%s/loop", dir);
	write_file(path, buf, len, 0755);
	assert_int_equal(derive(argv, &out, why, sizeof why), 0);
	/* libc is found only through liba.so, a library of the bot's own */
	assert_true(has_suffix(&out, "/libc.so.6"));
	assert_false(covered(&out, path));
	strlist_free(&out);
}

static void test_elf_cache(void **state)
{
	struct elf_cache c;
	char path[PATH_MAX];
	const char junk[] = "glibc-ld.so.cache1.1\xff\xff\xff\x7f";

	(void)state;
	if (elf_cache_read("/etc/ld.so.cache", &c) == 0) {
		assert_true(c.names.n == c.paths.n);
		elf_cache_release(&c);
	}
	/* a count far past the file: refused, nothing kept */
	snprintf(path, sizeof path, "%s/cache", dir);
	write_file(path, junk, sizeof junk - 1, 0644);
	assert_int_equal(elf_cache_read(path, &c), -ENOEXEC);
	assert_int_equal(c.names.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_bot),
		cmocka_unit_test(test_python),
		cmocka_unit_test(test_java),
		cmocka_unit_test(test_env_script),
		cmocka_unit_test(test_link_chain),
		cmocka_unit_test(test_sealed_hosts),
		cmocka_unit_test(test_elf_valid),
		cmocka_unit_test(test_elf_truncated),
		cmocka_unit_test(test_elf_bad_fields),
		cmocka_unit_test(test_elf_garbage),
		cmocka_unit_test(test_elf_loop),
		cmocka_unit_test(test_elf_cache),
	};
	char cmd[PATH_MAX + 16];
	int failed;

	if (!mkdtemp(dir))
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		failed++;
	return failed;
}
