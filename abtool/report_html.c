/* report_html.c - the self-contained HTML report, rendered from the JSON
 * document (see report.h). One file a reviewer can attach to a pull
 * request or open from a CI artifact: inline CSS, inline SVG charts and
 * one small inline script, no fonts, images or scripts from elsewhere (a
 * Content-Security-Policy forbids any fetch), light and dark colours.
 *
 * It shows what the Markdown report shows, plus the picture behind each
 * row's number: the per-pair ratios B/A as dots on a log axis (coloured
 * by pair order, so an order effect is visible), the decision interval as
 * a band, the Hodges–Lehmann estimate as a tick, the line at 1, and the
 * margins of the rules that decide the row, where the reader can see how
 * far the interval clears them. With `scaling:`, both sides' scaling
 * curves are drawn too.
 *
 * Everything from the document is escaped; numbers in the SVG are printed
 * with fixed precision, so the same document gives the same bytes. */
#include "report.h"
#include "env.h"
#include "error.h"
#include "predicates.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The strip chart's geometry, in SVG user units. */
#define W 720.0
#define PLOT_X0 70.0
#define PLOT_X1 700.0
#define LABEL_ROW 14.0
#define MAX_MARGINS 16
#define MAX_TICKS 32

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static double num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long integer(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

void ab_report_escape_xml(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 has no place for other control characters */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

/* Text for HTML content and attribute values. */
static void esc(FILE *f, const char *s)
{
	ab_report_escape_xml(f, s);
}

/* A row parameter's value (integer or string) as text. */
static void param_value(FILE *f, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%g", json_real_value(v));
	else
		esc(f, json_string_value(v));
}

/* The outcome's class suffix and mark. */
static const char *outcome_class(const char *o)
{
	return !strcmp(o, "pass") ? "pass" : !strcmp(o, "fail") ? "fail" : "inc";
}

static const char *outcome_mark(const char *o)
{
	return !strcmp(o, "pass") ? "✓" : !strcmp(o, "fail") ? "✗" : "?";
}

/* The document's row whose params equal `params`, or NULL. */
static const json_t *row_by_params(const json_t *doc, const json_t *params)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(doc, "rows"), i, row)
		if (json_equal(json_object_get(row, "params"), (json_t *)params))
			return row;
	return NULL;
}

