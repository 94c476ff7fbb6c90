/* test_report.c - the report renderers' helpers that do not need a run:
 * how a metric's value is written for people. */
#include "testutil.h"
#include "report.h"
#include "report_common.h"

#include <math.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_custom_units),
		cmocka_unit_test(test_scaled_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
