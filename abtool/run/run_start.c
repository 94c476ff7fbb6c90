/* run_start.c - a run's start, new (ab_run_start) or resumed
 * (ab_run_resume): revisions, host fingerprint, stored plan, builds (see
 * run.h). */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "executor.h"
#include "report.h"
#include "runner.h"
#include "shards.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char **row_params(const struct ab_experiment *exp, size_t nrows)
{
	char **v = ab_xcalloc(nrows + 1, sizeof(*v));
	size_t r;

	for (r = 0; r < nrows; r++) {
		json_t *p = ab_row_params(exp, r);
		v[r] = json_dumps(p, JSON_COMPACT);
		json_decref(p);
	}
	return v;
}

/* Captured text as a JSON string of at most `cap` bytes, cut at a UTF-8
 * character boundary, with a note when cut (new reference). */
static json_t *bounded_text(const struct ab_output *o, size_t cap)
{
	size_t n = o->data ? o->len : 0;
	json_t *j;
	char *s;

	if (n <= cap) {
		j = json_stringn(o->data ? o->data : "", n);
		return j ? j : json_string("[abtool: output is not UTF-8 text]");
	}
	while (cap > 0 && ((unsigned char)o->data[cap] & 0xC0) == 0x80)
		cap--;
	s = ab_xasprintf("%.*s\n[abtool: %zu more bytes not kept]\n", (int)cap, o->data, n - cap);
	j = json_string(s);
	if (!j)  /* not UTF-8: keep it readable rather than drop it */
		j = json_string("[abtool: output is not UTF-8 text]");
	free(s);
	return j;
}

void ab_run_env_commands(json_t *fp, char *const *commands, const char *cwd, int64_t timeout_ms)
{
	json_t *outputs = json_object(), *results = json_object();
	char *const *c;
	char why[256];

	for (c = commands; c && *c; c++) {
		struct ab_runner_spec rs;
		struct ab_runner_result rr;
		json_t *res;
		memset(&rs, 0, sizeof(rs));
		rs.shell = *c;
		rs.cwd = cwd;
		rs.stdin_null = 1;
		rs.timeout_ms = timeout_ms > 0 ? timeout_ms : AB_ENV_COMMAND_TIMEOUT_MS;
		rs.output_cap = 65536;
		if (ab_runner_run(&rr, &rs) == 0) {
			json_t *out = json_stringn(rr.out.data ? rr.out.data : "", rr.out.data ? rr.out.len : 0);
			json_object_set_new(outputs, *c, out ? out : json_string("[abtool: output is not UTF-8 text]"));
			res = json_pack("{s:s, s:o, s:o, s:b, s:o}",
				"status", ab_runner_describe(why, sizeof(why), &rr, rs.timeout_ms),
				"exit_code", rr.exited && !rr.timed_out ? json_integer(rr.exit_code) : json_null(),
				"signal", rr.signal && !rr.timed_out ? json_integer(rr.signal) : json_null(),
				"timed_out", rr.timed_out,
				"stderr", bounded_text(&rr.err, AB_ENV_COMMAND_STDERR_CAP));
		} else {
			json_object_set_new(outputs, *c, json_sprintf("(could not run: %s)", ab_error_last()));
			res = json_pack("{s:s+, s:n, s:n, s:b, s:s}", "status", "could not run: ", ab_error_last(),
					"exit_code", "signal", "timed_out", 0, "stderr", "");
		}
		json_object_set_new(results, *c, res);
		ab_runner_result_release(&rr);
	}
	json_object_set_new(fp, "commands", outputs);
	json_object_set_new(fp, "command_results", results);
}

/* The host fingerprint read under `root` (the executor's host_root), with
 * the outputs of `environment.commands`. */
static json_t *fingerprint(const struct ab_experiment *exp, const char *root)
{
	json_t *fp = ab_env_fingerprint(root);

	ab_env_busy_processes(fp, root, AB_ENV_BUSY_WINDOW_NS);  /* before the first sample */

	if (exp->environment_commands)
		ab_run_env_commands(fp, exp->environment_commands, exp->dir, exp->environment_commands_timeout_ms);
	return fp;
}

