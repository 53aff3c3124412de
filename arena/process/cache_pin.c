/*
 * cache_pin.c - every file the bots can see kept cached and mapped
 * (contract in cache_pin.h).
 *
 * The parent walks and plans; each pinner only makes system calls over the
 * list it was forked with, as a child of a threaded process must.
 */
#include "cache_pin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tether.h"
#define MAP_COUNT_FILE "/proc/sys/vm/max_map_count"
#define MAP_COUNT_DEFAULT 65530
/* mappings a pinner leaves for what it inherits from the arena */
#define MAP_COUNT_MARGIN 4000

struct pin_file {
	char *path;
	uint64_t size;
};

struct pin_plan {
	struct pin_file *v;
	size_t n, cap;
	uint64_t bytes;
	int error;
};

struct pinner {
	pid_t pid;
	int sock;
};

struct cache_pin {
	struct pinner *pinners;
	unsigned npinners;
	struct cache_pin_stats stats;
};

/* What a pinner tells once its files are mapped. */
struct pinner_report {
	uint64_t files, bytes;
	int locked;
};

static uint64_t page_round(uint64_t size)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) / page * page;
}

/* ---- the walk ---- */

static bool under_any(const struct strlist *l, const char *path)
{
	for (size_t i = 0; l && i < l->n; i++) {
		size_t n = strlen(l->v[i]);

		if (strncmp(l->v[i], path, n) == 0 &&
		    (path[n] == '\0' || path[n] == '/' || (n == 1 && l->v[i][0] == '/')))
			return true;
	}
	return false;
}

static void plan_add(struct pin_plan *p, const char *path, uint64_t size)
{
	if (p->error)
		return;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		struct pin_file *v = reallocarray(p->v, cap, sizeof *v);

		if (!v) {
			p->error = -ENOMEM;
			return;
		}
		p->v = v;
		p->cap = cap;
	}
	if (!(p->v[p->n].path = strdup(path))) {
		p->error = -ENOMEM;
		return;
	}
	p->v[p->n++].size = size;
	p->bytes += page_round(size);
}

/* path (the entry name in directory at, or a root when at is AT_FDCWD) and what lies below it. */
static void walk(struct pin_plan *p, int at, const char *name, const char *path,
		 const struct strlist *skip)
{
	struct stat st;
	struct dirent *e;
	DIR *dir;
	int fd;

	if (p->error || under_any(skip, path) ||
	    fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		plan_add(p, path, (uint64_t)st.st_size);
		return;
	}
	if (!S_ISDIR(st.st_mode))
		return;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while (!p->error && (e = readdir(dir))) {
		char *sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (asprintf(&sub, "%s%s%s", path, strcmp(path, "/") ? "/" : "", e->d_name) < 0) {
			p->error = -ENOMEM;
			break;
		}
		walk(p, dirfd(dir), e->d_name, sub, skip);
		free(sub);
	}
	closedir(dir);
}

static void plan_free(struct pin_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].path);
	free(p->v);
}

/* ---- the pinners ---- */

static size_t files_per_pinner(void)
{
	FILE *f = fopen(MAP_COUNT_FILE, "re");
	long n = MAP_COUNT_DEFAULT;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = MAP_COUNT_DEFAULT;
		fclose(f);
	}
	return n > 2 * MAP_COUNT_MARGIN ? (size_t)(n - MAP_COUNT_MARGIN) : MAP_COUNT_MARGIN;
}

/* Read a byte of every page, as a bot's first read of it would. */
static void touch(const volatile unsigned char *m, uint64_t size)
{
	unsigned char sum = 0;

	for (uint64_t at = 0; at < size; at += 4096)
		sum ^= m[at];
	(void)sum;
}

