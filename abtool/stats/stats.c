/* stats.c - paired statistics for one row: signed-rank test, Hodges–Lehmann
 * interval, sign test, t quantiles and descriptive summaries (see stats.h
 * for the sources of each formula). */
#include "stats.h"
#include "error.h"
#include "util.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- selection ------------------------------------------------------- */

/* A fixed-seed generator for pivots: results must not depend on the run,
 * and a random pivot keeps quickselect linear on sorted or tied input. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

uint64_t ab_stats_splitmix64(uint64_t *state)
{
	return splitmix64(state);
}

/*
 * Rearrange x[lo..hi] so that x[k] holds the value of rank k, everything
 * before it is <= and everything after it >= (C++'s nth_element). Hoare
 * partition as in Wirth's FIND; stopping on equal keys keeps ties balanced.
 */
static void select_nth(double *x, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t k, uint64_t *rng)
{
	while (lo < hi) {
		double pivot = x[lo + (ptrdiff_t)(splitmix64(rng) % (uint64_t)(hi - lo + 1))];
		ptrdiff_t i = lo, j = hi;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];

				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < k)
			lo = i;
		if (k < i)
			hi = j;
	}
}

/*
 * Place the order statistics idx[0..m) (ascending, 0-based) of x[0..n) at
 * their positions. After one selection every later rank lies to its right,
 * so each search starts past the previous one.
 */
static void select_ranks(double *x, size_t n, const size_t *idx, size_t m)
{
	uint64_t rng = 0x5eed;
	size_t lo = 0, i;

	for (i = 0; i < m; i++) {
		select_nth(x, (ptrdiff_t)lo, (ptrdiff_t)n - 1, (ptrdiff_t)idx[i], &rng);
		lo = idx[i] + 1;
		if (lo >= n)
			break;
	}
}

/* Median of x[0..n), n > 0, reordering x. */
static double median_inplace(double *x, size_t n)
{
	size_t idx[2] = { (n - 1) / 2, n / 2 };

	select_ranks(x, n, idx, idx[0] == idx[1] ? 1 : 2);
	return 0.5 * (x[idx[0]] + x[idx[1]]);
}

double ab_stats_median(const double *x, size_t n)
{
	double *copy, m;

	if (n == 0)
		return NAN;
	copy = ab_xmalloc(n * sizeof(*copy));
	memcpy(copy, x, n * sizeof(*copy));
	m = median_inplace(copy, n);
	free(copy);
	return m;
}

/* ---- descriptive statistics ------------------------------------------ */

/* hyperfine flags |0.6745 (x - median) / MAD| > 10: 10 / 0.6745 rounded
 * as stats-vectors.md section 7 writes it. */
#define OUTLIER_MADS 14.826
/* MAD to a standard deviation for normal data: 1 / Phi^-1(3/4). */
#define MAD_TO_SD 1.4826

void ab_stats_summary(struct ab_summary *out, const double *x, size_t n)
{
	double *dev, sum = 0, ss = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0) {
		out->mean = out->median = out->min = out->max = NAN;
		out->sd = out->rsd = out->mad = out->robust_rsd = NAN;
		return;
	}
	out->min = out->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	out->mean = sum / (double)n;
	/* Two passes: the one-pass formula cancels badly when sd << mean,
	 * which is exactly the case of repeated timings. */
	for (i = 0; i < n; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = n < 2 ? 0 : sqrt(ss / (double)(n - 1));
	out->rsd = out->mean == 0 ? NAN : out->sd / out->mean;

	dev = ab_xmalloc(n * sizeof(*dev));
	memcpy(dev, x, n * sizeof(*dev));
	out->median = median_inplace(dev, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - out->median);
	out->mad = median_inplace(dev, n);
	free(dev);
	out->robust_rsd = out->median == 0 ? NAN : MAD_TO_SD * out->mad / out->median;

	for (i = 0; i < n; i++) {
		double dist = fabs(x[i] - out->median);

		/* With MAD == 0 the z-score of any other value is infinite. */
		if (out->mad == 0 ? dist > 0 : dist > OUTLIER_MADS * out->mad)
			out->outliers++;
	}
}

/* ---- sign test ------------------------------------------------------- */

/* Beyond this many trials the sign test sums the tails in log space
 * (binom_upper): Pascal's rule costs O(n^2), 3 s at n = 10^5. */
#define SIGN_TEST_PASCAL_MAX 5000

static double binom_upper(size_t k, size_t n, double p);