static void init_common(struct ab_run *run, const struct ab_experiment *exp, struct ab_store *store,
			const struct ab_run_events *events, const struct ab_executor *executor,
			const char *cache_dir)
{
	char *const *keep;

	memset(run, 0, sizeof(*run));
	run->exp = exp;
	run->store = store;
	if (store)  /* SIGINT while a large plan is stored or read */
		ab_store_set_cancel(store, ab_runner_interrupted);
	if (events)
		run->events = *events;
	/* env.keep: PG* variables the store used that the children still get
	 * (cmd_store.c hides them), before environment.commands run */
	for (keep = exp->env_keep; keep && *keep; keep++)
		ab_runner_keep_env(*keep);
	run->cache_dir = cache_dir ? ab_xstrdup(cache_dir) : ab_cache_dir();
	run->executor = executor ? executor : &ab_run_executor;
	run->host = fingerprint(exp, run->executor->host_root);
	if (exp->environment_require)
		ab_env_check_requirements(run->host, exp->environment_require, &run->env_unmet);
}

/* The plan over the measured rows: a subset (--row) is planned as a
 * smaller matrix whose rows are then renumbered to the experiment's own
 * (so that the store, the analysis and later shards keep one numbering). */
static int plan_rows(struct ab_plan *plan, const struct ab_experiment *exp, uint64_t seed)
{
	size_t nrows = ab_experiment_nrows(exp), *rows = ab_xcalloc(nrows, sizeof(*rows)), k = 0, r, i;
	int err;

	for (r = 0; r < nrows; r++)
		if (ab_experiment_row_selected(exp, r))
			rows[k++] = r;
	err = ab_plan_build(plan, k, (size_t)exp->pairs, (size_t)exp->warmup, seed);
	for (i = 0; err == 0 && i < plan->n; i++)
		plan->entries[i].row = (uint32_t)rows[plan->entries[i].row];
	free(rows);
	return err;
}

/* What the command line changes in the plan: --pairs (checked against the
 * rules' min_pair_wins, except in a calibration), --warmup, --row; then
 * the plan's size against the experiment's limits. */
static int plan_options(struct ab_experiment *exp, const struct ab_run_options *opt)
{
	char source[64], *plan;
	int err;

	source[0] = '\0';
	if (opt->pairs > 0 || opt->max_pairs > 0) {
		if ((err = ab_experiment_set_pairs(exp, opt->pairs, opt->max_pairs)) < 0)
			return err;
		if (opt->max_pairs > 0)
			snprintf(source, sizeof(source), "--max-pairs %d", opt->max_pairs);
		else
			snprintf(source, sizeof(source), "--pairs %d", opt->pairs);
		if (!opt->aa && (err = ab_experiment_check_pairs(exp, source)) < 0)
			return err;
	}
	if (opt->have_warmup) {
		exp->warmup = opt->warmup;
		snprintf(source + strlen(source), sizeof(source) - strlen(source), "%s--warmup %d",
			 *source ? ", " : "", opt->warmup);
	}
	if ((err = ab_experiment_select_rows(exp, opt->rows, opt->nrows)) < 0 ||
	    (opt->shard_count && (err = ab_shards_select(exp, opt->shard_index, opt->shard_count)) < 0))
		return err;
	plan = ab_xasprintf("%s%s%s", exp->path ? exp->path : "the experiment", *source ? ", " : "", source);
	err = ab_experiment_check_limits(exp, plan);
	free(plan);
	return err;
}

/* What a subset and a --warmup add to the options that reproduce a run:
 * "warmup", "rows" (the --row specs), "rows_added" (base rows a scaling
 * predicate needs), "shard" {index, count} and "group" (--shard, --group)
 * and "partial"; and the inputs' hashes. */
