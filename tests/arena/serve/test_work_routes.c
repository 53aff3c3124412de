/*
 * test_work_routes.c - the workers' routes (work_routes.h) over real HTTP
 * against a desk of the test's own (below, desk.h's functions): each desk
 * error becomes its status with the desk's sentence, no work is 204 with
 * Retry-After, a lease's ask is read strictly, a results batch reaches the
 * desk whole and one over the bound is refused 413, a bundle is streamed
 * from its file and a private one refused to an untrusted worker, and the
 * workers' document loses its names for anyone but an organiser.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <microhttpd.h>

#include "desk.h"
#include "work_routes.h"

#define SHA_PUBLIC "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_PRIVATE "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define BUNDLE_TEXT "the bytes of a tar archive\n"

static char bundle_path[64];
static size_t results_len;   /* what the desk's last desk_results received */
static size_t asked_bundles;  /* and desk_lease's bundles */

/* The desk: answers chosen by the worker's name and the lease's id. */
int desk_lease(struct desk *d, const struct desk_ask *ask, char **lease, unsigned *retry_after,
	       char *err, size_t err_size)
{
	(void)d;
	asked_bundles = ask->nbundles;
	if (strcmp(ask->version, "1.4.0")) {
		snprintf(err, err_size, "the worker runs %s, the host 1.4.0", ask->version);
		return -EPROTO;
	}
	if (!strcmp(ask->worker, "bad")) {
		snprintf(err, err_size, "suspended: its replay differed");
		return -EPERM;
	}
	if (!strcmp(ask->worker, "idle")) {
		*retry_after = 7;
		return 0;
	}
	*lease = strdup("{\"lease\":\"L1\"}");
	return 1;
}

int desk_results(struct desk *d, const char *worker, const char *id, const char *body,
		 size_t len, char **answer, char *err, size_t err_size)
{
	(void)d;
	(void)worker;
	results_len = len;
	if (!strcmp(id, "Lold")) {
		snprintf(err, err_size, "lease Lold has ended");
		return -ESTALE;
	}
	if (strcmp(id, "L1")) {
		snprintf(err, err_size, "no lease %s", id);
		return -ENOENT;
	}
	if (len == 0 || body[0] != '{' || strlen(body) != len) {
		snprintf(err, err_size, "not a results document");
		return -EINVAL;
	}
	*answer = strdup("{\"accepted\":[],\"rejected\":[],\"expires_in\":120}");
	return 0;
}

int desk_release(struct desk *d, const char *worker, const char *id, const char *why,
		 char *err, size_t err_size)
{
	(void)d;
	(void)worker;
	(void)why;
	if (strcmp(id, "L1")) {
		snprintf(err, err_size, "no lease %s", id);
		return -ENOENT;
	}
	return 0;
}

int desk_bundle(struct desk *d, const char *sha256, bool trusted, char *path, size_t size)
{
	(void)d;
	if (!strcmp(sha256, SHA_PRIVATE) && !trusted)
		return -EPERM;
	if (strcmp(sha256, SHA_PUBLIC) && strcmp(sha256, SHA_PRIVATE))
		return -ENOENT;
	snprintf(path, size, "%s", bundle_path);
	return 0;
}

cJSON *desk_state(struct desk *d)
{
	(void)d;
	return cJSON_Parse("{\"workers\":[{\"name\":\"box1\",\"trusted\":true,\"suspended\":true,"
			   "\"why\":\"box1's replay differed\",\"last_heard\":null,\"leases\":1,"
			   "\"games\":10,\"games_per_second\":2.5,\"alive\":true}],"
			   "\"parked\":[{\"deal\":\"t0003-d0000\",\"games\":2,\"reasons\":"
			   "[\"expired (box1)\"]}],\"leased_games\":0}");
}

