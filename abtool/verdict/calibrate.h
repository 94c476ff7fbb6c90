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
#include "sequential.h"

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

/*
 * Power of `equivalent_within` at n pairs: the fraction of `reps` seeded
 * rows of d_i = e_i (e_i standard normal: a true ratio of 1, in units of
 * σ) whose interval lies inside (-delta, delta), both sides at once:
 * U < delta when at most k - 1 Walsh averages are >= delta, L > -delta
 * when at most k - 1 are <= -delta (Tukey's identity), k as for
 * ab_calibrate_power; the rows are ab_calibrate_power's with delta 0.
 * TOST passes only when both do (Schuirmann 1987), so its power is below
 * either side's alone: at delta 0.99 (2% margin, 2% spread) 0.678 at 9
 * pairs, where one side has 0.83. Fraction in [0, 1]; 0 when n < 5.
 */
double ab_calibrate_power_equivalence(size_t n, double delta, size_t reps, uint64_t seed);

/* The one-sided confidence of the spread's upper bound that calibrate
 * plans from (ab_calibrate_spread_upper). */
#define AB_CALIBRATE_SPREAD_CONFIDENCE 0.80

/*
 * The one-sided AB_CALIBRATE_SPREAD_CONFIDENCE upper confidence bound of
 * the spread σ estimated as `sigma` from n A/A pairs: sigma sqrt((n - 1) /
 * χ²_{1 - confidence}(n - 1)), the chi-square bound of a normal standard
 * deviation (e.g. Hahn & Meeker, Statistical Intervals, 1991, section
 * 4.3). Planning the pairs from it instead of from sigma itself (the
 * plug-in) makes the true power fall short of the target only when the
 * bound does, about 1 - confidence of the time for normal noise, where the
 * plug-in fell short 18.6% of the time with 32 pairs at one σ. NAN when n <
 * 2 or sigma is not finite.
 */