static void subset_options(json_t *options, const struct ab_run *run, const struct ab_run_options *opt)
{
	const struct ab_experiment *exp = run->exp;
	char *const *s;

	if (opt->have_warmup)
		json_object_set_new(options, "warmup", json_integer(exp->warmup));
	if (opt->max_pairs > 0)
		json_object_set_new(options, "max_pairs", json_integer(opt->max_pairs));
	if (exp->sequential)  /* the plan, before the first sample (resume keeps it) */
		json_object_set_new(options, "sequential", ab_experiment_plan_json(exp));
	json_object_set_new(options, "contention", ab_experiment_contention_json(exp));
	if (exp->subset_specs) {
		json_t *specs = json_array(), *added = json_array();
		for (s = exp->subset_specs; *s; s++)
			json_array_append_new(specs, json_string(*s));
		for (s = exp->subset_added; s && *s; s++)
			json_array_append_new(added, json_string(*s));
		json_object_set_new(options, "rows", specs);
		json_object_set_new(options, "rows_added", added);
		json_object_set_new(options, "partial", json_true());
	}
	if (exp->shard_count) {
		json_object_set_new(options, "shard", json_pack("{s:i, s:i}", "index", exp->shard_index,
								 "count", exp->shard_count));
		json_object_set_new(options, "partial", json_true());
	}
	if (opt->group)
		json_object_set_new(options, "group", json_string(opt->group));
	if (run->inputs) {
		json_object_set(options, "inputs", run->inputs);
		json_object_set_new(options, "inputs_hash", json_string(run->inputs_hash));
	}
}

/* The sides of a comparison as the store keeps them, [{name, command}]
 * (new string), or NULL for a run of commits. */
static char *sides_json(const struct ab_experiment *exp)
{
	json_t *a;
	char *out;
	int i;

	if (!exp->has_sides)
		return NULL;
	a = json_array();
	for (i = 0; i < 2; i++) {
		char *cmd = ab_command_display(&exp->sides[i].command);
		json_array_append_new(a, json_pack("{s:s, s:s}", "name", exp->sides[i].name, "command", cmd));
		free(cmd);
	}
	out = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return out;
}

/* A resumed run's subset, from its stored options (the --row specs, the shard). */
static int resume_subset(struct ab_experiment *exp, const json_t *opts)
{
	const json_t *specs = json_object_get(opts, "rows"), *v, *shard = json_object_get(opts, "shard");
	const char **v_specs = ab_xcalloc(json_array_size(specs) + 1, sizeof(*v_specs));
	size_t i;
	int err;

	json_array_foreach(specs, i, v)
		v_specs[i] = json_string_value(v) ? json_string_value(v) : "";
	err = ab_experiment_select_rows(exp, v_specs, json_array_size(specs));
	free(v_specs);
	if (err == 0 && shard)
		err = ab_shards_select(exp, (int)json_integer_value(json_object_get(shard, "index")),
						 (int)json_integer_value(json_object_get(shard, "count")));
	return err;
}

/* Make the candidate side of `r` its parent: an A/A calibration. */
static void parent_on_both_sides(struct ab_revs *r)
{
	git_oid_cpy(&r->candidate, &r->parent);
	git_oid_cpy(&r->candidate_tree, &r->parent_tree);
	memcpy(r->candidate_hex, r->parent_hex, sizeof(r->candidate_hex));
	memcpy(r->candidate_tree_hex, r->parent_tree_hex, sizeof(r->candidate_tree_hex));
	free(r->candidate_subject);
	r->candidate_subject = ab_xstrdup(r->parent_subject);
}

/* The experiment file's path relative to the work tree `workdir`, or NULL
 * when it is not inside it (new string). */
static char *path_in_tree(const char *path, const char *workdir)
{
	char *file = path ? realpath(path, NULL) : NULL, *root = workdir ? realpath(workdir, NULL) : NULL;
	char *out = NULL;
	size_t n = root ? strlen(root) : 0;

	if (file && root && !strncmp(file, root, n) && file[n] == '/')
		out = ab_xstrdup(file + n + 1);
	free(file);
	free(root);
	return out;
}

/*
 * A candidate whose tree differs from its parent's only in the experiment
 * file itself (the file committed on top of the change) measures a build
 * against itself. Refused with AB_EINVALID naming the commit to measure
 * instead, the parent; when --candidate named it explicitly, only
 * marked (run->candidate_only_experiment) for the command to warn.
 */
