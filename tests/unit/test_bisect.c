/* test_bisect.c - the search of abtool bisect (bisect.c) against a truth
 * model: the cumulative log change after each commit of a path, decided
 * exactly (no noise) against the threshold, with commits that cannot be
 * measured. Every culprit position of paths of 2 to 40 commits; skips;
 * spreads; an undecided step; the comparison bound; the judge on a
 * synthetic analysis; the whole search with every step a real run through
 * the scheduler, store, analysis and judge, its samples from the scripted
 * sample source (scripted.h). */
#include "testutil.h"
#include "scripted.h"
#include "bisect.h"
#include "error.h"
#include "util.h"
#include "experiment.h"
#include "sequential.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The truth: commit i adds step[i] to the log change; broken[i] cannot be
 * measured. A comparison of a..b reaches when the change over (a, b] is
 * at least theta, is below when it is less, and is undecided when it is
 * within `fuzz` of theta. */
struct truth {
	size_t n;
	double step[64];
	int broken[64];
	double theta, fuzz;
};

static enum ab_bisect_decision decide(const struct truth *t, const struct ab_bisect_cmp *c,
				      int *direction)
{
	double x = 0;
	size_t i;

	if (t->broken[c->candidate])
		return AB_BISECT_SKIP_CANDIDATE;
	if (t->broken[c->parent])
		return AB_BISECT_SKIP_PARENT;
	for (i = c->parent + 1; i <= c->candidate; i++)
		x += t->step[i];
	*direction = x < 0 ? -1 : 1;
	if (fabs(fabs(x) - t->theta) < t->fuzz)
		return AB_BISECT_UNDECIDED;
	return fabs(x) >= t->theta ? AB_BISECT_REACHES : AB_BISECT_BELOW;
}

/* Run the search over `t`; returns the outcome, the comparisons in *k. */
static enum ab_bisect_outcome search(const struct truth *t, struct ab_bisect *b, size_t *k)
{
	struct ab_bisect_cmp c;
	int direction = 0;

	ab_bisect_init(b, t->n);
	*k = 0;
	while (ab_bisect_next(b, &c)) {
		enum ab_bisect_decision d = decide(t, &c, &direction);
		assert_true(c.parent < c.candidate);
		assert_true(c.candidate < t->n);
		ab_bisect_record(b, d, direction);
		(*k)++;
		assert_true(*k <= 4 * t->n + 4);
	}
	return b->outcome;
}

static void test_every_culprit(void **state)
{
	struct truth t;
	struct ab_bisect b;
	size_t n, at, k;

	(void)state;
	for (n = 2; n <= 40; n++) {
		for (at = 1; at < n; at++) {
			memset(&t, 0, sizeof(t));
			t.n = n;
			t.theta = 0.1;
			t.step[at] = at % 2 ? 0.3 : -0.3;  /* slower or faster */
			assert_int_equal(search(&t, &b, &k), AB_BISECT_CULPRIT);
			assert_int_equal(b.hi, at);
			assert_int_equal(b.lo, at - 1);
			assert_int_equal(b.direction, at % 2 ? 1 : -1);
			assert_true(k <= ab_bisect_max_comparisons(n));
			ab_bisect_release(&b);
		}
	}
	/* the bound: 12 commits, at most 2 ceil(log2 12) + 2 */
	assert_int_equal(ab_bisect_max_comparisons(12), 10);
	assert_int_equal(ab_bisect_max_comparisons(2), 2);
}

static void test_skips(void **state)
{
	struct truth t;
	struct ab_bisect b;
	size_t k;

	(void)state;
	/* 12 commits (0 good .. 11 bad), 6 broken, 7 slow: 7 named, 6 skipped */
	memset(&t, 0, sizeof(t));
	t.n = 12;
	t.theta = 0.1;
	t.step[7] = 0.4;
	t.broken[6] = 1;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_CULPRIT);
	assert_int_equal(b.hi, 7);
	assert_int_equal(b.lo, 5);
	assert_true(b.skipped[6]);
	ab_bisect_release(&b);
	/* every commit between broken: the range's end is the culprit, its parent the good end */
	memset(&t, 0, sizeof(t));
	t.n = 6;
	t.theta = 0.1;
	t.step[5] = 0.4;
	t.broken[1] = t.broken[2] = t.broken[3] = t.broken[4] = 1;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_CULPRIT);
	assert_int_equal(b.lo, 0);
	assert_int_equal(b.hi, 5);
	ab_bisect_release(&b);
	/* a broken endpoint: invalid */
	t.broken[0] = 1;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_INVALID);
	ab_bisect_release(&b);
}

