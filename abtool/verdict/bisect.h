/* bisect.h - the search of `abtool bisect` (docs/history.md, "Bisecting a
 * change"): which A/B comparison to run next over a first-parent path of
 * commits, what each comparison's analysis decides against the threshold,
 * and where the search ends (a culprit, a spread over a range, a range
 * left undecided). Pure: no store, no runs, no output. The command layer
 * (cmd_bisect.c) runs each comparison as a real run through run.h and
 * feeds the decisions back; a resumed bisect feeds the stored decisions
 * again, in order, and the search replays to where it stopped. */
#ifndef AB_BISECT_H
#define AB_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis.h"

/* What a comparison is for. */
enum ab_bisect_role {
	AB_BISECT_ENDPOINTS = 0,  /* good against bad: is there a change, in which direction */
	AB_BISECT_LEFT,           /* the range's low end against the midpoint */
	AB_BISECT_RIGHT,          /* the midpoint against the range's high end */
	AB_BISECT_CONFIRM,        /* the culprit against its parent (the exact one when measurable) */
};

/* What one comparison decided over the selected rows. */
enum ab_bisect_decision {
	AB_BISECT_REACHES = 0,    /* some row changed by at least the threshold, in the direction */
	AB_BISECT_BELOW,          /* every row changed by less than the threshold */
	AB_BISECT_UNDECIDED,      /* neither is shown at the comparison's level */
	AB_BISECT_SKIP_CANDIDATE, /* the newer side cannot be measured (build, checksum, failed
	                             samples): skipped like `git bisect skip` */
	AB_BISECT_SKIP_PARENT,    /* the older side cannot be measured */
};

/* Where a search ended. */
enum ab_bisect_outcome {
	AB_BISECT_RUNNING = 0,
	AB_BISECT_CULPRIT,        /* one commit, confirmed against its parent */
	AB_BISECT_SPREAD,         /* the range's change reaches the threshold, neither half does */
	AB_BISECT_NO_CHANGE,      /* the endpoints differ by less than the threshold */
	AB_BISECT_INCONCLUSIVE,   /* a comparison stayed undecided (or the confirmation did not
	                             reproduce the step): the remaining range, never a guess */
	AB_BISECT_INVALID,        /* an endpoint cannot be measured */
};

/* One comparison to run: path indices of the older (parent) and newer
 * (candidate) commits. */
struct ab_bisect_cmp {
	size_t parent, candidate;
	enum ab_bisect_role role;
};

/* The search over path[0] (good) .. path[n-1] (bad). */
struct ab_bisect {
	size_t n;                 /* commits on the path, both ends included (>= 2) */
	uint8_t *skipped;         /* n flags: commits that could not be measured (new) */
	int direction;            /* +1 the metric went up between the endpoints, -1 down, 0 unknown */
	size_t lo, hi;            /* the range (lo, hi]: the change is in path[lo+1 .. hi] */
	size_t mid;               /* the midpoint being tested */
	enum ab_bisect_role phase;
	enum ab_bisect_outcome outcome;
	const char *why;          /* one line on why it ended (static), or NULL */
	size_t comparisons;       /* decisions recorded so far */
};

/* Start a search over a path of `n` >= 2 commits. Never fails. */
void ab_bisect_init(struct ab_bisect *b, size_t n);

void ab_bisect_release(struct ab_bisect *b);

/* The comparison to run next into `out`: 1, or 0 when the search has
 * ended (b->outcome says how). */
int ab_bisect_next(const struct ab_bisect *b, struct ab_bisect_cmp *out);

/* Record the decision of the comparison ab_bisect_next gave; `direction`
 * is the endpoints' (+1, -1; ignored for other roles). */
void ab_bisect_record(struct ab_bisect *b, enum ab_bisect_decision d, int direction);

/* The most comparisons a search over `n` commits makes without skips:
 * the endpoints, two per halving step (ceil(log2(n - 1)) of them) and
 * the confirmation: 2 ceil(log2(n - 1)) + 2. The per-comparison level is
 * the search's level divided by this (Bonferroni, docs/history.md). */
size_t ab_bisect_max_comparisons(size_t n);

/* What one comparison of the selected rows measured and decided. */
struct ab_bisect_judgement {
	enum ab_bisect_decision decision;
	int direction;            /* the endpoints: the direction that reached; else as given */
	size_t row;               /* the row that decided (reached, or the widest when below) */
	double ratio, lower, upper;  /* its Hodges–Lehmann ratio and bounds at the level (B/A) */
};

