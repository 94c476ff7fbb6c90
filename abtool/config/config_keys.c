/* config_keys.c - the experiment file's keys and their readers
 * (config_keys.h).
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
#include "env.h"
#include "error.h"
#include "project.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

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

static int h_warmup(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return cfg_get_int(c, k, v, 0, 1000, field);
}

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

static int h_tree_path(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_tree_path(c, k->start_mark, v, field);
}

static int h_repo(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	(void)field;
	c->exp->repo_mark = cfg_mark(v->start_mark);
	return cfg_get_text(c, k->start_mark, v, "expected a string", 0, &c->repo);
}

static int h_artifacts(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n, i, save;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of strings");
	n = cfg_nitems(v);
	if (n == 0)
		return 0;
	exp->artifacts = ab_xcalloc(n + 1, sizeof(*exp->artifacts));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);

		save = cfg_path_index(c, i);
		err = get_tree_path(c, item->start_mark, item, &exp->artifacts[i]);
		cfg_path_pop(c, save);
		if (!err)
			exp->nartifacts++;
	}
	return err;
}

/* inputs: [PATH, ...]: files or folders the benchmark reads from outside
 * the trees, relative to the experiment file's folder or absolute (their
 * existence is checked when a run hashes them). */
static int h_inputs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n, i, save;
	char *p = NULL;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of paths (files or folders)");
	n = cfg_nitems(v);
	exp->inputs = ab_xcalloc(n + 1, sizeof(*exp->inputs));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);

		save = cfg_path_index(c, i);
		err = cfg_get_string(c, item->start_mark, item, 0, &p);
		if (!err)
			exp->inputs[exp->ninputs++] = ab_path_absolute(exp->dir, p);
		free(p);
		p = NULL;
		cfg_path_pop(c, save);
	}
	return err;
}

static int get_command(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct ab_command *out)
{
	size_t n, i, save;
	int err = 0;

	if (v && v->type == YAML_SEQUENCE_NODE) {
		n = cfg_nitems(v);
		if (n == 0)
			return cfg_fail(c, k->start_mark, "expected a non-empty list of strings");
		out->argv = ab_xcalloc(n + 1, sizeof(*out->argv));
		for (i = 0; i < n && !err; i++) {
			yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);

			save = cfg_path_index(c, i);
			/* argv[0] names the program; later arguments may be empty */
			err = cfg_get_string(c, item->start_mark, item, i > 0, &out->argv[i]);
			cfg_path_pop(c, save);
			if (!err)
				out->argc++;
		}
		return err;
	}
	if (!cfg_scalar(v))
		return cfg_fail(c, k->start_mark, "expected a string or a list of strings");
	return cfg_get_string(c, k->start_mark, v, 0, &out->shell);
}

static int h_command(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_command(c, k, v, field);
}

/* The benchmark: a command whose {param} placeholders name matrix
 * parameters (read after `matrix`). */
static int h_benchmark(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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

/* env.keep: [NAME, ...]: PG* variables that abtool removes for its own
 * PostgreSQL store's sake and that builds and samples keep
 * (docs/experiment-file.md, "benchmark"; docs/security.md, "Credentials"). */
static int env_keep(struct ctx *c, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n = cfg_nitems(v), i, save;
	int err = 0;

	exp->env_keep = ab_xcalloc(n + 1, sizeof(*exp->env_keep));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);
		char *name = NULL;

		save = cfg_path_index(c, i);
		if ((err = cfg_get_string(c, item->start_mark, item, 0, &name)) == 0 &&
		    (strncmp(name, "PG", 2) || !ab_is_identifier(name, strlen(name))))
			err = cfg_fail(c, item->start_mark, "'%s': only the PG* variables abtool removes for "
				       "a PostgreSQL store can be kept (ABTOOL_STORE never is: set a variable "
				       "for the benchmark with env: NAME: value)", name);
		if (err)
			free(name);
		else
			exp->env_keep[i] = name;
		cfg_path_pop(c, save);
	}
	return err;
}

