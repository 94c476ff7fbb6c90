/* rules.c - acceptance rules, their outcomes per row and the verdict
 * (DESIGN.md "Statistics and verdict").
 *
 * Every inferential predicate decides on the decision interval [L, U] of
 * the row (exact one-sided 95% bounds): it passes only when the bound that
 * must clear the margin does, fails when the other bound refutes it, and is
 * inconclusive otherwise. A rule over several rows passes only when every
 * row passes (intersection–union, Berger 1982: no adjustment is needed for
 * a conjunction), and fails only when a row's refutation also survives
 * Holm's step-down adjustment across the rule's rows (Holm 1979), so that
 * many noisy rows cannot manufacture a rejection. Observational predicates
 * (pair wins) decide on observed counts and say so. */
#include "analysis.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An inferential predicate in "cost" orientation, where ratios below 1
 * favour the candidate whatever the metric's direction. */
enum pred_kind { NO_REGRESSION, FASTER_BY, SLOWER_BY };

struct pred_eval {
	enum ab_outcome outcome;   /* before the Holm step */
	int refutes;               /* the bound refutes the claim */
	double p_refute;           /* one-sided signed-rank p of the refutation */
	char *detail;
};

/* The decision bounds and estimate turned so that < 1 favours B. */
struct oriented {
	double ratio, lower, upper;
	int higher;                /* the metric is higher-is-better */
};

static struct oriented orient(const struct ab_paired *st, enum ab_better better)
{
	struct oriented o;

	o.higher = better == AB_HIGHER_IS_BETTER;
	if (!o.higher) {
		o.ratio = st->ratio;
		o.lower = st->ci_lower;
		o.upper = st->ci_upper;
	} else {
		o.ratio = 1 / st->ratio;
		o.lower = 1 / st->ci_upper;
		o.upper = 1 / st->ci_lower;
	}
	return o;
}

static char *percent(double fraction)
{
	return ab_xasprintf("%.4g%%", 100 * fraction);
}

/* "ratio 1.041 [1.027, 1.058]" in the metric's own B/A terms. */
static char *ratio_text(const struct ab_paired *st)
{
	return ab_xasprintf("ratio %.3f [%.3f, %.3f]", st->ratio, st->ci_lower, st->ci_upper);
}

static struct pred_eval eval_pred(enum pred_kind kind, double delta, const struct ab_row_metric *rm,
				  enum ab_better better, const char *label, size_t pairs)
{
	struct pred_eval e = {AB_INCONCLUSIVE, 0, 1.0, NULL};
	const struct ab_paired *st = &rm->st;
	struct oriented o;
	double t, shown;
	char *rt, *pct = percent(delta);
	const char *pass_bound, *refute_bound, *fail_word, *inc_word;
	struct ab_signed_rank sr;
	double *dc;
	size_t i;
	int pass;

	if (!rm->available || st->ci_k == 0) {
		e.detail = !rm->available
				   ? ab_xasprintf("%s: metric unavailable (%s): inconclusive", label, rm->unavailable)
				   : ab_xasprintf("%s: %zu pairs are too few for a one-sided 95%% bound: inconclusive",
						  label, pairs);
		free(pct);
		return e;
	}
	o = orient(st, better);
	t = kind == FASTER_BY ? 1 / (1 + delta) : 1 + delta;
	/* The threshold as the reader sees it, in B/A of the metric. */
	shown = o.higher ? 1 / t : t;
	if (kind == SLOWER_BY) {
		pass = o.lower > t;
		e.refutes = o.upper < t;
	} else {
		pass = o.upper < t;
		e.refutes = o.lower > t;
	}
	/* Which displayed bound decides, in words. */
	if ((kind != SLOWER_BY) != o.higher) {
		pass_bound = "upper bound below";
		refute_bound = "lower bound above";
	} else {
		pass_bound = "lower bound above";
		refute_bound = "upper bound below";
	}
	switch (kind) {
	case NO_REGRESSION:
		fail_word = "regression";
		inc_word = "cannot exclude a regression above";
		break;
	case FASTER_BY:
		fail_word = "gain below the margin";
		inc_word = "cannot show a gain of";
		break;
	default:
		fail_word = "cost below the margin";
		inc_word = "cannot show a cost of";
		break;
	}

	/* One-sided signed-rank p of the refutation, for Holm across rows. */
	dc = ab_xmalloc(pairs * sizeof(double));
	for (i = 0; i < pairs; i++)
		dc[i] = o.higher ? -rm->d[i] : rm->d[i];
	ab_stats_signed_rank(&sr, dc, pairs, log(t));
	e.p_refute = kind == SLOWER_BY ? sr.p_less : sr.p_greater;
	free(dc);

	rt = ratio_text(st);
	if (pass) {
		e.outcome = AB_PASS;
		e.detail = ab_xasprintf("%s: %s, %s %.3f (%zu/%zu pair wins): pass", label, rt, pass_bound,
					shown, st->wins, st->pairs);
	} else if (e.refutes) {
		e.outcome = AB_FAIL;
		e.detail = ab_xasprintf("%s: %s, %s %.3f (%zu/%zu pair wins): %s", label, rt, refute_bound,
					shown, st->wins, st->pairs, fail_word);
	} else {
		e.detail = ab_xasprintf("%s: %s %s %s: inconclusive", label, rt, inc_word, pct);
	}
	free(rt);
	free(pct);
	return e;
}

