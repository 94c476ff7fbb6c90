/* site_page_rows.c - the rows over time of a project's site (see
 * site_page.h): per experiment a page, per row of it an SVG chart of the
 * accepted runs' ratios and decision intervals along the project's order
 * of commits (site_order.c: first-parent history, else time), with the
 * rejected and inconclusive attempts marked where they were tried, and
 * the cumulative change.
 *
 * The cumulative change of k accepted changes is a product of estimates,
 * never a measurement, unless the store holds a run of the experiment
 * that compares the first change's parent with the last change's
 * candidate directly. Its simultaneous interval is Bonferroni's: each
 * change's Hodges–Lehmann interval recomputed from its per-pair log
 * ratios at one-sided level 0.05/k (Hodges and Lehmann 1963; Bonferroni's
 * inequality: all k intervals hold together with probability at least
 * 1 - 2 x 0.05), and the product of the bounds holds when they all do.
 * Chaining only accepted changes overstates the gain (each was kept
 * because its estimate looked good), and the page says so. */
#include "site_page.h"
#include "report_common.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The chart's frame, in SVG units. */
#define CH_W 900.0
#define CH_H 280.0
#define CH_X0 70.0
#define CH_X1 880.0
#define CH_TOP 16.0
#define CH_BOTTOM 226.0

/* One run of a row on the chart. */
struct point {
	const json_t *run;
	const char *verdict;
	double pos, ratio, l, u;  /* NAN when unknown */
	const json_t *d;          /* the per-pair log ratios */
};

/* A row's points, in the project's order. */
struct row_points {
	struct point *v;
	size_t n;
	double lo, hi, xlo, xhi;  /* the axes: ratios (log) and positions */
};

/* The summary row of run `r` labelled `label`, or NULL. */
static const json_t *row_of(const json_t *r, const char *label)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(json_object_get(r, "summary"), "rows"), i, row)
		if (!strcmp(ab_report_str(row, "label"), label))
			return row;
	return NULL;
}

/* 1 when run `r` is an A/B run of experiment `name`. */
static int of_experiment(const json_t *r, const char *name)
{
	return !strcmp(ab_report_str(r, "kind"), "ab") && !strcmp(ab_report_str(r, "experiment"), name);
}

/* The labels of the experiment's rows, newest run's first (new array). */
static json_t *row_labels(const json_t *p, const char *name)
{
	json_t *labels = json_array(), *seen = json_object(), *r, *row;
	size_t i, j;

	json_array_foreach(ab_site_experiment_runs(p, name), i, r) {
		if (!of_experiment(r, name))
			continue;
		json_array_foreach(json_object_get(json_object_get(r, "summary"), "rows"), j, row)
			if (!json_object_get(seen, ab_report_str(row, "label"))) {
				json_object_set_new(seen, ab_report_str(row, "label"), json_true());
				json_array_append_new(labels, json_string(ab_report_str(row, "label")));
			}
	}
	json_decref(seen);
	return labels;
}

static int by_pos(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return ab_report_int(x->run, "id") < ab_report_int(y->run, "id") ? -1 : 1;
}

