/* run_finish.c - a run's finish: the analysis, the report document and
 * the stored verdict (see run.h). */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "executor.h"
#include "error.h"
#include "inputs.h"
#include "jsontext.h"
#include "report.h"
#include "rules.h"
#include "runner.h"
#include "shards.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static json_t *build_json(const struct ab_build *b, const char *side, const struct ab_command *cmd)
{
	char *display = cmd && (cmd->shell || cmd->argv) ? ab_command_display(cmd) : ab_xstrdup("");
	json_t *o = json_pack("{s:s, s:s, s:b, s:s, s:I, s:O}", "side", side, "command", display,
			      "cached", b->cached, "status", ab_build_status_name(b->status),
			      "duration_ns", (json_int_t)b->duration_ns, "artifacts", b->artifacts);

	if (b->detail)
		json_object_set_new(o, "detail", json_string(b->detail));
	free(display);
	return o;
}

/* Append `more` (a new string, freed here) to the new string *out. */
static void append(char **out, char *more)
{
	char *with = ab_xasprintf("%s%s", *out, more);

	free(more);
	free(*out);
	*out = with;
}

/* The command line's start: the command (run, calibrate, or abtool
 * compare's own), the experiment file, the revisions and the seed, and
 * the plan's arguments. New string. */
static char *reproduce_base(const struct ab_run *run)
{
	const char *path = json_string_value(json_object_get(run->options, "experiment_abspath"));
	char *file, *out, *pairs;
	const char *sep;

	if (!path || !*path)
		path = json_string_value(json_object_get(run->options, "experiment_path"));
	file = ab_shell_quote(path && *path ? path : "EXP.yaml", 0);
	pairs = ab_experiment_plan_args(run->exp);
	sep = *pairs ? " " : "";
	if (json_is_string(json_object_get(run->options, "reproduce")))  /* abtool compare */
		out = ab_xasprintf("%s --seed %llu%s%s",
				   json_string_value(json_object_get(run->options, "reproduce")),
				   (unsigned long long)run->meta.seed, sep, pairs);
	else if (run->exp->has_sides)  /* two commands: the file says everything */
		out = ab_xasprintf("abtool run %s --seed %llu%s%s", file,
				   (unsigned long long)run->meta.seed, sep, pairs);
	else if (!strcmp(run->kind, "calibrate"))  /* both sides are the parent: pin it */
		out = ab_xasprintf("abtool calibrate %s --parent %s --seed %llu --pairs %d", file,
				   run->revs.parent_hex, (unsigned long long)run->meta.seed, run->exp->pairs);
	else if (!run->revs.exact_parent)
		out = ab_xasprintf("abtool run %s --candidate %s --parent %s --seed %llu%s%s", file,
				   run->revs.candidate_hex, run->revs.parent_hex,
				   (unsigned long long)run->meta.seed, sep, pairs);
	else
		out = ab_xasprintf("abtool run %s --candidate %s --seed %llu%s%s", file,
				   run->revs.candidate_hex, (unsigned long long)run->meta.seed, sep, pairs);
	free(pairs);
	free(file);
	return out;
}

/* The command line that runs the experiment again: the experiment file by
 * its absolute path (the run may have been started in another folder),
 * each word quoted for the shell where it needs it. */
