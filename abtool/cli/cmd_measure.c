/* cmd_measure.c - what the measuring commands (run, calibrate, resume)
 * share around the run: signals, the end of a run, and what to print when
 * it is interrupted or fails (see cmd.h). */
#include "cmd.h"
#include "calibrate.h"
#include "error.h"
#include "runner.h"
#include "util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A subset run (--row): which rows it measures, and the base rows added
 * for the scaling predicates. */
static void print_subset(const struct ab_experiment *exp)
{
	size_t r, nrows = ab_experiment_nrows(exp), n = 0;
	char *const *s;

	if (!exp || !exp->row_subset)
		return;
	for (r = 0; r < nrows; r++)
		n += (size_t)ab_experiment_row_selected(exp, r);
	fprintf(stderr, "abtool: a partial run of %zu of %zu rows (", n, nrows);
	if (exp->shard_count)
		fprintf(stderr, "--shard %d/%d", exp->shard_index, exp->shard_count);
	for (s = exp->subset_specs; s && *s; s++)
		fprintf(stderr, "%s--row %s", s == exp->subset_specs ? "" : ", ", *s);
	fprintf(stderr, "): it sets no design's standing\n");
	for (s = exp->subset_added; s && *s; s++)
		fprintf(stderr, "abtool: row %s is added: a scaling predicate needs it as the base row\n", *s);
}

