/* sequential.h - sequential plans: repeated confidence intervals of the
 * signed-rank / Hodges–Lehmann kind at a series of looks declared before
 * the first sample, with the one-sided level spent over the looks
 * (docs/statistics.md, "Sequential plans"). Pure functions and one
 * in-process cache of computed plans; no I/O. Input arrays are borrowed
 * and never modified; results go to caller-owned memory.
 *
 * Model. At look k the row has n_k pairs d_1 .. d_{n_k} (d_i = ln(B_i /
 * A_i) from ab_stats_log_ratio) and the statistic W_k = W+ of those
 * pairs, which for continuous d is the number of Walsh averages (d_i +
 * d_j)/2, i <= j <= n_k, above the tested value (Tukey 1949). The
 * repeated upper bound U_k = W_(M_k - c_k + 1) of the M_k = n_k(n_k+1)/2
 * sorted Walsh averages is below θ exactly when at most c_k - 1 averages
 * are >= θ; the lower bound L_k = W_(c_k) above θ when at most c_k - 1
 * are <= θ. The critical counts c_k are chosen so that under no change
 * P(U_k < θ at some look k <= j) stays within the alpha the spending
 * function has spent by look j (Lan & DeMets 1983), and the same for L
 * by symmetry: every [L_k, U_k] is a repeated confidence interval
 * (Jennison & Turnbull 1989), valid whichever look the row stops at.
 *
 * The joint null of (W_1, .., W_K) is distribution-free when the d_i are
 * independent, continuous, sign-symmetric about θ and exchangeable: the
 * signs are fair coins independent of the |d_i|, and the ranks of the
 * |d_i| arrive in uniformly random order. It is computed exactly where a
 * dynamic program over the |d| in increasing order fits its budget (its
 * state: how many values each look's group has given and each look's
 * partial rank sum), and beyond by a seeded simulation of
 * AB_SEQ_BOUNDARY_PATHS null paths of that model, seeded from the plan, so
 * that a plan gives the same boundaries on every machine, with counts kept
 * AB_SEQ_MARGIN_SE standard errors inside the alpha spent. The common
 * plans' boundaries are computed ahead (sequential_table.h).
 *
 * References:
 *   Lan K. K. G., DeMets D. L. (1983) Discrete sequential boundaries for
 *     clinical trials. Biometrika 70, 659-663.
 *   Kim K., DeMets D. L. (1987) Design and analysis of group sequential
 *     tests based on the type I error spending rate function. Biometrika
 *     74, 149-154.
 *   Jennison C., Turnbull B. W. (1989) Interim analyses: the repeated
 *     confidence interval approach. JRSS B 51, 305-361.
 *   Jennison C., Turnbull B. W. (2000) Group Sequential Methods with
 *     Applications to Clinical Trials, chapter 9 (repeated confidence
 *     intervals and repeated p-values).
 *   Pocock S. J. (1977); O'Brien P. C., Fleming T. R. (1979): the shapes
 *     the Lan–DeMets spending functions imitate.
 *   Tukey J. W. (1949) The simplest signed-rank tests.
 */
#ifndef AB_SEQUENTIAL_H
#define AB_SEQUENTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* Most looks in a plan. */
#define AB_SEQ_MAX_LOOKS 16

/* Smallest pairs at a look: the first count at which a fixed-n one-sided
 * 5% bound exists. Looks must also be even (AB|BA blocks balance). */
#define AB_SEQ_MIN_PAIRS 5

/* Most pairs at the last look: bounds the simulation's cost (O(rows ·
 * n log n)) and keeps W_k within 16 bits. */
#define AB_SEQ_MAX_PAIRS 256

/* Simulated null paths behind the boundaries of the looks the exact
 * dynamic program cannot reach (ab_seq_boundaries): the standard error of
 * a crossing probability near 0.05 is then about 0.0001 at most. */
#define AB_SEQ_BOUNDARY_PATHS 2000000

/* The margin of a simulated look: its count keeps the estimated crossing
 * probability plus this many standard errors within the alpha spent, so
 * that the true one exceeds it with probability about 0.13% at most
 * (one-sided normal tail at 3). */
#define AB_SEQ_MARGIN_SE 3.0

/* Simulated null paths per plan behind the repeated p-values
 * (ab_seq_repeated_p): the standard error of a tail probability p
 * estimated from them is at most sqrt(p (1 - p) / rows), 0.00069 at p =
 * 0.05. */
#define AB_SEQ_SIM_ROWS 100000

/* How the one-sided alpha is spent over the information fraction t =
 * n_k / n_K (cumulative alpha spent by t, see ab_seq_spend). */
