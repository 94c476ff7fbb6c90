/* cmd_bisect.c - `abtool bisect EXP.yaml --good REV --bad REV`: find the
 * commit on the first-parent path from good to bad at which the selected
 * rows changed by at least the threshold, ending with that commit
 * measured against its exact parent. Every comparison is an ordinary run
 * (run.h: the same plan, order, checksums, intervals and build cache as
 * `abtool run`), stored and linked to one bisect; the search itself is
 * bisect.c's, and docs/history.md ("Bisecting a change") says why a step
 * compares what it compares and what the whole search's error is. */
#include "bisect.h"
#include "cmd.h"
#include "error.h"
#include "jsontext.h"
#include "plan.h"
#include "stats.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The search's level: the chance that any of its decisions is wrong is at
 * most this (Bonferroni over the comparisons it plans; docs/history.md). */
#define BISECT_ALPHA 0.05

/* The options of bisect beyond the shared groups'. */
struct bisect_opts {
	const char *good, *bad, *metric, *resume;
	const char *steps;    /* --steps: "sequential", "fixed", or NULL (the plan's kind) */
	double threshold;     /* NAN: the smallest margin of the rules */
};

/* One bisect being driven. */
struct bisect_ctx {
	struct bisect_opts *o;
	struct cmd_args *args;
	struct ab_store *store;
	int64_t id;
	char *exp_path, *repo, *metric;
	char exp_hash[65];
	char **hex, **subjects;   /* the path, oldest (good) first */
	size_t n;
	double threshold, alpha;  /* alpha: per comparison */
	int sequential;           /* the steps run the experiment's looks with their spending at
	                             the bisect's level and stop when decided; else fixed */
	int pairs;                /* fixed steps: their pairs; sequential: the last look */
	char uuid[33];            /* the bisect's uuid: the steps' runs carry it */
	uint64_t seed;
	json_t *stored_steps;     /* a resume: the steps stored before (borrowed from `stored`) */
	json_t *stored;
	json_t *steps;            /* the steps of this search, as the result lists them */
	char *confirm_md;         /* the confirmation's Markdown report */
	json_t *confirm_rows;     /* its rows (new reference) */
	int64_t confirm_run;
	char *confirm_verdict;
	struct ab_bisect b;
};

static int bisect_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct bisect_opts *b = args->ctx;

	switch (o->code) {
	case 'g':
		b->good = arg;
		break;
	case 'b':
		b->bad = arg;
		break;
	case 'm':
		b->metric = arg;
		break;
	case 'R':
		b->resume = arg;
		break;
	case 'S':
		if (strcmp(arg, "sequential") && strcmp(arg, "fixed"))
			return cmd_usage("bisect", "--steps: expected sequential or fixed, got '%s'", arg);
		b->steps = arg;
		break;
	case 't':
		if (ab_parse_percent(&b->threshold, arg) < 0 || b->threshold <= 0)
			return cmd_usage("bisect", "--threshold: expected a positive percentage like 5%%, got '%s'",
					 arg);
		break;
	}
	return CMD_GO_ON;
}

const struct cmd_option cmd_bisect_options[] = {
	{"good", 0, "REV", "the older commit, before the change", NULL, CMD_OWN, 'g', 0, 0},
	{"bad", 0, "REV", "the newer commit, after the change", NULL, CMD_OWN, 'b', 0, 0},
	{"threshold", 0, "P%", "the smallest change that counts", "the smallest margin of the rules",
	 CMD_OWN, 't', 0, 0},
	{"metric", 0, "NAME", "the metric searched", "the experiment's metric:", CMD_OWN, 'm', 0, 0},
	CMD_ROW_OPTION,
	CMD_PLAN_OPTIONS(1, "pairs per row of every comparison instead of the file's pairs: (fixed steps)",
			 NULL),
	{"steps", 0, "MODE", "sequential: each comparison runs the plan's looks, its alpha spent at the "
	 "bisect's level, and stops once decided; fixed: every pair of the plan's maximum",
	 "sequential for a sequential plan (pairs: {min, max}), else fixed", CMD_OWN, 'S', 0, 0},
	{"resume", 0, "ID", "finish the stored bisect ID (or show its result when finished)", NULL,
	 CMD_OWN, 'R', 0, 0},
	CMD_STORE_OPTION,
	{"json", 0, "F", "write the result: the culprit, or the range, and every step", NULL,
	 CMD_OUTPUTS, CMD_OPT_JSON, 0, 0},
	{"quiet", 'q', NULL, "only errors and the result", NULL, CMD_OUTPUTS, 'q', 0, 0},
	{"verbose", 'v', NULL, "one line per successful sample", NULL, CMD_OUTPUTS, 'v', 0, 0},
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* The smallest margin of the experiment's rules, or NAN. */
static double smallest_margin(const struct ab_experiment *exp)
{
	double m = NAN, v[4];
	size_t i, j;

	for (i = 0; i < exp->nrules; i++) {
		v[0] = exp->rules[i].no_regression;
		v[1] = exp->rules[i].faster_by;
		v[2] = exp->rules[i].slower_by;
		v[3] = exp->rules[i].equivalent_within;
		for (j = 0; j < 4; j++)
			if (!isnan(v[j]) && v[j] > 0 && (isnan(m) || v[j] < m))
				m = v[j];
	}
	return m;
}

/* Index of metric `name` in exp->metrics, or -1. */
static long metric_index(const struct ab_experiment *exp, const char *name)
{
	const struct ab_metric *m = ab_experiment_metric(exp, name);

	return m ? (long)(m - exp->metrics) : -1;
}

static json_t *commit_json(const struct bisect_ctx *c, size_t i)
{
	return json_pack("{s:s, s:s, s:I}", "commit", c->hex[i], "subject", c->subjects[i],
			 "index", (json_int_t)i);
}

/* Which side of a run could not be measured: 0 parent, 1 candidate, -1
 * neither build failed (checksums, failed samples), with why. */
static int failed_side(const struct ab_run *run, const char **why)
{
	if (run->builds[1].status != AB_BUILD_OK) {
		*why = "the build failed";
		return 1;
	}
	if (run->builds[0].status != AB_BUILD_OK) {
		*why = "the build failed";
		return 0;
	}
	*why = "its checksum or samples failed";
	return -1;
}

/* The step's record in the result and the store's detail. */
static json_t *step_json(const struct bisect_ctx *c, const struct ab_bisect_cmp *cmp, size_t seq,
			 int64_t run_id, const struct ab_bisect_judgement *j, const char *why,
			 const struct ab_experiment *exp)
{
	char *label = j->decision <= AB_BISECT_UNDECIDED && exp ? ab_row_label(exp, j->row) : NULL;
	json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:I, s:s, s:i}", "seq", (json_int_t)seq,
			      "role", ab_bisect_role_name(cmp->role), "parent", c->hex[cmp->parent],
			      "candidate", c->hex[cmp->candidate], "run", (json_int_t)run_id,
			      "decision", ab_bisect_decision_name(j->decision), "direction", j->direction);

	json_object_set_new(o, "row", label ? json_string(label) : json_null());
	json_object_set_new(o, "ratio", isnan(j->ratio) ? json_null() : json_real(j->ratio));
	json_object_set_new(o, "lower", isnan(j->lower) ? json_null() : json_real(j->lower));
	json_object_set_new(o, "upper", isnan(j->upper) ? json_null() : json_real(j->upper));
	json_object_set_new(o, "why", why ? json_string(why) : json_null());
	free(label);
	return o;
}