void ab_stats_sign_test(size_t n, size_t wins, double *one_sided, double *two_sided)
{
	double *p, ge = 0, le = 0;
	size_t i, j;

	if (wins > n) {
		*one_sided = *two_sided = NAN;
		return;
	}
	if (n > SIGN_TEST_PASCAL_MAX) {
		/* P(X <= wins) = P(X >= n - wins) at p = 1/2 */
		ge = binom_upper(wins, n, 0.5);
		le = binom_upper(n - wins, n, 0.5);
		*one_sided = fmin(1, ge);
		*two_sided = fmin(1, 2 * fmin(ge, le));
		return;
	}
	/* Row n of Pascal's triangle divided by 2^n, halving at each step:
	 * exact binary fractions for small n, no overflow for large n. */
	p = ab_xcalloc(n + 1, sizeof(*p));
	p[0] = 1;
	for (i = 1; i <= n; i++) {
		for (j = i; j > 0; j--)
			p[j] = 0.5 * (p[j] + p[j - 1]);
		p[0] *= 0.5;
	}
	for (i = 0; i <= n; i++) {
		if (i >= wins)
			ge += p[i];
		if (i <= wins)
			le += p[i];
	}
	free(p);
	*one_sided = fmin(1, ge);
	*two_sided = fmin(1, 2 * fmin(ge, le));
}

/* ---- normal distribution --------------------------------------------- */

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

/*
 * The x with P(Z > x) = q, 0 < q < 1. Start from A&S 26.2.23 (error below
 * 4.5e-4), then Halley steps on erfc, which triple the correct digits each
 * time: three reach double precision. Keeps its own accuracy in the upper
 * tail by never forming 1 - q for small q.
 */
static double norm_upper_quantile(double q)
{
	double t, x;
	int i;

	if (q > 0.5)
		return -norm_upper_quantile(1 - q);
	t = sqrt(-2 * log(q));
	x = t - (2.515517 + t * (0.802853 + t * 0.010328)) /
		(1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
	for (i = 0; i < 3 && x < 37; i++) {
		double e = 0.5 * erfc(x / M_SQRT2) - q;
		double u = e * sqrt(2 * M_PI) * exp(0.5 * x * x);

		x += u / (1 - 0.5 * x * u);
	}
	return x;
}

/* ---- signed-rank null and the Walsh order statistic ------------------ */

void ab_stats_signed_rank_null(double *out, size_t n)
{
	size_t max = n * (n + 1) / 2, top = 0, r, w;

	memset(out, 0, (max + 1) * sizeof(*out));
	out[0] = 1;
	for (r = 1; r <= n; r++) {
		top += r;
		for (w = top; w >= r; w--)
			out[w] = 0.5 * (out[w] + out[w - r]);
		for (w = 0; w < r; w++)
			out[w] *= 0.5;
	}
}

double ab_stats_norm_upper_quantile(double q)
{
	if (!(q > 0))
		return isnan(q) ? NAN : INFINITY;
	if (q >= 1)
		return -INFINITY;
	return norm_upper_quantile(q);
}

/* Normal approximation of P(W+ <= w) for n untied, nonzero differences. */
static double walsh_tail_normal(size_t n, double w)
{
	double nn = (double)n;
	double mu = nn * (nn + 1) / 4;
	double sigma = sqrt(nn * (nn + 1) * (2 * nn + 1) / 24);

	return norm_cdf((w + 0.5 - mu) / sigma);
}

/*
 * k and the tail P(W+ <= k - 1) for AB_STATS_EXACT_MAX < n <=
 * AB_STATS_WALSH_EXACT_MAX from the exact null's lower half: the counting
 * recurrence f_m(w) = (f_{m-1}(w) + f_{m-1}(w - m)) / 2 (Wilcoxon 1945)
 * over w <= n(n+1)/4 only, since k - 1 lies below the median for alpha <
 * 1/2 and a count at w depends on smaller w alone. Probabilities below
 * 2^-1074 become 0, which no tail near alpha notices. Remembered for the
 * last few (n, alpha): a second of CPU at 2,000 pairs.
 */
static void walsh_k_large(size_t n, double alpha, size_t *k, double *tail)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct { size_t n, k; double alpha, tail; } memo[8];
	static size_t next;
	size_t cap = n * (n + 1) / 4, m, w, i;
	double *f, cdf = 0;

	pthread_mutex_lock(&lock);
	for (i = 0; i < sizeof(memo) / sizeof(memo[0]); i++)
		if (memo[i].n == n && memo[i].alpha == alpha) {
			*k = memo[i].k;
			*tail = memo[i].tail;
			pthread_mutex_unlock(&lock);
			return;
		}
	pthread_mutex_unlock(&lock);
	f = ab_xcalloc(cap + 1, sizeof(*f));
	f[0] = 1;
	for (m = 1; m <= n; m++) {
		size_t top = m * (m + 1) / 2 < cap ? m * (m + 1) / 2 : cap;

		for (w = top; w >= m; w--)
			f[w] = 0.5 * (f[w] + f[w - m]);
		for (w = m < top + 1 ? m : top + 1; w-- > 0;)
			f[w] *= 0.5;
	}
	*k = 0;
	*tail = 0;
	for (w = 0; w <= cap; w++) {
		cdf += f[w];
		if (cdf > alpha)
			break;
		*tail = cdf;
		*k = w + 1;
	}
	free(f);
	pthread_mutex_lock(&lock);
	memo[next].n = n;
	memo[next].alpha = alpha;
	memo[next].k = *k;
	memo[next].tail = *tail;
	next = (next + 1) % (sizeof(memo) / sizeof(memo[0]));
	pthread_mutex_unlock(&lock);
}

