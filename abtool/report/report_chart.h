/* report_chart.h - the SVG charts of the HTML report (report_html.c): per
 * row, the strip of per-pair ratios B/A on a log axis with the decision
 * interval, the Hodges–Lehmann estimate, the line at 1 and the margins of
 * the rules that decide the row, and each side's samples as a box plot
 * with its dots; with `scaling:`, the scaling curves of both sides. Each function writes one <svg> element; the page around it
 * (section, legend, figure and caption) is report_html.c's. Every string
 * from the document is escaped, and numbers are printed with fixed
 * precision, so that the same document gives the same bytes. */
#ifndef AB_REPORT_CHART_H
#define AB_REPORT_CHART_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "sample.h"

/* Whether the strip chart of `row` of document `doc` draws a rule margin:
 * it has per-pair ratios and a rule selecting it decides on its metric. */
int ab_chart_strip_has_margins(const json_t *doc, const json_t *row);

/* The strip chart of `row` (an element of doc.rows): one dot per pair
 * (rows[].per_pair, coloured by order AB or BA), top to bottom in pair
 * order; or, without a complete pair, an empty chart that says why
 * (rows[].unavailable, rows[].failure, or "no complete pair"). */
void ab_chart_strip(FILE *f, const json_t *doc, const json_t *row);

/* The rows of a document with `scaling:` grouped for the scaling charts:
 * one chart per combination of the other parameters. */
struct ab_chart_scaling {
	const json_t *doc;     /* the document (borrowed) */
	const char *param;     /* doc.scaling.parameter (borrowed) */
	const json_t *values;  /* its values in file order, doc.plan.matrix[param] (borrowed) */
	const json_t *rows;    /* doc.rows (borrowed) */
	size_t nv;             /* values; 0: no chart */
	size_t ngroups;
	size_t *group;         /* per row: its group */
	size_t *xi;            /* per row: the index of its value of param, nv when none */
	char **keys;           /* per group: its other parameters, compact JSON with sorted keys */
	double *numeric;       /* per value: as a number, NAN when it is not one */
	double n0;             /* the smallest numeric value */
	int all_numeric;       /* every value is a positive number: the linear line is drawn */
};

/* Group the rows of `doc` (borrowed; it must outlive `sc`) in first-seen
 * order. Release `sc` with ab_chart_scaling_release. */
void ab_chart_scaling_init(struct ab_chart_scaling *sc, const json_t *doc);

/* The scaling chart of group `g` (< sc->ngroups): x = the parameter's
 * values in file order, y = each side's rows[].parent.scaling and
 * rows[].candidate.scaling (a side without one is left out), the linear
 * line when all values are numbers (cut at the frame's top), and the
 * values at each point beside the chart. */
void ab_chart_scaling_svg(FILE *f, const struct ab_chart_scaling *sc, size_t g);

/* Whether group `g` has a scaling to draw: a row of it with rows[].parent.scaling or
 * rows[].candidate.scaling (an invalid run's rows have none). */
int ab_chart_scaling_has_data(const struct ab_chart_scaling *sc, size_t g);

void ab_chart_scaling_release(struct ab_chart_scaling *sc);

/* A run's samples, for the distribution charts (all borrowed): as
 * ab_store_samples_load returns them, samples[k].metrics[i] the value of
 * metric metric_names[i]. */
struct ab_chart_samples {
	const struct ab_sample *samples;
	size_t n;
	const char *const *metric_names;
	size_t nmetrics;
};

/*
 * The distribution chart of row `r` of `doc` (an index of doc.rows): on a
 * linear axis of the row's metric (rows[r].metric, in its unit), a lane
 * per side named by its name (a comparison's -n, else parent and
 * candidate), with a dot per successful sample of the row's pairs (not
 * warmups, superseded, failed or never-run samples) and a box plot over
 * them: a box from the first to the third quartile (type 7, as numpy and
 * so hyperfine's plot_whisker.py), the median as a line, whiskers to the
 * furthest values within 1.5 interquartile ranges of the box (Tukey). A
 * row none of whose pairs ran (an invalid run stops at the first checksum
 * mismatch) draws its successful warmups instead, and says so.
 * Returns 1 when it drew one, 0 (writing nothing) when `in` is NULL,
 * does not carry the metric, or neither side has a value.
 */
int ab_chart_dist(FILE *f, const json_t *doc, size_t r, const struct ab_chart_samples *in);

#endif
