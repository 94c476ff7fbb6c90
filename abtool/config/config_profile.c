/* config_profile.c - `profile: {rows: {lanes: 8}, samples: 3, event:
 * cpu-clock}`: which rows are profiled after the measured pairs, how many
 * samples of each side, under which perf event (docs/profiles.md). */
#include "config_profile.h"
#include "config_rules.h"
#include "experiment.h"
#include "util.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int h_samples(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return cfg_get_int(c, k, v, 1, 100, field);
}

/* A perf event name: letters, digits and "-_:./,=" (perf's own syntax;
 * never a shell word, it is passed as one argument). */
static int h_event(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	char **out = field, *s = NULL;
	const char *p;
	int err = cfg_get_string(c, k->start_mark, v, 0, &s);

	if (err)
		return err;
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_:./,=", *p))
			break;
	if (*p || s[0] == '-') {
		free(s);
		return cfg_fail(c, k->start_mark, "expected a perf event name like cpu-clock or cycles");
	}
	free(*out);
	*out = s;
	return 0;
}

static const struct key_handler profile_keys[] = {
	{ "rows", cfg_h_where, offsetof(struct ab_experiment, profile_rows) },
	{ "samples", h_samples, offsetof(struct ab_experiment, profile_samples) },
	{ "event", h_event, offsetof(struct ab_experiment, profile_event) },
	{ NULL, NULL, 0 },
};

int cfg_h_profile(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	int err;

	(void)field;
	exp->profile_samples = 3;
	if (v->type == YAML_SCALAR_NODE && cfg_scalar(v) &&
	    (!strcmp(cfg_scalar(v), "true") || !strcmp(cfg_scalar(v), "false"))) {
		exp->profile = !strcmp(cfg_scalar(v), "true");
	} else {
		err = cfg_check_mapping(c, v, k->start_mark, profile_keys,
					"expected true, false, or a mapping like {rows: {lanes: 8}, samples: 3, "
					"event: cpu-clock}");
		if (err || (err = cfg_read_keys(c, v, profile_keys, exp)))
			return err;
		exp->profile = 1;
	}
	if (!exp->profile_event)
		exp->profile_event = ab_xstrdup("cpu-clock");
	return 0;
}