void ab_stats_walsh_k(size_t n, double alpha, size_t *k, double *coverage)
{
	size_t m = n * (n + 1) / 2, j;
	double tail = 0;

	*k = 0;
	*coverage = 1;
	if (n == 0 || !(alpha > 0 && alpha < 0.5))
		return;
	if (n > AB_STATS_EXACT_MAX && n <= AB_STATS_WALSH_EXACT_MAX) {
		walsh_k_large(n, alpha, k, &tail);
	} else if (n <= AB_STATS_EXACT_MAX) {
		double *f = ab_xmalloc((m + 1) * sizeof(*f));
		double cdf = 0;

		ab_stats_signed_rank_null(f, n);
		/* k - 1 is the last w whose cumulative probability stays
		 * within alpha; below the median since alpha < 1/2. */
		for (j = 0; j <= m; j++) {
			cdf += f[j];
			if (cdf > alpha)
				break;
			tail = cdf;
			*k = j + 1;
		}
		free(f);
	} else {
		/*
		 * Beyond the exact range W+ is close to normal (mean n(n+1)/4,
		 * variance n(n+1)(2n+1)/24); with the continuity correction
		 * P(W+ <= j-1) ~ Phi((j - 1/2 - mu) / sigma), so k is about
		 * mu + 1/2 - z sigma. The closed form only seeds the search:
		 * the steps below make the tail condition hold exactly for
		 * the approximated distribution despite rounding.
		 */
		double nn = (double)n;
		double mu = nn * (nn + 1) / 4;
		double sigma = sqrt(nn * (nn + 1) * (2 * nn + 1) / 24);
		double guess = floor(mu + 0.5 - norm_upper_quantile(alpha) * sigma);

		j = guess < 0 ? 0 : (size_t)guess;
		while (j > 0 && walsh_tail_normal(n, (double)j - 1) > alpha)
			j--;
		while (j < m / 2 && walsh_tail_normal(n, (double)j) <= alpha)
			j++;
		*k = j;
		tail = j == 0 ? 0 : walsh_tail_normal(n, (double)j - 1);
	}
	*coverage = 1 - 2 * tail;
}

/* ---- log ratios and Pratt ranks -------------------------------------- */

double ab_stats_log_ratio(double a, double b)
{
	double hi = fmax(a, b), lo = fmin(a, b), q, m;

	if (a == b)
		return 0;
	q = hi / lo;
	if (isfinite(q)) {
		m = log(q);
	} else {
		/* hi / lo overflows (1e300 / 1e-300): the quotient of the
		 * mantissas, normalised to [1, 2), times 2^e. The same real
		 * ratio always takes the same path and gives the same f, e. */
		int e_hi, e_lo, e;
		double f = frexp(hi, &e_hi) / frexp(lo, &e_lo);

		e = e_hi - e_lo;
		if (f < 1) {
			f *= 2;
			e--;
		}
		m = log(f) + (double)e * M_LN2;
	}
	return b > a ? m : -m;
}

struct ranked {
	double v;     /* |d - shift|, 0 for a zero */
	double hi, lo;  /* the pair's larger and smaller value (pairs only) */
	int sign;     /* +1, -1, or 0 for a zero */
	int integer;  /* hi and lo are integers below 2^64 (pairs only) */
	size_t i;     /* index in the input */
};

/* hi1 / lo1 against hi2 / lo2 for integers, exactly: the products of
 * two integers below 2^64 fit in 128 bits. */
static int ratio_cmp(const struct ranked *x, const struct ranked *y)
{
	unsigned __int128 l = (unsigned __int128)(uint64_t)x->hi * (uint64_t)y->lo;
	unsigned __int128 r = (unsigned __int128)(uint64_t)y->hi * (uint64_t)x->lo;

	return (l > r) - (l < r);
}

/* By |d|; among equal doubles integer pairs first, in exact ratio order,
 * so that pairs with exactly equal ratios are adjacent. */
