/*
 * bot_spawn.c - starting, watching and stopping bot processes (contract in bot.h).
 *
 * Spawning follows git's run-command.c and libuv's process.c: every pipe is
 * close-on-exec, everything the child needs (argv path, envp, limits, CPU
 * set) is prepared before the child exists, and until its exec the child
 * makes only async-signal-safe system calls. The child shares the parent's
 * memory (clone with CLONE_VM | CLONE_VFORK, as glibc's posix_spawn does):
 * no page tables are copied, no page is copied on write (with the TLB
 * shootdowns a multi-threaded parent pays for each) and exec has no copy to
 * tear down, which was most of what a fork cost the arena. The starting
 * thread waits until the exec; the child runs on a stack of its own on the
 * heap and writes no memory but that stack and errno (the waiting
 * thread's, which reads it only after). An exec failure travels back
 * as {step, errno} over a close-on-exec pipe; EOF on that pipe means the
 * exec succeeded. A sandboxed bot is started the same way, with bwrap as the
 * program (sandbox.h), after the child has entered the sandbox's cgroups and
 * dropped to its uid.
 */
#include "bot_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reaper.h"
#include "sandbox_host.h"

/* Every descriptor of the child's is moved to this or above before the clone (raise_fd). */
#define FIRST_HIGH_FD (SANDBOX_LAUNCHER_FD + 1)
/* The child's stack until its exec (child_run uses a few hundred bytes). */
#define CHILD_STACK_SIZE (64 * 1024)
/* How long a killed sandbox may take to end every process in it. */
#define SANDBOX_END_MS 5000

/* Which step of the child failed, for the sentence in why. */
enum child_step {
	STEP_SETUP,
	STEP_SANDBOX,
	STEP_LIMITS,
	STEP_CHDIR,
	STEP_AFFINITY,
	STEP_PRIORITY,
	STEP_EXEC,
};

struct child_error {
	int step;
	int err;
};

struct child_plan {
	const char *path;
	char *const *argv;
	char **envp;
	const char *cwd;
	const struct sandbox_start *sbx; /* NULL: unsandboxed */
	const char *check_path;  /* sandboxed: the bot's program, checked as the sandbox's uid */
	int in_fd, out_fd, err_fd, report_fd, info_fd, null_fd;
	pid_t parent;
	struct rlimit limits[4];
	int limit_res[4];
	int nlimits;
	bool pin;
	bool idle;
	cpu_set_t cpus;
};

/* ---- the child, until its exec: async-signal-safe calls only, and no
 * writes to memory but its own stack (it shares the parent's) ---- */

static __attribute__((noreturn)) void child_fail(int report_fd, int step)
{
	struct child_error ce = { step, errno };
	ssize_t n;

	do
		n = write(report_fd, &ce, sizeof ce);
	while (n < 0 && errno == EINTR);
	_exit(127);
}

/* The sandbox's launcher onto its descriptor, kept open across the exec; none: 0. */
static int pass_launcher(int fd)
{
	if (fd < 0)
		return 0;
	/* dup2 onto itself would leave it close-on-exec */
	if (fd == SANDBOX_LAUNCHER_FD)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, SANDBOX_LAUNCHER_FD);
}