static void test_spread_and_ends(void **state)
{
	struct truth t;
	struct ab_bisect b;
	size_t k;

	(void)state;
	/* three commits of 0.3 each, theta 0.75: each half below, a spread over 6..8 */
	memset(&t, 0, sizeof(t));
	t.n = 12;
	t.theta = 0.75;
	t.step[6] = t.step[7] = t.step[8] = 0.3;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_SPREAD);
	assert_true(b.lo <= 5 && b.hi >= 8);
	ab_bisect_release(&b);
	/* no change between the endpoints */
	memset(&t, 0, sizeof(t));
	t.n = 12;
	t.theta = 0.1;
	t.step[4] = 0.05;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_NO_CHANGE);
	assert_int_equal(k, 1);
	ab_bisect_release(&b);
	/* a step that stays undecided ends with the range, never a guess */
	memset(&t, 0, sizeof(t));
	t.n = 12;
	t.theta = 0.3;
	t.fuzz = 0.05;
	t.step[3] = 0.29;
	t.step[9] = 0.2;
	assert_int_equal(search(&t, &b, &k), AB_BISECT_INCONCLUSIVE);
	assert_true(b.lo < 3 && b.hi >= 9);
	ab_bisect_release(&b);
}

/* A synthetic analysis of one row whose log ratios are `d`. */
static void judge_one(struct ab_bisect_judgement *j, double *d, size_t n, int direction)
{
	struct ab_experiment exp;
	struct ab_analysis a;
	struct ab_row_result row;
	struct ab_row_metric m;

	memset(&exp, 0, sizeof(exp));
	memset(&a, 0, sizeof(a));
	memset(&row, 0, sizeof(row));
	memset(&m, 0, sizeof(m));
	m.available = 1;
	m.d = d;
	row.pairs = n;
	row.samples = 2 * n;
	row.metrics = &m;
	a.exp = &exp;
	a.rows = &row;
	a.nrows = 1;
	a.verdict = AB_ACCEPTED;
	ab_bisect_judge(j, &a, 0, 0.1, direction, 0.005, -1);
}

static void test_judge(void **state)
{
	double up[10], flat[10], near[10];
	struct ab_bisect_judgement j;
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++) {
		up[i] = log(2.0) + 0.01 * ((double)i - 4.5);
		flat[i] = 0.01 * ((double)i - 4.5);
		near[i] = log(1.1) + 0.05 * ((double)i - 4.5);
	}
	judge_one(&j, up, 10, 0);
	assert_int_equal(j.decision, AB_BISECT_REACHES);
	assert_int_equal(j.direction, 1);
	assert_true(j.ratio > 1.9 && j.ratio < 2.1);
	judge_one(&j, up, 10, -1);
	assert_int_equal(j.decision, AB_BISECT_BELOW);
	judge_one(&j, flat, 10, 1);
	assert_int_equal(j.decision, AB_BISECT_BELOW);
	judge_one(&j, flat, 10, 0);
	assert_int_equal(j.decision, AB_BISECT_BELOW);
	judge_one(&j, near, 10, 1);
	assert_int_equal(j.decision, AB_BISECT_UNDECIDED);
	judge_one(&j, up, 3, 1);  /* too few pairs for a bound at 0.005 */
	assert_int_equal(j.decision, AB_BISECT_UNDECIDED);
	assert_string_equal(ab_bisect_decision_name(AB_BISECT_SKIP_CANDIDATE), "skip-candidate");
	assert_int_equal(ab_bisect_decision_parse("below"), AB_BISECT_BELOW);
	assert_int_equal(ab_bisect_decision_parse("nonsense"), -1);
}

/* Drive a fresh search over 8 commits to `phase`: ENDPOINTS at once;
 * LEFT after the endpoints reach; RIGHT after a LEFT below; CONFIRM over
 * 2 commits after the endpoints reach. */
static void reach_phase(struct ab_bisect *b, enum ab_bisect_role phase)
{
	ab_bisect_init(b, phase == AB_BISECT_CONFIRM ? 2 : 8);
	if (phase != AB_BISECT_ENDPOINTS)
		ab_bisect_record(b, AB_BISECT_REACHES, +1);
	if (phase == AB_BISECT_RIGHT)
		ab_bisect_record(b, AB_BISECT_BELOW, +1);
	assert_int_equal(b->phase, phase);
	assert_int_equal(b->outcome, AB_BISECT_RUNNING);
}

/* Every decision in every phase: where the search goes, how it ends and
 * that an ended search always says why (but a culprit), exhaustively. */
