/*
 * attack_counters - what a sandbox shows of the machine and of who runs it:
 * counters every process of the machine moves (open files, memory, CPU
 * time, interrupts, disk transfers, locks, keys), which partners in two
 * sandboxes can signal through by moving them and reading them; and the
 * names that tell the sandbox from another (host name, uid and gid,
 * bwrap's command line as /proc/1/cmdline, the block devices mounted).
 * attack_counters TOKEN
 *
 * It writes what it saw on stderr, a line each, for the test to judge:
 *
 *   COUNTERS host <host name>
 *   COUNTERS ids <uid> <gid>
 *   COUNTERS init [arg] [arg] ...      /proc/1/cmdline, each argument bracketed
 *   COUNTERS block-device <source>     the first mount source under /dev, or "-"
 *   COUNTERS read <path> <bytes> <sample>   bytes read (-errno if it could not
 *                                          open it), the first printable ones
 *   COUNTERS moved <path> <field> <before> <after> <expected change>
 *   COUNTERS sysinfo unit U total T free F0 F1 shared S buffer B procs P0 P1 loads L
 *                                      sysinfo() before and after forking FORKED
 *                                      processes and touching TOUCHED_MB MiB
 *                                      ("COUNTERS sysinfo error E" if it failed)
 *
 * and then "ATTACK counters: SUCCEEDED" naming the counter files it could
 * read, or "blocked". The last kind tries each readable counter as a
 * channel: it opens files (/proc/sys/fs/file-nr) or touches memory
 * (/proc/meminfo) and reads the counter again; the system call sysinfo,
 * which returns the same machine-wide counters, is tried the same way.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

#define OPENED 128            /* files opened to move file-nr */
#define TOUCHED_MB 16         /* memory touched to move meminfo */
#define SAMPLE 48
#define FORKED 8              /* processes forked to move sysinfo's procs */

static const char *const counters[] = {
	"/proc/sys/fs/dentry-state", "/proc/sys/fs/file-nr", "/proc/sys/fs/inode-nr",
	"/proc/meminfo", "/proc/stat", "/proc/vmstat", "/proc/diskstats", "/proc/zoneinfo",
	"/proc/buddyinfo", "/proc/interrupts", "/proc/softirqs", "/proc/key-users",
	"/proc/locks", "/proc/pressure/cpu", "/proc/sys/kernel/random/entropy_avail",
};

/* Up to size - 1 bytes of path into buf, NUL-terminated: bytes read, or -errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return n < 0 && len == 0 ? -errno : (long)len;
}

/* The number after "field" in path ("" for the file's first number), or -1. */
static long counter_value(const char *path, const char *field)
{
	static char buf[65536];
	const char *at;

	if (read_file(path, buf, sizeof buf) <= 0 || !(at = strstr(buf, field)))
		return -1;
	at += strlen(field);
	while (*at && !isdigit((unsigned char)*at))
		at++;
	return *at ? strtol(at, NULL, 10) : -1;
}

static void report_identity(void)
{
	char host[256] = "", cmd[65536], line[4096], source[1024] = "-";
	long n = read_file("/proc/1/cmdline", cmd, sizeof cmd);
	FILE *mounts = fopen("/proc/self/mountinfo", "re");

	if (gethostname(host, sizeof host) < 0)
		snprintf(host, sizeof host, "(error %d)", errno);
	fprintf(stderr, "COUNTERS host %s\n", host);
	fprintf(stderr, "COUNTERS ids %u %u\n", (unsigned)getuid(), (unsigned)getgid());
	fprintf(stderr, "COUNTERS init");
	for (long i = 0; i < n; i += (long)strlen(cmd + i) + 1)
		fprintf(stderr, " [%s]", cmd + i);
	fprintf(stderr, n > 0 ? "\n" : " (unreadable: %ld)\n", n);
	/* mountinfo: ... - FSTYPE SOURCE OPTIONS */
	while (mounts && strcmp(source, "-") == 0 && fgets(line, sizeof line, mounts)) {
		const char *dash = strstr(line, " - ");
		char type[256], src[1024];

		if (dash && sscanf(dash + 3, "%255s %1023s", type, src) == 2 &&
		    strncmp(src, "/dev/", 5) == 0)
			snprintf(source, sizeof source, "%s", src);
	}
	if (mounts)
		fclose(mounts);
	fprintf(stderr, "COUNTERS block-device %s\n", source);
}

