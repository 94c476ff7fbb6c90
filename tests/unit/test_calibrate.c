/* test_calibrate.c - calibrate's pairs-needed figure against an
 * independent simulation of the decision interval, and the null rates of
 * the interval for tied (lattice) data and under an order effect, the
 * figures of docs/statistics.md ("What the error rates are"). Seeded;
 * `build/tests/test_calibrate` prints the figures. */
#include "testutil.h"
#include "calibrate.h"
#include "error.h"
#include "sequential.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return ((double)(splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* 3.29 standard errors: a two-sided 99.9% band of a binomial fraction. */
#define Z999 3.2905267314919255

/* Fraction of `rows` rows of n pairs, d_i = -delta + e_i (standard
 * normal), whose Hodges–Lehmann upper bound is below 0: the full
 * procedure (Walsh averages, order statistic k), not calibrate's count. */
static double hl_power(size_t n, double delta, size_t rows, uint64_t seed)
{
	double d[64];
	size_t r, i, pass = 0;

	assert_true(n <= 64);
	for (r = 0; r < rows; r++) {
		struct ab_hl hl;

		for (i = 0; i < n; i++)
			d[i] = normal(&seed) - delta;
		ab_stats_hodges_lehmann(&hl, d, n, AB_STATS_ALPHA);
		pass += hl.k > 0 && hl.upper < 0;
	}
	return (double)pass / (double)rows;
}

/*
 * Acceptance (verdict-trust issue, item 4): at the pairs calibrate
 * prescribes, an independent simulation of the procedure reaches the power
 * calibrate states (within a 99.9% band of both simulations' errors), and
 * with two pairs fewer it falls short of 80% (the 99.9% Clopper–Pearson
 * interval lies below 0.80).
 */
static void test_pairs_needed_reach_power(void **state)
{
	static const double deltas[] = { 1.0, 0.75, 0.6 };
	const size_t rows = 12000;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
		struct ab_pairs_needed need;
		double at, below, band, lo, hi;

		ab_calibrate_pairs_needed(&need, deltas[i], AB_CALIBRATE_POWER);
		assert_true(need.simulated);
		assert_true(need.power >= AB_CALIBRATE_POWER);
		at = hl_power(need.pairs, deltas[i], rows, 0xabc0 + i);
		below = hl_power(need.pairs - 2, deltas[i], rows, 0xdef0 + i);
		printf("delta %.2f sigma: calibrate says %zu pairs, power %.4f (asymptotic formula %zu); "
		       "simulated %.4f at %zu, %.4f at %zu\n", deltas[i], need.pairs, need.power,
		       need.asymptotic, at, need.pairs, below, need.pairs - 2);
		band = Z999 * sqrt(need.power * (1 - need.power) *
				   (1.0 / (double)rows + 1.0 / AB_CALIBRATE_REPS));
		assert_true(fabs(at - need.power) <= band);
		ab_stats_binomial_ci((size_t)llround(below * (double)rows), rows, 0.999, &lo, &hi);
		assert_true(hi < AB_CALIBRATE_POWER);
		/* the old formula's figure falls short of 80% too */
		assert_true(need.asymptotic < need.pairs);
	}
}

/* calibrate's W+ count is the procedure: it agrees with hl_power on the
 * same rows exactly. */
static void test_power_count_is_procedure(void **state)
{
	size_t n;

	(void)state;
	for (n = 5; n <= 12; n++) {
		uint64_t seed = AB_CALIBRATE_SEED;
		size_t r, i, pass = 0;
		double x[12];

		for (r = 0; r < 500; r++) {
			uint64_t st = seed ^ (0x9e3779b97f4a7c15u * (r + 1));
			struct ab_hl hl;

			for (i = 0; i < n; i++) {
				double u = uniform(&st), v = uniform(&st);

				x[i] = sqrt(-2 * log(u)) * cos(2 * M_PI * v) - 0.7;
			}
			ab_stats_hodges_lehmann(&hl, x, n, AB_STATS_ALPHA);
			pass += hl.upper < 0;
		}
		assert_true(ab_calibrate_power(n, 0.7, 500, seed) == (double)pass / 500);
	}
	assert_true(ab_calibrate_power(4, 1, 100, 1) == 0);
	assert_true(ab_calibrate_power(5, INFINITY, 100, 1) == 1);
}