/* x rounded to d decimals, as printed. */
static double strtod_digits(double x, int d)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", d, x);
	return strtod(buf, NULL);
}

/* A step's "ratio [lower, upper]" with the digits that show an estimate
 * outside its bounds (a sequential step's repeated interval), and why. */
static void ratio_text(FILE *f, const json_t *s)
{
	double x = json_real_value(json_object_get(s, "ratio")), l = json_real_value(json_object_get(s, "lower"));
	double u = json_real_value(json_object_get(s, "upper"));
	int d = 3;

	while (d < 6 && ((x < l && !(strtod_digits(x, d) < strtod_digits(l, d))) ||
			 (x > u && !(strtod_digits(x, d) > strtod_digits(u, d)))))
		d++;
	fprintf(f, "%.*f [%.*f, %.*f]%s", d, x, d, l, d, u, l > u ? " (looks' intervals disjoint)"
		: x < l || x > u ? " (estimate of all pairs, outside)" : "");
}

/* A step's fields as say_step and the report's table print them
 * (borrowed from the step's JSON object). */
struct step_fields {
	long long seq;
	const char *role, *parent, *candidate, *decision;
};

static void step_fields(struct step_fields *out, const json_t *s)
{
	out->seq = (long long)json_integer_value(json_object_get(s, "seq"));
	out->role = json_string_value(json_object_get(s, "role"));
	out->parent = json_string_value(json_object_get(s, "parent"));
	out->candidate = json_string_value(json_object_get(s, "candidate"));
	out->decision = json_string_value(json_object_get(s, "decision"));
}

/* Print one decided step on stderr. */
static void say_step(const struct bisect_ctx *c, const json_t *s, int reused)
{
	struct step_fields f;
	const json_t *ratio = json_object_get(s, "ratio");
	const char *why = json_string_value(json_object_get(s, "why"));

	if (c->args->out.quiet)
		return;
	step_fields(&f, s);
	fprintf(stderr, "abtool: bisect %lld step %lld (%s) %.10s..%.10s: %s", (long long)c->id, f.seq,
		f.role, f.parent, f.candidate, f.decision);
	if (json_is_real(ratio) && json_is_real(json_object_get(s, "lower"))) {
		fprintf(stderr, ", %s ratio ", json_string_value(json_object_get(s, "row")));
		ratio_text(stderr, s);
	}
	else if (json_is_real(ratio))
		fprintf(stderr, ", %s ratio %.3f without bounds", json_string_value(json_object_get(s, "row")),
			json_real_value(ratio));
	if (why)
		fprintf(stderr, " (%s)", why);
	fprintf(stderr, ", run %lld%s\n", (long long)json_integer_value(json_object_get(s, "run")),
		reused ? " (stored)" : "");
}

/* The confirmation's report, kept for the end. */
static void keep_confirmation(struct bisect_ctx *c, const json_t *doc, int64_t run_id,
			      const char *verdict)
{
	char *stored = ab_report_json_text(doc), *md = NULL;
	json_t *canon = json_loads(stored, 0, NULL);
	size_t len;

	if (canon && cmd_render_report(&md, &len, "md", canon, NULL, 0, NULL, 0, 0, NULL) == 0) {
		free(c->confirm_md);
		c->confirm_md = md;
	}
	json_decref(c->confirm_rows);
	c->confirm_rows = json_incref(json_object_get(canon, "rows"));
	c->confirm_run = run_id;
	free(c->confirm_verdict);
	c->confirm_verdict = ab_xstrdup(verdict ? verdict : "");
	json_decref(canon);
	free(stored);
}