static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	if (a->integer != b->integer)
		return a->integer ? -1 : 1;
	return a->integer ? ratio_cmp(a, b) : 0;
}

/* Whether y ties with x, the first (smallest) member of a tie group: see
 * stats.h for the rules. Judging against the group's first member keeps
 * near-equal values from chaining into one long group. */
static int tied(const struct ranked *x, const struct ranked *y, int pairs)
{
	if (!pairs)
		return x->v == y->v;
	if ((x->sign == 0) != (y->sign == 0))
		return 0;
	if (x->sign == 0)
		return 1;
	if (x->integer && y->integer)
		return ratio_cmp(x, y) == 0;
	return y->v - x->v <= AB_STATS_TIE_EPS * (1 + x->v);
}

/* Sort r[0..n) and write the signed doubled Pratt rank of each input to
 * rank2[r[k].i] (Pratt 1959: zeros take ranks 1..z but carry no sign;
 * a tie group of positions s..e-1 shares the midrank (s + 1 + e) / 2). */
static void assign_ranks(struct ranked *r, size_t n, int pairs, int64_t *rank2)
{
	size_t i, s, e;

	qsort(r, n, sizeof(*r), cmp_ranked);
	for (s = 0; s < n; s = e) {
		for (e = s + 1; e < n && tied(&r[s], &r[e], pairs); e++)
			;
		for (i = s; i < e; i++)
			rank2[r[i].i] = r[i].sign * (int64_t)(s + 1 + e);
	}
}

void ab_stats_pratt_ranks(int64_t *rank2, const double *d, size_t n, double shift)
{
	struct ranked *r = ab_xcalloc(n ? n : 1, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++) {
		double diff = d[i] - shift;

		r[i].i = i;
		if (diff == 0 || (shift != 0 && fabs(diff) <= AB_STATS_SHIFT_RTOL * fabs(shift)))
			continue;
		r[i].v = fabs(diff);
		r[i].sign = diff > 0 ? 1 : -1;
	}
	assign_ranks(r, n, 0, rank2);
	free(r);
}

void ab_stats_pratt_ranks_pairs(int64_t *rank2, const double *a, const double *b, size_t n)
{
	struct ranked *r = ab_xcalloc(n ? n : 1, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++) {
		r[i].i = i;
		r[i].hi = fmax(a[i], b[i]);
		r[i].lo = fmin(a[i], b[i]);
		r[i].integer = r[i].hi < 18446744073709551616.0 && r[i].lo == floor(r[i].lo) &&
			       r[i].hi == floor(r[i].hi);
		if (a[i] == b[i])
			continue;
		r[i].v = fabs(ab_stats_log_ratio(a[i], b[i]));
		r[i].sign = b[i] > a[i] ? 1 : -1;
	}
	assign_ranks(r, n, 1, rank2);
	free(r);
}

/* ---- signed-rank test ------------------------------------------------ */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint64_t abs64(int64_t x)
{
	return x < 0 ? (uint64_t)-x : (uint64_t)x;
}

void ab_stats_signed_rank_counts(double *count, const int64_t *rank2, size_t n)
{
	uint64_t total = 0, top = 0, s;
	size_t i;

	for (i = 0; i < n; i++)
		total += abs64(rank2[i]);
	memset(count, 0, (total + 1) * sizeof(*count));
	count[0] = 1;
	/* A knapsack over the integer scores: each nonzero rank is in W+
	 * or not. */
	for (i = 0; i < n; i++) {
		uint64_t r = abs64(rank2[i]);

		if (r == 0)
			continue;
		top += r;
		for (s = top; s >= r; s--)
			count[s] += count[s - r];
	}
}

static void finish_p(struct ab_signed_rank *out)
{
	out->p_greater = fmin(1, out->p_greater);
	out->p_less = fmin(1, out->p_less);
	out->p_two_sided = fmin(1, 2 * fmin(out->p_greater, out->p_less));
}

static void signed_rank_normal(struct ab_signed_rank *out, const int64_t *rank2, size_t n,
			       uint64_t w2_plus)
{
	double sum = 0, sumsq = 0, mu, sigma, half_step;
	uint64_t g = 0;
	size_t i;

	out->exact = 0;
	for (i = 0; i < n; i++) {
		double r = (double)abs64(rank2[i]);

		sum += r;
		sumsq += r * r;
		g = gcd64(g, abs64(rank2[i]));
	}
	if (out->nonzero == 0) {
		out->p_greater = out->p_less = 1;
		finish_p(out);
		return;
	}
	/* In doubled units: 2W+ = sum s_i B_i, B_i fair coin flips. */
	mu = sum / 2;
	sigma = sqrt(sumsq / 4);
	half_step = (double)g / 2;
	out->p_greater = 1 - norm_cdf(((double)w2_plus - half_step - mu) / sigma);
	out->p_less = norm_cdf(((double)w2_plus + half_step - mu) / sigma);
	finish_p(out);
}

