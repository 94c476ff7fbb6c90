/* test_sequential.c - sequential plans: the looks and their checks, the
 * spending functions, the exact joint null against brute-force
 * enumeration, the simulated joint null against the exact one, and seeded
 * simulations of whole plans (A/A error rates with and without growing
 * noise, fixed-n peeking, power and pairs used, repeated p-values), the
 * figures of docs/statistics.md ("Sequential plans"). The 100,000-row
 * simulations are skipped when ABTOOL_SANITIZED=1 (the sanitizer build);
 * `build/tests/test_sequential` prints the figures. */
#include "testutil.h"
#include "error.h"
#include "sequential.h"
#include "sequential_table.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* 3.29 standard errors: a two-sided 99.9% band of a binomial fraction. */
#define Z999 3.2905267314919255

static int sanitized(void)
{
	const char *s = getenv("ABTOOL_SANITIZED");

	return s && strcmp(s, "1") == 0;
}

static double uniform(uint64_t *s)
{
	return ((double)(ab_stats_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Box–Muller. */
static double normal(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static struct ab_seq_plan default_plan(void)
{
	struct ab_seq_plan plan;

	assert_int_equal(ab_seq_plan_from_range(&plan, 8, 64), 0);
	return plan;
}

/* ---- plans and spending ---------------------------------------------- */

static void assert_looks(const struct ab_seq_plan *plan, const size_t *looks, size_t n)
{
	size_t k;

	assert_int_equal(plan->nlooks, n);
	for (k = 0; k < n; k++)
		assert_int_equal(plan->looks[k], looks[k]);
}

static void assert_invalid(int rc, const char *phrase)
{
	assert_int_equal(rc, AB_EINVALID);
	if (!strstr(ab_error_last(), phrase))
		fail_msg("message '%s' lacks '%s'", ab_error_last(), phrase);
}

static void test_plan_from_range(void **state)
{
	static const size_t l64[] = { 8, 16, 32, 64 }, l48[] = { 8, 16, 32, 48 }, l8[] = { 8 };
	static const size_t l6[] = { 6, 12, 24, 48, 96, 192, 256 };
	struct ab_seq_plan plan;

	(void)state;
	assert_int_equal(ab_seq_plan_from_range(&plan, 8, 64), 0);
	assert_looks(&plan, l64, ARRAY_SIZE(l64));
	assert_int_equal(plan.spending, AB_SEQ_SPENDING_DEFAULT);
	assert_true(plan.alpha == AB_STATS_ALPHA);
	assert_int_equal(ab_seq_plan_from_range(&plan, 8, 48), 0);
	assert_looks(&plan, l48, ARRAY_SIZE(l48));
	assert_int_equal(ab_seq_plan_from_range(&plan, 8, 8), 0);
	assert_looks(&plan, l8, ARRAY_SIZE(l8));
	assert_int_equal(ab_seq_plan_from_range(&plan, 6, 256), 0);
	assert_looks(&plan, l6, ARRAY_SIZE(l6));

	assert_invalid(ab_seq_plan_from_range(&plan, 7, 64), "min (7 pairs) is odd");
	assert_invalid(ab_seq_plan_from_range(&plan, 8, 63), "max (63 pairs) is odd");
	assert_invalid(ab_seq_plan_from_range(&plan, 4, 64), "min (4 pairs) is below 5 pairs");
	assert_invalid(ab_seq_plan_from_range(&plan, 16, 8), "max (8 pairs) is below min");
	assert_invalid(ab_seq_plan_from_range(&plan, 8, 258), "above 256 pairs");
}

static void test_plan_from_looks(void **state)
{
	static const size_t ok[] = { 8, 12, 16, 24, 32, 48, 64 };
	static const size_t odd[] = { 8, 15, 32 }, down[] = { 8, 16, 16 }, small[] = { 4, 8 };
	size_t many[AB_SEQ_MAX_LOOKS + 1], i;
	struct ab_seq_plan plan;

	(void)state;
	assert_int_equal(ab_seq_plan_from_looks(&plan, ok, ARRAY_SIZE(ok)), 0);
	assert_looks(&plan, ok, ARRAY_SIZE(ok));
	assert_invalid(ab_seq_plan_from_looks(&plan, odd, 3), "look 2 (15 pairs) is odd");
	assert_invalid(ab_seq_plan_from_looks(&plan, down, 3),
		       "look 3 (16 pairs) does not come after look 2 (16 pairs)");
	assert_invalid(ab_seq_plan_from_looks(&plan, small, 2), "look 1 (4 pairs) is below");
	assert_invalid(ab_seq_plan_from_looks(&plan, ok, 0), "at least one look");
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = 6 + 2 * i;
	assert_invalid(ab_seq_plan_from_looks(&plan, many, ARRAY_SIZE(many)), "at most 16");
	assert_int_equal(ab_seq_plan_from_looks(&plan, ok, 2), 0);
	plan.alpha = 0.5;
	assert_invalid(ab_seq_plan_check(&plan), "alpha 0.5 is not between 0 and 0.5");
	plan.alpha = 0.05;
	plan.spending = (enum ab_seq_spending)7;
	assert_invalid(ab_seq_plan_check(&plan), "unknown spending");
}

static void test_spending(void **state)
{
	enum ab_seq_spending all[] = { AB_SEQ_POCOCK, AB_SEQ_OBRIEN_FLEMING, AB_SEQ_LINEAR }, s;
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		double prev = 0;

		assert_int_equal(ab_seq_spending_parse(ab_seq_spending_name(all[i]), &s), 0);
		assert_int_equal(s, all[i]);
		assert_true(ab_seq_spend(all[i], 0.05, 0) == 0);
		assert_close(ab_seq_spend(all[i], 0.05, 1), 0.05, 12);
		for (j = 1; j <= 64; j++) {
			double a = ab_seq_spend(all[i], 0.05, (double)j / 64);

			assert_true(a >= prev && a <= 0.05 + 1e-15);
			prev = a;
		}
	}
	/* Lan & DeMets 1983: at t = 1/8 Pocock's spends 0.05 ln(1 + (e-1)/8),
	 * O'Brien–Fleming's 2 - 2 Φ(1.959964 sqrt 8) = 3.0e-8 */
	assert_close(ab_seq_spend(AB_SEQ_POCOCK, 0.05, 0.125), 0.05 * log(1 + (M_E - 1) / 8), 12);
	assert_close(ab_seq_spend(AB_SEQ_OBRIEN_FLEMING, 0.05, 0.125),
		     erfc(1.959963984540054 * sqrt(8) / M_SQRT2), 8);
	assert_close(ab_seq_spend(AB_SEQ_OBRIEN_FLEMING, 0.05, 0.5), 0.005574, 3);
	assert_close(ab_seq_spend(AB_SEQ_LINEAR, 0.05, 0.25), 0.0125, 12);
	assert_string_equal(ab_seq_spending_name(AB_SEQ_OBRIEN_FLEMING), "obrien-fleming");
	assert_invalid(ab_seq_spending_parse("haybittle", &s), "unknown spending 'haybittle'");
}

/* ---- the exact joint null against enumeration ------------------------ */

struct enumeration {
	size_t n, nlooks;
	const size_t *looks, *c;
	size_t hits[AB_SEQ_MAX_LOOKS];  /* (permutation, signs) crossed by look k */
	size_t total;
	int value[12];
	int used[13];
};

/* Every sign pattern of one arrival order: ranks of the first n_k pairs
 * among themselves, W_k of each sign pattern by adding the lowest bit. */
static void enumerate_signs(struct enumeration *e)
{
	static size_t w[AB_SEQ_MAX_LOOKS][1 << 12];
	size_t k, i, j, mask;

	for (k = 0; k < e->nlooks; k++) {
		size_t m = e->looks[k], rank[12];

		for (i = 0; i < m; i++) {
			rank[i] = 1;
			for (j = 0; j < m; j++)
				rank[i] += e->value[j] < e->value[i];
		}
		w[k][0] = 0;
		for (mask = 1; mask < (size_t)1 << m; mask++)
			w[k][mask] = w[k][mask & (mask - 1)] + rank[__builtin_ctzl(mask)];
	}
	for (mask = 0; mask < (size_t)1 << e->n; mask++) {
		for (k = 0; k < e->nlooks; k++)
			if (w[k][mask & (((size_t)1 << e->looks[k]) - 1)] < e->c[k])
				break;
		for (; k < e->nlooks; k++)
			e->hits[k]++;
		e->total++;
	}
}

/* Every arrival order of the ranks 1 .. n. */
static void enumerate_orders(struct enumeration *e, size_t depth)
{
	int v;

	if (depth == e->n) {
		enumerate_signs(e);
		return;
	}
	for (v = 1; v <= (int)e->n; v++)
		if (!e->used[v]) {
			e->used[v] = 1;
			e->value[depth] = v;
			enumerate_orders(e, depth + 1);
			e->used[v] = 0;
		}
}

static void check_against_enumeration(const size_t *looks, size_t nlooks, const size_t *c)
{
	struct enumeration e;
	double crossing[AB_SEQ_MAX_LOOKS];
	size_t k;

	memset(&e, 0, sizeof(e));
	e.looks = looks;
	e.nlooks = nlooks;
	e.c = c;
	e.n = looks[nlooks - 1];
	enumerate_orders(&e, 0);
	assert_int_equal(ab_seq_crossing_exact(looks, nlooks, c, crossing), 0);
	for (k = 0; k < nlooks; k++) {
		double want = (double)e.hits[k] / (double)e.total;

		printf("looks ..%zu, c %zu: P(crossed) enumerated %.10f, dynamic program %.10f\n",
		       looks[k], c[k], want, crossing[k]);
		assert_true(fabs(crossing[k] - want) <= 1e-13);
	}
}

/* All 8! arrival orders times 2^8 sign patterns (10.3 million paths),
 * with counts that make every look matter. */
static void test_exact_against_enumeration(void **state)
{
	static const size_t looks1[] = { 4, 6, 8 }, c1[] = { 1, 2, 4 };
	static const size_t looks2[] = { 6, 8 }, c2[] = { 2, 5 };
	static const size_t looks3[] = { 2, 5, 7, 8 }, c3[] = { 1, 2, 3, 5 };

	(void)state;
	check_against_enumeration(looks1, ARRAY_SIZE(looks1), c1);
	check_against_enumeration(looks2, ARRAY_SIZE(looks2), c2);
	check_against_enumeration(looks3, ARRAY_SIZE(looks3), c3);
}

/* One look alone is the fixed-n signed-rank null, at any size; a plan
 * whose dynamic program would exceed its budget is refused, not guessed. */
static void test_exact_single_look(void **state)
{
	static const size_t ns[] = { 20, 64, 256 };
	double *f = malloc(32897 * sizeof(*f)), crossing[3], cdf;
	size_t looks[3], c[3], i, w;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		size_t n = ns[i], top = n * (n + 1) / 2;

		ab_stats_signed_rank_null(f, n);
		for (c[0] = 0; c[0] <= top / 3; c[0] += top / 9) {
			for (cdf = 0, w = 0; w < c[0]; w++)
				cdf += f[w];
			assert_int_equal(ab_seq_crossing_exact(ns + i, 1, c, crossing), 0);
			assert_true(fabs(crossing[0] - cdf) <= 1e-14);
		}
	}
	free(f);
	looks[0] = 257;
	c[0] = 1;
	assert_int_equal(ab_seq_crossing_exact(looks, 1, c, crossing), AB_EINVALID);
	/* 8, 16, 32 fit; 8, 16, 32, 64 with the counts of a default plan do not */
	looks[0] = 64;
	looks[1] = 128;
	looks[2] = 256;
	c[0] = 700;
	c[1] = 3000;
	c[2] = 14000;
	assert_invalid(ab_seq_crossing_exact(looks, 3, c, crossing), "beyond the exact computation's budget");
}

/* The dynamic program of the version before (over the 2^n sign patterns
 * ordered by rank, a new pair's rank uniform among n + 1): an independent
 * reference for looks up to 20 pairs. */
static void reference_grow(const double *cur, double *next, size_t m)
{
	uint64_t states = (uint64_t)1 << m, st;
	double share = 0.5 / (double)(m + 1);
	size_t pos;

	memset(next, 0, 2 * states * sizeof(*next));
	for (st = 0; st < states; st++) {
		double v = cur[st] * share;

		for (pos = 0; v != 0 && pos <= m; pos++) {
			uint64_t low = st & (((uint64_t)1 << pos) - 1);
			uint64_t ns = low | (st >> pos) << (pos + 1);

			next[ns] += v;
			next[ns | (uint64_t)1 << pos] += v;
		}
	}
}

static size_t pattern_w(uint64_t st)
{
	size_t w = 0;

	for (; st; st &= st - 1)
		w += (size_t)__builtin_ctzll(st) + 1;
	return w;
}

static void reference_crossing(const size_t *looks, size_t nlooks, const size_t *c, double *crossing)
{
	size_t nmax = looks[nlooks - 1], m = 0, k;
	double *cur = calloc((size_t)1 << nmax, sizeof(*cur)), *next = calloc((size_t)1 << nmax, sizeof(*next));
	double crossed = 0;

	cur[0] = 1;
	for (k = 0; k < nlooks; k++) {
		uint64_t st;

		for (; m < looks[k]; m++) {
			double *t = cur;

			reference_grow(cur, next, m);
			cur = next;
			next = t;
		}
		for (st = 0; st < (uint64_t)1 << m; st++)
			if (cur[st] != 0 && pattern_w(st) < c[k]) {
				crossed += cur[st];
				cur[st] = 0;
			}
		crossing[k] = crossed;
	}
	free(cur);
	free(next);
}

/* The dynamic program over the |d| in increasing order against the one
 * over sign patterns, to 20 pairs, with counts near a plan's. */
static void test_exact_against_reference(void **state)
{
	static const size_t looks1[] = { 6, 10, 14, 20 }, c1[] = { 1, 6, 14, 46 };
	static const size_t looks2[] = { 8, 16 }, c2[] = { 2, 25 };
	static const size_t looks3[] = { 5, 6, 9, 12, 18 }, c3[] = { 1, 0, 5, 10, 35 };
	const size_t *looks[] = { looks1, looks2, looks3 }, *cs[] = { c1, c2, c3 };
	size_t nl[] = { ARRAY_SIZE(looks1), ARRAY_SIZE(looks2), ARRAY_SIZE(looks3) }, i, k;
	double want[AB_SEQ_MAX_LOOKS], got[AB_SEQ_MAX_LOOKS];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(looks); i++) {
		if (sanitized() && looks[i][nl[i] - 1] > 16)
			continue;
		reference_crossing(looks[i], nl[i], cs[i], want);
		assert_int_equal(ab_seq_crossing_exact(looks[i], nl[i], cs[i], got), 0);
		for (k = 0; k < nl[i]; k++) {
			printf("looks ..%zu, c %zu: P(crossed) by sign patterns %.12f, by |d| order %.12f\n",
			       looks[i][k], cs[i][k], want[k], got[k]);
			assert_true(fabs(got[k] - want[k]) <= 1e-13);
		}
	}
}

/* The simulated null against the exact one at the looks of an all-exact
 * plan (8, 16, 32): within 4 standard errors at every look; and each
 * exact count is the largest that fits its spending. */
static void test_simulated_against_exact(void **state)
{
	struct ab_seq_plan plan;
	struct ab_seq_boundaries b;
	double sim[AB_SEQ_MAX_LOOKS], se[AB_SEQ_MAX_LOOKS], exact[AB_SEQ_MAX_LOOKS];
	size_t k, rows = sanitized() ? 50000 : 400000, c1[AB_SEQ_MAX_LOOKS];

	(void)state;
	assert_int_equal(ab_seq_plan_from_range(&plan, 8, 32), 0);
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	assert_int_equal(b.exact_looks, 3);
	assert_true(b.se == 0 && b.rows == 0);
	assert_int_equal(ab_seq_crossing_exact(plan.looks, plan.nlooks, b.c, exact), 0);
	assert_int_equal(ab_seq_crossing_simulated(plan.looks, plan.nlooks, b.c, rows, 0x5e9, sim, se), 0);
	for (k = 0; k < plan.nlooks; k++) {
		printf("look %zu: c %zu, spent %.5f, exact %.6f, simulated %.6f (se %.6f)\n",
		       plan.looks[k], b.c[k], b.spent[k], exact[k], sim[k], se[k]);
		assert_true(fabs(exact[k] - b.crossing[k]) <= 1e-14);
		assert_true(b.crossing[k] <= b.spent[k] + 1e-12);
		assert_true(fabs(sim[k] - exact[k]) <= 4 * se[k] + 1e-12);
	}
	/* each count is the largest that fits: one more would overspend */
	for (k = 0; k < plan.nlooks; k++) {
		memcpy(c1, b.c, sizeof(c1));
		c1[k]++;
		assert_int_equal(ab_seq_crossing_exact(plan.looks, k + 1, c1, exact), 0);
		assert_true(exact[k] > b.spent[k]);
	}
}

/*
 * The margin of the simulated looks, checked against the exact
 * computation: plans whose every look is exact computed again with only
 * the first looks exact and the rest from 50,000 paths (a fortieth of
 * ab_seq_boundaries', so a larger standard error and margin), for the
 * three spendings, alpha 5%, 1% and 0.25% and several seeds. Every count
 * keeps the exact crossing probability within the alpha spent, and gives
 * away at most one count or 6 standard errors of it against the exact
 * counts (a later look may also gain what an earlier one left unspent).
 */
static void test_margin_against_exact(void **state)
{
	static const size_t ranges[][2] = { { 6, 24 }, { 10, 20 }, { 8, 32 } };
	static const double alphas[] = { 0.05, 0.01, 0.0025 };
	enum ab_seq_spending all[] = { AB_SEQ_POCOCK, AB_SEQ_LINEAR, AB_SEQ_OBRIEN_FLEMING };
	struct ab_seq_plan plan;
	struct ab_seq_boundaries ex, sim;
	double cross[AB_SEQ_MAX_LOOKS];
	size_t i, j, a, seed, k, checked = 0, lost = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++)
		for (a = 0; a < ARRAY_SIZE(alphas); a++)
			for (j = 0; j < ARRAY_SIZE(ranges); j++) {
				assert_int_equal(ab_seq_plan_from_range(&plan, ranges[j][0], ranges[j][1]), 0);
				plan.spending = all[i];
				plan.alpha = alphas[a];
				assert_int_equal(ab_seq_boundaries_compute(&plan, &ex), 0);
				assert_int_equal(ex.exact_looks, plan.nlooks);
				for (seed = 1; seed <= (sanitized() || j == 2 ? 1u : 3u); seed++) {
					assert_int_equal(ab_seq_boundaries_simulate(&plan, 1, 50000, seed, &sim), 0);
					assert_int_equal(sim.exact_looks, 1);
					assert_int_equal(ab_seq_crossing_exact(plan.looks, plan.nlooks, sim.c, cross), 0);
					for (k = 0; k < plan.nlooks; k++) {
						assert_true(cross[k] <= sim.spent[k] + 1e-12);
						/* the margin costs little: one count, or 6
						 * standard errors of crossing probability */
						assert_true(cross[k] >= ex.crossing[k] - 6 * sim.crossing_se[k] - 1e-12 ||
							    sim.c[k] + 1 >= ex.c[k]);
						assert_true(sim.crossing[k] + sim.margin_se * sim.crossing_se[k] <=
							    sim.spent[k] + 1e-12);
						lost += ex.c[k] > sim.c[k] ? ex.c[k] - sim.c[k] : 0;
					}
					checked++;
				}
			}
	printf("%zu simulated boundary tables, every look within its spending exactly; %zu counts "
	       "given away in all\n", checked, lost);
}

