/* stats.h - paired statistics for one row (docs/statistics.md).
 * Pure functions over arrays of doubles; no I/O, no allocation
 * visible to the caller beyond what is documented. Input arrays are
 * borrowed and never modified; results go to caller-owned memory.
 *
 * Conventions: a and b are the parent's and the candidate's values of one
 * metric, aligned by pair (a[i] and b[i] ran back to back). All values must
 * be > 0 for ratio statistics. d_i = ln(b_i / a_i), computed by
 * ab_stats_log_ratio (antisymmetric, no overflow). "Lower is better"
 * unless a function takes `better`.
 *
 * References:
 *   Wilcoxon F. (1945) Individual comparisons by ranking methods.
 *   Pratt J. W. (1959) Remarks on zeros and ties in the Wilcoxon signed
 *     rank procedures. JASA 54, 655-667.
 *   Hodges J. L., Lehmann E. L. (1963) Estimates of location based on rank
 *     tests. Ann. Math. Statist. 34, 598-611.
 *   Hill G. W. (1970) Algorithm 396: Student's t-quantiles. CACM 13, 619.
 *   Abramowitz M., Stegun I. (1964) Handbook of Mathematical Functions,
 *     26.2.23 (normal quantile start) and 26.5.8 (incomplete beta).
 *   Iglewicz B., Hoaglin D. (1993) How to Detect and Handle Outliers: the
 *     modified z-score, used by hyperfine's outlier warning with threshold 10.
 *   Mann H. B., Whitney D. R. (1947) On a test of whether one of two random
 *     variables is stochastically larger than the other. Ann. Math. Statist.
 *     18, 50-60.
 *   Hollander M., Wolfe D. A., Chicken E. (2014) Nonparametric Statistical
 *     Methods, 3rd ed., section 3.6 (order-statistic interval of the median)
 *     and section 4.1 (the rank-sum test, its tie correction).
 * Test vectors: shared/stats-vectors.md.
 */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* A metric's direction: which way is an improvement. */
enum ab_better {
	AB_LOWER_IS_BETTER = 0,
	AB_HIGHER_IS_BETTER = 1,
};

/* One-sided level of each decision bound: the decision interval [L, U] is
 * made of two one-sided 95% bounds (a nominal 90% two-sided interval). */
#define AB_STATS_ALPHA 0.05

/* Largest n for which signed-rank distributions are computed exactly;
 * beyond it, the normal approximation with tie and continuity corrections. */
#define AB_STATS_EXACT_MAX 400

/* Largest n for which the decision interval's order statistic k and its
 * coverage come from the exact null of W+ (its lower half, by the counting
 * recurrence: about a second of CPU at 2,000 pairs, once per process);
 * beyond, from the normal approximation, and the reports say so. */
#define AB_STATS_WALSH_EXACT_MAX 2000

/* Relative tolerance below which d counts as a zero against a nonzero
 * shift: |d - shift| <= AB_STATS_SHIFT_RTOL * |shift|. The shift is a
 * rounded threshold ln θ (θ = 1 + 0.02 or 1 / 1.05 in doubles), so a pair
 * whose ratio is exactly θ may miss it in the last bits. Against shift 0
 * a zero is d == 0 exactly. */
#define AB_STATS_SHIFT_RTOL 1e-12

/* Tolerance for ties between pairs that are not both integers (see
 * ab_stats_pratt_ranks_pairs): | |d_i| - |d_j| | <= AB_STATS_TIE_EPS (1 + |d_i|).
 * A decimal value carries a relative rounding error of at most 2^-53, a
 * quotient and a logarithm one more each: pairs whose decimal ratios are
 * equal stay within about 4 DBL_EPSILON of each other; 8 leaves room. */
#define AB_STATS_TIE_EPS (8 * 2.220446049250313e-16)

/* Descriptive statistics of one side (one sample vector), in the unit of
 * the values except where a field says "fraction". With n == 0 every
 * double is NAN and outliers is 0. */
struct ab_summary {
	size_t n;
	double mean, median, min, max;
	double sd;          /* sample standard deviation (n-1); 0 when n < 2 */
	double rsd;         /* sd / mean, a fraction; NAN when mean == 0 */
	double mad;         /* median absolute deviation, unscaled */
	double robust_rsd;  /* 1.4826 * mad / median, a fraction; NAN when median == 0 */
	size_t outliers;    /* count with |x - median| / MAD > 14.826 (hyperfine's
	                       modified z-score rule); when MAD == 0, values
	                       different from the median are outliers */
};

