/* bisect.c - the search of `abtool bisect` and the decision of one of its
 * comparisons (bisect.h; the method and its error in docs/history.md,
 * "Bisecting a change"). */
#include "bisect.h"
#include "experiment.h"
#include "stats.h"
#include "util.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ab_bisect_init(struct ab_bisect *b, size_t n)
{
	assert(n >= 2);
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->skipped = ab_xcalloc(n, 1);
	b->lo = 0;
	b->hi = n - 1;
	b->phase = AB_BISECT_ENDPOINTS;
}

void ab_bisect_release(struct ab_bisect *b)
{
	free(b->skipped);
	b->skipped = NULL;
}

size_t ab_bisect_max_comparisons(size_t n)
{
	size_t steps = 0, s;

	for (s = 1; n > 1 && s < n - 1; s *= 2)
		steps++;
	return 2 * steps + 2;
}

/* The next step over (lo, hi]: the measurable commit inside it nearest to
 * its middle (the lower of two as near), or the confirmation when none is
 * left. */
static void advance(struct ab_bisect *b)
{
	size_t want = b->lo + (b->hi - b->lo) / 2, best = 0, i, dist, best_dist = SIZE_MAX;

	for (i = b->lo + 1; i < b->hi; i++) {
		if (b->skipped[i])
			continue;
		dist = i > want ? i - want : want - i;
		if (dist < best_dist) {
			best = i;
			best_dist = dist;
		}
	}
	if (best_dist == SIZE_MAX) {
		b->phase = AB_BISECT_CONFIRM;
		return;
	}
	b->mid = best;
	b->phase = AB_BISECT_LEFT;
}

int ab_bisect_next(const struct ab_bisect *b, struct ab_bisect_cmp *out)
{
	if (b->outcome != AB_BISECT_RUNNING)
		return 0;
	out->role = b->phase;
	switch (b->phase) {
	case AB_BISECT_ENDPOINTS:
	case AB_BISECT_CONFIRM:
		out->parent = b->lo;
		out->candidate = b->hi;
		break;
	case AB_BISECT_LEFT:
		out->parent = b->lo;
		out->candidate = b->mid;
		break;
	case AB_BISECT_RIGHT:
		out->parent = b->mid;
		out->candidate = b->hi;
		break;
	}
	return 1;
}

static void end(struct ab_bisect *b, enum ab_bisect_outcome o, const char *why)
{
	b->outcome = o;
	b->why = why;
}

void ab_bisect_record(struct ab_bisect *b, enum ab_bisect_decision d, int direction)
{
	static const char undecided[] = "a comparison stayed undecided at its level";

	assert(b->outcome == AB_BISECT_RUNNING);
	b->comparisons++;
	switch (b->phase) {
	case AB_BISECT_ENDPOINTS:
		if (d == AB_BISECT_REACHES) {
			b->direction = direction;
			advance(b);
		} else if (d == AB_BISECT_BELOW) {
			end(b, AB_BISECT_NO_CHANGE, "the endpoints differ by less than the threshold");
		} else if (d == AB_BISECT_UNDECIDED) {
			end(b, AB_BISECT_INCONCLUSIVE, "the endpoints' change against the threshold stayed "
			    "undecided");
		} else {
			end(b, AB_BISECT_INVALID, d == AB_BISECT_SKIP_PARENT
			    ? "the good endpoint cannot be measured" : "the bad endpoint cannot be measured");
		}
		return;
	case AB_BISECT_LEFT:
		if (d == AB_BISECT_REACHES) {
			b->hi = b->mid;
			advance(b);
		} else if (d == AB_BISECT_BELOW) {
			b->phase = AB_BISECT_RIGHT;
		} else if (d == AB_BISECT_SKIP_CANDIDATE) {
			b->skipped[b->mid] = 1;
			advance(b);
		} else if (d == AB_BISECT_UNDECIDED) {
			end(b, AB_BISECT_INCONCLUSIVE, undecided);
		} else {
			end(b, AB_BISECT_INCONCLUSIVE, "the range's low end, measured before, could not be "
			    "measured again");
		}
		return;
	case AB_BISECT_RIGHT:
		if (d == AB_BISECT_REACHES) {
			b->lo = b->mid;
			advance(b);
		} else if (d == AB_BISECT_BELOW) {
			end(b, AB_BISECT_SPREAD, "the range's change reaches the threshold and neither half's "
			    "does: it is spread over the range");
		} else if (d == AB_BISECT_UNDECIDED) {
			end(b, AB_BISECT_INCONCLUSIVE, undecided);
		} else {
			end(b, AB_BISECT_INCONCLUSIVE, "the midpoint against the range's high end could not be "
			    "measured (checksums differ?)");
		}
		return;
	case AB_BISECT_CONFIRM:
		if (d == AB_BISECT_REACHES)
			end(b, AB_BISECT_CULPRIT, NULL);
		else if (d == AB_BISECT_BELOW)
			end(b, AB_BISECT_INCONCLUSIVE, "the confirmation against the parent did not reproduce "
			    "the change the search found");
		else if (d == AB_BISECT_UNDECIDED)
			end(b, AB_BISECT_INCONCLUSIVE, "the confirmation against the parent stayed undecided");
		else
			end(b, AB_BISECT_INCONCLUSIVE, "the confirmation could not be measured");
		return;
	}
}

