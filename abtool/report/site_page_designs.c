/* site_page_designs.c - the designs page of a project's site and one page
 * per design (see site_page.h): the memory of designs, to be read before
 * an idea is tried again. A design's standing is its newest accepted or
 * rejected A/B run (ab_store_designs); a rejected one is listed first,
 * with the failing part of each failed rule's reason and the words "do
 * not retry without new evidence"; the new evidence that let a design run
 * again is the note its run was given (`run --new-evidence`) or the
 * profile it linked. */
#include "site_page.h"
#include "report_common.h"

#include <string.h>

static const char *standing(const json_t *d)
{
	const char *v = ab_report_str(d, "latest_verdict");
	return *v ? v : "undecided";
}

/* 1 when run `r` is one of design `d`'s (a bisect's step and a comparison
 * are not: ab_store_designs leaves them out). */
static int of_design(const json_t *r, const json_t *d)
{
	return !strcmp(ab_report_str(r, "design"), ab_report_str(d, "design")) &&
	       strcmp(ab_report_str(r, "kind"), "bisect");
}

/* The distinct hypotheses of the design's runs, newest first. */
static void hypotheses(FILE *f, const json_t *p, const json_t *d)
{
	json_t *seen = json_object();
	size_t i;
	json_t *r;

	json_array_foreach(ab_site_design_runs(p, ab_report_str(d, "design")), i, r) {
		const char *h = ab_report_str(r, "hypothesis");
		if (!of_design(r, d) || !*h || json_object_get(seen, h))
			continue;
		json_object_set_new(seen, h, json_true());
		fprintf(f, "<blockquote class=\"hypothesis\">Hypothesis: ");
		ab_report_escape_xml(f, h);
		fprintf(f, "</blockquote>\n");
	}
	json_decref(seen);
}

/* The runs of the design by verdict: "3 runs: 1 accepted, 2 rejected". */
static void run_counts(FILE *f, const json_t *p, const json_t *d)
{
	static const char *const verdicts[] = {"accepted", "rejected", "inconclusive", "invalid", ""};
	size_t i, j, n[5] = {0}, all = 0;
	json_t *r;

	json_array_foreach(ab_site_design_runs(p, ab_report_str(d, "design")), i, r) {
		if (!of_design(r, d))
			continue;
		all++;
		for (j = 0; j < 4 && strcmp(ab_report_str(r, "verdict"), verdicts[j]); j++)
			;
		n[j]++;
	}
	fprintf(f, "%zu run%s", all, all == 1 ? "" : "s");
	for (j = 0; j < 5; j++)
		if (n[j])
			fprintf(f, ", %zu %s", n[j], j < 4 ? verdicts[j] : "other");
}

/* The new evidence of run `r`, measured after its design was rejected:
 * the note `run --new-evidence` gave it (borrowed; its first, written
 * before the run finished), or NULL. */
static const json_t *evidence_note(const json_t *r)
{
	const json_t *n = json_array_get(json_object_get(r, "run_notes"), 0);
	const char *done = ab_report_str(r, "finished_at");

	return n && (!*done || strcmp(ab_report_str(n, "created_at"), done) <= 0) ? n : NULL;
}

/* The new evidence of the design's runs: the note of a run measured after
 * a rejection, and a profile linked as evidence. */
static void evidence(FILE *f, const json_t *p, const json_t *d)
{
	const json_t *runs = ab_site_design_runs(p, ab_report_str(d, "design")), *note;
	size_t i = json_array_size(runs);
	int rejected = 0;

	while (i-- > 0) {  /* oldest first */
		const json_t *r = json_array_get(runs, i);
		if (!of_design(r, d))
			continue;
		if (rejected && (note = evidence_note(r)) != NULL) {
			fprintf(f, "<p class=\"evidence\">New evidence for ");
			ab_site_run_link(f, r);
			fprintf(f, ": ");
			ab_report_escape_xml(f, ab_report_str(note, "text"));
			fprintf(f, "</p>\n");
		}
		if (json_is_integer(json_object_get(r, "evidence_run"))) {
			fprintf(f, "<p class=\"evidence\">New evidence for ");
			ab_site_run_link(f, r);
			fprintf(f, ": the profile of run %lld.</p>\n", ab_report_int(r, "evidence_run"));
		}
		rejected |= !strcmp(ab_report_str(r, "verdict"), "rejected") &&
			    !strcmp(ab_report_str(r, "kind"), "ab");
	}
}