/*
 * Place the order statistics idx[0..m) (0-based ranks, ascending, each
 * below n) of x[0..n) at their positions, reordering x in place (x is the
 * caller's): afterwards x[idx[i]] holds the value of rank idx[i], with
 * everything before it <= and everything after it >=. Hoare's partition
 * (Wirth's FIND) with pivots from ab_stats_splitmix64 under a fixed seed,
 * so the result does not depend on the run; O(n) expected per rank. No
 * allocation.
 */
void ab_stats_select_ranks(double *x, size_t n, const size_t *idx, size_t m);

/* qsort's comparator of doubles in ascending order ((a > b) - (a < b):
 * NANs compare equal to everything, as no caller passes them). */
int ab_stats_cmp_double(const void *pa, const void *pb);

/* Median of x[0..n) (x is borrowed, not modified; a copy is sorted
 * partially). The average of the two middle values when n is even. NAN
 * when n == 0. */
double ab_stats_median(const double *x, size_t n);

/* 1 when x[0..n) is in ascending order (NANs excluded), else 0: what the
 * order statistics over sorted arrays assert of their input. */
int ab_stats_is_sorted(const double *x, size_t n);

/* Fill `out` from x[0..n) (borrowed). Outliers follow hyperfine's warning
 * rule: modified z-score 0.6745 (x - median) / MAD (Iglewicz & Hoaglin
 * 1993) beyond 10 in absolute value, i.e. |x - median| / MAD > 14.826. */
void ab_stats_summary(struct ab_summary *out, const double *x, size_t n);

/*
 * Exact sign test (binomial, p = 1/2) for `wins` successes in `n` trials
 * that are not ties. Writes the one-sided p P(X >= wins) and the two-sided
 * p min(1, 2 * min(P(X >= wins), P(X <= wins))). n == 0 gives 1 and 1;
 * wins > n gives NAN. The binomial probabilities are built by halving
 * Pascal's rule, so they are exact fractions for n up to about 50; for
 * n > 5000 (where that costs O(n^2)) the tails are summed in log space
 * with lgamma, to about 11 significant digits.
 * Source: stats-vectors.md section 1.
 */
void ab_stats_sign_test(size_t n, size_t wins, double *one_sided, double *two_sided);

/*
 * P(X <= k) for X ~ Binomial(n, p): the one-sided p of observing k or
 * fewer successes when the share of successes is p, as a count predicate
 * refutes a claimed share (docs/rules.md, min_pair_wins). Each term
 * C(n, i) p^i (1-p)^(n-i) in log space (lgamma) in long double; exact to
 * about 15 significant digits for n up to 10^6. k > n gives 1; p outside
 * [0, 1] gives NAN.
 */
double ab_stats_binomial_cdf(size_t k, size_t n, double p);

/*
 * Null distribution of the signed-rank statistic W+ for n untied, nonzero
 * differences: out[w] = P(W+ = w), w = 0 .. n(n+1)/2. `out` must hold
 * n(n+1)/2 + 1 doubles. Recurrence c_n(w) = c_{n-1}(w) + c_{n-1}(w-n)
 * (Wilcoxon 1945), kept as probabilities to avoid overflow: each step
 * halves, so out[w] is c_n(w) / 2^n, exact while the counts fit in 53 bits.
 * Time O(n^3), no allocation.
 */
void ab_stats_signed_rank_null(double *out, size_t n);

/*
 * The order statistic k of the decision interval for n pairs: the largest
 * j with P(T <= j-1) <= alpha under the signed-rank null (T = min(W+, W-)
 * one-sided tail). [L, U] = [W_(k), W_(M-k+1)] of the M = n(n+1)/2 sorted
 * Walsh averages. Writes k (0 when no bound exists at this alpha, e.g.
 * n < 5 at 0.05) and the two-sided coverage 1 - 2 P(T <= k-1) (1 when
 * k == 0: the unbounded interval always covers). alpha outside (0, 0.5)
 * gives k = 0.
 * Exact up to AB_STATS_WALSH_EXACT_MAX pairs (beyond AB_STATS_EXACT_MAX
 * from the lower half of the null only, cached per n and alpha); for n >
 * AB_STATS_WALSH_EXACT_MAX, k from the normal approximation of W+ (mean
 * n(n+1)/4, variance n(n+1)(2n+1)/24, continuity correction 1/2), which
 * can be one too large (one-sided level 0.050005 at n = 800 and 2,000).
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
 * The log ratio d = ln(b / a) of one pair (a, b > 0, finite, subnormals
 * included), antisymmetric by construction: d = ±ln(max / min) with the
 * sign of b - a, so a pair and its mirror (a and b exchanged) give d and
 * -d bit for bit, and two pairs whose ratios are equal as real numbers
 * give the same double. When max / min overflows (1e300 / 1e-300) the
 * mantissas are divided and the exponents added as e ln 2 (frexp), so the
 * result stays finite. 0 when a == b. Every caller that ranks |d| must
 * use this function: ln(b/a) and -ln(a/b) differ in the last bit, about
 * 1e-16 / |d| relative, which breaks exact ties of mirrored pairs.
 */
