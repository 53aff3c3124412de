/*
 * test_sandbox.c - bot processes in the sandbox (arena/process/sandbox.h):
 * what a sandboxed process sees of the machine, and that stopping it ends
 * everything it made. The bots here are small shell scripts that print what
 * they find on stdout, read back with bot_read_line().
 *
 * The tests run twice: each bot in a sandbox of its own, then each game's
 * bot from a host kept between games (sandbox_use_hosts), which must hold
 * to the same view, filter, limits and ends.
 *
 * Without a working sandbox on the machine (no bwrap, no user namespaces)
 * the program says why and exits 77, which ctest counts as skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "reaper.h"
#include "sandbox.h"
#include "sysinfo_view.h"

#define DEADLINE_US (10 * 1000000)
#define SKIP_STATUS 77
#define KILL_ROUNDS 40          /* arenas killed while starting sandboxes */
#define PROBE_SETTLE_MS 60      /* time for sandbox_open before the first kill */
#define PROCESS_LIMIT 20        /* limits.processes of the forking bot */
#define START_WAIT_S 10         /* SANDBOX_START_MS (bot_internal.h), in seconds */

/* TEST_DIR/sandbox.<pid>: mine/ (the bot's cwd), mine/out/ (hidden inside it),
 * other/ (another bot's cwd), secret.json (a hidden file). */
static char root[PATH_MAX / 2], mine[PATH_MAX], out[PATH_MAX], other[PATH_MAX], secret[PATH_MAX];
static struct sandbox *sb;
static bool hosts; /* the second round: bots come from hosts */
static struct bot_spec specs[2];
static char *mine_argv[] = { "/bin/sh", NULL }, *other_argv[] = { "/bin/sh", NULL };

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static void make_tree(void)
{
	snprintf(root, sizeof root, "%s/sandbox.%d", TEST_DIR, (int)getpid());
	snprintf(mine, sizeof mine, "%s/mine", root);
	snprintf(out, sizeof out, "%s/mine/out", root);
	snprintf(other, sizeof other, "%s/other", root);
	snprintf(secret, sizeof secret, "%s/mine/secret.json", root);
	/* The sandbox's uids (as root) must reach the bot's directory. */
	if (mkdir(root, 0755) < 0 || mkdir(mine, 0755) < 0 || mkdir(out, 0755) < 0 ||
	    mkdir(other, 0755) < 0)
		abort();
	chmod(root, 0755);
	write_file(secret, "{\"seed\": 42}\n");
	{
		char path[PATH_MAX + 16];

		snprintf(path, sizeof path, "%s/games.jsonl", out);
		write_file(path, "{}\n");
		snprintf(path, sizeof path, "%s/theirs.txt", other);
		write_file(path, "their book\n");
		snprintf(path, sizeof path, "%s/own.txt", mine);
		write_file(path, "my book\n");
	}
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

/* Start /bin/sh -c script as bot "mine", sandboxed; the script's stdout is read back. */
static struct bot *start_script(const char *script, const struct bot_limits *limits)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512];

	spec.argv = argv;
	if (limits)
		spec.limits = *limits;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	return b;
}

/* The next line of the script's output, copied; the test fails without one. */
static char *next_line(struct bot *b)
{
	const char *line;
	size_t len;
	int r = bot_read_line(b, &line, &len, clock_now_us() + DEADLINE_US);

	if (r < 0)
		fail_msg("no line from the sandboxed script: %s", strerror(-r));
	return strndup(line, len);
}

static void expect_line(struct bot *b, const char *want)
{
	char *got = next_line(b);

	assert_string_equal(got, want);
	free(got);
}

/*
 * How many processes on the machine have marker in their command line (at
 * its start, with at_start; also holding also, unless NULL); with
 * kill_them, SIGKILL each (what a failed test left).
 */
