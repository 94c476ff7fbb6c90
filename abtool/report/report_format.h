/* report_format.h - the registry of report formats (docs/architecture.md,
 * "A report format"): one row per format a stored run's report document
 * renders into, and everything the command layer derives from it: the
 * output option of the measuring commands (--md F, ...), the values of
 * `abtool report --format`, what `report` loads from the store for the
 * format, the completions and docs/cli.md (both generated from the option
 * tables the rows fill). A new format is a row here and its renderer. */
#ifndef AB_REPORT_FORMAT_H
#define AB_REPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "sample.h"

/* What a renderer may read (all borrowed). */
struct ab_report_render {
	const json_t *doc;                /* the report document */
	const struct ab_sample *samples;  /* the run's samples in plan order, when the format
	                                     needs them (AB_REPORT_NEEDS_SAMPLES), else NULL */
	size_t nsamples;
	const char *const *metric_names;  /* names of samples[k].metrics[i], by i */
	size_t nmetrics;
	int inconclusive_fails;           /* an inconclusive outcome counts as a failure
	                                     (--inconclusive=reject) */
	const json_t *profiles;           /* the run's profiles (AB_REPORT_NEEDS_PROFILES), or NULL */
};

/* What a format reads beside the document. */
#define AB_REPORT_NEEDS_SAMPLES 1u   /* the run's samples from the store */
#define AB_REPORT_NEEDS_PROFILES 2u  /* the run's profiles from the store */

/*
 * The rows: X(ID, NAME, HELP, NEEDS, RENDER, FOR_PEOPLE). ID names the
 * enum member AB_REPORT_FORMAT_<ID>; NAME is the --format value and the
 * output option --NAME; HELP the option's help line; NEEDS the
 * AB_REPORT_NEEDS_* bits; RENDER the renderer (int RENDER(FILE *, const
 * struct ab_report_render *): 0, or AB_EIO when writing fails);
 * FOR_PEOPLE 1 when the text is for a person's terminal (stdout's CI
 * guard applies; cmd_stdout_for_people). The order is that of --help and
 * of the files `run` writes.
 */
#define AB_REPORT_FORMATS(X)                                                                      \
	X(MD, "md", "write the Markdown report (what stdout shows)", 0u, ab_report_format_md, 1)     \
	X(JSON, "json", "write the JSON report, exactly as stored", 0u, ab_report_format_json, 0)    \
	X(TSV, "tsv", "write every sample of the plan, one line each", AB_REPORT_NEEDS_SAMPLES,      \
	  ab_report_format_tsv, 0)                                                                  \
	X(HTML, "html", "write a self-contained HTML page with charts",                             \
	  AB_REPORT_NEEDS_SAMPLES | AB_REPORT_NEEDS_PROFILES,                                        \
	  ab_report_format_html, 0)                                                                 \
	X(SUMMARY, "summary", "write a short Markdown summary (for pull-request comments)", 0u,      \
	  ab_report_format_summary, 1)                                                              \
	X(JUNIT, "junit", "write JUnit XML: one test case per rule and row", 0u,                     \
	  ab_report_format_junit, 0)                                                                \
	X(HYPERFINE, "hyperfine", "write the samples as hyperfine's --export-json does (for its "     \
	  "plotting scripts)", AB_REPORT_NEEDS_SAMPLES, ab_report_format_hyperfine, 0)

#define AB_REPORT_FORMAT_ENUM_(id, name, help, needs, render, people) AB_REPORT_FORMAT_##id,
enum ab_report_format_id { AB_REPORT_FORMATS(AB_REPORT_FORMAT_ENUM_) AB_REPORT_NFORMATS };

/* The formats' names joined by '|', "json|md|...": a string literal, for
 * option tables (the values of report --format). */
#define AB_REPORT_FORMAT_BAR_(id, name, help, needs, render, people) "|" name
#define AB_REPORT_FORMAT_NAMES_BAR AB_REPORT_FORMATS(AB_REPORT_FORMAT_BAR_)

struct ab_report_format {
	const char *name;
	const char *help;
	unsigned needs;
	int (*render)(FILE *f, const struct ab_report_render *in);
	int for_people;
};

/* The rows, by enum ab_report_format_id (AB_REPORT_NFORMATS of them). */
extern const struct ab_report_format ab_report_formats[AB_REPORT_NFORMATS];

/* The format named `name`, or NULL. */
const struct ab_report_format *ab_report_format_find(const char *name);

/*
 * Render `in` in `format` into a new string (*text, *len; NULL and 0 on
 * error). Errors: AB_EIO when the text cannot be built.
 */
int ab_report_format_render(char **text, size_t *len, const struct ab_report_format *format,
			    const struct ab_report_render *in);

/* The renderers of the rows, each writing `in` onto `f` and returning 0,
 * or AB_EIO when writing fails: in report_format.c the document's
 * renderers of report.h behind the registry's one signature; a format of
 * its own in report_format_NAME.c (report_format_hyperfine.c: the samples
 * in the layout of hyperfine's --export-json, docs/reports.md). */
#define AB_REPORT_FORMAT_DECLARE_(id, name, help, needs, render, people)                          \
	int render(FILE *f, const struct ab_report_render *in);
AB_REPORT_FORMATS(AB_REPORT_FORMAT_DECLARE_)

#endif