static int check_candidate_changes(struct ab_run *run, const struct ab_run_options *opt)
{
	char **paths = NULL, *rel = path_in_tree(run->exp->path, run->revs.workdir);
	int more = 0, err;

	if (!rel || !run->revs.exact_parent)
		goto out;
	if ((err = ab_revs_changed_paths(&paths, &more, &run->revs, 2)) < 0) {
		free(rel);
		return err;
	}
	if (!paths || more || paths[1] || strcmp(paths[0], rel))
		goto out;
	run->candidate_only_experiment = 1;
	if (!opt->candidate) {
		err = ab_error_set(AB_EINVALID, "the candidate %.10s (\"%s\") changes only the experiment "
			"file '%s': measuring it against its parent compares a build with itself; measure the "
			"change, its parent: 'abtool run %s --candidate %.10s' (or name this commit with "
			"--candidate to measure it anyway)", run->revs.candidate_hex,
			run->revs.candidate_subject ? run->revs.candidate_subject : "", rel, run->exp->path,
			run->revs.parent_hex);
		ab_strv_free(paths);
		free(rel);
		return err;
	}
out:
	ab_strv_free(paths);
	free(rel);
	return 0;
}

/* The revisions of a run of commits, its dependencies and overlay; an
 * A/A calibration puts the parent on both sides (with their own salts). */
static int resolve_revisions(struct ab_run *run, const struct ab_run_options *opt, const char *salt[2])
{
	const struct ab_experiment *exp = run->exp;
	size_t i;
	int err;

	if ((err = ab_revs_open(&run->revs, exp->repo, opt->candidate ? opt->candidate : exp->candidate,
				opt->parent ? opt->parent : exp->parent, opt->parent ? 0 : exp->exact_parent)) < 0)
		return err;
	if (opt->aa) {
		/* A/A: the candidate side is the parent too, in a tree of its own */
		parent_on_both_sides(&run->revs);
		salt[0] = "calibrate-a";
		salt[1] = "calibrate-b";
	} else if ((err = check_candidate_changes(run, opt)) < 0) {
		return err;
	}
	if ((err = ab_run_resolve_inputs(run, opt)) < 0)
		return err;
	for (i = 0; opt->aa && i < run->ndeps; i++)  /* and every dependency at its parent */
		parent_on_both_sides(&run->deps[i]);
	run->dirty = !opt->aa && ab_revs_dirty(&run->revs) > 0;
	return 0;
}

/* A comparison of two commands (`sides:`) has no revisions to pin or
 * calibrate: the options that name them are refused. */
static int check_sides_options(const struct ab_run_options *opt)
{
	const char *what = opt->aa ? "a calibration" : opt->candidate ? "--candidate" : opt->parent ? "--parent"
			 : opt->ndep_pins ? "--dependency" : opt->overlay_from ? "--overlay-from" : NULL;

	if (what)
		return ab_error_set(AB_EINVALID, "%s: the experiment compares two commands (sides:), not "
				    "revisions", what);
	return 0;
}

/* The options a run is stored with (run->options, new): what reproduces
 * and resumes it, the bisect step's mark, the dependencies, the overlay,
 * the subset, and who runs it (pid, hostname). */
