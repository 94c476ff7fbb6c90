/* report_md.c - the Markdown report, rendered from the JSON document
 * (see report.h); the shape follows what performance engineers publish
 * by hand (../shared/report-example.md). */
#include "report.h"
#include "env.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A value of a unit abtool does not scale itself (ops/s, count, lanes):
 * 4 significant digits below 10,000 ("1234 ops/s", "12.35 ops/s"), a
 * whole number up to a million ("123456 ops/s"), then 4 significant
 * digits with an SI multiplier ("1.235 M ops/s", "2.4 G count"). Never
 * scientific notation, which reads badly in a published report. */
static void format_plain(char *buf, size_t size, double value, const char *unit)
{
	static const char *const prefixes[] = {"k", "M", "G", "T", "P", "E"};
	const char *sep = *unit ? " " : "";
	double mag = fabs(value);
	size_t i;

	if (!isfinite(value) || mag < 1e4) {
		snprintf(buf, size, "%.4g%s%s", value, sep, unit);
		return;
	}
	if (mag < 999999.5) {
		snprintf(buf, size, "%.0f%s%s", value, sep, unit);
		return;
	}
	/* the multiplier that leaves 1 <= mantissa < 1000 after rounding to 4 digits */
	for (i = 1; i + 1 < sizeof(prefixes) / sizeof(prefixes[0]) && mag >= 999.95e3 * pow(1e3, (double)i); i++)
		;
	snprintf(buf, size, "%.4g %s%s%s", value / pow(1e3, (double)(i + 1)), prefixes[i], sep, unit);
}

const char *ab_report_format_value(char *buf, size_t size, double value, const char *unit)
{
	if (!unit)
		unit = "";
	if (isnan(value))
		snprintf(buf, size, "n/a");
	else if (!strcmp(unit, "ns"))
		ab_format_ns(buf, size, value);
	else if (!strcmp(unit, "bytes") || !strcmp(unit, "B"))
		ab_format_bytes(buf, size, value);
	else
		format_plain(buf, size, value, unit);
	return buf;
}

/* "a–b" of a range, or "a" when both print the same (new string). */
static char *range_text(const char *fmt, double lo, double hi)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	return strcmp(a, b) ? ab_xasprintf("%s–%s", a, b) : ab_xstrdup(a);
}

char *ab_report_noise_line(const json_t *doc)
{
	static const char *const keys[3] = {"occupancy_median", "nivcsw_median", "other_cpus_median"};
	static const char *const sides[2] = {"parent", "candidate"};
	double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	long long flagged = 0, samples = 0;
	char *parts[3] = {NULL, NULL, NULL}, *line, *r;
	int any = 0, k, s;
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		const json_t *q = json_object_get(row, "quality");
		if (!json_is_object(q))
			continue;
		any = 1;
		flagged += json_integer_value(json_object_get(row, "flagged_samples"));
		for (s = 0; s < 2; s++) {
			const json_t *side = json_object_get(q, sides[s]);
			samples += json_integer_value(json_object_get(side, "samples"));
			for (k = 0; k < 3; k++) {
				json_t *v = json_object_get(side, keys[k]);
				if (!json_is_number(v))
					continue;
				lo[k] = fmin(lo[k], json_number_value(v));
				hi[k] = fmax(hi[k], json_number_value(v));
			}
		}
	}
	if (!any)
		return NULL;
	if (isfinite(lo[0])) {
		r = range_text("%.0f", 100 * lo[0], 100 * hi[0]);
		parts[0] = ab_xasprintf("CPU occupancy (user+sys)/wall %s%%", r);
		free(r);
	}
	if (isfinite(lo[1])) {
		r = range_text("%.0f", lo[1], hi[1]);
		parts[1] = ab_xasprintf("%s involuntary context switches per sample", r);
		free(r);
	}
	if (isfinite(lo[2])) {
		r = range_text("%.2f", lo[2], hi[2]);
		parts[2] = ab_xasprintf("other processes %s CPUs", r);
		free(r);
	}
	line = ab_xstrdup("");
	for (k = 0; k < 3; k++) {
		if (!parts[k])
			continue;
		r = ab_xasprintf("%s%s%s", line, *line ? ", " : "", parts[k]);
		free(line);
		free(parts[k]);
		line = r;
	}
	r = ab_xasprintf("%s%s%lld of %lld samples in pairs flagged contended", line,
			 *line ? " (medians per row and side); " : "", flagged, samples);
	free(line);
	return r;
}

