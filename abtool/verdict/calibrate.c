/* calibrate.c - A/A summaries (see calibrate.h). */
#include "calibrate.h"
#include "error.h"
#include "predicates.h"
#include "stats.h"
#include "util.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- power by simulation --------------------------------------------- */

/* #{i <= j: s_i + s_j > 0} for s sorted ascending: for each i the j that
 * qualify are a suffix, whose start only moves left as s_i grows. */
static uint64_t positive_walsh(const double *s, size_t n)
{
	uint64_t count = 0;
	size_t i, p = n;

	assert(ab_stats_is_sorted(s, n));
	for (i = 0; i < n; i++) {
		while (p > 0 && s[i] + s[p - 1] > 0)
			p--;
		count += n - (p > i ? p : i);
	}
	return count;
}

/* Row r of the power simulations: n normals minus delta, from the row's
 * own stream (seed, r), so that every n and every plan shares them. */
static void draw_row(double *x, size_t n, double delta, uint64_t seed, size_t r)
{
	uint64_t state = seed ^ (0x9e3779b97f4a7c15u * (r + 1));
	size_t i;

	/* Box–Muller, one normal per two uniforms */
	for (i = 0; i < n; i++) {
		double u = ab_stats_uniform(&state), v = ab_stats_uniform(&state);

		x[i] = sqrt(-2 * log(u)) * cos(2 * M_PI * v) - delta;
	}
}

/* Whether a row x (n normals, true log ratio 0, sorted ascending) passes
 * equivalence within ±delta at count k: U < delta when at most k - 1
 * Walsh averages are >= delta, L > -delta when at most k - 1 are <=
 * -delta (Tukey's identity, as for the bound). y is scratch of n. */
static int equivalent(const double *x, double *y, size_t n, double delta, size_t k)
{
	size_t i;

	for (i = 0; i < n; i++)
		y[i] = x[i] - delta;
	if (positive_walsh(y, n) > k - 1)
		return 0;
	for (i = 0; i < n; i++)  /* -x - delta, ascending */
		y[i] = -x[n - 1 - i] - delta;
	return positive_walsh(y, n) <= k - 1;
}

/* The share of `reps` simulated rows of n pairs that pass at the fixed-n
 * count k of AB_STATS_ALPHA: the bound's test on rows shifted by delta, or
 * with `equivalence` the equivalence within ±delta of rows without a
 * shift (ab_calibrate_power, ab_calibrate_power_equivalence). */
static double simulated_power(size_t n, double delta, size_t reps, uint64_t seed, int equivalence)
{
	size_t k, r, pass = 0;
	double coverage, *x, *y = NULL;

	ab_stats_walsh_k(n, AB_STATS_ALPHA, &k, &coverage);
	if (k == 0 || reps == 0)
		return 0;
	if (isinf(delta))
		return 1;
	x = ab_xmalloc(n * sizeof(*x));
	if (equivalence)
		y = ab_xmalloc(n * sizeof(*y));
	for (r = 0; r < reps; r++) {
		draw_row(x, n, equivalence ? 0 : delta, seed, r);
		qsort(x, n, sizeof(*x), ab_stats_cmp_double);
		if (equivalence)
			pass += equivalent(x, y, n, delta, k);
		else
			pass += positive_walsh(x, n) <= k - 1;
	}
	free(y);
	free(x);
	return (double)pass / (double)reps;
}

double ab_calibrate_power_equivalence(size_t n, double delta, size_t reps, uint64_t seed)
{
	return simulated_power(n, delta, reps, seed, 1);
}

double ab_calibrate_spread_upper(double sigma, size_t n)
{
	double df = (double)n - 1;

	if (!(n >= 2) || !isfinite(sigma))
		return NAN;
	return sigma * sqrt(df / ab_stats_chi2_quantile(1 - AB_CALIBRATE_SPREAD_CONFIDENCE, df));
}

double ab_calibrate_power(size_t n, double delta, size_t reps, uint64_t seed)
{
	return simulated_power(n, delta, reps, seed, 0);
}

/* Power and mean pairs used of one sequential plan (ab_calibrate_sequential);
 * with `equivalence`, a row passes once both of its repeated bounds have
 * passed (each at some look: the interval is their intersection). */
