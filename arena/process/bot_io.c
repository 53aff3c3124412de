/*
 * bot_io.c - line I/O with a bot process against absolute deadlines, and the
 * copy of its stderr into the log (contract in bot.h).
 */
#include "bot_internal.h"

#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "textesc.h"

#define READ_CHUNK (64 * 1024)
/* One maximal line, its newline, a NUL, and room for a chunk of what follows. */
#define READ_BUF_MAX (BOT_LINE_MAX + 2 + READ_CHUNK)
#define STDERR_CHUNK (16 * 1024)
#define STDERR_READS_PER_WAKEUP 4
#define TRUNCATED_MARK "[log truncated]\n"
/* Room kept under the total cap for a line break and the mark. */
#define MARK_RESERVE 64

void bot_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}


/* Failing log writes are ignored: a full disk must not turn into a bot fault. */
static void log_write(struct bot *b, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(b->log_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* The log file's size, or SIZE_MAX when it cannot be measured. */
static size_t log_size(const struct bot *b)
{
	struct stat st;

	return fstat(b->log_fd, &st) < 0 ? SIZE_MAX : (size_t)st.st_size;
}

/*
 * Room left in the log file under the total cap, keeping MARK_RESERVE for
 * the mark. The file is measured each time: processes of the same bot in
 * other workers append to it too.
 */
static size_t total_room(const struct bot *b)
{
	size_t size;

	if (b->log_total_cap == 0)
		return SIZE_MAX;
	size = log_size(b);
	return size == SIZE_MAX || size + MARK_RESERVE >= b->log_total_cap ? 0 :
		b->log_total_cap - MARK_RESERVE - size;
}

/* Held from measuring a log to writing it: processes of one bot, read by
 * different threads, append to the same file, and each must see the
 * others' lines under the total cap. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_keep_locked(struct bot *b, const char *p, size_t n);

static void log_keep(struct bot *b, const char *p, size_t n)
{
	if (b->log_truncated)
		return;
	pthread_mutex_lock(&log_lock);
	log_keep_locked(b, p, n);
	pthread_mutex_unlock(&log_lock);
}

static void log_keep_locked(struct bot *b, const char *p, size_t n)
{
	size_t room, total, mark_len = strlen(TRUNCATED_MARK);

	room = b->log_cap - b->log_kept;
	total = total_room(b);
	if (total < room)
		room = total;
	if (n <= room) {
		log_write(b, p, n);
		b->log_kept += n;
		if (n)
			b->log_midline = p[n - 1] != '\n';
		return;
	}
	log_write(b, p, room);
	if (room)
		b->log_midline = p[room - 1] != '\n';
	/* The mark too stays under the total cap: a flood over many restarts
	 * cannot grow the file by a mark each time for ever. */
	if (b->log_total_cap == 0 || log_size(b) + 1 + mark_len <= b->log_total_cap) {
		if (b->log_midline)
			log_write(b, "\n", 1);
		log_write(b, TRUNCATED_MARK, mark_len);
	}
	b->log_kept = b->log_cap;
	b->log_truncated = true;
}

/* Write the tagged lines gathered so far: one write, so lines of processes
 * of the same bot appending to the same log never mix within a line. */
static void log_flush(struct bot *b)
{
	if (b->log_out_len)
		log_keep(b, b->log_out, b->log_out_len);
	b->log_out_len = 0;
}

/*
 * One whole stderr line: to the handler as it is, and tagged and escaped
 * (textesc.h) into the log, so that no control byte of the bot's (a CR
 * forging a line, a terminal escape) reaches whoever reads the log.
 */
static void stderr_line(struct bot *b, const char *p, size_t n)
{
	if (b->handler.line)
		b->handler.line(b->handler.ctx, p, n);
	if (b->log_fd < 0 || b->log_truncated)
		return;
	if (b->log_out_len + b->log_prefix_len + n * TEXTESC_BYTE_MAX + 2 > sizeof b->log_out)
		log_flush(b);
	memcpy(b->log_out + b->log_out_len, b->log_prefix, b->log_prefix_len);
	b->log_out_len += b->log_prefix_len;
	/* the log stays plain ASCII, whatever a reader of it knows of encodings */
	b->log_out_len += textesc_escape(b->log_out + b->log_out_len, p, n, TEXTESC_ASCII);
	b->log_out[b->log_out_len++] = '\n';
}

/* Split what stderr gave into lines, keeping a line's start until its end comes. */
static void stderr_bytes(struct bot *b, const char *p, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) : n;

		if (b->err_len == 0 && nl && take <= BOT_STDERR_LINE_MAX) {
			stderr_line(b, p, take);
			p += take + 1;
			n -= take + 1;
			continue;
		}
		if (take == 0) {
			stderr_line(b, b->err_line, b->err_len);
			b->err_len = 0;
			p++;
			n--;
			continue;
		}
		/* a full buffer and more of the line to come: pass this piece on */
		if (b->err_len == BOT_STDERR_LINE_MAX) {
			stderr_line(b, b->err_line, b->err_len);
			b->err_len = 0;
		}
		if (take > BOT_STDERR_LINE_MAX - b->err_len)
			take = BOT_STDERR_LINE_MAX - b->err_len;
		memcpy(b->err_line + b->err_len, p, take);
		b->err_len += take;
		p += take;
		n -= take;
	}
}

