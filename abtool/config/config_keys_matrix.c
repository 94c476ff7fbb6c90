/* config_keys_matrix.c - the experiment file's keys of the rows:
 * `matrix` and the `scaling` over one of its parameters
 * (config_keys.h). */
#include "config_keys.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A cfg_item_fn: a value of the matrix parameter `param`, appended. */
static int read_value_item(struct ctx *c, yaml_node_t *item, size_t i, void *param)
{
	struct ab_param *p = param;
	const char *text = NULL;
	int err = cfg_get_text(c, item->start_mark, item, "expected a value (a string or a number)", 1,
			       &text);

	(void)i;
	if (!err)
		p->values[p->nvalues++] = ab_xstrdup(text);
	return err;
}

int cfg_h_matrix(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
		const char *name = cfg_scalar(pk);

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
			err = cfg_read_items(c, pv, read_value_item, p);
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

static const struct key_handler scaling_keys[] = {
	{ "parameter", NULL, 0 }, { "work", NULL, 0 }, { NULL, NULL, 0 },
};

int cfg_h_scaling(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
