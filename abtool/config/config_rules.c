/* config_rules.c - the `accept:` section (config_rules.h; docs/rules.md):
 * rules, their `where:` selectors, and their predicates as the table of
 * predicates.h describes them. */
#include "config_rules.h"
#include "config_read.h"
#include "predicates.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int read_cond(struct ctx *c, yaml_mark_t mark, yaml_node_t *v,
		     const struct ab_param *param, struct ab_cond *out)
{
	static const struct { const char *text; enum ab_cmp op; } ops[] = {
		{ ">=", AB_CMP_GE }, { "<=", AB_CMP_LE }, { "==", AB_CMP_EQ },
		{ ">", AB_CMP_GT }, { "<", AB_CMP_LT },
	};
	const char *s = NULL, *operand, *optext = NULL;
	enum ab_cmp op = AB_CMP_EQ;
	char *list;
	double x;
	size_t i;
	int err;

	err = cfg_get_text(c, mark, v, "expected a value or a comparison like \">=4\"", 1, &s);
	if (err)
		return err;
	operand = s;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!strncmp(s, ops[i].text, strlen(ops[i].text))) {
			op = ops[i].op;
			optext = ops[i].text;
			operand = s + strlen(optext);
			while (*operand == ' ')
				operand++;
			break;
		}
	}
	if (op != AB_CMP_EQ && ab_parse_double(&x, operand))
		return cfg_fail(c, mark, "expected a number after '%s', not '%s'", optext, operand);
	if (op == AB_CMP_EQ) {
		for (i = 0; i < param->nvalues; i++)
			if (ab_values_equal(param->values[i], operand))
				break;
		if (i == param->nvalues) {
			list = cfg_join((const char *const *)param->values, param->nvalues);
			err = cfg_fail(c, mark, "no row has %s = %s; its values are %s",
				   param->name, operand, list);
			free(list);
			return err;
		}
	}
	out->op = op;
	out->value = ab_xstrdup(operand);
	return 0;
}

/* The conditions of a `where:` term being read, on one parameter. */
struct cond_list {
	const struct ab_param *param;
	struct ab_where_term *term;
};

/* A cfg_item_fn: a condition of the term `cond` (a struct cond_list),
 * appended to its conditions. */
static int read_cond_item(struct ctx *c, yaml_node_t *item, size_t i, void *cond)
{
	struct cond_list *l = cond;
	int err = read_cond(c, item->start_mark, item, l->param, &l->term->conds[l->term->nconds]);

	(void)i;
	if (!err)
		l->term->nconds++;
	return err;
}

int cfg_h_where(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct ab_selector *sel = field;
	struct cond_list cond;
	yaml_node_pair_t *p;
	size_t save, n, row, nrows;
	int err;

	if (c->rule)
		c->rule->where_mark = cfg_mark(k->start_mark);
	err = cfg_check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of parameter: value or [values]");
	if (err)
		return err;
	sel->terms = ab_xcalloc(cfg_npairs(v), sizeof(*sel->terms));
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = cfg_node(c, p->key), *pv = cfg_node(c, p->value);
		const char *name = cfg_scalar(pk);
		struct ab_where_term *t;
		long idx;

		save = cfg_path_key(c, name);
		idx = ab_experiment_param(exp, name);
		if (idx < 0) {
			err = cfg_unknown_param(c, pk->start_mark, "unknown matrix parameter", name);
			goto next;
		}
		t = &sel->terms[sel->nterms++];
		t->param = (size_t)idx;
		t->mark = cfg_mark(pk->start_mark);
		if (pv->type != YAML_SEQUENCE_NODE) {
			t->conds = ab_xcalloc(1, sizeof(*t->conds));
			err = read_cond(c, pk->start_mark, pv, &exp->matrix[idx], &t->conds[0]);
			if (!err)
				t->nconds = 1;
			goto next;
		}
		n = cfg_nitems(pv);
		if (n == 0) {
			err = cfg_fail(c, pk->start_mark, "expected a value or a non-empty list of values");
			goto next;
		}
		t->conds = ab_xcalloc(n, sizeof(*t->conds));
		cond.param = &exp->matrix[idx];
		cond.term = t;
		err = cfg_read_items(c, pv, read_cond_item, &cond);
next:
		cfg_path_pop(c, save);
	}
	if (err)
		return err;
	nrows = ab_experiment_nrows(exp);
	for (row = 0; row < nrows; row++)
		if (ab_selector_match(sel, exp, row))
			return 0;
	return cfg_fail(c, k->start_mark, "selects no row of the matrix; compare it with the values "
		    "under 'matrix:'");
}

/* The predicates' keys, read as ab_predicates[] describes them. */

static void *value_of(struct ctx *c, const struct ab_predicate *p)
{
	return (char *)c->rule + p->offset;
}

static int get_positive(struct ctx *c, yaml_mark_t mark, yaml_node_t *v, double *out)
{
	const char *s = cfg_scalar(v);

	if (!s || ab_parse_double(out, s) || !(*out > 0))
		return cfg_fail(c, mark, "expected a positive ratio like 1.01");
	return 0;
}