double ab_stats_log_ratio(double a, double b);

/*
 * Signed Pratt ranks of d_i - shift (d[0..n) borrowed), doubled so that
 * midranks are integers: rank2[i] = ±(2 × midrank of |d_i - shift|) with
 * the sign of d_i - shift, 0 for a zero (Pratt 1959: zeros take the
 * lowest ranks but carry no sign). rank2 holds n values. A zero is d ==
 * shift, or within AB_STATS_SHIFT_RTOL of a nonzero shift; two
 * differences tie when their doubles |d - shift| are equal (no tolerance:
 * with d from ab_stats_log_ratio, mirrored pairs and pairs of equal
 * ratio give equal doubles). Allocates O(n) internally.
 */
void ab_stats_pratt_ranks(int64_t *rank2, const double *d, size_t n, double shift);

/*
 * The same ranks against shift 0, decided from the pairs (a[i], b[i])
 * themselves (borrowed, > 0, finite) rather than from rounded log ratios:
 *   - a zero is a[i] == b[i];
 *   - when both pairs are integers below 2^64 (counts, nanoseconds), they
 *     tie exactly when max_i min_j == max_j min_i, computed in 128-bit
 *     integers, and rank in the exact order of their ratios;
 *   - otherwise (a non-integer value, e.g. milliseconds with decimals)
 *     they tie when their |d| (ab_stats_log_ratio) agree within
 *     AB_STATS_TIE_EPS (1 + |d|), judged against the smallest member of
 *     the tie group so that close values cannot chain: decimal ratios
 *     that are equal (3.3/1.1 and 3/1) tie although their doubles differ,
 *     and distinct ratios of real timings, which differ far more than
 *     1e-15, do not.
 * rank2 holds n values, as for ab_stats_pratt_ranks.
 */
void ab_stats_pratt_ranks_pairs(int64_t *rank2, const double *a, const double *b, size_t n);

/*
 * The exact null distribution of 2W+ for signed doubled ranks rank2[0..n)
 * (zeros skipped): count[s] = how many of the 2^m sign patterns of the m
 * nonzero ranks give 2W+ = s, s = 0 .. sum |rank2|; `count` must hold that
 * many plus one doubles. A knapsack over the integer scores (the recurrence
 * c_n(w) = c_{n-1}(w) + c_{n-1}(w - r_n) of Wilcoxon 1945, with Pratt's
 * midranks as the r). The counts are integers held as doubles: exact while
 * below 2^53 (m <= 53 always), correctly rounded beyond. No allocation.
 */
void ab_stats_signed_rank_counts(double *count, const int64_t *rank2, size_t n);

/*
 * Wilcoxon signed-rank test of d_i - shift against 0 (d[0..n), borrowed,
 * finite; d and shift in the same unit, e.g. log ratios). Zeros and
 * ties are treated with Pratt's method (Pratt 1959): zeros take part in the
 * ranking, only nonzero differences carry signs; tied absolute values get
 * midranks (ties and zeros as ab_stats_pratt_ranks decides). The exact null
 * distribution, conditional on the observed ranks, is computed by dynamic
 * programming over doubled midranks (integers) for n <= AB_STATS_EXACT_MAX:
 * every nonzero rank is + or - with probability 1/2. Beyond, a normal
 * approximation (see ab_stats_signed_rank_normal). n == 0 or no nonzero
 * difference gives p = 1. Allocates O(n^2) doubles internally.
 */
void ab_stats_signed_rank(struct ab_signed_rank *out, const double *d, size_t n, double shift);

