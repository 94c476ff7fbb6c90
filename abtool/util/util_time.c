/* util_time.c - the clocks (see util.h). */
#include "util.h"
#include "error.h"

#include <time.h>

int64_t ab_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t ab_epoch_ns(int64_t monotonic_ns)
{
	struct timespec wall;
	int64_t mono = ab_now_ns();

	clock_gettime(CLOCK_REALTIME, &wall);
	return monotonic_ns + ((int64_t)wall.tv_sec * 1000000000LL + wall.tv_nsec - mono);
}

void ab_utc_iso8601(char *buf, size_t size, int64_t unix_seconds)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
