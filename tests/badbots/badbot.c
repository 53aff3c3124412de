/*
 * badbot - a Skip-Bo bot that misbehaves on purpose, to test the arena.
 *
 * usage: badbot MODE [ARG...]
 *
 * It speaks protocol v1 (protocol/PROTOCOL.md) with cJSON directly: it
 * answers the arena's "hello" with {"type":"hello","protocol":1,
 * "name":"badbot-MODE","version":"1"}, each "request" with {"type":"move",
 * "move":<first element of "legal">}, exits 0 on "quit" or end of input, and
 * ignores every other message - unless MODE says otherwise:
 *
 *   good                 well-behaved: always the first legal move
 *   good-compact         the same through compact requests (PROTOCOL.md 4.2):
 *                        asks for them in its hello ("features") and answers
 *                        the first listed array as a move object, or with
 *                        only discards legal its first hand card on pile 0,
 *                        which is the ordinary request's first legal move
 *   exit-at-start [CODE] exits with CODE (default 3) before reading anything
 *   no-hello             never answers hello; answers requests
 *   no-newline           writes its hello without the newline, flushed, then
 *                        reads its input until it ends
 *   never-answer         handshakes, then reads requests and never answers
 *   late MS              handshakes, sleeps MS milliseconds before each answer
 *   busy MS              handshakes, spends MS milliseconds of CPU time before
 *                        each answer
 *   garbage              handshakes, then answers requests with a non-JSON line
 *   huge-line [BYTES]    handshakes, then answers a request with one line of
 *                        BYTES 'x' (default 10 MB) and its newline
 *   close-stdout         handshakes, closes stdout at the first request and
 *                        keeps reading stdin
 *   no-read              never reads stdin and never writes: sleeps a minute
 *   die-midgame N [HOW]  answers N requests, then at the next one exits with
 *                        HOW: a number is an exit code, "sig" + a number
 *                        (sig9, sig11) dies by that signal (default: code 3)
 *   fork-holder-at-start forks a child that keeps stdin, stdout and stderr
 *                        open and sleeps, then exits 4 before its hello
 *   early-line           writes a move line in the same write as its hello,
 *                        before any request; then plays correctly
 *   double-answer [MS]   answers each request twice, both lines in one write;
 *                        with MS, answers once, and after each discard (the
 *                        end of its turn) writes the answer again MS ms later
 *   fork-holder          handshakes, forks a child that keeps stdin, stdout
 *                        and stderr open and sleeps, then exits itself
 *   stderr-flood [mute]  plays correctly while a thread writes stderr forever;
 *                        with "mute" it handshakes, then never answers
 *   chatty [N]           plays correctly, writing on stderr "chatty: started"
 *                        at its start, then before each answer "chatty: request
 *                        K of turn T" and a line with an ESC, a BEL and a tab;
 *                        with N, at request N+1 it writes 15 lines "traceback
 *                        line 1".."traceback line 15" and exits 1
 *   illegal              answers a well-formed move that is not in "legal"
 *   wrong-type           answers {"type":"moove","move":<first legal>}
 *   fork-bomb [N]        forks up to N (default 200) sleeping children, stops
 *                        at the first failure (RLIMIT_NPROC), then plays
 *                        correctly; its hello carries "forked":count
 *   memory-hog           touches 1 MiB blocks until malloc fails (RLIMIT_AS;
 *                        at most 2 GiB), then plays correctly; its hello
 *                        carries "allocated_mb":count
 *   ignore-term          plays correctly with SIGTERM ignored (only SIGKILL
 *                        stops it)
 *   report               handshakes with a hello that also describes the
 *                        process it runs in: "cwd", "env" (BADBOT_PROBE),
 *                        "rlimits" {cpu, as, nofile, nproc soft limits, -1 =
 *                        unlimited}, "cpus" (allowed CPUs), "fds" (open
 *                        descriptors), "own_group" (pgid == pid), "sigpipe"
 *                        ("default" or "changed"), "blocked" (signals
 *                        blocked), then plays correctly
 *   lifetime             plays correctly, and writes on stderr when it lived
 *                        (CLOCK_MONOTONIC, ns; the same clock in every
 *                        sandbox): at game_start "lifetime start ID T" with
 *                        the game id it was told and the time its main
 *                        began and its network namespace's cookie (a
 *                        host's, in a sandbox with hosts), at game_end "lifetime end
 *                        ID T", then
 *                        "lifetime alive ID T" every millisecond until it
 *                        is stopped
 *   random               answers each request with a legal move drawn from
 *                        /dev/urandom: no two of its games are alike
 *   last-words           plays correctly; at game_end takes 20 ms (a summary
 *                        being written), then writes on stderr "last-words ID
 *                        game_end", and at quit "last-words ID quit" before it
 *                        exits: what a bot says after its game reaches its log
 *
 * Children it leaves behind sleep at most a minute, so a broken test run
 * cannot litter the machine for long.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHILD_SLEEP_S 60
#define HOG_MAX_MB 2048

static const char *mode;
static int requests_answered;
static long long started_ns; /* lifetime: when main began */
static char told_id[128];    /* lifetime: the game id of game_start */
static bool stdout_closed;

