/* report_json.c - the JSON report document (see report.h). */
#include "report.h"
#include "calibrate.h"
#include "env.h"
#include "plan.h"
#include "predicates.h"
#include "stats.h"
#include "stopping.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_summary(const struct ab_summary *s, double scaling)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I}",
			      "n", (json_int_t)s->n,
			      "median", real_or_null(s->median),
			      "mean", real_or_null(s->mean),
			      "sd", real_or_null(s->sd),
			      "rsd", real_or_null(s->rsd),
			      "mad", real_or_null(s->mad),
			      "robust_rsd", real_or_null(s->robust_rsd),
			      "min", real_or_null(s->min),
			      "max", real_or_null(s->max),
			      "outliers", (json_int_t)s->outliers);
	if (!isnan(scaling))
		json_object_set_new(o, "scaling", json_real(scaling));
	return o;
}

/* The statistics of one metric of one row. */
static json_t *metric_stats(const struct ab_row_metric *rm, const struct ab_metric *m,
			    const struct ab_row_result *rr, int primary)
{
	const struct ab_paired *st = &rm->st;
	json_t *o = json_object(), *d;
	size_t i;

	json_object_set_new(o, "metric", json_string(m->name));
	json_object_set_new(o, "unit", json_string(m->unit ? m->unit : ""));
	json_object_set_new(o, "better", json_string(m->better == AB_HIGHER_IS_BETTER ? "higher" : "lower"));
	if (!rm->available) {
		json_object_set_new(o, "unavailable", json_string(rm->unavailable));
		return o;
	}
	json_object_set_new(o, "parent", side_summary(&st->parent, primary ? rr->scaling[0] : NAN));
	json_object_set_new(o, "candidate", side_summary(&st->candidate, primary ? rr->scaling[1] : NAN));
	json_object_set_new(o, "ratio", real_or_null(st->ratio));
	json_object_set_new(o, "ci", json_pack("[o, o]", real_or_null(st->ci_lower), real_or_null(st->ci_upper)));
	json_object_set_new(o, "ci_level", real_or_null(st->ci_level));
	json_object_set_new(o, "ci_approximate", json_boolean(!rr->seq && st->ci_k && !st->ci_level_exact));
	json_object_set_new(o, "tied", json_boolean(st->tied));
	if (rr->seq && !isnan(st->ci_lower)) {
		/* a repeated interval: the looks' may not intersect, and the
		 * estimate of all pairs may lie outside their intersection */
		json_object_set_new(o, "ci_empty", json_boolean(st->ci_empty));
		json_object_set_new(o, "estimate_outside_ci", json_boolean(!st->ci_empty &&
			(st->ratio < st->ci_lower || st->ratio > st->ci_upper)));
	}
	json_object_set_new(o, "pair_wins", json_integer((json_int_t)st->wins));
	json_object_set_new(o, "pair_losses", json_integer((json_int_t)st->losses));
	json_object_set_new(o, "pairs", json_integer((json_int_t)st->pairs));
	json_object_set_new(o, "median_ratio", real_or_null(st->median_ratio));
	json_object_set_new(o, "ratio_of_medians", real_or_null(st->ratio_of_medians));
	json_object_set_new(o, "geomean_ratio", real_or_null(st->geomean_ratio));
	json_object_set_new(o, "t_interval", json_pack("[o, o]", real_or_null(st->t_lower), real_or_null(st->t_upper)));
	json_object_set_new(o, "p_signed_rank", real_or_null(st->signed_rank.p_two_sided));
	json_object_set_new(o, "p_sign", real_or_null(st->sign_p_two_sided));
	/* Contrast only: the same samples as if unpaired (docs/statistics.md). */
	json_object_set_new(o, "p_mann_whitney_unpaired", real_or_null(st->mann_whitney.p_two_sided));
	if (primary) {
		d = json_array();
		for (i = 0; i < rr->pairs; i++)
			json_array_append_new(d, json_pack("{s:o, s:s}", "log_ratio", real_or_null(rm->d[i]),
							   "order", ab_order_name((enum ab_order)rr->order[i])));
		json_object_set_new(o, "per_pair", d);
	}
	return o;
}