static char *reproduce_command(const struct ab_run *run)
{
	const json_t *cmds = json_object_get(run->options, "reproduce_commands"), *v;
	const char *from = json_string_value(json_object_get(run->overlay, "from"));
	char *out = reproduce_base(run);
	size_t i;

	/* The other repositories' commits and the overlay's source, pinned:
	 * their revspecs (a dependency's HEAD, overlay.from: HEAD) may have
	 * moved by the time the line is run. An overlay from the candidate or
	 * the parent is pinned by those already. A calibration's dependencies
	 * are at their parent on both sides: PARENT..PARENT. */
	for (i = 0; i < run->ndeps; i++) {
		char *pin = ab_xasprintf("%s=%s..%s", run->exp->dependencies[i].name,
					 run->deps[i].parent_hex, run->deps[i].candidate_hex);
		char *quoted = ab_shell_quote(pin, 0);

		append(&out, ab_xasprintf(" --dependency %s", quoted));
		free(pin);
		free(quoted);
	}
	if (run->overlay && strcmp(from, "candidate") && strcmp(from, "parent"))
		append(&out, ab_xasprintf(" --overlay-from %s",
					  json_string_value(json_object_get(run->overlay, "source"))));
	/* a subset and a warmup other than the file's */
	if (json_is_integer(json_object_get(run->options, "warmup")))
		append(&out, ab_xasprintf(" --warmup %d", run->exp->warmup));
	json_array_foreach(json_object_get(run->options, "rows"), i, v) {
		char *quoted = ab_shell_quote(json_string_value(v) ? json_string_value(v) : "", 0);

		append(&out, ab_xasprintf(" --row %s", quoted));
		free(quoted);
	}
	if (run->exp->shard_count)
		append(&out, ab_shards_reproduce_args(run->exp,
						      json_string_value(json_object_get(run->options, "group"))));
	if (json_is_string(json_object_get(run->options, "design"))) {
		char *design = ab_shell_quote(json_string_value(json_object_get(run->options, "design")), 0);

		append(&out, ab_xasprintf(" --design %s", design));
		free(design);
	}
	if (json_array_size(cmds) == 2) {
		/* abtool compare's two commands come last, after `--` when one
		 * could pass for an option */
		const char *a = json_string_value(json_array_get(cmds, 0));
		const char *b = json_string_value(json_array_get(cmds, 1));
		char *qa = ab_shell_quote(a ? a : "", 0), *qb = ab_shell_quote(b ? b : "", 0);

		append(&out, ab_xasprintf("%s %s %s", (a && *a == '-') || (b && *b == '-') ? " --" : "",
					  qa, qb));
		free(qa);
		free(qb);
	}
	return out;
}

/* The load after the samples, beside the one taken at the start, into the
 * run's host (and the host a resumed run started on) and the store. The
 * store's error. */
static int record_load_after(struct ab_run *run)
{
	json_t *after;
	char *text;
	int err;

	ab_env_record_load_after(run->host, run->executor ? run->executor->host_root : "");
	after = json_pack("{s:O, s:O, s:O}", "load_after_1m", json_object_get(run->host, "load_after_1m"),
			  "load_after_5m", json_object_get(run->host, "load_after_5m"),
			  "load_after_15m", json_object_get(run->host, "load_after_15m"));
	text = json_dumps(after, JSON_COMPACT);
	if (run->host_started)  /* a resumed run's report shows the host it started on */
		json_object_update(run->host_started, after);
	json_decref(after);
	err = ab_store_run_patch_host(run->store, run->meta.id, text);
	free(text);
	return err;
}

/* The inputs' content at the end: a change that kept size and time shows
 * here, as a line of the run's integrity. */
static void check_inputs_at_end(struct ab_run *run)
{
	json_t *now = NULL;
	char hash[65];
	const char *changed;

	if (ab_inputs_hash(&now, hash, run->exp->inputs) < 0)
		ab_strv_push(&run->integrity, ab_xasprintf("inputs could not be hashed at the end of "
							   "the run: %s", ab_error_last()));
	else if ((changed = ab_inputs_changed(run->inputs, now)))
		ab_strv_push(&run->integrity, ab_xasprintf("inputs changed during the run: %s has "
							   "another content hash at the end", changed));
	json_decref(now);
}

/* The report document's input of a finished run (report.h): `builds`,
 * `earlier` and `reproduce` borrowed; in->dependencies is new (the caller
 * frees it). */
