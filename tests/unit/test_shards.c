/* test_shards.c - shards and their combination (shards.c): which rows
 * each shard measures, and `verdict --group`'s decision over the shards
 * of a group, run by the real scheduler with the scripted sample source
 * (scripted.h) into a real store. Exact: the same values give the same
 * decision however the matrix is split. */
#include "testutil.h"
#include "scripted.h"
#include "error.h"
#include "shards.h"
#include "util.h"

#include <math.h>
#include <sqlite3.h>
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

	f->dir = ab_test_mktemp("shards");
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

/* Row r's candidate runs at ratios[r] of its parent, with a little noise
 * that depends only on the row, the pair and the side. */
static const double ratios[4] = {0.5, 0.97, 1.0, 0.6};

static void values(void *ctx, const struct ab_plan_entry *e, unsigned attempt, struct scripted_sample *out)
{
	uint64_t key = (uint64_t)e->row * 7919u + (uint64_t)(e->pair >= 0 ? e->pair : 900 + e->warmup) * 2u +
		       e->side;
	double noise = ((double)(mix(key) >> 11) / 9007199254740992.0 - 0.5) * 0.04;

	(void)ctx;
	(void)attempt;
	out->value = 1e8 * (e->side == AB_CANDIDATE ? ratios[e->row % 4] : 1.0) * (1 + noise);
}

static const char *const MATRIX =
	"name: scripted-shards\n"
	"sides:\n"
	"  a: {name: old, command: \"true\"}\n"
	"  b: {name: new, command: \"true\"}\n"
	"matrix: {n: [1, 2, 3, 4]}\n"
	"pairs: 8\n"
	"warmup: 0\n"
	"accept:\n"
	"  - {name: gain, where: {n: [1, 4]}, faster_by: 20%}\n"
	"  - {name: no regression, no_regression: 5%}\n";

/* Run shard `k` of `n` of `yaml` under group "g" (k = 0: unsharded);
 * `keep` (may be NULL) receives the run, to release (it holds pointers
 * into itself: it is filled in place, never copied). */
static int64_t run_shard(struct fixture *f, const char *yaml, int k, int n, struct scripted_run *keep)
{
	struct ab_run_options opt;
	struct scripted sc;
	struct scripted_run local, *r = keep ? keep : &local;
	int64_t id;

	memset(&opt, 0, sizeof(opt));
	if (k) {
		opt.shard_index = k;
		opt.shard_count = n;
		opt.group = "g";
	}
	scripted_init(&sc, values, NULL);
	scripted_start(r, f->store, f->dir, yaml, 100 + (uint64_t)k, &opt, &sc);
	assert_int_equal(r->err, 0);
	id = r->id;
	if (!keep)
		scripted_run_release(r);
	scripted_release(&sc);
	return id;
}

/* Two shards decided together give what one unsharded run of the same
 * values gives: the verdict, every row's ratio and interval, and the
 * group document names each row's shard. */
static void test_group_decides_as_one_run(void **state)
{
	struct fixture *f = *state;
	struct scripted_run whole;
	struct ab_shards_group g;
	struct ab_shards_decision d;
	size_t r;

	run_shard(f, MATRIX, 0, 0, &whole);
	run_shard(f, MATRIX, 1, 2, NULL);
	run_shard(f, MATRIX, 2, 2, NULL);
	assert_int_equal(ab_shards_group_load(&g, f->store, "g"), 0);
	assert_int_equal(g.count, 2);
	assert_null(g.missing);
	assert_int_equal(ab_shards_decide(&d, &g, f->store), 0);
	assert_null(d.incomplete);
	assert_int_equal(d.analysis.verdict, whole.analysis.verdict);
	assert_int_equal(d.analysis.verdict, AB_ACCEPTED);
	for (r = 0; r < 4; r++) {
		const struct ab_paired *a = &d.analysis.rows[r].metrics[0].st;
		const struct ab_paired *b = &whole.analysis.rows[r].metrics[0].st;
		assert_true(a->ratio == b->ratio);
		assert_true(a->ci_lower == b->ci_lower);
		assert_true(a->ci_upper == b->ci_upper);
	}
	assert_string_equal(json_string_value(json_object_get(d.doc, "kind")), "group");
	assert_int_equal(json_array_size(json_object_get(json_object_get(d.doc, "group"), "shards")), 2);
	ab_shards_decision_release(&d);
	ab_shards_group_release(&g);
	scripted_run_release(&whole);
}

/* A shard without a finished run leaves the group undecided, and the
 * line says how to run it; an interrupted shard says how to resume it. */