static const char css[] =
	":root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;"
	"--panel:#f6f8fa;--ab:#0072b2;--ba:#d55e00;--ci:rgba(0,114,178,.16);--margin:#8250df;"
	"--parent:#009e73;--candidate:#cc79a7;--pass:#1a7f37;--fail:#cf222e;--inc:#9a6700;"
	"--invalid:#8250df}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
	"--line:#3d444d;--panel:#151b23;--ab:#56b4e9;--ba:#e69f00;--ci:rgba(86,180,233,.20);"
	"--margin:#b392f0;--parent:#3ccf9e;--candidate:#e79fcb;--pass:#3fb950;--fail:#f85149;"
	"--inc:#d29922;--invalid:#a371f7}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:1040px;padding:24px 20px 48px;background:var(--bg);color:var(--fg);"
	"font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans\",\"DejaVu Sans\",sans-serif}\n"
	"h1{font-size:26px;margin:0 0 4px;line-height:1.25;overflow-wrap:anywhere}\n"
	"h2{font-size:19px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	"code,pre{font:13px/1.45 ui-monospace,\"SFMono-Regular\",\"DejaVu Sans Mono\",Menlo,monospace}\n"
	"code{background:var(--panel);padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}\n"
	"pre{background:var(--panel);padding:10px 12px;border-radius:6px;overflow-x:auto;white-space:pre-wrap}\n"
	".meta,.note,figcaption .sub{color:var(--muted)}\n"
	".meta{margin:0 0 12px}\n"
	"blockquote{margin:0 0 16px;padding:4px 14px;border-left:4px solid var(--line);color:var(--muted)}\n"
	".badge{display:inline-block;padding:1px 10px;border-radius:999px;font-size:15px;"
	"vertical-align:middle;color:#fff;font-weight:600;margin-left:6px}\n"
	".v-accepted{--v:var(--pass)}.v-rejected{--v:var(--fail)}.v-inconclusive{--v:var(--inc)}"
	".v-invalid{--v:var(--invalid)}\n"
	".badge{background:var(--v)}\n"
	".box{border:1px solid var(--line);border-left:6px solid var(--v);border-radius:6px;"
	"padding:10px 16px;background:var(--panel)}\n"
	".box p{margin:4px 0}.box ul{margin:6px 0;padding-left:4px;list-style:none}\n"
	".box li{margin:3px 0}\n"
	".o-pass{color:var(--pass)}.o-fail{color:var(--fail)}.o-inc{color:var(--inc)}\n"
	".mark{display:inline-block;width:1.3em;font-weight:700}\n"
	".detail{color:var(--fg)}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:6px 0 10px;font-size:14px}\n"
	"th,td{border:1px solid var(--line);padding:4px 9px;text-align:left;vertical-align:top}\n"
	"th{background:var(--panel);font-weight:600}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.nw,td code{white-space:nowrap}\n"
	"strong.sig{font-weight:700}\n"
	".warn{color:var(--inc)}\n"
	"figure{margin:14px 0 22px}\n"
	"figcaption{font-weight:600;margin-bottom:2px}\n"
	"figcaption .sub{font-weight:400}\n"
	"svg.chart{display:block;width:100%;height:auto;font:12px system-ui,\"DejaVu Sans\",sans-serif}\n"
	"svg text{fill:var(--fg)}svg .muted{fill:var(--muted)}\n"
	"svg .frame{fill:var(--panel);stroke:var(--line)}\n"
	"svg .grid{stroke:var(--line);stroke-width:1}\n"
	"svg .ci{fill:var(--ci);stroke:var(--ab);stroke-opacity:.5}\n"
	"svg .one{stroke:var(--fg);stroke-width:1.5}\n"
	"svg .hl{stroke:var(--fg);stroke-width:3}\n"
	"svg .margin{stroke:var(--margin);stroke-width:1.5;stroke-dasharray:6 4}\n"
	"svg text.margin-label{fill:var(--margin)}\n"
	"svg .ab{fill:var(--ab)}svg .ba{fill:var(--ba)}\n"
	"svg circle.ab,svg circle.ba{stroke:var(--bg);stroke-width:1}\n"
	"svg .parent{stroke:var(--parent);fill:var(--parent)}svg .candidate{stroke:var(--candidate);fill:var(--candidate)}\n"
	"svg polyline{fill:none;stroke-width:2.5}\n"
	"svg .ideal{stroke:var(--muted);stroke-dasharray:3 4;fill:none}\n"
	".legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 0 8px;font-size:13px;color:var(--muted)}\n"
	".key{display:inline-flex;align-items:center;gap:6px}\n"
	".sw{display:inline-block;width:12px;height:12px}\n"
	".sw.dot{border-radius:50%}.sw.ab{background:var(--ab)}.sw.ba{background:var(--ba)}\n"
	".sw.ci{background:var(--ci);border:1px solid var(--ab);width:22px}\n"
	".sw.hl{width:3px;height:14px;background:var(--fg)}\n"
	".sw.one{width:2px;height:14px;background:var(--fg)}\n"
	".sw.margin{width:0;height:14px;border-left:2px dashed var(--margin)}\n"
	".sw.parent{background:var(--parent);height:4px;width:20px}.sw.candidate{background:var(--candidate);height:4px;width:20px}\n"
	".sw.ideal{width:20px;height:0;border-top:2px dotted var(--muted)}\n"
	"details{margin:8px 0}summary{cursor:pointer;color:var(--muted)}\n"
	"footer{margin-top:36px;color:var(--muted);font-size:13px}\n";

static void header(FILE *f, const json_t *doc)
{
	const char *verdict = str(doc, "verdict");

	fprintf(f, "<header>\n<h1>");
	esc(f, str(doc, "experiment"));
	fprintf(f, " <span class=\"badge v-");
	esc(f, verdict);
	fprintf(f, "\">");
	esc(f, verdict);
	fprintf(f, "</span></h1>\n<p class=\"meta\">Design <code>");
	esc(f, str(doc, "design"));
	fprintf(f, "</code> · run %lld · ", integer(doc, "run_id"));
	esc(f, str(doc, "created_at"));
	fprintf(f, " · abtool ");
	esc(f, str(doc, "abtool_version"));
	fprintf(f, "</p>\n");
	if (json_is_string(json_object_get(doc, "hypothesis"))) {
		fprintf(f, "<blockquote>Hypothesis: ");
		esc(f, str(doc, "hypothesis"));
		fprintf(f, "</blockquote>\n");
	}
	fprintf(f, "</header>\n");
}

/* The verdict with its reasons and each rule's outcome, as the Markdown
 * report's first paragraph says it. */
static void verdict_box(FILE *f, const json_t *doc)
{
	const json_t *rules = json_object_get(doc, "rules"), *reasons = json_object_get(doc, "reasons");
	const char *verdict = str(doc, "verdict");
	size_t i, nfail = 0, ninc = 0, n = json_array_size(rules);
	json_t *r;

	json_array_foreach(rules, i, r) {
		nfail += !strcmp(str(r, "outcome"), "fail");
		ninc += !strcmp(str(r, "outcome"), "inconclusive");
	}
	fprintf(f, "<section id=\"verdict\" class=\"box v-");
	esc(f, verdict);
	fprintf(f, "\">\n<p><strong id=\"verdict-text\">Verdict: ");
	esc(f, verdict);
	fprintf(f, ".</strong> ");
	if (!strcmp(verdict, "invalid")) {
		fprintf(f, "No speed claim is made from a wrong or broken side:</p>\n<ul>\n");
		json_array_foreach(reasons, i, r) {
			fprintf(f, "<li class=\"o-fail\"><span class=\"mark\">✗</span><span class=\"detail\">");
			esc(f, json_string_value(r));
			fprintf(f, "</span></li>\n");
		}
		fprintf(f, "</ul>\n");
		if (!n) {
			fprintf(f, "</section>\n");
			return;
		}
		fprintf(f, "<p>Rules, for information:</p>\n");
	} else if (n == 0) {
		esc(f, json_string_value(json_array_get(reasons, 0)));
		fprintf(f, "</p>\n");
	} else if (nfail) {
		fprintf(f, "%zu of %zu rule%s failed:</p>\n", nfail, n, n == 1 ? "" : "s");
	} else if (ninc) {
		fprintf(f, "%zu of %zu rule%s inconclusive:</p>\n", ninc, n, n == 1 ? "" : "s");
	} else {
		fprintf(f, "%s passed:</p>\n", n == 1 ? "The rule" : n == 2 ? "Both rules" : "All rules");
	}
	if (n) {
		fprintf(f, "<ul>\n");
		json_array_foreach(rules, i, r) {
			const char *o = str(r, "outcome");
			fprintf(f, "<li class=\"o-%s\"><span class=\"mark\">%s</span><strong>", outcome_class(o),
				outcome_mark(o));
			esc(f, str(r, "name"));
			fprintf(f, "</strong> <span class=\"detail\">— ");
			esc(f, str(r, "detail"));
			fprintf(f, "</span></li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
}

/* "0.515 [0.505, 0.522]", bold when the interval excludes 1. */
static void ratio_cell(FILE *f, const json_t *m)
{
	const json_t *ci = json_object_get(m, "ci");
	double l = json_number_value(json_array_get(ci, 0)), u = json_number_value(json_array_get(ci, 1));
	int have_ci = json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1));

	if (!json_is_number(json_object_get(m, "ratio"))) {
		fprintf(f, "n/a");
		return;
	}
	if (have_ci && (l > 1 || u < 1))
		fprintf(f, "<strong class=\"sig\">%.3f</strong>", num(m, "ratio"));
	else
		fprintf(f, "%.3f", num(m, "ratio"));
	if (have_ci)
		fprintf(f, " [%.3f, %.3f]", l, u);
	else
		fprintf(f, " [too few pairs]");
}

static void rows_table(FILE *f, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *plan = json_object_get(doc, "plan");
	const json_t *matrix = json_object_get(plan, "matrix"), *first = json_array_get(rows, 0);
	int scaling = json_is_object(json_object_get(doc, "scaling"));
	const char *unit = str(first, "unit"), *pname;
	double level = num(first, "ci_level");
	json_t *row, *vals;
	size_t i;
	char buf[48];
	int warn_rsd = 0;

	fprintf(f, "<section id=\"rows\">\n<h2>Rows (");
	esc(f, str(doc, "metric"));
	fprintf(f, ", %s is better)</h2>\n<div class=\"scroll\"><table>\n<thead><tr>",
		!strcmp(str(first, "better"), "higher") ? "higher" : "lower");
	json_object_foreach((json_t *)matrix, pname, vals) {
		fprintf(f, "<th>");
		esc(f, pname);
		fprintf(f, "</th>");
	}
	fprintf(f, "<th>parent median</th><th>RSD</th>%s<th>candidate median</th><th>RSD</th>%s"
		"<th>ratio B/A [90%% CI]</th><th>pair wins</th><th>checksum</th></tr></thead>\n<tbody>\n",
		scaling ? "<th>scaling</th>" : "", scaling ? "<th>scaling</th>" : "");
	json_array_foreach(rows, i, row) {
		const json_t *params = json_object_get(row, "params");
		const char *sides[2] = {"parent", "candidate"};
		int s;

		fprintf(f, "<tr>");
		json_object_foreach((json_t *)matrix, pname, vals) {
			json_t *v = json_object_get(params, pname);
			fprintf(f, json_is_integer(v) ? "<td class=\"n\">" : "<td>");
			param_value(f, v);
			fprintf(f, "</td>");
		}
		for (s = 0; s < 2; s++) {
			const json_t *side = json_object_get(row, sides[s]);
			double rsd = num(side, "rsd");
			fprintf(f, "<td class=\"n\">%s</td>",
				ab_report_format_value(buf, sizeof(buf), num(side, "median"), unit));
			if (isnan(rsd))
				fprintf(f, "<td class=\"n\">n/a</td>");
			else
				fprintf(f, "<td class=\"n\">%.1f%%%s</td>", 100 * rsd,
					rsd > 0.05 ? " <span class=\"warn\" title=\"RSD above 5%\">⚠</span>" : "");
			warn_rsd |= rsd > 0.05;
			if (scaling) {
				double sc = num(side, "scaling");
				fprintf(f, isnan(sc) ? "<td class=\"n\">n/a</td>" : "<td class=\"n\">%.2fx</td>", sc);
			}
		}
		fprintf(f, "<td class=\"n\">");
		ratio_cell(f, row);
		fprintf(f, "</td><td class=\"n\">%lld/%lld</td><td class=\"nw\">", integer(row, "pair_wins"),
			integer(row, "pairs"));
		if (json_is_true(json_object_get(row, "checksum_match"))) {
			fprintf(f, "<code>");
			esc(f, str(row, "checksum"));
			fprintf(f, "</code> <span class=\"o-pass\">✓</span>");
		} else if (json_is_false(json_object_get(row, "checksum_match"))) {
			fprintf(f, "<strong class=\"o-fail\">mismatch ✗</strong>");
		} else {
			fprintf(f, "not checked");
		}
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
	if (scaling) {
		const json_t *sc = json_object_get(doc, "scaling");
		int per_lane = !strcmp(str(sc, "work"), "per_lane");
		fprintf(f, "<p class=\"note\">Scaling: against the same side's row with the smallest <code>");
		esc(f, str(sc, "parameter"));
		fprintf(f, "</code>, %s.</p>\n",
			per_lane ? "fixed work per lane (S<sub>N</sub> = (N/N<sub>0</sub>)·T<sub>N0</sub>/T<sub>N</sub>)"
				 : "fixed total work (S<sub>N</sub> = T<sub>N0</sub>/T<sub>N</sub>)");
	}
	/* as in the Markdown report: no bound, no coverage to speak of */
	if (json_object_get(first, "ci") && !json_is_number(json_array_get(json_object_get(first, "ci"), 0)))
		fprintf(f, "<p class=\"note\">No interval: %lld pairs are too few for an exact one-sided 95%% "
			"bound (5 at least), so rules on these rows can only be inconclusive.</p>\n",
			integer(first, "pairs"));
	else if (!isnan(level))
		fprintf(f, "<p class=\"note\">The interval is made of exact one-sided 95%% bounds (coverage "
			"%.4g%% for %lld pairs); bold ratios exclude 1.</p>\n", 100 * level, integer(first, "pairs"));
	{
		char *scaling_change = ab_report_scaling_change_note(doc), *order = ab_report_order_effect_note(doc);

		if (scaling_change) {
			fprintf(f, "<p class=\"note\">");
			esc(f, scaling_change);
			fprintf(f, "</p>\n");
		}
		if (order) {
			fprintf(f, "<p class=\"note\">");
			esc(f, order);
			fprintf(f, "</p>\n");
		}
		free(scaling_change);
		free(order);
	}
	if (warn_rsd)
		fprintf(f, "<p class=\"note warn\">⚠ RSD above 5%%.</p>\n");
	fprintf(f, "</section>\n");
}

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
	int higher = !strcmp(str(row, "better"), "higher");
	size_t i, j, n = 0;
	json_t *rule, *rr;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		int selects = 0;
		if (strcmp(str(rule, "metric"), str(row, "metric")))
			continue;
		json_array_foreach(json_object_get(rule, "rows"), j, rr)
			selects |= json_equal(json_object_get(rr, "params"), json_object_get(row, "params"));
		if (!selects)
			continue;
		/* the margins of the metric's percent predicates: 1+δ or 1/(1+δ) */
		for (p = ab_predicates; p->name && n < max; p++) {
			double d, at;
			if (p->decide != AB_DECIDE_BOUND || p->arg != AB_ARG_PERCENT || p->on_scaling ||
			    !p->json || isnan(d = num(rule, p->json)))
				continue;
			at = p->margin_up != higher ? 1 + d : 1 / (1 + d);
			out[n].at = at;
			out[n].rule = str(rule, "name");
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

/* The per-pair ratio strip of one row. */
static void strip_chart(FILE *f, const json_t *doc, const json_t *row, size_t index)
{
	const json_t *per_pair = json_object_get(row, "per_pair"), *ci = json_object_get(row, "ci");
	struct margin margins[MAX_MARGINS];
	size_t nmargins = row_margins(margins, MAX_MARGINS, doc, row), npairs = 0, i, nlabel_rows;
	double lo = INFINITY, hi = -INFINITY, ratio = num(row, "ratio");
	double l = json_number_value(json_array_get(ci, 0)), u = json_number_value(json_array_get(ci, 1));
	int have_ci = json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1));
	int higher = !strcmp(str(row, "better"), "higher");
	double top, ph, bottom, height, tick[MAX_TICKS];
	struct axis ax;
	size_t nt;
	int decimals;
	json_t *p;

	json_array_foreach((json_t *)per_pair, i, p) {
		double d = num(p, "log_ratio");
		if (isnan(d))
			continue;
		npairs++;
		lo = fmin(lo, exp(d));
		hi = fmax(hi, exp(d));
	}

	fprintf(f, "<figure id=\"row-%zu\">\n<figcaption>", index);
	esc(f, str(row, "label"));
	fprintf(f, " <span class=\"sub\">— ");
	if (json_is_number(json_object_get(row, "ratio"))) {
		ratio_cell(f, row);
		fprintf(f, " · %lld/%lld pair wins", integer(row, "pair_wins"), integer(row, "pairs"));
	} else {
		fprintf(f, "no ratio");
	}
	fprintf(f, "</span></figcaption>\n");

	if (!npairs) {
		/* Still one chart per row, saying why it is empty. */
		const char *why = json_is_string(json_object_get(row, "unavailable")) ? str(row, "unavailable")
				  : json_is_string(json_object_get(row, "failure")) ? str(row, "failure")
				  : "no complete pair";
		fprintf(f, "<svg class=\"chart strip\" viewBox=\"0 0 %.0f 48\" role=\"img\" "
			"aria-label=\"no per-pair ratios\">\n<rect class=\"frame\" x=\"%.1f\" y=\"4\" width=\"%.1f\" "
			"height=\"40\"/>\n<text x=\"%.1f\" y=\"29\" text-anchor=\"middle\" class=\"muted\">no per-pair "
			"ratios: ", W, PLOT_X0, PLOT_X1 - PLOT_X0, (PLOT_X0 + PLOT_X1) / 2);
		esc(f, why);
		fprintf(f, "</text>\n</svg>\n</figure>\n");
		return;
	}

	/* The axis covers the dots, the interval, the estimate, 1 and the margins. */
	lo = fmin(lo, 1);
	hi = fmax(hi, 1);
	if (have_ci) {
		lo = fmin(lo, l);
		hi = fmax(hi, u);
	}
	if (isfinite(ratio) && ratio > 0) {
		lo = fmin(lo, ratio);
		hi = fmax(hi, ratio);
	}
	for (i = 0; i < nmargins; i++) {
		lo = fmin(lo, margins[i].at);
		hi = fmax(hi, margins[i].at);
	}
	{
		double span = log(hi) - log(lo), pad;
		if (span < 0.01)
			span = 0.01;
		pad = span * 0.06;
		lo = exp(log(lo) - pad);
		hi = exp(log(hi) + pad);
	}
	ax.lo = lo;
	ax.hi = hi;
	ax.x0 = PLOT_X0;
	ax.x1 = PLOT_X1;
	ax.log = 1;

	nlabel_rows = nmargins < 3 ? nmargins : 3;
	top = 8 + LABEL_ROW * (double)nlabel_rows;
	ph = 12.0 * (double)npairs + 16;
	ph = ph < 64 ? 64 : ph > 220 ? 220 : ph;
	bottom = top + ph;
	height = bottom + 48;

	fprintf(f, "<svg class=\"chart strip\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"per-pair "
		"ratios of ", W, height);
	esc(f, str(row, "label"));
	fprintf(f, "\">\n<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		PLOT_X0, top, PLOT_X1 - PLOT_X0, ph);

	nt = ticks(tick, MAX_TICKS, lo, hi, 1, &decimals);
	for (i = 0; i < nt; i++) {
		double x = axis_map(&ax, tick[i]);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
			x, top, x, bottom + 4, x, bottom + 17, decimals, tick[i]);
	}
	if (have_ci) {
		double x0 = axis_map(&ax, l), x1 = axis_map(&ax, u);
		fprintf(f, "<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>90%% CI "
			"[%.3f, %.3f]</title></rect>\n", x0, top, x1 - x0 < 1 ? 1 : x1 - x0, ph, l, u);
	}
	fprintf(f, "<line class=\"one\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>ratio 1: no "
		"change</title></line>\n", axis_map(&ax, 1), top, axis_map(&ax, 1), bottom);
	for (i = 0; i < nmargins; i++) {
		double x = axis_map(&ax, margins[i].at);
		const char *anchor = x < PLOT_X0 + 120 ? "start" : "end";
		fprintf(f, "<line class=\"margin\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>", x,
			top - LABEL_ROW * (double)(i % 3) - 4, x, bottom);
		esc(f, margins[i].rule);
		fprintf(f, ": %s, at ratio %.4f</title></line>\n", margins[i].label, margins[i].at);
		fprintf(f, "<text class=\"margin-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			anchor[0] == 'e' ? x - 3 : anchor[0] == 's' ? x + 3 : x,
			top - LABEL_ROW * (double)(i % 3) - 6, anchor, margins[i].label);
	}
	/* The estimate under the dots, so that no pair hides behind it. */
	if (isfinite(ratio) && ratio > 0) {
		double x = axis_map(&ax, ratio);
		fprintf(f, "<line class=\"hl\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>Hodges–Lehmann "
			"estimate %.4f</title></line>\n", x, top - 3, x, bottom + 3, ratio);
	}
	/* One dot per pair, top to bottom in pair order, so drift shows too. */
	{
		size_t k = 0;
		json_array_foreach((json_t *)per_pair, i, p) {
			double d = num(p, "log_ratio"), y;
			const char *order = !strcmp(str(p, "order"), "BA") ? "BA" : "AB";
			if (isnan(d))
				continue;
			y = top + 8 + ((double)k + 0.5) * (ph - 16) / (double)npairs;
			fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>pair %zu (%s): "
				"ratio %.4f</title></circle>\n", order[0] == 'B' ? "ba" : "ab", axis_map(&ax, exp(d)),
				y, i + 1, order, exp(d));
			k++;
		}
	}
	fprintf(f, "<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">pair 1</text>\n"
		"<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">pair %zu</text>\n",
		PLOT_X0 - 6, top + 12, PLOT_X0 - 6, bottom - 5, npairs);
	/* Which way is better depends on the metric's direction. */
	fprintf(f, "<text class=\"muted\" x=\"%.1f\" y=\"%.1f\">← candidate %s</text>\n"
		"<text class=\"muted\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">candidate %s →</text>\n",
		PLOT_X0, bottom + 36, higher ? "worse" : "better", PLOT_X1, bottom + 36, higher ? "better" : "worse");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (PLOT_X0 + PLOT_X1) / 2, bottom + 36);
	esc(f, str(row, "metric"));
	fprintf(f, " ratio B/A per pair (log scale)</text>\n</svg>\n</figure>\n");
}

