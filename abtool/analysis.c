/* analysis.c - per-row statistics and integrity (see analysis.h). */
#include "analysis.h"
#include "error.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *ab_outcome_name(enum ab_outcome o)
{
	return o == AB_PASS ? "pass" : o == AB_FAIL ? "fail" : "inconclusive";
}

const char *ab_verdict_name(enum ab_verdict v)
{
	switch (v) {
	case AB_ACCEPTED:
		return "accepted";
	case AB_REJECTED:
		return "rejected";
	case AB_INCONCLUSIVE_VERDICT:
		return "inconclusive";
	case AB_INVALID:
		return "invalid";
	}
	return "invalid";
}

int ab_verdict_exit_code(enum ab_verdict v)
{
	return (int)v;
}

char *ab_row_label(const struct ab_experiment *exp, size_t row)
{
	char *s = ab_xstrdup(""), *next;
	size_t p;

	if (exp->nparams == 0) {
		free(s);
		return ab_xstrdup("all");
	}
	for (p = 0; p < exp->nparams; p++) {
		next = ab_xasprintf("%s%s%s=%s", s, p ? " " : "", exp->matrix[p].name,
				    ab_experiment_row_value(exp, row, p));
		free(s);
		s = next;
	}
	return s;
}

json_t *ab_row_params(const struct ab_experiment *exp, size_t row)
{
	json_t *o = json_object();
	size_t p;

	for (p = 0; p < exp->nparams; p++) {
		const char *v = ab_experiment_row_value(exp, row, p);
		int64_t i;
		json_object_set_new(o, exp->matrix[p].name,
				    ab_parse_int64(&i, v) == 0 ? json_integer(i) : json_string(v));
	}
	return o;
}

/* Describe a failed sample: "candidate sample 12 (pair 3): exit 1". */
static char *describe_failure(const struct ab_sample *s)
{
	char where[64];

	if (s->entry.pair >= 0)
		snprintf(where, sizeof(where), "pair %d", s->entry.pair + 1);
	else
		snprintf(where, sizeof(where), "warmup %d", s->entry.warmup + 1);
	return ab_xasprintf("%s sample %u (%s): %s", ab_side_name(s->entry.side), s->entry.seq,
			    where, s->error ? s->error : "failed");
}

static void add_checksum_value(json_t *values, const char *value, enum ab_side side)
{
	size_t i;
	json_t *v;

	json_array_foreach(values, i, v) {
		if (!strcmp(json_string_value(json_object_get(v, "value")), value) &&
		    !strcmp(json_string_value(json_object_get(v, "side")), ab_side_name(side))) {
			json_object_set_new(v, "samples",
					    json_integer(json_integer_value(json_object_get(v, "samples")) + 1));
			return;
		}
	}
	json_array_append_new(values, json_pack("{s:s, s:s, s:i}", "value", value, "side",
						ab_side_name(side), "samples", 1));
}

/* Index of the sample of (row, pair, side) that counts: done and not
 * superseded; -1 when none. Built once as a table for all rows. */
static void index_pairs(long *table, const struct ab_experiment *exp, const struct ab_sample *s,
			size_t n, size_t nrows)
{
	size_t i, pairs = (size_t)exp->pairs;

	for (i = 0; i < nrows * pairs * 2; i++)
		table[i] = -1;
	for (i = 0; i < n; i++) {
		const struct ab_plan_entry *e = &s[i].entry;
		if (s[i].status != AB_SAMPLE_DONE || e->pair < 0 || e->row >= nrows ||
		    (size_t)e->pair >= pairs)
			continue;
		table[(e->row * pairs + (size_t)e->pair) * 2 + e->side] = (long)i;
	}
}

static void row_metrics(struct ab_row_result *rr, const struct ab_experiment *exp,
			const struct ab_sample *s, const long *pair_a, const long *pair_b)
{
	size_t m, i, n = rr->pairs;
	double *a = ab_xmalloc((n ? n : 1) * sizeof(double));
	double *b = ab_xmalloc((n ? n : 1) * sizeof(double));

	rr->metrics = ab_xcalloc(exp->nmetrics, sizeof(*rr->metrics));
	for (m = 0; m < exp->nmetrics; m++) {
		struct ab_row_metric *rm = &rr->metrics[m];
		const char *why = NULL;

		for (i = 0; i < n && !why; i++) {
			a[i] = s[pair_a[i]].metrics[m];
			b[i] = s[pair_b[i]].metrics[m];
			if (isnan(a[i]) || isnan(b[i]))
				why = "not measured in every pair";
			else if (!(a[i] > 0) || !(b[i] > 0))
				why = "zero or negative values: ratios are undefined";
		}
		if (n == 0)
			why = "no complete pair";
		if (why) {
			rm->unavailable = ab_xstrdup(why);
			continue;
		}
		if (ab_stats_paired(&rm->st, a, b, n, exp->metrics[m].better) < 0) {
			rm->unavailable = ab_xstrdup(ab_error_last());
			continue;
		}
		rm->available = 1;
		rm->d = ab_xmalloc(n * sizeof(double));
		for (i = 0; i < n; i++)
			rm->d[i] = log(b[i] / a[i]);
	}
	free(a);
	free(b);
}