enum ab_bisect_decision ab_bisect_decide(double lower, double upper, int direction, double theta)
{
	double lo = direction > 0 ? lower : -upper, hi = direction > 0 ? upper : -lower;

	/* no bound, or the looks' intervals do not intersect: nothing to decide on */
	if (isnan(lo) || isnan(hi) || lo > hi)
		return AB_BISECT_UNDECIDED;
	if (lo >= theta)
		return AB_BISECT_REACHES;
	if (hi < theta)
		return AB_BISECT_BELOW;
	return AB_BISECT_UNDECIDED;
}

/* One row in one direction: REACHES, BELOW or UNDECIDED, with x the
 * change's Hodges–Lehmann interval in that direction (log scale). */
static enum ab_bisect_decision judge_row(const struct ab_hl *hl, int direction, double theta,
					 double *x_lower, double *x_estimate)
{
	*x_lower = direction > 0 ? hl->lower : -hl->upper;
	*x_estimate = direction * hl->estimate;
	if (hl->k == 0)
		return AB_BISECT_UNDECIDED;
	return ab_bisect_decide(hl->lower, hl->upper, direction, theta);
}

/* The interval a row's decision rests on, log scale: a sequential step's
 * repeated interval as the analysis made it (the plan's alpha is the
 * bisect's level), else the fixed interval at one-sided `alpha`. */
static void row_interval(struct ab_hl *hl, const struct ab_analysis *a, const struct ab_row_result *r,
			 const struct ab_row_metric *rm, double alpha)
{
	if (a->exp->sequential) {
		hl->estimate = log(rm->st.ratio);
		hl->lower = log(rm->st.ci_lower);
		hl->upper = log(rm->st.ci_upper);
		hl->k = rm->st.ci_k;
		hl->coverage = rm->st.ci_level;
		return;
	}
	ab_stats_hodges_lehmann(hl, rm->d, r->pairs, alpha);
}

/* The decision of every measured row in one direction; `out` gets the row
 * that decided. */
static enum ab_bisect_decision judge_direction(struct ab_bisect_judgement *out,
					       const struct ab_analysis *a, size_t metric,
					       double theta, int direction, double alpha)
{
	enum ab_bisect_decision d = AB_BISECT_BELOW, rd;
	double best = -INFINITY, x_lower, x_est;
	size_t i, rows = 0;

	for (i = 0; i < a->nrows; i++) {
		const struct ab_row_result *r = &a->rows[i];
		const struct ab_row_metric *rm;
		struct ab_hl hl;

		if (!ab_experiment_row_selected(a->exp, r->row) || !r->samples)
			continue;
		rows++;
		rm = &r->metrics[metric];
		if (!rm->available || !r->pairs) {
			if (d == AB_BISECT_BELOW)
				d = AB_BISECT_UNDECIDED;
			continue;
		}
		row_interval(&hl, a, r, rm, alpha);
		rd = judge_row(&hl, direction, theta, &x_lower, &x_est);
		/* the row shown: the one that reached, else the largest change */
		if ((rd == AB_BISECT_REACHES && d != AB_BISECT_REACHES) ||
		    ((rd == AB_BISECT_REACHES) == (d == AB_BISECT_REACHES) && x_est > best)) {
			best = x_est;
			out->row = r->row;
			out->ratio = exp(hl.estimate);
			out->lower = exp(hl.lower);
			out->upper = exp(hl.upper);
		}
		if (rd == AB_BISECT_REACHES)
			d = AB_BISECT_REACHES;
		else if (rd == AB_BISECT_UNDECIDED && d == AB_BISECT_BELOW)
			d = AB_BISECT_UNDECIDED;
	}
	return rows ? d : AB_BISECT_UNDECIDED;
}

