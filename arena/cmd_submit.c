/*
 * cmd_submit.c - `skipbo-arena submit [--token-file FILE] [--wait] URL NAME
 * PATH`: a bot sent to a competition hosted by `skipbo-arena host`
 * (arena/HOSTING.md, "Submitting"), by its POST /api/bots/NAME/submissions
 * (libcurl). A folder is packed first as tar.gz (libarchive's writer) into
 * a temporary file, .git left out; an archive file is sent as it is. The
 * token comes from a file or SKIPBO_TOKEN, never from the command line,
 * where every user of the machine can read it.
 */
#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accounts.h"
#include "commands.h"
#include "options.h"
#include "work_http.h"

/* A server's answer is read up to this size; a log's tail is its last lines. */
#define ANSWER_MAX (1 << 20)
#define SUBMIT_CONNECT_S 30L
#define LOG_TAIL_LINES 30

static const char submit_usage[] =
	"usage: skipbo-arena submit [--token-file FILE] [--wait] URL NAME PATH\n"
	"\n"
	"Send the bot NAME to the competition hosted at URL (skipbo-arena host,\n"
	"arena/HOSTING.md). PATH is the bot's folder, packed as tar.gz without .git,\n"
	"or an archive (tar, tar.gz, tar.xz, tar.zst, zip) sent as it is. Prints the\n"
	"submission's number and URL once the host has it on disk.\n"
	"\n"
	"  --token-file FILE   the account's token (else the variable SKIPBO_TOKEN;\n"
	"                      never on the command line)\n"
	"  --wait              follow the submission until it is entered or fails,\n"
	"                      printing each state, and the reason and the log's end\n"
	"                      on failure\n"
	"  -h, --help          this text\n"
	"\n"
	"Exit status: 0 submitted (with --wait: entered), 1 refused or failed (the\n"
	"host's reason is printed), 2 on bad usage.\n";