double ab_calibrate_spread_upper(double sigma, size_t n);

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
 * AB_CALIBRATE_SIM_MAX is not simulated. With `equivalence`, the power is
 * ab_calibrate_power_equivalence's (the true ratio 1, both sides of ±delta
 * passing together) and the asymptotic figure takes z_{(1+target)/2} for
 * z_0.80 (each side's power about (1 + target) / 2). Deterministic; O(n)
 * memory, about AB_CALIBRATE_REPS n log n time per n tried.
 */
void ab_calibrate_pairs_needed(struct ab_pairs_needed *out, double delta, double target, int equivalence);

/* The sequential plans calibrate tries, `pairs: {min: AB_CALIBRATE_SEQ_MIN,
 * max: M}` for M in this ladder, smallest first (each step about 1.5x; the
 * last is AB_SEQ_MAX_PAIRS). */
#define AB_CALIBRATE_SEQ_MIN 8
#define AB_CALIBRATE_SEQ_LADDER {16, 24, 32, 48, 64, 96, 128, 192, 256}

/* What ab_calibrate_sequential found. */
struct ab_seq_needed {
	int found;              /* 0 when no plan of the ladder reaches the target */
	struct ab_seq_plan plan;  /* the plan found: looks at 8, doubling, and max */
	size_t max;             /* its last look (the pairs a row may take at most) */
	double power;           /* simulated power: rows with U < 0 at some look */
	double expected_pairs;  /* mean pairs used by the simulated rows at the
	                           effect: a row stops at its first passing look,
	                           else runs to max */
};

/*
 * The smallest sequential plan `pairs: {min: 8, max: M}` (M from
 * AB_CALIBRATE_SEQ_LADDER, default spending: ab_seq_plan_from_range) whose
 * power reaches `target` (in (0, 1)) when the true log ratio lies delta σ
 * on the passing side of the threshold (delta > 0; INFINITY when σ = 0),
 * and the pairs its rows use on average there. The power of a plan is the
 * fraction of AB_CALIBRATE_REPS seeded rows of d_i = -delta + e_i (e_i
 * standard normal, the rows of ab_calibrate_power with AB_CALIBRATE_SEED,
 * so the fixed and the sequential figures share their random numbers)
 * whose repeated upper bound passes, U_k < 0, at some look k: with c_k
 * the plan's critical counts from ab_seq_boundaries (the sequential
 * module's boundaries, not recomputed here), U_k < 0 exactly when at most
 * c_k - 1 of the Walsh averages of the first n_k pairs are positive, the
 * count of ab_calibrate_power (Tukey's identity). A row stops at its first
 * passing look, else at M, as the scheduler stops a decided row (a row at
 * the effect is refuted on the failing side too rarely to change the
 * mean). The ladder is tried from its smallest M >= fixed_pairs (the
 * fixed figure of ab_calibrate_pairs_needed) upwards and the first plan
 * that reaches the target is the answer: a sequential plan needs at
 * least the fixed plan's pairs at its last look for the same power (the
 * inflation factor of Jennison & Turnbull 2000, ch. 2, is >= 1), so
 * smaller maxima are not tried, and when fixed_pairs exceeds the
 * ladder's largest M none is tried and out->found is 0. With `equivalence`
 * the rows are those of ab_calibrate_power_equivalence and a row passes
 * once both repeated bounds have passed, each at some look (the row's
 * interval is the intersection of its looks'). The standard error of each power is at most
 * sqrt(0.25 / AB_CALIBRATE_REPS) = 0.008. Deterministic; about
 * AB_CALIBRATE_REPS K M log M time per plan tried (K looks) plus the
 * boundaries (cached by the sequential module: 0.1 to 0.7 s each the
 * first time). Returns 0, or AB_EINVALID when target is outside (0, 1)
 * or delta is not positive.
 */
int ab_calibrate_sequential(struct ab_seq_needed *out, double delta, double target,
			    size_t fixed_pairs, int equivalence);

/*
 * The line that says what ab_calibrate_sequential found, from a
 * pairs_needed entry's "sequential" object (ab_calibrate_summary):
 * "sequential: pairs: {min: 8, max: 48} reaches the same power using
 * about 21 pairs on average", or "sequential: no plan up to pairs:
 * {min: 8, max: 256} reaches the same power" when the object says none
 * was found.
 * NULL when the entry has no "sequential" (a calibration stored before
 * it). New string.
 */
char *ab_calibrate_sequential_text(const json_t *need);

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
 * n); equivalent_within has one entry for both of its sides passing
 * together at ratio 1 (both_sides, thresholds [1/(1+δ), 1+δ]). So delta =
 * |ln θ| / σ, σ the one-sided 80% upper confidence bound
 * (ab_calibrate_spread_upper) of the spread, the larger of the sd and the
 * robust sd of d over the row's pairs (row fields spread, spread_upper,
 * spread_confidence); noise is taken as normal. Each entry gives pairs, power (at the
 * upper bound: the true power reaches it unless the spread exceeds its
 * bound), simulated, expected_ratio and pairs_asymptotic, and "sequential": the plan of
 * ab_calibrate_sequential at the same delta and target power ({min, max,
 * looks, spending, power, expected_pairs}, or {min: 8, max: null} when none of
 * the ladder reaches it). Also the totals over all rows and
 * the rate expected under no change, P(T <= k-1), and "metric": the metric
 * that decides, the median over the rows of the spreads of wall_ns and
 * cpu_ns, factor_needed, and the one recommended when its spread is
 * smaller than the deciding metric's by factor_needed (at least
 * AB_CALIBRATE_METRIC_FACTOR, and beyond chance at 1%: exp(z_0.99 /
 * sqrt(n - 1)), n the fewest pairs of a row), with pairs_factor, the
 * factor of pairs it saves (the spread ratio squared: a fixed plan's
 * pairs grow as σ²), else null. New reference.
 */
json_t *ab_calibrate_summary(const struct ab_analysis *a, size_t block);

/* The spread factor from which calibrate recommends the other of wall_ns
 * and cpu_ns (1.5: a rule on it needs at most 1/2.25 of the pairs). */
#define AB_CALIBRATE_METRIC_FACTOR 1.5

/*
 * The line recommending a metric from a calibration summary's "metric"
 * object ("on this host cpu_ns's spread ... set metric: cpu_ns before
 * the next run"), or NULL when none is recommended or the summary has no
 * such object (stored before it). New string.
 */
char *ab_calibrate_metric_text(const json_t *summary);

/*
 * One line per pairs_needed entry of a calibration summary that has a
 * "sequential" object: "ROW: rule 'R' (PREDICATE) needs N pairs fixed;
 * " and its ab_calibrate_sequential_text. NULL when there is none (a
 * summary stored before the sequential plans). NULL-terminated, new.
 */
char **ab_calibrate_sequential_lines(const json_t *summary);

/*
 * Compare a stored calibration summary with an experiment's plan: one line
 * per (row, rule) whose needed pairs exceed `pairs`, each followed by the
 * entry's sequential line (ab_calibrate_sequential_text) when the summary
 * has one, or one line saying the planned pairs are enough.
 * NULL-terminated, new.
 */
char **ab_calibrate_advice(const json_t *summary, int pairs);

#endif
