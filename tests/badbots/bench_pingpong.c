/*
 * bench_pingpong - the raw pipe round-trip rate the arena is measured against.
 *
 * usage: bench_pingpong [-t SECONDS] [-q REQUEST_BYTES] [-a ANSWER_BYTES]
 *                       [-p same|cross|none]...
 *
 * Two processes exchange newline-terminated lines over a pair of pipes: the
 * parent writes a request (default 1500 bytes, the size of a typical
 * mid-game "request"), the child reads up to the newline and answers with a
 * line of ANSWER_BYTES (default 60, a "move"), the parent reads up to the
 * newline. Both sides use plain blocking reads of up to 64 KiB, no poll: this
 * is the ceiling a bot protocol over pipes can reach.
 *
 * Placements: "same" pins both processes to one CPU (the arena's default for
 * a game and its bots), "cross" pins them to two different CPUs, "none"
 * leaves them to the scheduler. Without -p all three run (cross only with two
 * or more allowed CPUs). Each prints one line:
 *
 *   placement=same cpus=1,1 round_trips=N seconds=S rate=R/s latency=U us
 */
#include <err.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)
/* Check the clock every this many round trips, not on each. */
#define CLOCK_EVERY 64

struct line_reader {
	char buf[BUF_SIZE];
	size_t len;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0)
		err(1, "cannot pin to cpu %d", cpu);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err(1, "write");
		p += w;
		n -= (size_t)w;
	}
}

/* Consume one line; 0 at EOF. Lines are never pipelined here, so the
 * buffer holds at most one at a time. */
static int read_line(int fd, struct line_reader *r)
{
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->len);
		ssize_t n;

		if (nl) {
			size_t used = (size_t)(nl - r->buf) + 1;

			memmove(r->buf, nl + 1, r->len - used);
			r->len -= used;
			return 1;
		}
		if (r->len == sizeof r->buf)
			errx(1, "line longer than %d bytes", BUF_SIZE);
		n = read(fd, r->buf + r->len, sizeof r->buf - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err(1, "read");
		if (n == 0)
			return 0;
		r->len += (size_t)n;
	}
}

static char *make_line(size_t bytes, char fill)
{
	char *line = malloc(bytes);

	if (!line)
		err(1, "malloc");
	memset(line, fill, bytes - 1);
	line[bytes - 1] = '\n';
	return line;
}

static __attribute__((noreturn)) void echo_child(int in, int out, int cpu, size_t answer_bytes)
{
	static struct line_reader r;
	char *answer = make_line(answer_bytes, 'a');

	pin(cpu);
	while (read_line(in, &r))
		write_all(out, answer, answer_bytes);
	_exit(0);
}

static void run(const char *placement, int parent_cpu, int child_cpu, double seconds,
		size_t request_bytes, size_t answer_bytes)
{
	static struct line_reader r;
	int to_child[2], to_parent[2];
	char *request = make_line(request_bytes, 'q');
	long rounds = 0;
	double t0, t1;
	pid_t pid;

	if (pipe(to_child) < 0 || pipe(to_parent) < 0)
		err(1, "pipe");
	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		echo_child(to_child[0], to_parent[1], child_cpu, answer_bytes);
	}
	close(to_child[0]);
	close(to_parent[1]);
	pin(parent_cpu);

	/* A short warm-up so both processes are running and pinned. */
	for (int i = 0; i < 1000; i++) {
		write_all(to_child[1], request, request_bytes);
		if (!read_line(to_parent[0], &r))
			errx(1, "child exited");
	}
	t0 = now_s();
	do {
		for (int i = 0; i < CLOCK_EVERY; i++) {
			write_all(to_child[1], request, request_bytes);
			if (!read_line(to_parent[0], &r))
				errx(1, "child exited");
		}
		rounds += CLOCK_EVERY;
		t1 = now_s();
	} while (t1 - t0 < seconds);

	close(to_child[1]);
	close(to_parent[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	free(request);
	if (parent_cpu < 0)
		printf("placement=%s cpus=- ", placement);
	else
		printf("placement=%s cpus=%d,%d ", placement, parent_cpu, child_cpu);
	printf("round_trips=%ld seconds=%.3f rate=%.0f/s latency=%.2f us\n", rounds, t1 - t0,
	       rounds / (t1 - t0), (t1 - t0) * 1e6 / rounds);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_pingpong [-t SECONDS] [-q REQUEST_BYTES] [-a ANSWER_BYTES] "
			"[-p same|cross|none]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double seconds = 1.0;
	size_t request_bytes = 1500, answer_bytes = 60;
	int want_same = 0, want_cross = 0, want_none = 0;
	int cpus[2], ncpus = 0;
	cpu_set_t set;
	int opt;

	while ((opt = getopt(argc, argv, "t:q:a:p:")) != -1) {
		switch (opt) {
		case 't': seconds = atof(optarg); break;
		case 'q': request_bytes = (size_t)atol(optarg); break;
		case 'a': answer_bytes = (size_t)atol(optarg); break;
		case 'p':
			if (strcmp(optarg, "same") == 0)
				want_same = 1;
			else if (strcmp(optarg, "cross") == 0)
				want_cross = 1;
			else if (strcmp(optarg, "none") == 0)
				want_none = 1;
			else
				usage();
			break;
		default: usage();
		}
	}
	if (seconds <= 0 || request_bytes < 1 || request_bytes > BUF_SIZE || answer_bytes < 1 ||
	    answer_bytes > BUF_SIZE || optind != argc)
		usage();
	if (!want_same && !want_cross && !want_none)
		want_same = want_cross = want_none = 1;

	if (sched_getaffinity(0, sizeof set, &set) < 0)
		err(1, "sched_getaffinity");
	for (int c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
	signal(SIGPIPE, SIG_IGN);
	printf("request=%zu bytes answer=%zu bytes\n", request_bytes, answer_bytes);
	if (want_same)
		run("same", cpus[0], cpus[0], seconds, request_bytes, answer_bytes);
	if (want_cross && ncpus < 2)
		warnx("cross: only one CPU allowed, skipped");
	else if (want_cross)
		run("cross", cpus[0], cpus[1], seconds, request_bytes, answer_bytes);
	if (want_none) {
		/* Unpin the parent again after the pinned runs. */
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			err(1, "sched_setaffinity");
		run("none", -1, -1, seconds, request_bytes, answer_bytes);
	}
	return 0;
}
