/* test_report_text.c - the terminal view (report_text.c): no line wider
 * than the width, wrapping only at spaces and never inside a number, the
 * verdict first, colour only when asked, control characters of the
 * document blanked. Over the golden report (tests/golden/report.json) and
 * a document made to be hard to wrap. */
#include "testutil.h"
#include "report.h"
#include "report_common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static json_t *golden(void)
{
	const char *src = getenv("ABTOOL_TEST_SRC");
	char path[4096];
	json_t *doc;

	snprintf(path, sizeof(path), "%s/tests/golden/report.json", src ? src : ".");
	doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	return doc;
}

/* A document with a long row label, long reasons full of numbers, a
 * control character and a repeated warning. */
static json_t *hard(void)
{
	json_t *doc = json_pack(
		"{s:s, s:s, s:I, s:[], s:[s, s, s], s:[{s:{s:s}, s:s, s:s, s:{s:f}, s:{s:f}, s:f, s:[f, f],"
		" s:I, s:I, s:b}], s:[{s:s, s:s, s:s, s:[{s:{s:s}, s:s, s:s}]}]}",
		"experiment", "wrap\033[31m-me", "verdict", "rejected", "run_id", (json_int_t)12, "reasons",
		"warnings", "host: load average is 12345.678 over the last minute (threshold 0.50)",
		"host: load average is 12345.678 over the last minute (threshold 0.50)",
		"a/very/long/path/without/any/space/at/all/that/is/wider/than/a/narrow/terminal/of/36/columns",
		"rows", "params", "size", "1048576", "label", "size=1048576 layout=interleaved-by-cache-line",
		"unit", "ns", "parent", "median", 123456789.0, "candidate", "median", 234567890.0, "ratio",
		1.9000123, "ci", 1.8512345, 1.9876543, "pair_wins", (json_int_t)0, "pairs", (json_int_t)8,
		"checksum_match", 1, "rules", "name", "no regression", "outcome", "fail", "detail", "x",
		"rows", "params", "size", "1048576", "outcome", "fail", "detail",
		"size=1048576 layout=interleaved-by-cache-line: ratio 1.900 [1.851, 1.988] (0/8 pair wins): "
		"lower bound 1.851 above 1.020 (a regression above 2%), p 0.00390625 after Holm's adjustment "
		"over 12 rows: fail");
	assert_non_null(doc);
	return doc;
}

/* The caller's pointer receives the text: a local of this function
 * returned instead would, once inlined at -O3, make gcc 12 think that the
 * caller's pointers into the text point at that local (-Wdangling-pointer). */
static void render(char **out, const json_t *doc, int width, int color)
{
	static const char *const where[] = {"full report: abtool report 12 --store /a/long/store/path/abtool.db",
					    NULL};
	struct ab_report_text_options opt = {width, color, where, 0, NULL};

	*out = NULL;
	assert_int_equal(ab_report_text(out, doc, &opt), 0);
	assert_non_null(*out);
}

/* Every line at most `width` columns; no break between two characters
 * of a number (a digit, or a '.' or ',' between digits, at the end of
 * one line and at the start, after the indent, of the next). */
static void check_lines(const char *text, size_t width)
{
	char *copy = strdup(text), *save = NULL, *line, *prev = NULL;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *start = line;
		size_t w = ab_report_text_width(line);

		if (w > width)
			fail_msg("a line of %zu columns at width %zu: '%s'", w, width, line);
		while (*start == ' ')
			start++;
		/* a continuation line is indented by 4 (a new item by 0 or 2) */
		if (prev && start - line == 4 && *prev) {
			char last = prev[strlen(prev) - 1];
			if ((isdigit((unsigned char)last) || last == '.') &&
			    (isdigit((unsigned char)*start) || *start == '.' || *start == '%'))
				fail_msg("a number split across lines: '%s' / '%s'", prev, line);
		}
		prev = line;
	}
	free(copy);
}

static void test_widths(void **state)
{
	json_t *docs[2] = {golden(), hard()};
	int widths[] = {20, 36, 50, 79, 80, 120, 200}, i, d;

	(void)state;
	for (d = 0; d < 2; d++)
		for (i = 0; i < (int)(sizeof(widths) / sizeof(*widths)); i++) {
			char *plain, *colored;

			render(&plain, docs[d], widths[i], 0);
			render(&colored, docs[d], widths[i], 1);

			check_lines(plain, (size_t)widths[i]);
			check_lines(colored, (size_t)widths[i]);
			assert_null(strchr(plain, '\033'));
			assert_non_null(strstr(colored, "\033["));
			free(plain);
			free(colored);
		}
	json_decref(docs[0]);
	json_decref(docs[1]);
}