char *ab_report_controls_line(const json_t *doc)
{
	const json_t *c = json_object_get(doc, "noise_controls");
	const char *cpus, *per_lane;
	char *line = NULL, *next, *part;
	json_int_t pad;
	int k;

	if (!json_is_object(c))
		return NULL;
	cpus = json_string_value(json_object_get(c, "affinity"));
	per_lane = json_string_value(json_object_get(c, "affinity_per_lane"));
	pad = json_integer_value(json_object_get(c, "env_padding_bytes"));
	for (k = 0; k < 3; k++) {
		part = NULL;
		if (k == 0 && cpus && per_lane)
			part = ab_xasprintf("CPU affinity %s, the first N CPUs for %s=N", cpus, per_lane);
		else if (k == 0 && cpus)
			part = ab_xasprintf("CPU affinity %s", cpus);
		else if (k == 1 && json_is_false(json_object_get(c, "aslr")))
			part = ab_xstrdup("ASLR off");
		else if (k == 2 && pad > 0)
			part = ab_xasprintf("environment padding 0–%lld bytes per pair", (long long)pad);
		if (!part)
			continue;
		next = ab_xasprintf("%s%s%s", line ? line : "", line ? ", " : "", part);
		free(line);
		free(part);
		line = next;
	}
	return line ? line : ab_xstrdup("none");
}

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

const char *ab_report_unavailable_everywhere(const json_t *doc, const char *metric)
{
	const json_t *rows = json_object_get(doc, "rows");
	const char *why = NULL;
	size_t i;
	json_t *row;

	if (json_array_size(rows) < 2)
		return NULL;
	json_array_foreach(rows, i, row) {
		const char *w = json_string_value(json_object_get(json_object_get(json_object_get(row, "metrics"),
										    metric), "unavailable"));
		if (!w || (why && strcmp(w, why)))
			return NULL;
		why = w;
	}
	return why;
}

char *ab_report_order_effect_note(const json_t *doc)
{
	const char *worst = NULL;
	double largest = -1;
	size_t i, rows = 0, material = 0;
	json_t *row;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		const json_t *o = json_object_get(row, "order_effect");
		double r = num(o, "second_position_ratio"), change;

		if (isnan(r) || r <= 0)
			continue;
		rows++;
		material += json_is_true(json_object_get(o, "material"));
		change = exp(fabs(log(r))) - 1;
		if (change > largest) {
			largest = change;
			worst = str(row, "label");
		}
	}
	if (!rows)
		return NULL;
	if (!material)
		return ab_xasprintf("Order effect (AB against BA pairs): running second changes a ratio by at "
				    "most %.2f%% (%s); material (at least 0.5%% with p below 0.05 after Holm's "
				    "adjustment over the rows) in no row.",
				    100 * largest, worst);
	return ab_xasprintf("Order effect (AB against BA pairs): material (at least 0.5%% with p below 0.05 "
			    "after Holm's adjustment over the rows) in "
			    "%zu of %zu rows, up to %.2f%% (%s); the balanced order cancels it in the ratio, "
			    "and the warnings give those rows' crossover estimates.", material, rows,
			    100 * largest, worst);
}

char *ab_report_scaling_change_note(const json_t *doc)
{
	char *list = NULL, *line;
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		const json_t *sc = json_object_get(row, "scaling_change"), *ci = json_object_get(sc, "ci");
		char *prev = list;

		if (isnan(num(sc, "ratio")))
			continue;
		list = ab_xasprintf("%s%s%s %.3f [%.3f, %.3f]", prev ? prev : "", prev ? "; " : "", str(row, "label"),
				    num(sc, "ratio"), json_number_value(json_array_get(ci, 0)),
				    json_number_value(json_array_get(ci, 1)));
		free(prev);
	}
	if (!list)
		return NULL;
	line = ab_xasprintf("Scaling change B/A (the candidate's scaling against the parent's, from the same "
			    "sweeps; above 1 the candidate scales better): %s.", list);
	free(list);
	return line;
}
/*
 * Every string of the report document (what users, benchmarks, git and
 * input files wrote, and what the store holds) reaches the Markdown
 * through md_write(), which renders it as the text it is, inline, on the
 * line abtool's own text started:
 *
 * - line breaks and the other control characters become spaces, so a
 *   string can neither end its line nor start a block: no heading, list
 *   item, quote, fence, table row or forged "**Verdict" line;
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
		else if (inline_syntax(s, i, len))
			fprintf(f, "\\%c", c);
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

static const char *mark(const char *outcome)
{
	return !strcmp(outcome, "pass") ? "✓" : !strcmp(outcome, "fail") ? "✗" : "?";
}

/* One rule of the verdict: a line of its own for a rule of one row; for a
 * rule over several rows, how many rows have its outcome and then one
 * sub-item per row, so that each row's reason can be read. */
