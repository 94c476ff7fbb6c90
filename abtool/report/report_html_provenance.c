/* report_html_provenance.c - the HTML report's Provenance section
 * (report_html.h): the commits, builds, artifacts, overlay and
 * dependencies of both sides with the run's conditions under them, or a
 * comparison's two commands. */
#include "report_common.h"
#include "report_html.h"
#include "env.h"

#include <stdlib.h>
#include <string.h>

/* The markup build cells use (report_common.h). */
static void code(FILE *f, const char *s)
{
	fputs("<code>", f);
	ab_report_escape_xml(f, s);
	fputs("</code>", f);
}

static const struct ab_report_markup markup = {code, ab_report_escape_xml, "<strong class=\"o-fail\">",
					       "</strong>"};

/* A commit or tree id: the first 10 digits, the whole id on hover. */
static void oid_code(FILE *f, const char *oid)
{
	char shortened[11];

	snprintf(shortened, sizeof(shortened), "%.10s", oid);
	fprintf(f, "<code title=\"");
	ab_report_escape_xml(f, oid);
	fprintf(f, "\">");
	ab_report_escape_xml(f, shortened);
	fprintf(f, "</code>");
}

/* The provenance table's build row and a row per artifact of the
 * parent's build, each with both sides' digests. */
static void provenance_builds(FILE *f, const json_t *doc)
{
	const json_t *bp = ab_report_build_of(doc, "parent");
	const json_t *bc = ab_report_build_of(doc, "candidate");
	const char *path;
	json_t *hash;

	fprintf(f, "<tr><td>build</td><td>");
	ab_report_build_cell(f, bp, &markup);
	fputs("</td><td>", f);
	ab_report_build_cell(f, bc, &markup);
	fprintf(f, "</td></tr>\n");
	if (!bp)
		return;
	json_object_foreach(json_object_get(bp, "artifacts"), path, hash) {
		const char *other = ab_report_str(json_object_get(bc, "artifacts"), path);
		char ha[13], hb[13];
		snprintf(ha, sizeof(ha), "%.12s", json_string_value(hash) ? json_string_value(hash) : "");
		snprintf(hb, sizeof(hb), "%.12s", other);
		fprintf(f, "<tr><td>artifact <code>");
		ab_report_escape_xml(f, path);
		fprintf(f, "</code> SHA-256</td><td><code>");
		ab_report_escape_xml(f, ha);
		fprintf(f, "…</code></td><td><code>");
		ab_report_escape_xml(f, hb);
		fprintf(f, "…</code>%s</td></tr>\n",
			json_string_value(hash) && !strcmp(json_string_value(hash), other)
				? " <span class=\"warn\">⚠ identical: an A/A in disguise?</span>" : "");
	}
}

/* The provenance table's rows of the overlay and the dependencies. */
static void provenance_inputs(FILE *f, const json_t *doc)
{
	const json_t *ov = json_object_get(doc, "overlay"), *p;
	size_t i;

	if (json_is_object(ov)) {
		fprintf(f, "<tr><td>overlay</td><td colspan=\"2\">");
		json_array_foreach(json_object_get(ov, "paths"), i, p) {
			fprintf(f, "%s<code>", i ? ", " : "");
			ab_report_escape_xml(f, ab_report_str(p, "path"));
			fprintf(f, "</code> (%s ", ab_report_str(p, "type"));
			oid_code(f, ab_report_str(p, "oid"));
			fprintf(f, ")");
		}
		fprintf(f, " from ");
		ab_report_escape_xml(f, ab_report_str(ov, "from"));
		fprintf(f, " ");
		oid_code(f, ab_report_str(ov, "source"));
		fprintf(f, ": both sides ran these</td></tr>\n");
	}
	json_array_foreach(json_object_get(doc, "dependencies"), i, p) {
		const json_t *par = json_object_get(p, "parent"), *cand = json_object_get(p, "candidate");
		fprintf(f, "<tr><td>dependency <code>");
		ab_report_escape_xml(f, ab_report_str(p, "name"));
		fprintf(f, "</code></td><td>");
		oid_code(f, ab_report_str(par, "oid"));
		fprintf(f, " ");
		ab_report_escape_xml(f, ab_report_str(par, "subject"));
		fprintf(f, "</td><td>");
		oid_code(f, ab_report_str(cand, "oid"));
		fprintf(f, " ");
		ab_report_escape_xml(f, ab_report_str(cand, "subject"));
		fprintf(f, "</td></tr>\n");
	}
}

/* The lines under the provenance table: host, noise controls and noise,
 * plan, and the compiler identity. */