enum ab_seq_spending {
	AB_SEQ_POCOCK,          /* α ln(1 + (e - 1) t) (Lan & DeMets 1983) */
	AB_SEQ_OBRIEN_FLEMING,  /* 2 - 2 Φ(z_{1-α/2} / sqrt(t)) (Lan & DeMets 1983) */
	AB_SEQ_LINEAR,          /* α t (Kim & DeMets 1987, ρ = 1) */
};

/* The default spending, chosen by the simulation of docs/statistics.md
 * ("Sequential plans"): the only one of the three that lets a 2x effect
 * stop at the first look of 8 pairs while keeping the most power. */
#define AB_SEQ_SPENDING_DEFAULT AB_SEQ_POCOCK

/* Which bound refutes: AB_SEQ_LESS is evidence that the location is below
 * the tested value (U < θ), AB_SEQ_GREATER above it (L > θ). */
enum ab_seq_side { AB_SEQ_LESS, AB_SEQ_GREATER };

/* A sequential plan: looks[0 .. nlooks) are the pair counts at which the
 * row is analysed, even, increasing, each at least AB_SEQ_MIN_PAIRS, the
 * last at most AB_SEQ_MAX_PAIRS; alpha is the one-sided level of each
 * bound over the whole plan (0 < alpha < 0.5; AB_STATS_ALPHA by default). */
struct ab_seq_plan {
	size_t nlooks;
	size_t looks[AB_SEQ_MAX_LOOKS];
	enum ab_seq_spending spending;
	double alpha;
};

/*
 * The plan of `pairs: {min: MIN, max: MAX}`: looks at MIN, doubling while
 * below MAX, and MAX as the last look (8, 64 gives 8, 16, 32, 64; 8, 48
 * gives 8, 16, 32, 48; MIN == MAX one look), default spending and alpha.
 * Returns 0, or AB_EINVALID with a message that names the offending value
 * (fit to be prefixed with file:line:column) when MIN or MAX is odd or
 * below AB_SEQ_MIN_PAIRS, MAX < MIN or MAX > AB_SEQ_MAX_PAIRS.
 */
int ab_seq_plan_from_range(struct ab_seq_plan *plan, size_t min, size_t max);

/*
 * The plan of `pairs: {looks: [...]}`: looks[0 .. nlooks) (borrowed) with
 * the default spending and alpha. Returns 0, or AB_EINVALID as
 * ab_seq_plan_check.
 */
int ab_seq_plan_from_looks(struct ab_seq_plan *plan, const size_t *looks, size_t nlooks);

/*
 * Check a plan: 1 .. AB_SEQ_MAX_LOOKS looks, each even and at least
 * AB_SEQ_MIN_PAIRS, strictly increasing, the last at most
 * AB_SEQ_MAX_PAIRS; a known spending; 0 < alpha < 0.5. Returns 0 or
 * AB_EINVALID with a message naming the look by its 1-based position,
 * e.g. "look 3 (15 pairs) is odd: looks must be even so that the AB|BA
 * blocks balance".
 */
int ab_seq_plan_check(const struct ab_seq_plan *plan);

/* The spending of `sequential: {spending: NAME}`: "pocock",
 * "obrien-fleming" or "linear". Returns 0, or AB_EINVALID naming the
 * choices. */
int ab_seq_spending_parse(const char *name, enum ab_seq_spending *out);

/* The name ab_seq_spending_parse accepts for `spending` (static string);
 * "unknown" for a value outside the enum. */
const char *ab_seq_spending_name(enum ab_seq_spending spending);

/*
 * Cumulative one-sided alpha spent by information fraction t (0 <= t <=
 * 1) by `spending` with total `alpha`: 0 at t = 0, alpha at t = 1,
 * nondecreasing; formulas at enum ab_seq_spending (Lan & DeMets 1983;
 * Kim & DeMets 1987). t outside [0, 1] is clamped; NAN for an unknown
 * spending.
 */
double ab_seq_spend(enum ab_seq_spending spending, double alpha, double t);

/* The boundaries of a plan. Probabilities are one-sided (one bound); by
 * symmetry the other bound has the same. */
