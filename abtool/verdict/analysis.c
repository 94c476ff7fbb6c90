/* analysis.c - per-row statistics and integrity (see analysis.h). */
#include "analysis.h"
#include "error.h"
#include "util.h"

#include <assert.h>
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
 * superseded; -1 when none. One table for all rows. */
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
		assert(e->side == AB_PARENT || e->side == AB_CANDIDATE);
		table[(e->row * pairs + (size_t)e->pair) * 2 + e->side] = (long)i;
	}
}

/* A timed-out sample the row tolerates: the worst possible value for its
 * side (docs/rules.md, allow_failed_pairs), so that it counts as a loss and is never
 * dropped (dropping it would censor the slow side). A huge finite stand-in
 * keeps the rank statistics exact and the log ratios finite. When both
 * sides of a pair timed out, both take the same stand-in: d = ln 1 = 0
 * exactly, a tie, which the signed-rank test ranks as one of Pratt's
 * zeros and the sign test leaves out. Neither side is known to be
 * better, and the pair stays in the count, so the row's evidence is
 * never inflated by dropping it. */
#define WORST_LOW 1e300
#define WORST_HIGH 1e-300

static double value_of(const struct ab_sample *s, size_t m, const struct ab_metric *metric)
{
	if (s->timed_out)
		return metric->better == AB_HIGHER_IS_BETTER ? WORST_HIGH : WORST_LOW;
	return s->metrics[m];
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
			a[i] = value_of(&s[pair_a[i]], m, &exp->metrics[m]);
			b[i] = value_of(&s[pair_b[i]], m, &exp->metrics[m]);
			if (isnan(a[i]) || isnan(b[i])) {
				/* say why, when the sample recorded it */
				const struct ab_sample *x = isnan(a[i]) ? &s[pair_a[i]] : &s[pair_b[i]];
				json_t *u = x->unavailable ? json_loads(x->unavailable, 0, NULL) : NULL;
				const char *reason = json_string_value(json_object_get(u, exp->metrics[m].name));
				if (reason) {
					rm->unavailable = ab_xstrdup(reason);
					json_decref(u);
					break;
				}
				json_decref(u);
				why = "not measured in every pair";
			}
			else if (!(a[i] > 0) || !(b[i] > 0))
				why = "zero or negative values: ratios are undefined";
		}
		if (n == 0 && !rm->unavailable)
			why = "no complete pair";
		if (rm->unavailable)
			continue;
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
			rm->d[i] = ab_stats_log_ratio(a[i], b[i]);
	}
	free(a);
	free(b);
}

/* Crossover analysis of the order (Grizzle 1965; Senn 2002, ch. 3). */
static void order_effect(struct ab_row_result *rr, size_t primary)
{
	struct ab_order_effect *o = &rr->order_effect;
	const struct ab_row_metric *rm = &rr->metrics[primary];
	double sum[2] = {0, 0}, ss[2] = {0, 0}, mean[2];
	size_t cnt[2] = {0, 0}, i, g;

	memset(o, 0, sizeof(*o));
	o->effect = o->p = o->p_adjusted = o->crossover_ratio = o->crossover_lower = o->crossover_upper = NAN;
	if (!rm->available)
		return;
	for (i = 0; i < rr->pairs; i++) {
		sum[rr->order[i]] += rm->d[i];
		cnt[rr->order[i]]++;
	}
	o->n_ab = cnt[AB_ORDER_AB];
	o->n_ba = cnt[AB_ORDER_BA];
	if (!cnt[0] || !cnt[1])
		return;
	for (g = 0; g < 2; g++)
		mean[g] = sum[g] / (double)cnt[g];
	for (i = 0; i < rr->pairs; i++)
		ss[rr->order[i]] += (rm->d[i] - mean[rr->order[i]]) * (rm->d[i] - mean[rr->order[i]]);
	o->effect = (mean[AB_ORDER_AB] - mean[AB_ORDER_BA]) / 2;
	o->crossover_ratio = exp((mean[0] + mean[1]) / 2);
	if (rr->pairs > 2) {
		double df = (double)rr->pairs - 2;
		double var = (ss[0] + ss[1]) / df;  /* pooled */
		double se = 0.5 * sqrt(var * (1.0 / (double)cnt[0] + 1.0 / (double)cnt[1]));
		double t90 = ab_stats_t_quantile(0.95, df);
		if (se > 0) {
			o->p = ab_stats_t_two_sided_p(o->effect / se, df);
			o->crossover_lower = exp((mean[0] + mean[1]) / 2 - t90 * se);
			o->crossover_upper = exp((mean[0] + mean[1]) / 2 + t90 * se);
		} else {
			o->p = o->effect == 0 ? 1 : 0;
			o->crossover_lower = o->crossover_upper = o->crossover_ratio;
		}
	}
}