static int seq_power(struct ab_seq_needed *out, const struct ab_seq_plan *plan, double delta,
		     int equivalence)
{
	struct ab_seq_boundaries b;
	size_t max = plan->looks[plan->nlooks - 1], r, k, first = 0, pass = 0, i;
	double used = 0, *row, *x, *y;
	int err;

	if ((err = ab_seq_boundaries(plan, &b)) < 0)
		return err;
	out->plan = *plan;
	out->max = max;
	while (first < b.nlooks && b.c[first] == 0)
		first++;
	if (isinf(delta)) {  /* no noise: the first look with a bound passes */
		out->power = first < b.nlooks;
		out->expected_pairs = first < b.nlooks ? (double)b.looks[first] : (double)max;
		return 0;
	}
	row = ab_xmalloc(max * sizeof(*row));
	x = ab_xmalloc(max * sizeof(*x));
	y = ab_xmalloc(max * sizeof(*y));
	for (r = 0; r < AB_CALIBRATE_REPS; r++) {
		size_t n = max;
		int upper = 0, lower = 0;

		draw_row(row, max, equivalence ? 0 : delta, AB_CALIBRATE_SEED, r);
		for (k = first; k < b.nlooks; k++) {
			size_t m = b.looks[k];

			if (b.c[k] == 0)
				continue;
			memcpy(x, row, m * sizeof(*x));
			qsort(x, m, sizeof(*x), ab_stats_cmp_double);
			if (equivalence) {
				for (i = 0; i < m; i++)
					y[i] = x[i] - delta;
				upper |= positive_walsh(y, m) <= b.c[k] - 1;
				for (i = 0; i < m; i++)
					y[i] = -x[m - 1 - i] - delta;
				lower |= positive_walsh(y, m) <= b.c[k] - 1;
			} else {
				upper = lower = positive_walsh(x, m) <= b.c[k] - 1;
			}
			if (upper && lower) {
				n = m;
				pass++;
				break;
			}
		}
		used += (double)n;
	}
	free(y);
	free(x);
	free(row);
	out->power = (double)pass / AB_CALIBRATE_REPS;
	out->expected_pairs = used / AB_CALIBRATE_REPS;
	return 0;
}

int ab_calibrate_sequential(struct ab_seq_needed *out, double delta, double target,
			    size_t fixed_pairs, int equivalence)
{
	static const size_t ladder[] = AB_CALIBRATE_SEQ_LADDER;
	struct ab_seq_plan plan;
	size_t i;
	int err;

	memset(out, 0, sizeof(*out));
	out->power = out->expected_pairs = NAN;
	if (!(target > 0 && target < 1) || !(delta > 0))
		return ab_error_set(AB_EINVALID, "sequential plan: target power %g or effect %g "
				    "out of range", target, delta);
	for (i = 0; i < sizeof(ladder) / sizeof(*ladder); i++) {
		if (ladder[i] < fixed_pairs)
			continue;
		if ((err = ab_seq_plan_from_range(&plan, AB_CALIBRATE_SEQ_MIN, ladder[i])) < 0 ||
		    (err = seq_power(out, &plan, delta, equivalence)) < 0)
			return err;
		if (out->power >= target) {
			out->found = 1;
			return 0;
		}
	}
	return 0;
}

/* The power of the decision a pairs_needed entry is for. */
static double power_of(size_t n, double delta, int equivalence)
{
	return equivalence ? ab_calibrate_power_equivalence(n, delta, AB_CALIBRATE_REPS, AB_CALIBRATE_SEED)
			   : ab_calibrate_power(n, delta, AB_CALIBRATE_REPS, AB_CALIBRATE_SEED);
}

