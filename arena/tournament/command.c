/*
 * command.c - a bot's command found as an executable: a path, a name in PATH,
 * or a bundled bot beside the arena (contract in config.h).
 */
#include "config.h"
#include "jsonc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory this program runs from, in exe (PATH_MAX bytes). 0 or -errno. */
static int program_dir(char *exe)
{
	ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	char *slash;

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')))
		*slash = '\0';
	return 0;
}

int config_bundled_bot(const char *name, char *out, size_t out_size, char *dir, size_t dir_size)
{
	char exe[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
	int ret = program_dir(exe);

	if (ret < 0)
		return ret;
	/* <build>/arena/skipbo-arena has its bots in <build>/bots; an installed one beside it */
	ret = -ENOENT;
	for (int beside = 0; beside < 2 && ret < 0; beside++) {
		if ((size_t)snprintf(path, sizeof(path), beside ? "%s/%s" : "%s/../bots/%s", exe,
				     name) >= sizeof(path) || access(path, X_OK) < 0)
			continue;
		/* a path without "..", for what is printed */
		ret = strlcpy(out, realpath(path, real) ? real : path, out_size) < out_size ? 0 :
			-ENAMETOOLONG;
	}
	if (dir && (size_t)snprintf(path, sizeof(path), "%s/../bots", exe) < sizeof(path))
		snprintf(dir, dir_size, "%s or %s", realpath(path, real) ? real : path, exe);
	return ret;
}

/* Names listed per directory when looking for a near one (a big /usr/bin is cut). */
#define NEAR_NAMES_MAX 8192

/*
 * The name in dir nearest to base by edit distance (jsonc_nearest), as dir/name
 * into near (near[0] stays as it is when none is near enough): a misspelt
 * command's "did you mean".
 */
static void nearest_in(const char *dir, const char *base, char *near, size_t size)
{
	const char **names = calloc(NEAR_NAMES_MAX + 1, sizeof(*names));
	DIR *d = names ? opendir(*dir ? dir : ".") : NULL;
	struct dirent *e;
	size_t n = 0;
	int k;

	while (d && n < NEAR_NAMES_MAX && (e = readdir(d)))
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	if (d)
		closedir(d);
	if (n && (k = jsonc_nearest(base, names)) >= 0 && strcmp(names[k], base) != 0)
		snprintf(near, size, "%s%s%s", dir, *dir ? "/" : "", names[k]);
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
}

/* "; did you mean \"NEAR\"?" after why, when a name near command's is in one of dirs
 * (separated by ':'). */
static void suggest(const char *base, const char *dirs, char *why, size_t why_size)
{
	char *copy = strdup(dirs), *dir, *save = NULL, near[PATH_MAX] = "";
	size_t len = strlen(why);

	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !near[0];
	     dir = strtok_r(NULL, ":", &save))
		nearest_in(dir, base, near, sizeof(near));
	free(copy);
	if (near[0] && len < why_size)
		snprintf(why + len, why_size - len, "; did you mean \"%s\"?", near);
}

int config_resolve_command(const char *command, const char *cwd, char *out, size_t out_size,
			   char *why, size_t why_size)
{
	struct stat st;
	char *path = NULL, *dir, *save = NULL, bundled[PATH_MAX];
	int ret = -ENOENT;

	if (strchr(command, '/')) {
		while (command[0] == '.' && command[1] == '/')
			command += 2;
		if (command[0] == '/')
			ret = strlcpy(out, command, out_size) >= out_size ? -ENAMETOOLONG : 0;
		else
			ret = snprintf(out, out_size, "%s/%s", cwd, command) >= (int)out_size ?
				-ENAMETOOLONG : 0;
		if (ret < 0)
			goto out;
		ret = -ENOENT;
		if (stat(out, &st) < 0) {
			char folder[PATH_MAX];

			snprintf(why, why_size, "no such file: \"%s\"", out);
			snprintf(folder, sizeof(folder), "%.*s", (int)(strrchr(out, '/') - out), out);
			suggest(strrchr(out, '/') + 1, folder, why, why_size);
			goto out;
		}
		goto found;
	}
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin");
	ret = -ENOMEM;
	if (!path)
		goto out;
	ret = -ENOENT;
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		if (snprintf(out, out_size, "%s/%s", *dir ? dir : ".", command) >= (int)out_size)
			continue;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			goto found;
	}
	if (config_bundled_bot(command, out, out_size, NULL, 0) == 0 && stat(out, &st) == 0)
		goto found;
	config_bundled_bot(command, out, out_size, bundled, sizeof(bundled));
	snprintf(why, why_size, "command \"%s\" not found in PATH (%s) nor among the bundled "
		 "bots (%s): give its path (./%s if it is here), or add its directory to PATH",
		 command, getenv("PATH") ? getenv("PATH") : "unset", bundled, command);
	{
		char dirs[2 * PATH_MAX + 2], *or = strstr(bundled, " or ");

		/* the bundled bots first: a misspelt skipbo-medium is likelier than a tool */
		snprintf(dirs, sizeof(dirs), "%.*s:%s", or ? (int)(or - bundled) : (int)strlen(bundled),
			 bundled, getenv("PATH") ? getenv("PATH") : "");
		suggest(command, dirs, why, why_size);
	}
	goto out;
found:
	ret = -EACCES;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "\"%s\" is not a regular file", out);
		goto out;
	}
	if (access(out, X_OK) < 0) {
		snprintf(why, why_size, "\"%s\" is not executable", out);
		goto out;
	}
	ret = 0;
out:
	free(path);
	return ret;
}
