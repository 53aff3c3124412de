/*
 * league_hide.c - what of a league's directory its bots may not see
 * (league_hide.h).
 */
#include "league_hide.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Does path lead to one of the kept directories: is it one of them (*equal), or above one? */
static bool leads_to(const char *path, const struct strlist *kept, bool *equal)
{
	size_t len = strlen(path);

	*equal = false;
	for (size_t i = 0; i < kept->n; i++) {
		if (strncmp(kept->v[i], path, len))
			continue;
		if (kept->v[i][len] == '\0')
			*equal = true;
		else if (kept->v[i][len] != '/')
			continue;
		return true;
	}
	return false;
}

/* path hidden whole, or its children each looked at in turn on the way to a kept one. */
static void hide_below(const char *path, const struct strlist *kept, struct strlist *out)
{
	struct dirent *e;
	struct stat st;
	bool equal;
	DIR *d;

	if (!leads_to(path, kept, &equal)) {
		strlist_add(out, path);
		return;
	}
	if (equal)
		return;
	/* a link or anything but a real directory on the way leads nowhere: hidden */
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || !(d = opendir(path))) {
		strlist_add(out, path);
		return;
	}
	while ((e = readdir(d))) {
		char child[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, e->d_name) >= sizeof(child)) {
			/* a name too long to hide one by one: the whole folder stays hidden */
			strlist_add(out, path);
			break;
		}
		hide_below(child, kept, out);
	}
	closedir(d);
}

int league_hide(const char *dir, const char *const *cwds, size_t ncwds, struct strlist *out)
{
	struct strlist kept = { 0 };
	char real[PATH_MAX], cwd[PATH_MAX];
	size_t len;
	int ret;

	*out = (struct strlist){ 0 };
	if (!realpath(dir, real))
		return -errno;
	len = strlen(real);
	for (size_t i = 0; i < ncwds; i++)
		if (cwds[i] && realpath(cwds[i], cwd) && !strncmp(cwd, real, len) &&
		    cwd[len] == '/')
			strlist_add_unique(&kept, cwd);
	hide_below(real, &kept, out);
	ret = out->error || kept.error ? -ENOMEM : 0;
	strlist_free(&kept);
	if (ret < 0)
		strlist_free(out);
	return ret;
}
