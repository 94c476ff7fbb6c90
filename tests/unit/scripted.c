/* scripted.c - the scripted sample source of the unit tests (scripted.h). */
#include "testutil.h"
#include "scripted.h"
#include "config.h"
#include "error.h"
#include "rules.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The attempts slot of an entry: row, pair (or warmup), side. */
static unsigned *attempt_slot(struct scripted *sc, const struct ab_plan_entry *e)
{
	size_t key = ((size_t)e->row * 4096 + (size_t)(e->pair >= 0 ? e->pair : 2048 + e->warmup)) * 2 +
		     e->side;

	if (key >= sc->nattempts) {
		size_t n = key + 1024;
		sc->attempts = ab_xrealloc(sc->attempts, n * sizeof(*sc->attempts));
		memset(sc->attempts + sc->nattempts, 0, (n - sc->nattempts) * sizeof(*sc->attempts));
		sc->nattempts = n;
	}
	return &sc->attempts[key];
}

/* Fill sample `s` as the process the script describes would have. */
static void fill(struct ab_run *run, struct ab_sample *s, const struct scripted_sample *v, int64_t now_ns)
{
	const struct ab_experiment *exp = run->exp;
	size_t m;

	s->status = AB_SAMPLE_DONE;
	s->started_unix = 1700000000 + now_ns / 1000000000;
	s->started_ns = 1700000000LL * 1000000000LL + now_ns;
	s->wall_ns = v->wall_ns ? v->wall_ns : (int64_t)v->value;
	s->user_ns = (int64_t)v->value;
	s->sys_ns = 0;
	s->maxrss_bytes = 1 << 20;
	s->exit_code = v->exit_code;
	s->signal = v->timed_out ? 9 : 0;
	s->timed_out = v->timed_out;
	if (v->timed_out)
		s->exit_code = -1;
	s->flags |= v->flags;  /* the scheduler may have set some (not_quiet) */
	s->other_cpu_ns = v->other_cpu_ns ? v->other_cpu_ns : -1;
	s->runq_ns = v->runq_ns ? v->runq_ns : -1;
	free(s->metrics);
	s->nmetrics = exp->nmetrics;
	s->metrics = ab_xmalloc((exp->nmetrics ? exp->nmetrics : 1) * sizeof(double));
	for (m = 0; m < exp->nmetrics; m++)
		s->metrics[m] = v->exit_code || v->timed_out ? NAN
				: v->cpu > 0 && !strcmp(exp->metrics[m].name, "cpu_ns") ? v->cpu : v->value;
	if (v->timed_out)
		s->error = ab_xasprintf("timed out after %lld ms", (long long)exp->timeout_ms);
	else if (v->exit_code)
		s->error = ab_xasprintf("exit %d", v->exit_code);
	else if (v->checksum)
		s->checksum = ab_xstrdup(v->checksum);
	if (s->error) {
		s->stdout_text = ab_xstrdup("");
		s->stderr_text = ab_xstrdup("scripted failure\n");
	}
}

static int scripted_exec(const struct ab_executor *x, struct ab_run *run, struct ab_exec_job *jobs, size_t n)
{
	struct scripted *sc = x->ctx;
	struct scripted_sample v[2];
	int64_t longest = 0;
	size_t i;

	assert_true(n == 1 || n == 2);
	for (i = 0; i < n; i++) {
		const struct ab_plan_entry *e = &jobs[i].sample->entry;
		unsigned *attempt = attempt_slot(sc, e);

		assert_int_equal(jobs[i].sample->status, AB_SAMPLE_PLANNED);
		sc->calls++;
		memset(&v[i], 0, sizeof(v[i]));
		sc->fn(sc->ctx, e, *attempt, &v[i]);
		if (v[i].interrupt || sc->calls == sc->interrupt_at) {
			sc->interrupted = 1;
			return ab_error_set(AB_EINTERRUPTED, "interrupted (scripted)");
		}
		(*attempt)++;
	}
	for (i = 0; i < n; i++) {
		fill(run, jobs[i].sample, &v[i], sc->clock_ns);
		sc->log = ab_xrealloc(sc->log, (sc->nlog + 1) * sizeof(*sc->log));
		sc->log[sc->nlog++] = jobs[i].sample->entry;
		if (jobs[i].sample->wall_ns > longest)
			longest = jobs[i].sample->wall_ns;
	}
	sc->clock_ns += longest;  /* two samples started together end with the longer one */
	return 0;
}

