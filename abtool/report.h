/* report.h - the run's reports. The JSON report (DESIGN.md "JSON report",
 * contract v1) is the canonical document: it is stored with the run, and
 * every other format renders from it (plus the raw samples for TSV), so
 * `abtool report` regenerates byte-identical reports from the store. */
#ifndef AB_REPORT_H
#define AB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis.h"
#include "config.h"

#define AB_REPORT_SCHEMA "abtool-report-1"

/* What the document says beyond the analysis. Borrowed. */
struct ab_report_input {
	const char *kind;              /* "ab" (default), "calibrate" or "analyze" */
	const char *input;             /* analyze: the file the pairs came from */
	const struct ab_experiment *exp;
	const struct ab_analysis *analysis;
	int64_t run_id;
	const char *run_uuid;
	const char *created_at;        /* ISO 8601 UTC */
	const char *repo;
	const char *parent_oid, *candidate_oid;
	const char *parent_tree, *candidate_tree;
	const char *parent_subject, *candidate_subject;
	int exact_parent;
	uint64_t seed;
	json_t *builds;                /* [{side, command, cached, status, duration_ns, detail,
	                                    artifacts {path: sha256}, log_tail}] or NULL */
	json_t *host;                  /* env.c fingerprint or NULL */
	json_t *earlier;               /* [{id, created_at, verdict}] of the same comparison, or NULL */
	const char *identity;          /* compiler identity text, or NULL */
	const char *reproduce;         /* the command that reruns this comparison */
};

/* Build the JSON report document (new reference). */
json_t *ab_report_document(const struct ab_report_input *in);

/* Serialize the document as abtool writes it: indented, keys in insertion
 * order, reals with 10 significant digits, trailing newline (new string). */
char *ab_report_json_text(const json_t *doc);

/* Render the Markdown report of a document onto `f`. Returns 0 or AB_EIO. */
int ab_report_markdown(FILE *f, const json_t *doc);

/* Format a value of a metric with unit `unit` for people ("99.90 ms",
 * "2.4 MiB", "1234 ops/s") into buf. */
const char *ab_report_format_value(char *buf, size_t size, double value, const char *unit);

#endif