/* The forms of key `name` (bound and estimate, or parent and candidate)
 * as the known keys of its mapping. */
static void forms(struct key_handler *out, size_t max, const char *name)
{
	const struct ab_predicate *p;
	size_t n = 0;

	for (p = ab_predicates; p->name && n + 1 < max; p++)
		if (!strcmp(p->name, name) && p->form)
			out[n++] = (struct key_handler){ p->form, NULL, 0 };
	out[n] = (struct key_handler){ NULL, NULL, 0 };
}

/* A count of pairs like 7 (the "count" form), or a share like 90% ("share") */
static int read_pair_wins(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);
	int64_t n;
	double f;

	if (s && !ab_parse_int64(&n, s) && n >= 1) {
		*(int64_t *)value_of(c, ab_predicate_find(p->name, "count")) = n;
		return 0;
	}
	if (s && !ab_parse_percent(&f, s) && f > 0 && f <= 1) {
		*(double *)value_of(c, ab_predicate_find(p->name, "share")) = f;
		return 0;
	}
	return cfg_fail(c, k->start_mark, "expected a count of pairs like 7 or a percentage like 90%%");
}

/* max_ratio / min_ratio: a number or {bound: r} decides on the interval,
 * {estimate: r} on the point estimate (observational). */
static int read_ratio(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	struct key_handler known[4];
	yaml_node_pair_t *pair;
	const char *form;
	size_t save;
	int err;

	if (!v || v->type != YAML_MAPPING_NODE)
		return get_positive(c, k->start_mark, v, value_of(c, ab_predicate_find(p->name, "bound")));
	forms(known, 4, p->name);
	err = cfg_check_mapping(c, v, k->start_mark, known,
				"expected a ratio like 1.01, {bound: 1.01} or {estimate: 1.01}");
	if (err)
		return err;
	if (cfg_npairs(v) != 1)
		return cfg_fail(c, k->start_mark, "expected exactly one of bound or estimate");
	pair = v->data.mapping.pairs.start;
	form = cfg_scalar(cfg_node(c, pair->key));
	save = cfg_path_key(c, form);
	err = get_positive(c, cfg_node(c, pair->key)->start_mark, cfg_node(c, pair->value),
			   value_of(c, ab_predicate_find(p->name, form)));
	cfg_path_pop(c, save);
	return err;
}

/* min_scaling: s (the candidate) or {candidate: s, parent: s} */
static int read_scaling(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	struct key_handler known[4];
	yaml_node_pair_t *pair;
	size_t save;
	int err = 0;

	if (!v || v->type != YAML_MAPPING_NODE)
		return get_positive(c, k->start_mark, v,
				    value_of(c, ab_predicate_find(p->name, "candidate")));
	forms(known, 4, p->name);
	err = cfg_check_mapping(c, v, k->start_mark, known,
				"expected a scaling like 1.0 or {candidate: 1.0, parent: 0.9}");
	for (pair = v->data.mapping.pairs.start; !err && pair < v->data.mapping.pairs.top; pair++) {
		const char *side = cfg_scalar(cfg_node(c, pair->key));

		save = cfg_path_key(c, side);
		err = get_positive(c, cfg_node(c, pair->key)->start_mark, cfg_node(c, pair->value),
				   value_of(c, ab_predicate_find(p->name, side)));
		cfg_path_pop(c, save);
	}
	return err;
}

static int read_checksum_policy(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k,
				yaml_node_t *v)
{
	const char *s = cfg_scalar(v);

	if (s && !strcmp(s, "must_match"))
		*(int *)value_of(c, p) = 0;
	else if (s && !strcmp(s, "may_change"))
		*(int *)value_of(c, p) = 1;
	else
		return cfg_fail(c, k->start_mark, "expected must_match or may_change");
	return 0;
}

static int read_samples(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);
	int64_t n;

	if (!s || ab_parse_int64(&n, s) || n < 0 || n > 1000000)
		return cfg_fail(c, k->start_mark, "expected a count of samples from 0 upwards");
	*(int64_t *)value_of(c, p) = n;
	return 0;
}

/* `differs: true`: the only value (false would be no predicate at all). */
static int read_true(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);

	if (!s || strcmp(s, "true"))
		return cfg_fail(c, k->start_mark, "expected true (%s takes no margin: it passes when the "
				"interval excludes 1 on either side); leave the key out for no such predicate",
				p->name);
	*(int *)value_of(c, p) = 1;
	return 0;
}

/* The value of predicate key `p` (its first entry) at key `k`. */
static int read_predicate(struct ctx *c, const struct ab_predicate *p, yaml_node_t *k, yaml_node_t *v)
{
	if (p->needs_scaling && !c->exp->scaling_param)
		return cfg_fail(c, k->start_mark, "needs 'scaling:' in the experiment (which parameter, "
				"and per_lane or total work)");
	switch (p->arg) {
	case AB_ARG_PERCENT:
		return cfg_h_percent(c, value_of(c, p), k, v);
	case AB_ARG_RATIO:
		return read_ratio(c, p, k, v);
	case AB_ARG_PAIR_WINS:
		return read_pair_wins(c, p, k, v);
	case AB_ARG_SCALING:
		return read_scaling(c, p, k, v);
	case AB_ARG_CHECKSUM:
		return read_checksum_policy(c, p, k, v);
	case AB_ARG_PAIRS:
		return cfg_get_int(c, k, v, 0, 100000, value_of(c, p));
	case AB_ARG_SAMPLES:
		return read_samples(c, p, k, v);
	case AB_ARG_TRUE:
		return read_true(c, p, k, v);
	}
	return 0;
}