/* The child: system calls only. Maps its files, reports, waits for the socket to close. */
static void pinner_run(int sock, const struct pin_file *files, size_t n)
{
	struct pinner_report rep = { 0, 0, 1 };
	int lock = MAP_LOCKED;

	for (size_t i = 0; i < n; i++) {
		int fd = open(files[i].path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
			      O_CLOEXEC);
		struct stat st;
		size_t size;
		void *m;

		/* its size now: a page past the end would be a SIGBUS to touch */
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		size = (size_t)st.st_size;
		m = mmap(NULL, size, PROT_READ, MAP_SHARED | MAP_POPULATE | lock, fd, 0);
		if (m == MAP_FAILED && lock && (errno == EAGAIN || errno == EPERM ||
						 errno == ENOMEM)) {
			/* past what this process may lock: mapped, not locked, from here on */
			lock = 0;
			rep.locked = 0;
			m = mmap(NULL, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
		}
		close(fd);
		if (m != MAP_FAILED) {
			touch(m, size);
			rep.files++;
			rep.bytes += size;
		}
	}
	if (write(sock, &rep, sizeof rep) != sizeof rep)
		_exit(1);
	tether_wait(sock);
	_exit(0);
}

static int pinner_start(struct pinner *pp, const struct pin_file *files, size_t n)
{
	int sock;
	pid_t pid = tether_fork("skipbo-pinner", &sock);

	if (pid < 0)
		return (int)pid;
	if (pid == 0)
		pinner_run(sock, files, n);
	pp->pid = pid;
	pp->sock = sock;
	return 0;
}

/* Wait for a pinner's report: 0, or -EIO when it died first. */
static int pinner_report(const struct pinner *pp, struct pinner_report *rep)
{
	size_t got = 0;

	while (got < sizeof *rep) {
		ssize_t r = read(pp->sock, (char *)rep + got, sizeof *rep - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EIO;
		got += (size_t)r;
	}
	return 0;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Fork the pinners of plan and gather what they mapped into p. */
static int pin(struct cache_pin *p, const struct pin_plan *plan, char *why, size_t why_size)
{
	size_t per = files_per_pinner();
	unsigned n = (unsigned)((plan->n + per - 1) / per);
	int ret = 0;

	if (!(p->pinners = calloc(n ? n : 1, sizeof *p->pinners)))
		return -ENOMEM;
	p->stats.locked = true;
	for (unsigned i = 0; i < n && ret == 0; i++) {
		size_t first = i * per, count = plan->n - first < per ? plan->n - first : per;

		if ((ret = pinner_start(&p->pinners[i], plan->v + first, count)) < 0)
			snprintf(why, why_size, "cannot start a process to keep the bots' files "
				 "cached: %s", strerror(-ret));
		else
			p->npinners++;
	}
	for (unsigned i = 0; i < p->npinners; i++) {
		struct pinner_report rep;

		if (pinner_report(&p->pinners[i], &rep) < 0) {
			if (ret == 0)
				snprintf(why, why_size, "a process keeping the bots' files cached "
					 "died before it had mapped them");
			ret = ret ? ret : -EIO;
			continue;
		}
		p->stats.files += rep.files;
		p->stats.bytes += page_round(rep.bytes);
		p->stats.locked = p->stats.locked && rep.locked;
	}
	p->stats.pinners = p->npinners;
	return ret;
}

int cache_pin_start(const struct strlist *roots, const struct strlist *skip,
		    struct cache_pin **out, char *why, size_t why_size)
{
	struct pin_plan plan = { 0 };
	struct strlist seen = { 0 };
	struct cache_pin *p = NULL;
	struct timespec t0;
	uint64_t memory = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	int ret;

	*out = NULL;
	why[0] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < roots->n; i++) {
		/* a root under one already walked adds nothing */
		if (!under_any(&seen, roots->v[i]))
			walk(&plan, AT_FDCWD, roots->v[i], roots->v[i], skip);
		strlist_add(&seen, roots->v[i]);
	}
	ret = plan.error ? plan.error : seen.error;
	if (ret < 0) {
		snprintf(why, why_size, "out of memory listing the bots' files");
		goto out;
	}
	if (plan.bytes > memory / 2) {
		snprintf(why, why_size, "the files the bots see take %.1f GB, more than half of "
			 "this machine's %.1f GB of memory, too much to keep cached; run with "
			 "--sandbox on, or on a machine with less under /usr or more memory",
			 (double)plan.bytes / 1e9, (double)memory / 1e9);
		ret = -E2BIG;
		goto out;
	}
	if (!(p = calloc(1, sizeof *p))) {
		ret = -ENOMEM;
		goto out;
	}
	ret = pin(p, &plan, why, why_size);
	p->stats.seconds = since(&t0);
	if (ret == 0) {
		*out = p;
		p = NULL;
	}
out:
	cache_pin_stop(p);
	strlist_free(&seen);
	plan_free(&plan);
	return ret;
}

const struct cache_pin_stats *cache_pin_stats(const struct cache_pin *p)
{
	return &p->stats;
}

void cache_pin_stop(struct cache_pin *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->npinners; i++)
		close(p->pinners[i].sock);
	for (unsigned i = 0; i < p->npinners; i++)
		while (waitpid(p->pinners[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(p->pinners);
	free(p);
}