/*
 * The same test against shift 0 for the pairs (a[i], b[i]), i < n
 * (borrowed, > 0, finite), with zeros and ties decided from the values by
 * ab_stats_pratt_ranks_pairs: exact for integer metrics whose ratios are
 * within 1e-4 of 1, where rounded log ratios miss ties. The test behind
 * ab_paired's p; rules' shifted tests use ab_stats_signed_rank on d.
 */
void ab_stats_signed_rank_pairs(struct ab_signed_rank *out, const double *a, const double *b,
				size_t n);

/*
 * The same test, always by the normal approximation; ab_stats_signed_rank
 * uses it for n > AB_STATS_EXACT_MAX, and it is public for cross-checks.
 * Under H0, W+ = sum r_i B_i over the nonzero Pratt ranks r_i with B_i fair
 * coin flips, so E W+ = sum r_i / 2 and Var W+ = sum r_i^2 / 4 exactly. With
 * no zeros and no ties this is n(n+1)/4 and n(n+1)(2n+1)/24; each tie group
 * of size t lowers sum r_i^2 by (t^3 - t)/12, i.e. the variance by
 * (t^3 - t)/48, the usual tie correction, and Pratt's zeros simply drop
 * their ranks from both sums. The continuity correction is half the lattice
 * step of W+ (gcd of the doubled ranks / 4: 1/2 without ties). out->exact
 * is 0.
 */
void ab_stats_signed_rank_normal(struct ab_signed_rank *out, const double *d, size_t n,
				 double shift);

/* Hodges–Lehmann estimate and decision interval of the location of d. */
struct ab_hl {
	double estimate;     /* median of the Walsh averages (d_i + d_j)/2, i <= j */
	double lower;        /* W_(k); NAN when k == 0 */
	double upper;        /* W_(M-k+1); NAN when k == 0 */
	size_t k;
	double coverage;     /* exact two-sided coverage of [lower, upper] for continuous d */
};

/*
 * Fill `out` for d[0..n) (borrowed, finite) at one-sided level alpha
 * (Hodges & Lehmann 1963): k from ab_stats_walsh_k, order statistics by
 * quickselect. Estimate and bounds are in the unit of d. n == 0 gives NAN
 * everywhere. Up to M = n(n+1)/2 = 2^22 Walsh averages (n about 2900)
 * they are held at once (32 MiB) and selected in O(M) expected time;
 * beyond, each order statistic is found by bisection over the values
 * with an O(n) count of the averages below (O(n) memory, O(64 n) per
 * statistic after an O(n log n) sort), with the same results.
 */
void ab_stats_hodges_lehmann(struct ab_hl *out, const double *d, size_t n, double alpha);

/*
 * The same for a given order statistic k instead of a level: [lower,
 * upper] = [W_(k), W_(M-k+1)] of the M = n(n+1)/2 sorted Walsh averages,
 * the estimate their median; out->k = k and out->coverage = NAN (the
 * caller knows the level of its k: docs/statistics.md, "Sequential
 * plans"). k == 0, or k > (M+1)/2 where the bounds would cross, gives
 * NAN bounds and out->k = 0. Same memory and time as above.
 */
void ab_stats_hodges_lehmann_k(struct ab_hl *out, const double *d, size_t n, size_t k);

/* P(Z <= x) for a standard normal Z: 0.5 erfc(-x / sqrt 2). */
double ab_stats_norm_cdf(double x);

/* The x with P(Z > x) = q for a standard normal Z, to double precision
 * (A&S 26.2.23, then Halley steps on erfc). q <= 0 gives INFINITY, q >= 1
 * -INFINITY, NAN gives NAN. */
double ab_stats_norm_upper_quantile(double q);

/* The next value of the SplitMix64 generator (Steele, Lea & Flood 2014)
 * whose state is *state: abtool's one seeded generator, behind the
 * pivots of ab_stats_select_ranks, the sequential plans' and the
 * calibration's simulations, the schedule's coins (plan.c) and the
 * environment's padding (measure.c). The same seed gives the same
 * sequence on every machine. */
uint64_t ab_stats_splitmix64(uint64_t *state);

/* A uniform double on (0, 1), never 0 nor 1: the top 53 bits of the next
 * ab_stats_splitmix64 value, plus one half, over 2^53. */
double ab_stats_uniform(uint64_t *state);

/*
 * Exact (Clopper–Pearson) two-sided confidence interval of a binomial
 * proportion: k successes in n trials at `level` (e.g. 0.95). The bounds
 * solve P(X >= k | p_lo) = (1-level)/2 and P(X <= k | p_hi) = (1-level)/2 by
 * bisection on the binomial tail (Clopper & Pearson 1934). n == 0 gives
 * [0, 1]. */
