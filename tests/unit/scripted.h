/* scripted.h - a scripted sample source for the unit tests: an executor
 * (abtool/run/executor.h) that replays per-sample values and outcomes instead
 * of starting processes, so that the scheduler's decisions (looks,
 * stopping, budgets, failed samples, resume, shards) are tested exactly
 * through the real scheduler, store, analysis and rules. Nothing here is
 * a stand-in for a real part: the store is a real sqlite file (or a
 * PostgreSQL database), the experiment is parsed from YAML by the real
 * parser; only the numbers a process would have produced come from the
 * script, and the clock is the script's. */
#ifndef AB_TEST_SCRIPTED_H
#define AB_TEST_SCRIPTED_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "executor.h"
#include "plan.h"
#include "run.h"
#include "sample.h"
#include "store.h"

/* What one sample of the script does. Zero means: a successful sample of
 * value 0, no checksum, no flag. */
struct scripted_sample {
	double value;            /* every metric's value (wall_ns, cpu_ns, … alike), in its unit */
	double cpu;              /* cpu_ns's value instead, when > 0 */
	int64_t wall_ns;         /* what the scripted clock advances by; 0: `value` */
	int exit_code;           /* non-zero: the sample failed with this exit status */
	int timed_out;           /* 1: killed at the timeout */
	const char *checksum;    /* the checksum read from its output, or NULL (borrowed) */
	unsigned flags;          /* enum ab_sample_flag (AB_FLAG_CONTENDED, …) */
	int64_t other_cpu_ns;    /* CPU time of other processes during it; 0 is stored as -1 */
	int64_t runq_ns;         /* its process's run-queue wait; 0 is stored as -1 */
	int interrupt;           /* 1: SIGINT arrives as this sample starts: nothing runs */
};

/* The script: what sample `e` does the `attempt`-th time its (row, pair
 * or warmup, side) runs (0 the first time; a pair re-planned by resume
 * runs again). */
typedef void (*scripted_fn)(void *ctx, const struct ab_plan_entry *e, unsigned attempt,
			    struct scripted_sample *out);

/* The executor and what it saw. */
struct scripted {
	struct ab_executor x;    /* hand &x to ab_run_start and ab_run_resume */
	scripted_fn fn;
	void *ctx;
	int64_t clock_ns;        /* the scripted clock: the samples' wall_ns so far */
	size_t calls;            /* samples handed over, interrupted ones included */
	size_t interrupt_at;     /* > 0: an interrupt arrives as call number interrupt_at starts
	                            (1-based), whatever the script says; 0: none */
	int interrupted;         /* an interrupt arrived (the scheduler then stops) */
	struct ab_plan_entry *log; /* the entries run, in order (new memory) */
	size_t nlog;
	unsigned *attempts;      /* per (row, pair or warmup, side) key: runs so far */
	size_t nattempts;
	const struct ab_run_events *events; /* handed to ab_run_start/resume, or NULL */
	/* contention: {quiet}: how long the wait before pair number `pairs_started` lasts, in
	 * scripted time, and whether the host became quiet; NULL: quiet at once */
	int (*quiet)(void *ctx, size_t pairs_started, int64_t max_ns, int64_t *waited_ns);
	size_t pairs_started;    /* quiet waits so far */
	/* called by scripted_start between parsing the experiment and starting
	 * its run, to change what a command would (a bisect step's plan); NULL: nothing */
	void (*prepare)(void *ctx, struct ab_experiment *exp);
};

/* Set up `sc` to replay `fn` (with `ctx`). Release with scripted_release. */
void scripted_init(struct scripted *sc, scripted_fn fn, void *ctx);
void scripted_release(struct scripted *sc);

/* A run of a scripted experiment from start to finish, or to an interrupt. */
struct scripted_run {
	struct ab_experiment exp;
	struct ab_run run;
	struct ab_analysis analysis;
	json_t *doc;             /* the report document, or NULL when interrupted */
	int err;                 /* what ab_run_samples returned (0, AB_EINTERRUPTED, …) */
	int64_t id;              /* the run's id in the store */
};

/*
 * Parse experiment `yaml` (written to dir/exp.yaml), start a run with
 * `seed` in `store` (opt: other options, may be NULL), run its samples
 * with `sc`, and when not interrupted finish it (analysis, rules, stored
 * verdict, document). Aborts the test on any error but an interrupt.
 * Release with scripted_run_release. `out` holds pointers into itself
 * (the run's experiment): fill it in place, never copy it.
 */
void scripted_start(struct scripted_run *out, struct ab_store *store, const char *dir, const char *yaml,
		    uint64_t seed, const struct ab_run_options *opt, struct scripted *sc);

/* Resume run `id` of `store` with `sc` and finish it, as `abtool resume`
 * does. Aborts the test on any error but an interrupt. */
void scripted_resume(struct scripted_run *out, struct ab_store *store, int64_t id, struct scripted *sc);

void scripted_run_release(struct scripted_run *r);

/* The stored samples of run `id` with status `status` (count). */
size_t scripted_count(struct ab_store *store, const struct ab_experiment *exp, int64_t id,
		      enum ab_sample_status status);

#endif
