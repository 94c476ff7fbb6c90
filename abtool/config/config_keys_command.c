/* config_keys_command.c - the experiment file's keys of the commands:
 * `build`, `benchmark`, `prepare`, `cleanup` and their {param}
 * placeholders, `env`, `inputs`, and the two commands of `sides`
 * (config_keys.h). */
#include "config_keys.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int check_placeholders(struct ctx *c, yaml_mark_t mark, const char *tmpl)
{
	const struct ab_experiment *exp = c->exp;
	const char **names, *near, *bad;
	char *name, *list = NULL;
	size_t n;
	int err;

	if (!ab_template_check(tmpl, exp, &bad, &n))
		return 0;
	name = ab_xstrndup(bad, n);
	names = cfg_param_names(exp);
	near = ab_suggest(name, names, exp->nparams);
	if (near) {
		err = cfg_fail(c, mark, "unknown placeholder '{%s}'; did you mean '{%s}'?", name, near);
	} else {
		list = cfg_join(names, exp->nparams);
		err = cfg_fail(c, mark, "unknown placeholder '{%s}'; %s%s (write {{ and }} for literal "
			       "braces)", name, exp->nparams ? "matrix parameters are: " : "",
			       exp->nparams ? list : "the experiment has no matrix");
	}
	free(list);
	free(names);
	free(name);
	return err;
}

/* A cfg_item_fn: argument `i` of the struct ab_command `cmd` (argv[0]
 * names the program; later arguments may be empty). */
static int read_argument_item(struct ctx *c, yaml_node_t *item, size_t i, void *cmd)
{
	struct ab_command *out = cmd;
	int err = cfg_get_string(c, item->start_mark, item, i > 0, &out->argv[i]);

	if (!err)
		out->argc++;
	return err;
}

static int get_command(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct ab_command *out)
{
	size_t n;

	if (v && v->type == YAML_SEQUENCE_NODE) {
		n = cfg_nitems(v);
		if (n == 0)
			return cfg_fail(c, k->start_mark, "expected a non-empty list of strings");
		out->argv = ab_xcalloc(n + 1, sizeof(*out->argv));
		return cfg_read_items(c, v, read_argument_item, out);
	}
	if (!cfg_scalar(v))
		return cfg_fail(c, k->start_mark, "expected a string or a list of strings");
	return cfg_get_string(c, k->start_mark, v, 0, &out->shell);
}

int cfg_h_command(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_command(c, k, v, field);
}

/* The benchmark: a command whose {param} placeholders name matrix
 * parameters (read after `matrix`). */
int cfg_h_benchmark(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_command *cmd = field;
	size_t i, save;
	int err = get_command(c, k, v, cmd);

	if (err)
		return err;
	if (cmd->shell)
		return check_placeholders(c, k->start_mark, cmd->shell);
	for (i = 0; i < cmd->argc && !err; i++) {
		save = cfg_path_index(c, i);
		err = check_placeholders(c, cfg_node(c, v->data.sequence.items.start[i])->start_mark,
					 cmd->argv[i]);
		cfg_path_pop(c, save);
	}
	return err;
}

/* A cfg_item_fn: the variable kept at `i` of `keep` (the experiment's
 * env_keep), a PG* name. */
static int read_keep_item(struct ctx *c, yaml_node_t *item, size_t i, void *keep)
{
	char *name = NULL;
	int err;

	if ((err = cfg_get_string(c, item->start_mark, item, 0, &name)) == 0 &&
	    (strncmp(name, "PG", 2) || !ab_is_identifier(name, strlen(name))))
		err = cfg_fail(c, item->start_mark, "'%s': only the PG* variables abtool removes for "
			       "a PostgreSQL store can be kept (ABTOOL_STORE never is: set a variable "
			       "for the benchmark with env: NAME: value)", name);
	if (err)
		free(name);
	else
		((char **)keep)[i] = name;
	return err;
}

/* env.keep: [NAME, ...]: PG* variables that abtool removes for its own
 * PostgreSQL store's sake and that builds and samples keep
 * (docs/experiment-file.md, "benchmark"; docs/security.md, "Credentials"). */
static int env_keep(struct ctx *c, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;

	exp->env_keep = ab_xcalloc(cfg_nitems(v) + 1, sizeof(*exp->env_keep));
	return cfg_read_items(c, v, read_keep_item, exp->env_keep);
}

