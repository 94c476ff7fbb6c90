/* site_page.c - what the site's pages share (the head with its
 * Content-Security-Policy, the navigation, the footer, links to runs and
 * commits, verdict labels, reasons) and the two front pages: the site's
 * list of projects and a project's own (see site_page.h). */
#include "site_page.h"
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Only the site's own files: its style sheet and scripts. A page that
 * tried to load anything else, from the network or another folder of the
 * disk, is refused by the browser (and says so on its console). */
#define SITE_CSP                                                                                  \
	"default-src 'none'; style-src 'self'; script-src 'self'; img-src data:; base-uri 'none'; " \
	"form-action 'none'"

void ab_site_head(FILE *f, const char *root, const char *title, const json_t *p)
{
	static const char *const pages[][2] = {
		{"index.html", "overview"}, {"designs.html", "designs"}, {"rows.html", "rows"},
		{"bisects.html", "bisects"}, {"regressions.html", "regressions"}, {"search.html", "search"},
	};
	size_t i;

	/* the policy first: it holds from the first element that could load */
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"" SITE_CSP "\">\n"
		"<meta name=\"generator\" content=\"abtool " ABTOOL_VERSION "\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	ab_report_escape_xml(f, title);
	fprintf(f, "</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css\">\n<link rel=\"icon\" href=\"data:,\">\n",
		root);
	if (p)
		fprintf(f, "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"regressions and "
			"rejections\" href=\"feed.xml\">\n");
	fprintf(f, "</head>\n<body>\n<nav><a href=\"%sindex.html\">abtool site</a>", root);
	if (p) {
		fprintf(f, " › <strong>");
		ab_report_escape_xml(f, ab_report_str(p, "label"));
		fprintf(f, "</strong>:");
		for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
			fprintf(f, " <a href=\"%s\">%s</a>", pages[i][0], pages[i][1]);
	}
	fprintf(f, "</nav>\n<main>\n");
}

void ab_site_foot(FILE *f, const json_t *p, const char *const *scripts)
{
	fprintf(f, "</main>\n<footer>Written by abtool " ABTOOL_VERSION " from the store <code "
		"class=\"store\">");
	ab_report_escape_xml(f, ab_report_str(p, "store"));
	fprintf(f, "</code> at <time class=\"generated\">");
	ab_report_escape_xml(f, ab_report_str(p, "generated_at"));
	fprintf(f, "</time>.</footer>\n");
	for (; scripts && *scripts; scripts++)
		fprintf(f, "<script src=\"%s\"></script>\n", *scripts);
	fprintf(f, "</body>\n</html>\n");
}

void ab_site_table_head(FILE *f, const char *const *columns)
{
	fprintf(f, "<div class=\"scroll\"><table>\n<tr><th>run</th><th>date (UTC)</th><th>kind</th>");
	for (; *columns; columns++)
		fprintf(f, "<th>%s</th>", *columns);
	fprintf(f, "</tr>\n");
}

void ab_site_run_cells(FILE *f, const json_t *run)
{
	const char *v = ab_report_str(run, "verdict");

	fprintf(f, "<tr data-run=\"%lld\" data-verdict=\"", ab_report_int(run, "id"));
	ab_report_escape_xml(f, *v ? v : ab_report_str(run, "status"));
	fprintf(f, "\" data-oid=\"");
	ab_report_escape_xml(f, ab_report_str(run, "candidate_oid"));
	fprintf(f, "\"><td>");
	ab_site_run_link(f, run);
	fprintf(f, "</td><td class=\"nw\">");
	ab_report_escape_xml(f, ab_report_str(run, "created_at"));
	fprintf(f, "</td>");
	ab_site_cell(f, ab_report_str(run, "kind"));
}

void ab_site_cell(FILE *f, const char *text)
{
	fprintf(f, "<td>");
	ab_report_escape_xml(f, text);
	fprintf(f, "</td>");
}

void ab_site_verdict_cell(FILE *f, const json_t *run)
{
	const char *v = ab_report_str(run, "verdict");

	fprintf(f, "<td>");
	ab_site_verdict(f, *v ? v : ab_report_str(run, "status"));
	fprintf(f, "</td>");
}

