/*
 * bot_path.c - which program a bot_spec names, and its environment
 * (contract in bot.h: bot_resolve; the rest in bot_internal.h). Done in the
 * arena before a start, since it allocates.
 */
#include "bot_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static size_t env_key_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? (size_t)(eq - kv) : strlen(kv);
}

/* environ with spec->env laid over it (same KEY replaced). Strings are borrowed. */
int bot_envp(char *const *extra, char ***out)
{
	size_t nbase = 0, nextra = 0, n = 0;
	char **envp;

	while (environ && environ[nbase])
		nbase++;
	while (extra && extra[nextra])
		nextra++;
	envp = reallocarray(NULL, nbase + nextra + 1, sizeof *envp);
	if (!envp)
		return -ENOMEM;
	for (size_t i = 0; i < nbase; i++) {
		size_t klen = env_key_len(environ[i]);
		bool overridden = false;

		for (size_t j = 0; j < nextra && !overridden; j++)
			overridden = env_key_len(extra[j]) == klen &&
				     strncmp(extra[j], environ[i], klen) == 0;
		if (!overridden)
			envp[n++] = environ[i];
	}
	for (size_t j = 0; j < nextra; j++)
		envp[n++] = extra[j];
	envp[n] = NULL;
	*out = envp;
	return 0;
}

static const char *envp_get(char **envp, const char *key)
{
	size_t klen = strlen(key);

	for (; *envp; envp++)
		if (strncmp(*envp, key, klen) == 0 && (*envp)[klen] == '=')
			return *envp + klen + 1;
	return NULL;
}

/*
 * Can this user execute path? If not, *err is EACCES when a file is there
 * that cannot run, else ENOENT: a directory the user cannot search (such as
 * root's pyenv shims in a PATH inherited through su) shows it nothing to run.
 */
static bool is_executable_file(const char *path, int *err)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		*err = ENOENT;
		return false;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
		*err = EACCES;
		return false;
	}
	return true;
}

/*
 * execvp's search, done in the parent because it allocates. Returns 0 and a
 * malloc'ed path, or -ENOENT / -EACCES (something was found but cannot run;
 * unlike glibc's execvp, not a directory it could not search).
 */
int bot_resolve_in(const char *file, char **envp, char **out)
{
	const char *path = envp_get(envp, "PATH");
	int err = 0, result = -ENOENT;

	if (strchr(file, '/')) {
		*out = strdup(file);
		return *out ? 0 : -ENOMEM;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t dlen = strcspn(path, ":");
		char *cand;

		if (asprintf(&cand, "%.*s/%s", (int)dlen, dlen ? path : ".", file) < 0)
			return -ENOMEM;
		if (is_executable_file(cand, &err)) {
			*out = cand;
			return 0;
		}
		free(cand);
		if (err == EACCES)
			result = -EACCES;
		path += dlen + (path[dlen] == ':');
	}
	return result;
}

/*
 * A file the kernel can execute starts with "#!" or is a binary (ELF). A
 * script without a #! line would fail with ENOEXEC, or, where the sandbox
 * starts it through /bin/sh (launcher.h), run under /bin/sh whatever its
 * language: refused before the start. A file that cannot be read (execute-only) is left to exec.
 */
int bot_check_format(const char *path, const char *name, char *why, size_t why_size)
{
	unsigned char head[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof head);
	close(fd);
	if (n < 0 || (n >= 2 && head[0] == '#' && head[1] == '!') ||
	    (n == 4 && memcmp(head, "\177ELF", 4) == 0))
		return 0;
	snprintf(why, why_size, "bot \"%s\": \"%s\" is not a program the system can start: a "
		 "script needs a first line such as #!/bin/sh or #!/usr/bin/env python3", name, path);
	return -ENOEXEC;
}

int bot_resolve(const struct bot_spec *spec, char **path)
{
	char **envp = NULL;
	int r = bot_envp(spec->env, &envp);

	if (r == 0)
		r = bot_resolve_in(spec->argv[0], envp, path);
	free(envp);
	return r;
}