/* One entry of the folder into the archive, its name relative to the folder. */
static int pack_entry(struct archive *out, struct archive *disk, struct archive_entry *e,
		      size_t prefix)
{
	const char *path = archive_entry_sourcepath(e);
	char buf[65536];
	ssize_t n;
	int fd;

	archive_entry_set_pathname(e, path + prefix);
	if (archive_write_header(out, e) != ARCHIVE_OK)
		return -1;
	if (archive_entry_filetype(e) != AE_IFREG || archive_entry_size(e) == 0)
		return 0;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		archive_set_error(disk, errno, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (archive_write_data(out, buf, (size_t)n) != n)
			break;
	close(fd);
	return n == 0 ? 0 : -1;
}

/* dir packed as tar.gz into the open file fd: 0, or 1 after saying why. */
static int pack(const char *dir, int fd)
{
	struct archive *disk = archive_read_disk_new(), *out = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	size_t prefix = strlen(dir) + 1;
	int ret = 1, r;

	if (!disk || !out || !e) {
		warnx("submit: out of memory");
		goto out;
	}
	archive_read_disk_set_symlink_physical(disk);
	archive_read_disk_set_standard_lookup(disk);
	archive_write_set_format_pax_restricted(out);
	archive_write_add_filter_gzip(out);
	if (archive_read_disk_open(disk, dir) != ARCHIVE_OK ||
	    archive_write_open_fd(out, fd) != ARCHIVE_OK) {
		warnx("submit: \"%s\": %s", dir, archive_error_string(disk));
		goto out;
	}
	while ((r = archive_read_next_header2(disk, e)) == ARCHIVE_OK) {
		const char *path = archive_entry_sourcepath(e);
		const char *base = strrchr(path, '/');

		if (strlen(path) < prefix)
			goto descend; /* the folder itself */
		if (!strcmp(base ? base + 1 : path, ".git"))
			continue; /* not descended into either */
		if (pack_entry(out, disk, e, prefix) < 0) {
			warnx("submit: packing \"%s\": %s", path, archive_error_string(out) ?
			      archive_error_string(out) : archive_error_string(disk));
			goto out;
		}
descend:
		if (archive_read_disk_can_descend(disk))
			archive_read_disk_descend(disk);
	}
	if (r != ARCHIVE_EOF) {
		warnx("submit: reading \"%s\": %s", dir, archive_error_string(disk));
		goto out;
	}
	if (archive_write_close(out) != ARCHIVE_OK) {
		warnx("submit: packing \"%s\": %s", dir, archive_error_string(out));
		goto out;
	}
	ret = 0;
out:
	archive_entry_free(e);
	archive_read_free(disk);
	archive_write_free(out);
	return ret;
}

/* url with path appended, one '/' between them. */
static char *url_join(const char *url, const char *path)
{
	size_t n = strlen(url);
	char *out;

	while (n > 0 && url[n - 1] == '/')
		n--;
	if (asprintf(&out, "%.*s/%s", (int)n, url, path) < 0)
		return NULL;
	return out;
}

/* The "error" of a refusal's JSON body, or the body itself. */
static const char *reason(cJSON *doc, const struct work_answer *a)
{
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(doc, "error");

	return cJSON_IsString(why) ? why->valuestring : a->body ? a->body : "no answer";
}

/*
 * One request: GET (body NULL) or POST of the open file body. 0 with the
 * status and answer, or 1 after saying why no answer came.
 */
static int request(const char *url, const char *token, FILE *body, long long size,
		   long *status, struct work_answer *a)
{
	struct work_http_reading r = { a, ANSWER_MAX };
	struct curl_slist *headers = work_http_bearer(token), *tail;
	CURL *c = curl_easy_init();
	CURLcode rc;

	if (!c || !headers) {
		warnx("submit: out of memory");
		curl_slist_free_all(headers);
		if (c)
			curl_easy_cleanup(c);
		return 1;
	}
	if (body && (tail = curl_slist_append(headers, "Content-Type: application/octet-stream")))
		headers = tail;
	/* no bound on the whole request: a large upload on a slow line takes its time */
	work_http_setup(c, url, headers, NULL, SUBMIT_CONNECT_S, 0, &r);
	if (body) {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_READDATA, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
	}
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_slist_free_all(headers);
	curl_easy_cleanup(c);
	if (rc != CURLE_OK) {
		warnx("submit: %s: %s", url, curl_easy_strerror(rc));
		return 1;
	}
	return 0;
}

/* The last LOG_TAIL_LINES lines of submission url's log name, printed. */
static void print_log_tail(const char *url, const char *name, const char *token)
{
	struct work_answer a = { 0 };
	char *log_url = NULL;
	const char *p;
	long status = 0;
	int lines = 0;

	if (asprintf(&log_url, "%s/%s", url, name) < 0)
		return;
	if (request(log_url, token, NULL, 0, &status, &a) == 0 && status == 200 && a.body) {
		for (p = a.body + a.len; p > a.body && lines <= LOG_TAIL_LINES; p--)
			if (p[-1] == '\n' && p != a.body + a.len)
				lines++;
		printf("the end of %s (%s):\n%s%s", name, log_url, p == a.body ? "" : "...\n",
		       p + (p > a.body));
	}
	free(a.body);
	free(log_url);
}

/* Follow submission url until it ends: 0 entered, 1 failed, disabled or unreachable. */
static int follow(const char *url, const char *token)
{
	char last[32] = "";

	for (;;) {
		struct work_answer a = { 0 };
		long status = 0;
		cJSON *doc;
		const cJSON *state, *entry, *why, *stage, *queue;
		int ret = -1;

		if (request(url, token, NULL, 0, &status, &a))
			return 1;
		doc = cJSON_ParseWithLength(a.body ? a.body : "", a.len);
		state = cJSON_GetObjectItemCaseSensitive(doc, "state");
		if (status != 200 || !cJSON_IsString(state)) {
			warnx("submit: %s: %ld: %s", url, status, reason(doc, &a));
			ret = 1;
			goto next;
		}
		entry = cJSON_GetObjectItemCaseSensitive(doc, "entry");
		why = cJSON_GetObjectItemCaseSensitive(doc, "why");
		stage = cJSON_GetObjectItemCaseSensitive(doc, "stage");
		queue = cJSON_GetObjectItemCaseSensitive(doc, "queue");
		if (strcmp(last, state->valuestring)) {
			const cJSON *qwhy = cJSON_GetObjectItemCaseSensitive(queue, "why");

			snprintf(last, sizeof(last), "%s", state->valuestring);
			printf("%s%s%s\n", last, cJSON_IsString(qwhy) ? ": " : "",
			       cJSON_IsString(qwhy) ? qwhy->valuestring : "");
			fflush(stdout);
		}
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "disabled"))) {
			printf("disabled: %s\n", cJSON_IsString(why) ? why->valuestring : "");
			ret = 1;
		} else if (!strcmp(last, "entered")) {
			printf("entered as %s\n", cJSON_IsString(entry) ? entry->valuestring : "?");
			ret = 0;
		} else if (!strcmp(last, "failed")) {
			printf("failed at %s: %s\n", cJSON_IsString(stage) ? stage->valuestring : "?",
			       cJSON_IsString(why) ? why->valuestring : "no reason given");
			print_log_tail(url, cJSON_IsString(stage) &&
				       !strcmp(stage->valuestring, "checking") ? "check.log" :
				       "build.log", token);
			ret = 1;
		}
