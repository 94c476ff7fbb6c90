/* report_text.c - the terminal view of a report document: the verdict
 * first, one compact line per row, one line per rule that did not pass,
 * the warnings, and where the full report is; wrapped at word boundaries
 * to a width, with or without colour (see report.h and docs/cli.md, "At
 * a terminal"). Pure: it renders into a string and reads nothing else. */
#include "report.h"
#include "report_common.h"
#include "report_sides.h"
#include "report_speedup.h"
#include "util.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Two words glued by this byte are never split by a wrap; it prints as a
 * space ("182.8 ms", "[0.571, 0.593]", "wins 6/6"). */
#define GLUE '\x01'

/* SGR colours (ECMA-48 8.3.117). */
#define SGR_RESET "\033[0m"
#define SGR_BOLD "\033[1m"
#define SGR_DIM "\033[2m"
#define SGR_RED "\033[31m"
#define SGR_GREEN "\033[32m"
#define SGR_YELLOW "\033[33m"
#define SGR_MAGENTA "\033[35m"

/* The text being built: its bytes, the width and whether to colour;
 * where the warnings' block and the comparison's summary lines are in it
 * (byte offsets, both 0 when none) and how many lines each lists, for
 * fit_height. */
struct view {
	char *buf;
	size_t len, cap;
	int width, color;
	size_t warn_start, warn_end, nwarn;
	size_t speed_start, speed_end, nspeed;
};

static void put(struct view *v, const char *s, size_t n)
{
	if (v->len + n + 1 > v->cap) {
		v->cap = (v->len + n + 1) * 2;
		v->buf = ab_xrealloc(v->buf, v->cap);
	}
	memcpy(v->buf + v->len, s, n);
	v->len += n;
	v->buf[v->len] = '\0';
}

static void puts_(struct view *v, const char *s)
{
	put(v, s, strlen(s));
}

/* An SGR sequence when colouring. */
static void sgr(struct view *v, const char *seq)
{
	if (v->color)
		puts_(v, seq);
}

/* The length in bytes of the UTF-8 sequence starting with byte c (1 for
 * a stray continuation byte, which then counts as one character). */
