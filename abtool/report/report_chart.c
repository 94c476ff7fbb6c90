/* report_chart.c - the SVG charts of the HTML report (see report_chart.h). */
#include "report_chart.h"
#include "report_common.h"
#include "predicates.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The charts' geometry, in SVG user units: the strip chart's plot spans
 * PLOT_X0 to PLOT_X1 of a chart W wide; the scaling chart's plot spans
 * SC_X0 to SC_X1 and SC_TOP to SC_BOTTOM, its values beside it. */
#define W 720.0
#define PLOT_X0 70.0
#define PLOT_X1 700.0
#define LABEL_ROW 14.0
#define MAX_MARGINS 16
#define MAX_TICKS 32
#define SC_X0 70.0
#define SC_X1 530.0
#define SC_TOP 12.0
#define SC_PH 200.0
#define SC_BOTTOM (SC_TOP + SC_PH)

/* An axis from `lo` to `hi` (data units) onto [x0, x1] (SVG units),
 * logarithmic for ratios. */
struct axis {
	double lo, hi, x0, x1;
	int log;
};

static double axis_map(const struct axis *a, double v)
{
	double t = a->log ? (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo)) : (v - a->lo) / (a->hi - a->lo);
	return a->x0 + t * (a->x1 - a->x0);
}

/* Round tick values between lo and hi (at most max of them): 1-2-5 per
 * decade on a wide log axis, else even steps of 1, 2 or 5 times a power of
 * ten. `*decimals` receives the digits the labels need. */
static size_t ticks(double *out, size_t max, double lo, double hi, int logscale, int *decimals)
{
	size_t n = 0;

	*decimals = 0;
	if (logscale && hi / lo > 5) {
		static const double mant[] = {1, 2, 5};
		int e, m;
		for (e = (int)floor(log10(lo)); e <= (int)ceil(log10(hi)) && n < max; e++)
			for (m = 0; m < 3 && n < max; m++) {
				double v = mant[m] * pow(10, e);
				if (v >= lo && v <= hi) {
					out[n++] = v;
					if (e < 0 && -e > *decimals)
						*decimals = -e;
				}
			}
		return n;
	}
	{
		double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag, step, first;
		long k;
		step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
		first = ceil(lo / step - 1e-9) * step;
		for (k = 0; n < max; k++) {
			double v = first + (double)k * step;
			if (v > hi + step * 1e-9)
				break;
			out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
		}
		*decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	}
	return n;
}

/* A margin line: where a rule's predicate puts its threshold on a B/A
 * axis, and what to call it. */
struct margin {
	double at;
	char label[64];
	const char *rule;
};

static int margin_cmp(const void *a, const void *b)
{
	double x = ((const struct margin *)a)->at, y = ((const struct margin *)b)->at;

	return x < y ? -1 : x > y;
}

/* The margins of every rule that selects `row` and decides on the row's
 * metric. Predicates are defined with ratios below 1 favouring the
 * candidate (rules.c); for a higher-is-better metric the line is at the
 * reciprocal. */
static size_t row_margins(struct margin *out, size_t max, const json_t *doc, const json_t *row)
{
	const struct ab_predicate *p;
	int higher = !strcmp(ab_report_str(row, "better"), "higher");
	size_t i, j, n = 0;
	json_t *rule, *rr;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		int selects = 0;
		if (strcmp(ab_report_str(rule, "metric"), ab_report_str(row, "metric")))
			continue;
		json_array_foreach(json_object_get(rule, "rows"), j, rr)
			selects |= json_equal(json_object_get(rr, "params"), json_object_get(row, "params"));
		if (!selects)
			continue;
		/* the margins of the metric's percent predicates: 1+δ or 1/(1+δ) */
		for (p = ab_predicates; p->name && n < max; p++) {
			double d, at;
			if (p->decide != AB_DECIDE_BOUND || p->arg != AB_ARG_PERCENT || p->on_scaling ||
			    !p->json || isnan(d = ab_report_num(rule, p->json)))
				continue;
			at = p->margin_up != higher ? 1 + d : 1 / (1 + d);
			out[n].at = at;
			out[n].rule = ab_report_str(rule, "name");
			snprintf(out[n].label, sizeof(out[n].label), "%s %.4g%%", p->name, 100 * d);
			/* Two rules with the same margin draw one line. */
			for (j = 0; j < n && (out[j].at != at || strcmp(out[j].label, out[n].label)); j++)
				;
			n += j == n;
		}
	}
	/* Left to right, so that labels (which extend leftwards from their
	 * line) get rows nearer the plot the further left they are, and no
	 * line crosses another's label. */
	qsort(out, n, sizeof(*out), margin_cmp);
	return n;
}


