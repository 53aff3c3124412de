/*
 * assert_near.h - cmocka check for doubles that prints both values on failure
 * (the cmocka in Debian 12 has no assert_double_equal). Include after cmocka.h.
 */
#ifndef RATING_ASSERT_NEAR_H
#define RATING_ASSERT_NEAR_H

#include <math.h>

static inline void assert_near_at(double got, double want, double eps, const char *what,
				  const char *file, int line)
{
	if (!(fabs(got - want) <= eps)) {
		print_error("%s = %.10g, expected %.10g +- %g\n", what, got, want, eps);
		_fail(file, line);
	}
}

#define assert_near(got, want, eps) assert_near_at((got), (want), (eps), #got, __FILE__, __LINE__)

#endif
