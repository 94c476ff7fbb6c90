/* test_rules.c - every predicate's pass, fail and inconclusive outcome on
 * synthetic samples, the combination inside a rule, Holm's step across
 * rows, the integrity gates and the precedence of the overall verdict. */
#include "testutil.h"
#include "analysis.h"
#include "rules.h"
#include "error.h"
#include "predicates.h"
#include "sequential.h"
#include "stopping.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 16

/* Per-pair log-ratio patterns (n = 8) */
static const double TIGHT[8] = {0.001, -0.002, 0.0015, -0.001, 0.002, -0.0015, 0.0005, -0.0005};
static const double NOISY[8] = {0.09, -0.11, 0.05, -0.07, 0.12, -0.03, 0.08, -0.10};
/* One negative at rank 5 of 8: W- = 5, one-sided p = 10/256, L just clears */
static const double EDGE[8] = {0.01, 0.02, 0.03, 0.04, -0.05, 0.06, 0.07, 0.08};

struct fixture {
	struct ab_experiment exp;
	struct ab_sample *s;
	size_t n;
	struct ab_analysis a;
};

static void load(struct fixture *f, const char *yaml)
{
	memset(f, 0, sizeof(*f));
	if (ab_experiment_parse(&f->exp, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	f->s = ab_xcalloc((size_t)ab_experiment_nrows(&f->exp) * MAXP * 2, sizeof(*f->s));
}

/* The next sample of f: pair i of `row` on `side`, in the order of an
 * AB|BA block, done, checksum 42, every metric 0 (the caller sets them). */
static struct ab_sample *next_sample(struct fixture *f, size_t row, size_t i, size_t side)
{
	struct ab_sample *s = &f->s[f->n];

	ab_sample_release(s);
	memset(s, 0, sizeof(*s));
	s->entry.seq = (uint32_t)f->n++;
	s->entry.row = (uint32_t)row;
	s->entry.pair = (int32_t)i;
	s->entry.warmup = -1;
	s->entry.order = (uint8_t)((i / 2 + i) & 1);
	s->entry.side = (uint8_t)side;
	s->status = AB_SAMPLE_DONE;
	s->nmetrics = f->exp.nmetrics;
	s->metrics = ab_xcalloc(s->nmetrics, sizeof(double));
	s->checksum = ab_xstrdup("42");
	return s;
}

/* Add the pairs of one row: parent value a0 (every metric), candidate
 * a0 * ratio * exp(pattern[i]) for metric `m` (others equal to the
 * parent's). */
static void add_row(struct fixture *f, size_t row, size_t metric, double ratio, const double *pattern)
{
	size_t i, side, m, pairs = (size_t)f->exp.pairs;

	for (i = 0; i < pairs; i++) {
		for (side = 0; side < 2; side++) {
			struct ab_sample *s = next_sample(f, row, i, side);
			double a0 = 100e6 * (1 + 0.01 * (double)(i % 3));
			for (m = 0; m < s->nmetrics; m++)
				s->metrics[m] = side && m == metric ? a0 * ratio * exp(pattern[i % 8]) : a0;
			s->wall_ns = (int64_t)s->metrics[0];
		}
	}
}

static void analyse(struct fixture *f)
{
	ab_analysis_run(&f->a, &f->exp, f->s, f->n);
	ab_rules_evaluate(&f->a, NULL, NULL);
}

static void release(struct fixture *f)
{
	ab_analysis_release(&f->a);
	ab_samples_free(f->s, f->n);
	ab_experiment_release(&f->exp);
}

#define HEAD "name: r\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1]}\npairs: 8\n"
#define HEAD2 "name: r\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1, 2, 4]}\npairs: 8\n"

/* One row of 8 pairs, single-threaded (CPU time = wall time): the
 * candidate's wall time is noisy around `wall_ratio`, its CPU time
 * `cpu_ratio` with little noise; `contended` samples of the candidate
 * flagged contended. */
static void add_cpu_row(struct fixture *f, double wall_ratio, double cpu_ratio, size_t contended)
{
	size_t i, side, m, wall = 0, cpu = (size_t)(ab_experiment_metric(&f->exp, "cpu_ns") - f->exp.metrics);

	for (i = 0; i < 8; i++) {
		for (side = 0; side < 2; side++) {
			struct ab_sample *s = &f->s[f->n];
			double a0 = 100e6;
			s->entry.seq = (uint32_t)f->n;
			s->entry.pair = (int32_t)i;
			s->entry.warmup = -1;
			s->entry.order = (uint8_t)((i / 2 + i) & 1);
			s->entry.side = (uint8_t)side;
			s->status = AB_SAMPLE_DONE;
			s->nmetrics = f->exp.nmetrics;
			s->metrics = ab_xcalloc(s->nmetrics, sizeof(double));
			for (m = 0; m < s->nmetrics; m++)
				s->metrics[m] = a0;
			s->metrics[wall] = side ? a0 * wall_ratio * exp(3 * NOISY[i]) : a0;
			s->metrics[cpu] = side ? a0 * cpu_ratio * exp(TIGHT[i]) : a0;
			s->wall_ns = (int64_t)s->metrics[wall];
			s->user_ns = (int64_t)s->metrics[wall];
			s->other_cpu_ns = -1;
			if (side && i < contended)
				s->flags |= AB_FLAG_CONTENDED;
			s->checksum = ab_xstrdup("42");
			f->n++;
		}
	}
}

/* Inconclusive on wall time, contended, single-threaded, and decided on
 * CPU time: one line suggests metric: cpu_ns for the next experiment and
 * says why switching now is not evidence; not without contention. */
static void test_cpu_ns_suggestion(void **state)
{
	struct fixture f;
	char **w;
	int found = 0;

	(void)state;
	load(&f, HEAD "accept:\n  - name: material gain\n    faster_by: 20%\n");
	add_cpu_row(&f, 0.8, 0.5, 3);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	for (w = f.a.rule_warnings; w && *w; w++)
		if (strstr(*w, "consider 'metric: cpu_ns' for the next experiment")) {
			found++;
			assert_non_null(strstr(*w, "3 sample(s) were contended"));
			assert_non_null(strstr(*w, "after seeing the data is not evidence"));
		}
	assert_int_equal(found, 1);
	release(&f);

	load(&f, HEAD "accept:\n  - name: material gain\n    faster_by: 20%\n");
	add_cpu_row(&f, 0.8, 0.5, 0);
	analyse(&f);
	for (w = f.a.rule_warnings; w && *w; w++)
		assert_null(strstr(*w, "metric: cpu_ns"));
	release(&f);
}


static enum ab_outcome one(const char *rule_yaml, size_t metric, double ratio, const double *pattern,
			   char **detail)
{
	struct fixture f;
	char *yaml = ab_xasprintf(HEAD "accept:\n  - name: r\n%s", rule_yaml);
	enum ab_outcome o;

	load(&f, yaml);
	add_row(&f, 0, metric, ratio, pattern);
	analyse(&f);
	o = f.a.rules[0].outcome;
	if (detail)
		*detail = ab_xstrdup(f.a.rules[0].detail);
	release(&f);
	free(yaml);
	return o;
}

static void test_no_regression(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    no_regression: 2%\n", 0, 0.90, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, "below 1.020 (no regression above 2%): pass"));
	free(d);
	assert_int_equal(one("    no_regression: 2%\n", 0, 1.10, TIGHT, &d), AB_FAIL);
	assert_non_null(strstr(d, "above 1.020 (a regression above 2%): fail"));
	assert_non_null(strstr(d, "lanes=1: ratio 1.1"));
	free(d);
	assert_int_equal(one("    no_regression: 2%\n", 0, 1.02, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "cannot exclude a regression above 2% (the interval contains 1.020): inconclusive"));
	free(d);
}

static void test_faster_by(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    faster_by: 5%\n", 0, 0.80, TIGHT, NULL), AB_PASS);
	assert_int_equal(one("    faster_by: 5%\n", 0, 0.99, TIGHT, &d), AB_FAIL);
	assert_non_null(strstr(d, "above 0.952 = 1/1.05 (a gain below 5%)"));
	free(d);
	assert_int_equal(one("    faster_by: 5%\n", 0, 0.95, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "cannot show a gain of 5%"));
	free(d);
}

static void test_slower_by(void **state)
{
	(void)state;
	assert_int_equal(one("    slower_by: 5%\n", 0, 1.20, TIGHT, NULL), AB_PASS);
	assert_int_equal(one("    slower_by: 5%\n", 0, 1.00, TIGHT, NULL), AB_FAIL);
	assert_int_equal(one("    slower_by: 5%\n", 0, 1.05, NOISY, NULL), AB_INCONCLUSIVE);
}

/* max_ratio / min_ratio on a bound, on another metric (maxrss_bytes = 4). */
static void test_ratio_bounds(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    metric: maxrss_bytes\n    max_ratio: 1.01\n", 4, 1.0, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, "maxrss_bytes ratio 1.000"));
	free(d);
	assert_int_equal(one("    metric: maxrss_bytes\n    max_ratio: 1.01\n", 4, 1.05, TIGHT, NULL), AB_FAIL);
	assert_int_equal(one("    metric: maxrss_bytes\n    max_ratio: 1.01\n", 4, 1.01, NOISY, NULL),
			 AB_INCONCLUSIVE);
	assert_int_equal(one("    min_ratio: 0.9\n", 0, 1.0, TIGHT, NULL), AB_PASS);
	assert_int_equal(one("    min_ratio: 0.9\n", 0, 0.8, TIGHT, NULL), AB_FAIL);
	assert_int_equal(one("    min_ratio: 0.9\n", 0, 0.9, NOISY, NULL), AB_INCONCLUSIVE);
}

/* On the point estimate: observational, never inconclusive. */
static void test_ratio_estimates(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    max_ratio: {estimate: 1.05}\n", 0, 1.02, NOISY, &d), AB_PASS);
	assert_non_null(strstr(d, "point estimate 1.0"));
	assert_non_null(strstr(d, "at most 1.05 (max_ratio, no interval): pass"));
	free(d);
	assert_int_equal(one("    max_ratio: {estimate: 1.05}\n", 0, 1.10, NOISY, NULL), AB_FAIL);
	assert_int_equal(one("    min_ratio: {estimate: 0.5}\n", 0, 0.7, NOISY, NULL), AB_PASS);
	assert_int_equal(one("    min_ratio: {estimate: 0.5}\n", 0, 0.4, TIGHT, NULL), AB_FAIL);
}

static void test_pair_wins(void **state)
{
	char *d;

	(void)state;
	/* NOISY around 0.95: d_i = ln 0.95 + pattern; 0.05 < -ln 0.95 = 0.0513, so
	 * wins are the pairs with pattern < 0.0513: 5 of 8 */
	assert_int_equal(one("    min_pair_wins: 5\n", 0, 0.95, NOISY, &d), AB_PASS);
	assert_non_null(strstr(d, "(5/8 pair wins)"));
	/* observational, with how often noise alone gets there: P(X >= 5)
	 * for X ~ Binomial(8, 1/2) = 93/256 */
	assert_non_null(strstr(d, "5 pair wins, at least the 5 needed (observed; noise alone reaches 5 of 8 "
			       "with probability 36.3%): pass"));
	free(d);
	/* 5 of 8 where 6 are claimed: a share of 75% gives 5 or fewer with
	 * probability P(Binomial(8, 0.75) <= 5) = 0.3215: noise can do it */
	assert_int_equal(one("    min_pair_wins: 6\n", 0, 0.95, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "5 pair wins, fewer than the 6 needed, but not fewer than noise allows: they do "
			       "not refute a share of wins of 75% (one-sided binomial p 0.321, above 0.05): "
			       "inconclusive"));
	free(d);
	/* none of 8: 0.25^8 = 1.53e-05, refuted: the count fails */
	assert_int_equal(one("    min_pair_wins: 6\n", 0, 1.2, TIGHT, &d), AB_FAIL);
	assert_non_null(strstr(d, "0 pair wins, fewer than the 6 needed: they refute a share of wins of 75% "
			       "(one-sided binomial p 1.53e-05)"));
	free(d);
	/* 8 of 8: 1/256 */
	assert_int_equal(one("    min_pair_wins: 8\n", 0, 0.5, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, "8 pair wins, at least the 8 needed (observed; noise alone reaches 8 of 8 "
			       "with probability 0.391%): pass"));
	free(d);
	assert_int_equal(one("    min_pair_wins: 60%\n", 0, 0.95, NOISY, NULL), AB_PASS);  /* ceil(4.8) = 5 */
	/* ceil(5.6) = 6 needed, 5 won: P(Binomial(8, 0.7) <= 5) = 0.448 */
	assert_int_equal(one("    min_pair_wins: 70%\n", 0, 0.95, NOISY, NULL), AB_INCONCLUSIVE);
	assert_int_equal(one("    min_pair_wins: 70%\n", 0, 1.2, TIGHT, NULL), AB_FAIL);
}

/* Dispersion gates: a pass becomes inconclusive; a fail stays a fail. */
static void test_dispersion(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    faster_by: 5%\n    max_rsd: 1%\n", 0, 0.5, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "above max_rsd 1%"));
	free(d);
	assert_int_equal(one("    faster_by: 5%\n    max_rsd: 1%\n", 0, 1.2, NOISY, NULL), AB_FAIL);
	assert_int_equal(one("    faster_by: 5%\n    max_rsd: 10%\n", 0, 0.8, TIGHT, NULL), AB_PASS);
	assert_int_equal(one("    faster_by: 5%\n    max_ci_width: 1%\n", 0, 0.5, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "above max_ci_width 1%"));
	free(d);
	/* a gate alone: pass when the dispersion is within it */
	assert_int_equal(one("    max_rsd: 10%\n", 0, 1.0, TIGHT, NULL), AB_PASS);
	assert_int_equal(one("    max_rsd: 0.5%\n", 0, 1.0, NOISY, NULL), AB_INCONCLUSIVE);
}

/* AND inside a rule: fail > inconclusive > pass. */
static void test_combination(void **state)
{
	(void)state;
	/* pass + fail */
	assert_int_equal(one("    no_regression: 2%\n    min_pair_wins: 8\n", 0, 0.95, NOISY, NULL), AB_FAIL);
	/* pass + inconclusive */
	assert_int_equal(one("    min_pair_wins: 3\n    no_regression: 2%\n", 0, 1.0, NOISY, NULL),
			 AB_INCONCLUSIVE);
	/* inconclusive + fail */
	assert_int_equal(one("    no_regression: 2%\n    min_pair_wins: 8\n", 0, 1.0, NOISY, NULL), AB_FAIL);
	/* pass + pass */
	assert_int_equal(one("    no_regression: 2%\n    min_pair_wins: 8\n", 0, 0.5, TIGHT, NULL), AB_PASS);
}

/* A refutation at one-sided p = 10/256 fails a one-row rule, but not a
 * three-row rule after Holm's adjustment (3 × 0.039 > 0.05). */
static void test_holm(void **state)
{
	struct fixture f;
	double shifted[8];
	size_t i, r;

	(void)state;
	for (i = 0; i < 8; i++)
		shifted[i] = EDGE[i];
	assert_int_equal(one("    no_regression: 2%\n", 0, 1.02, shifted, NULL), AB_FAIL);

	load(&f, HEAD2 "accept:\n  - name: all lanes\n    no_regression: 2%\n");
	for (r = 0; r < 3; r++)
		add_row(&f, r, 0, 1.02, shifted);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].detail, "but not after Holm's adjustment over the verdict's 3 refutations"));
	assert_non_null(strstr(f.a.rules[0].detail, "(one-sided adjusted p "));
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	release(&f);

	/* a clear regression in one of three rows survives the adjustment */
	load(&f, HEAD2 "accept:\n  - name: all lanes\n    no_regression: 2%\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 1.2, TIGHT);
	add_row(&f, 2, 0, 1.0, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_FAIL);
	assert_int_equal(f.a.rules[0].nrows, 3);
	assert_int_equal(f.a.rules[0].rows[0].outcome, AB_PASS);
	assert_int_equal(f.a.rules[0].rows[1].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[0].detail, "lanes=2"));
	assert_null(strstr(f.a.rules[0].detail, "lanes=1"));
	assert_int_equal(f.a.verdict, AB_REJECTED);
	release(&f);
}