int ab_chart_strip_has_margins(const json_t *doc, const json_t *row)
{
	struct margin m[MAX_MARGINS];

	return json_array_size(json_object_get(row, "per_pair")) && row_margins(m, MAX_MARGINS, doc, row);
}

/* What the strip chart of a row draws where. */
struct strip {
	const json_t *doc, *row, *per_pair;
	struct margin margins[MAX_MARGINS];
	size_t nmargins, npairs;
	double ratio;            /* the estimate, NAN when none */
	double l, u;             /* the interval, when have_ci */
	int have_ci, higher;
	struct axis ax;          /* the ratio axis, when npairs */
	double top, ph, bottom;  /* the plot's top, height and bottom */
};

/* The strip chart of a row without per-pair ratios, saying why. */
static void strip_empty(FILE *f, const json_t *row)
{
	const char *why = "no complete pair";

	if (json_is_string(json_object_get(row, "unavailable")))
		why = ab_report_str(row, "unavailable");
	else if (json_is_string(json_object_get(row, "failure")))
		why = ab_report_str(row, "failure");

	fprintf(f, "<svg class=\"chart strip\" viewBox=\"0 0 %.0f 48\" role=\"img\" "
		"aria-label=\"no per-pair ratios\">\n<rect class=\"frame\" x=\"%.1f\" y=\"4\" width=\"%.1f\" "
		"height=\"40\"/>\n<text x=\"%.1f\" y=\"29\" text-anchor=\"middle\" class=\"muted\">no per-pair "
		"ratios: ", W, PLOT_X0, PLOT_X1 - PLOT_X0, (PLOT_X0 + PLOT_X1) / 2);
	ab_report_escape_xml(f, why);
	fprintf(f, "</text>\n</svg>\n");
}

/* Widen the log axis `ax` until its ticks cover [lo, hi], the plotted values: a labelled tick at
 * or below the smallest and at or above the largest, so that every dot has a value beside it.
 * Ticks are 1-2-5 values or multiples of a round step (ticks()); the next one out is less than
 * a factor 2.5 away, so a few widenings by 10% reach it. */
static void cover_with_ticks(struct axis *ax, double lo, double hi)
{
	double tick[MAX_TICKS];
	size_t nt;
	int decimals, k;

	for (k = 0; k < 64; k++) {
		nt = ticks(tick, MAX_TICKS, ax->lo, ax->hi, 1, &decimals);
		if (nt && tick[0] <= lo && tick[nt - 1] >= hi)
			return;
		if (!nt || tick[0] > lo)
			ax->lo /= 1.1;
		if (!nt || tick[nt - 1] < hi)
			ax->hi *= 1.1;
	}
}

/* Lay the strip chart of `row` out: the axis covers the dots, the
 * interval, the estimate, 1 and the margins, padded by 6% of its span on
 * each side and widened to the ticks beyond them; the plot is 12 units a
 * pair high, 64 to 220. */
static void strip_layout(struct strip *st, const json_t *doc, const json_t *row)
{
	const json_t *ci = json_object_get(row, "ci");
	double lo = INFINITY, hi = -INFINITY, span, pad;
	size_t i, nlabel_rows;
	json_t *p;

	memset(st, 0, sizeof(*st));
	st->doc = doc;
	st->row = row;
	st->per_pair = json_object_get(row, "per_pair");
	st->nmargins = row_margins(st->margins, MAX_MARGINS, doc, row);
	st->ratio = ab_report_num(row, "ratio");
	st->l = json_number_value(json_array_get(ci, 0));
	st->u = json_number_value(json_array_get(ci, 1));
	st->have_ci = json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1));
	st->higher = !strcmp(ab_report_str(row, "better"), "higher");
	json_array_foreach((json_t *)st->per_pair, i, p) {
		double d = ab_report_num(p, "log_ratio");
		if (isnan(d))
			continue;
		st->npairs++;
		lo = fmin(lo, exp(d));
		hi = fmax(hi, exp(d));
	}
	if (!st->npairs)
		return;
	lo = fmin(lo, 1);
	hi = fmax(hi, 1);
	if (st->have_ci) {
		lo = fmin(lo, st->l);
		hi = fmax(hi, st->u);
	}
	if (isfinite(st->ratio) && st->ratio > 0) {
		lo = fmin(lo, st->ratio);
		hi = fmax(hi, st->ratio);
	}
	for (i = 0; i < st->nmargins; i++) {
		lo = fmin(lo, st->margins[i].at);
		hi = fmax(hi, st->margins[i].at);
	}
	span = log(hi) - log(lo);
	if (span < 0.01)
		span = 0.01;
	pad = span * 0.06;
	st->ax.lo = exp(log(lo) - pad);
	st->ax.hi = exp(log(hi) + pad);
	st->ax.x0 = PLOT_X0;
	st->ax.x1 = PLOT_X1;
	st->ax.log = 1;
	cover_with_ticks(&st->ax, lo, hi);

	nlabel_rows = st->nmargins < 3 ? st->nmargins : 3;
	st->top = 8 + LABEL_ROW * (double)nlabel_rows;
	st->ph = 12.0 * (double)st->npairs + 16;
	st->ph = st->ph < 64 ? 64 : st->ph > 220 ? 220 : st->ph;
	st->bottom = st->top + st->ph;
}