static int h_env(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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

static int check_regex(struct ctx *c, yaml_mark_t mark, const char *re)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE offset;
	pcre2_code *code;
	uint32_t groups = 0;
	int errcode;

	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &errcode,
			     &offset, NULL);
	if (!code) {
		if (pcre2_get_error_message(errcode, msg, sizeof(msg)) < 0)
			strcpy((char *)msg, "unknown error");
		return cfg_fail(c, mark, "invalid regex at offset %zu: %s", (size_t)offset,
			    (const char *)msg);
	}
	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
	pcre2_code_free(code);
	if (groups == 0)
		return cfg_fail(c, mark, "the regex has no capture group; put the value to extract in ( )");
	return 0;
}

static const struct key_handler checksum_keys[] = {
	{ "regex", NULL, 0 }, { "stdout", NULL, 0 }, { "json", NULL, 0 }, { "file", NULL, 0 },
	{ NULL, NULL, 0 },
};

static int h_checksum(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	static const enum ab_checksum_kind kinds[] = {
		AB_CHECKSUM_REGEX, AB_CHECKSUM_STDOUT_SHA256, AB_CHECKSUM_JSON, AB_CHECKSUM_FILE,
	};
	struct ab_checksum *cs = field;
	yaml_node_t *pk, *pv;
	const char *key, *kind = NULL, *s;
	size_t i, save;
	int err;

	err = cfg_check_mapping(c, v, k->start_mark, checksum_keys,
			    "expected a mapping with one of regex, stdout, json or file");
	if (err)
		return err;
	if (cfg_npairs(v) == 0)
		return cfg_fail(c, k->start_mark, "expected one of regex, stdout, json or file");
	pk = cfg_node(c, v->data.mapping.pairs.start[0].key);
	pv = cfg_node(c, v->data.mapping.pairs.start[0].value);
	if (cfg_npairs(v) > 1) {
		kind = cfg_scalar(pk);
		pk = cfg_node(c, v->data.mapping.pairs.start[1].key);
		key = cfg_scalar(pk);
		save = cfg_path_key(c, key);
		err = cfg_fail(c, pk->start_mark, "give only one of regex, stdout, json or file "
			   "('%s' is already given)", kind);
		cfg_path_pop(c, save);
		return err;
	}
	key = cfg_scalar(pk);
	save = cfg_path_key(c, key);
	for (i = 0; strcmp(checksum_keys[i].key, key); i++)
		;
	cs->kind = kinds[i];
	if (cs->kind == AB_CHECKSUM_STDOUT_SHA256) {
		s = cfg_scalar(pv);
		if (!s || strcmp(s, "sha256"))
			err = cfg_fail(c, pk->start_mark, "expected sha256");
	} else {
		err = cfg_get_string(c, pk->start_mark, pv, 0, &cs->arg);
		if (!err && cs->kind == AB_CHECKSUM_REGEX)
			err = check_regex(c, pk->start_mark, cs->arg);
	}
	cfg_path_pop(c, save);
	return err;
}

