/*
 * cgroup.c - a cgroup per sandboxed bot process tree (contract in cgroup.h).
 */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PREFIX "skipbo-arena."

struct hierarchy {
	char *base;             /* the arena's directory in this hierarchy */
	bool pids, memory;      /* the controllers it holds */
};

struct cgroups {
	int version;
	struct hierarchy h[CGROUP_MAX_DIRS];
	int n;
	char desc[64];
	pid_t shared_by;  /* the process whose cgroup_open() calls all return it; 0: none */
};

/* One directory per process (its name holds the pid), so every sandbox of a process (a
 * league's, and the builds of a hosted competition beside it) shares one struct: the
 * first cgroup_open() makes it, the last cgroup_close() removes it. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgroups *shared;
static int shared_users;

/* ---- small file helpers ---- */

/* The whole of a small file, malloc'ed and NUL-terminated; NULL with errno. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0, len = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *grown = realloc(text, cap = cap ? cap * 2 : 8192);

			if (!grown) {
				free(text);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			text = grown;
		}
		size_t n = fread(text + len, 1, cap - len - 1, f);

		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	text[len] = '\0';
	return text;
}

static int write_text(const char *dir, const char *file, const char *text)
{
	char path[4096];
	int fd, ret = 0;

	if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
		return -ENAMETOOLONG;
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Is word one of the tokens of list, separated by any of seps? */
static bool has_token(const char *list, const char *word, const char *seps)
{
	size_t wlen = strlen(word);

	while (*list) {
		size_t len = strcspn(list, seps);

		if (len == wlen && strncmp(list, word, wlen) == 0)
			return true;
		list += len;
		list += strspn(list, seps);
	}
	return false;
}

/* ---- where the cgroups are ---- */

/*
 * The arena's path in the hierarchy holding controller (v1), or in the
 * unified hierarchy (controller NULL), from /proc/self/cgroup text.
 */
static char *own_path(const char *proc_cgroup, const char *controller)
{
	const char *line = proc_cgroup;

	while (*line) {
		size_t len = strcspn(line, "\n");
		const char *c1 = memchr(line, ':', len), *c2;

		if (c1 && (c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)))) {
			char controllers[256];
			size_t clen = (size_t)(c2 - c1 - 1);
			bool match;

			if (clen < sizeof controllers) {
				memcpy(controllers, c1 + 1, clen);
				controllers[clen] = '\0';
				match = controller ? has_token(controllers, controller, ",") :
					(clen == 0 && strncmp(line, "0:", 2) == 0);
				if (match)
					return strndup(c2 + 1, (size_t)(line + len - c2 - 1));
			}
		}
		line += len + (line[len] == '\n');
	}
	return NULL;
}

/*
 * The directory of path in the mount of fstype ("cgroup" or "cgroup2")
 * holding controller (v1; NULL for cgroup2), from mountinfo text. A mount
 * that shows only part of the hierarchy (its root is not "/") serves the
 * paths below that root.
 */