void ab_stats_binomial_ci(size_t k, size_t n, double level, double *lower, double *upper);

/* Two-sided p of Student's t statistic `t` with `df` degrees of freedom:
 * 2 P(T > |t|), from the regularized incomplete beta function (the same
 * continued fraction as ab_stats_t_quantile). NAN for df <= 0. */
double ab_stats_t_two_sided_p(double t, double df);

/*
 * Quantile of Student's t distribution with `df` degrees of freedom: the t
 * with P(T <= t) = p. p <= 0 gives -INFINITY, p >= 1 INFINITY; df < 1 or
 * a NAN argument gives NAN. df need not be an integer.
 * Method: Hill's approximation (Hill 1970, CACM Algorithm 396; closed forms
 * for df = 1 and 2), refined by Newton steps on the t distribution function
 * computed from the regularized incomplete beta function (continued
 * fraction, A&S 26.5.8), so the result is accurate to about 1e-12 relative.
 */
double ab_stats_t_quantile(double p, double df);

/*
 * Quantile of the chi-square distribution with `df` degrees of freedom:
 * the x with P(X <= x) = p. p <= 0 gives 0, p >= 1 INFINITY; df <= 0 or a
 * NAN argument gives NAN. Method: bisection on the regularized lower
 * incomplete gamma function P(df/2, x/2), by its series below a + 1 and
 * its continued fraction above (Abramowitz & Stegun 6.5.29 and 6.5.31;
 * Press et al., Numerical Recipes, section 6.2), to about 1e-12 relative.
 */
double ab_stats_chi2_quantile(double p, double df);

/*
 * Two-sided paired t interval of the mean of d[0..n) (borrowed) at
 * confidence `level` (e.g. 0.90): mean ± t_{(1+level)/2, n-1} sd / sqrt(n),
 * in the unit of d. NAN bounds when n < 2. A cross-check only: it assumes
 * normal d, which timing data rarely are.
 */
void ab_stats_paired_t(const double *d, size_t n, double level, double *lower, double *upper);

/* Largest pooled sample size n_a + n_b for which the Mann–Whitney
 * distribution is computed exactly; beyond, the normal approximation. The
 * exact table holds (min(n_a, n_b) + 1) * (n_a + n_b)(n_a + n_b + 1)
 * doubles (about 4 MB at 100) and costs that times n_a + n_b steps. */
#define AB_STATS_MW_EXACT_MAX 100

/* Result of an (unpaired) Mann–Whitney U test of a against b. */
struct ab_mann_whitney {
	size_t n_a, n_b;
	double u;            /* U of b: #{(i, j): b_j > a_i} + #{b_j == a_i} / 2, in 0 .. n_a n_b */
	double p_greater;    /* one-sided P(U >= observed) under H0: evidence b is larger */
	double p_less;       /* one-sided P(U <= observed): evidence b is smaller */
	double p_two_sided;  /* min(1, 2 * min(p_greater, p_less)) */
	int exact;           /* 1 when computed from the exact permutation distribution */
};

/*
 * Mann–Whitney U test (Wilcoxon rank-sum test; Mann & Whitney 1947) of
 * a[0..n_a) against b[0..n_b) (borrowed, finite; any unit, the test uses
 * ranks only), treating the two as independent samples: the pairing is
 * ignored. abtool reports it only for contrast with the paired tests (a
 * pair shares the machine's drift, which this test counts as noise); no
 * rule decides on it.
 * Ties: values equal as doubles get midranks, and the exact p is the
 * permutation distribution conditional on those midranks (every choice of
 * n_b of the n_a + n_b pooled midranks equally likely), computed by
 * dynamic programming over subset sizes and doubled midrank sums (integers).
 * Without ties this is the classic U distribution, whose smallest
 * two-sided p for n vs n is 2 / C(2n, n). Exact for n_a + n_b <=
 * AB_STATS_MW_EXACT_MAX; beyond, the normal approximation with mean
 * n_a n_b / 2, variance n_a n_b / 12 (N + 1 - sum(t^3 - t) / (N (N - 1)))
 * over tie groups of size t (Hollander, Wolfe & Chicken 2014, 4.1), and a
 * continuity correction of 1/2. n_a == 0 or n_b == 0 gives p = 1. Allocates
 * internally; never fails.
 * Source: stats-vectors.md sections 4 and 5.
 */