void bot_finish_stderr(struct bot *b)
{
	if (b->err_len)
		stderr_line(b, b->err_line, b->err_len);
	b->err_len = 0;
	if (b->log_fd >= 0)
		log_flush(b);
}

/* Bounded per call, so an endless flood cannot starve the caller. */
void bot_poll_stderr(struct bot *b)
{
	char chunk[STDERR_CHUNK];

	for (int i = 0; b->err_fd >= 0 && i < STDERR_READS_PER_WAKEUP; i++) {
		ssize_t n = read(b->err_fd, chunk, sizeof chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			bot_close_fd(&b->err_fd);
			bot_finish_stderr(b);
			return;
		}
		stderr_bytes(b, chunk, (size_t)n);
	}
	if (b->log_fd >= 0)
		log_flush(b);
}

struct bot_stderr_handler bot_set_stderr_handler(struct bot *b, struct bot_stderr_handler h)
{
	struct bot_stderr_handler old = b->handler;

	b->handler = h;
	return old;
}

void bot_set_stderr_tag(struct bot *b, const char *tag)
{
	int n;

	if (tag)
		n = snprintf(b->log_prefix, sizeof b->log_prefix, "[%.*s pid %ld] ", BOT_TAG_MAX,
			     tag, (long)b->pid);
	else
		n = snprintf(b->log_prefix, sizeof b->log_prefix, "[pid %ld] ", (long)b->pid);
	b->log_prefix_len = n < 0 ? 0 : (size_t)n;
}

/* ---- waiting ---- */

static struct timespec remaining_ts(int64_t deadline_us)
{
	int64_t rem = deadline_us - clock_now_us();
	struct timespec ts = { 0, 0 };

	if (rem > 0) {
		ts.tv_sec = rem / 1000000;
		ts.tv_nsec = (long)(rem % 1000000) * 1000;
	}
	return ts;
}

void bot_wait_stderr(struct bot *b, int ms)
{
	int64_t deadline_us = clock_now_us() + (int64_t)ms * 1000;

	bot_poll_stderr(b);
	while (b->err_fd >= 0 && clock_now_us() < deadline_us) {
		struct pollfd pfd = { .fd = b->err_fd, .events = POLLIN };
		struct timespec ts = remaining_ts(deadline_us);
		int n = ppoll(&pfd, 1, &ts, NULL);

		if (n < 0 && errno != EINTR)
			return;
		if (n > 0)
			bot_poll_stderr(b);
	}
}

/*
 * Wait until fd reports any of events, draining stderr meanwhile. 0 when
 * ready (or hung up / in error: the following read or write tells which),
 * -ETIMEDOUT at the deadline. The remaining time is recomputed after every
 * wakeup, EINTR included.
 */
static int wait_fd(struct bot *b, int fd, short events, int64_t deadline_us)
{
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = fd, .events = events },
			{ .fd = b->err_fd, .events = POLLIN },
		};
		struct timespec ts = remaining_ts(deadline_us);
		int n = ppoll(pfd, 2, &ts, NULL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd[1].revents)
			bot_poll_stderr(b);
		if (pfd[0].revents)
			return 0;
		/* Checked whatever woke us: a stderr flood must not outlast the deadline. */
		if (clock_now_us() >= deadline_us)
			return -ETIMEDOUT;
	}
}

/* ---- writing ---- */

