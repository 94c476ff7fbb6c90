/* run_inputs.c - the run's inputs besides the experiment and its two
 * commits: the dependencies' revisions (and --dependency pins) and the
 * overlay's paths (see run.h). */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "inputs.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
int ab_run_resolve_deps(struct ab_run *run, const json_t *stored, const struct ab_dep_pin *pins,
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
int ab_run_resolve_overlay(struct ab_run *run, const char *from, const char *source_hex)
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

	if ((err = ab_run_resolve_deps(run, NULL, opt ? opt->dep_pins : NULL, opt ? opt->ndep_pins : 0)) < 0 ||
	    (err = ab_run_resolve_overlay(run, opt ? opt->overlay_from : NULL, NULL)) < 0)
		return err;
	return 0;
}

/* The dependencies as the report and the store record them (new). */
json_t *ab_run_deps_json(const struct ab_run *run)
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

int ab_run_hash_inputs(struct ab_run *run, const json_t *stored)
{
	const char *changed;
	int err;

	if (!run->exp->ninputs)
		return 0;
	if ((err = ab_inputs_hash(&run->inputs, run->inputs_hash, run->exp->inputs)) < 0 ||
	    (err = ab_inputs_stamp(run->inputs_stamp, run->exp->inputs)) < 0)
		return err;
	if (stored && (changed = ab_inputs_changed(stored, run->inputs)))
		return ab_error_set(AB_EINVALID, "run %lld: the input %s changed since the run started (its "
				    "content hash differs): samples of the old and the new content would be "
				    "mixed; restore it, or start a new run", (long long)run->meta.id, changed);
	return 0;
}

int ab_run_inputs_unchanged(struct ab_run *run, const char *when)
{
	char now[65];
	int err;

	if (!run->exp->ninputs)
		return 1;
	err = ab_inputs_stamp(now, run->exp->inputs);
	if (err == 0 && !strcmp(now, run->inputs_stamp))
		return 1;
	ab_strv_push(&run->integrity, ab_xasprintf("inputs changed during the run (%s %s): %s",
						   err ? "could not stat them" : "size or modification time differs",
						   when, err ? ab_error_last() : "samples of different inputs are "
						   "not comparable"));
	return 0;
}