static char *mount_dir(const char *mountinfo, const char *fstype, const char *controller,
		       const char *path)
{
	char *copy = strdup(mountinfo), *line, *save = NULL, *found = NULL;

	if (!copy)
		return NULL;
	for (line = strtok_r(copy, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *f[64], *fs, *word;
		int n = 0, dash = -1;

		for (word = strtok_r(line, " ", &fs); word && n < 64; word = strtok_r(NULL, " ", &fs)) {
			if (dash < 0 && strcmp(word, "-") == 0)
				dash = n;
			f[n++] = word;
		}
		if (dash < 5 || dash + 3 >= n || strcmp(f[dash + 1], fstype) != 0 ||
		    (controller && !has_token(f[dash + 3], controller, ",")) || strchr(f[4], '\\'))
			continue;
		size_t rlen = strcmp(f[3], "/") == 0 ? 0 : strlen(f[3]);

		if (rlen && (strncmp(path, f[3], rlen) != 0 || (path[rlen] && path[rlen] != '/')))
			continue;
		if (asprintf(&found, "%s%s", f[4], strcmp(path + rlen, "/") ? path + rlen : "") < 0)
			found = NULL;
	}
	free(copy);
	return found;
}

/*
 * Kill what is left in a leaf of an arena that is gone. That happens: an
 * arena killed just as bwrap had cloned the sandbox's init, before bwrap let
 * the init go on, leaves that init waiting for ever (bwrap 0.8 arms its
 * death signal only later).
 */
static void kill_leaf(const char *leaf)
{
	struct timespec pause = { 0, 1000000 };
	char path[4096 + 300];

	snprintf(path, sizeof path, "%s/cgroup.procs", leaf);
	for (int round = 0; round < 100; round++) {
		char *text = slurp(path), *p;
		bool any = false;

		for (p = text; p && *p;) {
			char *end;
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
				any = true;
			p = end + strspn(end, "\n");
		}
		free(text);
		if (!any)
			return;
		nanosleep(&pause, NULL);
	}
}

/* Remove what an arena that is gone left here: skipbo-arena.<pid>[.self] and their leaves. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4096], *end;
		long pid;

		if (strncmp(e->d_name, PREFIX, strlen(PREFIX)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(PREFIX), &end, 10);
		if (pid <= 0 || (*end && strcmp(end, ".self") != 0) ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
			continue;
		DIR *leaves = opendir(path);
		struct dirent *l;

		while (leaves && (l = readdir(leaves))) {
			char leaf[4096 + 256];

			if (l->d_name[0] < '0' || l->d_name[0] > '9' ||
			    snprintf(leaf, sizeof leaf, "%s/%s", path, l->d_name) >= (int)sizeof leaf)
				continue;
			kill_leaf(leaf);
			rmdir(leaf);
		}
		if (leaves)
			closedir(leaves);
		rmdir(path);
	}
	closedir(d);
}

static int make_base(struct hierarchy *h, const char *parent, pid_t self)
{
	remove_stale(parent);
	if (asprintf(&h->base, "%s/" PREFIX "%d", parent, (int)self) < 0) {
		h->base = NULL;
		return -ENOMEM;
	}
	if (mkdir(h->base, 0755) < 0 && errno != EEXIST) {
		int ret = -errno;

		free(h->base);
		h->base = NULL;
		return ret;
	}
	return 0;
}

/*
 * cgroup v2: the arena's cgroup must offer pids and memory. v2 hands
 * controllers to children only from a cgroup without processes of its own
 * (the root excepted), so the arena moves itself into a child first - when
 * it is alone in its cgroup.
 */
static int open_v2(struct cgroups *cg, const char *mountinfo, const char *proc_cgroup,
		   pid_t self, char *why, size_t why_size)
{
	char *path = own_path(proc_cgroup, NULL), *dir = NULL, *text = NULL, file[4096];
	int ret = -ENOTSUP;

	if (!path || !(dir = mount_dir(mountinfo, "cgroup2", NULL, path))) {
		snprintf(why, why_size, "no cgroup v2 hierarchy");
		goto out;
	}
	snprintf(file, sizeof file, "%s/cgroup.controllers", dir);
	if (!(text = slurp(file)) || !has_token(text, "pids", " \n") ||
	    !has_token(text, "memory", " \n")) {
		snprintf(why, why_size, "cgroup v2 \"%s\" does not offer the pids and memory "
			 "controllers", dir);
		goto out;
	}
	free(text);
	snprintf(file, sizeof file, "%s/cgroup.subtree_control", dir);
	if (!(text = slurp(file)))
		goto out;
	if (!has_token(text, "pids", " \n") || !has_token(text, "memory", " \n")) {
		if (strcmp(path, "/") != 0) {
			char self_dir[4096], pid_text[32];

			free(text);
			snprintf(file, sizeof file, "%s/cgroup.procs", dir);
			snprintf(pid_text, sizeof pid_text, "%d", (int)self);
			if (!(text = slurp(file)) || strtol(text, NULL, 10) != self ||
			    strchr(text, '\n') != text + strlen(text) - 1) {
				snprintf(why, why_size, "cgroup v2 \"%s\" holds other processes than "
					 "the arena (run it in a cgroup of its own, e.g. systemd-run "
					 "--scope -p Delegate=yes)", dir);
				goto out;
			}
			snprintf(self_dir, sizeof self_dir, "%s/" PREFIX "%d.self", dir, (int)self);
			if ((mkdir(self_dir, 0755) < 0 && errno != EEXIST) ||
			    write_text(self_dir, "cgroup.procs", pid_text) < 0) {
				snprintf(why, why_size, "cannot write cgroup v2 \"%s\": %s", dir,
					 strerror(errno));
				rmdir(self_dir);
				goto out;
			}
		}
		if ((ret = write_text(dir, "cgroup.subtree_control", "+pids +memory")) < 0) {
			snprintf(why, why_size, "cannot enable pids and memory in cgroup v2 \"%s\": %s",
				 dir, strerror(-ret));
			ret = -ENOTSUP;
			goto out;
		}
	}
	if ((ret = make_base(&cg->h[0], dir, self)) < 0) {
		snprintf(why, why_size, "cannot make a cgroup in \"%s\": %s", dir, strerror(-ret));
		ret = -ENOTSUP;
		goto out;
	}
	if (write_text(cg->h[0].base, "cgroup.subtree_control", "+pids +memory") < 0) {
		snprintf(why, why_size, "cannot enable controllers in \"%s\": %s", cg->h[0].base,
			 strerror(errno));
		rmdir(cg->h[0].base);
		free(cg->h[0].base);
		cg->h[0].base = NULL;
		ret = -ENOTSUP;
		goto out;
	}
	cg->h[0].pids = cg->h[0].memory = true;
	cg->n = 1;
	cg->version = 2;
	ret = 0;
out:
	free(path);
	free(dir);
	free(text);
	return ret;
}

/* cgroup v1: the pids and memory hierarchies, when mounted and writable. */
static int open_v1(struct cgroups *cg, const char *mountinfo, const char *proc_cgroup,
		   pid_t self, char *why, size_t why_size)
{
	static const char *const controllers[] = { "pids", "memory" };
	int last_err = ENOENT;

	for (size_t i = 0; i < 2; i++) {
		char *path = own_path(proc_cgroup, controllers[i]);
		char *dir = path ? mount_dir(mountinfo, "cgroup", controllers[i], path) : NULL;
		struct hierarchy *h = &cg->h[cg->n];
		int ret = dir ? make_base(h, dir, self) : -ENOENT;

		free(path);
		free(dir);
		if (ret < 0) {
			last_err = -ret;
			continue;
		}
		h->pids = i == 0;
		h->memory = i == 1;
		cg->n++;
	}
	if (cg->n < 2) {
		snprintf(why, why_size, "no cgroup v1 pids and memory hierarchies the arena may "
			 "write (%s)", strerror(last_err));
		return -ENOTSUP;
	}
	cg->version = 1;
	return 0;
}

int cgroup_open_from(const char *mountinfo, const char *proc_cgroup, pid_t self,
		     struct cgroups **out, char *why, size_t why_size)
{
	char *mi = slurp(mountinfo), *pc = slurp(proc_cgroup);
	char why2[256] = "";
	struct cgroups *cg = calloc(1, sizeof *cg);
	int ret = -ENOMEM;

	*out = NULL;
	if (!cg)
		goto out;
	if (!mi || !pc) {
		snprintf(why, why_size, "cannot read \"%s\": %s", mi ? proc_cgroup : mountinfo,
			 strerror(errno));
		ret = -ENOTSUP;
		goto out;
	}
	if ((ret = open_v2(cg, mi, pc, self, why, why_size)) == -ENOTSUP) {
		ret = open_v1(cg, mi, pc, self, why2, sizeof why2);
		if (ret == -ENOTSUP)
			snprintf(why + strlen(why), why_size - strlen(why), "; %s", why2);
	}
	if (ret < 0)
		goto out;
	snprintf(cg->desc, sizeof cg->desc, "cgroup v%d (pids, memory)", cg->version);
	*out = cg;
	cg = NULL;
out:
	cgroup_close(cg);
	free(mi);
	free(pc);
	return ret;
}

int cgroup_open(struct cgroups **out, char *why, size_t why_size)
{
	int ret = 0;

	pthread_mutex_lock(&shared_lock);
	if (shared && shared->shared_by == getpid()) {
		shared_users++;
		*out = shared;
	} else if ((ret = cgroup_open_from("/proc/self/mountinfo", "/proc/self/cgroup", getpid(),
					   out, why, why_size)) == 0) {
		/* a forked child's copy of its parent's is left alone */
		shared = *out;
		shared->shared_by = getpid();
		shared_users = 1;
	}
	pthread_mutex_unlock(&shared_lock);
	return ret;
}

const char *cgroup_describe(const struct cgroups *cg)
{
	return cg->desc;
}

void cgroup_close(struct cgroups *cg)
{
	if (!cg)
		return;
	if (cg->shared_by) {
		pthread_mutex_lock(&shared_lock);
		if (--shared_users > 0) {
			pthread_mutex_unlock(&shared_lock);
			return;
		}
		shared = NULL;
		pthread_mutex_unlock(&shared_lock);
	}
	for (int i = 0; i < cg->n; i++) {
		if (cg->h[i].base)
			rmdir(cg->h[i].base);
		free(cg->h[i].base);
	}
	free(cg);
}

/* ---- leaves ---- */

static int set_limits(const struct cgroups *cg, const struct hierarchy *h, const char *dir,
		      const struct cgroup_limits *l)
{
	char value[64];
	int ret = 0;

	if (h->pids && l->processes > 0) {
		snprintf(value, sizeof value, "%ld", l->processes);
		ret = write_text(dir, "pids.max", value);
	}
	if (ret == 0 && h->memory && l->memory_mb > 0) {
		snprintf(value, sizeof value, "%lld", (long long)l->memory_mb * 1024 * 1024);
		ret = write_text(dir, cg->version == 2 ? "memory.max" : "memory.limit_in_bytes",
				 value);
		/* No swap beyond the limit, where the kernel counts swap. */
		if (ret == 0)
			write_text(dir, cg->version == 2 ? "memory.swap.max" :
				   "memory.memsw.limit_in_bytes", cg->version == 2 ? "0" : value);
	}
	return ret;
}

int cgroup_leaf_make(struct cgroups *cg, unsigned id, const struct cgroup_limits *l,
		     struct cgroup_leaf *leaf)
{
	int ret = 0;

	memset(leaf, 0, sizeof *leaf);
	for (int i = 0; i < CGROUP_MAX_DIRS; i++)
		leaf->procs_fd[i] = -1;
	for (int i = 0; i < cg->n && ret == 0; i++) {
		char path[4096];

		if (asprintf(&leaf->dirs[i], "%s/%u", cg->h[i].base, id) < 0) {
			leaf->dirs[i] = NULL;
			ret = -ENOMEM;
			break;
		}
		leaf->n = i + 1;
		if (mkdir(leaf->dirs[i], 0755) < 0) {
			ret = -errno;
			free(leaf->dirs[i]);
			leaf->dirs[i] = NULL;
			leaf->n = i;
			break;
		}
		ret = set_limits(cg, &cg->h[i], leaf->dirs[i], l);
		snprintf(path, sizeof path, "%s/cgroup.procs", leaf->dirs[i]);
		if (ret == 0 && (leaf->procs_fd[i] = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			ret = -errno;
	}
	if (ret < 0)
		cgroup_leaf_remove(leaf, 0);
	return ret;
}

int cgroup_leaf_enter(const struct cgroup_leaf *leaf)
{
	for (int i = 0; i < leaf->n; i++)
		if (write(leaf->procs_fd[i], "0", 1) < 0)
			return -errno;
	return 0;
}

bool cgroup_leaf_busy(const struct cgroup_leaf *leaf)
{
	char path[4096], c;
	ssize_t n = 0;
	int fd;

	if (leaf->n == 0 ||
	    snprintf(path, sizeof path, "%s/cgroup.procs", leaf->dirs[0]) >= (int)sizeof path)
		return false;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, &c, 1);
	close(fd);
	return n > 0;
}

void cgroup_leaf_remove(struct cgroup_leaf *leaf, int timeout_ms)
{
	struct timespec pause = { 0, 1000000 };

	for (int waited = 0; waited < timeout_ms && cgroup_leaf_busy(leaf); waited++)
		nanosleep(&pause, NULL);
	for (int i = 0; i < leaf->n; i++) {
		if (leaf->procs_fd[i] >= 0)
			close(leaf->procs_fd[i]);
		/* A process that is just gone may keep the directory busy a moment longer. */
		for (int tries = 0; rmdir(leaf->dirs[i]) < 0 && errno == EBUSY && tries < 100; tries++)
			nanosleep(&pause, NULL);
		free(leaf->dirs[i]);
		leaf->dirs[i] = NULL;
		leaf->procs_fd[i] = -1;
	}
	leaf->n = 0;
}
