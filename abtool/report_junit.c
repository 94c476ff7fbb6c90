/* report_junit.c - JUnit XML of a report document (see report.h), for CI
 * systems that display test results. */
#include "report.h"
#include "report_common.h"
#include "error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ab_report_junit(FILE *f, const json_t *doc, int inconclusive_fails)
{
	const json_t *rules = json_object_get(doc, "rules"), *reasons = json_object_get(doc, "reasons");
	int invalid = !strcmp(ab_report_str(doc, "verdict"), "invalid"), unmet = 0;
	size_t tests = invalid ? 1 : 0, failures = 0, skipped = 0, i, j;
	json_t *rule, *row, *r;

	/* Unmet environment.require conditions: the verdict is inconclusive
	 * whatever the rules say, so the host gets a test case of its own. */
	json_array_foreach(reasons, i, r)
		unmet |= !strncmp(json_string_value(r), "environment.require: ", 21);
	tests += unmet;
	if (inconclusive_fails)
		failures += unmet;
	else
		skipped += unmet;

	json_array_foreach(rules, i, rule)
		json_array_foreach(json_object_get(rule, "rows"), j, row) {
			int inconclusive = !strcmp(ab_report_str(row, "outcome"), "inconclusive");
			tests++;
			failures += !strcmp(ab_report_str(row, "outcome"), "fail") ||
				    (inconclusive && inconclusive_fails);
			skipped += inconclusive && !inconclusive_fails;
		}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"");
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"%zu\" timestamp=\"", tests,
		failures, invalid, skipped);
	ab_report_escape_xml(f, ab_report_str(doc, "created_at"));
	fprintf(f, "\">\n  <properties>\n    <property name=\"verdict\" value=\"");
	ab_report_escape_xml(f, ab_report_str(doc, "verdict"));
	fprintf(f, "\"/>\n    <property name=\"parent\" value=\"");
	ab_report_escape_xml(f, ab_report_str(json_object_get(doc, "parent"), "oid"));
	fprintf(f, "\"/>\n    <property name=\"candidate\" value=\"");
	ab_report_escape_xml(f, ab_report_str(json_object_get(doc, "candidate"), "oid"));
	fprintf(f, "\"/>\n  </properties>\n");
	if (invalid) {
		fprintf(f, "  <testcase classname=\"");
		ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
		fprintf(f, "\" name=\"integrity\">\n    <error message=\"");
		ab_report_escape_xml(f, json_string_value(json_array_get(reasons, 0)));
		fprintf(f, "\">");
		json_array_foreach(reasons, i, r) {
			ab_report_escape_xml(f, json_string_value(r));
			fputc('\n', f);
		}
		fprintf(f, "</error>\n  </testcase>\n");
	}
	if (unmet) {
		fprintf(f, "  <testcase classname=\"");
		ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
		fprintf(f, "\" name=\"environment\">\n    <%s message=\"", inconclusive_fails ? "failure" : "skipped");
		json_array_foreach(reasons, i, r)
			if (!strncmp(json_string_value(r), "environment.require: ", 21)) {
				ab_report_escape_xml(f, json_string_value(r) + 21);
				fputs("; ", f);
			}
		fprintf(f, "the verdict is inconclusive%s\"/>\n  </testcase>\n",
			inconclusive_fails ? " (--inconclusive=reject)" : "");
	}
	json_array_foreach(rules, i, rule) {
		json_array_foreach(json_object_get(rule, "rows"), j, row) {
			const char *outcome = ab_report_str(row, "outcome");
			const json_t *params = json_object_get(row, "params");
			const char *key;
			json_t *value;
			int first = 1, failed;

			fprintf(f, "  <testcase classname=\"");
			ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
			fprintf(f, "\" name=\"");
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
			fputs("]\"", f);
			if (!strcmp(outcome, "pass")) {
				fputs("/>\n", f);
				continue;
			}
			failed = !strcmp(outcome, "fail") || inconclusive_fails;
			fprintf(f, ">\n    <%s message=\"", failed ? "failure" : "skipped");
			if (strcmp(outcome, "fail") && inconclusive_fails)
				fputs("inconclusive (--inconclusive=reject): ", f);
			ab_report_escape_xml(f, ab_report_str(row, "detail"));
			fprintf(f, "\"%s", failed ? ">" : "/>\n");
			if (failed) {
				ab_report_escape_xml(f, ab_report_str(row, "detail"));
				fputs("</failure>\n", f);
			}
			fputs("  </testcase>\n", f);
		}
	}
	fprintf(f, "</testsuite>\n</testsuites>\n");
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the JUnit report: %s", strerror(errno));
	return 0;
}
