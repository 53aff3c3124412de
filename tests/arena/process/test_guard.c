/*
 * test_guard.c - the guard (arena/process/guard.h): two guards of one
 * process, as a host has (a league's segment and the pipeline's builds),
 * each stopped while the other lives. A guard started second must not keep
 * the first one's pipe open, or guard_stop() of the first waits for the
 * second to end.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "guard.h"

/* Far above the moment a stop takes when nothing holds it. */
#define HANG_GUARD_S 30

static void *stop_thread(void *arg)
{
	guard_stop(arg);
	return NULL;
}

/* guard_stop(g) within HANG_GUARD_S seconds: 0, or ETIMEDOUT (still waiting). */
static int stop_within(struct guard *g, pthread_t *t)
{
	struct timespec until;

	assert_int_equal(pthread_create(t, NULL, stop_thread, g), 0);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HANG_GUARD_S;
	return pthread_timedjoin_np(*t, NULL, &until);
}

static void test_two_guards_stop_apart(void **state)
{
	struct guard *first, *second, *third;
	pthread_t t;
	int rc, low;

	(void)state;
	assert_int_equal(guard_start(&first), 0);
	/* the free descriptor below the first guard's pipe taken, so that the second's
	 * pipe comes above it, as in a host whose threads open files all the time */
	assert_true((low = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0);
	assert_int_equal(guard_start(&second), 0);
	close(low);
	rc = stop_within(first, &t);
	guard_stop(second); /* lets a held first one end, so the test ends either way */
	if (rc)
		pthread_join(t, NULL);
	assert_int_equal(rc, 0);

	/* and in the other order */
	assert_int_equal(guard_start(&second), 0);
	assert_int_equal(guard_start(&third), 0);
	rc = stop_within(third, &t);
	guard_stop(second);
	if (rc)
		pthread_join(t, NULL);
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_guards_stop_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