static void test_missing_and_unfinished_shards(void **state)
{
	struct fixture *f = *state;
	struct ab_run_options opt;
	struct ab_shards_group g;
	struct scripted sc;
	struct scripted_run r;

	run_shard(f, MATRIX, 1, 3, NULL);
	assert_int_equal(ab_shards_group_load(&g, f->store, "g"), 0);
	assert_non_null(g.missing);
	assert_non_null(strstr(g.missing[0], "shard 2/3 has no run"));
	assert_non_null(strstr(g.missing[1], "shard 3/3 has no run"));
	assert_null(g.missing[2]);
	ab_shards_group_release(&g);

	memset(&opt, 0, sizeof(opt));
	opt.shard_index = 2;
	opt.shard_count = 3;
	opt.group = "g";
	scripted_init(&sc, values, NULL);
	sc.interrupt_at = 3;
	scripted_start(&r, f->store, f->dir, MATRIX, 5, &opt, &sc);
	assert_int_equal(r.err, AB_EINTERRUPTED);
	scripted_run_release(&r);
	scripted_release(&sc);
	assert_int_equal(ab_shards_group_load(&g, f->store, "g"), 0);
	assert_non_null(strstr(g.missing[0], "shard 2/3 is run"));
	assert_non_null(strstr(g.missing[0], "interrupted (finish it: abtool resume"));
	ab_shards_group_release(&g);
}

/* Shards of different experiment texts, or split different ways, are
 * refused with both runs named; a group the store does not hold says how
 * to make one. */
static void test_mismatched_shards_refused(void **state)
{
	struct fixture *f = *state;
	struct ab_shards_group g;
	char *other = ab_xasprintf("%s# another text\n", MATRIX);

	assert_int_equal(ab_shards_group_load(&g, f->store, "nothing"), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "no run of group 'nothing'"));
	ab_shards_group_release(&g);
	run_shard(f, MATRIX, 1, 2, NULL);
	run_shard(f, other, 2, 2, NULL);
	assert_int_equal(ab_shards_group_load(&g, f->store, "g"), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "experiment text"));
	ab_shards_group_release(&g);
	free(other);
}

/* A row of the plan whose samples are gone from the store (deleted by
 * hand) leaves the group incomplete: never "pass in all 3 rows" for a
 * matrix of 4. */
static void test_row_without_samples_is_incomplete(void **state)
{
	struct fixture *f = *state;
	struct ab_shards_group g;
	struct ab_shards_decision d;
	sqlite3 *db;
	char *sql;
	int64_t second;

	run_shard(f, MATRIX, 1, 2, NULL);
	second = run_shard(f, MATRIX, 2, 2, NULL);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	/* shard 2/2 measures rows 1 and 3 (test_split_and_reproduce) */
	sql = ab_xasprintf("DELETE FROM samples WHERE run_id = %lld AND row_idx = 1", (long long)second);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_true(sqlite3_changes(db) > 0);
	sqlite3_close(db);
	free(sql);
	assert_int_equal(ab_shards_group_load(&g, f->store, "g"), 0);
	assert_int_equal(ab_shards_decide(&d, &g, f->store), 0);
	assert_non_null(d.incomplete);
	assert_non_null(strstr(d.incomplete[0], "no measured pair of row n=2 (shard 2/2, run "));
	assert_null(d.doc);
	ab_shards_decision_release(&d);
	ab_shards_group_release(&g);
}

/* The split: each row in exactly one shard, the shards within one row of
 * each other in size, the Reproduce line's arguments. */
static void test_split_and_reproduce(void **state)
{
	struct ab_experiment e;
	size_t r, k, units, seen[4] = {0, 0, 0, 0};
	char *args;

	(void)state;
	assert_int_equal(ab_experiment_parse(&e, "exp.yaml", MATRIX, strlen(MATRIX)), 0);
	assert_int_equal(ab_shards_of(&e, 0, 3, &units), 1);
	assert_int_equal(units, 4);
	for (r = 0; r < 4; r++)
		seen[ab_shards_of(&e, r, 3, NULL)]++;
	assert_int_equal(seen[1], 2);
	assert_int_equal(seen[2], 1);
	assert_int_equal(seen[3], 1);
	args = ab_shards_reproduce_args(&e, "g");
	assert_string_equal(args, "");
	free(args);
	assert_int_equal(ab_shards_select(&e, 5, 5), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "at most 4 shards"));
	assert_int_equal(ab_shards_select(&e, 2, 3), 0);
	for (r = 0, k = 0; r < 4; r++)
		k += ab_experiment_row_selected(&e, r);
	assert_int_equal(k, 1);
	args = ab_shards_reproduce_args(&e, "pr 12");
	assert_string_equal(args, " --shard 2/3 --group 'pr 12'");
	free(args);
	ab_experiment_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_group_decides_as_one_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_unfinished_shards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatched_shards_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_without_samples_is_incomplete, setup, teardown),
		cmocka_unit_test(test_split_and_reproduce),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