/* ---- the default plan ------------------------------------------------ */

static void test_default_boundaries(void **state)
{
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b, again;
	double fixed_cov;
	size_t k, fixed_k;
	static const size_t want[] = { 2, 25, 153, 754 };

	(void)state;
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	printf("plan 8, 16, 32, 64, %s: attained alpha %.5f (se %.5f, bound %.5f), coverage per row %.4f\n",
	       ab_seq_spending_name(plan.spending), b.alpha, b.se, b.alpha_bound, b.coverage);
	for (k = 0; k < b.nlooks; k++) {
		ab_stats_walsh_k(b.looks[k], 0.05, &fixed_k, &fixed_cov);
		printf("look %zu: c %zu (fixed-n %zu), spent %.5f, crossing %.5f (se %.5f), nominal %.5f\n",
		       b.looks[k], b.c[k], fixed_k, b.spent[k], b.crossing[k], b.crossing_se[k], b.nominal[k]);
		assert_true(b.c[k] > 0 && b.c[k] < fixed_k);
		assert_int_equal(b.c[k], want[k]);
		assert_true(b.crossing[k] + b.margin_se * b.crossing_se[k] <= b.spent[k] + 1e-12);
		assert_true(k == 0 || b.crossing[k] >= b.crossing[k - 1]);
	}
	/* 8 pairs: P(W+ <= 1) = 2/256 fits Pocock's 0.00973, 3/256 does not;
	 * 8, 16 and 32 exact, 64 from the paths */
	assert_int_equal(b.exact_looks, 3);
	assert_int_equal(b.rows, AB_SEQ_BOUNDARY_PATHS);
	assert_true(b.se > 0 && b.se < 0.0001);
	assert_true(b.margin_se == 3);
	assert_true(b.alpha_bound <= 0.05 && b.alpha > 0.049);
	assert_close(b.coverage, 1 - 2 * b.alpha_bound, 12);
	/* the same plan, the same boundaries, also after recomputing */
	ab_seq_cache_clear();
	assert_int_equal(ab_seq_boundaries(&plan, &again), 0);
	assert_memory_equal(&b, &again, sizeof(b));
	plan.looks[1] = 15;
	assert_invalid(ab_seq_boundaries(&plan, &b), "look 2 (15 pairs) is odd");
}

