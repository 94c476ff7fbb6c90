/* stats_rank.c - the rank tests (stats.h): log ratios, Pratt's signed
 * ranks, the signed-rank test (Wilcoxon 1945, Pratt 1959) exact and
 * normal, and the unpaired Mann–Whitney test (Mann & Whitney 1947). */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	out->p_greater = 1 - ab_stats_norm_cdf(((double)w2_plus - half_step - mu) / sigma);
	out->p_less = ab_stats_norm_cdf(((double)w2_plus + half_step - mu) / sigma);
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
			out->p_greater = 1 - ab_stats_norm_cdf((out->u - 0.5 - mu) / sigma);
			out->p_less = ab_stats_norm_cdf((out->u + 0.5 - mu) / sigma);
		}
	}
	out->p_greater = fmin(1, out->p_greater);
	out->p_less = fmin(1, out->p_less);
	out->p_two_sided = fmin(1, 2 * fmin(out->p_greater, out->p_less));
	free(score);
	free(x);
}