/* Widen [lo, hi] to hold v (a positive ratio). */
static void cover(double *lo, double *hi, double v)
{
	if (isfinite(v) && v > 0) {
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

/* The points of row `label`: the experiment's accepted, rejected and
 * inconclusive A/B runs with a position, in order. */
static void collect(struct row_points *out, const json_t *p, const char *name, const char *label)
{
	const json_t *runs = ab_site_experiment_runs(p, name), *r, *row, *ci;
	double prod;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->v = ab_xcalloc(json_array_size(runs) + 1, sizeof(*out->v));
	out->lo = out->hi = 1;
	json_array_foreach(runs, i, r) {
		const char *v = ab_report_str(r, "verdict");
		struct point *pt = &out->v[out->n];

		if (!of_experiment(r, name) || !json_is_number(json_object_get(r, "pos")) ||
		    (strcmp(v, "accepted") && strcmp(v, "rejected") && strcmp(v, "inconclusive")) ||
		    !(row = row_of(r, label)))
			continue;
		ci = json_object_get(row, "ci");
		pt->run = r;
		pt->verdict = v;
		pt->pos = json_number_value(json_object_get(r, "pos"));
		pt->ratio = json_is_number(json_object_get(row, "ratio")) ? ab_report_num(row, "ratio") : NAN;
		pt->l = json_is_array(ci) ? json_number_value(json_array_get(ci, 0)) : NAN;
		pt->u = json_is_array(ci) ? json_number_value(json_array_get(ci, 1)) : NAN;
		pt->d = json_object_get(row, "d");
		cover(&out->lo, &out->hi, pt->ratio);
		cover(&out->lo, &out->hi, pt->l);
		cover(&out->lo, &out->hi, pt->u);
		out->n++;
	}
	qsort(out->v, out->n, sizeof(*out->v), by_pos);
	for (i = 0, prod = 1; i < out->n; i++)  /* the cumulative line stays on the chart */
		if (!strcmp(out->v[i].verdict, "accepted") && isfinite(out->v[i].ratio))
			cover(&out->lo, &out->hi, prod *= out->v[i].ratio);
	out->xlo = out->n ? out->v[0].pos - 0.5 : 0;
	out->xhi = out->n ? out->v[out->n - 1].pos + 0.5 : 1;
	out->lo /= 1.08;
	out->hi *= 1.08;
}

static double map_x(const struct row_points *rp, double pos)
{
	return CH_X0 + (pos - rp->xlo) / (rp->xhi - rp->xlo) * (CH_X1 - CH_X0);
}

static double map_y(const struct row_points *rp, double ratio)
{
	return CH_BOTTOM - (log(ratio) - log(rp->lo)) / (log(rp->hi) - log(rp->lo)) * (CH_BOTTOM - CH_TOP);
}

/* The frame, the ratio grid and the line at 1. */
static void frame(FILE *f, const struct row_points *rp)
{
	static const double marks[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25,
				       1.5, 2, 4, 5, 10, 20, 50, 100};
	size_t i;

	fprintf(f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"></rect>\n", CH_X0,
		CH_TOP, CH_X1 - CH_X0, CH_BOTTOM - CH_TOP);
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		double y;
		if (marks[i] < rp->lo || marks[i] > rp->hi)
			continue;
		y = map_y(rp, marks[i]);
		fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"></line>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">×%g</text>\n", marks[i] == 1 ? "one" : "grid",
			CH_X0, y, CH_X1, y, CH_X0 - 6, y + 4, marks[i]);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"muted\">commits, %s</text>\n",
		(CH_X0 + CH_X1) / 2, CH_H - 8, "oldest left");
}

/* A point's ratio and interval as text: "0.500 [0.480, 0.520]", "—". */
static void ratio_text(FILE *f, const struct point *pt)
{
	if (isfinite(pt->ratio))
		fprintf(f, "%.3f", pt->ratio);
	else
		fprintf(f, "—");
	if (isfinite(pt->l) && isfinite(pt->u))
		fprintf(f, " [%.3f, %.3f]", pt->l, pt->u);
}

/* A point: an accepted run's ratio and interval, a rejected run's cross,
 * an inconclusive run's hollow square. */
