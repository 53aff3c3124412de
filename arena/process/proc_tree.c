/*
 * proc_tree.c - a process tree through /proc (contract in proc_tree.h).
 */
#include "proc_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A build has build_processes at most; this only stops a walk gone wrong. */
#define TREE_MAX 32768
#define LEAVE_PASSES 8

int pid_list_add(struct pid_list *p, pid_t pid)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		pid_t *v = reallocarray(p->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = pid;
	return 0;
}

int pid_list_add_numbers(struct pid_list *p, const char *text)
{
	while (*text) {
		char *end;
		long v = strtol(text, &end, 10);

		if (end == text)
			break;
		if (v > 0 && pid_list_add(p, (pid_t)v) < 0)
			return -ENOMEM;
		text = end;
		while (*text == ' ' || *text == '\n')
			text++;
	}
	return 0;
}

/* The pids listed in one children file, appended to p. */
static int add_children(struct pid_list *p, pid_t pid, const char *tid)
{
	char path[320], *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n = 1;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/children", (int)pid, tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0; /* the thread ended */
	/* the whole list first: a pid must not be cut between two reads */
	while (n > 0) {
		if (cap - len < 4096) {
			char *grown = realloc(buf, cap + 16384);

			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
			cap += 16384;
		}
		if ((n = read(fd, buf + len, cap - len - 1)) > 0)
			len += (size_t)n;
	}
	close(fd);
	if (ret == 0) {
		buf[len] = '\0';
		ret = pid_list_add_numbers(p, buf);
	}
	free(buf);
	return ret;
}

/* Whether p->v[i] came earlier in the list: a pid reused during the walk must not loop it. */
static bool listed_before(const struct pid_list *p, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (p->v[k] == p->v[i])
			return true;
	return false;
}

/*
 * Every process of the tree of root, each given to visit before its
 * children are listed. visit returns 0 to go on or a negative code to stop.
 */
static int walk(pid_t root, int (*visit)(pid_t pid, DIR *tasks, void *ctx), void *ctx)
{
	struct pid_list p = { 0 };
	int ret = pid_list_add(&p, root);

	for (size_t i = 0; ret == 0 && i < p.n; i++) {
		char path[48];
		struct dirent *e;
		DIR *d;

		if (p.n > TREE_MAX) {
			ret = -E2BIG;
			break;
		}
		if (listed_before(&p, i))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)p.v[i]);
		if (!(d = opendir(path))) {
			if (i == 0)
				ret = -ESRCH;
			continue; /* it ended since its parent listed it */
		}
		ret = visit(p.v[i], d, ctx);
		rewinddir(d);
		while (ret == 0 && (e = readdir(d)))
			if (e->d_name[0] != '.')
				ret = add_children(&p, p.v[i], e->d_name);
		closedir(d);
	}
	free(p.v);
	return ret;
}

/* ---- the tree's CPU time ---- */

static int add_cpu(pid_t pid, DIR *tasks, void *ctx)
{
	unsigned long long utime, stime;
	long long cutime, cstime;
	char path[48], buf[1024], *s;
	int64_t *ticks = ctx;
	ssize_t n;
	int fd;

	(void)tasks;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses */
	if (!(s = strrchr(buf, ')')) ||
	    sscanf(s + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
		   &utime, &stime, &cutime, &cstime) != 4)
		return 0;
	*ticks += (int64_t)(utime + stime) + cutime + cstime;
	return 0;
}

int proc_tree_cpu_us(pid_t root, int64_t *cpu_us)
{
	long hz = sysconf(_SC_CLK_TCK);
	int64_t ticks = 0;
	int ret = walk(root, add_cpu, &ticks);

	if (ret < 0)
		return ret;
	*cpu_us = ticks * 1000000 / (hz > 0 ? hz : 100);
	return 0;
}

/* ---- out of SCHED_IDLE ---- */

struct leave {
	int nice;
	int moved;
};

static int leave_idle(pid_t pid, DIR *tasks, void *ctx)
{
	struct leave *lv = ctx;
	struct dirent *e;

	(void)pid;
	while ((e = readdir(tasks))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || sched_getscheduler(tid) != SCHED_IDLE)
			continue;
		/* the nice first: leaving SCHED_IDLE at nice 0 would need more rights */
		if (setpriority(PRIO_PROCESS, (id_t)tid, lv->nice) < 0 ||
		    sched_setscheduler(tid, SCHED_OTHER, &(struct sched_param){ 0 }) < 0) {
			if (errno == ESRCH)
				continue;
			return -errno;
		}
		lv->moved++;
	}
	return 0;
}

int proc_tree_leave_idle(pid_t root, int nice)
{
	struct leave lv = { nice, 0 };

	for (int pass = 0; pass < LEAVE_PASSES; pass++) {
		int before = lv.moved, ret = walk(root, leave_idle, &lv);

		if (ret < 0)
			return ret;
		if (lv.moved == before)
			break;
	}
	return lv.moved;
}
