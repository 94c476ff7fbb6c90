/* stats_dist.c - distribution functions of stats.h: the normal (its
 * distribution function and upper quantile), Student's t (its quantile,
 * two-sided p and the paired t interval) and the chi-square quantile,
 * from the regularized incomplete beta and gamma functions. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* ---- normal distribution --------------------------------------------- */

double ab_stats_norm_cdf(double x)
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

double ab_stats_norm_upper_quantile(double q)
{
	if (!(q > 0))
		return isnan(q) ? NAN : INFINITY;
	if (q >= 1)
		return -INFINITY;
	return norm_upper_quantile(q);
}

/* ---- Student's t and the chi-square ---------------------------------- */

/* One term aa of the modified Lentz method: updates its C and D (each kept
 * away from 0 by `tiny`) and returns the factor C·D of the fraction. */
static double lentz_step(double aa, double *c, double *dd, double tiny)
{
	*dd = 1 + aa * *dd;
	if (fabs(*dd) < tiny)
		*dd = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*dd = 1 / *dd;
	return *dd * *c;
}

/*
 * Continued fraction of the regularized incomplete beta function (A&S
 * 26.5.8) by the modified Lentz method; converges quickly for
 * x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, dd = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(dd) < tiny)
		dd = tiny;
	dd = 1 / dd;
	h = dd;
	for (m = 1; m <= 100000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		h *= lentz_step(aa, &c, &dd, tiny);
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		del = lentz_step(aa, &c, &dd, tiny);
		h *= del;
		if (fabs(del - 1) < 2 * DBL_EPSILON)
			break;
	}
	return h;
}

/* I_x(a, b), with x1 = 1 - x passed separately so that it keeps its
 * digits when x is close to 1. */
static double ibeta(double a, double b, double x, double x1)
{
	double front;

	if (x <= 0)
		return 0;
	if (x1 <= 0)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(x1));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, x1) / b;
}

/* The regularized lower incomplete gamma function P(a, x), a > 0, x >= 0:
 * its series for x < a + 1, else one minus the continued fraction of
 * Q(a, x) (modified Lentz), both to about 1e-15. */
static double gamma_p(double a, double x)
{
	double front, sum, term, b, c, d, h;
	int i;

	if (x <= 0)
		return 0;
	front = exp(a * log(x) - x - lgamma(a));
	if (x < a + 1) {
		for (sum = term = 1 / a, i = 1; i < 1000 && fabs(term) > 1e-16 * fabs(sum); i++) {
			term *= x / (a + i);
			sum += term;
		}
		return fmin(1, front * sum);
	}
	b = x + 1 - a;
	c = 1 / 1e-300;
	d = 1 / b;
	h = d;
	for (i = 1; i < 1000; i++) {
		double an = -i * (i - a), delta;

		b += 2;
		d = an * d + b;
		d = fabs(d) < 1e-300 ? 1e-300 : d;
		c = b + an / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		d = 1 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-16)
			break;
	}
	return fmax(0, 1 - front * h);
}

double ab_stats_chi2_quantile(double p, double df)
{
	double lo = 0, hi = df > 1 ? df : 1;
	int i;

	if (isnan(p) || isnan(df) || !(df > 0))
		return NAN;
	if (p <= 0)
		return 0;
	if (p >= 1)
		return INFINITY;
	while (gamma_p(0.5 * df, 0.5 * hi) < p)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (gamma_p(0.5 * df, 0.5 * mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* P(T > t) for t >= 0: I_{df/(df+t^2)}(df/2, 1/2) / 2. */
static double t_upper(double t, double df)
{
	double t2 = t * t;

	return 0.5 * ibeta(0.5 * df, 0.5, df / (df + t2), t2 / (df + t2));
}

static double t_density(double t, double df)
{
	return exp(lgamma(0.5 * (df + 1)) - lgamma(0.5 * df) - 0.5 * log(df * M_PI) -
		   0.5 * (df + 1) * log1p(t * t / df));
}

/* Hill's Algorithm 396 for the upper quantile at upper-tail probability
 * q (two-tailed p = 2q), df > 2. */
static double hill_t(double q, double n)
{
	double p = 2 * q, a, b, c, d, x, y;

	a = 1 / (n - 0.5);
	b = 48 / (a * a);
	c = ((20700 * a / b - 98) * a - 16) * a + 96.36;
	d = ((94.5 / (b + c) - 3) / b + 1) * sqrt(a * M_PI_2) * n;
	x = d * p;
	y = pow(x, 2 / n);
	if (y > 0.05 + a) {
		/* Asymptotic inverse expansion about the normal. */
		x = -ab_stats_norm_upper_quantile(q);
		y = x * x;
		if (n < 5)
			c += 0.3 * (n - 4.5) * (x + 0.6);
		c = (((0.05 * d * x - 5) * x - 7) * x - 2) * x + b + c;
		y = (((((0.4 * y + 6.3) * y + 36) * y + 94.5) / c - y - 3) / b + 1) * x;
		y = a * y * y;
		y = y > 0.002 ? expm1(y) : 0.5 * y * y + y;
	} else {
		y = ((1 / (((n + 6) / (n * y) - 0.089 * d - 0.822) * (n + 2) * 3) +
		      0.5 / (n + 4)) * y - 1) * (n + 1) / (n + 2) + 1 / y;
	}
	return sqrt(n * y);
}

double ab_stats_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return fmin(1.0, 2 * t_upper(fabs(t), df));
}

double ab_stats_t_quantile(double p, double df)
{
	double q, t;
	int i;

	if (isnan(p) || isnan(df) || df < 1)
		return NAN;
	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	q = p < 0.5 ? p : 1 - p;
	if (df == 1) {
		t = 1 / tan(M_PI * q);
	} else if (df == 2) {
		/* sqrt(2 / (P (2 - P)) - 2) with P = 2q, rearranged to
		 * avoid the cancellation for P near 1. */
		t = (1 - 2 * q) / sqrt(2 * q * (1 - q));
	} else {
		/* Hill's value is good to about 6 digits; Newton steps on
		 * the exact tail bring it to the precision of the beta
		 * function. The step is damped if it would cross zero. */
		t = hill_t(q, df);
		for (i = 0; i < 50; i++) {
			double step = (t_upper(t, df) - q) / t_density(t, df);

			if (t + step <= 0)
				step = -0.5 * t;
			t += step;
			if (fabs(step) <= 1e-14 * t)
				break;
		}
	}
	return p < 0.5 ? -t : t;
}

void ab_stats_paired_t(const double *d, size_t n, double level, double *lower, double *upper)
{
	double mean = 0, ss = 0, half;
	size_t i;

	*lower = *upper = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return;
	for (i = 0; i < n; i++)
		mean += d[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	half = ab_stats_t_quantile(0.5 + 0.5 * level, (double)(n - 1)) *
	       sqrt(ss / (double)(n - 1) / (double)n);
	*lower = mean - half;
	*upper = mean + half;
}