/*
 * Which rows' order effects are material: |π| ≥ ln 1.005 and the t-test's
 * p, Holm-adjusted over the run's rows that have one (Holm 1979), below
 * 0.05. Unadjusted, each row of an A/A run warned about 5% of the time,
 * so a run of 10 rows warned about 40% of the time; adjusted, a run
 * without an order effect warns at most 5% of the time, whatever its
 * rows (docs/statistics.md, "Order effect").
 */
static void order_family(struct ab_analysis *a)
{
	double *p = ab_xmalloc((a->nrows + 1) * sizeof(*p)), *q = ab_xmalloc((a->nrows + 1) * sizeof(*q));
	size_t r, m = 0;

	for (r = 0; r < a->nrows; r++)
		if (!isnan(a->rows[r].order_effect.p))
			p[m++] = a->rows[r].order_effect.p;
	ab_stats_holm(q, NULL, p, m);
	for (r = 0, m = 0; r < a->nrows; r++) {
		struct ab_order_effect *o = &a->rows[r].order_effect;

		o->p_adjusted = isnan(o->p) ? NAN : q[m++];
		o->material = !isnan(o->p) && fabs(o->effect) >= log(1.005) && o->p_adjusted < 0.05;
	}
	free(p);
	free(q);
}

/* The row with the smallest value of the scaling parameter and the same
 * values of every other parameter; -1 when there is no scaling. */
static long base_row(const struct ab_experiment *exp, long sp, size_t r, double *n_r, double *n_base)
{
	size_t q, p, nrows = ab_experiment_nrows(exp);
	long base = -1;

	*n_base = INFINITY;
	ab_parse_double(n_r, ab_experiment_row_value(exp, r, (size_t)sp));
	for (q = 0; q < nrows; q++) {
		double n_q;
		int same = 1;
		for (p = 0; p < exp->nparams && same; p++)
			if ((long)p != sp &&
			    ab_experiment_row_value_index(exp, q, p) != ab_experiment_row_value_index(exp, r, p))
				same = 0;
		if (same && ab_parse_double(&n_q, ab_experiment_row_value(exp, q, (size_t)sp)) == 0 &&
		    n_q < *n_base) {
			*n_base = n_q;
			base = (long)q;
		}
	}
	return base;
}

/* Per-side scaling from medians, and the change in scaling B vs A from
 * the per-sweep differences of log ratios (docs/statistics.md). */