/* The no-noise and hopeless ends. */
static void test_pairs_needed_ends(void **state)
{
	struct ab_pairs_needed need;

	(void)state;
	ab_calibrate_pairs_needed(&need, INFINITY, AB_CALIBRATE_POWER);
	assert_int_equal(need.pairs, 5);
	assert_true(need.power == 1);
	ab_calibrate_pairs_needed(&need, 0.01, AB_CALIBRATE_POWER);
	assert_int_equal(need.simulated, 0);
	assert_true(isnan(need.power));
	assert_true(need.pairs > AB_CALIBRATE_SIM_MAX);
}

/* P(U < 1) for `rows` rows of n pairs under no change. Lattice: A and B
 * are 1000 plus independent integers uniform on 0..span (instruction
 * counts); order: d = ±pi + noise e (normal, sd `noise`) in balanced
 * blocks, half the pairs AB and half BA. */
static double null_rate(size_t n, int span, double pi, double noise, size_t rows,
			uint64_t seed)
{
	size_t r, i, hits = 0;
	double d[32];

	for (r = 0; r < rows; r++) {
		struct ab_hl hl;

		for (i = 0; i < n; i++) {
			if (span > 0) {
				double a = 1000 + (double)(splitmix64(&seed) % (uint64_t)(span + 1));
				double b = 1000 + (double)(splitmix64(&seed) % (uint64_t)(span + 1));

				d[i] = ab_stats_log_ratio(a, b);
			} else {
				d[i] = (i % 2 ? pi : -pi) + noise * normal(&seed);
			}
		}
		ab_stats_hodges_lehmann(&hl, d, n, AB_STATS_ALPHA);
		hits += hl.k > 0 && hl.upper < 0;
	}
	return (double)hits / (double)rows;
}

/*
 * Item 6: "U < 1 with probability exactly P(T <= k-1)" holds for
 * continuous, independent, sign-symmetric d. With ties (lattice metrics)
 * and with an order effect under balanced blocks the interval is
 * conservative: the rate stays at or below the nominal one (asserted
 * against the upper end of a 99.9% band) and, for the coarse lattices and
 * the order effect, clearly below it.
 */
static void test_null_rates_conservative(void **state)
{
	static const int spans[] = { 1, 2, 5, 20 };
	static const size_t ns[] = { 8, 12, 20 };
	const size_t rows = 8000;
	size_t i, j;

	(void)state;
	for (j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
		size_t k;
		double coverage, nominal, band, rate;

		ab_stats_walsh_k(ns[j], AB_STATS_ALPHA, &k, &coverage);
		nominal = (1 - coverage) / 2;
		band = Z999 * sqrt(nominal * (1 - nominal) / (double)rows);
		for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
			rate = null_rate(ns[j], spans[i], 0, 0, rows, 0x1a77 + 16 * j + i);
			printf("n %zu, lattice 0..%d: P(U < 1) = %.4f (nominal %.4f)\n", ns[j], spans[i],
			       rate, nominal);
			assert_true(rate <= nominal + band);
			if (spans[i] <= 2)
				assert_true(rate < nominal - band);
		}
		rate = null_rate(ns[j], 0, 0.01, 0.01, rows, 0x0de7 + j);
		printf("n %zu, order effect 1%%, noise 1%%: P(U < 1) = %.4f (nominal %.4f)\n", ns[j],
		       rate, nominal);
		assert_true(rate < nominal - band);
		rate = null_rate(ns[j], 0, 0, 0.01, rows, 0x0de7 + 8 + j);
		printf("n %zu, no order effect, noise 1%%: P(U < 1) = %.4f (nominal %.4f)\n", ns[j],
		       rate, nominal);
		assert_true(fabs(rate - nominal) <= band);
	}
}

/* An independent simulation of a sequential plan at effect delta: the
 * repeated interval itself (ab_seq_interval with the plan's c_k) on
 * `rows` rows from another generator; a row stops at its first look with
 * U < 0. Power, and the mean and variance of the pairs used. */
