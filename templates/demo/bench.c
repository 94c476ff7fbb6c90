/* bench.c - the demo benchmark: count and sum the primes of a fixed range
 * per lane, one thread per lane, and print the result as a checksum.
 * Usage: ./bench LANES */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANGE 40000ULL           /* numbers tested per lane */
#define BASE 100000000ULL        /* the first number of lane 0 */

struct lane {
	uint64_t first;
	uint64_t count, sum;
};

/* Trial division by every integer up to the square root. */
static int is_prime(uint64_t n)
{
	uint64_t d;

	if (n < 2)
		return 0;
	for (d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static void *run_lane(void *arg)
{
	struct lane *l = arg;
	uint64_t n;

	for (n = l->first; n < l->first + RANGE; n++)
		if (is_prime(n)) {
			l->count++;
			l->sum += n;
		}
	return NULL;
}

/* A table the size of a real working set, so that the peak memory is
 * dominated by it and steady from run to run (the memory template gates
 * on it). */
static unsigned char ballast[16 << 20];

int main(int argc, char **argv)
{
	int lanes = argc > 1 ? atoi(argv[1]) : 1, i;
	pthread_t tid[64];
	struct lane lane[64];
	uint64_t count = 0, sum = 0;

	memset(ballast, lanes, sizeof(ballast));
	if (lanes < 1 || lanes > 64) {
		fprintf(stderr, "usage: bench LANES (1..64)\n");
		return 2;
	}
	for (i = 0; i < lanes; i++) {
		lane[i].first = BASE + (uint64_t)i * RANGE;
		lane[i].count = lane[i].sum = 0;
		pthread_create(&tid[i], NULL, run_lane, &lane[i]);
	}
	for (i = 0; i < lanes; i++) {
		pthread_join(tid[i], NULL);
		count += lane[i].count;
		sum += lane[i].sum;
	}
	printf("lanes=%d primes=%llu checksum=%llx\n", lanes, (unsigned long long)count,
	       (unsigned long long)(sum ^ count << 40));
	return 0;
}
