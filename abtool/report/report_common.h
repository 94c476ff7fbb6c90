/* report_common.h - what the report renderers share (report_md.c,
 * report_html.c and its charts in report_chart.c, report_junit.c,
 * report_tsv.c): reading fields of the report document, XML escaping, the
 * value format for people, and the lines of text the Markdown and HTML
 * reports both print, each renderer escaping them for its format. It is
 * below every renderer: no renderer calls into another. */
#ifndef AB_REPORT_COMMON_H
#define AB_REPORT_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* The string member `key` of object `o` (borrowed), or "" when `o` is not
 * an object or the member is missing or not a string. */
const char *ab_report_str(const json_t *o, const char *key);

/* What the reports call side `side` (0 or 1) of document `doc`: a
 * comparison's side name (its "sides" member), else "parent" or
 * "candidate" (borrowed). */
const char *ab_report_side_label(const json_t *doc, int side);

/* The number member `key` of `o` (integer or real), or NAN. */
double ab_report_num(const json_t *o, const char *key);

/* The integer member `key` of `o`, or 0. */
long long ab_report_int(const json_t *o, const char *key);

/* Write `s` escaped for XML and HTML text and attribute values (& < > " '
 * as entities; control characters other than tab, newline and carriage
 * return as spaces, since XML 1.0 has no place for them). NULL writes
 * nothing. */
void ab_report_escape_xml(FILE *f, const char *s);

/* The mark of a rule's outcome: "✓" pass, "✗" fail, "?" otherwise. */
const char *ab_report_outcome_mark(const char *outcome);

/*
 * Whether row `row` (an element of doc.rows) shows a checksum change that
 * its policy allowed: checksum_policy "may_change", the sides' checksums
 * differ (checksum_match false) and each side printed one value
 * (checksum_values). Then *parent and *candidate are the two values
 * (borrowed from `row`) and it returns 1; else 0.
 */
int ab_report_checksum_changed(const json_t *row, const char **parent, const char **candidate);

/* 1 when the document is of an A/B run (not a calibration) whose builds
 * both declare artifacts and every one is byte-identical on both sides
 * (doc.builds[].artifacts): the change may not have reached the build. */
int ab_report_artifacts_identical(const json_t *doc);

/* The build of side `side` ("parent" or "candidate") in doc.builds
 * (borrowed), or NULL. */
const json_t *ab_report_build_of(const json_t *doc, const char *side);

/* How a renderer writes what it shares: a string of the document as code
 * and as text, each escaped for the renderer's format, and the markup
 * around a string it emphasizes. */
struct ab_report_markup {
	void (*code)(FILE *f, const char *s);
	void (*text)(FILE *f, const char *s);
	const char *strong, *strong_end;
};

/* A build's cell of the provenance table: "—" without a build, else its
 * command as code (or "no build command"), then the status and detail of
 * a failed build, " (cached)", or " (built in 1.23 s)" (ab_format_ns). */
void ab_report_build_cell(FILE *f, const json_t *build, const struct ab_report_markup *m);

/* "N of M rules failed:", "N of M rules inconclusive:" (the failed first)
 * or "The rule passed:", "Both rules passed:", "All rules passed:" of the
 * outcomes of `rules` (doc.rules, at least one) into buf (of `size`
 * bytes; truncated to fit); returns buf. */
const char *ab_report_rules_line(char *buf, size_t size, const json_t *rules);

/* The verdict of a document as the reports' first paragraph shows it:
 * doc.verdict, doc.rules and doc.reasons (borrowed from doc), the number of
 * rules and their ab_report_rules_line ("" without rules). */
struct ab_report_verdict {
	const char *verdict;
	const json_t *rules, *reasons;
	size_t nrules;
	char rules_line[64];
};

/* Fill *out from `doc`. */
void ab_report_verdict_init(struct ab_report_verdict *out, const json_t *doc);

/* The bounds of the interval of a ratio cell (m: a row or one of its
 * metrics; 0 where one is missing) into *l and *u, and how many of them
 * are numbers from the lower one: 0 (no interval: fewer than 5 pairs), 1
 * (the lower only) or 2. */
int ab_report_ci_bounds(const json_t *m, double *l, double *u);

/* What follows the ratio in a ratio cell: with `have_ci`, " [L, U]" (the
 * bounds of ab_report_ci_bounds, 3 decimals) and ab_report_ci_flag; else
 * " [too few pairs]". */
void ab_report_ci_suffix(FILE *f, const json_t *m, int have_ci);

/* The sentence on the earlier runs of the same comparison (doc.earlier_runs,
 * at least one): "This exact comparison (...) was run N times before: run
 * ID VERDICT (CREATED_AT), ... . Re-running until a verdict changes is not
 * evidence.", the verdicts and times written by `text`, the renderer's
 * escape of plain text. */
void ab_report_earlier_runs(FILE *f, const json_t *earlier, void (*text)(FILE *f, const char *s));

/* The plan's line, without its "Plan: " and its full stop: pairs per row,
 * warmups, the order, the seed and how many of the planned samples ran
 * (doc.plan). New string. */