static __attribute__((noreturn)) void child_run(const struct child_plan *plan)
{
	struct sigaction dfl;
	sigset_t empty;
	int report_fd = plan->report_fd;

	if (setpgid(0, 0) < 0)
		child_fail(report_fd, STEP_SETUP);
	/* Before the death signal: a change of uid clears it. */
	if (plan->sbx && sandbox_start_enter(plan->sbx) < 0)
		child_fail(report_fd, STEP_SANDBOX);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		child_fail(report_fd, STEP_SETUP);
	/* The parent may have died before the death signal was armed. */
	if (getppid() != plan->parent)
		_exit(127);

	/* Signals stay blocked (the parent blocked them all before the clone) until
	 * every disposition is back to default, so no inherited handler runs. */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);

	/* Every source fd is >= FIRST_HIGH_FD (see raise_fd), so these cannot clobber each
	 * other; the launcher's, the sandbox's and not raised, goes first. */
	if (plan->sbx) {
		/* bwrap's stdin and stdout are /dev/null; the pipes go on 5 and 6 (sandbox_start.h) */
		if (pass_launcher(plan->sbx->launcher_fd) < 0 ||
		    dup2(plan->null_fd, 0) < 0 || dup2(plan->null_fd, 1) < 0 ||
		    dup2(plan->info_fd, SANDBOX_INFO_FD) < 0 ||
		    dup2(plan->in_fd, SANDBOX_STDIN_FD) < 0 || dup2(plan->out_fd, SANDBOX_STDOUT_FD) < 0 ||
		    dup2(plan->sbx->args_fd, SANDBOX_ARGS_FD) < 0 ||
		    dup2(plan->sbx->seccomp_fd, SANDBOX_SECCOMP_FD) < 0)
			child_fail(report_fd, STEP_SETUP);
	} else if (dup2(plan->in_fd, 0) < 0 || dup2(plan->out_fd, 1) < 0) {
		child_fail(report_fd, STEP_SETUP);
	}
	if (dup2(plan->err_fd, 2) < 0)
		child_fail(report_fd, STEP_SETUP);
	/* The report pipe moves to 3 (close-on-exec kept), so closing from the next
	 * free one spares it. */
	if (dup3(report_fd, 3, O_CLOEXEC) < 0)
		child_fail(report_fd, STEP_SETUP);
	report_fd = 3;
	/* close_range is a plain system call; libbsd's closefrom may fall back
	 * to opendir(), which allocates and is not async-signal-safe. */
	if (close_range(plan->sbx ? SANDBOX_LAUNCHER_FD + 1 : 4, ~0U, 0) < 0)
		closefrom(plan->sbx ? SANDBOX_LAUNCHER_FD + 1 : 4);

	for (int i = 0; i < plan->nlimits; i++)
		if (setrlimit(plan->limit_res[i], &plan->limits[i]) < 0)
			child_fail(report_fd, STEP_LIMITS);
	/* Sandboxed, bwrap changes directory inside: the cwd here is "/". */
	if (plan->cwd && chdir(plan->cwd) < 0)
		child_fail(report_fd, STEP_CHDIR);
	if (plan->check_path && access(plan->check_path, X_OK) < 0)
		child_fail(report_fd, STEP_EXEC);
	if (plan->sbx && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(report_fd, STEP_SANDBOX);
	if (plan->pin && sched_setaffinity(0, sizeof plan->cpus, &plan->cpus) < 0)
		child_fail(report_fd, STEP_AFFINITY);
	if (plan->idle && sched_setscheduler(0, SCHED_IDLE, &(struct sched_param){ 0 }) < 0)
		child_fail(report_fd, STEP_PRIORITY);

	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);
	execve(plan->path, plan->argv, plan->sbx ? plan->sbx->envp : plan->envp);
	child_fail(report_fd, STEP_EXEC);
}

static int child_main(void *plan)
{
	child_run(plan);
}

/* ---- preparing the child's world in the parent ---- */

static void plan_limit(struct child_plan *plan, int resource, long value, rlim_t scale, rlim_t extra_hard)
{
	struct rlimit cur, want;

	if (value <= 0 || getrlimit(resource, &cur) < 0)
		return;
	want.rlim_cur = (rlim_t)value * scale;
	want.rlim_max = want.rlim_cur + extra_hard;
	/* Only root may raise a hard limit: stay within what we have. */
	if (cur.rlim_max != RLIM_INFINITY && want.rlim_max > cur.rlim_max)
		want.rlim_max = cur.rlim_max;
	if (want.rlim_cur > want.rlim_max)
		want.rlim_cur = want.rlim_max;
	plan->limit_res[plan->nlimits] = resource;
	plan->limits[plan->nlimits++] = want;
}

static void plan_limits(struct child_plan *plan, const struct bot_limits *l, bool sandboxed)
{
	/* CPU: SIGXCPU at the soft limit, SIGKILL one second later at the hard one. */
	plan_limit(plan, RLIMIT_CPU, l->cpu_seconds, 1, 1);
	plan_limit(plan, RLIMIT_AS, l->memory_mb, (rlim_t)1024 * 1024, 0);
	plan_limit(plan, RLIMIT_NOFILE, l->open_files, 1, 0);
	/* Sandboxed, the sandbox sets it inside its user namespace (sandbox_start.h):
	 * set here, it would count every process of the uid, and bwrap's own. */
	if (!sandboxed)
		plan_limit(plan, RLIMIT_NPROC, l->processes, 1, 0);
}