/* A grid line from (x1, y1) to (x2, y2) and the start of its label's text
 * element at (tx, ty) anchored at `anchor`; the caller writes the label
 * and closes the element. */
static void grid_line(FILE *f, double x1, double y1, double x2, double y2, double tx, double ty,
		      const char *anchor)
{
	fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x1, y1, x2, y2, tx, ty, anchor);
}

/* The plot's frame: a rectangle at (x, y), w wide and h high. */
static void frame_rect(FILE *f, double x, double y, double w, double h)
{
	fprintf(f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		x, y, w, h);
}

/* The grid, the interval's band, the line at 1, the margins with their
 * labels and the estimate. */
static void strip_marks(FILE *f, const struct strip *st)
{
	const struct axis *ax = &st->ax;
	double tick[MAX_TICKS], top = st->top, bottom = st->bottom;
	size_t nt, i;
	int decimals;

	nt = ticks(tick, MAX_TICKS, ax->lo, ax->hi, 1, &decimals);
	for (i = 0; i < nt; i++) {
		double x = axis_map(ax, tick[i]);
		grid_line(f, x, top, x, bottom + 4, x, bottom + 17, "middle");
		fprintf(f, "%.*f</text>\n", decimals, tick[i]);
	}
	if (st->have_ci) {
		double x0 = axis_map(ax, st->l), x1 = axis_map(ax, st->u);
		fprintf(f, "<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>90%% CI "
			"[%.3f, %.3f]</title></rect>\n", x0, top, x1 - x0 < 1 ? 1 : x1 - x0, st->ph, st->l, st->u);
	}
	fprintf(f, "<line class=\"one\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>ratio 1: no "
		"change</title></line>\n", axis_map(ax, 1), top, axis_map(ax, 1), bottom);
	for (i = 0; i < st->nmargins; i++) {
		const struct margin *m = &st->margins[i];
		double x = axis_map(ax, m->at);
		const char *anchor = x < PLOT_X0 + 120 ? "start" : "end";
		fprintf(f, "<line class=\"margin\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>", x,
			top - LABEL_ROW * (double)(i % 3) - 4, x, bottom);
		ab_report_escape_xml(f, m->rule);
		fprintf(f, ": %s, at ratio %.4f</title></line>\n", m->label, m->at);
		fprintf(f, "<text class=\"margin-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			anchor[0] == 'e' ? x - 3 : anchor[0] == 's' ? x + 3 : x,
			top - LABEL_ROW * (double)(i % 3) - 6, anchor, m->label);
	}
	/* The estimate under the dots, so that no pair hides behind it. */
	if (isfinite(st->ratio) && st->ratio > 0) {
		double x = axis_map(ax, st->ratio);
		fprintf(f, "<line class=\"hl\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>Hodges–Lehmann "
			"estimate %.4f</title></line>\n", x, top - 3, x, bottom + 3, st->ratio);
	}
}

/* The longest side name, in characters (UTF-8 code points), a strip
 * chart's "← NAME better" and "NAME worse →" write whole: at 12 px, even in
 * wide glyphs (about 9 px each), each half of the line stays under half of
 * the plot's 630 units. */
#define SIDE_NAME_MAX 24

/* Write side name `name` (UTF-8) escaped for XML inside a <text> element:
 * whole when it has at most SIDE_NAME_MAX characters, else its first
 * SIDE_NAME_MAX - 1 and "…", the whole name in a <title> (the browser's
 * tooltip) after them. */
static void side_name(FILE *f, const char *name)
{
	char head[SIDE_NAME_MAX * 4];
	size_t i, chars = 0, cut = 0;

	for (i = 0; name[i]; i++)
		if (((unsigned char)name[i] & 0xC0) != 0x80 && ++chars == SIDE_NAME_MAX)
			cut = i;
	if (chars <= SIDE_NAME_MAX) {
		ab_report_escape_xml(f, name);
		return;
	}
	if (cut >= sizeof(head))  /* not UTF-8: cut within the buffer */
		cut = sizeof(head) - 1;
	memcpy(head, name, cut);
	head[cut] = '\0';
	fprintf(f, "<tspan>");
	ab_report_escape_xml(f, head);
	fprintf(f, "…<title>");
	ab_report_escape_xml(f, name);
	fprintf(f, "</title></tspan>");
}

/* One dot per pair, top to bottom in pair order, so drift shows too, and
 * the labels of the pairs and of the axis. */
