/* analysis.h - from samples to the verdict: per-row statistics of every
 * metric, integrity (checksums, failed samples), the rules' outcomes and
 * the overall verdict (DESIGN.md "Statistics and verdict"). Pure: the same
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

struct ab_row_result {
	size_t row;
	size_t pairs;             /* complete pairs (both samples ran and succeeded) */
	size_t planned_pairs;
	uint8_t *order;           /* enum ab_order of each complete pair (new) */
	size_t failed;            /* failed samples (crash, exit, timeout, extraction) */
	char *failure;            /* the first failure, described (new), or NULL */
	int checksum_match;       /* 1 all equal, 0 mismatch, -1 no checksum configured/seen */
	char *checksum;           /* the common value when matching (new), or NULL */
	json_t *checksum_values;  /* when mismatching: [{value, side, samples}] (new ref) */
	struct ab_row_metric *metrics;  /* one per experiment metric */
	double scaling[2];        /* per side (parent, candidate); NAN when not set */
	double order_effect;      /* mean d of AB pairs minus mean d of BA pairs, primary metric; NAN */
};

struct ab_rule_row {
	size_t row;
	enum ab_outcome outcome;
	char *detail;             /* one line with the numbers (new) */
};

struct ab_rule_result {
	enum ab_outcome outcome;
	char *detail;             /* one line for the whole rule (new) */
	struct ab_rule_row *rows; /* the rows the rule selects, in row order */
	size_t nrows;
};

struct ab_analysis {
	const struct ab_experiment *exp;   /* borrowed */
	size_t primary;                    /* index of the primary metric in exp->metrics */
	struct ab_row_result *rows;
	size_t nrows;
	struct ab_rule_result *rules;      /* exp->nrules */
	enum ab_verdict verdict;
	char **reasons;                    /* why the verdict is what it is; NULL-terminated */
	char **warnings;                   /* things a careful reader should know; NULL-terminated */
	size_t samples_done, samples_planned;
};

/*
 * Analyse `samples` (a run's samples in plan order, as stored; warmups
 * and superseded samples are skipped) of experiment `exp`. Integrity
 * failures that happened before the samples (a failed build) are passed
 * as `integrity` (NULL-terminated reasons, borrowed), which make the
 * verdict invalid. `out` is initialised here; release with
 * ab_analysis_release. Never fails.
 */
void ab_analysis_run(struct ab_analysis *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t n, char *const *integrity);

void ab_analysis_release(struct ab_analysis *a);

/* "lanes=2" or "workload=churn lanes=2"; "all" for a matrix without
 * parameters. New string. */
char *ab_row_label(const struct ab_experiment *exp, size_t row);

/* Row parameters as a JSON object {name: value} (new reference); values
 * that are integers are stored as JSON integers. */
json_t *ab_row_params(const struct ab_experiment *exp, size_t row);

const char *ab_outcome_name(enum ab_outcome o);      /* pass, inconclusive, fail */
const char *ab_verdict_name(enum ab_verdict v);      /* accepted, rejected, ... */

/* The exit code DESIGN.md assigns to a verdict: 0, 1, 2, 3. */
int ab_verdict_exit_code(enum ab_verdict v);

/* Evaluate the experiment's rules over a finished row analysis and set
 * the verdict (rules.c). Called by ab_analysis_run. */
void ab_rules_evaluate(struct ab_analysis *a, char *const *integrity);

#endif
