/* run.c - the pipeline's driver (see run.h). */
#include "run.h"
#include "calibrate.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "jsontext.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char **ab_run_metric_names(const struct ab_experiment *exp)
{
	const char **names = ab_xcalloc(exp->nmetrics + 1, sizeof(*names));
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		names[i] = exp->metrics[i].name;
	return names;
}

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

/* The dependencies' revisions of one side, for a build spec (new array). */
static struct ab_build_dep *side_deps(const struct ab_run *run, int side)
{
	struct ab_build_dep *deps = ab_xcalloc(run->ndeps + 1, sizeof(*deps));
	size_t i;

	for (i = 0; i < run->ndeps; i++) {
		deps[i].repo = run->deps[i].repo;
		deps[i].commit = side ? &run->deps[i].candidate : &run->deps[i].parent;
		deps[i].path = run->exp->dependencies[i].path;
		deps[i].env = run->exp->dependencies[i].env;
	}
	return deps;
}

/* The experiment's dependencies by name, for messages: "lib, gc" (new). */
static char *dependency_names(const struct ab_experiment *exp)
{
	char *out = ab_xstrdup(""), *next;
	size_t i;

	for (i = 0; i < exp->ndependencies; i++) {
		next = ab_xasprintf("%s%s%s", out, i ? ", " : "", exp->dependencies[i].name);
		free(out);
		out = next;
	}
	return out;
}

/* Check that every --dependency pin names a dependency of the experiment,
 * once. */
static int check_pins(const struct ab_experiment *exp, const struct ab_dep_pin *pins, size_t npins)
{
	size_t i, j;

	for (i = 0; i < npins; i++) {
		for (j = 0; j < exp->ndependencies && strcmp(exp->dependencies[j].name, pins[i].name); j++)
			;
		if (j == exp->ndependencies) {
			char *names = dependency_names(exp);
			int err = ab_error_set(AB_EINVALID, "--dependency: '%s' is not a dependency of %s (%s%s)",
					       pins[i].name, exp->path ? exp->path : "the experiment",
					       *names ? "its dependencies: " : "it has no dependencies:", names);
			free(names);
			return err;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(pins[i].name, pins[j].name))
				return ab_error_set(AB_EINVALID, "--dependency: '%s' is given twice; give each "
						    "dependency's revisions once", pins[i].name);
	}
	return 0;
}

/*
 * Resolve the dependencies' revisions: from the experiment's revspecs, or
 * the revisions pinned on the command line (`pins`, run --dependency), or
 * (resume) from the commits stored in `stored` ([{name, parent_oid,
 * candidate_oid}]) so that moved branches do not change a run. A pinned
 * parent is taken as given, like --parent: the comparison is recorded as
 * exact only when it is the candidate's first parent.
 */
static int resolve_deps(struct ab_run *run, const json_t *stored, const struct ab_dep_pin *pins,
			size_t npins)
{
	const struct ab_experiment *exp = run->exp;
	size_t i, k;
	int err;

	if ((err = check_pins(exp, pins, npins)) < 0)
		return err;
	run->deps = ab_xcalloc(exp->ndependencies + 1, sizeof(*run->deps));
	run->ndeps = exp->ndependencies;
	for (i = 0; i < exp->ndependencies && !err; i++) {
		const struct ab_dependency *d = &exp->dependencies[i];
		const json_t *s = json_array_get(stored, i);
		const struct ab_dep_pin *pin = NULL;
		const char *cand = s ? json_string_value(json_object_get(s, "candidate_oid")) : d->candidate;
		const char *par = s ? json_string_value(json_object_get(s, "parent_oid"))
			      : d->parent ? d->parent : d->exact_parent ? NULL : d->candidate;

		for (k = 0; !s && k < npins; k++)
			if (!strcmp(pins[k].name, d->name))
				pin = &pins[k];
		if (pin) {
			cand = pin->candidate;
			par = pin->parent;
		}
		err = ab_revs_open(&run->deps[i], d->repo, cand, par, s || pin ? 0 : d->exact_parent);
		if (err)
			ab_error_prefix("dependencies[%zu] '%s'%s", i, d->name, pin ? " (--dependency)" : "");
	}
	return err;
}

/* Look up the overlay's paths in its source revision (before anything is
 * built). `from` is overlay.from or what replaces it (run --overlay-from,
 * the stored one on resume); `source_hex` (resume) is the commit it named
 * when the run started, so that a moved branch does not change a run. */