void ab_calibrate_pairs_needed(struct ab_pairs_needed *out, double delta, double target, int equivalence)
{
	/* both sides must pass: each with power about (1 + target) / 2 */
	double z = (AB_CALIBRATE_Z_ALPHA + (equivalence ? ab_stats_norm_upper_quantile((1 - target) / 2)
						      : AB_CALIBRATE_Z_POWER)) / delta;
	double asym = ceil(z * z * M_PI / 3), p;
	size_t lo, hi, n;

	out->asymptotic = asym < 5 ? 5 : asym > 1e9 ? 1000000000 : (size_t)asym;
	out->simulated = 1;
	out->power = NAN;
	/* The asymptotic figure is optimistic: beyond the simulated range
	 * the true one is too. */
	if (out->asymptotic > AB_CALIBRATE_SIM_MAX) {
		out->simulated = 0;
		out->pairs = out->asymptotic;
		return;
	}
#define POWER(m) power_of((m), delta, equivalence)
	lo = out->asymptotic / 2 < 5 ? 5 : out->asymptotic / 2;
	if (lo > 5 && POWER(lo) >= target)
		lo = 5;
	/* One pair at a time where k jumps make the power jagged. */
	for (n = lo; n < 64 + 5; n++)
		if ((p = POWER(n)) >= target) {
			out->pairs = n;
			out->power = p;
			return;
		}
	/* Beyond, the power rises steadily with n: double, then bisect. */
	for (lo = n - 1, hi = 2 * n; hi <= AB_CALIBRATE_SIM_MAX && POWER(hi) < target; hi *= 2)
		lo = hi;
	if (hi > AB_CALIBRATE_SIM_MAX && POWER(hi = AB_CALIBRATE_SIM_MAX) < target) {
		out->simulated = 0;
		out->pairs = AB_CALIBRATE_SIM_MAX + 1;
		return;
	}
	while (hi - lo > 1) {
		n = lo + (hi - lo) / 2;
		if (POWER(n) >= target)
			hi = n;
		else
			lo = n;
	}
#undef POWER
	out->pairs = hi;
	out->power = power_of(hi, delta, equivalence);
}

/* ---- the A/A summary ------------------------------------------------- */

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The thresholds of a rule's inferential predicates: name, θ, and
 * whether the predicate passes below θ (U < θ: 1), above it (L > θ: 0),
 * or, for equivalent_within, inside [1/(1+δ), 1+δ] (2, θ = 1+δ): its one
 * entry is for both sides passing together, as the rule needs. At most 8. */
static size_t thresholds(const struct ab_rule *r, const char **names, double *theta, int *below)
{
	const struct ab_predicate *p;
	enum ab_pass_side side;
	size_t n = 0;
	int reciprocal;

	for (p = ab_predicates; p->name; p++) {
		if (p->on_scaling || !ab_predicate_is_set(p, r))
			continue;
		if (p->decide == AB_DECIDE_BOUND) {
			names[n] = p->name;
			theta[n] = ab_predicate_theta(p, ab_predicate_value(p, r), AB_LOWER_IS_BETTER,
						      &side, &reciprocal);
			below[n++] = side == AB_PASS_BELOW;
		} else if (p->decide == AB_DECIDE_EQUIVALENCE) {
			names[n] = p->name;
			theta[n] = 1 + ab_predicate_value(p, r);
			below[n++] = 2;
		}
	}
	return n;
}

/* The "sequential" object of a pairs_needed entry (calibrate.h); NULL on
 * an error, which leaves the entry as before. */
static json_t *sequential_entry(double delta, size_t fixed_pairs, int equivalence)
{
	struct ab_seq_needed seq;
	json_t *looks;
	size_t k;

	if (ab_calibrate_sequential(&seq, delta, AB_CALIBRATE_POWER, fixed_pairs, equivalence) < 0)
		return NULL;
	if (!seq.found)
		return json_pack("{s:I, s:n}", "min", (json_int_t)AB_CALIBRATE_SEQ_MIN, "max");
	looks = json_array();
	for (k = 0; k < seq.plan.nlooks; k++)
		json_array_append_new(looks, json_integer((json_int_t)seq.plan.looks[k]));
	return json_pack("{s:I, s:I, s:o, s:s, s:f, s:f}", "min", (json_int_t)AB_CALIBRATE_SEQ_MIN,
			 "max", (json_int_t)seq.max, "looks", looks,
			 "spending", ab_seq_spending_name(seq.plan.spending), "power", seq.power,
			 "expected_pairs", seq.expected_pairs);
}

/* One pairs_needed entry (calibrate.h): the expected ratio is 1 when 1
 * passes (both sides of an equivalence: below == 2), else θ², one margin
 * beyond the threshold; the noise is the spread's upper bound `sigma`. */