static void signed_rank_exact(struct ab_signed_rank *out, const int64_t *rank2, size_t n,
			      uint64_t w2_plus)
{
	uint64_t total = 0, s;
	double *count, ge = 0, le = 0;
	size_t i;

	out->exact = 1;
	for (i = 0; i < n; i++)
		total += abs64(rank2[i]);
	count = ab_xmalloc((total + 1) * sizeof(*count));
	ab_stats_signed_rank_counts(count, rank2, n);
	for (s = 0; s <= total; s++) {
		if (s >= w2_plus)
			ge += count[s];
		if (s <= w2_plus)
			le += count[s];
	}
	free(count);
	/* Each of the 2^nonzero sign patterns has probability 2^-nonzero. */
	out->p_greater = ldexp(ge, -(int)out->nonzero);
	out->p_less = ldexp(le, -(int)out->nonzero);
	finish_p(out);
}

static void signed_rank_ranked(struct ab_signed_rank *out, const int64_t *rank2, size_t n,
			       int force_normal)
{
	uint64_t w2_plus = 0, w2_minus = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	for (i = 0; i < n; i++) {
		out->nonzero += rank2[i] != 0;
		if (rank2[i] > 0)
			w2_plus += abs64(rank2[i]);
		else
			w2_minus += abs64(rank2[i]);
	}
	out->w_plus = (double)w2_plus / 2;
	out->w_minus = (double)w2_minus / 2;
	if (force_normal || n > AB_STATS_EXACT_MAX)
		signed_rank_normal(out, rank2, n, w2_plus);
	else
		signed_rank_exact(out, rank2, n, w2_plus);
}

static void signed_rank(struct ab_signed_rank *out, const double *d, size_t n, double shift,
			int force_normal)
{
	int64_t *rank2 = ab_xmalloc((n ? n : 1) * sizeof(*rank2));

	ab_stats_pratt_ranks(rank2, d, n, shift);
	signed_rank_ranked(out, rank2, n, force_normal);
	free(rank2);
}

void ab_stats_signed_rank(struct ab_signed_rank *out, const double *d, size_t n, double shift)
{
	signed_rank(out, d, n, shift, 0);
}

void ab_stats_signed_rank_normal(struct ab_signed_rank *out, const double *d, size_t n,
				 double shift)
{
	signed_rank(out, d, n, shift, 1);
}

void ab_stats_signed_rank_pairs(struct ab_signed_rank *out, const double *a, const double *b,
				size_t n)
{
	int64_t *rank2 = ab_xmalloc((n ? n : 1) * sizeof(*rank2));

	ab_stats_pratt_ranks_pairs(rank2, a, b, n);
	signed_rank_ranked(out, rank2, n, 0);
	free(rank2);
}

/* ---- Mann–Whitney (unpaired, for contrast) --------------------------- */

struct pooled {
	double v;
	int from_b;
};