static int resolve_overlay(struct ab_run *run, const char *from, const char *source_hex)
{
	const struct ab_experiment *exp = run->exp;
	char what[64];
	json_t *paths = NULL;
	int err;

	if (!exp->overlay_paths) {
		if (from)
			return ab_error_set(AB_EINVALID, "--overlay-from: %s has no 'overlay:' paths to take "
					    "from '%s'", exp->path ? exp->path : "the experiment", from);
		return 0;
	}
	if (!from)
		from = exp->overlay_from;
	if (source_hex) {
		if (git_oid_fromstr(&run->overlay_source, source_hex) < 0)
			return ab_error_set(AB_EINVALID, "the stored overlay source '%s' is not a commit id",
					    source_hex);
	} else if (!strcmp(from, "candidate")) {
		git_oid_cpy(&run->overlay_source, &run->revs.candidate);
	} else if (!strcmp(from, "parent")) {
		git_oid_cpy(&run->overlay_source, &run->revs.parent);
	} else {
		git_object *obj = NULL, *commit = NULL;
		if (git_revparse_single(&obj, run->revs.repo, from) < 0 ||
		    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
			git_object_free(obj);
			return ab_error_set(AB_ENOTFOUND, "overlay.from: unknown revision '%s' (%s); it takes "
					    "candidate, parent or a revision of the repository such as a commit, a "
					    "tag or a branch (a remote one as origin/NAME, fetched first)", from,
					    ab_revs_git_error());
		}
		git_oid_cpy(&run->overlay_source, git_object_id(commit));
		git_object_free(commit);
		git_object_free(obj);
	}
	snprintf(what, sizeof(what), "%s %.10s", from, git_oid_tostr_s(&run->overlay_source));
	if ((err = ab_revs_overlay_resolve(&paths, run->revs.repo, &run->overlay_source, exp->overlay_paths,
					   what)) < 0)
		return err;
	run->overlay = json_pack("{s:s, s:s, s:o}", "from", from, "source", git_oid_tostr_s(&run->overlay_source),
				 "paths", paths);
	return 0;
}

int ab_run_resolve_inputs(struct ab_run *run, const struct ab_run_options *opt)
{
	int err;

	if ((err = resolve_deps(run, NULL, opt ? opt->dep_pins : NULL, opt ? opt->ndep_pins : 0)) < 0 ||
	    (err = resolve_overlay(run, opt ? opt->overlay_from : NULL, NULL)) < 0)
		return err;
	return 0;
}

/* The dependencies as the report and the store record them (new). */
static json_t *deps_json(const struct ab_run *run)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < run->ndeps; i++) {
		const struct ab_dependency *d = &run->exp->dependencies[i];
		const struct ab_revs *r = &run->deps[i];
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s?, s:b, s:{s:s, s:s}, s:{s:s, s:s}, s:s, s:s}",
			"name", d->name, "repo", d->repo, "path", d->path, "env", d->env,
			"exact_parent", r->exact_parent,
			"parent", "oid", r->parent_hex, "subject", r->parent_subject,
			"candidate", "oid", r->candidate_hex, "subject", r->candidate_subject,
			"parent_oid", r->parent_hex, "candidate_oid", r->candidate_hex));
	}
	return arr;
}

/* The stored build of side `name` in `stored` (the "builds" array of a
 * run read back from the store; borrowed), or NULL. */
static const json_t *stored_build(const json_t *stored, const char *name)
{
	const json_t *b;
	size_t i;

	json_array_foreach(stored, i, b) {
		const char *side = json_string_value(json_object_get(b, "side"));
		if (side && !strcmp(side, name))
			return b;
	}
	return NULL;
}

/* On resume: whether the build `b` is the one the run's first samples ran,
 * as stored in `was`. The cache key (tree, overlay, command, environment,
 * compiler identity, dependencies) must be the same and every declared
 * artifact must hash as it did; an artifact that is new or gone counts as
 * different. Returns NULL when they agree, else what differs (new string). */