static size_t utf8_len(unsigned char c)
{
	return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* The display width of the character at s (n bytes): wcwidth(3) in the
 * C.UTF-8 locale (made once, used only in this thread for the call), one
 * column where it has no answer. */
static int char_width(const char *s, size_t n)
{
	static locale_t utf8;
	static int tried;
	locale_t old;
	mbstate_t st;
	wchar_t wc;
	int w = 1;

	if ((unsigned char)*s < 0x80)
		return 1;
	if (!tried) {
		tried = 1;
		utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	if (!utf8)
		return 1;
	old = uselocale(utf8);
	memset(&st, 0, sizeof(st));
	if (mbrtowc(&wc, s, n, &st) == n)
		w = wcwidth(wc);
	uselocale(old);
	return w < 0 ? 1 : w;
}

/* The display width of n bytes of text; with skip_sgr, SGR sequences
 * ("\033[...m") take no column. */
static size_t width_of(const char *s, size_t n, int skip_sgr)
{
	size_t i = 0, w = 0, k;

	while (i < n) {
		if (skip_sgr && s[i] == '\033' && s[i + 1] == '[') {
			for (i += 2; i < n && s[i] != 'm'; i++)
				;
			i += i < n;
			continue;
		}
		k = utf8_len((unsigned char)s[i]);
		if (k > n - i)
			k = n - i;
		w += (size_t)char_width(s + i, k);
		i += k;
	}
	return w;
}

/* The display width of n bytes of text without SGR sequences. */
static size_t text_width(const char *s, size_t n)
{
	return width_of(s, n, 0);
}

size_t ab_report_text_width(const char *s)
{
	return width_of(s, s ? strlen(s) : 0, 1);
}

/* `s` with every control character a space (C0, DEL, and C1 as UTF-8),
 * so that a string of the document (a row label, a reason) cannot move
 * the cursor or colour the terminal (docs/security.md, "Terminal text").
 * New string. */
static char *clean(const char *s)
{
	char *out = ab_xstrdup(s ? s : ""), *p;

	for (p = out; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			*p = ' ';
		else if (c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f) {
			p[0] = ' ';
			p[1] = ' ';
			p++;
		}
	}
	return out;
}

static void name_raw(FILE *f, const char *name)
{
	fputs(name, f);
}

/* clean() of `s` with a comparison's "parent" and "candidate" written as
 * its sides' names (report_sides.h), as the Markdown and HTML reports
 * write them. New string. */
static char *clean_named(const json_t *doc, const char *s)
{
	static const struct ab_report_sides_writer w = {ab_report_sides_raw, name_raw};
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	ab_report_sides_write(f, doc, s, &w);
	fclose(f);
	out = clean(buf);
	free(buf);
	return out;
}

/*
 * Write one logical line: `lead` (printed as is, SGR allowed, `lead_cols`
 * columns wide) and then `text` (plain; GLUE joins words that stay
 * together), wrapped at spaces to the width, each further line indented
 * by `indent` columns. A word longer than a whole line is cut where the
 * line ends, which only a long path or label needs: numbers are short;
 * a glued group wider than a line is first split at its glue.
 */
static void wrap(struct view *v, const char *lead, size_t lead_cols, const char *text, size_t indent)
{
	size_t col = lead_cols, width = (size_t)v->width, n, ww, i, k, start = lead_cols;
	char *copy = ab_xstrdup(text), *q, *qe;
	const char *p = copy, *e;

	if (indent >= width / 2)
		indent = width / 4;
	/* glued words wider than a line come apart where they were glued */
	for (q = copy; *q; q = qe) {
		for (qe = q; *qe && *qe != ' '; qe++)
			;
		if (text_width(q, (size_t)(qe - q)) > width - indent)
			for (; q < qe; q++)
				*q = *q == GLUE ? ' ' : *q;
		while (*qe == ' ')
			qe++;
	}
	puts_(v, lead);
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		for (e = p; *e && *e != ' '; e++)
			;
		n = (size_t)(e - p);
		ww = text_width(p, n);
		if (col > start && col + 1 + ww > width) {
			puts_(v, "\n");
			for (col = 0; col < indent; col++)
				puts_(v, " ");
			start = indent;
		} else if (col > start) {
			puts_(v, " ");
			col++;
		}
		for (i = 0; i < n; i += k) {
			k = utf8_len((unsigned char)p[i]);
			if (k > n - i)
				k = n - i;
			if (col + (size_t)char_width(p + i, k) > width) {  /* a word longer than a line */
				puts_(v, "\n");
				for (col = 0; col < indent; col++)
					puts_(v, " ");
				start = indent;
			}
			put(v, p[i] == GLUE ? " " : p + i, p[i] == GLUE ? 1 : k);
			col += (size_t)char_width(p + i, k);
		}
		p = e;
	}
	puts_(v, "\n");
	free(copy);
}

/* The colour of an outcome or a verdict. */
static const char *outcome_color(const char *o)
{
	if (!strcmp(o, "pass") || !strcmp(o, "accepted") || !strcmp(o, "calibrated"))
		return SGR_GREEN;
	if (!strcmp(o, "fail") || !strcmp(o, "rejected"))
		return SGR_RED;
	if (!strcmp(o, "invalid"))
		return SGR_MAGENTA;
	return SGR_YELLOW;
}

static const char *verdict_mark(const char *verdict)
{
	if (!strcmp(verdict, "accepted") || !strcmp(verdict, "calibrated"))
		return "✓";
	if (!strcmp(verdict, "rejected"))
		return "✗";
	if (!strcmp(verdict, "invalid"))
		return "!";
	return "?";
}

/* How bad an outcome is, to find a row's worst: pass 1, inconclusive 2,
 * fail 3; none 0. */
static int outcome_rank(const char *o)
{
	if (!o || !*o)
		return 0;
	return !strcmp(o, "fail") ? 3 : !strcmp(o, "pass") ? 1 : 2;
}

/* A row's outcome: the worst of the rules' outcomes that select it, or
 * "" when no rule selects it (borrowed). */
static const char *row_outcome(const json_t *doc, const json_t *row)
{
	const json_t *params = json_object_get(row, "params"), *rule, *rr;
	const char *worst = "";
	size_t i, j;

	json_array_foreach(json_object_get(doc, "rules"), i, rule)
		json_array_foreach(json_object_get(rule, "rows"), j, rr)
			if (json_equal(json_object_get(rr, "params"), (json_t *)params) &&
			    outcome_rank(ab_report_str(rr, "outcome")) > outcome_rank(worst))
				worst = ab_report_str(rr, "outcome");
	return worst;
}

/* The cells of one row, GLUE inside each: label, parent, candidate,
 * ratio with its interval, pair wins, checksum mark, outcome. */
struct cells {
	char *c[7];
};

#define NCELLS 7

static void row_cells(struct cells *out, const json_t *doc, const json_t *row)
{
	const json_t *ci = json_object_get(row, "ci");
	const char *unit = ab_report_str(row, "unit"), *o;
	double ratio = ab_report_num(row, "ratio");
	char a[48], b[48], *p;
	int i;

	out->c[0] = clean(ab_report_str(row, "label"));
	out->c[1] = ab_xstrdup(ab_report_format_value(a, sizeof(a),
			       ab_report_num(json_object_get(row, "parent"), "median"), unit));
	out->c[2] = ab_xstrdup(ab_report_format_value(b, sizeof(b),
			       ab_report_num(json_object_get(row, "candidate"), "median"), unit));
	if (isnan(ratio))
		out->c[3] = ab_xstrdup("n/a");
	else if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
		 json_is_number(json_array_get(ci, 1)))
		out->c[3] = ab_xasprintf("%.3f [%.3f, %.3f]%s", ratio, json_number_value(json_array_get(ci, 0)),
					 json_number_value(json_array_get(ci, 1)), ab_report_ci_flag(row));
	else
		out->c[3] = ab_xasprintf("%.3f", ratio);
	out->c[4] = ab_xasprintf("%lld/%lld", ab_report_int(row, "pair_wins"), ab_report_int(row, "pairs"));
	out->c[5] = ab_xstrdup(json_is_true(json_object_get(row, "checksum_match")) ? "✓"
			       : json_is_false(json_object_get(row, "checksum_match")) ? "✗" : "-");
	o = row_outcome(doc, row);
	out->c[6] = ab_xstrdup(*o ? o : "-");
	for (i = 1; i < NCELLS; i++)  /* a value and its unit, an interval, stay whole */
		for (p = out->c[i]; *p; p++)
			if (*p == ' ')
				*p = GLUE;
}

