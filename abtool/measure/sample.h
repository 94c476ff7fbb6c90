/* sample.h - one sample: a planned entry of the schedule and, once run,
 * what was measured. Samples flow from the runner into the store and from
 * the store into the statistics; this struct is that hand-over. */
#ifndef AB_SAMPLE_H
#define AB_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

enum ab_sample_status {
	AB_SAMPLE_PLANNED = 0,    /* stored with the plan, not run yet */
	AB_SAMPLE_DONE = 1,       /* ran; see the fields below */
	AB_SAMPLE_SUPERSEDED = 2, /* ran, but its pair was interrupted and re-run whole on resume */
	AB_SAMPLE_STOPPED = 3,    /* stored with the plan, never run: a sequential plan decided
	                             its row at an earlier look, or its budget was spent */
};

/* Quality flags (bit set), stored as names. */
enum ab_sample_flag {
	AB_FLAG_OUTPUT_TRUNCATED = 1 << 0, /* stdout or stderr exceeded the capture cap */
	AB_FLAG_NO_CHECKSUM = 1 << 1,      /* the checksum was expected but not found */
	AB_FLAG_CONTENDED = 1 << 3,        /* other processes disturbed it: its process waited for a
	                                      CPU for more than contention.max_cpu_wait of its time */
	AB_FLAG_LEFTOVERS = 1 << 4,        /* processes it started were still running when it
	                                      ended, and were killed (ab_runner_result.leftovers) */
	AB_FLAG_RERUN = 1 << 5,            /* a superseded sample whose pair was contended and was
	                                      run again, whole (experiment.h, ab_contention) */
	AB_FLAG_NOT_QUIET = 1 << 6,        /* the first sample of a pair that started when its wait
	                                      for a quiet host (contention.quiet) ran out */
};

struct ab_sample {
	struct ab_plan_entry entry;
	enum ab_sample_status status;
	int64_t started_unix;         /* wall-clock start, seconds since the epoch */
	int64_t started_ns;           /* the start of the timed window, ns since the epoch (the
	                                 runner's monotonic clock moved onto the wall clock), or
	                                 -1 when not measured */

	int64_t wall_ns, user_ns, sys_ns, maxrss_bytes;
	int64_t minflt, majflt, nvcsw, nivcsw;
	int exit_code;                /* -1 when killed by a signal or not started */
	int signal;                   /* 0, or the signal that ended it */
	int timed_out;
	unsigned flags;               /* enum ab_sample_flag */

	char *checksum;               /* new string, or NULL when none was expected/found */
	double *metrics;              /* one value per experiment metric (ab_experiment.metrics
	                                 order), NAN when unavailable; new memory */
	size_t nmetrics;
	char *error;                  /* why the sample failed (NULL when it succeeded), e.g.
	                                 "exit 1", "checksum not found in stdout"; new */
	char *unavailable;            /* JSON object {metric: why it has no value}, or NULL */
	int32_t padding_bytes;        /* environment padding of the pair, or -1 when off */
	int64_t other_cpu_ns;         /* CPU time other processes used during the sample, or -1 */
	int64_t waited_ns;            /* the first sample of a pair: how long it waited for a quiet
	                                 host before it started (contention.quiet), or -1 */
	int64_t runq_ns;              /* time the sample's process waited on a CPU's run queue
	                                 (ab_runner_result.runq_ns), or -1 when unknown */
	char *stdout_text;            /* captured output kept for failed samples, else NULL */
	char *stderr_text;
};

/* 1 when the sample ran and succeeded (exit 0, no signal, no timeout, no
 * extraction error). */
int ab_sample_ok(const struct ab_sample *s);

/* Free the strings and arrays of `s` (not `s` itself). */
void ab_sample_release(struct ab_sample *s);

/* Release every sample of an array, then the array. */
void ab_samples_free(struct ab_sample *samples, size_t n);

/* Flags as "output_truncated,no_checksum" into buf (empty when none). */
const char *ab_sample_flags_string(char *buf, size_t size, unsigned flags);

/* Parse that form back; unknown names are ignored. */
unsigned ab_sample_flags_parse(const char *text);

#endif
