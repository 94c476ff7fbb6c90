/* report_md.c - the Markdown report, rendered from the JSON document
 * (see report.h); the shape follows what performance engineers publish
 * by hand (../shared/report-example.md). Here: the writing of a string
 * (md_write; report_md.h says how), the header and verdict, calibration,
 * notes and method, and the report and the summary whole; the provenance
 * and the tables of rows are in report_md_provenance.c and report_md_rows.c. */
#include "calibrate.h"
#include "report.h"
#include "report_common.h"
#include "report_md.h"
#include "report_sides.h"
#include "report_speedup.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int ascii_punct(char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
	       (c >= '{' && c <= '~');
}

static int ascii_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Whether s[i] of a text string would be Markdown inline syntax. An '_'
 * inside a word (user_ns) cannot open or close emphasis (CommonMark 6.2),
 * nor can a ']' that no '(' or '[' follows end a link. */
static int inline_syntax(const char *s, size_t i, size_t len)
{
	char c = s[i];

	if (c == '*' || c == '~' || c == '`')
		return 1;
	if (c == '_')
		return !(i > 0 && ascii_alnum(s[i - 1]) && i + 1 < len && ascii_alnum(s[i + 1]));
	if (c == ']')
		return i + 1 == len || s[i + 1] == '(' || s[i + 1] == '[';
	return 0;
}

/* The first `len` bytes of `s` (NULL: nothing) as `how` says. */
static void md_write(FILE *f, const char *s, size_t len, unsigned how)
{
	int code = (how & (MD_CODE | MD_BLOCK)) != 0, pad = 0;
	size_t i, run = 0, longest = 0, fence = 0, k;

	if (!s)
		len = 0, s = "";
	if (code) {
		for (i = 0; i < len; i++) {
			run = s[i] == '`' ? run + 1 : 0;
			longest = run > longest ? run : longest;
		}
		fence = longest + 1;
		if ((how & MD_BLOCK) && fence < 3)
			fence = 3;
		/* a space inside each fence, stripped by the renderer, keeps a
		 * leading or trailing backtick or space; an empty span would be
		 * no span at all */
		pad = !(how & MD_BLOCK) && (!len || s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' ||
					    s[len - 1] == ' ');
		for (k = 0; k < fence; k++)
			fputc('`', f);
		fputs(how & MD_BLOCK ? "\n" : pad ? " " : "", f);
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
			 (unsigned char)s[i + 1] <= 0x9F)
			fputc(' ', f), i++;  /* a C1 control as UTF-8 */
		else if (c == '|' && (how & MD_CELL))
			fputs("\\|", f);
		else if (code)
			fputc(c, f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '\\' && (i + 1 == len || ascii_punct(s[i + 1])))
			fputs("\\\\", f);
		else if (inline_syntax(s, i, len) || (c == '[' && i >= 2 && s[i - 1] == '#' && s[i - 2] == '#'))
			fprintf(f, "\\%c", c);  /* "##\[": no legacy workflow command (cmd_guard_stdout) */
		else
			fputc(c, f);
	}
	if (code) {
		fputs(how & MD_BLOCK ? "\n" : pad ? " " : "", f);
		for (k = 0; k < fence; k++)
			fputc('`', f);
	}
}

/* A whole string (NULL: empty) as `how` says. */
void ab_report_md(FILE *f, const char *s, unsigned how)
{
	md_write(f, s, s ? strlen(s) : 0, how);
}

/* At most the first `n` bytes: an object id's short form. */
void ab_report_md_short(FILE *f, const char *s, size_t n, unsigned how)
{
	md_write(f, s, s ? strnlen(s, n) : 0, how);
}

/* The pieces of ab_report_md_text: text as text, a side's name as code
 * (as hyperfine's summary quotes its commands). */
static void plain_piece(FILE *f, const char *s, size_t len)
{
	md_write(f, s, len, MD_TEXT);
}

static void name_piece(FILE *f, const char *name)
{
	ab_report_md(f, name, MD_CODE);
}