static void start_options(struct ab_run *run, const struct ab_experiment *exp,
			  const struct ab_run_options *opt)
{
	run->options = json_pack("{s:s, s:s, s:s?, s:I, s:i, s:i}", "experiment_path", exp->path ? exp->path : "",
				 "candidate_spec", opt->candidate ? opt->candidate : exp->candidate,
				 "parent_spec", opt->parent,
				 "seed", (json_int_t)run->meta.seed, "pairs", exp->pairs,
				 "block_pairs", run->block_pairs);
	{
		char *abs = ab_path_absolute(NULL, exp->path);
		json_object_set_new(run->options, "experiment_abspath", json_string(abs));
		free(abs);
	}
	if (opt->design)
		json_object_set_new(run->options, "design", json_string(opt->design));
	if (opt->reproduce)
		json_object_set_new(run->options, "reproduce", json_string(opt->reproduce));
	if (opt->step) {  /* a bisect's step: its mark survives export, import and sync */
		json_t *mark = json_deep_copy(opt->step), *stop = ab_experiment_step_json(exp);

		if (stop)
			json_object_set_new(mark, "stop", stop);
		json_object_set_new(run->options, "bisect_step", mark);
	}
	if (opt->reproduce && opt->reproduce_commands)  /* the line's last words (run_finish.c) */
		json_object_set_new(run->options, "reproduce_commands",
				    json_pack("[s, s]", opt->reproduce_commands[0], opt->reproduce_commands[1]));
	if (run->ndeps)
		json_object_set_new(run->options, "dependencies", ab_run_deps_json(run));
	if (run->overlay) {  /* resume takes the overlay from this commit again */
		json_object_set(run->options, "overlay_from", json_object_get(run->overlay, "from"));
		json_object_set(run->options, "overlay_source", json_object_get(run->overlay, "source"));
	}
	if (run->dirty)
		json_object_set_new(run->options, "dirty_worktree", json_true());
	subset_options(run->options, run, opt);
	json_object_set_new(run->options, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(run->options, "hostname", json_incref(json_object_get(run->host, "hostname")));
}

int ab_run_start(struct ab_run *run, struct ab_experiment *exp, struct ab_store *store,
		 const struct ab_run_options *opt, const struct ab_run_events *events,
		 const struct ab_executor *executor)
{
	struct ab_plan plan = {0};
	const char *salt[2] = {opt->salt_parent, opt->salt_candidate};
	char **params = NULL, *host = NULL, *options = NULL;
	size_t nrows = ab_experiment_nrows(exp);
	int err;

	init_common(run, exp, store, events, executor, opt->cache_dir);
	run->kind = opt->aa ? "calibrate" : exp->has_sides ? "compare" : opt->step ? "bisect" : "ab";
	run->block_pairs = (int)ab_experiment_first_look(exp);  /* a sequential plan: its first look */
	if ((err = plan_options(exp, opt)) < 0)
		return err;
	if ((err = exp->has_sides ? check_sides_options(opt) : resolve_revisions(run, opt, salt)) < 0)
		return err;
	if ((err = ab_run_hash_inputs(run, NULL)) < 0)
		return err;
	if (run->events.resolved)
		run->events.resolved(run->events.ctx, run);
	if ((err = ab_extract_new(&run->extractor, exp)) < 0)
		return err;
	/* two commands (sides:) are not built: no compiler to name */
	run->identity = exp->has_sides ? NULL : ab_build_identity(NULL);

	run->meta.seed = opt->have_seed ? opt->seed : ab_plan_random_seed();
	run->measure = ab_measure_new(exp, run->meta.seed);
	if ((err = plan_rows(&plan, exp, run->meta.seed)) < 0)
		return err;
	params = row_params(exp, nrows);
	start_options(run, exp, opt);
	host = json_dumps(run->host, JSON_COMPACT);
	options = json_dumps(run->options, JSON_COMPACT);
	run->meta.kind = run->kind;
	run->meta.experiment_hash = exp->hash;
	run->meta.experiment_name = exp->name;
	run->meta.experiment_path = exp->path;
	run->meta.experiment_text = exp->text;
	run->meta.design = exp->design;
	run->meta.project = exp->has_sides ? "" : exp->project;  /* NULL: the store's */
	run->meta.hypothesis = exp->hypothesis;
	run->meta.repo = exp->has_sides ? "" : exp->repo;  /* a comparison: no repository, no commits */
	run->meta.sides_json = sides_json(exp);
	run->meta.parent_oid = run->revs.parent_hex;
	run->meta.candidate_oid = run->revs.candidate_hex;
	run->meta.parent_tree = exp->has_sides ? NULL : run->revs.parent_tree_hex;
	run->meta.candidate_tree = exp->has_sides ? NULL : run->revs.candidate_tree_hex;
	run->meta.exact_parent = run->revs.exact_parent;
	run->meta.pairs = exp->pairs;
	run->meta.warmup = exp->warmup;
	run->meta.host_json = host;
	run->meta.options_json = options;
	run->meta.row_params_json = params;
	run->meta.nrows = nrows;
	err = ab_store_run_create(store, &run->meta, &plan);
	/* the stored start, not a second clock read after the plan is stored
	 * (on a busy host or a remote store, a second later: the report's
	 * created_at and show's "started" differed) */
	snprintf(run->created_at, sizeof(run->created_at), "%s", run->meta.created_at);
	ab_plan_release(&plan);
	ab_strv_free(params);
	run->meta.row_params_json = NULL;
	free(host);
	free(options);
	free(run->meta.sides_json);
	run->meta.host_json = run->meta.options_json = run->meta.sides_json = NULL;
	if (err < 0)
		return err;
	if (run->ndeps) {
		json_t *deps = ab_run_deps_json(run);
		err = ab_store_run_dependencies_put(store, run->meta.id, deps);
		json_decref(deps);
		if (err < 0)
			return err;
	}
	/* The plan is loaded before the builds, so that an interrupted build
	 * reports the run's samples. */
	if ((err = ab_run_load_samples(run)) < 0) {
		if (err == AB_EINTERRUPTED)
			ab_store_run_set_status(store, run->meta.id, "interrupted");
		return err;
	}
	if (!exp->has_sides && (err = ab_run_prepare_builds(run, salt, NULL)) < 0) {
		if (err == AB_EINTERRUPTED)
			ab_store_run_set_status(store, run->meta.id, "interrupted");
		return err;
	}
	return 0;
}

/* What differs between the fingerprint a run started on and this host. */
static char *host_change(const json_t *then, const json_t *now)
{
	static const char *const keys[] = {"hostname", "cpu_model", "logical_cpus", "kernel", "memory_bytes"};
	char *out = NULL, *next;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *a = json_object_get(then, keys[i]), *b = json_object_get(now, keys[i]);
		char *ta, *tb;
		if (!a || !b || json_equal(a, b))
			continue;
		ta = json_dumps(a, JSON_ENCODE_ANY);
		tb = json_dumps(b, JSON_ENCODE_ANY);
		next = ab_xasprintf("%s%s%s %s -> %s", out ? out : "", out ? ", " : "", keys[i], ta, tb);
		free(out);
		free(ta);
		free(tb);
		out = next;
	}
	return out;
}