/* The server: the worker named by X-Worker, trusted with X-Trusted. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *data,
				  size_t *size, void **con_cls)
{
	const char *worker = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Worker");
	bool trusted = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Trusted") != NULL;
	struct work_request *req = NULL;
	enum MHD_Result ret;

	(void)cls;
	(void)version;
	if (*con_cls)
		return work_routes_body(NULL, conn, *con_cls, data, size);
	if (!strcmp(url, "/api/workers"))
		return work_routes_workers(NULL, conn, worker && !strcmp(worker, "organiser"));
	ret = work_routes_begin(NULL, conn, url, method, worker ? worker : "w", trusted, &req);
	*con_cls = req;
	return ret;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	work_routes_free(*con_cls);
	*con_cls = NULL;
}

struct fixture {
	struct MHD_Daemon *daemon;
	uint16_t port;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	snprintf(bundle_path, sizeof(bundle_path), "/tmp/test_work_routes-XXXXXX");
	fd = mkstemp(bundle_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, BUNDLE_TEXT, strlen(BUNDLE_TEXT)), (ssize_t)strlen(BUNDLE_TEXT));
	close(fd);
	f->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
				     NULL, on_request, NULL, MHD_OPTION_NOTIFY_COMPLETED,
				     on_completed, NULL, MHD_OPTION_END);
	assert_non_null(f->daemon);
	f->port = MHD_get_daemon_info(f->daemon, MHD_DAEMON_INFO_BIND_PORT)->port;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	MHD_stop_daemon(f->daemon);
	unlink(bundle_path);
	free(f);
	return 0;
}

struct answer {
	int status;
	char *text;   /* the whole response, headers and body */
	const char *body;
};

/* One request of method to url with extra headers (each ending "\r\n") and a body. */
static struct answer ask(const struct fixture *f, const char *method, const char *url,
			 const char *headers, const char *body, size_t len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(f->port) };
	struct answer a = { 0 };
	size_t have = 0, cap = 1 << 16;
	char head[1024];
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	snprintf(head, sizeof(head), "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
		 "Content-Length: %zu\r\n%s\r\n", method, url, len, headers);
	assert_int_equal(write(fd, head, strlen(head)), (ssize_t)strlen(head));
	for (size_t off = 0; off < len; off += (size_t)n) {
		n = send(fd, body + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			break; /* refused before the whole body went: the answer is read all the same */
	}
	a.text = malloc(cap);
	while ((n = read(fd, a.text + have, cap - have - 1)) > 0)
		have += (size_t)n;
	a.text[have] = '\0';
	close(fd);
	assert_int_equal(sscanf(a.text, "HTTP/1.1 %d", &a.status), 1);
	a.body = strstr(a.text, "\r\n\r\n");
	a.body = a.body ? a.body + 4 : "";
	return a;
}

static void expect(const struct fixture *f, const char *method, const char *url,
		   const char *headers, const char *body, int status, const char *words)
{
	struct answer a = ask(f, method, url, headers, body, strlen(body));

	if (a.status != status || !strstr(a.text, words))
		fail_msg("%s %s: expected %d with \"%s\", got:\n%s", method, url, status, words,
			 a.text);
	free(a.text);
}

static const char good_ask[] = "{\"version\":\"1.4.0\",\"cpus\":4,\"jobs\":2,\"bundles\":[\""
	SHA_PUBLIC "\"]}";

static void test_lease(void **state)
{
	struct fixture *f = *state;

	expect(f, "POST", "/api/work/lease", "", good_ask, 200, "{\"lease\":\"L1\"}");
	assert_int_equal(asked_bundles, 1);
	expect(f, "POST", "/api/work/lease", "X-Worker: idle\r\n", good_ask, 204,
	       "Retry-After: 7");
	expect(f, "POST", "/api/work/lease", "X-Worker: bad\r\n", good_ask, 403,
	       "suspended: its replay differed");
	expect(f, "POST", "/api/work/lease", "", "{\"version\":\"1.3.0\",\"cpus\":1,\"jobs\":1}",
	       409, "the worker runs 1.3.0, the host 1.4.0");
	/* the ask read strictly */
	expect(f, "POST", "/api/work/lease", "", "{\"cpus\":1,\"jobs\":1}", 400, "version\\\": expected");
	expect(f, "POST", "/api/work/lease", "", "{\"version\":\"1.4.0\",\"cpus\":0,\"jobs\":1}",
	       400, "cpus");
	expect(f, "POST", "/api/work/lease", "", "{\"version\":\"1.4.0\",\"cpus\":1,\"jobs\":1,"
	       "\"bundles\":[\"../x\"]}", 400, "\\\"bundles\\\": expected SHA-256s");
	expect(f, "POST", "/api/work/lease", "", "not json", 400, "the ask is not JSON");
	expect(f, "POST", "/api/work/elsewhere", "", "{}", 404, "WORKERS.md");
}