/* " Rules on cpu_ns, rss_bytes decide on their own metric's interval,
 * given in their reasons." when some rule decides on another metric than
 * the primary one, whose chart this is; nothing otherwise. */
static void other_metric_rules(FILE *f, const json_t *doc)
{
	json_t *rule, *seen = json_object();
	const char *primary = str(doc, "metric");
	size_t i, n = 0;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		const char *m = str(rule, "metric");

		if (!*m || !strcmp(m, primary) || json_object_get(seen, m))
			continue;
		json_object_set_new(seen, m, json_true());
		fputs(n++ ? ", " : " Rules on ", f);
		esc(f, m);
	}
	if (n)
		fprintf(f, " decide on %s own interval, given in %s reasons.", n > 1 ? "their metrics'" : "that metric's",
			"their");
	json_decref(seen);
}

static void strips(FILE *f, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows");
	json_t *row;
	size_t i;
	int margins = 0;

	json_array_foreach((json_t *)rows, i, row) {
		struct margin m[MAX_MARGINS];
		margins |= json_array_size(json_object_get(row, "per_pair")) && row_margins(m, MAX_MARGINS, doc, row);
	}
	fprintf(f, "<section id=\"pairs\">\n<h2>Per-pair ratios</h2>\n<p class=\"note\">Each dot is one pair's "
		"ratio B/A of the primary metric (");
	esc(f, str(doc, "metric"));
	fprintf(f, "), pairs in run order from top to bottom. The band is the decision interval (90%% CI) "
		"that the rules on it decide on.");
	other_metric_rules(f, doc);
	fprintf(f, "</p>\n");
	fprintf(f, "<div class=\"legend\"><span class=\"key\"><span class=\"sw dot ab\"></span>AB pair (parent "
		"first)</span><span class=\"key\"><span class=\"sw dot ba\"></span>BA pair (candidate first)</span>"
		"<span class=\"key\"><span class=\"sw ci\"></span>90%% CI</span><span class=\"key\"><span "
		"class=\"sw hl\"></span>Hodges–Lehmann estimate</span><span class=\"key\"><span class=\"sw one\">"
		"</span>ratio 1</span>%s</div>\n",
		margins ? "<span class=\"key\"><span class=\"sw margin\"></span>rule margin</span>" : "");
	json_array_foreach((json_t *)rows, i, row)
		strip_chart(f, doc, row, i);
	fprintf(f, "</section>\n");
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

/* Scaling curves: one chart per combination of the other parameters,
 * x = the scaling parameter's values in file order, y = each side's
 * scaling from rows[].parent.scaling and rows[].candidate.scaling. */
static void scaling_charts(FILE *f, const json_t *doc)
{
	const json_t *sc = json_object_get(doc, "scaling"), *rows = json_object_get(doc, "rows");
	const char *param = str(sc, "parameter");
	const json_t *values = json_object_get(json_object_get(json_object_get(doc, "plan"), "matrix"), param);
	size_t nv = json_array_size(values), nrows = json_array_size(rows), i, j, g, ngroups = 0;
	size_t *group = ab_xcalloc(nrows + 1, sizeof(*group)), *xi = ab_xcalloc(nrows + 1, sizeof(*xi));
	char **keys = ab_xcalloc(nrows + 1, sizeof(*keys));
	double *numeric = ab_xcalloc(nv + 1, sizeof(*numeric)), n0 = INFINITY;
	int all_numeric = nv > 0;
	json_t *row;

	if (!nv)
		goto out;
	for (j = 0; j < nv; j++) {
		const char *t = json_string_value(json_array_get(values, j));
		char *end;
		numeric[j] = t ? strtod(t, &end) : NAN;
		if (!t || end == t || *end || !(numeric[j] > 0))
			all_numeric = 0;
		else
			n0 = fmin(n0, numeric[j]);
	}
	/* Group the rows by their other parameters, in first-seen order. */
	json_array_foreach((json_t *)rows, i, row) {
		json_t *rest = json_deep_copy(json_object_get(row, "params")), *v = json_object_get(rest, param);
		char *text;
		xi[i] = nv;
		for (j = 0; j < nv; j++)
			if (value_is(v, json_string_value(json_array_get(values, j))))
				xi[i] = j;
		json_object_del(rest, param);
		text = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS);
		for (g = 0; g < ngroups && strcmp(keys[g], text); g++)
			;
		if (g == ngroups)
			keys[ngroups++] = text;
		else
			free(text);
		group[i] = g;
		json_decref(rest);
	}

	fprintf(f, "<section id=\"scaling\">\n<h2>Scaling</h2>\n<p class=\"note\">Each side against its own "
		"row with the smallest <code>");
	esc(f, param);
	fprintf(f, "</code> (%s). The dotted line is linear scaling.</p>\n<div class=\"legend\"><span class="
		"\"key\"><span class=\"sw parent\"></span>parent</span><span class=\"key\"><span class=\"sw "
		"candidate\"></span>candidate</span>%s</div>\n",
		!strcmp(str(sc, "work"), "per_lane") ? "fixed work per lane" : "fixed total work",
		all_numeric ? "<span class=\"key\"><span class=\"sw ideal\"></span>linear</span>" : "");
	for (g = 0; g < ngroups; g++) {
		const double x0 = 70, x1 = 530, top = 12, ph = 200, bottom = top + ph;
		double ymax = 0, tick[MAX_TICKS];
		struct axis ay;
		const char *sides[2] = {"parent", "candidate"};
		size_t nt;
		int decimals, s;

		json_array_foreach((json_t *)rows, i, row)
			if (group[i] == g)
				for (s = 0; s < 2; s++) {
					double y = num(json_object_get(row, sides[s]), "scaling");
					if (isfinite(y))
						ymax = fmax(ymax, y);
				}
		if (all_numeric)
			for (j = 0; j < nv; j++)
				ymax = fmax(ymax, fmin(numeric[j] / n0, ymax * 1.6));
		if (!(ymax > 0))
			ymax = 1;
		ay.lo = 0;
		ay.hi = ymax * 1.12;
		ay.x0 = bottom;
		ay.x1 = top;
		ay.log = 0;

		fprintf(f, "<figure>\n<figcaption>");
		if (ngroups > 1 || strcmp(keys[g], "{}")) {
			json_t *rest = json_loads(keys[g], 0, NULL);
			const char *k;
			json_t *v;
			int first = 1;
			json_object_foreach(rest, k, v) {
				fprintf(f, "%s", first ? "" : " ");
				esc(f, k);
				fputc('=', f);
				param_value(f, v);
				first = 0;
			}
			json_decref(rest);
		} else {
			fprintf(f, "all rows");
		}
		fprintf(f, "</figcaption>\n<svg class=\"chart scaling\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
			"aria-label=\"scaling curves\">\n<defs><clipPath id=\"clip-scaling-%zu\"><rect x=\"%.1f\" "
			"y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n<rect class=\"frame\" "
			"x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
			W, bottom + 48, g, x0, top, x1 - x0, ph, x0, top, x1 - x0, ph);
		nt = ticks(tick, MAX_TICKS, ay.lo, ay.hi, 0, &decimals);
		for (i = 0; i < nt; i++) {
			double y = axis_map(&ay, tick[i]);
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"end\">%.*fx</text>\n", x0 - 4, y, x1, y, x0 - 8, y + 4,
				decimals, tick[i]);
		}
		for (j = 0; j < nv; j++) {
			double x = nv == 1 ? (x0 + x1) / 2 : x0 + 30 + (double)j * (x1 - x0 - 60) / (double)(nv - 1);
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"middle\">", x, bottom, x, bottom + 4, x, bottom + 17);
			esc(f, json_string_value(json_array_get(values, j)));
			fprintf(f, "</text>\n");
		}
		if (all_numeric) {
			fprintf(f, "<polyline class=\"ideal\" clip-path=\"url(#clip-scaling-%zu)\" points=\"", g);
			for (j = 0; j < nv; j++) {
				double x = nv == 1 ? (x0 + x1) / 2 : x0 + 30 + (double)j * (x1 - x0 - 60) / (double)(nv - 1);
				fprintf(f, "%s%.1f,%.1f", j ? " " : "", x, axis_map(&ay, numeric[j] / n0));
			}
			fprintf(f, "\"/>\n");
		}
		for (s = 0; s < 2; s++) {
			int any = 0;
			fprintf(f, "<polyline class=\"%s\" points=\"", sides[s]);
			for (j = 0; j < nv; j++)
				json_array_foreach((json_t *)rows, i, row) {
					double y = num(json_object_get(row, sides[s]), "scaling");
					double x = nv == 1 ? (x0 + x1) / 2
							   : x0 + 30 + (double)j * (x1 - x0 - 60) / (double)(nv - 1);
					if (group[i] != g || xi[i] != j || !isfinite(y))
						continue;
					fprintf(f, "%s%.1f,%.1f", any++ ? " " : "", x, axis_map(&ay, y));
				}
			fprintf(f, "\"/>\n");
			for (j = 0; j < nv; j++)
				json_array_foreach((json_t *)rows, i, row) {
					double y = num(json_object_get(row, sides[s]), "scaling");
					double x = nv == 1 ? (x0 + x1) / 2
							   : x0 + 30 + (double)j * (x1 - x0 - 60) / (double)(nv - 1);
					if (group[i] != g || xi[i] != j || !isfinite(y))
						continue;
					fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"><title>%s, ", sides[s],
						x, axis_map(&ay, y), sides[s]);
					esc(f, str(row, "label"));
					fprintf(f, ": %.2fx</title></circle>\n", y);
				}
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (x0 + x1) / 2, bottom + 36);
		esc(f, param);
		fprintf(f, "</text>\n<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">"
			"scaling</text>\n", (top + bottom) / 2, (top + bottom) / 2);
		/* The values at the last point, beside the chart, for a quick read. */
		{
			double ly = top + 14;
			fprintf(f, "<text x=\"556\" y=\"%.1f\" class=\"muted\">parent → candidate</text>\n", ly);
			for (j = 0; j < nv; j++)
				json_array_foreach((json_t *)rows, i, row) {
					double a = num(json_object_get(row, "parent"), "scaling");
					double b = num(json_object_get(row, "candidate"), "scaling");
					if (group[i] != g || xi[i] != j)
						continue;
					ly += 17;
					fprintf(f, "<text x=\"556\" y=\"%.1f\">", ly);
					esc(f, param);
					fputc('=', f);
					esc(f, json_string_value(json_array_get(values, j)));
					if (isfinite(a) && isfinite(b))
						fprintf(f, ": %.2fx → %.2fx</text>\n", a, b);
					else
						fprintf(f, ": n/a</text>\n");
				}
		}
		fprintf(f, "</svg>\n</figure>\n");
	}
	fprintf(f, "</section>\n");
