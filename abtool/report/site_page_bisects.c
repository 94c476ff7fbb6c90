/* site_page_bisects.c - a project's bisects, its regressions and
 * rejections, and their Atom feed (see site_page.h). A bisect is shown as
 * `abtool bisect` ends it: its outcome, the culprit with the run that
 * confirmed it against its exact parent, then every comparison the
 * search made (docs/history.md, "Bisecting a change"). The feed follows
 * RFC 4287 (Atom): one entry per rejected run and per bisect's culprit,
 * newest first, each with a stable id (the run's or bisect's uuid). */
#include "site_page.h"
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The feed's entries at most: a reader wants the news, the page has all. */
#define FEED_MAX 100

/* A commit and its subject. */
static void commit_subject(FILE *f, const json_t *p, const json_t *c)
{
	ab_site_commit(f, p, ab_report_str(c, "commit"));
	if (*ab_report_str(c, "subject")) {
		fprintf(f, " “");
		ab_report_escape_xml(f, ab_report_str(c, "subject"));
		fprintf(f, "”");
	}
}

/* Link to run `id` of the project, or its number. */
static void run_ref(FILE *f, const json_t *p, long long id)
{
	const json_t *r = ab_site_run_by_id(p, id);

	if (r)
		ab_site_run_link(f, r);
	else if (id > 0)
		fprintf(f, "run %lld", id);
	else
		fprintf(f, "—");
}

