/*
 * attack.c - the playing part of every attack bot, and its helpers (contract
 * in attack.h).
 */
#include "attack.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *attack_token = "";

void attack_report(const char *name, bool succeeded, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ATTACK %s: %s: ", name, succeeded ? "SUCCEEDED" : "blocked");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void attack_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The name of pid's program: argv[0] without its directory, into buf; false if unreadable. */
static bool program_name(pid_t pid, char *buf, size_t size)
{
	char path[64], cmd[4096], *slash;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, cmd, sizeof cmd - 1);
	close(fd);
	if (n <= 0)
		return false;
	cmd[n] = '\0';
	slash = strrchr(cmd, '/');
	snprintf(buf, size, "%s", slash ? slash + 1 : cmd);
	return true;
}

size_t attack_find(const char *marker, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)) && n < max) {
		char cmd[4096];
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)atoi(e->d_name);
		if (pid != getpid() && program_name(pid, cmd, sizeof cmd) && strstr(cmd, marker))
			out[n++] = pid;
	}
	if (d)
		closedir(d);
	return n;
}

pid_t attack_find_arena(void)
{
	char cmd[4096];
	pid_t pid = getppid();

	if (program_name(pid, cmd, sizeof cmd) && strstr(cmd, "skipbo-arena"))
		return pid;
	return attack_find("skipbo-arena", &pid, 1) ? pid : 0;
}

long attack_read_memory(pid_t pid)
{
	char path[64], line[512], buf[256];
	unsigned long start = 0, end = 0;
	long got = -ENOENT;
	FILE *maps;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	maps = fopen(path, "re");
	/* The first readable mapping will do: any byte read is a byte stolen. */
	while (maps && got < 0 && fgets(line, sizeof line, maps)) {
		char perms[8];
		ssize_t n;

		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3 || perms[0] != 'r')
			continue;
		n = pread(fd, buf, sizeof buf, (off_t)start);
		got = n > 0 ? n : -errno;
	}
	if (!maps)
		got = -errno;
	else
		fclose(maps);
	close(fd);
	return got;
}

/* ---- playing ---- */

__attribute__((weak)) void attack_message(const cJSON *msg)
{
	(void)msg;
}

static void send_json(cJSON *msg)
{
	char *text = cJSON_PrintUnformatted(msg);

	if (!text)
		exit(2);
	printf("%s\n", text);
	fflush(stdout);
	free(text);
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	bool attacked = false;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TOKEN [ARG...]\n", argv[0]);
		return 2;
	}
	attack_token = argv[1];
	while (getline(&line, &cap, stdin) > 0) {
		cJSON *msg = cJSON_Parse(line), *out;
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg, "type");

		if (!cJSON_IsString(type)) {
			cJSON_Delete(msg);
			continue;
		}
		if (strcmp(type->valuestring, "quit") == 0) {
			cJSON_Delete(msg);
			break;
		}
		if (strcmp(type->valuestring, "request") == 0 && !attacked) {
			attacked = true;
			attack_main(argc, argv);
		}
		attack_message(msg);
		if (strcmp(type->valuestring, "hello") == 0) {
			out = cJSON_CreateObject();
			cJSON_AddStringToObject(out, "type", "hello");
			cJSON_AddNumberToObject(out, "protocol", 1);
			cJSON_AddStringToObject(out, "name", "attack");
			cJSON_AddStringToObject(out, "version", "1");
			send_json(out);
			cJSON_Delete(out);
		} else if (strcmp(type->valuestring, "request") == 0) {
			const cJSON *legal = cJSON_GetObjectItemCaseSensitive(msg, "legal");

			out = cJSON_CreateObject();
			cJSON_AddStringToObject(out, "type", "move");
			cJSON_AddItemToObject(out, "move",
					      cJSON_Duplicate(cJSON_GetArrayItem(legal, 0), 1));
			send_json(out);
			cJSON_Delete(out);
		}
		cJSON_Delete(msg);
	}
	free(line);
	return 0;
}
