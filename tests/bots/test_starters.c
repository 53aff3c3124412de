/*
 * test_starters.c - the starter kits (C, Python, JavaScript) and the
 * reference bots play whole games through `skipbo-arena play` without a
 * fault: every line they write is a valid hello or a legal move in time.
 *
 * usage: test_starters ARENA STARTER_C PYTHON_BOT JS_BOT EASY MEDIUM HARD
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

enum { ARENA = 1, STARTER_C, PYTHON, JS, EASY, MEDIUM, HARD, NARGS };
static char **args;

/* Run argv, return its stdout (caller frees) and exit status. */
static char *run(char *const *argv, int *status)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t len = 0, cap = 4096;
	char *out = malloc(cap);
	assert_non_null(out);
	ssize_t n;
	while ((n = read(fd[0], out + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 1024) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
	}
	out[len] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	return out;
}

/*
 * One game under play's default limits; it must end without any fault. In a
 * sanitizer build those have no address-space limit (arena/TOURNAMENT.md),
 * so that its AddressSanitizer bots can start.
 */
static void play_clean(char **bots, int nbots, const char *seed, int partnership)
{
	char *argv[32]; /* 8 options, then up to 6 bots each followed by "--" */
	int k = 0, status;
	argv[k++] = args[ARENA];
	argv[k++] = "play";
	argv[k++] = "--seed";
	argv[k++] = (char *)seed;
	argv[k++] = "--stock";
	argv[k++] = "10";
	if (partnership)
		argv[k++] = "--partnership";
	argv[k++] = "--";
	for (int i = 0; i < nbots; i++) {
		argv[k++] = bots[i];
		argv[k++] = "--";
	}
	argv[--k] = NULL; /* no "--" after the last bot */
	char *out = run(argv, &status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strstr(out, "fault:") || !strstr(out, "result:"))
		fail_msg("arena play failed (status %d):\n%s", status, out);
	assert_null(strstr(out, "forfeit"));
	free(out);
}

static void starter_c(void **state)
{
	(void)state;
	char *bots[2] = { args[STARTER_C], args[EASY] };
	play_clean(bots, 2, "11", 0);
	char *swapped[2] = { args[EASY], args[STARTER_C] };
	play_clean(swapped, 2, "12", 0);
}

static void starter_python(void **state)
{
	(void)state;
	char *bots[2] = { args[PYTHON], args[EASY] };
	play_clean(bots, 2, "21", 0);
	char *swapped[2] = { args[EASY], args[PYTHON] };
	play_clean(swapped, 2, "22", 0);
}

static void starter_javascript(void **state)
{
	(void)state;
	char *bots[2] = { args[JS], args[EASY] };
	play_clean(bots, 2, "31", 0);
	char *swapped[2] = { args[EASY], args[JS] };
	play_clean(swapped, 2, "32", 0);
}

/* All three kits at one table with partners (R10): partner piles appear in
 * their views and legal lists. */
static void starters_in_partnership(void **state)
{
	(void)state;
	char *bots[4] = { args[STARTER_C], args[PYTHON], args[JS], args[EASY] };
	play_clean(bots, 4, "41", 1);
	char *six[6] = { args[STARTER_C], args[PYTHON], args[JS], args[EASY], args[MEDIUM], args[HARD] };
	play_clean(six, 6, "42", 1);
}

/* The reference bots as processes under the real time rules. */
static void reference_bots(void **state)
{
	(void)state;
	char *bots[3] = { args[HARD], args[MEDIUM], args[EASY] };
	play_clean(bots, 3, "51", 0);
	char *pair[2] = { args[MEDIUM], args[HARD] };
	play_clean(pair, 2, "52", 0);
}

int main(int argc, char **argv)
{
	if (argc != NARGS) {
		fprintf(stderr, "usage: test_starters ARENA STARTER_C PYTHON_BOT JS_BOT EASY MEDIUM HARD\n");
		return 2;
	}
	args = argv;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(starter_c),
		cmocka_unit_test(starter_python),
		cmocka_unit_test(starter_javascript),
		cmocka_unit_test(starters_in_partnership),
		cmocka_unit_test(reference_bots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