static void report_input(struct ab_report_input *in, const struct ab_run *run, const struct ab_analysis *a,
			 json_t *builds, json_t *earlier, const char *reproduce)
{
	const struct ab_experiment *exp = run->exp;
	size_t i;

	memset(in, 0, sizeof(*in));
	in->exp = exp;
	in->analysis = a;
	in->run_id = run->meta.id;
	in->run_uuid = run->meta.uuid;
	in->created_at = run->created_at;
	in->repo = exp->has_sides ? "" : exp->repo;
	if (!exp->has_sides) {  /* a comparison of two commands has no revisions: null */
		in->parent_oid = run->revs.parent_hex;
		in->candidate_oid = run->revs.candidate_hex;
		in->parent_tree = run->revs.parent_tree_hex;
		in->candidate_tree = run->revs.candidate_tree_hex;
	}
	in->parent_subject = run->revs.parent_subject;
	in->candidate_subject = run->revs.candidate_subject;
	in->exact_parent = run->revs.exact_parent;
	in->seed = run->meta.seed;
	in->builds = builds;
	/* A resumed run's host is the one it started on, as `show` says; the
	 * "resumed" member says where it was finished. */
	in->host = run->host_started ? run->host_started : run->host;
	in->earlier = earlier;
	in->identity = run->identity;
	in->reproduce = reproduce;
	in->overlay = run->overlay;
	in->dependencies = run->ndeps ? ab_run_deps_json(run) : NULL;
	in->inputs = run->inputs;
	in->inputs_hash = run->inputs_hash;
	in->kind = run->kind;
	in->host_now = run->host;
	if (run->resumed) {
		for (i = 0; i < run->nsamples; i++)
			in->superseded_samples += run->samples[i].status == AB_SAMPLE_SUPERSEDED;
		in->resumed = 1;
		in->started_on = json_string_value(json_object_get(run->host_started, "hostname"));
		in->host_change = run->host_change;
	}
	if (json_is_true(json_object_get(run->options, "dirty_worktree")))
		in->dirty_workdir = run->revs.workdir ? run->revs.workdir : exp->repo;
	in->calibration_block = (size_t)run->block_pairs;
	in->samples = run->samples;
	in->nsamples = run->nsamples;
}

int ab_run_finish(struct ab_run *run, struct ab_analysis *a, json_t **doc_out)
{
	const struct ab_experiment *exp = run->exp;
	struct ab_report_input in;
	struct ab_rule_record *rules;
	json_t *doc, *builds = json_array(), *earlier = NULL;
	char *reproduce = reproduce_command(run), *reasons, *text;
	size_t i;
	int err, side;

	*doc_out = NULL;
	if ((err = record_load_after(run)) < 0 || (err = ab_run_load_samples(run)) < 0)
		goto out_free;
	if (run->inputs)
		check_inputs_at_end(run);
	ab_analysis_run(a, exp, run->samples, run->nsamples);
	ab_rules_evaluate(a, run->integrity, run->env_unmet);
	if ((err = ab_store_same_comparison(run->store, exp->hash, run->revs.parent_hex,
					    run->revs.candidate_hex, run->inputs_hash, run->meta.id, &earlier)) < 0)
		goto out_free;
	for (side = 0; side < 2 && !exp->has_sides; side++)  /* two commands: nothing built */
		json_array_append_new(builds, build_json(&run->builds[side], ab_side_name((enum ab_side)side),
							 &exp->build));
	report_input(&in, run, a, builds, earlier, reproduce);
	doc = ab_report_document(&in);
	json_decref(in.dependencies);

	rules = ab_xcalloc(exp->nrules + 1, sizeof(*rules));
	for (i = 0; i < exp->nrules; i++) {
		rules[i].name = exp->rules[i].name;
		rules[i].outcome = ab_outcome_name(a->rules[i].outcome);
		rules[i].detail = a->rules[i].detail;
	}
	reasons = json_dumps(json_object_get(doc, "reasons"), JSON_COMPACT);
	text = ab_report_json_text(doc);
	err = ab_store_run_finish(run->store, run->meta.id, json_string_value(json_object_get(doc, "verdict")),
				  reasons, text, rules, exp->nrules);
	free(reasons);
	free(text);
	free(rules);
	if (err < 0)
		json_decref(doc);
	else
		*doc_out = doc;
out_free:
	json_decref(builds);
	json_decref(earlier);
	free(reproduce);
	return err;
}
