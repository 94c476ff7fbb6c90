/* test_schedule.c - the scheduler's decisions (run_samples.c), driven by
 * the scripted sample source (scripted.h) through the real store, analysis
 * and rules: plan order and balance, the stopping rule at every look
 * against the pure replay of stopping.c, resume after an interrupt at
 * every sample, budgets, failed samples and checksums, and what the
 * executor interface promises. Exact: no process is timed and no clock is
 * read. */
#include "testutil.h"
#include "scripted.h"
#include "error.h"
#include "predicates.h"
#include "report_speedup.h"
#include "rules.h"
#include "stopping.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fixture {
	char *dir;
	char *path;
	struct ab_store *store;
};

static int setup(void **state)
{
	struct fixture *f = ab_xcalloc(1, sizeof(*f));

	f->dir = ab_test_mktemp("schedule");
	f->path = ab_xasprintf("%s/store.db", f->dir);
	if (ab_store_open(&f->store, f->path) < 0)
		fail_msg("store: %s", ab_error_last());
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ab_store_close(f->store);
	free(f->path);
	ab_test_rmtemp(f->dir);
	free(f);
	return 0;
}

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A uniform number in (0, 1) from a key: the same key, the same number. */
static double unit(uint64_t key)
{
	return ((double)(mix(key) >> 11) + 0.5) / 9007199254740992.0;
}

/* A scripted experiment: per row, the candidate's ratio to the parent and
 * the spread of each sample (log scale); values depend only on the seed,
 * the row, the pair and the side, never on the attempt, so a re-run pair
 * measures what it measured before. */
struct effect {
	uint64_t seed;
	double ratio[8];         /* per row; 0 means 1 */
	double spread;           /* sd of ln(value) per sample */
	const char *checksum[2]; /* per side, or NULL */
	int fail_row, fail_pair, fail_side, fail_exit, fail_timeout;  /* one failing sample: pair >= 0 */
	int timeout_pairs;       /* pairs 0 .. timeout_pairs-1 of row 0: the candidate times out */
	int contended_pair;      /* this pair's parent is flagged contended, or -1 */
	unsigned contended_attempts; /* ... on its first this many attempts; 0: on every one */
	int candidate_contended; /* every candidate sample is flagged contended */
	int64_t wall_ns;         /* every sample's duration on the scripted clock; 0: its value */
};

static void effect_fn(void *ctx, const struct ab_plan_entry *e, unsigned attempt, struct scripted_sample *out)
{
	const struct effect *ef = ctx;
	uint64_t key = ef->seed * 1000003u + (uint64_t)e->row * 7919u +
		       (uint64_t)(e->pair >= 0 ? e->pair : 5000 + e->warmup) * 2u + e->side;
	double u = unit(key), v = unit(key ^ 0x5555u);
	double z = sqrt(-2 * log(u)) * cos(2 * M_PI * v);
	double r = e->side == AB_CANDIDATE && ef->ratio[e->row] > 0 ? ef->ratio[e->row] : 1.0;

	(void)attempt;
	out->value = 1e8 * r * exp(ef->spread * z);
	out->wall_ns = ef->wall_ns;
	out->checksum = ef->checksum[e->side];
	if (ef->fail_pair >= 0 && (int)e->row == ef->fail_row && e->pair == ef->fail_pair &&
	    e->side == ef->fail_side) {
		out->exit_code = ef->fail_exit;
		out->timed_out = ef->fail_timeout;
	}
	if (e->row == 0 && e->pair >= 0 && e->pair < ef->timeout_pairs && e->side == AB_CANDIDATE)
		out->timed_out = 1;
	if (e->pair == ef->contended_pair && e->side == AB_PARENT &&
	    (!ef->contended_attempts || attempt < ef->contended_attempts)) {
		out->flags = AB_FLAG_CONTENDED;
		out->other_cpu_ns = 123456789;
	}
	if (ef->candidate_contended && e->side == AB_CANDIDATE && e->pair >= 0)
		out->flags = AB_FLAG_CONTENDED;
}

static void effect_init(struct effect *ef, uint64_t seed, double spread)
{
	memset(ef, 0, sizeof(*ef));
	ef->seed = seed;
	ef->spread = spread;
	ef->fail_pair = -1;
	ef->contended_pair = -1;
}

static const char *const FIXED =
	"name: scripted\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2]}\n"
	"pairs: 6\n"
	"warmup: 1\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%}\n";

/* Every planned sample ran once, in plan order (warmups first in each
 * row's first visit), and each row's pairs are balanced AB|BA. */
static void test_fixed_plan_runs_in_plan_order(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	size_t i, ab[2] = {0, 0}, ba[2] = {0, 0};

	effect_init(&ef, 1, 0.02);
	ef.ratio[0] = ef.ratio[1] = 0.5;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, FIXED, 42, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(sc.nlog, r.run.nsamples);
	assert_int_equal(sc.nlog, 2 * 2 * (6 + 1));
	for (i = 0; i < sc.nlog; i++) {
		assert_int_equal(sc.log[i].seq, i);
		if (sc.log[i].pair >= 0 && sc.log[i].side == AB_PARENT)
			(sc.log[i].order == AB_ORDER_AB ? ab : ba)[sc.log[i].row]++;
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(ab[i], 3);
		assert_int_equal(ba[i], 3);
	}
	assert_int_equal(r.analysis.verdict, AB_ACCEPTED);
	assert_int_equal(scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_DONE), 28);
	scripted_run_release(&r);
	scripted_release(&sc);
}

