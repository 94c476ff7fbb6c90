/* report_junit.c - JUnit XML of a report document (see report.h), for CI
 * systems that display test results. The elements and attributes are
 * those the Jenkins (xunit junit-10) and GitLab JUnit formats document
 * (docs/ci.md, "JUnit"). */
#include "report.h"
#include "report_common.h"
#include "error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct junit_counts {
	size_t tests, failures, errors, skipped;
	int unmet;      /* environment.require conditions were not met */
};

/* Seconds of the samples of the document's row with these params (rows[].samples_wall_ns),
 * or of every row when `params` is NULL; 0 for documents without the field. */
static double row_seconds(const json_t *doc, const json_t *params)
{
	const json_t *row;
	double ns = 0;
	size_t i;

	json_array_foreach(json_object_get(doc, "rows"), i, row)
		if (!params || json_equal(json_object_get(row, "params"), (json_t *)params))
			ns += (double)ab_report_int(row, "samples_wall_ns");
	return ns / 1e9;
}

/* How many rule cases cover the rows of `params` (each rule's row with
 * those params is one case). */
static size_t cases_of_row(const json_t *doc, const json_t *params)
{
	const json_t *rule, *row;
	size_t i, j, n = 0;

	json_array_foreach(json_object_get(doc, "rules"), i, rule)
		json_array_foreach(json_object_get(rule, "rows"), j, row)
			n += json_equal(json_object_get(row, "params"), (json_t *)params);
	return n;
}

/* A rule case's time: its row's sample time shared equally among the
 * cases on that row, so that the cases add up to the suite's time. */
static double case_seconds(const json_t *doc, const json_t *params)
{
	size_t n = cases_of_row(doc, params);

	return row_seconds(doc, params) / (double)(n ? n : 1);
}

static void count_cases(struct junit_counts *c, const json_t *doc, int inconclusive_fails)
{
	const json_t *rule, *row, *r;
	size_t i, j;

	memset(c, 0, sizeof(*c));
	c->errors = !strcmp(ab_report_str(doc, "verdict"), "invalid");
	c->tests = c->errors;
	/* Unmet environment.require conditions: the verdict is inconclusive
	 * whatever the rules say, so the host gets a test case of its own. */
	json_array_foreach(json_object_get(doc, "reasons"), i, r)
		c->unmet |= !strncmp(json_string_value(r), "environment.require: ", 21);
	c->tests += (size_t)c->unmet;
	if (inconclusive_fails)
		c->failures += (size_t)c->unmet;
	else
		c->skipped += (size_t)c->unmet;
	json_array_foreach(json_object_get(doc, "rules"), i, rule)
		json_array_foreach(json_object_get(rule, "rows"), j, row) {
			int inconclusive = !strcmp(ab_report_str(row, "outcome"), "inconclusive");
			c->tests++;
			c->failures += !strcmp(ab_report_str(row, "outcome"), "fail") ||
				       (inconclusive && inconclusive_fails);
			c->skipped += inconclusive && !inconclusive_fails;
		}
}

/* `<testcase classname="EXPERIMENT[.GROUP]" name="` (the name follows). */
static void case_open(FILE *f, const json_t *doc, const char *group)
{
	fputs("  <testcase classname=\"", f);
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	if (group) {
		fputc('.', f);
		ab_report_escape_xml(f, group);
	}
	fputs("\" name=\"", f);
}

/* The run-level cases: "integrity" (an <error>) when the verdict is invalid, "environment"
 * when environment.require was not met. Their time is the run's when no rule case has it
 * (shared between them), else 0: the rule cases already add up to it. */
static void run_cases(FILE *f, const json_t *doc, const struct junit_counts *c, int inconclusive_fails)
{
	const json_t *reasons = json_object_get(doc, "reasons"), *r;
	size_t i, nrun = (size_t)c->errors + (size_t)c->unmet;
	double seconds = c->tests > nrun ? 0 : row_seconds(doc, NULL) / (double)(nrun ? nrun : 1);

	if (c->errors) {
		case_open(f, doc, NULL);
		fprintf(f, "integrity\" time=\"%.3f\">\n    <error message=\"", seconds);
		ab_report_escape_xml(f, json_string_value(json_array_get(reasons, 0)));
		fprintf(f, "\">");
		json_array_foreach(reasons, i, r) {
			ab_report_escape_xml(f, json_string_value(r));
			fputc('\n', f);
		}
		fprintf(f, "</error>\n  </testcase>\n");
	}
	if (c->unmet) {
		case_open(f, doc, NULL);
		fprintf(f, "environment\" time=\"%.3f\">\n    <%s message=\"", seconds,
			inconclusive_fails ? "failure" : "skipped");
		json_array_foreach(reasons, i, r)
			if (!strncmp(json_string_value(r), "environment.require: ", 21)) {
				ab_report_escape_xml(f, json_string_value(r) + 21);
				fputs("; ", f);
			}
		fprintf(f, "the verdict is inconclusive%s\"/>\n  </testcase>\n",
			inconclusive_fails ? " (--inconclusive=reject)" : "");
	}
}

