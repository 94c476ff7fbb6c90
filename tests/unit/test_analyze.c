/* test_analyze.c - the reader of `abtool analyze` on inputs the fuzzer
 * (fuzz/fuzz_analyze.c) found trouble with: every value converts without
 * overflow, a product of parameter columns too large for a matrix is an
 * error rather than an overflowed allocation, and a column with a new
 * value on every line costs linear time. */
#include "testutil.h"
#include "pairs_file.h"
#include "analysis.h"
#include "rules.h"
#include "error.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int read_text(struct ab_pairs_file *in, const char *path, const char *text)
{
	return ab_pairs_file_read(in, path, text, strlen(text), NULL);
}

static void test_wide_and_long(void **state)
{
	struct ab_pairs_file in;

	(void)state;
	assert_int_equal(read_text(&in, "p.tsv", "lanes\tpair\tparent\tcandidate\n"
				   "1\t1\t10\t9\n2\t1\t20\t18\n1\t2\t11\t9.5\n"), 0);
	assert_int_equal(in.wide, 1);
	assert_int_equal(in.exp.nparams, 1);
	assert_int_equal(ab_experiment_nrows(&in.exp), 2);
	assert_int_equal(in.nsamples, 6);
	assert_int_equal(in.exp.pairs, 2);
	assert_int_equal(in.samples[0].wall_ns, 10);
	ab_pairs_file_release(&in);
	assert_int_equal(read_text(&in, "p.csv", "pair,side,value\n1,A,3\n1,B,2\n"), 0);
	assert_int_equal(in.wide, 0);
	assert_int_equal(in.nsamples, 2);
	ab_pairs_file_release(&in);
}

/* A file that starts with a UTF-8 byte order mark (a spreadsheet's "CSV
 * UTF-8") reads like one without: the mark used to stick to the first
 * column's name, so the header had no 'parent' column. CRLF line ends
 * read the same too. */
static void test_bom_and_crlf(void **state)
{
	struct ab_pairs_file in;

	(void)state;
	assert_int_equal(read_text(&in, "p.csv", "\xEF\xBB\xBFparent,candidate\r\n10,9\r\n11,10\r\n"), 0);
	assert_int_equal(in.wide, 1);
	assert_int_equal(in.exp.nparams, 0);
	assert_int_equal(in.nsamples, 4);
	assert_true(in.samples[1].metrics[0] == 9);
	ab_pairs_file_release(&in);
	assert_int_equal(read_text(&in, "p.tsv", "\xEF\xBB\xBFlanes\tparent\tcandidate\n1\t10\t9\n"), 0);
	assert_int_equal(in.exp.nparams, 1);
	assert_string_equal(in.exp.matrix[0].name, "lanes");
	ab_pairs_file_release(&in);
}

/* Any positive number is a value; the display field wall_ns used to
 * take it by a conversion that overflows beyond 2^63 (UB; INT64_MIN on
 * x86-64, so the sample showed a negative time). */
static void test_huge_value(void **state)
{
	struct ab_pairs_file in;

	(void)state;
	assert_int_equal(read_text(&in, "p.tsv", "parent\tcandidate\n1e300\t99122222222222222222222\n"), 0);
	assert_int_equal(in.nsamples, 2);
	assert_true(in.samples[0].metrics[0] == 1e300);
	assert_true(in.samples[0].wall_ns == INT64_MAX);
	assert_true(in.samples[1].wall_ns == INT64_MAX);
	ab_pairs_file_release(&in);
}

/* 64 parameter columns of two values make 2^64 rows, which wrapped to 0:
 * a one-element array was then indexed by huge row numbers. */
static void test_row_product_bounded(void **state)
{
	struct ab_pairs_file in;
	char *text = ab_xstrdup(""), *next;
	int line, c;

	(void)state;
	for (line = 0; line < 3; line++) {
		for (c = 0; c < 64; c++) {
			if (line == 0)
				next = ab_xasprintf("%sc%d\t", text, c);
			else
				next = ab_xasprintf("%s%c\t", text, line == 1 ? 'a' : 'b');
			free(text);
			text = next;
		}
		next = ab_xasprintf("%s%s\n", text, line == 0 ? "parent\tcandidate" : "1\t2");
		free(text);
		text = next;
	}
	assert_int_equal(read_text(&in, "p.tsv", text), AB_EINVALID);
	assert_string_equal(ab_error_last(), "p.tsv:1: column 'c13' (2 distinct values): the parameter "
			    "columns make more than 10000 rows (the product of their numbers of distinct "
			    "values); is it a parameter? (abtool analyze --max-rows N analyzes more rows, up "
			    "to 1000000; the default is 10000)");
	ab_pairs_file_release(&in);
	{
		/* --max-rows at its largest: still bounded before the product wraps */
		struct ab_pairs_file_options opt = {"value", "", AB_LOWER_IS_BETTER, AB_MAX_ROWS, 0};

		assert_int_equal(ab_pairs_file_read(&in, "p.tsv", text, strlen(text), &opt), AB_EINVALID);
		assert_non_null(strstr(ab_error_last(), "p.tsv:1: column 'c19' (2 distinct values): the "
				       "parameter columns make more than 1000000 rows"));
		ab_pairs_file_release(&in);
	}
	free(text);
}

