/* report_md_rows.c - the Markdown report's tables of rows: the
 * experiment's metric row by row, with the notes under it, and the other
 * metrics (report_md.h). */
#include "report_common.h"
#include "report_md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void ratio_cell(FILE *f, const json_t *m)
{
	double l, u;
	int have_ci = ab_report_ci_bounds(m, &l, &u) > 0;
	int significant = have_ci && (l > 1 || u < 1) && !json_is_true(json_object_get(m, "ci_empty"));

	if (!json_is_number(json_object_get(m, "ratio"))) {
		fprintf(f, "n/a");
		return;
	}
	if (json_is_true(json_object_get(m, "unpaired"))) {  /* hyperfine's blocks: no interval */
		fprintf(f, "%.3f (medians, unpaired)", ab_report_num(m, "ratio"));
		return;
	}
	fprintf(f, significant ? "**%.3f**" : "%.3f", ab_report_num(m, "ratio"));
	ab_report_ci_suffix(f, m, have_ci);
}

/* A value with its unit (the unit is the experiment's) in a table cell. */
static void value_cell(FILE *f, double value, const char *unit)
{
	char buf[96];

	ab_report_md(f, ab_report_format_value(buf, sizeof(buf), value, unit), MD_TEXT | MD_CELL);
}

/* The checksum cell of a row: the common value, the change its policy
 * allowed (parent → candidate), a mismatch, or "not checked". */
static void checksum_cell(FILE *f, const json_t *row)
{
	const char *was, *now;

	if (json_is_true(json_object_get(row, "checksum_match"))) {
		ab_report_md(f, ab_report_str(row, "checksum"), MD_CODE | MD_CELL);
		fputs(" ✓", f);
	} else if (ab_report_checksum_changed(row, &was, &now)) {
		ab_report_md(f, was, MD_CODE | MD_CELL);
		fputs(" → ", f);
		ab_report_md(f, now, MD_CODE | MD_CELL);
		fputs(" changed, allowed (may_change)", f);
	} else if (json_is_false(json_object_get(row, "checksum_match"))) {
		fputs("**mismatch** ✗", f);
	} else {
		fputs("not checked", f);
	}
}

/* The table's title, its head and its rule line: the matrix's parameters,
 * each side's median, RSD (and scaling), the ratio, pair wins, checksum
 * (and a group's host). */
static void rows_head(FILE *f, const json_t *doc)
{
	const json_t *matrix = json_object_get(json_object_get(doc, "plan"), "matrix");
	const json_t *first = json_array_get(json_object_get(doc, "rows"), 0);
	int scaling = json_is_object(json_object_get(doc, "scaling"));
	int hosts = json_is_object(json_object_get(doc, "group"));
	const char *pname;
	json_t *vals;

	fprintf(f, "## Rows (");
	ab_report_md(f, ab_report_str(doc, "metric"), MD_TEXT);
	fprintf(f, ", ");
	ab_report_md(f, ab_report_str(first, "better"), MD_TEXT);
	fprintf(f, " is better)\n");
	json_object_foreach((json_t *)matrix, pname, vals) {
		fprintf(f, "| ");
		ab_report_md(f, pname, MD_TEXT | MD_CELL);
		fputc(' ', f);
	}
	/* a comparison's columns carry its sides' names */
	fprintf(f, "| ");
	ab_report_md(f, ab_report_side_label(doc, 0), MD_TEXT | MD_CELL);
	fprintf(f, " median | RSD |%s ", scaling ? " scaling |" : "");
	ab_report_md(f, ab_report_side_label(doc, 1), MD_TEXT | MD_CELL);
	fprintf(f, " median | RSD |%s ratio B/A [%s] | pair wins | checksum |%s\n",
		scaling ? " scaling |" : "", ab_report_ci_label(doc), hosts ? " host |" : "");
	json_object_foreach((json_t *)matrix, pname, vals)
		fprintf(f, "| --- ");
	fprintf(f, "| ---: | ---: |%s ---: | ---: |%s ---: | ---: | --- |%s\n", scaling ? " ---: |" : "",
		scaling ? " ---: |" : "", hosts ? " --- |" : "");
}