static void test_every_transition(void **state)
{
	static const struct {
		enum ab_bisect_role phase;
		enum ab_bisect_decision d;
		enum ab_bisect_outcome outcome;  /* RUNNING: goes on */
		const char *why;                 /* a word of its reason */
	} t[] = {
		{ AB_BISECT_ENDPOINTS, AB_BISECT_REACHES, AB_BISECT_RUNNING, NULL },
		{ AB_BISECT_ENDPOINTS, AB_BISECT_BELOW, AB_BISECT_NO_CHANGE, "less than the threshold" },
		{ AB_BISECT_ENDPOINTS, AB_BISECT_UNDECIDED, AB_BISECT_INCONCLUSIVE, "stayed undecided" },
		{ AB_BISECT_ENDPOINTS, AB_BISECT_SKIP_PARENT, AB_BISECT_INVALID, "good endpoint" },
		{ AB_BISECT_ENDPOINTS, AB_BISECT_SKIP_CANDIDATE, AB_BISECT_INVALID, "bad endpoint" },
		{ AB_BISECT_LEFT, AB_BISECT_REACHES, AB_BISECT_RUNNING, NULL },
		{ AB_BISECT_LEFT, AB_BISECT_BELOW, AB_BISECT_RUNNING, NULL },
		{ AB_BISECT_LEFT, AB_BISECT_SKIP_CANDIDATE, AB_BISECT_RUNNING, NULL },
		{ AB_BISECT_LEFT, AB_BISECT_UNDECIDED, AB_BISECT_INCONCLUSIVE, "stayed undecided" },
		{ AB_BISECT_LEFT, AB_BISECT_SKIP_PARENT, AB_BISECT_INCONCLUSIVE, "low end" },
		{ AB_BISECT_RIGHT, AB_BISECT_REACHES, AB_BISECT_RUNNING, NULL },
		{ AB_BISECT_RIGHT, AB_BISECT_BELOW, AB_BISECT_SPREAD, "spread" },
		{ AB_BISECT_RIGHT, AB_BISECT_UNDECIDED, AB_BISECT_INCONCLUSIVE, "stayed undecided" },
		{ AB_BISECT_RIGHT, AB_BISECT_SKIP_PARENT, AB_BISECT_INCONCLUSIVE, "midpoint" },
		{ AB_BISECT_RIGHT, AB_BISECT_SKIP_CANDIDATE, AB_BISECT_INCONCLUSIVE, "midpoint" },
		{ AB_BISECT_CONFIRM, AB_BISECT_REACHES, AB_BISECT_CULPRIT, NULL },
		{ AB_BISECT_CONFIRM, AB_BISECT_BELOW, AB_BISECT_INCONCLUSIVE, "did not reproduce" },
		{ AB_BISECT_CONFIRM, AB_BISECT_UNDECIDED, AB_BISECT_INCONCLUSIVE, "stayed undecided" },
		{ AB_BISECT_CONFIRM, AB_BISECT_SKIP_PARENT, AB_BISECT_INCONCLUSIVE, "could not be measured" },
		{ AB_BISECT_CONFIRM, AB_BISECT_SKIP_CANDIDATE, AB_BISECT_INCONCLUSIVE, "could not be measured" },
	};
	struct ab_bisect b;
	struct ab_bisect_cmp c;
	size_t i, before;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		reach_phase(&b, t[i].phase);
		before = b.comparisons;
		ab_bisect_record(&b, t[i].d, +1);
		assert_int_equal(b.comparisons, before + 1);
		assert_int_equal(b.outcome, t[i].outcome);
		if (t[i].outcome == AB_BISECT_RUNNING) {
			assert_int_equal(ab_bisect_next(&b, &c), 1);
			assert_true(c.parent < c.candidate && c.candidate < b.n);
			assert_null(b.why);
		} else {
			assert_int_equal(ab_bisect_next(&b, &c), 0);
			if (t[i].why)
				assert_non_null(strstr(b.why, t[i].why));
			else
				assert_null(b.why);
		}
		ab_bisect_release(&b);
	}
	/* a LEFT skip marks the midpoint and tries another one */
	reach_phase(&b, AB_BISECT_LEFT);
	i = b.mid;
	ab_bisect_record(&b, AB_BISECT_SKIP_CANDIDATE, +1);
	assert_int_equal(b.skipped[i], 1);
	assert_true(b.mid != i);
	ab_bisect_release(&b);
	/* the names of roles and outcomes, as stored */
	assert_string_equal(ab_bisect_role_name(AB_BISECT_ENDPOINTS), "endpoints");
	assert_string_equal(ab_bisect_role_name(AB_BISECT_CONFIRM), "confirm");
	assert_string_equal(ab_bisect_outcome_name(AB_BISECT_CULPRIT), "culprit");
	assert_string_equal(ab_bisect_outcome_name(AB_BISECT_NO_CHANGE), "no-change");
}

/* The judgement's edges: an invalid comparison skips the side that
 * failed; a row without samples is not judged; a row whose metric is
 * unavailable leaves it undecided; a change down alone is found both ways. */