/*
 * A sequential plan's run-level object (docs/reports.md, "sequential"):
 * the plan as stored (looks, spending, alpha, max_pairs, budget_ms), its
 * boundaries (per look: pairs, critical count c, alpha spent, the
 * crossing probability, its standard error and whether it is exact), the
 * attained level with its standard error, margin and bound, the level per
 * row of the repeated intervals, and whether the budget stopped the run;
 * and on each row of
 * `rows` its `look` (1-based; null before the first look) and `stopped`:
 * "decided" (at a look before the last), "max" (ran to the last look),
 * "budget" (undecided before the last look in a plan that ran every sample
 * it did not stop: only the budget stops such a row) or null (still
 * running, or never measured).
 */
static json_t *sequential_json(const struct ab_analysis *a, json_t *rows)
{
	const struct ab_experiment *exp = a->exp;
	json_t *o = ab_experiment_plan_json(exp), *bounds = json_array();
	struct ab_seq_boundaries b;
	uint8_t *decided = ab_xcalloc(a->nrows ? a->nrows : 1, 1);
	size_t r, k;
	int budget_spent = 0;

	if (ab_seq_boundaries(&exp->seq, &b) == 0) {
		for (k = 0; k < b.nlooks; k++)
			json_array_append_new(bounds, json_pack("{s:I, s:I, s:f, s:f, s:f, s:b}", "pairs",
				(json_int_t)b.looks[k], "c", (json_int_t)b.c[k], "spent", b.spent[k],
				"crossing", b.crossing[k], "crossing_se", b.crossing_se[k], "exact",
				k < b.exact_looks));
		json_object_set_new(o, "simultaneous_level", json_real(b.coverage));
		json_object_set_new(o, "attained_alpha", json_real(b.alpha));
		json_object_set_new(o, "monte_carlo_se", json_real(b.se));
		json_object_set_new(o, "margin_se", json_real(b.margin_se));
		json_object_set_new(o, "attained_alpha_bound", json_real(b.alpha_bound));
		json_object_set_new(o, "boundary_paths", json_integer((json_int_t)b.rows));
	}
	json_object_set_new(o, "boundaries", bounds);
	json_object_set_new(o, "samples_stopped", json_integer((json_int_t)a->samples_stopped));
	ab_stopping_decided(a, decided);
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		json_t *row = json_array_get(rows, r);
		const char *why = NULL;

		if (rr->look == exp->seq.nlooks)
			why = "max";
		else if (rr->look && decided[r])
			why = "decided";
		else if (rr->look && a->samples_done == a->samples_planned && a->samples_stopped)
			why = "budget";
		budget_spent |= why && !strcmp(why, "budget");
		json_object_set_new(row, "look", rr->look ? json_integer((json_int_t)rr->look) : json_null());
		json_object_set_new(row, "stopped", why ? json_string(why) : json_null());
	}
	json_object_set_new(o, "budget_spent", json_boolean(budget_spent));
	free(decided);
	return o;
}