static void scaling(struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	long sp = exp->scaling_param ? ab_experiment_param(exp, exp->scaling_param) : -1;
	size_t r, side, i, j;

	for (r = 0; r < a->nrows; r++) {
		a->rows[r].scaling[0] = a->rows[r].scaling[1] = NAN;
		a->rows[r].scaling_change.base = -1;
	}
	if (sp < 0)
		return;
	for (r = 0; r < a->nrows; r++) {
		struct ab_row_result *rr = &a->rows[r];
		const struct ab_row_metric *mr = &rr->metrics[a->primary];
		const struct ab_row_result *rb;
		const struct ab_row_metric *mb;
		struct ab_scaling_change *sc = &rr->scaling_change;
		double n_r, n_base;
		long base = base_row(exp, sp, r, &n_r, &n_base);

		sc->base = base;
		if (base < 0)
			continue;
		rb = &a->rows[base];
		mb = &rb->metrics[a->primary];
		if (!mr->available || !mb->available)
			continue;
		for (side = 0; side < 2; side++) {
			double t_r = side == 0 ? mr->st.parent.median : mr->st.candidate.median;
			double t_b = side == 0 ? mb->st.parent.median : mb->st.candidate.median;
			if (exp->metrics[a->primary].better == AB_HIGHER_IS_BETTER) {
				/* a rate: time is its inverse */
				t_r = 1 / t_r;
				t_b = 1 / t_b;
			}
			rr->scaling[side] = exp->scaling_work == AB_SCALING_PER_LANE ? (n_r / n_base) * t_b / t_r
										     : t_b / t_r;
		}
		if ((size_t)base == r)
			continue;
		/* Align the sweeps: pair i of this row and pair i of the base row
		 * ran in the same round-robin sweep. */
		sc->e = ab_xmalloc((rr->pairs ? rr->pairs : 1) * sizeof(double));
		for (i = 0; i < rr->pairs; i++)
			for (j = 0; j < rb->pairs; j++)
				if (rb->pair_index[j] == rr->pair_index[i]) {
					double e = mb->d[j] - mr->d[i];
					if (exp->metrics[a->primary].better == AB_HIGHER_IS_BETTER)
						e = -e;
					sc->e[sc->n++] = e;
					break;
				}
		if (sc->n == 0)
			continue;
		sc->available = 1;
		ab_stats_hodges_lehmann(&sc->hl, sc->e, sc->n, AB_STATS_ALPHA);
	}
}

/* A sequential plan's repeated intervals in place of the fixed-n ones:
 * every metric's and the scaling change's, from the looks each row
 * reached (ab_seq_row_interval; docs/statistics.md, "Sequential plans").
 * The estimates stay those of all the row's pairs. */
static void sequential_intervals(struct ab_analysis *a)
{
	const struct ab_seq_plan *plan = &a->exp->seq;
	size_t r, m, look;
	struct ab_hl hl;

	for (r = 0; r < a->nrows; r++) {
		struct ab_row_result *rr = &a->rows[r];
		struct ab_scaling_change *sc = &rr->scaling_change;

		rr->seq = plan;
		for (m = 0; m < a->exp->nmetrics; m++) {
			struct ab_paired *st = &rr->metrics[m].st;
			if (!rr->metrics[m].available ||
			    ab_seq_row_interval(plan, rr->metrics[m].d, st->pairs, &hl, &look) < 0)
				continue;
			st->ci_lower = exp(hl.lower);
			st->ci_upper = exp(hl.upper);
			st->ci_k = isnan(hl.lower) ? 0 : hl.k;
			st->ci_level = isnan(hl.lower) ? NAN : hl.coverage;
			st->ci_level_exact = 0;
			st->ci_empty = hl.lower > hl.upper;
			if (m == a->primary)
				rr->look = look;
		}
		if (sc->available && ab_seq_row_interval(plan, sc->e, sc->n, &hl, &look) == 0) {
			sc->hl.lower = hl.lower;
			sc->hl.upper = hl.upper;
			sc->hl.k = hl.k;
			sc->hl.coverage = hl.coverage;
		}
	}
}

/* `mine` holds the indices of the row's samples, in plan order. */
static void check_checksums(struct ab_row_result *rr, const struct ab_sample *samples,
			    const size_t *mine, size_t n)
{
	const char *first[2] = {NULL, NULL}, *any = NULL;
	int differ = 0, side_differs = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ab_sample *s = &samples[mine[i]];
		int side;
		if (s->status != AB_SAMPLE_DONE || !ab_sample_ok(s) || !s->checksum)
			continue;
		side = s->entry.side;
		add_checksum_value(rr->checksum_values, s->checksum, (enum ab_side)side);
		if (!any)
			any = s->checksum;
		else if (strcmp(any, s->checksum))
			differ = 1;
		if (!first[side])
			first[side] = s->checksum;
		else if (strcmp(first[side], s->checksum))
			side_differs = 1;
	}
	if (!any) {
		rr->checksum_ok = 1;
		return;
	}
	rr->checksum_match = !differ;
	if (!differ)
		rr->checksum = ab_xstrdup(any);
	rr->checksum_ok = rr->policy.checksum_may_change ? !side_differs : !differ;
}

