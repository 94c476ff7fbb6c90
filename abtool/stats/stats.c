/* stats.c - the statistics of one row (stats.h, ab_stats_paired), from
 * the families of its section files: stats_describe.c (summaries and
 * order statistics), stats_rank.c (signed-rank and Mann–Whitney tests),
 * stats_interval.c (the Hodges–Lehmann interval), stats_binomial.c (the
 * sign test and binomial intervals), stats_dist.c (normal, t and
 * chi-square), stats_adjust.c (Holm), stats_random.c (SplitMix64). */
#include "stats.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
