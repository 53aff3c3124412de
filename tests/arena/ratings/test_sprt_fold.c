/*
 * test_sprt_fold.c - the SPRT folded from games (sprt_fold.c): pairs counted
 * in deal order whatever order the games come in, a game folded twice
 * counted once, nothing counted after a decision.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sprt_fold.h"

/* Fold every game of deals [0, n) in order, with A's half points pts(d, r); return pairs counted. */
static int fold_in_order(struct sprt_fold *f, uint32_t n, int (*pts)(uint32_t, int))
{
	int counted = 0;

	for (uint32_t d = 0; d < n; d++)
		for (int r = 0; r < 2; r++) {
			assert_int_equal(sprt_fold_add(f, d, r, pts(d, r)), 0);
			while (sprt_fold_next(f))
				counted++;
		}
	return counted;
}

/* A wins both games of most deals, splits some: H1 is accepted. */
static int mostly_a(uint32_t d, int r)
{
	return d % 3 == 2 ? r * 2 : 2;
}

static void test_pairs_in_deal_order(void **state)
{
	struct sprt_fold f;
	struct sprt t;
	(void)state;

	assert_int_equal(sprt_fold_init(&f, 0, 50, 0.05, 0.05), 0);
	assert_int_equal(sprt_init(&t, 0, 50, 0.05, 0.05), 0);
	/* deal 1 whole and deal 0 half: nothing counted, deal 0 missing rotation 1 */
	assert_int_equal(sprt_fold_add(&f, 1, 0, 2), 0);
	assert_int_equal(sprt_fold_add(&f, 1, 1, 0), 0);
	assert_int_equal(sprt_fold_add(&f, 0, 0, 1), 0);
	assert_int_equal(sprt_fold_next(&f), 0);
	assert_int_equal(sprt_fold_pending(&f), 3);
	/* deal 0 completes: both pairs are counted, deal 0's first */
	assert_int_equal(sprt_fold_add(&f, 0, 1, 2), 0);
	assert_int_equal(sprt_fold_next(&f), 1);
	sprt_add_pair(&t, 1.5);
	assert_true(f.test.llr == t.llr);
	assert_int_equal(sprt_fold_next(&f), 1);
	sprt_add_pair(&t, 1.0);
	assert_true(f.test.llr == t.llr);
	assert_int_equal(sprt_fold_next(&f), 0);
	assert_true(f.test.pent[2] == 1 && f.test.pent[3] == 1 && f.test.pairs == 2);
	/* a game folded again (a record repeated) changes nothing */
	assert_int_equal(sprt_fold_add(&f, 0, 1, 0), 0);
	assert_int_equal(f.games, 4);
	assert_int_equal(sprt_fold_pending(&f), 0);
	assert_int_equal(sprt_fold_add(&f, 2, 2, 0), -EINVAL);
	assert_int_equal(sprt_fold_add(&f, 2, 0, 3), -EINVAL);
	sprt_fold_release(&f);
}

/* The same games in reverse order reach the same test, and it stops at the decision. */
static void test_any_order_same_decision(void **state)
{
	struct sprt_fold ordered, reversed;
	int counted, late = 0;
	(void)state;

	assert_int_equal(sprt_fold_init(&ordered, 0, 50, 0.05, 0.05), 0);
	assert_int_equal(sprt_fold_init(&reversed, 0, 50, 0.05, 0.05), 0);
	counted = fold_in_order(&ordered, 400, mostly_a);
	assert_int_equal(sprt_status(&ordered.test), SPRT_ACCEPT_H1);
	assert_true(counted > 0 && counted < 400);
	assert_true(ordered.test.pairs == counted);
	for (uint32_t d = 400; d-- > 0;)
		for (int r = 1; r >= 0; r--) {
			assert_int_equal(sprt_fold_add(&reversed, d, r, mostly_a(d, r)), 0);
			while (sprt_fold_next(&reversed))
				late++;
		}
	assert_int_equal(late, counted);
	assert_true(reversed.test.llr == ordered.test.llr);
	assert_int_equal(sprt_status(&reversed.test), SPRT_ACCEPT_H1);
	sprt_fold_release(&ordered);
	sprt_fold_release(&reversed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_in_deal_order),
		cmocka_unit_test(test_any_order_same_decision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