/*
 * The precomputed table (sequential_table.h): every entry is a valid plan
 * whose every look keeps its crossing probability within the alpha spent,
 * exactly at the exact looks and with the margin at the simulated ones;
 * the exact looks' crossing probabilities are those of the exact
 * computation (a subset, every seventh entry, in the sanitizer build the
 * first few). The common plans are in it: pairs: {min: 8, max: M} of
 * calibrate's ladder for every spending, and starts of 6, 10, 12, 16, 20,
 * 24 and 32 pairs.
 */
static void test_table(void **state)
{
	static const size_t mins[] = { 6, 8, 10, 12, 16, 20, 24, 32 };
	static const size_t maxes[] = { 48, 64, 96, 128, 192, 256 };
	enum ab_seq_spending all[] = { AB_SEQ_POCOCK, AB_SEQ_LINEAR, AB_SEQ_OBRIEN_FLEMING };
	struct ab_seq_plan plan;
	struct ab_seq_boundaries b;
	double exact[AB_SEQ_MAX_LOOKS];
	size_t i, k, s, checked = 0;

	(void)state;
	assert_true(ab_seq_table_len >= 3 * 6 * 8);
	for (i = 0; i < ab_seq_table_len; i++) {
		const struct ab_seq_table_entry *t = &ab_seq_table[i];

		assert_int_equal(ab_seq_plan_from_looks(&plan, t->looks, t->nlooks), 0);
		plan.spending = (enum ab_seq_spending)t->spending;
		plan.alpha = t->alpha;
		assert_int_equal(ab_seq_plan_check(&plan), 0);
		assert_true(t->exact_looks >= 1 && t->exact_looks < t->nlooks);
		for (k = 0; k < t->nlooks; k++) {
			double spent = ab_seq_spend(plan.spending, plan.alpha,
						    (double)t->looks[k] / (double)t->looks[t->nlooks - 1]);

			assert_true(t->crossing[k] + AB_SEQ_MARGIN_SE * t->crossing_se[k] <= spent + 1e-12);
			assert_true(k >= t->exact_looks || t->crossing_se[k] == 0);
		}
		if (i % (sanitized() ? 50 : 7))
			continue;
		assert_int_equal(ab_seq_crossing_exact(t->looks, t->exact_looks, t->c, exact), 0);
		for (k = 0; k < t->exact_looks; k++)
			assert_true(fabs(exact[k] - t->crossing[k]) <= 1e-14);
		checked++;
	}
	for (s = 0; s < ARRAY_SIZE(all); s++)
		for (i = 0; i < ARRAY_SIZE(mins); i++)
			for (k = 0; k < ARRAY_SIZE(maxes); k++) {
				size_t j, found = 0;

				assert_int_equal(ab_seq_plan_from_range(&plan, mins[i], maxes[k]), 0);
				plan.spending = all[s];
				for (j = 0; j < ab_seq_table_len && !found; j++)
					found = ab_seq_table[j].spending == (int)plan.spending &&
						ab_seq_table[j].alpha == plan.alpha &&
						ab_seq_table[j].nlooks == plan.nlooks &&
						!memcmp(ab_seq_table[j].looks, plan.looks,
							plan.nlooks * sizeof(plan.looks[0]));
				/* a plan whose every look is exact needs no table */
				if (!found) {
					assert_int_equal(ab_seq_boundaries_simulate(&plan, AB_SEQ_MAX_LOOKS, 1, 1, &b), 0);
					assert_int_equal(b.exact_looks, b.nlooks);
				}
			}
	plan = default_plan();
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	assert_true(b.tabled);
	printf("%zu table entries within their spending; the exact looks of %zu recomputed\n",
	       ab_seq_table_len, checked);
}