static json_t *row_json(const struct ab_analysis *a, size_t r)
{
	const struct ab_experiment *xp = a->exp;
	const struct ab_row_result *rr = &a->rows[r];
	json_t *o = json_object(), *prim, *others = json_object();
	size_t m;
	const char *key;
	json_t *value;

	json_object_set_new(o, "params", ab_row_params(xp, r));
	{
		char *label = ab_row_label(xp, r);
		json_object_set_new(o, "label", json_string(label));
		free(label);
	}
	/* The contract's flat fields describe the primary metric. */
	prim = metric_stats(&rr->metrics[a->primary], &xp->metrics[a->primary], rr, 1);
	json_object_foreach(prim, key, value)
		json_object_set(o, key, value);
	json_decref(prim);
	json_object_set_new(o, "pairs", json_integer((json_int_t)rr->pairs));
	json_object_set_new(o, "planned_pairs", json_integer((json_int_t)rr->planned_pairs));
	json_object_set_new(o, "checksum_match",
			    rr->checksum_match < 0 ? json_null() : json_boolean(rr->checksum_match));
	json_object_set_new(o, "checksum", rr->checksum ? json_string(rr->checksum) : json_null());
	if (rr->checksum_match == 0 || !rr->checksum_ok)
		json_object_set(o, "checksum_values", rr->checksum_values);
	{
		const struct ab_order_effect *oe = &rr->order_effect;
		/* effect as a ratio: how much running second changes the metric */
		json_object_set_new(o, "order_effect", json_pack("{s:I, s:I, s:o, s:o, s:b, s:o, s:[o, o]}",
			"ab_pairs", (json_int_t)oe->n_ab, "ba_pairs", (json_int_t)oe->n_ba,
			"second_position_ratio", real_or_null(exp(oe->effect)), "p", real_or_null(oe->p),
			"material", oe->material, "crossover_ratio", real_or_null(oe->crossover_ratio),
			"crossover_ci", real_or_null(oe->crossover_lower), real_or_null(oe->crossover_upper)));
	}
	if (rr->scaling_change.available) {
		const struct ab_hl *hl = &rr->scaling_change.hl;
		json_object_set_new(o, "scaling_change", json_pack("{s:o, s:[o, o], s:I}",
			"ratio", real_or_null(exp(hl->estimate)),
			"ci", real_or_null(hl->k ? exp(hl->lower) : NAN), real_or_null(hl->k ? exp(hl->upper) : NAN),
			"sweeps", (json_int_t)rr->scaling_change.n));
	}
	json_object_set_new(o, "checksum_policy",
			    json_string(rr->policy.checksum_may_change ? "may_change" : "must_match"));
	if (rr->failed_pairs) {
		json_object_set_new(o, "failed_pairs", json_integer((json_int_t)rr->failed_pairs));
		json_object_set_new(o, "timed_out_losses",
				    json_integer((json_int_t)(rr->timeout_losses[0] + rr->timeout_losses[1])));
		json_object_set_new(o, "timed_out_ties", json_integer((json_int_t)rr->timeout_ties));
	}
	json_object_set_new(o, "failed_samples", json_integer((json_int_t)rr->failed));
	json_object_set_new(o, "flagged_samples", json_integer((json_int_t)rr->flagged));
	json_object_set_new(o, "contention", json_pack("{s:I, s:I, s:{s:I, s:I}}", "reruns",
		(json_int_t)rr->reruns, "contended_pairs", (json_int_t)rr->contended_pairs, "flagged_alone",
		"parent", (json_int_t)rr->only_flagged[0], "candidate", (json_int_t)rr->only_flagged[1]));
	{
		json_t *q = json_object();
		int side;
		for (side = 0; side < 2; side++) {
			const struct ab_row_quality *x = &rr->quality[side];
			json_object_set_new(q, side ? "candidate" : "parent", json_pack("{s:I, s:o, s:o, s:o}",
				"samples", (json_int_t)x->n, "occupancy_median", real_or_null(x->occupancy),
				"nivcsw_median", real_or_null(x->nivcsw),
				"other_cpus_median", real_or_null(x->other_cpus)));
		}
		json_object_set_new(o, "quality", q);
	}
	if (rr->failure)
		json_object_set_new(o, "failure", json_string(rr->failure));
	for (m = 0; m < xp->nmetrics; m++)
		if (m != a->primary)
			json_object_set_new(others, xp->metrics[m].name,
					    metric_stats(&rr->metrics[m], &xp->metrics[m], rr, 0));
	json_object_set_new(o, "metrics", others);
	return o;
}

/* One rule: its name, metric, the predicates' thresholds as written in
 * the experiment file (fractions, not percents; only those it sets, so a
 * reader can draw the margins), its outcome and its rows (stolen). */
