/* stats_adjust.c - multiplicity adjustment of p-values (see stats.h):
 * Holm's step-down procedure (Holm S. (1979) A simple sequentially
 * rejective multiple test procedure. Scand. J. Statist. 6, 65-70), which
 * the rules apply over the verdict's family of refutations. */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

struct holm_item {
	double p;
	size_t i;
};

/* Ascending p, ties in index order (a stable order). */
static int cmp_holm(const void *pa, const void *pb)
{
	const struct holm_item *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

void ab_stats_holm(double *q, size_t *rank, const double *p, size_t m)
{
	struct holm_item *r = ab_xmalloc((m ? m : 1) * sizeof(*r));
	double running = 0;
	size_t i;

	for (i = 0; i < m; i++)
		r[i] = (struct holm_item){ p[i], i };
	qsort(r, m, sizeof(*r), cmp_holm);
	for (i = 0; i < m; i++) {
		running = fmax(running, fmin(1.0, (double)(m - i) * r[i].p));
		q[r[i].i] = running;
		if (rank)
			rank[r[i].i] = i;
	}
	free(r);
}