/* 1 when `p` is the first entry of its key */
static int first_of_key(const struct ab_predicate *p)
{
	return ab_predicate_find(p->name, NULL) == p;
}

#define RULE_KEY(key, fn) { #key, fn, offsetof(struct ab_rule, key) }
static const struct key_handler rule_own_keys[] = {
	RULE_KEY(name, cfg_h_string),
	RULE_KEY(where, cfg_h_where),
	RULE_KEY(metric, cfg_h_metric),
	{ NULL, NULL, 0 },
};

/* The keys a rule may have, in the order they are read: its own, then
 * the predicates' (ended by a NULL key; `out` holds 32). */
static void rule_keys(struct key_handler *out)
{
	const struct ab_predicate *p;
	size_t n;

	for (n = 0; rule_own_keys[n].key; n++)
		out[n] = rule_own_keys[n];
	for (p = ab_predicates; p->name && n < 31; p++)
		if (first_of_key(p))
			out[n++] = (struct key_handler){ p->name, NULL, 0 };
	out[n] = (struct key_handler){ NULL, NULL, 0 };
}

/* "rule has no predicate; add one of a, b, ... or z": the deciding
 * predicates first, then the integrity settings. */
static int no_predicate(struct ctx *c, yaml_mark_t mark)
{
	const char *names[32];
	const struct ab_predicate *p;
	size_t n = 0, integrity;
	char *list;
	int err;

	for (integrity = 0; integrity < 2; integrity++)
		for (p = ab_predicates; p->name && n < 32; p++)
			if (first_of_key(p) && (p->kind == AB_PREDICATE_INTEGRITY) == (int)integrity)
				names[n++] = p->name;
	list = cfg_join(names, n - 1);
	err = cfg_fail(c, mark, "rule has no predicate; add one of %s or %s", list, names[n - 1]);
	free(list);
	return err;
}

static int read_rule(struct ctx *c, yaml_node_t *v, const struct key_handler *keys,
		     struct ab_rule *r, yaml_mark_t *name_mark)
{
	const struct ab_predicate *p;
	yaml_node_pair_t *name;
	size_t save;
	int err;

	r->mark = cfg_mark(v->start_mark);
	r->where_mark = r->mark;
	err = cfg_check_mapping(c, v, v->start_mark, keys,
				"expected a mapping with a name and a predicate like faster_by: 5%");
	if (err)
		return err;
	if (!(name = cfg_find_pair(c, v, "name")))
		return cfg_missing_key(c, v, "name");
	*name_mark = cfg_node(c, name->key)->start_mark;
	c->rule = r;
	err = cfg_read_keys(c, v, rule_own_keys, r);
	for (p = ab_predicates; p->name && !err; p++) {
		yaml_node_pair_t *pair;

		if (!first_of_key(p) || !(pair = cfg_find_pair(c, v, p->name)))
			continue;
		save = cfg_path_key(c, p->name);
		err = read_predicate(c, p, cfg_node(c, pair->key), cfg_node(c, pair->value));
		cfg_path_pop(c, save);
	}
	c->rule = NULL;
	if (err)
		return err;
	for (p = ab_predicates; p->name; p++)
		if (ab_predicate_is_set(p, r))
			return 0;
	return no_predicate(c, v->start_mark);
}

int cfg_h_accept(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct key_handler keys[32];
	yaml_mark_t *marks;
	struct entry *e;
	size_t n, i, save, dup, first;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, k->start_mark, "expected a list of rules");
	n = cfg_nitems(v);
	if (n == 0)
		return 0;
	exp->rules = ab_xcalloc(n, sizeof(*exp->rules));
	for (i = 0; i < n; i++)
		ab_predicates_clear(&exp->rules[i]);
	exp->nrules = n;
	rule_keys(keys);
	marks = ab_xcalloc(n, sizeof(*marks));
	for (i = 0; i < n && !err; i++) {
		save = cfg_path_index(c, i);
		err = read_rule(c, cfg_node(c, v->data.sequence.items.start[i]), keys, &exp->rules[i],
				&marks[i]);
		cfg_path_pop(c, save);
	}
	if (err)
		goto out;
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].s = exp->rules[i].name;
		e[i].index = i;
	}
	if (cfg_find_duplicate(e, n, &dup, &first)) {
		save = cfg_path_index(c, dup);
		cfg_path_key(c, "name");
		err = cfg_fail(c, marks[dup], "duplicate rule name '%s' (first at accept[%zu])",
			       exp->rules[dup].name, first);
		cfg_path_pop(c, save);
	}
	free(e);
out:
	free(marks);
	return err;
}