static bool is(const char *m)
{
	return strcmp(mode, m) == 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void spend_cpu_ms(long ms)
{
	struct timespec start, now;
	volatile unsigned long spin = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
	do {
		for (int i = 0; i < 10000; i++)
			spin++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

static void send_line(const char *text)
{
	printf("%s\n", text);
	fflush(stdout);
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

static long rlimit_soft(int resource)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	return (long)rl.rlim_cur;
}

static void add_report(cJSON *hello)
{
	char cwd[PATH_MAX];
	const char *probe = getenv("BADBOT_PROBE");
	cJSON *rl = cJSON_AddObjectToObject(hello, "rlimits");
	cJSON *cpus = cJSON_AddArrayToObject(hello, "cpus");
	cJSON *fds = cJSON_AddArrayToObject(hello, "fds");
	cpu_set_t set;
	struct sigaction sa;
	sigset_t mask;
	int blocked = 0;
	DIR *d;

	cJSON_AddStringToObject(hello, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "?");
	if (probe)
		cJSON_AddStringToObject(hello, "env", probe);
	else
		cJSON_AddNullToObject(hello, "env");
	cJSON_AddNumberToObject(rl, "cpu", (double)rlimit_soft(RLIMIT_CPU));
	cJSON_AddNumberToObject(rl, "as", (double)rlimit_soft(RLIMIT_AS));
	cJSON_AddNumberToObject(rl, "nofile", (double)rlimit_soft(RLIMIT_NOFILE));
	cJSON_AddNumberToObject(rl, "nproc", (double)rlimit_soft(RLIMIT_NPROC));
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cJSON_AddItemToArray(cpus, cJSON_CreateNumber(c));
	/* Open descriptors, less the one opendir() itself holds. */
	d = opendir("/proc/self/fd");
	if (d) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
				cJSON_AddItemToArray(fds, cJSON_CreateNumber(atoi(e->d_name)));
		closedir(d);
	}
	cJSON_AddBoolToObject(hello, "own_group", getpgid(0) == getpid());
	sigaction(SIGPIPE, NULL, &sa);
	cJSON_AddStringToObject(hello, "sigpipe", sa.sa_handler == SIG_DFL ? "default" : "changed");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	for (int s = 1; s < NSIG; s++)
		blocked += sigismember(&mask, s) == 1;
	cJSON_AddNumberToObject(hello, "blocked", blocked);
}

static int fork_sleepers(int n)
{
	int forked = 0;

	while (forked < n) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			sleep(CHILD_SLEEP_S);
			_exit(0);
		}
		forked++;
	}
	return forked;
}

static int hog_memory(void)
{
	int mb = 0;

	while (mb < HOG_MAX_MB) {
		char *p = malloc(1 << 20);

		if (!p)
			break;
		memset(p, 0xa5, 1 << 20);
		mb++;
	}
	return mb;
}