/* At 36 columns the numbers of the golden rows are whole on their lines. */
static void test_numbers_whole(void **state)
{
	json_t *doc = golden();
	char *text;
	static const char *const whole[] = {"182.8 ms", "107.5 ms", "0.586 [0.571, 0.593]", "wins 6/6",
					    "0.591 [0.584, 0.602]", "178.3 ms", NULL};
	const char *const *w;

	(void)state;
	render(&text, doc, 36, 0);
	for (w = whole; *w; w++)
		if (!strstr(text, *w))
			fail_msg("'%s' is not whole at 36 columns:\n%s", *w, text);
	assert_int_equal(strncmp(text, "? inconclusive · golden-fixture", strlen("? inconclusive · golden-fixture")), 0);
	free(text);
	json_decref(doc);
}

/* The verdict first; at 200 columns one table line per row; the rule
 * that did not pass, the warnings with their count, where the report is. */
static void test_content(void **state)
{
	json_t *doc = hard();
	char *text, *line;

	(void)state;
	render(&text, doc, 200, 0);
	assert_int_equal(strncmp(text, "✗ rejected · wrap [31m-me · run 12\n", strlen("✗ rejected · wrap [31m-me · run 12\n")), 0);
	line = strstr(text, "size=1048576 layout=interleaved-by-cache-line  123.5 ms");
	assert_non_null(line);
	assert_non_null(strstr(line, "1.900 [1.851, 1.988]  0/8"));
	assert_non_null(strstr(text, "✗ no regression (fail): size=1048576"));
	assert_non_null(strstr(text, "3 warnings:\n  - host: load average is 12345.678 over the last minute "
				     "(threshold 0.50) (2 times)\n"));
	assert_non_null(strstr(text, "\nfull report: abtool report 12 --store /a/long/store/path/abtool.db\n"));
	assert_null(strchr(text, '\033'));
	free(text);
	line = ab_report_verdict_line(doc);
	assert_string_equal(line, "rejected (1 of 1 rule failed) · wrap [31m-me · run 12");
	free(line);
	/* the log line counts as the headline does: a failed and an
	 * inconclusive rule are "1 of 2 rules failed" in both */
	{
		char head[96];
		json_t *rules = json_object_get(doc, "rules"), *second = json_deep_copy(json_array_get(rules, 0));

		json_object_set_new(second, "outcome", json_string("inconclusive"));
		json_array_append_new(rules, second);
		line = ab_report_verdict_line(doc);
		assert_string_equal(line, "rejected (1 of 2 rules failed) · wrap [31m-me · run 12");
		free(line);
		assert_string_equal(ab_report_rules_line(head, sizeof(head), rules), "1 of 2 rules failed:");
		json_object_set_new(json_array_get(rules, 0), "outcome", json_string("pass"));
		json_object_set_new(second, "outcome", json_string("pass"));
		line = ab_report_verdict_line(doc);
		assert_string_equal(line, "rejected (both rules passed) · wrap [31m-me · run 12");
		free(line);
	}
	json_decref(doc);
}

/* The number of lines of `text`. */
static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* A view taller than its height keeps the verdict, the rows and the
 * failed rule and folds the warnings into one line naming the command
 * that shows them; one that fits, or a height of 0, keeps them all. */
static void test_height(void **state)
{
	static const char *const where[] = {"full report: abtool report 12", NULL};
	json_t *doc = hard();
	struct ab_report_text_options opt = {80, 0, where, 0, "abtool report 12"};
	char *full, *text;
	size_t n;

	(void)state;
	assert_int_equal(ab_report_text(&full, doc, &opt), 0);
	n = count_lines(full);
	assert_non_null(strstr(full, "3 warnings:\n  - host: load average"));
	opt.height = (int)n;  /* it fits: nothing folds */
	assert_int_equal(ab_report_text(&text, doc, &opt), 0);
	assert_string_equal(text, full);
	free(text);
	opt.height = (int)n - 1;
	assert_int_equal(ab_report_text(&text, doc, &opt), 0);
	assert_null(strstr(text, "load average"));
	assert_non_null(strstr(text, "\n3 warnings: abtool report 12 shows them\n\nfull report: abtool report 12\n"));
	assert_int_equal(strncmp(text, "✗ rejected · ", strlen("✗ rejected · ")), 0);
	assert_non_null(strstr(text, "✗ size=1048576 layout=interleaved-by-cache-line: fail\n"));
	assert_non_null(strstr(text, "✗ no regression (fail): size=1048576"));
	/* everything before the warnings is the full view's */
	assert_int_equal(strncmp(text, full, (size_t)(strstr(full, "3 warnings:") - full)), 0);
	assert_true(count_lines(text) < n);
	free(text);
	/* no command to name: --verbose; coloured, the count is yellow */
	opt.warnings_hint = NULL;
	opt.color = 1;
	opt.height = 1;
	assert_int_equal(ab_report_text(&text, doc, &opt), 0);
	assert_non_null(strstr(text, "\n\033[33m3 warnings:\033[0m --verbose shows them\n"));
	free(text);
	free(full);
	json_decref(doc);
}