/* Supersede each half-finished pair and plan it again, whole, at the end. */
static int replan_half_pairs(struct ab_run *run)
{
	struct ab_plan_entry *fresh = NULL;
	uint32_t *old = NULL;
	size_t nfresh = 0, nold = 0, i, j;
	int err = 0;

	for (i = 0; i < run->nsamples; i++) {
		const struct ab_sample *s = &run->samples[i];
		if (s->status != AB_SAMPLE_DONE)
			continue;
		for (j = 0; j < run->nsamples; j++) {
			const struct ab_sample *t = &run->samples[j];
			if (j == i || t->status != AB_SAMPLE_PLANNED || t->entry.row != s->entry.row ||
			    t->entry.pair != s->entry.pair || t->entry.warmup != s->entry.warmup)
				continue;
			/* s ran, its partner t did not: both go, the pair comes back whole. */
			old = ab_xrealloc(old, (nold + 2) * sizeof(*old));
			old[nold++] = s->entry.seq;
			old[nold++] = t->entry.seq;
			fresh = ab_xrealloc(fresh, (nfresh + 2) * sizeof(*fresh));
			fresh[nfresh] = s->entry.seq < t->entry.seq ? s->entry : t->entry;
			fresh[nfresh + 1] = s->entry.seq < t->entry.seq ? t->entry : s->entry;
			nfresh += 2;
		}
	}
	if (nold && (err = ab_store_samples_supersede(run->store, run->meta.id, old, nold)) == 0)
		err = ab_store_samples_append(run->store, run->meta.id, fresh, nfresh);
	free(old);
	free(fresh);
	return err;
}