static void order_effect(struct ab_row_result *rr, size_t primary)
{
	const struct ab_row_metric *rm = &rr->metrics[primary];
	double sum[2] = {0, 0};
	size_t cnt[2] = {0, 0}, i;

	rr->order_effect = NAN;
	if (!rm->available)
		return;
	for (i = 0; i < rr->pairs; i++) {
		sum[rr->order[i]] += rm->d[i];
		cnt[rr->order[i]]++;
	}
	if (cnt[0] && cnt[1])
		rr->order_effect = sum[0] / (double)cnt[0] - sum[1] / (double)cnt[1];
}

/* Per-side scaling against the row with the smallest value of the scaling
 * parameter and the same values of every other parameter. */
static void scaling(struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	long sp = exp->scaling_param ? ab_experiment_param(exp, exp->scaling_param) : -1;
	size_t r, q, p;

	for (r = 0; r < a->nrows; r++)
		a->rows[r].scaling[0] = a->rows[r].scaling[1] = NAN;
	if (sp < 0)
		return;
	for (r = 0; r < a->nrows; r++) {
		double n_r, n_base = INFINITY;
		long base = -1;

		ab_parse_double(&n_r, ab_experiment_row_value(exp, r, (size_t)sp));
		for (q = 0; q < a->nrows; q++) {
			double n_q;
			int same = 1;
			for (p = 0; p < exp->nparams && same; p++)
				if ((long)p != sp &&
				    ab_experiment_row_value_index(exp, q, p) != ab_experiment_row_value_index(exp, r, p))
					same = 0;
			if (same && ab_parse_double(&n_q, ab_experiment_row_value(exp, q, (size_t)sp)) == 0 &&
			    n_q < n_base) {
				n_base = n_q;
				base = (long)q;
			}
		}
		if (base < 0)
			continue;
		for (p = 0; p < 2; p++) {
			const struct ab_row_metric *mr = &a->rows[r].metrics[a->primary];
			const struct ab_row_metric *mb = &a->rows[base].metrics[a->primary];
			double t_r, t_b;
			if (!mr->available || !mb->available)
				continue;
			t_r = p == 0 ? mr->st.parent.median : mr->st.candidate.median;
			t_b = p == 0 ? mb->st.parent.median : mb->st.candidate.median;
			if (exp->metrics[a->primary].better == AB_HIGHER_IS_BETTER) {
				/* a rate: time is its inverse */
				t_r = 1 / t_r;
				t_b = 1 / t_b;
			}
			a->rows[r].scaling[p] = exp->scaling_work == AB_SCALING_PER_LANE
							? (n_r / n_base) * t_b / t_r
							: t_b / t_r;
		}
	}
}

static void analyse_row(struct ab_analysis *a, size_t r, const struct ab_sample *s, size_t n,
			const long *table)
{
	const struct ab_experiment *exp = a->exp;
	struct ab_row_result *rr = &a->rows[r];
	size_t pairs = (size_t)exp->pairs, i, p;
	long *pa = ab_xmalloc(pairs * sizeof(long)), *pb = ab_xmalloc(pairs * sizeof(long));
	const char *common = NULL;
	int mismatch = 0;

	rr->row = r;
	rr->planned_pairs = pairs;
	rr->order = ab_xmalloc(pairs);
	rr->checksum_match = -1;
	rr->checksum_values = json_array();
	for (i = 0; i < n; i++) {
		if (s[i].entry.row != r || s[i].status != AB_SAMPLE_DONE)
			continue;
		if (!ab_sample_ok(&s[i])) {
			if (!rr->failed++)
				rr->failure = describe_failure(&s[i]);
			continue;
		}
		if (!s[i].checksum)
			continue;
		add_checksum_value(rr->checksum_values, s[i].checksum, s[i].entry.side);
		if (!common)
			common = s[i].checksum;
		else if (strcmp(common, s[i].checksum))
			mismatch = 1;
	}
	if (common) {
		rr->checksum_match = !mismatch;
		if (!mismatch)
			rr->checksum = ab_xstrdup(common);
	}
	for (p = 0; p < pairs; p++) {
		long ia = table[(r * pairs + p) * 2], ib = table[(r * pairs + p) * 2 + 1];
		if (ia < 0 || ib < 0 || !ab_sample_ok(&s[ia]) || !ab_sample_ok(&s[ib]))
			continue;
		pa[rr->pairs] = ia;
		pb[rr->pairs] = ib;
		rr->order[rr->pairs] = s[ia].entry.order;
		rr->pairs++;
	}
	row_metrics(rr, exp, s, pa, pb);
	order_effect(rr, a->primary);
	free(pa);
	free(pb);
}