/* equivalent_within (TOST): pass when both bounds lie inside
 * [1/(1+δ), 1+δ], fail when the interval lies wholly outside it (either
 * side), inconclusive otherwise; symmetric for a higher-is-better metric. */
static void test_equivalence(void **state)
{
	const char *rule = "    equivalent_within: 2%\n";
	char *d;

	(void)state;
	assert_int_equal(one(rule, 0, 1.0, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, "] inside [0.980 = 1/1.02, 1.020] (equivalent within 2%): pass"));
	free(d);
	assert_int_equal(one(rule, 0, 1.10, TIGHT, &d), AB_FAIL);
	/* its two sides are two members of the family */
	assert_non_null(strstr(d, "above 1.020 (a difference beyond 2%), kept by Holm's adjustment over the "
			       "verdict's 2 refutations (one-sided adjusted p 0.0078"));
	free(d);
	assert_int_equal(one(rule, 0, 0.90, TIGHT, &d), AB_FAIL);
	assert_non_null(strstr(d, "below 0.980 = 1/1.02 (a difference beyond 2%), kept by"));
	free(d);
	/* near the margin: the interval straddles 1.02 */
	assert_int_equal(one(rule, 0, 1.02, TIGHT, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "cannot show equivalence within 2% (the interval [1.01"));
	assert_non_null(strstr(d, "is not inside [0.980 = 1/1.02, 1.020]): inconclusive"));
	free(d);
	assert_int_equal(one(rule, 0, 1.0, NOISY, NULL), AB_INCONCLUSIVE);
	assert_int_equal(one("    metric: maxrss_bytes\n    equivalent_within: 1%\n", 4, 1.0, TIGHT, NULL),
			 AB_PASS);
}