static json_t *need_entry(const char *rule, const char *name, double theta, int below, double sigma)
{
	int equivalence = below == 2;
	double m = fabs(log(theta)), delta = sigma > 0 ? m / sigma : INFINITY;
	double expected = equivalence || (below ? theta > 1 : theta < 1) ? 1 : theta * theta;
	struct ab_pairs_needed need;
	json_t *entry, *seq;

	if (!(m > 0) || isnan(sigma))
		return json_pack("{s:s, s:s, s:f, s:n}", "rule", rule, "predicate", name, "threshold",
				 theta, "pairs");
	ab_calibrate_pairs_needed(&need, delta, AB_CALIBRATE_POWER, equivalence);
	entry = json_pack("{s:s, s:s, s:f, s:f, s:I, s:o, s:f, s:b, s:I, s:b}", "rule", rule,
			  "predicate", name, "threshold", theta, "expected_ratio", expected,
			  "pairs", (json_int_t)need.pairs, "power", real_or_null(need.power),
			  "target_power", AB_CALIBRATE_POWER, "simulated", need.simulated,
			  "pairs_asymptotic", (json_int_t)need.asymptotic, "both_sides", equivalence);
	if (equivalence)
		json_object_set_new(entry, "thresholds", json_pack("[f, f]", 1 / theta, theta));
	if ((seq = sequential_entry(delta, need.pairs, equivalence)))
		json_object_set_new(entry, "sequential", seq);
	return entry;
}

static json_t *rate(size_t k, size_t n)
{
	double lo, hi;

	ab_stats_binomial_ci(k, n, 0.95, &lo, &hi);
	return json_pack("{s:I, s:o, s:[f, f]}", "count", (json_int_t)k,
			 "rate", n ? json_real((double)k / (double)n) : json_null(), "ci", lo, hi);
}

/* The robust spread of a row's log ratios for metric `name` (the larger
 * of the sd and 1.4826·MAD), NaN when the metric is not measured there. */
static double metric_spread(const struct ab_analysis *a, const struct ab_row_result *rr, const char *name)
{
	const struct ab_metric *m = ab_experiment_metric(a->exp, name);
	const struct ab_row_metric *rm;
	struct ab_summary sd;

	if (!m)
		return NAN;
	rm = &rr->metrics[m - a->exp->metrics];
	if (!rm->available || rr->pairs < 2)
		return NAN;
	ab_stats_summary(&sd, rm->d, rr->pairs);
	return fmax(sd.sd, 1.4826 * sd.mad);
}

/*
 * Which of wall_ns and cpu_ns a gate on this host would decide with
 * fewer pairs: the pairs a fixed plan needs grow as the spread squared
 * (delta = |ln θ| / σ), so the metric whose spread, the median over the
 * rows, is smaller by a factor of at least AB_CALIBRATE_METRIC_FACTOR and
 * beyond chance is recommended, with the factor of pairs it saves. Beyond
 * chance: for normal noise ln(s1/s2) of two independent spreads over n
 * pairs has a standard error of about 1/sqrt(n - 1) (var ln s² ≈
 * 2/(n - 1)), so the factor must also exceed exp(z_0.99 / sqrt(n - 1)),
 * n the fewest pairs of a row (1.52 at 32 pairs); the two metrics of one
 * sample are positively correlated, which makes this conservative.
 * {decides, spreads: {wall_ns, cpu_ns}, factor_needed, recommended (or
 * null), pairs_factor}.
 */