/* One rule's row: classname EXPERIMENT.RULE (test reporters group by it), name "RULE [params]",
 * its share of the row's sample time (case_seconds), a <failure> or <skipped> when it did not
 * pass, and its detail (the ratio line and the rule's numbers) as <system-out> whatever the
 * outcome. */
static void rule_case(FILE *f, const json_t *doc, const json_t *rule, const json_t *row,
		      int inconclusive_fails)
{
	const char *outcome = ab_report_str(row, "outcome"), *key;
	const json_t *params = json_object_get(row, "params");
	json_t *value;
	int first = 1, failed = !strcmp(outcome, "fail") || inconclusive_fails;

	case_open(f, doc, ab_report_str(rule, "name"));
	ab_report_escape_xml(f, ab_report_str(rule, "name"));
	fputs(" [", f);
	json_object_foreach((json_t *)params, key, value) {
		char *v = json_dumps(value, JSON_ENCODE_ANY);
		fprintf(f, "%s", first ? "" : " ");
		ab_report_escape_xml(f, key);
		fputc('=', f);
		ab_report_escape_xml(f, json_is_string(value) ? json_string_value(value) : v);
		free(v);
		first = 0;
	}
	if (first)
		fputs("all", f);
	fprintf(f, "]\" time=\"%.3f\">\n", case_seconds(doc, params));
	if (strcmp(outcome, "pass")) {
		fprintf(f, "    <%s message=\"", failed ? "failure" : "skipped");
		if (strcmp(outcome, "fail") && inconclusive_fails)
			fputs("inconclusive (--inconclusive=reject): ", f);
		ab_report_escape_xml(f, ab_report_str(row, "detail"));
		fprintf(f, "\"%s", failed ? ">" : "/>\n");
		if (failed) {
			ab_report_escape_xml(f, ab_report_str(row, "detail"));
			fputs("</failure>\n", f);
		}
	}
	fputs("    <system-out>", f);
	ab_report_escape_xml(f, ab_report_str(row, "detail"));
	fputs("</system-out>\n  </testcase>\n", f);
}

int ab_report_junit(FILE *f, const json_t *doc, int inconclusive_fails)
{
	const json_t *rule, *row;
	const char *host = ab_report_str(json_object_get(doc, "host"), "hostname");
	struct junit_counts c;
	double seconds = row_seconds(doc, NULL);
	size_t i, j;

	count_cases(&c, doc, inconclusive_fails);
	/* testsuites has no "skipped" in the Jenkins format */
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n<testsuite name=\"",
		c.tests, c.failures, c.errors, seconds);
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\" "
		"timestamp=\"", c.tests, c.failures, c.errors, c.skipped, seconds);
	ab_report_escape_xml(f, ab_report_str(doc, "created_at"));
	fputs("\" hostname=\"", f);
	ab_report_escape_xml(f, *host ? host : "localhost");
	fprintf(f, "\">\n  <properties>\n    <property name=\"verdict\" value=\"");
	ab_report_escape_xml(f, ab_report_str(doc, "verdict"));
	fprintf(f, "\"/>\n    <property name=\"parent\" value=\"");
	ab_report_escape_xml(f, ab_report_str(json_object_get(doc, "parent"), "oid"));
	fprintf(f, "\"/>\n    <property name=\"candidate\" value=\"");
	ab_report_escape_xml(f, ab_report_str(json_object_get(doc, "candidate"), "oid"));
	fprintf(f, "\"/>\n  </properties>\n");
	run_cases(f, doc, &c, inconclusive_fails);
	json_array_foreach(json_object_get(doc, "rules"), i, rule)
		json_array_foreach(json_object_get(rule, "rows"), j, row)
			rule_case(f, doc, rule, row, inconclusive_fails);
	fprintf(f, "</testsuite>\n</testsuites>\n");
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the JUnit report: %s", strerror(errno));
	return 0;
}
