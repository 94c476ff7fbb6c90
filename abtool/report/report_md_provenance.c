/* report_md_provenance.c - the Markdown report's provenance: the commits,
 * builds, overlay, dependencies and inputs of both sides, or a
 * comparison's two commands; the run's host and plan; a partial run's
 * note; the summary's short form of the inputs (report_md.h). */
#include "env.h"
#include "report_common.h"
#include "report_md.h"

#include <stdlib.h>
#include <string.h>

/* The markup build cells use (report_common.h): code and text in a cell. */
static void code_cell(FILE *f, const char *s)
{
	ab_report_md(f, s, MD_CODE | MD_CELL);
}

static void text_cell(FILE *f, const char *s)
{
	ab_report_md(f, s, MD_TEXT | MD_CELL);
}

static const struct ab_report_markup cell_markup = {code_cell, text_cell, "**", "**"};

static void overlay_cell(FILE *f, const json_t *overlay)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(overlay, "paths"), i, p) {
		fputs(i ? ", " : "", f);
		ab_report_md(f, ab_report_str(p, "path"), MD_CODE | MD_CELL);
		fputs(" (", f);
		ab_report_md(f, ab_report_str(p, "type"), MD_TEXT | MD_CELL);
		fputc(' ', f);
		ab_report_md_short(f, ab_report_str(p, "oid"), 10, MD_CODE | MD_CELL);
		fputs("…)", f);
	}
	fputs(" from ", f);
	ab_report_md(f, ab_report_str(overlay, "from"), MD_TEXT | MD_CELL);
	fputc(' ', f);
	ab_report_md_short(f, ab_report_str(overlay, "source"), 10, MD_CODE | MD_CELL);
}

static void overlay_rows(FILE *f, const json_t *overlay)
{
	const char *from;

	if (!json_is_object(overlay))
		return;
	from = ab_report_str(overlay, "from");
	fprintf(f, "| overlay | ");
	if (!strcmp(from, "parent"))
		fprintf(f, "its own");
	else
		overlay_cell(f, overlay);
	fprintf(f, " | ");
	if (!strcmp(from, "candidate"))
		fprintf(f, "its own");
	else
		overlay_cell(f, overlay);
	fprintf(f, " |\n");
}

/* A dependency's side: its short oid, then its commit's subject. */
static void dependency_side(FILE *f, const json_t *side)
{
	ab_report_md_short(f, ab_report_str(side, "oid"), 10, MD_CODE | MD_CELL);
	if (*ab_report_str(side, "subject")) {
		fputc(' ', f);
		ab_report_md(f, ab_report_str(side, "subject"), MD_TEXT | MD_CELL);
	}
}

static void dependency_rows(FILE *f, const json_t *deps)
{
	size_t i;
	json_t *d;

	json_array_foreach((json_t *)deps, i, d) {
		const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
		fprintf(f, "| dependency ");
		ab_report_md(f, ab_report_str(d, "name"), MD_CODE | MD_CELL);
		fprintf(f, " (");
		ab_report_md(f, ab_report_str(d, "path"), MD_CODE | MD_CELL);
		fprintf(f, ") | ");
		dependency_side(f, par);
		if (!strcmp(ab_report_str(par, "oid"), ab_report_str(cand, "oid")))
			fputs(" (same revision)", f);
		else if (json_is_true(json_object_get(d, "exact_parent")))
			fputs(" (exact parent)", f);
		fprintf(f, " | ");
		dependency_side(f, cand);
		fprintf(f, " |\n");
	}
}

/* The inputs outside the trees: one line each, the same on both sides. */
static void input_rows(FILE *f, const json_t *inputs)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(inputs, "paths"), i, p) {
		fprintf(f, "| input ");
		ab_report_md(f, ab_report_str(p, "path"), MD_CODE | MD_CELL);
		fprintf(f, " (%s, %lld bytes) SHA-256 | ", ab_report_str(p, "type"),
			(long long)json_integer_value(json_object_get(p, "bytes")));
		ab_report_md_short(f, ab_report_str(p, "sha256"), 12, MD_CODE | MD_CELL);
		fprintf(f, "… | same |\n");
	}
}

