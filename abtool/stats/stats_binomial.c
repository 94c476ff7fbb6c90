/* stats_binomial.c - the binomial tail of a count against a claimed
 * share (stats.h, ab_stats_binomial_cdf). */
#include "stats.h"

#include <math.h>

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
