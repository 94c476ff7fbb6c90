/* calibrate.h - what an A/A run says about this machine's noise. Both
 * sides are the parent built twice into separate trees, so every "faster"
 * or "slower" outcome is false. The run's pairs are cut into blocks of the
 * experiment's planned pair count, each block one A/A experiment. */
#ifndef AB_CALIBRATE_H
#define AB_CALIBRATE_H

#include <stddef.h>

#include <jansson.h>

#include "analysis.h"

/* z quantiles for the pairs-needed estimate: one-sided 95% and 80% power */
#define AB_CALIBRATE_Z_ALPHA 1.6448536269514722
#define AB_CALIBRATE_Z_POWER 0.8416212335729143

/*
 * Summarise an A/A analysis (primary metric) in blocks of `block` pairs
 * (the experiment's planned pairs). Per row: the spread of d (sd, MAD,
 * robust sd 1.4826·MAD), the number of blocks, the false "faster" (U < 1)
 * and "slower" (L > 1) outcomes with exact 95% Clopper–Pearson intervals,
 * and for every inferential predicate of a rule that selects the row, the
 * pairs needed to resolve its margin m = |ln θ|:
 *     n = ceil(((z_0.95 + z_0.80) · σ / m)² · π/3)
 * (σ the larger of the sd and the robust sd of d; π/3 is the inverse
 * asymptotic efficiency of the signed-rank interval against the t interval
 * for normal data, Hodges & Lehmann 1963). Also the totals over all rows
 * and the rate expected under no change, P(T <= k-1). New reference.
 */
json_t *ab_calibrate_summary(const struct ab_analysis *a, size_t block);

/*
 * Compare a stored calibration summary with an experiment's plan: one line
 * per (row, rule) whose needed pairs exceed `pairs`, or one line saying the
 * planned pairs are enough. NULL-terminated, new.
 */
char **ab_calibrate_advice(const json_t *summary, int pairs);

#endif