/* The verdict's family spans rules: three single-row rules refuting at
 * p = 10/256 each are adjusted over 3 refutations, as one rule over the
 * three rows is; nested margins on one row count once. */
static void test_family_across_rules(void **state)
{
	struct fixture f;
	size_t r;

	(void)state;
	load(&f, HEAD2 "accept:\n  - name: a\n    where: {lanes: 1}\n    no_regression: 2%\n"
		       "  - name: b\n    where: {lanes: 2}\n    no_regression: 2%\n"
		       "  - name: c\n    where: {lanes: 4}\n    no_regression: 2%\n");
	for (r = 0; r < 3; r++)
		add_row(&f, r, 0, 1.02, EDGE);
	analyse(&f);
	assert_int_equal(f.a.refutations, 3);
	for (r = 0; r < 3; r++) {
		assert_int_equal(f.a.rules[r].outcome, AB_INCONCLUSIVE);
		assert_non_null(strstr(f.a.rules[r].detail, "(a regression above 2%), but not after Holm's "
				       "adjustment over the verdict's 3 refutations (one-sided adjusted p 0.117): inconclusive"));
	}
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	release(&f);

	/* one row, four rules on its ratio's upper side: one refutation, so
	 * the bound decides alone; the scaling-free lower side of
	 * equivalent_within is a second member */
	load(&f, HEAD "accept:\n  - name: a\n    no_regression: 2%\n  - name: b\n    max_ratio: 1.05\n"
		      "  - name: c\n    faster_by: 1%\n    max_ratio: 1.01\n");
	add_row(&f, 0, 0, 1.2, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.refutations, 1);
	for (r = 0; r < 3; r++) {
		assert_int_equal(f.a.rules[r].outcome, AB_FAIL);
		assert_null(strstr(f.a.rules[r].detail, "Holm"));
	}
	release(&f);
	load(&f, HEAD "accept:\n  - name: a\n    no_regression: 2%\n  - name: e\n    equivalent_within: 5%\n");
	add_row(&f, 0, 0, 1.2, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.refutations, 2);
	assert_int_equal(f.a.rules[0].outcome, AB_FAIL);
	assert_int_equal(f.a.rules[1].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[1].detail, "(a difference beyond 5%), kept by Holm's adjustment "
			       "over the verdict's 2 refutations (one-sided adjusted p 0.0078"));
	release(&f);
}