static void answer_hello(int argc, char **argv)
{
	cJSON *hello = cJSON_CreateObject();
	char name[64];

	snprintf(name, sizeof name, "badbot-%s", mode);
	cJSON_AddStringToObject(hello, "type", "hello");
	cJSON_AddNumberToObject(hello, "protocol", 1);
	cJSON_AddStringToObject(hello, "name", name);
	cJSON_AddStringToObject(hello, "version", "1");
	if (is("good-compact"))
		cJSON_AddItemToObject(hello, "features", cJSON_CreateStringArray((const char *[]){ "compact_legal" }, 1));
	if (is("report"))
		add_report(hello);
	if (is("fork-bomb"))
		cJSON_AddNumberToObject(hello, "forked", fork_sleepers(argc > 2 ? atoi(argv[2]) : 200));
	if (is("memory-hog"))
		cJSON_AddNumberToObject(hello, "allocated_mb", hog_memory());
	if (is("no-newline")) {
		char *text = cJSON_PrintUnformatted(hello);

		fputs(text, stdout);
		fflush(stdout);
		free(text);
		cJSON_Delete(hello);
		return;
	}
	if (is("early-line")) {
		/* in the same write as the hello, so it is there before any request */
		char *text = cJSON_PrintUnformatted(hello);

		printf("%s\n{\"type\":\"move\",\"move\":{\"action\":\"play\","
		       "\"from\":\"stock\",\"to\":0}}\n", text);
		fflush(stdout);
		free(text);
	} else {
		send_json(hello);
	}
	cJSON_Delete(hello);

	if (is("fork-holder")) {
		if (fork() == 0) {
			sleep(CHILD_SLEEP_S);
			_exit(0);
		}
		exit(0);
	}
}

/* good-compact: the first legal move of a compact request as a move object. */
static cJSON *compact_first(const cJSON *req)
{
	static const char *const forms[][5] = {
		{ "hand", "card", "to" },
		{ "stock", "seat", "card", "to" },
		{ "discard", "seat", "pile", "card", "to" },
	};
	const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(req, "legal"), 0);
	const cJSON *word = cJSON_GetArrayItem(first, 0);
	cJSON *m = cJSON_CreateObject();

	if (!first) {
		/* only discards: the hand is sorted, so its first card is the first discard */
		const cJSON *view = cJSON_GetObjectItemCaseSensitive(req, "view");
		const cJSON *card = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(view, "hand"), 0);

		cJSON_AddStringToObject(m, "action", "discard");
		cJSON_AddNumberToObject(m, "card", cJSON_IsNumber(card) ? card->valuedouble : 0);
		cJSON_AddNumberToObject(m, "pile", 0);
		return m;
	}
	if (!cJSON_IsString(word) || strcmp(word->valuestring, "pass") == 0) {
		cJSON_AddStringToObject(m, "action", "pass");
		return m;
	}
	cJSON_AddStringToObject(m, "action", "play");
	cJSON_AddStringToObject(m, "from", word->valuestring);
	for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		if (strcmp(forms[f][0], word->valuestring) != 0)
			continue;
		for (int k = 1; k < 5 && forms[f][k]; k++) {
			const cJSON *v = cJSON_GetArrayItem(first, k);

			cJSON_AddNumberToObject(m, forms[f][k], cJSON_IsNumber(v) ? v->valuedouble : 0);
		}
	}
	return m;
}

/* The first of a few well-formed moves that "legal" does not contain. */
static cJSON *illegal_move(const cJSON *legal)
{
	static const char *const candidates[] = {
		"{\"action\":\"pass\"}",
		"{\"action\":\"play\",\"from\":\"hand\",\"card\":12,\"to\":0}",
		"{\"action\":\"play\",\"from\":\"hand\",\"card\":11,\"to\":0}",
		"{\"action\":\"discard\",\"card\":12,\"pile\":3}",
	};

	for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
		cJSON *m = cJSON_Parse(candidates[i]);
		const cJSON *l;
		bool found = false;

		cJSON_ArrayForEach(l, legal)
			found = found || cJSON_Compare(m, l, 1);
		if (!found)
			return m;
		cJSON_Delete(m);
	}
	return cJSON_Parse("{\"action\":\"discard\",\"card\":13,\"pile\":0}");
}

static void write_huge_line(long bytes)
{
	static char block[65536];

	memset(block, 'x', sizeof block);
	while (bytes > 0) {
		size_t n = bytes < (long)sizeof block ? (size_t)bytes : sizeof block;

		fwrite(block, 1, n, stdout);
		bytes -= (long)n;
	}
	putchar('\n');
	fflush(stdout);
}

static void die_midgame(int argc, char **argv)
{
	const char *how = argc > 3 ? argv[3] : "3";

	if (strncmp(how, "sig", 3) == 0) {
		signal(atoi(how + 3), SIG_DFL);
		raise(atoi(how + 3));
	}
	exit(atoi(how));
}