/* Read an id column of n distinct values; the CPU seconds it took. */
static double read_distinct(size_t n)
{
	struct ab_pairs_file in;
	struct ab_pairs_file_options opt = {"value", "", AB_LOWER_IS_BETTER, n, 0};  /* --max-rows n */
	size_t i, len = 0;
	char *text = ab_xmalloc(n * 40 + 64), last[32];
	clock_t t0;
	double cpu_s;

	len += (size_t)sprintf(text, "run\tparent\tcandidate\n");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "r%zu\t%zu\t%zu\n", i, 100 + i % 7, 99 + i % 5);
	t0 = clock();
	assert_int_equal(ab_pairs_file_read(&in, "p.tsv", text, len, &opt), 0);
	cpu_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(ab_experiment_nrows(&in.exp), n);
	snprintf(last, sizeof(last), "r%zu", n - 1);
	assert_string_equal(in.exp.matrix[0].values[n - 1], last);
	assert_int_equal(in.samples[2 * n - 1].entry.row, n - 1);
	ab_pairs_file_release(&in);
	free(text);
	return cpu_s;
}

/* An id column with a new value on every line: finding a value among
 * those seen was a linear search, O(lines^2) (50000 lines took about
 * 20 s); hashed, it is linear. 10 times the lines, in the same process,
 * must take about 10 times the CPU, not 100 (no absolute time). */
static void test_distinct_values_linear(void **state)
{
	double small, large;

	(void)state;
	small = read_distinct(5000);
	large = read_distinct(50000);
	if (small > 0.01 && large / small > 40)
		fail_msg("10x the lines took %.0fx the CPU (%.2f s against %.2f s): not linear",
			 large / small, large, small);
}

/* Without an order column the samples carry no order: an odd pair count
 * is no imbalance to warn about; with one, it is. A file that is not TSV
 * or CSV is named as such, with its line, besides libcsv's words. */
static void test_order_and_not_csv(void **state)
{
	const char *odd = "pair,parent,candidate\n1,10,9\n2,11,9.5\n3,10.5,9.1\n";
	const char *odd_ordered = "pair,order,parent,candidate\n1,AB,10,9\n2,BA,11,9.5\n3,BA,10.5,9.1\n";
	struct ab_pairs_file in;
	struct ab_analysis a;
	char **w;
	int odd_warned;

	(void)state;
	assert_int_equal(read_text(&in, "w.csv", odd), 0);
	assert_int_equal(in.exp.pairs, 3);
	assert_int_equal(in.exp.order_unknown, 1);
	ab_analysis_run(&a, &in.exp, in.samples, in.nsamples);
	ab_rules_evaluate(&a, NULL, NULL);
	for (w = a.warnings, odd_warned = 0; w && *w; w++)
		odd_warned |= strstr(*w, "is odd") != NULL;
	assert_false(odd_warned);
	ab_analysis_release(&a);
	ab_pairs_file_release(&in);

	assert_int_equal(read_text(&in, "w.csv", odd_ordered), 0);
	assert_int_equal(in.exp.order_unknown, 0);
	ab_analysis_run(&a, &in.exp, in.samples, in.nsamples);
	ab_rules_evaluate(&a, NULL, NULL);
	for (w = a.warnings, odd_warned = 0; w && *w; w++)
		odd_warned |= strstr(*w, "3 pairs is odd") != NULL;
	assert_true(odd_warned);
	ab_analysis_release(&a);
	ab_pairs_file_release(&in);

	/* a YAML file given by mistake: the quotes in line 3 break TSV */
	assert_int_equal(read_text(&in, "e3.yaml", "name: e3\nrepo: r3\nbuild: \"true\"\npairs: 2\n"),
			 AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "e3.yaml:3: not a line of TSV: "));
	assert_non_null(strstr(ab_error_last(), "(libcsv: error parsing data while strict checking enabled); "
			       "abtool analyze reads TSV or CSV with a header line"));
	ab_pairs_file_release(&in);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_and_long),
		cmocka_unit_test(test_bom_and_crlf),
		cmocka_unit_test(test_huge_value),
		cmocka_unit_test(test_row_product_bounded),
		cmocka_unit_test(test_distinct_values_linear),
		cmocka_unit_test(test_order_and_not_csv),
	};

	return cmocka_run_group_tests_name("analyze", tests, NULL, NULL);
}