static void rule_item(FILE *f, const json_t *rule)
{
	const json_t *rows = json_object_get(rule, "rows"), *row;
	const char *o = str(rule, "outcome");
	size_t i, n = json_array_size(rows), same = 0;

	fprintf(f, "- %s ", mark(o));
	md(f, str(rule, "name"), MD_TEXT);
	fputs(" — ", f);
	if (n <= 1) {
		md(f, str(rule, "detail"), MD_TEXT);
		fputc('\n', f);
		return;
	}
	json_array_foreach(rows, i, row)
		same += !strcmp(str(row, "outcome"), o);
	md(f, o, MD_TEXT);
	if (same == n && n == 2)
		fprintf(f, " in both rows:\n");
	else if (same == n)
		fprintf(f, " in all %zu rows:\n", n);
	else
		fprintf(f, " in %zu of %zu rows:\n", same, n);
	json_array_foreach(rows, i, row) {
		fprintf(f, "  - %s ", mark(str(row, "outcome")));
		md(f, str(row, "detail"), MD_TEXT);
		fputc('\n', f);
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
	const json_t *rules = json_object_get(doc, "rules"), *reasons = json_object_get(doc, "reasons");
	const char *verdict = str(doc, "verdict");
	size_t i, nfail = 0, ninc = 0, n = json_array_size(rules);
	json_t *r;

	fputs("# ", f);
	md(f, str(doc, "experiment"), MD_TEXT);
	fputs(" — ", f);
	md(f, verdict, MD_TEXT);
	fputs("\n\n", f);
	if (!strcmp(str(doc, "kind"), "analyze")) {
		fputs("Pairs from ", f);
		md(f, str(doc, "input"), MD_CODE);
	} else {
		fputs("Design ", f);
		md(f, str(doc, "design"), MD_CODE);
		fprintf(f, " · run %lld", (long long)json_integer_value(json_object_get(doc, "run_id")));
	}
	fputs(" · ", f);
	md(f, str(doc, "created_at"), MD_TEXT);
	fputs(" · abtool ", f);
	md(f, str(doc, "abtool_version"), MD_TEXT);
	fputs("\n\n", f);
	if (json_is_string(json_object_get(doc, "hypothesis"))) {
		fputs("> Hypothesis: ", f);
		md(f, str(doc, "hypothesis"), MD_TEXT);
		fputs("\n\n", f);
	}

	if (!strcmp(str(doc, "kind"), "calibrate")) {
		fprintf(f, "**A/A calibration%s.** Both sides are the parent ", strcmp(verdict, "invalid") ? "" : ": invalid");
		md_short(f, str(json_object_get(doc, "parent"), "oid"), 10, MD_CODE);
		fputs(", built twice into separate trees, so every \"faster\" or \"slower\" outcome below is false.\n\n", f);
		reason_items(f, reasons);
		return;
	}
	json_array_foreach(rules, i, r) {
		nfail += !strcmp(str(r, "outcome"), "fail");
		ninc += !strcmp(str(r, "outcome"), "inconclusive");
	}
	fputs("**Verdict: ", f);
	md(f, verdict, MD_TEXT);
	fputs(".**", f);
	if (!strcmp(verdict, "invalid")) {
		fprintf(f, " No speed claim is made from a wrong or broken side:\n");
		reason_items(f, reasons);
		fputc('\n', f);
		if (!n)
			return;
		fprintf(f, "Rules, for information:\n");
	} else if (n == 0) {
		fputc(' ', f);
		md(f, json_string_value(json_array_get(reasons, 0)), MD_TEXT);
		fputc('\n', f);
	} else if (nfail) {
		fprintf(f, " %zu of %zu rule%s failed:\n", nfail, n, n == 1 ? "" : "s");
	} else if (ninc) {
		fprintf(f, " %zu of %zu rule%s inconclusive:\n", ninc, n, n == 1 ? "" : "s");
	} else {
		fprintf(f, " %s passed:\n", n == 1 ? "The rule" : n == 2 ? "Both rules" : "All rules");
	}
	json_array_foreach(rules, i, r)
		rule_item(f, r);
	/* Reasons that are not the rules': the host's conditions. */
	json_array_foreach(reasons, i, r) {
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

	if (!b) {
		fputs("—", f);
		return;
	}
	if (*str(b, "command"))
		md(f, str(b, "command"), MD_CODE | MD_CELL);
	else
		fputs("no build command", f);
	if (strcmp(str(b, "status"), "ok")) {
		fputs(" **", f);
		md(f, str(b, "status"), MD_TEXT | MD_CELL);
		fputs("** (", f);
		md(f, str(b, "detail"), MD_TEXT | MD_CELL);
		fputc(')', f);
	} else if (json_is_true(json_object_get(b, "cached"))) {
		fprintf(f, " (cached)");
	} else {
		fprintf(f, " (built in %s)", ab_format_ns(t, sizeof(t), num(b, "duration_ns")));
	}
}

static void overlay_cell(FILE *f, const json_t *overlay)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(overlay, "paths"), i, p) {
		fputs(i ? ", " : "", f);
		md(f, str(p, "path"), MD_CODE | MD_CELL);
		fputs(" (", f);
		md(f, str(p, "type"), MD_TEXT | MD_CELL);
		fputc(' ', f);
		md_short(f, str(p, "oid"), 10, MD_CODE | MD_CELL);
		fputs("…)", f);
	}
	fputs(" from ", f);
	md(f, str(overlay, "from"), MD_TEXT | MD_CELL);
	fputc(' ', f);
	md_short(f, str(overlay, "source"), 10, MD_CODE | MD_CELL);
}

