/* report_md.c - the Markdown report, rendered from the JSON document
 * (see report.h); the shape follows what performance engineers publish
 * by hand (../shared/report-example.md). */
#include "calibrate.h"
#include "report.h"
#include "report_common.h"
#include "env.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Every string of the report document (what users, benchmarks, git and
 * input files wrote, and what the store holds) reaches the Markdown
 * through md_write(), which renders it as the text it is, inline, on the
 * line abtool's own text started:
 *
 * - line breaks and the other control characters become spaces (C0,
 *   DEL, and the C1 controls U+0080-U+009F as UTF-8, C2 80 to C2 9F: CSI
 *   C2 9B acts like ESC [ on a UTF-8 terminal), so a string can neither
 *   end its line nor start a block: no heading, list item, quote, fence,
 *   table row or forged "**Verdict" line, and no escape sequence;
 * - as text (MD_TEXT), '<', '>' and '&' become &lt; &gt; &amp;, so no HTML
 *   tag, comment, entity or autolink is formed (GitHub shows them as the
 *   characters), and a backslash before punctuation or at the end is
 *   doubled, so it escapes neither the string's next character nor
 *   abtool's text after it; '*', '~' and '`', '_' unless it stands
 *   between two letters or digits (where it cannot emphasize), and ']'
 *   before '(', '[' or at the end get a backslash, so a string cannot
 *   make text bold, struck through or code, or link or embed an image:
 *   it shows as the characters it is (a bare URL still becomes a link);
 * - as code (MD_CODE), the string goes between fences one backtick longer
 *   than its longest run of backticks (CommonMark 6.1), with a space
 *   inside each fence when it starts or ends with a backtick or a space,
 *   so nothing in it ends the span early, and inside a span nothing is
 *   markup; MD_BLOCK does the same as a fenced code block (at least
 *   three backticks);
 * - in a table cell (MD_CELL), '|' is written '\|', which GitHub's table
 *   parser (cmark-gfm) takes as a pipe of the cell before it parses the
 *   inlines, in code spans too, so a string cannot end its cell.
 *
 * See docs/security.md, "Reports".
 */
enum { MD_TEXT = 0, MD_CELL = 1, MD_CODE = 2, MD_BLOCK = 4 };

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
static void md(FILE *f, const char *s, unsigned how)
{
	md_write(f, s, s ? strlen(s) : 0, how);
}

/* At most the first `n` bytes: an object id's short form. */
static void md_short(FILE *f, const char *s, size_t n, unsigned how)
{
	md_write(f, s, s ? strnlen(s, n) : 0, how);
}

/* The markup build cells use (report_common.h): code and text in a cell. */
static void code_cell(FILE *f, const char *s)
{
	md(f, s, MD_CODE | MD_CELL);
}

static void text_cell(FILE *f, const char *s)
{
	md(f, s, MD_TEXT | MD_CELL);
}

static const struct ab_report_markup cell_markup = {code_cell, text_cell, "**", "**"};

/* One rule of the verdict: a line of its own for a rule of one row; for a
 * rule over several rows, how many rows have its outcome and then one
 * sub-item per row, so that each row's reason can be read. */
static void rule_item(FILE *f, const json_t *rule)
{
	const json_t *rows = json_object_get(rule, "rows"), *row;
	const char *o = ab_report_str(rule, "outcome");
	size_t i, n = json_array_size(rows), same = 0;

	fprintf(f, "- %s ", ab_report_outcome_mark(o));
	md(f, ab_report_str(rule, "name"), MD_TEXT);
	fputs(" — ", f);
	if (n <= 1) {
		md(f, ab_report_str(rule, "detail"), MD_TEXT);
		fputc('\n', f);
		return;
	}
	json_array_foreach(rows, i, row)
		same += !strcmp(ab_report_str(row, "outcome"), o);
	md(f, o, MD_TEXT);
	if (same == n && n == 2)
		fprintf(f, " in both rows:\n");
	else if (same == n)
		fprintf(f, " in all %zu rows:\n", n);
	else
		fprintf(f, " in %zu of %zu rows:\n", same, n);
	json_array_foreach(rows, i, row) {
		fprintf(f, "  - %s ", ab_report_outcome_mark(ab_report_str(row, "outcome")));
		md(f, ab_report_str(row, "detail"), MD_TEXT);
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
	md(f, ab_report_str(group, "id"), MD_CODE);
	fprintf(f, ", %lld shards:", ab_report_int(group, "count"));
	json_array_foreach(json_object_get(group, "shards"), i, sh) {
		json_t *row;
		size_t j;

		fprintf(f, "%s shard %lld run %lld on ", i ? ";" : "", ab_report_int(sh, "index"),
			ab_report_int(sh, "run_id"));
		md(f, ab_report_str(sh, "hostname"), MD_CODE);
		json_array_foreach(json_object_get(sh, "rows"), j, row) {
			fputs(j ? ", " : " (", f);
			md(f, json_string_value(row), MD_TEXT);
		}
		fputs(json_array_size(json_object_get(sh, "rows")) ? ")" : "", f);
	}
}

/* "- ✗ reason" */
static void reason_items(FILE *f, const json_t *reasons)
{
	size_t i;
	json_t *r;

	json_array_foreach(reasons, i, r) {
		fputs("- ✗ ", f);
		md(f, json_string_value(r), MD_TEXT);
		fputc('\n', f);
	}
}

static void header(FILE *f, const json_t *doc)
{
	struct ab_report_verdict v;
	size_t i;
	json_t *r;

	ab_report_verdict_init(&v, doc);
	fputs("# ", f);
	md(f, ab_report_str(doc, "experiment"), MD_TEXT);
	fputs(" — ", f);
	md(f, v.verdict, MD_TEXT);
	fputs("\n\n", f);
	if (json_is_true(json_object_get(doc, "unpaired"))) {
		fputs("hyperfine's runs from ", f);
		md(f, ab_report_str(doc, "input"), MD_CODE);
		fputs(" (blocks, not pairs)", f);
	} else if (!strcmp(ab_report_str(doc, "kind"), "analyze")) {
		fputs("Pairs from ", f);
		md(f, ab_report_str(doc, "input"), MD_CODE);
	} else if (json_is_object(json_object_get(doc, "group"))) {
		fputs("Design ", f);
		md(f, ab_report_str(doc, "design"), MD_CODE);
		group_line(f, json_object_get(doc, "group"));
	} else {
		fputs("Design ", f);
		md(f, ab_report_str(doc, "design"), MD_CODE);
		fprintf(f, " · run %lld", ab_report_int(doc, "run_id"));
	}
	fputs(" · ", f);
	md(f, ab_report_str(doc, "created_at"), MD_TEXT);
	fputs(" · abtool ", f);
	md(f, ab_report_str(doc, "abtool_version"), MD_TEXT);
	fputs("\n\n", f);
	if (json_is_string(json_object_get(doc, "hypothesis"))) {
		fputs("> Hypothesis: ", f);
		md(f, ab_report_str(doc, "hypothesis"), MD_TEXT);
		fputs("\n\n", f);
	}

	if (!strcmp(ab_report_str(doc, "kind"), "calibrate")) {
		fprintf(f, "**A/A calibration%s.** Both sides are the parent ", strcmp(v.verdict, "invalid") ? "" : ": invalid");
		md_short(f, ab_report_str(json_object_get(doc, "parent"), "oid"), 10, MD_CODE);
		fputs(", built twice into separate trees, so every \"faster\" or \"slower\" outcome below is false.\n\n", f);
		reason_items(f, v.reasons);
		return;
	}
	fputs("**Verdict: ", f);
	md(f, v.verdict, MD_TEXT);
	fputs(".**", f);
	if (ab_report_artifacts_identical(doc))
		fputs(" ⚠ Identical artifacts: every declared artifact is byte-identical on both sides.", f);
	if (!strcmp(v.verdict, "invalid")) {
		fprintf(f, " No speed claim is made from a wrong or broken side:\n");
		reason_items(f, v.reasons);
		fputc('\n', f);
		if (!v.nrules)
			return;
		fprintf(f, "Rules, for information:\n");
	} else if (v.nrules == 0) {
		fputc(' ', f);
		md(f, json_string_value(json_array_get(v.reasons, 0)), MD_TEXT);
		fputc('\n', f);
	} else {
		fprintf(f, " %s\n", v.rules_line);
	}
	json_array_foreach(v.rules, i, r)
		rule_item(f, r);
	/* Reasons that are not the rules': the host's conditions. */
	json_array_foreach(v.reasons, i, r) {
		const char *t = json_string_value(r);
		if (!t)
			continue;
		if (!strncmp(t, "environment.require: ", 21)) {
			fputs("- ⚠ host condition not met (environment.require): ", f);
			md(f, t + 21, MD_TEXT);
			fputc('\n', f);
		} else if (!strncmp(t, "without that, ", 14)) {
			fputs("- ⚠ so the verdict is inconclusive; ", f);
			md(f, t, MD_TEXT);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

static void overlay_cell(FILE *f, const json_t *overlay)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(overlay, "paths"), i, p) {
		fputs(i ? ", " : "", f);
		md(f, ab_report_str(p, "path"), MD_CODE | MD_CELL);
		fputs(" (", f);
		md(f, ab_report_str(p, "type"), MD_TEXT | MD_CELL);
		fputc(' ', f);
		md_short(f, ab_report_str(p, "oid"), 10, MD_CODE | MD_CELL);
		fputs("…)", f);
	}
	fputs(" from ", f);
	md(f, ab_report_str(overlay, "from"), MD_TEXT | MD_CELL);
	fputc(' ', f);
	md_short(f, ab_report_str(overlay, "source"), 10, MD_CODE | MD_CELL);
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
	md_short(f, ab_report_str(side, "oid"), 10, MD_CODE | MD_CELL);
	if (*ab_report_str(side, "subject")) {
		fputc(' ', f);
		md(f, ab_report_str(side, "subject"), MD_TEXT | MD_CELL);
	}
}

static void dependency_rows(FILE *f, const json_t *deps)
{
	size_t i;
	json_t *d;

	json_array_foreach((json_t *)deps, i, d) {
		const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
		fprintf(f, "| dependency ");
		md(f, ab_report_str(d, "name"), MD_CODE | MD_CELL);
		fprintf(f, " (");
		md(f, ab_report_str(d, "path"), MD_CODE | MD_CELL);
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
		md(f, ab_report_str(p, "path"), MD_CODE | MD_CELL);
		fprintf(f, " (%s, %lld bytes) SHA-256 | ", ab_report_str(p, "type"),
			(long long)json_integer_value(json_object_get(p, "bytes")));
		md_short(f, ab_report_str(p, "sha256"), 12, MD_CODE | MD_CELL);
		fprintf(f, "… | same |\n");
	}
}

/* A partial run (--row): what was measured, added, and not evaluated. */
static void subset_note(FILE *f, const json_t *subset)
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
			md(f, json_string_value(v), MD_CODE);
		}
		fprintf(f, "; it sets no design's standing: `abtool verdict --group` decides the shards "
			"together.\n\n");
		return;
	}
	fprintf(f, "**Partial run**: only the rows selected by");
	json_array_foreach(json_object_get(subset, "rows"), i, v) {
		fprintf(f, "%s --row ", i ? "," : "");
		md(f, json_string_value(v), MD_CODE);
	}
	fprintf(f, " were measured; it sets no design's standing.");
	json_array_foreach(json_object_get(subset, "added"), i, v) {
		fprintf(f, "%s", i ? ", " : " Added for the scaling predicates (the base row): ");
		md(f, json_string_value(v), MD_CODE);
	}
	if (json_array_size(json_object_get(subset, "added")))
		fputc('.', f);
	json_array_foreach(json_object_get(subset, "not_evaluated"), i, v) {
		fprintf(f, "%s", i ? ", " : " Not evaluated (every row outside the subset): ");
		md(f, json_string_value(v), MD_CODE);
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
		md(f, host, MD_TEXT);
		if (*os) {
			fputs(", ", f);
			md(f, os, MD_TEXT);
		}
		if (json_is_string(json_object_get(resumed, "host_change"))) {
			fprintf(f, " (where the run started; it was resumed on ");
			md(f, ab_report_str(resumed, "resumed_on"), MD_TEXT);
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
		md_write(f, line, strcspn(line, "\n"), MD_TEXT);
		fprintf(f, ".\n");
	}
	{
		char *controls = ab_report_controls_line(doc), *noise = ab_report_noise_line(doc);
		if (controls) {
			fprintf(f, "Noise controls: ");
			md(f, controls, MD_TEXT);
			fprintf(f, ".\n");
		}
		if (noise) {
			fprintf(f, "Noise: ");
			md(f, noise, MD_TEXT);
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
static void sides_provenance(FILE *f, const json_t *doc)
{
	const json_t *sides = json_object_get(doc, "sides");
	const json_t *a = json_array_get(sides, 0), *b = json_array_get(sides, 1);

	fprintf(f, "## Provenance\n| item | a: ");
	md(f, ab_report_str(a, "name"), MD_TEXT | MD_CELL);
	fprintf(f, " | b: ");
	md(f, ab_report_str(b, "name"), MD_TEXT | MD_CELL);
	fprintf(f, " |\n| --- | --- | --- |\n| command | ");
	md(f, ab_report_str(a, "command"), MD_CODE | MD_CELL);
	fprintf(f, " | ");
	md(f, ab_report_str(b, "command"), MD_CODE | MD_CELL);
	fprintf(f, " |\n");
	input_rows(f, json_object_get(doc, "inputs"));
	fputc('\n', f);
	subset_note(f, json_object_get(doc, "subset"));
	run_lines(f, doc);
}

static void provenance(FILE *f, const json_t *doc)
{
	const json_t *par = json_object_get(doc, "parent"), *cand = json_object_get(doc, "candidate");
	const json_t *bp = ab_report_build_of(doc, "parent");
	const json_t *bc = ab_report_build_of(doc, "candidate");
	const char *path;
	json_t *hash;

	fprintf(f, "## Provenance\n| item | parent | candidate |\n| --- | --- | --- |\n");
	fprintf(f, "| commit | ");
	md_short(f, ab_report_str(par, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " %s | ",
		json_is_true(json_object_get(doc, "exact_parent")) ? "(exact parent)" : "(**not** the exact parent)");
	md_short(f, ab_report_str(cand, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " |\n| subject | ");
	md(f, ab_report_str(par, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	md(f, ab_report_str(cand, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " |\n| tree | ");
	md_short(f, ab_report_str(par, "tree"), 10, MD_CODE | MD_CELL);
	fprintf(f, " | ");
	md_short(f, ab_report_str(cand, "tree"), 10, MD_CODE | MD_CELL);
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
			md(f, path, MD_CODE | MD_CELL);
			fprintf(f, " SHA-256 | ");
			md_short(f, mine, 12, MD_CODE | MD_CELL);
			fprintf(f, "… | ");
			md_short(f, other, 12, MD_CODE | MD_CELL);
			fprintf(f, "…%s |\n", mine && !strcmp(mine, other) &&
						 strcmp(ab_report_str(doc, "kind"), "calibrate") ? " ⚠ identical" : "");
		}
	}
	overlay_rows(f, json_object_get(doc, "overlay"));
	dependency_rows(f, json_object_get(doc, "dependencies"));
	input_rows(f, json_object_get(doc, "inputs"));
	fprintf(f, "| benchmark | ");
	md(f, ab_report_str(doc, "benchmark"), MD_CODE | MD_CELL);
	fprintf(f, " | same |\n\n");
	subset_note(f, json_object_get(doc, "subset"));
	if (json_is_object(json_object_get(doc, "overlay")) &&
	    strcmp(ab_report_str(json_object_get(doc, "overlay"), "from"), "parent")) {
		fprintf(f, "The parent ran with an overlay: the paths above were taken from ");
		md(f, ab_report_str(json_object_get(doc, "overlay"), "from"), MD_CODE);
		fprintf(f, " into both trees, so both sides ran the same harness.\n");
	}
	run_lines(f, doc);
}

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

	md(f, ab_report_format_value(buf, sizeof(buf), value, unit), MD_TEXT | MD_CELL);
}

/* The checksum cell of a row: the common value, the change its policy
 * allowed (parent → candidate), a mismatch, or "not checked". */
static void checksum_cell(FILE *f, const json_t *row)
{
	const char *was, *now;

	if (json_is_true(json_object_get(row, "checksum_match"))) {
		md(f, ab_report_str(row, "checksum"), MD_CODE | MD_CELL);
		fputs(" ✓", f);
	} else if (ab_report_checksum_changed(row, &was, &now)) {
		md(f, was, MD_CODE | MD_CELL);
		fputs(" → ", f);
		md(f, now, MD_CODE | MD_CELL);
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
	md(f, ab_report_str(doc, "metric"), MD_TEXT);
	fprintf(f, ", ");
	md(f, ab_report_str(first, "better"), MD_TEXT);
	fprintf(f, " is better)\n");
	json_object_foreach((json_t *)matrix, pname, vals) {
		fprintf(f, "| ");
		md(f, pname, MD_TEXT | MD_CELL);
		fputc(' ', f);
	}
	/* a comparison's columns carry its sides' names */
	fprintf(f, "| ");
	md(f, ab_report_side_label(doc, 0), MD_TEXT | MD_CELL);
	fprintf(f, " median | RSD |%s ", scaling ? " scaling |" : "");
	md(f, ab_report_side_label(doc, 1), MD_TEXT | MD_CELL);
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
			md(f, json_string_value(v), MD_TEXT | MD_CELL);
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
		md(f, ab_report_str(row, "host"), MD_CODE | MD_CELL);
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
		md(f, ab_report_str(sc, "parameter"), MD_CODE);
		fprintf(f, ", %s.\n",
			per_lane ? "fixed work per lane (S_N = (N/N0)·T_N0/T_N)" : "fixed total work (S_N = T_N0/T_N)");
	}
	if (note)
		fprintf(f, "%s\n", note);
	/* both name rows by their labels, which hold the matrix values */
	if (scaling_change) {
		md(f, scaling_change, MD_TEXT);
		fputc('\n', f);
	}
	if (order) {
		md(f, order, MD_TEXT);
		fputc('\n', f);
	}
	if (warn_rsd)
		fprintf(f, "⚠ RSD above 5%%.\n");
	free(note);
	free(scaling_change);
	free(order);
}

static void rows_table(FILE *f, const json_t *doc)
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
	md(f, ab_report_side_label(doc, 0), MD_TEXT | MD_CELL);
	fprintf(f, " median | ");
	md(f, ab_report_side_label(doc, 1), MD_TEXT | MD_CELL);
	fprintf(f, " median | ratio B/A [%s] | pair wins |\n| --- | --- | ---: | ---: | ---: | ---: |\n",
		ab_report_ci_label(doc));
}

static void metric_everywhere(FILE *f, const char *name, const char *reason)
{
	fprintf(f, "| every row | ");
	md(f, name, MD_TEXT | MD_CELL);
	fprintf(f, " | unavailable: ");
	md(f, reason, MD_TEXT | MD_CELL);
	fprintf(f, " | | | |\n");
}

static void metric_row(FILE *f, const json_t *row, const char *name, const json_t *m)
{
	fprintf(f, "| ");
	md(f, ab_report_str(row, "label"), MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	md(f, name, MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	if (json_is_string(json_object_get(m, "unavailable"))) {
		fprintf(f, "unavailable: ");
		md(f, ab_report_str(m, "unavailable"), MD_TEXT | MD_CELL);
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
		md(f, ab_report_str(row, "label"), MD_TEXT | MD_CELL);
		fprintf(f, " | %lld | %.2f%% | %lld | ", ab_report_int(row, "pairs"),
			100 * ab_report_num(row, "spread"), ab_report_int(row, "blocks"));
		rate_cell(f, json_object_get(row, "false_faster"));
		fprintf(f, " | ");
		rate_cell(f, json_object_get(row, "false_slower"));
		fprintf(f, " | ");
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			fprintf(f, "%s", j ? "; " : "");
			md(f, ab_report_str(need, "rule"), MD_TEXT | MD_CELL);
			fprintf(f, " (");
			md(f, ab_report_str(need, "predicate"), MD_TEXT | MD_CELL);
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
			md(f, *l, MD_TEXT);
			fputc('\n', f);
		}
		fputc('\n', f);
		ab_strv_free(lines);
	}
}

/* Plain text, for ab_report_earlier_runs. */
static void text(FILE *f, const char *s)
{
	md(f, s, MD_TEXT);
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
			md(f, json_string_value(w), MD_TEXT);
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
	fprintf(f, "## Method\n%s\n\n", ab_report_method_text(doc));
	fprintf(f, "## Reproduce\n");
	md(f, ab_report_str(doc, "reproduce"), MD_BLOCK);
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

/* The summary's inputs beyond the two commits, one short line each: the
 * overlay (both sides ran these paths) and the dependencies. */
static void summary_inputs(FILE *f, const json_t *doc)
{
	const json_t *overlay = json_object_get(doc, "overlay"), *deps = json_object_get(doc, "dependencies");
	const json_t *p, *d;
	size_t i;

	if (json_is_object(overlay)) {
		fputs("Overlay: ", f);
		json_array_foreach(json_object_get(overlay, "paths"), i, p) {
			fputs(i ? ", " : "", f);
			md(f, ab_report_str(p, "path"), MD_CODE);
		}
		fputs(" from the ", f);
		md(f, ab_report_str(overlay, "from"), MD_TEXT);
		fputc(' ', f);
		md_short(f, ab_report_str(overlay, "source"), 10, MD_CODE);
		fputs(", on both sides.\n", f);
	}
	if (json_array_size(deps)) {
		fputs("Dependencies: ", f);
		json_array_foreach((json_t *)deps, i, d) {
			const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
			fputs(i ? "; " : "", f);
			md(f, ab_report_str(d, "name"), MD_CODE);
			fputc(' ', f);
			md_short(f, ab_report_str(par, "oid"), 10, MD_CODE);
			if (!strcmp(ab_report_str(par, "oid"), ab_report_str(cand, "oid"))) {
				fputs(" on both sides", f);
				continue;
			}
			fputs(" → ", f);
			md_short(f, ab_report_str(cand, "oid"), 10, MD_CODE);
			if (json_is_true(json_object_get(d, "exact_parent")))
				fputs(" (exact parent)", f);
		}
		fputs(".\n", f);
	}
	if (json_is_object(overlay) || json_array_size(deps))
		fputc('\n', f);
}

int ab_report_markdown(FILE *f, const json_t *doc)
{
	int analyze = !strcmp(ab_report_str(doc, "kind"), "analyze");

	header(f, doc);
	if (json_is_array(json_object_get(doc, "sides")))
		sides_provenance(f, doc);
	else if (!analyze)
		provenance(f, doc);
	if (analyze && json_object_get(doc, "sequential")) {
		char *replay = ab_report_replay_line(doc);
		fprintf(f, "Plan: %s.\n\n", replay);
		free(replay);
	}
	if (json_array_size(json_object_get(doc, "rows")))
		rows_table(f, doc);
	calibration(f, doc);
	ab_report_other_metrics(f, doc, &metric_table);
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
	summary_inputs(f, doc);
	if (json_object_get(json_object_get(doc, "subset"), "shard"))  /* a shard decides nothing */
		subset_note(f, json_object_get(doc, "subset"));
	if (json_array_size(json_object_get(doc, "rows")))
		rows_table(f, doc);
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