static int processes_matching(const char *marker, bool at_start, const char *also, bool kill_them)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d))) {
		char path[300], cmd[512];
		ssize_t n;
		int fd;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		if ((fd = open(path, O_RDONLY)) < 0)
			continue;
		n = read(fd, cmd, sizeof cmd - 1);
		close(fd);
		for (ssize_t i = 0; i < n; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (n > 0 && (cmd[n] = '\0', at_start ? strncmp(cmd, marker, strlen(marker)) == 0 :
						  strstr(cmd, marker) != NULL) && (!also || strstr(cmd, also))) {
			found++;
			if (kill_them)
				kill(atoi(e->d_name), SIGKILL);
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int processes_with(const char *marker, bool kill_them)
{
	return processes_matching(marker, false, NULL, kill_them);
}

/* Is the command running? (A host's command line holds its bot's script too.) */
static bool process_with(const char *command)
{
	return processes_matching(command, true, NULL, false) > 0;
}

static void test_mode_names(void **state)
{
	enum sandbox_mode m;

	(void)state;
	assert_int_equal(sandbox_mode_parse("auto", &m), 0);
	assert_int_equal(m, SANDBOX_AUTO);
	assert_int_equal(sandbox_mode_parse("on", &m), 0);
	assert_int_equal(m, SANDBOX_ON);
	assert_int_equal(sandbox_mode_parse("off", &m), 0);
	assert_int_equal(m, SANDBOX_OFF);
	assert_int_equal(sandbox_mode_parse("sealed", &m), 0);
	assert_int_equal(m, SANDBOX_SEALED);
	assert_int_equal(sandbox_mode_parse("yes", &m), -EINVAL);
	assert_string_equal(sandbox_mode_name(SANDBOX_AUTO), "auto");
	assert_string_equal(sandbox_mode_name(SANDBOX_SEALED), "sealed");
}

static void test_off_is_no_sandbox(void **state)
{
	struct sandbox_setup setup = { .mode = SANDBOX_OFF };
	struct sandbox *none = (struct sandbox *)1;
	char note[256];

	(void)state;
	assert_int_equal(sandbox_open(&setup, &none, note, sizeof note), 0);
	assert_null(none);
	assert_string_equal(note, "");
}

/* The process sees only its own namespace: its init, itself and what it runs. */
static void test_sees_no_other_process(void **state)
{
	struct bot *b = start_script("ls /proc | grep -c '^[0-9]'; echo $$", NULL);
	char *count = next_line(b), *pid;

	(void)state;
	/* bwrap's init and the launcher, which answers sysinfo (in a host, the game's pid
	 * 1 alone), the shell, and ls or grep */
	assert_true(atoi(count) <= 5);
	pid = next_line(b);
	/* the shell: pid 3 in a sandbox of its own, 2 in a host's game */
	if (strcmp(pid, "2") != 0 && strcmp(pid, "3") != 0)
		fail_msg("the bot is pid %s in its sandbox: more processes than the launcher's", pid);
	free(pid);
	free(count);
	bot_stop(b, 100);
}

/* The real uid a process runs as, as the arena sees it (its Uid line). */
static unsigned long outside_uid(pid_t pid)
{
	char path[64], line[256];
	unsigned long uid = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	assert_non_null(f = fopen(path, "r"));
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Uid: %lu", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

/* Inside, one uid, gid and host name for every sandbox: nothing of the machine or
 * of the arena's pid (sandbox_start.h); outside, a uid of the arena's own block. */
static void test_identity_and_environment(void **state)
{
	struct bot *b = start_script("id -u; id -g; hostname; echo \"$HOME $TMPDIR\"; "
				     "env | grep -c ARENA_SECRET; grep NoNewPrivs /proc/self/status; "
				     "grep CapEff /proc/self/status", NULL);

	(void)state;
	expect_line(b, SANDBOX_INNER_ID);
	expect_line(b, SANDBOX_INNER_ID);
	expect_line(b, SANDBOX_HOSTNAME);
	if (geteuid() == 0) {
		/* this arena's own block of uids, apart from another arena's */
		unsigned long base = SANDBOX_UID_BASE +
				     (unsigned long)getpid() % SANDBOX_UID_BLOCKS * SANDBOX_UID_BLOCK_SIZE;

		assert_in_range(outside_uid(bot_pid(b)), base, base + SANDBOX_UID_BLOCK_SIZE - 1);
	}
	expect_line(b, "/tmp /tmp");
	expect_line(b, "0");
	expect_line(b, "NoNewPrivs:\t1");
	expect_line(b, "CapEff:\t0000000000000000");
	bot_stop(b, 100);
}

/*
 * The allowlist: its working directory holds a hidden path, so it is an empty
 * directory but for the files the bot names; the system directories are
 * there, the rest of the machine is not.
 */
static void test_file_system_view(void **state)
{
	char script[4 * PATH_MAX];
	struct bot *b;

	(void)state;
	snprintf(script, sizeof script,
		 "cat own.txt 2>/dev/null || echo not-shown; ls -A | wc -l; ls '%s' 2>&1 | wc -l; "
		 "cat '%s' 2>/dev/null || echo unreadable; "
		 "touch own2.txt 2>/dev/null && echo wrote-cwd || echo cwd-read-only; "
		 "echo x > /tmp/scratch && cat /tmp/scratch; "
		 "echo y > /dev/shm/scratch && cat /dev/shm/scratch; "
		 "touch /dev/file 2>/dev/null && echo wrote-dev || echo dev-read-only; "
		 "ls -d /run /sys /home /root /var /opt 2>/dev/null | wc -l; stat -c %%t:%%T /dev/tty; "
		 "test -x /usr/bin/env && test -r /etc/passwd && echo system",
		 other, secret);
	b = start_script(script, NULL);
	expect_line(b, "not-shown");      /* a working directory with tournament files is empty */
	expect_line(b, "0");
	expect_line(b, "1");              /* the other bot's directory: "No such file" */
	expect_line(b, "unreadable");     /* the hidden file */
	expect_line(b, "cwd-read-only");
	expect_line(b, "x");
	expect_line(b, "y");
	expect_line(b, "dev-read-only");
	expect_line(b, "0");              /* no /run, /sys, /home, /root, /var, /opt */
	expect_line(b, "1:3");            /* /dev/tty is /dev/null: no way to the arena's terminal */
	expect_line(b, "system");
	bot_stop(b, 100);
}

/* Files named as arguments are shown; a directory of its own is shown whole, less what is hidden. */
static void test_named_files_shown(void **state)
{
	char own_txt[PATH_MAX + 16], script[4 * PATH_MAX];
	char *argv[] = { "/bin/sh", "-c", script, "sh", own_txt, root, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512];

	(void)state;
	snprintf(own_txt, sizeof own_txt, "%s/own.txt", mine);
	snprintf(script, sizeof script, "cat \"$1\"; ls \"$2\" | tr '\\n' ' '; echo; "
		 "ls '%s' | wc -l; cat '%s' 2>/dev/null || echo unreadable", out, secret);
	spec.argv = argv;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	expect_line(b, "my book");
	/* root holds the hidden output directory: not a directory of its own, so it
	 * shows only the way to the named file, not "other" */
	expect_line(b, "mine ");
	expect_line(b, "0");
	expect_line(b, "unreadable");
	bot_stop(b, 100);
}

/* A script in another bot's folder runs, and sees nothing else of that folder. */
static void test_script_in_other_folder(void **state)
{
	char path[PATH_MAX + 16];
	char *argv[] = { "/bin/sh", path, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512];

	(void)state;
	snprintf(path, sizeof path, "%s/script.sh", other);
	write_file(path, "echo ran; cat \"$(dirname \"$0\")/theirs.txt\" 2>/dev/null || "
		   "echo not-theirs\n");
	spec.argv = argv;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	expect_line(b, "ran");
	expect_line(b, "not-theirs");
	bot_stop(b, 100);
	unlink(path);
}

/* A script under /tmp (the arena's /tmp, not the bot's scratch) runs: it is the bot's own file. */
static void test_script_under_tmp(void **state)
{
	char dir[] = "/tmp/skipbo-script.XXXXXX", path[64];
	char *argv[] = { "/bin/sh", path, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512];

	(void)state;
	if (!mkdtemp(dir) || chmod(dir, 0755) < 0)
		abort();
	snprintf(path, sizeof path, "%s/bot.sh", dir);
	write_file(path, "echo hello from tmp\n");
	chmod(path, 0644);
	spec.argv = argv;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	expect_line(b, "hello from tmp");
	bot_stop(b, 100);
	unlink(path);
	rmdir(dir);
}

/* The seccomp filter: namespaces and affinity changes refused; no machine-wide task count. */
static void test_system_calls_filtered(void **state)
{
	struct bot *b = start_script("grep '^Seccomp:' /proc/self/status; "
				     "unshare -n true 2>/dev/null && echo unshared || echo refused; "
				     "taskset -p 1 $$ >/dev/null 2>&1 && echo widened || echo pinned; "
				     "cat /proc/loadavg 2>/dev/null | wc -c", NULL);

	(void)state;
	expect_line(b, "Seccomp:\t2");
	expect_line(b, "refused");
	expect_line(b, "pinned");
	expect_line(b, "0");
	bot_stop(b, 100);
}

/*
 * sysinfo answered by the launcher (launcher.h), not the kernel: glibc's
 * sysconf(_SC_PHYS_PAGES), which reads it, gives the view's 4 GiB
 * (sysinfo_view.h), in a child of the bot's. Skipped without python3.
 */
static void test_sysinfo_answered(void **state)
{
	struct bot *b = start_script("python3 -c 'import os; print(os.sysconf(\"SC_PHYS_PAGES\") * "
				     "os.sysconf(\"SC_PAGE_SIZE\"))' 2>/dev/null || echo none", NULL);
	char *got = next_line(b), want[32];

	(void)state;
	bot_stop(b, 100);
	if (strcmp(got, "none") == 0) {
		free(got);
		skip();
	}
	snprintf(want, sizeof want, "%lu", SYSINFO_VIEW_RAM);
	assert_string_equal(got, want);
	free(got);
}

/* sandbox_open() with one bot: its return value, and the note in note. */
static int open_with(char **argv, char *note, size_t size)
{
	struct bot_spec spec = { .name = "shim", .argv = argv, .cwd = mine, .cpu = -1 };
	struct sandbox_setup setup = { .mode = SANDBOX_AUTO, .bots = &spec, .nbots = 1 };
	struct sandbox *one = NULL;
	int ret = sandbox_open(&setup, &one, note, size);

	sandbox_close(one);
	return ret;
}

/*
 * Fail closed: a program found in PATH outside what a bot sees (a shim
 * under a home directory), or a script whose "#!/usr/bin/env NAME" names
 * nothing it sees, is refused in auto too, naming the bot and the path;
 * the sandbox is never turned off for it.
 */
static void test_unrunnable_bot_refused(void **state)
{
	char bin[PATH_MAX + 16], tool[PATH_MAX + 64], path[2 * PATH_MAX + 128], note[2048];
	char *shim_argv[] = { "skipbo-shim-tool", NULL }, *script_argv[] = { tool, NULL };
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;

	(void)state;
	snprintf(bin, sizeof bin, "%s/shims", other);
	snprintf(tool, sizeof tool, "%s/skipbo-shim-tool", bin);
	if (mkdir(bin, 0755) < 0)
		abort();
	write_file(tool, "#!/usr/bin/env skipbo-no-such-interpreter\n");
	chmod(tool, 0755);
	snprintf(path, sizeof path, "%s:%s", bin, old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	assert_int_equal(open_with(shim_argv, note, sizeof note), -EACCES);
	assert_non_null(strstr(note, "\"shim\""));
	assert_non_null(strstr(note, tool));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	assert_int_equal(open_with(script_argv, note, sizeof note), -EACCES);
	assert_non_null(strstr(note, "skipbo-no-such-interpreter"));
	unlink(tool);
	rmdir(bin);
}

/* A bot the sandbox's shell could not execute: the fault says the sandbox may be why. */
static void test_start_fault_names_sandbox(void **state)
{
	struct bot *b = start_script("exit 127", NULL);
	int64_t end = clock_now_us() + DEADLINE_US;

	(void)state;
	while (!bot_exited(b, NULL) && clock_now_us() < end)
		usleep(1000);
	assert_non_null(strstr(bot_exit_hint(b), "it ran in the sandbox"));
	bot_stop(b, 100);
}

/* Where the launcher can run (launcher.h): not on other machines, nor with vm.memfd_noexec = 2. */
static bool launcher_expected(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	FILE *f = fopen("/proc/sys/vm/memfd_noexec", "re");
	int level = 0;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
	}
	return level < 2;
#else
	return false;
#endif
}

/*
 * The launcher starts the bot (bwrap's command names it), and the bot holds
 * no descriptor but stdin, stdout and stderr: the pipes moved, the
 * launcher's own closed.
 */
static void test_launcher_leaves_only_the_pipes(void **state)
{
	struct bot *b = start_script("ls /proc/self/fd | tr '\\n' ' '; echo; "
				     "tr '\\0' ' ' < /proc/1/cmdline; echo", NULL);
	char *cmdline;

	(void)state;
	/* what ls inherited from the bot's shell, and its own directory */
	expect_line(b, "0 1 2 3 ");
	cmdline = next_line(b);
	/* in a host, pid 1 is the game's, the host's fork: it shows the bot's own command,
	 * none of the launcher's options (launcher_program.c) */
	if (hosts && (!strstr(cmdline, " -c ls /proc/self/fd ") || strstr(cmdline, " -H ") ||
		      strncmp(cmdline, "/proc/self/fd/9", strlen("/proc/self/fd/9")) == 0))
		fail_msg("pid 1 shows more than the bot's command: %s", cmdline);
	if (!hosts && launcher_expected())
		if (!strstr(cmdline, " -- /proc/self/fd/9 "))
			fail_msg("bwrap ran no launcher: %s", cmdline);
	free(cmdline);
	bot_stop(b, 100);
}

/* An exec that fails in the sandbox (its interpreter is not there): 127, as from a shell, and the path in the log. */
static void test_exec_failure_in_sandbox(void **state)
{
	char path[PATH_MAX + 32], log[PATH_MAX + 32], text[1024] = "";
	char *argv[] = { path, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	int64_t end = clock_now_us() + DEADLINE_US;
	int status = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof path, "%s/no-interpreter.sh", mine);
	snprintf(log, sizeof log, "%s/launch.log", root);
	write_file(path, "#!/nonexistent/interpreter\n");
	chmod(path, 0755);
	spec.argv = argv;
	spec.stderr_path = log;
	spec.stderr_cap = sizeof text;
	if (bot_start(&spec, &b, text, sizeof text) < 0)
		fail_msg("bot_start: %s", text);
	while (!bot_exited(b, &status) && clock_now_us() < end)
		usleep(1000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 127);
	assert_non_null(strstr(bot_exit_hint(b), "it ran in the sandbox"));
	bot_stop(b, 100);
	f = fopen(log, "re");
	assert_non_null(f);
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(text, path));
	unlink(path);
	unlink(log);
}

static void test_no_network(void **state)
{
	struct bot *b = start_script("tail -n +3 /proc/self/net/dev | cut -d: -f1 | tr -d ' '", NULL);

	(void)state;
	expect_line(b, "lo");
	bot_stop(b, 100);
}

/* The answer of script run in a sandbox of its own, opened for spec (argv replaced). */
static char *answer_in_own_sandbox(struct bot_spec spec, const char *script)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL }, note[1024], why[512], *line;
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = &spec, .nbots = 1 };
	struct sandbox *own = NULL;
	struct bot *b = NULL;

	spec.argv = argv;
	if (sandbox_open(&setup, &own, note, sizeof note) < 0)
		fail_msg("sandbox_open: %s", note);
	spec.sandbox = own;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	line = next_line(b);
	bot_stop(b, 0);
	sandbox_close(own);
	return line;
}