/* The options of the run of comparison `cmp` (borrowed strings; `mark`
 * borrowed too): a fixed step runs c->pairs pairs, a sequential one the
 * file's looks (ab_bisect_step_plan). */
static void step_options(struct ab_run_options *opt, const struct bisect_ctx *c,
			 const struct ab_bisect_cmp *cmp, size_t seq, const json_t *mark)
{
	*opt = c->args->run;
	opt->candidate = c->hex[cmp->candidate];
	opt->parent = c->hex[cmp->parent];
	opt->have_seed = 1;
	opt->seed = c->seed + seq;
	opt->design = NULL;
	opt->pairs = c->sequential ? 0 : c->pairs;
	opt->max_pairs = 0;
	opt->step = mark;
}

/* The pairs a step's rows used: the most of any selected row, and all of
 * them together. */
static void step_pairs(const struct ab_analysis *a, size_t *most, size_t *total)
{
	size_t i;

	*most = *total = 0;
	for (i = 0; i < a->nrows; i++) {
		if (!ab_experiment_row_selected(a->exp, a->rows[i].row))
			continue;
		*total += a->rows[i].pairs;
		if (a->rows[i].pairs > *most)
			*most = a->rows[i].pairs;
	}
}

/* Record that step `seq` is measured by run `run_id` (undecided yet), so
 * that --resume finds the run. Errors as ab_store_bisect_step_put's, the
 * message naming the bisect, the step and the run. */
static int link_step_run(struct bisect_ctx *c, const struct ab_bisect_cmp *cmp, size_t seq,
			 int64_t run_id)
{
	int err = ab_store_bisect_step_put(c->store, c->id, (int64_t)seq, ab_bisect_role_name(cmp->role),
					   c->hex[cmp->parent], c->hex[cmp->candidate], run_id, NULL, NULL);

	if (err < 0)
		ab_error_prefix("bisect %lld: step %zu: cannot record its run %lld", (long long)c->id, seq,
				(long long)run_id);
	return err;
}

/*
 * Run comparison `cmp` as step `seq` (resuming the stored run `resume_id`
 * when > 0), decide it, record it in the store and in c->steps. Returns 0,
 * or the exit code after its message (an interrupted step: how to resume).
 */