static const struct ab_report_sides_writer text_writer = {plain_piece, name_piece};

void ab_report_md_text(FILE *f, const json_t *doc, const char *s)
{
	ab_report_sides_write(f, doc, s, &text_writer);
}

/* One rule of the verdict: a line of its own for a rule of one row; for a
 * rule over several rows, how many rows have its outcome and then one
 * sub-item per row, so that each row's reason can be read. */
static void rule_item(FILE *f, const json_t *doc, const json_t *rule)
{
	const json_t *rows = json_object_get(rule, "rows"), *row;
	const char *o = ab_report_str(rule, "outcome");
	size_t i, n = json_array_size(rows), same = 0;

	fprintf(f, "- %s ", ab_report_outcome_mark(o));
	ab_report_md(f, ab_report_str(rule, "name"), MD_TEXT);
	fputs(" — ", f);
	if (n <= 1) {
		ab_report_md_text(f, doc, ab_report_str(rule, "detail"));
		fputc('\n', f);
		return;
	}
	json_array_foreach(rows, i, row)
		same += !strcmp(ab_report_str(row, "outcome"), o);
	ab_report_md(f, o, MD_TEXT);
	if (same == n && n == 2)
		fprintf(f, " in both rows:\n");
	else if (same == n)
		fprintf(f, " in all %zu rows:\n", n);
	else
		fprintf(f, " in %zu of %zu rows:\n", same, n);
	json_array_foreach(rows, i, row) {
		fprintf(f, "  - %s ", ab_report_outcome_mark(ab_report_str(row, "outcome")));
		ab_report_md_text(f, doc, ab_report_str(row, "detail"));
		fputc('\n', f);
	}
}

/* A group's verdict (abtool verdict --group): its shards, each with its
 * run and the host that measured it. */
static void group_line(FILE *f, const json_t *group)
{
	json_t *sh;
	size_t i;

	fputs(" · group ", f);
	ab_report_md(f, ab_report_str(group, "id"), MD_CODE);
	fprintf(f, ", %lld shards:", ab_report_int(group, "count"));
	json_array_foreach(json_object_get(group, "shards"), i, sh) {
		json_t *row;
		size_t j;

		fprintf(f, "%s shard %lld run %lld on ", i ? ";" : "", ab_report_int(sh, "index"),
			ab_report_int(sh, "run_id"));
		ab_report_md(f, ab_report_str(sh, "hostname"), MD_CODE);
		json_array_foreach(json_object_get(sh, "rows"), j, row) {
			fputs(j ? ", " : " (", f);
			ab_report_md(f, json_string_value(row), MD_TEXT);
		}
		fputs(json_array_size(json_object_get(sh, "rows")) ? ")" : "", f);
	}
}

/* "- ✗ reason" */
static void reason_items(FILE *f, const json_t *doc, const json_t *reasons)
{
	size_t i;
	json_t *r;

	json_array_foreach(reasons, i, r) {
		fputs("- ✗ ", f);
		ab_report_md_text(f, doc, json_string_value(r));
		fputc('\n', f);
	}
}

static void md_code(FILE *f, const char *s)
{
	ab_report_md(f, s, MD_CODE);
}

static void md_text(FILE *f, const char *s)
{
	ab_report_md(f, s, MD_TEXT);
}

/* A comparison's summary line (report_speedup.h) in Markdown. */
static const struct ab_report_markup md_markup = {md_code, md_text, "**", "**"};