/* The stored experiment of a run, with the pairs, plan and rows it ran. */
static int parse_stored(struct ab_experiment *exp_out, const json_t *stored, const json_t *opts)
{
	const char *path;
	int err;

	path = json_string_value(json_object_get(opts, "experiment_abspath"));
	err = ab_experiment_parse(exp_out, path ? path : json_string_value(json_object_get(stored, "experiment_path")),
				  json_string_value(json_object_get(stored, "experiment_text")),
				  strlen(json_string_value(json_object_get(stored, "experiment_text"))));
	if (!err) {
		const char *design = json_string_value(json_object_get(stored, "design"));

		if (design && strcmp(design, exp_out->design)) {  /* run --design */
			free(exp_out->design);
			exp_out->design = ab_xstrdup(design);
		}
		exp_out->pairs = (int)json_integer_value(json_object_get(stored, "pairs"));
		exp_out->warmup = (int)json_integer_value(json_object_get(stored, "warmup"));
		err = ab_experiment_plan_restore(exp_out, json_object_get(opts, "sequential"));
		if (!err)
			err = ab_experiment_step_restore(exp_out, json_object_get(opts, "bisect_step"));
		if (!err)
			err = ab_experiment_contention_restore(exp_out, json_object_get(opts, "contention"));
		if (!err)
			err = resume_subset(exp_out, opts);
	}
	return err;
}

/* What a stored run needs to run samples again: its kind, seed, commits,
 * dependencies, overlay, extractor and inputs (resume and reopen). */
static int load_stored(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		       int64_t run_id, const json_t *stored, const json_t *opts, const char *salt[2])
{
	const char *kind;
	int err;

	(void)store;
	kind = json_string_value(json_object_get(stored, "kind"));
	run->kind = kind && !strcmp(kind, "calibrate") ? "calibrate" : exp_out->has_sides ? "compare"
		    : kind && !strcmp(kind, "bisect") ? "bisect" : "ab";
	run->block_pairs = (int)json_integer_value(json_object_get(opts, "block_pairs"));
	if (run->block_pairs <= 0)
		run->block_pairs = exp_out->pairs;
	if (!strcmp(run->kind, "calibrate")) {
		salt[0] = "calibrate-a";
		salt[1] = "calibrate-b";
	}
	run->meta.id = run_id;
	snprintf(run->meta.uuid, sizeof(run->meta.uuid), "%s", json_string_value(json_object_get(stored, "uuid")));
	run->meta.seed = (uint64_t)json_integer_value(json_object_get(stored, "seed"));
	run->measure = ab_measure_new(exp_out, run->meta.seed);
	snprintf(run->created_at, sizeof(run->created_at), "%s",
		 json_string_value(json_object_get(stored, "created_at")));
	/* The stored commits, not the revspecs: a branch may have moved. A
	 * comparison of two commands has none. */
	if ((!exp_out->has_sides &&
	     ((err = ab_revs_open(&run->revs, json_string_value(json_object_get(stored, "repo")),
				  json_string_value(json_object_get(stored, "candidate_oid")),
				  json_string_value(json_object_get(stored, "parent_oid")), 0)) < 0 ||
	      (err = ab_run_resolve_deps(run, json_object_get(opts, "dependencies"), NULL, 0)) < 0 ||
	      (err = ab_run_resolve_overlay(run, json_string_value(json_object_get(opts, "overlay_from")),
				     json_string_value(json_object_get(opts, "overlay_source")))) < 0)) ||
	    (err = ab_extract_new(&run->extractor, exp_out)) < 0 ||
	    (err = ab_run_hash_inputs(run, json_object_get(opts, "inputs"))) < 0)
		return err;
	run->identity = exp_out->has_sides ? NULL : ab_build_identity(NULL);
	{
		json_t *then = json_loads(json_string_value(json_object_get(stored, "host")), 0, NULL);
		run->host_change = host_change(then, run->host);
		run->host_started = json_is_object(then) ? then : NULL;
		if (!run->host_started)
			json_decref(then);
		run->resumed = 1;
	}
	return 0;
}

/* Clear `run` and `exp_out` and read the stored run `run_id` into *stored
 * (new) and its status into *status (borrowed from *stored; NULL when it
 * has none), for resume and reopen. The store's error. */
static int read_stored(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		       int64_t run_id, json_t **stored, const char **status)
{
	int err;

	memset(exp_out, 0, sizeof(*exp_out));
	memset(run, 0, sizeof(*run));
	if ((err = ab_store_run_get(store, run_id, stored)) < 0)
		return err;
	*status = json_string_value(json_object_get(*stored, "status"));
	return 0;
}

