/* plan.h - the schedule (docs/experiment-file.md, "Schedule"): the seeded, complete,
 * ordered list of samples, stored before the first sample runs.
 *
 * Rows are visited round-robin (pair 1 of every row, then pair 2 …) so slow
 * drift spreads over all rows; each row's warmups come first in its first
 * visit. Within a row, pairs come in blocks of two, AB|BA or BA|AB, chosen
 * by a seeded coin: the orders are balanced (equal AB and BA counts, ±1 for
 * an odd pair count) and randomized. The same seed gives the same plan. */
#ifndef AB_PLAN_H
#define AB_PLAN_H

#include <stddef.h>
#include <stdint.h>

enum ab_side {
	AB_PARENT = 0,     /* A */
	AB_CANDIDATE = 1,  /* B */
};

enum ab_order {
	AB_ORDER_AB = 0,   /* parent first */
	AB_ORDER_BA = 1,   /* candidate first */
};

struct ab_plan_entry {
	uint32_t seq;      /* position in the plan, 0-based */
	uint32_t row;      /* matrix row */
	int32_t pair;      /* pair index within the row, 0-based; -1 for a warmup */
	int32_t warmup;    /* warmup index within the row, or -1 */
	uint8_t side;      /* enum ab_side */
	uint8_t order;     /* enum ab_order of the pair (or warmup pair) this sample belongs to */
};

struct ab_plan {
	struct ab_plan_entry *entries;  /* new memory, owned */
	size_t n;
	size_t nrows, pairs, warmup;
	uint64_t seed;
};

/*
 * Build the plan for `nrows` rows, `pairs` pairs and `warmup` warmup
 * samples per side per row (warmups alternate AB, BA and are never
 * analysed). Entries: nrows * 2 * (pairs + warmup). `out` is initialised
 * here; release with ab_plan_release. Returns 0, or AB_EINVALID when
 * nrows or pairs is 0 or the plan would exceed 2^31 samples.
 */
int ab_plan_build(struct ab_plan *out, size_t nrows, size_t pairs, size_t warmup, uint64_t seed);

void ab_plan_release(struct ab_plan *plan);

/* A seed from the operating system's random source (getrandom), for runs
 * without --seed; it is stored so the plan can be reproduced. Kept below
 * 2^53 so that JSON readers keep it exact. */
uint64_t ab_plan_random_seed(void);

/* "parent" / "candidate", "AB" / "BA" */
const char *ab_side_name(enum ab_side side);
const char *ab_order_name(enum ab_order order);

#endif