void ab_site_verdict(FILE *f, const char *verdict)
{
	const char *v = verdict && *verdict ? verdict : "none";

	fprintf(f, "<span class=\"verdict v-%s\">",
		!strcmp(v, "accepted") || !strcmp(v, "rejected") || !strcmp(v, "inconclusive") ||
		!strcmp(v, "invalid") ? v : "other");
	ab_report_escape_xml(f, v);
	fprintf(f, "</span>");
}

void ab_site_run_link(FILE *f, const json_t *run)
{
	const json_t *s = json_object_get(run, "summary");
	long long id = ab_report_int(run, "id");

	if (json_is_true(json_object_get(s, "has_report")))
		fprintf(f, "<a class=\"run\" href=\"../../runs/%lld/report.html\">run %lld</a>", id, id);
	else
		fprintf(f, "run %lld", id);
}

void ab_site_commit(FILE *f, const json_t *p, const char *oid)
{
	const char *tpl = json_string_value(json_object_get(p, "commit_url")), *at;

	if (!oid || !*oid) {
		fprintf(f, "—");
		return;
	}
	if (tpl && (at = strstr(tpl, "{commit}"))) {
		char *head = ab_xstrndup(tpl, (size_t)(at - tpl));

		fprintf(f, "<a class=\"commit\" href=\"");
		ab_report_escape_xml(f, head);
		free(head);
		ab_report_escape_xml(f, oid);
		ab_report_escape_xml(f, at + strlen("{commit}"));
		fprintf(f, "\"><code>%.10s</code></a>", oid);
		return;
	}
	fprintf(f, "<code>");
	ab_report_escape_xml(f, oid);
	fprintf(f, "</code>");
}

const json_t *ab_site_design_runs(const json_t *p, const char *design)
{
	return json_object_get(json_object_get(p, "by_design"), design);
}

const json_t *ab_site_experiment_runs(const json_t *p, const char *name)
{
	return json_object_get(json_object_get(p, "by_experiment"), name);
}

const json_t *ab_site_run_by_id(const json_t *p, long long id)
{
	const json_t *runs = json_object_get(p, "runs"), *r;
	size_t lo = 0, hi = json_array_size(runs);

	/* newest first: ids mostly descend, but an imported run may not */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long long at = ab_report_int(json_array_get(runs, mid), "id");
		if (at == id)
			return json_array_get(runs, mid);
		if (at > id)
			lo = mid + 1;
		else
			hi = mid;
	}
	json_array_foreach(runs, lo, r)
		if (ab_report_int(r, "id") == id)
			return r;
	return NULL;
}

/* Each {rule, detail} of `list` as "rule: detail" items of class `cls`. */
static void rule_items(FILE *f, const json_t *list, const char *cls)
{
	size_t i;
	json_t *r;

	json_array_foreach(list, i, r) {
		fprintf(f, "<li class=\"%s\"><strong>", cls);
		ab_report_escape_xml(f, ab_report_str(r, "rule"));
		fprintf(f, "</strong>: ");
		ab_report_escape_xml(f, ab_report_str(r, "detail"));
		fprintf(f, "</li>\n");
	}
}

void ab_site_reasons(FILE *f, const json_t *run)
{
	const json_t *s = json_object_get(run, "summary");
	const json_t *failed = json_object_get(s, "failed"), *inc = json_object_get(s, "inconclusive");
	const json_t *reasons = json_object_get(run, "reasons"), *r;
	size_t i;

	if (!json_array_size(failed) && !json_array_size(inc) && !json_array_size(reasons))
		return;
	fprintf(f, "<ul class=\"reasons\">\n");
	if (json_array_size(failed) || json_array_size(inc)) {
		rule_items(f, failed, "fail");
		rule_items(f, inc, "inc");
	} else {
		json_array_foreach(reasons, i, r) {
			fprintf(f, "<li class=\"fail\">");
			ab_report_escape_xml(f, json_string_value(r));
			fprintf(f, "</li>\n");
		}
	}
	fprintf(f, "</ul>\n");
}