/* The per-sample quality of one side over the samples `idx` (n of them). */
static void side_quality(struct ab_row_quality *q, const struct ab_sample *s, const long *idx, size_t n)
{
	double *occ = ab_xmalloc((n + 1) * sizeof(double)), *cs = ab_xmalloc((n + 1) * sizeof(double));
	double *other = ab_xmalloc((n + 1) * sizeof(double));
	size_t i, nocc = 0, ncs = 0, nother = 0;

	for (i = 0; i < n; i++) {
		const struct ab_sample *x = &s[idx[i]];
		if (!ab_sample_ok(x) || x->wall_ns <= 0)
			continue;
		occ[nocc++] = (double)(x->user_ns + x->sys_ns) / (double)x->wall_ns;
		cs[ncs++] = (double)x->nivcsw;
		if (x->other_cpu_ns >= 0)
			other[nother++] = (double)x->other_cpu_ns / (double)x->wall_ns;
	}
	q->n = nocc;
	q->occupancy = ab_stats_median(occ, nocc);
	q->nivcsw = ab_stats_median(cs, ncs);
	q->other_cpus = ab_stats_median(other, nother);
	free(occ);
	free(cs);
	free(other);
}

/* Whether y then x are the two samples of one re-run pair's first run. */
static int rerun_partner(const struct ab_sample *y, const struct ab_sample *x)
{
	return y->status == AB_SAMPLE_SUPERSEDED && (y->flags & AB_FLAG_RERUN) && y->entry.row == x->entry.row &&
	       y->entry.pair == x->entry.pair && y->entry.side != x->entry.side && y->entry.seq + 1 == x->entry.seq;
}

static void analyse_row(struct ab_analysis *a, size_t r, const struct ab_sample *s,
			const size_t *mine, size_t nmine, const long *table)
{
	const struct ab_experiment *exp = a->exp;
	struct ab_row_result *rr = &a->rows[r];
	size_t pairs = (size_t)exp->pairs, i, p;
	long *pa = ab_xmalloc(pairs * sizeof(long)), *pb = ab_xmalloc(pairs * sizeof(long));
	uint8_t *pair_failed = ab_xcalloc(pairs ? pairs : 1, 1);

	assert(r < a->nrows);

	rr->row = r;
	rr->planned_pairs = pairs;
	rr->order = ab_xmalloc(pairs);
	rr->pair_index = ab_xmalloc(pairs * sizeof(int32_t));
	rr->checksum_match = -1;
	rr->checksum_values = json_array();
	ab_experiment_row_policy(exp, r, &rr->policy);

	/* Failures: a crash or a bad exit always; a timeout in a pair beyond
	 * the failed pairs the row tolerates (counted in plan order; a second
	 * timeout in a pair already counted costs nothing more). */
	for (i = 0; i < nmine; i++) {
		const struct ab_sample *x = &s[mine[i]];
		rr->samples++;
		if (x->status == AB_SAMPLE_SUPERSEDED && (x->flags & AB_FLAG_RERUN) && i > 0 &&
		    rerun_partner(&s[mine[i - 1]], x)) {
			/* a re-run pair's first run: its two samples are adjacent */
			const struct ab_sample *y = &s[mine[i - 1]];
			int fx = (x->flags & AB_FLAG_CONTENDED) != 0, fy = (y->flags & AB_FLAG_CONTENDED) != 0;
			rr->reruns++;
			if (fx != fy)
				rr->only_flagged[fx ? x->entry.side : y->entry.side]++;
		}
		if (x->status == AB_SAMPLE_DONE && (x->flags & AB_FLAG_OUTPUT_TRUNCATED))
			rr->truncated++;
		if (x->status != AB_SAMPLE_DONE || ab_sample_ok(x))
			continue;
		if (x->timed_out && x->entry.pair >= 0 && (size_t)x->entry.pair < pairs &&
		    (pair_failed[x->entry.pair] || rr->failed_pairs < rr->policy.allow_failed_pairs)) {
			if (!pair_failed[x->entry.pair]) {
				pair_failed[x->entry.pair] = 1;
				rr->failed_pairs++;
			}
			continue;
		}
		if (!rr->failed++)
			rr->failure = describe_failure(x);
	}
	check_checksums(rr, s, mine, nmine);
	for (p = 0; p < pairs; p++) {
		long ia = table[(r * pairs + p) * 2], ib = table[(r * pairs + p) * 2 + 1];
		int usable_a, usable_b;
		if (ia < 0 || ib < 0)
			continue;
		usable_a = ab_sample_ok(&s[ia]) || (s[ia].timed_out && rr->policy.allow_failed_pairs);
		usable_b = ab_sample_ok(&s[ib]) || (s[ib].timed_out && rr->policy.allow_failed_pairs);
		if (!usable_a || !usable_b)
			continue;
		if (s[ia].timed_out && s[ib].timed_out)
			rr->timeout_ties++;
		else if (s[ia].timed_out || s[ib].timed_out)
			rr->timeout_losses[s[ia].timed_out ? AB_PARENT : AB_CANDIDATE]++;
		/* Only samples that enter the statistics count as flagged: a
		 * contended warmup or a sample of a dropped pair decides nothing. */
		rr->flagged += (s[ia].flags & AB_FLAG_CONTENDED) != 0;
		rr->flagged += (s[ib].flags & AB_FLAG_CONTENDED) != 0;
		rr->contended_pairs += ((s[ia].flags | s[ib].flags) & AB_FLAG_CONTENDED) != 0;
		if (((s[ia].flags ^ s[ib].flags) & AB_FLAG_CONTENDED) != 0)
			rr->only_flagged[(s[ib].flags & AB_FLAG_CONTENDED) ? AB_CANDIDATE : AB_PARENT]++;
		pa[rr->pairs] = ia;
		pb[rr->pairs] = ib;
		rr->order[rr->pairs] = s[ia].entry.order;
		rr->pair_index[rr->pairs] = (int32_t)p;
		rr->pairs++;
	}
	row_metrics(rr, exp, s, pa, pb);
	side_quality(&rr->quality[0], s, pa, rr->pairs);
	side_quality(&rr->quality[1], s, pb, rr->pairs);
	order_effect(rr, a->primary);
	free(pa);
	free(pb);
	free(pair_failed);
}