static json_t *rule_json(const struct ab_rule *rule, const struct ab_experiment *exp,
			 const struct ab_rule_result *res, json_t *rows)
{
	const struct ab_predicate *p;
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(rule->name));
	json_object_set_new(o, "metric", json_string(rule->metric ? rule->metric : exp->metric));
	for (p = ab_predicates; p->name; p++)
		if (p->json && ab_predicate_is_set(p, rule))
			json_object_set_new(o, p->json, p->store == AB_STORE_DOUBLE
				? json_real(ab_predicate_value(p, rule))
				: p->arg == AB_ARG_TRUE ? json_true()
				: json_integer((json_int_t)ab_predicate_count(p, rule)));
	json_object_set_new(o, "outcome", json_string(ab_outcome_name(res->outcome)));
	json_object_set_new(o, "detail", json_string(res->detail ? res->detail : ""));
	json_object_set_new(o, "rows", rows);
	return o;
}

static json_t *rules_json(const struct ab_analysis *a)
{
	const struct ab_experiment *exp = a->exp;
	json_t *rules = json_array();
	size_t i, r;

	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule_result *res = &a->rules[i];
		json_t *rows = json_array();
		for (r = 0; r < res->nrows; r++)
			json_array_append_new(rows, json_pack("{s:o, s:s, s:s}",
				"params", ab_row_params(exp, res->rows[r].row),
				"outcome", ab_outcome_name(res->rows[r].outcome),
				"detail", res->rows[r].detail ? res->rows[r].detail : ""));
		json_array_append_new(rules, rule_json(&exp->rules[i], exp, res, rows));
	}
	return rules;
}

static json_t *strv_json(char *const *v)
{
	json_t *arr = json_array();

	for (; v && *v; v++)
		json_array_append_new(arr, json_string(*v));
	return arr;
}

/* Append to `w` the warnings of a finished run beyond the analysis's:
 * the host's, failed environment.commands, a resumption, a dirty work
 * tree, identical artifacts (report.h, struct ab_report_input). */
static void run_warnings(json_t *w, const struct ab_report_input *in, const char *kind)
{
	const char *now = json_string_value(json_object_get(in->host_now, "hostname")), *cmd;
	json_t *hw = in->host_now ? ab_env_warnings(in->host_now, -1) : NULL, *x, *a0, *a1;
	size_t k, n = in->superseded_samples;

	json_array_foreach(hw, k, x) {
		const char *level = json_string_value(json_object_get(x, "level"));
		if (level && !strcmp(level, "warning"))
			json_array_append_new(w, json_sprintf("host: %s",
							      json_string_value(json_object_get(x, "message"))));
	}
	json_decref(hw);
	json_object_foreach(json_object_get(in->host_now, "command_results"), cmd, x) {
		const char *status = json_string_value(json_object_get(x, "status"));
		if (status && strcmp(status, "exit 0"))
			json_array_append_new(w, json_sprintf("environment.commands: '%s' %s; its output in "
							      "host.commands may be incomplete", cmd, status));
	}
	if (in->resumed) {
		/* nothing superseded: no "0 samples were" */
		char *cut = n ? ab_xasprintf(": %zu sample%s of half-finished pairs %s superseded (run "
					     "again, whole, and left out of the statistics)", n,
					     n == 1 ? "" : "s", n == 1 ? "was" : "were")
			      : ab_xstrdup("");

		json_array_append_new(w, json_sprintf(
			"the run was interrupted and resumed%s%s%s%s%s%s%s",
			now ? " on '" : "", now ? now : "", now ? "'" : "", cut,
			in->host_change ? "; it started on another host (" : "",
			in->host_change ? in->host_change : "",
			in->host_change ? "): samples from two machines are mixed, and Host names the one it "
					  "started on" : ""));
		free(cut);
	}
	if (in->dirty_workdir)
		json_array_append_new(w, json_sprintf(
			"the work tree of '%s' had uncommitted changes when the run started: they are not "
			"measured, only the commits are", in->dirty_workdir));
	a0 = json_object_get(json_array_get(in->builds, 0), "artifacts");
	a1 = json_object_get(json_array_get(in->builds, 1), "artifacts");
	if ((!strcmp(kind, "ab") || !strcmp(kind, "bisect")) && json_object_size(a0) && json_equal(a0, a1))
		json_array_append_new(w, json_string(
			"the declared artifacts are byte-identical on both sides: this may be an A/A "
			"comparison in disguise (did the change reach the build?)"));
}

