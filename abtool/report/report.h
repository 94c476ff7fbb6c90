/* report.h - the run's reports. The JSON report (docs/reports.md "JSON",
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
#include "sample.h"

struct ab_fold_change;
struct ab_report_render;

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
	json_t *overlay;               /* {from, source, paths: [{path, type, oid}]} or NULL */
	json_t *dependencies;          /* [{name, repo, path, env, exact_parent, parent {oid, subject},
	                                    candidate {oid, subject}}] or NULL */
	const json_t *inputs;          /* `inputs:` as hashed ([{path, type, sha256, bytes, files}],
	                                  ab_inputs_hash) with their identity `inputs_hash`, or NULL;
	                                  the "subset" member comes from exp->subset_specs */
	const char *inputs_hash;
	/* What a finished run adds to the warnings, beyond the analysis's
	 * (ab_run_finish; zero for analyze): */
	const json_t *host_now;        /* the fingerprint at the finish, or NULL: each of its
	                                  ab_env_warnings of level "warning" ("host: ...") and each
	                                  environment.commands result other than "exit 0" */
	int resumed;                   /* the run was interrupted and resumed: the "resumed" member
	                                  and its warning (resumed_on: host_now's hostname) */
	size_t superseded_samples;     /* resumed: samples of half-finished pairs run again */
	const char *started_on;        /* resumed: the hostname the run started on, or NULL */
	const char *host_change;       /* resumed: how the host differs from the start, or NULL */
	const char *dirty_workdir;     /* the work tree that had uncommitted changes when the run
	                                  started, or NULL */
	/* Kind "ab": declared artifacts byte-identical on both sides (from `builds`) warn of an
	 * A/A comparison in disguise. Kind "calibrate": the rules decide nothing (an empty
	 * "rules", verdict "calibrated" unless invalid, no reasons), and the "calibration"
	 * member summarises blocks of `calibration_block` pairs (ab_calibrate_summary). */
	size_t calibration_block;
	/* The run's samples, in plan order, for rows[].samples_wall_ns (what measuring each row
	 * took: JUnit's time); NULL when nothing was timed here (analyze), and the field is
	 * left out. */
	const struct ab_sample *samples;
	size_t nsamples;
	/* Kind "group" (abtool verdict --group): the shards combined, the document's "group"
	 * member {id, count, shards: [{index, run_id, run_uuid, hostname, verdict, rows}]}, and
	 * the hostname that measured each row (rows[].host; nrows strings, NULL for none).
	 * NULL for one run. Borrowed. */
	const json_t *group;
	const char *const *row_hosts;
};

/* Build the JSON report document (new reference). */
json_t *ab_report_document(const struct ab_report_input *in);

/* Render the Markdown report of a document onto `f`. Every string of the
 * document is escaped (report_md.c, md_write; docs/security.md "Reports").
 * Returns 0 or AB_EIO. */
int ab_report_markdown(FILE *f, const json_t *doc);

/* The short Markdown summary for CI pages (GitHub's step summary, a pull
 * request comment): title, verdict with the rules' reasons, a line each
 * for the overlay and the dependencies when present, the rows table and
 * warnings; no provenance or method; escaped as the report is. 0 or
 * AB_EIO. */
int ab_report_summary(FILE *f, const json_t *doc);

/* How the terminal view is rendered: `width` columns (at least 20; a
 * smaller width is raised to 20), SGR colours when `color`, and the lines
 * that say where the full report is (`where`, NULL-terminated, borrowed;
 * may be NULL). `height`: the lines the view may take (the screen's rows
 * less what is printed after it), 0 for no limit; a view taller than
 * that folds its warnings into one line, "N warnings: HINT shows them",
 * and, still taller, a comparison's summary lines into "N summary
 * lines: HINT shows them", HINT being `warnings_hint` (borrowed; the command that shows them,
 * like "abtool report 3"; NULL says --verbose). */
struct ab_report_text_options {
	int width;
	int color;
	const char *const *where;
	int height;
	const char *warnings_hint;
};

/*
 * The terminal view of a document (report_text.c; docs/cli.md, "At a
 * terminal") into new memory `*out` (free() it): the verdict first, one
 * line per row (label, parent and candidate median, ratio with its
 * interval, pair wins, checksum mark, outcome) as a table when it fits
 * the width and as a label line with its values under it when it does
 * not, one line per rule that did not pass with the reason of its first
 * row that did not, an invalid run's reasons, the warnings (one line per
 * text with its count, or their count alone when the view is taller than
 * `height`; a comparison's summary lines fold likewise), then the `where` lines. No line is wider than
 * the width (wcwidth(3) columns, SGR sequences take none): text wraps at
 * spaces with an indent, and a value with its unit, an interval and a
 * count like 7/8 are never split. Control characters of the document's
 * strings become spaces. Returns 0.
 */
int ab_report_text(char **out, const json_t *doc, const struct ab_report_text_options *opt);

/* One line for a log (new string): "rejected (1 of 2 rules failed) · NAME
 * · run N", counted as the headline counts (ab_report_rules_line: failed
 * rules first, then inconclusive ones, else "both rules passed"); an
 * invalid run gives its first reason in the parentheses. */
char *ab_report_verdict_line(const json_t *doc);

