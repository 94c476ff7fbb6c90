/* experiment_plan.c - a run's pairs: fixed or sequential, from the file
 * and the command line, as stored with the run (experiment.h;
 * docs/statistics.md, "Sequential plans"). */
#include "experiment.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int ab_experiment_set_pairs(struct ab_experiment *exp, int pairs, int max_pairs)
{
	struct ab_seq_plan plan;
	size_t min;

	if (pairs > 0) {
		exp->pairs = pairs;
		exp->sequential = 0;
	}
	if (max_pairs <= 0)
		return 0;
	min = exp->sequential ? exp->seq.looks[0] : (size_t)exp->pairs;
	if ((size_t)max_pairs < min)
		return ab_error_set(AB_EINVALID, "--max-pairs %d is below the %zu pairs the plan starts with "
				    "(%s); give --max-pairs %zu or more", max_pairs, min,
				    pairs > 0 ? "--pairs" : exp->sequential ? "its first look" : "pairs:", min);
	if (ab_seq_plan_from_range(&plan, min, (size_t)max_pairs) < 0)
		return ab_error_prefix("--pairs %zu --max-pairs %d", min, max_pairs);
	plan.spending = exp->spending;
	exp->seq = plan;
	exp->sequential = 1;
	exp->pairs = max_pairs;
	return 0;
}

size_t ab_experiment_nsamples(const struct ab_experiment *exp)
{
	size_t nrows = ab_experiment_nrows(exp), r, measured = 0;

	for (r = 0; r < nrows; r++)
		measured += ab_experiment_row_selected(exp, r) != 0;
	return measured * 2 * ((size_t)exp->pairs + (size_t)exp->warmup);
}

int ab_experiment_check_limits(const struct ab_experiment *exp, const char *source)
{
	size_t nrows = ab_experiment_nrows(exp), nsamples;

	if (nrows > exp->limit_rows)
		return ab_error_set(AB_EINVALID, "%s: the matrix has %zu rows, more than limits.rows (%zu%s); "
				    "measure fewer values, or raise the limit in the experiment file with "
				    "limits: {rows: %zu}", source, nrows, exp->limit_rows,
				    exp->limit_rows == AB_LIMIT_ROWS ? ", the default" : "", nrows);
	nsamples = ab_experiment_nsamples(exp);
	if (nsamples > exp->limit_samples)
		return ab_error_set(AB_EINVALID, "%s: the plan has %zu samples (%zu rows x 2 sides x (%d pairs + "
				    "%d warmup)), more than limits.samples (%zu%s); plan fewer rows or pairs "
				    "(--row, --pairs), or raise the limit in the experiment file with limits: "
				    "{samples: %zu}%s", source, nsamples, nsamples / 2 / ((size_t)exp->pairs +
				    (size_t)exp->warmup), exp->pairs, exp->warmup, exp->limit_samples,
				    exp->limit_samples == AB_LIMIT_SAMPLES ? ", the default" : "", nsamples,
				    nsamples > AB_LIMIT_MAX_SAMPLES ? " (at most 10000000)" : "");
	return 0;
}

size_t ab_experiment_first_look(const struct ab_experiment *exp)
{
	return exp->sequential ? exp->seq.looks[0] : (size_t)exp->pairs;
}

json_t *ab_experiment_plan_json(const struct ab_experiment *exp)
{
	json_t *looks;
	size_t k;

	if (!exp->sequential)
		return NULL;
	looks = json_array();
	for (k = 0; k < exp->seq.nlooks; k++)
		json_array_append_new(looks, json_integer((json_int_t)exp->seq.looks[k]));
	return json_pack("{s:o, s:s, s:f, s:i, s:o}", "looks", looks, "spending",
			 ab_seq_spending_name(exp->seq.spending), "alpha", exp->seq.alpha, "max_pairs",
			 exp->pairs, "budget_ms",
			 exp->budget_ms > 0 ? json_integer((json_int_t)exp->budget_ms) : json_null());
}

