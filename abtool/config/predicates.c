/* predicates.c - the table of rule predicates (predicates.h). */
#include "predicates.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(field, type) .store = type, .offset = offsetof(struct ab_rule, field)

const struct ab_predicate ab_predicates[] = {
	{ .name = "no_regression", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_PERCENT,
	  FIELD(no_regression, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND, .side = AB_PASS_BELOW,
	  .margin_up = 1, .follows_better = 1, .meaning = "no regression above %s",
	  .refuted = "a regression above %s", .inconclusive = "cannot exclude a regression above %s",
	  .json = "no_regression" },
	{ .name = "faster_by", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_PERCENT,
	  FIELD(faster_by, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND, .side = AB_PASS_BELOW,
	  .margin_up = 0, .follows_better = 1, .meaning = "faster by at least %s",
	  .refuted = "a gain below %s", .inconclusive = "cannot show a gain of %s",
	  .json = "faster_by" },
	{ .name = "slower_by", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_PERCENT,
	  FIELD(slower_by, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND, .side = AB_PASS_ABOVE,
	  .margin_up = 1, .follows_better = 1, .meaning = "slower by at least %s",
	  .refuted = "a cost below %s", .inconclusive = "cannot show a cost of %s",
	  .json = "slower_by" },
	{ .name = "equivalent_within", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_PERCENT,
	  FIELD(equivalent_within, AB_STORE_DOUBLE), .decide = AB_DECIDE_EQUIVALENCE,
	  .side = AB_PASS_BELOW, .margin_up = 1, .meaning = "equivalent within %s",
	  .refuted = "a difference beyond %s", .inconclusive = "cannot show equivalence within %s",
	  .json = "equivalent_within" },
	{ .name = "differs", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_TRUE,
	  FIELD(differs, AB_STORE_INT), .decide = AB_DECIDE_DIFFERS, .side = AB_PASS_BELOW,
	  .meaning = "a difference shown", .refuted = "a difference shown",
	  .inconclusive = "no difference shown, which is not equivalence", .json = "differs" },
	{ .name = "min_pair_wins", .form = "count", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_PAIR_WINS, FIELD(min_pair_wins, AB_STORE_INT64),
	  .decide = AB_DECIDE_PAIR_WINS, .json = "min_pair_wins" },
	{ .name = "min_pair_wins", .form = "share", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_PAIR_WINS, FIELD(min_pair_wins_frac, AB_STORE_DOUBLE),
	  .decide = AB_DECIDE_PAIR_WINS, .json = "min_pair_wins_fraction" },
	{ .name = "max_ratio", .form = "bound", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_RATIO,
	  FIELD(max_ratio, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND, .side = AB_PASS_BELOW,
	  .meaning = "max_ratio", .refuted = "a ratio above max_ratio",
	  .inconclusive = "cannot show a ratio below %s" },
	{ .name = "max_ratio", .form = "estimate", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_RATIO, FIELD(max_ratio_estimate, AB_STORE_DOUBLE),
	  .decide = AB_DECIDE_ESTIMATE, .side = AB_PASS_BELOW },
	{ .name = "min_ratio", .form = "bound", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_RATIO,
	  FIELD(min_ratio, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND, .side = AB_PASS_ABOVE,
	  .meaning = "min_ratio", .refuted = "a ratio below min_ratio",
	  .inconclusive = "cannot show a ratio above %s" },
	{ .name = "min_ratio", .form = "estimate", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_RATIO, FIELD(min_ratio_estimate, AB_STORE_DOUBLE),
	  .decide = AB_DECIDE_ESTIMATE, .side = AB_PASS_ABOVE },
	{ .name = "min_scaling", .form = "parent", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_SCALING, FIELD(min_scaling_parent, AB_STORE_DOUBLE),
	  .decide = AB_DECIDE_SCALING, .needs_scaling = 1 },
	{ .name = "min_scaling", .form = "candidate", .kind = AB_PREDICATE_OBSERVATIONAL,
	  .arg = AB_ARG_SCALING, FIELD(min_scaling_candidate, AB_STORE_DOUBLE),
	  .decide = AB_DECIDE_SCALING, .needs_scaling = 1 },
	{ .name = "scaling_not_worse", .kind = AB_PREDICATE_INFERENTIAL, .arg = AB_ARG_PERCENT,
	  FIELD(scaling_not_worse, AB_STORE_DOUBLE), .decide = AB_DECIDE_BOUND,
	  .side = AB_PASS_ABOVE, .margin_up = 0, .on_scaling = 1, .needs_scaling = 1,
	  .meaning = "scaling change: no loss above %s", .refuted = "scaling change: a loss above %s",
	  .inconclusive = "cannot exclude a scaling loss above %s" },
	{ .name = "max_rsd", .kind = AB_PREDICATE_GATE, .arg = AB_ARG_PERCENT,
	  FIELD(max_rsd, AB_STORE_DOUBLE), .decide = AB_DECIDE_GATES, .json = "max_rsd" },
	{ .name = "max_ci_width", .kind = AB_PREDICATE_GATE, .arg = AB_ARG_PERCENT,
	  FIELD(max_ci_width, AB_STORE_DOUBLE), .decide = AB_DECIDE_GATES, .json = "max_ci_width" },
	{ .name = "checksum", .kind = AB_PREDICATE_INTEGRITY, .arg = AB_ARG_CHECKSUM,
	  FIELD(checksum_may_change, AB_STORE_INT), .decide = AB_DECIDE_NONE },
	{ .name = "allow_failed_pairs", .kind = AB_PREDICATE_INTEGRITY, .arg = AB_ARG_PAIRS,
	  FIELD(allow_failed_pairs, AB_STORE_INT), .decide = AB_DECIDE_NONE },
	{ .name = "max_flagged_samples", .kind = AB_PREDICATE_GATE, .arg = AB_ARG_SAMPLES,
	  FIELD(max_flagged_samples, AB_STORE_INT64), .decide = AB_DECIDE_GATES },
	{ .name = NULL },
};

static const void *field(const struct ab_predicate *p, const struct ab_rule *r)
{
	return (const char *)r + p->offset;
}

int ab_predicate_is_set(const struct ab_predicate *p, const struct ab_rule *r)
{
	switch (p->store) {
	case AB_STORE_INT64:
		return *(const int64_t *)field(p, r) >= 0;
	case AB_STORE_INT:
		return *(const int *)field(p, r) >= 0;
	default:
		return !isnan(*(const double *)field(p, r));
	}
}

double ab_predicate_value(const struct ab_predicate *p, const struct ab_rule *r)
{
	switch (p->store) {
	case AB_STORE_INT64:
		return (double)*(const int64_t *)field(p, r);
	case AB_STORE_INT:
		return *(const int *)field(p, r);
	default:
		return *(const double *)field(p, r);
	}
}

int64_t ab_predicate_count(const struct ab_predicate *p, const struct ab_rule *r)
{
	if (p->store == AB_STORE_INT64)
		return *(const int64_t *)field(p, r);
	return *(const int *)field(p, r);
}

void ab_predicates_clear(struct ab_rule *r)
{
	const struct ab_predicate *p;

	for (p = ab_predicates; p->name; p++) {
		void *f = (char *)r + p->offset;

		if (p->store == AB_STORE_INT64)
			*(int64_t *)f = -1;
		else if (p->store == AB_STORE_INT)
			*(int *)f = -1;
		else
			*(double *)f = NAN;
	}
}

const struct ab_predicate *ab_predicate_find(const char *name, const char *form)
{
	const struct ab_predicate *p;

	for (p = ab_predicates; p->name; p++)
		if (!strcmp(p->name, name) && (!form || (p->form && !strcmp(p->form, form))))
			return p;
	return NULL;
}

double ab_predicate_theta(const struct ab_predicate *p, double value, enum ab_better better,
			  enum ab_pass_side *side, int *reciprocal)
{
	int mirror = p->follows_better && better == AB_HIGHER_IS_BETTER;
	int up = p->margin_up != mirror;

	*side = mirror ? (enum ab_pass_side)!p->side : p->side;
	*reciprocal = 0;
	if (p->arg != AB_ARG_PERCENT)
		return value;
	*reciprocal = !up;
	return up ? 1 + value : 1 / (1 + value);
}

size_t ab_predicate_pairs_needed(const struct ab_predicate *p, const struct ab_rule *r,
				 size_t planned)
{
	if (p->store != AB_STORE_DOUBLE)
		return (size_t)ab_predicate_count(p, r);
	return (size_t)ceil(ab_predicate_value(p, r) * (double)planned - 1e-9);
}

char *ab_predicate_observed_note(const struct ab_predicate *p, const struct ab_rule *r, int pairs)
{
	size_t need;
	double by_noise = 0, two_sided;

	switch (p->decide) {
	case AB_DECIDE_PAIR_WINS:
		need = ab_predicate_pairs_needed(p, r, (size_t)pairs);
		if (need <= (size_t)pairs)
			ab_stats_sign_test((size_t)pairs, need, &by_noise, &two_sided);
		return ab_xasprintf("noise alone passes min_pair_wins: %zu of %d pairs with probability "
				    "%.3g%%", need, pairs, 100 * by_noise);
	case AB_DECIDE_ESTIMATE:
		return ab_xasprintf("%s: {estimate: %.4g} compares the point estimate, with no interval",
				    p->name, ab_predicate_value(p, r));
	case AB_DECIDE_SCALING:
		return ab_xasprintf("min_scaling compares the %s's medians, with no interval", p->form);
	default:
		return ab_xasprintf("%s decides on observed values", p->name);
	}
}
