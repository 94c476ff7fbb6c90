/* analysis.h - from samples to the verdict: per-row statistics of every
 * metric, integrity (checksums, failed samples), the rules' outcomes and
 * the overall verdict (docs/statistics.md). Pure: the same
 * samples give the same analysis, which is how `abtool report` and
 * `abtool resume` reproduce a run's verdict from the store. */
#ifndef AB_ANALYSIS_H
#define AB_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config.h"
#include "sample.h"
#include "stats.h"

enum ab_outcome {
	AB_PASS = 0,
	AB_INCONCLUSIVE = 1,
	AB_FAIL = 2,          /* combination inside a rule takes the maximum */
};

enum ab_verdict {
	AB_ACCEPTED = 0,      /* exit 0 */
	AB_REJECTED = 1,      /* exit 1 */
	AB_INCONCLUSIVE_VERDICT = 2, /* exit 2 */
	AB_INVALID = 3,       /* exit 3 */
};

/* One metric of one row. */
struct ab_row_metric {
	int available;        /* 1 when every complete pair has a value > 0 */
	char *unavailable;    /* why not, or NULL (new) */
	struct ab_paired st;  /* valid when available */
	double *d;            /* ln(b_i / a_i) per complete pair, in pair order (new) */
};

/* The order effect of a row's primary metric (a crossover analysis of the
 * AB and BA pairs, Grizzle 1965): in AB pairs d = τ + π, in BA pairs
 * d = τ − π, where π is the log advantage of running second. */
struct ab_order_effect {
	size_t n_ab, n_ba;
	double effect;            /* π = (mean d_AB − mean d_BA) / 2, log scale; NAN when a group is empty */
	double p;                 /* two-sided pooled two-sample t-test of π = 0; NAN when undefined */
	double p_adjusted;        /* p after Holm's adjustment over the run's rows with a p (so that
	                             a run without an order effect warns at most 5% of the time);
	                             NAN when p is */
	int material;             /* |π| ≥ ln 1.005 and p_adjusted < 0.05 */
	double crossover_ratio;   /* exp(τ), τ = (mean d_AB + mean d_BA) / 2 */
	double crossover_lower, crossover_upper;  /* 90% t interval of exp(τ) */
};

/* The change in scaling B against A at a row, from the same round-robin
 * sweeps: e_i = d_{N0,i} − d_{N,i} (per-pair log ratios at the base row and
 * at this row, pair i of both); exp(e) > 1 means the candidate scales
 * better. Decided on like a ratio: Hodges–Lehmann and signed-rank bounds. */
struct ab_scaling_change {
	int available;            /* the row has a base row and aligned pairs */
	long base;                /* the base row's index, -1 without scaling (itself at the base) */
	size_t n;
	double *e;                /* per aligned sweep (new) */
	struct ab_hl hl;          /* on e, log scale */
};

/* How undisturbed one side's samples of a row ran: medians over the
 * samples of complete pairs that succeeded (NAN when none had the value). */
struct ab_row_quality {
	size_t n;                 /* samples summarised */
	double occupancy;         /* median (user + sys) / wall: 1.0 = one CPU busy all the time */
	double nivcsw;            /* median involuntary context switches per sample */
	double other_cpus;        /* median other_cpu_ns / wall: CPUs other processes used */
};

