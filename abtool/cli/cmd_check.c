/* cmd_check.c - `abtool check EXP.yaml`: validate an experiment file and
 * its revisions without running anything, and show what a run would do:
 * the rows, the rows each rule selects, and the samples of the plan. */
#include "cmd.h"
#include "analysis.h"
#include "env.h"
#include "error.h"
#include "predicates.h"
#include "revs.h"
#include "run.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* From earlier runs of the same experiment file: the expected time of
 * the samples (builds are cached after the first run). */
static void print_expected_time(struct ab_store *store, const struct ab_experiment *exp, size_t nrows)
{
	double *mean = ab_xmalloc(nrows * sizeof(double)), total = 0;
	size_t r, known = 0;
	int64_t runs = 0;
	char buf[32];

	if (ab_store_sample_times(store, exp->hash, nrows, mean, &runs) == 0 && runs > 0) {
		for (r = 0; r < nrows; r++)
			if (!isnan(mean[r])) {
				total += mean[r] * 2 * (exp->pairs + exp->warmup);
				known++;
			}
		if (known)
			printf("expected  about %s of samples (from %lld earlier run%s%s)\n",
			       ab_format_ns(buf, sizeof(buf), total * (double)nrows / (double)known),
			       (long long)runs, runs == 1 ? "" : "s",
			       known < nrows ? ", rows never measured are assumed average" : "");
	}
	free(mean);
}

/* A sequential plan (docs/statistics.md, "Sequential plans"): its looks,
 * spending, maximum and budget, its boundaries, and how min_pair_wins
 * counts are read. */
static void print_sequential(const struct ab_experiment *exp, size_t measured)
{
	struct ab_seq_boundaries b;
	const struct ab_predicate *p;
	char when[32];
	size_t k, i;

	printf("plan      sequential: looks at");
	for (k = 0; k < exp->seq.nlooks; k++)
		printf("%s %zu", k ? "," : "", exp->seq.looks[k]);
	printf(" pairs per row, %s spending of the one-sided %.3g%%", ab_seq_spending_name(exp->seq.spending),
	       100 * exp->seq.alpha);
	if (exp->budget_ms > 0)
		printf(", budget %s", ab_format_ns(when, sizeof(when), 1e6 * (double)exp->budget_ms));
	printf("; %zu to %zu samples with %d warmup pair%s per row, metric %s\n",
	       measured * 2 * (exp->seq.looks[0] + (size_t)exp->warmup),
	       measured * 2 * (size_t)(exp->pairs + exp->warmup), exp->warmup, exp->warmup == 1 ? "" : "s",
	       exp->metric);
	if (ab_seq_boundaries(&exp->seq, &b) == 0) {
		printf("looks    ");
		for (k = 0; k < b.nlooks; k++)
			printf("%s %zu pairs: c %zu (fixed-n level %.4f, spent %.4f, crossing %.5f%s)", k ? ";" : "",
			       b.looks[k], b.c[k], b.nominal[k], b.spent[k], b.crossing[k],
			       k < b.exact_looks ? " exact" : "");
		if (b.exact_looks == b.nlooks)
			printf("\n          attained one-sided level %.5f, exact", b.alpha);
		else
			printf("\n          attained one-sided level %.5f (standard error %.5f over %zu simulated "
			       "paths; the counts keep %g standard errors inside the alpha spent: at most %.5f)",
			       b.alpha, b.se, b.rows, b.margin_se, b.alpha_bound);
		printf("\n          for each row, its repeated intervals cover its true ratio together with "
		       "probability >= %.4g%% (a level per row: of many rows, some miss)\n", 100 * b.coverage);
	}
	for (i = 0; i < exp->nrules; i++)
		for (p = ab_predicates; p->name; p++)
			if (p->decide == AB_DECIDE_PAIR_WINS && p->store != AB_STORE_DOUBLE &&
			    ab_predicate_is_set(p, &exp->rules[i]))
				printf("note      rule '%s': min_pair_wins %lld is read as %lld of %zu of the "
				       "pairs a row uses (a share), judged at its last look\n", exp->rules[i].name,
				       (long long)ab_predicate_count(p, &exp->rules[i]),
				       (long long)ab_predicate_count(p, &exp->rules[i]), exp->seq.looks[0]);
}