static void seq_sim(const struct ab_seq_plan *plan, double delta, size_t rows, uint64_t seed,
		    double *power, double *mean, double *var)
{
	struct ab_seq_boundaries b;
	double d[AB_SEQ_MAX_PAIRS], sum = 0, sum2 = 0;
	size_t r, i, k, pass = 0, max = plan->looks[plan->nlooks - 1];

	assert_int_equal(ab_seq_boundaries(plan, &b), 0);
	for (r = 0; r < rows; r++) {
		double n = (double)max;

		for (i = 0; i < max; i++)
			d[i] = normal(&seed) - delta;
		for (k = 0; k < b.nlooks; k++) {
			struct ab_hl hl;

			if (b.c[k] == 0)
				continue;
			ab_seq_interval(&hl, d, b.looks[k], b.c[k]);
			if (hl.upper < 0) {
				n = (double)b.looks[k];
				pass++;
				break;
			}
		}
		sum += n;
		sum2 += n * n;
	}
	*power = (double)pass / (double)rows;
	*mean = sum / (double)rows;
	*var = sum2 / (double)rows - *mean * *mean;
}

/*
 * Sequential issue, item 5: the plan calibrate recommends reaches the
 * fixed figure's 80% power in an independent simulation (within a 99.9%
 * band of both simulations' errors, and at least 80% less the band), its
 * mean pairs used agree the same way, and the ladder's next smaller plan
 * (when it is not below the fixed pairs) is not clearly good enough: the
 * lower end of its 99.9% Clopper–Pearson interval is below 80%, so
 * calibrate did not pass over a plan that reaches the target.
 */
static void test_sequential_reaches_power(void **state)
{
	static const double deltas[] = { 1.0, 0.7, 0.5 };
	static const size_t ladder[] = AB_CALIBRATE_SEQ_LADDER;
	const size_t rows = 12000;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
		struct ab_pairs_needed need;
		struct ab_seq_needed seq;
		double power, mean, var, band, lo, hi;

		ab_calibrate_pairs_needed(&need, deltas[i], AB_CALIBRATE_POWER);
		assert_int_equal(ab_calibrate_sequential(&seq, deltas[i], AB_CALIBRATE_POWER, need.pairs), 0);
		assert_true(seq.found);
		assert_true(seq.power >= AB_CALIBRATE_POWER);
		assert_int_equal(seq.plan.looks[0], AB_CALIBRATE_SEQ_MIN);
		assert_int_equal(seq.plan.looks[seq.plan.nlooks - 1], seq.max);
		assert_true(seq.max >= need.pairs);
		seq_sim(&seq.plan, deltas[i], rows, 0x5e9a + i, &power, &mean, &var);
		printf("delta %.2f sigma: fixed %zu pairs (power %.4f); sequential {min: 8, max: %zu} power "
		       "%.4f, %.1f pairs on average; independently %.4f, %.1f\n", deltas[i], need.pairs,
		       need.power, seq.max, seq.power, seq.expected_pairs, power, mean);
		band = Z999 * sqrt(seq.power * (1 - seq.power) * (1.0 / (double)rows + 1.0 / AB_CALIBRATE_REPS));
		assert_true(fabs(power - seq.power) <= band);
		assert_true(power >= AB_CALIBRATE_POWER - band);
		assert_true(fabs(mean - seq.expected_pairs) <=
			    Z999 * sqrt(var * (1.0 / (double)rows + 1.0 / AB_CALIBRATE_REPS)));
		assert_true(seq.expected_pairs <= (double)seq.max);
		for (j = 0; ladder[j] != seq.max; j++)
			;
		if (j > 0 && ladder[j - 1] >= need.pairs) {
			struct ab_seq_plan smaller;

			assert_int_equal(ab_seq_plan_from_range(&smaller, 8, ladder[j - 1]), 0);
			seq_sim(&smaller, deltas[i], rows, 0x5e9b + i, &power, &mean, &var);
			printf("  the next smaller plan, max %zu: power %.4f\n", ladder[j - 1], power);
			ab_stats_binomial_ci((size_t)llround(power * (double)rows), rows, 0.999, &lo, &hi);
			assert_true(lo < AB_CALIBRATE_POWER);
		}
	}
}

/* The ends: no noise stops at the first look; a figure beyond the ladder
 * finds none; bad arguments; the line, and none for an old entry. */
