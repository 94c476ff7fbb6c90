/* stats_interval.c - the decision interval (stats.h): the null of the
 * signed-rank statistic, the Walsh order statistic k of a level, and the
 * Hodges–Lehmann estimate and interval (Hodges & Lehmann 1963). */
#include "stats.h"
#include "util.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Normal approximation of P(W+ <= w) for n untied, nonzero differences. */
static double walsh_tail_normal(size_t n, double w)
{
	double nn = (double)n;
	double mu = nn * (nn + 1) / 4;
	double sigma = sqrt(nn * (nn + 1) * (2 * nn + 1) / 24);

	return ab_stats_norm_cdf((w + 0.5 - mu) / sigma);
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
		double guess = floor(mu + 0.5 - ab_stats_norm_upper_quantile(alpha) * sigma);

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
	qsort(s, n, sizeof(*s), ab_stats_cmp_double);
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
	ab_stats_select_ranks(walsh, m, idx, j);

	out->estimate = 0.5 * (walsh[(m - 1) / 2] + walsh[m / 2]);
	if (out->k > 0) {
		out->lower = walsh[out->k - 1];
		out->upper = walsh[m - out->k];
	}
	free(walsh);
}