/* The overlay and the dependencies, resolved. */
static void print_inputs(const struct ab_run *run)
{
	const json_t *path;
	size_t i;

	if (run->overlay) {
		printf("overlay   from %s %.10s:", json_string_value(json_object_get(run->overlay, "from")),
		       json_string_value(json_object_get(run->overlay, "source")));
		json_array_foreach(json_object_get(run->overlay, "paths"), i, path)
			printf("%s %s (%s %.10s)", i ? "," : "", json_string_value(json_object_get(path, "path")),
			       json_string_value(json_object_get(path, "type")),
			       json_string_value(json_object_get(path, "oid")));
		printf(", on both sides\n");
	}
	for (i = 0; i < run->ndeps; i++)
		printf("dependency %s: parent %.10s %s, candidate %.10s %s\n", run->exp->dependencies[i].name,
		       run->deps[i].parent_hex, run->deps[i].parent_subject,
		       run->deps[i].candidate_hex, run->deps[i].candidate_subject);
}

/* A rule whose only deciding predicates are observational (pair wins, the
 * point estimate, per-side scaling) passes or fails on observed values
 * with no interval behind them: say how often noise alone passes it. */
static void warn_observational(const struct ab_rule *rule, int pairs)
{
	const struct ab_predicate *p;
	char *why = ab_xstrdup(""), *next, *note;

	for (p = ab_predicates; p->name; p++)
		if (p->kind == AB_PREDICATE_INFERENTIAL && ab_predicate_is_set(p, rule)) {
			free(why);
			return;
		}
	for (p = ab_predicates; p->name; p++) {
		if (p->kind != AB_PREDICATE_OBSERVATIONAL || !ab_predicate_is_set(p, rule))
			continue;
		/* as the rules decide: with both estimates set, max_ratio's */
		if (p->decide == AB_DECIDE_ESTIMATE && p->side == AB_PASS_ABOVE &&
		    ab_predicate_is_set(ab_predicate_find("max_ratio", "estimate"), rule))
			continue;
		note = ab_predicate_observed_note(p, rule, pairs);
		next = ab_xasprintf("%s%s%s", why, *why ? "; " : "", note);
		free(note);
		free(why);
		why = next;
	}
	if (*why)
		cmd_warn("rule '%s' decides on observed values only: %s; add an inferential predicate "
			 "(no_regression, faster_by, ...) to decide on the interval", rule->name, why);
	free(why);
}

/* What a run of this plan would regret: too few pairs to decide, an
 * unbalanced last block, changes in the work tree that are not measured. */
static void warn_plan(struct ab_run *run)
{
	const struct ab_experiment *exp = run->exp;
	size_t i;

	if (exp->pairs < 5)
		cmd_warn("pairs: %d: fewer than 5 pairs can never give a one-sided 95%% bound (2^-%d > 0.05), so "
			 "no inferential rule (no_regression, faster_by, ...) can pass or fail; plan 8 or more",
			 exp->pairs, exp->pairs);
	else if (exp->pairs % 2)
		cmd_warn("pairs: %d is odd: the orders are balanced in AB|BA blocks of two pairs, so one "
			 "order runs once more per row; an even count balances them", exp->pairs);
	if (!exp->sequential && exp->budget_ms > 0)
		cmd_warn("budget: only a sequential plan (pairs: {min, max}, or --max-pairs) stops at a look; "
			 "this plan is fixed at %d pairs, so the budget changes nothing", exp->pairs);
	for (i = 0; i < exp->nrules; i++)
		warn_observational(&exp->rules[i], (int)ab_experiment_first_look(exp));
	if (ab_revs_dirty(&run->revs) > 0)
		cmd_warn("the work tree of '%s' has uncommitted changes: a run measures commits, not them",
			 run->revs.workdir ? run->revs.workdir : exp->repo);
}