/* The display width of UTF-8 text `s` in columns (wcwidth(3) in C.UTF-8,
 * one column where it has no answer), SGR sequences taking none. */
size_t ab_report_text_width(const char *s);

/*
 * JUnit XML for CI systems that display test results: one testsuite, one
 * testcase per rule and row (a failed outcome is a <failure>, an
 * inconclusive one is <skipped> with its reason, or a <failure> when
 * `inconclusive_fails`, as with --inconclusive=reject, so that the test
 * view agrees with the exit code), plus an "integrity" testcase that is an
 * <error> when the verdict is invalid. A rule's cases have the classname
 * EXPERIMENT.RULE and the row's detail as <system-out>; every case's time
 * is the seconds of the samples of the rows it covers (rows[].samples_wall_ns,
 * 0 for documents without it), the testsuite's those of all rows; the
 * testsuite has the document's created_at as timestamp and the host's
 * hostname. Every string is XML-escaped. 0 or AB_EIO.
 */
int ab_report_junit(FILE *f, const json_t *doc, int inconclusive_fails);

/*
 * The metrics a document describes, in the order reports show them: the
 * primary metric (doc.rows[0].metric, else doc.metric) first, then the
 * other metrics in the order of doc.rows[0].metrics. Returns a new array
 * (free() it, not its strings) of `*n` strings borrowed from `doc`, plus a
 * NULL terminator. Reading the names from the document, not from the
 * experiment file, lets `abtool report` load a run's samples without
 * re-parsing the stored experiment.
 */
const char **ab_report_metric_names(const json_t *doc, size_t *n);

/*
 * Write the raw samples of a run as tab-separated values onto `f`: a
 * header line, then one line per sample in plan order (warmups, superseded
 * and never-run samples included, told apart by their columns). Columns:
 * run_id, seq, one per matrix parameter (doc.plan.matrix; values from
 * doc.rows[row].params; named param.NAME when NAME is also a fixed or a
 * metric column's), row, pair (1-based; empty for warmups), warmup
 * (1-based; empty for pairs), order (AB/BA), side (parent/candidate),
 * status (ok, failed, superseded, planned), one per metric in the order
 * of ab_report_metric_names (empty when unavailable or not run), exit_code,
 * signal, timed_out, checksum, flags, error, other_cpu_ns, padding_bytes,
 * unavailable, nivcsw, occupancy ((user_ns + sys_ns) / wall_ns). Text is escaped as \t, \n,
 * \r and \\; numbers are integers when integral, else the shortest
 * %.17g-family form that reads back exactly. docs/reports.md describes it.
 *
 * `samples` (borrowed, n of them) are as ab_store_samples_load returns
 * them; `metric_names[i]` (borrowed, nmetrics of them) names
 * samples[k].metrics[i], in any order: columns follow the document, and a
 * metric the samples do not carry is empty. Returns 0, or AB_EIO when
 * writing fails.
 */
int ab_report_tsv(FILE *f, const json_t *doc, const struct ab_sample *samples, size_t n,
		  const char *const *metric_names, size_t nmetrics);

/* A text field of TSV (NULL: empty): tabs, newlines, carriage returns and
 * backslashes written \t, \n, \r and \\, so that one line stays one
 * record. */
void ab_report_tsv_text(FILE *f, const char *s);

/*
 * Render the self-contained HTML report of a document (in->doc) onto `f`:
 * one file with inline CSS and SVG and one small inline script, no network
 * access (a Content-Security-Policy forbids it). It shows what the
 * Markdown report shows plus, per row, a strip of the per-pair ratios with
 * the decision interval, the Hodges–Lehmann estimate and the margins of
 * the rules that select the row, each side's distribution drawn from the
 * run's samples (in->samples, NULL: none drawn), and the scaling curves of
 * both sides when the experiment declares `scaling:`. in->profiles (NULL:
 * none) adds a differential flame graph per profiled row, [{row, label,
 * parent: {ok, samples, folded, reason}, candidate: {...}}]
 * (report_flame.c). Every string from the document is HTML-escaped.
 * Returns 0, or AB_EIO when writing fails.
 */
int ab_report_html(FILE *f, const struct ab_report_render *in);

/*
 * The profiles section of the HTML report (report_flame.c;
 * docs/profiles.md): per profiled row, a differential flame graph drawn
 * as inline SVG from the folded stacks: the candidate's stacks give the
 * widths, each frame coloured by the change of its inclusive share against
 * the parent (red: larger, blue: smaller), with a search box and
 * click-to-zoom (inline script, nothing fetched), and the table of the
 * functions whose share changed most. Nothing when `profiles` is NULL or
 * empty. Returns 0 (writes to a memory stream cannot fail here).
 */
int ab_report_flame(FILE *f, const json_t *profiles);

/* The numbers of one line of two profiles' comparison (ab_fold_compare,
 * profile_fold.h): the self and the inclusive share of each side in
 * percent, the change of the inclusive share in percentage points, and
 * each side's samples; as the HTML table's cells and the row's end
 * (html), or as the terminal table's columns and the line's end (abtool
 * profile). */
void ab_report_flame_change(FILE *f, const struct ab_fold_change *c, int html);

#endif