static int h_matrix(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct entry *e = NULL;
	size_t i, j, n, save, save2, dup, first, rows = 1;
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of parameter: [values]");
	if (err)
		return err;
	if (cfg_npairs(v) == 0)
		return cfg_fail(c, k->start_mark, "expected at least one parameter "
			    "(leave out matrix: for a single row)");
	exp->matrix = ab_xcalloc(cfg_npairs(v), sizeof(*exp->matrix));
	exp->nparams = cfg_npairs(v);
	exp->matrix_mark = cfg_mark(k->start_mark);
	for (i = 0; i < exp->nparams && !err; i++) {
		struct ab_param *p = &exp->matrix[i];
		yaml_node_t *pk = cfg_node(c, v->data.mapping.pairs.start[i].key);
		yaml_node_t *pv = cfg_node(c, v->data.mapping.pairs.start[i].value);
		const char *name = cfg_scalar(pk), *text = NULL;

		save = cfg_path_key(c, name);
		if (!ab_is_identifier(name, strlen(name))) {
			err = cfg_fail(c, pk->start_mark, "'%s' is not a valid parameter name "
				   "(letters, digits and _, not starting with a digit)", name);
			goto next;
		}
		p->name = ab_xstrdup(name);
		if (pv->type == YAML_SEQUENCE_NODE) {
			n = cfg_nitems(pv);
			if (n == 0) {
				err = cfg_fail(c, pk->start_mark, "expected a value or a non-empty list of values");
				goto next;
			}
			p->values = ab_xcalloc(n, sizeof(*p->values));
			for (j = 0; j < n && !err; j++) {
				yaml_node_t *item = cfg_node(c, pv->data.sequence.items.start[j]);

				save2 = cfg_path_index(c, j);
				err = cfg_get_text(c, item->start_mark, item,
					       "expected a value (a string or a number)", 1, &text);
				if (!err)
					p->values[p->nvalues++] = ab_xstrdup(text);
				cfg_path_pop(c, save2);
			}
		} else {
			p->values = ab_xcalloc(1, sizeof(*p->values));
			if (!cfg_scalar(pv))
				err = cfg_fail(c, pk->start_mark, "expected a value or a non-empty list of values");
			else
				err = cfg_get_string(c, pk->start_mark, pv, 1, &p->values[0]);
			if (!err)
				p->nvalues = 1;
		}
		if (err)
			goto next;
		e = ab_xcalloc(p->nvalues, sizeof(*e));
		for (j = 0; j < p->nvalues; j++) {
			e[j].s = p->values[j];
			e[j].isnum = !ab_parse_double(&e[j].num, p->values[j]);
			e[j].index = j;
		}
		if (cfg_find_duplicate(e, p->nvalues, &dup, &first)) {
			save2 = cfg_path_index(c, dup);
			err = cfg_fail(c, cfg_node(c, pv->data.sequence.items.start[dup])->start_mark,
				   "duplicate value '%s' (same as %s.%s[%zu])",
				   p->values[dup], "matrix", name, first);
			cfg_path_pop(c, save2);
		}
		free(e);
		e = NULL;
		if (!err && rows > AB_MAX_ROWS / p->nvalues)
			err = cfg_fail(c, pk->start_mark, "the matrix has more than %d rows", AB_MAX_ROWS);
		rows *= p->nvalues;
next:
		cfg_path_pop(c, save);
	}
	return err;
}

static const struct key_handler metric_keys[] = {
	{ "regex", NULL, 0 }, { "json", NULL, 0 }, { "unit", NULL, 0 }, { "better", NULL, 0 },
	{ NULL, NULL, 0 },
};

static int read_metric(struct ctx *c, yaml_node_t *pk, yaml_node_t *pv, struct ab_metric *m)
{
	yaml_node_pair_t *re, *js, *unit, *better, *src;
	const char *s;
	size_t save;
	int err;

	err = cfg_check_mapping(c, pv, pk->start_mark, metric_keys,
			    "expected a mapping like {regex: 'ops=(\\S+)', better: higher}");
	if (err)
		return err;
	re = cfg_find_pair(c, pv, "regex");
	js = cfg_find_pair(c, pv, "json");
	unit = cfg_find_pair(c, pv, "unit");
	better = cfg_find_pair(c, pv, "better");
	if (re && js) {
		src = re > js ? re : js;
		save = cfg_path_key(c, re > js ? "regex" : "json");
		err = cfg_fail(c, cfg_node(c, src->key)->start_mark,
			   "give only one of regex or json ('%s' is already given)",
			   re > js ? "json" : "regex");
		cfg_path_pop(c, save);
		return err;
	}
	if (!re && !js)
		return cfg_fail(c, pv->start_mark, "expected regex or json to say where the value comes from");
	if (!better)
		return cfg_missing_key(c, pv, "better");
	src = re ? re : js;
	m->source = re ? AB_METRIC_REGEX : AB_METRIC_JSON;
	save = cfg_path_key(c, re ? "regex" : "json");
	err = cfg_get_string(c, cfg_node(c, src->key)->start_mark, cfg_node(c, src->value), 0, &m->pattern);
	if (!err && re)
		err = check_regex(c, cfg_node(c, src->key)->start_mark, m->pattern);
	cfg_path_pop(c, save);
	if (err)
		return err;
	if (unit) {
		save = cfg_path_key(c, "unit");
		err = cfg_get_string(c, cfg_node(c, unit->key)->start_mark, cfg_node(c, unit->value), 1, &m->unit);
		cfg_path_pop(c, save);
		if (err)
			return err;
	} else {
		m->unit = ab_xstrdup("");
	}
	save = cfg_path_key(c, "better");
	s = cfg_scalar(cfg_node(c, better->value));
	if (s && !strcmp(s, "lower"))
		m->better = AB_LOWER_IS_BETTER;
	else if (s && !strcmp(s, "higher"))
		m->better = AB_HIGHER_IS_BETTER;
	else
		err = cfg_fail(c, cfg_node(c, better->key)->start_mark, "expected lower or higher");
	cfg_path_pop(c, save);
	return err;
}