static void header(FILE *f, const json_t *doc)
{
	struct ab_report_verdict v;
	size_t i;
	json_t *r;

	ab_report_verdict_init(&v, doc);
	fputs("# ", f);
	ab_report_md(f, ab_report_str(doc, "experiment"), MD_TEXT);
	fputs(" — ", f);
	ab_report_md(f, v.verdict, MD_TEXT);
	fputs("\n\n", f);
	if (json_is_true(json_object_get(doc, "unpaired"))) {
		fputs("hyperfine's runs from ", f);
		ab_report_md(f, ab_report_str(doc, "input"), MD_CODE);
		fputs(" (blocks, not pairs)", f);
	} else if (!strcmp(ab_report_str(doc, "kind"), "analyze")) {
		fputs("Pairs from ", f);
		ab_report_md(f, ab_report_str(doc, "input"), MD_CODE);
	} else if (json_is_object(json_object_get(doc, "group"))) {
		fputs("Design ", f);
		ab_report_md(f, ab_report_str(doc, "design"), MD_CODE);
		group_line(f, json_object_get(doc, "group"));
	} else if (ab_report_sides_named(doc)) {
		/* two commands compared: no design, whatever the store files it under */
		fputs("Comparison of ", f);
		ab_report_md(f, ab_report_side_label(doc, 0), MD_CODE);
		fputs(" and ", f);
		ab_report_md(f, ab_report_side_label(doc, 1), MD_CODE);
		fprintf(f, " · run %lld", ab_report_int(doc, "run_id"));
	} else {
		fputs("Design ", f);
		ab_report_md(f, ab_report_str(doc, "design"), MD_CODE);
		fprintf(f, " · run %lld", ab_report_int(doc, "run_id"));
	}
	fputs(" · ", f);
	ab_report_md(f, ab_report_str(doc, "created_at"), MD_TEXT);
	fputs(" · abtool ", f);
	ab_report_md(f, ab_report_str(doc, "abtool_version"), MD_TEXT);
	fputs("\n\n", f);
	if (json_is_string(json_object_get(doc, "hypothesis"))) {
		fputs("> Hypothesis: ", f);
		ab_report_md(f, ab_report_str(doc, "hypothesis"), MD_TEXT);
		fputs("\n\n", f);
	}

	if (!strcmp(ab_report_str(doc, "kind"), "calibrate")) {
		fprintf(f, "**A/A calibration%s.** Both sides are the parent ", strcmp(v.verdict, "invalid") ? "" : ": invalid");
		ab_report_md_short(f, ab_report_str(json_object_get(doc, "parent"), "oid"), 10, MD_CODE);
		fputs(", built twice into separate trees, so every \"faster\" or \"slower\" outcome below is false.\n\n", f);
		reason_items(f, doc, v.reasons);
		return;
	}
	fputs("**Verdict: ", f);
	ab_report_md(f, v.verdict, MD_TEXT);
	fputs(".**", f);
	if (ab_report_artifacts_identical(doc))
		fputs(" ⚠ Identical artifacts: every declared artifact is byte-identical on both sides.", f);
	if (!strcmp(v.verdict, "invalid")) {
		fprintf(f, " No speed claim is made from a wrong or broken side:\n");
		reason_items(f, doc, v.reasons);
		fputc('\n', f);
		if (!v.nrules)
			return;
		fprintf(f, "Rules, for information:\n");
	} else if (v.nrules == 0) {
		fputc(' ', f);
		ab_report_md_text(f, doc, json_string_value(json_array_get(v.reasons, 0)));
		fputc('\n', f);
	} else {
		fprintf(f, " %s\n", v.rules_line);
	}
	json_array_foreach(v.rules, i, r)
		rule_item(f, doc, r);
	/* Reasons that are not the rules': the host's conditions. */
	json_array_foreach(v.reasons, i, r) {
		const char *t = json_string_value(r);
		if (!t)
			continue;
		if (!strncmp(t, "environment.require: ", 21)) {
			fputs("- ⚠ host condition not met (environment.require): ", f);
			ab_report_md_text(f, doc, t + 21);
			fputc('\n', f);
		} else if (!strncmp(t, "without that, ", 14)) {
			fputs("- ⚠ so the verdict is inconclusive; ", f);
			ab_report_md_text(f, doc, t);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	ab_report_speedups(f, doc, &md_markup);
}

static void rate_cell(FILE *f, const json_t *r)
{
	fprintf(f, "%lld (%.1f%% [%.1f, %.1f])", ab_report_int(r, "count"),
		100 * ab_report_num(r, "rate"), 100 * json_number_value(json_array_get(json_object_get(r, "ci"), 0)),
		100 * json_number_value(json_array_get(json_object_get(r, "ci"), 1)));
}

/* 1 when the calibration's pairs needed come from the simulation of the
 * procedure (their entries say "simulated"), 0 for older documents. */
static int simulated_needs(const json_t *cal)
{
	size_t i, j;
	json_t *row, *need;

	json_array_foreach(json_object_get(cal, "rows"), i, row)
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need)
			if (json_object_get(need, "simulated"))
				return 1;
	return 0;
}

static void calibration(FILE *f, const json_t *doc)
{
	const json_t *cal = json_object_get(doc, "calibration"), *total = json_object_get(cal, "total");
	size_t i, j;
	json_t *row, *need;
	char **lines, **l;

	if (!cal)
		return;
	fprintf(f, "## Calibration\nBlocks of %lld pairs (the experiment's planned pairs), each an A/A "
		"experiment as a run would see it; under no change a bound excludes 1 on one side in %.2f%% of "
		"blocks (the exact rate of the one-sided 95%% bounds). The rows table above pools all the pairs "
		"of a row, so its narrower intervals say how small a difference this machine can resolve with "
		"that many pairs, not what one run of the planned size sees.\n\n",
		ab_report_int(cal, "block_pairs"), 100 * ab_report_num(cal, "expected_rate"));
	fprintf(f, "| row | pairs | spread of log ratios | blocks | false faster [95%% CI] | false slower "
		"[95%% CI] | pairs needed |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
	json_array_foreach(json_object_get(cal, "rows"), i, row) {
		fprintf(f, "| ");
		ab_report_md(f, ab_report_str(row, "label"), MD_TEXT | MD_CELL);
		fprintf(f, " | %lld | %.2f%% | %lld | ", ab_report_int(row, "pairs"),
			100 * ab_report_num(row, "spread"), ab_report_int(row, "blocks"));
		rate_cell(f, json_object_get(row, "false_faster"));
		fprintf(f, " | ");
		rate_cell(f, json_object_get(row, "false_slower"));
		fprintf(f, " | ");
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			fprintf(f, "%s", j ? "; " : "");
			ab_report_md(f, ab_report_str(need, "rule"), MD_TEXT | MD_CELL);
			fprintf(f, " (");
			ab_report_md(f, ab_report_str(need, "predicate"), MD_TEXT | MD_CELL);
			fprintf(f, "): %lld", ab_report_int(need, "pairs"));
		}
		fprintf(f, " |\n");
	}
	fprintf(f, "\nAll rows: %lld blocks, false faster ", ab_report_int(total, "blocks"));
	rate_cell(f, json_object_get(total, "false_faster"));
	fprintf(f, ", false slower ");
	rate_cell(f, json_object_get(total, "false_slower"));
	if (simulated_needs(cal))
		fprintf(f, ".\nPairs needed: the fewest pairs at which a seeded simulation of the decision "
			"itself (the signed-rank critical count, the rule's margin, normal noise of the row's "
			"spread) passes at least 80%% of the time at each entry's expected ratio (the ratio "
			"1, or one margin past the threshold; docs/statistics.md, \"Calibration\").\n\n");
	else  /* a calibration stored before the simulation: the formula it used */
		fprintf(f, ".\nPairs needed: n = ⌈((z₀.₉₅ + z₀.₈₀)·σ/m)²·π/3⌉ for the margin m = |ln θ| of "
			"each rule, σ the spread of log ratios (80%% power).\n\n");
	/* calibrations stored before the sequential plans have none */
	if ((lines = ab_calibrate_sequential_lines(cal))) {
		fprintf(f, "Sequential plans of the same power (docs/statistics.md, \"Choosing min and max\"):\n");
		for (l = lines; *l; l++) {
			fputs("- ", f);
			ab_report_md(f, *l, MD_TEXT);
			fputc('\n', f);
		}
		fputc('\n', f);
		ab_strv_free(lines);
	}
}

/* Plain text, for ab_report_earlier_runs. */
static void text(FILE *f, const char *s)
{
	ab_report_md(f, s, MD_TEXT);
}

static void notes(FILE *f, const json_t *doc)
{
	const json_t *warnings = json_object_get(doc, "warnings");
	size_t i;
	json_t *w;

	if (json_array_size(warnings)) {
		fprintf(f, "## Warnings\n");
		json_array_foreach(warnings, i, w) {
			fputs("- ⚠ ", f);
			ab_report_md_text(f, doc, json_string_value(w));
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	if (json_array_size(json_object_get(doc, "earlier_runs"))) {
		fprintf(f, "## Earlier runs of this comparison\n");
		ab_report_earlier_runs(f, json_object_get(doc, "earlier_runs"), text);
		fprintf(f, "\n\n");
	}
}

static void method(FILE *f, const json_t *doc)
{
	static const struct ab_report_sides_writer method_writer = {ab_report_sides_raw, name_piece};

	fprintf(f, "## Method\n");
	ab_report_sides_write(f, doc, ab_report_method_text(doc), &method_writer);
	fprintf(f, "\n\n");
	fprintf(f, "## Reproduce\n");
	ab_report_md(f, ab_report_str(doc, "reproduce"), MD_BLOCK);
	if (json_is_object(json_object_get(doc, "group"))) {
		json_t *sh;
		size_t i;

		fprintf(f, "\nRaw samples: ");
		json_array_foreach(json_object_get(json_object_get(doc, "group"), "shards"), i, sh)
			fprintf(f, "%s`abtool report %lld --format tsv`", i ? ", " : "", ab_report_int(sh, "run_id"));
		fprintf(f, " (one per shard), or `abtool verdict --group ... --tsv F`.\n");
		return;
	}
	fprintf(f, "\nRaw samples: `abtool report %lld --format tsv`.\n", ab_report_int(doc, "run_id"));
}

int ab_report_markdown(FILE *f, const json_t *doc)
{
	int analyze = !strcmp(ab_report_str(doc, "kind"), "analyze");

	header(f, doc);
	if (json_is_array(json_object_get(doc, "sides")))
		ab_report_md_sides_provenance(f, doc);
	else if (!analyze)
		ab_report_md_provenance(f, doc);
	if (analyze && json_object_get(doc, "sequential")) {
		char *replay = ab_report_replay_line(doc);
		fprintf(f, "Plan: %s.\n\n", replay);
		free(replay);
	}
	if (json_array_size(json_object_get(doc, "rows")))
		ab_report_md_rows(f, doc);
	calibration(f, doc);
	ab_report_md_other_metrics(f, doc);
	notes(f, doc);
	if (!analyze)
		method(f, doc);
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the report: %s", strerror(errno));
	return 0;
}

int ab_report_summary(FILE *f, const json_t *doc)
{
	header(f, doc);
	ab_report_md_summary_inputs(f, doc);
	if (json_object_get(json_object_get(doc, "subset"), "shard"))  /* a shard decides nothing */
		ab_report_md_subset_note(f, json_object_get(doc, "subset"));
	if (json_array_size(json_object_get(doc, "rows")))
		ab_report_md_rows(f, doc);
	notes(f, doc);
	if (!strcmp(ab_report_str(doc, "kind"), "group"))
		fprintf(f, "Full report: `%s` where the store is kept; in CI, the report files the job "
			"uploads (`--md`, `--html`, `--json`).\n", ab_report_str(doc, "reproduce"));
	else if (strcmp(ab_report_str(doc, "kind"), "analyze"))
		fprintf(f, "Full report: `abtool report %lld` where the store is kept; in CI, the "
			"report files the job uploads (`--md`, `--html`, `--json`).\n",
			ab_report_int(doc, "run_id"));
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the summary: %s", strerror(errno));
	return 0;
}
