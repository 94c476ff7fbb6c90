/* run_exec.c - the executor that runs samples as real processes
 * (executor.h): each sample a fresh process started by the runner
 * (runner.h, the zygote), measured by measure.c around the runner's timed
 * window, its checksum and metrics read by extract.c, its prepare and
 * cleanup hooks run outside that window. */
#include "run.h"
#include "error.h"
#include "executor.h"
#include "measure.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Every metric of a sample that produced none: unavailable (NAN). */
static void metrics_unavailable(struct ab_sample *s, size_t nmetrics)
{
	size_t i;

	if (s->metrics)
		return;
	s->nmetrics = nmetrics;
	s->metrics = ab_xmalloc((nmetrics ? nmetrics : 1) * sizeof(double));
	for (i = 0; i < nmetrics; i++)
		s->metrics[i] = NAN;
}

/* The last `cap` bytes of captured output, as a new string. */
static char *output_tail(const struct ab_output *o, size_t cap)
{
	size_t n = o->data ? o->len : 0;

	return ab_xstrndup(n > cap ? o->data + n - cap : (o->data ? o->data : ""), n > cap ? cap : n);
}

/* The most of a failed hook's output a sample keeps. */
#define HOOK_OUTPUT_TAIL 4096

/*
 * Run hook `cmd` (`what`: "prepare" or "cleanup", expanded for the row;
 * nothing when empty) for sample `s`, in the sample's folder with its
 * environment, outside the timed window. Returns 0 when it succeeded (or
 * there is none); 1 when it failed, recorded in `s` (its own message and
 * the tail of its output) unless `s` failed already; or a runner error.
 */
static int run_hook(struct ab_run *run, struct ab_sample *s, const char *what,
		    const struct ab_command *cmd, const char *cwd, char *const *env)
{
	struct ab_runner_spec spec;
	struct ab_runner_result r;
	char why[256];
	int err;

	if (!cmd->shell && !cmd->argv)
		return 0;
	memset(&spec, 0, sizeof(spec));
	spec.shell = cmd->shell;
	spec.argv = cmd->shell ? NULL : cmd->argv;
	spec.cwd = cwd;
	spec.env_extra = env;
	spec.timeout_ms = run->exp->timeout_ms;
	spec.stdin_null = 1;
	spec.output_cap = HOOK_OUTPUT_TAIL;
	if ((err = ab_runner_run(&r, &spec)) < 0) {
		ab_runner_result_release(&r);
		return err;
	}
	err = !r.exited || r.exit_code != 0 || r.timed_out;
	if (err && !s->error) {
		s->status = AB_SAMPLE_DONE;
		s->error = ab_xasprintf("%s: failed (%s)", what,
					ab_runner_describe(why, sizeof(why), &r, run->exp->timeout_ms));
		free(s->stdout_text);
		free(s->stderr_text);
		s->stdout_text = output_tail(&r.out, HOOK_OUTPUT_TAIL);
		s->stderr_text = output_tail(&r.err, HOOK_OUTPUT_TAIL);
	}
	ab_runner_result_release(&r);
	return err;
}

/* Run one job as a fresh process: its prepare hook, the timed sample
 * (ab_runner_run between ab_measure_begin and ab_measure_end), the
 * extraction of its checksum and metrics, its cleanup hook. 0, or a
 * runner error (AB_EINTERRUPTED, AB_EIO). */