/* The answer twice: in one write, or after a discard once more gap_ms later. */
static void double_answer(const cJSON *first, long gap_ms)
{
	const cJSON *action = cJSON_GetObjectItemCaseSensitive(first, "action");

	cJSON *answer = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(answer, "type", "move");
	cJSON_AddItemToObject(answer, "move", first ? cJSON_Duplicate(first, 1) : cJSON_CreateNull());
	text = cJSON_PrintUnformatted(answer);
	if (gap_ms == 0) {
		printf("%s\n%s\n", text, text);
		fflush(stdout);
	} else {
		send_line(text);
		if (cJSON_IsString(action) && strcmp(action->valuestring, "discard") == 0) {
			sleep_ms(gap_ms);
			send_line(text);
		}
	}
	free(text);
	cJSON_Delete(answer);
}

/* The stderr lines of chatty for one request; a traceback and exit 1 at request N+1. */
static void chatter(const cJSON *req, int argc, char **argv)
{
	const cJSON *turn = cJSON_GetObjectItemCaseSensitive(req, "turn");

	if (argc > 2 && requests_answered >= atoi(argv[2])) {
		for (int i = 1; i <= 15; i++)
			fprintf(stderr, "traceback line %d\n", i);
		exit(1);
	}
	fprintf(stderr, "chatty: request %d of turn %d\n", requests_answered + 1,
		cJSON_IsNumber(turn) ? turn->valueint : -1);
	fprintf(stderr, "chatty: esc \033[2J bell \a tab \t end\n");
}

/* random: a legal move drawn from /dev/urandom, the first when it cannot be read. */
static const cJSON *random_legal(const cJSON *legal)
{
	int n = cJSON_GetArraySize(legal);
	unsigned r = 0;
	FILE *f = fopen("/dev/urandom", "re");

	if (f) {
		if (fread(&r, sizeof(r), 1, f) != 1)
			r = 0;
		fclose(f);
	}
	return n > 0 ? cJSON_GetArrayItem(legal, (int)(r % (unsigned)n)) : NULL;
}

static void answer_request(const cJSON *req, int argc, char **argv)
{
	const cJSON *legal = cJSON_GetObjectItemCaseSensitive(req, "legal");
	const cJSON *first = cJSON_IsArray(legal) ? cJSON_GetArrayItem(legal, 0) : NULL;
	cJSON *answer;

	if (is("random"))
		first = random_legal(legal);
	if (is("chatty"))
		chatter(req, argc, argv);
	if (is("never-answer") || (is("stderr-flood") && argc > 2 && strcmp(argv[2], "mute") == 0))
		return;
	if (is("die-midgame") && requests_answered >= (argc > 2 ? atoi(argv[2]) : 0))
		die_midgame(argc, argv);
	if (is("late"))
		sleep_ms(argc > 2 ? atol(argv[2]) : 1000);
	if (is("busy"))
		spend_cpu_ms(argc > 2 ? atol(argv[2]) : 1000);
	if (is("garbage")) {
		printf("this is {not json\n");
		fflush(stdout);
		requests_answered++;
		return;
	}
	if (is("huge-line")) {
		write_huge_line(argc > 2 ? atol(argv[2]) : 10L * 1000 * 1000);
		requests_answered++;
		return;
	}
	if (is("close-stdout")) {
		if (!stdout_closed)
			fclose(stdout);
		stdout_closed = true;
		return;
	}
	if (is("double-answer")) {
		double_answer(first, argc > 2 ? atol(argv[2]) : 0);
		requests_answered++;
		return;
	}
	answer = cJSON_CreateObject();
	cJSON_AddStringToObject(answer, "type", is("wrong-type") ? "moove" : "move");
	if (is("illegal"))
		cJSON_AddItemToObject(answer, "move", illegal_move(legal));
	else if (is("good-compact"))
		cJSON_AddItemToObject(answer, "move", compact_first(req));
	else if (first)
		cJSON_AddItemToObject(answer, "move", cJSON_Duplicate(first, 1));
	else
		cJSON_AddNullToObject(answer, "move");
	send_json(answer);
	cJSON_Delete(answer);
	requests_answered++;
}