static int cmp_pooled(const void *pa, const void *pb)
{
	const struct pooled *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Row j of f counts, per doubled rank sum s, the subsets of size j of the
 * items seen so far (f_j(s)); adding an item of doubled rank r either
 * leaves a subset alone or puts the item in it (a knapsack with a size
 * limit). A subset of size j sums at least low[j] (the j smallest
 * scores, which ascend) and at most high[j] (the j largest), so row j
 * keeps only [low[j], high[j]]; and only sizes that can still grow to n_b
 * with the items left are updated. Counts are doubles: exact integers
 * while below 2^53, then correctly rounded, and C(100, 50) ~ 1e29 is far
 * from overflow. */
static void mann_whitney_exact(struct ab_mann_whitney *out, const uint64_t *score, size_t n,
			       size_t n_b, uint64_t w2_b)
{
	uint64_t s, top = 0, *low = ab_xmalloc((n_b + 1) * sizeof(*low));
	uint64_t *high = ab_xmalloc((n_b + 1) * sizeof(*high));
	size_t i, j, j_min;
	double **f = ab_xmalloc((n_b + 1) * sizeof(*f)), all = 0, ge = 0, le = 0;

	low[0] = high[0] = 0;
	for (j = 1; j <= n_b; j++) {
		low[j] = low[j - 1] + score[j - 1];
		high[j] = high[j - 1] + score[n - j];
	}
	/* one allocation per row: rows stay small (at most n^2 / 2 counts),
	 * so that the allocator reuses them instead of mapping fresh pages
	 * for each call */
	for (j = 0; j <= n_b; j++)
		f[j] = ab_xcalloc((size_t)(high[j] - low[j]) + 1, sizeof(**f));
	f[0][0] = 1;
	for (i = 0; i < n; i++) {
		uint64_t r = score[i];

		top += r;
		j_min = n_b > n - 1 - i ? n_b - (n - 1 - i) : 1;
		for (j = i + 1 < n_b ? i + 1 : n_b; j >= j_min && j > 0; j--) {
			uint64_t hi = top < high[j] ? top : high[j];

			if (hi > high[j - 1] + r)
				hi = high[j - 1] + r;
			/* r >= score[j - 1] (i >= j - 1): s >= low[j] */
			for (s = hi; s >= r + low[j - 1]; s--)
				f[j][s - low[j]] += f[j - 1][s - r - low[j - 1]];
		}
	}
	for (s = low[n_b]; s <= high[n_b]; s++) {
		double c = f[n_b][s - low[n_b]];

		all += c;
		if (s >= w2_b)
			ge += c;
		if (s <= w2_b)
			le += c;
	}
	for (j = 0; j <= n_b; j++)
		free(f[j]);
	free(f);
	free(high);
	free(low);
	out->exact = 1;
	out->p_greater = ge / all;
	out->p_less = le / all;
}

void ab_stats_mann_whitney(struct ab_mann_whitney *out, const double *a, size_t n_a, const double *b,
			   size_t n_b)
{
	size_t n = n_a + n_b, i, st, e;
	struct pooled *x;
	uint64_t *score, w2_b = 0;
	double ties = 0;

	memset(out, 0, sizeof(*out));
	out->n_a = n_a;
	out->n_b = n_b;
	out->p_greater = out->p_less = out->p_two_sided = 1;
	if (n_a == 0 || n_b == 0)
		return;
	x = ab_xmalloc(n * sizeof(*x));
	score = ab_xmalloc(n * sizeof(*score));
	for (i = 0; i < n_a; i++)
		x[i] = (struct pooled){a[i], 0};
	for (i = 0; i < n_b; i++)
		x[n_a + i] = (struct pooled){b[i], 1};
	qsort(x, n, sizeof(*x), cmp_pooled);
	for (st = 0; st < n; st = e) {
		double t;

		for (e = st + 1; e < n && x[e].v == x[st].v; e++)
			;
		/* positions st..e-1 hold ranks st+1..e: twice their mean */
		for (i = st; i < e; i++) {
			score[i] = (uint64_t)(st + 1 + e);
			if (x[i].from_b)
				w2_b += score[i];
		}
		t = (double)(e - st);
		ties += t * t * t - t;
	}
	/* U = R_b - n_b (n_b + 1) / 2, R_b the rank sum of b */
	out->u = (double)w2_b / 2 - (double)n_b * ((double)n_b + 1) / 2;
	if (n <= AB_STATS_MW_EXACT_MAX) {
		mann_whitney_exact(out, score, n, n_b, w2_b);
	} else {
		double nn = (double)n, mu = (double)n_a * (double)n_b / 2;
		double sigma = sqrt((double)n_a * (double)n_b / 12 * (nn + 1 - ties / (nn * (nn - 1))));

		if (sigma > 0) {
			out->p_greater = 1 - norm_cdf((out->u - 0.5 - mu) / sigma);
			out->p_less = norm_cdf((out->u + 0.5 - mu) / sigma);
		}
	}
	out->p_greater = fmin(1, out->p_greater);
	out->p_less = fmin(1, out->p_less);
	out->p_two_sided = fmin(1, 2 * fmin(out->p_greater, out->p_less));
	free(score);
	free(x);
}

double ab_stats_median_ci_coverage(size_t n, size_t r)
{
	double tail, two_sided;

	if (n == 0 || r == 0 || 2 * r > n + 1)
		return NAN;
	/* P(X <= r - 1) = P(X >= n - r + 1) at p = 1/2 */
	ab_stats_sign_test(n, n - r + 1, &tail, &two_sided);
	return 1 - 2 * tail;
}

/* ---- Hodges–Lehmann -------------------------------------------------- */

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return (a > b) - (a < b);
}

/* Beyond this many Walsh averages (2 MiB of them, about 724 pairs) they
 * are not held but counted: see walsh_rank. At 2^22 (32 MiB) a run of one
 * row and 2,800 pairs held 32 MiB for a moment, above the whole target
 * for a 10,000-sample run (docs/performance.md). */
