/* config_keys_metrics.c - the experiment file's keys of what is read
 * from the benchmark's output: `checksum` and `metrics`
 * (config_keys.h). */
#include "config_keys.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

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

int cfg_h_checksum(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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

int cfg_h_metrics(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
