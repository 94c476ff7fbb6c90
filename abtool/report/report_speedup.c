/* report_speedup.c - hyperfine's summary line for a comparison
 * (report_speedup.h). */
#include "report_speedup.h"
#include "report_common.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One row's line, in numbers. */
struct speedup {
	const char *label;       /* the row's label, or NULL without a matrix (borrowed) */
	const char *fast, *slow; /* the sides' names, faster first when shown (borrowed) */
	int shown;               /* the interval excludes 1 */
	int empty;               /* the looks' intervals do not intersect: nothing decided */
	int outside;             /* the estimate (of all pairs) lies outside the interval */
	long long noci;          /* no interval: the row's pairs, too few for one */
	double x, lo, hi;        /* shown: the faster side's speed-up and its interval (>= 1) */
	double ratio, l, u;      /* not shown: B/A and its interval */
	int time;                /* a time metric (unit ns): "ran ... faster" */
	const char *metric;      /* its name, for "better on METRIC" (borrowed) */
};

/* Row `row` of `doc` as a speed-up; 0 when it has no interval to show. */
static int speedup_of(struct speedup *out, const json_t *doc, const json_t *row, int matrix)
{
	double r = ab_report_num(row, "ratio"), l, u;
	int b_better;

	memset(out, 0, sizeof(*out));
	if (ab_report_ci_bounds(row, &l, &u) != 2 && r > 0 && ab_report_int(row, "pairs") > 0) {
		out->label = matrix ? ab_report_str(row, "label") : NULL;
		out->fast = ab_report_side_label(doc, 0);
		out->slow = ab_report_side_label(doc, 1);
		out->ratio = r;
		out->noci = ab_report_int(row, "pairs");
		return 1;  /* too few pairs for an interval: no difference shown */
	}
	if (ab_report_ci_bounds(row, &l, &u) != 2 || !(r > 0) || !(l > 0) || !(u > 0))
		return 0;
	out->label = matrix ? ab_report_str(row, "label") : NULL;
	out->time = !strcmp(ab_report_str(row, "unit"), "ns");
	out->metric = ab_report_str(row, "metric");
	out->ratio = r;
	out->l = l;
	out->u = u;
	/* an empty intersection of a sequential row's looks decides nothing */
	out->empty = json_is_true(json_object_get(row, "ci_empty")) || l > u;
	out->shown = !out->empty && (u < 1 || l > 1);
	out->outside = !out->empty && (json_is_true(json_object_get(row, "estimate_outside_ci")) || r < l || r > u);
	out->fast = ab_report_side_label(doc, 0);
	out->slow = ab_report_side_label(doc, 1);
	if (!out->shown)
		return 1;
	/* B's values lower: B is better on a lower-is-better metric */
	b_better = (u < 1) == (strcmp(ab_report_str(row, "better"), "higher") != 0);
	if (b_better) {
		out->fast = ab_report_side_label(doc, 1);
		out->slow = ab_report_side_label(doc, 0);
	}
	if (u < 1) {
		out->x = 1 / r;
		out->lo = 1 / u;
		out->hi = 1 / l;
	} else {
		out->x = r;
		out->lo = l;
		out->hi = u;
	}
	return 1;
}

/* Decimals that show a speed-up's lower bound above 1 (2, up to 4):
 * 1.004 is not "1.00". */
static int decimals(const struct speedup *s)
{
	int d = 2;

	while (d < 4 && s->lo < 1 + 0.5 * pow(10, -d))
		d++;
	return d;
}

/* Decimals that keep an interval [l, u] that contains 1 from printing
 * a bound other than 1 as 1 (3, up to 6): 0.9996 is not "1.000". */
static int decimals_around_1(double l, double u)
{
	int d = 3;

	while (d < 6 && ((l != 1 && fabs(l - 1) < 0.5 * pow(10, -d)) || (u != 1 && fabs(u - 1) < 0.5 * pow(10, -d))))
		d++;
	return d;
}