/* Holm's step-down adjustment (Holm 1979) of p[0..m): adjusted p in q. */
static void holm(double *q, const double *p, size_t m)
{
	size_t *idx = ab_xmalloc((m ? m : 1) * sizeof(size_t)), i, j;
	double running = 0;

	for (i = 0; i < m; i++)
		idx[i] = i;
	for (i = 1; i < m; i++)  /* insertion sort: m is the rows of one rule */
		for (j = i; j > 0 && p[idx[j]] < p[idx[j - 1]]; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (i = 0; i < m; i++) {
		double adj = fmin(1.0, (double)(m - i) * p[idx[i]]);
		if (adj > running)
			running = adj;
		q[idx[i]] = running;
	}
	free(idx);
}

static void append_detail(char **detail, const char *more)
{
	char *next;

	if (!*detail) {
		*detail = ab_xstrdup(more);
		return;
	}
	next = ab_xasprintf("%s; %s", *detail, more);
	free(*detail);
	*detail = next;
}

static void combine(struct ab_rule_row *row, enum ab_outcome o, const char *detail)
{
	if (o > row->outcome)
		row->outcome = o;
	append_detail(&row->detail, detail);
}

/* Evaluate one inferential predicate over the rule's rows with the Holm
 * step on its refutations. */
static void inferential(struct ab_rule_result *res, enum pred_kind kind, double delta,
			const struct ab_analysis *a, size_t metric)
{
	const struct ab_experiment *exp = a->exp;
	struct pred_eval *ev = ab_xcalloc(res->nrows ? res->nrows : 1, sizeof(*ev));
	double *p = ab_xmalloc((res->nrows ? res->nrows : 1) * sizeof(double));
	double *q = ab_xmalloc((res->nrows ? res->nrows : 1) * sizeof(double));
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		const struct ab_row_result *rr = &a->rows[res->rows[i].row];
		char *label = ab_row_label(exp, rr->row);
		ev[i] = eval_pred(kind, delta, &rr->metrics[metric], exp->metrics[metric].better, label,
				  rr->pairs);
		p[i] = ev[i].p_refute;
		free(label);
	}
	holm(q, p, res->nrows);
	for (i = 0; i < res->nrows; i++) {
		if (ev[i].outcome == AB_FAIL && res->nrows > 1 && q[i] > AB_STATS_ALPHA) {
			char *d = ab_xasprintf("%s, but not after Holm's adjustment over %zu rows (p %.3g): "
					       "inconclusive", ev[i].detail, res->nrows, q[i]);
			free(ev[i].detail);
			ev[i].detail = d;
			ev[i].outcome = AB_INCONCLUSIVE;
		}
		combine(&res->rows[i], ev[i].outcome, ev[i].detail);
		free(ev[i].detail);
	}
	free(ev);
	free(p);
	free(q);
}

static void pair_wins(struct ab_rule_result *res, const struct ab_rule *rule,
		      const struct ab_analysis *a, size_t metric)
{
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		const struct ab_row_result *rr = &a->rows[res->rows[i].row];
		const struct ab_row_metric *rm = &rr->metrics[metric];
		char *label = ab_row_label(a->exp, rr->row), *d;
		size_t need = rule->min_pair_wins > 0 ? (size_t)rule->min_pair_wins
						     : (size_t)ceil(rule->min_pair_wins_frac * (double)rr->planned_pairs - 1e-9);
		enum ab_outcome o;

		if (!rm->available) {
			o = AB_INCONCLUSIVE;
			d = ab_xasprintf("%s: metric unavailable (%s): inconclusive", label, rm->unavailable);
		} else {
			o = rm->st.wins >= need ? AB_PASS : AB_FAIL;
			d = ab_xasprintf("%s: %zu/%zu pair wins, %s %zu (observed): %s", label, rm->st.wins,
					 rm->st.pairs, o == AB_PASS ? "at least" : "fewer than", need,
					 o == AB_PASS ? "pass" : "fail");
		}
		combine(&res->rows[i], o, d);
		free(d);
		free(label);
	}
}

/* Dispersion gates turn a pass into inconclusive; they never hide a fail. */
static void dispersion(struct ab_rule_result *res, const struct ab_rule *rule,
		       const struct ab_analysis *a, size_t metric)
{
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		const struct ab_row_metric *rm = &a->rows[res->rows[i].row].metrics[metric];
		char *label, *d = NULL;

		if (res->rows[i].outcome != AB_PASS || !rm->available)
			continue;
		label = ab_row_label(a->exp, res->rows[i].row);
		if (!isnan(rule->max_rsd) &&
		    (rm->st.parent.rsd > rule->max_rsd || rm->st.candidate.rsd > rule->max_rsd))
			d = ab_xasprintf("%s: RSD parent %.2f%%, candidate %.2f%% above max_rsd %.4g%%: "
					 "inconclusive", label, 100 * rm->st.parent.rsd,
					 100 * rm->st.candidate.rsd, 100 * rule->max_rsd);
		else if (!isnan(rule->max_ci_width) && rm->st.ci_k > 0 &&
			 rm->st.ci_upper / rm->st.ci_lower - 1 > rule->max_ci_width)
			d = ab_xasprintf("%s: interval width %.2f%% above max_ci_width %.4g%%: inconclusive",
					 label, 100 * (rm->st.ci_upper / rm->st.ci_lower - 1),
					 100 * rule->max_ci_width);
		if (d) {
			res->rows[i].outcome = AB_INCONCLUSIVE;
			append_detail(&res->rows[i].detail, d);
			free(d);
		}
		free(label);
	}
}