/* The table holds what the computation gives, to the last bit: two of its
 * entries computed again (skipped in the sanitizer build: 2,000,000 paths
 * each). */
static void test_table_is_computation(void **state)
{
	static const size_t ranges[][2] = { { 8, 48 }, { 12, 64 } };
	struct ab_seq_plan plan;
	struct ab_seq_boundaries tabled, computed;
	size_t i;

	(void)state;
	if (sanitized())
		skip();
	for (i = 0; i < ARRAY_SIZE(ranges); i++) {
		assert_int_equal(ab_seq_plan_from_range(&plan, ranges[i][0], ranges[i][1]), 0);
		plan.spending = i ? AB_SEQ_LINEAR : AB_SEQ_POCOCK;
		assert_int_equal(ab_seq_boundaries(&plan, &tabled), 0);
		assert_true(tabled.tabled);
		assert_int_equal(ab_seq_boundaries_compute(&plan, &computed), 0);
		computed.tabled = 1;
		assert_memory_equal(&tabled, &computed, sizeof(tabled));
	}
}

/* A plan of one look is the fixed plan: its count is the fixed k, exact
 * to 20 pairs and from the exact marginal beyond. */
static void test_single_look(void **state)
{
	static const size_t ns[] = { 6, 8, 16, 20, 22, 64, 200 };
	struct ab_seq_plan plan;
	struct ab_seq_boundaries b;
	double cov;
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		assert_int_equal(ab_seq_plan_from_range(&plan, ns[i], ns[i]), 0);
		assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
		ab_stats_walsh_k(ns[i], 0.05, &k, &cov);
		assert_int_equal(b.c[0], k);
		assert_close(b.coverage, cov, 12);
		assert_true(b.se == 0);
	}
}

