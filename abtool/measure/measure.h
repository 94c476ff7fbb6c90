/* measure.h - what a sample measures beyond the runner's clock and
 * rusage, set up around ab_runner_run (outside its timed window): CPU
 * time other processes used during the sample (from /proc/stat), hardware
 * counters (perf_event_open), instruction counts under valgrind's
 * cachegrind, and the per-pair environment padding of Mytkowicz et al.
 * (2009). docs/measurement.md. */
#ifndef AB_MEASURE_H
#define AB_MEASURE_H

#include <stdint.h>

#include "config.h"
#include "runner.h"
#include "sample.h"

struct ab_measure;

/*
 * Prepare the measurements the experiment asks for (new; free with
 * ab_measure_free). Never fails: what cannot be measured here (no
 * hardware counters in a VM, no valgrind) is remembered with its reason
 * and reported per sample as unavailable.
 */
struct ab_measure *ab_measure_new(const struct ab_experiment *exp, uint64_t seed);

void ab_measure_free(struct ab_measure *m);

/*
 * The command to run for `cmd`: unchanged, or wrapped in valgrind
 * --tool=cachegrind when cachegrind_instructions is measured. `*argv_out`
 * receives new memory to free with ab_strv_free when it is set (then use
 * it as the spec's argv and no shell); NULL means run `cmd` as it is.
 */
void ab_measure_wrap(const struct ab_measure *m, const struct ab_command *cmd, char ***argv_out);

/* The environment padding of one pair ("ABTOOL_PADDING=xxx…", new string)
 * and its length in bytes, or NULL and -1 when padding is off. The same
 * for both samples of a pair; derived from the seed, row and pair. */
char *ab_measure_padding(const struct ab_measure *m, const struct ab_plan_entry *e, int32_t *bytes);

/* 1 when samples must start from abtool itself (fork), so that hardware
 * counters opened with inherit follow them (the zygote's children are not
 * abtool's descendants in perf's sense). */
int ab_measure_needs_fork(const struct ab_measure *m);

/* The CPU list a row's samples run on, from `affinity:` (new string), or
 * NULL when the experiment sets none. With per_lane, a row whose lanes
 * value is N gets the first N CPUs of the list (all of it when N is
 * larger). */
char *ab_measure_row_cpus(const struct ab_experiment *exp, size_t row);

/* Just before ab_runner_run: read /proc/stat, enable counters. */
void ab_measure_begin(struct ab_measure *m);

/*
 * Just after: fill s->other_cpu_ns, the CONTENDED flag (the sample's
 * process waited on a run queue for more than contention.max_cpu_wait of
 * its wall time, r->runq_ns; where the kernel keeps no run-queue wait,
 * other processes used more than half a CPU on average, and at least 3
 * clock ticks), the
 * values of perf and cachegrind metrics in s->metrics (by the
 * experiment's metric order) and s->unavailable for those that could not
 * be measured. `r` is the runner's result of this sample.
 */
void ab_measure_end(struct ab_measure *m, struct ab_sample *s, const struct ab_runner_result *r);

/*
 * How many CPUs the host's processes used on average over the next
 * `window_ns` (busy clock ticks of /proc/stat: user, nice, system, irq,
 * softirq, steal), into *cpus; the caller sleeps meanwhile, so its own
 * share is nil. Sleeps `window_ns` (interrupted early by a signal, which
 * the result then covers). 0, or -1 when /proc/stat cannot be read.
 */
int ab_measure_host_cpus(double *cpus, int64_t window_ns);

/* Parse a "0-3,6" CPU list into `set`; returns the CPUs in order in
 * `cpus` (up to max) and their count, or -1 when the text is invalid. */
long ab_measure_cpu_list(const char *text, int *cpus, long max);

#endif