static const char *step_words(int step)
{
	switch (step) {
	case STEP_LIMITS: return "cannot apply resource limits";
	case STEP_CHDIR: return "cannot change to its working directory";
	case STEP_AFFINITY: return "cannot pin it to its CPU";
	case STEP_PRIORITY: return "cannot lower its priority";
	case STEP_EXEC: return "cannot execute it";
	case STEP_SANDBOX: return "cannot enter its sandbox as";
	default: return "cannot set up its process";
	}
}

/* Every descriptor bot_start() opens; -1 when not open. */
struct spawn_fds {
	int in[2], out[2], err[2], report[2], info[2];
	int devnull;            /* the sandbox's own descriptors */
	int log;
};

static void fds_close(struct spawn_fds *f)
{
	int *all[] = { &f->in[0], &f->in[1], &f->out[0], &f->out[1], &f->err[0], &f->err[1],
		       &f->report[0], &f->report[1], &f->info[0], &f->info[1], &f->devnull,
		       &f->log };

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		bot_close_fd(all[i]);
}

/*
 * The child dup2()s its pipes onto 0 to 4; a pipe end already sitting there
 * (the arena started with a standard descriptor closed, or the pipes were
 * simply made there) would be overwritten first. Moving every end to
 * FIRST_HIGH_FD or above rules that out.
 */
static int raise_fd(int *fd)
{
	int nfd;

	if (*fd < 0 || *fd >= FIRST_HIGH_FD)
		return 0;
	nfd = fcntl(*fd, F_DUPFD_CLOEXEC, FIRST_HIGH_FD);
	if (nfd < 0)
		return -errno;
	close(*fd);
	*fd = nfd;
	return 0;
}

int bot_fd_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

/*
 * All close-on-exec; the arena's ends non-blocking, the bot's left blocking.
 * A host's "stdin" is its control socket (sandbox_start.h), on which the
 * arena sends each game as one message (bot_host.c), blocking: the host
 * reads them as they come.
 */
static int fds_open(struct spawn_fds *f, bool sandboxed, bool host)
{
	int *all[] = { &f->in[0], &f->in[1], &f->out[0], &f->out[1], &f->err[0], &f->err[1],
		       &f->report[0], &f->report[1], &f->info[0], &f->info[1], &f->devnull };
	int r = 0;

	if ((host ? socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, f->in) :
		    pipe2(f->in, O_CLOEXEC)) < 0 || pipe2(f->out, O_CLOEXEC) < 0 ||
	    pipe2(f->report, O_CLOEXEC) < 0 || (sandboxed && pipe2(f->info, O_CLOEXEC) < 0) ||
	    pipe2(f->err, O_CLOEXEC) < 0 ||
	    (sandboxed && (f->devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0))
		return -errno;
	for (size_t i = 0; i < sizeof all / sizeof all[0] && r == 0; i++)
		r = raise_fd(all[i]);
	if (r == 0 && !host)
		r = bot_fd_nonblock(f->in[1]);
	if (r == 0)
		r = bot_fd_nonblock(f->out[0]);
	if (r == 0)
		r = bot_fd_nonblock(f->err[0]);
	return r;
}