#define WALSH_HELD_MAX ((size_t)1 << 18)

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Doubles as integers in the same order (-0 just before +0). */
static uint64_t order_key(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static double from_key(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* How many Walsh averages 0.5 * (s[i] + s[j]), i <= j, are <= t, for s
 * sorted ascending: for each i they are ascending in j (rounding is
 * monotone), and the last j that qualifies only falls as i grows. O(n). */
int ab_stats_is_sorted(const double *x, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!(x[i - 1] <= x[i]))
			return 0;
	return 1;
}

static uint64_t walsh_count_le(const double *s, size_t n, double t)
{
	uint64_t count = 0;
	size_t i;
	ptrdiff_t j = (ptrdiff_t)n - 1;

	for (i = 0; i < n; i++) {
		while (j >= (ptrdiff_t)i && 0.5 * (s[i] + s[j]) > t)
			j--;
		if (j < (ptrdiff_t)i)
			break;
		count += (uint64_t)(j - (ptrdiff_t)i + 1);
	}
	return count;
}

/* The Walsh average of 0-based rank r, without holding the M of them:
 * the smallest double t with more than r averages <= t, by bisection on
 * the ordered bit patterns (at most 64 counts of O(n)). It is one of the
 * averages, computed as the held path computes it, so both agree. */
static double walsh_rank(const double *s, size_t n, size_t r)
{
	uint64_t lo = order_key(s[0]), hi = order_key(s[n - 1]), mid;

	assert(n > 0 && ab_stats_is_sorted(s, n));

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (walsh_count_le(s, n, from_key(mid)) > (uint64_t)r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return from_key(lo);
}

/* The same result as below for n(n+1)/2 > WALSH_HELD_MAX, in O(n) memory
 * and O(n log n) time: `abtool analyze` can be given 10^5 pairs, whose
 * 5 * 10^9 averages would need 40 GB. */
static void hodges_lehmann_counted(struct ab_hl *out, const double *d, size_t n, size_t m)
{
	double *s = ab_xmalloc(n * sizeof(*s));

	memcpy(s, d, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->estimate = 0.5 * (walsh_rank(s, n, (m - 1) / 2) + walsh_rank(s, n, m / 2));
	if (out->k > 0) {
		out->lower = walsh_rank(s, n, out->k - 1);
		out->upper = walsh_rank(s, n, m - out->k);
	}
	free(s);
}

void ab_stats_hodges_lehmann(struct ab_hl *out, const double *d, size_t n, double alpha)
{
	size_t k;
	double coverage;

	ab_stats_walsh_k(n, alpha, &k, &coverage);
	ab_stats_hodges_lehmann_k(out, d, n, k);
	out->coverage = coverage;
}

void ab_stats_hodges_lehmann_k(struct ab_hl *out, const double *d, size_t n, size_t k)
{
	size_t m = n * (n + 1) / 2, idx[4], nidx = 0, i, j, w = 0;
	double *walsh;

	out->k = 2 * k > m + 1 ? 0 : k;
	out->coverage = NAN;
	out->estimate = out->lower = out->upper = NAN;
	if (n == 0)
		return;
	if (m > WALSH_HELD_MAX) {
		hodges_lehmann_counted(out, d, n, m);
		return;
	}
	walsh = ab_xmalloc(m * sizeof(*walsh));
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			walsh[w++] = 0.5 * (d[i] + d[j]);

	/* The four ranks needed, selected in ascending order so that each
	 * search only scans what lies beyond the previous one. */
	idx[nidx++] = (m - 1) / 2;
	idx[nidx++] = m / 2;
	if (out->k > 0) {
		idx[nidx++] = out->k - 1;
		idx[nidx++] = m - out->k;
	}
	qsort(idx, nidx, sizeof(*idx), cmp_size);
	for (i = j = 0; i < nidx; i++)
		if (j == 0 || idx[i] != idx[j - 1])
			idx[j++] = idx[i];
	select_ranks(walsh, m, idx, j);

	out->estimate = 0.5 * (walsh[(m - 1) / 2] + walsh[m / 2]);
	if (out->k > 0) {
		out->lower = walsh[out->k - 1];
		out->upper = walsh[m - out->k];
	}
	free(walsh);
}

/* ---- the binomial ---------------------------------------------------- */

/* P(X >= k) for X ~ Binomial(n, p), summed in log space. */
static double binom_upper(size_t k, size_t n, double p)
{
	double sum = 0, lp = log(p), lq = log1p(-p);
	size_t i;

	if (k == 0)
		return 1;
	if (p <= 0)
		return 0;
	if (p >= 1)
		return 1;
	for (i = k; i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) +
			   (double)i * lp + (double)(n - i) * lq);
	return fmin(1, sum);
}

void ab_stats_binomial_ci(size_t k, size_t n, double level, double *lower, double *upper)
{
	double tail = (1 - level) / 2, lo, hi, mid;
	int it;

	*lower = 0;
	*upper = 1;
	if (n == 0 || k > n)
		return;
	if (k > 0) {
		/* P(X >= k | p) grows with p: find where it reaches the tail */
		for (lo = 0, hi = 1, it = 0; it < 100; it++) {
			mid = (lo + hi) / 2;
			if (binom_upper(k, n, mid) < tail)
				lo = mid;
			else
				hi = mid;
		}
		*lower = (lo + hi) / 2;
	}
	if (k < n) {
		/* P(X <= k | p) = 1 - P(X >= k+1 | p) falls with p */
		for (lo = 0, hi = 1, it = 0; it < 100; it++) {
			mid = (lo + hi) / 2;
			if (1 - binom_upper(k + 1, n, mid) > tail)
				lo = mid;
			else
				hi = mid;
		}
		*upper = (lo + hi) / 2;
	}
}

/* ---- one row --------------------------------------------------------- */

static int check_values(const double *x, size_t n, const char *side)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] <= 0)
			return ab_error_set(AB_EINVALID,
					    "pair %zu: %s value %g is not a positive finite number; "
					    "ratio statistics need values > 0",
					    i + 1, side, x[i]);
	return 0;
}