static int run_step(struct bisect_ctx *c, const struct ab_bisect_cmp *cmp, size_t seq,
		    int64_t resume_id, struct ab_bisect_judgement *j)
{
	struct ab_run_events events = cmd_run_events(&c->args->out);
	struct ab_experiment exp;
	struct ab_analysis analysis;
	struct ab_run_options opt;
	struct ab_run run;
	json_t *doc = NULL, *s = NULL;
	json_t *mark = json_pack("{s:s, s:I, s:s}", "bisect", c->uuid, "seq", (json_int_t)seq, "role",
				 ab_bisect_role_name(cmp->role));
	const char *why = NULL;
	char *detail;
	size_t most, total;
	long mi;
	int err, link, rc = 0, side = -1;

	memset(&exp, 0, sizeof(exp));
	memset(&run, 0, sizeof(run));
	memset(&analysis, 0, sizeof(analysis));
	/* the steps compare commits that are not each other's exact parents by
	 * design: run's warning about it would print at nearly every step */
	events.resolved = NULL;
	step_options(&opt, c, cmp, seq, mark);
	c->args->out.run = &run;
	if (resume_id > 0) {
		err = ab_run_resume(&run, &exp, c->store, resume_id, &events, NULL);
	} else if ((err = ab_experiment_load(&exp, c->exp_path)) == 0) {
		if (c->sequential)
			ab_bisect_step_plan(&exp, c->metric, c->threshold, c->alpha, cmp->role, c->b.direction);
		err = ab_run_start(&run, &exp, c->store, &opt, &events, NULL);
	}
	if (run.meta.id && (err == 0 || err == AB_EINTERRUPTED) &&
	    (link = link_step_run(c, cmp, seq, run.meta.id)) < 0) {
		rc = cmd_fail(link);
		goto out;
	}
	if (err == 0)
		err = ab_run_samples(&run);
	if (err == AB_EINTERRUPTED) {
		rc = cmd_interrupted(&run);
		fprintf(stderr, "abtool: finish the bisect with 'abtool bisect --resume %lld --store %s'\n",
			(long long)c->id, ab_store_path(c->store));
		goto out;
	}
	if (err < 0 || (err = ab_run_finish(&run, &analysis, &doc)) < 0) {
		rc = run.meta.id ? cmd_run_failed(&run, err) : cmd_fail(err);
		goto out;
	}
	if (analysis.verdict == AB_INVALID)
		side = failed_side(&run, &why);
	if ((mi = metric_index(run.exp, c->metric)) < 0) {
		rc = cmd_fail(ab_error_set(AB_EINVALID, "the experiment has no metric '%s'", c->metric));
		goto out;
	}
	ab_bisect_judge(j, &analysis, (size_t)mi, c->threshold,
			cmp->role == AB_BISECT_ENDPOINTS ? 0 : c->b.direction, c->alpha, side);
	if (cmp->role == AB_BISECT_CONFIRM)
		keep_confirmation(c, doc, run.meta.id, ab_verdict_name(analysis.verdict));
	s = step_json(c, cmp, seq, run.meta.id, j, why, run.exp);
	step_pairs(&analysis, &most, &total);
	json_object_set_new(s, "pairs", json_integer((json_int_t)most));
	json_object_set_new(s, "pairs_total", json_integer((json_int_t)total));
	detail = json_dumps(s, JSON_COMPACT);
	err = ab_store_bisect_step_put(c->store, c->id, (int64_t)seq, ab_bisect_role_name(cmp->role),
				       c->hex[cmp->parent], c->hex[cmp->candidate], run.meta.id,
				       ab_bisect_decision_name(j->decision), detail);
	free(detail);
	if (err < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	say_step(c, s, 0);
	json_array_append(c->steps, s);
out:
	c->args->out.run = NULL;
	json_decref(mark);
	json_decref(s);
	json_decref(doc);
	ab_analysis_release(&analysis);
	ab_run_release(&run);
	ab_experiment_release(&exp);
	return rc;
}

/* The report of a confirmation decided before the bisect was interrupted. */
static void stored_confirmation(struct bisect_ctx *c, int64_t run_id)
{
	json_t *r = NULL, *doc;

	if (ab_store_run_get(c->store, run_id, &r) < 0)
		return;
	doc = json_loads(json_string_value(json_object_get(r, "report")), 0, NULL);
	if (doc)
		keep_confirmation(c, doc, run_id, json_string_value(json_object_get(r, "verdict")));
	json_decref(doc);
	json_decref(r);
}

/* A stored step for `seq`, when it is the same comparison (borrowed), else NULL. */
static json_t *stored_step(const struct bisect_ctx *c, const struct ab_bisect_cmp *cmp, size_t seq)
{
	json_t *s = json_array_get(c->stored_steps, seq);

	if (!s || json_integer_value(json_object_get(s, "seq")) != (json_int_t)seq)
		return NULL;
	if (strcmp(json_string_value(json_object_get(s, "role")), ab_bisect_role_name(cmp->role)) ||
	    strcmp(json_string_value(json_object_get(s, "parent_oid")), c->hex[cmp->parent]) ||
	    strcmp(json_string_value(json_object_get(s, "candidate_oid")), c->hex[cmp->candidate]))
		return NULL;
	return s;
}

/* The search to its end: every comparison bisect.c asks for, from the
 * store when a resumed bisect decided it before. Returns 0 or an exit code. */
static int search(struct bisect_ctx *c)
{
	struct ab_bisect_cmp cmp;
	struct ab_bisect_judgement j;
	int rc;

	while (ab_bisect_next(&c->b, &cmp)) {
		size_t seq = c->b.comparisons;
		json_t *s = stored_step(c, &cmp, seq), *detail = json_object_get(s, "detail");
		int d = ab_bisect_decision_parse(json_string_value(json_object_get(s, "decision")));
		int64_t run_id = json_integer_value(json_object_get(s, "run_id"));
		const char *status = json_string_value(json_object_get(s, "run_status"));

		if (s && d >= 0 && json_is_object(detail)) {
			say_step(c, detail, 1);
			json_array_append(c->steps, detail);
			ab_bisect_record(&c->b, (enum ab_bisect_decision)d,
					 (int)json_integer_value(json_object_get(detail, "direction")));
			if (cmp.role == AB_BISECT_CONFIRM)
				stored_confirmation(c, run_id);
			continue;
		}
		/* an unfinished run of this step resumes; a finished one undecided is measured anew */
		if ((rc = run_step(c, &cmp, seq, s && run_id > 0 && status && strcmp(status, "finished")
				   ? run_id : 0, &j)) != 0)
			return rc;
		ab_bisect_record(&c->b, j.decision, j.direction);
	}
	return 0;
}

/* Why skipped commit `hex` was skipped, from the steps (borrowed), or NULL. */
static const char *skip_why(const json_t *steps, const char *hex)
{
	const json_t *s;
	size_t i;

	json_array_foreach(steps, i, s)
		if (!strcmp(json_string_value(json_object_get(s, "decision")), "skip-candidate") &&
		    !strcmp(json_string_value(json_object_get(s, "candidate")), hex))
			return json_string_value(json_object_get(s, "why"));
	return NULL;
}

/* The result document of the ended search (new reference). */
static json_t *result_json(const struct bisect_ctx *c)
{
	const struct ab_bisect *b = &c->b;
	json_t *o, *skipped = json_array(), *between = json_array(), *range;
	size_t i;

	for (i = 0; i < c->n; i++) {
		json_t *k;
		if (!b->skipped[i])
			continue;
		k = commit_json(c, i);
		json_object_set_new(k, "why", json_string(skip_why(c->steps, c->hex[i]) ?
							  skip_why(c->steps, c->hex[i]) : "not measurable"));
		if (i > b->lo && i < b->hi)
			json_array_append(between, k);
		json_array_append_new(skipped, k);
	}
	o = json_pack("{s:I, s:s, s:o, s:o, s:o, s:s, s:f, s:o, s:o, s:f, s:f, s:I, s:f}",
		      "bisect", (json_int_t)c->id, "outcome", ab_bisect_outcome_name(b->outcome),
		      "why", b->why ? json_string(b->why) : json_null(),
		      "good", commit_json(c, 0), "bad", commit_json(c, c->n - 1),
		      "metric", c->metric, "threshold", c->threshold,
		      "direction", b->direction > 0 ? json_string("up") : b->direction < 0
				   ? json_string("down") : json_null(),
		      "rows", json_array(), "alpha", BISECT_ALPHA, "alpha_per_comparison", c->alpha,
		      "comparisons", (json_int_t)b->comparisons,
		      "error_bound", fmin(1.0, (double)b->comparisons * c->alpha));
	for (i = 0; i < c->args->run.nrows; i++)
		json_array_append_new(json_object_get(o, "rows"), json_string(c->args->run.rows[i]));
	json_object_set_new(o, "skipped", skipped);
	if (b->outcome == AB_BISECT_CULPRIT) {
		json_t *k = commit_json(c, b->hi);
		json_object_set_new(k, "parent", commit_json(c, b->lo));
		json_object_set_new(k, "exact_parent", json_boolean(b->lo + 1 == b->hi));
		json_object_set_new(k, "skipped_between", json_incref(between));
		json_object_set_new(k, "run", json_integer(c->confirm_run));
		json_object_set_new(k, "verdict", c->confirm_verdict ? json_string(c->confirm_verdict)
								     : json_null());
		json_object_set_new(k, "row_results", c->confirm_rows ? json_incref(c->confirm_rows)
									: json_array());
		json_object_set_new(o, "culprit", k);
	} else if (b->outcome == AB_BISECT_SPREAD || b->outcome == AB_BISECT_INCONCLUSIVE) {
		range = json_pack("{s:o, s:o, s:o}", "after", commit_json(c, b->lo), "to",
				  commit_json(c, b->hi), "commits", json_array());
		for (i = b->lo + 1; i <= b->hi; i++)
			json_array_append_new(json_object_get(range, "commits"), commit_json(c, i));
		json_object_set_new(o, "range", range);
	}
	json_decref(between);
	json_object_set_new(o, "steps", json_deep_copy(c->steps));
	json_object_set_new(o, "step_plan", json_pack("{s:s, s:i}", "kind", c->sequential ? "sequential"
						      : "fixed", "pairs", c->pairs));
	{
		json_int_t total = 0;
		const json_t *s;

		json_array_foreach(c->steps, i, s)
			total += json_integer_value(json_object_get(s, "pairs_total"));
		json_object_set_new(o, "pairs_total", json_integer(total));
	}
	return o;
}

/* "1a2b3c4d5e \"subject\"" of a commit object (new). */
static char *json_label(const json_t *k)
{
	char *one = cmd_one_line(json_string_value(json_object_get(k, "subject")), 60), *s;

	s = ab_xasprintf("%.10s \"%s\"", json_string_value(json_object_get(k, "commit")), one);
	free(one);
	return s;
}

static void print_steps(FILE *f, const json_t *r)
{
	const json_t *s, *steps = json_object_get(r, "steps");
	size_t i;

	const json_t *plan = json_object_get(r, "step_plan");
	int sequential = !strcmp(json_string_value(json_object_get(plan, "kind")) ?
				 json_string_value(json_object_get(plan, "kind")) : "", "sequential");

	fprintf(f, "\nSteps: %lld comparisons, each decided at one-sided level %.2g per row%s; the "
		"search errs with probability at most %.2g\n\n",
		(long long)json_integer_value(json_object_get(r, "comparisons")),
		json_real_value(json_object_get(r, "alpha_per_comparison")),
		sequential ? " (sequential: the plan's looks, their alpha spent at that level, each "
		"stopping once decided)" : json_is_object(plan) ? " (fixed: every pair of the plan)" : "",
		json_real_value(json_object_get(r, "error_bound")));
	fprintf(f, "| step | compares | parent | candidate | decision | row | ratio B/A [bounds] | pairs | run |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	json_array_foreach(steps, i, s) {
		const json_t *ratio = json_object_get(s, "ratio");
		struct step_fields sf;

		step_fields(&sf, s);
		fprintf(f, "| %lld | %s | %.10s | %.10s | %s | %s | ", sf.seq, sf.role, sf.parent,
			sf.candidate, sf.decision, json_is_string(json_object_get(s, "row"))
			? json_string_value(json_object_get(s, "row")) : "-");
		if (json_is_real(ratio) && json_is_real(json_object_get(s, "lower")))
			ratio_text(f, s);
		else
			fprintf(f, "-");
		if (json_is_integer(json_object_get(s, "pairs")))
			fprintf(f, " | %lld", (long long)json_integer_value(json_object_get(s, "pairs")));
		else
			fprintf(f, " | -");
		fprintf(f, " | %lld |\n", (long long)json_integer_value(json_object_get(s, "run")));
	}
}

/* The result on stdout: what was found, the skipped commits, the steps,
 * then the confirmation's report. */
static void print_result(const json_t *r, const char *confirm_md)
{
	const char *outcome = json_string_value(json_object_get(r, "outcome"));
	const char *why = json_string_value(json_object_get(r, "why"));
	const json_t *culprit = json_object_get(r, "culprit"), *range = json_object_get(r, "range");
	const json_t *k, *skipped = json_object_get(r, "skipped");
	char *a, *b;
	size_t i;

	printf("# Bisect %lld: %s\n\n", (long long)json_integer_value(json_object_get(r, "bisect")),
	       outcome);
	a = json_label(json_object_get(r, "good"));
	b = json_label(json_object_get(r, "bad"));
	printf("From good %s to bad %s, metric %s, threshold %g%%.\n\n", a, b,
	       json_string_value(json_object_get(r, "metric")),
	       100 * json_real_value(json_object_get(r, "threshold")));
	free(a);
	free(b);
	if (culprit) {
		a = json_label(culprit);
		b = json_label(json_object_get(culprit, "parent"));
		printf("**Culprit: %s**, confirmed against %s %s (run %lld, %s).\n", a,
		       json_is_true(json_object_get(culprit, "exact_parent")) ? "its exact parent"
		       : "its nearest measurable ancestor", b,
		       (long long)json_integer_value(json_object_get(culprit, "run")),
		       json_string_value(json_object_get(culprit, "verdict")));
		free(a);
		free(b);
	} else if (range) {
		a = json_label(json_object_get(range, "after"));
		printf("**%s %zu commits after %s**: %s:\n\n", !strcmp(outcome, "spread")
		       ? "A change spread over the" : "Not narrowed further than the",
		       json_array_size(json_object_get(range, "commits")), a, why ? why : outcome);
		free(a);
		json_array_foreach(json_object_get(range, "commits"), i, k) {
			a = json_label(k);
			printf("- %s\n", a);
			free(a);
		}
	} else {
		printf("**No culprit**: %s.\n", why ? why : outcome);
	}
	if (json_array_size(skipped)) {
		printf("\nSkipped (like git bisect skip; their neighbours decided):\n\n");
		json_array_foreach(skipped, i, k) {
			a = json_label(k);
			printf("- %s: %s\n", a, json_string_value(json_object_get(k, "why")));
			free(a);
		}
	}
	print_steps(stdout, r);
	if (confirm_md)
		printf("\n%s", confirm_md);
	fflush(stdout);
}

/* The exit code of an outcome: 0 a culprit, 1 no single commit (no change,
 * a spread), 2 inconclusive, 3 invalid. */
static int outcome_exit(const char *outcome)
{
	if (!strcmp(outcome, "culprit"))
		return 0;
	if (!strcmp(outcome, "spread") || !strcmp(outcome, "no-change"))
		return 1;
	if (!strcmp(outcome, "invalid"))
		return 3;
	return 2;
}

/* Print the result, write --json, return the outcome's exit code. */
static int emit(struct bisect_ctx *c, const json_t *result)
{
	char *text = json_dumps(result, JSON_INDENT(2) | JSON_SORT_KEYS);
	int err;

	print_result(result, c->confirm_md);
	if (c->args->out.paths[AB_REPORT_FORMAT_JSON]) {
		size_t len = strlen(text);
		text = ab_xrealloc(text, len + 2);
		memcpy(text + len, "\n", 2);
		if ((err = cmd_write_output(c->args->out.paths[AB_REPORT_FORMAT_JSON], text, len + 1)) < 0) {
			free(text);
			return cmd_fail(err);
		}
	}
	free(text);
	if (!c->args->out.quiet)
		fprintf(stderr, "abtool: bisect %lld stored in %s\n", (long long)c->id,
			ab_store_path(c->store));
	return outcome_exit(json_string_value(json_object_get(result, "outcome")));
}

/* The search, its stored end and its output. */
static int drive(struct bisect_ctx *c)
{
	json_t *result;
	char *text;
	int rc, err;

	c->steps = json_array();
	ab_bisect_init(&c->b, c->n);
	cmd_install_signals();
	if ((rc = search(c)) != 0)
		return rc;
	result = result_json(c);
	text = json_dumps(result, JSON_COMPACT);
	err = ab_store_bisect_finish(c->store, c->id, ab_bisect_outcome_name(c->b.outcome), text);
	free(text);
	rc = err < 0 ? cmd_fail(err) : emit(c, result);
	json_decref(result);
	return rc;
}

/* The rows the comparisons measure: 1 without --row, else the subset's. */
static size_t measured_rows(const struct ab_experiment *exp)
{
	size_t r, n = 0, nrows = ab_experiment_nrows(exp);

	for (r = 0; r < nrows; r++)
		n += (size_t)ab_experiment_row_selected(exp, r);
	return n ? n : 1;
}

/* 0 when `pairs` pairs give a Hodges–Lehmann bound at one-sided level
 * `alpha_c` / 2 (the endpoints' level per direction, the strictest), else
 * the usage error naming the pairs needed. */
static int enough_pairs(int pairs, double alpha_c)
{
	double alpha = alpha_c / 2;
	double coverage;
	size_t k = 0;
	int need;

	ab_stats_walsh_k((size_t)pairs, alpha, &k, &coverage);
	if (k > 0)
		return 0;
	for (need = pairs + 1; need < 64; need++) {
		ab_stats_walsh_k((size_t)need, alpha, &k, &coverage);
		if (k > 0)
			break;
	}
	return cmd_usage("bisect", "%d pairs per comparison give no interval at the bisect's level "
			 "(one-sided %.2g per comparison and row, half of it per direction at the "
			 "endpoints; docs/history.md): give --pairs %d or more, or fewer rows with --row",
			 pairs, alpha_c, need);
}

/* 0 when a sequential step's last look has a bound at the endpoints'
 * level alpha_c / 2 per side, else the usage error. */
static int enough_looks(const struct ab_experiment *exp, double alpha_c)
{
	struct ab_seq_plan plan = exp->seq;
	struct ab_seq_boundaries b;

	plan.alpha = alpha_c / 2;
	if (ab_seq_boundaries(&plan, &b) == 0 && b.c[b.nlooks - 1] > 0)
		return 0;
	return cmd_usage("bisect", "the plan's last look (%zu pairs) gives no repeated interval at the "
			 "bisect's level (one-sided %.2g per comparison and row, half of it per direction at "
			 "the endpoints; docs/history.md): raise pairs.max, give --steps fixed --pairs N, or "
			 "fewer rows with --row", plan.looks[plan.nlooks - 1], alpha_c);
}

/* Check the experiment and the options; fill the threshold, metric, alpha
 * and how the steps run. */
static int prepare(struct bisect_ctx *c, struct ab_experiment *exp)
{
	const char *steps = c->o->steps;
	int err;

	if ((err = ab_experiment_select_rows(exp, c->args->run.rows, c->args->run.nrows)) < 0)
		return cmd_fail(err);
	/* A step is judged at the search's level (bisect.c). A sequential
	 * plan's steps run its looks with the alpha spent at that level and
	 * stop when decided, unless --steps fixed (or --pairs) asks for every
	 * pair of its maximum: stopping a fixed-sample interval early would be
	 * peeking at it (docs/history.md). */
	if (steps && !strcmp(steps, "sequential") && (!exp->sequential || c->args->run.pairs > 0))
		return cmd_usage("bisect", "--steps sequential: the experiment's plan is fixed%s; give it "
				 "pairs: {min, max} for looks", c->args->run.pairs > 0 ? " (--pairs)" : "");
	c->sequential = exp->sequential && c->args->run.pairs <= 0 && !(steps && !strcmp(steps, "fixed"));
	if (exp->sequential && !c->sequential)
		ab_experiment_set_pairs(exp, exp->pairs, 0);
	if (c->args->run.pairs > 0) {
		exp->pairs = c->args->run.pairs;
		if ((err = ab_experiment_check_pairs(exp, "--pairs")) < 0)
			return cmd_fail(err);
	}
	c->pairs = exp->pairs;
	c->threshold = isnan(c->o->threshold) ? smallest_margin(exp) : c->o->threshold;
	if (isnan(c->threshold))
		return cmd_usage("bisect", "--threshold: the experiment's rules set no margin; give the "
				 "smallest change that counts, e.g. --threshold 5%%");
	c->metric = ab_xstrdup(c->o->metric ? c->o->metric : exp->metric);
	if (metric_index(exp, c->metric) < 0)
		return cmd_usage("bisect", "--metric: the experiment has no metric '%s'", c->metric);
	c->alpha = BISECT_ALPHA / (double)(ab_bisect_max_comparisons(c->n) * measured_rows(exp));
	return c->sequential ? enough_looks(exp, c->alpha) : enough_pairs(exp->pairs, c->alpha);
}

/* A new bisect of experiment file `path`. */
static int start_bisect(struct bisect_ctx *c, const char *path)
{
	struct ab_experiment exp;
	struct ab_bisect_record rec;
	json_t *opts = NULL, *hexes, *subjects, *rows;
	char *text = NULL;
	size_t i;
	int err, rc;

	if ((err = ab_experiment_load(&exp, path)) < 0) {
		ab_experiment_release(&exp);
		return cmd_fail(err);
	}
	if ((err = ab_revs_first_parent_path(&c->hex, &c->subjects, &c->n, exp.repo, c->o->good,
					     c->o->bad)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if ((rc = prepare(c, &exp)) != 0)
		goto out;
	if ((err = cmd_open_store(&c->store, c->args->store, exp.repo, CMD_STORE_WRITE)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	cmd_store_experiment_project(c->store, &exp);
	c->seed = c->args->run.have_seed ? c->args->run.seed : ab_plan_random_seed();
	/* absolute: the bisect resumes from any folder */
	c->exp_path = ab_path_absolute(NULL, path);
	memcpy(c->exp_hash, exp.hash, sizeof(c->exp_hash));
	hexes = json_array();
	subjects = json_array();
	rows = json_array();
	for (i = 0; i < c->n; i++) {
		json_array_append_new(hexes, json_string(c->hex[i]));
		json_array_append_new(subjects, json_string(c->subjects[i]));
	}
	for (i = 0; i < c->args->run.nrows; i++)
		json_array_append_new(rows, json_string(c->args->run.rows[i]));
	opts = json_pack("{s:o, s:o, s:o, s:s, s:f, s:i, s:b, s:i, s:I, s:f, s:s, s:i}", "path", hexes,
			 "subjects", subjects, "rows", rows, "metric", c->metric,
			 "threshold", c->threshold, "pairs", c->args->run.pairs,
			 "have_warmup", c->args->run.have_warmup, "warmup", c->args->run.warmup,
			 "seed", (json_int_t)c->seed, "alpha", c->alpha,
			 "steps", c->sequential ? "sequential" : "fixed", "step_pairs", c->pairs);
	text = json_dumps(opts, JSON_COMPACT);
	rec = (struct ab_bisect_record){0, "", exp.repo, c->exp_path, exp.hash, c->hex[0], c->hex[c->n - 1],
					text};
	if ((err = ab_store_bisect_create(c->store, &rec)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	c->id = rec.id;
	memcpy(c->uuid, rec.uuid, sizeof(c->uuid));
	if (!c->args->out.quiet)
		fprintf(stderr, "abtool: bisect %lld: %zu commits after %.10s up to %.10s, %s by at least "
			"%g%%; at most %zu comparisons\n", (long long)c->id, c->n - 1, c->hex[0],
			c->hex[c->n - 1], c->metric, 100 * c->threshold, ab_bisect_max_comparisons(c->n));
	rc = drive(c);
out:
	free(text);
	json_decref(opts);
	ab_experiment_release(&exp);
	return rc;
}

/* Fill the context from stored options (a resume); 0 or an exit code. */
static int load_stored(struct bisect_ctx *c, const json_t *bis)
{
	const json_t *opts = json_object_get(bis, "options"), *v;
	const json_t *path = json_object_get(opts, "path"), *subjects = json_object_get(opts, "subjects");
	struct ab_experiment exp;
	size_t i;
	int err;

	c->exp_path = ab_xstrdup(json_string_value(json_object_get(bis, "experiment_path")));
	if ((err = ab_experiment_load(&exp, c->exp_path)) < 0) {
		ab_experiment_release(&exp);
		return cmd_fail(err);
	}
	err = strcmp(exp.hash, json_string_value(json_object_get(bis, "experiment_hash")));
	{
		/* its steps are runs of the experiment's project, wherever it resumes */
		char *project = NULL;
		if (!err && cmd_repository_project(&project, exp.repo) == 0 && project)
			ab_store_set_project(c->store, project);
		ab_error_clear();
		free(project);
		cmd_store_experiment_project(c->store, &exp);
	}
	ab_experiment_release(&exp);
	if (err)
		return cmd_fail(ab_error_set(AB_EINVALID, "%s changed since bisect %lld started; a bisect "
					     "compares one experiment file: restore it or start a new "
					     "bisect", c->exp_path, (long long)c->id));
	c->n = json_array_size(path);
	for (i = 0; i < c->n; i++) {
		ab_strv_push(&c->hex, ab_xstrdup(json_string_value(json_array_get(path, i))));
		ab_strv_push(&c->subjects, ab_xstrdup(json_string_value(json_array_get(subjects, i))));
	}
	json_array_foreach(json_object_get(opts, "rows"), i, v) {
		c->args->run.rows = ab_xrealloc(c->args->run.rows, (i + 1) * sizeof(*c->args->run.rows));
		c->args->run.rows[i] = json_string_value(v);
		c->args->run.nrows = i + 1;
	}
	c->metric = ab_xstrdup(json_string_value(json_object_get(opts, "metric")));
	c->threshold = json_real_value(json_object_get(opts, "threshold"));
	c->alpha = json_real_value(json_object_get(opts, "alpha"));
	c->seed = (uint64_t)json_integer_value(json_object_get(opts, "seed"));
	c->args->run.pairs = (int)json_integer_value(json_object_get(opts, "pairs"));
	/* a bisect stored before --steps ran fixed steps of its pairs: (their
	 * runs were started with --pairs, or the file's plan) */
	c->sequential = json_is_string(json_object_get(opts, "steps")) &&
			!strcmp(json_string_value(json_object_get(opts, "steps")), "sequential");
	c->pairs = (int)json_integer_value(json_object_get(opts, "step_pairs"));
	if (c->pairs <= 0)
		c->pairs = c->args->run.pairs;
	snprintf(c->uuid, sizeof(c->uuid), "%s", json_string_value(json_object_get(bis, "uuid")) ?
		 json_string_value(json_object_get(bis, "uuid")) : "");
	c->args->run.have_warmup = json_is_true(json_object_get(opts, "have_warmup"));
	c->args->run.warmup = (int)json_integer_value(json_object_get(opts, "warmup"));
	c->stored_steps = json_object_get(bis, "steps");
	return c->n >= 2 ? 0 : cmd_fail(ab_error_set(AB_EINVALID, "bisect %lld has no stored path",
						     (long long)c->id));
}

/* `abtool bisect --resume ID`: finish a stored bisect, or show its result. */
static int resume_bisect(struct bisect_ctx *c)
{
	json_t *result;
	int err, rc;

	if ((err = cmd_open_store(&c->store, c->args->store, NULL, CMD_STORE_READ)) < 0 ||
	    (err = ab_store_bisect_resolve(c->store, c->o->resume, &c->id)) < 0 ||
	    (err = ab_store_bisect_get(c->store, c->id, &c->stored)) < 0)
		return cmd_fail(err);
	result = json_object_get(c->stored, "result");
	if (json_is_object(result)) {
		const json_t *culprit = json_object_get(result, "culprit");
		if (!c->args->out.quiet)
			fprintf(stderr, "abtool: bisect %lld finished on %s; its stored result:\n",
				(long long)c->id, json_string_value(json_object_get(c->stored, "finished_at")));
		if (culprit)
			stored_confirmation(c, json_integer_value(json_object_get(culprit, "run")));
		return emit(c, result);
	}
	if ((rc = load_stored(c, c->stored)) != 0)
		return rc;
	if (!c->args->out.quiet)
		fprintf(stderr, "abtool: resuming bisect %lld: %zu of its steps are stored\n",
			(long long)c->id, json_array_size(c->stored_steps));
	return drive(c);
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = {NULL, NULL, NULL, NULL, NULL, NAN};
	struct bisect_ctx c;
	struct cmd_args args;
	int rc;

	memset(&c, 0, sizeof(c));
	cmd_args_init(&args, "bisect", bisect_option, &o);
	c.o = &o;
	c.args = &args;
	if ((rc = cmd_parse_options(&args, cmd_bisect_options, argc, argv)) != CMD_GO_ON)
		goto out;
	if (o.resume) {
		rc = optind != argc ? cmd_usage("bisect", "--resume ID takes no experiment file: the "
						 "bisect's stored one is used")
				    : resume_bisect(&c);
	} else if (optind != argc - 1) {
		rc = cmd_usage("bisect", "expected one experiment file");
	} else if (!o.good || !o.bad) {
		rc = cmd_usage("bisect", "give --good REV (before the change) and --bad REV (after it)");
	} else {
		rc = start_bisect(&c, argv[optind]);
	}
	if (c.store && c.id)
		cmd_cache_cap(NULL, c.store, args.out.quiet);
out:
	ab_bisect_release(&c.b);
	json_decref(c.steps);
	json_decref(c.stored);
	json_decref(c.confirm_rows);
	free(c.confirm_md);
	free(c.confirm_verdict);
	free(c.exp_path);
	free(c.metric);
	ab_strv_free(c.hex);
	ab_strv_free(c.subjects);
	ab_store_close(c.store);
	cmd_args_release(&args);
	return rc;
}
