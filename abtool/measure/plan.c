/* plan.c - the seeded schedule of samples (see plan.h). */
#include "plan.h"
#include "error.h"
#include "stats.h"
#include "util.h"

#include <assert.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

static void add(struct ab_plan *plan, uint32_t row, int32_t pair, int32_t warmup,
		enum ab_side side, enum ab_order order)
{
	struct ab_plan_entry *e = &plan->entries[plan->n];

	assert(side == AB_PARENT || side == AB_CANDIDATE);
	e->seq = (uint32_t)plan->n;
	e->row = row;
	e->pair = pair;
	e->warmup = warmup;
	e->side = (uint8_t)side;
	e->order = (uint8_t)order;
	plan->n++;
}

static void add_pair(struct ab_plan *plan, uint32_t row, int32_t pair, int32_t warmup,
		     enum ab_order order)
{
	enum ab_side first = order == AB_ORDER_AB ? AB_PARENT : AB_CANDIDATE;

	add(plan, row, pair, warmup, first, order);
	add(plan, row, pair, warmup, (enum ab_side)!first, order);
}

#ifndef NDEBUG
/* What the analysis relies on: every row has equal AB and BA pair counts
 * (one more of either for an odd count), and each pair is its two sides back to
 * back in the order it names. */
static int plan_is_balanced(const struct ab_plan *plan)
{
	size_t i, r;
	long *diff = ab_xcalloc(plan->nrows, sizeof(*diff));
	int ok = 1;

	for (i = 0; i + 1 < plan->n && ok; i += 2) {
		const struct ab_plan_entry *a = &plan->entries[i], *b = &plan->entries[i + 1];
		enum ab_side first = a->order == AB_ORDER_AB ? AB_PARENT : AB_CANDIDATE;

		ok = a->row == b->row && a->pair == b->pair && a->side == first &&
		     b->side == !first && a->row < plan->nrows;
		if (ok && a->pair >= 0)
			diff[a->row] += a->order == AB_ORDER_AB ? 1 : -1;
	}
	for (r = 0; r < plan->nrows && ok; r++)
		ok = labs(diff[r]) == (long)(plan->pairs & 1);
	free(diff);
	return ok;
}
#endif

int ab_plan_build(struct ab_plan *out, size_t nrows, size_t pairs, size_t warmup, uint64_t seed)
{
	uint64_t state = seed;
	size_t blocks = (pairs + 1) / 2, r, i, w;
	uint8_t *coins;

	out->entries = NULL;
	out->n = 0;
	out->nrows = nrows;
	out->pairs = pairs;
	out->warmup = warmup;
	out->seed = seed;
	if (nrows == 0 || pairs == 0)
		return ab_error_set(AB_EINVALID, "a plan needs at least one row and one pair");
	if ((double)nrows * 2 * (double)(pairs + warmup) > 2147483647.0)
		return ab_error_set(AB_EINVALID, "the plan would exceed 2^31 samples");

	/* One coin per (row, block), drawn row by row so that a row's orders
	 * do not depend on how many pairs other rows have; SplitMix64
	 * (ab_stats_splitmix64), so a stored seed reproduces the plan on any
	 * platform, which libc's rand() does not promise. */
	coins = ab_xmalloc(nrows * blocks);
	for (r = 0; r < nrows; r++)
		for (i = 0; i < blocks; i++)
			coins[r * blocks + i] = (uint8_t)(ab_stats_splitmix64(&state) >> 63);

	out->entries = ab_xmalloc(nrows * 2 * (pairs + warmup) * sizeof(*out->entries));
	for (i = 0; i < pairs; i++) {
		for (r = 0; r < nrows; r++) {
			uint8_t coin = coins[r * blocks + i / 2];
			enum ab_order order = (enum ab_order)(coin ^ (i & 1));

			if (i == 0)
				for (w = 0; w < warmup; w++)
					add_pair(out, (uint32_t)r, -1, (int32_t)w,
						 (enum ab_order)(w & 1));
			add_pair(out, (uint32_t)r, (int32_t)i, -1, order);
		}
	}
	free(coins);
	assert(out->n == nrows * 2 * (pairs + warmup));
	assert(plan_is_balanced(out));
	return 0;
}

void ab_plan_release(struct ab_plan *plan)
{
	free(plan->entries);
	plan->entries = NULL;
	plan->n = 0;
}

uint64_t ab_plan_random_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		uint64_t state = (uint64_t)time(NULL) ^ (uint64_t)ab_now_ns();
		seed = ab_stats_splitmix64(&state);
	}
	return seed & ((1ULL << 53) - 1);
}

const char *ab_side_name(enum ab_side side)
{
	return side == AB_PARENT ? "parent" : "candidate";
}

const char *ab_order_name(enum ab_order order)
{
	return order == AB_ORDER_AB ? "AB" : "BA";
}