/* Evaluate `yaml` on the samples of `g` (the same matrix and metrics). */
static void reanalyse(struct fixture *f, const char *yaml, const struct fixture *g)
{
	memset(f, 0, sizeof(*f));
	if (ab_experiment_parse(&f->exp, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	ab_analysis_run(&f->a, &f->exp, g->s, g->n);
	ab_rules_evaluate(&f->a, NULL, NULL);
}

/* The rules of `rules` (an experiment with the same matrix and metrics)
 * evaluated on the row analysis of `f`: the statistics are computed once
 * and borrowed. Release with release_rules_only. */
static void rules_only(struct ab_analysis *out, const struct ab_analysis *a, const struct ab_experiment *rules)
{
	*out = *a;
	out->exp = rules;
	out->rules = NULL;
	out->reasons = out->warnings = out->rule_warnings = NULL;
	ab_rules_evaluate(out, NULL, NULL);
}

static void release_rules_only(struct ab_analysis *x)
{
	size_t i;

	for (i = 0; i < x->exp->nrules; i++) {
		size_t r;
		for (r = 0; r < x->rules[i].nrows; r++)
			free(x->rules[i].rows[r].detail);
		free(x->rules[i].rows);
		free(x->rules[i].detail);
	}
	free(x->rules);
	ab_strv_free(x->reasons);
	ab_strv_free(x->rule_warnings);
}

/* Every outcome and reason of the first `nrules` rules, and the verdict,
 * agree between two evaluations. */
static void assert_same_outcomes(const struct ab_analysis *x, const struct ab_analysis *y, size_t nrules)
{
	size_t i, r;

	assert_int_equal(x->verdict, y->verdict);
	assert_int_equal(x->refutations, y->refutations);
	for (i = 0; i < nrules; i++) {
		assert_int_equal(x->rules[i].outcome, y->rules[i].outcome);
		assert_string_equal(x->rules[i].detail, y->rules[i].detail);
		for (r = 0; r < x->rules[i].nrows; r++)
			assert_int_equal(x->rules[i].rows[r].outcome, y->rules[i].rows[r].outcome);
	}
}

/* A redundant looser rule changes nothing: max_ratio: 1.1 over every row
 * next to single-row max_ratio: 1.0 rules, on a run where one row is a
 * regression of 10% (refuted at 1.0 with p 1/256, not at 1.1) and two
 * refute at the edge. Closed testing over every (row, θ) would count the
 * looser hypothesis of that row as not rejected and test the others at
 * stricter levels (the third row at 0.05/2 instead of 0.05). */
static void test_family_looser_rule(void **state)
{
	const char *rules = "accept:\n  - name: a\n    where: {lanes: 1}\n    max_ratio: 1.0\n"
			    "  - name: b\n    where: {lanes: 2}\n    max_ratio: 1.0\n"
			    "  - name: c\n    where: {lanes: 4}\n    max_ratio: 1.0\n";
	char *with = ab_xasprintf(HEAD2 "%s  - name: looser\n    max_ratio: 1.1\n", rules);
	char *without = ab_xasprintf(HEAD2 "%s", rules);
	struct fixture f, g;

	(void)state;
	load(&f, without);
	add_row(&f, 0, 0, 1.03, EDGE);   /* p 2/256 */
	add_row(&f, 1, 0, 1.1, TIGHT);   /* p 1/256 */
	add_row(&f, 2, 0, 1.0, EDGE);
	analyse(&f);
	reanalyse(&g, with, &f);
	assert_same_outcomes(&f.a, &g.a, 3);
	assert_int_equal(f.a.rules[1].outcome, AB_FAIL);
	assert_int_equal(g.a.rules[3].outcome, AB_INCONCLUSIVE);
	/* Holm: 3/256, then 2 × 2/256, then 10/256, each at most 0.05 */
	assert_int_equal(f.a.rules[0].outcome, AB_FAIL);
	assert_int_equal(f.a.rules[2].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[2].detail, "kept by Holm's adjustment over the verdict's 3 "
			       "refutations (one-sided adjusted p 0.0391)"));
	ab_analysis_release(&g.a);
	ab_experiment_release(&g.exp);
	release(&f);
	free(with);
	free(without);
}

static double normal(uint64_t *s)
{
	double u = ab_stats_uniform(s);
	double v = ab_stats_uniform(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* An A/A run of `rows` rows and `pairs` pairs into f->s: both sides
 * 100e6 times exp(normal noise of sd `sd`), rows visited round-robin,
 * pairs in AB|BA blocks. */
static void add_aa(struct fixture *f, size_t rows, size_t pairs, double sd, uint64_t *seed)
{
	size_t i, r, side;

	f->n = 0;
	for (i = 0; i < pairs; i++)
		for (r = 0; r < rows; r++)
			for (side = 0; side < 2; side++) {
				struct ab_sample *s = next_sample(f, r, i, side);
				s->metrics[0] = 100e6 * exp(sd * normal(seed));
				s->wall_ns = (int64_t)s->metrics[0];
			}
}

/* 3.29 standard errors: a two-sided 99.9% band of a binomial fraction. */
#define Z999 3.2905267314919255

/* P(X <= k) for X ~ Binomial(n, p). */
static double binom_cdf(size_t k, size_t n, double p)
{
	double sum = 0, lp = 0;
	size_t i;

	for (i = 0; i <= k && i <= n; i++) {
		lp = lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) +
		     (double)i * log(p) + (double)(n - i) * log1p(-p);
		sum += exp(lp);
	}
	return sum;
}

/*
 * Item 3's acceptance: A/A runs of 10 rows × 8 pairs with ten single-row
 * max_ratio: 1.0 rules. Under no change each row's refutation p is the
 * exact one-sided signed-rank p of 8 continuous pairs, a multiple of
 * 1/256; the verdict is rejected exactly when Holm's first step rejects,
 * min p ≤ 0.05/10, which for 8 pairs is p = 1/256 (every pair slower). So
 * the designed false-rejection rate is 1 − (255/256)^10 = 3.834%; the
 * rate must lie in the 99.9% binomial band around it (before the family
 * it was 32.9%: each rule alone at 10/256). Adding a looser max_ratio: 1.1
 * over every row changes no outcome of any run.
 */
static void test_family_aa_rate(void **state)
{
	const size_t rows = 10, runs = 1000;
	char *yaml = ab_xstrdup("name: r\nbenchmark: ./b {x}\nmatrix: {x: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}\n"
				"pairs: 8\naccept:\n"), *with, *next;
	double level = 1 - pow(255.0 / 256.0, 10);
	size_t r, run, rejected = 0, lo = 0, hi = 0;
	uint64_t seed = 0xfa3117;
	struct ab_experiment looser;
	struct ab_analysis g;
	struct fixture f;

	(void)state;
	for (r = 0; r < rows; r++) {
		next = ab_xasprintf("%s  - name: row %zu\n    where: {x: %zu}\n    max_ratio: 1.0\n", yaml, r, r);
		free(yaml);
		yaml = next;
	}
	with = ab_xasprintf("%s  - name: looser\n    max_ratio: 1.1\n", yaml);
	load(&f, yaml);
	if (ab_experiment_parse(&looser, "/tmp/rules.yaml", with, strlen(with)) < 0)
		fail_msg("parse: %s", ab_error_last());
	for (run = 0; run < runs; run++) {
		add_aa(&f, rows, 8, 0.01, &seed);
		analyse(&f);
		rules_only(&g, &f.a, &looser);
		assert_int_equal(f.a.refutations, rows);
		assert_same_outcomes(&f.a, &g, rows);
		rejected += f.a.verdict == AB_REJECTED;
		release_rules_only(&g);
		ab_analysis_release(&f.a);
	}
	/* the 99.9% band: P(X < lo) ≤ 0.0005 and P(X > hi) ≤ 0.0005 */
	while (binom_cdf(lo, runs, level) <= 0.0005)
		lo++;
	for (hi = lo; 1 - binom_cdf(hi, runs, level) > 0.0005; hi++)
		;
	print_message("A/A, 10 rows x 8 pairs, ten max_ratio: 1.0 rules: %zu of %zu runs rejected (%.2f%%; "
		      "designed %.3f%%, 99.9%% band %zu..%zu)\n", rejected, runs,
		      100.0 * (double)rejected / (double)runs, 100 * level, lo, hi);
	assert_true(rejected >= lo && rejected <= hi);
	ab_samples_free(f.s, f.n);
	ab_experiment_release(&f.exp);
	ab_experiment_release(&looser);
	free(yaml);
	free(with);
}

static const char *warning_about(const struct ab_analysis *a, const char *needle);

/* Rows of `pairs` pairs for a sequential fixture (f->s holds them all):
 * row r's pair i has log ratio shift(r, i) + sd * noise, in AB|BA blocks,
 * rows visited round-robin. */
static void add_seq_rows(struct fixture *f, size_t rows, size_t pairs, double sd, double step,
			 uint64_t *seed)
{
	size_t i, r, side;

	f->n = 0;
	for (i = 0; i < pairs; i++)
		for (r = 0; r < rows; r++) {
			/* with a step, the true ratio moves from exp(+step) in the
			 * first quarter of the pairs to exp(-step) after: the looks
			 * then disagree, as on a machine that changed */
			double mu = step == 0 ? 0 : i < pairs / 4 ? step : -step, d = mu + sd * normal(seed);

			for (side = 0; side < 2; side++) {
				struct ab_sample *s = next_sample(f, r, i, side);
				s->metrics[0] = 100e6 * (side ? exp(d) : 1);
				s->wall_ns = (int64_t)s->metrics[0];
			}
		}
}

/*
 * An empty intersection is never decided (docs/statistics.md, "An empty
 * intersection"): replaying the plan 8, 16, 32 (every look exact) over
 * rows whose true ratio changes after the first look, many rows' looks
 * stop agreeing;
 * no such row passes or fails `max_ratio: 1.0`, each runs on to its last
 * look, and the analysis warns about each. Over A/A rows with exchangeable
 * noise the rule's false passes (U < 1) stay within the 99.9% band of the
 * plan's attained level: never deciding on an empty intersection only
 * removes decisions.
 */
static void test_sequential_empty_intersection(void **state)
{
	const size_t rows = 100, pairs = 32, shifted = 5, runs = 20;
	char *yaml = ab_xstrdup("name: r\nbenchmark: ./b {x}\npairs: {min: 8, max: 32}\n"
				"accept:\n  - name: not slower\n    max_ratio: 1.0\nmatrix: {x: ["), *next;
	size_t r, run, empty = 0, empty_aa = 0, passed = 0, total = 0, lo, hi;
	uint64_t seed = 0xe3971;
	struct ab_seq_boundaries b;
	struct fixture f;
	double level;

	(void)state;
	for (r = 0; r < rows; r++) {
		next = ab_xasprintf("%s%s%zu", yaml, r ? ", " : "", r);
		free(yaml);
		yaml = next;
	}
	next = ab_xasprintf("%s]}\n", yaml);
	free(yaml);
	yaml = next;
	memset(&f, 0, sizeof(f));
	if (ab_experiment_parse(&f.exp, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	assert_int_equal(ab_seq_boundaries(&f.exp.seq, &b), 0);
	assert_int_equal(b.exact_looks, 3);
	f.s = ab_xcalloc(rows * pairs * 2, sizeof(*f.s));
	for (run = 0; run < shifted + runs; run++) {
		int aa = run >= shifted;

		add_seq_rows(&f, rows, pairs, aa ? 0.05 : 0.01, aa ? 0 : 0.03, &seed);
		ab_stopping_replay(&f.exp, f.s, f.n);
		analyse(&f);
		for (r = 0; r < rows; r++) {
			const struct ab_row_metric *m = &f.a.rows[r].metrics[0];
			enum ab_outcome o = f.a.rules[0].rows[r].outcome;

			if (m->st.ci_empty) {
				char *label = ab_row_label(&f.exp, r), *want;

				want = ab_xasprintf("%s: the repeated intervals", label);
				assert_true(m->st.ci_lower > m->st.ci_upper);
				assert_int_equal(o, AB_INCONCLUSIVE);
				assert_non_null(strstr(f.a.rules[0].rows[r].detail, "not decided"));
				assert_int_equal(f.a.rows[r].look, 3);
				assert_non_null(warning_about(&f.a, want));
				free(want);
				free(label);
				*(aa ? &empty_aa : &empty) += 1;
			}
			if (aa) {
				passed += o == AB_PASS;
				total++;
			}
		}
		ab_analysis_release(&f.a);
	}
	level = b.alpha;
	for (lo = 0; binom_cdf(lo, total, level) <= 0.0005; lo++)
		;
	for (hi = lo; 1 - binom_cdf(hi, total, level) > 0.0005; hi++)
		;
	print_message("looks 8, 16, 32, max_ratio: 1.0: %zu of %zu rows whose ratio moved after the first look had "
		      "disjoint looks, none decided; A/A: %zu of %zu rows disjoint, %zu passed (%.2f%%; "
		      "attained %.2f%%, 99.9%% band %zu..%zu)\n", empty, shifted * rows, empty_aa, total, passed,
		      100.0 * (double)passed / (double)total, 100 * level, lo, hi);
	assert_true(empty >= shifted * rows / 2);
	assert_true(passed <= hi);
	ab_samples_free(f.s, f.n);
	ab_experiment_release(&f.exp);
	free(yaml);
}

/* Rows of `pairs` pairs whose log ratios are mu + sd * noise, as
 * add_seq_rows lays them out. */
static void add_shift_rows(struct fixture *f, size_t rows, size_t pairs, double sd, double mu, uint64_t *seed)
{
	size_t i, r, side;

	f->n = 0;
	for (i = 0; i < pairs; i++)
		for (r = 0; r < rows; r++) {
			double d = mu + sd * normal(seed);

			for (side = 0; side < 2; side++) {
				struct ab_sample *s = next_sample(f, r, i, side);
				s->metrics[0] = 100e6 * (side ? exp(d) : 1);
				s->wall_ns = (int64_t)s->metrics[0];
			}
		}
}

/* What compare's default decided on rows replayed with log ratios mu +
 * sd * noise: how many rows passed and failed, and their pairs in all. */
struct differs_tally {
	size_t rows, passed, failed, pairs;
};

static void differs_replay(struct fixture *f, size_t rows, double sd, double mu, size_t runs, uint64_t *seed,
			   struct differs_tally *t)
{
	size_t run, r;

	memset(t, 0, sizeof(*t));
	for (run = 0; run < runs; run++) {
		add_shift_rows(f, rows, (size_t)f->exp.pairs, sd, mu, seed);
		ab_stopping_replay(&f->exp, f->s, f->n);
		analyse(f);
		for (r = 0; r < rows; r++) {
			enum ab_outcome o = f->a.rules[0].rows[r].outcome;

			t->passed += o == AB_PASS;
			t->failed += o == AB_FAIL;
			t->pairs += f->a.rows[r].pairs;
			t->rows++;
		}
		ab_analysis_release(&f->a);
	}
}

/*
 * compare's default (issue 35, item 14: `differs` on the plan
 * AB_COMPARE_DEFAULT_MIN_PAIRS .. MAX_PAIRS, predicates.h), replayed as the
 * scheduler runs it (stopping.c; test_schedule.c shows the scheduler
 * stops the same samples): over A/A rows of continuous exchangeable noise
 * (sd 0.05 per pair) it shows a false difference in at most 2α, each of
 * its bounds one-sided at the plan's attained α: the count of rows that
 * pass is within the 99.9% binomial band of 2α (its upper end bounds it;
 * its lower end shows the simulation reaches the level), and no row ever
 * fails; on a true ratio of 0.97 (0.6 sd) it shows the difference in at
 * least 95% of rows using at most half of the 64 pairs on average (the
 * docs' figure: 0.998 and 27.0), and on 2x every row stops at the first
 * look. The sanitizer build runs a tenth of the rows.
 */
static void test_compare_default_rates(void **state)
{
	const char *san = getenv("ABTOOL_SANITIZED");
	const size_t rows = 100, runs = san && !strcmp(san, "1") ? 2 : 20;
	char *yaml = ab_xasprintf("name: r\nbenchmark: ./b {x}\npairs: {min: %d, max: %d}\naccept:\n  - %s\n"
				  "matrix: {x: [", AB_COMPARE_DEFAULT_MIN_PAIRS, AB_COMPARE_DEFAULT_MAX_PAIRS,
				  AB_COMPARE_DEFAULT_RULE), *next;
	struct differs_tally aa, small, large;
	struct ab_seq_boundaries b;
	uint64_t seed = 0xd1ff;
	struct fixture f;
	size_t r, lo, hi;
	double level;

	(void)state;
	for (r = 0; r < rows; r++) {
		next = ab_xasprintf("%s%s%zu", yaml, r ? ", " : "", r);
		free(yaml);
		yaml = next;
	}
	next = ab_xasprintf("%s]}\n", yaml);
	free(yaml);
	yaml = next;
	memset(&f, 0, sizeof(f));
	if (ab_experiment_parse(&f.exp, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	assert_true(f.exp.sequential);
	assert_int_equal(ab_seq_boundaries(&f.exp.seq, &b), 0);
	f.s = ab_xcalloc(rows * (size_t)f.exp.pairs * 2, sizeof(*f.s));

	differs_replay(&f, rows, 0.05, 0, runs, &seed, &aa);
	differs_replay(&f, rows, 0.05, log(0.97), runs, &seed, &small);
	differs_replay(&f, rows, 0.05, log(0.5), 2, &seed, &large);
	level = 2 * b.alpha;
	for (lo = 0; binom_cdf(lo, aa.rows, level) <= 0.0005; lo++)
		;
	for (hi = lo; 1 - binom_cdf(hi, aa.rows, level) > 0.0005; hi++)
		;
	print_message("differs, looks %zu..%zu: A/A %zu of %zu rows passed (%.2f%%; 2 alpha %.2f%%, 99.9%% band "
		      "%zu..%zu), %zu failed; ratio 0.97: power %.3f, %.1f pairs on average; ratio 0.5: %zu of "
		      "%zu rows at %zu pairs\n", f.exp.seq.looks[0], f.exp.seq.looks[f.exp.seq.nlooks - 1],
		      aa.passed, aa.rows, 100.0 * (double)aa.passed / (double)aa.rows, 100 * level, lo, hi,
		      aa.failed, (double)small.passed / (double)small.rows,
		      (double)small.pairs / (double)small.rows, large.passed, large.rows,
		      large.pairs / large.rows);
	assert_true(aa.passed <= hi);
	assert_true(aa.passed >= lo);
	assert_int_equal(aa.failed + small.failed + large.failed, 0);
	assert_true((double)small.passed >= 0.95 * (double)small.rows);
	assert_true(small.pairs <= small.rows * (size_t)AB_COMPARE_DEFAULT_MAX_PAIRS / 2);
	assert_int_equal(large.passed, large.rows);
	assert_int_equal(large.pairs, large.rows * AB_COMPARE_DEFAULT_MIN_PAIRS);
	ab_samples_free(f.s, f.n);
	ab_experiment_release(&f.exp);
	free(yaml);
}

/*
 * The advice on a too wide interval stays within the limits (the third
 * statistics audit, item 10): a 0.1% margin on rows whose repeated
 * interval is a few percent wide needs far more than the 256 pairs a
 * sequential plan allows, so the warning says so and points to a fixed
 * plan instead of "a larger pairs.max, or --max-pairs", both capped at
 * 256; a 3% margin's advice stays the sequential one. When that fixed
 * plan's samples are more than limits.samples allows, the advice says
 * which limit to raise and to what (a merge with the limits of main).
 */
static void test_width_advice_within_limits(void **state)
{
	static const char yaml[] = "name: r\nbenchmark: ./b {x}\npairs: {min: 8, max: 32}\nmatrix: {x: [0]}\n"
				   "accept:\n  - name: tight\n    no_regression: 0.1%\n"
				   "  - name: loose\n    no_regression: 3%\n";
	static const char limited[] = "name: r\nbenchmark: ./b {x}\npairs: {min: 8, max: 32}\nmatrix: {x: [0]}\n"
				      "limits: {samples: 20000}\n"
				      "accept:\n  - name: tight\n    no_regression: 0.1%\n";
	uint64_t seed = 0x10a1;
	struct fixture f;
	const char *w = NULL;

	(void)state;
	memset(&f, 0, sizeof(f));
	if (ab_experiment_parse(&f.exp, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	f.s = ab_xcalloc(64, sizeof(*f.s));
	add_seq_rows(&f, 1, 32, 0.03, 0, &seed);
	ab_analysis_run(&f.a, &f.exp, f.s, f.n);
	ab_rules_evaluate(&f.a, NULL, NULL);
	for (char **p = f.a.rule_warnings; p && *p; p++)
		if (strstr(*p, "'tight'"))
			w = *p;
	assert_non_null(w);
	print_message("%s\n", w ? w : "");
	assert_non_null(strstr(w, "more than the 256 a sequential plan allows"));
	assert_null(strstr(w, "--max-pairs"));
	w = NULL;
	for (char **p = f.a.rule_warnings; p && *p; p++)
		if (strstr(*p, "'loose'"))
			w = *p;
	if (w)
		assert_non_null(strstr(w, "up to 256"));
	assert_null(strstr(w ? w : "", "limits"));
	release(&f);

	/* the fixed plan it points to would pass limits.samples: it says so */
	memset(&f, 0, sizeof(f));
	if (ab_experiment_parse(&f.exp, "/tmp/rules.yaml", limited, strlen(limited)) < 0)
		fail_msg("parse: %s", ab_error_last());
	f.s = ab_xcalloc(64, sizeof(*f.s));
	seed = 0x10a1;
	add_seq_rows(&f, 1, 32, 0.03, 0, &seed);
	ab_analysis_run(&f.a, &f.exp, f.s, f.n);
	ab_rules_evaluate(&f.a, NULL, NULL);
	w = NULL;
	for (char **p = f.a.rule_warnings; p && *p; p++)
		if (strstr(*p, "'tight'"))
			w = *p;
	assert_non_null(w);
	print_message("%s\n", w ? w : "");
	assert_non_null(strstr(w, "more than the 256 a sequential plan allows"));
	assert_non_null(strstr(w, "samples need limits: {samples: "));
	assert_non_null(strstr(w, "(now 20000;"));
	release(&f);
}

/*
 * Item 6: the run-level false-alarm rate of the order-effect warning. A/A
 * runs of 10 rows × 8 pairs in balanced AB|BA blocks, no order effect
 * (normal noise of sd 1%): unadjusted, a row is material about 5% of the
 * time and a run warns about 40% of the time (1 − 0.95^10); with the
 * t-test's p Holm-adjusted over the rows, a run warns at most 5% of the
 * time (asserted against the upper end of the 99.9% band around 5%).
 */
static void test_order_warning_run_rate(void **state)
{
	const size_t rows = 10, runs = 1000;
	size_t run, r, warned = 0, warned_raw = 0, rows_raw = 0;
	uint64_t seed = 0x0de7e1;
	struct fixture f;
	double band;

	(void)state;
	load(&f, "name: r\nbenchmark: ./b {x}\nmatrix: {x: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}\npairs: 8\n");
	for (run = 0; run < runs; run++) {
		int any = 0, any_raw = 0;

		add_aa(&f, rows, 8, 0.01, &seed);
		ab_analysis_run(&f.a, &f.exp, f.s, f.n);
		for (r = 0; r < rows; r++) {
			const struct ab_order_effect *o = &f.a.rows[r].order_effect;
			int raw = fabs(o->effect) >= log(1.005) && o->p < 0.05;

			any |= o->material;
			any_raw |= raw;
			rows_raw += raw;
			assert_true(o->p_adjusted >= o->p);
		}
		warned += any;
		warned_raw += any_raw;
		ab_analysis_release(&f.a);
	}
	band = Z999 * sqrt(0.05 * 0.95 / (double)runs);
	print_message("A/A, 10 rows x 8 pairs: order warning in %.2f%% of runs (Holm over rows); unadjusted "
		      "%.2f%% of rows, %.2f%% of runs\n", 100.0 * (double)warned / (double)runs,
		      100.0 * (double)rows_raw / (double)(runs * rows), 100.0 * (double)warned_raw / (double)runs);
	assert_true((double)warned / (double)runs <= 0.05 + band);
	assert_true((double)warned_raw / (double)runs > 0.3);
	ab_samples_free(f.s, f.n);
	ab_experiment_release(&f.exp);
}

/* Selectors: a rule sees only its rows; every row must pass. */
static void test_selectors_and_intersection(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, HEAD2 "accept:\n  - name: low\n    where: {lanes: [1, 2]}\n    no_regression: 2%\n"
		       "  - name: high\n    where: {lanes: \">=4\"}\n    faster_by: 5%\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 1.0, TIGHT);
	add_row(&f, 2, 0, 0.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rules[0].nrows, 2);
	assert_int_equal(f.a.rules[1].nrows, 1);
	assert_int_equal(f.a.rules[1].rows[0].row, 2);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	assert_int_equal(f.a.rules[1].outcome, AB_PASS);
	assert_int_equal(f.a.verdict, AB_ACCEPTED);
	release(&f);

	/* the low-lane rule with one inconclusive row is inconclusive */
	load(&f, HEAD2 "accept:\n  - name: low\n    where: {lanes: [1, 2]}\n    no_regression: 2%\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 1.0, NOISY);
	add_row(&f, 2, 0, 1.0, NOISY);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	release(&f);
}

/* A higher-is-better metric: a ratio above 1 favours the candidate. */
static void test_higher_is_better(void **state)
{
	const char *metrics = "metrics: {ops: {regex: 'ops=(\\S+)', unit: ops/s, better: higher}}\nmetric: ops\n";
	struct fixture f;
	char *yaml;
	size_t m;

	(void)state;
	yaml = ab_xasprintf(HEAD "%saccept:\n  - name: gain\n    faster_by: 5%%\n  - name: safe\n"
			    "    no_regression: 2%%\n    min_pair_wins: 8\n", metrics);
	load(&f, yaml);
	m = f.exp.nmetrics - 1;
	add_row(&f, 0, m, 1.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rows[0].metrics[m].st.wins, 8);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	assert_int_equal(f.a.rules[1].outcome, AB_PASS);
	assert_non_null(strstr(f.a.rules[0].detail, "above 1.050 (faster by at least 5%)"));
	release(&f);
	load(&f, yaml);
	add_row(&f, 0, m, 0.7, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rows[0].metrics[m].st.wins, 0);
	assert_int_equal(f.a.rules[1].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[1].detail, "below 0.980 = 1/1.02 (a regression above 2%)"));
	assert_int_equal(f.a.verdict, AB_REJECTED);
	release(&f);
	free(yaml);
}

/* Scaling: per side (observational) and the change B vs A (inferential). */
static void test_scaling(void **state)
{
	const char *yaml = "name: s\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1, 4]}\npairs: 8\n"
			   "scaling: {parameter: lanes, work: per_lane}\naccept:\n"
			   "  - name: scales\n    where: {lanes: 4}\n    min_scaling: {candidate: 3.0, parent: 1.5}\n"
			   "  - name: not worse\n    where: {lanes: 4}\n    scaling_not_worse: 5%\n";
	struct fixture f;
	size_t i;

	(void)state;
	/* parent: 4 lanes take 2x as long as 1 lane (scaling 2.0); candidate the
	 * same time as 1 lane (scaling 4.0) */
	load(&f, yaml);
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 0.5, TIGHT);
	for (i = 0; i < f.n; i++)
		if (f.s[i].entry.row == 1) {
			f.s[i].metrics[0] *= 2;
		}
	analyse(&f);
	assert_close(f.a.rows[1].scaling[0], 2.0 * 1.0, 2);
	assert_close(f.a.rows[1].scaling[1], 4.0, 2);
	assert_true(f.a.rows[1].scaling_change.available);
	assert_int_equal(f.a.rows[1].scaling_change.n, 8);
	assert_close(exp(f.a.rows[1].scaling_change.hl.estimate), 2.0, 2);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	assert_int_equal(f.a.rules[1].outcome, AB_PASS);
	release(&f);

	/* candidate scales worse: 4 lanes are 1.3x slower than the parent's */
	load(&f, yaml);
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 1.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[0].detail, "candidate scaling 2.67x below 3.00x (min_scaling, no interval) [fail]"));
	assert_non_null(strstr(f.a.rules[0].detail, "parent scaling 4.00x at least 1.50x (min_scaling, no interval) [pass]"));
	assert_int_equal(f.a.rules[1].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[1].detail, "scaling change: a loss above 5%"));
	release(&f);
	/* inconclusive: the scaling change is noisy around 1 (the interval
	 * contains 1/1.05), and the base row itself has no change to judge */
	load(&f, "name: s\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1, 4]}\npairs: 8\n"
		 "scaling: {parameter: lanes, work: per_lane}\naccept:\n"
		 "  - name: not worse\n    scaling_not_worse: 5%\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 1.0, NOISY);
	analyse(&f);
	assert_true(f.a.rows[1].scaling_change.available);
	assert_false(f.a.rows[0].scaling_change.available);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_int_equal(f.a.rules[0].rows[0].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].rows[0].detail,
			       "scaling_not_worse: no scaling change at the base row (or no aligned pairs): "
			       "inconclusive"));
	assert_int_equal(f.a.rules[0].rows[1].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].rows[1].detail, "cannot exclude a scaling loss above 5% "
			       "(the interval contains 0.952 = 1/1.05): inconclusive"));
	release(&f);

	/* min_scaling inconclusive: the base row was never measured, so no
	 * side has a scaling at lanes=4 */
	load(&f, yaml);
	add_row(&f, 1, 0, 0.5, TIGHT);
	analyse(&f);
	assert_true(isnan(f.a.rows[1].scaling[1]));
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].detail, "parent scaling unavailable, candidate scaling "
			       "unavailable: inconclusive"));
	assert_int_equal(f.a.rules[1].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[1].detail, "scaling_not_worse: no scaling change"));
	release(&f);

	/* a rule on another metric than the experiment's: scaling is measured
	 * on the experiment's metric only, so its scaling predicates decide
	 * nothing (they passed on the experiment's metric in the first case) */
	load(&f, "name: s\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1, 4]}\npairs: 8\n"
		 "scaling: {parameter: lanes, work: per_lane}\naccept:\n"
		 "  - {name: scales, where: {lanes: 4}, metric: user_ns, min_scaling: {candidate: 3.0}}\n"
		 "  - {name: not worse, where: {lanes: 4}, metric: user_ns, scaling_not_worse: 5%}\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	add_row(&f, 1, 0, 0.5, TIGHT);
	analyse(&f);
	assert_true(f.a.rows[1].scaling_change.available);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].detail, "scaling unavailable: it is measured on the experiment's "
			       "metric only, not on this rule's"));
	assert_int_equal(f.a.rules[1].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[1].detail, "scaling is measured on the experiment's metric only, not "
			       "on this rule's"));
	release(&f);
}