char *ab_report_plan_line(const json_t *doc);

/* The note under the rows table on its intervals, row by row (ci,
 * ci_level, pairs, tied, ci_approximate, and for a sequential plan
 * ci_empty and estimate_outside_ci): the coverage of each group of rows
 * with the same pairs ("at least" with ties, "about" beyond the exact
 * range), for a sequential plan the level per row of its repeated
 * intervals and the rows whose looks' intervals do not intersect or whose
 * estimate lies outside, and the rows without an interval (fewer than 5
 * pairs). New string, or NULL when no row has an interval or a reason to
 * lack one. */
char *ab_report_interval_note(const json_t *doc);

/* What a ratio cell adds after a sequential row's interval (m: a row or
 * one of its metrics): " (looks' intervals disjoint: not decided)" when
 * ci_empty, " (estimate of all pairs, outside)" when the estimate lies
 * outside its interval, else "". Static string. */
const char *ab_report_ci_flag(const json_t *m);

/* The Method paragraph of the reports, plain text (static): it names the
 * multiplicity adjustment the document was decided with (error_control). */
const char *ab_report_method_text(const json_t *doc);

/*
 * The report's line on the order effect, plain text (new string), or NULL
 * when no row has both AB and BA pairs: the largest change a side gets
 * from running second, exp|π| − 1 over the rows' rows[].order_effect
 * (Grizzle 1965; see analysis.h), and in how many rows it is material
 * (|π| ≥ ln 1.005 and p < 0.05).
 */
char *ab_report_order_effect_note(const json_t *doc);

/*
 * The report's line on the change in scaling, candidate against parent,
 * plain text (new string), or NULL when no row has one
 * (rows[].scaling_change: ratio and 90% interval, above 1 the candidate
 * scales better; analysis.h).
 */
char *ab_report_scaling_change_note(const json_t *doc);

/*
 * One line on how undisturbed the samples ran, from the rows' "quality"
 * and "flagged_samples" of document `doc` (borrowed), for the Markdown
 * and HTML reports: the range over rows and sides of the median CPU
 * occupancy ((user + sys) / wall), involuntary context switches per
 * sample and CPUs other processes used, and the flagged samples, e.g.
 * "CPU occupancy (user+sys)/wall 97–99%, 2–5 involuntary context switches
 * per sample, other processes 0.02–0.10 CPUs (medians per row and side);
 * 0 of 48 samples in pairs flagged contended". New string, or NULL when the document
 * has no quality (a run stored before it was recorded, or analyze).
 */
char *ab_report_noise_line(const json_t *doc);

/*
 * The noise controls in effect, from doc.noise_controls (borrowed), e.g.
 * "CPU affinity 0-3, ASLR off, environment padding 0–4096 bytes per pair",
 * or "none" when none is set. New string, or NULL when the document does
 * not say (a run stored before they were recorded, or analyze).
 */
char *ab_report_controls_line(const json_t *doc);

/*
 * The reason metric `metric` is unavailable when it is unavailable in
 * every row of `doc` (two rows or more) for the same reason (borrowed from
 * doc), so that a report says it once; NULL otherwise.
 */
const char *ab_report_unavailable_everywhere(const json_t *doc, const char *metric);

/* How a renderer writes the table of the other metrics (those besides the
 * experiment's, as the first row names them): its head (before the first
 * line), a metric unavailable in every row for one reason (one line for
 * all rows), a row's line of a metric (m: the row's metrics.METRIC, which
 * may be unavailable), and the text that closes the table. */
struct ab_report_metric_table {
	void (*head)(FILE *f, const json_t *doc);
	void (*everywhere)(FILE *f, const char *metric, const char *reason);
	void (*row)(FILE *f, const json_t *row, const char *metric, const json_t *m);
	const char *end;
};

/* The other metrics' table of `doc` through `t`: for each metric of the
 * first row, in its order, the "everywhere" line (ab_report_unavailable_
 * everywhere) or a line per row; nothing when there is no other metric. */
void ab_report_other_metrics(FILE *f, const json_t *doc, const struct ab_report_metric_table *t);

/* Format a value of a metric with unit `unit` for people into buf (of
 * `size` bytes; truncated to fit) and return buf: "ns" and "bytes"/"B"
 * are scaled ("99.90 ms", "2.4 MiB"); other units get 4 significant
 * digits below 10,000 ("1234 ops/s"), a whole number below a million
 * ("123456 ops/s"), then 4 significant digits and an SI multiplier k, M,
 * G, T, P or E ("1.235 M ops/s"), never scientific notation. NAN is
 * "n/a". docs/experiment-file.md (metrics, unit). */
const char *ab_report_format_value(char *buf, size_t size, double value, const char *unit);

/* An analyze document's sequential replay (--looks): "replayed as a
 * sequential plan, looks at 8, 16 pairs per row (pocock spending);
 * stopped: ..."; NULL without one. New string. */
char *ab_report_replay_line(const json_t *doc);

/* The interval's name in table headers: "90% CI", or "repeated 90% CI"
 * for a sequential plan's document. A static string. */
const char *ab_report_ci_label(const json_t *doc);

#endif