/* ab_seq_interval is the Walsh-average interval at the given count. */
static void test_interval(void **state)
{
	double d[40];
	struct ab_hl fixed, seq;
	uint64_t rng = 77;
	size_t i;

	(void)state;
	for (i = 0; i < 40; i++)
		d[i] = -0.02 + 0.05 * normal(&rng);
	ab_stats_hodges_lehmann(&fixed, d, 40, 0.05);
	ab_seq_interval(&seq, d, 40, fixed.k);
	assert_true(seq.lower == fixed.lower && seq.upper == fixed.upper);
	assert_true(seq.estimate == fixed.estimate && seq.k == fixed.k);
	assert_true(isnan(seq.coverage));
	ab_seq_interval(&seq, d, 40, fixed.k - 50);
	assert_true(seq.lower < fixed.lower && seq.upper > fixed.upper);
	ab_seq_interval(&seq, d, 40, 0);
	assert_true(isnan(seq.lower) && isnan(seq.upper) && seq.estimate == fixed.estimate);
	ab_seq_interval(&seq, d, 40, 411);  /* past the median: no interval */
	assert_true(isnan(seq.lower) && seq.k == 0);
}

/* ---- simulations of whole plans -------------------------------------- */

/* What a simulation of rows measures; fractions of rows. */
struct plan_sim {
	double faster, slower;               /* U < 1 / L > 1 at some look (no stopping) */
	double fixed_faster, fixed_slower;   /* the same with fixed-n 90% intervals */
	double first_pass;                   /* U < 1/1.1 at the first look */
	double power;                        /* stopped with U < 1 (stop at U < 1 or L > 1) */
	double mean_pairs;                   /* pairs used with that stopping rule */
};

/* The three counts of Walsh averages of d[0..n) a look needs, kept up to
 * date pair by pair: #{avg >= 0}, #{avg <= 0}, #{avg >= theta}. */
struct counts {
	size_t ge0, le0, ge_theta;
};

static void add_pair(struct counts *c, const double *d, size_t i, double theta)
{
	size_t j;

	for (j = 0; j <= i; j++) {
		double avg = 0.5 * (d[j] + d[i]);

		c->ge0 += avg >= 0;
		c->le0 += avg <= 0;
		c->ge_theta += avg >= theta;
	}
}

/* The decisions read from the counts agree with the intervals
 * ab_seq_interval gives (U < x exactly when fewer than c averages are
 * >= x, L > x when fewer than c are <= x). */
static void check_counts(const double *d, size_t n, size_t c, const struct counts *cn,
			 double theta)
{
	struct ab_hl hl;

	ab_seq_interval(&hl, d, n, c);
	assert_true((hl.upper < 0) == (cn->ge0 < c));
	assert_true((hl.lower > 0) == (cn->le0 < c));
	assert_true((hl.upper < theta) == (cn->ge_theta < c));
}