/* A partial run (--row): what was measured, added, and not evaluated. */
void ab_report_md_subset_note(FILE *f, const json_t *subset)
{
	size_t i;
	json_t *v;

	if (!json_is_object(subset))
		return;
	if (json_is_object(json_object_get(subset, "shard"))) {
		fprintf(f, "**Partial run**: shard %lld of %lld (--shard), rows ",
			(long long)json_integer_value(json_object_get(json_object_get(subset, "shard"), "index")),
			(long long)json_integer_value(json_object_get(json_object_get(subset, "shard"), "count")));
		json_array_foreach(json_object_get(subset, "rows"), i, v) {
			fprintf(f, "%s", i ? ", " : "");
			ab_report_md(f, json_string_value(v), MD_CODE);
		}
		fprintf(f, "; it sets no design's standing: `abtool verdict --group` decides the shards "
			"together.\n\n");
		return;
	}
	fprintf(f, "**Partial run**: only the rows selected by");
	json_array_foreach(json_object_get(subset, "rows"), i, v) {
		fprintf(f, "%s --row ", i ? "," : "");
		ab_report_md(f, json_string_value(v), MD_CODE);
	}
	fprintf(f, " were measured; it sets no design's standing.");
	json_array_foreach(json_object_get(subset, "added"), i, v) {
		fprintf(f, "%s", i ? ", " : " Added for the scaling predicates (the base row): ");
		ab_report_md(f, json_string_value(v), MD_CODE);
	}
	if (json_array_size(json_object_get(subset, "added")))
		fputc('.', f);
	json_array_foreach(json_object_get(subset, "not_evaluated"), i, v) {
		fprintf(f, "%s", i ? ", " : " Not evaluated (every row outside the subset): ");
		ab_report_md(f, json_string_value(v), MD_CODE);
	}
	fprintf(f, "%s\n\n", json_array_size(json_object_get(subset, "not_evaluated")) ? "." : "");
}

/* What a run of either kind ran on and how: the host (where it started),
 * the compiler, the noise controls and the noise, and the plan with its
 * seed and the samples that ran. */
static void run_lines(FILE *f, const json_t *doc)
{
	if (json_is_object(json_object_get(doc, "host"))) {
		char *host = ab_env_summary(json_object_get(doc, "host"));
		const char *os = ab_report_str(json_object_get(doc, "host"), "os");
		const json_t *resumed = json_object_get(doc, "resumed");
		fprintf(f, "Host: ");
		ab_report_md(f, host, MD_TEXT);
		if (*os) {
			fputs(", ", f);
			ab_report_md(f, os, MD_TEXT);
		}
		if (json_is_string(json_object_get(resumed, "host_change"))) {
			fprintf(f, " (where the run started; it was resumed on ");
			ab_report_md(f, ab_report_str(resumed, "resumed_on"), MD_TEXT);
			fputc(')', f);
		}
		fprintf(f, ".\n");
		free(host);
	}
	if (json_is_string(json_object_get(doc, "compiler_identity"))) {
		/* the first line of each identity command's output */
		const char *id = ab_report_str(doc, "compiler_identity"), *nl = strchr(id, '\n');
		const char *line = nl ? nl + 1 : id;
		fprintf(f, "Compiler: ");
		ab_report_md_short(f, line, strcspn(line, "\n"), MD_TEXT);
		fprintf(f, ".\n");
	}
	{
		char *controls = ab_report_controls_line(doc), *noise = ab_report_noise_line(doc);
		if (controls) {
			fprintf(f, "Noise controls: ");
			ab_report_md(f, controls, MD_TEXT);
			fprintf(f, ".\n");
		}
		if (noise) {
			fprintf(f, "Noise: ");
			ab_report_md(f, noise, MD_TEXT);
			fprintf(f, ".\n");
		}
		free(controls);
		free(noise);
	}
	{
		char *plan_line = ab_report_plan_line(doc);
		fprintf(f, "Plan: %s.\n\n", plan_line);
		free(plan_line);
	}
}

/* The two commands of a comparison (`sides:`, abtool compare), in the
 * place of the commits and builds. */
void ab_report_md_sides_provenance(FILE *f, const json_t *doc)
{
	const json_t *sides = json_object_get(doc, "sides");
	const json_t *a = json_array_get(sides, 0), *b = json_array_get(sides, 1);

	fprintf(f, "## Provenance\n| item | a: ");
	ab_report_md(f, ab_report_str(a, "name"), MD_TEXT | MD_CELL);
	fprintf(f, " | b: ");
	ab_report_md(f, ab_report_str(b, "name"), MD_TEXT | MD_CELL);
	fprintf(f, " |\n| --- | --- | --- |\n| command | ");
	ab_report_md(f, ab_report_str(a, "command"), MD_CODE | MD_CELL);
	fprintf(f, " | ");
	ab_report_md(f, ab_report_str(b, "command"), MD_CODE | MD_CELL);
	fprintf(f, " |\n");
	input_rows(f, json_object_get(doc, "inputs"));
	fputc('\n', f);
	ab_report_md_subset_note(f, json_object_get(doc, "subset"));
	run_lines(f, doc);
}

