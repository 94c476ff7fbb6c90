/* calibrate.h - what an A/A run says about this machine's noise. Both
 * sides are the parent built twice into separate trees, so every "faster"
 * or "slower" outcome is false. The run's pairs are cut into blocks of the
 * experiment's planned pair count, each block one A/A experiment. */
#ifndef AB_CALIBRATE_H
#define AB_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis.h"

/* z quantiles of the asymptotic pairs-needed formula (reported as
 * pairs_asymptotic): one-sided 95% and 80% power */
#define AB_CALIBRATE_Z_ALPHA 1.6448536269514722
#define AB_CALIBRATE_Z_POWER 0.8416212335729143

/* The power the pairs-needed figure is to reach, the seeded rows each
 * power estimate simulates (standard error 0.0063 at 80%), and the largest
 * pair count simulated (beyond, the asymptotic formula, marked so: at 290,
 * 1,000 and 1,800 pairs the simulated figure came out 287, 997 and 1,753,
 * within 3%, while a search there costs seconds). */
#define AB_CALIBRATE_POWER 0.80
#define AB_CALIBRATE_REPS 4000
#define AB_CALIBRATE_SIM_MAX 400
#define AB_CALIBRATE_SEED 0xca11b2a7e5eedULL

/*
 * Power of abtool's decision at n pairs: the fraction of `reps` seeded
 * rows of d_i = -delta + e_i (e_i standard normal: log ratios in units of
 * the measured spread σ, the true ratio delta σ on the passing side of the
 * threshold, which is at 0) whose bound passes, U < 0. That is the
 * discrete procedure itself: U = W_(M-k+1) of the Walsh averages (k from
 * ab_stats_walsh_k at AB_STATS_ALPHA) is below 0 exactly when at most
 * k - 1 Walsh averages are positive, and for continuous d that count is
 * W+ (Tukey's identity; Hollander, Wolfe & Chicken 2014, chapter 3),
 * counted in O(n log n). Row r draws its normals from its own stream
 * (seed, r), the same for every n, so that powers at different n share
 * their random numbers. A fraction in [0, 1]; 0 when n < 5 (no bound);
 * delta = INFINITY (no noise) gives 1 from 5 pairs on.
 */
double ab_calibrate_power(size_t n, double delta, size_t reps, uint64_t seed);

/* What ab_calibrate_pairs_needed found. */
struct ab_pairs_needed {
	size_t pairs;       /* the smallest n >= 5 whose simulated power reaches the target */
	double power;       /* its simulated power; NAN when not simulated */
	int simulated;      /* 0 when more than AB_CALIBRATE_SIM_MAX pairs are needed: pairs
	                       is then the asymptotic figure when that exceeds
	                       AB_CALIBRATE_SIM_MAX (it is optimistic, so the truth does
	                       too), else AB_CALIBRATE_SIM_MAX + 1 */
	size_t asymptotic;  /* the asymptotic formula's n, for comparison */
};

/*
 * Pairs needed for power `target` (in (0, 1)) when the true log ratio lies
 * delta σ on the passing side of the threshold (delta > 0; INFINITY when
 * σ = 0). A scan of ab_calibrate_power (AB_CALIBRATE_REPS rows,
 * AB_CALIBRATE_SEED) upwards from half the asymptotic figure
 *     n_asym = ceil(((z_0.95 + z_0.80) / delta)² · π/3)
 * (π/3 the inverse asymptotic efficiency of the signed-rank interval
 * against the t test for normal data, 3/π inverted: Hodges J. L.,
 * Lehmann E. L. (1956) The efficiency of some nonparametric competitors
 * of the t-test, Ann. Math. Statist. 27, 324-335), one pair at a time up
 * to 68 pairs (where the jumps of k make the power jagged), then by
 * doubling and bisection. The asymptotic figure is optimistic at small n
 * (it gave 50% power at 5 pairs and 77% at 20), so a figure above
 * AB_CALIBRATE_SIM_MAX is not simulated. Deterministic; O(n) memory, about
 * AB_CALIBRATE_REPS n log n time per n tried.
 */
void ab_calibrate_pairs_needed(struct ab_pairs_needed *out, double delta, double target);

/*
 * Summarise an A/A analysis (primary metric) in blocks of `block` pairs
 * (the experiment's planned pairs). Per row: the spread of d (sd, MAD,
 * robust sd 1.4826·MAD), the number of blocks, the false "faster" (U < 1)
 * and "slower" (L > 1) outcomes with exact 95% Clopper–Pearson intervals,
 * and for every inferential predicate of a rule that selects the row, the
 * pairs needed for 80% power (ab_calibrate_pairs_needed) at a stated
 * expected ratio: 1 (no change) when ratio 1 passes the predicate
 * (no_regression, max_ratio > 1, min_ratio < 1), else the ratio one margin
 * beyond the threshold, θ² (faster_by 5%: a true gain of 1.05² - 1 =
 * 10.25%; a true gain of exactly 5% passes at most half the time at any
 * n). So delta = |ln θ| / σ, σ the larger of the sd and the robust sd of
 * d; noise is taken as normal. Each entry gives pairs, power, simulated,
 * expected_ratio and pairs_asymptotic. Also the totals over all rows and
 * the rate expected under no change, P(T <= k-1). New reference.
 */
json_t *ab_calibrate_summary(const struct ab_analysis *a, size_t block);

/*
 * Compare a stored calibration summary with an experiment's plan: one line
 * per (row, rule) whose needed pairs exceed `pairs`, or one line saying the
 * planned pairs are enough. NULL-terminated, new.
 */
char **ab_calibrate_advice(const json_t *summary, int pairs);

#endif
