/* test_bisect.c - the search of abtool bisect (bisect.c) against a truth
 * model: the cumulative log change after each commit of a path, decided
 * exactly (no noise) against the threshold, with commits that cannot be
 * measured. Every culprit position of paths of 2 to 40 commits; skips;
 * spreads; an undecided step; the comparison bound; the judge on a
 * synthetic analysis. */
#include "testutil.h"
#include "bisect.h"
#include "experiment.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_culprit),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_spread_and_ends),
		cmocka_unit_test(test_every_transition),
		cmocka_unit_test(test_judge_edges),
		cmocka_unit_test(test_judge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