static const char *const SEQUENTIAL =
	"name: scripted-sequential\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2, 3]}\n"
	"pairs: {min: 8, max: 64}\n"
	"accept:\n"
	"  - {name: no regression, no_regression: 3%}\n";

/* The scheduler stops exactly the samples the pure replay of the same
 * values stops (stopping.c, as `analyze --looks` replays a plan), at
 * every look, over seeded experiments whose rows decide at different
 * looks or not at all, and decides the same verdict. */
static void test_sequential_stops_as_replay(void **state)
{
	struct fixture *f = *state;
	static const double ratios[][3] = {
		{0.80, 1.00, 1.02}, {1.00, 1.03, 0.99}, {1.10, 0.97, 1.01}, {0.99, 1.00, 1.00},
	};
	size_t stopped_at[5] = {0, 0, 0, 0, 0};  /* rows by pairs used: 8, 16, 32, 64, other */
	uint64_t seed;

	for (seed = 1; seed <= 24; seed++) {
		struct effect ef;
		struct scripted sc;
		struct scripted_run r;
		struct ab_sample *full;
		struct ab_analysis a;
		size_t i, row, n;

		effect_init(&ef, seed, 0.03);
		for (row = 0; row < 3; row++)
			ef.ratio[row] = ratios[seed % 4][row];
		scripted_init(&sc, effect_fn, &ef);
		scripted_start(&r, f->store, f->dir, SEQUENTIAL, seed, NULL, &sc);
		assert_int_equal(r.err, 0);
		n = r.run.nsamples;
		/* the same values for the whole plan, then the pure replay */
		full = ab_xcalloc(n, sizeof(*full));
		for (i = 0; i < n; i++) {
			struct scripted_sample v;
			memset(&v, 0, sizeof(v));
			full[i].entry = r.run.samples[i].entry;
			effect_fn(&ef, &full[i].entry, 0, &v);
			full[i].status = AB_SAMPLE_DONE;
			full[i].wall_ns = full[i].user_ns = (int64_t)v.value;
			full[i].nmetrics = r.exp.nmetrics;
			full[i].metrics = ab_xmalloc(r.exp.nmetrics * sizeof(double));
			full[i].metrics[0] = v.value;
			full[i].padding_bytes = -1;
			full[i].other_cpu_ns = -1;
		}
		ab_stopping_replay(&r.exp, full, n);
		for (i = 0; i < n; i++)
			assert_int_equal(full[i].status, r.run.samples[i].status);
		assert_int_equal(sc.nlog, n - scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_STOPPED));
		ab_analysis_run(&a, &r.exp, full, n);
		ab_rules_evaluate(&a, NULL, NULL);
		assert_int_equal(a.verdict, r.analysis.verdict);
		for (row = 0; row < 3; row++) {
			size_t pairs = r.analysis.rows[row].pairs;
			assert_int_equal(pairs, a.rows[row].pairs);
			stopped_at[pairs == 8 ? 0 : pairs == 16 ? 1 : pairs == 32 ? 2 : pairs == 64 ? 3 : 4]++;
		}
		ab_analysis_release(&a);
		ab_samples_free(full, n);
		scripted_run_release(&r);
		scripted_release(&sc);
	}
	/* the seeds reach more than one look, and no row stops between looks */
	assert_true(stopped_at[0] > 0);
	assert_true(stopped_at[3] > 0);
	assert_true(stopped_at[1] + stopped_at[2] > 0);
	assert_int_equal(stopped_at[4], 0);
}

/* The per-row figures a verdict rests on. */
struct figures {
	int verdict;
	double ratio[3], lower[3], upper[3];
	size_t pairs[3];
};

static void figures_of(struct figures *out, const struct scripted_run *r, size_t nrows)
{
	size_t row;

	out->verdict = (int)r->analysis.verdict;
	for (row = 0; row < nrows; row++) {
		const struct ab_row_metric *m = &r->analysis.rows[row].metrics[r->analysis.primary];
		out->ratio[row] = m->st.ratio;
		out->lower[row] = m->st.ci_lower;
		out->upper[row] = m->st.ci_upper;
		out->pairs[row] = r->analysis.rows[row].pairs;
	}
}

/* An interrupt as any sample starts, then `abtool resume`: the run ends
 * with the verdict, ratios, intervals and pairs of the run that was never
 * interrupted; a pair half run when the interrupt came is superseded and
 * run again whole, and nothing else is run twice. `yaml` over `nrows`. */