static int h_metrics(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t alloc = exp->nmetrics, save;
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of metric names to {regex or json, unit, better}");
	if (err)
		return err;
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = cfg_node(c, p->key);
		const char *name = cfg_scalar(pk);
		struct ab_metric *m;

		save = cfg_path_key(c, name);
		if (cfg_is_builtin_metric(name)) {
			err = cfg_fail(c, pk->start_mark, "'%s' is a builtin metric; choose another name", name);
		} else if (!ab_is_identifier(name, strlen(name))) {
			err = cfg_fail(c, pk->start_mark, "'%s' is not a valid metric name "
				   "(letters, digits and _, not starting with a digit)", name);
		} else {
			AB_GROW(exp->metrics, alloc, exp->nmetrics + 1);
			m = &exp->metrics[exp->nmetrics++];
			memset(m, 0, sizeof(*m));
			m->name = ab_xstrdup(name);
			m->mark = cfg_mark(pk->start_mark);
			err = read_metric(c, pk, cfg_node(c, p->value), m);
		}
		cfg_path_pop(c, save);
	}
	return err;
}

static const struct key_handler scaling_keys[] = {
	{ "parameter", NULL, 0 }, { "work", NULL, 0 }, { NULL, NULL, 0 },
};

static int h_scaling(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *pp, *pw;
	const struct ab_param *param;
	const char *name, *work;
	double x;
	size_t save, i;
	long idx;
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, scaling_keys,
			    "expected a mapping like {parameter: lanes, work: per_lane}");
	if (err)
		return err;
	if (!(pp = cfg_find_pair(c, v, "parameter")))
		return cfg_missing_key(c, v, "parameter");
	if (!(pw = cfg_find_pair(c, v, "work")))
		return cfg_missing_key(c, v, "work");

	save = cfg_path_key(c, "parameter");
	err = cfg_get_text(c, cfg_node(c, pp->key)->start_mark, cfg_node(c, pp->value),
		       "expected the name of a matrix parameter", 0, &name);
	if (err)
		goto out;
	idx = ab_experiment_param(exp, name);
	if (idx < 0) {
		err = cfg_unknown_param(c, cfg_node(c, pp->key)->start_mark, "unknown matrix parameter", name);
		goto out;
	}
	param = &exp->matrix[idx];
	for (i = 0; i < param->nvalues; i++) {
		if (ab_parse_double(&x, param->values[i]) || x <= 0) {
			err = cfg_fail(c, cfg_node(c, pp->key)->start_mark,
				   "matrix parameter '%s' has the value '%s', not a positive number",
				   name, param->values[i]);
			goto out;
		}
	}
	exp->scaling_param = ab_xstrdup(name);
	cfg_path_pop(c, save);

	save = cfg_path_key(c, "work");
	work = cfg_scalar(cfg_node(c, pw->value));
	if (work && !strcmp(work, "per_lane"))
		exp->scaling_work = AB_SCALING_PER_LANE;
	else if (work && !strcmp(work, "total"))
		exp->scaling_work = AB_SCALING_TOTAL;
	else
		err = cfg_fail(c, cfg_node(c, pw->key)->start_mark, "expected per_lane or total");