static long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* lifetime: after game_end, the bot is alive until it is stopped. */
static void *say_alive(void *arg)
{
	(void)arg;
	for (;;) {
		fprintf(stderr, "lifetime alive %s %lld\n", told_id, monotonic_ns());
		fflush(stderr);
		sleep_ms(1);
	}
	return NULL;
}

/*
 * lifetime: which network namespace the process is in, by its cookie, which
 * the kernel never gives two namespaces (an inode number is reused once one
 * is gone); "-" where it cannot say.
 */
static void network_namespace(char *out, size_t size)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof cookie;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(out, size, "-");
	if (fd >= 0 && getsockopt(fd, SOL_SOCKET, 71 /* SO_NETNS_COOKIE */, &cookie, &len) == 0)
		snprintf(out, size, "netns-%llu", (unsigned long long)cookie);
	if (fd >= 0)
		close(fd);
}

/* lifetime: the game's start and end, and the time alive after it. */
static void lifetime_event(const char *type, const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "game");
	pthread_t t;

	if (strcmp(type, "game_start") == 0) {
		char net[64];

		network_namespace(net, sizeof net);
		snprintf(told_id, sizeof told_id, "%s", cJSON_IsString(id) ? id->valuestring : "?");
		fprintf(stderr, "lifetime start %s %lld %s\n", told_id, started_ns, net);
	} else if (strcmp(type, "game_end") == 0) {
		fprintf(stderr, "lifetime end %s %lld\n", told_id, monotonic_ns());
		fflush(stderr);
		pthread_create(&t, NULL, say_alive, NULL);
	}
	fflush(stderr);
}

/* last-words: the game's id, and a line after its end and at quit. */
static void last_words(const char *type, const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "game");

	if (strcmp(type, "game_start") == 0) {
		snprintf(told_id, sizeof told_id, "%s", cJSON_IsString(id) ? id->valuestring : "?");
	} else if (strcmp(type, "game_end") == 0) {
		sleep_ms(20);
		fprintf(stderr, "last-words %s game_end\n", told_id);
	} else if (strcmp(type, "quit") == 0) {
		fprintf(stderr, "last-words %s quit\n", told_id);
	}
	fflush(stderr);
}

/* Whole blocks of lines per write, to keep the pipe full as fast as it drains. */
static void *flood_stderr(void *arg)
{
	static const char line[] = "badbot-stderr-flood: a line of noise to fill the log\n";
	static char block[64 * (sizeof line - 1)];

	(void)arg;
	for (size_t i = 0; i < 64; i++)
		memcpy(block + i * (sizeof line - 1), line, sizeof line - 1);
	for (;;)
		if (write(STDERR_FILENO, block, sizeof block) < 0 && errno != EINTR)
			return NULL;
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	bool quit = false;
	ssize_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: badbot MODE [ARG...]\n");
		return 2;
	}
	mode = argv[1];
	started_ns = monotonic_ns();
	if (is("exit-at-start"))
		return argc > 2 ? atoi(argv[2]) : 3;
	if (is("fork-holder-at-start")) {
		if (fork() == 0) {
			sleep(CHILD_SLEEP_S);
			_exit(0);
		}
		return 4;
	}
	if (is("no-read")) {
		sleep(CHILD_SLEEP_S);
		return 0;
	}
	if (is("ignore-term"))
		signal(SIGTERM, SIG_IGN);
	if (is("chatty"))
		fprintf(stderr, "chatty: started\n");
	if (is("stderr-flood")) {
		pthread_t t;

		if (pthread_create(&t, NULL, flood_stderr, NULL) != 0)
			return 2;
	}

	while (!quit && (n = getline(&line, &cap, stdin)) > 0) {
		cJSON *msg = cJSON_ParseWithLengthOpts(line, (size_t)n, NULL, 0);
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg, "type");

		if (cJSON_IsString(type)) {
			if (strcmp(type->valuestring, "hello") == 0 && !is("no-hello"))
				answer_hello(argc, argv);
			else if (strcmp(type->valuestring, "request") == 0)
				answer_request(msg, argc, argv);
			else if (strcmp(type->valuestring, "quit") == 0)
				quit = true;
			if (is("last-words"))
				last_words(type->valuestring, msg);
			else if (is("lifetime"))
				lifetime_event(type->valuestring, msg);
		}
		cJSON_Delete(msg);
	}
	free(line);
	return 0;
}