static size_t metric_index(const struct ab_experiment *exp, const char *name)
{
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		if (!strcmp(exp->metrics[i].name, name))
			return i;
	return 0;
}

static void evaluate_rule(struct ab_rule_result *res, const struct ab_rule *rule,
			  const struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	size_t metric = metric_index(exp, rule->metric ? rule->metric : exp->metric), r, n = 0;
	enum ab_outcome worst = AB_PASS;

	res->rows = ab_xcalloc(a->nrows ? a->nrows : 1, sizeof(*res->rows));
	for (r = 0; r < a->nrows; r++)
		if (ab_selector_match(&rule->where, exp, r))
			res->rows[n++].row = r;
	res->nrows = n;

	if (!isnan(rule->no_regression))
		inferential(res, NO_REGRESSION, rule->no_regression, a, metric);
	if (!isnan(rule->faster_by))
		inferential(res, FASTER_BY, rule->faster_by, a, metric);
	if (!isnan(rule->slower_by))
		inferential(res, SLOWER_BY, rule->slower_by, a, metric);
	if (rule->min_pair_wins > 0 || !isnan(rule->min_pair_wins_frac))
		pair_wins(res, rule, a, metric);
	dispersion(res, rule, a, metric);

	for (r = 0; r < n; r++)
		if (res->rows[r].outcome > worst)
			worst = res->rows[r].outcome;
	res->outcome = n ? worst : AB_INCONCLUSIVE;
	for (r = 0; r < n; r++)
		if (res->rows[r].outcome == worst)
			append_detail(&res->detail, res->rows[r].detail);
	if (!n)
		res->detail = ab_xstrdup("selects no row: inconclusive");
}

void ab_rules_evaluate(struct ab_analysis *a, char *const *integrity)
{
	const struct ab_experiment *exp = a->exp;
	char *const *reason;
	size_t i, r;
	int invalid = 0, failed = 0, inconclusive = 0;

	/* Integrity first: no speed claim is made from a wrong or broken side. */
	for (reason = integrity; reason && *reason; reason++, invalid = 1)
		ab_strv_push(&a->reasons, ab_xstrdup(*reason));
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		char *label = ab_row_label(exp, r);

		if (rr->failed) {
			ab_strv_push(&a->reasons, ab_xasprintf("%s: %zu failed sample(s), first: %s", label,
							       rr->failed, rr->failure));
			invalid = 1;
		}
		if (rr->checksum_match == 0) {
			char *values = ab_xstrdup(""), *next;
			size_t k;
			json_t *v;
			json_array_foreach(rr->checksum_values, k, v) {
				next = ab_xasprintf("%s%s%s printed '%s' (%lld)", values, k ? ", " : "",
						    json_string_value(json_object_get(v, "side")),
						    json_string_value(json_object_get(v, "value")),
						    (long long)json_integer_value(json_object_get(v, "samples")));
				free(values);
				values = next;
			}
			ab_strv_push(&a->reasons, ab_xasprintf("%s: checksum mismatch: %s", label, values));
			free(values);
			invalid = 1;
		}
		free(label);
	}
	if (!invalid && a->samples_done < a->samples_planned) {
		ab_strv_push(&a->reasons, ab_xasprintf("only %zu of %zu planned samples ran",
						       a->samples_done, a->samples_planned));
		invalid = 1;
	}

	a->rules = ab_xcalloc(exp->nrules ? exp->nrules : 1, sizeof(*a->rules));
	for (i = 0; i < exp->nrules; i++) {
		evaluate_rule(&a->rules[i], &exp->rules[i], a);
		failed |= a->rules[i].outcome == AB_FAIL;
		inconclusive |= a->rules[i].outcome == AB_INCONCLUSIVE;
	}
	if (!invalid) {
		for (i = 0; i < exp->nrules; i++)
			if (a->rules[i].outcome == (failed ? AB_FAIL : AB_INCONCLUSIVE))
				ab_strv_push(&a->reasons, ab_xasprintf("%s: %s", exp->rules[i].name,
								       a->rules[i].detail));
		if (!exp->nrules) {
			ab_strv_push(&a->reasons, ab_xstrdup("the experiment declares no acceptance rules "
							     "(add 'accept:')"));
			inconclusive = 1;
		}
	}
	a->verdict = invalid ? AB_INVALID : failed ? AB_REJECTED
				: inconclusive ? AB_INCONCLUSIVE_VERDICT : AB_ACCEPTED;
}