static char *build_changed(const struct ab_build *b, const json_t *was)
{
	const char *key = json_string_value(json_object_get(was, "cache_key"));
	const char *text = json_string_value(json_object_get(was, "artifacts"));
	json_t *then = text ? json_loads(text, 0, NULL) : json_object(), *v;
	const char *path;
	char *out = NULL;

	if (key && strcmp(key, b->key))
		out = ab_xasprintf("its cache key changed from %.12s to %.12s (the compiler identity, the "
				   "environment or a dependency changed)", key, b->key);
	json_object_foreach(then, path, v) {
		const char *now = json_string_value(json_object_get(b->artifacts, path));
		if (out)
			break;
		if (!now || !json_is_string(v) || strcmp(now, json_string_value(v)))
			out = ab_xasprintf("artifact '%s' had SHA-256 %.12s and now has %.12s", path,
					   json_is_string(v) ? json_string_value(v) : "?", now ? now : "(none)");
	}
	json_object_foreach(b->artifacts, path, v) {
		if (out)
			break;
		if (!json_object_get(then, path))
			out = ab_xasprintf("artifact '%s' was not hashed when the run started", path);
	}
	json_decref(then);
	return out;
}

/* Build (or find in the cache) both sides and record them. `stored` (a
 * resume: the run's stored builds, borrowed; NULL for a new run) is what
 * every build must match: a side whose build came back different stops
 * the resume with AB_EINVALID. A side that already has a stored build
 * keeps that row; only a side never recorded (a run stopped during its
 * builds) is recorded now. */
static int prepare_builds(struct ab_run *run, const char *salt[2], const json_t *stored)
{
	const struct ab_experiment *exp = run->exp;
	const git_oid *commit[2] = {&run->revs.parent, &run->revs.candidate};
	const char *tree[2] = {run->revs.parent_tree_hex, run->revs.candidate_tree_hex};
	const char *oid[2] = {run->revs.parent_hex, run->revs.candidate_hex};
	int side, err;

	for (side = 0; side < 2; side++) {
		struct ab_build_spec spec;
		struct ab_build_record rec;
		struct ab_build *b = &run->builds[side];
		const char *name = ab_side_name((enum ab_side)side), *label;
		char *cmd, *tail;

		struct ab_build_dep *deps = side_deps(run, side);

		memset(&spec, 0, sizeof(spec));
		spec.repo = run->revs.repo;
		spec.commit = commit[side];
		spec.deps = deps;
		spec.ndeps = run->ndeps;
		if (run->overlay) {
			spec.overlay_commit = &run->overlay_source;
			spec.overlay_paths = exp->overlay_paths;
			spec.overlay_entries = json_object_get(run->overlay, "paths");
		}
		spec.tree_hex = tree[side];
		spec.command = &exp->build;
		spec.env = exp->env;
		spec.artifacts = exp->artifacts;
		spec.identity = run->identity;
		spec.salt = salt[side] ? salt[side] : "";
		spec.cache_dir = run->cache_dir;
		spec.timeout_ms = exp->build_timeout_ms;
		spec.waiting = run->events.build_waiting;
		spec.waiting_ctx = run->events.ctx;
		/* an A/A run builds the parent twice: say so */
		label = !strcmp(run->kind, "calibrate") && side ? "parent (second build)" : name;
		if (run->events.build_start)
			run->events.build_start(run->events.ctx, label, oid[side], 0);
		err = ab_build_prepare(b, &spec);
		free(deps);
		if (err < 0)
			return err;
		if (run->events.build_done)
			run->events.build_done(run->events.ctx, label, b);
		{
			const json_t *was = stored ? stored_build(stored, name) : NULL;
			const char *st = json_string_value(json_object_get(was, "status"));
			char *why = was && st && !strcmp(st, "ok") && b->status == AB_BUILD_OK
				    ? build_changed(b, was) : NULL;
			if (why) {
				err = ab_error_set(AB_EINVALID,
					"run %lld cannot be resumed: the %s build %s differs from the one its samples "
					"so far ran: %s; finishing the run would mix two builds on one side, so it "
					"stays interrupted with its samples and its stored builds as they were; "
					"measure again in a new run: 'abtool run %s'", (long long)run->meta.id, name,
					b->cached ? "found in the cache" : "made again (the cached one is gone)", why,
					exp->path);
				free(why);
				return err;
			}
			/* The stored row describes the build the samples ran (and
			 * how long it took to make): a resume keeps it. */
			if (was) {
				if (b->status != AB_BUILD_OK)
					ab_strv_push(&run->integrity,
						     ab_xasprintf("%s build failed on resume (%s); the whole log is "
								  "in %s", name, b->detail ? b->detail :
								  ab_build_status_name(b->status), b->log_path));
				continue;
			}
		}

		cmd = exp->build.shell || exp->build.argv ? ab_command_display(&exp->build) : NULL;
		tail = b->status != AB_BUILD_OK ? ab_build_log_tail(b, 200) : NULL;
		memset(&rec, 0, sizeof(rec));
		rec.side = name;
		rec.commit_oid = oid[side];
		rec.tree_oid = tree[side];
		rec.cache_key = b->key;
		rec.dir = b->dir;
		rec.command = cmd;
		rec.cached = b->cached;
		rec.status = ab_build_status_name(b->status);
		rec.duration_ns = b->duration_ns;
		rec.log = tail;
		{
			char *artifacts = json_dumps(b->artifacts, JSON_COMPACT | JSON_SORT_KEYS);
			rec.artifacts_json = artifacts;
			err = ab_store_build_put(run->store, run->meta.id, &rec);
			free(artifacts);
		}
		free(cmd);
		free(tail);
		if (err < 0)
			return err;
		if (b->status != AB_BUILD_OK)
			ab_strv_push(&run->integrity,
				     ab_xasprintf("%s build failed (%s); the whole log is in %s", name,
						  b->detail ? b->detail : ab_build_status_name(b->status),
						  b->log_path));
	}
	return 0;
}

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

