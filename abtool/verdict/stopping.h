/* stopping.h - when a sequential plan stops a row (docs/statistics.md,
 * "Sequential plans"): after each look the rules are evaluated on the
 * pairs so far, and a row is decided when every rule with interval
 * predicates that selects it passes or fails on them; rows that a scaling
 * predicate pairs by sweep run on, with their base row, until all of them
 * are decided. Dispersion gates and observational predicates do not hold
 * a row: they are judged once, at its last look. Pure: the scheduler
 * (run_samples.c) and `abtool analyze --looks` share it. */
#ifndef AB_STOPPING_H
#define AB_STOPPING_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "sample.h"

/*
 * Which rows of the evaluated analysis `a` (ab_analysis_run then
 * ab_rules_evaluate) are decided: decided[r] = 1 or 0 for r < a->nrows
 * (caller-owned array). Rules a subset run did not evaluate hold no row.
 * A bisect step's run (exp->step active) is decided by the bisect's
 * judgement instead (ab_bisect_rows_decided).
 */
void ab_stopping_decided(const struct ab_analysis *a, uint8_t *decided);

/*
 * The look bucket of a plan entry under `plan`: warmups and the pairs
 * below looks[0] are in bucket 0, the pairs from looks[k-1] up to
 * looks[k] - 1 in bucket k. The scheduler runs the buckets in order, so
 * that every row still running reaches a look before any goes past it.
 */
size_t ab_stopping_bucket(const struct ab_seq_plan *plan, const struct ab_plan_entry *e);

/*
 * Replay a sequential plan over samples collected in full (`abtool
 * analyze --looks`): samples[0 .. n) (owned by the caller, all of the
 * experiment's plan, exp->sequential set) are visited look by look as the
 * scheduler would run them, and the samples of each row beyond the look
 * at which it was decided get status AB_SAMPLE_STOPPED. Returns the number
 * of samples stopped.
 */
size_t ab_stopping_replay(const struct ab_experiment *exp, struct ab_sample *samples, size_t n);

#endif