/*
 * Decide one comparison from its analysis `a` (ab_run_finish's): for every
 * row the experiment measured (ab_experiment_row_selected), metric
 * `metric` (an index into exp->metrics), the Hodges–Lehmann interval of the
 * log ratios at one-sided level `alpha` (Hodges & Lehmann 1963, as the
 * analysis computes it; for a step whose plan is sequential, the row's
 * repeated interval the analysis made, whose plan carries the level, so
 * `alpha` is not used) against θ = ln(1 + threshold): a row reaches when
 * its bound nearer zero is beyond θ in `direction` (+1 up, -1 down), is
 * below when its far bound is short of θ. Some row reaching decides
 * REACHES, every row below BELOW, anything else UNDECIDED. With direction
 * 0 (the endpoints) both directions are tried, each at alpha / 2, and
 * out->direction says which reached (rows reaching in both directions are
 * UNDECIDED). An invalid analysis (a failed build, mismatched checksums,
 * failed samples) gives SKIP_CANDIDATE or SKIP_PARENT from
 * `failed_side` (0 parent, 1 candidate; -1: unknown, taken as the
 * candidate). Never fails.
 */
void ab_bisect_judge(struct ab_bisect_judgement *out, const struct ab_analysis *a, size_t metric,
		     double threshold, int direction, double alpha, int failed_side);

/*
 * One row's decision in `direction` (+1 the metric went up, -1 down) from
 * its interval [lower, upper] of the log ratio: REACHES when the bound
 * nearer zero is at least theta = ln(1 + threshold) beyond it, BELOW when
 * the far bound is short of theta, else UNDECIDED; also UNDECIDED without
 * a bound (NAN) and for an empty interval (lower > upper: a sequential
 * row whose looks' intervals do not intersect, docs/statistics.md, "An
 * empty intersection"). Pure.
 */
enum ab_bisect_decision ab_bisect_decide(double lower, double upper, int direction, double theta);

/*
 * The endpoints' decision from each direction's (`up` +1, `down` -1):
 * REACHES in the one direction that reaches (*direction says which),
 * BELOW when both are below, else UNDECIDED (*direction 0), also when
 * both reach. Pure.
 */
enum ab_bisect_decision ab_bisect_combine(enum ab_bisect_decision up, enum ab_bisect_decision down,
					  int *direction);

/*
 * Which rows of a sequential bisect step's analysis `a` are decided at a
 * look (stopping.c calls it for a run whose exp->step is active, instead
 * of the rules): decided[r] = 1 (caller-owned, a->nrows) when the row's
 * repeated interval of metric stop->metric against stop->threshold is
 * REACHES or BELOW in stop->direction (both directions for 0, the
 * endpoints: decided when each is), or the row is not measured; and every
 * row once one row REACHES, which decides the comparison. Pure.
 */
void ab_bisect_rows_decided(const struct ab_analysis *a, const struct ab_step_stop *stop, uint8_t *decided);

/*
 * Make `exp` (a sequential plan, loaded and not yet started) the plan of a
 * sequential step of comparison role `role` (docs/history.md, "How a
 * comparison decides"): the file's looks and spending with their alpha
 * the comparison's level `alpha_c` (alpha_c / 2 for the endpoints, which
 * try both directions, one-sided each), and its rows stopping on the
 * bisect's judgement of `metric` (copied) against `threshold` (a fraction,
 * 0.4 for 40%) in `direction` (+1 up, -1 down; the endpoints' is 0)
 * instead of the experiment's rules (exp->step, stopping.c). A fixed plan
 * is left as it is. Never fails.
 */
void ab_bisect_step_plan(struct ab_experiment *exp, const char *metric, double threshold, double alpha_c,
			 enum ab_bisect_role role, int direction);

/* Static names: "endpoints", "left", "right", "confirm"; "reaches",
 * "below", "undecided", "skip-candidate", "skip-parent"; "running",
 * "culprit", "spread", "no-change", "inconclusive", "invalid". The
 * _parse functions return -1 for an unknown name. */
const char *ab_bisect_role_name(enum ab_bisect_role r);
const char *ab_bisect_decision_name(enum ab_bisect_decision d);
const char *ab_bisect_outcome_name(enum ab_bisect_outcome o);
int ab_bisect_decision_parse(const char *s);

#endif