out:
	for (g = 0; g < ngroups; g++)
		free(keys[g]);
	free(keys);
	free(group);
	free(xi);
	free(numeric);
}

/* What a rule asks, as written in the experiment file. */
static void rule_predicates(FILE *f, const json_t *rule)
{
	const struct ab_predicate *p;
	int any = 0;

	for (p = ab_predicates; p->name; p++) {
		const json_t *v = p->json ? json_object_get(rule, p->json) : NULL;
		if (!json_is_number(v))
			continue;
		fprintf(f, "%s", any++ ? "<br>" : "");
		if (json_is_integer(v))
			fprintf(f, "%s %lld", p->name, (long long)json_integer_value(v));
		else
			fprintf(f, "%s %.4g%%", p->name, 100 * json_number_value(v));
	}
	if (!any)
		fprintf(f, "<span class=\"note\">not in this report</span>");
}

/* A rule row's detail, one predicate per line: rules.c joins them as
 * "LABEL: ...; LABEL: ...", and the row's label is already in its cell. */
static void rule_row_detail(FILE *f, const char *detail, const char *label)
{
	size_t llen = strlen(label);
	const char *p = detail, *next;

	if (*label && !strncmp(p, label, llen) && !strncmp(p + llen, ": ", 2))
		p += llen + 2;
	for (;;) {
		next = NULL;
		if (*label)
			for (next = strstr(p, "; "); next; next = strstr(next + 2, "; "))
				if (!strncmp(next + 2, label, llen) && !strncmp(next + 2 + llen, ": ", 2))
					break;
		if (!next) {
			esc(f, p);
			return;
		}
		{
			char *part = ab_xstrndup(p, (size_t)(next - p));
			esc(f, part);
			free(part);
		}
		fprintf(f, "<br>");
		p = next + 2 + llen + 2;
	}
}

