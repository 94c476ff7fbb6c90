/* test_plan.c - the schedule: balance, round-robin, warmups, seeding. */
#include "testutil.h"
#include "plan.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

static void count_orders(const struct ab_plan *p, size_t row, size_t *ab, size_t *ba)
{
	size_t i;

	*ab = *ba = 0;
	for (i = 0; i < p->n; i++) {
		const struct ab_plan_entry *e = &p->entries[i];
		if (e->row != row || e->pair < 0 || e->side != AB_PARENT)
			continue;
		if (e->order == AB_ORDER_AB)
			(*ab)++;
		else
			(*ba)++;
	}
}

static void test_balanced_orders(void **state)
{
	size_t pairs, rows = 3, r, ab, ba;
	uint64_t seed;

	(void)state;
	for (pairs = 1; pairs <= 17; pairs++) {
		for (seed = 0; seed < 20; seed++) {
			struct ab_plan p;
			assert_int_equal(ab_plan_build(&p, rows, pairs, 1, seed), 0);
			assert_int_equal(p.n, rows * 2 * (pairs + 1));
			for (r = 0; r < rows; r++) {
				count_orders(&p, r, &ab, &ba);
				assert_int_equal(ab + ba, pairs);
				if (pairs % 2 == 0)
					assert_int_equal(ab, ba);
				else
					assert_true(ab == ba + 1 || ba == ab + 1);
			}
			ab_plan_release(&p);
		}
	}
}

/* Each pair is two adjacent samples of one row, one per side, in the
 * declared order; the sequence numbers are the positions. */
static void test_pairs_adjacent_in_order(void **state)
{
	struct ab_plan p;
	size_t i;

	(void)state;
	assert_int_equal(ab_plan_build(&p, 4, 8, 2, 1977), 0);
	for (i = 0; i < p.n; i += 2) {
		const struct ab_plan_entry *x = &p.entries[i], *y = &p.entries[i + 1];
		assert_int_equal(x->seq, i);
		assert_int_equal(y->seq, i + 1);
		assert_int_equal(x->row, y->row);
		assert_int_equal(x->pair, y->pair);
		assert_int_equal(x->warmup, y->warmup);
		assert_int_equal(x->order, y->order);
		assert_int_equal(x->side, x->order == AB_ORDER_AB ? AB_PARENT : AB_CANDIDATE);
		assert_int_not_equal(x->side, y->side);
	}
	ab_plan_release(&p);
}

/* Round-robin: pair i of every row runs before pair i+1 of any row;
 * warmups run in the row's first visit, before its first pair. */
static void test_round_robin_and_warmups(void **state)
{
	struct ab_plan p;
	size_t i, rows = 3;
	int32_t last_pair = 0;
	int seen_pair[3] = {0, 0, 0};

	(void)state;
	assert_int_equal(ab_plan_build(&p, rows, 5, 2, 7), 0);
	for (i = 0; i < p.n; i++) {
		const struct ab_plan_entry *e = &p.entries[i];
		if (e->pair < 0) {
			assert_false(seen_pair[e->row]);
			assert_true(e->warmup == 0 || e->warmup == 1);
			continue;
		}
		seen_pair[e->row] = 1;
		assert_true(e->pair >= last_pair);
		last_pair = e->pair;
	}
	/* The first sweep visits rows in order 0, 1, 2, each with 2 warmup pairs + pair 0. */
	assert_int_equal(p.entries[0].row, 0);
	assert_int_equal(p.entries[6].row, 1);
	assert_int_equal(p.entries[12].row, 2);
	assert_int_equal(p.entries[4].pair, 0);
	ab_plan_release(&p);
}

/* Blocks of two pairs: pairs 2k and 2k+1 of a row have opposite orders. */
static void test_blocks_of_two(void **state)
{
	struct ab_plan p;
	enum ab_order order[2][9];
	size_t i;

	(void)state;
	assert_int_equal(ab_plan_build(&p, 2, 9, 0, 42), 0);
	for (i = 0; i < p.n; i++)
		if (p.entries[i].side == AB_PARENT)
			order[p.entries[i].row][p.entries[i].pair] = p.entries[i].order;
	for (i = 0; i + 1 < 9; i += 2) {
		assert_int_not_equal(order[0][i], order[0][i + 1]);
		assert_int_not_equal(order[1][i], order[1][i + 1]);
	}
	ab_plan_release(&p);
}

static char *order_string(const struct ab_plan *p)
{
	char *s = malloc(p->n + 1);
	size_t i;

	for (i = 0; i < p->n; i++)
		s[i] = p->entries[i].side == AB_PARENT ? 'A' : 'B';
	s[p->n] = '\0';
	return s;
}

static void test_seed_reproduces(void **state)
{
	struct ab_plan p1, p2, p3;
	char *s1, *s2, *s3;

	(void)state;
	assert_int_equal(ab_plan_build(&p1, 4, 16, 1, 1977), 0);
	assert_int_equal(ab_plan_build(&p2, 4, 16, 1, 1977), 0);
	assert_int_equal(ab_plan_build(&p3, 4, 16, 1, 1978), 0);
	s1 = order_string(&p1);
	s2 = order_string(&p2);
	s3 = order_string(&p3);
	assert_string_equal(s1, s2);
	assert_string_not_equal(s1, s3);
	assert_memory_equal(p1.entries, p2.entries, p1.n * sizeof(*p1.entries));
	free(s1);
	free(s2);
	free(s3);
	ab_plan_release(&p1);
	ab_plan_release(&p2);
	ab_plan_release(&p3);
}

/* Both block orders occur across seeds (the coin is not stuck). */
static void test_coin_varies(void **state)
{
	size_t first_ab = 0, seed;

	(void)state;
	for (seed = 0; seed < 200; seed++) {
		struct ab_plan p;
		assert_int_equal(ab_plan_build(&p, 1, 2, 0, seed), 0);
		first_ab += p.entries[0].order == AB_ORDER_AB;
		ab_plan_release(&p);
	}
	assert_in_range(first_ab, 60, 140);
}

static void test_invalid(void **state)
{
	struct ab_plan p;

	(void)state;
	assert_int_equal(ab_plan_build(&p, 0, 8, 1, 1), AB_EINVALID);
	assert_int_equal(ab_plan_build(&p, 2, 0, 1, 1), AB_EINVALID);
	assert_true(ab_plan_random_seed() < (1ULL << 53));
}

/* The invariants the plan asserts (balance, pairs back to back) are
 * checked in every test build: CMakeLists.txt keeps assert() active in all
 * builds but Release. */
static void test_asserts_active(void **state)
{
	(void)state;
#ifdef NDEBUG
	fail_msg("NDEBUG is defined: assert() is compiled out of a test build");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_balanced_orders),
		cmocka_unit_test(test_pairs_adjacent_in_order),
		cmocka_unit_test(test_round_robin_and_warmups),
		cmocka_unit_test(test_blocks_of_two),
		cmocka_unit_test(test_seed_reproduces),
		cmocka_unit_test(test_coin_varies),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_asserts_active),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