/*
 * `rows` rows of the plan b: d_i = ln(ratio) + sd g_i e_i, e_i standard
 * normal, g_i growing linearly from 1 at the first pair to `growth` at the
 * last (1: constant noise). theta = ln(1/1.1), the pass threshold of
 * `faster_by: 10%`. The first 300 rows are checked against the intervals.
 */
static void simulate_plan(struct plan_sim *out, const struct ab_seq_boundaries *b, double ratio,
			  double sd, double growth, size_t rows, uint64_t seed)
{
	size_t K = b->nlooks, n = b->looks[K - 1], fixed_k[AB_SEQ_MAX_LOOKS], r, i, k;
	size_t faster = 0, slower = 0, ffaster = 0, fslower = 0, pass = 0, power = 0, pairs = 0;
	double d[AB_SEQ_MAX_PAIRS], cov, theta = -log(1.1), mu = log(ratio);
	uint64_t rng = seed;

	for (k = 0; k < K; k++)
		ab_stats_walsh_k(b->looks[k], 0.05, &fixed_k[k], &cov);
	for (r = 0; r < rows; r++) {
		struct counts cn = { 0, 0, 0 };
		int f = 0, s = 0, ff = 0, fs = 0, stopped = 0;

		for (i = 0, k = 0; i < n; i++) {
			d[i] = mu + sd * (1 + (growth - 1) * (double)i / (double)(n - 1)) * normal(&rng);
			add_pair(&cn, d, i, theta);
			if (i + 1 != b->looks[k])
				continue;
			if (r < 300)
				check_counts(d, i + 1, b->c[k], &cn, theta);
			if (k == 0)
				pass += cn.ge_theta < b->c[0];
			f |= cn.ge0 < b->c[k];
			s |= cn.le0 < b->c[k];
			ff |= cn.ge0 < fixed_k[k];
			fs |= cn.le0 < fixed_k[k];
			if (!stopped && (f || s)) {
				stopped = 1;
				power += f;
				pairs += i + 1;
			}
			k++;
		}
		if (!stopped)
			pairs += n;
		faster += f;
		slower += s;
		ffaster += ff;
		fslower += fs;
	}
	out->faster = (double)faster / (double)rows;
	out->slower = (double)slower / (double)rows;
	out->fixed_faster = (double)ffaster / (double)rows;
	out->fixed_slower = (double)fslower / (double)rows;
	out->first_pass = (double)pass / (double)rows;
	out->power = (double)power / (double)rows;
	out->mean_pairs = (double)pairs / (double)rows;
}

#define SIM_ROWS 100000

/* A/A rows of the default plan: the repeated bounds hold the designed 5%
 * at every look; fixed-n intervals looked at the same way do not; noise
 * that grows over the run (later pairs noisier, not exchangeable) costs
 * a little. */
static void test_aa_rates(void **state)
{
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	struct plan_sim sim, grow;
	double band = Z999 * sqrt(0.05 * 0.95 / SIM_ROWS);

	(void)state;
	if (sanitized())
		skip();
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	simulate_plan(&sim, &b, 1, 0.05, 1, SIM_ROWS, 0xaa01);
	printf("A/A, %d rows, looks 8..64: P(U < 1 at some look) %.5f, P(L > 1) %.5f "
	       "(designed 0.05, attained %.4f, band %.4f..%.4f); fixed-n 90%% intervals %.5f, %.5f\n",
	       SIM_ROWS, sim.faster, sim.slower, b.alpha, 0.05 - band, 0.05 + band,
	       sim.fixed_faster, sim.fixed_slower);
	assert_true(fabs(sim.faster - 0.05) <= band);
	assert_true(fabs(sim.slower - 0.05) <= band);
	assert_true(sim.fixed_faster > 0.10 && sim.fixed_slower > 0.10);

	simulate_plan(&grow, &b, 1, 0.05, 3, SIM_ROWS, 0xaa02);
	printf("A/A, noise growing 1x..3x over the run: P(U < 1 at some look) %.4f, P(L > 1) %.4f; "
	       "fixed-n %.4f, %.4f\n", grow.faster, grow.slower, grow.fixed_faster, grow.fixed_slower);
	assert_true(grow.faster <= 0.06 && grow.slower <= 0.06);
}

/* Per-pair noise sd 0.05 in ln ratio: a 2x effect decides `faster_by:
 * 10%` at the first look; a 3% one is found with power >= 0.95 using at
 * most half of the 64 pairs on average. */
static void test_power(void **state)
{
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	struct plan_sim half, small;

	(void)state;
	if (sanitized())
		skip();
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	simulate_plan(&half, &b, 0.5, 0.05, 1, SIM_ROWS, 0xbb01);
	simulate_plan(&small, &b, 0.97, 0.05, 1, SIM_ROWS, 0xbb02);
	printf("ratio 0.5: U < 1/1.1 at the first look in %.4f of rows\n", half.first_pass);
	printf("ratio 0.97: power %.4f, mean pairs used %.2f of 64\n", small.power,
	       small.mean_pairs);
	assert_true(half.first_pass >= 0.99);
	assert_true(small.power >= 0.95);
	assert_true(small.mean_pairs <= 32);
}

/* The figures behind the default spending (docs/statistics.md). */
static void test_spending_choice(void **state)
{
	enum ab_seq_spending all[] = { AB_SEQ_POCOCK, AB_SEQ_LINEAR, AB_SEQ_OBRIEN_FLEMING };
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	struct plan_sim aa, half, small;
	size_t i, rows = 20000;

	(void)state;
	if (sanitized())
		skip();
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		plan.spending = all[i];
		assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
		simulate_plan(&aa, &b, 1, 0.05, 1, rows, 0xcc01);
		simulate_plan(&half, &b, 0.5, 0.05, 1, rows, 0xcc02);
		simulate_plan(&small, &b, 0.97, 0.05, 1, rows, 0xcc03);
		printf("%-14s c %zu %zu %zu %zu | A/A %.4f | 0.5 first look %.4f | "
		       "0.97 power %.4f, pairs %.1f\n", ab_seq_spending_name(all[i]), b.c[0], b.c[1],
		       b.c[2], b.c[3], aa.faster, half.first_pass, small.power, small.mean_pairs);
		if (all[i] == AB_SEQ_OBRIEN_FLEMING) {
			assert_int_equal(b.c[0], 0);  /* no bound at 8 pairs */
			assert_true(half.first_pass == 0);
		} else {
			assert_true(half.first_pass >= 0.99);
		}
	}
}