static void resume_everywhere(struct fixture *f, const char *yaml, size_t nrows, const struct effect *ef0)
{
	struct effect ef = *ef0;
	struct scripted sc;
	struct scripted_run r;
	struct figures want, got;
	size_t k, total, row;

	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, yaml, 7, NULL, &sc);
	assert_int_equal(r.err, 0);
	figures_of(&want, &r, nrows);
	total = sc.nlog;
	scripted_run_release(&r);
	scripted_release(&sc);

	for (k = 1; k <= total; k++) {
		struct scripted_run again;
		int64_t id;
		size_t half, superseded, before;

		scripted_init(&sc, effect_fn, &ef);
		sc.interrupt_at = k;
		scripted_start(&r, f->store, f->dir, yaml, 7, NULL, &sc);
		assert_int_equal(r.err, AB_EINTERRUPTED);
		id = r.id;
		before = sc.nlog;
		assert_int_equal(before, k - 1);
		/* the sample before the interrupt began a pair whose partner did not run */
		half = before > 0 && sc.log[before - 1].seq % 2 == 0;  /* pairs are adjacent, from even seqs */
		scripted_run_release(&r);
		sc.interrupt_at = 0;
		scripted_resume(&again, f->store, id, &sc);
		assert_int_equal(again.err, 0);
		figures_of(&got, &again, nrows);
		assert_int_equal(got.verdict, want.verdict);
		for (row = 0; row < nrows; row++) {
			assert_int_equal(got.pairs[row], want.pairs[row]);
			assert_true(got.ratio[row] == want.ratio[row]);
			assert_true(got.lower[row] == want.lower[row] ||
				    (isnan(got.lower[row]) && isnan(want.lower[row])));
			assert_true(got.upper[row] == want.upper[row] ||
				    (isnan(got.upper[row]) && isnan(want.upper[row])));
		}
		superseded = scripted_count(f->store, &again.exp, id, AB_SAMPLE_SUPERSEDED);
		assert_int_equal(superseded, half ? 2 : 0);
		/* every sample ran once, but the half pair's first one, which ran twice */
		assert_int_equal(sc.nlog, total + half);
		scripted_run_release(&again);
		scripted_release(&sc);
	}
}

static void test_resume_after_interrupt_at_every_sample(void **state)
{
	struct effect ef;

	effect_init(&ef, 3, 0.05);
	ef.ratio[0] = 0.8;
	ef.ratio[1] = 1.0;
	resume_everywhere(*state, FIXED, 2, &ef);
}

static const char *const SEQUENTIAL_SMALL =
	"name: scripted-resume-sequential\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2]}\n"
	"pairs: {looks: [6, 12, 18]}\n"
	"warmup: 1\n"
	"contention: {reruns: auto}\n"
	"accept:\n"
	"  - {name: gain, faster_by: 5%}\n";

/* The same over a sequential plan in which one row stops at its first
 * look and the other runs on: an interrupt at any sample, before or after
 * a row stopped, resumes to the same decisions. */
static void test_resume_sequential_at_every_sample(void **state)
{
	struct effect ef;

	effect_init(&ef, 11, 0.04);
	ef.ratio[0] = 0.5;
	ef.ratio[1] = 0.97;
	resume_everywhere(*state, SEQUENTIAL_SMALL, 2, &ef);
}

static const char *const BUDGET =
	"name: scripted-budget\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"pairs: {min: 8, max: 64}\n"
	"budget: 40s\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: no regression, no_regression: 1%}\n";

/* A budget stops every row at the first look at which the time spent
 * reaches it: 1 s samples, looks at 8, 16, 32, 64 pairs: 16 s, 32 s, then
 * 64 s >= 40 s at the third look, so 32 pairs are used and 64 samples
 * stopped; the report says why. */
static void test_budget_stops_at_the_look_that_spends_it(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	const json_t *row;

	effect_init(&ef, 5, 0.2);  /* too noisy to decide a 1% margin early */
	ef.wall_ns = 1000000000;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, BUDGET, 9, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.run.budget_spent, 1);
	assert_int_equal(r.analysis.rows[0].pairs, 32);
	assert_int_equal(sc.nlog, 64);
	assert_int_equal(scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_STOPPED), 64);
	assert_true(json_is_true(json_object_get(json_object_get(r.doc, "sequential"), "budget_spent")));
	row = json_array_get(json_object_get(r.doc, "rows"), 0);
	assert_string_equal(json_string_value(json_object_get(row, "stopped")), "budget");
	assert_int_equal(r.analysis.verdict, AB_INCONCLUSIVE_VERDICT);
	scripted_run_release(&r);
	scripted_release(&sc);
}

static const char *const FIXED_AUTO =
	"name: scripted\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2]}\n"
	"pairs: 6\n"
	"warmup: 1\n"
	"contention: {reruns: auto}\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%}\n";

static const char *const TOLERANT =
	"name: scripted-failures\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"pairs: 8\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%, allow_failed_pairs: 1}\n";

/* allow_failed_pairs: 1 tolerates one pair with a timeout (kept as a
 * loss, never dropped); a second such pair stops the run at that sample,
 * invalid; a sample that exits non-zero stops it at once. */
