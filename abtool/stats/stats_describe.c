/* stats_describe.c - descriptive statistics of one side (stats.h): the
 * selection of order statistics, the median, the summary (mean, SD, RSD,
 * MAD and hyperfine's outliers) and the ascending order of doubles. */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- selection ------------------------------------------------------- */

/*
 * Rearrange x[lo..hi] so that x[k] holds the value of rank k, everything
 * before it is <= and everything after it >= (C++'s nth_element). Hoare
 * partition as in Wirth's FIND; stopping on equal keys keeps ties balanced.
 */
static void select_nth(double *x, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t k, uint64_t *rng)
{
	while (lo < hi) {
		double pivot = x[lo + (ptrdiff_t)(ab_stats_splitmix64(rng) % (uint64_t)(hi - lo + 1))];
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
void ab_stats_select_ranks(double *x, size_t n, const size_t *idx, size_t m)
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

	ab_stats_select_ranks(x, n, idx, idx[0] == idx[1] ? 1 : 2);
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

int ab_stats_is_sorted(const double *x, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!(x[i - 1] <= x[i]))
			return 0;
	return 1;
}

int ab_stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
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