void ab_bisect_judge(struct ab_bisect_judgement *out, const struct ab_analysis *a, size_t metric,
		     double threshold, int direction, double alpha, int failed_side)
{
	double theta = log1p(threshold);
	struct ab_bisect_judgement up, down;
	enum ab_bisect_decision du, dd;

	memset(out, 0, sizeof(*out));
	out->ratio = out->lower = out->upper = NAN;
	out->direction = direction;
	if (a->verdict == AB_INVALID) {
		out->decision = failed_side == 0 ? AB_BISECT_SKIP_PARENT : AB_BISECT_SKIP_CANDIDATE;
		return;
	}
	if (direction) {
		out->decision = judge_direction(out, a, metric, theta, direction, alpha);
		return;
	}
	memcpy(&up, out, sizeof(up));
	memcpy(&down, out, sizeof(down));
	/* each direction at alpha / 2: a fixed step's own intervals; a
	 * sequential one's plan was made at alpha / 2 per side already */
	du = judge_direction(&up, a, metric, theta, +1, alpha / 2);
	dd = judge_direction(&down, a, metric, theta, -1, alpha / 2);
	*out = dd == AB_BISECT_REACHES && du != AB_BISECT_REACHES ? down : up;
	out->decision = ab_bisect_combine(du, dd, &out->direction);
}

enum ab_bisect_decision ab_bisect_combine(enum ab_bisect_decision up, enum ab_bisect_decision down,
					  int *direction)
{
	*direction = 0;
	if (up == AB_BISECT_REACHES && down != AB_BISECT_REACHES) {
		*direction = +1;
		return AB_BISECT_REACHES;
	}
	if (down == AB_BISECT_REACHES && up != AB_BISECT_REACHES) {
		*direction = -1;
		return AB_BISECT_REACHES;
	}
	return up == AB_BISECT_BELOW && down == AB_BISECT_BELOW ? AB_BISECT_BELOW : AB_BISECT_UNDECIDED;
}

void ab_bisect_rows_decided(const struct ab_analysis *a, const struct ab_step_stop *stop, uint8_t *decided)
{
	const struct ab_metric *m = ab_experiment_metric(a->exp, stop->metric);
	double theta = log1p(stop->threshold);
	size_t i, metric = m ? (size_t)(m - a->exp->metrics) : a->primary;
	int reached = 0;

	for (i = 0; i < a->nrows; i++) {
		const struct ab_row_result *r = &a->rows[i];
		const struct ab_row_metric *rm = &r->metrics[metric];
		double lower = log(rm->st.ci_lower), upper = log(rm->st.ci_upper);
		enum ab_bisect_decision up, down;

		decided[i] = 1;
		if (!ab_experiment_row_selected(a->exp, r->row) || !r->samples)
			continue;
		if (!rm->available || !r->pairs || rm->st.ci_k == 0) {
			decided[i] = 0;
			continue;
		}
		up = stop->direction >= 0 ? ab_bisect_decide(lower, upper, +1, theta) : AB_BISECT_BELOW;
		down = stop->direction <= 0 ? ab_bisect_decide(lower, upper, -1, theta) : AB_BISECT_BELOW;
		reached |= up == AB_BISECT_REACHES || down == AB_BISECT_REACHES;
		decided[i] = up != AB_BISECT_UNDECIDED && down != AB_BISECT_UNDECIDED;
	}
	/* one row reaching decides the comparison: every row may stop */
	for (i = 0; reached && i < a->nrows; i++)
		decided[i] = 1;
}

void ab_bisect_step_plan(struct ab_experiment *exp, const char *metric, double threshold, double alpha_c,
			 enum ab_bisect_role role, int direction)
{
	if (!exp->sequential)  /* a file edited since a resumed bisect began: its steps run as it says */
		return;
	exp->seq.alpha = role == AB_BISECT_ENDPOINTS ? alpha_c / 2 : alpha_c;
	free(exp->step.metric);
	exp->step.metric = ab_xstrdup(metric);
	exp->step.threshold = threshold;
	exp->step.direction = role == AB_BISECT_ENDPOINTS ? 0 : direction;
	exp->step.active = 1;
}

static const char *const role_names[] = {"endpoints", "left", "right", "confirm"};
static const char *const decision_names[] = {"reaches", "below", "undecided", "skip-candidate",
					     "skip-parent"};
static const char *const outcome_names[] = {"running", "culprit", "spread", "no-change",
					    "inconclusive", "invalid"};

const char *ab_bisect_role_name(enum ab_bisect_role r)
{
	return role_names[r];
}

const char *ab_bisect_decision_name(enum ab_bisect_decision d)
{
	return decision_names[d];
}

const char *ab_bisect_outcome_name(enum ab_bisect_outcome o)
{
	return outcome_names[o];
}

int ab_bisect_decision_parse(const char *s)
{
	size_t i;

	for (i = 0; s && i < sizeof(decision_names) / sizeof(decision_names[0]); i++)
		if (!strcmp(s, decision_names[i]))
			return (int)i;
	return -1;
}
