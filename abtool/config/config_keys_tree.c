/* config_keys_tree.c - the experiment file's keys of the paths inside
 * the tree and the other trees: `repo`, `workdir`, `artifacts`,
 * `overlay` and `dependencies`
 * (config_keys.h). */
#include "config_keys.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A relative path without "..": it stays inside the tree. */
static int inside_tree(const char *p)
{
	const char *s = p, *e;

	if (p[0] == '/')
		return 0;
	for (; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (e - s == 2 && s[0] == '.' && s[1] == '.')
			return 0;
	}
	return 1;
}

static int get_tree_path(struct ctx *c, yaml_mark_t mark, yaml_node_t *v, char **out)
{
	int err = cfg_get_string(c, mark, v, 0, out);

	if (!err && !inside_tree(*out)) {
		free(*out);
		*out = NULL;
		err = cfg_fail(c, mark, "expected a path inside the tree (relative, without '..')");
	}
	return err;
}

int cfg_h_tree_path(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_tree_path(c, k->start_mark, v, field);
}

int cfg_h_repo(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	(void)field;
	c->exp->repo_mark = cfg_mark(v->start_mark);
	return cfg_get_text(c, k->start_mark, v, "expected a string", 0, &c->repo);
}

/* Paths inside the tree being read into `paths`, `n` of them so far. */
struct path_list {
	char **paths;
	size_t n;
};

/* A cfg_item_fn: item `i` into l->paths[i] (a struct path_list). */
static int read_tree_path_item(struct ctx *c, yaml_node_t *item, size_t i, void *l)
{
	struct path_list *list = l;
	int err = get_tree_path(c, item->start_mark, item, &list->paths[i]);

	if (!err)
		list->n++;
	return err;
}

int cfg_h_artifacts(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct path_list list = { NULL, 0 };
	size_t n;
	int err;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of strings");
	n = cfg_nitems(v);
	if (n == 0)
		return 0;
	exp->artifacts = ab_xcalloc(n + 1, sizeof(*exp->artifacts));
	list.paths = exp->artifacts;
	err = cfg_read_items(c, v, read_tree_path_item, &list);
	exp->nartifacts += list.n;
	return err;
}

/* A path inside the tree as the tree sees it, to compare paths: empty and
 * "." segments dropped, so "bench/", "./bench" and "bench" are one path
 * (new string). */
static char *tree_path_key(const char *p)
{
	char *out = ab_xmalloc(strlen(p) + 1), *w = out;
	const char *s, *e;

	for (s = p; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (e == s || (e - s == 1 && s[0] == '.'))
			continue;
		if (w != out)
			*w++ = '/';
		memcpy(w, s, (size_t)(e - s));
		w += e - s;
	}
	*w = '\0';
	return out;
}

/* A list of paths inside the tree (overlay:), each once: a path given
 * twice is an error at its second place. */
static int read_path_list(struct ctx *c, yaml_node_t *k, yaml_node_t *v, char ***out)
{
	struct path_list list = { NULL, 0 };
	struct entry *e;
	size_t n, i, save, dup, first;
	int err;

	if (!v || v->type != YAML_SEQUENCE_NODE || cfg_nitems(v) == 0)
		return cfg_fail(c, k->start_mark, "expected a non-empty list of paths");
	n = cfg_nitems(v);
	*out = ab_xcalloc(n + 1, sizeof(char *));
	list.paths = *out;
	err = cfg_read_items(c, v, read_tree_path_item, &list);
	if (err)
		return err;
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].s = tree_path_key((*out)[i]);
		e[i].index = i;
	}
	if (cfg_find_duplicate(e, n, &dup, &first)) {
		yaml_mark_t at = cfg_node(c, v->data.sequence.items.start[dup])->start_mark;
		yaml_mark_t was = cfg_node(c, v->data.sequence.items.start[first])->start_mark;

		save = cfg_path_index(c, dup);
		if (!strcmp((*out)[dup], (*out)[first]))
			err = cfg_fail(c, at, "duplicate path '%s' (first at %zu:%zu); list each path once",
				   (*out)[dup], was.line + 1, was.column + 1);
		else
			err = cfg_fail(c, at, "duplicate path '%s': the same as '%s' (first at %zu:%zu); list each "
				   "path once", (*out)[dup], (*out)[first], was.line + 1, was.column + 1);
		cfg_path_pop(c, save);
	}
	for (i = 0; i < n; i++)
		free((char *)e[i].s);
	free(e);
	return err;
}

static const struct key_handler overlay_keys[] = {
	{ "from", NULL, 0 }, { "paths", NULL, 0 }, { NULL, NULL, 0 },
};