static void point(FILE *f, const struct row_points *rp, const struct point *pt)
{
	double x = map_x(rp, pt->pos), y = isfinite(pt->ratio) ? map_y(rp, pt->ratio) : CH_TOP + 6;
	const char *oid = ab_report_str(pt->run, "candidate_oid");

	fprintf(f, "<g class=\"point %s\" data-run=\"%lld\" data-verdict=\"%s\" data-oid=\"", pt->verdict,
		ab_report_int(pt->run, "id"), pt->verdict);
	ab_report_escape_xml(f, oid);
	fprintf(f, "\" data-pos=\"%g\"><title>run %lld, %.10s: %s, ratio ", pt->pos, ab_report_int(pt->run, "id"),
		oid, pt->verdict);
	ratio_text(f, pt);
	fprintf(f, "</title>");
	if (!strcmp(pt->verdict, "accepted")) {
		if (isfinite(pt->l) && isfinite(pt->u))
			fprintf(f, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"></line>", x,
				map_y(rp, pt->l), x, map_y(rp, pt->u));
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\"></circle>", x, y);
	} else if (!strcmp(pt->verdict, "rejected")) {
		fprintf(f, "<path d=\"M%.1f %.1fl10 10m0 -10l-10 10\"></path>", x - 5, y - 5);
	} else {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\"></rect>", x - 4.5, y - 4.5);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"muted\">%.7s</text></g>\n", x,
		CH_BOTTOM + 16, oid);
}

/* The product of the accepted ratios as a step line over the chart. */
static void cumulative_line(FILE *f, const struct row_points *rp)
{
	double prod = 1;
	size_t i, k = 0;

	for (i = 0; i < rp->n; i++)
		k += !strcmp(rp->v[i].verdict, "accepted") && isfinite(rp->v[i].ratio);
	if (k < 2)
		return;
	fprintf(f, "<polyline class=\"cumulative\" points=\"");
	for (i = 0; i < rp->n; i++) {
		const struct point *pt = &rp->v[i];
		double x = map_x(rp, pt->pos);
		if (strcmp(pt->verdict, "accepted") || !isfinite(pt->ratio))
			continue;
		fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, map_y(rp, prod), x, map_y(rp, prod * pt->ratio));
		prod *= pt->ratio;
	}
	fprintf(f, "\"><title>product of the accepted estimates</title></polyline>\n");
}

static void chart(FILE *f, const struct row_points *rp, const char *label)
{
	size_t i;

	fprintf(f, "<svg class=\"chart rows\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", CH_W, CH_H);
	ab_report_escape_xml(f, label);
	fprintf(f, " over the commits\">\n");
	frame(f, rp);
	cumulative_line(f, rp);
	for (i = 0; i < rp->n; i++)
		point(f, rp, &rp->v[i]);
	fprintf(f, "</svg>\n");
}

/* A run that measured base against head directly (the parent of the
 * first accepted change, the candidate of the last), or NULL. */
static const json_t *measured(const json_t *p, const char *name, const char *base, const char *head,
			      const char *label)
{
	size_t i;
	json_t *r;

	json_array_foreach(ab_site_experiment_runs(p, name), i, r)
		if (of_experiment(r, name) && !strcmp(ab_report_str(r, "parent_oid"), base) &&
		    !strcmp(ab_report_str(r, "candidate_oid"), head) && row_of(r, label) &&
		    json_is_number(json_object_get(row_of(r, label), "ratio")))
			return r;
	return NULL;
}

/* One change's bounds at one-sided level alpha from its log ratios, into
 * *l and *u (log units); 0 when there are none at that level. */
static int bonferroni_bounds(const json_t *d, double alpha, double *l, double *u)
{
	size_t i, n = json_array_size(d);
	double *x = ab_xcalloc(n + 1, sizeof(*x));
	struct ab_hl hl;

	for (i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(d, i));
	ab_stats_hodges_lehmann(&hl, x, n, alpha);
	free(x);
	if (n == 0 || hl.k == 0 || !isfinite(hl.lower) || !isfinite(hl.upper))
		return 0;
	*l = hl.lower;
	*u = hl.upper;
	return 1;
}

/* The cumulative change of the row's accepted changes: measured when a
 * run compares base and head directly, else the product of the estimates
 * with its Bonferroni interval, labelled as such. */