static void test_failed_samples(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;

	effect_init(&ef, 8, 0.01);
	ef.ratio[0] = 0.5;
	ef.timeout_pairs = 1;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, TOLERANT, 1, NULL, &sc);
	assert_int_equal(r.run.stopped_early, 0);
	assert_int_equal(sc.nlog, 16);
	assert_int_equal(r.analysis.rows[0].pairs, 8);  /* the timed-out pair counts */
	assert_int_not_equal(r.analysis.verdict, AB_INVALID);
	scripted_run_release(&r);
	scripted_release(&sc);

	ef.timeout_pairs = 2;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, TOLERANT, 1, NULL, &sc);
	assert_int_equal(r.run.stopped_early, 1);
	assert_true(sc.log[sc.nlog - 1].pair == 1 && sc.log[sc.nlog - 1].side == AB_CANDIDATE);
	assert_int_equal(r.analysis.verdict, AB_INVALID);
	scripted_run_release(&r);
	scripted_release(&sc);

	ef.timeout_pairs = 0;
	ef.fail_row = 0;
	ef.fail_pair = 3;
	ef.fail_side = AB_PARENT;
	ef.fail_exit = 2;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, TOLERANT, 1, NULL, &sc);
	assert_int_equal(r.run.stopped_early, 1);
	assert_true(sc.log[sc.nlog - 1].pair == 3 && sc.log[sc.nlog - 1].side == AB_PARENT);
	assert_int_equal(scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_PLANNED), 16 - sc.nlog);
	assert_int_equal(r.analysis.verdict, AB_INVALID);
	scripted_run_release(&r);
	scripted_release(&sc);
}

static const char *const CHECKSUMS =
	"name: scripted-checksums\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"checksum: {regex: 'sum=(\\S+)'}\n"
	"pairs: 6\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%}\n";

/* Sides that print different checksums stop the run at the first sample
 * of the side that differs: invalid. */
static void test_checksum_mismatch_stops(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;

	effect_init(&ef, 2, 0.01);
	ef.ratio[0] = 0.5;
	ef.checksum[0] = "abc";
	ef.checksum[1] = "abd";
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, CHECKSUMS, 1, NULL, &sc);
	assert_int_equal(r.run.stopped_early, 1);
	assert_int_equal(sc.nlog, 2);
	assert_int_equal(r.analysis.verdict, AB_INVALID);
	scripted_run_release(&r);
	scripted_release(&sc);

	ef.checksum[1] = "abc";
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, CHECKSUMS, 1, NULL, &sc);
	assert_int_equal(r.run.stopped_early, 0);
	assert_int_equal(sc.nlog, 12);
	assert_int_equal(r.analysis.verdict, AB_ACCEPTED);
	scripted_run_release(&r);
	scripted_release(&sc);
}

/* The samples of a run in the store, with a count of those in `status`
 * carrying `flag` (0: any). */
static size_t count_flagged(struct fixture *f, const struct scripted_run *r, enum ab_sample_status status,
			    unsigned flag, size_t row)
{
	const char **names = ab_run_metric_names(&r->exp);
	struct ab_sample *s = NULL;
	size_t n = 0, i, count = 0;

	assert_int_equal(ab_store_samples_load(f->store, r->id, names, r->exp.nmetrics, &s, &n), 0);
	for (i = 0; i < n; i++)
		count += s[i].status == status && s[i].entry.row == row && (!flag || (s[i].flags & flag));
	ab_samples_free(s, n);
	free(names);
	return count;
}

/* A pair in which a sample was contended runs again, whole, with its own
 * order, and its first run stays in the store as superseded evidence
 * (flag rerun, the contention flag and the other processes' CPU time as
 * measured); the statistics see only the clean re-run. */
static void test_contended_pair_runs_again(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	size_t row, i, seen = 0;

	effect_init(&ef, 4, 0.01);
	ef.contended_pair = 2;
	ef.contended_attempts = 1;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, FIXED_AUTO, 3, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(sc.nlog, 28 + 4);
	for (row = 0; row < 2; row++) {
		assert_int_equal(count_flagged(f, &r, AB_SAMPLE_SUPERSEDED, AB_FLAG_RERUN, row), 2);
		assert_int_equal(count_flagged(f, &r, AB_SAMPLE_SUPERSEDED, AB_FLAG_CONTENDED, row), 1);
		assert_int_equal(count_flagged(f, &r, AB_SAMPLE_DONE, AB_FLAG_CONTENDED, row), 0);
		assert_int_equal(r.analysis.rows[row].pairs, 6);
		assert_int_equal(r.analysis.rows[row].flagged, 0);
		assert_int_equal(r.analysis.rows[row].reruns, 1);
	}
	/* the re-runs keep their pair's order: the first run of pair 2 and its re-run */
	for (i = 0; i < sc.nlog; i++)
		if (sc.log[i].pair == 2 && sc.log[i].row == 0 && sc.log[i].side == AB_PARENT) {
			assert_int_equal(sc.log[i].order, sc.log[28].order);
			seen++;
		}
	assert_int_equal(seen, 2);
	scripted_run_release(&r);
	scripted_release(&sc);
}