int ab_run_resume(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		  int64_t run_id, const struct ab_run_events *events, const struct ab_executor *executor)
{
	json_t *stored = NULL, *opts;
	const char *status;
	const char *salt[2] = {"", ""};
	int err, claimed = 0;

	if ((err = read_stored(run, exp_out, store, run_id, &stored, &status)) < 0)
		return err;
	if (status && !strcmp(status, "finished")) {
		err = ab_error_set(AB_EINVALID, "run %lld is already finished (verdict %s); see it with "
				   "'abtool show %lld'", (long long)run_id,
				   json_string_value(json_object_get(stored, "verdict")), (long long)run_id);
		goto out;
	}
	opts = json_loads(json_string_value(json_object_get(stored, "options")), 0, NULL);
	if (!opts)
		opts = json_object();
	if (ab_store_run_owner(opts) == AB_OWNER_ALIVE) {  /* resume does not run it twice */
		err = ab_error_set(AB_EINVALID, "run %lld is still running (pid %lld on this host); wait for it, "
				   "or stop it and resume then", (long long)run_id,
				   (long long)json_integer_value(json_object_get(opts, "pid")));
		json_decref(opts);
		goto out;
	}
	err = parse_stored(exp_out, stored, opts);
	init_common(run, exp_out, store, events, executor, NULL);
	run->options = opts;
	if (err < 0)
		goto out;
	/* Take the run over: its options name this process from now on, so
	 * a second resume finds it still running; and if one took it between
	 * the check above and here, the options differ and this one stops. */
	{
		const char *before = json_string_value(json_object_get(stored, "options"));
		json_t *host = json_object_get(run->host, "hostname");
		char *now;
		int taken;

		json_object_set_new(opts, "pid", json_integer((json_int_t)getpid()));
		if (json_is_string(host))
			json_object_set(opts, "hostname", host);
		now = json_dumps(opts, JSON_COMPACT);
		taken = ab_store_run_claim(store, run_id, before, now);
		free(now);
		if (taken == 0)
			taken = ab_error_set(AB_EINVALID, "run %lld is being resumed by another process; wait "
					     "for it, or stop it and resume then", (long long)run_id);
		if ((err = taken < 0 ? taken : 0) < 0)
			goto out;
		claimed = 1;
	}
	if ((err = load_stored(run, exp_out, store, run_id, stored, opts, salt)) < 0)
		goto out;
	if ((err = ab_store_run_set_status(store, run_id, "running")) < 0 ||
	    (err = ab_run_load_samples(run)) < 0 ||
	    (!exp_out->has_sides &&
	     (err = ab_run_prepare_builds(run, salt, json_object_get(stored, "builds"))) < 0) ||
	    (err = replan_half_pairs(run)) < 0 ||
	    (err = ab_run_load_samples(run)) < 0)
		goto out;
out:
	/* in a build, or refused after taking the run over: not running any more */
	if (err == AB_EINTERRUPTED || (err < 0 && claimed))
		ab_store_run_set_status(store, run_id, "interrupted");
	json_decref(stored);
	return err;
}

int ab_run_reopen(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		  int64_t run_id, const struct ab_run_events *events)
{
	json_t *stored = NULL, *opts;
	const char *status, *salt[2] = {"", ""};
	int err;

	if ((err = read_stored(run, exp_out, store, run_id, &stored, &status)) < 0)
		return err;
	if (!status || strcmp(status, "finished")) {
		err = ab_error_set(AB_EINVALID, "run %lld is not finished (it is %s): finish it with "
				   "'abtool resume %lld' first", (long long)run_id, status ? status : "unknown",
				   (long long)run_id);
		json_decref(stored);
		return err;
	}
	opts = json_loads(json_string_value(json_object_get(stored, "options")), 0, NULL);
	if (!opts)
		opts = json_object();
	err = parse_stored(exp_out, stored, opts);
	init_common(run, exp_out, store, events, NULL, NULL);
	run->options = opts;
	if (err == 0 && (err = load_stored(run, exp_out, store, run_id, stored, opts, salt)) == 0 &&
	    (err = ab_run_load_samples(run)) == 0 && !exp_out->has_sides)  /* two commands: no build */
		err = ab_run_prepare_builds(run, salt, json_object_get(stored, "builds"));
	json_decref(stored);
	return err;
}