static void strip_dots(FILE *f, const struct strip *st)
{
	size_t i, k = 0;
	json_t *p;

	json_array_foreach((json_t *)st->per_pair, i, p) {
		double d = ab_report_num(p, "log_ratio"), y;
		const char *order = !strcmp(ab_report_str(p, "order"), "BA") ? "BA" : "AB";
		if (isnan(d))
			continue;
		y = st->top + 8 + ((double)k + 0.5) * (st->ph - 16) / (double)st->npairs;
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>pair %zu (%s): "
			"ratio %.4f</title></circle>\n", order[0] == 'B' ? "ba" : "ab", axis_map(&st->ax, exp(d)),
			y, i + 1, order, exp(d));
		k++;
	}
	fprintf(f, "<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">pair 1</text>\n"
		"<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">pair %zu</text>\n",
		PLOT_X0 - 6, st->top + 12, PLOT_X0 - 6, st->bottom - 5, st->npairs);
	/* The axis's title on its own line, and under it which way is better (it depends on
	 * the metric's direction; B is the candidate, or a comparison's second command by its
	 * name, elided so that the two halves of the line never meet). */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (PLOT_X0 + PLOT_X1) / 2, st->bottom + 34);
	ab_report_escape_xml(f, ab_report_str(st->row, "metric"));
	fprintf(f, " ratio B/A per pair (log scale)</text>\n");
	fprintf(f, "<text class=\"muted\" x=\"%.1f\" y=\"%.1f\">← ", PLOT_X0, st->bottom + 52);
	side_name(f, ab_report_side_label(st->doc, 1));
	fprintf(f, " %s</text>\n<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
		st->higher ? "worse" : "better", PLOT_X1, st->bottom + 52);
	side_name(f, ab_report_side_label(st->doc, 1));
	fprintf(f, " %s →</text>\n", st->higher ? "better" : "worse");
}

void ab_chart_strip(FILE *f, const json_t *doc, const json_t *row)
{
	struct strip st;

	strip_layout(&st, doc, row);
	if (!st.npairs) {
		strip_empty(f, row);
		return;
	}
	fprintf(f, "<svg class=\"chart strip\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"per-pair "
		"ratios of ", W, st.bottom + 62);
	ab_report_escape_xml(f, ab_report_str(row, "label"));
	fprintf(f, "\">\n");
	frame_rect(f, PLOT_X0, st.top, PLOT_X1 - PLOT_X0, st.ph);
	strip_marks(f, &st);
	strip_dots(f, &st);
	fprintf(f, "</svg>\n");
}

/* Whether a row's parameter value (as ab_row_params writes it: an integer
 * when the text is one, else the text) is the matrix value `text`. */
static int value_is(const json_t *v, const char *text)
{
	int64_t n;

	if (!text)
		return 0;
	if (json_is_integer(v))
		return ab_parse_int64(&n, text) == 0 && n == json_integer_value(v);
	return json_is_string(v) && !strcmp(json_string_value(v), text);
}

void ab_chart_scaling_init(struct ab_chart_scaling *sc, const json_t *doc)
{
	const json_t *scaling = json_object_get(doc, "scaling");
	size_t nrows, i, j, g;
	json_t *row;

	memset(sc, 0, sizeof(*sc));
	sc->doc = doc;
	sc->param = ab_report_str(scaling, "parameter");
	sc->values = json_object_get(json_object_get(json_object_get(doc, "plan"), "matrix"), sc->param);
	sc->rows = json_object_get(doc, "rows");
	sc->nv = json_array_size(sc->values);
	nrows = json_array_size(sc->rows);
	sc->group = ab_xcalloc(nrows + 1, sizeof(*sc->group));
	sc->xi = ab_xcalloc(nrows + 1, sizeof(*sc->xi));
	sc->keys = ab_xcalloc(nrows + 1, sizeof(*sc->keys));
	sc->numeric = ab_xcalloc(sc->nv + 1, sizeof(*sc->numeric));
	sc->n0 = INFINITY;
	sc->all_numeric = sc->nv > 0;
	if (!sc->nv)
		return;
	for (j = 0; j < sc->nv; j++) {
		const char *t = json_string_value(json_array_get(sc->values, j));
		char *end;
		sc->numeric[j] = t ? strtod(t, &end) : NAN;
		if (!t || end == t || *end || !(sc->numeric[j] > 0))
			sc->all_numeric = 0;
		else
			sc->n0 = fmin(sc->n0, sc->numeric[j]);
	}
	/* Group the rows by their other parameters, in first-seen order. */
	json_array_foreach((json_t *)sc->rows, i, row) {
		json_t *rest = json_deep_copy(json_object_get(row, "params"));
		json_t *v = json_object_get(rest, sc->param);
		char *text;
		sc->xi[i] = sc->nv;
		for (j = 0; j < sc->nv; j++)
			if (value_is(v, json_string_value(json_array_get(sc->values, j))))
				sc->xi[i] = j;
		json_object_del(rest, sc->param);
		text = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS);
		for (g = 0; g < sc->ngroups && strcmp(sc->keys[g], text); g++)
			;
		if (g == sc->ngroups)
			sc->keys[sc->ngroups++] = text;
		else
			free(text);
		sc->group[i] = g;
		json_decref(rest);
	}
}