static void warnings(struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	size_t r;

	if (exp->pairs % 2)
		ab_strv_push(&a->warnings, ab_xasprintf("%d pairs is odd: AB and BA orders cannot balance exactly; use an "
			"even count", exp->pairs));
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		const struct ab_row_metric *rm = &rr->metrics[a->primary];
		char *label = ab_row_label(exp, r);

		if (rm->available && rm->st.ci_k == 0)
			ab_strv_push(&a->warnings, ab_xasprintf("%s: %zu pairs are too few for a one-sided 95%% bound (5 "
				"at least): rules on this row can only be inconclusive", label, rr->pairs));
		if (rm->available && (rm->st.parent.rsd > 0.05 || rm->st.candidate.rsd > 0.05))
			ab_strv_push(&a->warnings, ab_xasprintf("%s: RSD above 5%% (parent %.1f%%, candidate %.1f%%): a noisy "
				"machine or benchmark", label, 100 * rm->st.parent.rsd,
			      100 * rm->st.candidate.rsd));
		if (rm->available && (rm->st.parent.outliers || rm->st.candidate.outliers))
			ab_strv_push(&a->warnings, ab_xasprintf("%s: %zu outlier sample(s) by the MAD rule (kept in the "
				"statistics)", label, rm->st.parent.outliers + rm->st.candidate.outliers));
		if (rm->available && rm->st.pairs >= 6 &&
		    (rm->st.signed_rank.p_two_sided < 0.05) != (rm->st.sign_p_two_sided < 0.05))
			ab_strv_push(&a->warnings, ab_xasprintf("%s: the signed-rank test (p %.3g) and the sign test on pair "
				"wins (p %.3g) disagree at 0.05: a few large pairs drive the result", label,
			      rm->st.signed_rank.p_two_sided, rm->st.sign_p_two_sided));
		if (!isnan(rr->order_effect) && fabs(rr->order_effect) > 0.01)
			ab_strv_push(&a->warnings, ab_xasprintf("%s: order effect %.1f%% (mean log ratio of AB pairs minus "
				"BA pairs): whichever side runs first is favoured; the balanced order "
				"cancels it in the estimate", label, 100 * expm1(rr->order_effect)));
		free(label);
	}
}

void ab_analysis_run(struct ab_analysis *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t n, char *const *integrity)
{
	size_t r, i;
	long *table;

	memset(out, 0, sizeof(*out));
	out->exp = exp;
	for (i = 0; i < exp->nmetrics; i++)
		if (!strcmp(exp->metrics[i].name, exp->metric))
			out->primary = i;
	out->nrows = ab_experiment_nrows(exp);
	out->rows = ab_xcalloc(out->nrows, sizeof(*out->rows));
	for (i = 0; i < n; i++) {
		if (samples[i].status == AB_SAMPLE_SUPERSEDED)
			continue;
		out->samples_planned++;
		out->samples_done += samples[i].status == AB_SAMPLE_DONE;
	}
	table = ab_xmalloc((out->nrows * (size_t)exp->pairs * 2 + 1) * sizeof(long));
	index_pairs(table, exp, samples, n, out->nrows);
	for (r = 0; r < out->nrows; r++)
		analyse_row(out, r, samples, n, table);
	free(table);
	scaling(out);
	warnings(out);
	ab_rules_evaluate(out, integrity);
}

void ab_analysis_release(struct ab_analysis *a)
{
	size_t r, m;

	for (r = 0; r < a->nrows; r++) {
		struct ab_row_result *rr = &a->rows[r];
		for (m = 0; rr->metrics && m < a->exp->nmetrics; m++) {
			free(rr->metrics[m].unavailable);
			free(rr->metrics[m].d);
		}
		free(rr->metrics);
		free(rr->order);
		free(rr->failure);
		free(rr->checksum);
		json_decref(rr->checksum_values);
	}
	free(a->rows);
	for (r = 0; a->rules && r < a->exp->nrules; r++) {
		for (m = 0; m < a->rules[r].nrows; m++)
			free(a->rules[r].rows[m].detail);
		free(a->rules[r].rows);
		free(a->rules[r].detail);
	}
	free(a->rules);
	ab_strv_free(a->reasons);
	ab_strv_free(a->warnings);
	memset(a, 0, sizeof(*a));
}