/* What allow_failed_pairs did in a row, in full: "lanes=1: allow_failed_pairs
 * tolerated 2 pair(s) with a timed-out sample, none dropped: 1 where the
 * candidate timed out (a loss for it), 1 where both sides timed out (a tie,
 * d = 0)". New string. */
static char *timeout_warning(const char *label, const struct ab_row_result *rr)
{
	char *s = ab_xasprintf("%s: allow_failed_pairs tolerated %zu pair(s) with a timed-out sample, none "
			       "dropped", label, rr->failed_pairs), *next;
	const char *sep = ": ";
	int side;

	for (side = 0; side < 2; side++) {
		if (!rr->timeout_losses[side])
			continue;
		next = ab_xasprintf("%s%s%zu where only the %s timed out (its worst value: a loss for it)", s, sep,
				    rr->timeout_losses[side], ab_side_name((enum ab_side)side));
		free(s);
		s = next;
		sep = ", ";
	}
	if (rr->timeout_ties) {
		next = ab_xasprintf("%s%s%zu where both sides timed out (both worst: a tie, d = 0)", s, sep,
				    rr->timeout_ties);
		free(s);
		s = next;
	}
	return s;
}

/*
 * Wall time and CPU time disagreeing while other processes delayed
 * samples: their intervals do not overlap. Time sharing stretches both
 * sides' wall time by the same waits, which pulls a wall-time ratio
 * toward 1, while CPU time counts the work; the report says so and names
 * the metric that decided (the experiment's, fixed before the run:
 * switching after seeing the data voids the error rates).
 */