out:
	cfg_path_pop(c, save);
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
	struct entry *e;
	size_t n, i, save, dup, first;
	int err = 0;

	if (!v || v->type != YAML_SEQUENCE_NODE || cfg_nitems(v) == 0)
		return cfg_fail(c, k->start_mark, "expected a non-empty list of paths");
	n = cfg_nitems(v);
	*out = ab_xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);
		save = cfg_path_index(c, i);
		err = get_tree_path(c, item->start_mark, item, &(*out)[i]);
		cfg_path_pop(c, save);
	}
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
static int h_overlay(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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

/* An optional string key of mapping `v` into *out (left NULL when absent). */
static int optional_string(struct ctx *c, yaml_node_t *v, const char *key, char **out)
{
	yaml_node_pair_t *p = cfg_find_pair(c, v, key);
	size_t save;
	int err;

	if (!p)
		return 0;
	save = cfg_path_key(c, key);
	err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, out);
	cfg_path_pop(c, save);
	return err;
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
	if (!(p = cfg_find_pair(c, v, "name")))
		return cfg_missing_key(c, v, "name");
	save = cfg_path_key(c, "name");
	err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, &d->name);
	if (!err && !ab_is_identifier(d->name, strlen(d->name)))
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a name of letters, digits and '_'");
	cfg_path_pop(c, save);
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
	if ((err = optional_string(c, v, "candidate", &d->candidate)) ||
	    (err = optional_string(c, v, "parent", &d->parent)) ||
	    (err = optional_string(c, v, "env", &d->env)))
		return err;
	if (d->env && !ab_is_identifier(d->env, strlen(d->env))) {
		save = cfg_path_key(c, "env");
		err = cfg_fail(c, cfg_node(c, cfg_find_pair(c, v, "env")->key)->start_mark,
			   "expected an environment variable name");
		cfg_path_pop(c, save);
		return err;
	}
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

static int h_dependencies(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n, i, j, save;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of dependencies");
	n = cfg_nitems(v);
	exp->dependencies = ab_xcalloc(n ? n : 1, sizeof(*exp->dependencies));
	exp->ndependencies = n;
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = cfg_node(c, v->data.sequence.items.start[i]);
		save = cfg_path_index(c, i);
		err = read_dependency(c, item, &exp->dependencies[i]);
		for (j = 0; !err && j < i; j++) {
			if (!strcmp(exp->dependencies[j].name, exp->dependencies[i].name))
				err = cfg_fail(c, item->start_mark, "duplicate dependency name '%s' (first at "
					   "dependencies[%zu])", exp->dependencies[i].name, j);
			else if (!strcmp(exp->dependencies[j].path, exp->dependencies[i].path))
				err = cfg_fail(c, item->start_mark, "dependency path '%s' is already used by "
					   "dependencies[%zu]", exp->dependencies[i].path, j);
		}
		cfg_path_pop(c, save);
	}
	return err;
}

/* "0-3,6": CPU numbers and ranges; 1 when `s` is such a list. */
static int is_cpu_list(const char *s)
{
	int want_digit = 1;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			want_digit = 0;
		else if ((*s == ',' || *s == '-') && !want_digit)
			want_digit = 1;
		else
			return 0;
	}
	return !want_digit;
}

static const struct key_handler affinity_keys[] = {
	{ "cpus", NULL, 0 }, { "per_lane", NULL, 0 }, { NULL, NULL, 0 },
};