static void rules_section(FILE *f, const json_t *doc)
{
	const json_t *rules = json_object_get(doc, "rules");
	json_t *rule, *rr;
	size_t i, j;

	if (!json_array_size(rules))
		return;
	fprintf(f, "<section id=\"rules\">\n<h2>Rules</h2>\n<div class=\"scroll\"><table>\n<thead><tr><th>rule</th>"
		"<th>metric</th><th>predicates</th><th>row</th><th>outcome</th><th>why</th></tr></thead>\n<tbody>\n");
	json_array_foreach((json_t *)rules, i, rule) {
		const json_t *rows = json_object_get(rule, "rows");
		size_t n = json_array_size(rows);
		const char *o = str(rule, "outcome");

		fprintf(f, "<tr><td rowspan=\"%zu\" class=\"o-%s\"><strong>%s ", n ? n : 1, outcome_class(o),
			outcome_mark(o));
		esc(f, str(rule, "name"));
		fprintf(f, "</strong><br>");
		esc(f, o);
		fprintf(f, "</td><td rowspan=\"%zu\"><code>", n ? n : 1);
		esc(f, str(rule, "metric"));
		fprintf(f, "</code></td><td rowspan=\"%zu\">", n ? n : 1);
		rule_predicates(f, rule);
		fprintf(f, "</td>");
		if (!n) {
			fprintf(f, "<td>—</td><td class=\"o-%s\">", outcome_class(o));
			esc(f, o);
			fprintf(f, "</td><td>");
			esc(f, str(rule, "detail"));
			fprintf(f, "</td></tr>\n");
		}
		json_array_foreach((json_t *)rows, j, rr) {
			const json_t *row = row_by_params(doc, json_object_get(rr, "params"));
			const char *ro = str(rr, "outcome");
			if (j)
				fprintf(f, "<tr>");
			fprintf(f, "<td class=\"nw\">");
			esc(f, row ? str(row, "label") : "");
			fprintf(f, "</td><td class=\"nw o-%s\">%s ", outcome_class(ro), outcome_mark(ro));
			esc(f, ro);
			fprintf(f, "</td><td>");
			rule_row_detail(f, str(rr, "detail"), row ? str(row, "label") : "");
			fprintf(f, "</td></tr>\n");
		}
	}
	fprintf(f, "</tbody></table></div>\n</section>\n");
}

