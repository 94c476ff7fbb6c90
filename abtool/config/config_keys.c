/* config_keys.c - the experiment file's top-level mapping and its
 * reader (config_keys.h), with the keys of its own: `project`, `history`,
 * and the keys refused beside `sides`. The other keys are read by family
 * in config_keys_<family>.c: the commands (command), the matrix and
 * scaling (matrix), checksum and metrics (metrics), paths and other trees
 * (tree), and the host's conditions (host).
 *
 * Keys are processed in the order of top_keys[] rather than file order, so
 * that `matrix` and `metrics` are known before `benchmark`, `metric`,
 * `scaling` and `accept` refer to them. Unknown and duplicate keys of a
 * mapping are reported first, in file order.
 */
#include "config_keys.h"
#include "config_contention.h"
#include "config_plan.h"
#include "config_profile.h"
#include "config_rules.h"
#include "project.h"
#include "util.h"

#include <stddef.h>

static const struct key_handler history_keys[] = {
	{ "block_rejected", cfg_h_bool, offsetof(struct ab_experiment, block_rejected) },
	{ NULL, NULL, 0 },
};

static int h_history(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, history_keys, "expected a mapping like {block_rejected: true}");
	if (err)
		return err;
	return cfg_read_keys(c, v, history_keys, c->exp);
}

/* project: the project the experiment's runs belong to, instead of the
 * repository's (docs/history.md, "Projects"). */
static int h_project(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = NULL, *why;
	int err;

	(void)k;  /* the value is at fault: the messages name its line and column */
	if ((err = cfg_get_text(c, v->start_mark, v, "expected the project's name as a string, like "
				"github.com/owner/name", 0, &s)) < 0)
		return err;
	if ((why = ab_project_name_problem(s)))
		return cfg_fail(c, v->start_mark, "%s", why);
	*(char **)field = ab_xstrdup(s);
	return 0;
}

/* Keys that name commits or builds, refused beside `sides:` (two commands
 * are compared as they are: nothing is checked out or built). */
static int check_sides_alone(struct ctx *c, yaml_node_t *root)
{
	static const char *const refused[] = {
		"benchmark", "repo", "candidate", "parent", "exact_parent", "build", "artifacts",
		"overlay", "dependencies", "build_timeout",
	};
	yaml_node_pair_t *p;
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if ((p = cfg_find_pair(c, root, refused[i])))
			return cfg_fail(c, cfg_node(c, p->key)->start_mark, "%s: not with sides: (two commands "
					"are compared as they are: no revision is read, nothing is built)", refused[i]);
	return 0;
}

/*
 * The top-level keys, in the order they are read: `matrix` before
 * `benchmark` (placeholders), `metrics` before `metric`, and both before
 * `scaling` and `accept`.
 */
#define EXP_KEY(key, fn) { #key, fn, offsetof(struct ab_experiment, key) }
static const struct key_handler top_keys[] = {
	EXP_KEY(name, cfg_h_string),
	EXP_KEY(design, cfg_h_string),
	EXP_KEY(hypothesis, cfg_h_string),
	EXP_KEY(project, h_project),
	EXP_KEY(repo, cfg_h_repo),
	EXP_KEY(candidate, cfg_h_string),
	EXP_KEY(parent, cfg_h_string),
	EXP_KEY(exact_parent, cfg_h_bool),
	EXP_KEY(build, cfg_h_command),
	EXP_KEY(artifacts, cfg_h_artifacts),
	EXP_KEY(workdir, cfg_h_tree_path),
	EXP_KEY(env, cfg_h_env),
	EXP_KEY(checksum, cfg_h_checksum),
	EXP_KEY(matrix, cfg_h_matrix),
	EXP_KEY(benchmark, cfg_h_benchmark),
	{ "sides", cfg_h_sides, 0 },
	EXP_KEY(prepare, cfg_h_benchmark),
	EXP_KEY(cleanup, cfg_h_benchmark),
	EXP_KEY(inputs, cfg_h_inputs),
	EXP_KEY(metrics, cfg_h_metrics),
	EXP_KEY(metric, cfg_h_metric),
	{ "scaling", cfg_h_scaling, 0 },
	{ "pairs", cfg_h_pairs, 0 },
	{ "limits", cfg_h_limits, 0 },
	{ "sequential", cfg_h_sequential, 0 },
	{ "budget", cfg_h_duration, offsetof(struct ab_experiment, budget_ms) },
	EXP_KEY(warmup, cfg_h_warmup),
	{ "timeout", cfg_h_duration, offsetof(struct ab_experiment, timeout_ms) },
	{ "build_timeout", cfg_h_duration, offsetof(struct ab_experiment, build_timeout_ms) },
	{ "accept", cfg_h_accept, 0 },
	{ "environment", cfg_h_environment, 0 },
	{ "history", h_history, 0 },
	{ "overlay", cfg_h_overlay, 0 },
	{ "affinity", cfg_h_affinity, 0 },
	{ "aslr", cfg_h_bool, offsetof(struct ab_experiment, aslr) },
	{ "env_padding", cfg_h_env_padding, offsetof(struct ab_experiment, env_padding) },
	{ "contention", cfg_h_contention, 0 },
	{ "dependencies", cfg_h_dependencies, 0 },
	{ "profile", cfg_h_profile, 0 },
	{ NULL, NULL, 0 },
};

int cfg_read_root(struct ctx *c, yaml_node_t *root)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	yaml_mark_t start = { 0, 0, 0 };
	int err;

	if (!root)
		return cfg_fail(c, start, "the file is empty (or only comments); an experiment needs at least "
			    "'name:' and 'benchmark:': start from 'abtool init'");
	if (root->type != YAML_MAPPING_NODE)
		return cfg_fail(c, root->start_mark, "expected a mapping of experiment keys (name:, benchmark:, "
			    "...), not a %s", root->type == YAML_SEQUENCE_NODE ? "list" : "single value");
	err = cfg_check_mapping(c, root, root->start_mark, top_keys, "");
	if (err)
		return err;
	if (!cfg_find_pair(c, root, "name"))
		return cfg_missing_key(c, root, "name");
	if (cfg_find_pair(c, root, "sides")) {
		if ((err = check_sides_alone(c, root)) < 0)
			return err;
		if ((p = cfg_find_pair(c, root, "project")))
			return cfg_fail(c, cfg_node(c, p->key)->start_mark, "project: not with sides: (a "
					"comparison of two commands belongs to no project)");
	} else if (!cfg_find_pair(c, root, "benchmark")) {
		return cfg_missing_key(c, root, "benchmark");
	}
	if ((p = cfg_find_pair(c, root, "candidate")))
		exp->candidate_mark = cfg_mark(cfg_node(c, p->key)->start_mark);
	if ((p = cfg_find_pair(c, root, "parent")))
		exp->parent_mark = cfg_mark(cfg_node(c, p->key)->start_mark);
	err = cfg_read_keys(c, root, top_keys, exp);
	if (err)
		return err;

	if (!exp->design)
		exp->design = ab_xstrdup(exp->name);
	exp->repo = ab_path_absolute(exp->dir, c->repo ? c->repo : ".");
	if (!exp->candidate)
		exp->candidate = ab_xstrdup("HEAD");
	if (!exp->workdir)
		exp->workdir = ab_xstrdup(".");
	if (!exp->metric)
		exp->metric = ab_xstrdup("wall_ns");
	return 0;
}