/* The boundary tables of the three spendings for looks 8, 16, 32, 64
 * (docs/statistics.md, "Boundaries of the default plan"): O'Brien–Fleming
 * spends less by the first look than the smallest probability 8 pairs can
 * show, P(W+ = 0) = 1/256, so it has no bound there; Pocock and linear
 * have one. */
static void test_boundary_tables(void **state)
{
	enum ab_seq_spending all[] = { AB_SEQ_POCOCK, AB_SEQ_LINEAR, AB_SEQ_OBRIEN_FLEMING };
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		plan.spending = all[i];
		assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
		printf("%s: attained alpha %.5f (se %.5f)\n", ab_seq_spending_name(all[i]), b.alpha, b.se);
		for (k = 0; k < b.nlooks; k++) {
			printf("  look %zu: c %zu, spent %.3g, crossing %.5f, nominal %.5f\n", b.looks[k],
			       b.c[k], b.spent[k], b.crossing[k], b.nominal[k]);
			assert_true(b.crossing[k] + b.margin_se * b.crossing_se[k] <= b.spent[k] + 1e-12);
		}
		if (all[i] == AB_SEQ_OBRIEN_FLEMING) {
			assert_true(b.spent[0] < 1.0 / 256);
			assert_int_equal(b.c[0], 0);
			assert_true(b.nominal[0] == 0);
		} else {
			assert_true(b.spent[0] >= 1.0 / 256);
			assert_true(b.c[0] >= 1);
		}
	}
}

/* What the rows of one true ratio that stopped at each look estimate. */
struct stop_bias {
	size_t rows[AB_SEQ_MAX_LOOKS];    /* rows that stopped at look k (the last: also the
	                                     rows that never stopped) */
	double mean[AB_SEQ_MAX_LOOKS];    /* mean Hodges–Lehmann estimate of ln ratio there */
	double se[AB_SEQ_MAX_LOOKS];      /* its standard error */
	double all_mean, all_se;          /* over all rows, at the look each stopped */
	double ratio_mean;                /* mean of exp(estimate) over all rows */
};

/*
 * `rows` rows of the plan b, d_i = ln(ratio) + sd e_i, stopped at the
 * first look where U < 1 or L > 1 (else at the last), as the scheduler
 * stops a row whose rule is decided; the Hodges–Lehmann estimate of each
 * row at the look it stopped at (ab_seq_interval), gathered by look.
 */
static void simulate_stop_bias(struct stop_bias *out, const struct ab_seq_boundaries *b,
			       double ratio, double sd, size_t rows, uint64_t seed)
{
	size_t K = b->nlooks, n = b->looks[K - 1], r, i, k;
	double d[AB_SEQ_MAX_PAIRS], sum[AB_SEQ_MAX_LOOKS] = { 0 }, sum2[AB_SEQ_MAX_LOOKS] = { 0 };
	double all = 0, all2 = 0, ratios = 0, mu = log(ratio);
	uint64_t rng = seed;

	memset(out, 0, sizeof(*out));
	for (r = 0; r < rows; r++) {
		struct counts cn = { 0, 0, 0 };
		struct ab_hl hl;

		for (i = 0, k = 0; i < n; i++) {
			d[i] = mu + sd * normal(&rng);
			add_pair(&cn, d, i, 0);
			if (i + 1 != b->looks[k])
				continue;
			if (cn.ge0 < b->c[k] || cn.le0 < b->c[k] || k == K - 1)
				break;
			k++;
		}
		ab_seq_interval(&hl, d, b->looks[k], b->c[k]);
		out->rows[k]++;
		sum[k] += hl.estimate;
		sum2[k] += hl.estimate * hl.estimate;
		all += hl.estimate;
		all2 += hl.estimate * hl.estimate;
		ratios += exp(hl.estimate);
	}
	for (k = 0; k < K; k++) {
		double m = (double)out->rows[k];

		out->mean[k] = m ? sum[k] / m : NAN;
		out->se[k] = m > 1 ? sqrt(fmax(sum2[k] / m - out->mean[k] * out->mean[k], 0) / (m - 1)) : NAN;
	}
	out->all_mean = all / (double)rows;
	out->all_se = sqrt(fmax(all2 / (double)rows - out->all_mean * out->all_mean, 0) /
			   (double)(rows - 1));
	out->ratio_mean = ratios / (double)rows;
}

/*
 * How much an estimate at an early stop overstates the effect (per-pair
 * sd 0.05, default plan). A 2x effect stops at the first look in every
 * row and its estimate is unbiased (within the 99.9% band of its mean);
 * a 10% one nearly so. A 3% effect (0.6 sd) stops at 8 or 16 pairs only
 * in the rows whose first pairs happened to look large: their mean
 * estimate lies beyond the truth by more than the band, further than the
 * rows that stopped later, and the mean over all rows overstates too.
 */