/* max_ci_width passes when the interval is narrower than the gate, with a
 * predicate (the gate adds no finding) and alone ("within the gates"). */
static void test_max_ci_width_pass(void **state)
{
	char *d;

	(void)state;
	assert_int_equal(one("    faster_by: 5%\n    max_ci_width: 5%\n", 0, 0.8, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, "below 0.952 = 1/1.05 (faster by at least 5%): pass"));
	assert_null(strstr(d, "max_ci_width"));
	free(d);
	assert_int_equal(one("    max_ci_width: 5%\n", 0, 1.0, TIGHT, &d), AB_PASS);
	assert_non_null(strstr(d, ": dispersion within the gates: pass"));
	free(d);
	/* the same gate on a wide interval: inconclusive alone too */
	assert_int_equal(one("    max_ci_width: 5%\n", 0, 1.0, NOISY, &d), AB_INCONCLUSIVE);
	assert_non_null(strstr(d, "above max_ci_width 5%: inconclusive"));
	free(d);
}

/* max_flagged_samples: pass within it, a pass turned inconclusive beyond
 * it, and a fail that stays a fail (a gate never hides one). */
static void test_max_flagged_samples(void **state)
{
	struct fixture f;
	size_t i;

	(void)state;
	/* alone, no flagged sample: pass */
	load(&f, HEAD "accept:\n  - name: r\n    max_flagged_samples: 0\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rows[0].flagged, 0);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	assert_non_null(strstr(f.a.rules[0].detail, ": no more flagged samples than allowed: pass"));
	release(&f);

	/* a clear gain, but two contended samples with one allowed */
	load(&f, HEAD "accept:\n  - name: r\n    faster_by: 5%\n    max_flagged_samples: 1\n");
	add_row(&f, 0, 0, 0.5, TIGHT);
	f.s[2].flags |= AB_FLAG_CONTENDED;
	f.s[9].flags |= AB_FLAG_CONTENDED;
	analyse(&f);
	assert_int_equal(f.a.rows[0].flagged, 2);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	/* the worst finding first: what kept the row from passing leads */
	assert_non_null(strstr(f.a.rules[0].detail, "(8/8 pair wins): 2 flagged sample(s), more than "
				"max_flagged_samples 1 [inconclusive], upper bound "));
	assert_non_null(strstr(f.a.rules[0].detail, "(faster by at least 5%) [pass]: inconclusive"));
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	release(&f);

	/* one flagged sample with one allowed: the pass stands */
	load(&f, HEAD "accept:\n  - name: r\n    faster_by: 5%\n    max_flagged_samples: 1\n");
	add_row(&f, 0, 0, 0.5, TIGHT);
	f.s[2].flags |= AB_FLAG_CONTENDED;
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	assert_null(strstr(f.a.rules[0].detail, "flagged"));
	release(&f);

	/* a refuted gain with every sample flagged: still a fail */
	load(&f, HEAD "accept:\n  - name: r\n    faster_by: 5%\n    max_flagged_samples: 0\n");
	add_row(&f, 0, 0, 1.0, TIGHT);
	for (i = 0; i < f.n; i++)
		f.s[i].flags |= AB_FLAG_CONTENDED;
	analyse(&f);
	assert_int_equal(f.a.rows[0].flagged, 16);
	assert_int_equal(f.a.rules[0].outcome, AB_FAIL);
	assert_non_null(strstr(f.a.rules[0].detail, "(a gain below 5%) [fail], 16 flagged sample(s), more "
				"than max_flagged_samples 0 [inconclusive]: fail"));
	assert_int_equal(f.a.verdict, AB_REJECTED);
	release(&f);
}

static void test_too_few_pairs(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, "name: r\nbenchmark: ./b\npairs: 4\naccept:\n  - name: r\n    no_regression: 2%\n");
	add_row(&f, 0, 0, 0.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_non_null(strstr(f.a.rules[0].detail, "too few for a one-sided 95% bound"));
	assert_non_null(f.a.warnings);
	release(&f);
}

/* The analysis warning that mentions `needle`; fails the test if none. */
static const char *warning_about(const struct ab_analysis *a, const char *needle)
{
	char **w;

	for (w = a->warnings; w && *w; w++)
		if (strstr(*w, needle))
			return *w;
	fail_msg("no warning mentions '%s'", needle);
	return "";
}

/* Integrity: invalid beats everything; may_change and allow_failed_pairs relax it. */
static void test_integrity(void **state)
{
	const char *gate = HEAD "accept:\n  - name: r\n    faster_by: 5%\n";
	struct fixture f;
	char *yaml;
	size_t i;

	(void)state;
	/* checksum mismatch on a clearly faster candidate: invalid, not accepted */
	load(&f, gate);
	add_row(&f, 0, 0, 0.5, TIGHT);
	free(f.s[3].checksum);
	f.s[3].checksum = ab_xstrdup("43");
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	assert_non_null(strstr(f.a.reasons[0], "checksum mismatch"));
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	release(&f);

	/* may_change: the sides may differ but each must agree with itself */
	yaml = ab_xasprintf("%s    checksum: may_change\n", gate);
	load(&f, yaml);
	add_row(&f, 0, 0, 0.5, TIGHT);
	for (i = 0; i < f.n; i++)
		if (f.s[i].entry.side) {
			free(f.s[i].checksum);
			f.s[i].checksum = ab_xstrdup("43");
		}
	analyse(&f);
	if (f.a.verdict != AB_ACCEPTED)
		print_message("%s\n", f.a.reasons ? f.a.reasons[0] : "");
	assert_int_equal(f.a.verdict, AB_ACCEPTED);
	assert_int_equal(f.a.rows[0].checksum_match, 0);
	free(f.s[1].checksum);
	f.s[1].checksum = ab_xstrdup("44");
	ab_analysis_release(&f.a);
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	assert_non_null(strstr(f.a.reasons[0], "checksum mismatch within a side"));
	release(&f);
	free(yaml);

	/* a crashed sample: invalid */
	load(&f, gate);
	add_row(&f, 0, 0, 0.5, TIGHT);
	f.s[5].exit_code = -1;
	f.s[5].signal = 11;
	f.s[5].error = ab_xstrdup("killed by SIGSEGV");
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	assert_non_null(strstr(f.a.reasons[0], "killed by SIGSEGV"));
	release(&f);

	/* a timed-out candidate sample with allow_failed_pairs: a loss, not
	 * invalid. One infinite loss puts n Walsh averages at infinity: 8 pairs
	 * leave U unbounded (inconclusive), 16 pairs absorb it. */
	yaml = ab_xasprintf("name: r\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1]}\npairs: 8\naccept:\n"
			    "  - name: r\n    faster_by: 5%%\n    allow_failed_pairs: 1\n");
	load(&f, yaml);
	add_row(&f, 0, 0, 0.5, TIGHT);
	f.s[3].timed_out = 1;
	f.s[3].exit_code = -1;
	f.s[3].error = ab_xstrdup("timed out after 60 s");
	analyse(&f);
	assert_int_equal(f.a.rows[0].failed_pairs, 1);
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	release(&f);
	free(yaml);
	yaml = ab_xasprintf("name: r\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1]}\npairs: 16\naccept:\n"
			    "  - name: r\n    faster_by: 5%%\n    allow_failed_pairs: 1\n");
	load(&f, yaml);
	add_row(&f, 0, 0, 0.5, TIGHT);
	f.s[3].timed_out = 1;
	f.s[3].exit_code = -1;
	f.s[3].signal = 9;
	f.s[3].error = ab_xstrdup("timed out after 60 s");
	analyse(&f);
	assert_int_equal(f.a.rows[0].failed_pairs, 1);
	assert_int_equal(f.a.rows[0].pairs, 16);
	assert_int_equal(f.a.rows[0].metrics[0].st.wins, 15);
	assert_int_equal(f.a.verdict, AB_ACCEPTED);
	assert_int_equal(f.a.rows[0].timeout_losses[AB_CANDIDATE], 1);
	assert_int_equal(f.a.rows[0].timeout_ties, 0);
	assert_string_equal(warning_about(&f.a, "allow_failed_pairs"), "lanes=1: allow_failed_pairs tolerated 1 pair(s) with a timed-out "
			    "sample, none dropped: 1 where only the candidate timed out (its worst value: a loss for it)");
	/* a timeout in a second pair exceeds the allowance: invalid */
	f.s[7].timed_out = 1;
	f.s[7].exit_code = -1;
	f.s[7].error = ab_xstrdup("timed out after 60 s");
	ab_analysis_release(&f.a);
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	assert_non_null(strstr(f.a.reasons[0], "lanes=1: 1 failed sample(s), first: candidate sample 7 (pair 4): "
			       "timed out after 60 s"));
	release(&f);

	/* Both sides of one pair time out: allow_failed_pairs counts pairs, so
	 * one allowed pair tolerates it; the pair is kept as a tie (d = 0),
	 * neither dropped nor a loss for either side. */
	load(&f, yaml);
	add_row(&f, 0, 0, 0.5, TIGHT);
	for (i = 2; i <= 3; i++) {
		f.s[i].timed_out = 1;
		f.s[i].exit_code = -1;
		f.s[i].signal = 9;
		f.s[i].error = ab_xstrdup("timed out after 60 s");
	}
	analyse(&f);
	assert_int_equal(f.a.rows[0].failed, 0);
	assert_int_equal(f.a.rows[0].failed_pairs, 1);
	assert_int_equal(f.a.rows[0].timeout_ties, 1);
	assert_int_equal(f.a.rows[0].timeout_losses[AB_PARENT] + f.a.rows[0].timeout_losses[AB_CANDIDATE], 0);
	assert_int_equal(f.a.rows[0].pairs, 16);
	assert_int_equal(f.a.rows[0].metrics[0].st.pairs, 16);
	assert_int_equal(f.a.rows[0].metrics[0].st.ties, 1);
	assert_int_equal(f.a.rows[0].metrics[0].st.wins, 15);
	assert_true(f.a.rows[0].metrics[0].d[1] == 0);
	assert_int_equal(f.a.rows[0].metrics[0].st.signed_rank.nonzero, 15);
	assert_int_equal(f.a.verdict, AB_ACCEPTED);
	assert_string_equal(warning_about(&f.a, "allow_failed_pairs"), "lanes=1: allow_failed_pairs tolerated 1 pair(s) with a timed-out "
			    "sample, none dropped: 1 where both sides timed out (both worst: a tie, d = 0)");
	/* a parent timeout in another pair is a second failed pair: invalid */
	f.s[10].timed_out = 1;
	f.s[10].exit_code = -1;
	f.s[10].error = ab_xstrdup("timed out after 60 s");
	ab_analysis_release(&f.a);
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	release(&f);
	free(yaml);

	/* allow_failed_pairs: 2 with a both-sides pair and a parent timeout */
	yaml = ab_xasprintf("name: r\nbenchmark: ./b {lanes}\nmatrix: {lanes: [1]}\npairs: 16\naccept:\n"
			    "  - name: r\n    faster_by: 5%%\n    allow_failed_pairs: 2\n");
	load(&f, yaml);
	add_row(&f, 0, 0, 0.5, TIGHT);
	for (i = 2; i <= 4; i += 1) {
		if (i == 3)
			continue;
		f.s[i].timed_out = 1;
		f.s[i].exit_code = -1;
		f.s[i].error = ab_xstrdup("timed out after 60 s");
	}
	f.s[3].timed_out = 1;
	f.s[3].exit_code = -1;
	f.s[3].error = ab_xstrdup("timed out after 60 s");
	analyse(&f);
	assert_int_equal(f.a.rows[0].failed_pairs, 2);
	assert_int_equal(f.a.rows[0].timeout_ties, 1);
	assert_int_equal(f.a.rows[0].timeout_losses[AB_PARENT], 1);
	assert_int_equal(f.a.rows[0].metrics[0].st.wins, 15);  /* the parent's timeout is a candidate win */
	assert_string_equal(warning_about(&f.a, "allow_failed_pairs"), "lanes=1: allow_failed_pairs tolerated 2 pair(s) with a timed-out "
			    "sample, none dropped: 1 where only the parent timed out (its worst value: a loss for it), "
			    "1 where both sides timed out (both worst: a tie, d = 0)");
	release(&f);
	free(yaml);
}

/* invalid > rejected > inconclusive > accepted */
static void test_verdict_precedence(void **state)
{
	const char *two = HEAD "accept:\n  - name: a\n    no_regression: 2%\n  - name: b\n    faster_by: 5%\n";
	struct fixture f;

	(void)state;
	load(&f, two);
	add_row(&f, 0, 0, 0.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_ACCEPTED);
	assert_null(f.a.reasons);
	release(&f);

	load(&f, two);
	add_row(&f, 0, 0, 1.0, NOISY);  /* a: inconclusive, b: inconclusive */
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	assert_int_equal(ab_strv_len(f.a.reasons), 2);
	release(&f);

	load(&f, two);
	add_row(&f, 0, 0, 1.0, TIGHT);  /* a: pass, b: fail */
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_REJECTED);
	assert_int_equal(ab_strv_len(f.a.reasons), 1);
	assert_non_null(strstr(f.a.reasons[0], "b: "));
	release(&f);

	load(&f, two);
	add_row(&f, 0, 0, 1.0, TIGHT);
	free(f.s[0].checksum);
	f.s[0].checksum = ab_xstrdup("x");
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INVALID);
	release(&f);

	/* no rules: inconclusive, said so */
	load(&f, HEAD);
	add_row(&f, 0, 0, 0.5, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.verdict, AB_INCONCLUSIVE_VERDICT);
	assert_non_null(strstr(f.a.reasons[0], "no acceptance rules"));
	release(&f);
}