static void other_metrics(FILE *f, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *first = json_array_get(rows, 0);
	const char *name;
	json_t *m0;
	int any = 0;

	json_object_foreach(json_object_get(first, "metrics"), name, m0) {
		size_t i;
		json_t *row;
		if (!any++)
			fprintf(f, "<section id=\"other-metrics\">\n<h2>Other metrics</h2>\n<div class=\"scroll\"><table>\n"
				"<thead><tr><th>row</th><th>metric</th><th>parent median</th><th>candidate median</th>"
				"<th>ratio B/A [90%% CI]</th><th>pair wins</th></tr></thead>\n<tbody>\n");
		if (ab_report_unavailable_everywhere(doc, name)) {
			fprintf(f, "<tr><td>every row</td><td><code>");
			esc(f, name);
			fprintf(f, "</code></td><td colspan=\"4\" class=\"note\">unavailable: ");
			esc(f, ab_report_unavailable_everywhere(doc, name));
			fprintf(f, "</td></tr>\n");
			continue;
		}
		json_array_foreach((json_t *)rows, i, row) {
			const json_t *m = json_object_get(json_object_get(row, "metrics"), name);
			char a[48], b[48];
			fprintf(f, "<tr><td>");
			esc(f, str(row, "label"));
			fprintf(f, "</td><td><code>");
			esc(f, name);
			fprintf(f, "</code></td>");
			if (json_is_string(json_object_get(m, "unavailable"))) {
				fprintf(f, "<td colspan=\"4\" class=\"note\">unavailable: ");
				esc(f, str(m, "unavailable"));
				fprintf(f, "</td></tr>\n");
				continue;
			}
			ab_report_format_value(a, sizeof(a), num(json_object_get(m, "parent"), "median"), str(m, "unit"));
			ab_report_format_value(b, sizeof(b), num(json_object_get(m, "candidate"), "median"), str(m, "unit"));
			fprintf(f, "<td class=\"n\">");
			esc(f, a);
			fprintf(f, "</td><td class=\"n\">");
			esc(f, b);
			fprintf(f, "</td><td class=\"n\">");
			ratio_cell(f, m);
			fprintf(f, "</td><td class=\"n\">%lld/%lld</td></tr>\n", integer(m, "pair_wins"), integer(m, "pairs"));
		}
	}
	if (any)
		fprintf(f, "</tbody></table></div>\n</section>\n");
}

