/* calibrate.c - A/A summaries (see calibrate.h). */
#include "calibrate.h"
#include "predicates.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The thresholds of a rule's inferential predicates: name and θ. */
static size_t thresholds(const struct ab_rule *r, const char **names, double *theta)
{
	const struct ab_predicate *p;
	enum ab_pass_side side;
	size_t n = 0;
	int reciprocal;

	for (p = ab_predicates; p->name; p++)
		if (p->decide == AB_DECIDE_BOUND && !p->on_scaling && ab_predicate_is_set(p, r)) {
			names[n] = p->name;
			theta[n++] = ab_predicate_theta(p, ab_predicate_value(p, r), AB_LOWER_IS_BETTER,
							&side, &reciprocal);
		}
	return n;
}

static json_t *rate(size_t k, size_t n)
{
	double lo, hi;

	ab_stats_binomial_ci(k, n, 0.95, &lo, &hi);
	return json_pack("{s:I, s:o, s:[f, f]}", "count", (json_int_t)k,
			 "rate", n ? json_real((double)k / (double)n) : json_null(), "ci", lo, hi);
}

json_t *ab_calibrate_summary(const struct ab_analysis *a, size_t block)
{
	const struct ab_experiment *exp = a->exp;
	json_t *rows = json_array();
	size_t r, b, total_blocks = 0, total_faster = 0, total_slower = 0, k;
	double coverage, expected;

	ab_stats_walsh_k(block, AB_STATS_ALPHA, &k, &coverage);
	expected = k ? (1 - coverage) / 2 : 0;
	for (r = 0; r < a->nrows; r++) {
		const struct ab_row_result *rr = &a->rows[r];
		const struct ab_row_metric *rm = &rr->metrics[a->primary];
		json_t *row = json_object(), *needs = json_array();
		size_t blocks = rm->available ? rr->pairs / block : 0, faster = 0, slower = 0, i;
		struct ab_summary sd;
		double sigma = NAN;
		char *label = ab_row_label(exp, r);

		json_object_set_new(row, "params", ab_row_params(exp, r));
		json_object_set_new(row, "label", json_string(label));
		free(label);
		json_object_set_new(row, "pairs", json_integer((json_int_t)rr->pairs));
		if (rm->available) {
			ab_stats_summary(&sd, rm->d, rr->pairs);
			sigma = fmax(sd.sd, 1.4826 * sd.mad);
			json_object_set_new(row, "sd_log_ratio", real_or_null(sd.sd));
			json_object_set_new(row, "mad_log_ratio", real_or_null(sd.mad));
			json_object_set_new(row, "spread", real_or_null(sigma));
			json_object_set_new(row, "ratio", real_or_null(rm->st.ratio));
		} else {
			json_object_set_new(row, "unavailable", json_string(rm->unavailable));
		}
		for (b = 0; b < blocks; b++) {
			struct ab_hl hl;
			ab_stats_hodges_lehmann(&hl, rm->d + b * block, block, AB_STATS_ALPHA);
			faster += hl.k && hl.upper < 0;
			slower += hl.k && hl.lower > 0;
		}
		json_object_set_new(row, "blocks", json_integer((json_int_t)blocks));
		json_object_set_new(row, "false_faster", rate(faster, blocks));
		json_object_set_new(row, "false_slower", rate(slower, blocks));
		total_blocks += blocks;
		total_faster += faster;
		total_slower += slower;
		for (i = 0; rm->available && i < exp->nrules; i++) {
			const struct ab_rule *rule = &exp->rules[i];
			const char *names[8];
			double theta[8];
			size_t np, j;

			if (!ab_selector_match(&rule->where, exp, r) ||
			    (rule->metric && strcmp(rule->metric, exp->metric)))
				continue;
			np = thresholds(rule, names, theta);
			for (j = 0; j < np; j++) {
				double m = fabs(log(theta[j]));
				double z = (AB_CALIBRATE_Z_ALPHA + AB_CALIBRATE_Z_POWER) * sigma / m;
				double n = ceil(z * z * M_PI / 3);
				json_array_append_new(needs, json_pack("{s:s, s:s, s:f, s:I}", "rule", rule->name,
					"predicate", names[j], "threshold", theta[j],
					"pairs", (json_int_t)fmax(n, 5)));
			}
		}
		json_object_set_new(row, "pairs_needed", needs);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:I, s:f, s:o, s:{s:I, s:o, s:o}}", "block_pairs", (json_int_t)block,
			 "expected_rate", expected, "rows", rows, "total", "blocks", (json_int_t)total_blocks,
			 "false_faster", rate(total_faster, total_blocks),
			 "false_slower", rate(total_slower, total_blocks));
}

char **ab_calibrate_advice(const json_t *summary, int pairs)
{
	char **out = NULL;
	size_t i, j;
	json_t *row, *need;

	json_array_foreach(json_object_get(summary, "rows"), i, row) {
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			json_int_t n = json_integer_value(json_object_get(need, "pairs"));
			if (n <= pairs)
				continue;
			ab_strv_push(&out, ab_xasprintf("%s: rule '%s' (%s) needs about %lld pairs to resolve its "
				"margin, %d are planned (spread of log ratios %.2f%%)",
				json_string_value(json_object_get(row, "label")),
				json_string_value(json_object_get(need, "rule")),
				json_string_value(json_object_get(need, "predicate")), (long long)n, pairs,
				100 * json_number_value(json_object_get(row, "spread"))));
		}
	}
	if (!out)
		ab_strv_push(&out, ab_xasprintf("the %d planned pairs are enough for every rule's margin", pairs));
	return out;
}