/*
 * What the host says about the metric: when the rules decide on wall time
 * and other processes use half a CPU or more now (ab_env_busy_processes,
 * AB_ENV_BUSY_WINDOW_NS), a sample will wait for a CPU, which stretches
 * both sides' wall time alike: say so, and that CPU time counts the work
 * only. A host warning ("host: "), as the run's own host report is.
 */
static void warn_metric(const struct ab_experiment *exp)
{
	json_t *fp;
	double other;

	if (strcmp(exp->metric, "wall_ns"))
		return;
	fp = json_object();
	ab_env_busy_processes(fp, "", AB_ENV_BUSY_WINDOW_NS);
	other = json_number_value(json_object_get(fp, "other_cpus"));
	if (json_is_number(json_object_get(fp, "other_cpus")) && other >= 0.5)
		cmd_warn("host: other processes use %.1f CPUs now and the rules decide on wall_ns, which counts a "
			 "sample's waits for a CPU: they stretch both sides' times alike, draw the ratio toward 1 "
			 "and take more pairs; for a single-threaded benchmark metric: cpu_ns counts its work only "
			 "('abtool calibrate' measures both spreads on this host and says which needs fewer pairs)",
			 other);
	json_decref(fp);
}

const struct cmd_option cmd_check_options[] = {
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_REVISION_OPTIONS,
	CMD_PIN_OPTIONS,
	CMD_ROW_OPTION,
	{"pairs", 0, "N", "check the plan with N pairs per row instead of the file's pairs: (a fixed "
	 "plan)", NULL, CMD_PLAN, 'p', 1, 100000},
	CMD_MAX_PAIRS_OPTION,
	CMD_OPTIONS_END,
};

/* Resolve and print what the two sides are: two commands (sides:), or the
 * revisions with the overlay's paths and the dependencies, as run resolves
 * them. Prints the file's first lines; returns the error before them. */
static int print_sides_or_revisions(struct ab_run *run, const struct ab_run_options *opt)
{
	const struct ab_experiment *exp = run->exp;
	struct ab_revs *revs = &run->revs;
	int err, i;

	if (!exp->has_sides &&
	    ((err = ab_revs_open(revs, exp->repo, opt->candidate ? opt->candidate : exp->candidate,
				 opt->parent ? opt->parent : exp->parent, opt->parent ? 0 : exp->exact_parent)) < 0 ||
	     (err = ab_run_resolve_inputs(run, opt)) < 0))
		return err;
	if (exp->has_sides && (opt->candidate || opt->parent || opt->ndep_pins || opt->overlay_from))
		return ab_error_set(AB_EINVALID, "--candidate, --parent, --dependency, --overlay-from: the "
				    "experiment compares two commands (sides:), not revisions");
	printf("%s: ok\n", exp->path);
	printf("experiment %s (design %s)\n", exp->name, exp->design);
	for (i = 0; exp->has_sides && i < 2; i++) {
		char *cmd = ab_command_display(&exp->sides[i].command);
		printf("side %s    %s: %s\n", i ? "b" : "a", exp->sides[i].name, cmd);
		free(cmd);
	}
	if (exp->has_sides)
		return 0;
	printf("parent    %s %s%s\n", revs->parent_hex, revs->parent_subject,
	       revs->exact_parent ? " (exact parent)" : " (NOT the exact parent)");
	printf("candidate %s %s\n", revs->candidate_hex, revs->candidate_subject);
	if (revs->parent_descends)
		cmd_warn_swapped(revs);
	return 0;
}

/* The rows line: the selected rows' labels; returns how many are
 * selected (measured) of the `nrows`. */
static size_t print_rows(const struct ab_experiment *exp, size_t nrows)
{
	size_t r, i, measured;

	for (r = 0, measured = 0; r < nrows; r++)
		measured += (size_t)ab_experiment_row_selected(exp, r);
	if (exp->row_subset)
		printf("rows      %zu of %zu (--row, a partial run):", measured, nrows);
	else
		printf("rows      %zu:", nrows);
	for (r = 0, i = 0; r < nrows; r++) {
		char *label;
		if (!ab_experiment_row_selected(exp, r))
			continue;
		label = ab_row_label(exp, r);
		printf("%s %s", i++ ? "," : "", label);
		free(label);
	}
	printf("\n");
	return measured;
}