static void overlay_rows(FILE *f, const json_t *overlay)
{
	const char *from;

	if (!json_is_object(overlay))
		return;
	from = str(overlay, "from");
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
	md_short(f, str(side, "oid"), 10, MD_CODE | MD_CELL);
	if (*str(side, "subject")) {
		fputc(' ', f);
		md(f, str(side, "subject"), MD_TEXT | MD_CELL);
	}
}

static void dependency_rows(FILE *f, const json_t *deps)
{
	size_t i;
	json_t *d;

	json_array_foreach((json_t *)deps, i, d) {
		const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
		fprintf(f, "| dependency ");
		md(f, str(d, "name"), MD_CODE | MD_CELL);
		fprintf(f, " (");
		md(f, str(d, "path"), MD_CODE | MD_CELL);
		fprintf(f, ") | ");
		dependency_side(f, par);
		if (!strcmp(str(par, "oid"), str(cand, "oid")))
			fputs(" (same revision)", f);
		else if (json_is_true(json_object_get(d, "exact_parent")))
			fputs(" (exact parent)", f);
		fprintf(f, " | ");
		dependency_side(f, cand);
		fprintf(f, " |\n");
	}
}

static void provenance(FILE *f, const json_t *doc)
{
	const json_t *par = json_object_get(doc, "parent"), *cand = json_object_get(doc, "candidate");
	const json_t *bp = build_of(doc, "parent"), *bc = build_of(doc, "candidate");
	const json_t *plan = json_object_get(doc, "plan");
	const char *path;
	json_t *hash;

	fprintf(f, "## Provenance\n| item | parent | candidate |\n| --- | --- | --- |\n");
	fprintf(f, "| commit | ");
	md_short(f, str(par, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " %s | ",
		json_is_true(json_object_get(doc, "exact_parent")) ? "(exact parent)" : "(**not** the exact parent)");
	md_short(f, str(cand, "oid"), 10, MD_CODE | MD_CELL);
	fprintf(f, " |\n| subject | ");
	md(f, str(par, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " | ");
	md(f, str(cand, "subject"), MD_TEXT | MD_CELL);
	fprintf(f, " |\n| tree | ");
	md_short(f, str(par, "tree"), 10, MD_CODE | MD_CELL);
	fprintf(f, " | ");
	md_short(f, str(cand, "tree"), 10, MD_CODE | MD_CELL);
	fprintf(f, " |\n| build | ");
	build_cell(f, bp);
	fprintf(f, " | ");
	build_cell(f, bc);
	fprintf(f, " |\n");
	if (bp) {
		json_object_foreach(json_object_get(bp, "artifacts"), path, hash) {
			const char *mine = json_string_value(hash), *other = str(json_object_get(bc, "artifacts"), path);
			fprintf(f, "| artifact ");
			md(f, path, MD_CODE | MD_CELL);
			fprintf(f, " SHA-256 | ");
			md_short(f, mine, 12, MD_CODE | MD_CELL);
			fprintf(f, "… | ");
			md_short(f, other, 12, MD_CODE | MD_CELL);
			fprintf(f, "…%s |\n", mine && !strcmp(mine, other) && strcmp(str(doc, "kind"), "calibrate")
						 ? " ⚠ identical" : "");
		}
	}
	overlay_rows(f, json_object_get(doc, "overlay"));
	dependency_rows(f, json_object_get(doc, "dependencies"));
	fprintf(f, "| benchmark | ");
	md(f, str(doc, "benchmark"), MD_CODE | MD_CELL);
	fprintf(f, " | same |\n\n");
	if (json_is_object(json_object_get(doc, "overlay")) &&
	    strcmp(str(json_object_get(doc, "overlay"), "from"), "parent")) {
		fprintf(f, "The parent ran with an overlay: the paths above were taken from ");
		md(f, str(json_object_get(doc, "overlay"), "from"), MD_CODE);
		fprintf(f, " into both trees, so both sides ran the same harness.\n");
	}
	if (json_is_object(json_object_get(doc, "host"))) {
		char *host = ab_env_summary(json_object_get(doc, "host"));
		const char *os = str(json_object_get(doc, "host"), "os");
		const json_t *resumed = json_object_get(doc, "resumed");
		fprintf(f, "Host: ");
		md(f, host, MD_TEXT);
		if (*os) {
			fputs(", ", f);
			md(f, os, MD_TEXT);
		}
		if (json_is_string(json_object_get(resumed, "host_change"))) {
			fprintf(f, " (where the run started; it was resumed on ");
			md(f, str(resumed, "resumed_on"), MD_TEXT);
			fputc(')', f);
		}
		fprintf(f, ".\n");
		free(host);
	}
	if (json_is_string(json_object_get(doc, "compiler_identity"))) {
		/* the first line of each identity command's output */
		const char *id = str(doc, "compiler_identity"), *nl = strchr(id, '\n');
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
	fprintf(f, "Plan: %lld pairs per row after %lld warmup%s per side, rows round-robin, AB|BA "
		"blocks, seed %lld; %lld of %lld samples ran.\n\n",
		(long long)json_integer_value(json_object_get(plan, "pairs")),
		(long long)json_integer_value(json_object_get(plan, "warmup")),
		json_integer_value(json_object_get(plan, "warmup")) == 1 ? "" : "s",
		(long long)json_integer_value(json_object_get(plan, "seed")),
		(long long)json_integer_value(json_object_get(plan, "samples_done")),
		(long long)json_integer_value(json_object_get(plan, "samples_planned")));
}

static void ratio_cell(FILE *f, const json_t *m)
{
	const json_t *ci = json_object_get(m, "ci");
	double l = json_number_value(json_array_get(ci, 0)), u = json_number_value(json_array_get(ci, 1));
	int significant = json_is_number(json_array_get(ci, 0)) && (l > 1 || u < 1);

	if (!json_is_number(json_object_get(m, "ratio"))) {
		fprintf(f, "n/a");
		return;
	}
	fprintf(f, significant ? "**%.3f**" : "%.3f", num(m, "ratio"));
	if (json_is_number(json_array_get(ci, 0)))
		fprintf(f, " [%.3f, %.3f]", l, u);
	else
		fprintf(f, " [too few pairs]");
}

/* A value with its unit (the unit is the experiment's) in a table cell. */
static void value_cell(FILE *f, double value, const char *unit)
{
	char buf[96];

	md(f, ab_report_format_value(buf, sizeof(buf), value, unit), MD_TEXT | MD_CELL);
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
	int warn_rsd = 0;

	fprintf(f, "## Rows (");
	md(f, str(doc, "metric"), MD_TEXT);
	fprintf(f, ", ");
	md(f, str(first, "better"), MD_TEXT);
	fprintf(f, " is better)\n");
	json_object_foreach((json_t *)matrix, pname, vals) {
		fprintf(f, "| ");
		md(f, pname, MD_TEXT | MD_CELL);
		fputc(' ', f);
	}
	fprintf(f, "| parent median | RSD |%s candidate median | RSD |%s ratio B/A [90%% CI] | pair wins | checksum |\n",
		scaling ? " scaling |" : "", scaling ? " scaling |" : "");
	json_object_foreach((json_t *)matrix, pname, vals)
		fprintf(f, "| --- ");
	fprintf(f, "| ---: | ---: |%s ---: | ---: |%s ---: | ---: | --- |\n", scaling ? " ---: |" : "",
		scaling ? " ---: |" : "");
	json_array_foreach(rows, i, row) {
		const json_t *params = json_object_get(row, "params");
		const char *sides[2] = {"parent", "candidate"};
		int s;

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
			double rsd = num(side, "rsd");
			fprintf(f, "| ");
			value_cell(f, num(side, "median"), unit);
			fprintf(f, " | ");
			if (isnan(rsd))
				fprintf(f, "n/a ");
			else
				fprintf(f, "%.1f%%%s ", 100 * rsd, rsd > 0.05 ? " ⚠" : "");
			warn_rsd |= rsd > 0.05;
			if (scaling) {
				double sc = num(side, "scaling");
				fprintf(f, isnan(sc) ? "| n/a " : "| %.2fx ", sc);
			}
		}
		fprintf(f, "| ");
		ratio_cell(f, row);
		fprintf(f, " | %lld/%lld | ", (long long)json_integer_value(json_object_get(row, "pair_wins")),
			(long long)json_integer_value(json_object_get(row, "pairs")));
		if (json_is_true(json_object_get(row, "checksum_match"))) {
			md(f, str(row, "checksum"), MD_CODE | MD_CELL);
			fputs(" ✓", f);
		} else if (json_is_false(json_object_get(row, "checksum_match"))) {
			fputs("**mismatch** ✗", f);
		} else {
			fputs("not checked", f);
		}
		fprintf(f, " |\n");
	}
	fputc('\n', f);
	if (scaling) {
		const json_t *sc = json_object_get(doc, "scaling");
		int per_lane = !strcmp(str(sc, "work"), "per_lane");
		fprintf(f, "Scaling: against the same side's row with the smallest ");
		md(f, str(sc, "parameter"), MD_CODE);
		fprintf(f, ", %s.\n",
			per_lane ? "fixed work per lane (S_N = (N/N0)·T_N0/T_N)" : "fixed total work (S_N = T_N0/T_N)");
	}
	/* With fewer than 5 pairs there is no bound (k = 0; the "coverage" of
	 * the unbounded interval is 100%): say that, as the table does. */
	if (json_object_get(first, "ci") && !json_is_number(json_array_get(json_object_get(first, "ci"), 0)))
		fprintf(f, "No interval: %lld pairs are too few for an exact one-sided 95%% bound (5 at "
			"least), so rules on these rows can only be inconclusive.\n",
			(long long)json_integer_value(json_object_get(first, "pairs")));
	else if (!isnan(level))
		fprintf(f, "The interval is made of exact one-sided 95%% bounds (coverage %.4g%% for "
			"%lld pairs); bold ratios exclude 1.\n", 100 * level,
			(long long)json_integer_value(json_object_get(first, "pairs")));
	{
		char *scaling_change = ab_report_scaling_change_note(doc), *order = ab_report_order_effect_note(doc);

		/* both name rows by their labels, which hold the matrix values */
		if (scaling_change) {
			md(f, scaling_change, MD_TEXT);
			fputc('\n', f);
		}
		if (order) {
			md(f, order, MD_TEXT);
			fputc('\n', f);
		}
		free(scaling_change);
		free(order);
	}
	if (warn_rsd)
		fprintf(f, "⚠ RSD above 5%%.\n");
	fputc('\n', f);
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
		const char *everywhere = ab_report_unavailable_everywhere(doc, name);

		if (!any++)
			fprintf(f, "## Other metrics\n| row | metric | parent median | candidate median | ratio B/A [90%% CI] | pair wins |\n"
				   "| --- | --- | ---: | ---: | ---: | ---: |\n");
		if (everywhere) {
			fprintf(f, "| every row | ");
			md(f, name, MD_TEXT | MD_CELL);
			fprintf(f, " | unavailable: ");
			md(f, everywhere, MD_TEXT | MD_CELL);
			fprintf(f, " | | | |\n");
			continue;
		}
		json_array_foreach(rows, i, row) {
			const json_t *m = json_object_get(json_object_get(row, "metrics"), name);
			fprintf(f, "| ");
			md(f, str(row, "label"), MD_TEXT | MD_CELL);
			fprintf(f, " | ");
			md(f, name, MD_TEXT | MD_CELL);
			fprintf(f, " | ");
			if (json_is_string(json_object_get(m, "unavailable"))) {
				fprintf(f, "unavailable: ");
				md(f, str(m, "unavailable"), MD_TEXT | MD_CELL);
				fprintf(f, " | | | |\n");
				continue;
			}
			value_cell(f, num(json_object_get(m, "parent"), "median"), str(m, "unit"));
			fprintf(f, " | ");
			value_cell(f, num(json_object_get(m, "candidate"), "median"), str(m, "unit"));
			fprintf(f, " | ");
			ratio_cell(f, m);
			fprintf(f, " | %lld/%lld |\n", (long long)json_integer_value(json_object_get(m, "pair_wins")),
				(long long)json_integer_value(json_object_get(m, "pairs")));
		}
	}
	if (any)
		fputc('\n', f);
}

static void rate_cell(FILE *f, const json_t *r)
{
	fprintf(f, "%lld (%.1f%% [%.1f, %.1f])", (long long)json_integer_value(json_object_get(r, "count")),
		100 * num(r, "rate"), 100 * json_number_value(json_array_get(json_object_get(r, "ci"), 0)),
		100 * json_number_value(json_array_get(json_object_get(r, "ci"), 1)));
}

static void calibration(FILE *f, const json_t *doc)
{
	const json_t *cal = json_object_get(doc, "calibration"), *total = json_object_get(cal, "total");
	size_t i, j;
	json_t *row, *need;

	if (!cal)
		return;
	fprintf(f, "## Calibration\nBlocks of %lld pairs (the experiment's planned pairs), each an A/A "
		"experiment as a run would see it; under no change a bound excludes 1 on one side in %.2f%% of "
		"blocks (the exact rate of the one-sided 95%% bounds). The rows table above pools all the pairs "
		"of a row, so its narrower intervals say how small a difference this machine can resolve with "
		"that many pairs, not what one run of the planned size sees.\n\n",
		(long long)json_integer_value(json_object_get(cal, "block_pairs")), 100 * num(cal, "expected_rate"));
	fprintf(f, "| row | pairs | spread of log ratios | blocks | false faster [95%% CI] | false slower "
		"[95%% CI] | pairs needed |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
	json_array_foreach(json_object_get(cal, "rows"), i, row) {
		fprintf(f, "| ");
		md(f, str(row, "label"), MD_TEXT | MD_CELL);
		fprintf(f, " | %lld | %.2f%% | %lld | ", (long long)json_integer_value(json_object_get(row, "pairs")),
			100 * num(row, "spread"), (long long)json_integer_value(json_object_get(row, "blocks")));
		rate_cell(f, json_object_get(row, "false_faster"));
		fprintf(f, " | ");
		rate_cell(f, json_object_get(row, "false_slower"));
		fprintf(f, " | ");
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			fprintf(f, "%s", j ? "; " : "");
			md(f, str(need, "rule"), MD_TEXT | MD_CELL);
			fprintf(f, " (");
			md(f, str(need, "predicate"), MD_TEXT | MD_CELL);
			fprintf(f, "): %lld", (long long)json_integer_value(json_object_get(need, "pairs")));
		}
		fprintf(f, " |\n");
	}
	fprintf(f, "\nAll rows: %lld blocks, false faster ", (long long)json_integer_value(json_object_get(total, "blocks")));
	rate_cell(f, json_object_get(total, "false_faster"));
	fprintf(f, ", false slower ");
	rate_cell(f, json_object_get(total, "false_slower"));
	fprintf(f, ".\nPairs needed: n = ⌈((z₀.₉₅ + z₀.₈₀)·σ/m)²·π/3⌉ for the margin m = |ln θ| of each rule, "
		"σ the spread of log ratios (80%% power).\n\n");
}

static void notes(FILE *f, const json_t *doc)
{
	const json_t *warnings = json_object_get(doc, "warnings"), *earlier = json_object_get(doc, "earlier_runs");
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
	if (json_array_size(earlier)) {
		fprintf(f, "## Earlier runs of this comparison\nThis exact comparison (same experiment "
			"file, same commits) was run %zu time%s before: ", json_array_size(earlier),
			json_array_size(earlier) == 1 ? "" : "s");
		json_array_foreach(earlier, i, w) {
			fprintf(f, "%srun %lld ", i ? ", " : "", (long long)json_integer_value(json_object_get(w, "id")));
			md(f, str(w, "verdict"), MD_TEXT);
			fputs(" (", f);
			md(f, str(w, "created_at"), MD_TEXT);
			fputc(')', f);
		}
		fprintf(f, ". Re-running until a verdict changes is not evidence.\n\n");
	}
}

static void method(FILE *f, const json_t *doc)
{
	fprintf(f, "## Method\nEach sample is a fresh process. Within each row, pairs run in "
		"balanced AB|BA blocks chosen by a seeded coin; rows are visited round-robin. "
		"Ratios are Hodges–Lehmann estimates of candidate/parent over per-pair log ratios. "
		"The 90%% CI is made of exact one-sided 95%% bounds (Wilcoxon signed-rank); a rule "
		"passes only when its bound clears the margin, fails when the other bound refutes it "
		"(Holm-adjusted over the verdict's family: every distinct row, quantity and refuted side "
		"of any rule, counted once), and is inconclusive otherwise; observational predicates are "
		"outside that claim.\n\n");
	fprintf(f, "## Reproduce\n");
	md(f, str(doc, "reproduce"), MD_BLOCK);
	fprintf(f, "\nRaw samples: `abtool report %lld --format tsv`.\n",
		(long long)json_integer_value(json_object_get(doc, "run_id")));
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
			md(f, str(p, "path"), MD_CODE);
		}
		fputs(" from the ", f);
		md(f, str(overlay, "from"), MD_TEXT);
		fputc(' ', f);
		md_short(f, str(overlay, "source"), 10, MD_CODE);
		fputs(", on both sides.\n", f);
	}
	if (json_array_size(deps)) {
		fputs("Dependencies: ", f);
		json_array_foreach((json_t *)deps, i, d) {
			const json_t *par = json_object_get(d, "parent"), *cand = json_object_get(d, "candidate");
			fputs(i ? "; " : "", f);
			md(f, str(d, "name"), MD_CODE);
			fputc(' ', f);
			md_short(f, str(par, "oid"), 10, MD_CODE);
			if (!strcmp(str(par, "oid"), str(cand, "oid"))) {
				fputs(" on both sides", f);
				continue;
			}
			fputs(" → ", f);
			md_short(f, str(cand, "oid"), 10, MD_CODE);
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
	int analyze = !strcmp(str(doc, "kind"), "analyze");

	header(f, doc);
	if (!analyze)
		provenance(f, doc);
	if (json_array_size(json_object_get(doc, "rows")))
		rows_table(f, doc);
	calibration(f, doc);
	other_metrics(f, doc);
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
	if (json_array_size(json_object_get(doc, "rows")))
		rows_table(f, doc);
	notes(f, doc);
	if (strcmp(str(doc, "kind"), "analyze"))
		fprintf(f, "Full report: `abtool report %lld` where the store is kept; in CI, the "
			"report files the job uploads (`--md`, `--html`, `--json`).\n",
			(long long)json_integer_value(json_object_get(doc, "run_id")));
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the summary: %s", strerror(errno));
	return 0;
}
