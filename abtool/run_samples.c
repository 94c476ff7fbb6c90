/* run_samples.c - the sample loop: every planned sample in plan order,
 * each stored as it completes (see run.h). */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "report.h"
#include "rules.h"
#include "runner.h"
#include "stopping.h"
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

/* The loop's state: what every sample of a row needs, and the counts. */
struct schedule {
	size_t nrows, pairs;
	const char **names;
	char **labels, **cpus, **first_checksum;
	struct ab_row_policy *policy;
	size_t *failed_pairs;
	uint8_t *pair_failed;
	uint8_t *active;            /* rows still running (a sequential plan stops rows) */
	size_t running;             /* how many */
	char *cwd[2], **env[2];
	struct ab_command *cmds, *cmds_b, *prepare, *cleanup;  /* cmds_b: side b's with `sides:` */
	size_t done, total, timed;
	int64_t spent_ns;           /* time of the samples run by this process */
	int64_t spent_before_ns;    /* wall time of the samples done before (resume) */
};

static int schedule_init(struct schedule *sc, struct ab_run *run)
{
	const struct ab_experiment *exp = run->exp;
	size_t i;
	int err = 0;

	memset(sc, 0, sizeof(*sc));
	sc->nrows = ab_experiment_nrows(exp);
	sc->pairs = (size_t)exp->pairs;
	sc->names = ab_run_metric_names(exp);
	sc->labels = ab_xcalloc(sc->nrows, sizeof(char *));
	sc->cpus = ab_xcalloc(sc->nrows, sizeof(char *));
	sc->first_checksum = ab_xcalloc(sc->nrows * 2, sizeof(char *));
	sc->policy = ab_xcalloc(sc->nrows, sizeof(*sc->policy));
	sc->failed_pairs = ab_xcalloc(sc->nrows, sizeof(size_t));
	sc->pair_failed = ab_xcalloc(sc->nrows * sc->pairs + 1, 1);
	sc->active = ab_xmalloc(sc->nrows);
	memset(sc->active, 1, sc->nrows);
	sc->running = sc->nrows;
	sc->cmds = expand_rows(exp, ab_experiment_side_command(exp, 0), sc->nrows, &err);
	if (err == 0)
		sc->cmds_b = expand_rows(exp, ab_experiment_side_command(exp, 1), sc->nrows, &err);
	if (err == 0)
		sc->prepare = expand_rows(exp, &exp->prepare, sc->nrows, &err);
	if (err == 0)
		sc->cleanup = expand_rows(exp, &exp->cleanup, sc->nrows, &err);
	if (err < 0)
		return err;
	for (i = 0; i < 2; i++) {
		struct ab_build_dep *deps = ab_run_side_deps(run, (int)i);
		/* two commands (sides:) run in the experiment's folder, a build in its tree */
		sc->cwd[i] = ab_path_absolute(exp->has_sides ? exp->dir : run->builds[i].dir, exp->workdir);
		sc->env[i] = ab_build_env(exp->env, deps, run->ndeps, exp->has_sides ? NULL : run->builds[i].dir);
		free(deps);
	}
	for (i = 0; i < sc->nrows; i++) {
		sc->labels[i] = ab_row_label(exp, i);
		sc->cpus[i] = ab_measure_row_cpus(exp, i);
		ab_experiment_row_policy(exp, i, &sc->policy[i]);
	}
	for (i = 0; i < run->nsamples; i++) {
		struct ab_sample *s = &run->samples[i];
		sc->total += s->status != AB_SAMPLE_SUPERSEDED && s->status != AB_SAMPLE_STOPPED;
		sc->done += s->status == AB_SAMPLE_DONE;
		if (s->status == AB_SAMPLE_DONE) {
			tolerated(s, sc->policy, sc->pairs, sc->failed_pairs, sc->pair_failed);
			checksum_breaks(s, sc->policy, sc->first_checksum);
			sc->spent_before_ns += s->wall_ns;
		}
	}
	return 0;
}