/* The CPU seconds of the analysis of a rule over `nrows` rows of 6 pairs
 * each; checks the outcome on the way. */
static double analyse_many_rows(size_t nrows)
{
	size_t r, i, m, side, n = 0, len = 0;
	char *yaml = ab_xmalloc(nrows * 8 + 256), last[32];
	struct ab_experiment e;
	struct ab_analysis a;
	struct ab_sample *s;
	clock_t t0;
	double cpu_s;

	len += (size_t)sprintf(yaml, "name: r\nbenchmark: ./b {x}\npairs: 6\nmatrix: {x: [");
	for (r = 0; r < nrows; r++)
		len += (size_t)sprintf(yaml + len, "%s%zu", r ? ", " : "", r);
	sprintf(yaml + len, "]}\naccept:\n  - name: gain\n    faster_by: 5%%\n");
	if (ab_experiment_parse(&e, "/tmp/rules.yaml", yaml, strlen(yaml)) < 0)
		fail_msg("parse: %s", ab_error_last());
	s = ab_xcalloc(nrows * 12, sizeof(*s));
	for (i = 0; i < 6; i++)  /* round-robin, as a plan visits rows */
		for (r = 0; r < nrows; r++)
			for (side = 0; side < 2; side++, n++) {
				s[n].entry.seq = (uint32_t)n;
				s[n].entry.row = (uint32_t)r;
				s[n].entry.pair = (int32_t)i;
				s[n].entry.warmup = -1;
				s[n].entry.side = (uint8_t)side;
				s[n].entry.order = (uint8_t)(i & 1);
				s[n].status = AB_SAMPLE_DONE;
				s[n].nmetrics = e.nmetrics;
				s[n].metrics = ab_xmalloc(e.nmetrics * sizeof(double));
				for (m = 0; m < e.nmetrics; m++)
					s[n].metrics[m] = 100e6 * exp(side ? TIGHT[i] : 0);
			}
	t0 = clock();
	ab_analysis_run(&a, &e, s, n);
	ab_rules_evaluate(&a, NULL, NULL);
	cpu_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(a.nrows, nrows);
	assert_int_equal(a.rules[0].nrows, nrows);
	assert_int_equal(a.rules[0].outcome, AB_INCONCLUSIVE);
	assert_int_equal(a.verdict, AB_INCONCLUSIVE_VERDICT);
	/* every row is inconclusive, so the detail names all of them */
	snprintf(last, sizeof(last), "x=%zu: ratio", nrows - 1);
	assert_non_null(strstr(a.rules[0].detail, last));
	assert_true(!strncmp(a.rules[0].detail, "x=0: ratio", 10));
	ab_analysis_release(&a);
	ab_samples_free(s, n);
	ab_experiment_release(&e);
	free(yaml);
	return cpu_s;
}