static void test_results_and_release(void **state)
{
	struct fixture *f = *state;
	static const char batch[] = "{\"done\":false,\"games\":0}\n";
	struct answer a;
	char *big;

	expect(f, "POST", "/api/work/leases/L1/results", "", batch, 200, "\"expires_in\":120");
	assert_int_equal(results_len, strlen(batch));
	expect(f, "POST", "/api/work/leases/Lold/results", "", batch, 409, "lease Lold has ended");
	expect(f, "POST", "/api/work/leases/L9/results", "", batch, 404, "no lease L9");
	expect(f, "POST", "/api/work/leases/L1/results", "", "[]", 400, "not a results document");
	expect(f, "POST", "/api/work/leases/..%2F/results", "", batch, 404, "no such route");
	expect(f, "POST", "/api/work/leases/L1/release", "", "{\"why\":\"stopping\"}", 200,
	       "\"released\":true");
	expect(f, "POST", "/api/work/leases/L2/release", "", "{\"why\":\"stopping\"}", 404,
	       "no lease L2");
	expect(f, "POST", "/api/work/leases/L1/release", "", "{}", 400, "{\\\"why\\\"");

	/* a batch past the bound: refused by its length, before the desk sees it */
	results_len = 0;
	big = malloc(WORK_RESULTS_MAX + 2);
	memset(big, ' ', WORK_RESULTS_MAX + 1);
	big[0] = '{';
	a = ask(f, "POST", "/api/work/leases/L1/results", "", big, WORK_RESULTS_MAX + 1);
	assert_int_equal(a.status, 413);
	assert_non_null(strstr(a.body, "smaller batches"));
	assert_int_equal(results_len, 0);
	free(a.text);
	/* one at the bound is taken whole */
	a = ask(f, "POST", "/api/work/leases/L1/results", "", big, WORK_RESULTS_MAX);
	assert_int_equal(a.status, 200);
	assert_int_equal(results_len, WORK_RESULTS_MAX);
	free(a.text);
	free(big);
}

static void test_bundles(void **state)
{
	struct fixture *f = *state;

	expect(f, "GET", "/api/work/bundles/" SHA_PUBLIC, "", "", 200, BUNDLE_TEXT);
	expect(f, "GET", "/api/work/bundles/" SHA_PUBLIC, "", "", 200,
	       "Content-Type: application/x-tar");
	expect(f, "GET", "/api/work/bundles/" SHA_PRIVATE, "", "", 403, "private to trusted");
	expect(f, "GET", "/api/work/bundles/" SHA_PRIVATE, "X-Trusted: 1\r\n", "", 200,
	       BUNDLE_TEXT);
	expect(f, "GET", "/api/work/bundles/cccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
	       "cccccccc", "", "", 404, "no such bundle");
	expect(f, "GET", "/api/work/bundles/../../etc/passwd", "", "", 404, "64 lower-case hex");
}

static void test_workers(void **state)
{
	struct fixture *f = *state;
	struct answer a;

	expect(f, "GET", "/api/workers", "X-Worker: organiser\r\n", "", 200,
	       "\"reasons\":[\"expired (box1)\"]");
	expect(f, "GET", "/api/workers", "X-Worker: organiser\r\n", "", 200, "\"name\":\"box1\"");
	a = ask(f, "GET", "/api/workers", "", "", 0);
	assert_int_equal(a.status, 200);
	assert_null(strstr(a.body, "box1"));
	assert_non_null(strstr(a.body, "\"games_per_second\":2.5"));
	assert_non_null(strstr(a.body, "\"deal\":\"t0003-d0000\""));
	free(a.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lease),
		cmocka_unit_test(test_results_and_release),
		cmocka_unit_test(test_bundles),
		cmocka_unit_test(test_workers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