static json_t *metric_choice(const struct ab_analysis *a)
{
	static const char *const names[2] = {"wall_ns", "cpu_ns"};
	const char *decides = a->exp->metrics[a->primary].name;
	double *v = ab_xcalloc(a->nrows ? a->nrows : 1, sizeof(double)), med[2], need = NAN;
	json_t *spreads = json_object(), *out;
	const char *best = NULL;
	size_t r, n, k, fewest = SIZE_MAX;

	for (k = 0; k < 2; k++) {
		for (r = 0, n = 0; r < a->nrows; r++) {
			double x = metric_spread(a, &a->rows[r], names[k]);
			if (isnan(x))
				continue;
			v[n++] = x;
			if (a->rows[r].pairs < fewest)
				fewest = a->rows[r].pairs;
		}
		qsort(v, n, sizeof(double), ab_stats_cmp_double);
		med[k] = !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		json_object_set_new(spreads, names[k], real_or_null(med[k]));
	}
	free(v);
	if (fewest != SIZE_MAX && fewest >= 2)
		need = fmax(AB_CALIBRATE_METRIC_FACTOR,
			    exp(ab_stats_norm_upper_quantile(0.01) / sqrt((double)fewest - 1)));
	/* a count (instructions) or a metric of the benchmark's own is another
	 * kind of measure: only a choice between the two times is made here */
	if ((!strcmp(decides, names[0]) || !strcmp(decides, names[1])) && !isnan(need) && !isnan(med[0]) &&
	    !isnan(med[1]) && med[0] > 0 && med[1] > 0) {
		k = med[1] < med[0];  /* the smaller spread */
		if (strcmp(decides, names[k]) && med[!k] >= need * med[k])
			best = names[k];
	}
	out = json_pack("{s:s, s:o, s:o, s:o}", "decides", decides, "spreads", spreads,
			"factor_needed", real_or_null(need), "recommended", best ? json_string(best) : json_null());
	if (best)
		json_object_set_new(out, "pairs_factor", json_real(pow(med[!k] / med[k], 2)));
	return out;
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
		double sigma = NAN, upper = NAN;
		char *label = ab_row_label(exp, r);

		json_object_set_new(row, "params", ab_row_params(exp, r));
		json_object_set_new(row, "label", json_string(label));
		free(label);
		json_object_set_new(row, "pairs", json_integer((json_int_t)rr->pairs));
		if (rm->available) {
			ab_stats_summary(&sd, rm->d, rr->pairs);
			sigma = fmax(sd.sd, 1.4826 * sd.mad);
			upper = ab_calibrate_spread_upper(sigma, rr->pairs);
			json_object_set_new(row, "sd_log_ratio", real_or_null(sd.sd));
			json_object_set_new(row, "mad_log_ratio", real_or_null(sd.mad));
			json_object_set_new(row, "spread", real_or_null(sigma));
			json_object_set_new(row, "spread_upper", real_or_null(upper));
			json_object_set_new(row, "spread_confidence", json_real(AB_CALIBRATE_SPREAD_CONFIDENCE));
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
			int below[8];
			size_t np, j;

			if (!ab_selector_match(&rule->where, exp, r) ||
			    (rule->metric && strcmp(rule->metric, exp->metric)))
				continue;
			np = thresholds(rule, names, theta, below);
			for (j = 0; j < np; j++)
				json_array_append_new(needs, need_entry(rule->name, names[j], theta[j],
									below[j], upper));
		}
		json_object_set_new(row, "pairs_needed", needs);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:I, s:f, s:o, s:{s:I, s:o, s:o}, s:o}", "block_pairs", (json_int_t)block,
			 "expected_rate", expected, "rows", rows, "total", "blocks", (json_int_t)total_blocks,
			 "false_faster", rate(total_faster, total_blocks),
			 "false_slower", rate(total_slower, total_blocks), "metric", metric_choice(a));
}

