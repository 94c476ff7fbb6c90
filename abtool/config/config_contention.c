/* config_contention.c - `contention:` (config_contention.h). */
#include "config_contention.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct key_handler quiet_keys[] = {
	{ "below", NULL, 0 }, { "wait", NULL, 0 }, { NULL, NULL, 0 },
};

/* `quiet: {below: 0.5, wait: 30s}`. */
static int read_quiet(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct ab_contention *out)
{
	yaml_node_pair_t *p;
	const char *s;
	size_t save;
	char *end;
	int err;

	if (v->type != YAML_MAPPING_NODE)
		return cfg_fail(c, k->start_mark, "expected a mapping like {below: 0.5, wait: 30s}");
	if ((err = cfg_check_mapping(c, v, k->start_mark, quiet_keys, "")))
		return err;
	if (!(p = cfg_find_pair(c, v, "below")))
		return cfg_missing_key(c, v, "below");
	save = cfg_path_key(c, "below");
	s = cfg_scalar(cfg_node(c, p->value));
	out->quiet_cpus = s ? strtod(s, &end) : 0;
	if (!s || end == s || *end || !(out->quiet_cpus > 0) || out->quiet_cpus > 4096)
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a number of CPUs other processes "
			       "may use, like 0.5");
	cfg_path_pop(c, save);
	if (err)
		return err;
	out->quiet_wait_ms = 30000;
	if ((p = cfg_find_pair(c, v, "wait"))) {
		save = cfg_path_key(c, "wait");
		err = cfg_h_duration(c, &out->quiet_wait_ms, cfg_node(c, p->key), cfg_node(c, p->value));
		cfg_path_pop(c, save);
	}
	return err;
}

static const struct key_handler contention_keys[] = {
	{ "max_cpu_wait", NULL, 0 }, { "reruns", NULL, 0 }, { "when_exhausted", NULL, 0 },
	{ "quiet", NULL, 0 }, { NULL, NULL, 0 },
};

int cfg_h_contention(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_contention *out = &c->exp->contention;
	yaml_node_pair_t *p;
	const char *s = cfg_scalar(v);
	size_t save;
	int err = 0;

	(void)field;
	if (s && !strcmp(s, "off")) {  /* the default: flag only */
		memset(out, 0, sizeof(*out));
		out->max_cpu_wait = AB_CONTENTION_MAX_CPU_WAIT;
		return 0;
	}
	if (v->type != YAML_MAPPING_NODE)
		return cfg_fail(c, k->start_mark, "expected a mapping like {reruns: auto} or {max_cpu_wait: "
				"10%%, reruns: 16}, or off");
	if ((err = cfg_check_mapping(c, v, k->start_mark, contention_keys, "")))
		return err;
	if ((p = cfg_find_pair(c, v, "max_cpu_wait"))) {
		save = cfg_path_key(c, "max_cpu_wait");
		err = cfg_h_percent(c, &out->max_cpu_wait, cfg_node(c, p->key), cfg_node(c, p->value));
		if (!err && !(out->max_cpu_wait > 0 && out->max_cpu_wait < 1))
			err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected a share of the sample's "
				       "time above 0%% and below 100%%, like 10%%");
		cfg_path_pop(c, save);
	}
	if (!err && (p = cfg_find_pair(c, v, "reruns"))) {
		save = cfg_path_key(c, "reruns");
		s = cfg_scalar(cfg_node(c, p->value));
		if (s && !strcmp(s, "auto"))
			out->reruns = -1;
		else
			err = cfg_get_int(c, cfg_node(c, p->key), cfg_node(c, p->value), 0, 100000, &out->reruns);
		cfg_path_pop(c, save);
	}
	if (!err && (p = cfg_find_pair(c, v, "when_exhausted"))) {
		save = cfg_path_key(c, "when_exhausted");
		s = cfg_scalar(cfg_node(c, p->value));
		if (s && !strcmp(s, "keep"))
			out->exhausted = AB_CONTENTION_KEEP;
		else if (s && !strcmp(s, "inconclusive"))
			out->exhausted = AB_CONTENTION_INCONCLUSIVE;
		else
			err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "expected keep or inconclusive");
		cfg_path_pop(c, save);
	}
	if (!err && (p = cfg_find_pair(c, v, "quiet"))) {
		save = cfg_path_key(c, "quiet");
		err = read_quiet(c, cfg_node(c, p->key), cfg_node(c, p->value), out);
		cfg_path_pop(c, save);
	}
	return err;
}