/* Blocks until the child execs (EOF: 0) or reports {step, errno} (-1). */
static int read_child_report(int fd, struct child_error *ce)
{
	size_t got = 0;

	while (got < sizeof *ce) {
		ssize_t n = read(fd, (char *)ce + got, sizeof *ce - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got == sizeof *ce ? -1 : 0;
}

/* Clone, and exec per plan: 0 and *pid, or -errno with the failed step in *ce. */
static int spawn(struct child_plan *plan, struct spawn_fds *f, pid_t *pid, struct child_error *ce)
{
	/*
	 * This thread is suspended while the child runs on this stack
	 * (CLONE_VFORK). On the heap, not in this frame: under AddressSanitizer
	 * the child's frames leave their redzones marked in the shadow memory
	 * both share, which the allocator clears on the block's next use and
	 * nothing clears on this thread's stack.
	 */
	char *stack = malloc(CHILD_STACK_SIZE);
	sigset_t all, old;
	int r = 0;

	ce->step = STEP_SETUP;
	if (!stack) {
		ce->err = ENOMEM;
		return -ENOMEM;
	}
	/* No handler of ours may run in the child before it resets them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* The reaper must not see the child before it is known as a bot. */
	reaper_hold();
	/* malloc's alignment (16) is what the ABI asks of a stack */
	*pid = clone(child_main, stack + CHILD_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, plan);
	if (*pid < 0)
		r = -errno;
	else if (reaper_track(*pid) < 0)
		r = -ENOMEM;
	reaper_release();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(stack);
	if (r < 0) {
		if (*pid > 0) {
			kill(*pid, SIGKILL);
			while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		ce->err = -r;
		return r;
	}
	bot_close_fd(&f->report[1]);
	bot_close_fd(&f->info[1]);
	if (read_child_report(f->report[0], ce) == 0)
		return 0;
	/* it may have registered with the guard before it failed: its group is gone */
	if (plan->sbx)
		sandbox_start_killed(plan->sbx, *pid);
	while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
	reaper_forget(*pid);
	return ce->err > 0 ? -ce->err : -EIO;
}

static int plan_init(struct child_plan *plan, const struct bot_spec *spec, const struct spawn_fds *f)
{
	plan->argv = spec->argv;
	plan->cwd = spec->cwd;
	plan->in_fd = f->in[0];
	plan->out_fd = f->out[1];
	plan->err_fd = f->err[1];
	plan->report_fd = f->report[1];
	plan->info_fd = f->info[1];
	plan->null_fd = f->devnull;
	plan->parent = getpid();
	plan_limits(plan, &spec->limits, spec->sandbox != NULL);
	plan->idle = spec->idle;
	if (spec->cpu >= 0) {
		if (spec->cpu >= CPU_SETSIZE)
			return -EINVAL;
		plan->pin = true;
		CPU_ZERO(&plan->cpus);
		CPU_SET(spec->cpu, &plan->cpus);
	}
	return 0;
}

/*
 * The log, opened so that a bot that could reach the output directory cannot
 * turn it into something else: no symbolic link is followed, a FIFO does not
 * block the open, and only a regular file with one link is used. -1 (stderr
 * read and dropped) otherwise.
 */
int bot_open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		      0644);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * bwrap writes {"child-pid": N, ...} to its --info-fd once it has made the
 * sandbox's init, then closes it. The pid, or 0 if it failed first.
 */
static pid_t read_init_pid(int fd, int start_ms)
{
	int64_t deadline = clock_now_us() + (int64_t)start_ms * 1000;
	char buf[1024];
	const char *key;
	size_t got = 0;

	while (got + 1 < sizeof buf) {
		int64_t left_ms = (deadline - clock_now_us()) / 1000;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left_ms <= 0 || poll(&pfd, 1, (int)left_ms) <= 0)
			break;
		n = read(fd, buf + got, sizeof buf - 1 - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	key = strstr(buf, "\"child-pid\":");
	return key ? (pid_t)strtol(key + strlen("\"child-pid\":"), NULL, 10) : 0;
}

void bot_sandbox_failure(int err_fd, const char *name, char *why, size_t why_size)
{
	char text[512];
	ssize_t n = -1;
	struct pollfd pfd = { .fd = err_fd, .events = POLLIN };

	if (err_fd >= 0 && poll(&pfd, 1, SANDBOX_START_MS) > 0)
		n = read(err_fd, text, sizeof text - 1);
	if (n > 0) {
		text[n] = '\0';
		text[strcspn(text, "\n")] = '\0';
	} else {
		/* nothing in time: bwrap still waits for a CPU, or is stuck */
		snprintf(text, sizeof text, n == 0 ? "bwrap ended without a word" :
			 "bwrap had not made it after %d s (a machine too busy, or bwrap stuck)",
			 SANDBOX_START_MS / 1000);
	}
	snprintf(why, why_size, "bot \"%s\": its sandbox did not start: %s", name, text);
}

int bot_spawn(const struct bot_spec *spec, enum sandbox_start_kind kind, struct bot **out,
	      char *why, size_t why_size)
{
	struct spawn_fds f = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }, -1, -1 };
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct child_plan plan = { 0 };
	struct sandbox_start sbx = { .slot = -1 };
	struct child_error ce;
	struct bot *b = NULL;
	char *path = NULL;
	pid_t pid;
	int r;

	if (why_size)
		why[0] = '\0';
	r = bot_envp(spec->env, &plan.envp);
	if (r < 0)
		goto out;
	r = bot_resolve_in(spec->argv[0], plan.envp, &path);
	if (r < 0) {
		snprintf(why, why_size, "bot \"%s\": \"%s\" %s", name, spec->argv[0],
			 r == -ENOENT ? "not found in PATH" : "found in PATH but not executable");
		goto out;
	}
	if ((r = bot_check_format(path, name, why, why_size)) < 0)
		goto out;
	plan.path = path;
	if (spec->stderr_path)
		f.log = bot_open_log(spec->stderr_path);
	r = fds_open(&f, spec->sandbox != NULL, kind == SANDBOX_START_HOST);
	if (r < 0) {
		snprintf(why, why_size, "bot \"%s\": cannot create pipes: %s", name, strerror(-r));
		goto out;
	}
	r = plan_init(&plan, spec, &f);
	if (r < 0) {
		snprintf(why, why_size, "bot \"%s\": no CPU %d", name, spec->cpu);
		goto out;
	}
	if (spec->sandbox) {
		r = sandbox_start_prepare(spec->sandbox, spec, path, kind, &sbx, why, why_size);
		if (r == 0 && ((r = raise_fd(&sbx.args_fd)) < 0 || (r = raise_fd(&sbx.seccomp_fd)) < 0))
			snprintf(why, why_size, "bot \"%s\": cannot pass bwrap its options: %s", name,
				 strerror(-r));
		if (r < 0)
			goto out;
		plan.sbx = &sbx;
		plan.check_path = sbx.program;
		/* bwrap makes the working directory inside (sandbox_view.h); the real one
		 * need not be open to the sandbox's uid unless the bot sees it, which
		 * sandbox_open() checked */
		plan.cwd = "/";
		plan.path = sbx.bwrap;
		plan.argv = sbx.argv;
	}
	b = calloc(1, sizeof *b);
	if (!b) {
		r = -ENOMEM;
		goto out;
	}
	r = spawn(&plan, &f, &pid, &ce);
	if (r < 0) {
		snprintf(why, why_size, "bot \"%s\": %s \"%s\": %s%s", name, step_words(ce.step),
			 ce.step == STEP_CHDIR ? spec->cwd : path, strerror(-r),
			 sbx.drop && r == -EACCES ?
			 " (the sandbox runs it as another user: its files must be readable by every user)" : "");
		goto out;
	}

	b->pid = pid;
	b->init_fd = -1;
	b->game_fd = -1;
	b->in_fd = f.in[1];
	b->out_fd = f.out[0];
	b->err_fd = f.err[0];
	b->log_fd = f.log;
	b->log_cap = spec->stderr_cap;
	b->log_total_cap = spec->stderr_total_cap;
	bot_set_stderr_tag(b, NULL);
	f.in[1] = f.out[0] = f.err[0] = f.log = -1;
	if (spec->sandbox) {
		b->sandbox = spec->sandbox;
		b->sbx = sbx;
		sbx.slot = -1;
		sbx.leaf.n = 0;
		sbx.argv = NULL;
		sbx.envp = NULL;
		sbx.args_fd = sbx.seccomp_fd = -1;
		b->init_pid = read_init_pid(f.info[0], spec->idle ? SANDBOX_START_IDLE_MS :
							    SANDBOX_START_MS);
		/* bwrap exits as soon as the bot does, while its init is still killing the
		 * rest: the pidfd lets bot_stop() wait for the init itself. */
		if (b->init_pid > 0)
			b->init_fd = (int)syscall(SYS_pidfd_open, b->init_pid, 0);
		if (b->init_pid <= 0) {
			bot_sandbox_failure(b->err_fd, name, why, why_size);
			bot_stop(b, 0);
			b = NULL;
			r = -EPERM;
			goto out;
		}
	} else {
		b->have_cpu_clock = clock_getcpuclockid(pid, &b->cpu_clock) == 0;
	}
	*out = b;
	b = NULL;
out:
	free(b);
	free(path);
	free(plan.envp);
	if (spec->sandbox)
		sandbox_start_release(spec->sandbox, &sbx);
	fds_close(&f);
	if (r < 0 && why_size && !why[0])
		snprintf(why, why_size, "bot \"%s\": cannot start: %s", name, strerror(-r));
	return r;
}

/* ---- process state and shutdown ---- */

/* Wait up to grace_ms for the process to exit, keeping its stderr flowing. */
static bool wait_exit(struct bot *b, int grace_ms)
{
	int64_t end = clock_now_us() + (int64_t)grace_ms * 1000;
	int64_t step_us = 100;

	while (!bot_peek_exited(b)) {
		int64_t now = clock_now_us();
		struct pollfd pfd = { .fd = b->err_fd, .events = POLLIN };
		struct timespec ts;

		if (now >= end)
			return false;
		if (step_us > end - now)
			step_us = end - now;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)step_us * 1000;
		if (ppoll(&pfd, 1, &ts, NULL) > 0)
			bot_poll_stderr(b);
		if (step_us < 10000)
			step_us *= 2;
	}
	return true;
}