static void disagreement(struct ab_analysis *a, const struct ab_row_result *rr, const char *label, size_t *nw)
{
	const struct ab_experiment *exp = a->exp;
	const struct ab_metric *cpu = ab_experiment_metric(exp, "cpu_ns"), *wall = ab_experiment_metric(exp, "wall_ns");
	const struct ab_paired *w, *c;

	if (!cpu || !wall || !(rr->flagged || rr->reruns) || !rr->metrics[cpu - exp->metrics].available ||
	    !rr->metrics[wall - exp->metrics].available)
		return;
	w = &rr->metrics[wall - exp->metrics].st;
	c = &rr->metrics[cpu - exp->metrics].st;
	if (isnan(w->ci_lower) || isnan(c->ci_lower) || (w->ci_lower <= c->ci_upper && c->ci_lower <= w->ci_upper))
		return;
	ab_strv_append(&a->warnings, nw, ab_xasprintf("%s: wall time and CPU time disagree while other processes "
		"delayed samples: wall_ns %.3f [%.3f, %.3f], cpu_ns %.3f [%.3f, %.3f]; %s decided, the "
		"experiment's metric. Waiting for a CPU stretches both sides' wall time alike and pulls its "
		"ratio toward 1, CPU time counts the work: for a single-threaded benchmark choose cpu_ns "
		"before the next run (metric: cpu_ns), not after seeing this one", label, w->ratio,
		w->ci_lower, w->ci_upper, c->ratio, c->ci_lower, c->ci_upper, exp->metrics[a->primary].name));
}

/* The pairs in which one side alone was contended, over the rows; a
 * warning when one side is flagged alone far more often (an exact
 * two-sided sign test, p < 0.001 with at least 10 such pairs, the test
 * the scheduler stops its re-runs on): the flag then says something about
 * a side (its own I/O or writeback), not about the host. */
static void side_flags(struct ab_analysis *a, size_t *nw)
{
	size_t r, n;
	double one, two;

	for (r = 0; r < a->nrows; r++) {
		a->only_flagged[0] += a->rows[r].only_flagged[0];
		a->only_flagged[1] += a->rows[r].only_flagged[1];
	}
	n = a->only_flagged[0] + a->only_flagged[1];
	if (n < 10)
		return;
	ab_stats_sign_test(n, a->only_flagged[1], &one, &two);
	if (two < 0.001)
		ab_strv_append(&a->warnings, nw, ab_xasprintf("the %s was flagged 'contended' alone in %zu pairs, the "
			"%s in %zu (two-sided sign test p %.2g): the flag follows a side, perhaps its own work "
			"(I/O, writeback, threads), not the host; contention re-runs stop then, so that no pair "
			"is dropped for the side it favours", a->only_flagged[1] > a->only_flagged[0] ?
			"candidate" : "parent", a->only_flagged[1] > a->only_flagged[0] ? a->only_flagged[1] :
			a->only_flagged[0], a->only_flagged[1] > a->only_flagged[0] ? "parent" : "candidate",
			a->only_flagged[1] > a->only_flagged[0] ? a->only_flagged[0] : a->only_flagged[1], two));
}