static void test_judge_edges(void **state)
{
	struct ab_experiment exp;
	struct ab_analysis a;
	struct ab_row_result rows[2];
	struct ab_row_metric m[2];
	struct ab_bisect_judgement j;
	double down[10];
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++)
		down[i] = -0.5 - 0.01 * (double)i;
	memset(&exp, 0, sizeof(exp));
	memset(&a, 0, sizeof(a));
	memset(rows, 0, sizeof(rows));
	memset(m, 0, sizeof(m));
	a.exp = &exp;
	a.rows = rows;
	a.nrows = 2;
	a.verdict = AB_INVALID;
	ab_bisect_judge(&j, &a, 0, 0.1, 0, 0.005, 0);
	assert_int_equal(j.decision, AB_BISECT_SKIP_PARENT);
	ab_bisect_judge(&j, &a, 0, 0.1, +1, 0.005, 1);
	assert_int_equal(j.decision, AB_BISECT_SKIP_CANDIDATE);
	a.verdict = AB_ACCEPTED;
	/* row 0 has no samples (not judged), row 1 a change down by about 40% */
	rows[0].row = 0;
	rows[0].metrics = &m[0];
	rows[1].row = 1;
	rows[1].pairs = 10;
	rows[1].samples = 20;
	rows[1].metrics = &m[1];
	m[1].available = 1;
	m[1].d = down;
	ab_bisect_judge(&j, &a, 0, 0.1, 0, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_REACHES);
	assert_int_equal(j.direction, -1);
	assert_int_equal(j.row, 1);
	assert_true(j.upper < 1 && j.ratio < 0.65);
	ab_bisect_judge(&j, &a, 0, 0.1, +1, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_BELOW);
	/* row 0 measured but its metric unavailable: nothing shown below */
	rows[0].samples = 2;
	rows[0].pairs = 1;
	ab_bisect_judge(&j, &a, 0, 0.1, +1, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_UNDECIDED);
	/* ... but a reach elsewhere still decides */
	ab_bisect_judge(&j, &a, 0, 0.1, -1, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_REACHES);
}

/* ---- the search's error under noise ---------------------------------- */

/* One row of a step: the per-pair log ratios of a comparison whose true
 * change is x, with normal noise of sd sigma. */
struct noisy {
	struct truth t;          /* the commits' changes (t.step), theta */
	double sigma;
	double alpha;            /* the comparison's level (the endpoints' is half of it per side) */
	int sequential;          /* steps run looks (plan) and stop once decided; else fixed */
	int peek;                /* a wrong procedure, for contrast: fixed-n intervals at each look */
	struct ab_seq_plan plan; /* the looks, alpha set per step */
	size_t fixed_pairs;
	uint64_t rng;
	size_t pairs;            /* pairs used so far */
	size_t comparisons, wrong; /* comparisons run, and those decided on the wrong side of theta */
};

