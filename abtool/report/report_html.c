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
 * with fixed precision, so the same document gives the same bytes. The
 * charts are drawn by report_chart.c; this file writes the page. */
#include "report.h"
#include "report_chart.h"
#include "report_common.h"
#include "report_format.h"
#include "report_html.h"
#include "report_sides.h"
#include "error.h"
#include "predicates.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row parameter's value (integer or string) as text. */
static void param_value(FILE *f, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%g", json_real_value(v));
	else
		ab_report_escape_xml(f, json_string_value(v));
}

/* The outcome's class suffix and mark. */
static const char *outcome_class(const char *o)
{
	return !strcmp(o, "pass") ? "pass" : !strcmp(o, "fail") ? "fail" : "inc";
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

/* The pieces of text(): text escaped, a side's name as code. */
static void plain_piece(FILE *f, const char *s, size_t len)
{
	char *t = ab_xstrndup(s, len);

	ab_report_escape_xml(f, t);
	free(t);
}

static void name_piece(FILE *f, const char *name)
{
	fputs("<code>", f);
	ab_report_escape_xml(f, name);
	fputs("</code>", f);
}

static const struct ab_report_sides_writer text_writer = {plain_piece, name_piece};

/* A string of the document (a warning, a reason, a rule's detail), escaped, with a comparison's
 * "parent" and "candidate" written as its sides' names (report_sides.h). */
static void text(FILE *f, const json_t *doc, const char *s)
{
	ab_report_sides_write(f, doc, s, &text_writer);
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
	"th{background:var(--panel);font-weight:600;overflow-wrap:anywhere}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.nw,td code{white-space:nowrap}\n"
	"td.ck code{white-space:normal}\n"
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
	"svg rect.box{fill-opacity:.22;stroke-width:1.5}svg line.whisker{stroke-width:1.5}\n"
	"svg line.med{stroke:var(--fg);stroke-width:3}svg circle.pt{stroke:none;fill-opacity:.8}\n"
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
	".sw.box.parent{background:var(--parent);height:12px}.sw.box.candidate{background:var(--candidate);height:12px}\n"
	"details{margin:8px 0}summary{cursor:pointer;color:var(--muted)}\n"
	"footer{margin-top:36px;color:var(--muted);font-size:13px}\n";

/* A group's verdict (abtool verdict --group): its id and its shards, each with its run, the
 * host that measured it and its rows. */
static void group_meta(FILE *f, const json_t *g)
{
	const json_t *sh;
	size_t i;

	fprintf(f, " · group <code>");
	ab_report_escape_xml(f, ab_report_str(g, "id"));
	fprintf(f, "</code>, %lld shards:", ab_report_int(g, "count"));
	json_array_foreach(json_object_get(g, "shards"), i, sh) {
		const json_t *row;
		size_t j;

		fprintf(f, "%s shard %lld run %lld on <code>", i ? ";" : "", ab_report_int(sh, "index"),
			ab_report_int(sh, "run_id"));
		ab_report_escape_xml(f, ab_report_str(sh, "hostname"));
		fprintf(f, "</code>");
		json_array_foreach(json_object_get(sh, "rows"), j, row) {
			fputs(j ? ", " : " (", f);
			ab_report_escape_xml(f, json_string_value(row));
		}
		fputs(json_array_size(json_object_get(sh, "rows")) ? ")" : "", f);
	}
	fprintf(f, " · ");
}

static void header(FILE *f, const json_t *doc)
{
	const char *verdict = ab_report_str(doc, "verdict");

	fprintf(f, "<header>\n<h1>");
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	fprintf(f, " <span class=\"badge v-");
	ab_report_escape_xml(f, verdict);
	fprintf(f, "\">");
	ab_report_escape_xml(f, verdict);
	fprintf(f, "</span></h1>\n<p class=\"meta\">");
	if (ab_report_sides_named(doc)) {
		/* two commands compared: no design, whatever the store files it under */
		fprintf(f, "Comparison of ");
		name_piece(f, ab_report_side_label(doc, 0));
		fprintf(f, " and ");
		name_piece(f, ab_report_side_label(doc, 1));
		fprintf(f, " · run %lld · ", ab_report_int(doc, "run_id"));
	} else {
		fprintf(f, "Design ");
		name_piece(f, ab_report_str(doc, "design"));
		if (json_is_object(json_object_get(doc, "group")))
			group_meta(f, json_object_get(doc, "group"));
		else
			fprintf(f, " · run %lld · ", ab_report_int(doc, "run_id"));
	}
	ab_report_escape_xml(f, ab_report_str(doc, "created_at"));
	fprintf(f, " · abtool ");
	ab_report_escape_xml(f, ab_report_str(doc, "abtool_version"));
	fprintf(f, "</p>\n");
	if (json_is_string(json_object_get(doc, "hypothesis"))) {
		fprintf(f, "<blockquote>Hypothesis: ");
		ab_report_escape_xml(f, ab_report_str(doc, "hypothesis"));
		fprintf(f, "</blockquote>\n");
	}
	fprintf(f, "</header>\n");
}

/* The verdict with its reasons and each rule's outcome, as the Markdown
 * report's first paragraph says it. */
static void verdict_box(FILE *f, const json_t *doc)
{
	struct ab_report_verdict v;
	size_t i;
	json_t *r;

	ab_report_verdict_init(&v, doc);
	fprintf(f, "<section id=\"verdict\" class=\"box v-");
	ab_report_escape_xml(f, v.verdict);
	fprintf(f, "\">\n<p><strong id=\"verdict-text\">Verdict: ");
	ab_report_escape_xml(f, v.verdict);
	fprintf(f, ".</strong> ");
	if (ab_report_artifacts_identical(doc))
		fprintf(f, "<span class=\"warn\">⚠ Identical artifacts: every declared artifact is "
			"byte-identical on both sides.</span> ");
	if (!strcmp(v.verdict, "invalid")) {
		fprintf(f, "No speed claim is made from a wrong or broken side:</p>\n<ul>\n");
		json_array_foreach(v.reasons, i, r) {
			fprintf(f, "<li class=\"o-fail\"><span class=\"mark\">✗</span><span class=\"detail\">");
			text(f, doc, json_string_value(r));
			fprintf(f, "</span></li>\n");
		}
		fprintf(f, "</ul>\n");
		if (!v.nrules) {
			fprintf(f, "</section>\n");
			return;
		}
		fprintf(f, "<p>Rules, for information:</p>\n");
	} else if (v.nrules == 0) {
		text(f, doc, json_string_value(json_array_get(v.reasons, 0)));
		fprintf(f, "</p>\n");
	} else {
		fprintf(f, "%s</p>\n", v.rules_line);
	}
	if (v.nrules) {
		fprintf(f, "<ul>\n");
		json_array_foreach(v.rules, i, r) {
			const char *o = ab_report_str(r, "outcome");
			fprintf(f, "<li class=\"o-%s\"><span class=\"mark\">%s</span><strong>", outcome_class(o),
				ab_report_outcome_mark(o));
			ab_report_escape_xml(f, ab_report_str(r, "name"));
			fprintf(f, "</strong> <span class=\"detail\">— ");
			text(f, doc, ab_report_str(r, "detail"));
			fprintf(f, "</span></li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
}

/* "0.515 [0.505, 0.522]", bold when the interval excludes 1. */
static void ratio_cell(FILE *f, const json_t *m)
{
	double l, u;
	int have_ci = ab_report_ci_bounds(m, &l, &u) == 2;

	if (!json_is_number(json_object_get(m, "ratio"))) {
		fprintf(f, "n/a");
		return;
	}
	if (have_ci && (l > 1 || u < 1) && !json_is_true(json_object_get(m, "ci_empty")))
		fprintf(f, "<strong class=\"sig\">%.3f</strong>", ab_report_num(m, "ratio"));
	else
		fprintf(f, "%.3f", ab_report_num(m, "ratio"));
	ab_report_ci_suffix(f, m, have_ci);
}

/* The checksum cell of a row: the common value, the change its policy
 * allowed (parent → candidate), a mismatch with what each side printed
 * (parent ≠ candidate, each value's title the side's name), or "not
 * checked". Its values may break anywhere (td.ck): a digest is longer
 * than a row's other cells, and a mismatch shows two. */
static void checksum_cell(FILE *f, const json_t *doc, const json_t *row)
{
	const char *was, *now;

	if (json_is_true(json_object_get(row, "checksum_match"))) {
		fprintf(f, "<code>");
		ab_report_escape_xml(f, ab_report_str(row, "checksum"));
		fprintf(f, "</code> <span class=\"o-pass\">✓</span>");
	} else if (ab_report_checksum_changed(row, &was, &now)) {
		fprintf(f, "<code>");
		ab_report_escape_xml(f, was);
		fprintf(f, "</code> → <code>");
		ab_report_escape_xml(f, now);
		fprintf(f, "</code> <span class=\"o-pass\">changed, allowed (may_change)</span>");
	} else if (json_is_false(json_object_get(row, "checksum_match"))) {
		/* what each side printed: checksum_values [{value, side, samples}] */
		static const char *const sides[2] = {"parent", "candidate"};
		const json_t *v;
		size_t i;
		int side, any;

		for (side = 0; side < 2; side++) {
			fprintf(f, "%s", side ? " ≠ " : "");
			any = 0;
			json_array_foreach(json_object_get(row, "checksum_values"), i, v)
				if (!strcmp(ab_report_str(v, "side"), sides[side])) {
					fprintf(f, "%s<code title=\"", any++ ? ", " : "");
					ab_report_escape_xml(f, ab_report_side_label(doc, side));
					fprintf(f, "\">");
					ab_report_escape_xml(f, ab_report_str(v, "value"));
					fprintf(f, "</code>");
				}
			if (!any)
				fprintf(f, "none");
		}
		fprintf(f, " <strong class=\"o-fail\">mismatch ✗</strong>");
	} else {
		fprintf(f, "not checked");
	}
}

/* A side's cells of the rows table: median, RSD and scaling (with `scaling`). A row without
 * statistics shows the median of what the side measured (rows[].measured), saying of how many
 * samples, rather than n/a. Returns whether the RSD is above 5%. */
static int side_cells(FILE *f, const json_t *row, const char *name, const char *unit, int scaling)
{
	const json_t *side = json_object_get(row, name);
	const json_t *measured = json_object_get(json_object_get(row, "measured"), name);
	double rsd = ab_report_num(side, "rsd"), sc = ab_report_num(side, "scaling");
	long long n = ab_report_int(measured, "samples"), w = ab_report_int(measured, "warmups");
	char buf[48];

	if (!side && n) {
		ab_report_format_value(buf, sizeof(buf), ab_report_num(measured, "median"), unit);
		fprintf(f, "<td class=\"n\" title=\"median of what this side measured; the row has no "
			"complete pair\">%s <span class=\"sub\">(", buf);
		if (n == w)
			fprintf(f, "%lld warmup%s", w, w == 1 ? "" : "s");
		else if (w)
			fprintf(f, "%lld samples, %lld warmup%s", n, w, w == 1 ? "" : "s");
		else
			fprintf(f, "%lld sample%s", n, n == 1 ? "" : "s");
		fprintf(f, ")</span></td>");
	} else {
		ab_report_format_value(buf, sizeof(buf), ab_report_num(side, "median"), unit);
		fprintf(f, "<td class=\"n\">%s</td>", buf);
	}
	if (isnan(rsd))
		fprintf(f, "<td class=\"n\">n/a</td>");
	else
		fprintf(f, "<td class=\"n\">%.1f%%%s</td>", 100 * rsd,
			rsd > 0.05 ? " <span class=\"warn\" title=\"RSD above 5%\">⚠</span>" : "");
	if (scaling)
		fprintf(f, isnan(sc) ? "<td class=\"n\">n/a</td>" : "<td class=\"n\">%.2fx</td>", sc);
	return rsd > 0.05;
}

static void rows_table(FILE *f, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *plan = json_object_get(doc, "plan");
	const json_t *matrix = json_object_get(plan, "matrix"), *first = json_array_get(rows, 0);
	int scaling = json_is_object(json_object_get(doc, "scaling"));
	const char *unit = ab_report_str(first, "unit"), *pname;
	json_t *row, *vals;
	size_t i;
	int warn_rsd = 0;

	fprintf(f, "<section id=\"rows\">\n<h2>Rows (");
	ab_report_escape_xml(f, ab_report_str(doc, "metric"));
	fprintf(f, ", %s is better)</h2>\n<div class=\"scroll\"><table>\n<thead><tr>",
		!strcmp(ab_report_str(first, "better"), "higher") ? "higher" : "lower");
	json_object_foreach((json_t *)matrix, pname, vals) {
		fprintf(f, "<th>");
		ab_report_escape_xml(f, pname);
		fprintf(f, "</th>");
	}
	/* a comparison's columns carry its sides' names */
	fprintf(f, "<th>");
	ab_report_escape_xml(f, ab_report_side_label(doc, 0));
	fprintf(f, " median</th><th>RSD</th>%s<th>", scaling ? "<th>scaling</th>" : "");
	ab_report_escape_xml(f, ab_report_side_label(doc, 1));
	fprintf(f, " median</th><th>RSD</th>%s<th>ratio B/A [%s]</th><th>pair wins</th><th>checksum</th>"
		"</tr></thead>\n<tbody>\n", scaling ? "<th>scaling</th>" : "", ab_report_ci_label(doc));
	json_array_foreach(rows, i, row) {
		const json_t *params = json_object_get(row, "params");
		static const char *const sides[2] = {"parent", "candidate"};
		int s;

		fprintf(f, "<tr>");
		json_object_foreach((json_t *)matrix, pname, vals) {
			json_t *v = json_object_get(params, pname);
			fprintf(f, json_is_integer(v) ? "<td class=\"n\">" : "<td>");
			param_value(f, v);
			fprintf(f, "</td>");
		}
		for (s = 0; s < 2; s++)
			warn_rsd |= side_cells(f, row, sides[s], unit, scaling);
		fprintf(f, "<td class=\"n\">");
		ratio_cell(f, row);
		fprintf(f, "</td><td class=\"n\">%lld/%lld</td><td class=\"ck\">",
			ab_report_int(row, "pair_wins"), ab_report_int(row, "pairs"));
		checksum_cell(f, doc, row);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
	if (scaling) {
		const json_t *sc = json_object_get(doc, "scaling");
		int per_lane = !strcmp(ab_report_str(sc, "work"), "per_lane");
		fprintf(f, "<p class=\"note\">Scaling: against the same side's row with the smallest <code>");
		ab_report_escape_xml(f, ab_report_str(sc, "parameter"));
		fprintf(f, "</code>, %s.</p>\n",
			per_lane ? "fixed work per lane (S<sub>N</sub> = (N/N<sub>0</sub>)·T<sub>N0</sub>/T<sub>N</sub>)"
				 : "fixed total work (S<sub>N</sub> = T<sub>N0</sub>/T<sub>N</sub>)");
	}
	{
		char *note = ab_report_interval_note(doc);
		if (note)
			fprintf(f, "<p class=\"note\">%s</p>\n", note);
		free(note);
	}
	{
		char *scaling_change = ab_report_scaling_change_note(doc);
		char *order = ab_report_order_effect_note(doc);

		if (scaling_change) {
			fprintf(f, "<p class=\"note\">");
			text(f, doc, scaling_change);
			fprintf(f, "</p>\n");
		}
		if (order) {
			fprintf(f, "<p class=\"note\">");
			text(f, doc, order);
			fprintf(f, "</p>\n");
		}
		free(scaling_change);
		free(order);
	}
	if (warn_rsd)
		fprintf(f, "<p class=\"note warn\">⚠ RSD above 5%%.</p>\n");
	fprintf(f, "</section>\n");
}

/* " Rules on cpu_ns, rss_bytes decide on their own metric's interval,
 * given in their reasons." when some rule decides on another metric than
 * the primary one, whose chart this is; nothing otherwise. */
static void other_metric_rules(FILE *f, const json_t *doc)
{
	json_t *rule, *seen = json_object();
	const char *primary = ab_report_str(doc, "metric");
	size_t i, n = 0;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		const char *m = ab_report_str(rule, "metric");

		if (!*m || !strcmp(m, primary) || json_object_get(seen, m))
			continue;
		json_object_set_new(seen, m, json_true());
		fputs(n++ ? ", " : " Rules on ", f);
		ab_report_escape_xml(f, m);
	}
	if (n)
		fprintf(f, " decide on %s own interval, given in %s reasons.", n > 1 ? "their metrics'" : "that metric's",
			"their");
	json_decref(seen);
}

/* Whether a row of `rows` has a per-pair ratio to draw (an invalid run's rows may have none). */
static int any_ratios(const json_t *rows)
{
	const json_t *row, *p;
	size_t i, j;

	json_array_foreach(rows, i, row)
		json_array_foreach(json_object_get(row, "per_pair"), j, p)
			if (json_is_number(json_object_get(p, "log_ratio")))
				return 1;
	return 0;
}

/* Whether `in` has a sample a distribution chart draws: a successful one, of a pair or a warmup. */
static int any_samples(const struct ab_chart_samples *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (in->samples[i].status == AB_SAMPLE_DONE && ab_sample_ok(&in->samples[i]))
			return 1;
	return 0;
}

/* The note and legend of the per-pair ratios, named by the sides' names; only when a row has a
 * ratio to draw, so that no legend stands over empty frames. */
static void strips_legend(FILE *f, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *row;
	size_t i;
	int margins = 0;

	if (!any_ratios(rows)) {
		fprintf(f, "<p class=\"note\">No row has a complete pair: there is no per-pair ratio to draw.</p>\n");
		return;
	}
	json_array_foreach(rows, i, row)
		margins |= ab_chart_strip_has_margins(doc, row);
	fprintf(f, "<p class=\"note\">Each dot of a row's first chart is one pair's ratio B/A of the primary "
		"metric (");
	ab_report_escape_xml(f, ab_report_str(doc, "metric"));
	fprintf(f, "), pairs in run order from top to bottom. The band is the decision interval (90%% CI) "
		"that the rules on it decide on.");
	other_metric_rules(f, doc);
	fprintf(f, "</p>\n<div class=\"legend\"><span class=\"key\"><span class=\"sw dot ab\"></span>AB pair (");
	ab_report_escape_xml(f, ab_report_side_label(doc, 0));
	fprintf(f, " first)</span><span class=\"key\"><span class=\"sw dot ba\"></span>BA pair (");
	ab_report_escape_xml(f, ab_report_side_label(doc, 1));
	fprintf(f, " first)</span><span class=\"key\"><span class=\"sw ci\"></span>90%% CI</span><span class="
		"\"key\"><span class=\"sw hl\"></span>Hodges–Lehmann estimate</span><span class=\"key\"><span "
		"class=\"sw one\"></span>ratio 1</span>%s</div>\n",
		margins ? "<span class=\"key\"><span class=\"sw margin\"></span>rule margin</span>" : "");
}

/* The note and legend of the distributions (ab_chart_dist). */
static void dists_legend(FILE *f, const json_t *doc)
{
	int s;

	fprintf(f, "<p class=\"note\">Under it, each side's samples of the primary metric, one dot each, with a "
		"box from the first to the third quartile, the median as a line and whiskers to the furthest "
		"sample within 1.5 interquartile ranges of the box (as hyperfine's whisker plot), on one axis "
		"for both sides; a row none of whose pairs ran shows its warmups.</p>\n<div class=\"legend\">");
	for (s = 0; s < 2; s++) {
		fprintf(f, "<span class=\"key\"><span class=\"sw box %s\"></span>", s ? "candidate" : "parent");
		ab_report_escape_xml(f, ab_report_side_label(doc, s));
		fprintf(f, "</span>");
	}
	fprintf(f, "<span class=\"key\"><span class=\"sw hl\"></span>median</span></div>\n");
}

/* Per row: the per-pair ratios (ab_chart_strip) and each side's distribution (ab_chart_dist,
 * when the run's samples are at hand). */
static void strips(FILE *f, const json_t *doc, const struct ab_chart_samples *in)
{
	const json_t *rows = json_object_get(doc, "rows");
	int dists = any_samples(in);
	json_t *row;
	size_t i;

	fprintf(f, "<section id=\"pairs\">\n<h2>Per-pair ratios%s</h2>\n", dists ? " and distributions" : "");
	strips_legend(f, doc);
	if (dists)
		dists_legend(f, doc);
	json_array_foreach((json_t *)rows, i, row) {
		fprintf(f, "<figure id=\"row-%zu\">\n<figcaption>", i);
		ab_report_escape_xml(f, ab_report_str(row, "label"));
		fprintf(f, " <span class=\"sub\">— ");
		if (json_is_number(json_object_get(row, "ratio"))) {
			ratio_cell(f, row);
			fprintf(f, " · %lld/%lld pair wins", ab_report_int(row, "pair_wins"),
				ab_report_int(row, "pairs"));
		} else {
			fprintf(f, "no ratio");
		}
		fprintf(f, "</span></figcaption>\n");
		ab_chart_strip(f, doc, row);
		if (dists)
			ab_chart_dist(f, doc, i, in);
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "</section>\n");
}

/* A scaling chart's caption: its group's other parameters, or "all
 * rows" when there are none. */
static void scaling_caption(FILE *f, const struct ab_chart_scaling *sc, size_t g)
{
	json_t *rest, *v;
	const char *k;
	int first = 1;

	if (sc->ngroups == 1 && !strcmp(sc->keys[g], "{}")) {
		fprintf(f, "all rows");
		return;
	}
	rest = json_loads(sc->keys[g], 0, NULL);
	json_object_foreach(rest, k, v) {
		fprintf(f, "%s", first ? "" : " ");
		ab_report_escape_xml(f, k);
		fputc('=', f);
		param_value(f, v);
		first = 0;
	}
	json_decref(rest);
}

/* The scaling curves: one chart per combination of the other parameters
 * (report_chart.c). */
static void scaling_section(FILE *f, const json_t *doc)
{
	const char *work = ab_report_str(json_object_get(doc, "scaling"), "work");
	struct ab_chart_scaling sc;
	size_t g;

	ab_chart_scaling_init(&sc, doc);
	if (!sc.nv) {
		ab_chart_scaling_release(&sc);
		return;
	}
	for (g = 0; g < sc.ngroups && !ab_chart_scaling_has_data(&sc, g); g++)
		;
	if (g == sc.ngroups) {
		/* no empty frames when no side has a scaling (an invalid run) */
		fprintf(f, "<section id=\"scaling\">\n<h2>Scaling</h2>\n<p class=\"note\">No scaling to draw: "
			"no row has one on either side (a scaling needs complete pairs in the row and in its "
			"base row).</p>\n</section>\n");
		ab_chart_scaling_release(&sc);
		return;
	}
	fprintf(f, "<section id=\"scaling\">\n<h2>Scaling</h2>\n<p class=\"note\">Each side against its own "
		"row with the smallest <code>");
	ab_report_escape_xml(f, sc.param);
	fprintf(f, "</code> (%s). The dotted line is linear scaling.</p>\n<div class=\"legend\"><span class="
		"\"key\"><span class=\"sw parent\"></span>", !strcmp(work, "per_lane") ? "fixed work per lane"
										: "fixed total work");
	ab_report_escape_xml(f, ab_report_side_label(doc, 0));
	fprintf(f, "</span><span class=\"key\"><span class=\"sw candidate\"></span>");
	ab_report_escape_xml(f, ab_report_side_label(doc, 1));
	fprintf(f, "</span>%s</div>\n",
		sc.all_numeric ? "<span class=\"key\"><span class=\"sw ideal\"></span>linear</span>" : "");
	for (g = 0; g < sc.ngroups; g++) {
		fprintf(f, "<figure>\n<figcaption>");
		scaling_caption(f, &sc, g);
		fprintf(f, "</figcaption>\n");
		if (ab_chart_scaling_has_data(&sc, g))
			ab_chart_scaling_svg(f, &sc, g);
		else
			fprintf(f, "<p class=\"note\">No scaling to draw: neither side has one in these "
				"rows.</p>\n");
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "</section>\n");
	ab_chart_scaling_release(&sc);
}

/* What a rule asks, as written in the experiment file. */
static void rule_predicates(FILE *f, const json_t *rule)
{
	const struct ab_predicate *p;
	int any = 0;

	for (p = ab_predicates; p->name; p++) {
		const json_t *v = p->json ? json_object_get(rule, p->json) : NULL;
		if (!json_is_number(v) && !json_is_true(v))
			continue;
		fprintf(f, "%s", any++ ? "<br>" : "");
		if (json_is_true(v))
			fprintf(f, "%s", p->name);
		else if (json_is_integer(v))
			fprintf(f, "%s %lld", p->name, (long long)json_integer_value(v));
		else
			fprintf(f, "%s %.4g%%", p->name, 100 * json_number_value(v));
	}
	if (!any)
		fprintf(f, "<span class=\"note\">not in this report</span>");
}

/* A rule row's detail, one predicate per line: rules.c joins them as
 * "LABEL: ...; LABEL: ...", and the row's label is already in its cell. */
static void rule_row_detail(FILE *f, const json_t *doc, const char *detail, const char *label)
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
			text(f, doc, p);
			return;
		}
		{
			char *part = ab_xstrndup(p, (size_t)(next - p));
			text(f, doc, part);
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
		const char *o = ab_report_str(rule, "outcome");

		fprintf(f, "<tr><td rowspan=\"%zu\" class=\"o-%s\"><strong>%s ", n ? n : 1, outcome_class(o),
			ab_report_outcome_mark(o));
		ab_report_escape_xml(f, ab_report_str(rule, "name"));
		fprintf(f, "</strong><br>");
		ab_report_escape_xml(f, o);
		fprintf(f, "</td><td rowspan=\"%zu\"><code>", n ? n : 1);
		ab_report_escape_xml(f, ab_report_str(rule, "metric"));
		fprintf(f, "</code></td><td rowspan=\"%zu\">", n ? n : 1);
		rule_predicates(f, rule);
		fprintf(f, "</td>");
		if (!n) {
			fprintf(f, "<td>—</td><td class=\"o-%s\">", outcome_class(o));
			ab_report_escape_xml(f, o);
			fprintf(f, "</td><td>");
			text(f, doc, ab_report_str(rule, "detail"));
			fprintf(f, "</td></tr>\n");
		}
		json_array_foreach((json_t *)rows, j, rr) {
			const json_t *row = row_by_params(doc, json_object_get(rr, "params"));
			const char *ro = ab_report_str(rr, "outcome");
			if (j)
				fprintf(f, "<tr>");
			fprintf(f, "<td class=\"nw\">");
			ab_report_escape_xml(f, row ? ab_report_str(row, "label") : "");
			fprintf(f, "</td><td class=\"nw o-%s\">%s ", outcome_class(ro),
				ab_report_outcome_mark(ro));
			ab_report_escape_xml(f, ro);
			fprintf(f, "</td><td>");
			rule_row_detail(f, doc, ab_report_str(rr, "detail"),
					row ? ab_report_str(row, "label") : "");
			fprintf(f, "</td></tr>\n");
		}
	}
	fprintf(f, "</tbody></table></div>\n</section>\n");
}

/* The other metrics' table (ab_report_other_metrics): its head, a metric
 * unavailable everywhere, a row's line. */
static void metrics_head(FILE *f, const json_t *doc)
{
	fprintf(f, "<section id=\"other-metrics\">\n<h2>Other metrics</h2>\n<div class=\"scroll\"><table>\n"
		"<thead><tr><th>row</th><th>metric</th><th>");
	ab_report_escape_xml(f, ab_report_side_label(doc, 0));
	fprintf(f, " median</th><th>");
	ab_report_escape_xml(f, ab_report_side_label(doc, 1));
	fprintf(f, " median</th><th>ratio B/A [%s]</th><th>pair wins</th></tr></thead>\n<tbody>\n",
		ab_report_ci_label(doc));
}

static void metric_everywhere(FILE *f, const char *name, const char *reason)
{
	fprintf(f, "<tr><td>every row</td><td><code>");
	ab_report_escape_xml(f, name);
	fprintf(f, "</code></td><td colspan=\"4\" class=\"note\">unavailable: ");
	ab_report_escape_xml(f, reason);
	fprintf(f, "</td></tr>\n");
}

static void metric_row(FILE *f, const json_t *row, const char *name, const json_t *m)
{
	const char *unit = ab_report_str(m, "unit");
	char a[48], b[48];

	fprintf(f, "<tr><td>");
	ab_report_escape_xml(f, ab_report_str(row, "label"));
	fprintf(f, "</td><td><code>");
	ab_report_escape_xml(f, name);
	fprintf(f, "</code></td>");
	if (json_is_string(json_object_get(m, "unavailable"))) {
		fprintf(f, "<td colspan=\"4\" class=\"note\">unavailable: ");
		ab_report_escape_xml(f, ab_report_str(m, "unavailable"));
		fprintf(f, "</td></tr>\n");
		return;
	}
	ab_report_format_value(a, sizeof(a), ab_report_num(json_object_get(m, "parent"), "median"), unit);
	ab_report_format_value(b, sizeof(b), ab_report_num(json_object_get(m, "candidate"), "median"), unit);
	fprintf(f, "<td class=\"n\">");
	ab_report_escape_xml(f, a);
	fprintf(f, "</td><td class=\"n\">");
	ab_report_escape_xml(f, b);
	fprintf(f, "</td><td class=\"n\">");
	ratio_cell(f, m);
	fprintf(f, "</td><td class=\"n\">%lld/%lld</td></tr>\n", ab_report_int(m, "pair_wins"),
		ab_report_int(m, "pairs"));
}

static const struct ab_report_metric_table metric_table = {metrics_head, metric_everywhere, metric_row,
							   "</tbody></table></div>\n</section>\n"};

static void notes(FILE *f, const json_t *doc)
{
	const json_t *warnings = json_object_get(doc, "warnings");
	size_t i;
	json_t *w;

	if (json_array_size(warnings)) {
		fprintf(f, "<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n");
		json_array_foreach((json_t *)warnings, i, w) {
			fprintf(f, "<li><span class=\"warn\">⚠</span> ");
			text(f, doc, json_string_value(w));
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n</section>\n");
	}
	if (json_array_size(json_object_get(doc, "earlier_runs"))) {
		fprintf(f, "<section id=\"earlier\">\n<h2>Earlier runs of this comparison</h2>\n<p>");
		ab_report_earlier_runs(f, json_object_get(doc, "earlier_runs"), ab_report_escape_xml);
		fprintf(f, "</p>\n</section>\n");
	}
}

static void method(FILE *f, const json_t *doc)
{
	static const struct ab_report_sides_writer method_writer = {ab_report_sides_raw, name_piece};

	fprintf(f, "<section id=\"method\">\n<h2>Method</h2>\n<p>");
	ab_report_sides_write(f, doc, ab_report_method_text(doc), &method_writer);
	fprintf(f, "</p>\n<h2>Reproduce</h2>\n<pre>");
	ab_report_escape_xml(f, ab_report_str(doc, "reproduce"));
	fprintf(f, "</pre>\n<p>Raw samples: <code>abtool report %lld --format tsv</code>.</p>\n</section>\n",
		ab_report_int(doc, "run_id"));
}

int ab_report_html(FILE *f, const struct ab_report_render *in)
{
	const json_t *doc = in->doc;
	struct ab_chart_samples samples = {in->samples, in->samples ? in->nsamples : 0, in->metric_names,
					   in->nmetrics};
	size_t nrows = json_array_size(json_object_get(doc, "rows"));
	const char *verdict = ab_report_str(doc, "verdict");

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"abtool ");
	ab_report_escape_xml(f, ab_report_str(doc, "abtool_version"));
	fprintf(f, "\">\n<title>");
	ab_report_escape_xml(f, ab_report_str(doc, "experiment"));
	fprintf(f, " — ");
	ab_report_escape_xml(f, verdict);
	fprintf(f, "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n%s</style>\n</head>\n"
		"<body data-rows=\"%zu\" data-verdict=\"", css, nrows);
	ab_report_escape_xml(f, verdict);
	fprintf(f, "\">\n");
	header(f, doc);
	verdict_box(f, doc);
	if (nrows) {
		rows_table(f, doc);
		strips(f, doc, &samples);
	}
	if (json_is_object(json_object_get(doc, "scaling")) && nrows)
		scaling_section(f, doc);
	rules_section(f, doc);
	ab_report_other_metrics(f, doc, &metric_table);
	ab_report_flame(f, in->profiles);
	ab_report_html_provenance(f, doc);
	notes(f, doc);
	method(f, doc);
	fprintf(f, "<footer>abtool report, schema ");
	ab_report_escape_xml(f, ab_report_str(doc, "schema"));
	fprintf(f, ", run ");
	ab_report_escape_xml(f, ab_report_str(doc, "run_uuid"));
	fprintf(f, "</footer>\n");
	/* A self-check a headless browser can read back (--dump-dom): rendered
	 * is set only when every row's chart is in the page; overflow is how
	 * many pixels the page is wider than the window (a horizontal
	 * scrollbar), and cut the sections whose table scrolls sideways in its
	 * box (a cell cut off at this width), and overlap the pairs of a
	 * chart's text elements whose boxes intersect (by more than a pixel
	 * each way), as "chart N: TEXT | TEXT; ...". */
	fprintf(f, "<script>\n(function () {\n"
		"\tvar want = Number(document.body.getAttribute('data-rows'));\n"
		"\tvar got = document.querySelectorAll('svg.strip').length;\n"
		"\tvar root = document.documentElement, cut = [], overlap = [];\n"
		"\tif (want > 0 && got === want)\n\t\tdocument.body.dataset.rendered = 'ok';\n"
		"\tdocument.querySelectorAll('.scroll').forEach(function (e) {\n"
		"\t\tif (e.scrollWidth > e.clientWidth)\n\t\t\tcut.push(e.parentNode.id);\n"
		"\t});\n"
		"\tdocument.body.dataset.overflow = String(Math.max(0, root.scrollWidth - root.clientWidth));\n"
		"\tdocument.body.dataset.cut = cut.join(' ');\n"
		"\tdocument.querySelectorAll('svg.chart').forEach(function (svg, n) {\n"
		"\t\tvar t = Array.prototype.map.call(svg.querySelectorAll('text'), function (e) {\n"
		"\t\t\treturn [e.getBoundingClientRect(), e.textContent.slice(0, 40)];\n\t\t});\n"
		"\t\tt.forEach(function (a, i) {\n\t\t\tt.slice(i + 1).forEach(function (b) {\n"
		"\t\t\t\tif (a[0].width && b[0].width && a[0].left < b[0].right - 1 && b[0].left < a[0].right - 1 &&\n"
		"\t\t\t\t    a[0].top < b[0].bottom - 1 && b[0].top < a[0].bottom - 1)\n"
		"\t\t\t\t\toverlap.push('chart ' + (n + 1) + ': ' + a[1] + ' | ' + b[1]);\n"
		"\t\t\t});\n\t\t});\n\t});\n"
		"\tdocument.body.dataset.overlap = overlap.join('; ');\n"
		"})();\n</script>\n</body>\n</html>\n");
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the HTML report: %s", strerror(errno));
	return 0;
}