/* A build's tree: its working directory bound writable with cwd_writable, read-only
 * without, as every bot's is. */
static void test_writable_cwd(void **state)
{
	char dir[PATH_MAX + 16], *got;
	struct bot_spec spec = { .name = "build", .cpu = -1 };
	const char *script = "echo built > product && echo written || echo refused";

	(void)state;
	/* (the tests run twice: the second time it is there, emptied) */
	snprintf(dir, sizeof dir, "%s/tree/product", root);
	unlink(dir);
	snprintf(dir, sizeof dir, "%s/tree", root);
	assert_true(mkdir(dir, 0777) == 0 || errno == EEXIST);
	/* as root the sandbox's uid writes: the directory is open to it, as the pipeline's is */
	assert_int_equal(chmod(dir, 0777), 0);
	spec.cwd = dir;
	got = answer_in_own_sandbox(spec, script);
	assert_string_equal(got, "refused");
	free(got);
	spec.cwd_writable = true;
	got = answer_in_own_sandbox(spec, script);
	assert_string_equal(got, "written");
	free(got);
	snprintf(dir, sizeof dir, "%s/tree/product", root);
	assert_int_equal(access(dir, F_OK), 0);
}

/* Two sandboxes of one process at once (a league's and a build's), each with bots alive
 * in its cgroups: their leaves must not collide. */