static void cumulative(FILE *f, const json_t *p, const char *name, const struct row_points *rp,
		       const char *label)
{
	const struct point *first = NULL, *last = NULL;
	double prod = 1, sl = 0, su = 0, l, u;
	size_t i, k = 0;
	int bounded = 1;
	const json_t *m;

	for (i = 0; i < rp->n; i++)
		if (!strcmp(rp->v[i].verdict, "accepted") && isfinite(rp->v[i].ratio)) {
			first = first ? first : &rp->v[i];
			last = &rp->v[i];
			k++;
		}
	if (k < 2)
		return;
	for (i = 0; i < rp->n; i++) {
		if (strcmp(rp->v[i].verdict, "accepted") || !isfinite(rp->v[i].ratio))
			continue;
		prod *= rp->v[i].ratio;
		if (bounded && bonferroni_bounds(rp->v[i].d, AB_STATS_ALPHA / (double)k, &l, &u)) {
			sl += l;
			su += u;
		} else {
			bounded = 0;
		}
	}
	fprintf(f, "<div class=\"cumulative\">\n<p>Cumulative change over the %zu accepted changes, "
		"<strong>a product of estimates, not a measurement</strong>: ×%.3f", k, prod);
	if (bounded)
		fprintf(f, ", simultaneous %.0f%% interval [%.3f, %.3f] (Bonferroni over the %zu changes: each "
			"change's interval from its pairs at one-sided level %.4f)", 100 * (1 - 2 * AB_STATS_ALPHA),
			exp(sl), exp(su), k, AB_STATS_ALPHA / (double)k);
	else
		fprintf(f, " (no simultaneous interval: a change has too few pairs for one-sided level %.4f)",
			AB_STATS_ALPHA / (double)k);
	fprintf(f, ".</p>\n<p class=\"note\">Chaining only the accepted changes overstates the gain: each "
		"was kept because its estimate looked good, and the rejected and inconclusive attempts, "
		"and the commits never measured, are left out. Only an A/B run of the first change's "
		"parent against the last change's candidate measures it.</p>\n");
	m = measured(p, name, ab_report_str(first->run, "parent_oid"), ab_report_str(last->run, "candidate_oid"),
		     label);
	if (m) {
		fprintf(f, "<p>Measured: ");
		ab_site_run_link(f, m);
		fprintf(f, " compares them directly: ratio %.3f, ", ab_report_num(row_of(m, label), "ratio"));
		ab_site_verdict(f, ab_report_str(m, "verdict"));
		fprintf(f, "</p>\n");
	}
	fprintf(f, "</div>\n");
}