/* In a sequential plan a contended pair runs again within its own look:
 * every row reaches a look with its re-runs done, before any pair of the
 * next look runs. */
static void test_rerun_stays_in_its_look(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	size_t i, rerun_at = 0, next_look_at = 0;

	effect_init(&ef, 12, 0.3);  /* too noisy to stop at the first look */
	ef.contended_pair = 1;
	ef.contended_attempts = 1;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, SEQUENTIAL_SMALL, 5, NULL, &sc);
	assert_int_equal(r.err, 0);
	for (i = 0; i < sc.nlog; i++) {
		if (sc.log[i].row == 0 && sc.log[i].pair == 1)
			rerun_at = i;  /* the last run of pair 1: its re-run */
		if (!next_look_at && sc.log[i].pair >= 6)
			next_look_at = i;
	}
	assert_true(next_look_at > 0);
	assert_true(rerun_at > 0 && rerun_at < next_look_at);
	assert_int_equal(r.analysis.rows[0].reruns, 1);
	assert_int_equal(r.analysis.rows[1].reruns, 1);
	scripted_run_release(&r);
	scripted_release(&sc);
}

static const char *const FIXED_RERUNS_2 =
	"name: scripted\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2]}\n"
	"pairs: 6\n"
	"warmup: 1\n"
	"contention: {reruns: 2}\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%}\n";

/* A pair contended every time runs again at most `reruns` times per row,
 * then counts as it is (when_exhausted: keep): never without bound, also
 * across an interrupt and a resume at any sample; `reruns: 0` or
 * `contention: off` keeps every pair as it came. */
static void test_reruns_are_bounded(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	size_t row, k, total;

	effect_init(&ef, 4, 0.01);
	ef.contended_pair = 2;  /* contended on every attempt */
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, FIXED_RERUNS_2, 3, NULL, &sc);
	total = sc.nlog;
	assert_int_equal(total, 28 + 2 * 2 * 2);
	for (row = 0; row < 2; row++) {
		assert_int_equal(count_flagged(f, &r, AB_SAMPLE_SUPERSEDED, AB_FLAG_RERUN, row), 4);
		assert_int_equal(r.analysis.rows[row].reruns, 2);
		assert_int_equal(r.analysis.rows[row].flagged, 1);
	}
	scripted_run_release(&r);
	scripted_release(&sc);

	for (k = 1; k <= total; k += 3) {
		struct scripted_run again;
		int64_t id;

		scripted_init(&sc, effect_fn, &ef);
		sc.interrupt_at = k;
		scripted_start(&r, f->store, f->dir, FIXED_RERUNS_2, 3, NULL, &sc);
		assert_int_equal(r.err, AB_EINTERRUPTED);
		id = r.id;
		scripted_run_release(&r);
		sc.interrupt_at = 0;
		scripted_resume(&again, f->store, id, &sc);
		assert_int_equal(again.err, 0);
		for (row = 0; row < 2; row++) {
			assert_int_equal(count_flagged(f, &again, AB_SAMPLE_SUPERSEDED, AB_FLAG_RERUN, row), 4);
			assert_int_equal(again.analysis.rows[row].pairs, 6);
		}
		scripted_run_release(&again);
		scripted_release(&sc);
	}

	{
		/* when_exhausted: inconclusive: the kept contended pair leaves every rule of its row
		 * inconclusive (the candidate is 2x faster: it would pass) */
		char *strict = ab_xstrdup(FIXED_RERUNS_2), *at = strstr(strict, "{reruns: 2}");
		char *text = ab_xasprintf("%.*s{reruns: 2, when_exhausted: inconclusive}%s", (int)(at - strict),
					  strict, at + strlen("{reruns: 2}"));
		ef.ratio[0] = ef.ratio[1] = 0.5;
		scripted_init(&sc, effect_fn, &ef);
		scripted_start(&r, f->store, f->dir, text, 3, NULL, &sc);
		assert_int_equal(r.analysis.rows[0].contended_pairs, 1);
		assert_int_equal(r.analysis.verdict, AB_INCONCLUSIVE_VERDICT);
		assert_non_null(strstr(r.analysis.rules[0].rows[0].detail, "when_exhausted: inconclusive"));
		scripted_run_release(&r);
		scripted_release(&sc);
		ef.contended_pair = -1;  /* nothing contended: the same file accepts */
		scripted_init(&sc, effect_fn, &ef);
		scripted_start(&r, f->store, f->dir, text, 3, NULL, &sc);
		assert_int_equal(r.analysis.verdict, AB_ACCEPTED);
		scripted_run_release(&r);
		scripted_release(&sc);
		ef.contended_pair = 2;
		ef.ratio[0] = ef.ratio[1] = 0;
		free(strict);
		free(text);
	}
	{
		char *off = ab_xstrdup(FIXED_RERUNS_2);
		memcpy(strstr(off, "{reruns: 2}"), "off        ", 11);
		scripted_init(&sc, effect_fn, &ef);
		scripted_start(&r, f->store, f->dir, off, 3, NULL, &sc);
		assert_int_equal(sc.nlog, 28);
		assert_int_equal(r.analysis.rows[0].reruns, 0);
		assert_int_equal(r.analysis.rows[0].flagged, 1);
		scripted_run_release(&r);
		scripted_release(&sc);
		free(off);
	}
}