void ab_stats_mann_whitney(struct ab_mann_whitney *out, const double *a, size_t n_a, const double *b,
			   size_t n_b);

/*
 * Holm's step-down adjustment (Holm 1979) of the p-values p[0..m): q[i]
 * is the smallest family-wise level at which hypothesis i is rejected,
 * max over the ranks r' <= r of min(1, (m - r') p_(r')), where r is i's
 * rank in ascending p (ties in index order). Rejecting every i with
 * q[i] <= alpha controls the family-wise error rate at alpha for any
 * dependence between the tests. `rank` (or NULL) receives each i's rank,
 * 0-based. O(m log m); m == 0 does nothing. Allocates internally; never
 * fails.
 */
void ab_stats_holm(double *q, size_t *rank, const double *p, size_t m);

/*
 * Coverage of the distribution-free interval [x_(r), x_(n-r+1)] for the
 * median of a continuous distribution from n independent values (order
 * statistics, 1-based r): 1 - 2 P(X <= r - 1) for X ~ Binomial(n, 1/2)
 * (Hollander, Wolfe & Chicken 2014, 3.6). r = 1 is the range [min, max],
 * 1 - 2^(1-n). A fraction in [0, 1]; exact for n up to about 50 (the
 * probabilities are binary fractions, from ab_stats_sign_test). NAN when
 * n == 0, r == 0 or 2r > n + 1 (no such interval).
 * Source: stats-vectors.md section 6.
 */
double ab_stats_median_ci_coverage(size_t n, size_t r);

/* Everything abtool reports about one row and one metric. */
struct ab_paired {
	size_t pairs;
	size_t wins, losses, ties;    /* per pair, in the metric's `better` direction */
	struct ab_summary parent, candidate;
	double ratio;                 /* exp(HL(d)): Hodges–Lehmann ratio B/A */
	double ci_lower, ci_upper;    /* exp of the decision bounds; NAN when k == 0 */
	double ci_level;              /* two-sided coverage of [ci_lower, ci_upper] for continuous
	                                 d: exact, e.g. 0.921875 for n = 7, 8, when ci_level_exact;
	                                 beyond AB_STATS_WALSH_EXACT_MAX pairs the normal
	                                 approximation's value; NAN when k == 0 (no interval) */
	int ci_level_exact;           /* 1 when k and ci_level are exact (n <= AB_STATS_WALSH_EXACT_MAX);
	                                 0 beyond: the normal approximation's */
	int tied;                     /* some pairs are zeros or share their |d| (Pratt's ties, as
	                                 integer metrics give): the interval's true coverage is then
	                                 higher than ci_level, which holds for continuous d */
	int ci_empty;                 /* a sequential row whose looks' repeated intervals do not
	                                 intersect (ci_lower > ci_upper, both as computed): their
	                                 coverage failed for this row, and nothing is decided on
	                                 it (docs/statistics.md, "An empty intersection") */
	size_t ci_k;
	double median_ratio;          /* median of b_i / a_i */
	double ratio_of_medians;      /* median(b) / median(a) */
	double geomean_ratio;         /* exp(mean d) */
	double mean_d, sd_d;
	double t_lower, t_upper;      /* paired t 90% interval of the ratio (cross-check) */
	struct ab_signed_rank signed_rank;  /* against shift 0, ties from the values
	                                       (ab_stats_signed_rank_pairs) */
	double sign_p_two_sided;      /* exact sign test on wins vs losses (ties dropped) */
	struct ab_mann_whitney mann_whitney;  /* unpaired a vs b, for contrast only */
};

/*
 * Compute the row statistics of the pairs (a[i], b[i]), i < n (borrowed),
 * for a metric whose direction is `better`. Every value must be finite
 * and > 0 (subnormals such as 1e-320 included: ab_stats_log_ratio keeps
 * their ratios finite). The signed-rank p decides zeros and ties from the
 * values (ab_stats_signed_rank_pairs). The decision interval is at one-sided AB_STATS_ALPHA; the t
 * interval at the matching nominal two-sided level 1 - 2 AB_STATS_ALPHA.
 * Returns 0, or AB_EINVALID (message in ab_error_last()) when n == 0 or a
 * value is not finite and > 0; `out` is then unspecified.
 */
int ab_stats_paired(struct ab_paired *out, const double *a, const double *b, size_t n,
		    enum ab_better better);

#endif
