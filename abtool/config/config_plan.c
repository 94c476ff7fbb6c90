/* config_plan.c - `pairs:` and `sequential:` (config_plan.h). */
#include "config_plan.h"
#include "error.h"
#include "sequential.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* `looks: [8, 16, ...]` into looks[0 .. *n). */
static int read_looks(struct ctx *c, yaml_node_t *k, yaml_node_t *v, size_t *looks, size_t *n)
{
	yaml_node_item_t *it;
	size_t save;
	int x, err = 0;

	if (v->type != YAML_SEQUENCE_NODE || cfg_nitems(v) == 0)
		return cfg_fail(c, k->start_mark, "expected a list of pair counts like [8, 16, 32, 64]");
	if (cfg_nitems(v) > AB_SEQ_MAX_LOOKS)
		return cfg_fail(c, k->start_mark, "%zu looks: at most %d are allowed", cfg_nitems(v),
				AB_SEQ_MAX_LOOKS);
	*n = 0;
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top && !err; it++) {
		yaml_node_t *item = cfg_node(c, *it);
		save = cfg_path_index(c, *n);
		err = cfg_get_int(c, item, item, 1, AB_SEQ_MAX_PAIRS, &x);
		cfg_path_pop(c, save);
		looks[(*n)++] = (size_t)x;
	}
	return err;
}

static const struct key_handler pairs_keys[] = {
	{ "min", NULL, 0 }, { "max", NULL, 0 }, { "looks", NULL, 0 }, { NULL, NULL, 0 },
};

static const struct key_handler limits_keys[] = {
	{ "rows", NULL, 0 }, { "samples", NULL, 0 }, { NULL, NULL, 0 },
};

int cfg_h_limits(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int n, err;

	(void)field;
	if ((err = cfg_check_mapping(c, v, k->start_mark, limits_keys,
				     "expected a mapping like {rows: 20000, samples: 500000}")))
		return err;
	if ((p = cfg_find_pair(c, v, "rows"))) {
		save = cfg_path_key(c, "rows");
		err = cfg_get_int(c, cfg_node(c, p->key), cfg_node(c, p->value), 1, AB_MAX_ROWS, &n);
		exp->limit_rows = (size_t)n;
		cfg_path_pop(c, save);
	}
	if (!err && (p = cfg_find_pair(c, v, "samples"))) {
		save = cfg_path_key(c, "samples");
		err = cfg_get_int(c, cfg_node(c, p->key), cfg_node(c, p->value), 1, AB_LIMIT_MAX_SAMPLES, &n);
		exp->limit_samples = (size_t)n;
		cfg_path_pop(c, save);
	}
	return err;
}

int cfg_h_pairs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *pmin, *pmax, *plooks;
	size_t looks[AB_SEQ_MAX_LOOKS], n = 0, save;
	int min = 0, max = 0, err;

	(void)field;
	exp->pairs_mark = cfg_mark(k->start_mark);
	if (v->type != YAML_MAPPING_NODE)
		return cfg_get_int(c, k, v, 1, AB_EXPERIMENT_MAX_PAIRS, &exp->pairs);
	if ((err = cfg_check_mapping(c, v, k->start_mark, pairs_keys, "")))
		return err;
	pmin = cfg_find_pair(c, v, "min");
	pmax = cfg_find_pair(c, v, "max");
	plooks = cfg_find_pair(c, v, "looks");
	if (plooks && (pmin || pmax))
		return cfg_fail(c, k->start_mark, "give either {min, max} or {looks}, not both");
	if (plooks) {
		save = cfg_path_key(c, "looks");
		err = read_looks(c, cfg_node(c, plooks->key), cfg_node(c, plooks->value), looks, &n);
		if (!err && (err = ab_seq_plan_from_looks(&exp->seq, looks, n)) < 0)
			err = cfg_fail(c, cfg_node(c, plooks->key)->start_mark, "%s", ab_error_last());
		cfg_path_pop(c, save);
		if (err)
			return err;
	} else {
		if (!pmin || !pmax)
			return cfg_fail(c, k->start_mark, "a sequential plan needs both min and max "
					"(e.g. pairs: {min: 8, max: 64}), or looks: [...]");
		save = cfg_path_key(c, "min");
		err = cfg_get_int(c, cfg_node(c, pmin->key), cfg_node(c, pmin->value), 1, AB_SEQ_MAX_PAIRS, &min);
		cfg_path_pop(c, save);
		if (err)
			return err;
		save = cfg_path_key(c, "max");
		err = cfg_get_int(c, cfg_node(c, pmax->key), cfg_node(c, pmax->value), 1, AB_SEQ_MAX_PAIRS, &max);
		cfg_path_pop(c, save);
		if (err)
			return err;
		if (ab_seq_plan_from_range(&exp->seq, (size_t)min, (size_t)max) < 0)
			return cfg_fail(c, k->start_mark, "%s", ab_error_last());
	}
	exp->sequential = 1;
	exp->seq.spending = exp->spending;
	exp->pairs = (int)exp->seq.looks[exp->seq.nlooks - 1];
	return 0;
}

static const struct key_handler sequential_keys[] = {
	{ "spending", NULL, 0 }, { NULL, NULL, 0 },
};

int cfg_h_sequential(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	const char *s;
	size_t save;
	int err;

	(void)field;
	if (v->type != YAML_MAPPING_NODE)
		return cfg_fail(c, k->start_mark, "expected a mapping like {spending: pocock}");
	if ((err = cfg_check_mapping(c, v, k->start_mark, sequential_keys, "")))
		return err;
	if (!(p = cfg_find_pair(c, v, "spending")))
		return 0;
	save = cfg_path_key(c, "spending");
	s = cfg_scalar(cfg_node(c, p->value));
	if (!s || ab_seq_spending_parse(s, &exp->spending) < 0)
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "%s",
			       s ? ab_error_last() : "expected one of pocock, obrien-fleming, linear");
	cfg_path_pop(c, save);
	exp->seq.spending = exp->spending;
	return err;
}