static const char *const SIDED =
	"name: scripted-sided\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"pairs: 16\n"
	"warmup: 0\n"
	"contention: {reruns: 1000}\n"
	"accept:\n"
	"  - {name: gain, faster_by: 10%}\n";

/* When one side is flagged alone far more often than the other (its own
 * work disturbs it), re-running would drop pairs by side: after 11 pairs
 * flagged on the candidate's side only (two-sided binomial p < 0.001) the
 * scheduler stops re-running, and every later pair counts as it is. */
static void test_reruns_stop_when_one_side_flags_itself(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;

	effect_init(&ef, 6, 0.01);
	ef.candidate_contended = 1;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, SIDED, 3, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.analysis.rows[0].reruns, 10);
	assert_int_equal(sc.nlog, 32 + 20);
	assert_int_equal(r.analysis.rows[0].flagged, 16);
	scripted_run_release(&r);
	scripted_release(&sc);
}

/* Quiet waits: the first pair's wait ends quiet after 5 s of scripted
 * time, every later one runs out at its maximum (2 s): the first sample
 * of each pair records its wait, flagged not_quiet when it ran out, and
 * the budget's clock counts the waits. */
static int quiet_then_busy(void *ctx, size_t pairs_started, int64_t max_ns, int64_t *waited_ns)
{
	(void)ctx;
	assert_int_equal(max_ns, 2000000000);
	*waited_ns = pairs_started == 0 ? 5000000 : max_ns;
	return pairs_started == 0;
}

static void test_quiet_wait(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	struct ab_sample *s = NULL;
	const char **names;
	size_t n = 0, i, first = 0, not_quiet = 0;
	static const char *const yaml =
		"name: scripted-quiet\n"
		"sides:\n"
		"  a: {name: old, command: \"true\"}\n"
		"  b: {name: new, command: \"true\"}\n"
		"pairs: 4\n"
		"warmup: 0\n"
		"contention: {quiet: {below: 0.5, wait: 2s}}\n"
		"accept:\n"
		"  - {name: gain, faster_by: 10%}\n";

	effect_init(&ef, 6, 0.01);
	ef.wall_ns = 100000000;
	scripted_init(&sc, effect_fn, &ef);
	sc.quiet = quiet_then_busy;
	scripted_start(&r, f->store, f->dir, yaml, 3, NULL, &sc);
	assert_int_equal(sc.pairs_started, 4);
	assert_int_equal(sc.clock_ns - (int64_t)8 * 100000000, 5000000 + 3 * (int64_t)2000000000);
	names = ab_run_metric_names(&r.exp);
	assert_int_equal(ab_store_samples_load(f->store, r.id, names, r.exp.nmetrics, &s, &n), 0);
	for (i = 0; i < n; i++) {
		if (s[i].entry.seq % 2 == 1) {
			assert_int_equal(s[i].waited_ns, -1);
			continue;
		}
		assert_int_equal(s[i].waited_ns, first++ == 0 ? 5000000 : 2000000000);
		not_quiet += (s[i].flags & AB_FLAG_NOT_QUIET) != 0;
	}
	assert_int_equal(not_quiet, 3);
	ab_samples_free(s, n);
	free(names);
	scripted_run_release(&r);
	scripted_release(&sc);
}

static const char *const SCALING =
	"name: scripted-scaling\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {lanes: [1, 2, 4]}\n"
	"scaling: {parameter: lanes, work: total}\n"
	"pairs: {min: 8, max: 32}\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: gain, where: {lanes: [1]}, faster_by: 10%}\n"
	"  - {name: scales, where: {lanes: [4]}, scaling_not_worse: 1%}\n";

/* What the progress events saw. */
struct seen {
	size_t starts, dones, looks;
	int64_t eta_ns[256];     /* the estimate before each sample, -1 before the first */
	size_t total[256];       /* the samples still to run, as announced */
	size_t decided_last;
};

static void on_start(void *ctx, const struct ab_plan_entry *e, const char *label, size_t done, size_t total,
		     int64_t eta_ns)
{
	struct seen *w = ctx;

	(void)e;
	assert_non_null(label);
	assert_int_equal(done, w->starts);
	if (w->starts < 256) {
		w->eta_ns[w->starts] = eta_ns;
		w->total[w->starts] = total;
	}
	w->starts++;
}

static void on_done(void *ctx, const struct ab_sample *s, const char *label)
{
	struct seen *w = ctx;

	(void)label;
	assert_int_equal(s->status, AB_SAMPLE_DONE);
	w->dones++;
}