/* A rule over many rows (`abtool analyze` makes a row of every distinct
 * parameter value): each row used to scan every sample of the run, and
 * the rule's detail was joined one row at a time, both O(rows^2): 15,000
 * rows took 13 s of CPU without the first fix and 5.6 s without the
 * second. The test compares 10 times the rows with itself, on the same
 * machine in the same process, instead of asserting a time: linear work
 * takes about 10 times as long, quadratic work 100 times; the bound of
 * 40 leaves room for noise and caches. */
static void test_many_rows_linear(void **state)
{
	double small, large;

	(void)state;
	small = analyse_many_rows(1500);
	large = analyse_many_rows(15000);
	/* (a clock tick is 1 ms; under 10 ms the ratio says nothing) */
	if (small > 0.01 && large / small > 40)
		fail_msg("10x the rows took %.0fx the CPU (%.2f s against %.2f s): not linear",
			 large / small, large, small);
}

/* max_flagged_samples counts only the samples that enter the statistics:
 * a contended warmup cannot withhold a verdict, a contended pair can. */
static void test_flagged_excludes_warmups(void **state)
{
	struct fixture f;
	struct ab_sample *w;
	int side;

	(void)state;
	load(&f, HEAD "warmup: 1\naccept:\n  - name: r\n    faster_by: 5%\n    max_flagged_samples: 0\n");
	for (side = 0; side < 2; side++) {
		w = &f.s[f.n];
		w->entry.seq = (uint32_t)f.n++;
		w->entry.pair = -1;
		w->entry.warmup = 0;
		w->entry.side = (uint8_t)side;
		w->status = AB_SAMPLE_DONE;
		w->nmetrics = f.exp.nmetrics;
		w->metrics = ab_xcalloc(w->nmetrics, sizeof(double));
		w->metrics[0] = 100e6;
		w->wall_ns = 100000000;
		w->checksum = ab_xstrdup("42");
		w->flags = AB_FLAG_CONTENDED;
	}
	add_row(&f, 0, 0, 0.8, TIGHT);
	analyse(&f);
	assert_int_equal(f.a.rows[0].flagged, 0);
	assert_int_equal(f.a.rules[0].outcome, AB_PASS);
	ab_analysis_release(&f.a);
	f.s[5].flags = AB_FLAG_CONTENDED;  /* a sample of pair 2 */
	analyse(&f);
	assert_int_equal(f.a.rows[0].flagged, 1);
	assert_int_equal(f.a.rules[0].outcome, AB_INCONCLUSIVE);
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_empty_intersection),
		cmocka_unit_test(test_compare_default_rates),
		cmocka_unit_test(test_width_advice_within_limits),
		cmocka_unit_test(test_no_regression),
		cmocka_unit_test(test_faster_by),
		cmocka_unit_test(test_slower_by),
		cmocka_unit_test(test_ratio_bounds),
		cmocka_unit_test(test_ratio_estimates),
		cmocka_unit_test(test_pair_wins),
		cmocka_unit_test(test_dispersion),
		cmocka_unit_test(test_combination),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_family_across_rules),
		cmocka_unit_test(test_family_looser_rule),
		cmocka_unit_test(test_family_aa_rate),
		cmocka_unit_test(test_order_warning_run_rate),
		cmocka_unit_test(test_cpu_ns_suggestion),
		cmocka_unit_test(test_selectors_and_intersection),
		cmocka_unit_test(test_higher_is_better),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_max_ci_width_pass),
		cmocka_unit_test(test_max_flagged_samples),
		cmocka_unit_test(test_too_few_pairs),
		cmocka_unit_test(test_integrity),
		cmocka_unit_test(test_verdict_precedence),
		cmocka_unit_test(test_many_rows_linear),
		cmocka_unit_test(test_flagged_excludes_warmups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
