/* executor.h - the seam between the scheduler and what runs a sample.
 *
 * The scheduler (run_samples.c) decides which planned samples run, in what
 * order, when a look ends, when a row stops, when the budget is spent and
 * when a failed sample stops the run; an executor runs the samples it is
 * handed and fills in what they measured. abtool runs samples as real
 * processes (ab_run_executor, run_exec.c: the runner, the zygote,
 * measure.c and extract.c). The unit tests hand the scheduler a scripted
 * executor that replays per-sample values and outcomes (time, CPU, exit
 * status, checksum, timeout, contention, an interrupt) so that the
 * decision logic is tested exactly, with no process and no clock
 * (tests/unit/scripted.h). Both go through the same scheduler, store and
 * analysis: only the source of the numbers differs.
 *
 * A job may hold two samples started together (the two sides of a duet
 * pair, run at the same instant on disjoint CPUs), so that a schedule of
 * simultaneous pairs needs no second interface. */
#ifndef AB_EXECUTOR_H
#define AB_EXECUTOR_H

#include <stddef.h>
#include <stdint.h>

struct ab_run;
struct ab_sample;
struct ab_command;

/* One sample to run, with what its row needs. Borrowed pointers, valid
 * for the call. */
struct ab_exec_job {
	struct ab_sample *sample;          /* the planned entry (status PLANNED); filled in */
	const struct ab_command *benchmark; /* the side's command, expanded for the row */
	const struct ab_command *prepare;  /* hooks expanded for the row; empty: none */
	const struct ab_command *cleanup;
	const char *cwd;                   /* the side's working folder */
	char *const *env;                  /* the side's environment changes (runner.h env_extra) */
	const char *cpus;                  /* the row's CPU list, or NULL */
};

struct ab_executor {
	/*
	 * Run jobs[0 .. n) and fill each job's sample: its status becomes
	 * AB_SAMPLE_DONE whatever the outcome (a failed or timed-out sample
	 * is a sample; s->error says why), with every metric value or NAN.
	 * n is 1 (one sample) or 2 (both sides of a pair, started at the
	 * same instant); an executor that cannot start two at once returns
	 * AB_EINVALID for n = 2 with a message. Returns 0; AB_EINTERRUPTED
	 * when an interrupt arrived before or during the samples (the
	 * samples in flight are not filled: the scheduler discards them);
	 * or another negative AB_E* code (the run cannot go on).
	 */
	int (*run)(const struct ab_executor *x, struct ab_run *run, struct ab_exec_job *jobs, size_t n);
	/* The clock of the budget and the progress line's estimate, in ns
	 * from an arbitrary origin (monotonic). */
	int64_t (*now_ns)(const struct ab_executor *x);
	/* 1 when the run must stop before its next sample (SIGINT, SIGTERM). */
	int (*interrupted)(const struct ab_executor *x);
	/* Wait until other processes use fewer than `cpus` CPUs, for at most
	 * `max_ns`; *waited_ns receives how long it waited. Returns 1 when
	 * the host became quiet, 0 when the wait ran out, AB_EINTERRUPTED. */
	int (*wait_quiet)(const struct ab_executor *x, double cpus, int64_t max_ns, int64_t *waited_ns);
	/* Where the host's fingerprint is read (env.h's `root`): "" for the
	 * real system; a scripted executor names a folder without /proc, so
	 * that its runs record no host and no busy processes, and wait for
	 * none. */
	const char *host_root;
	void *ctx;                         /* the executor's own state (borrowed) */
};

#endif
