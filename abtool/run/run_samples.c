/* run_samples.c - the sample loop: every planned sample in plan order,
 * each stored as it completes (see run.h). */
#include "run.h"
#include "env.h"
#include "error.h"
#include "executor.h"
#include "measure.h"
#include "report.h"
#include "rules.h"
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
		first[slot] = ab_xstrdup(s->checksum);  /* owned: samples are reloaded after a re-run */
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
	/* contention (experiment.h, struct ab_contention) */
	size_t reruns_max;          /* pairs a row may run again */
	size_t *reruns;             /* per row: pairs run again so far */
	size_t only_flagged[2];     /* pairs in which only the parent / only the candidate was
	                               contended, re-run pairs included */
	int rerun_refused;          /* the sides' flags differ: re-running stopped (symmetry) */
	long last;                  /* index of the sample run just before in this process, or -1 */
};

/* Whether samples[i] and samples[j] are the two sides of one pair run. */
static int one_pair(const struct ab_sample *a, const struct ab_sample *b)
{
	return a->entry.row == b->entry.row && a->entry.pair == b->entry.pair && a->entry.pair >= 0 &&
	       a->entry.warmup == b->entry.warmup && a->entry.side != b->entry.side;
}

/* Count a complete pair's contention by side (only one side flagged). */
static void count_flags(struct schedule *sc, const struct ab_sample *a, const struct ab_sample *b)
{
	int fa = (a->flags & AB_FLAG_CONTENDED) != 0, fb = (b->flags & AB_FLAG_CONTENDED) != 0;

	if (fa != fb)
		sc->only_flagged[fa ? a->entry.side : b->entry.side]++;
}

/* Two-sided exact binomial p-value of k successes in n at 1/2. */
static double binomial_half_p(size_t k, size_t n)
{
	double tail = 0, term = ldexp(1.0, -(int)n);  /* C(n, 0) / 2^n */
	size_t i, lo = k < n - k ? k : n - k;

	for (i = 0; i <= lo; i++) {
		tail += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return tail * 2 > 1 ? 1 : tail * 2;
}

/* The flags are a property of the host, not of a side, as long as the
 * sides flag alike: when one side is flagged alone far more often than the
 * other (a side that causes kernel work, I/O or writeback, can disturb
 * itself), re-running would drop pairs by side, so it stops. At least 10
 * pairs flagged on one side only, two-sided binomial p < 0.001. */
static void check_symmetry(struct schedule *sc)
{
	size_t n = sc->only_flagged[0] + sc->only_flagged[1];

	if (!sc->rerun_refused && n >= 10 && binomial_half_p(sc->only_flagged[0], n) < 0.001)
		sc->rerun_refused = 1;
}

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
	sc->reruns = ab_xcalloc(sc->nrows, sizeof(size_t));
	sc->reruns_max = (size_t)ab_experiment_reruns(exp);
	sc->last = -1;
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
		/* what a resumed run re-ran and flagged before: the two samples of a
		 * pair are adjacent in the plan, re-runs appended as pairs too */
		if (s->entry.row < sc->nrows && (s->flags & AB_FLAG_RERUN) && s->entry.side == AB_CANDIDATE)
			sc->reruns[s->entry.row]++;
		if (i > 0 && one_pair(&run->samples[i - 1], s) && s->entry.side != run->samples[i - 1].entry.side &&
		    run->samples[i - 1].status == s->status &&
		    (s->status == AB_SAMPLE_DONE || (s->flags & AB_FLAG_RERUN)))
			count_flags(sc, &run->samples[i - 1], s);
	}
	check_symmetry(sc);
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
	for (i = 0; i < sc->nrows * 2; i++)
		free(sc->first_checksum[i]);
	free(sc->first_checksum);
	free(sc->reruns);
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

/* The executor of the run: the one the caller set, or real processes. */
static const struct ab_executor *executor_of(const struct ab_run *run)
{
	return run->executor ? run->executor : &ab_run_executor;
}

/*
 * The end of a pair, samples[ia] then samples[ib]: count its contention
 * by side and, when either sample was contended and the row may still
 * re-run pairs, supersede both (flagged `rerun`, kept in the store as
 * evidence) and plan the pair again, whole, with its own order, at the
 * end of the plan: the scheduler runs it within the same look. Failed
 * samples are not contention's business. Reloads run->samples. Returns 0
 * or a store error.
 */
static int pair_end(struct ab_run *run, struct schedule *sc, size_t ia, size_t ib)
{
	struct ab_sample *a = &run->samples[ia], *b = &run->samples[ib];
	struct ab_plan_entry fresh[2];
	size_t row = b->entry.row;
	int err;

	if (!ab_sample_ok(a) || !ab_sample_ok(b))
		return 0;
	count_flags(sc, a, b);
	check_symmetry(sc);
	if (!((a->flags | b->flags) & AB_FLAG_CONTENDED) || sc->rerun_refused ||
	    sc->reruns[row] >= sc->reruns_max)
		return 0;
	fresh[0] = a->entry;
	fresh[1] = b->entry;
	a->status = b->status = AB_SAMPLE_SUPERSEDED;
	a->flags |= AB_FLAG_RERUN;
	b->flags |= AB_FLAG_RERUN;
	if ((err = ab_store_sample_put(run->store, run->meta.id, a, sc->names)) < 0 ||
	    (err = ab_store_sample_put(run->store, run->meta.id, b, sc->names)) < 0 ||
	    (err = ab_store_samples_append(run->store, run->meta.id, fresh, 2)) < 0 ||
	    (err = ab_run_load_samples(run)) < 0)
		return err;
	sc->reruns[row]++;
	sc->total += 2;
	return 0;
}