/* affinity: "0-3" or {cpus: "0-7", per_lane: lanes} */
static int h_affinity(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	const char *text;
	size_t save;
	int err;

	(void)field;
	if (v && v->type == YAML_SCALAR_NODE) {
		if ((err = cfg_get_string(c, k->start_mark, v, 0, &exp->affinity_cpus)))
			return err;
		if (!is_cpu_list(exp->affinity_cpus))
			return cfg_fail(c, k->start_mark, "expected a CPU list like \"0-3,6\"");
		return 0;
	}
	err = cfg_check_mapping(c, v, k->start_mark, affinity_keys,
			    "expected a CPU list like \"0-3\" or {cpus: \"0-7\", per_lane: lanes}");
	if (err)
		return err;
	if (!(p = cfg_find_pair(c, v, "cpus")))
		return cfg_missing_key(c, v, "cpus");
	save = cfg_path_key(c, "cpus");
	err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, &exp->affinity_cpus);
	if (!err && !is_cpu_list(exp->affinity_cpus))
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a CPU list like \"0-7\"");
	cfg_path_pop(c, save);
	if (err || !(p = cfg_find_pair(c, v, "per_lane")))
		return err;
	save = cfg_path_key(c, "per_lane");
	err = cfg_get_text(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), "expected a matrix parameter", 0, &text);
	if (!err) {
		long idx = ab_experiment_param(exp, text);
		size_t i;
		double x;
		if (idx < 0)
			err = cfg_unknown_param(c, cfg_node(c, p->key)->start_mark, "unknown matrix parameter", text);
		for (i = 0; !err && i < exp->matrix[idx].nvalues; i++)
			if (ab_parse_double(&x, exp->matrix[idx].values[i]) || x < 1 || x != (double)(long)x)
				err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "matrix parameter '%s' has the value "
					   "'%s', not a CPU count", text, exp->matrix[idx].values[i]);
		if (!err)
			exp->affinity_per_lane = ab_xstrdup(text);
	}
	cfg_path_pop(c, save);
	return err;
}

/* env_padding: true (up to 4096 bytes), false, or a byte count */
static int h_env_padding(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);
	int64_t n;

	if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
		*(int *)field = !strcmp(s, "true") ? 4096 : 0;
		return 0;
	}
	if (!s || ab_parse_int64(&n, s) || n < 0 || n > 65536)
		return cfg_fail(c, k->start_mark, "expected true, false or a byte count from 0 to 65536");
	*(int *)field = (int)n;
	return 0;
}

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

static const struct key_handler environment_keys[] = {
	{ "require", NULL, 0 }, { "commands", NULL, 0 }, { "commands_timeout", NULL, 0 }, { NULL, NULL, 0 },
};

static int h_environment(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int err;

	(void)field;
	err = cfg_check_mapping(c, v, k->start_mark, environment_keys,
			    "expected a mapping like {require: {governor: performance}, commands: [...]}");
	if (err)
		return err;
	if ((p = cfg_find_pair(c, v, "commands"))) {
		yaml_node_t *cv = cfg_node(c, p->value);
		yaml_node_item_t *it;
		size_t n = 0;

		save = cfg_path_key(c, "commands");
		if (cv->type != YAML_SEQUENCE_NODE) {
			err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a list of shell commands");
			cfg_path_pop(c, save);
			return err;
		}
		exp->environment_commands = ab_xcalloc(cfg_nitems(cv) + 1, sizeof(char *));
		for (it = cv->data.sequence.items.start; it < cv->data.sequence.items.top; it++, n++) {
			size_t s2 = cfg_path_index(c, n);
			err = cfg_get_string(c, cfg_node(c, *it)->start_mark, cfg_node(c, *it), 0, &exp->environment_commands[n]);
			cfg_path_pop(c, s2);
			if (err) {
				cfg_path_pop(c, save);
				return err;
			}
		}
		cfg_path_pop(c, save);
	}
	if ((p = cfg_find_pair(c, v, "commands_timeout"))) {
		save = cfg_path_key(c, "commands_timeout");
		err = cfg_h_duration(c, &exp->environment_commands_timeout_ms, cfg_node(c, p->key), cfg_node(c, p->value));
		cfg_path_pop(c, save);
		if (err)
			return err;
	}
	if ((p = cfg_find_pair(c, v, "require"))) {
		yaml_node_t *rv = cfg_node(c, p->value);
		yaml_node_pair_t *q;

		save = cfg_path_key(c, "require");
		if (rv->type != YAML_MAPPING_NODE) {
			err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a mapping like {governor: performance}");
			cfg_path_pop(c, save);
			return err;
		}
		exp->environment_require = json_object();
		for (q = rv->data.mapping.pairs.start; q < rv->data.mapping.pairs.top; q++) {
			const char *key = cfg_scalar(cfg_node(c, q->key)), *val = cfg_scalar(cfg_node(c, q->value));
			json_t *typed = NULL;
			size_t s2 = cfg_path_key(c, key ? key : "?");

			if (!key || ab_env_require_parse(&typed, key, val ? val : "") < 0) {
				char msg[512];
				snprintf(msg, sizeof(msg), "%s", key ? ab_error_last() : "expected a key");
				err = cfg_fail(c, cfg_node(c, q->key)->start_mark, "%s", msg);
				cfg_path_pop(c, s2);
				cfg_path_pop(c, save);
				return err;
			}
			if (json_object_get(exp->environment_require, key)) {
				err = cfg_fail(c, cfg_node(c, q->key)->start_mark, "duplicate key '%s'", key);
				json_decref(typed);
				cfg_path_pop(c, s2);
				cfg_path_pop(c, save);
				return err;
			}
			json_object_set_new(exp->environment_require, key, typed);
			cfg_path_pop(c, s2);
		}
		cfg_path_pop(c, save);
	}
	return 0;
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
	if (!(p = cfg_find_pair(c, v, "name")))
		return cfg_missing_key(c, v, "name");
	save = cfg_path_key(c, "name");
	err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, &side->name);
	if (!err && !side_name_ok(side->name))
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a name of letters, digits and "
			       "'_', '.', '+', '-'");
	cfg_path_pop(c, save);
	if (err)
		return err;
	if (!(p = cfg_find_pair(c, v, "command")))
		return cfg_missing_key(c, v, "command");
	save = cfg_path_key(c, "command");
	err = h_benchmark(c, &side->command, cfg_node(c, p->key), cfg_node(c, p->value));
	cfg_path_pop(c, save);
	return err;
}