static int run_one(struct ab_run *run, const struct ab_exec_job *job)
{
	struct ab_sample *s = job->sample;
	const struct ab_command *cmd = job->benchmark;
	struct ab_runner_spec spec;
	struct ab_runner_result r;
	char why[256], **wrapped = NULL, **padded = NULL, *pad;
	int err;

	if ((err = run_hook(run, s, "prepare", job->prepare, job->cwd, job->env))) {
		metrics_unavailable(s, run->exp->nmetrics);
		return err < 0 ? err : 0;  /* a failed prepare: the sample failed, not run */
	}
	memset(&spec, 0, sizeof(spec));
	ab_measure_wrap(run->measure, cmd, &wrapped);
	spec.shell = wrapped ? NULL : cmd->shell;
	spec.argv = wrapped ? wrapped : cmd->argv;
	spec.cwd = job->cwd;
	spec.env_extra = job->env;
	spec.cpus = job->cpus;
	spec.no_aslr = !run->exp->aslr;
	spec.fork_child = ab_measure_needs_fork(run->measure);
	if ((pad = ab_measure_padding(run->measure, &s->entry, &s->padding_bytes))) {
		char *const *e;
		for (e = job->env; e && *e; e++)
			ab_strv_push(&padded, ab_xstrdup(*e));
		ab_strv_push(&padded, pad);
		spec.env_extra = padded;
	}
	spec.timeout_ms = run->exp->timeout_ms;
	spec.hash_stdout = ab_extract_wants_stdout_hash(run->extractor);
	spec.stdin_null = 1;  /* a benchmark reading stdin must not steal abtool's */
	if (run->exp->checksum.kind == AB_CHECKSUM_FILE) {
		/* a file left by the previous sample must not pass for this one's */
		char *path = ab_path_absolute(job->cwd, run->exp->checksum.arg);
		unlink(path);
		free(path);
	}
	s->started_unix = (int64_t)time(NULL);
	ab_measure_begin(run->measure);
	err = ab_runner_run(&r, &spec);
	ab_strv_free(wrapped);
	ab_strv_free(padded);
	if (err < 0) {
		ab_runner_result_release(&r);
		return err;
	}
	s->status = AB_SAMPLE_DONE;
	s->wall_ns = r.wall_ns;
	s->user_ns = r.user_ns;
	s->sys_ns = r.sys_ns;
	s->maxrss_bytes = r.maxrss_bytes;
	s->minflt = r.minflt;
	s->majflt = r.majflt;
	s->nvcsw = r.nvcsw;
	s->nivcsw = r.nivcsw;
	s->exit_code = r.exited ? r.exit_code : -1;
	s->signal = r.signal;
	s->timed_out = r.timed_out;
	s->runq_ns = r.runq_ns;
	s->started_ns = r.start_ns > 0 ? ab_epoch_ns(r.start_ns) : -1;
	if (!r.exited || r.exit_code != 0 || r.timed_out)
		s->error = ab_xstrdup(ab_runner_describe(why, sizeof(why), &r, run->exp->timeout_ms));
	else
		ab_extract_sample(run->extractor, s, &r, job->cwd);
	metrics_unavailable(s, run->exp->nmetrics);
	ab_measure_end(run->measure, s, &r);
	if (s->error) {
		/* Keep what a failed sample printed: it is the evidence. */
		s->stdout_text = ab_xstrndup(r.out.data ? r.out.data : "", r.out.len);
		s->stderr_text = ab_xstrndup(r.err.data ? r.err.data : "", r.err.len);
	}
	ab_runner_result_release(&r);
	err = run_hook(run, s, "cleanup", job->cleanup, job->cwd, job->env);
	return err < 0 ? err : 0;
}


static int exec_run(const struct ab_executor *x, struct ab_run *run, struct ab_exec_job *jobs, size_t n)
{
	size_t i;
	int err = 0;

	(void)x;
	if (n != 1)
		return ab_error_set(AB_EINVALID, "this executor runs one sample at a time, not %zu", n);
	for (i = 0; i < n && err == 0; i++)
		err = run_one(run, &jobs[i]);
	return err;
}

static int64_t exec_now_ns(const struct ab_executor *x)
{
	(void)x;
	return ab_now_ns();
}

static int exec_interrupted(const struct ab_executor *x)
{
	(void)x;
	return ab_runner_interrupted();
}

/* The host's other processes' CPUs, read over windows of 100 ms until
 * below `cpus` or `max_ns` has passed. */
static int exec_wait_quiet(const struct ab_executor *x, double cpus, int64_t max_ns, int64_t *waited_ns)
{
	int64_t t0 = ab_now_ns();
	double used;

	(void)x;
	*waited_ns = 0;
	for (;;) {
		if (ab_runner_interrupted())
			return ab_error_set(AB_EINTERRUPTED, "interrupted");
		if (ab_measure_host_cpus(&used, 100000000) < 0)
			return 1;  /* nothing to wait for that can be seen */
		*waited_ns = ab_now_ns() - t0;
		if (used < cpus)
			return 1;
		if (*waited_ns >= max_ns)
			return 0;
	}
}

const struct ab_executor ab_run_executor = {exec_run, exec_now_ns, exec_interrupted, exec_wait_quiet, "", NULL};