/* The host fingerprint, with the outputs of `environment.commands`. */
static json_t *fingerprint(const struct ab_experiment *exp)
{
	json_t *fp = ab_env_fingerprint("");

	if (exp->environment_commands)
		ab_run_env_commands(fp, exp->environment_commands, exp->dir, exp->environment_commands_timeout_ms);
	return fp;
}

static void init_common(struct ab_run *run, const struct ab_experiment *exp, struct ab_store *store,
			const struct ab_run_events *events, const char *cache_dir)
{
	memset(run, 0, sizeof(*run));
	run->exp = exp;
	run->store = store;
	if (events)
		run->events = *events;
	run->cache_dir = cache_dir ? ab_xstrdup(cache_dir) : ab_cache_dir();
	run->host = fingerprint(exp);
	if (exp->environment_require)
		ab_env_check_requirements(run->host, exp->environment_require, &run->env_unmet);
}

static int load_samples(struct ab_run *run)
{
	const char **names = ab_run_metric_names(run->exp);
	int err;

	ab_samples_free(run->samples, run->nsamples);
	run->samples = NULL;
	run->nsamples = 0;
	err = ab_store_samples_load(run->store, run->meta.id, names, run->exp->nmetrics,
				    &run->samples, &run->nsamples);
	free(names);
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

int ab_run_start(struct ab_run *run, struct ab_experiment *exp, struct ab_store *store,
		 const struct ab_run_options *opt, const struct ab_run_events *events)
{
	struct ab_plan plan = {0};
	const char *salt[2] = {opt->salt_parent, opt->salt_candidate};
	char **params = NULL, *host = NULL, *options = NULL;
	size_t nrows = ab_experiment_nrows(exp);
	size_t i;
	int err;

	init_common(run, exp, store, events, opt->cache_dir);
	run->kind = opt->aa ? "calibrate" : "ab";
	run->block_pairs = exp->pairs;
	if (opt->pairs > 0 && !opt->aa) {
		char source[32];

		exp->pairs = opt->pairs;
		snprintf(source, sizeof(source), "--pairs %d", opt->pairs);
		if ((err = ab_experiment_check_pairs(exp, source)) < 0)
			return err;
	} else if (opt->pairs > 0) {
		exp->pairs = opt->pairs;
	}
	if ((err = ab_revs_open(&run->revs, exp->repo, opt->candidate ? opt->candidate : exp->candidate,
				opt->parent ? opt->parent : exp->parent, opt->parent ? 0 : exp->exact_parent)) < 0)
		return err;
	if (opt->aa) {
		/* A/A: the candidate side is the parent too, in a tree of its own */
		parent_on_both_sides(&run->revs);
		salt[0] = "calibrate-a";
		salt[1] = "calibrate-b";
	}
	if ((err = ab_run_resolve_inputs(run, opt)) < 0)
		return err;
	for (i = 0; opt->aa && i < run->ndeps; i++)  /* and every dependency at its parent */
		parent_on_both_sides(&run->deps[i]);
	run->dirty = !opt->aa && ab_revs_dirty(&run->revs) > 0;
	if (run->events.resolved)
		run->events.resolved(run->events.ctx, run);
	if ((err = ab_extract_new(&run->extractor, exp)) < 0)
		return err;
	run->identity = ab_build_identity(NULL);

	run->meta.seed = opt->have_seed ? opt->seed : ab_plan_random_seed();
	run->measure = ab_measure_new(exp, run->meta.seed);
	if ((err = ab_plan_build(&plan, nrows, (size_t)exp->pairs, (size_t)exp->warmup, run->meta.seed)) < 0)
		return err;
	params = row_params(exp, nrows);
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
	if (run->ndeps)
		json_object_set_new(run->options, "dependencies", deps_json(run));
	if (run->overlay) {  /* resume takes the overlay from this commit again */
		json_object_set(run->options, "overlay_from", json_object_get(run->overlay, "from"));
		json_object_set(run->options, "overlay_source", json_object_get(run->overlay, "source"));
	}
	if (run->dirty)
		json_object_set_new(run->options, "dirty_worktree", json_true());
	json_object_set_new(run->options, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(run->options, "hostname", json_incref(json_object_get(run->host, "hostname")));
	host = json_dumps(run->host, JSON_COMPACT);
	options = json_dumps(run->options, JSON_COMPACT);
	run->meta.kind = run->kind;
	run->meta.experiment_hash = exp->hash;
	run->meta.experiment_name = exp->name;
	run->meta.experiment_path = exp->path;
	run->meta.experiment_text = exp->text;
	run->meta.design = exp->design;
	run->meta.hypothesis = exp->hypothesis;
	run->meta.repo = exp->repo;
	run->meta.parent_oid = run->revs.parent_hex;
	run->meta.candidate_oid = run->revs.candidate_hex;
	run->meta.parent_tree = run->revs.parent_tree_hex;
	run->meta.candidate_tree = run->revs.candidate_tree_hex;
	run->meta.exact_parent = run->revs.exact_parent;
	run->meta.pairs = exp->pairs;
	run->meta.warmup = exp->warmup;
	run->meta.host_json = host;
	run->meta.options_json = options;
	run->meta.row_params_json = params;
	run->meta.nrows = nrows;
	err = ab_store_run_create(store, &run->meta, &plan);
	ab_utc_iso8601(run->created_at, sizeof(run->created_at), (int64_t)time(NULL));
	ab_plan_release(&plan);
	ab_strv_free(params);
	run->meta.row_params_json = NULL;
	free(host);
	free(options);
	run->meta.host_json = run->meta.options_json = NULL;
	if (err < 0)
		return err;
	if (run->ndeps) {
		json_t *deps = deps_json(run);
		err = ab_store_run_dependencies_put(store, run->meta.id, deps);
		json_decref(deps);
		if (err < 0)
			return err;
	}
	/* The plan is loaded before the builds, so that an interrupted build
	 * reports the run's samples. */
	if ((err = load_samples(run)) < 0)
		return err;
	if ((err = prepare_builds(run, salt, NULL)) < 0) {
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

int ab_run_resume(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		  int64_t run_id, const struct ab_run_events *events)
{
	json_t *stored = NULL, *opts;
	const char *status, *path;
	const char *salt[2] = {"", ""};
	int err, claimed = 0;

	memset(exp_out, 0, sizeof(*exp_out));
	memset(run, 0, sizeof(*run));
	if ((err = ab_store_run_get(store, run_id, &stored)) < 0)
		return err;
	status = json_string_value(json_object_get(stored, "status"));
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
	}
	init_common(run, exp_out, store, events, NULL);
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
	run->kind = json_string_value(json_object_get(stored, "kind")) &&
			    !strcmp(json_string_value(json_object_get(stored, "kind")), "calibrate")
		    ? "calibrate" : "ab";
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
	/* The stored commits, not the revspecs: a branch may have moved. */
	if ((err = ab_revs_open(&run->revs, json_string_value(json_object_get(stored, "repo")),
				json_string_value(json_object_get(stored, "candidate_oid")),
				json_string_value(json_object_get(stored, "parent_oid")), 0)) < 0 ||
	    (err = resolve_deps(run, json_object_get(opts, "dependencies"), NULL, 0)) < 0 ||
	    (err = resolve_overlay(run, json_string_value(json_object_get(opts, "overlay_from")),
				   json_string_value(json_object_get(opts, "overlay_source")))) < 0 ||
	    (err = ab_extract_new(&run->extractor, exp_out)) < 0)
		goto out;
	run->identity = ab_build_identity(NULL);
	{
		json_t *then = json_loads(json_string_value(json_object_get(stored, "host")), 0, NULL);
		run->host_change = host_change(then, run->host);
		run->host_started = json_is_object(then) ? then : NULL;
		if (!run->host_started)
			json_decref(then);
		run->resumed = 1;
	}
	if ((err = ab_store_run_set_status(store, run_id, "running")) < 0 ||
	    (err = load_samples(run)) < 0 ||
	    (err = prepare_builds(run, salt, json_object_get(stored, "builds"))) < 0 ||
	    (err = replan_half_pairs(run)) < 0 ||
	    (err = load_samples(run)) < 0)
		goto out;
out:
	/* in a build, or refused after taking the run over: not running any more */
	if (err == AB_EINTERRUPTED || (err < 0 && claimed))
		ab_store_run_set_status(store, run_id, "interrupted");
	json_decref(stored);
	return err;
}

/* Expand the benchmark command of every row once. */
static struct ab_command *expand_rows(const struct ab_experiment *exp, size_t nrows, int *err)
{
	struct ab_command *cmds = ab_xcalloc(nrows, sizeof(*cmds));
	size_t r;

	*err = 0;
	for (r = 0; r < nrows && !*err; r++)
		*err = ab_command_expand(&cmds[r], &exp->benchmark, exp, r);
	return cmds;
}

static int run_one(struct ab_run *run, struct ab_sample *s, const struct ab_command *cmd,
		   char *const *cwd, char **const *env, const char *cpus)
{
	struct ab_runner_spec spec;
	struct ab_runner_result r;
	char why[256], **wrapped = NULL, **padded = NULL, *pad;
	int err;

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
	if (!s->metrics) {
		size_t i;
		s->nmetrics = run->exp->nmetrics;
		s->metrics = ab_xmalloc((s->nmetrics ? s->nmetrics : 1) * sizeof(double));
		for (i = 0; i < s->nmetrics; i++)
			s->metrics[i] = NAN;
	}
	ab_measure_end(run->measure, s, &r);
	if (s->error) {
		/* Keep what a failed sample printed: it is the evidence. */
		s->stdout_text = ab_xstrndup(r.out.data ? r.out.data : "", r.out.len);
		s->stderr_text = ab_xstrndup(r.err.data ? r.err.data : "", r.err.len);
	}
	ab_runner_result_release(&r);
	return 0;
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
	struct ab_command *cmds = NULL;
	int64_t spent_ns = 0;
	size_t timed = 0;
	int err = 0;

	if (run->integrity)
		goto out;  /* a side did not build: nothing to measure */
	cmds = expand_rows(exp, nrows, &err);
	if (err < 0)
		goto out;
	for (i = 0; i < 2; i++) {
		struct ab_build_dep *deps = side_deps(run, (int)i);
		cwd[i] = ab_path_absolute(run->builds[i].dir, exp->workdir);
		env[i] = ab_build_env(exp->env, deps, run->ndeps, run->builds[i].dir);
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
		t0 = ab_now_ns();
		if ((err = run_one(run, s, &cmds[s->entry.row], cwd, env, cpus[s->entry.row])) < 0)
			break;
		if ((err = ab_store_sample_put(run->store, run->meta.id, s, names)) < 0)
			break;
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
	for (i = 0; cmds && i < nrows; i++)
		ab_command_release(&cmds[i]);
	free(cmds);
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

/* The command line that runs the experiment again: the experiment file by
 * its absolute path (the run may have been started in another folder),
 * each word quoted for the shell where it needs it. */
static char *reproduce_command(const struct ab_run *run)
{
	const char *path = json_string_value(json_object_get(run->options, "experiment_abspath"));
	char *file, *out;

	if (!path || !*path)
		path = json_string_value(json_object_get(run->options, "experiment_path"));
	file = ab_shell_quote(path && *path ? path : "EXP.yaml", 0);
	if (!strcmp(run->kind, "calibrate"))  /* both sides are the parent: pin it */
		out = ab_xasprintf("abtool calibrate %s --parent %s --seed %llu --pairs %d", file,
				   run->revs.parent_hex, (unsigned long long)run->meta.seed, run->exp->pairs);
	else if (!run->revs.exact_parent)
		out = ab_xasprintf("abtool run %s --candidate %s --parent %s --seed %llu --pairs %d", file,
				   run->revs.candidate_hex, run->revs.parent_hex,
				   (unsigned long long)run->meta.seed, run->exp->pairs);
	else
		out = ab_xasprintf("abtool run %s --candidate %s --seed %llu --pairs %d", file,
				   run->revs.candidate_hex, (unsigned long long)run->meta.seed, run->exp->pairs);
	free(file);
	/* The other repositories' commits and the overlay's source, pinned:
	 * their revspecs (a dependency's HEAD, overlay.from: HEAD) may have
	 * moved by the time the line is run. An overlay from the candidate or
	 * the parent is pinned by those already. A calibration's dependencies
	 * are at their parent on both sides: PARENT..PARENT. */
	{
		size_t i;

		for (i = 0; i < run->ndeps; i++) {
			char *pin = ab_xasprintf("%s=%s..%s", run->exp->dependencies[i].name,
						 run->deps[i].parent_hex, run->deps[i].candidate_hex);
			char *quoted = ab_shell_quote(pin, 0);
			char *with = ab_xasprintf("%s --dependency %s", out, quoted);

			free(pin);
			free(quoted);
			free(out);
			out = with;
		}
		if (run->overlay && strcmp(json_string_value(json_object_get(run->overlay, "from")), "candidate") &&
		    strcmp(json_string_value(json_object_get(run->overlay, "from")), "parent")) {
			char *with = ab_xasprintf("%s --overlay-from %s", out,
						  json_string_value(json_object_get(run->overlay, "source")));
			free(out);
			out = with;
		}
	}
	if (json_is_string(json_object_get(run->options, "design"))) {
		char *design = ab_shell_quote(json_string_value(json_object_get(run->options, "design")), 0);
		char *with = ab_xasprintf("%s --design %s", out, design);

		free(design);
		free(out);
		out = with;
	}
	return out;
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
	/* The load after the samples, beside the one taken at the start. */
	ab_env_record_load_after(run->host, "");
	{
		json_t *after = json_pack("{s:O, s:O, s:O}", "load_after_1m", json_object_get(run->host, "load_after_1m"),
					  "load_after_5m", json_object_get(run->host, "load_after_5m"),
					  "load_after_15m", json_object_get(run->host, "load_after_15m"));
		text = json_dumps(after, JSON_COMPACT);
		if (run->host_started)  /* a resumed run's report shows the host it started on */
			json_object_update(run->host_started, after);
		json_decref(after);
		err = ab_store_run_patch_host(run->store, run->meta.id, text);
		free(text);
		if (err < 0)
			goto out_free;
	}
	if ((err = load_samples(run)) < 0)
		goto out_free;
	ab_analysis_run(a, exp, run->samples, run->nsamples, run->integrity, run->env_unmet);
	if ((err = ab_store_same_comparison(run->store, exp->hash, run->revs.parent_hex,
					    run->revs.candidate_hex, run->meta.id, &earlier)) < 0)
		goto out_free;
	for (side = 0; side < 2; side++)
		json_array_append_new(builds, build_json(&run->builds[side], ab_side_name((enum ab_side)side),
							 &exp->build));
	memset(&in, 0, sizeof(in));
	in.exp = exp;
	in.analysis = a;
	in.run_id = run->meta.id;
	in.run_uuid = run->meta.uuid;
	in.created_at = run->created_at;
	in.repo = exp->repo;
	in.parent_oid = run->revs.parent_hex;
	in.candidate_oid = run->revs.candidate_hex;
	in.parent_tree = run->revs.parent_tree_hex;
	in.candidate_tree = run->revs.candidate_tree_hex;
	in.parent_subject = run->revs.parent_subject;
	in.candidate_subject = run->revs.candidate_subject;
	in.exact_parent = run->revs.exact_parent;
	in.seed = run->meta.seed;
	in.builds = builds;
	/* A resumed run's host is the one it started on, as `show` says; the
	 * "resumed" member says where it was finished. */
	in.host = run->host_started ? run->host_started : run->host;
	in.earlier = earlier;
	in.identity = run->identity;
	in.reproduce = reproduce;
	in.overlay = run->overlay;
	in.dependencies = run->ndeps ? deps_json(run) : NULL;
	in.kind = run->kind;
	doc = ab_report_document(&in);
	json_decref(in.dependencies);
	{
		json_t *w = ab_env_warnings(run->host, -1), *x;
		size_t k;
		json_array_foreach(w, k, x) {
			const char *level = json_string_value(json_object_get(x, "level"));
			if (level && !strcmp(level, "warning"))
				json_array_append_new(json_object_get(doc, "warnings"),
						      json_sprintf("host: %s", json_string_value(json_object_get(x, "message"))));
		}
		json_decref(w);
	}
	{
		const char *cmd;
		json_t *res;
		json_object_foreach(json_object_get(run->host, "command_results"), cmd, res) {
			const char *status = json_string_value(json_object_get(res, "status"));
			if (status && strcmp(status, "exit 0"))
				json_array_append_new(json_object_get(doc, "warnings"), json_sprintf(
					"environment.commands: '%s' %s; its output in host.commands may be "
					"incomplete", cmd, status));
		}
	}
	if (run->resumed) {
		size_t k, superseded = 0;
		const char *then = json_string_value(json_object_get(run->host_started, "hostname"));
		const char *now = json_string_value(json_object_get(run->host, "hostname"));
		char *cut;

		for (k = 0; k < run->nsamples; k++)
			superseded += run->samples[k].status == AB_SAMPLE_SUPERSEDED;
		json_object_set_new(doc, "resumed", json_pack("{s:I, s:s?, s:s?, s:s?}",
			"superseded_samples", (json_int_t)superseded, "started_on", then, "resumed_on", now,
			"host_change", run->host_change));
		/* nothing superseded: no "0 samples were" */
		cut = superseded ? ab_xasprintf(": %zu sample%s of half-finished pairs %s superseded (run "
						"again, whole, and left out of the statistics)", superseded,
						superseded == 1 ? "" : "s", superseded == 1 ? "was" : "were")
				 : ab_xstrdup("");
		json_array_append_new(json_object_get(doc, "warnings"), json_sprintf(
			"the run was interrupted and resumed%s%s%s%s%s%s%s",
			now ? " on '" : "", now ? now : "", now ? "'" : "", cut,
			run->host_change ? "; it started on another host (" : "",
			run->host_change ? run->host_change : "",
			run->host_change ? "): samples from two machines are mixed, and Host names the one it "
					   "started on" : ""));
		free(cut);
	}
	if (json_is_true(json_object_get(run->options, "dirty_worktree")))
		json_array_append_new(json_object_get(doc, "warnings"), json_sprintf(
			"the work tree of '%s' had uncommitted changes when the run started: they are not "
			"measured, only the commits are", run->revs.workdir ? run->revs.workdir : exp->repo));
	if (!strcmp(run->kind, "ab") && json_object_size(run->builds[0].artifacts) &&
	    json_equal(run->builds[0].artifacts, run->builds[1].artifacts))
		json_array_append_new(json_object_get(doc, "warnings"), json_string(
			"the declared artifacts are byte-identical on both sides: this may be an A/A "
			"comparison in disguise (did the change reach the build?)"));
	if (!strcmp(run->kind, "calibrate")) {
		json_object_set_new(doc, "calibration", ab_calibrate_summary(a, (size_t)run->block_pairs));
		/* Rules judge nothing in an A/A run: the calibration says what they would need. */
		json_object_set_new(doc, "rules", json_array());
		if (a->verdict != AB_INVALID) {
			json_object_set_new(doc, "verdict", json_string("calibrated"));
			json_object_set_new(doc, "reasons", json_array());
		}
	}

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

void ab_run_release(struct ab_run *run)
{
	ab_revs_release(&run->revs);
	for (size_t i = 0; i < run->ndeps; i++)
		ab_revs_release(&run->deps[i]);
	free(run->deps);
	json_decref(run->overlay);
	ab_build_release(&run->builds[0]);
	ab_build_release(&run->builds[1]);
	ab_strv_free(run->integrity);
	ab_strv_free(run->env_unmet);
	json_decref(run->host);
	json_decref(run->options);
	ab_samples_free(run->samples, run->nsamples);
	ab_extract_free(run->extractor);
	ab_measure_free(run->measure);
	free(run->cache_dir);
	free(run->identity);
	free(run->host_change);
	json_decref(run->host_started);
	memset(run, 0, sizeof(*run));
}