int ab_experiment_plan_restore(struct ab_experiment *exp, const json_t *plan)
{
	struct ab_seq_plan p;
	const json_t *v;
	size_t k;

	if (!json_is_object(plan)) {
		exp->sequential = 0;
		return 0;
	}
	memset(&p, 0, sizeof(p));
	json_array_foreach(json_object_get(plan, "looks"), k, v) {
		if (k >= AB_SEQ_MAX_LOOKS || !json_is_integer(v))
			return ab_error_set(AB_EINVALID, "the stored sequential plan has unreadable looks");
		p.looks[p.nlooks++] = (size_t)json_integer_value(v);
	}
	p.alpha = json_real_value(json_object_get(plan, "alpha"));
	if (ab_seq_spending_parse(json_string_value(json_object_get(plan, "spending")) ?
				  json_string_value(json_object_get(plan, "spending")) : "", &p.spending) < 0 ||
	    ab_seq_plan_check(&p) < 0)
		return ab_error_prefix("the stored sequential plan is not valid");
	exp->seq = p;
	exp->spending = p.spending;
	exp->sequential = 1;
	exp->pairs = (int)p.looks[p.nlooks - 1];
	exp->budget_ms = json_integer_value(json_object_get(plan, "budget_ms"));
	return 0;
}

char *ab_experiment_plan_args(const struct ab_experiment *exp)
{
	struct ab_seq_plan range;

	if (!exp->sequential)
		return ab_xasprintf("--pairs %d", exp->pairs);
	if (ab_seq_plan_from_range(&range, exp->seq.looks[0], (size_t)exp->pairs) == 0 &&
	    range.nlooks == exp->seq.nlooks &&
	    !memcmp(range.looks, exp->seq.looks, range.nlooks * sizeof(range.looks[0])))
		return ab_xasprintf("--pairs %zu --max-pairs %d", exp->seq.looks[0], exp->pairs);
	return ab_xstrdup("");
}

json_t *ab_experiment_step_json(const struct ab_experiment *exp)
{
	if (!exp->step.active)
		return NULL;
	return json_pack("{s:s, s:f, s:i}", "metric", exp->step.metric, "threshold", exp->step.threshold,
			 "direction", exp->step.direction);
}

int ab_experiment_step_restore(struct ab_experiment *exp, const json_t *step)
{
	const json_t *stop = json_object_get(step, "stop");
	const char *metric = json_string_value(json_object_get(stop, "metric"));
	double threshold = json_number_value(json_object_get(stop, "threshold"));

	if (!json_is_object(stop))
		return 0;
	if (!metric || !ab_experiment_metric(exp, metric) || !(threshold > 0))
		return ab_error_set(AB_EINVALID, "the stored bisect step has an unreadable stopping rule");
	free(exp->step.metric);
	exp->step.metric = ab_xstrdup(metric);
	exp->step.threshold = threshold;
	exp->step.direction = (int)json_integer_value(json_object_get(stop, "direction"));
	exp->step.active = 1;
	return 0;
}

int ab_experiment_reruns(const struct ab_experiment *exp)
{
	return exp->contention.reruns >= 0 ? exp->contention.reruns : (exp->pairs + 1) / 2;
}

json_t *ab_experiment_contention_json(const struct ab_experiment *exp)
{
	const struct ab_contention *c = &exp->contention;

	return json_pack("{s:f, s:i, s:s, s:o}", "max_cpu_wait", c->max_cpu_wait, "reruns",
			 ab_experiment_reruns(exp), "when_exhausted",
			 c->exhausted == AB_CONTENTION_INCONCLUSIVE ? "inconclusive" : "keep", "quiet",
			 c->quiet_cpus > 0 ? json_pack("{s:f, s:I}", "below", c->quiet_cpus, "wait_ms",
							(json_int_t)c->quiet_wait_ms) : json_null());
}

int ab_experiment_contention_restore(struct ab_experiment *exp, const json_t *stored)
{
	struct ab_contention c;
	const json_t *q;
	const char *when;

	if (!json_is_object(stored))
		return 0;
	memset(&c, 0, sizeof(c));
	c.max_cpu_wait = json_number_value(json_object_get(stored, "max_cpu_wait"));
	c.reruns = (int)json_integer_value(json_object_get(stored, "reruns"));
	when = json_string_value(json_object_get(stored, "when_exhausted"));
	c.exhausted = when && !strcmp(when, "inconclusive") ? AB_CONTENTION_INCONCLUSIVE : AB_CONTENTION_KEEP;
	if (json_is_object(q = json_object_get(stored, "quiet"))) {
		c.quiet_cpus = json_number_value(json_object_get(q, "below"));
		c.quiet_wait_ms = json_integer_value(json_object_get(q, "wait_ms"));
	}
	if (!(c.max_cpu_wait > 0 && c.max_cpu_wait < 1) || c.reruns < 0 || !when)
		return ab_error_set(AB_EINVALID, "the stored contention policy is not valid");
	exp->contention = c;
	return 0;
}