next:
		cJSON_Delete(doc);
		free(a.body);
		if (ret >= 0)
			return ret;
		sleep(1);
	}
}

/* PATH as the file to send: itself, or the folder packed into a temporary file. */
static FILE *upload_file(const char *path, long long *size)
{
	const char *tmpdir = getenv("TMPDIR");
	char name[4096];
	struct stat st;
	FILE *f;
	int fd;

	if (stat(path, &st) < 0) {
		warn("submit: \"%s\"", path);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!(f = fopen(path, "re")))
			warn("submit: \"%s\"", path);
		*size = (long long)st.st_size;
		return f;
	}
	if ((size_t)snprintf(name, sizeof(name), "%s/skipbo-submit-XXXXXX",
			     tmpdir && *tmpdir ? tmpdir : "/tmp") >= sizeof(name) ||
	    (fd = mkostemp(name, O_CLOEXEC)) < 0) {
		warnx("submit: no temporary file to pack \"%s\" into (TMPDIR): %s", path,
		      strerror(errno));
		return NULL;
	}
	unlink(name); /* gone when closed */
	if (pack(path, fd) || fstat(fd, &st) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    !(f = fdopen(fd, "rb"))) {
		close(fd);
		return NULL;
	}
	*size = (long long)st.st_size;
	return f;
}

static int submit(const char *url, const char *name, const char *path, const char *token,
		  bool wait)
{
	struct work_answer a = { 0 };
	char *target = NULL, *sub_url = NULL, route[128];
	const cJSON *id, *where;
	long long size = 0;
	long status = 0;
	cJSON *doc = NULL;
	FILE *f;
	int ret = 1;

	if (!(f = upload_file(path, &size)))
		return 1;
	snprintf(route, sizeof(route), "api/bots/%s/submissions", name);
	if (!(target = url_join(url, route)) || request(target, token, f, size, &status, &a))
		goto out;
	doc = cJSON_ParseWithLength(a.body ? a.body : "", a.len);
	id = cJSON_GetObjectItemCaseSensitive(doc, "id");
	where = cJSON_GetObjectItemCaseSensitive(doc, "url");
	if (status != 202 || !cJSON_IsNumber(id) || !cJSON_IsString(where)) {
		warnx("submit: refused (%ld): %s", status, reason(doc, &a));
		goto out;
	}
	if (!(sub_url = url_join(url, where->valuestring + (where->valuestring[0] == '/'))))
		goto out;
	printf("submitted %s (%lld bytes): submission %.0f, %s\n", name, size, id->valuedouble,
	       sub_url);
	fflush(stdout);
	ret = wait ? follow(sub_url, token) : 0;
out:
	cJSON_Delete(doc);
	free(a.body);
	free(target);
	free(sub_url);
	fclose(f);
	return ret;
}

int cmd_submit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "token-file", required_argument, NULL, 't' },
		{ "wait", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		OPTIONS_VERSION_ENTRY,
		{ NULL, 0, NULL, 0 },
	};
	char token[ACCOUNTS_TOKEN_LEN + 64];
	const char *token_file = NULL;
	bool wait = false;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			token_file = optarg;
			break;
		case 'w':
			wait = true;
			break;
		case 'h':
			fputs(submit_usage, stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			return options_bad_usage(submit_usage, longopts, argv);
		}
	}
	if (argc - optind != 3) {
		warnx("submit: expected URL NAME PATH (see \"skipbo-arena submit --help\")");
		return 2;
	}
	if ((ret = options_read_token("submit", token_file, token, sizeof(token))))
		return ret;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	ret = submit(argv[optind], argv[optind + 1], argv[optind + 2], token, wait);
	explicit_bzero(token, sizeof(token));
	curl_global_cleanup();
	return ret;
}