static void test_two_sandboxes_at_once(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "echo up; sleep 30", NULL }, note[1024], why[512];
	struct bot_spec spec = specs[0];
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = &spec, .nbots = 1 };
	struct sandbox *two[2] = { NULL, NULL };
	struct bot *b[2] = { NULL, NULL };

	(void)state;
	spec.argv = argv;
	spec.limits.processes = 8;
	for (int i = 0; i < 2; i++)
		if (sandbox_open(&setup, &two[i], note, sizeof note) < 0)
			fail_msg("sandbox_open: %s", note);
	for (int i = 0; i < 2; i++) {
		spec.sandbox = two[i];
		if (bot_start(&spec, &b[i], why, sizeof why) < 0)
			fail_msg("bot_start in sandbox %d: %s", i, why);
		expect_line(b[i], "up");
	}
	/* the first closed: the second's cgroups still work */
	bot_stop(b[0], 0);
	sandbox_close(two[0]);
	spec.sandbox = two[1];
	if (bot_start(&spec, &b[0], why, sizeof why) < 0)
		fail_msg("bot_start after the other sandbox closed: %s", why);
	expect_line(b[0], "up");
	bot_stop(b[0], 0);
	bot_stop(b[1], 0);
	sandbox_close(two[1]);
}

/* Scratch files are the process's own and vanish with it. */
static void test_scratch_is_private(void **state)
{
	struct bot *a = start_script("echo mark > /tmp/mark; echo written; sleep 30", NULL);
	struct bot *b;

	(void)state;
	expect_line(a, "written");
	/* (not an empty /tmp: a working directory under /tmp has its mount point there) */
	b = start_script("test -e /tmp/mark && echo seen || echo unseen", NULL);
	expect_line(b, "unseen");
	bot_stop(b, 100);
	bot_stop(a, 100);
}