static void provenance_conditions(FILE *f, const json_t *doc)
{
	char *controls = ab_report_controls_line(doc), *noise = ab_report_noise_line(doc);
	char *plan_line = ab_report_plan_line(doc);

	if (json_is_object(json_object_get(doc, "host"))) {
		char *host = ab_env_summary(json_object_get(doc, "host"));
		const json_t *resumed = json_object_get(doc, "resumed");
		fprintf(f, "<p>Host: ");
		ab_report_escape_xml(f, host);
		if (json_is_string(json_object_get(resumed, "host_change"))) {
			fprintf(f, " (where the run started; it was resumed on ");
			ab_report_escape_xml(f, ab_report_str(resumed, "resumed_on"));
			fprintf(f, ")");
		}
		fprintf(f, ".</p>\n");
		free(host);
	}
	if (controls) {
		fprintf(f, "<p>Noise controls: ");
		ab_report_escape_xml(f, controls);
		fprintf(f, ".</p>\n");
	}
	if (noise) {
		fprintf(f, "<p>Noise: ");
		ab_report_escape_xml(f, noise);
		fprintf(f, ".</p>\n");
	}
	fprintf(f, "<p>Plan: %s.</p>\n", plan_line);
	if (json_is_string(json_object_get(doc, "compiler_identity"))) {
		fprintf(f, "<details><summary>Compiler identity</summary>\n<pre>");
		ab_report_escape_xml(f, ab_report_str(doc, "compiler_identity"));
		fprintf(f, "</pre></details>\n");
	}
	free(controls);
	free(noise);
	free(plan_line);
}

/* The provenance section's start, up to its table's body, with the
 * table's three column heads. */
static void provenance_start(FILE *f, const char *first, const char *second, const char *third)
{
	fprintf(f, "<section id=\"provenance\">\n<h2>Provenance</h2>\n<div class=\"scroll\"><table>\n"
		"<thead><tr><th>%s</th><th>%s</th><th>%s</th></tr></thead>\n<tbody>\n", first, second, third);
}

/* The two commands of a comparison (kind compare), in the place of the
 * commits and builds. */
static void sides_provenance(FILE *f, const json_t *doc)
{
	const json_t *sides = json_object_get(doc, "sides");
	int i;

	provenance_start(f, "side", "name", "command");
	for (i = 0; i < 2; i++) {
		fprintf(f, "<tr><td>%s</td><td>", i ? "b" : "a");
		ab_report_escape_xml(f, ab_report_str(json_array_get(sides, (size_t)i), "name"));
		fprintf(f, "</td><td><code>");
		ab_report_escape_xml(f, ab_report_str(json_array_get(sides, (size_t)i), "command"));
		fprintf(f, "</code></td></tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n</section>\n");
}

static void commits_provenance(FILE *f, const json_t *doc)
{
	const json_t *par = json_object_get(doc, "parent"), *cand = json_object_get(doc, "candidate");
	const json_t *file = json_object_get(doc, "experiment_file");
	char h[13];

	provenance_start(f, "item", "parent", "candidate");
	fprintf(f, "<tr><td>commit</td>");
	fprintf(f, "<td>");
	oid_code(f, ab_report_str(par, "oid"));
	fprintf(f, " %s</td><td>", json_is_true(json_object_get(doc, "exact_parent")) ? "(exact parent)"
			       : "(<strong>not</strong> the exact parent)");
	oid_code(f, ab_report_str(cand, "oid"));
	fprintf(f, "</td></tr>\n<tr><td>subject</td><td>");
	ab_report_escape_xml(f, ab_report_str(par, "subject"));
	fprintf(f, "</td><td>");
	ab_report_escape_xml(f, ab_report_str(cand, "subject"));
	fprintf(f, "</td></tr>\n<tr><td>tree</td><td>");
	oid_code(f, ab_report_str(par, "tree"));
	fprintf(f, "</td><td>");
	oid_code(f, ab_report_str(cand, "tree"));
	fprintf(f, "</td></tr>\n");
	provenance_builds(f, doc);
	provenance_inputs(f, doc);
	fprintf(f, "<tr><td>benchmark</td><td colspan=\"2\"><code>");
	ab_report_escape_xml(f, ab_report_str(doc, "benchmark"));
	fprintf(f, "</code></td></tr>\n<tr><td>experiment file</td><td colspan=\"2\"><code>");
	ab_report_escape_xml(f, ab_report_str(file, "path"));
	fprintf(f, "</code> (SHA-256 <code>");
	snprintf(h, sizeof(h), "%.12s", ab_report_str(file, "sha256"));
	ab_report_escape_xml(f, h);
	fprintf(f, "…</code>)</td></tr>\n</tbody></table></div>\n");
	provenance_conditions(f, doc);
	fprintf(f, "</section>\n");
}

void ab_report_html_provenance(FILE *f, const json_t *doc)
{
	if (json_is_array(json_object_get(doc, "sides")))
		sides_provenance(f, doc);
	else
		commits_provenance(f, doc);
}