static void cells_release(struct cells *c)
{
	int i;

	for (i = 0; i < NCELLS; i++)
		free(c->c[i]);
}

/* Pad to `w` columns. */
static void pad(struct view *v, const char *s, size_t w)
{
	size_t n = text_width(s, strlen(s));
	const char *p;

	for (p = s; *p; p++)
		put(v, *p == GLUE ? " " : p, 1);
	for (; n < w; n++)
		puts_(v, " ");
}

/* The rows as a table when it fits the width, else each row as a label
 * line and its values wrapped under it. */
static void rows_view(struct view *v, const json_t *doc)
{
	/* a comparison's columns are its sides' names (compare -n) */
	const char *head[NCELLS] = {"row", ab_report_side_label(doc, 0), ab_report_side_label(doc, 1),
				    "ratio [90% CI]", "wins", "checksum", "outcome"};
	const json_t *rows = json_object_get(doc, "rows"), *row;
	size_t n = json_array_size(rows), i, w[NCELLS], total = 0;
	struct cells *c = ab_xcalloc(n ? n : 1, sizeof(*c));
	int k;

	if (json_is_object(json_object_get(doc, "sequential")))
		head[3] = "ratio [repeated 90% CI]";
	for (k = 0; k < NCELLS; k++)
		w[k] = text_width(head[k], strlen(head[k]));
	json_array_foreach(rows, i, row) {
		row_cells(&c[i], doc, row);
		for (k = 0; k < NCELLS; k++) {
			size_t cw = text_width(c[i].c[k], strlen(c[i].c[k]));
			w[k] = cw > w[k] ? cw : w[k];
		}
	}
	for (k = 0; k < NCELLS; k++)
		total += w[k] + (k ? 2 : 0);
	if (n && total <= (size_t)v->width) {
		sgr(v, SGR_DIM);
		for (k = 0; k < NCELLS; k++) {
			puts_(v, k ? "  " : "");
			pad(v, head[k], k == NCELLS - 1 ? 0 : w[k]);
		}
		sgr(v, SGR_RESET);
		puts_(v, "\n");
		for (i = 0; i < n; i++) {
			for (k = 0; k < NCELLS; k++) {
				puts_(v, k ? "  " : "");
				if (k == NCELLS - 1)
					sgr(v, outcome_color(c[i].c[k]));
				pad(v, c[i].c[k], k == NCELLS - 1 ? 0 : w[k]);
				if (k == NCELLS - 1)
					sgr(v, SGR_RESET);
			}
			puts_(v, "\n");
		}
	} else {
		for (i = 0; i < n; i++) {
			char *lead, *text;

			lead = ab_xasprintf("%s%s%s ", v->color ? outcome_color(c[i].c[6]) : "",
					    ab_report_outcome_mark(c[i].c[6]), v->color ? SGR_RESET : "");
			text = ab_xasprintf("%s: %s", c[i].c[0], c[i].c[6]);
			wrap(v, lead, 2, text, 4);
			free(text);
			free(lead);
			text = ab_xasprintf("%s → %s · ratio%c%s · wins%c%s · checksum%c%s", c[i].c[1], c[i].c[2],
					    GLUE, c[i].c[3], GLUE, c[i].c[4], GLUE, c[i].c[5]);
			wrap(v, "    ", 4, text, 4);
			free(text);
		}
	}
	for (i = 0; i < n; i++)
		cells_release(&c[i]);
	free(c);
}