/* "sleep SECONDS" with digits of this test's pid after them: no other copy of the suite
 * running at the same time has a process of that command line. */
static const char *sleep_of(char *buf, size_t size, const char *seconds)
{
	snprintf(buf, size, "sleep %s%05d", seconds, (int)getpid() % 100000);
	return buf;
}

/* Everything the bot made dies with it: a setsid daemon, a double fork. */
static void test_stop_ends_every_process(void **state)
{
	char a[32], b2[32], c[32], script[160];
	struct bot *b;

	(void)state;
	sleep_of(a, sizeof a, "61.25");
	sleep_of(b2, sizeof b2, "61.5");
	sleep_of(c, sizeof c, "61.75");
	snprintf(script, sizeof script, "setsid %s & (%s &) ; sleep 0.1; echo forked; %s", a, b2, c);
	b = start_script(script, NULL);
	expect_line(b, "forked");
	assert_true(process_with(a));
	assert_true(process_with(b2));
	bot_stop(b, 100);
	assert_false(process_with(a));
	assert_false(process_with(b2));
	assert_false(process_with(c));
}

/*
 * --start-loop MARKER: open a sandbox of its own and start and stop a bot
 * that sleeps, over and over, until killed. The test kills it at moments
 * spread over the starts.
 */
static int start_loop(const char *marker, bool with_hosts)
{
	char *argv[] = { "/bin/sh", "-c", "sleep 1000", (char *)marker, NULL };
	struct bot_spec spec = { .name = "loop", .argv = argv, .cwd = "/", .cpu = -1 };
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = &spec, .nbots = 1 };
	struct sandbox *own = NULL;
	char note[1024], why[512];

	if (reaper_start() < 0 || sandbox_open(&setup, &own, note, sizeof note) < 0 ||
	    (with_hosts && sandbox_use_hosts(own, true) < 0))
		return 1;
	spec.sandbox = own;
	for (;;) {
		struct bot *b = NULL;

		if (bot_start(&spec, &b, why, sizeof why) == 0)
			bot_stop(b, 0);
	}
}

/*
 * An arena killed (SIGKILL) at any moment, a sandbox half made included,
 * leaves no process of its bots: the guard kills them (guard.h).
 */