/* Open OPENED files: does the machine's count of open files move with them? */
static void try_file_nr(void)
{
	int fds[OPENED], opened = 0;
	long before = counter_value("/proc/sys/fs/file-nr", ""), after;

	while (opened < OPENED && (fds[opened] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		opened++;
	after = counter_value("/proc/sys/fs/file-nr", "");
	while (opened > 0)
		close(fds[--opened]);
	fprintf(stderr, "COUNTERS moved /proc/sys/fs/file-nr allocated %ld %ld +%d\n", before,
		after, OPENED);
}

/* Touch TOUCHED_MB MiB: does the machine's anonymous memory move with it? */
static void try_meminfo(void)
{
	size_t size = (size_t)TOUCHED_MB << 20;
	long before = counter_value("/proc/meminfo", "AnonPages:"), after;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	memset(p, 1, size);
	after = counter_value("/proc/meminfo", "AnonPages:");
	munmap(p, size);
	fprintf(stderr, "COUNTERS moved /proc/meminfo AnonPages %ld %ld +%d\n", before, after,
		TOUCHED_MB * 1024);
}

/*
 * sysinfo before and after FORKED processes and TOUCHED_MB MiB more: do the
 * machine's process count and free memory move with them? Another sandbox
 * alive at once would read the same numbers.
 */
static void try_sysinfo(void)
{
	struct sysinfo a, b;
	size_t size = (size_t)TOUCHED_MB << 20;
	pid_t kids[FORKED];
	int forked = 0;
	char *p;

	if (sysinfo(&a) < 0) {
		fprintf(stderr, "COUNTERS sysinfo error %d\n", errno);
		return;
	}
	while (forked < FORKED && (kids[forked] = fork()) >= 0) {
		if (kids[forked] == 0) {
			pause();
			_exit(0);
		}
		forked++;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		memset(p, 1, size);
	if (sysinfo(&b) < 0)
		b = a;
	for (int i = 0; i < forked; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	if (p != MAP_FAILED)
		munmap(p, size);
	fprintf(stderr, "COUNTERS sysinfo unit %u total %lu free %lu %lu shared %lu buffer %lu "
		"procs %u %u loads %lu\n", a.mem_unit, a.totalram, a.freeram, b.freeram, a.sharedram,
		a.bufferram, (unsigned)a.procs, (unsigned)b.procs, a.loads[0] | a.loads[1] | a.loads[2]);
}

void attack_main(int argc, char **argv)
{
	char buf[4096], read_ok[1024] = "";

	(void)argc;
	(void)argv;
	report_identity();
	for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
		long n = read_file(counters[i], buf, sizeof buf);
		char sample[SAMPLE + 1];
		size_t k = 0;

		for (long j = 0; j < n && k < SAMPLE; j++)
			sample[k++] = isprint((unsigned char)buf[j]) ? buf[j] : '_';
		sample[k] = '\0';
		fprintf(stderr, "COUNTERS read %s %ld %s\n", counters[i], n, sample);
		if (n > 0)
			snprintf(read_ok + strlen(read_ok), sizeof read_ok - strlen(read_ok), " %s",
				 counters[i]);
	}
	try_file_nr();
	try_meminfo();
	try_sysinfo();
	if (read_ok[0])
		attack_report("counters", true, "machine-wide counters readable:%s", read_ok);
	else
		attack_report("counters", false, "no machine-wide counter readable");
}
