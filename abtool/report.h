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
#include "sample.h"

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
};

/* Build the JSON report document (new reference). */
json_t *ab_report_document(const struct ab_report_input *in);

/* Serialize the document as abtool writes it: indented, keys in insertion
 * order, reals with 10 significant digits, trailing newline (new string). */
char *ab_report_json_text(const json_t *doc);

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

/*
 * JUnit XML for CI systems that display test results: one testsuite, one
 * testcase per rule and row (a failed outcome is a <failure>, an
 * inconclusive one is <skipped> with its reason, or a <failure> when
 * `inconclusive_fails`, as with --inconclusive=reject, so that the test
 * view agrees with the exit code), plus an "integrity" testcase that is an
 * <error> when the verdict is invalid. Every string is XML-escaped. 0 or
 * AB_EIO.
 */
int ab_report_junit(FILE *f, const json_t *doc, int inconclusive_fails);

/* Write `s` escaped for XML and HTML text and attribute values (& < > " '
 * as entities; control characters other than tab and newline as spaces). */
void ab_report_escape_xml(FILE *f, const char *s);

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
 * doc.rows[row].params), row, pair (1-based; empty for warmups), warmup
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

/*
 * Render the self-contained HTML report of a document onto `f`: one file
 * with inline CSS and SVG and one small inline script, no network access
 * (a Content-Security-Policy forbids it). It shows what the Markdown report
 * shows plus, per row, a strip of the per-pair ratios with the decision
 * interval, the Hodges–Lehmann estimate and the margins of the rules that
 * select the row, and the scaling curves of both sides when the
 * experiment declares `scaling:`. Every string from the document is
 * HTML-escaped. Returns 0, or AB_EIO when writing fails.
 */
int ab_report_html(FILE *f, const json_t *doc);

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

/* Format a value of a metric with unit `unit` for people into buf (of
 * `size` bytes; truncated to fit) and return buf: "ns" and "bytes"/"B"
 * are scaled ("99.90 ms", "2.4 MiB"); other units get 4 significant
 * digits below 10,000 ("1234 ops/s"), a whole number below a million
 * ("123456 ops/s"), then 4 significant digits and an SI multiplier k, M,
 * G, T, P or E ("1.235 M ops/s"), never scientific notation. NAN is
 * "n/a". docs/experiment-file.md (metrics, unit). */
const char *ab_report_format_value(char *buf, size_t size, double value, const char *unit);

#endif