void ab_chart_scaling_release(struct ab_chart_scaling *sc)
{
	size_t g;

	for (g = 0; g < sc->ngroups; g++)
		free(sc->keys[g]);
	free(sc->keys);
	free(sc->group);
	free(sc->xi);
	free(sc->numeric);
	memset(sc, 0, sizeof(*sc));
}

/* Where value j of the parameter sits on the x axis. */
static double scaling_x(const struct ab_chart_scaling *sc, size_t j)
{
	return sc->nv == 1 ? (SC_X0 + SC_X1) / 2
			   : SC_X0 + 30 + (double)j * (SC_X1 - SC_X0 - 60) / (double)(sc->nv - 1);
}

/* The y axis of group g: from 0 to 12% above the largest scaling of
 * either side, and of the linear line as far as 1.6 times that. */
static struct axis scaling_axis(const struct ab_chart_scaling *sc, size_t g)
{
	static const char *const sides[2] = {"parent", "candidate"};
	struct axis ay;
	double ymax = 0;
	size_t i, j;
	json_t *row;
	int s;

	json_array_foreach((json_t *)sc->rows, i, row)
		if (sc->group[i] == g)
			for (s = 0; s < 2; s++) {
				double y = ab_report_num(json_object_get(row, sides[s]), "scaling");
				if (isfinite(y))
					ymax = fmax(ymax, y);
			}
	if (sc->all_numeric)
		for (j = 0; j < sc->nv; j++)
			ymax = fmax(ymax, fmin(sc->numeric[j] / sc->n0, ymax * 1.6));
	if (!(ymax > 0))
		ymax = 1;
	ay.lo = 0;
	ay.hi = ymax * 1.12;
	ay.x0 = SC_BOTTOM;
	ay.x1 = SC_TOP;
	ay.log = 0;
	return ay;
}

/* The svg element's start, the frame, and the grid with its labels. */
static void scaling_frame(FILE *f, const struct ab_chart_scaling *sc, const struct axis *ay)
{
	double tick[MAX_TICKS];
	size_t nt, i, j;
	int decimals;

	fprintf(f, "<svg class=\"chart scaling\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"scaling curves\">\n", W, SC_BOTTOM + 48);
	frame_rect(f, SC_X0, SC_TOP, SC_X1 - SC_X0, SC_PH);
	nt = ticks(tick, MAX_TICKS, ay->lo, ay->hi, 0, &decimals);
	for (i = 0; i < nt; i++) {
		double y = axis_map(ay, tick[i]);
		grid_line(f, SC_X0 - 4, y, SC_X1, y, SC_X0 - 8, y + 4, "end");
		fprintf(f, "%.*fx</text>\n", decimals, tick[i]);
	}
	for (j = 0; j < sc->nv; j++) {
		double x = scaling_x(sc, j);
		grid_line(f, x, SC_BOTTOM, x, SC_BOTTOM + 4, x, SC_BOTTOM + 17, "middle");
		ab_report_escape_xml(f, json_string_value(json_array_get(sc->values, j)));
		fprintf(f, "</text>\n");
	}
}

/* The linear line, cut where it leaves the frame at the top (the axis stops 12% above the
 * largest measured scaling, the line may not): one polyline per stretch inside. */
static void scaling_ideal(FILE *f, const struct ab_chart_scaling *sc, const struct axis *ay)
{
	double px = 0, py = 0;
	int open = 0, was = 0;
	size_t j;

	for (j = 0; j < sc->nv; j++) {
		double x = scaling_x(sc, j), y = sc->numeric[j] / sc->n0;
		int inside = y <= ay->hi;

		if (j && inside != was) {
			/* where the segment crosses the top: linear in SVG units, as it is drawn */
			double cx = px + (ay->hi - py) / (y - py) * (x - px);
			if (!open)
				fprintf(f, "<polyline class=\"ideal\" points=\"");
			fprintf(f, "%s%.1f,%.1f", open ? " " : "", cx, axis_map(ay, ay->hi));
			if (open)
				fprintf(f, "\"/>\n");
			open = !open;
		}
		if (inside) {
			if (!open)
				fprintf(f, "<polyline class=\"ideal\" points=\"");
			fprintf(f, "%s%.1f,%.1f", open ? " " : "", x, axis_map(ay, y));
			open = 1;
		}
		px = x;
		py = y;
		was = inside;
	}
	if (open)
		fprintf(f, "\"/>\n");
}