static const json_t *build_of(const json_t *doc, const char *side)
{
	size_t i;
	json_t *b;

	json_array_foreach(json_object_get(doc, "builds"), i, b)
		if (!strcmp(str(b, "side"), side))
			return b;
	return NULL;
}

static void build_cell(FILE *f, const json_t *b)
{
	char t[32];

	fprintf(f, "<td>");
	if (!b) {
		fprintf(f, "—</td>");
		return;
	}
	if (*str(b, "command")) {
		fprintf(f, "<code>");
		esc(f, str(b, "command"));
		fprintf(f, "</code>");
	} else {
		fprintf(f, "no build command");
	}
	if (strcmp(str(b, "status"), "ok")) {
		fprintf(f, " <strong class=\"o-fail\">");
		esc(f, str(b, "status"));
		fprintf(f, "</strong> (");
		esc(f, str(b, "detail"));
		fprintf(f, ")");
	} else if (json_is_true(json_object_get(b, "cached"))) {
		fprintf(f, " (cached)");
	} else {
		fprintf(f, " (built in %s)", ab_format_ns(t, sizeof(t), num(b, "duration_ns")));
	}
	fprintf(f, "</td>");
}

/* A commit or tree id: the first 10 digits, the whole id on hover. */
static void oid_code(FILE *f, const char *oid)
{
	char shortened[11];

	snprintf(shortened, sizeof(shortened), "%.10s", oid);
	fprintf(f, "<code title=\"");
	esc(f, oid);
	fprintf(f, "\">");
	esc(f, shortened);
	fprintf(f, "</code>");
}

static void provenance(FILE *f, const json_t *doc)
{
	const json_t *par = json_object_get(doc, "parent"), *cand = json_object_get(doc, "candidate");
	const json_t *bp = build_of(doc, "parent"), *bc = build_of(doc, "candidate");
	const json_t *plan = json_object_get(doc, "plan"), *file = json_object_get(doc, "experiment_file");
	const char *path;
	json_t *hash;

	fprintf(f, "<section id=\"provenance\">\n<h2>Provenance</h2>\n<div class=\"scroll\"><table>\n<thead><tr>"
		"<th>item</th><th>parent</th><th>candidate</th></tr></thead>\n<tbody>\n<tr><td>commit</td>");
	fprintf(f, "<td>");
	oid_code(f, str(par, "oid"));
	fprintf(f, " %s</td><td>", json_is_true(json_object_get(doc, "exact_parent")) ? "(exact parent)"
			       : "(<strong>not</strong> the exact parent)");
	oid_code(f, str(cand, "oid"));
	fprintf(f, "</td></tr>\n<tr><td>subject</td><td>");
	esc(f, str(par, "subject"));
	fprintf(f, "</td><td>");
	esc(f, str(cand, "subject"));
	fprintf(f, "</td></tr>\n<tr><td>tree</td><td>");
	oid_code(f, str(par, "tree"));
	fprintf(f, "</td><td>");
	oid_code(f, str(cand, "tree"));
	fprintf(f, "</td></tr>\n");
	fprintf(f, "<tr><td>build</td>");
	build_cell(f, bp);
	build_cell(f, bc);
	fprintf(f, "</tr>\n");
	if (bp) {
		json_object_foreach(json_object_get(bp, "artifacts"), path, hash) {
			const char *other = str(json_object_get(bc, "artifacts"), path);
			char ha[13], hb[13];
			snprintf(ha, sizeof(ha), "%.12s", json_string_value(hash) ? json_string_value(hash) : "");
			snprintf(hb, sizeof(hb), "%.12s", other);
			fprintf(f, "<tr><td>artifact <code>");
			esc(f, path);
			fprintf(f, "</code> SHA-256</td><td><code>");
			esc(f, ha);
			fprintf(f, "…</code></td><td><code>");
			esc(f, hb);
			fprintf(f, "…</code>%s</td></tr>\n",
				json_string_value(hash) && !strcmp(json_string_value(hash), other)
					? " <span class=\"warn\">⚠ identical: an A/A in disguise?</span>" : "");
		}
	}
	{
		const json_t *ov = json_object_get(doc, "overlay"), *p;
		size_t i;
		if (json_is_object(ov)) {
			fprintf(f, "<tr><td>overlay</td><td colspan=\"2\">");
			json_array_foreach(json_object_get(ov, "paths"), i, p) {
				fprintf(f, "%s<code>", i ? ", " : "");
				esc(f, str(p, "path"));
				fprintf(f, "</code> (%s ", str(p, "type"));
				oid_code(f, str(p, "oid"));
				fprintf(f, ")");
			}
			fprintf(f, " from ");
			esc(f, str(ov, "from"));
			fprintf(f, " ");
			oid_code(f, str(ov, "source"));
			fprintf(f, ": both sides ran these</td></tr>\n");
		}
		json_array_foreach(json_object_get(doc, "dependencies"), i, p) {
			fprintf(f, "<tr><td>dependency <code>");
			esc(f, str(p, "name"));
			fprintf(f, "</code></td><td>");
			oid_code(f, str(json_object_get(p, "parent"), "oid"));
			fprintf(f, " ");
			esc(f, str(json_object_get(p, "parent"), "subject"));
			fprintf(f, "</td><td>");
			oid_code(f, str(json_object_get(p, "candidate"), "oid"));
			fprintf(f, " ");
			esc(f, str(json_object_get(p, "candidate"), "subject"));
			fprintf(f, "</td></tr>\n");
		}
	}
	fprintf(f, "<tr><td>benchmark</td><td colspan=\"2\"><code>");
	esc(f, str(doc, "benchmark"));
	fprintf(f, "</code></td></tr>\n<tr><td>experiment file</td><td colspan=\"2\"><code>");
	esc(f, str(file, "path"));
	fprintf(f, "</code> (SHA-256 <code>");
	{
		char h[13];
		snprintf(h, sizeof(h), "%.12s", str(file, "sha256"));
		esc(f, h);
	}
	fprintf(f, "…</code>)</td></tr>\n</tbody></table></div>\n");
	if (json_is_object(json_object_get(doc, "host"))) {
		char *host = ab_env_summary(json_object_get(doc, "host"));
		const json_t *resumed = json_object_get(doc, "resumed");
		fprintf(f, "<p>Host: ");
		esc(f, host);
		if (json_is_string(json_object_get(resumed, "host_change"))) {
			fprintf(f, " (where the run started; it was resumed on ");
			esc(f, str(resumed, "resumed_on"));
			fprintf(f, ")");
		}
		fprintf(f, ".</p>\n");
		free(host);
	}
	{
		char *controls = ab_report_controls_line(doc), *noise = ab_report_noise_line(doc);
		if (controls) {
			fprintf(f, "<p>Noise controls: ");
			esc(f, controls);
			fprintf(f, ".</p>\n");
		}
		if (noise) {
			fprintf(f, "<p>Noise: ");
			esc(f, noise);
			fprintf(f, ".</p>\n");
		}
		free(controls);
		free(noise);
	}
	fprintf(f, "<p>Plan: %lld pairs per row after %lld warmup%s per side, rows round-robin, AB|BA blocks, "
		"seed %lld; %lld of %lld samples ran.</p>\n", integer(plan, "pairs"), integer(plan, "warmup"),
		integer(plan, "warmup") == 1 ? "" : "s", integer(plan, "seed"), integer(plan, "samples_done"),
		integer(plan, "samples_planned"));
	if (json_is_string(json_object_get(doc, "compiler_identity"))) {
		fprintf(f, "<details><summary>Compiler identity</summary>\n<pre>");
		esc(f, str(doc, "compiler_identity"));
		fprintf(f, "</pre></details>\n");
	}
	fprintf(f, "</section>\n");
}