/* How many runs of `p` have verdict `v` ("" : no verdict yet). */
static size_t runs_with(const json_t *p, const char *v)
{
	size_t i, n = 0;
	json_t *r;

	json_array_foreach(json_object_get(p, "runs"), i, r)
		n += !strcmp(ab_report_str(r, "verdict"), v);
	return n;
}

/* A design's standing: its latest accepted or rejected A/B verdict, or
 * "undecided". */
static const char *standing(const json_t *d)
{
	const char *v = ab_report_str(d, "latest_verdict");
	return *v ? v : "undecided";
}

void ab_site_page_projects(FILE *f, const json_t *projects, const char *store, const char *generated_at)
{
	json_t *foot = json_pack("{s:s, s:s}", "store", store ? store : "", "generated_at",
				 generated_at ? generated_at : "");
	size_t i;
	json_t *p;

	ab_site_head(f, "", "abtool site", NULL);
	fprintf(f, "<h1>Projects</h1>\n<p class=\"meta\">%zu project%s in the store.</p>\n<table>\n"
		"<tr><th>project</th><th>runs</th><th>designs</th><th>rejected designs</th>"
		"<th>newest run</th></tr>\n", json_array_size(projects), json_array_size(projects) == 1 ? "" : "s");
	json_array_foreach(projects, i, p) {
		const json_t *newest = json_array_get(json_object_get(p, "runs"), 0), *d;
		size_t j, rejected = 0;

		json_array_foreach(json_object_get(p, "designs"), j, d)
			rejected += !strcmp(standing(d), "rejected");
		fprintf(f, "<tr><td><a href=\"p/");
		ab_report_escape_xml(f, ab_report_str(p, "slug"));
		fprintf(f, "/index.html\">");
		ab_report_escape_xml(f, ab_report_str(p, "label"));
		fprintf(f, "</a></td><td class=\"n\">%zu</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td><td>",
			json_array_size(json_object_get(p, "runs")), json_array_size(json_object_get(p, "designs")),
			rejected);
		ab_report_escape_xml(f, ab_report_str(newest, "created_at"));
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
	ab_site_foot(f, foot, NULL);
	json_decref(foot);
}

/* The counts of runs by verdict and of designs by standing. */
static void counts(FILE *f, const json_t *p)
{
	static const char *const verdicts[] = {"accepted", "rejected", "inconclusive", "invalid"};
	static const char *const standings[] = {"accepted", "rejected", "undecided"};
	size_t i, j, n[3] = {0, 0, 0}, nruns = json_array_size(json_object_get(p, "runs")), shown = 0;
	json_t *d;

	fprintf(f, "<section id=\"counts\">\n<h2>Counts</h2>\n<table>\n<tr><th>runs</th>");
	for (i = 0; i < 4; i++)
		fprintf(f, "<th>%s</th>", verdicts[i]);
	fprintf(f, "<th>other</th></tr>\n<tr><td class=\"n\">%zu</td>", nruns);
	for (i = 0; i < 4; i++) {
		size_t k = runs_with(p, verdicts[i]);
		fprintf(f, "<td class=\"n\" data-verdict=\"%s\">%zu</td>", verdicts[i], k);
		shown += k;
	}
	fprintf(f, "<td class=\"n\">%zu</td></tr>\n</table>\n<table>\n<tr><th>designs</th>", nruns - shown);
	json_array_foreach(json_object_get(p, "designs"), j, d)
		for (i = 0; i < 3; i++)
			n[i] += !strcmp(standing(d), standings[i]);
	for (i = 0; i < 3; i++)
		fprintf(f, "<th>%s</th>", standings[i]);
	fprintf(f, "</tr>\n<tr><td class=\"n\">%zu</td>", json_array_size(json_object_get(p, "designs")));
	for (i = 0; i < 3; i++)
		fprintf(f, "<td class=\"n\" data-standing=\"%s\">%zu</td>", standings[i], n[i]);
	fprintf(f, "</tr>\n</table>\n</section>\n");
}

/* The best and worst primary-metric ratios of a run, or "—". */
static void ratio_range(FILE *f, const json_t *run)
{
	double best = ab_report_num(run, "ratio_best"), worst = ab_report_num(run, "ratio_worst");

	if (isnan(best))
		fprintf(f, "—");
	else if (best == worst)
		fprintf(f, "%.3f", best);
	else
		fprintf(f, "%.3f … %.3f", best, worst);
}

/* The newest runs, at most 30. */
static void latest(FILE *f, const json_t *p)
{
	static const char *const cols[] = {"design", "experiment", "verdict", "ratio", NULL};
	size_t i;
	json_t *r;

	fprintf(f, "<section id=\"latest\">\n<h2>Latest verdicts</h2>\n");
	ab_site_table_head(f, cols);
	json_array_foreach(json_object_get(p, "runs"), i, r) {
		if (i == 30)
			break;
		ab_site_run_cells(f, r);
		ab_site_cell(f, ab_report_str(r, "design"));
		ab_site_cell(f, ab_report_str(r, "experiment"));
		ab_site_verdict_cell(f, r);
		fprintf(f, "<td class=\"n\">");
		ratio_range(f, r);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table></div>\n</section>\n");
}

/* The designs by standing, each a link to its entry of designs.html. */
static void designs_by_outcome(FILE *f, const json_t *p)
{
	static const char *const standings[] = {"rejected", "accepted", "undecided"};
	size_t i, j, n;
	json_t *d;

	fprintf(f, "<section id=\"designs\">\n<h2>Designs by outcome</h2>\n");
	for (i = 0; i < 3; i++) {
		n = 0;
		json_array_foreach(json_object_get(p, "designs"), j, d)
			n += !strcmp(standing(d), standings[i]);
		fprintf(f, "<h3>%s (%zu)</h3>\n", standings[i], n);
		if (!n)
			continue;
		fprintf(f, "<ul class=\"inline\">\n");
		json_array_foreach(json_object_get(p, "designs"), j, d) {
			if (strcmp(standing(d), standings[i]))
				continue;
			fprintf(f, "<li><a href=\"designs.html#d-%s\">", ab_report_str(d, "key"));
			ab_report_escape_xml(f, ab_report_str(d, "design"));
			fprintf(f, "</a></li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
}

/* The rows of each experiment, each a link to its chart. */
static void rows_overview(FILE *f, const json_t *p)
{
	fprintf(f, "<section id=\"rows\">\n<h2>Rows</h2>\n");
	ab_site_rows_list(f, p);
	fprintf(f, "</section>\n");
}

void ab_site_page_rows_index(FILE *f, const json_t *p)
{
	ab_site_head(f, "../../", "rows", p);
	fprintf(f, "<h1>Rows over time</h1>\n<p class=\"meta\">Each experiment's rows, each with a chart "
		"of its changes along the commits, ordered ");
	ab_report_escape_xml(f, ab_report_str(p, "order_note"));
	fprintf(f, ".</p>\n");
	ab_site_rows_list(f, p);
	ab_site_foot(f, p, NULL);
}

void ab_site_page_index(FILE *f, const json_t *p)
{
	ab_site_head(f, "../../", ab_report_str(p, "label"), p);
	fprintf(f, "<h1>");
	ab_report_escape_xml(f, ab_report_str(p, "label"));
	fprintf(f, "</h1>\n<p class=\"meta\">Every run, design and bisect of this project that the store "
		"holds. Commits are ordered ");
	ab_report_escape_xml(f, ab_report_str(p, "order_note"));
	fprintf(f, ".</p>\n");
	counts(f, p);
	latest(f, p);
	rows_overview(f, p);
	designs_by_outcome(f, p);
	ab_site_foot(f, p, NULL);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *ab_site_experiments(const json_t *p)
{
	const json_t *by = json_object_get(p, "by_experiment");
	const char *name, **names = ab_xcalloc(json_object_size(by) + 1, sizeof(*names));
	json_t *out = json_array(), *r;
	size_t i, n = 0;

	json_object_foreach((json_t *)by, name, r)
		names[n++] = name;
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++)
		json_array_append_new(out, json_string(names[i]));
	free(names);
	return out;
}
