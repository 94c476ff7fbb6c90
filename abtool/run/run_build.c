/* run_build.c - the builds of both sides, found in the cache or built, and
 * checked against the stored ones on resume (see run.h). */
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

/* The dependencies' revisions of one side, for a build spec (new array). */
struct ab_build_dep *ab_run_side_deps(const struct ab_run *run, int side)
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

/* Why side `name`'s build `b` (not ok) makes the run invalid, for the
 * run's integrity reasons (new string). A missing artifact says whether
 * the build ran or its tree was reused from the cache, since its log is
 * then not about the artifact. */
static char *build_failure(const char *name, const struct ab_build *b, const char *when)
{
	if (b->status == AB_BUILD_NO_ARTIFACT)
		return ab_xasprintf("%s build%s: %s (the build %s and succeeded; its log is in %s)", name,
				    when, b->detail, b->cached ? "was reused from the cache" : "ran",
				    b->log_path);
	return ab_xasprintf("%s build failed%s (%s); the whole log is in %s", name, when,
			    b->detail ? b->detail : ab_build_status_name(b->status), b->log_path);
}

/* When both sides' builds lack the same declared artifact, the experiment
 * file names a path no build makes: say so as the run's first reason and
 * mark the run (the command exits 64, not 3). */
static void check_both_missing(struct ab_run *run)
{
	const struct ab_build *b = run->builds;
	char **reasons = NULL, **r;

	if (b[0].status != AB_BUILD_NO_ARTIFACT || b[1].status != AB_BUILD_NO_ARTIFACT ||
	    strcmp(b[0].missing, b[1].missing))
		return;
	run->experiment_wrong = 1;
	ab_strv_push(&reasons, ab_xasprintf("the experiment file is wrong: neither side's build makes "
		"artifact '%s' (paths in 'artifacts:' are relative to the tree); correct 'artifacts:' "
		"in %s", b[0].missing, run->exp->path));
	for (r = run->integrity; r && *r; r++)
		ab_strv_push(&reasons, *r);
	free(run->integrity);
	run->integrity = reasons;
}

/* Build (or find in the cache) both sides and record them. `stored` (a
 * resume: the run's stored builds, borrowed; NULL for a new run) is what
 * every build must match: a side whose build came back different stops
 * the resume with AB_EINVALID. A side that already has a stored build
 * keeps that row; only a side never recorded (a run stopped during its
 * builds) is recorded now. */
int ab_run_prepare_builds(struct ab_run *run, const char *salt[2], const json_t *stored)
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

		struct ab_build_dep *deps = ab_run_side_deps(run, side);

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
					ab_strv_push(&run->integrity, build_failure(name, b, " on resume"));
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
			ab_strv_push(&run->integrity, build_failure(name, b, ""));
	}
	check_both_missing(run);
	return 0;
}

int ab_run_artifacts_identical(const struct ab_run *run)
{
	const struct ab_build *b = run->builds;

	return run->kind && (!strcmp(run->kind, "ab") || !strcmp(run->kind, "bisect")) &&
	       b[0].status == AB_BUILD_OK &&
	       b[1].status == AB_BUILD_OK && json_object_size(b[0].artifacts) &&
	       json_equal(b[0].artifacts, b[1].artifacts);
}