/* Before the first sample of a pair, with `contention: {quiet}`: wait,
 * bounded, for the other processes to calm down; the sample records how
 * long, and whether the wait ran out (flag not_quiet). */
static int wait_quiet(struct ab_run *run, const struct ab_executor *x, struct ab_sample *s)
{
	const struct ab_contention *c = &run->exp->contention;
	int64_t waited = 0;
	int quiet;

	if (!(c->quiet_cpus > 0) || s->entry.pair < 0)
		return 0;
	quiet = x->wait_quiet(x, c->quiet_cpus, c->quiet_wait_ms * 1000000, &waited);
	if (quiet < 0)
		return quiet;
	s->waited_ns = waited;
	if (!quiet)
		s->flags |= AB_FLAG_NOT_QUIET;
	return 0;
}

/* Run planned sample samples[i] and store it; at the end of its pair, the
 * contention policy (pair_end). Returns 0 to go on, 1 when the run stops
 * early (run->stopped_early), or an error. run->samples may be reloaded. */
static int sample_step(struct ab_run *run, struct schedule *sc, size_t i)
{
	const struct ab_executor *x = executor_of(run);
	struct ab_sample *s = &run->samples[i];
	size_t row = s->entry.row, side = s->entry.side;
	struct ab_exec_job job = {s, side ? &sc->cmds_b[row] : &sc->cmds[row], &sc->prepare[row],
				  &sc->cleanup[row], sc->cwd[side], sc->env[side], sc->cpus[row]};
	int second = sc->last >= 0 && one_pair(&run->samples[sc->last], s);
	char when[64];
	int64_t t0;
	int err;

	if (x->interrupted(x))
		return ab_error_set(AB_EINTERRUPTED, "interrupted");
	if (run->events.sample_start)
		run->events.sample_start(run->events.ctx, &s->entry, sc->labels[row], sc->done,
					 sc->total, sc->timed ? sc->spent_ns / (int64_t)sc->timed *
							       (int64_t)(sc->total - sc->done) : -1);
	if (!second && (err = wait_quiet(run, x, s)) < 0)
		return err;
	/* the inputs' sizes and times around every sample (a hash would disturb the timing) */
	snprintf(when, sizeof(when), "before sample %u", (unsigned)s->entry.seq + 1);
	if (!ab_run_inputs_unchanged(run, when))
		return run->stopped_early = 1;
	t0 = x->now_ns(x);
	if ((err = x->run(x, run, &job, 1)) < 0 ||
	    (err = ab_store_sample_put(run->store, run->meta.id, s, sc->names)) < 0)
		return err;
	snprintf(when, sizeof(when), "after sample %u", (unsigned)s->entry.seq + 1);
	if (!ab_run_inputs_unchanged(run, when))
		return run->stopped_early = 1;
	sc->spent_ns += x->now_ns(x) - t0;
	sc->timed++;
	sc->done++;
	if (run->events.sample_done)
		run->events.sample_done(run->events.ctx, s, sc->labels[row]);
	if (!tolerated(s, sc->policy, sc->pairs, sc->failed_pairs, sc->pair_failed) ||
	    checksum_breaks(s, sc->policy, sc->first_checksum))
		return run->stopped_early = 1;
	if (second && (err = pair_end(run, sc, (size_t)sc->last, i)) < 0)
		return err;
	sc->last = second ? -1 : (long)i;
	return 0;
}

/* Row r at a look: "lanes=1: ratio 0.534 [0.431, 0.614], 8/8 pair wins:
 * decided" (its repeated interval: valid at every look); an undecided
 * row "runs on", or at the `last` look is "undecided". New string. */
static char *look_line(const struct ab_analysis *a, size_t r, int decided, int last)
{
	const char *state = decided ? "decided" : last ? "undecided" : "runs on";
	const struct ab_row_metric *m = &a->rows[r].metrics[a->primary];
	char *label = ab_row_label(a->exp, r), *out;

	if (!m->available)
		out = ab_xasprintf("%s: %s", label, m->unavailable);
	else if (isnan(m->st.ci_lower))
		out = ab_xasprintf("%s: ratio %.3f, %zu/%zu pair wins: %s", label, m->st.ratio, m->st.wins,
				   m->st.pairs, state);
	else  /* the repeated interval, and why when the estimate is not inside it */
		out = ab_xasprintf("%s: ratio %.3f [%.3f, %.3f]%s, %zu/%zu pair wins: %s", label, m->st.ratio,
				   m->st.ci_lower, m->st.ci_upper, m->st.ci_empty ? " (the looks' intervals do "
				   "not intersect: not decided)" : m->st.ratio < m->st.ci_lower ||
				   m->st.ratio > m->st.ci_upper ? " (the estimate of all pairs, outside)" : "",
				   m->st.wins, m->st.pairs, state);
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
			ab_strv_push(&lines, look_line(&a, r, decided[r], k + 1 == exp->seq.nlooks));
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
	if (!err && run->events.look_done)
		run->events.look_done(run->events.ctx, k, exp->seq.looks[k], sc->nrows - running, running,
				      budget, k + 1 == exp->seq.nlooks, lines);
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
			const struct ab_sample *s = &run->samples[i];
			if (s->status != AB_SAMPLE_PLANNED || !sc.active[s->entry.row] ||
			    (exp->sequential && ab_stopping_bucket(&exp->seq, &s->entry) != k))
				continue;
			err = sample_step(run, &sc, i);
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
