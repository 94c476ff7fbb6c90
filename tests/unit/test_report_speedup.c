/* test_report_speedup.c - hyperfine's summary line of a comparison
 * (report_speedup.c): which side is named faster for either direction of
 * the metric and of the ratio, the speed-up and its interval as
 * reciprocals when B is faster, enough decimals to show a bound above 1,
 * "no difference shown" for an interval that contains 1 or an empty one,
 * labels only for a matrix, nothing for an invalid run or a run without
 * sides, and the Markdown form with the names as code spans. */
#include "testutil.h"
#include "report_common.h"
#include "report_speedup.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of a comparison: B/A `ratio` with [l, u] on `metric` (its unit
 * and direction). */
static json_t *row(const char *label, const char *metric, const char *unit, const char *better, double ratio,
		   double l, double u)
{
	return json_pack("{s:s, s:{s:s}, s:s, s:s, s:s, s:f, s:[f, f], s:b}", "label", label, "params", "n",
			 label, "metric", metric, "unit", unit, "better", better, "ratio", ratio, "ci", l, u,
			 "ci_empty", l > u);
}

/* A comparison of `old` (A) and `new` (B) with `rows` (stolen). */
static json_t *doc_of(const char *verdict, json_t *rows)
{
	return json_pack("{s:s, s:s, s:[{s:s, s:s}, {s:s, s:s}], s:o}", "kind", "compare", "verdict", verdict,
			 "sides", "side", "a", "name", "old", "side", "b", "name", "new", "rows", rows);
}

static void test_lines(void **state)
{
	json_t *rows = json_array(), *doc;
	char **lines;

	(void)state;
	/* B half the time: B is faster by 1/ratio, its interval [1/U, 1/L] */
	json_array_append_new(rows, row("n=1", "wall_ns", "ns", "lower", 0.5, 0.4, 0.625));
	/* B twice the time: A is faster */
	json_array_append_new(rows, row("n=2", "wall_ns", "ns", "lower", 2.0, 1.9, 2.1));
	/* higher is better and B higher: B better, on a metric that is no time */
	json_array_append_new(rows, row("n=3", "ops", "ops/s", "higher", 1.25, 1.2, 1.3));
	/* a bound just above 1: the decimals show it */
	json_array_append_new(rows, row("n=4", "wall_ns", "ns", "lower", 1.006, 1.003, 1.009));
	/* the interval contains 1 */
	json_array_append_new(rows, row("n=5", "wall_ns", "ns", "lower", 0.99, 0.97, 1.01));
	/* the looks' intervals do not intersect: nothing is shown */
	json_array_append_new(rows, row("n=6", "wall_ns", "ns", "lower", 0.9, 0.95, 0.85));
	doc = doc_of("accepted", rows);
	lines = ab_report_speedup_lines(doc, '+');
	assert_int_equal(ab_strv_len(lines), 6);
	assert_string_equal(lines[0], "n=1: `new` ran 2.00+[1.60,+2.50] times faster than `old`");
	assert_string_equal(lines[1], "n=2: `old` ran 2.00+[1.90,+2.10] times faster than `new`");
	assert_string_equal(lines[2], "n=3: `new` was 1.25+[1.20,+1.30] times better than `old` on ops");
	assert_string_equal(lines[3], "n=4: `old` ran 1.006+[1.003,+1.009] times faster than `new`");
	assert_string_equal(lines[4], "n=5: `old` and `new`: no difference shown, which is not equivalence "
				      "(ratio B/A 0.990+[0.970,+1.010] contains 1)");
	assert_string_equal(lines[5], "n=6: `old` and `new`: no difference shown (the looks' intervals do "
				      "not intersect, so nothing is decided)");
	ab_strv_free(lines);
	json_decref(doc);
}

/* Markdown: one line without a matrix, names as code spans escaped as
 * the report escapes them; nothing for an invalid run or an A/B run of
 * two revisions (no sides). */
static void code(FILE *f, const char *s)
{
	fprintf(f, "<%s>", s);
}

static void text(FILE *f, const char *s)
{
	fputs(s, f);
}

static void test_markup_and_none(void **state)
{
	static const struct ab_report_markup m = {code, text, "**", "**"};
	json_t *rows = json_array(), *doc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_array_append_new(rows, row("all", "wall_ns", "ns", "lower", 0.25, 0.2, 0.3));
	json_object_clear(json_object_get(json_array_get(rows, 0), "params"));
	doc = doc_of("accepted", rows);
	f = open_memstream(&buf, &len);
	ab_report_speedups(f, doc, &m);
	fclose(f);
	assert_string_equal(buf, "<new> ran 4.00 [3.33, 5.00] times faster than <old>\n\n");
	free(buf);
	json_object_set_new(doc, "verdict", json_string("invalid"));
	assert_null(ab_report_speedup_lines(doc, ' '));
	json_object_set_new(doc, "verdict", json_string("accepted"));
	json_object_del(doc, "sides");
	assert_null(ab_report_speedup_lines(doc, ' '));
	f = open_memstream(&buf, &len);
	ab_report_speedups(f, doc, &m);
	fclose(f);
	assert_string_equal(buf, "");
	free(buf);
	json_decref(doc);
}

/* A bound within 0.0005 of 1 gets the digits that keep it from printing
 * as 1.000; a sequential row's estimate outside its repeated interval is
 * said to be, as the Markdown says it. */
static void test_near_1_and_outside(void **state)
{
	json_t *rows = json_array(), *doc;
	char **lines;

	(void)state;
	json_array_append_new(rows, row("n=1", "wall_ns", "ns", "lower", 1.029, 0.9996, 1.015));
	json_array_append_new(rows, row("n=2", "wall_ns", "ns", "lower", 1.0, 1.0, 1.015));
	doc = doc_of("inconclusive", rows);
	lines = ab_report_speedup_lines(doc, ' ');
	assert_int_equal(ab_strv_len(lines), 2);
	assert_string_equal(lines[0], "n=1: `old` and `new`: no difference shown, which is not equivalence "
				      "(ratio B/A 1.0290 [0.9996, 1.0150] contains 1) (the estimate of all pairs "
				      "lies outside the repeated interval)");
	assert_string_equal(lines[1], "n=2: `old` and `new`: no difference shown, which is not equivalence "
				      "(ratio B/A 1.000 [1.000, 1.015] contains 1)");
	ab_strv_free(lines);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_markup_and_none),
		cmocka_unit_test(test_near_1_and_outside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
