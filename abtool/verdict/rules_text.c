/* rules_text.c - the findings of rules.c in words (rules_text.h): how
 * many decimals show two values apart, thresholds, the phrases of bounds
 * and of equivalence, a row's findings joined, a row's head line. */
#include "rules_text.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimals enough to show how values compare: the fewest from 3 to 8 at
 * which every two different values of v[0 .. n) print differently (so a
 * bound of 0.98998 is not shown equal to a threshold of 0.990099). */
static int decimals(const double *v, size_t n)
{
	char x[64], y[64];
	size_t i, j;
	int d;

	for (d = 3; d < 8; d++) {
		int clash = 0;

		for (i = 0; i < n && !clash; i++)
			for (j = i + 1; j < n && !clash; j++)
				if (v[i] != v[j] && isfinite(v[i]) && isfinite(v[j])) {
					snprintf(x, sizeof(x), "%.*f", d, v[i]);
					snprintf(y, sizeof(y), "%.*f", d, v[j]);
					clash = !strcmp(x, y);
				}
		if (!clash)
			break;
	}
	return d;
}

/* A threshold as shown with `d` decimals: "1.020", or "0.909 = 1/1.1"
 * when it is the reciprocal of a margin, so that "faster by 10%" is
 * recognisable. New string. */
static char *threshold_text(const struct inferential *pr, int d)
{
	return pr->reciprocal ? ab_xasprintf("%.*f = 1/%.4g", d, pr->theta, 1 + pr->margin)
			      : ab_xasprintf("%.*f", d, pr->theta);
}

/* The finding of a component on a row whose looks' intervals do not
 * intersect. New memory. */
static char *empty_phrase(const char *key, const struct interval *iv)
{
	return ab_xasprintf("%s: not decided: the repeated intervals of the looks do not intersect "
			    "(lower bound %.4f above upper bound %.4f), so their coverage failed for this "
			    "row", key, iv->lower, iv->upper);
}

char *rules_bound_phrase(const struct inferential *pr, const struct judged *j, size_t m)
{
	const struct interval *iv = &j->iv;
	int below = pr->kind == AB_PASS_BELOW;
	char *s, *out;

	if (!iv->available)
		return ab_xasprintf("%s: %s", pr->key, iv->why);
	if (isnan(iv->lower))
		return ab_xasprintf("%s: %zu pair%s too few for a one-sided 95%% bound", pr->key, iv->n,
				    iv->n == 1 ? " is" : "s are");
	if (iv->empty)
		return empty_phrase(pr->key, iv);
	{
		double v[3] = {iv->lower, iv->upper, pr->theta};
		int d = decimals(v, 3);
		char *th = threshold_text(pr, d);

		if (j->raw == AB_PASS)
			s = ab_xasprintf("%s%s bound %.*f %s %s (%s)", iv->seq ? "repeated " : "",
					 below ? "upper" : "lower", d, below ? iv->upper : iv->lower,
					 below ? "below" : "above", th, pr->meaning);
		else if (j->raw == AB_INCONCLUSIVE)
			s = ab_xasprintf("%s (the interval contains %s)", pr->inconclusive, th);
		else
			s = ab_xasprintf("%s%s bound %.*f %s %s (%s)", iv->seq ? "repeated " : "",
					 below ? "lower" : "upper", d, below ? iv->lower : iv->upper,
					 below ? "above" : "below", th, pr->refuted);
		free(th);
	}
	if (j->raw != AB_FAIL || m <= 1)
		return s;
	out = ab_xasprintf("%s, %s Holm's adjustment over the verdict's %zu refutations (one-sided "
			   "adjusted p %.3g)", s,
			   j->outcome == AB_FAIL ? "kept by" : "but not after", m, j->q);
	free(s);
	return out;
}

char *rules_equivalence_phrase(const struct inferential *up, const struct judged *ju,
			       const struct inferential *lo, const struct judged *jl, size_t m,
			       enum ab_outcome *o)
{
	const struct interval *iv = &ju->iv;