int bot_write_line(struct bot *b, const char *line, size_t len, int64_t deadline_us)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)line, .iov_len = len },
		{ .iov_base = "\n", .iov_len = 1 },
	};
	struct iovec *v = iov;
	int nv = 2;

	if (b->in_fd < 0)
		return -EPIPE;
	/* Try first: a pipe with room makes the poll a wasted system call. */
	for (;;) {
		ssize_t w = writev(b->in_fd, v, nv);

		if (w < 0) {
			int r;

			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			r = wait_fd(b, b->in_fd, POLLOUT, deadline_us);
			if (r < 0)
				return r;
			continue;
		}
		while (nv > 0 && (size_t)w >= v->iov_len) {
			w -= (ssize_t)v->iov_len;
			v++;
			nv--;
		}
		if (nv == 0)
			return 0;
		v->iov_base = (char *)v->iov_base + w;
		v->iov_len -= (size_t)w;
	}
}

/* ---- reading ---- */

/* A complete line from the buffer: 0, -EAGAIN (need more), or -EMSGSIZE. */
static int take_line(struct bot *b, const char **line, size_t *len)
{
	char *start = b->buf + b->buf_start;
	size_t have = b->buf_len - b->buf_start;
	char *nl = memchr(start + b->buf_scanned, '\n', have - b->buf_scanned);

	if (!nl) {
		b->buf_scanned = have;
		return have > BOT_LINE_MAX ? -EMSGSIZE : -EAGAIN;
	}
	if ((size_t)(nl - start) > BOT_LINE_MAX)
		return -EMSGSIZE;
	*nl = '\0';
	*line = start;
	*len = (size_t)(nl - start);
	b->buf_start += *len + 1;
	b->buf_scanned = 0;
	return 0;
}

/* Make room for one read: drop returned lines, grow up to READ_BUF_MAX. */
static int make_room(struct bot *b)
{
	size_t want;
	char *nb;

	if (b->buf_start > 0) {
		memmove(b->buf, b->buf + b->buf_start, b->buf_len - b->buf_start);
		b->buf_len -= b->buf_start;
		b->buf_start = 0;
	}
	if (b->buf_cap - b->buf_len > READ_CHUNK || b->buf_cap == READ_BUF_MAX)
		return 0;
	want = b->buf_cap ? b->buf_cap * 2 : READ_CHUNK + 1;
	if (want < b->buf_len + READ_CHUNK + 1)
		want = b->buf_len + READ_CHUNK + 1;
	if (want > READ_BUF_MAX)
		want = READ_BUF_MAX;
	nb = realloc(b->buf, want);
	if (!nb)
		return -ENOMEM;
	b->buf = nb;
	b->buf_cap = want;
	return 0;
}

/* One read into the buffer: >0 bytes, 0 at EOF, -EAGAIN, or -errno. */
static ssize_t fill(struct bot *b)
{
	size_t room;
	ssize_t n;
	int r = make_room(b);

	if (r < 0)
		return r;
	/* One byte stays free for the NUL that ends a returned line. */
	room = b->buf_cap - b->buf_len - 1;
	if (room > READ_CHUNK)
		room = READ_CHUNK;
	do
		n = read(b->out_fd, b->buf + b->buf_len, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	b->buf_len += (size_t)n;
	return n;
}

int bot_read_line(struct bot *b, const char **line, size_t *len, int64_t deadline_us)
{
	if (b->read_error)
		return b->read_error;
	for (;;) {
		ssize_t n;
		int r = b->buf ? take_line(b, line, len) : -EAGAIN;

		if (r == -EMSGSIZE)
			b->read_error = r;
		if (r != -EAGAIN)
			return r;
		if (b->out_eof)
			return -EPIPE;
		/* Poll before reading: right after a request the answer is rarely
		 * there yet, and a read would only say EAGAIN. */
		r = wait_fd(b, b->out_fd, POLLIN, deadline_us);
		if (r < 0)
			return r;
		n = fill(b);
		if (n == 0)
			b->out_eof = true;
		else if (n < 0 && n != -EAGAIN)
			return (int)n;
	}
}

int bot_read_line_live(struct bot *b, const char **line, size_t *len, int64_t deadline_us)
{
	for (;;) {
		int64_t slice = clock_now_us() + BOT_EXIT_CHECK_MS * 1000;
		int r = bot_read_line(b, line, len, slice < deadline_us ? slice : deadline_us);

		if (r != -ETIMEDOUT || clock_now_us() >= deadline_us)
			return r;
		if (bot_exited(b, NULL))
			return -ECHILD;
	}
}

long bot_unread_output(struct bot *b)
{
	if (!b->out_eof && !b->read_error) {
		ssize_t n = fill(b);

		if (n == 0)
			b->out_eof = true;
		else if (n < 0 && n != -EAGAIN)
			return (long)n;
	}
	return b->buf ? (long)(b->buf_len - b->buf_start) : 0;
}

void bot_free(struct bot *b)
{
	free(b->buf);
	free(b);
}