static void on_look(void *ctx, size_t k, size_t pairs, size_t decided, size_t running, int budget, int last,
		    char *const *rows)
{
	struct seen *w = ctx;

	assert_int_equal(k, w->looks);
	assert_int_equal(pairs, 8u << k);
	assert_int_equal(budget, 0);
	assert_non_null(rows);
	assert_int_equal(decided + running, 3);
	assert_int_equal(last, pairs == 32);
	w->decided_last = decided;
	w->looks++;
}

/* A row that a scaling rule pairs with its base row runs on with it: the
 * base row (lanes=1) is decided at the first look by its own rule, but
 * runs on as long as the scaling row (lanes=4) is undecided; the row no
 * rule holds (lanes=2) stops at the first look. The progress events
 * count every sample, announce each look, and estimate the time left
 * from the scripted clock: (samples left) x (mean time per sample). */
static void test_scaling_rows_run_on_with_their_base(void **state)
{
	struct fixture *f = *state;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	struct seen w;
	struct ab_run_events ev;
	size_t i;

	memset(&w, 0, sizeof(w));
	memset(&ev, 0, sizeof(ev));
	ev.ctx = &w;
	ev.sample_start = on_start;
	ev.sample_done = on_done;
	ev.look_done = on_look;
	effect_init(&ef, 21, 0.05);
	ef.ratio[0] = 0.5;   /* lanes=1: a clear gain, decided at 8 pairs */
	ef.ratio[1] = 1.0;
	ef.ratio[2] = 0.5;   /* lanes=4: the same gain: scaling unchanged, 1% is too close to call */
	ef.wall_ns = 1000000000;
	scripted_init(&sc, effect_fn, &ef);
	sc.events = &ev;
	scripted_start(&r, f->store, f->dir, SCALING, 4, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.analysis.rows[1].pairs, 8);
	assert_int_equal(r.analysis.rows[0].pairs, r.analysis.rows[2].pairs);
	assert_true(r.analysis.rows[0].pairs > 8);
	assert_int_equal(w.starts, sc.nlog);
	assert_int_equal(w.dones, sc.nlog);
	assert_int_equal(w.looks, r.analysis.rows[0].pairs == 32 ? 3 : 2);  /* the last look's too */
	assert_int_equal(w.eta_ns[0], -1);
	for (i = 1; i < w.starts && i < 256; i++)
		assert_int_equal(w.eta_ns[i], (int64_t)(w.total[i] - i) * 1000000000);
	scripted_run_release(&r);
	scripted_release(&sc);
}

/* Wall 0.75x, CPU 0.5x: the candidate does half the work, and waits for a
 * CPU as long as the parent does. While samples are contended the report
 * says the two disagree and which decided; without contention it says
 * nothing (the metrics may differ for other reasons, I/O among them). */
static void wall_cpu(void *ctx, const struct ab_plan_entry *e, unsigned attempt, struct scripted_sample *out)
{
	const int *contended = ctx;
	double jitter = 1 + 0.001 * (double)((e->pair * 7 + e->side * 3) % 5);

	(void)attempt;
	out->value = (e->side == AB_CANDIDATE ? 0.75e8 : 1e8) * jitter;
	out->cpu = (e->side == AB_CANDIDATE ? 0.5e8 : 1e8) * jitter;
	if (*contended)
		out->flags = AB_FLAG_CONTENDED;
}

static void test_wall_and_cpu_disagree(void **state)
{
	struct fixture *f = *state;
	struct scripted sc;
	struct scripted_run r;
	char *const *w;
	int contended, found;

	for (contended = 0; contended < 2; contended++) {
		scripted_init(&sc, wall_cpu, &contended);
		scripted_start(&r, f->store, f->dir, TOLERANT, 3, NULL, &sc);
		for (w = r.analysis.warnings, found = 0; w && *w; w++)
			found |= strstr(*w, "wall time and CPU time disagree while other processes delayed samples: "
					    "wall_ns 0.75") && strstr(*w, "wall_ns decided, the experiment's metric");
		assert_int_equal(found, contended);
		scripted_run_release(&r);
		scripted_release(&sc);
	}
}

/* The real executor starts one process at a time: two started together
 * (a duet pair) are refused with a message, not run one after another. */
/* The experiment `abtool compare` makes of two commands given no rule
 * (cmd_compare.c): its default plan and rule (predicates.h), here with
 * two rows. New string. */
static char *compare_default_yaml(void)
{
	return ab_xasprintf("name: old-vs-new\n"
			    "sides:\n"
			    "  a: {name: old, command: \"true\"}\n"
			    "  b: {name: new, command: \"true\"}\n"
			    "matrix: {n: [1, 2]}\n"
			    "pairs: {min: %d, max: %d}\n"
			    "accept:\n"
			    "  - %s\n", AB_COMPARE_DEFAULT_MIN_PAIRS, AB_COMPARE_DEFAULT_MAX_PAIRS,
			    AB_COMPARE_DEFAULT_RULE);
}

/* 1 when a line of `lines` (NULL-terminated) is `want`. */
static int has_line(char *const *lines, const char *want)
{
	for (; lines && *lines; lines++)
		if (!strcmp(*lines, want))
			return 1;
	return 0;
}

