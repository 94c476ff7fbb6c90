/* run_samples.c - the sample loop: every planned sample in plan order,
 * each stored as it completes (see run.h). */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Expand command `tmpl` (the benchmark, prepare: or cleanup:) of every row
 * once; an empty command stays empty. */
static struct ab_command *expand_rows(const struct ab_experiment *exp, const struct ab_command *tmpl,
				      size_t nrows, int *err)
{
	struct ab_command *cmds = ab_xcalloc(nrows, sizeof(*cmds));
	size_t r;

	*err = 0;
	for (r = 0; r < nrows && !*err && (tmpl->shell || tmpl->argv); r++)
		*err = ab_command_expand(&cmds[r], tmpl, exp, r);
	return cmds;
}

/* Free the `n` commands of expand_rows (NULL: none). */
static void free_commands(struct ab_command *cmds, size_t n)
{
	size_t r;

	for (r = 0; cmds && r < n; r++)
		ab_command_release(&cmds[r]);
	free(cmds);
}

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

/* The commands of one row: the benchmark and its hooks. */
struct row_commands {
	const struct ab_command *benchmark, *prepare, *cleanup;
};

static int run_one(struct ab_run *run, struct ab_sample *s, const struct row_commands *rc,
		   char *const *cwd, char **const *env, const char *cpus)
{
	const struct ab_command *cmd = rc->benchmark;
	struct ab_runner_spec spec;
	struct ab_runner_result r;
	char why[256], **wrapped = NULL, **padded = NULL, *pad;
	int err;

	if ((err = run_hook(run, s, "prepare", rc->prepare, cwd[s->entry.side], env[s->entry.side]))) {
		metrics_unavailable(s, run->exp->nmetrics);
		return err < 0 ? err : 0;  /* a failed prepare: the sample failed, not run */
	}
	memset(&spec, 0, sizeof(spec));
	ab_measure_wrap(run->measure, cmd, &wrapped);
	spec.shell = wrapped ? NULL : cmd->shell;
	spec.argv = wrapped ? wrapped : cmd->argv;
	spec.cwd = cwd[s->entry.side];
	spec.env_extra = env[s->entry.side];
	spec.cpus = cpus;
	spec.no_aslr = !run->exp->aslr;
	spec.fork_child = ab_measure_needs_fork(run->measure);
	if ((pad = ab_measure_padding(run->measure, &s->entry, &s->padding_bytes))) {
		char *const *e;
		for (e = env[s->entry.side]; e && *e; e++)
			ab_strv_push(&padded, ab_xstrdup(*e));
		ab_strv_push(&padded, pad);
		spec.env_extra = padded;
	}
	spec.timeout_ms = run->exp->timeout_ms;
	spec.hash_stdout = ab_extract_wants_stdout_hash(run->extractor);
	spec.stdin_null = 1;  /* a benchmark reading stdin must not steal abtool's */
	if (run->exp->checksum.kind == AB_CHECKSUM_FILE) {
		/* a file left by the previous sample must not pass for this one's */
		char *path = ab_path_absolute(cwd[s->entry.side], run->exp->checksum.arg);
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
	if (!r.exited || r.exit_code != 0 || r.timed_out)
		s->error = ab_xstrdup(ab_runner_describe(why, sizeof(why), &r, run->exp->timeout_ms));
	else
		ab_extract_sample(run->extractor, s, &r, cwd[s->entry.side]);
	metrics_unavailable(s, run->exp->nmetrics);
	ab_measure_end(run->measure, s, &r);
	if (s->error) {
		/* Keep what a failed sample printed: it is the evidence. */
		s->stdout_text = ab_xstrndup(r.out.data ? r.out.data : "", r.out.len);
		s->stderr_text = ab_xstrndup(r.err.data ? r.err.data : "", r.err.len);
	}
	ab_runner_result_release(&r);
	err = run_hook(run, s, "cleanup", rc->cleanup, cwd[s->entry.side], env[s->entry.side]);
	return err < 0 ? err : 0;
}

/* Whether a finished sample lets the run go on: a success, or a timeout
 * in a pair the row's allow_failed_pairs still tolerates. `failed_pairs`
 * counts the pairs with a timeout per row, `pair_failed` marks them (row
 * * pairs + pair), so that both sides of one pair timing out count once,
 * as analysis.c counts them. */
static int tolerated(const struct ab_sample *s, const struct ab_row_policy *policy, size_t pairs,
		     size_t *failed_pairs, uint8_t *pair_failed)
{
	size_t row = s->entry.row, slot;

	if (ab_sample_ok(s))
		return 1;
	if (!s->timed_out || s->entry.pair < 0 || (size_t)s->entry.pair >= pairs)
		return 0;
	slot = row * pairs + (size_t)s->entry.pair;
	if (pair_failed[slot])
		return 1;
	if (failed_pairs[row] < policy[row].allow_failed_pairs) {
		pair_failed[slot] = 1;
		failed_pairs[row]++;
		return 1;
	}
	return 0;
}

/* Whether a sample's checksum breaks the row's integrity: it differs from
 * the first checksum of the row (of its side, under may_change). */
static int checksum_breaks(const struct ab_sample *s, const struct ab_row_policy *policy,
			   char **first)
{
	size_t slot = s->entry.row * 2 + (policy[s->entry.row].checksum_may_change ? s->entry.side : 0);

	if (!s->checksum || !ab_sample_ok(s))
		return 0;
	if (!first[slot]) {
		first[slot] = s->checksum;
		return 0;
	}
	return strcmp(first[slot], s->checksum) != 0;
}

int ab_run_samples(struct ab_run *run)
{
	const struct ab_experiment *exp = run->exp;
	size_t nrows = ab_experiment_nrows(exp), i, done = 0, total = 0;
	const char **names = ab_run_metric_names(exp);
	char **labels = ab_xcalloc(nrows, sizeof(*labels)), **cpus = ab_xcalloc(nrows, sizeof(*cpus));
	char **first_checksum = ab_xcalloc(nrows * 2, sizeof(char *));
	struct ab_row_policy *policy = ab_xcalloc(nrows, sizeof(*policy));
	size_t *failed_pairs = ab_xcalloc(nrows, sizeof(*failed_pairs)), pairs = (size_t)exp->pairs;
	uint8_t *pair_failed = ab_xcalloc(nrows * pairs + 1, 1);
	char *cwd[2] = {NULL, NULL}, **env[2] = {NULL, NULL};
	struct ab_command *cmds = NULL, *cmds_b = NULL, *prepare = NULL, *cleanup = NULL;
	char when[64];
	int64_t spent_ns = 0;
	size_t timed = 0;
	int err = 0;

	if (run->integrity)
		goto out;  /* a side did not build: nothing to measure */
	cmds = expand_rows(exp, ab_experiment_side_command(exp, 0), nrows, &err);
	if (err == 0)
		cmds_b = expand_rows(exp, ab_experiment_side_command(exp, 1), nrows, &err);
	if (err == 0)
		prepare = expand_rows(exp, &exp->prepare, nrows, &err);
	if (err == 0)
		cleanup = expand_rows(exp, &exp->cleanup, nrows, &err);
	if (err < 0)
		goto out;
	for (i = 0; i < 2; i++) {
		struct ab_build_dep *deps = ab_run_side_deps(run, (int)i);
		/* two commands (sides:) run in the experiment's folder, a build in its tree */
		cwd[i] = ab_path_absolute(exp->has_sides ? exp->dir : run->builds[i].dir, exp->workdir);
		env[i] = ab_build_env(exp->env, deps, run->ndeps, exp->has_sides ? NULL : run->builds[i].dir);
		free(deps);
	}
	for (i = 0; i < nrows; i++) {
		labels[i] = ab_row_label(exp, i);
		cpus[i] = ab_measure_row_cpus(exp, i);
		ab_experiment_row_policy(exp, i, &policy[i]);
	}
	for (i = 0; i < run->nsamples; i++) {
		struct ab_sample *s = &run->samples[i];
		total += s->status != AB_SAMPLE_SUPERSEDED;
		done += s->status == AB_SAMPLE_DONE;
		if (s->status == AB_SAMPLE_DONE) {
			tolerated(s, policy, pairs, failed_pairs, pair_failed);
			checksum_breaks(s, policy, first_checksum);
		}
	}
	for (i = 0; i < run->nsamples; i++) {
		struct ab_sample *s = &run->samples[i];
		int64_t t0;

		if (s->status != AB_SAMPLE_PLANNED)
			continue;
		if (ab_runner_interrupted()) {
			err = ab_error_set(AB_EINTERRUPTED, "interrupted");
			break;
		}
		if (run->events.sample_start)
			run->events.sample_start(run->events.ctx, &s->entry, labels[s->entry.row], done, total,
						 timed ? spent_ns / (int64_t)timed * (int64_t)(total - done) : -1);
		/* the inputs' sizes and times around every sample (a hash would disturb the timing) */
		snprintf(when, sizeof(when), "before sample %u", (unsigned)s->entry.seq + 1);
		if (!ab_run_inputs_unchanged(run, when)) {
			run->stopped_early = 1;
			break;
		}
		t0 = ab_now_ns();
		{
			struct row_commands rc = {s->entry.side ? &cmds_b[s->entry.row] : &cmds[s->entry.row],
						  &prepare[s->entry.row], &cleanup[s->entry.row]};
			if ((err = run_one(run, s, &rc, cwd, env, cpus[s->entry.row])) < 0)
				break;
		}
		if ((err = ab_store_sample_put(run->store, run->meta.id, s, names)) < 0)
			break;
		snprintf(when, sizeof(when), "after sample %u", (unsigned)s->entry.seq + 1);
		if (!ab_run_inputs_unchanged(run, when)) {
			run->stopped_early = 1;
			break;
		}
		spent_ns += ab_now_ns() - t0;
		timed++;
		done++;
		if (run->events.sample_done)
			run->events.sample_done(run->events.ctx, s, labels[s->entry.row]);
		if (!tolerated(s, policy, pairs, failed_pairs, pair_failed) || checksum_breaks(s, policy, first_checksum)) {
			run->stopped_early = 1;
			break;
		}
	}
	if (err == AB_EINTERRUPTED)
		ab_store_run_set_status(run->store, run->meta.id, "interrupted");
out:
	free_commands(cmds, nrows);
	free_commands(cmds_b, nrows);
	free_commands(prepare, nrows);
	free_commands(cleanup, nrows);
	for (i = 0; i < nrows; i++) {
		free(labels[i]);
		free(cpus[i]);
	}
	free(labels);
	free(cpus);
	free(first_checksum);
	free(policy);
	free(failed_pairs);
	free(pair_failed);
	free(cwd[0]);
	free(cwd[1]);
	ab_strv_free(env[0]);
	ab_strv_free(env[1]);
	free(names);
	return err;
}
