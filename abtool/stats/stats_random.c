/* stats_random.c - the fixed-seed generator of the stats layer (stats.h):
 * SplitMix64 (Steele G. L., Lea D., Flood C. H. (2014) Fast splittable
 * pseudorandom number generators. OOPSLA '14), whose output depends on
 * the seed alone, so a stored seed gives the same sequence on every
 * machine, which libc's rand() does not promise. */
#include "stats.h"

#include <stdint.h>

uint64_t ab_stats_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

double ab_stats_uniform(uint64_t *state)
{
	return ((double)(ab_stats_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}
