/* test_report.c - the report renderers' helpers that do not need a run:
 * how a metric's value is written for people; the profiles' flame graph. */
#include "testutil.h"
#include "report.h"
#include "report_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect(double value, const char *unit, const char *want)
{
	char buf[48];

	ab_report_format_value(buf, sizeof(buf), value, unit);
	if (strcmp(buf, want))
		fail_msg("%.17g %s: got '%s', expected '%s'", value, unit ? unit : "(null)", buf, want);
}

/* Units abtool does not scale: plain numbers, never scientific notation. */
static void test_custom_units(void **state)
{
	(void)state;
	expect(1234, "ops/s", "1234 ops/s");
	expect(12.3456, "ops/s", "12.35 ops/s");
	expect(0.5, "", "0.5");
	expect(9999, "count", "9999 count");
	expect(10000, "count", "10000 count");
	expect(20000, "count", "20000 count");
	expect(123456.4, "ops/s", "123456 ops/s");
	expect(-123456, "ops/s", "-123456 ops/s");
	expect(999999.4, "ops/s", "999999 ops/s");
	expect(999999.6, "ops/s", "1 M ops/s");
	expect(1234567, "ops/s", "1.235 M ops/s");
	expect(2.4e9, "count", "2.4 G count");
	expect(999.96e6, "count", "1 G count");
	expect(3.5e12, "", "3.5 T");
	expect(NAN, "ops/s", "n/a");
}

/* The units abtool scales itself are unchanged. */
static void test_scaled_units(void **state)
{
	(void)state;
	expect(99.9e6, "ns", "99.90 ms");
	expect(1536000, "bytes", "1.465 MiB");
}

/* The differential flame graph: the candidate's widths, red where a
 * stack's share grew, blue where it shrank, names escaped; an unavailable
 * side says why; no profiles, no section. */
static void test_flame(void **state)
{
	json_t *p = json_pack("[{s:i, s:s, s:{s:b, s:s, s:i, s:s}, s:{s:b, s:s, s:i, s:s}}, "
			      "{s:i, s:s, s:{s:b, s:s}, s:{s:b, s:s}}]",
			      "row", 0, "label", "lanes=1",
			      "parent", "ok", 1, "event", "cpu-clock", "runs", 2,
			      "folded", "b;main;hot_a 50\nb;main;hot_b 50\n",
			      "candidate", "ok", 1, "event", "cpu-clock", "runs", 2,
			      "folded", "b;main;hot_a 25\nb;main;hot_b 50\nb;main;x<y> 25\n",
			      "row", 1, "label", "lanes=2", "parent", "ok", 0, "reason", "perf is not on PATH",
			      "candidate", "ok", 0, "reason", "perf is not on PATH");
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&text, &len);
	assert_int_equal(ab_report_flame(f, p), 0);
	fclose(f);
	assert_non_null(strstr(text, "<svg class=\"flamegraph\""));
	/* hot_a: 25% of the candidate (width 0.25), down from 50%: blue */
	assert_non_null(strstr(text, "data-x=\"0.000000\" data-w=\"0.250000\" data-d=\"3\" data-n=\"hot_a\""));
	assert_non_null(strstr(text, "change -25.00 pp</title><rect x=\"0.00\" y=\"0.0\" width=\"300.00\""));
	assert_non_null(strstr(text, "fill=\"rgb(80,80,240)\""));
	/* x<y> is new (red) and escaped */
	assert_non_null(strstr(text, "data-n=\"x&lt;y&gt;\""));
	assert_null(strstr(text, "x<y>"));
	assert_non_null(strstr(text, "<p>No profile: perf is not on PATH.</p>"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	assert_int_equal(ab_report_flame(f, NULL), 0);
	fclose(f);
	assert_int_equal(len, 0);
	free(text);
	json_decref(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_custom_units),
		cmocka_unit_test(test_scaled_units),
		cmocka_unit_test(test_flame),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