struct ab_row_result {
	size_t row;
	size_t pairs;             /* complete pairs (both samples usable) */
	size_t planned_pairs;     /* a sequential plan's maximum */
	const struct ab_seq_plan *seq;  /* the experiment's sequential plan (borrowed), or NULL for
	                             a fixed plan: the intervals are then repeated intervals */
	size_t look;              /* sequential: looks the row reached (it stopped at looks[look-1]
	                             pairs); 0 for a fixed plan or before the first look */
	uint8_t *order;           /* enum ab_order of each complete pair (new) */
	int32_t *pair_index;      /* plan pair index of each complete pair (new) */
	struct ab_row_policy policy;
	size_t samples;           /* samples of the row in the input, of any status (0: a row
	                             of the matrix that was never planned or measured) */
	size_t failed;            /* failed samples that make the row invalid */
	char *failure;            /* the first of them, described (new), or NULL */
	size_t failed_pairs;      /* pairs with a timed-out sample that allow_failed_pairs
	                             tolerated (a pair counts once, whichever sides timed out) */
	size_t timeout_losses[2]; /* complete pairs where only this side (enum ab_side) timed
	                             out: its worst possible value, a loss for it */
	size_t timeout_ties;      /* complete pairs where both sides timed out: both worst,
	                             d = 0, a tie (a zero under Pratt's treatment) */
	size_t flagged;           /* samples of complete pairs flagged contended (warmups and
	                             samples of dropped pairs excluded: they decide nothing) */
	size_t only_flagged[2];   /* pairs run in which only the parent / the candidate was
	                             contended (the pairs of the statistics and the first runs
	                             of re-run pairs) */
	size_t contended_pairs;   /* of those complete pairs, the ones with a contended sample:
	                             kept when the row's re-runs were spent or off */
	size_t reruns;            /* pairs run again because a sample was contended (their first
	                             runs: superseded samples flagged rerun) */
	size_t truncated;         /* done samples whose output exceeded the capture (output_truncated) */
	int checksum_match;       /* 1 all equal, 0 differ, -1 no checksum configured/seen */
	int checksum_ok;          /* integrity holds under the row's policy */
	char *checksum;           /* the common value when matching (new), or NULL */
	json_t *checksum_values;  /* [{value, side, samples}] (new ref) */
	struct ab_row_metric *metrics;  /* one per experiment metric */
	double scaling[2];        /* per side (parent, candidate); NAN when not set */
	struct ab_scaling_change scaling_change;
	struct ab_order_effect order_effect;
	struct ab_row_quality quality[2];  /* parent, candidate */
};

struct ab_rule_row {
	size_t row;
	enum ab_outcome outcome;
	char *detail;             /* one line with the numbers (new) */
	int inferential;          /* 1: the rule has interval predicates on this row */
	enum ab_outcome decided;  /* their combined outcome alone (pass while none): what a
	                             sequential plan stops a row on (stopping.h) */
};

struct ab_rule_result {
	enum ab_outcome outcome;
	char *detail;             /* one line for the whole rule (new) */
	struct ab_rule_row *rows; /* the rows the rule selects, in row order */
	size_t nrows;
	int not_evaluated;        /* a subset run (--row) measured none of its rows: outcome
	                             inconclusive, and no part of the verdict */
};

struct ab_analysis {
	const struct ab_experiment *exp;   /* borrowed */
	size_t primary;                    /* index of the primary metric in exp->metrics */
	struct ab_row_result *rows;
	size_t nrows;
	struct ab_rule_result *rules;      /* exp->nrules, set by ab_rules_evaluate */
	enum ab_verdict verdict;
	char **reasons;                    /* why the verdict is what it is; NULL-terminated */
	char **warnings;                   /* things a careful reader should know; NULL-terminated */
	char **rule_warnings;              /* those about the rules (e.g. an interval wider than a
	                                      margin); NULL-terminated */
	size_t refutations;                /* members of the verdict's family: the distinct (row,
	                                      quantity, side) the rules' inferential bounds can refute
	                                      on, over which Holm adjusts (docs/statistics.md) */
	size_t samples_done, samples_planned;  /* stopped samples (sequential) are not planned */
	size_t samples_stopped;            /* never run: a sequential plan stopped their rows */
	size_t only_flagged[2];            /* pairs run (re-runs' first runs included) in which only
	                                      the parent / only the candidate was contended */
};

/*
 * Analyse `samples` (a run's samples in plan order, as stored; warmups
 * and superseded samples are skipped) of experiment `exp`: the per-row
 * statistics, integrity and warnings. The rules and the verdict are
 * ab_rules_evaluate's (rules.h), run after this. `out` is initialised
 * here; release with ab_analysis_release. Never fails.
 */
void ab_analysis_run(struct ab_analysis *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t n);

void ab_analysis_release(struct ab_analysis *a);

/* "lanes=2" or "workload=churn lanes=2"; "all" for a matrix without
 * parameters. New string. */
char *ab_row_label(const struct ab_experiment *exp, size_t row);

/* Row parameters as a JSON object {name: value} (new reference); values
 * that are integers are stored as JSON integers. */
json_t *ab_row_params(const struct ab_experiment *exp, size_t row);

const char *ab_outcome_name(enum ab_outcome o);      /* pass, inconclusive, fail */
const char *ab_verdict_name(enum ab_verdict v);      /* accepted, rejected, ... */

/* The exit code docs/cli.md ("Exit codes") assigns to a verdict: 0, 1, 2, 3. */
int ab_verdict_exit_code(enum ab_verdict v);

#endif