/* The search's comparisons, in the order it asked. */
static void steps(FILE *f, const json_t *p, const json_t *b)
{
	size_t i;
	json_t *s;

	fprintf(f, "<div class=\"scroll\"><table>\n<tr><th>step</th><th>role</th><th>parent → candidate</th>"
		"<th>run</th><th>decision</th><th>ratio [bounds]</th></tr>\n");
	json_array_foreach(json_object_get(b, "steps"), i, s) {
		const json_t *d = json_object_get(s, "detail");

		fprintf(f, "<tr class=\"step\"><td class=\"n\">%lld</td>", ab_report_int(s, "seq"));
		ab_site_cell(f, ab_report_str(s, "role"));
		fprintf(f, "<td class=\"nw\">");
		ab_site_commit(f, p, ab_report_str(s, "parent_oid"));
		fprintf(f, " → ");
		ab_site_commit(f, p, ab_report_str(s, "candidate_oid"));
		fprintf(f, "</td><td>");
		run_ref(f, p, ab_report_int(s, "run_id"));
		fprintf(f, "</td>");
		ab_site_cell(f, *ab_report_str(s, "decision") ? ab_report_str(s, "decision") : "not decided");
		fprintf(f, "<td class=\"n\">");
		if (!isnan(ab_report_num(d, "ratio")))
			fprintf(f, "%.3f [%.3f, %.3f]", ab_report_num(d, "ratio"), ab_report_num(d, "lower"),
				ab_report_num(d, "upper"));
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table></div>\n");
}

/* One bisect: what it searched, its outcome and culprit, its steps. */
static void bisect(FILE *f, const json_t *p, const json_t *b)
{
	const json_t *res = json_object_get(b, "result"), *c = json_object_get(res, "culprit");
	const char *outcome = *ab_report_str(b, "outcome") ? ab_report_str(b, "outcome") : ab_report_str(b, "status");

	fprintf(f, "<section class=\"bisect\" id=\"b-%lld\" data-outcome=\"", ab_report_int(b, "id"));
	ab_report_escape_xml(f, outcome);
	fprintf(f, "\">\n<h2>Bisect %lld: ", ab_report_int(b, "id"));
	ab_report_escape_xml(f, outcome);
	fprintf(f, "</h2>\n<p class=\"meta\">");
	ab_report_escape_xml(f, ab_report_str(b, "created_at"));
	fprintf(f, ": from good ");
	ab_site_commit(f, p, ab_report_str(b, "good_oid"));
	fprintf(f, " to bad ");
	ab_site_commit(f, p, ab_report_str(b, "bad_oid"));
	if (json_is_object(res)) {
		fprintf(f, ", metric <code>");
		ab_report_escape_xml(f, ab_report_str(res, "metric"));
		fprintf(f, "</code> %s by %.0f%% or more, %lld comparisons (error bound %.3f)",
			!strcmp(ab_report_str(res, "direction"), "down") ? "down" : "up",
			100 * ab_report_num(res, "threshold"), ab_report_int(res, "comparisons"),
			ab_report_num(res, "error_bound"));
	}
	fprintf(f, ".</p>\n");
	if (json_is_object(c)) {
		fprintf(f, "<p class=\"culprit\">Culprit: ");
		commit_subject(f, p, c);
		fprintf(f, ", confirmed against its exact parent by ");
		run_ref(f, p, ab_report_int(c, "run"));
		fprintf(f, " (");
		ab_report_escape_xml(f, ab_report_str(c, "verdict"));
		fprintf(f, ").</p>\n");
	} else if (*ab_report_str(res, "why")) {
		fprintf(f, "<p>");
		ab_report_escape_xml(f, ab_report_str(res, "why"));
		fprintf(f, "</p>\n");
	}
	steps(f, p, b);
	fprintf(f, "</section>\n");
}

void ab_site_page_bisects(FILE *f, const json_t *p)
{
	size_t i;
	json_t *b;

	ab_site_head(f, "../../", "bisects", p);
	fprintf(f, "<h1>Bisects</h1>\n<p class=\"meta\">Each search for the commit that moved a row, newest "
		"first: its culprit, confirmed by an A/B run against the culprit's exact parent, and every "
		"comparison it made.</p>\n");
	if (!json_array_size(json_object_get(p, "bisects")))
		fprintf(f, "<p class=\"note\">No bisect in this project.</p>\n");
	json_array_foreach(json_object_get(p, "bisects"), i, b)
		bisect(f, p, b);
	ab_site_foot(f, p, NULL);
}

/* The first failing reason of run `r`, or its first reason. */
static const char *first_reason(const json_t *r)
{
	const json_t *failed = json_object_get(json_object_get(r, "summary"), "failed");

	if (json_array_size(failed))
		return ab_report_str(json_array_get(failed, 0), "detail");
	return json_string_value(json_array_get(json_object_get(r, "reasons"), 0));
}

/* 1 when run `r` is a rejection the list shows: a rejected A/B run. */
static int rejection(const json_t *r)
{
	return !strcmp(ab_report_str(r, "verdict"), "rejected") && !strcmp(ab_report_str(r, "kind"), "ab");
}

void ab_site_page_regressions(FILE *f, const json_t *p)
{
	static const char *const cols[] = {"design", "candidate", "the failing part of the reason", NULL};
	size_t i, n = 0;
	json_t *r, *b;

	ab_site_head(f, "../../", "regressions and rejections", p);
	fprintf(f, "<h1>Regressions and rejections</h1>\n<p class=\"meta\">The commits bisects named "
		"and the rejected A/B runs, newest first; also as an <a href=\"feed.xml\">Atom feed</a>."
		"</p>\n<h2>Culprits of bisects</h2>\n<ul>\n");
	json_array_foreach(json_object_get(p, "bisects"), i, b) {
		const json_t *c = json_object_get(json_object_get(b, "result"), "culprit");
		if (!json_is_object(c))
			continue;
		fprintf(f, "<li class=\"culprit\"><a href=\"bisects.html#b-%lld\">bisect %lld</a>: ",
			ab_report_int(b, "id"), ab_report_int(b, "id"));
		commit_subject(f, p, c);
		fprintf(f, "</li>\n");
		n++;
	}
	fprintf(f, "</ul>\n%s<h2>Rejected runs</h2>\n", n ? "" : "<p class=\"note\">None.</p>\n");
	ab_site_table_head(f, cols);
	json_array_foreach(json_object_get(p, "runs"), i, r) {
		if (!rejection(r))
			continue;
		ab_site_run_cells(f, r);
		ab_site_cell(f, ab_report_str(r, "design"));
		fprintf(f, "<td>");
		ab_site_commit(f, p, ab_report_str(r, "candidate_oid"));
		fprintf(f, "</td>");
		ab_site_cell(f, first_reason(r));
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table></div>\n");
	ab_site_foot(f, p, NULL);
}

/* One entry of the feed. */
static void entry(FILE *f, const char *id, const char *updated, const char *link, const char *title,
		  const char *summary)
{
	fprintf(f, "<entry>\n<id>urn:abtool:%s</id>\n<title>", id);
	ab_report_escape_xml(f, title);
	fprintf(f, "</title>\n<updated>");
	ab_report_escape_xml(f, updated);
	fprintf(f, "</updated>\n<link href=\"%s\"/>\n<summary>", link);
	ab_report_escape_xml(f, summary);
	fprintf(f, "</summary>\n</entry>\n");
}

/* The newest time of the feed: its newest entry's, so that the same
 * store gives the same feed (or the generation time when it has none). */
static const char *newest(const json_t *p)
{
	const char *t = "";
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(p, "runs"), i, x)
		if (rejection(x) && strcmp(ab_report_str(x, "created_at"), t) > 0)
			t = ab_report_str(x, "created_at");
	json_array_foreach(json_object_get(p, "bisects"), i, x)
		if (strcmp(ab_report_str(x, "finished_at"), t) > 0)
			t = ab_report_str(x, "finished_at");
	return *t ? t : ab_report_str(p, "generated_at");
}

void ab_site_feed(FILE *f, const json_t *p)
{
	size_t i, n = 0;
	json_t *x;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
		"<id>urn:abtool:site:");
	ab_report_escape_xml(f, ab_report_str(p, "slug"));
	fprintf(f, "</id>\n<title>");
	ab_report_escape_xml(f, ab_report_str(p, "label"));
	fprintf(f, ": regressions and rejections</title>\n<updated>");
	ab_report_escape_xml(f, newest(p));
	fprintf(f, "</updated>\n<author><name>abtool</name></author>\n<generator>abtool " ABTOOL_VERSION
		"</generator>\n<link rel=\"alternate\" href=\"regressions.html\"/>\n");
	json_array_foreach(json_object_get(p, "bisects"), i, x) {
		const json_t *c = json_object_get(json_object_get(x, "result"), "culprit");
		char *id, *link, *title;

		if (!json_is_object(c) || n++ >= FEED_MAX)
			continue;
		id = ab_xasprintf("bisect:%s", ab_report_str(x, "uuid"));
		link = ab_xasprintf("bisects.html#b-%lld", ab_report_int(x, "id"));
		title = ab_xasprintf("bisect %lld: culprit %.10s", ab_report_int(x, "id"), ab_report_str(c, "commit"));
		entry(f, id, ab_report_str(x, "finished_at"), link, title, ab_report_str(c, "subject"));
		free(title);
		free(link);
		free(id);
	}
	json_array_foreach(json_object_get(p, "runs"), i, x) {
		char *id, *link, *title;

		if (!rejection(x) || n++ >= FEED_MAX)
			continue;
		id = ab_xasprintf("run:%s", ab_report_str(x, "uuid"));
		link = ab_xasprintf("../../runs/%lld/report.html", ab_report_int(x, "id"));
		title = ab_xasprintf("run %lld rejected: %s", ab_report_int(x, "id"), ab_report_str(x, "design"));
		entry(f, id, ab_report_str(x, "created_at"), link, title, first_reason(x) ? first_reason(x) : "");
		free(title);
		free(link);
		free(id);
	}
	fprintf(f, "</feed>\n");
}