static void test_killed_arena_leaves_nothing(void **state)
{
	char marker[64], self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int left;

	(void)state;
	assert_true(n > 0);
	self[n] = '\0';
	snprintf(marker, sizeof marker, "skipbo-kill-loop-%d", (int)getpid());
	for (int round = 0; round < KILL_ROUNDS; round++) {
		struct timespec delay = { 0, (PROBE_SETTLE_MS + round % 10 * 3) * 1000000L };
		pid_t pid = fork();

		if (pid == 0) {
			execl(self, self, "--start-loop", marker, hosts ? "hosts" : "alone",
			      (char *)NULL);
			_exit(127);
		}
		nanosleep(&delay, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	usleep(300000);
	left = processes_with(marker, false);
	if (left)
		processes_with(marker, true);
	assert_int_equal(left, 0);
}

/* When the bot exits, the namespace goes with it, daemons included. */
static void test_exit_ends_every_process(void **state)
{
	char daemon[32], script[96];
	struct bot *b;
	int64_t end = clock_now_us() + DEADLINE_US;
	int status = -1;

	(void)state;
	sleep_of(daemon, sizeof daemon, "62.25");
	snprintf(script, sizeof script, "setsid %s & sleep 0.1; echo forked; exit 5", daemon);
	b = start_script(script, NULL);
	expect_line(b, "forked");
	while (!bot_exited(b, &status) && clock_now_us() < end)
		usleep(1000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 5);
	bot_stop(b, 100);
	assert_false(process_with(daemon));
}

/* bwrap reports a death by signal N as exit code 128 + N; bot_exited gives the signal back. */
static void test_signal_status(void **state)
{
	struct bot *b = start_script("echo up; kill -SEGV $$", NULL);
	int64_t end = clock_now_us() + DEADLINE_US;
	int status = -1;

	(void)state;
	expect_line(b, "up");
	while (!bot_exited(b, &status) && clock_now_us() < end)
		usleep(1000);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	bot_stop(b, 100);
}

/* badbot MODE ARG, sandboxed, with limits; its hello as a cJSON-free string. */
static char *badbot_hello(const char *mode, const char *arg, const struct bot_limits *limits)
{
	char *argv[] = { BADBOT_PATH, (char *)mode, (char *)arg, NULL };
	static const char hello[] = "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"test\"}";
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512], *line;

	spec.argv = argv;
	spec.limits = *limits;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	assert_int_equal(bot_write_line(b, hello, strlen(hello), clock_now_us() + DEADLINE_US), 0);
	line = next_line(b);
	bot_stop(b, 100);
	return line;
}

/* The number after "key": in text, or -1. */
static long number_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* n sleeping processes of the test's own user, unsandboxed, in one process group. */
static struct bot *start_other_processes(int n)
{
	char script[160], *argv[] = { "/bin/sh", "-c", script, NULL };
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	char why[512];

	snprintf(script, sizeof script, "i=0; while [ $i -lt %d ]; do sleep 58.5 & i=$((i+1)); "
		 "done; echo ready; read x", n);
	spec.argv = argv;
	spec.sandbox = NULL;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	expect_line(b, "ready");
	return b;
}

/*
 * limits.processes is how many processes the bot may have at once, itself
 * included: it forks PROCESS_LIMIT - 1 children, and the next fork fails.
 * Nothing else counts: the user has many more processes outside the
 * sandbox, which as an ordinary user a limit set before bwrap counted
 * (sandbox_start.h). The same for the whole tree where there are cgroups.
 */
static void test_processes_limited(void **state)
{
	struct bot_limits limits = { 0, 0, 0, PROCESS_LIMIT };
	struct bot *others = start_other_processes(3 * PROCESS_LIMIT);
	char *hello = badbot_hello("fork-bomb", "200", &limits);
	long forked = number_after(hello, "\"forked\":");

	(void)state;
	bot_stop(others, 0);
	assert_int_equal(forked, PROCESS_LIMIT - 1);
	free(hello);
}

static void test_memory_limited(void **state)
{
	struct bot_limits limits = { 0, 64, 0, 0 };
	char *hello = badbot_hello("memory-hog", NULL, &limits);
	long mb = number_after(hello, "\"allocated_mb\":");

	(void)state;
	assert_true(mb >= 0 && mb <= 64);
	free(hello);
}

static void test_cpu_clock(void **state)
{
	struct bot *b = start_script("i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo done; "
				     "read x", NULL);
	int64_t us;

	(void)state;
	expect_line(b, "done");
	/* the shell's own loop, a tenth of a second and more of CPU: not the few the
	 * processes around it (bwrap's init, the launcher) spend */
	us = bot_cpu_us(b);
	if (us < 10000)
		fail_msg("the bot's CPU time: %lld us, less than its loop takes", (long long)us);
	bot_stop(b, 100);
}

/* The script of namespaces(), naming this test's process: its hosts are told apart by it. */
static char ns_script[512];

/*
 * "NET PID SHM": a game's network namespace by its cookie (which the kernel
 * never gives two namespaces, unlike an inode number, reused once one is
 * gone), its bot's pid, and how many SysV shared memory segments it found
 * before it made one of its own.
 */
static char *namespaces(void)
{
	struct bot *b;
	char *line;

	snprintf(ns_script, sizeof ns_script, "echo $(python3 -c 'import socket; print(int."
		 "from_bytes(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).getsockopt("
		 "socket.SOL_SOCKET, 71, 8), \"little\"))') $$ $(ipcs -m | grep -c ^0x) "
		 "$(ipcmk -M 4096 >/dev/null) # skipbo-ns-%d", (int)getpid());
	b = start_script(ns_script, NULL);
	line = next_line(b);
	bot_stop(b, 100);
	return line;
}

/*
 * A host's games: the same sandbox (its network namespace), each with PID and
 * IPC namespaces of its own (the bot is pid 2 again; the segment the game
 * before made is not there); after sandbox_stop_hosts, a new sandbox.
 */
static void test_host_games_fresh(void **state)
{
	char *first = namespaces(), *second = namespaces(), *third;
	char net[2][64], pid[2][64], shm[2][64];

	(void)state;
	assert_int_equal(sscanf(first, "%63s %63s %63s", net[0], pid[0], shm[0]), 3);
	assert_int_equal(sscanf(second, "%63s %63s %63s", net[1], pid[1], shm[1]), 3);
	assert_string_equal(net[0], net[1]);
	assert_string_equal(pid[0], "2");
	assert_string_equal(pid[1], "2");
	assert_string_equal(shm[0], "0");
	assert_string_equal(shm[1], "0");
	sandbox_stop_hosts(sb);
	third = namespaces();
	assert_int_equal(sscanf(third, "%63s", net[1]), 1);
	assert_string_not_equal(net[0], net[1]);
	free(first);
	free(second);
	free(third);
}

/* How many hosts of namespaces()'s bot are there (a host's command line begins with the
 * launcher's -H, then its bot's). */
static int hosts_running(void)
{
	char marker[32];

	snprintf(marker, sizeof marker, "skipbo-ns-%d", (int)getpid());
	return processes_matching("/proc/self/fd/9 -H ", true, marker, false);
}

/*
 * A host started ahead for the next phase outlives the end of this one, when
 * the host that served a game goes, and serves the next game.
 */
static void test_hosts_ahead_outlive_the_phase(void **state)
{
	int64_t end = clock_now_us() + DEADLINE_US;
	char *first, *second;

	(void)state;
	sandbox_stop_hosts(sb);
	first = namespaces();
	assert_int_equal(hosts_running(), 1);
	sandbox_start_hosts_ahead(sb);
	while (hosts_running() < 2 && clock_now_us() < end)
		usleep(1000);
	assert_int_equal(hosts_running(), 2);
	sandbox_end_phase(sb);
	assert_int_equal(hosts_running(), 1);
	second = namespaces();
	assert_int_equal(hosts_running(), 1);
	assert_string_not_equal(strtok(first, " "), strtok(second, " "));
	free(first);
	free(second);
}

/*
 * A host killed under a running game: the game's bot dies with it, a fault
 * like any other, and the next game gets a new host.
 */
static void test_killed_host_replaced(void **state)
{
	char script[128], marker[32], pid[64], *after;
	struct bot *b;
	int64_t end = clock_now_us() + DEADLINE_US;
	int status = 0;

	(void)state;
	sandbox_stop_hosts(sb);
	snprintf(marker, sizeof marker, "skipbo-kill-host-%d", (int)getpid());
	snprintf(script, sizeof script, "echo up; sleep 30 # %s", marker);
	b = start_script(script, NULL);
	expect_line(b, "up");
	/* the host (its game's pid 1 shows the bot's command alone): killed */
	assert_int_equal(processes_matching("/proc/self/fd/9 -H ", true, marker, true), 1);
	while (!bot_exited(b, &status) && clock_now_us() < end)
		usleep(1000);
	assert_true(bot_exited(b, &status));
	assert_true(WIFSIGNALED(status));
	bot_stop(b, 100);
	/* a game in a new host, its bot pid 2 of its own namespace */
	after = namespaces();
	assert_int_equal(sscanf(after, "%*s %63s", pid), 1);
	assert_string_equal(pid, "2");
	free(after);
}

/* Without bwrap in PATH: auto runs unsandboxed and says so, on refuses. */
static void test_missing_bwrap(void **state)
{
	struct sandbox_setup setup = { .mode = SANDBOX_AUTO, .bots = specs, .nbots = 1 };
	char *saved = strdup(getenv("PATH")), note[512];
	struct sandbox *none = NULL;

	(void)state;
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(sandbox_open(&setup, &none, note, sizeof note), 0);
	assert_null(none);
	assert_non_null(strstr(note, "bwrap not found"));
	assert_non_null(strstr(note, "apt-get install bubblewrap"));
	setup.mode = SANDBOX_ON;
	assert_int_equal(sandbox_open(&setup, &none, note, sizeof note), -ENOTSUP);
	assert_null(none);
	setenv("PATH", saved, 1);
	free(saved);
}

/*
 * A bwrap slow to make its sandbox (a busy machine): a bot at the usual
 * priority is refused after START_WAIT_S with words saying so, but a
 * build at SCHED_IDLE, which gets a CPU only when nothing else wants one,
 * is given the longer wait and starts.
 */
static void test_slow_bwrap(void **state)
{
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = specs, .nbots = 1 };
	char dir[PATH_MAX + 16], wrapper[PATH_MAX + 32], flag[PATH_MAX + 32], real[PATH_MAX];
	char script[3 * PATH_MAX], why[512], path[2 * PATH_MAX];
	char *saved = strdup(getenv("PATH")), *argv[] = { "/bin/sh", "-c", "echo up", NULL };
	struct sandbox *slow = NULL;
	struct bot_spec spec = specs[0];
	struct bot *b = NULL;
	FILE *p = popen("command -v bwrap", "r");

	(void)state;
	assert_non_null(p);
	assert_non_null(fgets(real, sizeof real, p));
	pclose(p);
	real[strcspn(real, "\n")] = '\0';
	snprintf(dir, sizeof dir, "%s/slow-bwrap", root);
	snprintf(wrapper, sizeof wrapper, "%s/bwrap", dir);
	snprintf(flag, sizeof flag, "%s/slow", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	/* 2 s past the usual wait; sandbox_open's own probe runs before the flag */
	snprintf(script, sizeof script, "#!/bin/sh\n[ ! -e '%s' ] || sleep %d\nexec '%s' \"$@\"\n",
		 flag, START_WAIT_S + 2, real);
	write_file(wrapper, script);
	chmod(wrapper, 0755);
	snprintf(path, sizeof path, "%s:%s", dir, saved);
	setenv("PATH", path, 1);
	assert_int_equal(sandbox_open(&setup, &slow, why, sizeof why), 0);
	setenv("PATH", saved, 1);
	write_file(flag, "");
	spec.sandbox = slow;
	spec.argv = argv;
	assert_int_equal(bot_start(&spec, &b, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "its sandbox did not start: bwrap had not made it after 10 s"));
	spec.idle = true;
	if (bot_start(&spec, &b, why, sizeof why) < 0)
		fail_msg("an idle bot behind a slow bwrap: %s", why);
	expect_line(b, "up");
	bot_stop(b, 100);
	sandbox_close(slow);
	free(saved);
}

/* The tests of a bot's process again, with bots from hosts, and the hosts' own. */
static int run_in_hosts(const struct CMUnitTest *tests, size_t n)
{
	/* of sandbox_open itself: once is enough */
	static const char *const once[] = { "test_mode_names", "test_off_is_no_sandbox",
					    "test_unrunnable_bot_refused", "test_missing_bwrap",
					    "test_slow_bwrap" };
	struct CMUnitTest *again = calloc(n + 3, sizeof *again);
	size_t k = 0;
	int failed;

	assert_non_null(again);
	for (size_t i = 0; i < n; i++) {
		bool skip = false;

		for (size_t j = 0; j < sizeof once / sizeof once[0]; j++)
			skip = skip || strcmp(tests[i].name, once[j]) == 0;
		if (!skip)
			again[k++] = tests[i];
	}
	again[k++] = (struct CMUnitTest)cmocka_unit_test(test_host_games_fresh);
	again[k++] = (struct CMUnitTest)cmocka_unit_test(test_hosts_ahead_outlive_the_phase);
	again[k++] = (struct CMUnitTest)cmocka_unit_test(test_killed_host_replaced);
	failed = _cmocka_run_group_tests("bots from hosts", again, k, NULL, NULL);
	free(again);
	return failed;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_off_is_no_sandbox),
		cmocka_unit_test(test_sees_no_other_process),
		cmocka_unit_test(test_identity_and_environment),
		cmocka_unit_test(test_file_system_view),
		cmocka_unit_test(test_named_files_shown),
		cmocka_unit_test(test_script_under_tmp),
		cmocka_unit_test(test_script_in_other_folder),
		cmocka_unit_test(test_system_calls_filtered),
		cmocka_unit_test(test_sysinfo_answered),
		cmocka_unit_test(test_unrunnable_bot_refused),
		cmocka_unit_test(test_start_fault_names_sandbox),
		cmocka_unit_test(test_launcher_leaves_only_the_pipes),
		cmocka_unit_test(test_exec_failure_in_sandbox),
		cmocka_unit_test(test_no_network),
		cmocka_unit_test(test_writable_cwd),
		cmocka_unit_test(test_two_sandboxes_at_once),
		cmocka_unit_test(test_scratch_is_private),
		cmocka_unit_test(test_stop_ends_every_process),
		cmocka_unit_test(test_exit_ends_every_process),
		cmocka_unit_test(test_killed_arena_leaves_nothing),
		cmocka_unit_test(test_signal_status),
		cmocka_unit_test(test_processes_limited),
		cmocka_unit_test(test_memory_limited),
		cmocka_unit_test(test_cpu_clock),
		cmocka_unit_test(test_missing_bwrap),
		cmocka_unit_test(test_slow_bwrap),
	};
	const char *hide[2];
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = specs, .nbots = 2, .hide = hide,
				       .nhide = 2 };
	char note[1024];
	int failed;

	if (argc == 4 && strcmp(argv[1], "--start-loop") == 0)
		return start_loop(argv[2], strcmp(argv[3], "hosts") == 0);
	if (reaper_start() < 0)
		abort();
	setenv("ARENA_SECRET", "must not reach a bot", 1);
	make_tree();
	specs[0] = (struct bot_spec){ .name = "mine", .argv = mine_argv, .cwd = mine, .cpu = -1 };
	specs[1] = (struct bot_spec){ .name = "other", .argv = other_argv, .cwd = other, .cpu = -1 };
	hide[0] = out;
	hide[1] = secret;
	if (sandbox_open(&setup, &sb, note, sizeof note) < 0) {
		printf("skipped: %s\n", note);
		remove_tree();
		return SKIP_STATUS;
	}
	if (note[0])
		printf("note: %s\n", note);
	specs[0].sandbox = sb;
	failed = cmocka_run_group_tests_name("each bot in a sandbox of its own", tests, NULL, NULL);
	if (launcher_expected()) {
		if (sandbox_use_hosts(sb, true) < 0) {
			printf("hosts do not work here\n");
			failed++;
		} else {
			hosts = true;
			failed += run_in_hosts(tests, sizeof tests / sizeof tests[0]);
		}
	}
	sandbox_close(sb);
	remove_tree();
	return failed;
}