/* A comparison of old_implementation and new_implementation over a
 * matrix of `nrows` rows (x=1..), each "no difference shown", with
 * `nwarn` distinct warnings, as compare -L x 1,...,8 makes. */
static json_t *matrix(int nrows, int nwarn)
{
	json_t *doc = json_pack("{s:s, s:s, s:I, s:[{s:s, s:s}, {s:s, s:s}], s:[], s:[], s:[]}", "kind",
				"compare", "verdict", "inconclusive", "run_id", (json_int_t)98, "sides", "side",
				"a", "name", "old_implementation", "side", "b", "name", "new_implementation",
				"rows", "rules", "warnings");
	int i;

	assert_non_null(doc);
	for (i = 1; i <= nrows; i++) {
		char label[16], x[8];

		snprintf(x, sizeof(x), "%d", i);
		snprintf(label, sizeof(label), "x=%d", i);
		json_array_append_new(json_object_get(doc, "rows"),
				      json_pack("{s:{s:s}, s:s, s:s, s:s, s:s, s:{s:f}, s:{s:f}, s:f, s:[f, f],"
						" s:I, s:I, s:b}", "params", "x", x, "label", label, "metric",
						"wall_ns", "unit", "ns", "better", "lower", "parent", "median",
						1.0e6 * i, "candidate", "median", 1.0e6 * i + 5e5, "ratio", 1.029,
						"ci", 0.9996, 1.015, "pair_wins", (json_int_t)4, "pairs",
						(json_int_t)8, "checksum_match", 1));
	}
	for (i = 0; i < nwarn; i++)
		json_array_append_new(json_object_get(doc, "warnings"),
				      json_sprintf("host: warning number %d, long enough to wrap over two lines of "
						   "an 80-column terminal when it is printed in full", i));
	return doc;
}

/* At 80x24 a matrix of 8 rows keeps the verdict and the rows: its
 * warnings fold, then its 8 summary lines (two lines each at 80 columns)
 * fold into one line naming the command that shows them; a single row's
 * summary line stays when the view fits with it. */
static void test_height_matrix(void **state)
{
	static const char *const where[] = {"full report: abtool report 98", NULL};
	struct ab_report_text_options opt = {80, 0, where, 24, "abtool report 98"};
	json_t *doc = matrix(8, 21);
	char *text;

	(void)state;
	assert_int_equal(ab_report_text(&text, doc, &opt), 0);
	check_lines(text, 80);
	if (count_lines(text) > 24)
		fail_msg("%zu lines at 80x24:\n%s", count_lines(text), text);
	assert_int_equal(strncmp(text, "? inconclusive · ", strlen("? inconclusive · ")), 0);
	assert_non_null(strstr(text, "\n? x=8: -\n"));  /* the names are too wide for the table */
	assert_non_null(strstr(text, "\n21 warnings: abtool report 98 shows them\n"));
	assert_non_null(strstr(text, "\n8 summary lines: abtool report 98 shows them\n"));
	assert_null(strstr(text, "no difference shown"));
	free(text);
	json_decref(doc);
	/* one row, a few warnings: its summary line fits and stays */
	doc = matrix(1, 3);
	assert_int_equal(ab_report_text(&text, doc, &opt), 0);
	assert_true(count_lines(text) <= 24);
	assert_non_null(strstr(text, "x=1: `old_implementation` and `new_implementation`: no difference shown"));
	assert_null(strstr(text, "summary line"));
	free(text);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_numbers_whole),
		cmocka_unit_test(test_content),
		cmocka_unit_test(test_height),
		cmocka_unit_test(test_height_matrix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