static int cmp_int64(const void *pa, const void *pb)
{
	int64_t x = *(const int64_t *)pa, y = *(const int64_t *)pb;

	return (x > y) - (x < y);
}

/* Whether two pairs share their |d| (ab_stats_pratt_ranks_pairs' ties). */
static int has_tied_ranks(const double *a, const double *b, size_t n)
{
	int64_t *r = ab_xmalloc((n ? n : 1) * sizeof(*r));
	size_t i;
	int tied = 0;

	ab_stats_pratt_ranks_pairs(r, a, b, n);
	for (i = 0; i < n; i++)
		r[i] = r[i] < 0 ? -r[i] : r[i];
	qsort(r, n, sizeof(*r), cmp_int64);
	for (i = 1; i < n && !tied; i++)
		tied = r[i] != 0 && r[i] == r[i - 1];
	free(r);
	return tied;
}

int ab_stats_paired(struct ab_paired *out, const double *a, const double *b, size_t n,
		    enum ab_better better)
{
	double *d, *ratio, one_sided, sum = 0, ss = 0;
	struct ab_hl hl;
	int error;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return ab_error_set(AB_EINVALID, "no pairs to compare; run at least one pair");
	if ((error = check_values(a, n, "parent")) < 0 ||
	    (error = check_values(b, n, "candidate")) < 0)
		return error;

	out->pairs = n;
	d = ab_xmalloc(n * sizeof(*d));
	ratio = ab_xmalloc(n * sizeof(*ratio));
	for (i = 0; i < n; i++) {
		int better_b = better == AB_HIGHER_IS_BETTER ? b[i] > a[i] : b[i] < a[i];

		ratio[i] = b[i] / a[i];
		d[i] = ab_stats_log_ratio(a[i], b[i]);
		if (b[i] == a[i])
			out->ties++;
		else if (better_b)
			out->wins++;
		else
			out->losses++;
		sum += d[i];
	}
	out->mean_d = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (d[i] - out->mean_d) * (d[i] - out->mean_d);
	out->sd_d = n < 2 ? 0 : sqrt(ss / (double)(n - 1));
	out->geomean_ratio = exp(out->mean_d);

	ab_stats_summary(&out->parent, a, n);
	ab_stats_summary(&out->candidate, b, n);
	out->median_ratio = ab_stats_median(ratio, n);
	out->ratio_of_medians = out->candidate.median / out->parent.median;

	ab_stats_hodges_lehmann(&hl, d, n, AB_STATS_ALPHA);
	out->ratio = exp(hl.estimate);
	out->ci_lower = exp(hl.lower);
	out->ci_upper = exp(hl.upper);
	out->ci_level = hl.k ? hl.coverage : NAN;
	out->ci_level_exact = hl.k && n <= AB_STATS_WALSH_EXACT_MAX;
	out->tied = out->ties > 0 || has_tied_ranks(a, b, n);
	out->ci_k = hl.k;

	ab_stats_paired_t(d, n, 1 - 2 * AB_STATS_ALPHA, &out->t_lower, &out->t_upper);
	out->t_lower = exp(out->t_lower);
	out->t_upper = exp(out->t_upper);

	ab_stats_signed_rank_pairs(&out->signed_rank, a, b, n);
	ab_stats_sign_test(out->wins + out->losses, out->wins, &one_sided,
			   &out->sign_p_two_sided);
	ab_stats_mann_whitney(&out->mann_whitney, a, n, b, n);

	free(ratio);
	free(d);
	return 0;
}