int cfg_h_env(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	const char *name, *value = NULL;
	size_t save;
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, NULL, "expected a mapping of NAME: value");
	if (err)
		return err;
	exp->env = ab_xcalloc(cfg_npairs(v) + 1, sizeof(*exp->env));
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = cfg_node(c, p->key);

		name = cfg_scalar(pk);
		save = cfg_path_key(c, name);
		if (!strcmp(name, "keep") && cfg_node(c, p->value) &&
		    cfg_node(c, p->value)->type == YAML_SEQUENCE_NODE)
			err = env_keep(c, cfg_node(c, p->value));  /* a variable `keep` is a string */
		else if (!ab_is_identifier(name, strlen(name)))
			err = cfg_fail(c, pk->start_mark, "'%s' is not a valid environment variable name "
				   "(letters, digits and _, not starting with a digit)", name);
		else
			err = cfg_get_text(c, pk->start_mark, cfg_node(c, p->value),
				       "expected a string value (write '' for an empty one)", 1, &value);
		if (!err && value)
			exp->env[exp->nenv++] = ab_xasprintf("%s=%s", name, value);
		value = NULL;
		cfg_path_pop(c, save);
	}
	return err;
}

/* inputs: [PATH, ...]: files or folders the benchmark reads from outside
 * the trees, relative to the experiment file's folder or absolute (their
 * existence is checked when a run hashes them). */
/* A cfg_item_fn: input `i` (`exp` the experiment), made absolute. */
static int read_input_item(struct ctx *c, yaml_node_t *item, size_t i, void *exp)
{
	struct ab_experiment *e = exp;
	char *p = NULL;
	int err = cfg_get_string(c, item->start_mark, item, 0, &p);

	(void)i;
	if (!err)
		e->inputs[e->ninputs++] = ab_path_absolute(e->dir, p);
	free(p);
	return err;
}

int cfg_h_inputs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of paths (files or folders)");
	exp->inputs = ab_xcalloc(cfg_nitems(v) + 1, sizeof(*exp->inputs));
	return cfg_read_items(c, v, read_input_item, exp);
}

static const struct key_handler side_keys[] = {
	{ "name", NULL, 0 }, { "command", NULL, 0 }, { NULL, NULL, 0 },
};

/* 1 when s is a side's name: [A-Za-z0-9_.+-]+, as reports and labels show it. */
static int side_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_.+-", *s)))
			return 0;
	return 1;
}

/* One side of `sides:`: {name: NAME, command: CMD} (the command read as
 * the benchmark is, placeholders checked against the matrix). */
static int read_side(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct ab_side_command *side)
{
	yaml_node_pair_t *p;
	size_t save;
	int err;

	side->mark = cfg_mark(k->start_mark);
	err = cfg_check_mapping(c, v, k->start_mark, side_keys,
				"expected a mapping like {name: fast, command: './fast --lanes {lanes}'}");
	if (err)
		return err;
	err = cfg_read_string_key(c, v, "name", 1, side_name_ok,
				  "expected a name of letters, digits and '_', '.', '+', '-'", &side->name);
	if (err)
		return err;
	if (!(p = cfg_find_pair(c, v, "command")))
		return cfg_missing_key(c, v, "command");
	save = cfg_path_key(c, "command");
	err = cfg_h_benchmark(c, &side->command, cfg_node(c, p->key), cfg_node(c, p->value));
	cfg_path_pop(c, save);
	return err;
}

static const struct key_handler sides_keys[] = {
	{ "a", NULL, 0 }, { "b", NULL, 0 }, { NULL, NULL, 0 },
};

/* sides: {a: {name, command}, b: {name, command}}: two commands compared
 * instead of two revisions (docs/experiment-file.md, "sides"). */
int cfg_h_sides(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	static const char *const names[2] = {"a", "b"};
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int i, err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, sides_keys,
				"expected {a: {name: ..., command: ...}, b: {name: ..., command: ...}}");
	for (i = 0; i < 2 && !err; i++) {
		if (!(p = cfg_find_pair(c, v, names[i])))
			return cfg_missing_key(c, v, names[i]);
		save = cfg_path_key(c, names[i]);
		err = read_side(c, cfg_node(c, p->key), cfg_node(c, p->value), &exp->sides[i]);
		cfg_path_pop(c, save);
	}
	if (!err && !strcmp(exp->sides[0].name, exp->sides[1].name))
		err = cfg_fail(c, k->start_mark, "both sides are named '%s'; give each its own name",
			       exp->sides[0].name);
	exp->has_sides = !err;
	return err;
}
