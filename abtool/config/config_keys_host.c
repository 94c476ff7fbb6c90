/* config_keys_host.c - the experiment file's keys of the measurement's
 * conditions on the host: `warmup`, `affinity`, `env_padding` and
 * `environment` (its require and commands)
 * (config_keys.h). */
#include "config_keys.h"
#include "env.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int cfg_h_warmup(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return cfg_get_int(c, k, v, 0, 1000, field);
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
int cfg_h_affinity(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
int cfg_h_env_padding(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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

static const struct key_handler environment_keys[] = {
	{ "require", NULL, 0 }, { "commands", NULL, 0 }, { "commands_timeout", NULL, 0 }, { NULL, NULL, 0 },
};

int cfg_h_environment(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
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