/* What a row without statistics measured (rows[].measured): per side, the samples that ran and
 * succeeded with a value of the primary metric, warmups included, and their median; NULL when
 * none did. New reference. */
static json_t *row_measured(const struct ab_sample *samples, size_t n, size_t r, size_t primary)
{
	json_t *o = json_object();
	double *v = ab_xcalloc(n + 1, sizeof(*v));
	size_t i, k, warmups, total = 0;
	int side;

	for (side = 0; side < 2; side++) {
		for (i = k = warmups = 0; i < n; i++) {
			const struct ab_sample *x = &samples[i];
			if (x->entry.row != r || x->entry.side != side || x->status != AB_SAMPLE_DONE ||
			    !ab_sample_ok(x) || primary >= x->nmetrics || !isfinite(x->metrics[primary]))
				continue;
			v[k++] = x->metrics[primary];
			warmups += x->entry.pair < 0;
		}
		total += k;
		json_object_set_new(o, side ? "candidate" : "parent", json_pack("{s:I, s:I, s:o}",
			"samples", (json_int_t)k, "warmups", (json_int_t)warmups,
			"median", real_or_null(ab_stats_median(v, k))));
	}
	free(v);
	if (!total) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Per row, from the run's samples: rows[].samples_wall_ns, the wall time of its samples that
 * ran (warmups and failed samples included, superseded ones not: they were run again), in
 * nanoseconds; and, for a row whose primary metric is unavailable, rows[].measured. */
static void rows_from_samples(json_t *rows, const struct ab_sample *samples, size_t n, size_t primary)
{
	json_t *row, *measured;
	size_t r, i;

	json_array_foreach(rows, r, row) {
		json_int_t ns = 0;
		for (i = 0; i < n; i++)
			if (samples[i].entry.row == r && samples[i].status == AB_SAMPLE_DONE &&
			    samples[i].wall_ns > 0)
				ns += samples[i].wall_ns;
		json_object_set_new(row, "samples_wall_ns", json_integer(ns));
		if (json_object_get(row, "unavailable") &&
		    (measured = row_measured(samples, n, r, primary)))
			json_object_set_new(row, "measured", measured);
	}
}

/* A subset run's "subset" member: the --row specs (a shard's: the labels of
 * its rows, and "shard" {index, count}), the rows added for the scaling
 * predicates, the rules not evaluated (new reference). */
static json_t *subset_json(const struct ab_experiment *exp, const struct ab_analysis *a)
{
	json_t *rows = json_array(), *added = json_array(), *skipped = json_array(), *out;
	char *const *s;
	size_t i;

	for (s = exp->subset_specs; s && *s; s++)
		json_array_append_new(rows, json_string(*s));
	for (i = 0; exp->shard_count && i < ab_experiment_nrows(exp); i++)
		if (ab_experiment_row_selected(exp, i)) {
			char *label = ab_row_label(exp, i);

			json_array_append_new(rows, json_string(label));
			free(label);
		}
	for (s = exp->subset_added; s && *s; s++)
		json_array_append_new(added, json_string(*s));
	for (i = 0; a->rules && i < exp->nrules; i++)
		if (a->rules[i].not_evaluated)
			json_array_append_new(skipped, json_string(exp->rules[i].name));
	out = json_pack("{s:o, s:o, s:o, s:b}", "rows", rows, "added", added, "not_evaluated", skipped,
			"partial", 1);
	if (exp->shard_count)
		json_object_set_new(out, "shard", json_pack("{s:i, s:i}", "index", exp->shard_index,
							    "count", exp->shard_count));
	return out;
}

/* The rows, with their hosts (a group), their times (from the samples)
 * and a sequential plan's stops; the group and sequential members go on
 * `doc`. New reference. */
static json_t *rows_json(json_t *doc, const struct ab_report_input *in)
{
	const struct ab_analysis *a = in->analysis;
	json_t *rows = json_array();
	size_t r;

	for (r = 0; r < a->nrows; r++) {
		json_t *row = row_json(a, r);

		if (in->row_hosts && in->row_hosts[r])
			json_object_set_new(row, "host", json_string(in->row_hosts[r]));
		json_array_append_new(rows, row);
	}
	if (in->group)
		json_object_set_new(doc, "group", json_deep_copy(in->group));
	if (in->exp->sequential)
		json_object_set_new(doc, "sequential", sequential_json(a, rows));
	json_object_set_new(doc, "contention", ab_experiment_contention_json(in->exp));
	if (in->samples)
		rows_from_samples(rows, in->samples, in->nsamples, a->primary);
	return rows;
}

/* The warnings of the document: the analysis's, the rules' (none for a
 * calibration, whose rules decide nothing and whose warnings would
 * mislead), then the run's (run_warnings). New reference. */
static json_t *warnings_json(const struct ab_report_input *in, const char *kind, int calibrate)
{
	const struct ab_analysis *a = in->analysis;
	json_t *w = strv_json(a->warnings);
	char *const *x;

	for (x = a->rule_warnings; x && *x && !calibrate; x++)
		json_array_append_new(w, json_string(*x));
	run_warnings(w, in, kind);
	return w;
}

/* The run's dependencies without their full oids (the report shows
 * each side's object). New reference. */
static json_t *dependencies_json(const json_t *dependencies)
{
	json_t *deps = json_deep_copy(dependencies), *d;
	size_t i;

	json_array_foreach(deps, i, d) {
		json_object_del(d, "parent_oid");
		json_object_del(d, "candidate_oid");
	}
	return deps;
}

/* The two commands of a comparison (sides:), a then b. New reference. */
static json_t *sides_json(const struct ab_experiment *exp)
{
	json_t *sides = json_array();
	int i;

	for (i = 0; i < 2; i++) {
		char *cmd = ab_command_display(&exp->sides[i].command);
		json_array_append_new(sides, json_pack("{s:s, s:s, s:s}", "side", i ? "b" : "a", "name",
						       exp->sides[i].name, "command", cmd));
		free(cmd);
	}
	return sides;
}

/* The plan: seed, pairs, warmup, the matrix's values, the order, and the
 * samples planned and done. New reference. */
static json_t *plan_json(const struct ab_report_input *in)
{
	const struct ab_experiment *exp = in->exp;
	json_t *matrix = json_object();
	size_t p, v;

	for (p = 0; p < exp->nparams; p++) {
		json_t *vals = json_array();
		for (v = 0; v < exp->matrix[p].nvalues; v++)
			json_array_append_new(vals, json_string(exp->matrix[p].values[v]));
		json_object_set_new(matrix, exp->matrix[p].name, vals);
	}
	return json_pack("{s:I, s:i, s:i, s:o, s:s, s:I, s:I}",
		"seed", (json_int_t)in->seed, "pairs", exp->pairs, "warmup", exp->warmup,
		"matrix", matrix, "order", "round-robin rows, AB|BA blocks",
		"samples_planned", (json_int_t)in->analysis->samples_planned,
		"samples_done", (json_int_t)in->analysis->samples_done);
}

json_t *ab_report_document(const struct ab_report_input *in)
{
	const struct ab_experiment *exp = in->exp;
	const struct ab_analysis *a = in->analysis;
	const char *kind = in->kind ? in->kind : "ab";
	/* a calibration's rules decide nothing: what they would need is its "calibration" */
	int calibrate = !strcmp(kind, "calibrate"), calibrated = calibrate && a->verdict != AB_INVALID;
	json_t *doc = json_object();

	json_object_set_new(doc, "schema", json_string(AB_REPORT_SCHEMA));
	json_object_set_new(doc, "kind", json_string(kind));
	if (in->input)
		json_object_set_new(doc, "input", json_string(in->input));
	json_object_set_new(doc, "run_id", json_integer(in->run_id));
	json_object_set_new(doc, "run_uuid", json_string(in->run_uuid ? in->run_uuid : ""));
	json_object_set_new(doc, "experiment", json_string(exp->name));
	json_object_set_new(doc, "design", json_string(exp->design));
	json_object_set_new(doc, "hypothesis", exp->hypothesis ? json_string(exp->hypothesis) : json_null());
	json_object_set_new(doc, "verdict", json_string(calibrated ? "calibrated" : ab_verdict_name(a->verdict)));
	json_object_set_new(doc, "reasons", calibrated ? json_array() : strv_json(a->reasons));
	/* Which error control decided the refutations (docs/statistics.md): the
	 * renderers name it, and documents stored before it existed keep
	 * naming the per-rule Holm adjustment they were decided with. */
	json_object_set_new(doc, "error_control", json_pack("{s:s, s:I}", "family", "verdict",
							    "refutations", (json_int_t)a->refutations));
	json_object_set_new(doc, "warnings", warnings_json(in, kind, calibrate));
	json_object_set_new(doc, "created_at", json_string(in->created_at ? in->created_at : ""));
	json_object_set_new(doc, "abtool_version", json_string(ABTOOL_VERSION));
	json_object_set_new(doc, "experiment_file", json_pack("{s:s, s:s}", "path", exp->path, "sha256", exp->hash));
	json_object_set_new(doc, "repo", json_string(in->repo ? in->repo : exp->repo));
	json_object_set_new(doc, "parent", json_pack("{s:s?, s:s*, s:s*, s:b}", "oid", in->parent_oid,
		"tree", in->parent_tree, "subject", in->parent_subject, "exact_parent", in->exact_parent));
	json_object_set_new(doc, "candidate", json_pack("{s:s?, s:s*, s:s*}", "oid", in->candidate_oid,
		"tree", in->candidate_tree, "subject", in->candidate_subject));
	json_object_set_new(doc, "exact_parent", json_boolean(in->exact_parent));
	if (in->overlay)
		json_object_set_new(doc, "overlay", json_incref(in->overlay));
	if (in->dependencies)
		json_object_set_new(doc, "dependencies", dependencies_json(in->dependencies));
	if (in->inputs)
		json_object_set_new(doc, "inputs", json_pack("{s:s, s:O}", "sha256",
			in->inputs_hash ? in->inputs_hash : "", "paths", in->inputs));
	if (exp->row_subset)
		json_object_set_new(doc, "subset", subset_json(exp, a));
	json_object_set_new(doc, "builds", in->builds ? json_incref(in->builds) : json_array());
	if (in->identity)
		json_object_set_new(doc, "compiler_identity", json_string(in->identity));
	json_object_set_new(doc, "host", in->host ? json_incref(in->host) : json_null());
	{
		char *bench = ab_command_display(&exp->benchmark);
		json_object_set_new(doc, "benchmark", json_string(bench));
		free(bench);
	}
	if (exp->has_sides)  /* two commands in the parent's and the candidate's places */
		json_object_set_new(doc, "sides", sides_json(exp));
	json_object_set_new(doc, "plan", plan_json(in));
	json_object_set_new(doc, "noise_controls", json_pack("{s:s?, s:s?, s:b, s:i}",
		"affinity", exp->affinity_cpus, "affinity_per_lane", exp->affinity_per_lane,
		"aslr", exp->aslr, "env_padding_bytes", exp->env_padding));
	if (exp->scaling_param)
		json_object_set_new(doc, "scaling", json_pack("{s:s, s:s}", "parameter", exp->scaling_param,
			"work", exp->scaling_work == AB_SCALING_PER_LANE ? "per_lane" : "total"));
	json_object_set_new(doc, "metric", json_string(exp->metric));
	json_object_set_new(doc, "rows", rows_json(doc, in));
	json_object_set_new(doc, "rules", calibrate ? json_array() : rules_json(a));
	json_object_set_new(doc, "earlier_runs", in->earlier ? json_incref(in->earlier) : json_array());
	json_object_set_new(doc, "reproduce", json_string(in->reproduce ? in->reproduce : ""));
	if (in->resumed)
		json_object_set_new(doc, "resumed", json_pack("{s:I, s:s?, s:s?, s:s?}",
			"superseded_samples", (json_int_t)in->superseded_samples, "started_on", in->started_on,
			"resumed_on", json_string_value(json_object_get(in->host_now, "hostname")),
			"host_change", in->host_change));
	if (calibrate)
		json_object_set_new(doc, "calibration", ab_calibrate_summary(a, in->calibration_block));
	return doc;
}