	if (ju->raw == AB_FAIL || jl->raw == AB_FAIL) {
		const struct judged *j = ju->raw == AB_FAIL ? ju : jl;
		*o = j->outcome;
		return rules_bound_phrase(ju->raw == AB_FAIL ? up : lo, j, m);
	}
	if (!iv->available || isnan(iv->lower) || iv->empty) {
		*o = AB_INCONCLUSIVE;
		return rules_bound_phrase(up, ju, m);
	}
	{
		double v[4] = {iv->lower, iv->upper, lo->theta, up->theta};
		int d = decimals(v, 4);
		char *tl = threshold_text(lo, d), *tu = threshold_text(up, d), *out;

		*o = ju->raw == AB_PASS && jl->raw == AB_PASS ? AB_PASS : AB_INCONCLUSIVE;
		if (*o == AB_PASS)
			out = ab_xasprintf("interval [%.*f, %.*f] inside [%s, %s] (%s)", d, iv->lower, d,
					   iv->upper, tl, tu, up->meaning);
		else
			out = ab_xasprintf("%s (the interval [%.*f, %.*f] is not inside [%s, %s])",
					   up->inconclusive, d, iv->lower, d, iv->upper, tl, tu);
		free(tl);
		free(tu);
		return out;
	}
}

void rules_add_phrase(struct row_state *rs, enum ab_outcome o, const char *phrase)
{
	if (o > rs->outcome)
		rs->outcome = o;
	if (rs->nfindings == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 4;
		rs->findings = ab_xrealloc(rs->findings, rs->cap * sizeof(*rs->findings));
	}
	rs->findings[rs->nfindings++] = (struct finding){o, ab_xstrdup(phrase)};
}

char *rules_join_findings(struct row_state *rs)
{
	size_t i, j, len = 1;
	int mixed = 0;
	char *out, *end;

	for (i = 1; i < rs->nfindings; i++) {  /* insertion sort: few findings */
		struct finding f = rs->findings[i];

		for (j = i; j > 0 && rs->findings[j - 1].outcome < f.outcome; j--)
			rs->findings[j] = rs->findings[j - 1];
		rs->findings[j] = f;
	}

	for (i = 0; i < rs->nfindings; i++) {
		len += strlen(rs->findings[i].phrase) + 2 + 16;
		mixed |= rs->findings[i].outcome != rs->findings[0].outcome;
	}
	out = end = ab_xmalloc(len);
	*out = '\0';
	for (i = 0; i < rs->nfindings; i++) {
		if (i)
			end = stpcpy(end, ", ");
		end = stpcpy(end, rs->findings[i].phrase);
		if (mixed)
			end += sprintf(end, " [%s]", ab_outcome_name(rs->findings[i].outcome));
		free(rs->findings[i].phrase);
	}
	free(rs->findings);
	rs->findings = NULL;
	rs->nfindings = rs->cap = 0;
	return out;
}

char *rules_row_head(const struct ab_analysis *a, size_t row, size_t metric)
{
	const struct ab_row_metric *rm = &a->rows[row].metrics[metric];
	char *label = ab_row_label(a->exp, row), *out;
	const char *name = metric == a->primary ? "" : a->exp->metrics[metric].name;

	if (!rm->available)
		out = ab_xasprintf("%s: %s%s%s unavailable", label, name, *name ? " " : "", *name ? "" : "metric");
	else if (rm->st.ci_k) {
		/* the digits that show an estimate outside its interval, or an
		 * empty one, as such */
		double v[3] = {rm->st.ratio, rm->st.ci_lower, rm->st.ci_upper};
		int d = decimals(v, 3);

		out = ab_xasprintf("%s: %s%sratio %.*f [%.*f, %.*f]%s (%zu/%zu pair wins)", label, name,
				   *name ? " " : "", d, rm->st.ratio, d, rm->st.ci_lower, d, rm->st.ci_upper,
				   rm->st.ci_empty ? " (the looks' intervals do not intersect)"
				   : a->rows[row].seq && (rm->st.ratio < rm->st.ci_lower || rm->st.ratio > rm->st.ci_upper)
				   ? " (the estimate of all pairs lies outside: an earlier look's bound excludes it)" : "",
				   rm->st.wins, rm->st.pairs);
	}
	else
		out = ab_xasprintf("%s: %s%sratio %.3f (%zu/%zu pair wins)", label, name, *name ? " " : "",
				   rm->st.ratio, rm->st.wins, rm->st.pairs);
	free(label);
	return out;
}
