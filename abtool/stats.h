/* stats.h - paired statistics for one row (DESIGN.md "Statistics and
 * verdict"). Pure functions over arrays of doubles; no I/O, no allocation
 * visible to the caller beyond what is documented.
 *
 * Conventions: a and b are the parent's and the candidate's values of one
 * metric, aligned by pair (a[i] and b[i] ran back to back). All values must
 * be > 0 for ratio statistics. d_i = ln(b_i / a_i). "Lower is better"
 * unless a function takes `better`. */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stddef.h>

#include "config.h"

/* One-sided level of each decision bound: the decision interval [L, U] is
 * made of two one-sided 95% bounds (a nominal 90% two-sided interval). */
#define AB_STATS_ALPHA 0.05

/* Largest n for which signed-rank distributions are computed exactly;
 * beyond it, the normal approximation with tie and continuity corrections. */
#define AB_STATS_EXACT_MAX 400

/* Descriptive statistics of one side (one sample vector). */
struct ab_summary {
	size_t n;
	double mean, median, min, max;
	double sd;          /* sample standard deviation (n-1); 0 when n < 2 */
	double rsd;         /* sd / mean, a fraction; NAN when mean == 0 */
	double mad;         /* median absolute deviation, unscaled */
	double robust_rsd;  /* 1.4826 * mad / median, a fraction */
	size_t outliers;    /* count with |x - median| / MAD > 14.826 (hyperfine's
	                       modified z-score rule); when MAD == 0, values
	                       different from the median are outliers */
};

/* Median of x[0..n) (x is not modified). NAN when n == 0. */
double ab_stats_median(const double *x, size_t n);

/* Fill `out` from x[0..n). */
void ab_stats_summary(struct ab_summary *out, const double *x, size_t n);

/*
 * Exact sign test (binomial, p = 1/2) for `wins` successes in `n` trials
 * that are not ties. Writes the one-sided p P(X >= wins) and the two-sided
 * p min(1, 2 * min(P(X >= wins), P(X <= wins))).
 * Source: stats-vectors.md section 1.
 */
void ab_stats_sign_test(size_t n, size_t wins, double *one_sided, double *two_sided);

/*
 * Null distribution of the signed-rank statistic W+ for n untied, nonzero
 * differences: out[w] = P(W+ = w), w = 0 .. n(n+1)/2. `out` must hold
 * n(n+1)/2 + 1 doubles. Recurrence c_n(w) = c_{n-1}(w) + c_{n-1}(w-n)
 * (Wilcoxon 1945), kept as probabilities to avoid overflow.
 */
void ab_stats_signed_rank_null(double *out, size_t n);

/*
 * The order statistic k of the decision interval for n pairs: the largest
 * j with P(T <= j-1) <= alpha under the signed-rank null (T = min(W+, W-)
 * one-sided tail). [L, U] = [W_(k), W_(M-k+1)] of the M = n(n+1)/2 sorted
 * Walsh averages. Writes k (0 when no bound exists at this alpha, e.g.
 * n < 5 at 0.05) and the two-sided coverage 1 - 2 P(T <= k-1).
 * For n > AB_STATS_EXACT_MAX, k from the normal approximation.
 * Source: Hodges & Lehmann 1963; stats-vectors.md section 8.
 */
void ab_stats_walsh_k(size_t n, double alpha, size_t *k, double *coverage);

/* Result of a signed-rank test of d against a location shift. */
struct ab_signed_rank {
	size_t n;            /* all differences */
	size_t nonzero;      /* differences not equal to the shift */
	double w_plus;       /* sum of ranks of positive differences (Pratt ranks,
	                        midranks for ties; zeros ranked but unsigned) */
	double w_minus;
	double p_greater;    /* one-sided: P(W+ >= observed) under H0, i.e. evidence d > shift */
	double p_less;       /* one-sided: P(W+ <= observed), evidence d < shift */
	double p_two_sided;  /* min(1, 2 * min(p_greater, p_less)) */
	int exact;           /* 1 when computed by exact enumeration (DP) */
};

/*
 * Wilcoxon signed-rank test of d_i - shift against 0 (d[0..n)). Zeros and
 * ties are treated with Pratt's method (Pratt 1959): zeros take part in the
 * ranking, only nonzero differences carry signs; tied absolute values get
 * midranks. The exact null distribution is computed by dynamic programming
 * over doubled midranks (integers) for n <= AB_STATS_EXACT_MAX, else a
 * normal approximation with tie and continuity corrections.
 */
void ab_stats_signed_rank(struct ab_signed_rank *out, const double *d, size_t n, double shift);

/* Hodges–Lehmann estimate and decision interval of the location of d. */
struct ab_hl {
	double estimate;     /* median of the Walsh averages (d_i + d_j)/2, i <= j */
	double lower;        /* W_(k); NAN when k == 0 */
	double upper;        /* W_(M-k+1); NAN when k == 0 */
	size_t k;
	double coverage;     /* exact two-sided coverage of [lower, upper] for continuous d */
};

/* Fill `out` for d[0..n) at one-sided level alpha (Hodges & Lehmann 1963). */
void ab_stats_hodges_lehmann(struct ab_hl *out, const double *d, size_t n, double alpha);

/* Quantile of Student's t distribution with `df` degrees of freedom. */
double ab_stats_t_quantile(double p, double df);

/* Everything abtool reports about one row and one metric. */
struct ab_paired {
	size_t pairs;
	size_t wins, losses, ties;    /* per pair, in the metric's `better` direction */
	struct ab_summary parent, candidate;
	double ratio;                 /* exp(HL(d)): Hodges–Lehmann ratio B/A */
	double ci_lower, ci_upper;    /* exp of the decision bounds; NAN when k == 0 */
	double ci_level;              /* exact coverage, e.g. 0.921875 for n = 7, 8 */
	size_t ci_k;
	double median_ratio;          /* median of b_i / a_i */
	double ratio_of_medians;      /* median(b) / median(a) */
	double geomean_ratio;         /* exp(mean d) */
	double mean_d, sd_d;
	double t_lower, t_upper;      /* paired t 90% interval of the ratio (cross-check) */
	struct ab_signed_rank signed_rank;  /* against shift 0 */
	double sign_p_two_sided;      /* exact sign test on wins vs losses (ties dropped) */
};

/*
 * Compute the row statistics of the pairs (a[i], b[i]), i < n, for a metric
 * whose direction is `better`. Every value must be finite and > 0.
 * Returns 0, or AB_EINVALID when n == 0 or a value is not > 0.
 */
int ab_stats_paired(struct ab_paired *out, const double *a, const double *b, size_t n,
		    enum ab_better better);

#endif