int cmd_measure(struct cmd_measure *m)
{
	struct cmd_output *out = &m->args->out;
	struct ab_analysis analysis;
	struct ab_run_events events;
	json_t *doc = NULL;
	int err, rc;

	memset(&analysis, 0, sizeof(analysis));
	cmd_progress_init(out);
	out->store_flag = m->args->store;
	if (m->exp_path && (err = ab_experiment_load(&m->exp, m->exp_path)) < 0) {
		rc = cmd_fail(err);
		ab_experiment_release(&m->exp);
		return rc;
	}
	if (m->loaded && (rc = m->loaded(m)) != 0)
		goto out;
	cmd_install_signals();
	events = cmd_run_events(out);
	out->run = &m->run;
	/* The store lives with the experiment's repository; two commands
	 * (sides:) outside any have the lookup without one. */
	if ((err = cmd_open_store(&m->store, m->args->store,
				  m->exp_path && (!m->exp.has_sides || cmd_store_in_repository(m->exp.repo))
				  ? m->exp.repo : NULL, CMD_STORE_WRITE)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (m->exp_path)
		cmd_store_experiment_project(m->store, &m->exp);
	if (m->opened && (rc = m->opened(m)) != 0)
		goto out;
	err = m->start ? m->start(m, &events)
		       : ab_run_start(&m->run, &m->exp, m->store, &m->args->run, &events, NULL);
	if (err == 0 && m->started)
		err = m->started(m);
	if (err == 0 && !out->quiet)
		print_subset(m->run.exp);
	if (err == 0 && !out->quiet && ab_run_artifacts_identical(&m->run))
		cmd_warn("every declared artifact is byte-identical on both sides: did the change reach "
			 "the build? The run still counts (the benchmark may read its workload from the "
			 "tree), and history, show and designs mark it");
	if (err == 0)
		err = ab_run_samples(&m->run);
	rc = cmd_finish_run(out, &m->run, err, &analysis, &doc);
	if (doc && m->finished)
		m->finished(m, doc);
	/* a calibration decides nothing: success unless it is invalid or failed */
	if (doc && m->run.kind && !strcmp(m->run.kind, "calibrate") && analysis.verdict != AB_INVALID &&
	    rc <= AB_EXIT_INCONCLUSIVE)
		rc = 0;
out:
	json_decref(doc);
	ab_analysis_release(&analysis);
	{
		/* the cap after the run, once its entries are let go (the last used now) */
		char *cache_dir = m->run.cache_dir ? ab_xstrdup(m->run.cache_dir) : NULL;
		int started = m->store != NULL;

		ab_run_release(&m->run);
		if (started)
			cmd_cache_cap(cache_dir, m->store, out->quiet);
		free(cache_dir);
	}
	ab_store_close(m->store);
	ab_experiment_release(&m->exp);
	return rc;
}

void cmd_print_calibration(FILE *f, struct ab_store *store, const struct ab_experiment *exp)
{
	json_t *doc = NULL;
	char **advice, **a;

	if (ab_store_latest_calibration(store, exp->hash, &doc) < 0 || !doc)
		return;
	advice = ab_calibrate_advice(json_object_get(doc, "calibration"), exp->pairs);
	fprintf(f, "calibration (run %lld, %s):\n", (long long)json_integer_value(json_object_get(doc, "run_id")),
		json_string_value(json_object_get(doc, "created_at")));
	for (a = advice; a && *a; a++)
		fprintf(f, "  %s\n", *a);
	ab_strv_free(advice);
	json_decref(doc);
}

int cmd_finish_run(struct cmd_output *out, struct ab_run *run, int err, struct ab_analysis *analysis,
		   json_t **doc)
{
	int rc;

	cmd_progress_end(out, err == 0);
	if (err == AB_EINTERRUPTED)
		return cmd_interrupted(run);
	if (err < 0 || (err = ab_run_finish(run, analysis, doc)) < 0)
		return cmd_run_failed(run, err);
	/* after the verdict is stored: profiles decide nothing */
	if (cmd_profile_after_run(out, run) == AB_EINTERRUPTED)
		return 128 + (ab_runner_interrupted() ? ab_runner_interrupted() : SIGINT);
	if (run->exp->profile)
		out->profiles = cmd_profiles_json(run->store, run->meta.id);
	rc = cmd_emit_reports(out, run->exp, run->samples, run->nsamples, *doc, analysis->verdict);
	json_decref(out->profiles);
	out->profiles = NULL;
	if ((err = ab_store_check_alive(run->store)) < 0)  /* deleted during the run */
		return cmd_fail(err);
	/* the run is stored as invalid; the fault is the experiment file's */
	if (run->experiment_wrong && rc == AB_EXIT_INVALID)
		rc = AB_EXIT_USAGE;
	if (!out->quiet)
		fprintf(stderr, "abtool: stored as run %lld in %s\n", (long long)run->meta.id,
			ab_store_path(run->store));
	return rc;
}

static void on_signal(int sig)
{
	ab_runner_interrupt(sig);
}

void cmd_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;  /* no SA_RESTART: a blocking wait must notice */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cmd_run_failed(const struct ab_run *run, int err)
{
	int rc;

	if (cmd_fd_smart_terminal(STDERR_FILENO))
		cmd_term_erase_line();
	rc = cmd_fail(err);
	if (run->meta.id && run->store && err != AB_EINVALID && err != AB_ENOTFOUND) {
		if (err != AB_ELOCKED)  /* not "running" when it is not: where the store takes it */
			ab_store_run_abandon(run->store, run->meta.id);
		/* the sample in flight is lost, not the ones committed before it */
		fprintf(stderr, "abtool: run %lld is kept with the samples stored so far; once the problem "
			"is fixed, finish it with 'abtool resume %lld --store %s'\n", (long long)run->meta.id,
			(long long)run->meta.id, ab_store_path(run->store));
	}
	return rc;
}

int cmd_interrupted(const struct ab_run *run)
{
	int sig = ab_runner_interrupted();
	size_t done = 0, total = 0, i;

	for (i = 0; i < run->nsamples; i++) {
		total += run->samples[i].status != AB_SAMPLE_SUPERSEDED;
		done += run->samples[i].status == AB_SAMPLE_DONE;
	}
	if (cmd_fd_smart_terminal(STDERR_FILENO))
		cmd_term_erase_line();
	if (run->meta.id)
		fprintf(stderr, "abtool: interrupted by %s: run %lld is kept with %zu of %zu samples; "
			"finish it with 'abtool resume %lld --store %s'\n", sig == SIGTERM ? "SIGTERM" : "SIGINT",
			(long long)run->meta.id, done, total, (long long)run->meta.id, ab_store_path(run->store));
	else
		fprintf(stderr, "abtool: interrupted by %s before the run was stored\n",
			sig == SIGTERM ? "SIGTERM" : "SIGINT");
	return 128 + (sig ? sig : SIGINT);
}
