/*
 * server.h - `serve`: the tournaments under some directories shown over HTTP,
 * read only, by libmicrohttpd (no HTTP parsing of our own).
 *
 * URLs (arena/README.md, "serve"): the pages /, /t/N, /t/N/bot/K and the
 * replay viewer /t/N/game/G; the API under /api/ (api.h). N, K and G are
 * decimal numbers naming a catalog entry, a bot of its ranking and a game of
 * its index: no file name is ever made from a URL, so no URL reaches a file
 * outside the directories (`..`, symbolic links and encoded slashes lead to
 * 404 like any unknown path; percent escapes are not decoded at all). Every
 * method but GET and HEAD is answered 405, unless the server was started by
 * server_start_host() with an intake (intake.h), whose routes take POST. Listening on a loopback address,
 * a request whose Host header is not 127.0.0.1, localhost or [::1] (with
 * any port) is answered 403: a web page elsewhere cannot read the API
 * through a name of its own pointed at this machine (DNS rebinding).
 *
 * The daemon runs its own threads (SERVE_THREADS, each with an epoll set),
 * holds at most SERVE_CLIENTS_MAX connections (fewer when the open-file
 * limit is lower; the soft limit is raised to the hard one), closes a
 * connection idle for SERVE_IDLE_S seconds, and gives each connection
 * SERVE_CONNECTION_MEMORY bytes for its request. A response is built whole
 * (a page of the game list is at most API_PAGE_BYTES of records, a replay
 * its document) except the JSON-lines stream of every record, written a
 * buffer at a time.
 */
#ifndef SKIPBO_SERVER_H
#define SKIPBO_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_DEFAULT_LISTEN "127.0.0.1:8080"
#define SERVE_THREADS 4
#define SERVE_CLIENTS_MAX 4096
#define SERVE_IDLE_S 60
#define SERVE_CONNECTION_MEMORY (32 * 1024)

struct server;

/*
 * Serve every tournament under dirs (ndirs of them) on listen ("ADDR:PORT",
 * "[ADDR6]:PORT"; NULL: SERVE_DEFAULT_LISTEN; port 0: any free port).
 * missing_ok: a directory that does not exist yet is looked for again
 * later (`run --serve`). 0 with *out, or a negative errno with err: the
 * address, a directory that is none, or why the daemon did not start.
 */
int server_start(const char *const *dirs, size_t ndirs, const char *listen, bool missing_ok,
		 struct server **out, char *err, size_t err_size);

struct intake;

/*
 * `host`: the competition in dir served as server_start() serves it, with
 * intake's routes (intake.h) besides; cert and key (PEM files, both or
 * neither) make it HTTPS (libmicrohttpd with GnuTLS). The intake stays
 * the caller's, and must outlive the server.
 */
int server_start_host(const char *dir, const char *listen, const char *cert, const char *key,
		      struct intake *intake, struct server **out, char *err, size_t err_size);

/* The base URL, "http://127.0.0.1:8080/" ("https://" with TLS; the port bound, when 0 was asked). */
const char *server_url(const struct server *s);

/* Stop serving (connections closed) and free everything. NULL is fine. */
void server_stop(struct server *s);

#endif