/* A comparison's summary line per row, as hyperfine prints it
 * (report_speedup.h). */
static void speedups_view(struct view *v, const json_t *doc)
{
	char **lines = ab_report_speedup_lines(doc, GLUE), **l;

	v->speed_start = v->len;
	for (l = lines; l && *l; l++)
		wrap(v, "", 0, *l, 4);
	v->speed_end = v->len;
	v->nspeed = ab_strv_len(lines);
	ab_strv_free(lines);
}

/* One line per rule that did not pass: its name, its outcome and the
 * reason of its first row that did not pass, with how many more. */
static void rules_view(struct view *v, const json_t *doc)
{
	const json_t *rule, *rr, *first;
	size_t i, j, more;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		const char *o = ab_report_str(rule, "outcome");
		char *name, *lead, *text, *detail;

		if (!strcmp(o, "pass"))
			continue;
		first = NULL;
		more = 0;
		json_array_foreach(json_object_get(rule, "rows"), j, rr)
			if (strcmp(ab_report_str(rr, "outcome"), "pass")) {
				more += first != NULL;
				first = first ? first : rr;
			}
		name = clean(ab_report_str(rule, "name"));
		detail = clean_named(doc, first ? ab_report_str(first, "detail") : ab_report_str(rule, "detail"));
		lead = ab_xasprintf("%s%s%s ", v->color ? outcome_color(o) : "", ab_report_outcome_mark(o),
				    v->color ? SGR_RESET : "");
		if (more)
			text = ab_xasprintf("%s (%s): %s; and %zu more row%s", name, o, detail, more,
					    more == 1 ? "" : "s");
		else
			text = ab_xasprintf("%s (%s): %s", name, o, detail);
		wrap(v, lead, 2, text, 4);
		free(text);
		free(lead);
		free(detail);
		free(name);
	}
}

/* An invalid run's reasons, then the warnings: one line each, the same
 * text once with its count. */