static void test_early_stop_bias(void **state)
{
	static const double ratios[] = { 0.5, 0.9, 0.97, 0.985 };
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	struct stop_bias sb;
	size_t rows = sanitized() ? 2000 : 20000, i, k;

	(void)state;
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	for (i = 0; i < ARRAY_SIZE(ratios); i++) {
		double mu = log(ratios[i]);

		simulate_stop_bias(&sb, &b, ratios[i], 0.05, rows, 0xee01 + i);
		printf("true ratio %.3f (effect %.1f%%), %zu rows: mean estimate over all rows %.4f "
		       "(ratio %.4f, effect %.2f%%, %.2fx the truth)\n", ratios[i],
		       100 * (1 - ratios[i]), rows, exp(sb.all_mean), sb.ratio_mean,
		       100 * (1 - sb.ratio_mean), (1 - sb.ratio_mean) / (1 - ratios[i]));
		for (k = 0; k < b.nlooks; k++)
			if (sb.rows[k])
				printf("  stopped at %zu pairs: %5.1f%% of rows, mean estimate %.4f (ln %.5f, "
				       "se %.5f; %.2fx the true ln ratio)\n", b.looks[k],
				       100.0 * (double)sb.rows[k] / (double)rows, exp(sb.mean[k]), sb.mean[k],
				       sb.se[k], sb.mean[k] / mu);
		if (ratios[i] == 0.5) {
			assert_int_equal(sb.rows[0], rows);
			assert_true(fabs(sb.mean[0] - mu) <= Z999 * sb.se[0]);
		} else if (ratios[i] == 0.97) {
			/* the early stoppers overstate, more than the later ones */
			assert_true(sb.rows[0] > 0 && sb.rows[1] > 0);
			assert_true(sb.mean[0] < mu - Z999 * sb.se[0]);
			assert_true(sb.mean[1] < mu - Z999 * sb.se[1]);
			assert_true(sb.mean[0] < sb.mean[2] - Z999 * hypot(sb.se[0], sb.se[2]));
			assert_true(sb.all_mean < mu - Z999 * sb.all_se);
		}
		/* never more than twice the truth on average over all rows */
		assert_true(sb.all_mean > 2 * mu);
	}
}

/* ---- repeated p-values ----------------------------------------------- */

/* A row's repeated p-value agrees with its repeated bounds, never rises
 * as looks are added, and is valid under the null at several levels. */
static void test_repeated_p(void **state)
{
	static const double levels[] = { 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5 };
	struct ab_seq_plan plan = default_plan();
	struct ab_seq_boundaries b;
	size_t rows = sanitized() ? 1500 : 30000, below[ARRAY_SIZE(levels)] = { 0 }, r, k, i;
	double d[64], neg[64], p, prev, q;
	uint64_t rng = 0xdd01;

	(void)state;
	assert_int_equal(ab_seq_boundaries(&plan, &b), 0);
	for (r = 0; r < rows; r++) {
		/* a third of the rows null, the others a small effect either way */
		double mu = r % 3 == 0 ? 0 : r % 3 == 1 ? -0.01 : 0.01;
		int refuted = 0;

		for (i = 0; i < 64; i++) {
			d[i] = mu + 0.05 * normal(&rng);
			neg[i] = -d[i];
		}
		prev = 1;
		for (k = 0; k < b.nlooks; k++) {
			struct ab_hl hl;

			ab_seq_interval(&hl, d, b.looks[k], b.c[k]);
			refuted |= hl.upper < 0;
			assert_int_equal(ab_seq_repeated_p(&plan, d, b.looks[k], 0, AB_SEQ_LESS, &p), 0);
			assert_true(p <= prev);
			assert_true(refuted ? p <= b.alpha : p > plan.alpha);
			prev = p;
		}
		/* the other side by symmetry */
		assert_int_equal(ab_seq_repeated_p(&plan, neg, 64, 0, AB_SEQ_GREATER, &q), 0);
		assert_true(q == p);
		if (mu == 0)
			for (i = 0; i < ARRAY_SIZE(levels); i++)
				below[i] += p <= levels[i];
	}
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		double n0 = (double)((rows + 2) / 3), rate = (double)below[i] / n0;

		printf("null rows: P(repeated p <= %.3f) = %.4f\n", levels[i], rate);
		assert_true(rate <= levels[i] + Z999 * sqrt(levels[i] * (1 - levels[i]) / n0));
	}
	/* fewer pairs than the first look, a bad value */
	assert_int_equal(ab_seq_repeated_p(&plan, d, 7, 0, AB_SEQ_LESS, &p), 0);
	assert_true(p == 1);
	d[3] = NAN;
	assert_invalid(ab_seq_repeated_p(&plan, d, 8, 0, AB_SEQ_LESS, &p), "pair 4");
	assert_true(p == 1);
}

/* A clear effect: every pair far below θ. At 8 pairs the smallest
 * repeated p of the default plan: T = z(1/256) / z(2/256) = 1.10, and the
 * plan's bounds scaled by 1.10 are crossed with probability 0.030 under
 * the null. At 64 pairs P(W_64 = 0) = 2^-64 dominates. */
static void test_repeated_p_clear(void **state)
{
	struct ab_seq_plan plan = default_plan();
	double d[64], p8, p64;
	size_t i;

	(void)state;
	for (i = 0; i < 64; i++)
		d[i] = -0.7 + 0.001 * (double)(i % 5);
	assert_int_equal(ab_seq_repeated_p(&plan, d, 8, log(1 / 1.1), AB_SEQ_LESS, &p8), 0);
	assert_int_equal(ab_seq_repeated_p(&plan, d, 64, log(1 / 1.1), AB_SEQ_LESS, &p64), 0);
	printf("all pairs at ratio 0.5: repeated p %.3g at 8 pairs, %.3g at 64\n", p8, p64);
	assert_true(p8 > 0.025 && p8 < 0.035 && p8 <= 0.05);
	assert_true(p64 > 0 && p64 < 1e-18);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_from_range),
		cmocka_unit_test(test_plan_from_looks),
		cmocka_unit_test(test_spending),
		cmocka_unit_test(test_exact_single_look),
		cmocka_unit_test(test_exact_against_enumeration),
		cmocka_unit_test(test_exact_against_reference),
		cmocka_unit_test(test_simulated_against_exact),
		cmocka_unit_test(test_margin_against_exact),
		cmocka_unit_test(test_default_boundaries),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_is_computation),
		cmocka_unit_test(test_single_look),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_aa_rates),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_spending_choice),
		cmocka_unit_test(test_boundary_tables),
		cmocka_unit_test(test_early_stop_bias),
		cmocka_unit_test(test_repeated_p),
		cmocka_unit_test(test_repeated_p_clear),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	ab_seq_cache_clear();
	return failed;
}