static double gauss(uint64_t *s)
{
	double u = ((double)(ab_stats_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(ab_stats_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The decision of one row's interval [lo, hi] (log scale) for comparison
 * role `endpoints` (both directions) or `direction`. */
static enum ab_bisect_decision decide_interval(double lo, double hi, double theta, int endpoints,
					       int *direction)
{
	if (!endpoints)
		return ab_bisect_decide(lo, hi, *direction, theta);
	return ab_bisect_combine(ab_bisect_decide(lo, hi, +1, theta), ab_bisect_decide(lo, hi, -1, theta),
				 direction);
}

/* Run comparison c on simulated pairs as abtool runs a step: fixed (all
 * fixed_pairs at once, at alpha, halved per side for the endpoints) or
 * sequential (the plan at that level, a row stopping at its first decided
 * look, the interval the intersection of the looks'). Counts the pairs,
 * and the decisions that contradict the truth. */
static enum ab_bisect_decision noisy_decide(struct noisy *m, const struct ab_bisect_cmp *c, int *direction)
{
	double x = 0, d[64];
	size_t i, n = m->sequential ? m->plan.looks[m->plan.nlooks - 1] : m->fixed_pairs, k, used = n;
	int endpoints = c->role == AB_BISECT_ENDPOINTS;
	double level = endpoints ? m->alpha / 2 : m->alpha;
	enum ab_bisect_decision dec = AB_BISECT_UNDECIDED;

	for (i = c->parent + 1; i <= c->candidate; i++)
		x += m->t.step[i];
	for (i = 0; i < n; i++)
		d[i] = x + m->sigma * gauss(&m->rng);
	if (!m->sequential) {
		struct ab_hl hl;

		ab_stats_hodges_lehmann(&hl, d, n, level);
		dec = hl.k ? decide_interval(hl.lower, hl.upper, m->t.theta, endpoints, direction)
			   : AB_BISECT_UNDECIDED;
	} else {
		struct ab_seq_plan plan = m->plan;

		plan.alpha = level;
		for (k = 0; k < plan.nlooks; k++) {
			struct ab_hl hl;
			size_t look;

			if (m->peek)
				ab_stats_hodges_lehmann(&hl, d, plan.looks[k], AB_STATS_ALPHA * level / 0.05);
			else
				assert_int_equal(ab_seq_row_interval(&plan, d, plan.looks[k], &hl, &look), 0);
			used = plan.looks[k];
			if (isnan(hl.lower))
				continue;
			dec = decide_interval(hl.lower, hl.upper, m->t.theta, endpoints, direction);
			if (dec != AB_BISECT_UNDECIDED)
				break;
		}
	}
	m->pairs += used;
	m->comparisons++;
	if (dec == AB_BISECT_REACHES || dec == AB_BISECT_BELOW) {
		/* the endpoints' below is both directions' */
		double along = endpoints && dec == AB_BISECT_BELOW ? fabs(x) : *direction * x;

		m->wrong += dec == AB_BISECT_REACHES ? along < m->t.theta : along >= m->t.theta;
	}
	return dec;
}

/* A whole search under noise; its outcome and whether it is right: a
 * culprit or a spread only where the truth has one, no change only where
 * the endpoints differ by less than theta (inconclusive is never wrong). */
static int noisy_search(struct noisy *m, size_t culprit)
{
	struct ab_bisect b;
	struct ab_bisect_cmp c;
	int direction = 0, wrong = 0;
	double total = 0;
	size_t i;

	for (i = 1; i < m->t.n; i++)
		total += m->t.step[i];
	ab_bisect_init(&b, m->t.n);
	while (ab_bisect_next(&b, &c)) {
		enum ab_bisect_decision d;

		direction = b.direction;
		d = noisy_decide(m, &c, &direction);
		ab_bisect_record(&b, d, direction);
	}
	if (b.outcome == AB_BISECT_CULPRIT)
		wrong = !culprit || b.hi != culprit;
	else if (b.outcome == AB_BISECT_SPREAD)
		wrong = 1;  /* the truth has one commit or none */
	else if (b.outcome == AB_BISECT_NO_CHANGE)
		wrong = fabs(total) >= m->t.theta;
	ab_bisect_release(&b);
	return wrong;
}

/*
 * The search's error bound under noise (docs/history.md, "The error of the
 * whole search"): 12 commits, one row, threshold 40% (theta ln 1.4), per
 * pair noise sd 0.2 in ln ratio, alpha_c = 0.05 / 10 per comparison. For
 * fixed steps of 32 pairs and for sequential steps (looks 8, 16, 32, the
 * alpha spent at the comparison's level, stopping once decided), in the
 * worst cases for the bound (the culprit's change just below theta, where
 * reaching is wrong, and just at it, where "below" is), with no change,
 * and with a 3x culprit: the share of searches that name a wrong commit,
 * a spread or no change where there is one stays within the 5% the search
 * states, and the comparisons decided on the wrong side of theta within
 * the 99.9% band of alpha_c. The mean pairs each search took are printed
 * (docs/performance.md). A contrast shows that the test can fail: steps
 * that stop on fixed-n intervals at each look (peeking) err at the
 * endpoints of the edge case more often than the band allows.
 */
static void test_search_error_bound(void **state)
{
	static const double effects[] = { 0.0, 0.999, 1.0, 3.27 };  /* in units of theta; 3.27 theta = ln 3 */
	const size_t searches = getenv("ABTOOL_SANITIZED") && !strcmp(getenv("ABTOOL_SANITIZED"), "1") ? 200 : 2000;
	struct noisy m;
	size_t e, s, r, wrong, peeked = 0, peek_decisions = 0;
	double band;

	(void)state;
	for (s = 0; s < 2; s++) {
		size_t all_wrong = 0, all_comparisons = 0, all_pairs = 0, all = 0;

		for (e = 0; e < sizeof(effects) / sizeof(effects[0]); e++) {
			memset(&m, 0, sizeof(m));
			m.t.n = 12;
			m.t.theta = log(1.4);
			m.t.step[7] = effects[e] * m.t.theta;
			m.sigma = 0.2;
			m.alpha = 0.05 / (double)ab_bisect_max_comparisons(12);
			m.sequential = (int)s;
			m.fixed_pairs = 32;
			assert_int_equal(ab_seq_plan_from_range(&m.plan, 8, 32), 0);
			m.rng = 0xb15ec7 + 16 * e + s;
			for (r = 0, wrong = 0; r < searches; r++)
				wrong += (size_t)noisy_search(&m, effects[e] >= 1 ? 7 : 0);
			printf("%s steps, culprit %.3g theta: %zu of %zu searches wrong, %zu of %zu comparisons "
			       "decided wrongly, %.1f pairs per search\n", s ? "sequential" : "fixed", effects[e],
			       wrong, searches, m.wrong, m.comparisons, (double)m.pairs / (double)searches);
			assert_true((double)wrong <= 0.05 * (double)searches);
			all_wrong += m.wrong;
			all_comparisons += m.comparisons;
			all_pairs += m.pairs;
			all += searches;
		}
		band = 3.29 * sqrt(m.alpha * (1 - m.alpha) / (double)all_comparisons);
		printf("%s steps: %.4f of comparisons decided wrongly (alpha_c %.4f, band %.4f), %.1f pairs per "
		       "search\n", s ? "sequential" : "fixed", (double)all_wrong / (double)all_comparisons, m.alpha,
		       band, (double)all_pairs / (double)all);
		assert_true((double)all_wrong / (double)all_comparisons <= m.alpha + band);
	}
	/* the contrast: endpoints of a change just below theta, looked at with
	 * fixed-n intervals at each look, reach (wrongly) too often */
	memset(&m, 0, sizeof(m));
	m.t.n = 2;
	m.t.theta = log(1.4);
	m.t.step[1] = 0.999 * m.t.theta;
	m.sigma = 0.2;
	m.alpha = 0.05 / (double)ab_bisect_max_comparisons(12);
	m.sequential = m.peek = 1;
	assert_int_equal(ab_seq_plan_from_range(&m.plan, 8, 32), 0);
	m.rng = 0x9eec;
	for (r = 0; r < 10 * searches; r++) {
		struct ab_bisect_cmp c = {0, 1, AB_BISECT_ENDPOINTS};
		int direction = 0;

		peeked += noisy_decide(&m, &c, &direction) == AB_BISECT_REACHES;
		peek_decisions++;
	}
	band = 3.29 * sqrt(m.alpha / 2 * (1 - m.alpha / 2) / (double)peek_decisions);
	printf("peeking at the endpoints: %zu of %zu reach a change just below theta (%.4f; alpha_c / 2 "
	       "%.4f, band %.4f)\n", peeked, peek_decisions, (double)peeked / (double)peek_decisions,
	       m.alpha / 2, band);
	assert_true((double)peeked / (double)peek_decisions > m.alpha / 2 + band);
}

/* ---- the search through the real scheduler ---------------------------- */

/* A chain of commits as the scripted sample source measures it: commit i's
 * samples are exp(x[i]) times 1e8 with log-normal noise of sd sigma, keyed
 * by the search, the step, the pair and the side alone, so that every run
 * is exact and repeatable and the pure model below sees the same pairs. */
struct chain {
	size_t n;
	double x[12];
	double sigma, theta, alpha_c;
	int sequential;
	uint64_t search;
	size_t seq;                     /* the step running */
	struct ab_bisect_cmp cmp;       /* its comparison */
	int direction;                  /* the search's direction so far */
};

static double chain_z(const struct chain *ch, int64_t pair, int side)
{
	uint64_t s = ch->search * 0x100000001b3u + ch->seq * 0x10001u + (uint64_t)pair * 2 + (uint64_t)side;
	double u = ((double)(ab_stats_splitmix64(&s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(ab_stats_splitmix64(&s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void chain_fn(void *ctx, const struct ab_plan_entry *e, unsigned attempt, struct scripted_sample *out)
{
	const struct chain *ch = ctx;
	size_t commit = e->side == AB_CANDIDATE ? ch->cmp.candidate : ch->cmp.parent;

	(void)attempt;
	out->value = 1e8 * exp(ch->x[commit] + ch->sigma * chain_z(ch, e->pair, e->side));
}

/* What cmd_bisect.c's run_step does to the loaded experiment. */
static void chain_prepare(void *ctx, struct ab_experiment *exp)
{
	const struct chain *ch = ctx;

	if (ch->sequential)
		ab_bisect_step_plan(exp, "cpu_ns", expm1(ch->theta), ch->alpha_c, ch->cmp.role, ch->direction);
}

/* The pure model of one step on the same pairs (as noisy_decide, without
 * its noise): the decision, and the pairs it used in *used. */
static enum ab_bisect_decision chain_model(const struct chain *ch, const struct ab_seq_plan *looks,
					   int *direction, size_t *used)
{
	int endpoints = ch->cmp.role == AB_BISECT_ENDPOINTS;
	double level = endpoints ? ch->alpha_c / 2 : ch->alpha_c, d[64];
	size_t n = ch->sequential ? looks->looks[looks->nlooks - 1] : 32, i, k, look;
	enum ab_bisect_decision dec = AB_BISECT_UNDECIDED;
	struct ab_seq_plan plan = *looks;
	struct ab_hl hl;

	for (i = 0; i < n; i++)
		d[i] = ch->x[ch->cmp.candidate] - ch->x[ch->cmp.parent] +
		       ch->sigma * (chain_z(ch, (int64_t)i, AB_CANDIDATE) - chain_z(ch, (int64_t)i, AB_PARENT));
	*used = n;
	if (!ch->sequential) {
		ab_stats_hodges_lehmann(&hl, d, n, level);
		return hl.k ? decide_interval(hl.lower, hl.upper, ch->theta, endpoints, direction) : dec;
	}
	plan.alpha = level;
	for (k = 0; k < plan.nlooks; k++) {
		assert_int_equal(ab_seq_row_interval(&plan, d, plan.looks[k], &hl, &look), 0);
		*used = plan.looks[k];
		if (isnan(hl.lower))
			continue;
		if ((dec = decide_interval(hl.lower, hl.upper, ch->theta, endpoints, direction)) != AB_BISECT_UNDECIDED)
			break;
	}
	return dec;
}

static const char *const CHAIN_SEQUENTIAL =
	"name: scripted-bisect\n"
	"sides:\n"
	"  a: {name: parent, command: \"true\"}\n"
	"  b: {name: candidate, command: \"true\"}\n"
	"metric: cpu_ns\n"
	"pairs: {min: 8, max: 32}\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: any, no_regression: 40%}\n";

static const char *const CHAIN_FIXED =
	"name: scripted-bisect\n"
	"sides:\n"
	"  a: {name: parent, command: \"true\"}\n"
	"  b: {name: candidate, command: \"true\"}\n"
	"metric: cpu_ns\n"
	"pairs: 32\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: any, no_regression: 40%}\n";

/* One search over `ch` with every step a scripted run in `store`, as
 * cmd_bisect.c runs it; each step's decision and pairs must be the pure
 * model's. Returns whether the search is wrong (as noisy_search); adds the
 * pairs to *pairs and the comparisons to *comparisons. */
static int chain_search(struct chain *ch, struct ab_store *store, const char *dir, size_t culprit,
			size_t *pairs, size_t *comparisons)
{
	struct ab_seq_plan looks;
	struct ab_bisect b;
	struct ab_bisect_cmp c;
	double total = ch->x[ch->n - 1] - ch->x[0];
	int wrong = 0;

	assert_int_equal(ab_seq_plan_from_range(&looks, 8, 32), 0);
	ab_bisect_init(&b, ch->n);
	for (ch->seq = 0; ab_bisect_next(&b, &c); ch->seq++) {
		struct ab_bisect_judgement j;
		struct scripted sc;
		struct scripted_run r;
		enum ab_bisect_decision model;
		const struct ab_metric *m;
		int direction = b.direction, mdir = b.direction;
		size_t used;

		ch->cmp = c;
		ch->direction = b.direction;
		scripted_init(&sc, chain_fn, ch);
		sc.prepare = chain_prepare;
		scripted_start(&r, store, dir, ch->sequential ? CHAIN_SEQUENTIAL : CHAIN_FIXED, ch->search + ch->seq,
			       NULL, &sc);
		assert_non_null(m = ab_experiment_metric(&r.exp, "cpu_ns"));
		ab_bisect_judge(&j, &r.analysis, (size_t)(m - r.exp.metrics), expm1(ch->theta),
				c.role == AB_BISECT_ENDPOINTS ? 0 : direction, ch->alpha_c, -1);
		model = chain_model(ch, &looks, &mdir, &used);
		if (j.decision != model || r.analysis.rows[0].pairs != used)
			fail_msg("search %llu step %zu (%s %zu..%zu): the run decided %s on %zu pairs, the model %s "
				 "on %zu", (unsigned long long)ch->search, ch->seq, ab_bisect_role_name(c.role),
				 c.parent, c.candidate, ab_bisect_decision_name(j.decision), r.analysis.rows[0].pairs,
				 ab_bisect_decision_name(model), used);
		*pairs += r.analysis.rows[0].pairs;
		(*comparisons)++;
		ab_bisect_record(&b, j.decision, j.direction);
		scripted_run_release(&r);
		scripted_release(&sc);
	}
	if (b.outcome == AB_BISECT_CULPRIT)
		wrong = !culprit || b.hi != culprit;
	else if (b.outcome == AB_BISECT_SPREAD)
		wrong = 1;
	else if (b.outcome == AB_BISECT_NO_CHANGE)
		wrong = fabs(total) >= ch->theta;
	ab_bisect_release(&b);
	return wrong;
}

/*
 * The search's error bound (docs/history.md, "The error of the whole
 * search") with every step a real run: the scripted sample source gives
 * the samples, the scheduler runs the step's looks and stops its row on
 * the bisect's judgement (stopping.c, ab_bisect_rows_decided), the
 * analysis makes the repeated interval and ab_bisect_judge decides. Exact
 * and repeatable: every step's decision and pairs equal those of the pure
 * model on the same pairs, the model whose error test_search_error_bound
 * bounds over 2,000 searches. Over 12 commits, 40% threshold, noise sd
 * 0.2 in ln per sample: a culprit of 3x is found by both kinds of step
 * (sequential ones with fewer pairs); a change of 0.99 theta is never
 * named, and neither is a culprit where there is none; no search of the
 * seeded set is wrong (the bound allows 5%).
 */
static void test_search_scripted(void **state)
{
	static const double effects[] = { 0.0, 0.99, 3.27 };  /* in units of theta */
	const size_t searches = 4;
	char *dir = ab_test_mktemp("bisect-search"), *path = ab_xasprintf("%s/store.db", dir);
	struct ab_store *store;
	size_t e, s, i, pairs[2] = {0, 0}, comparisons[2] = {0, 0}, wrong = 0, found[2] = {0, 0};

	(void)state;
	if (ab_store_open(&store, path) < 0)
		fail_msg("store: %s", ab_error_last());
	for (e = 0; e < sizeof(effects) / sizeof(effects[0]); e++) {
		for (s = 0; s < 2; s++) {
			for (i = 0; i < searches; i++) {
				struct chain ch;
				size_t k, before = pairs[s];
				int w;

				memset(&ch, 0, sizeof(ch));
				ch.n = 12;
				ch.theta = log(1.4);
				ch.sigma = 0.2;
				ch.alpha_c = 0.05 / (double)ab_bisect_max_comparisons(12);
				ch.sequential = (int)s;
				ch.search = 1000 * (e + 1) + 10 * i + s;
				for (k = 7; k < 12; k++)
					ch.x[k] = effects[e] * ch.theta;
				w = chain_search(&ch, store, dir, effects[e] >= 1 ? 7 : 0, &pairs[s], &comparisons[s]);
				wrong += (size_t)w;
				found[s] += effects[e] >= 1 && !w;
				printf("%s steps, culprit %.3g theta, search %zu: %s, %zu pairs\n",
				       s ? "sequential" : "fixed", effects[e], i, w ? "wrong" : "right", pairs[s] - before);
			}
		}
	}
	printf("scripted searches: %zu wrong of %zu; fixed steps %zu pairs in %zu comparisons, sequential %zu "
	       "in %zu\n", wrong, 2 * searches * (sizeof(effects) / sizeof(effects[0])), pairs[0], comparisons[0],
	       pairs[1], comparisons[1]);
	assert_int_equal(wrong, 0);
	assert_int_equal(found[0], searches);
	assert_int_equal(found[1], searches);
	assert_true(pairs[1] < pairs[0]);
	ab_store_close(store);
	ab_test_rmtemp(dir);
	free(path);
}

/* A sequential step is judged on its repeated interval (the analysis'),
 * and an empty one decides nothing; its rows stop on the judgement. */
static void test_judge_sequential(void **state)
{
	struct ab_experiment exp;
	struct ab_analysis a;
	struct ab_row_result row;
	struct ab_row_metric m;
	struct ab_bisect_judgement j;
	struct ab_step_stop stop = {1, (char *)"wall_ns", 0.1, +1};
	struct ab_metric metric = {0};
	uint8_t decided[1];
	double d[16] = {0};

	(void)state;
	memset(&exp, 0, sizeof(exp));
	memset(&a, 0, sizeof(a));
	memset(&row, 0, sizeof(row));
	memset(&m, 0, sizeof(m));
	metric.name = (char *)"wall_ns";
	exp.metrics = &metric;
	exp.nmetrics = 1;
	exp.sequential = 1;
	m.available = 1;
	m.d = d;
	m.st.ratio = 1.5;
	m.st.ci_lower = 1.3;
	m.st.ci_upper = 1.7;
	m.st.ci_k = 30;
	row.pairs = 16;
	row.samples = 32;
	row.metrics = &m;
	a.exp = &exp;
	a.rows = &row;
	a.nrows = 1;
	a.verdict = AB_ACCEPTED;
	ab_bisect_judge(&j, &a, 0, 0.1, +1, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_REACHES);
	assert_true(j.lower == 1.3 && j.upper == 1.7);
	ab_bisect_rows_decided(&a, &stop, decided);
	assert_int_equal(decided[0], 1);
	/* the looks' intervals do not intersect: nothing decided, the row runs on */
	m.st.ci_lower = 1.3;
	m.st.ci_upper = 1.2;
	ab_bisect_judge(&j, &a, 0, 0.1, +1, 0.005, -1);
	assert_int_equal(j.decision, AB_BISECT_UNDECIDED);
	ab_bisect_rows_decided(&a, &stop, decided);
	assert_int_equal(decided[0], 0);
	/* inside the threshold's reach: undecided, runs on */
	m.st.ci_lower = 1.05;
	m.st.ci_upper = 1.3;
	ab_bisect_rows_decided(&a, &stop, decided);
	assert_int_equal(decided[0], 0);
	assert_int_equal(ab_bisect_decide(log(1.05), log(1.3), +1, log(1.1)), AB_BISECT_UNDECIDED);
	assert_int_equal(ab_bisect_decide(log(0.9), log(1.05), +1, log(1.1)), AB_BISECT_BELOW);
	assert_int_equal(ab_bisect_decide(log(0.7), log(0.8), -1, log(1.1)), AB_BISECT_REACHES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_culprit),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_spread_and_ends),
		cmocka_unit_test(test_every_transition),
		cmocka_unit_test(test_judge_edges),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_judge_sequential),
		cmocka_unit_test(test_search_error_bound),
		cmocka_unit_test(test_search_scripted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