static void notes_view(struct view *v, const json_t *doc)
{
	const json_t *reasons = json_object_get(doc, "reasons"), *warnings = json_object_get(doc, "warnings");
	const json_t *w, *x;
	size_t i, j, n, count;
	char *t;

	if (!strcmp(ab_report_str(doc, "verdict"), "invalid"))
		json_array_foreach(reasons, i, w) {
			char *text = clean_named(doc, json_string_value(w));
			char *lead = ab_xasprintf("%s!%s ", v->color ? SGR_MAGENTA : "", v->color ? SGR_RESET : "");

			wrap(v, lead, 2, text, 4);
			free(lead);
			free(text);
		}
	n = json_array_size(warnings);
	if (!n)
		return;
	v->warn_start = v->len;
	v->nwarn = n;
	sgr(v, SGR_YELLOW);
	t = ab_xasprintf("%zu warning%s:", n, n == 1 ? "" : "s");
	puts_(v, t);
	free(t);
	sgr(v, SGR_RESET);
	puts_(v, "\n");
	json_array_foreach(warnings, i, w) {
		char *text;

		for (j = 0; j < i && !json_equal(json_array_get(warnings, j), (json_t *)w); j++)
			;
		if (j < i)
			continue;  /* counted at its first */
		count = 0;
		json_array_foreach(warnings, j, x)
			count += json_equal(x, (json_t *)w);
		t = clean_named(doc, json_string_value(w));
		text = count > 1 ? ab_xasprintf("%s (%zu times)", t, count) : ab_xstrdup(t);
		wrap(v, "  - ", 4, text, 4);
		free(text);
		free(t);
	}
	v->warn_end = v->len;
}

/* The number of lines of the text so far. */
static size_t lines_of(const struct view *v)
{
	size_t n = 0, i;

	for (i = 0; i < v->len; i++)
		n += v->buf[i] == '\n';
	return n;
}

/* The view with bytes [start, end) replaced by one line: `what` (SGR
 * `seq` around it when colouring), then "HINT shows them", HINT being
 * opt->warnings_hint or --verbose. */
static void fold(struct view *v, size_t start, size_t end, const char *what, const char *seq,
		 const struct ab_report_text_options *opt)
{
	struct view f = *v;
	char *lead, *hint, *text;

	f.buf = NULL;
	f.len = f.cap = 0;
	put(&f, v->buf, start);
	lead = ab_xasprintf("%s%s%s ", v->color ? seq : "", what, v->color ? SGR_RESET : "");
	hint = clean(opt->warnings_hint && *opt->warnings_hint ? opt->warnings_hint : "--verbose");
	text = ab_xasprintf("%s shows them", hint);
	wrap(&f, lead, strlen(what) + 1, text, 4);
	put(&f, v->buf + end, v->len - end);
	free(text);
	free(hint);
	free(lead);
	free(v->buf);
	*v = f;
}

/*
 * A view taller than opt->height lines (the screen it is shown on, less
 * what follows it there) keeps the verdict, the rows and the rules that
 * did not pass, and folds the warnings into one line with their count
 * and the command that shows them ("8 warnings: abtool report 3 shows
 * them"): hyperfine's summary is 12 lines, and at 80x24 eight wrapped
 * warnings pushed the verdict and the rows off the screen. Still too
 * tall, it folds a comparison's summary lines the same way ("8 summary
 * lines: abtool report 3 shows them"; the rows table has their ratios):
 * a matrix of 8 rows took 16 lines with them. A single row's summary
 * line stays whenever the view fits with it. A height of 0 (a pipe,
 * --verbose) folds nothing.
 */
static void fit_height(struct view *v, const struct ab_report_text_options *opt)
{
	char *what;

	if (opt->height <= 0)
		return;
	if (v->nwarn && lines_of(v) > (size_t)opt->height) {
		what = ab_xasprintf("%zu warning%s:", v->nwarn, v->nwarn == 1 ? "" : "s");
		fold(v, v->warn_start, v->warn_end, what, SGR_YELLOW, opt);  /* after the summary lines */
		free(what);
	}
	if (v->nspeed && lines_of(v) > (size_t)opt->height) {
		what = ab_xasprintf("%zu summary line%s:", v->nspeed, v->nspeed == 1 ? "" : "s");
		fold(v, v->speed_start, v->speed_end, what, SGR_DIM, opt);
		free(what);
	}
}