struct ab_seq_boundaries {
	size_t nlooks;
	size_t looks[AB_SEQ_MAX_LOOKS];     /* pairs at each look, as in the plan */
	size_t c[AB_SEQ_MAX_LOOKS];         /* critical count c_k: [L, U] = [W_(c_k),
	                                       W_(M_k - c_k + 1)]; 0 = no bound at that look */
	double spent[AB_SEQ_MAX_LOOKS];     /* cumulative alpha the spending allows by look k */
	double crossing[AB_SEQ_MAX_LOOKS];  /* P(a bound excludes the true value at some look
	                                       <= k) under the model, one side: exact (<=
	                                       spent[k]) or estimated (plus margin_se standard
	                                       errors <= spent[k]) */
	double crossing_se[AB_SEQ_MAX_LOOKS];  /* standard error of crossing[k]; 0 when exact */
	double nominal[AB_SEQ_MAX_LOOKS];   /* P(W_k <= c_k - 1) at look k alone: the fixed-n
	                                       level of look k's bound (0 without a bound) */
	double alpha;                       /* crossing at the last look: the plan's attained
	                                       one-sided level (an estimate when se > 0) */
	double se;                          /* standard error of alpha; 0 when every look is
	                                       exact */
	double margin_se;                   /* the margin of the simulated looks, in standard
	                                       errors (AB_SEQ_MARGIN_SE) */
	double alpha_bound;                 /* alpha + margin_se * se: at most the plan's alpha;
	                                       the true level is below it unless the estimate
	                                       erred by more than the margin */
	double coverage;                    /* 1 - 2 alpha_bound: a lower bound of the probability
	                                       that every [L_k, U_k] of a row covers its true
	                                       ratio (per row, not for many rows together) */
	size_t exact_looks;                 /* the first exact_looks looks are exact */
	size_t rows;                        /* simulated null paths behind the later looks (0
	                                       when every look is exact) */
	int tabled;                         /* 1: read from the precomputed table */
};

/*
 * The boundaries of `plan` (checked as ab_seq_plan_check). From the first
 * look on, while the exact dynamic program fits its budget, c_k is the
 * largest count whose exact crossing probability stays within spent[k]
 * (up to the rounding of doubles). Later looks: from AB_SEQ_BOUNDARY_PATHS
 * simulated null paths seeded from the plan (the same plan, the same
 * boundaries), with the crossing probability written as P(W_k <= c - 1) +
 * P(crossed before k, W_k >= c): the first term exact
 * (ab_stats_signed_rank_null), only the second, a small probability,
 * simulated (the paths that crossed at an exact look by a ratio estimator
 * over the exact probability of that), and c_k the largest count whose
 * estimate plus AB_SEQ_MARGIN_SE standard errors stays within spent[k].
 * Unspent alpha (the counts are integers) carries to later looks. The
 * common plans come from the precomputed table (sequential_table.h); any
 * other is computed once per process (a cache of a few plans, locked for
 * threads): about 0.5 s of CPU for looks 8 .. 64 and 2 s for 8 .. 256.
 * Returns 0 or AB_EINVALID; `out` is then unspecified.
 */
int ab_seq_boundaries(const struct ab_seq_plan *plan, struct ab_seq_boundaries *out);

/*
 * The same boundaries computed now, neither from the table nor from the
 * cache: what bench/seq-boundaries.sh writes into the table, and what the
 * tests compare it with. Returns 0 or AB_EINVALID.
 */
int ab_seq_boundaries_compute(const struct ab_seq_plan *plan, struct ab_seq_boundaries *out);

/*
 * The method of ab_seq_boundaries_compute with its knobs: at most
 * `exact_looks` looks exact (fewer when the dynamic program's budget ends
 * sooner), the rest from `rows` simulated paths seeded by `seed`, with
 * the same margin. For checks of the simulated looks against the exact
 * computation (tests/unit/test_sequential.c, bench/seq-boundaries.sh).
 * Returns 0 or AB_EINVALID.
 */
int ab_seq_boundaries_simulate(const struct ab_seq_plan *plan, size_t exact_looks, size_t rows,
			       uint64_t seed, struct ab_seq_boundaries *out);

/*
 * Exact null probability, one side, that W_j <= c[j] - 1 at some look j
 * <= k, for k = 0 .. nlooks-1, written to crossing[k]: independent
 * continuous sign-symmetric exchangeable d (see above), by the dynamic
 * program over the |d| in increasing order (each look's group's count so
 * far and each look's partial rank sum). looks increasing, 1 ..
 * AB_SEQ_MAX_PAIRS pairs, at most AB_SEQ_MAX_LOOKS; c[j] == 0 is no bound
 * at look j. Look k costs about (the product over earlier looks with a
 * bound of (their group's pairs + 1)(c_j + 1)) * c_k states, each visited
 * once per pair: looks 8, 16, 32 with their default counts take about a
 * million states. Returns 0, or AB_EINVALID (bad looks, or a look beyond
 * the budget of 2^21 states and 2^28 state-steps).
 */
int ab_seq_crossing_exact(const size_t *looks, size_t nlooks, const size_t *c, double *crossing);