static void schedule_release(struct schedule *sc)
{
	size_t i;

	free_commands(sc->cmds, sc->nrows);
	free_commands(sc->cmds_b, sc->nrows);
	free_commands(sc->prepare, sc->nrows);
	free_commands(sc->cleanup, sc->nrows);
	for (i = 0; i < sc->nrows; i++) {
		free(sc->labels[i]);
		free(sc->cpus[i]);
	}
	free(sc->labels);
	free(sc->cpus);
	free(sc->first_checksum);
	free(sc->policy);
	free(sc->failed_pairs);
	free(sc->pair_failed);
	free(sc->active);
	free(sc->cwd[0]);
	free(sc->cwd[1]);
	ab_strv_free(sc->env[0]);
	ab_strv_free(sc->env[1]);
	free(sc->names);
}

/* Run one planned sample and store it. Returns 0 to go on, 1 when the run
 * stops early (run->stopped_early), or an error. */
static int sample_step(struct ab_run *run, struct schedule *sc, struct ab_sample *s)
{
	struct row_commands rc = {s->entry.side ? &sc->cmds_b[s->entry.row] : &sc->cmds[s->entry.row],
				  &sc->prepare[s->entry.row], &sc->cleanup[s->entry.row]};
	char when[64];
	int64_t t0;
	int err;

	if (ab_runner_interrupted())
		return ab_error_set(AB_EINTERRUPTED, "interrupted");
	if (run->events.sample_start)
		run->events.sample_start(run->events.ctx, &s->entry, sc->labels[s->entry.row], sc->done,
					 sc->total, sc->timed ? sc->spent_ns / (int64_t)sc->timed *
							       (int64_t)(sc->total - sc->done) : -1);
	/* the inputs' sizes and times around every sample (a hash would disturb the timing) */
	snprintf(when, sizeof(when), "before sample %u", (unsigned)s->entry.seq + 1);
	if (!ab_run_inputs_unchanged(run, when))
		return run->stopped_early = 1;
	t0 = ab_now_ns();
	if ((err = run_one(run, s, &rc, sc->cwd, sc->env, sc->cpus[s->entry.row])) < 0 ||
	    (err = ab_store_sample_put(run->store, run->meta.id, s, sc->names)) < 0)
		return err;
	snprintf(when, sizeof(when), "after sample %u", (unsigned)s->entry.seq + 1);
	if (!ab_run_inputs_unchanged(run, when))
		return run->stopped_early = 1;
	sc->spent_ns += ab_now_ns() - t0;
	sc->timed++;
	sc->done++;
	if (run->events.sample_done)
		run->events.sample_done(run->events.ctx, s, sc->labels[s->entry.row]);
	if (!tolerated(s, sc->policy, sc->pairs, sc->failed_pairs, sc->pair_failed) ||
	    checksum_breaks(s, sc->policy, sc->first_checksum))
		return run->stopped_early = 1;
	return 0;
}

/* Row r at a look: "lanes=1: ratio 0.534 [0.431, 0.614], 8/8 pair wins:
 * decided" (its repeated interval: valid at every look). New string. */
static char *look_line(const struct ab_analysis *a, size_t r, int decided)
{
	const struct ab_row_metric *m = &a->rows[r].metrics[a->primary];
	char *label = ab_row_label(a->exp, r), *out;

	if (!m->available)
		out = ab_xasprintf("%s: %s", label, m->unavailable);
	else if (isnan(m->st.ci_lower))
		out = ab_xasprintf("%s: ratio %.3f, %zu/%zu pair wins: %s", label, m->st.ratio, m->st.wins,
				   m->st.pairs, decided ? "decided" : "runs on");
	else  /* the repeated interval, and why when the estimate is not inside it */
		out = ab_xasprintf("%s: ratio %.3f [%.3f, %.3f]%s, %zu/%zu pair wins: %s", label, m->st.ratio,
				   m->st.ci_lower, m->st.ci_upper, m->st.ci_empty ? " (the looks' intervals do "
				   "not intersect: not decided)" : m->st.ratio < m->st.ci_lower ||
				   m->st.ratio > m->st.ci_upper ? " (the estimate of all pairs, outside)" : "",
				   m->st.wins, m->st.pairs, decided ? "decided" : "runs on");
	free(label);
	return out;
}