/* The line's text after the names and the label: the numbers and words,
 * between the first name ("`fast`") and the second; `glue` between a
 * number and its interval. A sequential row's estimate is of all its
 * pairs and may lie outside the intersection of its looks' intervals:
 * the line says so, as the Markdown's rows do. New strings in *mid and
 * *end. */
static void words(const struct speedup *s, char glue, char **mid, char **end)
{
	const char *outside = s->outside ? " (the estimate of all pairs lies outside the repeated interval)" : "";

	if (s->shown) {
		int d = decimals(s);

		*mid = ab_xasprintf(" %s %.*f%c[%.*f,%c%.*f] times %s than ", s->time ? "ran" : "was", d, s->x,
				    glue, d, s->lo, glue, d, s->hi, s->time ? "faster" : "better");
		*end = s->time ? ab_xstrdup(outside) : ab_xasprintf(" on %s%s", s->metric, outside);
	} else if (s->noci) {
		*mid = ab_xstrdup(" and ");
		*end = ab_xasprintf(": no difference shown (ratio B/A %.3f; %lld pair%s too few for an interval)",
				    s->ratio, s->noci, s->noci == 1 ? " is" : "s are");
	} else if (s->empty) {
		*mid = ab_xstrdup(" and ");
		*end = ab_xstrdup(": no difference shown (the looks' intervals do not intersect, so nothing "
				  "is decided)");
	} else {
		int d = decimals_around_1(s->l, s->u);

		*mid = ab_xstrdup(" and ");
		*end = ab_xasprintf(": no difference shown, which is not equivalence (ratio B/A "
				    "%.*f%c[%.*f,%c%.*f] contains 1)%s", d, s->ratio, glue, d, s->l, glue, d, s->u,
				    outside);
	}
}

/* `s` with its control characters as spaces (new string). */
static char *plain(const char *s)
{
	char *out = ab_xstrdup(s), *p;

	for (p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return out;
}

/* 1 when the document's rows vary: a matrix, whose lines need labels. */
static int has_matrix(const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows");

	return json_array_size(rows) > 1 || json_object_size(json_object_get(json_array_get(rows, 0), "params"));
}

static int applies(const json_t *doc)
{
	return json_is_array(json_object_get(doc, "sides")) && strcmp(ab_report_str(doc, "verdict"), "invalid");
}

char **ab_report_speedup_lines(const json_t *doc, char glue)
{
	char **out = NULL;
	const json_t *row;
	size_t i;
	int matrix = has_matrix(doc);

	if (!applies(doc))
		return NULL;
	out = ab_xcalloc(1, sizeof(*out));  /* an empty list, not NULL */
	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		struct speedup s;
		char *mid, *end, *label, *fast, *slow;

		if (!speedup_of(&s, doc, row, matrix))
			continue;
		words(&s, glue, &mid, &end);
		label = s.label ? plain(s.label) : NULL;
		fast = plain(s.fast);
		slow = plain(s.slow);
		ab_strv_push(&out, ab_xasprintf("%s%s`%s`%s`%s`%s", label ? label : "", label ? ": " : "",
						fast, mid, slow, end));
		free(label);
		free(fast);
		free(slow);
		free(mid);
		free(end);
	}
	return out;
}

void ab_report_speedups(FILE *f, const json_t *doc, const struct ab_report_markup *m)
{
	const json_t *row, *rows = json_object_get(doc, "rows");
	size_t i, n = 0;
	int matrix = has_matrix(doc);
	struct speedup s;

	if (!applies(doc))
		return;
	json_array_foreach(rows, i, row)
		n += speedup_of(&s, doc, row, matrix);
	json_array_foreach(rows, i, row) {
		char *mid, *end;

		if (!speedup_of(&s, doc, row, matrix))
			continue;
		words(&s, ' ', &mid, &end);
		fputs(n > 1 ? "- " : "", f);
		if (s.label) {
			m->text(f, s.label);
			fputs(": ", f);
		}
		m->code(f, s.fast);
		m->text(f, mid);
		m->code(f, s.slow);
		m->text(f, end);
		fputc('\n', f);
		free(mid);
		free(end);
	}
	if (n)
		fputc('\n', f);
}