static void notes(FILE *f, const json_t *doc)
{
	const json_t *warnings = json_object_get(doc, "warnings"), *earlier = json_object_get(doc, "earlier_runs");
	size_t i;
	json_t *w;

	if (json_array_size(warnings)) {
		fprintf(f, "<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n");
		json_array_foreach((json_t *)warnings, i, w) {
			fprintf(f, "<li><span class=\"warn\">⚠</span> ");
			esc(f, json_string_value(w));
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n</section>\n");
	}
	if (json_array_size(earlier)) {
		fprintf(f, "<section id=\"earlier\">\n<h2>Earlier runs of this comparison</h2>\n<p>This exact "
			"comparison (same experiment file, same commits) was run %zu time%s before: ",
			json_array_size(earlier), json_array_size(earlier) == 1 ? "" : "s");
		json_array_foreach((json_t *)earlier, i, w) {
			fprintf(f, "%srun %lld ", i ? ", " : "", integer(w, "id"));
			esc(f, str(w, "verdict"));
			fprintf(f, " (");
			esc(f, str(w, "created_at"));
			fprintf(f, ")");
		}
		fprintf(f, ". Re-running until a verdict changes is not evidence.</p>\n</section>\n");
	}
}

static void method(FILE *f, const json_t *doc)
{
	fprintf(f, "<section id=\"method\">\n<h2>Method</h2>\n<p>Each sample is a fresh process. Within each row, "
		"pairs run in balanced AB|BA blocks chosen by a seeded coin; rows are visited round-robin. Ratios "
		"are Hodges–Lehmann estimates of candidate/parent over per-pair log ratios. The 90%% CI is made "
		"of exact one-sided 95%% bounds (Wilcoxon signed-rank); a rule passes only when its bound clears "
		"the margin, fails when the other bound refutes it (Holm-adjusted over the verdict's family: "
		"every distinct row, quantity and refuted side of any rule, counted once), and is "
		"inconclusive otherwise; observational predicates are outside that claim.</p>\n"
		"<h2>Reproduce</h2>\n<pre>");
	esc(f, str(doc, "reproduce"));
	fprintf(f, "</pre>\n<p>Raw samples: <code>abtool report %lld --format tsv</code>.</p>\n</section>\n",
		integer(doc, "run_id"));
}

int ab_report_html(FILE *f, const json_t *doc)
{
	size_t nrows = json_array_size(json_object_get(doc, "rows"));
	const char *verdict = str(doc, "verdict");

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"abtool ");
	esc(f, str(doc, "abtool_version"));
	fprintf(f, "\">\n<title>");
	esc(f, str(doc, "experiment"));
	fprintf(f, " — ");
	esc(f, verdict);
	fprintf(f, "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n%s</style>\n</head>\n"
		"<body data-rows=\"%zu\" data-verdict=\"", css, nrows);
	esc(f, verdict);
	fprintf(f, "\">\n");
	header(f, doc);
	verdict_box(f, doc);
	if (nrows) {
		rows_table(f, doc);
		strips(f, doc);
	}
	if (json_is_object(json_object_get(doc, "scaling")) && nrows)
		scaling_charts(f, doc);
	rules_section(f, doc);
	other_metrics(f, doc);
	provenance(f, doc);
	notes(f, doc);
	method(f, doc);
	fprintf(f, "<footer>abtool report, schema ");
	esc(f, str(doc, "schema"));
	fprintf(f, ", run ");
	esc(f, str(doc, "run_uuid"));
	fprintf(f, "</footer>\n");
	/* A self-check a headless browser can read back (--dump-dom): set only
	 * when every row's chart is in the page. */
	fprintf(f, "<script>\n(function () {\n"
		"\tvar want = Number(document.body.getAttribute('data-rows'));\n"
		"\tvar got = document.querySelectorAll('svg.strip').length;\n"
		"\tif (want > 0 && got === want)\n\t\tdocument.body.dataset.rendered = 'ok';\n"
		"})();\n</script>\n</body>\n</html>\n");
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the HTML report: %s", strerror(errno));
	return 0;
}