static const struct key_handler sides_keys[] = {
	{ "a", NULL, 0 }, { "b", NULL, 0 }, { NULL, NULL, 0 },
};

/* sides: {a: {name, command}, b: {name, command}}: two commands compared
 * instead of two revisions (docs/experiment-file.md, "sides"). */
static int h_sides(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
	EXP_KEY(repo, h_repo),
	EXP_KEY(candidate, cfg_h_string),
	EXP_KEY(parent, cfg_h_string),
	EXP_KEY(exact_parent, cfg_h_bool),
	EXP_KEY(build, h_command),
	EXP_KEY(artifacts, h_artifacts),
	EXP_KEY(workdir, h_tree_path),
	EXP_KEY(env, h_env),
	EXP_KEY(checksum, h_checksum),
	EXP_KEY(matrix, h_matrix),
	EXP_KEY(benchmark, h_benchmark),
	{ "sides", h_sides, 0 },
	EXP_KEY(prepare, h_benchmark),
	EXP_KEY(cleanup, h_benchmark),
	EXP_KEY(inputs, h_inputs),
	EXP_KEY(metrics, h_metrics),
	EXP_KEY(metric, cfg_h_metric),
	{ "scaling", h_scaling, 0 },
	{ "pairs", cfg_h_pairs, 0 },
	{ "limits", cfg_h_limits, 0 },
	{ "sequential", cfg_h_sequential, 0 },
	{ "budget", cfg_h_duration, offsetof(struct ab_experiment, budget_ms) },
	EXP_KEY(warmup, h_warmup),
	{ "timeout", cfg_h_duration, offsetof(struct ab_experiment, timeout_ms) },
	{ "build_timeout", cfg_h_duration, offsetof(struct ab_experiment, build_timeout_ms) },
	{ "accept", cfg_h_accept, 0 },
	{ "environment", h_environment, 0 },
	{ "history", h_history, 0 },
	{ "overlay", h_overlay, 0 },
	{ "affinity", h_affinity, 0 },
	{ "aslr", cfg_h_bool, offsetof(struct ab_experiment, aslr) },
	{ "env_padding", h_env_padding, offsetof(struct ab_experiment, env_padding) },
	{ "contention", cfg_h_contention, 0 },
	{ "dependencies", h_dependencies, 0 },
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