char **ab_calibrate_advice(const json_t *summary, int pairs)
{
	char **out = NULL, *metric;
	size_t i, j;
	json_t *row, *need;

	json_array_foreach(json_object_get(summary, "rows"), i, row) {
		const json_t *upper = json_object_get(row, "spread_upper");
		/* summaries stored before the upper bound planned from the spread itself */
		char *spread = json_is_number(upper)
			? ab_xasprintf("spread of log ratios %.2f%%, planned from its one-sided %.0f%% upper "
				       "bound %.2f%%", 100 * json_number_value(json_object_get(row, "spread")),
				       100 * json_number_value(json_object_get(row, "spread_confidence")),
				       100 * json_number_value(upper))
			: ab_xasprintf("spread of log ratios %.2f%%",
				       100 * json_number_value(json_object_get(row, "spread")));

		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			json_int_t n = json_integer_value(json_object_get(need, "pairs"));
			json_t *power = json_object_get(need, "power"), *expected;
			char *why;

			if (n <= pairs)
				continue;
			/* summaries stored before the simulation have no power */
			expected = json_object_get(need, "expected_ratio");
			why = !expected ? ab_xstrdup("to resolve its margin")
			      : json_is_number(power)
			      ? ab_xasprintf("for %.0f%% power%s at a true ratio of %.4g",
					     100 * json_number_value(power),
					     json_is_true(json_object_get(need, "both_sides")) ? " (both sides passing)" : "",
					     json_number_value(expected))
			      : ab_xasprintf("for 80%% power at a true ratio of %.4g (asymptotic figure)",
					     json_number_value(expected));
			ab_strv_push(&out, ab_xasprintf("%s: rule '%s' (%s) needs about %lld pairs %s, %d are "
				"planned (%s)",
				json_string_value(json_object_get(row, "label")),
				json_string_value(json_object_get(need, "rule")),
				json_string_value(json_object_get(need, "predicate")), (long long)n, why, pairs,
				spread));
			free(why);
			if ((why = ab_calibrate_sequential_text(need)))
				ab_strv_push(&out, ab_xasprintf("%s: rule '%s' (%s) %s",
					json_string_value(json_object_get(row, "label")),
					json_string_value(json_object_get(need, "rule")),
					json_string_value(json_object_get(need, "predicate")), why));
			free(why);
		}
		free(spread);
	}
	if (!out)
		ab_strv_push(&out, ab_xasprintf("the %d planned pairs are enough for every rule's margin", pairs));
	if ((metric = ab_calibrate_metric_text(summary)))
		ab_strv_push(&out, metric);
	return out;
}

char *ab_calibrate_metric_text(const json_t *summary)
{
	const json_t *m = json_object_get(summary, "metric"), *best = json_object_get(m, "recommended");
	const json_t *spreads = json_object_get(m, "spreads");
	const char *decides = json_string_value(json_object_get(m, "decides"));

	if (!json_is_string(best) || !decides)
		return NULL;
	return ab_xasprintf("on this host %s's spread of log ratios is %.2f%% against %s's %.2f%%: a rule on "
		"%s needs about 1/%.1f of the pairs. %s, set metric: %s before the next run, not after "
		"seeing one",
		json_string_value(best), 100 * json_number_value(json_object_get(spreads, json_string_value(best))),
		decides, 100 * json_number_value(json_object_get(spreads, decides)), json_string_value(best),
		json_number_value(json_object_get(m, "pairs_factor")),
		!strcmp(json_string_value(best), "cpu_ns")
		? "When the benchmark does single-threaded work (CPU time counts its work; wall time also "
		  "counts its waits for a CPU)"
		: "When what changes is how long the benchmark waits or how well it runs in parallel (wall "
		  "time counts both; CPU time does not)",
		json_string_value(best));
}

char *ab_calibrate_sequential_text(const json_t *need)
{
	static const size_t ladder[] = AB_CALIBRATE_SEQ_LADDER;
	const json_t *seq = json_object_get(need, "sequential");

	if (!json_is_object(seq))
		return NULL;
	if (!json_is_integer(json_object_get(seq, "max")))
		return ab_xasprintf("sequential: no plan up to pairs: {min: %d, max: %zu} reaches the same "
				    "power", AB_CALIBRATE_SEQ_MIN, ladder[sizeof(ladder) / sizeof(*ladder) - 1]);
	return ab_xasprintf("sequential: pairs: {min: %lld, max: %lld} reaches the same power using about "
			    "%.0f pairs on average", (long long)json_integer_value(json_object_get(seq, "min")),
			    (long long)json_integer_value(json_object_get(seq, "max")),
			    json_number_value(json_object_get(seq, "expected_pairs")));
}

char **ab_calibrate_sequential_lines(const json_t *summary)
{
	char **out = NULL, *text;
	size_t i, j;
	json_t *row, *need;

	json_array_foreach(json_object_get(summary, "rows"), i, row) {
		json_array_foreach(json_object_get(row, "pairs_needed"), j, need) {
			if (!(text = ab_calibrate_sequential_text(need)))
				continue;
			ab_strv_push(&out, ab_xasprintf("%s: rule '%s' (%s) needs %lld pairs fixed; %s",
				json_string_value(json_object_get(row, "label")),
				json_string_value(json_object_get(need, "rule")),
				json_string_value(json_object_get(need, "predicate")),
				(long long)json_integer_value(json_object_get(need, "pairs")), text));
			free(text);
		}
	}
	return out;
}