/* One rule's line: the selected rows it applies to. */
static void print_rule(const struct ab_experiment *exp, const struct ab_rule *rule, size_t nrows)
{
	size_t n = 0, outside = 0, r;

	printf("rule      %s:", rule->name);
	for (r = 0; r < nrows; r++) {
		char *label;
		if (!ab_selector_match(&rule->where, exp, r))
			continue;
		if (!ab_experiment_row_selected(exp, r)) {
			outside++;
			continue;
		}
		label = ab_row_label(exp, r);
		printf("%s %s", n++ ? "," : "", label);
		free(label);
	}
	printf("%s\n", !n && outside ? " not evaluated: every row it selects is outside the subset" : "");
}

/* What earlier runs of this experiment file say (expected time,
 * calibration), when there is a store already (--store `flag`, or the
 * one of exp's repository): check never creates one. */
static void print_history(const struct ab_experiment *exp, const char *flag, size_t nrows)
{
	struct ab_store *store = NULL;
	char *path = NULL, *project = NULL;

	if (cmd_store_path(&path, flag, exp->repo) == 0 && access(path, F_OK) == 0 &&
	    ab_store_open(&store, path) == 0) {
		/* the runs of this experiment in its project (claiming nothing) */
		if (cmd_repository_project(&project, exp->repo) == 0)
			ab_store_set_project(store, project);
		cmd_store_experiment_project(store, exp);
		free(project);
		print_expected_time(store, exp, nrows);
		cmd_print_calibration(stdout, store, exp);
		ab_store_close(store);
	}
	free(path);
}

int cmd_check(int argc, char **argv)
{
	struct ab_experiment exp;
	struct ab_run run;
	struct cmd_args args;
	const struct ab_run_options *opt = &args.run;
	size_t nrows, i, measured;
	int err, rc = 0, stop;

	memset(&run, 0, sizeof(run));
	cmd_args_init(&args, "check", NULL, NULL);
	if ((stop = cmd_parse_options(&args, cmd_check_options, argc, argv)) != CMD_GO_ON) {
		rc = stop;
		goto out_pins;
	}
	cmd_plain_stdout();  /* subjects and names come from the repository */
	if (optind != argc - 1) {
		rc = cmd_usage("check", "expected one experiment file");
		goto out_pins;
	}
	if ((err = ab_experiment_load(&exp, argv[optind])) < 0) {
		rc = cmd_fail(err);
		ab_experiment_release(&exp);
		goto out_pins;
	}
	if ((err = ab_experiment_select_rows(&exp, opt->rows, opt->nrows)) < 0 ||
	    (err = ab_experiment_set_pairs(&exp, opt->pairs, opt->max_pairs)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	run.exp = &exp;
	if ((err = print_sides_or_revisions(&run, opt)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	nrows = ab_experiment_nrows(&exp);
	print_inputs(&run);
	measured = print_rows(&exp, nrows);
	for (i = 0; exp.subset_added && exp.subset_added[i]; i++)
		printf("added     %s: the base row a scaling predicate needs\n", exp.subset_added[i]);
	if (exp.sequential)
		print_sequential(&exp, measured);
	else
		printf("plan      %zu samples: %d pairs and %d warmup pair%s per row, metric %s\n",
		       measured * 2 * (size_t)(exp.pairs + exp.warmup), exp.pairs, exp.warmup,
		       exp.warmup == 1 ? "" : "s", exp.metric);
	for (i = 0; i < exp.nrules; i++)
		print_rule(&exp, &exp.rules[i], nrows);
	if (!exp.nrules)
		printf("rules     none: the verdict will be inconclusive\n");
	warn_plan(&run);
	warn_metric(&exp);
	print_history(&exp, args.store, nrows);
out:
	ab_run_release(&run);
	ab_experiment_release(&exp);
out_pins:
	cmd_args_release(&args);
	return rc;
}