/* The points as a table, in the chart's order. */
static void points_table(FILE *f, const json_t *p, const struct row_points *rp)
{
	static const char *const cols[] = {"commit", "verdict", "ratio [90% CI]", NULL};
	size_t i;

	ab_site_table_head(f, cols);
	for (i = 0; i < rp->n; i++) {
		const struct point *pt = &rp->v[i];

		ab_site_run_cells(f, pt->run);
		fprintf(f, "<td>");
		ab_site_commit(f, p, ab_report_str(pt->run, "candidate_oid"));
		fprintf(f, "</td>");
		ab_site_verdict_cell(f, pt->run);
		fprintf(f, "<td class=\"n\">");
		ratio_text(f, pt);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table></div>\n");
}

/* The filters of a rows page (rows.js): a row, and the outcomes shown;
 * hidden until the script runs, since without it they do nothing. */
static void filters(FILE *f, const json_t *labels)
{
	static const char *const outcomes[] = {"accepted", "rejected", "inconclusive"};
	size_t i;
	json_t *label;

	fprintf(f, "<p class=\"filters\" hidden><label>Row: <select id=\"row-filter\">"
		"<option value=\"\">every row</option>");
	json_array_foreach(labels, i, label) {
		fprintf(f, "<option>");
		ab_report_escape_xml(f, json_string_value(label));
		fprintf(f, "</option>");
	}
	fprintf(f, "</select></label>");
	for (i = 0; i < 3; i++)
		fprintf(f, " <label><input type=\"checkbox\" class=\"outcome\" value=\"%s\" checked> %s</label>",
			outcomes[i], outcomes[i]);
	fprintf(f, "</p>\n");
}

void ab_site_page_rows(FILE *f, const json_t *p, const char *name)
{
	static const char *const scripts[] = {"../../rows.js", NULL};
	json_t *labels = row_labels(p, name), *label;
	struct row_points rp;
	size_t i;

	ab_site_head(f, "../../", name, p);
	fprintf(f, "<h1>Rows of ");
	ab_report_escape_xml(f, name);
	fprintf(f, "</h1>\n<p class=\"meta\">Each row's accepted changes (dots: the ratio, candidate over "
		"parent, with its 90%% decision interval), rejected attempts (crosses) and inconclusive "
		"ones (squares), at their candidate commits, ordered ");
	ab_report_escape_xml(f, ab_report_str(p, "order_note"));
	fprintf(f, "; the step line is the product of the accepted ratios.</p>\n");
	filters(f, labels);
	json_array_foreach(labels, i, label) {
		collect(&rp, p, name, json_string_value(label));
		fprintf(f, "<section class=\"row\" id=\"row-%zu\" data-row=\"", i);
		ab_report_escape_xml(f, json_string_value(label));
		fprintf(f, "\">\n<h2>");
		ab_report_escape_xml(f, json_string_value(label));
		fprintf(f, "</h2>\n");
		if (rp.n) {
			chart(f, &rp, json_string_value(label));
			cumulative(f, p, name, &rp, json_string_value(label));
			points_table(f, p, &rp);
			fprintf(f, "<div class=\"compare\" hidden><h3>Compare two runs of this row</h3>\n"
				"<p><label>run <select class=\"run-a\"></select></label> <label>with run "
				"<select class=\"run-b\"></select></label></p>\n<div class=\"compared\"></div>"
				"</div>\n");
		} else {
			fprintf(f, "<p class=\"note\">No accepted, rejected or inconclusive run of this row "
				"at a known commit.</p>\n");
		}
		fprintf(f, "</section>\n");
		free(rp.v);
	}
	ab_site_foot(f, p, scripts);
	json_decref(labels);
}

/* The newest accepted ratio of row `label`, or NAN. */
static double latest_accepted(const json_t *p, const char *name, const char *label)
{
	size_t i;
	json_t *r;

	json_array_foreach(ab_site_experiment_runs(p, name), i, r)
		if (of_experiment(r, name) && !strcmp(ab_report_str(r, "verdict"), "accepted") && row_of(r, label))
			return json_is_number(json_object_get(row_of(r, label), "ratio"))
				       ? ab_report_num(row_of(r, label), "ratio") : NAN;
	return NAN;
}

void ab_site_rows_list(FILE *f, const json_t *p)
{
	json_t *names = ab_site_experiments(p), *name, *labels, *label;
	size_t i, j;

	if (!json_array_size(names))
		fprintf(f, "<p class=\"note\">No A/B run of an experiment yet.</p>\n");
	json_array_foreach(names, i, name) {
		fprintf(f, "<h3><a href=\"rows-%zu.html\">", i);
		ab_report_escape_xml(f, json_string_value(name));
		fprintf(f, "</a></h3>\n<ul>\n");
		labels = row_labels(p, json_string_value(name));
		json_array_foreach(labels, j, label) {
			double r = latest_accepted(p, json_string_value(name), json_string_value(label));
			fprintf(f, "<li><a href=\"rows-%zu.html#row-%zu\">", i, j);
			ab_report_escape_xml(f, json_string_value(label));
			fprintf(f, "</a>");
			if (isfinite(r))
				fprintf(f, ": newest accepted change ×%.3f", r);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
		json_decref(labels);
	}
	json_decref(names);
}