/*
 * The same probabilities estimated from `rows` simulated null paths of
 * the model (seeded by `seed`; looks up to AB_SEQ_MAX_PAIRS): crossing[k]
 * is the fraction of paths that crossed by look k, se[k] its binomial
 * standard error (se may be NULL). The generator of ab_seq_boundaries, for
 * checks against ab_seq_crossing_exact. Returns 0 or AB_EINVALID.
 */
int ab_seq_crossing_simulated(const size_t *looks, size_t nlooks, const size_t *c, size_t rows,
			      uint64_t seed, double *crossing, double *se);

/*
 * The repeated interval at a look: the Hodges–Lehmann estimate and [L, U]
 * = [W_(c), W_(M-c+1)] of the Walsh averages of d[0 .. n) (borrowed,
 * finite; n the look's pairs, c its count from ab_seq_boundaries), in
 * the unit of d (exp gives ratios). c == 0 gives NAN bounds (no bound at
 * this look); out->coverage is the plan's, which the caller has in
 * ab_seq_boundaries.coverage, and is left NAN here. The estimate is the
 * fixed-n one (ab_stats_hodges_lehmann_k).
 */
void ab_seq_interval(struct ab_hl *out, const double *d, size_t n, size_t c);

/*
 * The repeated interval of a row that has n pairs d[0 .. n) (borrowed,
 * finite, in pair order) under `plan`: the Hodges–Lehmann estimate of all
 * n pairs, and as bounds the intersection of the repeated intervals [L_k,
 * U_k] of the looks the row reached (looks[k] <= n): with probability at
 * least 1 - 2 alpha they all cover the row's true value together, so
 * their intersection does too (Jennison & Turnbull 2000, section 9.1), and
 * a bound that excluded a value at one look keeps excluding it (a decision
 * never reverts). The level is per row: of many rows, some miss. In the
 * unit of d. The estimate of all n pairs may lie outside the intersection
 * (an earlier look's bound excludes it). out->k is the count c of the last
 * look reached, out->coverage the plan's level per row (1 - 2 alpha_bound);
 * bounds NAN when no reached look has a bound. `*look` receives the
 * number of looks reached (0: fewer pairs than the first look). In the
 * rare row whose looks disagree so much that the intersection is empty
 * (out->lower > out->upper) both bounds are kept as computed: the
 * simultaneous coverage failed for this row (about 14 rows in 22,000 of
 * the audit's A/A files), and the callers decide nothing on it (rules.c
 * leaves it inconclusive, so the row runs on to its last look).
 * Returns 0 or AB_EINVALID (a bad plan).
 */
int ab_seq_row_interval(const struct ab_seq_plan *plan, const double *d, size_t n, struct ab_hl *out,
			size_t *look);

/*
 * Repeated p-value of a one-sided refutation of `shift` (a location in
 * the unit of d, e.g. ln θ) by the row d[0 .. n) (borrowed, finite),
 * whose looks are the plan's looks up to n (the pairs it has when it
 * stopped): the smallest level γ at which a repeated bound of the same
 * shape would have refuted at one of those looks (Jennison & Turnbull
 * 2000, chapter 9). The family of shapes scales each look's critical normal
 * score z_k = Φ^{-1}(1 - nominal[k]) by one factor, as the Pocock and
 * O'Brien–Fleming boundaries scale with their level: with p_k the
 * fixed-n null probability of a count as small as the row's at look k,
 * T = max_k Φ^{-1}(1 - p_k) / z_k over the row's looks, and the repeated
 * p-value is P(T_all >= T) under the null, T_all the same maximum over all
 * the plan's looks. So:
 *   - it is valid whichever look the row stopped at (P(p <= γ) <= γ
 *     under the model, up to the simulation) and can only fall as looks
 *     are added: a refutation never reverts;
 *   - p <= the plan's attained alpha exactly when a repeated bound
 *     refuted at one of the row's looks, else p > the plan's alpha (the
 *     estimate is clamped to keep both), so Holm across rows that stopped
 *     at different looks agrees with the bounds at level alpha.
 * The count at a look is #{Walsh averages >= shift} for AB_SEQ_LESS,
 * #{<= shift} for AB_SEQ_GREATER, so ties and zeros count against the
 * refutation, as in the bounds. Monte-Carlo standard error at most
 * sqrt(p (1 - p) / AB_SEQ_SIM_ROWS). n below the first look gives p = 1.
 * Returns 0 or AB_EINVALID (bad plan, a d not finite); *p is then 1.
 */
int ab_seq_repeated_p(const struct ab_seq_plan *plan, const double *d, size_t n, double shift,
		      enum ab_seq_side side, double *p);

/* Drop the cached plans (memory back; the next call recomputes). */
void ab_seq_cache_clear(void);

#endif