void ab_report_md_provenance(FILE *f, const json_t *doc)
{
	const json_t *par = json_object_get(doc, "parent"), *cand = json_object_get(doc, "candidate");
	const json_t *bp = ab_report_build_of(doc, "parent");
	const json_t *bc = ab_report_build_of(doc, "candidate");
	const char *path;
	json_t *hash;

	fprintf(f, "## Provenance\n| item | parent | candidate |\n| --- | --- | --- |\n");
	fprintf(f, "| commit | ");
	ab_report_md_short(f, ab_report_str(par, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " %s | ",
		json_is_true(json_object_get(doc, "exact_parent")) ? "(exact parent)" : "(**not** the exact parent)");
	ab_report_md_short(f, ab_report_str(cand, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " |\n| subject | ");
	ab_report_md(f, ab_report_str(par, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	ab_report_md(f, ab_report_str(cand, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " |\n| tree | ");
	ab_report_md_short(f, ab_report_str(par, "tree"), 10, MD_CODE | MD_CELL);
	fprintf(f, " | ");
	ab_report_md_short(f, ab_report_str(cand, "tree"), 10, MD_CODE | MD_CELL);
	fprintf(f, " |\n| build | ");
	ab_report_build_cell(f, bp, &cell_markup);
	fprintf(f, " | ");
	ab_report_build_cell(f, bc, &cell_markup);
	fprintf(f, " |\n");
	if (bp) {
		json_object_foreach(json_object_get(bp, "artifacts"), path, hash) {
			const char *mine = json_string_value(hash);
			const char *other = ab_report_str(json_object_get(bc, "artifacts"), path);
			fprintf(f, "| artifact ");
			ab_report_md(f, path, MD_CODE | MD_CELL);
			fprintf(f, " SHA-256 | ");
			ab_report_md_short(f, mine, 12, MD_CODE | MD_CELL);
			fprintf(f, "… | ");
			ab_report_md_short(f, other, 12, MD_CODE | MD_CELL);
			fprintf(f, "…%s |\n", mine && !strcmp(mine, other) &&
						 strcmp(ab_report_str(doc, "kind"), "calibrate") ? " ⚠ identical" : "");
		}
	}
	overlay_rows(f, json_object_get(doc, "overlay"));
	dependency_rows(f, json_object_get(doc, "dependencies"));
	input_rows(f, json_object_get(doc, "inputs"));
	fprintf(f, "| benchmark | ");
	ab_report_md(f, ab_report_str(doc, "benchmark"), MD_CODE | MD_CELL);
	fprintf(f, " | same |\n\n");
	ab_report_md_subset_note(f, json_object_get(doc, "subset"));
	if (json_is_object(json_object_get(doc, "overlay")) &&
	    strcmp(ab_report_str(json_object_get(doc, "overlay"), "from"), "parent")) {
		fprintf(f, "The parent ran with an overlay: the paths above were taken from ");
		ab_report_md(f, ab_report_str(json_object_get(doc, "overlay"), "from"), MD_CODE);
		fprintf(f, " into both trees, so both sides ran the same harness.\n");
	}
	run_lines(f, doc);
}

/* The summary's inputs beyond the two commits, one short line each: the
 * overlay (both sides ran these paths) and the dependencies. */
void ab_report_md_summary_inputs(FILE *f, const json_t *doc)
{
	const json_t *overlay = json_object_get(doc, "overlay"), *deps = json_object_get(doc, "dependencies");
	const json_t *p, *d;
	size_t i;

	if (json_is_object(overlay)) {
		fputs("Overlay: ", f);
		json_array_foreach(json_object_get(overlay, "paths"), i, p) {
			fputs(i ? ", " : "", f);
			ab_report_md(f, ab_report_str(p, "path"), MD_CODE);
		}
		fputs(" from the ", f);
		ab_report_md(f, ab_report_str(overlay, "from"), MD_TEXT);
		fputc(' ', f);
		ab_report_md_short(f, ab_report_str(overlay, "source"), 10, MD_CODE);
		fputs(", on both sides.\n", f);
	}
	if (json_array_size(deps)) {
		fputs("Dependencies: ", f);
		json_array_foreach((json_t *)deps, i, d) {
			const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
			fputs(i ? "; " : "", f);
			ab_report_md(f, ab_report_str(d, "name"), MD_CODE);
			fputc(' ', f);
			ab_report_md_short(f, ab_report_str(par, "oid"), 10, MD_CODE);
			if (!strcmp(ab_report_str(par, "oid"), ab_report_str(cand, "oid"))) {
				fputs(" on both sides", f);
				continue;
			}
			fputs(" → ", f);
			ab_report_md_short(f, ab_report_str(cand, "oid"), 10, MD_CODE);
			if (json_is_true(json_object_get(d, "exact_parent")))
				fputs(" (exact parent)", f);
		}
		fputs(".\n", f);
	}
	if (json_is_object(overlay) || json_array_size(deps))
		fputc('\n', f);
}