int ab_chart_scaling_has_data(const struct ab_chart_scaling *sc, size_t g)
{
	static const char *const sides[2] = {"parent", "candidate"};
	size_t i;
	json_t *row;
	int s;

	json_array_foreach((json_t *)sc->rows, i, row)
		for (s = 0; s < 2; s++)
			if (sc->group[i] == g && isfinite(ab_report_num(json_object_get(row, sides[s]), "scaling")))
				return 1;
	return 0;
}

/* Side s's points of group g, in the order of the values: the curve through
 * them (circles 0), or a circle at each with its title (circles 1). A side
 * without a scaling (its rows have no complete pair) draws none. */
static void side_marks(FILE *f, const struct ab_chart_scaling *sc, size_t g, const struct axis *ay,
		       const char *side, int circles)
{
	size_t i, j;
	json_t *row;
	int any = 0;

	for (j = 0; j < sc->nv; j++)
		json_array_foreach((json_t *)sc->rows, i, row) {
			double y = ab_report_num(json_object_get(row, side), "scaling");
			if (sc->group[i] != g || sc->xi[i] != j || !isfinite(y))
				continue;
			if (circles) {
				fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"><title>",
					side, scaling_x(sc, j), axis_map(ay, y));
				ab_report_escape_xml(f, ab_report_side_label(sc->doc, !strcmp(side, "candidate")));
				fputs(", ", f);
				ab_report_escape_xml(f, ab_report_str(row, "label"));
				fprintf(f, ": %.2fx</title></circle>\n", y);
				continue;
			}
			if (!any++)
				fprintf(f, "<polyline class=\"%s\" points=\"", side);
			else
				fputc(' ', f);
			fprintf(f, "%.1f,%.1f", scaling_x(sc, j), axis_map(ay, y));
		}
	if (any)
		fprintf(f, "\"/>\n");
}

/* The linear line, then each side's curve and its points. */
static void scaling_curves(FILE *f, const struct ab_chart_scaling *sc, size_t g, const struct axis *ay)
{
	static const char *const sides[2] = {"parent", "candidate"};
	int s;

	if (sc->all_numeric)
		scaling_ideal(f, sc, ay);
	for (s = 0; s < 2; s++) {
		side_marks(f, sc, g, ay, sides[s], 0);
		side_marks(f, sc, g, ay, sides[s], 1);
	}
}

/* The values at each point beside the chart, for a quick read. */
static void scaling_values(FILE *f, const struct ab_chart_scaling *sc, size_t g)
{
	double ly = SC_TOP + 14;
	size_t i, j;
	json_t *row;

	fprintf(f, "<text x=\"556\" y=\"%.1f\" class=\"muted\">", ly);
	ab_report_escape_xml(f, ab_report_side_label(sc->doc, 0));
	fprintf(f, " → ");
	ab_report_escape_xml(f, ab_report_side_label(sc->doc, 1));
	fprintf(f, "</text>\n");
	for (j = 0; j < sc->nv; j++)
		json_array_foreach((json_t *)sc->rows, i, row) {
			double a = ab_report_num(json_object_get(row, "parent"), "scaling");
			double b = ab_report_num(json_object_get(row, "candidate"), "scaling");
			if (sc->group[i] != g || sc->xi[i] != j)
				continue;
			ly += 17;
			fprintf(f, "<text x=\"556\" y=\"%.1f\">", ly);
			ab_report_escape_xml(f, sc->param);
			fputc('=', f);
			ab_report_escape_xml(f, json_string_value(json_array_get(sc->values, j)));
			if (isfinite(a) && isfinite(b))
				fprintf(f, ": %.2fx → %.2fx</text>\n", a, b);
			else
				fprintf(f, ": n/a</text>\n");
		}
}

void ab_chart_scaling_svg(FILE *f, const struct ab_chart_scaling *sc, size_t g)
{
	struct axis ay = scaling_axis(sc, g);

	scaling_frame(f, sc, &ay);
	scaling_curves(f, sc, g, &ay);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (SC_X0 + SC_X1) / 2, SC_BOTTOM + 36);
	ab_report_escape_xml(f, sc->param);
	fprintf(f, "</text>\n<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">"
		"scaling</text>\n", (SC_TOP + SC_BOTTOM) / 2, (SC_TOP + SC_BOTTOM) / 2);
	scaling_values(f, sc, g);
	fprintf(f, "</svg>\n");
}

/* The distribution chart's geometry: a lane per side, DIST_LANE high, its name and summary on
 * the first line and its box centred DIST_BOX below the lane's top, DIST_BOX_H high. */
#define DIST_TOP 6.0
#define DIST_LANE 46.0
#define DIST_BOX 31.0
#define DIST_BOX_H 16.0