static int64_t scripted_now(const struct ab_executor *x)
{
	return ((const struct scripted *)x->ctx)->clock_ns;
}

static int scripted_interrupted(const struct ab_executor *x)
{
	return ((const struct scripted *)x->ctx)->interrupted;
}

static int scripted_wait_quiet(const struct ab_executor *x, double cpus, int64_t max_ns, int64_t *waited_ns)
{
	struct scripted *sc = x->ctx;
	int quiet = 1;

	(void)cpus;
	*waited_ns = 0;
	if (sc->quiet)
		quiet = sc->quiet(sc->ctx, sc->pairs_started, max_ns, waited_ns);
	sc->pairs_started++;
	sc->clock_ns += *waited_ns;
	return quiet;
}

void scripted_init(struct scripted *sc, scripted_fn fn, void *ctx)
{
	memset(sc, 0, sizeof(*sc));
	sc->x.run = scripted_exec;
	sc->x.now_ns = scripted_now;
	sc->x.interrupted = scripted_interrupted;
	sc->x.wait_quiet = scripted_wait_quiet;
	sc->x.host_root = "/nonexistent";  /* no host: no busy processes, no load */
	sc->x.ctx = sc;
	sc->fn = fn;
	sc->ctx = ctx;
}

void scripted_release(struct scripted *sc)
{
	free(sc->log);
	free(sc->attempts);
	memset(sc, 0, sizeof(*sc));
}

/* Run the samples and, unless interrupted, finish the run. */
static void drive(struct scripted_run *out)
{
	int err;

	out->id = out->run.meta.id;
	out->err = ab_run_samples(&out->run);
	if (out->err == AB_EINTERRUPTED)
		return;
	if (out->err < 0)
		fail_msg("ab_run_samples: %s", ab_error_last());
	if ((err = ab_run_finish(&out->run, &out->analysis, &out->doc)) < 0)
		fail_msg("ab_run_finish: %s", ab_error_last());
}

void scripted_start(struct scripted_run *out, struct ab_store *store, const char *dir, const char *yaml,
		    uint64_t seed, const struct ab_run_options *opt, struct scripted *sc)
{
	struct ab_run_options o;
	char *path = ab_xasprintf("%s/exp.yaml", dir);

	memset(out, 0, sizeof(*out));
	if (opt)
		o = *opt;
	else
		memset(&o, 0, sizeof(o));
	o.have_seed = 1;
	o.seed = seed;
	ab_test_write(dir, "exp.yaml", yaml);
	if (ab_experiment_parse(&out->exp, path, yaml, strlen(yaml)) < 0)
		fail_msg("experiment: %s", ab_error_last());
	free(path);
	if (sc->prepare)
		sc->prepare(sc->ctx, &out->exp);
	if (ab_run_start(&out->run, &out->exp, store, &o, sc->events, &sc->x) < 0)
		fail_msg("ab_run_start: %s", ab_error_last());
	drive(out);
}

void scripted_resume(struct scripted_run *out, struct ab_store *store, int64_t id, struct scripted *sc)
{
	memset(out, 0, sizeof(*out));
	sc->interrupted = 0;
	if (ab_run_resume(&out->run, &out->exp, store, id, sc->events, &sc->x) < 0)
		fail_msg("ab_run_resume: %s", ab_error_last());
	drive(out);
}

void scripted_run_release(struct scripted_run *r)
{
	json_decref(r->doc);
	ab_analysis_release(&r->analysis);
	ab_run_release(&r->run);
	ab_experiment_release(&r->exp);
	memset(r, 0, sizeof(*r));
}

size_t scripted_count(struct ab_store *store, const struct ab_experiment *exp, int64_t id,
		      enum ab_sample_status status)
{
	const char **names = ab_run_metric_names(exp);
	struct ab_sample *s = NULL;
	size_t n = 0, i, count = 0;

	assert_int_equal(ab_store_samples_load(store, id, names, exp->nmetrics, &s, &n), 0);
	for (i = 0; i < n; i++)
		count += s[i].status == status;
	ab_samples_free(s, n);
	free(names);
	return count;
}