char *ab_report_verdict_line(const json_t *doc)
{
	const char *verdict = ab_report_str(doc, "verdict");
	const json_t *rules = json_object_get(doc, "rules");
	size_t n = json_array_size(rules);
	char *name = clean(ab_report_str(doc, "experiment")), *reason, *out, *id, count[96];

	id = json_integer_value(json_object_get(doc, "run_id")) > 0
		     ? ab_xasprintf(" · run %lld", ab_report_int(doc, "run_id"))
		     : ab_xstrdup("");
	if (!strcmp(verdict, "invalid") && json_array_size(json_object_get(doc, "reasons")))
		reason = clean_named(doc, json_string_value(json_array_get(json_object_get(doc, "reasons"), 0)));
	else if (n) {  /* the headline's count ("1 of 2 rules failed"), as a clause */
		ab_report_rules_line(count, sizeof(count), rules);
		count[strcspn(count, ":")] = '\0';
		count[0] = (char)tolower((unsigned char)count[0]);
		reason = ab_xstrdup(count);
	}
	else
		reason = ab_xstrdup("no rules");
	out = ab_xasprintf("%s (%s) · %s%s", *verdict ? verdict : "unknown", reason, name, id);
	free(reason);
	free(id);
	free(name);
	return out;
}

int ab_report_text(char **out, const json_t *doc, const struct ab_report_text_options *opt)
{
	struct view v = {NULL, 0, 0, opt->width < 20 ? 20 : opt->width, opt->color, 0, 0, 0, 0, 0, 0};
	const char *verdict = ab_report_str(doc, "verdict");
	char *line, *lead, *name, rules[96];
	const char *const *w;

	put(&v, "", 0);
	/* the verdict first, coloured, then what it is about */
	name = clean(ab_report_str(doc, "experiment"));
	lead = ab_xasprintf("%s%s%s %s%s ", v.color ? SGR_BOLD : "", v.color ? outcome_color(verdict) : "",
			    verdict_mark(verdict), *verdict ? verdict : "unknown", v.color ? SGR_RESET : "");
	if (ab_report_int(doc, "run_id") > 0)
		line = ab_xasprintf("· %s · run%c%lld", name, GLUE, ab_report_int(doc, "run_id"));
	else
		line = ab_xasprintf("· %s", name);
	wrap(&v, lead, 3 + strlen(*verdict ? verdict : "unknown"), line, 4);
	free(lead);
	free(line);
	free(name);
	if (json_array_size(json_object_get(doc, "rules")) && strcmp(verdict, "invalid")) {
		ab_report_rules_line(rules, sizeof(rules), json_object_get(doc, "rules"));
		rules[strlen(rules) - (rules[0] && rules[strlen(rules) - 1] == ':')] = '\0';
		wrap(&v, "  ", 2, rules, 4);
	}
	puts_(&v, "\n");
	rows_view(&v, doc);
	if ((line = ab_report_replay_line(doc))) {  /* a sequential plan: where each row stopped */
		const char *shown = line;
		char *t;

		if (strcmp(ab_report_str(doc, "kind"), "analyze") && !strncmp(line, "replayed as a ", 14))
			shown = line + 14;  /* a run's plan was not replayed */
		t = clean(shown);
		wrap(&v, "", 0, t, 4);
		free(t);
		free(line);
	}
	speedups_view(&v, doc);
	puts_(&v, "\n");
	rules_view(&v, doc);
	notes_view(&v, doc);
	if (opt->where && *opt->where && v.len >= 2 && strcmp(v.buf + v.len - 2, "\n\n"))
		puts_(&v, "\n");
	for (w = opt->where; w && *w; w++) {
		char *t = clean(*w);
		wrap(&v, "", 0, t, 4);
		free(t);
	}
	fit_height(&v, opt);
	*out = v.buf;
	return 0;
}
