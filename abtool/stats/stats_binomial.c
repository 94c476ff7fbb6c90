/* stats_binomial.c - the binomial distribution (stats.h): the exact sign
 * test, the tail of a count against a claimed share
 * (ab_stats_binomial_cdf), the Clopper–Pearson interval of a proportion
 * and the coverage of the order-statistic interval of a median. */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

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

double ab_stats_median_ci_coverage(size_t n, size_t r)
{
	double tail, two_sided;

	if (n == 0 || r == 0 || 2 * r > n + 1)
		return NAN;
	/* P(X <= r - 1) = P(X >= n - r + 1) at p = 1/2 */
	ab_stats_sign_test(n, n - r + 1, &tail, &two_sided);
	return 1 - 2 * tail;
}

double ab_stats_binomial_cdf(size_t k, size_t n, double p)
{
	long double sum = 0, logp, logq;
	size_t i;

	if (!(p >= 0 && p <= 1) || k > n)
		return k > n && p >= 0 && p <= 1 ? 1 : NAN;
	if (k == n || p == 0)
		return 1;
	if (p == 1)
		return 0;
	logp = logl((long double)p);
	logq = log1pl(-(long double)p);
	/* each term C(n, i) p^i q^(n-i) in log space (lgamma); the terms are
	 * positive, so their sum in long double keeps about 16 digits */
	for (i = 0; i <= k; i++)
		sum += expl(lgammal((long double)n + 1) - lgammal((long double)i + 1) -
			    lgammal((long double)(n - i) + 1) + (long double)i * logp + (long double)(n - i) * logq);
	return sum > 1 ? 1 : (double)sum;
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