/* Notes {created_at, text} (`notes`), as a list. */
static void note_list(FILE *f, const json_t *notes)
{
	size_t i;
	json_t *n;

	if (!json_array_size(notes))
		return;
	fprintf(f, "<ul class=\"notes\">\n");
	json_array_foreach(notes, i, n) {
		fprintf(f, "<li>Note (");
		ab_report_escape_xml(f, ab_report_str(n, "created_at"));
		fprintf(f, "): ");
		ab_report_escape_xml(f, ab_report_str(n, "text"));
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n");
}

/* A design's heading (element `h`) with its standing, the warning of a
 * rejected one and its hypotheses. */
static void title(FILE *f, const json_t *p, const json_t *d, const char *h)
{
	const char *s = standing(d);

	fprintf(f, "<%s>", h);
	ab_report_escape_xml(f, ab_report_str(d, "design"));
	fprintf(f, " ");
	ab_site_verdict(f, s);
	fprintf(f, "</%s>\n", h);
	if (!strcmp(s, "rejected"))
		fprintf(f, "<p class=\"retry\">Do not retry without new evidence.</p>\n");
	hypotheses(f, p, d);
}

/* One design's entry on designs.html. */
static void design_entry(FILE *f, const json_t *p, const json_t *d)
{
	const char *s = standing(d);
	const json_t *latest = ab_site_run_by_id(p, ab_report_int(d, "latest_run"));

	fprintf(f, "<section class=\"design s-%s\" id=\"d-%s\" data-design=\"", s, ab_report_str(d, "key"));
	ab_report_escape_xml(f, ab_report_str(d, "design"));
	fprintf(f, "\">\n");
	title(f, p, d, "h3");
	if (latest) {
		fprintf(f, "<p>Standing from ");
		ab_site_run_link(f, latest);
		fprintf(f, " (");
		ab_report_escape_xml(f, ab_report_str(latest, "created_at"));
		fprintf(f, ")%s</p>\n", strcmp(s, "accepted") ? ":" : ".");
		if (strcmp(s, "accepted"))
			ab_site_reasons(f, latest);
	}
	evidence(f, p, d);
	note_list(f, json_object_get(d, "design_notes"));
	fprintf(f, "<p class=\"meta\">");
	run_counts(f, p, d);
	fprintf(f, ": <a href=\"design-%s.html\">every run of the design</a>.</p>\n</section>\n",
		ab_report_str(d, "key"));
}

void ab_site_page_designs(FILE *f, const json_t *p)
{
	static const char *const order[] = {"rejected", "accepted", "undecided"};
	static const char *const heads[] = {"Rejected: do not retry without new evidence", "Accepted",
					    "Undecided (no accepted or rejected A/B run yet)"};
	size_t i, j, n;
	json_t *d;

	ab_site_head(f, "../../", "designs", p);
	fprintf(f, "<h1>Designs</h1>\n<p class=\"meta\">Each design's standing is its newest accepted or "
		"rejected A/B run; an inconclusive or invalid run, a calibration or an analysis does not "
		"change it, only new decisive evidence clears a rejection.</p>\n");
	for (i = 0; i < 3; i++) {
		n = 0;
		json_array_foreach(json_object_get(p, "designs"), j, d)
			n += !strcmp(standing(d), order[i]);
		fprintf(f, "<h2 id=\"%s\">%s (%zu)</h2>\n", order[i], heads[i], n);
		json_array_foreach(json_object_get(p, "designs"), j, d)
			if (!strcmp(standing(d), order[i]))
				design_entry(f, p, d);
	}
	ab_site_foot(f, p, NULL);
}

/* A run's line in a design's table. */
static void run_line(FILE *f, const json_t *p, const json_t *r)
{
	ab_site_run_cells(f, r);
	ab_site_cell(f, ab_report_str(r, "experiment"));
	fprintf(f, "<td class=\"nw\">");
	ab_site_commit(f, p, ab_report_str(r, "parent_oid"));
	fprintf(f, " → ");
	ab_site_commit(f, p, ab_report_str(r, "candidate_oid"));
	fprintf(f, "</td>");
	ab_site_verdict_cell(f, r);
	fprintf(f, "<td>");
	ab_site_reasons(f, r);
	note_list(f, json_object_get(r, "run_notes"));
	fprintf(f, "</td></tr>\n");
}

void ab_site_page_design(FILE *f, const json_t *p, const json_t *d)
{
	static const char *const cols[] = {"experiment", "parent → candidate", "verdict",
					   "reasons (the failing part first) and notes", NULL};
	size_t i;
	json_t *r;

	ab_site_head(f, "../../", ab_report_str(d, "design"), p);
	title(f, p, d, "h1");
	evidence(f, p, d);
	note_list(f, json_object_get(d, "design_notes"));
	fprintf(f, "<h2>Runs</h2>\n<p class=\"meta\">");
	run_counts(f, p, d);
	fprintf(f, ", newest first.</p>\n");
	ab_site_table_head(f, cols);
	json_array_foreach(ab_site_design_runs(p, ab_report_str(d, "design")), i, r)
		if (of_design(r, d))
			run_line(f, p, r);
	fprintf(f, "</table></div>\n");
	ab_site_foot(f, p, NULL);
}