/* One side's values of a row, in plan order (the dots) and sorted (the box). */
struct dist_side {
	double *v, *sorted;  /* n values each, new memory */
	int32_t *pair;       /* per value: its pair (or its warmup), 0-based */
	size_t n;
	int warmups;         /* the values are warmups': no pair of the row ran */
	double q1, median, q3, lo, hi;  /* the quartiles and the whiskers' ends */
};

/* The p-quantile of sorted x[0..n) (n > 0), interpolated between order statistics: Hyndman
 * & Fan's type 7, numpy's default, which matplotlib's box plots (hyperfine's plot_whisker.py)
 * draw. */
static double quantile7(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);

	return k + 1 < n ? x[k] + (h - (double)k) * (x[k + 1] - x[k]) : x[n - 1];
}

/* Index of metric `name` in `names`, or -1. */
static long metric_index(const struct ab_chart_samples *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nmetrics; i++)
		if (s->metric_names[i] && !strcmp(s->metric_names[i], name))
			return (long)i;
	return -1;
}

/* Side `side`'s values of row `r` in metric m: its successful samples of the row's pairs (not
 * warmups, superseded, failed or never-run samples), or with `warmups` of its warmups; and the
 * box plot's numbers: quartiles, median, and whiskers at the furthest values within 1.5
 * interquartile ranges of the box (Tukey 1977). */
static void dist_side_init(struct dist_side *d, const struct ab_chart_samples *s, size_t r, int side, long m,
			   int warmups)
{
	size_t i;
	double iqr;

	memset(d, 0, sizeof(*d));
	d->warmups = warmups;
	d->v = ab_xcalloc(s->n + 1, sizeof(*d->v));
	d->sorted = ab_xcalloc(s->n + 1, sizeof(*d->sorted));
	d->pair = ab_xcalloc(s->n + 1, sizeof(*d->pair));
	for (i = 0; i < s->n; i++) {
		const struct ab_sample *x = &s->samples[i];
		double v;

		if (x->entry.row != r || x->entry.side != side || (warmups ? x->entry.warmup : x->entry.pair) < 0 ||
		    x->status != AB_SAMPLE_DONE || !ab_sample_ok(x) || !x->metrics || (size_t)m >= x->nmetrics ||
		    !isfinite(v = x->metrics[m]))
			continue;
		d->pair[d->n] = warmups ? x->entry.warmup : x->entry.pair;
		d->sorted[d->n] = v;
		d->v[d->n++] = v;
	}
	if (!d->n)
		return;
	qsort(d->sorted, d->n, sizeof(*d->sorted), ab_stats_cmp_double);
	d->q1 = quantile7(d->sorted, d->n, 0.25);
	d->median = quantile7(d->sorted, d->n, 0.5);
	d->q3 = quantile7(d->sorted, d->n, 0.75);
	iqr = d->q3 - d->q1;
	for (i = 0; i < d->n && d->sorted[i] < d->q1 - 1.5 * iqr; i++)
		;
	d->lo = d->sorted[i];
	for (i = d->n; i > 0 && d->sorted[i - 1] > d->q3 + 1.5 * iqr; i--)
		;
	d->hi = d->sorted[i - 1];
}

static void dist_side_release(struct dist_side *d)
{
	free(d->v);
	free(d->sorted);
	free(d->pair);
}

/* The linear axis of both sides' values, padded by 6% of their span (of 1% of the value when
 * every value is the same). */
static struct axis dist_axis(const struct dist_side *d)
{
	struct axis ax = {INFINITY, -INFINITY, PLOT_X0, PLOT_X1, 0};
	double pad;
	int s;

	for (s = 0; s < 2; s++)
		if (d[s].n) {
			ax.lo = fmin(ax.lo, d[s].sorted[0]);
			ax.hi = fmax(ax.hi, d[s].sorted[d[s].n - 1]);
		}
	pad = (ax.hi - ax.lo) * 0.06;
	if (!(pad > 0))
		pad = fabs(ax.hi) > 0 ? fabs(ax.hi) * 0.01 : 1;
	ax.lo -= pad;
	ax.hi += pad;
	return ax;
}

/* A whisker's line, or its end's, in side class `cls`. */
static void whisker(FILE *f, const char *cls, double x1, double y1, double x2, double y2)
{
	fprintf(f, "<line class=\"whisker %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls, x1, y1,
		x2, y2);
}

/* Side s's lane: its name and summary, the whiskers, the box, the median, and a dot per sample
 * (in plan order, jittered over five heights so that equal values stay apart). */