/*
 * The end of look k of a sequential plan (stopping.h): evaluate the rules
 * on the pairs so far, stop the rows they decide (or every row, once the
 * budget is spent) by marking their later samples stopped in the store,
 * and tell the caller. Returns 0 or a store error.
 */
static int look_end(struct ab_run *run, struct schedule *sc, size_t k)
{
	const struct ab_experiment *exp = run->exp;
	struct ab_analysis a;
	uint8_t *decided = ab_xcalloc(sc->nrows, 1);
	uint32_t *stop = NULL;
	size_t nstop = 0, i, r, running = 0;
	int budget, err = 0;

	char **lines = NULL;

	ab_analysis_run(&a, exp, run->samples, run->nsamples);
	ab_rules_evaluate(&a, NULL, NULL);
	ab_stopping_decided(&a, decided);
	for (r = 0; r < sc->nrows; r++)  /* the rows measured in this look, as they stand */
		if (sc->active[r] && a.rows[r].samples)
			ab_strv_push(&lines, look_line(&a, r, decided[r]));
	ab_analysis_release(&a);
	budget = exp->budget_ms > 0 && k + 1 < exp->seq.nlooks &&
		 sc->spent_before_ns + sc->spent_ns >= exp->budget_ms * 1000000;
	for (r = 0; r < sc->nrows; r++) {
		if (decided[r])
			sc->active[r] = 0;
		running += sc->active[r];  /* with the budget spent: the rows it stops undecided */
		if (budget)
			sc->active[r] = 0;
	}
	for (i = 0; i < run->nsamples; i++) {
		struct ab_sample *s = &run->samples[i];
		if (s->status != AB_SAMPLE_PLANNED || sc->active[s->entry.row] ||
		    ab_stopping_bucket(&exp->seq, &s->entry) <= k)
			continue;
		stop = ab_xrealloc(stop, (nstop + 1) * sizeof(*stop));
		stop[nstop++] = s->entry.seq;
		s->status = AB_SAMPLE_STOPPED;
	}
	if (nstop)
		err = ab_store_samples_stop(run->store, run->meta.id, stop, nstop);
	sc->total -= nstop;
	if (budget)
		run->budget_spent = 1;
	sc->running = budget ? 0 : running;
	if (!err && run->events.look_done && k + 1 < exp->seq.nlooks)
		run->events.look_done(run->events.ctx, k, exp->seq.looks[k], sc->nrows - running, running,
				      budget, lines);
	ab_strv_free(lines);
	free(stop);
	free(decided);
	return err;
}

int ab_run_samples(struct ab_run *run)
{
	const struct ab_experiment *exp = run->exp;
	struct schedule sc;
	size_t i, k, nbuckets = exp->sequential ? exp->seq.nlooks : 1;
	int err = 0;

	if (run->integrity)
		return 0;  /* a side did not build: nothing to measure */
	if ((err = schedule_init(&sc, run)) < 0)
		goto out;
	/* A fixed plan is one bucket, run in plan order; a sequential plan
	 * runs look by look (a pair re-planned by resume at the end of the
	 * plan runs within its own look), and stops rows at each look. */
	for (k = 0; k < nbuckets && err == 0 && !run->stopped_early && sc.running; k++) {
		for (i = 0; i < run->nsamples && err == 0; i++) {
			struct ab_sample *s = &run->samples[i];
			if (s->status != AB_SAMPLE_PLANNED || !sc.active[s->entry.row] ||
			    (exp->sequential && ab_stopping_bucket(&exp->seq, &s->entry) != k))
				continue;
			err = sample_step(run, &sc, s);
		}
		if (err > 0)
			err = 0;  /* stopped early: the verdict is invalid whatever else happens */
		if (err == 0 && !run->stopped_early && exp->sequential)
			err = look_end(run, &sc, k);
	}
	if (err == AB_EINTERRUPTED)
		ab_store_run_set_status(run->store, run->meta.id, "interrupted");
out:
	schedule_release(&sc);
	return err;
}