/* overlay: [paths] (from the candidate) or {from: REV, paths: [...]} */
int cfg_h_overlay(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int err;

	(void)field;
	exp->overlay_mark = cfg_mark(k->start_mark);
	if (v && v->type == YAML_SEQUENCE_NODE) {
		exp->overlay_from = ab_xstrdup("candidate");
		return read_path_list(c, k, v, &exp->overlay_paths);
	}
	err = cfg_check_mapping(c, v, k->start_mark, overlay_keys,
			    "expected a list of paths, or {from: candidate, paths: [...]}");
	if (err)
		return err;
	if (!(p = cfg_find_pair(c, v, "paths")))
		return cfg_missing_key(c, v, "paths");
	save = cfg_path_key(c, "paths");
	err = read_path_list(c, cfg_node(c, p->key), cfg_node(c, p->value), &exp->overlay_paths);
	cfg_path_pop(c, save);
	if (err)
		return err;
	if ((p = cfg_find_pair(c, v, "from"))) {
		save = cfg_path_key(c, "from");
		err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, &exp->overlay_from);
		cfg_path_pop(c, save);
	} else {
		exp->overlay_from = ab_xstrdup("candidate");
	}
	return err;
}

static const struct key_handler dependency_keys[] = {
	{ "name", NULL, 0 }, { "repo", NULL, 0 }, { "candidate", NULL, 0 }, { "parent", NULL, 0 },
	{ "exact_parent", NULL, 0 }, { "path", NULL, 0 }, { "env", NULL, 0 }, { NULL, NULL, 0 },
};

/* 1 when `s` is an identifier: letters, digits and '_', not starting
 * with a digit. */
static int is_identifier(const char *s)
{
	return ab_is_identifier(s, strlen(s));
}

static int read_dependency(struct ctx *c, yaml_node_t *v, struct ab_dependency *d)
{
	yaml_node_pair_t *p;
	const char *repo;
	size_t save;
	int err;

	d->mark = cfg_mark(v->start_mark);
	err = cfg_check_mapping(c, v, v->start_mark, dependency_keys,
			    "expected a mapping like {name: gc, repo: ../gc, path: deps/gc}");
	if (err)
		return err;
	err = cfg_read_string_key(c, v, "name", 1, is_identifier,
				  "expected a name of letters, digits and '_'", &d->name);
	if (err)
		return err;
	if (!(p = cfg_find_pair(c, v, "repo")))
		return cfg_missing_key(c, v, "repo");
	save = cfg_path_key(c, "repo");
	err = cfg_get_text(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), "expected a path", 0, &repo);
	cfg_path_pop(c, save);
	if (err)
		return err;
	d->repo = ab_path_absolute(c->exp->dir, repo);
	if ((err = cfg_read_string_key(c, v, "candidate", 0, NULL, NULL, &d->candidate)) ||
	    (err = cfg_read_string_key(c, v, "parent", 0, NULL, NULL, &d->parent)) ||
	    (err = cfg_read_string_key(c, v, "env", 0, is_identifier,
				       "expected an environment variable name", &d->env)))
		return err;
	if ((p = cfg_find_pair(c, v, "path"))) {
		save = cfg_path_key(c, "path");
		err = get_tree_path(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), &d->path);
		cfg_path_pop(c, save);
		if (err)
			return err;
	}
	if ((p = cfg_find_pair(c, v, "exact_parent"))) {
		save = cfg_path_key(c, "exact_parent");
		err = cfg_h_bool(c, &d->exact_parent, cfg_node(c, p->key), cfg_node(c, p->value));
		cfg_path_pop(c, save);
		if (err)
			return err;
	}
	if (!d->candidate)
		d->candidate = ab_xstrdup("HEAD");
	if (!d->path)
		d->path = ab_xasprintf(".abtool-deps/%s", d->name);
	return 0;
}

/* A cfg_item_fn: dependency `i` into deps[i] (`deps` the experiment's
 * array), its name and path unlike those of the dependencies before it. */
static int read_dependency_item(struct ctx *c, yaml_node_t *item, size_t i, void *deps)
{
	struct ab_dependency *d = deps;
	size_t j;
	int err = read_dependency(c, item, &d[i]);

	for (j = 0; !err && j < i; j++) {
		if (!strcmp(d[j].name, d[i].name))
			err = cfg_fail(c, item->start_mark, "duplicate dependency name '%s' (first at "
				   "dependencies[%zu])", d[i].name, j);
		else if (!strcmp(d[j].path, d[i].path))
			err = cfg_fail(c, item->start_mark, "dependency path '%s' is already used by "
				   "dependencies[%zu]", d[i].path, j);
	}
	return err;
}

int cfg_h_dependencies(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of dependencies");
	n = cfg_nitems(v);
	exp->dependencies = ab_xcalloc(n ? n : 1, sizeof(*exp->dependencies));
	exp->ndependencies = n;
	return cfg_read_items(c, v, read_dependency_item, exp->dependencies);
}