static void test_sequential_ends(void **state)
{
	struct ab_seq_needed seq;
	json_t *need;
	char *line;

	(void)state;
	assert_int_equal(ab_calibrate_sequential(&seq, INFINITY, AB_CALIBRATE_POWER, 5), 0);
	assert_true(seq.found && seq.max == 16 && seq.power == 1 && seq.expected_pairs == 8);
	assert_int_equal(ab_calibrate_sequential(&seq, 0.1, AB_CALIBRATE_POWER, 300), 0);
	assert_false(seq.found);
	assert_int_equal(ab_calibrate_sequential(&seq, 0, AB_CALIBRATE_POWER, 5), AB_EINVALID);
	assert_int_equal(ab_calibrate_sequential(&seq, 1, 1, 5), AB_EINVALID);

	need = json_pack("{s:s, s:I}", "rule", "r", "pairs", (json_int_t)30);
	assert_null(ab_calibrate_sequential_text(need));
	json_object_set_new(need, "sequential", json_pack("{s:i, s:i, s:f}", "min", 8, "max", 48,
							  "expected_pairs", 21.4));
	line = ab_calibrate_sequential_text(need);
	assert_string_equal(line, "sequential: pairs: {min: 8, max: 48} reaches the same power using "
			    "about 21 pairs on average");
	free(line);
	json_object_set_new(need, "sequential", json_pack("{s:i, s:n}", "min", 8, "max"));
	line = ab_calibrate_sequential_text(need);
	assert_string_equal(line, "sequential: no plan up to pairs: {min: 8, max: 256} reaches the same "
			    "power");
	free(line);
	json_decref(need);
}

/* check's and run's advice: a summary stored before the sequential plans
 * gives the old line and only it; with a "sequential" object its line
 * follows the fixed one. */
static void test_sequential_advice(void **state)
{
	json_t *summary, *need;
	char **lines;

	(void)state;
	need = json_pack("{s:s, s:s, s:I, s:f, s:f}", "rule", "gain", "predicate", "faster_by",
			 "pairs", (json_int_t)30, "power", 0.81, "expected_ratio", 0.9);
	summary = json_pack("{s:[{s:s, s:f, s:[O]}]}", "rows", "label", "lanes=1", "spread", 0.05,
			    "pairs_needed", need);
	lines = ab_calibrate_advice(summary, 10);
	assert_non_null(lines[0]);
	assert_string_equal(lines[0], "lanes=1: rule 'gain' (faster_by) needs about 30 pairs for 81% "
			    "power at a true ratio of 0.9, 10 are planned (spread of log ratios 5.00%)");
	assert_null(lines[1]);
	ab_strv_free(lines);
	assert_null(ab_calibrate_sequential_lines(summary));

	json_object_set_new(need, "sequential", json_pack("{s:i, s:i, s:f}", "min", 8, "max", 48,
							  "expected_pairs", 21.4));
	lines = ab_calibrate_advice(summary, 10);
	assert_string_equal(lines[1], "lanes=1: rule 'gain' (faster_by) sequential: pairs: {min: 8, "
			    "max: 48} reaches the same power using about 21 pairs on average");
	assert_null(lines[2]);
	ab_strv_free(lines);
	lines = ab_calibrate_sequential_lines(summary);
	assert_string_equal(lines[0], "lanes=1: rule 'gain' (faster_by) needs 30 pairs fixed; sequential: "
			    "pairs: {min: 8, max: 48} reaches the same power using about 21 pairs on average");
	assert_null(lines[1]);
	ab_strv_free(lines);
	/* enough planned pairs: the one line, as before */
	lines = ab_calibrate_advice(summary, 30);
	assert_string_equal(lines[0], "the 30 planned pairs are enough for every rule's margin");
	assert_null(lines[1]);
	ab_strv_free(lines);
	json_decref(need);
	json_decref(summary);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power_count_is_procedure),
		cmocka_unit_test(test_pairs_needed_ends),
		cmocka_unit_test(test_sequential_ends),
		cmocka_unit_test(test_sequential_advice),
		cmocka_unit_test(test_sequential_reaches_power),
		cmocka_unit_test(test_pairs_needed_reach_power),
		cmocka_unit_test(test_null_rates_conservative),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