static void warnings(struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	size_t r, nw = ab_strv_len(a->warnings);  /* one or more per row: appended in O(1) */

	/* Without a known order (data collected elsewhere) there is no
	 * AB|BA balance to speak of. */
	if (exp->pairs % 2 && !exp->order_unknown)
		ab_strv_append(&a->warnings, &nw, ab_xasprintf("%d pairs is odd: AB and BA orders cannot balance "
			"exactly; use an even count", exp->pairs));
	side_flags(a, &nw);
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		const struct ab_row_metric *rm = &rr->metrics[a->primary];
		const struct ab_order_effect *o = &rr->order_effect;
		char *label = ab_row_label(exp, r);

		if (rm->available && rm->st.ci_k == 0)
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: %zu pair%s too few for a one-sided 95%% "
				"bound (5 at least): rules on this row can only be inconclusive", label, rr->pairs,
				rr->pairs == 1 ? " is" : "s are"));
		if (rm->available && rm->st.ci_empty)
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: the repeated intervals of the %zu looks "
				"this row reached do not intersect (lower bound %.4f above upper bound %.4f): "
				"their coverage failed for this row, so no rule decides on it and it runs on "
				"to its last look; the estimate %.3f is of all %zu pairs", label, rr->look,
				rm->st.ci_lower, rm->st.ci_upper, rm->st.ratio, rr->pairs));
		if (rm->available && (rm->st.parent.rsd > 0.05 || rm->st.candidate.rsd > 0.05))
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: RSD above 5%% (parent %.1f%%, candidate "
				"%.1f%%): a noisy machine or benchmark", label, 100 * rm->st.parent.rsd,
				100 * rm->st.candidate.rsd));
		if (rm->available && (rm->st.parent.outliers || rm->st.candidate.outliers))
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: %zu outlier sample(s) by the MAD rule (kept in "
				"the statistics)", label, rm->st.parent.outliers + rm->st.candidate.outliers));
		if (rm->available && rm->st.pairs >= 6 &&
		    (rm->st.signed_rank.p_two_sided < 0.05) != (rm->st.sign_p_two_sided < 0.05))
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: the signed-rank test (two-sided p %.3g) and "
				"the sign test on pair wins (two-sided p %.3g) disagree at 0.05: a few large pairs drive the result",
				label, rm->st.signed_rank.p_two_sided, rm->st.sign_p_two_sided));
		if (o->material)
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: order effect: running second changes %s by "
				"%+.1f%% (two-sided p %.2g, %.2g after Holm's adjustment over the rows: a run "
				"without an order effect warns at most 5%% of the time); the crossover estimate %.3f "
				"[%.3f, %.3f] removes it, and the balanced order already cancels it in the ratio", label,
				exp->metrics[a->primary].name, 100 * expm1(o->effect), o->p, o->p_adjusted,
				o->crossover_ratio, o->crossover_lower, o->crossover_upper));
		disagreement(a, rr, label, &nw);
		if (rr->reruns)
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: %zu pair(s) ran again because other processes "
				"delayed a sample (its process waited for a CPU for more than %g%% of its time: "
				"flagged 'contended'); the first runs are kept in the store as superseded", label,
				rr->reruns, 100 * exp->contention.max_cpu_wait));
		if (rr->flagged)
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: %zu sample(s) in the statistics were delayed "
				"by other processes (flagged 'contended') and kept: %s; rules with "
				"max_flagged_samples can refuse to decide on them", label, rr->flagged,
				exp->contention.reruns == 0 ? "contention re-runs are off" :
				"the row's re-runs were spent, or stopped because one side was flagged alone"));
		if (rr->truncated && ab_experiment_stdout_reads(exp))
			ab_strv_append(&a->warnings, &nw, ab_xasprintf("%s: %zu sample(s) printed more output than abtool "
				"keeps (flagged 'output_truncated'): %s were read from the first 1 MiB and the "
				"last 64 KiB of stdout; print less", label, rr->truncated,
				ab_experiment_stdout_reads(exp)));
		if (rr->failed_pairs)
			ab_strv_append(&a->warnings, &nw, timeout_warning(label, rr));
		free(label);
	}
}

void ab_analysis_run(struct ab_analysis *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t n)
{
	size_t r, i, *start, *by_row;
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
		if (samples[i].status == AB_SAMPLE_STOPPED) {
			out->samples_stopped++;
			continue;
		}
		out->samples_planned++;
		out->samples_done += samples[i].status == AB_SAMPLE_DONE;
	}
	table = ab_xmalloc((out->nrows * (size_t)exp->pairs * 2 + 1) * sizeof(long));
	index_pairs(table, exp, samples, n, out->nrows);
	/* The samples of each row, in plan order (a stable counting sort),
	 * so that the rows cost O(samples) together, not O(rows * samples). */
	start = ab_xcalloc(out->nrows + 1, sizeof(size_t));
	by_row = ab_xmalloc((n ? n : 1) * sizeof(size_t));
	for (i = 0; i < n; i++)
		if (samples[i].entry.row < out->nrows)
			start[samples[i].entry.row + 1]++;
	for (r = 0; r < out->nrows; r++)
		start[r + 1] += start[r];
	for (i = 0; i < n; i++)
		if (samples[i].entry.row < out->nrows)
			by_row[start[samples[i].entry.row]++] = i;
	for (r = 0; r < out->nrows; r++) {
		size_t first = r ? start[r - 1] : 0;
		analyse_row(out, r, samples, by_row + first, start[r] - first, table);
	}
	free(by_row);
	free(start);
	free(table);
	scaling(out);
	if (exp->sequential)
		sequential_intervals(out);
	order_family(out);
	warnings(out);
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
		free(rr->pair_index);
		free(rr->scaling_change.e);
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
	ab_strv_free(a->rule_warnings);
	memset(a, 0, sizeof(*a));
}
