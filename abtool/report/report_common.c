/* report_common.c - what the report renderers share (see report_common.h). */
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ab_report_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

double ab_report_num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

long long ab_report_int(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

void ab_report_escape_xml(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 has no place for other control characters */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

const char *ab_report_outcome_mark(const char *outcome)
{
	return !strcmp(outcome, "pass") ? "✓" : !strcmp(outcome, "fail") ? "✗" : "?";
}

int ab_report_checksum_changed(const json_t *row, const char **parent, const char **candidate)
{
	const char *v[2] = {NULL, NULL};
	const json_t *x;
	size_t i;

	if (strcmp(ab_report_str(row, "checksum_policy"), "may_change") ||
	    !json_is_false(json_object_get(row, "checksum_match")))
		return 0;
	json_array_foreach(json_object_get(row, "checksum_values"), i, x) {
		int side = !strcmp(ab_report_str(x, "side"), "candidate");
		if (v[side] || !json_is_string(json_object_get(x, "value")))
			return 0;
		v[side] = ab_report_str(x, "value");
	}
	if (!v[0] || !v[1])
		return 0;
	*parent = v[0];
	*candidate = v[1];
	return 1;
}

int ab_report_artifacts_identical(const json_t *doc)
{
	const json_t *a = json_object_get(ab_report_build_of(doc, "parent"), "artifacts");
	const json_t *b = json_object_get(ab_report_build_of(doc, "candidate"), "artifacts");

	const char *kind = ab_report_str(doc, "kind");

	return (!strcmp(kind, "ab") || !strcmp(kind, "bisect")) && json_object_size(a) && json_equal(a, b);
}

const json_t *ab_report_build_of(const json_t *doc, const char *side)
{
	size_t i;
	json_t *b;

	json_array_foreach(json_object_get(doc, "builds"), i, b)
		if (!strcmp(ab_report_str(b, "side"), side))
			return b;
	return NULL;
}

void ab_report_build_cell(FILE *f, const json_t *b, const struct ab_report_markup *m)
{
	char t[32];

	if (!b) {
		fputs("—", f);
		return;
	}
	if (*ab_report_str(b, "command"))
		m->code(f, ab_report_str(b, "command"));
	else
		fputs("no build command", f);
	if (strcmp(ab_report_str(b, "status"), "ok")) {
		fprintf(f, " %s", m->strong);
		m->text(f, ab_report_str(b, "status"));
		fprintf(f, "%s (", m->strong_end);
		m->text(f, ab_report_str(b, "detail"));
		fputc(')', f);
	} else if (json_is_true(json_object_get(b, "cached"))) {
		fputs(" (cached)", f);
	} else {
		fprintf(f, " (built in %s)", ab_format_ns(t, sizeof(t), ab_report_num(b, "duration_ns")));
	}
}

const char *ab_report_rules_line(char *buf, size_t size, const json_t *rules)
{
	size_t i, nfail = 0, ninc = 0, n = json_array_size(rules);
	json_t *r;

	json_array_foreach(rules, i, r) {
		nfail += !strcmp(ab_report_str(r, "outcome"), "fail");
		ninc += !strcmp(ab_report_str(r, "outcome"), "inconclusive");
	}
	if (nfail)
		snprintf(buf, size, "%zu of %zu rule%s failed:", nfail, n, n == 1 ? "" : "s");
	else if (ninc)
		snprintf(buf, size, "%zu of %zu rule%s inconclusive:", ninc, n, n == 1 ? "" : "s");
	else
		snprintf(buf, size, "%s passed:", n == 1 ? "The rule" : n == 2 ? "Both rules" : "All rules");
	return buf;
}

void ab_report_verdict_init(struct ab_report_verdict *out, const json_t *doc)
{
	out->verdict = ab_report_str(doc, "verdict");
	out->rules = json_object_get(doc, "rules");
	out->reasons = json_object_get(doc, "reasons");
	out->nrules = json_array_size(out->rules);
	out->rules_line[0] = '\0';
	if (out->nrules)
		ab_report_rules_line(out->rules_line, sizeof(out->rules_line), out->rules);
}

int ab_report_ci_bounds(const json_t *m, double *l, double *u)
{
	const json_t *ci = json_object_get(m, "ci");

	*l = json_number_value(json_array_get(ci, 0));
	*u = json_number_value(json_array_get(ci, 1));
	if (!json_is_number(json_array_get(ci, 0)))
		return 0;
	return json_is_number(json_array_get(ci, 1)) ? 2 : 1;
}

void ab_report_ci_suffix(FILE *f, const json_t *m, int have_ci)
{
	double l, u;

	ab_report_ci_bounds(m, &l, &u);
	if (have_ci)
		fprintf(f, " [%.3f, %.3f]%s", l, u, ab_report_ci_flag(m));
	else
		fprintf(f, " [too few pairs]");
}

void ab_report_earlier_runs(FILE *f, const json_t *earlier, void (*text)(FILE *f, const char *s))
{
	size_t i;
	json_t *w;

	fprintf(f, "This exact comparison (same experiment file, same commits) was run %zu time%s before: ",
		json_array_size(earlier), json_array_size(earlier) == 1 ? "" : "s");
	json_array_foreach((json_t *)earlier, i, w) {
		fprintf(f, "%srun %lld ", i ? ", " : "", ab_report_int(w, "id"));
		text(f, ab_report_str(w, "verdict"));
		fputs(" (", f);
		text(f, ab_report_str(w, "created_at"));
		fputc(')', f);
	}
	fputs(". Re-running until a verdict changes is not evidence.", f);
}

/* "looks 8, 16, 32, 64" of a sequential object. New string. */
static char *looks_text(const json_t *seq)
{
	char *out = ab_xstrdup("looks at"), *next;
	const json_t *v;
	size_t k;

	json_array_foreach(json_object_get(seq, "looks"), k, v) {
		next = ab_xasprintf("%s%s %lld", out, k ? "," : "", (long long)json_integer_value(v));
		free(out);
		out = next;
	}
	return out;
}

/* Where each row of a sequential run stopped: "lanes=1 8 pairs
 * (decided), lanes=2 64 (max)". New string. */
static char *stops_text(const json_t *doc)
{
	char *out = ab_xstrdup(""), *next;
	const json_t *row;
	size_t i;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		const char *why = ab_report_str(row, "stopped");
		next = ab_xasprintf("%s%s%s at %lld pairs%s%s%s", out, i ? ", " : "", ab_report_str(row, "label"),
				    ab_report_int(row, "pairs"), *why ? " (" : "", why, *why ? ")" : "");
		free(out);
		out = next;
	}
	return out;
}

char *ab_report_plan_line(const json_t *doc)
{
	const json_t *plan = json_object_get(doc, "plan"), *seq = json_object_get(doc, "sequential");
	char *looks, *stops, *budget, *out, when[32];

	if (!json_is_object(seq))
		return ab_xasprintf("%lld pairs per row after %lld warmup%s per side, rows round-robin, AB|BA "
				    "blocks, seed %lld; %lld of %lld samples ran", ab_report_int(plan, "pairs"),
				    ab_report_int(plan, "warmup"), ab_report_int(plan, "warmup") == 1 ? "" : "s",
				    ab_report_int(plan, "seed"), ab_report_int(plan, "samples_done"),
				    ab_report_int(plan, "samples_planned"));
	looks = looks_text(seq);
	stops = stops_text(doc);
	budget = json_is_integer(json_object_get(seq, "budget_ms"))
		? ab_xasprintf(", budget %s%s", ab_format_ns(when, sizeof(when),
								1e6 * (double)ab_report_int(seq, "budget_ms")),
			       json_is_true(json_object_get(seq, "budget_spent")) ? " (spent: the run stopped at "
			       "the next look)" : "")
		: ab_xstrdup("");
	out = ab_xasprintf("sequential, %s pairs per row (at most %lld; %s spending of the one-sided %.3g%%%s) "
			   "after %lld warmup%s per side, rows round-robin, AB|BA blocks, seed %lld; stopped: %s; "
			   "%lld samples ran, %lld not run (their rows had stopped)", looks, ab_report_int(seq, "max_pairs"),
			   ab_report_str(seq, "spending"), 100 * ab_report_num(seq, "alpha"), budget,
			   ab_report_int(plan, "warmup"), ab_report_int(plan, "warmup") == 1 ? "" : "s",
			   ab_report_int(plan, "seed"), stops, ab_report_int(plan, "samples_done"),
			   ab_report_int(seq, "samples_stopped"));
	free(looks);
	free(stops);
	free(budget);
	return out;
}

char *ab_report_replay_line(const json_t *doc)
{
	const json_t *seq = json_object_get(doc, "sequential");
	char *looks, *stops, *out;

	if (!json_is_object(seq))
		return NULL;
	looks = looks_text(seq);
	stops = stops_text(doc);
	out = ab_xasprintf("replayed as a sequential plan, %s pairs per row (%s spending); stopped: %s", looks,
			   ab_report_str(seq, "spending"), stops);
	free(looks);
	free(stops);
	return out;
}

/* A growing string: `*s` (new, or NULL) with the formatted text appended. */
static void append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void append(char **s, const char *fmt, ...)
{
	va_list ap;
	size_t have = *s ? strlen(*s) : 0;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*s = ab_xrealloc(*s, have + (size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(*s + have, (size_t)len + 1, fmt, ap);
	va_end(ap);
}

/* Whether a row (an element of doc.rows) has an interval. */
static int has_interval(const json_t *row)
{
	return json_is_number(json_array_get(json_object_get(row, "ci"), 0));
}

/* "a, b": the labels of the rows in the group of `row` (same pairs, ties
 * and approximation), or NULL when every row with an interval is in it.
 * New string. */
static char *group_rows(const json_t *rows, const json_t *row)
{
	const json_t *r;
	size_t i, n = 0, all = 0;
	char *list = NULL;

	json_array_foreach(rows, i, r) {
		if (!has_interval(r))
			continue;
		all++;
		if (ab_report_int(r, "pairs") != ab_report_int(row, "pairs") ||
		    json_is_true(json_object_get(r, "tied")) != json_is_true(json_object_get(row, "tied")) ||
		    json_is_true(json_object_get(r, "ci_approximate")) !=
			    json_is_true(json_object_get(row, "ci_approximate")))
			continue;
		append(&list, "%s%s", n++ ? ", " : "", ab_report_str(r, "label"));
	}
	if (n == all) {
		free(list);
		return NULL;
	}
	return list;
}

/* The coverage of each group of rows: "92.19% for 8 pairs (b), at
 * least 90.77% for 12 pairs (c, d)"; returns the number of groups. */
static size_t coverage_groups(char **out, const json_t *rows)
{
	const json_t *r, *q;
	size_t i, j, n = 0;

	json_array_foreach(rows, i, r) {
		char *which;
		int seen = 0;

		if (!has_interval(r))
			continue;
		json_array_foreach(rows, j, q) {  /* the first row of its group speaks for it */
			if (j >= i)
				break;
			seen |= has_interval(q) && ab_report_int(q, "pairs") == ab_report_int(r, "pairs") &&
				json_is_true(json_object_get(q, "tied")) == json_is_true(json_object_get(r, "tied")) &&
				json_is_true(json_object_get(q, "ci_approximate")) ==
					json_is_true(json_object_get(r, "ci_approximate"));
		}
		if (seen)
			continue;
		which = group_rows(rows, r);
		append(out, "%s%s%.4g%% for %lld pairs%s%s%s", n++ ? ", " : "",
		       json_is_true(json_object_get(r, "ci_approximate")) ? "about "
		       : json_is_true(json_object_get(r, "tied")) ? "at least " : "",
		       100 * ab_report_num(r, "ci_level"), ab_report_int(r, "pairs"),
		       which ? " (" : "", which ? which : "", which ? ")" : "");
		free(which);
	}
	return n;
}

/* Rows without an interval: "No interval for row a (4 pairs): ..."; the
 * whole note when no row has one. */
static void no_interval_rows(char **out, const json_t *rows, size_t with)
{
	const json_t *r;
	size_t i, n = 0;
	char *list = NULL;
	long long pairs = -1;
	int same = 1;

	json_array_foreach(rows, i, r) {
		if (has_interval(r) || !json_object_get(r, "ci"))
			continue;
		same &= pairs < 0 || pairs == ab_report_int(r, "pairs");
		pairs = ab_report_int(r, "pairs");
		append(&list, "%s%s (%lld pair%s)", n++ ? ", " : "", ab_report_str(r, "label"),
		       ab_report_int(r, "pairs"), ab_report_int(r, "pairs") == 1 ? "" : "s");
	}
	if (n == 0)
		return;
	if (!with && same)
		append(out, "No interval: %lld pairs are too few for an exact one-sided 95%% bound (5 at "
		       "least), so rules on these rows can only be inconclusive.", pairs);
	else
		append(out, "%sNo interval for %s: too few pairs for an exact one-sided 95%% bound (5 "
		       "at least), so rules on %s can only be inconclusive.", *out ? " " : "", list,
		       n == 1 ? "that row" : "those rows");
	free(list);
}

/* A sequential row's flags: the looks' intervals do not intersect, or the
 * estimate of all its pairs lies outside their intersection. */
static void sequential_row_notes(char **out, const json_t *rows)
{
	const json_t *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		const json_t *ci = json_object_get(r, "ci");

		if (json_is_true(json_object_get(r, "ci_empty")))
			append(out, " In %s, the repeated intervals of the looks do not intersect (%.4f "
			       "above %.4f): their coverage failed for this row, so nothing is decided on it.",
			       ab_report_str(r, "label"), json_number_value(json_array_get(ci, 0)),
			       json_number_value(json_array_get(ci, 1)));
		else if (json_is_true(json_object_get(r, "estimate_outside_ci")))
			append(out, " In %s, the estimate %.4f is of all %lld pairs and lies outside the "
			       "interval [%.4f, %.4f], the intersection of the looks' intervals: an earlier "
			       "look's bound excludes it; the interval is what is known.",
			       ab_report_str(r, "label"), ab_report_num(r, "ratio"), ab_report_int(r, "pairs"),
			       json_number_value(json_array_get(ci, 0)), json_number_value(json_array_get(ci, 1)));
	}
}

char *ab_report_interval_note(const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *r, *seq = json_object_get(doc, "sequential");
	size_t i, with = 0, tied = 0, approx = 0;
	char *out = NULL, *groups = NULL;
	double level = NAN;

	/* Unpaired rows (hyperfine's blocks) have no interval at all. */
	if (json_is_true(json_object_get(doc, "unpaired")))
		return ab_xstrdup("No interval: blocks are not pairs, so these rows give the ratio of "
				  "medians and the unpaired Mann-Whitney p only.");
	json_array_foreach(rows, i, r) {
		if (!has_interval(r) || isnan(ab_report_num(r, "ci_level")))
			continue;
		if (!with++)
			level = ab_report_num(r, "ci_level");
		tied += json_is_true(json_object_get(r, "tied"));
		approx += json_is_true(json_object_get(r, "ci_approximate"));
	}
	if (with && json_is_object(seq)) {
		append(&out, "The intervals are repeated confidence intervals of the sequential plan: for each "
		       "row, whichever look it stopped at, its looks' intervals cover its true ratio together "
		       "with probability at least %.4g%%, a level per row (of many rows, some miss)%s; bold "
		       "ratios exclude 1.", 100 * level,
		       tied ? ", and more for rows with tied or zero differences (integer metrics): the "
		       "level holds for continuous values" : "");
		sequential_row_notes(&out, rows);
	} else if (with) {
		size_t n = coverage_groups(&groups, rows);
		const char *kind = approx == with ? "one-sided 95% bounds from the normal approximation of the "
			"signed-rank statistic (beyond 2,000 pairs)" : approx ? "one-sided 95% bounds, exact up "
			"to 2,000 pairs and from the normal approximation beyond" : "exact one-sided 95% bounds";

		if (n == 1 && !tied && !approx)
			append(&out, "The interval is made of %s (coverage %s); bold ratios exclude 1.", kind,
			       groups);
		else
			append(&out, "The interval is made of %s; its coverage is %s%s; bold ratios exclude 1.",
			       kind, groups, tied ? " (at least: tied or zero differences, as integer metrics "
			       "give, make the bounds conservative; the stated level holds for continuous "
			       "values)" : "");
		free(groups);
	}
	no_interval_rows(&out, rows, with);
	return out;
}

/* The family a document's refutations were adjusted over: 1 for the
 * verdict's one family, 0 for a document stored before it, whose rules
 * were adjusted over each rule's own rows. */
static int verdict_family(const json_t *doc)
{
	return json_object_get(doc, "error_control") != NULL;
}

/* The sentences every method text begins with, and those of the
 * fixed-sample plans' intervals (ab_report_method_text). */
#define METHOD_PAIRS "Each sample is a fresh process. Within each row, pairs run in balanced AB|BA blocks " \
	"chosen by a seeded coin; rows are visited round-robin. Ratios are Hodges–Lehmann estimates of " \
	"candidate/parent over per-pair log ratios. "
#define METHOD_CI "The 90% CI is made of exact one-sided 95% bounds (Wilcoxon signed-rank); a rule passes " \
	"only when its bound clears the margin, fails when the other bound refutes it "

const char *ab_report_method_text(const json_t *doc)
{
	if (json_is_object(json_object_get(doc, "sequential")))
		return METHOD_PAIRS "The plan is sequential, "
		       "declared before the first sample: at each look (every row still running has the "
		       "look's pairs) the rules are evaluated, and a row stops once every rule with interval "
		       "predicates that selects it passes or fails; rows paired by a scaling predicate run on "
		       "with their base row until all are decided. The intervals are repeated confidence "
		       "intervals (Jennison & Turnbull 1989): signed-rank bounds whose critical counts spend "
		       "the one-sided 5% over the looks (Lan & DeMets 1983), intersected over the looks a "
		       "row reached, so they stay valid whichever look it stopped at; refutations are "
		       "Holm-adjusted over the verdict's family with repeated p-values. Dispersion gates and "
		       "observational predicates are judged once, at each row's last look. An estimate at an "
		       "early stop tends to overstate the effect (docs/statistics.md).";
	if (verdict_family(doc))
		return METHOD_PAIRS METHOD_CI "(Holm-adjusted over the verdict's "
		       "family: every distinct row, quantity and refuted side of any rule, counted once), and "
		       "is inconclusive otherwise; observational predicates are outside that claim.";
	return METHOD_PAIRS METHOD_CI "(Holm-adjusted across a rule's rows), and is inconclusive otherwise.";
}

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

void ab_report_other_metrics(FILE *f, const json_t *doc, const struct ab_report_metric_table *t)
{
	const json_t *rows = json_object_get(doc, "rows");
	const char *name;
	json_t *m0;
	int any = 0;

	json_object_foreach(json_object_get(json_array_get(rows, 0), "metrics"), name, m0) {
		const char *everywhere = ab_report_unavailable_everywhere(doc, name);
		size_t i;
		json_t *row;

		if (!any++)
			t->head(f, doc);
		if (everywhere) {
			t->everywhere(f, name, everywhere);
			continue;
		}
		json_array_foreach((json_t *)rows, i, row)
			t->row(f, row, name, json_object_get(json_object_get(row, "metrics"), name));
	}
	if (any)
		fputs(t->end, f);
}

char *ab_report_order_effect_note(const json_t *doc)
{
	const char *worst = NULL;
	double largest = -1;
	size_t i, rows = 0, material = 0;
	json_t *row;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		const json_t *o = json_object_get(row, "order_effect");
		double r = ab_report_num(o, "second_position_ratio"), change;

		if (isnan(r) || r <= 0)
			continue;
		rows++;
		material += json_is_true(json_object_get(o, "material"));
		change = exp(fabs(log(r))) - 1;
		if (change > largest) {
			largest = change;
			worst = ab_report_str(row, "label");
		}
	}
	if (!rows)
		return NULL;
	const char *adjusted = verdict_family(doc) ? " after Holm's adjustment over the rows" : "";

	if (!material)
		return ab_xasprintf("Order effect (AB against BA pairs): running second changes a ratio by at "
				    "most %.2f%% (%s); material (at least 0.5%% with p below 0.05%s) in no row.",
				    100 * largest, worst, adjusted);
	return ab_xasprintf("Order effect (AB against BA pairs): material (at least 0.5%% with p below 0.05%s) in "
			    "%zu of %zu rows, up to %.2f%% (%s); the balanced order cancels it in the ratio, "
			    "and the warnings give those rows' crossover estimates.", adjusted, material, rows,
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

		if (isnan(ab_report_num(sc, "ratio")))
			continue;
		list = ab_xasprintf("%s%s%s %.3f [%.3f, %.3f]", prev ? prev : "", prev ? "; " : "",
				    ab_report_str(row, "label"), ab_report_num(sc, "ratio"),
				    json_number_value(json_array_get(ci, 0)),
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

const char *ab_report_ci_flag(const json_t *m)
{
	if (json_is_true(json_object_get(m, "ci_empty")))
		return " (looks' intervals disjoint: not decided)";
	if (json_is_true(json_object_get(m, "estimate_outside_ci")))
		return " (estimate of all pairs, outside)";
	return "";
}

const char *ab_report_ci_label(const json_t *doc)
{
	return json_is_object(json_object_get(doc, "sequential")) ? "repeated 90% CI" : "90% CI";
}

const char *ab_report_side_label(const json_t *doc, int side)
{
	const char *name = ab_report_str(json_array_get(json_object_get(doc, "sides"), (size_t)side), "name");

	return *name ? name : side ? "candidate" : "parent";
}