/* A row's line of the table; 1 when a side's RSD is above 5%. */
static int row_line(FILE *f, const json_t *doc, const json_t *row)
{
	const json_t *matrix = json_object_get(json_object_get(doc, "plan"), "matrix");
	const char *unit = ab_report_str(json_array_get(json_object_get(doc, "rows"), 0), "unit"), *pname;
	int scaling = json_is_object(json_object_get(doc, "scaling"));
	int hosts = json_is_object(json_object_get(doc, "group"));
	const json_t *params = json_object_get(row, "params");
	const char *sides[2] = {"parent", "candidate"};
	int s, warn_rsd = 0;
	json_t *vals;

	json_object_foreach((json_t *)matrix, pname, vals) {
		json_t *v = json_object_get(params, pname);
		fprintf(f, "| ");
		if (json_is_integer(v))
			fprintf(f, "%lld ", (long long)json_integer_value(v));
		else {
			ab_report_md(f, json_string_value(v), MD_TEXT | MD_CELL);
			fputc(' ', f);
		}
	}
	for (s = 0; s < 2; s++) {
		const json_t *side = json_object_get(row, sides[s]);
		double rsd = ab_report_num(side, "rsd");
		fprintf(f, "| ");
		value_cell(f, ab_report_num(side, "median"), unit);
		fprintf(f, " | ");
		if (isnan(rsd))
			fprintf(f, "n/a ");
		else
			fprintf(f, "%.1f%%%s ", 100 * rsd, rsd > 0.05 ? " ⚠" : "");
		warn_rsd |= rsd > 0.05;
		if (scaling) {
			double sc = ab_report_num(side, "scaling");
			fprintf(f, isnan(sc) ? "| n/a " : "| %.2fx ", sc);
		}
	}
	fprintf(f, "| ");
	ratio_cell(f, row);
	if (json_is_true(json_object_get(row, "unpaired")))
		fprintf(f, " | unpaired, Mann-Whitney p %.3g | ", ab_report_num(row, "p_mann_whitney_unpaired"));
	else
		fprintf(f, " | %lld/%lld | ", ab_report_int(row, "pair_wins"), ab_report_int(row, "pairs"));
	checksum_cell(f, row);
	if (hosts) {  /* a group's verdict: the shard's host that measured the row */
		fprintf(f, " | ");
		ab_report_md(f, ab_report_str(row, "host"), MD_CODE | MD_CELL);
	}
	fprintf(f, " |\n");
	return warn_rsd;
}

/* The notes under the table: the scaling's reference, the intervals, a
 * change of scaling or an order effect, and the RSD warning (warn_rsd). */
static void rows_notes(FILE *f, const json_t *doc, int warn_rsd)
{
	const json_t *sc = json_object_get(doc, "scaling");
	char *note = ab_report_interval_note(doc);
	char *scaling_change = ab_report_scaling_change_note(doc);
	char *order = ab_report_order_effect_note(doc);

	if (json_is_object(sc)) {
		int per_lane = !strcmp(ab_report_str(sc, "work"), "per_lane");
		fprintf(f, "Scaling: against the same side's row with the smallest ");
		ab_report_md(f, ab_report_str(sc, "parameter"), MD_CODE);
		fprintf(f, ", %s.\n",
			per_lane ? "fixed work per lane (S_N = (N/N0)·T_N0/T_N)" : "fixed total work (S_N = T_N0/T_N)");
	}
	if (note)
		fprintf(f, "%s\n", note);
	/* both name rows by their labels, which hold the matrix values */
	if (scaling_change) {
		ab_report_md_text(f, doc, scaling_change);
		fputc('\n', f);
	}
	if (order) {
		ab_report_md_text(f, doc, order);
		fputc('\n', f);
	}
	if (warn_rsd)
		fprintf(f, "⚠ RSD above 5%%.\n");
	free(note);
	free(scaling_change);
	free(order);
}

void ab_report_md_rows(FILE *f, const json_t *doc)
{
	json_t *row;
	size_t i;
	int warn_rsd = 0;

	rows_head(f, doc);
	json_array_foreach(json_object_get(doc, "rows"), i, row)
		warn_rsd |= row_line(f, doc, row);
	fputc('\n', f);
	rows_notes(f, doc, warn_rsd);
	fputc('\n', f);
}

/* The other metrics' table (ab_report_other_metrics): its head, a metric
 * unavailable everywhere, a row's line. */
static void metrics_head(FILE *f, const json_t *doc)
{
	fprintf(f, "## Other metrics\n| row | metric | ");
	ab_report_md(f, ab_report_side_label(doc, 0), MD_TEXT | MD_CELL);
	fprintf(f, " median | ");
	ab_report_md(f, ab_report_side_label(doc, 1), MD_TEXT | MD_CELL);
	fprintf(f, " median | ratio B/A [%s] | pair wins |\n| --- | --- | ---: | ---: | ---: | ---: |\n",
		ab_report_ci_label(doc));
}

static void metric_everywhere(FILE *f, const char *name, const char *reason)
{
	fprintf(f, "| every row | ");
	ab_report_md(f, name, MD_TEXT | MD_CELL);
	fprintf(f, " | unavailable: ");
	ab_report_md(f, reason, MD_TEXT | MD_CELL);
	fprintf(f, " | | | |\n");
}

static void metric_row(FILE *f, const json_t *row, const char *name, const json_t *m)
{
	fprintf(f, "| ");
	ab_report_md(f, ab_report_str(row, "label"), MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	ab_report_md(f, name, MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	if (json_is_string(json_object_get(m, "unavailable"))) {
		fprintf(f, "unavailable: ");
		ab_report_md(f, ab_report_str(m, "unavailable"), MD_TEXT | MD_CELL);
		fprintf(f, " | | | |\n");
		return;
	}
	value_cell(f, ab_report_num(json_object_get(m, "parent"), "median"), ab_report_str(m, "unit"));
	fprintf(f, " | ");
	value_cell(f, ab_report_num(json_object_get(m, "candidate"), "median"), ab_report_str(m, "unit"));
	fprintf(f, " | ");
	ratio_cell(f, m);
	fprintf(f, " | %lld/%lld |\n", ab_report_int(m, "pair_wins"), ab_report_int(m, "pairs"));
}

static const struct ab_report_metric_table metric_table = {metrics_head, metric_everywhere, metric_row, "\n"};

void ab_report_md_other_metrics(FILE *f, const json_t *doc)
{
	ab_report_other_metrics(f, doc, &metric_table);
}