/*
 * compare's default (issue 35, item 14): a 2x difference is shown at the
 * first look (8 pairs), the rows' remaining samples are never run, the
 * verdict is accepted (exit 0) with the faster side named, and the
 * summary line says "ran 2.00 [...] times faster"; an A/A of identical
 * values (every ratio exactly 1) runs every row to the maximum (64
 * pairs) and ends inconclusive (exit 2), "no difference shown, which is
 * not equivalence".
 */
static void test_compare_default_decides(void **state)
{
	struct fixture *f = *state;
	char *yaml = compare_default_yaml(), **lines;
	struct effect ef;
	struct scripted sc;
	struct scripted_run r;
	size_t row;

	effect_init(&ef, 7, 0.02);
	ef.ratio[0] = ef.ratio[1] = 0.5;
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, yaml, 7, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(sc.nlog, 2 * 2 * (AB_COMPARE_DEFAULT_MIN_PAIRS + 1));
	assert_int_equal(scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_STOPPED),
			 2 * 2 * (AB_COMPARE_DEFAULT_MAX_PAIRS - AB_COMPARE_DEFAULT_MIN_PAIRS));
	assert_int_equal(r.analysis.verdict, AB_ACCEPTED);
	assert_int_equal(ab_verdict_exit_code(r.analysis.verdict), 0);
	for (row = 0; row < 2; row++) {
		assert_int_equal(r.analysis.rows[row].pairs, AB_COMPARE_DEFAULT_MIN_PAIRS);
		assert_int_equal(r.analysis.rules[0].rows[row].outcome, AB_PASS);
		assert_non_null(strstr(r.analysis.rules[0].rows[row].detail,
				       "below 1.000 (a difference shown, in favour of new): pass"));
	}
	lines = ab_report_speedup_lines(r.doc, ' ');
	assert_int_equal(ab_strv_len(lines), 2);
	assert_true(!strncmp(lines[0], "n=1: `new` ran 2.0", 18) || !strncmp(lines[0], "n=1: `new` ran 1.9", 18));
	assert_non_null(strstr(lines[0], " times faster than `old`"));
	ab_strv_free(lines);
	scripted_run_release(&r);
	scripted_release(&sc);

	effect_init(&ef, 7, 0);  /* the same value on both sides: d = 0 exactly */
	scripted_init(&sc, effect_fn, &ef);
	scripted_start(&r, f->store, f->dir, yaml, 8, NULL, &sc);
	assert_int_equal(r.err, 0);
	assert_int_equal(sc.nlog, 2 * 2 * (AB_COMPARE_DEFAULT_MAX_PAIRS + 1));
	assert_int_equal(scripted_count(f->store, &r.exp, r.id, AB_SAMPLE_STOPPED), 0);
	assert_int_equal(r.analysis.verdict, AB_INCONCLUSIVE_VERDICT);
	assert_int_equal(ab_verdict_exit_code(r.analysis.verdict), 2);
	for (row = 0; row < 2; row++) {
		assert_int_equal(r.analysis.rows[row].pairs, AB_COMPARE_DEFAULT_MAX_PAIRS);
		assert_int_equal(r.analysis.rules[0].rows[row].outcome, AB_INCONCLUSIVE);
		assert_non_null(strstr(r.analysis.rules[0].rows[row].detail,
				       "no difference shown, which is not equivalence (the interval contains "
				       "1.000): inconclusive"));
	}
	lines = ab_report_speedup_lines(r.doc, ' ');
	assert_true(has_line(lines, "n=2: `old` and `new`: no difference shown, which is not equivalence "
				    "(ratio B/A 1.000 [1.000, 1.000] contains 1)"));
	ab_strv_free(lines);
	scripted_run_release(&r);
	scripted_release(&sc);
	free(yaml);
}

/* compare's default rule is stored with the run's experiment text and
 * resumed like any rule: interrupted at every sample of a 2x comparison,
 * the resumed run decides what the uninterrupted one did, at 8 pairs. */
static void test_compare_default_resumes(void **state)
{
	struct fixture *f = *state;
	char *yaml = compare_default_yaml();
	struct effect ef;

	effect_init(&ef, 9, 0.02);
	ef.ratio[0] = ef.ratio[1] = 0.5;
	resume_everywhere(f, yaml, 2, &ef);
	free(yaml);
}

static void test_process_executor_refuses_two_at_once(void **state)
{
	struct ab_exec_job jobs[2];

	(void)state;
	memset(jobs, 0, sizeof(jobs));
	assert_int_equal(ab_run_executor.run(&ab_run_executor, NULL, jobs, 2), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "one sample at a time"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixed_plan_runs_in_plan_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sequential_stops_as_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_after_interrupt_at_every_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_sequential_at_every_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_stops_at_the_look_that_spends_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checksum_mismatch_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_contended_pair_runs_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reruns_are_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rerun_stays_in_its_look, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reruns_stop_when_one_side_flags_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quiet_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wall_and_cpu_disagree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scaling_rows_run_on_with_their_base, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_default_decides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_default_resumes, setup, teardown),
		cmocka_unit_test(test_process_executor_refuses_two_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