/*
 * Kill the sandbox's init: the kernel then kills every process in its PID
 * namespace, and the init exits once they are all gone. bwrap, which exits
 * as soon as the bot does, is killed too if it lingers (its --die-with-parent
 * then kills the init). Without a pidfd the init is killed only while bwrap,
 * its parent, lives, so the pid cannot have been reused (a game's pid 1 in a
 * host stays the host's zombie until the host's next game, which waits for
 * bot_stop).
 */
void bot_kill_sandbox(struct bot *b)
{
	if (b->init_fd >= 0)
		syscall(SYS_pidfd_send_signal, b->init_fd, SIGKILL, NULL, 0);
	else if (!bot_peek_exited(b))
		kill(b->init_pid > 0 ? b->init_pid : b->pid, SIGKILL);
}

static void stop_sandbox(struct bot *b)
{
	bot_kill_sandbox(b);
	if (b->init_fd >= 0) {
		struct pollfd pfd = { .fd = b->init_fd, .events = POLLIN };

		while (poll(&pfd, 1, SANDBOX_END_MS) < 0 && errno == EINTR)
			;
	}
	if (!wait_exit(b, SANDBOX_END_MS))
		kill(b->pid, SIGKILL);
}

void bot_stop(struct bot *b, int grace_ms)
{
	pid_t got;
	int st;

	if (!b)
		return;
	if (b->sandbox) {
		stop_sandbox(b);
	} else if (!bot_peek_exited(b)) {
		kill(-b->pid, SIGTERM);
		wait_exit(b, grace_ms);
	}
	/* A child of the arena's (a game of a host is the host's): its process group. */
	if (b->game_fd < 0) {
		/* Also gets what the bot forked, even after the bot itself exited. */
		kill(-b->pid, SIGKILL);
		if (b->sandbox)
			sandbox_start_killed(&b->sbx, b->pid);
		/* Reaps the leader, and any orphaned member if we are their subreaper. */
		for (;;) {
			got = waitpid(-b->pid, &st, 0);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				break;
		}
		reaper_forget(b->pid);
	}
	if (b->sandbox)
		sandbox_start_release(b->sandbox, &b->sbx);
	else
		reaper_kill_orphans(SANDBOX_END_MS);
	/* every process of its game is gone: the host may start the next */
	if (b->host)
		sandbox_host_put(b->sandbox, b->host);
	/* Last words (a crash message, say) now the writers are gone; bounded. */
	for (int i = 0; i < 16 && b->err_fd >= 0; i++)
		bot_poll_stderr(b);
	bot_finish_stderr(b);
	bot_close_fd(&b->in_fd);
	bot_close_fd(&b->out_fd);
	bot_close_fd(&b->err_fd);
	bot_close_fd(&b->log_fd);
	bot_close_fd(&b->init_fd);
	bot_close_fd(&b->game_fd);
	bot_free(b);
}

void bot_close(struct bot *b, int grace_ms)
{
	if (!b)
		return;
	bot_close_fd(&b->in_fd);
	wait_exit(b, grace_ms);
	bot_stop(b, grace_ms);
}