static void dist_lane(FILE *f, const json_t *doc, const struct dist_side *d, int s, const struct axis *ax,
		      const char *unit)
{
	static const char *const cls[2] = {"parent", "candidate"};
	double top = DIST_TOP + DIST_LANE * s, y = top + DIST_BOX, h = DIST_BOX_H / 2;
	char buf[48];
	size_t i;

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"><tspan font-weight=\"600\">", PLOT_X0 + 6, top + 14);
	ab_report_escape_xml(f, ab_report_side_label(doc, s));
	fprintf(f, "</tspan><tspan class=\"muted\"> · ");
	if (!d->n) {
		fprintf(f, "no successful sample</tspan></text>\n");
		return;
	}
	ab_report_format_value(buf, sizeof(buf), d->median, unit);
	fprintf(f, "median %s · %zu %s%s%s</tspan></text>\n", buf, d->n, d->warmups ? "warmup" : "sample",
		d->n == 1 ? "" : "s", d->warmups ? " (no pair ran)" : "");
	whisker(f, cls[s], axis_map(ax, d->lo), y, axis_map(ax, d->q1), y);
	whisker(f, cls[s], axis_map(ax, d->q3), y, axis_map(ax, d->hi), y);
	whisker(f, cls[s], axis_map(ax, d->lo), y - h / 2, axis_map(ax, d->lo), y + h / 2);
	whisker(f, cls[s], axis_map(ax, d->hi), y - h / 2, axis_map(ax, d->hi), y + h / 2);
	fprintf(f, "<rect class=\"box %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>", cls[s],
		axis_map(ax, d->q1), y - h, fmax(axis_map(ax, d->q3) - axis_map(ax, d->q1), 1), 2 * h);
	ab_report_escape_xml(f, ab_report_side_label(doc, s));
	fprintf(f, ": quartiles ");
	fprintf(f, "%s", ab_report_format_value(buf, sizeof(buf), d->q1, unit));
	fprintf(f, " to %s</title></rect>\n", ab_report_format_value(buf, sizeof(buf), d->q3, unit));
	fprintf(f, "<line class=\"med\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", axis_map(ax, d->median),
		y - h - 2, axis_map(ax, d->median), y + h + 2);
	for (i = 0; i < d->n; i++) {
		fprintf(f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>", cls[s],
			axis_map(ax, d->v[i]), y + 3.0 * (double)((long)(i % 5) - 2));
		ab_report_escape_xml(f, ab_report_side_label(doc, s));
		fprintf(f, ", %s %d: %s</title></circle>\n", d->warmups ? "warmup" : "pair", d->pair[i] + 1,
			ab_report_format_value(buf, sizeof(buf), d->v[i], unit));
	}
}

int ab_chart_dist(FILE *f, const json_t *doc, size_t r, const struct ab_chart_samples *in)
{
	const json_t *row = json_array_get(json_object_get(doc, "rows"), r);
	const char *unit = ab_report_str(row, "unit");
	long m = in && in->samples ? metric_index(in, ab_report_str(row, "metric")) : -1;
	struct dist_side d[2];
	struct axis ax;
	double tick[MAX_TICKS], bottom = DIST_TOP + 2 * DIST_LANE;
	size_t nt, i;
	int s, decimals, warmups;
	char buf[48];

	if (m < 0)
		return 0;
	/* the pairs' samples; a row none of whose pairs ran (an invalid run stops at its first
	 * mismatch) shows what it measured, its warmups, as the rows table does */
	for (warmups = 0; warmups < 2; warmups++) {
		for (s = 0; s < 2; s++)
			dist_side_init(&d[s], in, r, s, m, warmups);
		if (d[0].n || d[1].n)
			break;
		dist_side_release(&d[0]);
		dist_side_release(&d[1]);
	}
	if (warmups == 2)
		return 0;
	ax = dist_axis(d);
	fprintf(f, "<svg class=\"chart dist\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"each side's "
		"samples of ", W, bottom + 44);
	ab_report_escape_xml(f, ab_report_str(row, "label"));
	fprintf(f, "\">\n");
	frame_rect(f, PLOT_X0, DIST_TOP, PLOT_X1 - PLOT_X0, 2 * DIST_LANE);
	nt = ticks(tick, MAX_TICKS, ax.lo, ax.hi, 0, &decimals);
	for (i = 0; i < nt; i++) {
		double x = axis_map(&ax, tick[i]);
		grid_line(f, x, DIST_TOP, x, bottom + 4, x, bottom + 17, "middle");
		fprintf(f, "%s</text>\n", ab_report_format_value(buf, sizeof(buf), tick[i], unit));
	}
	for (s = 0; s < 2; s++)
		dist_lane(f, doc, &d[s], s, &ax, unit);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (PLOT_X0 + PLOT_X1) / 2, bottom + 36);
	ab_report_escape_xml(f, ab_report_str(row, "metric"));
	fprintf(f, " per sample, each side (%s is better)</text>\n</svg>\n",
		!strcmp(ab_report_str(row, "better"), "higher") ? "higher" : "lower");
	for (s = 0; s < 2; s++)
		dist_side_release(&d[s]);
	return 1;
}
