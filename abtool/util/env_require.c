/* env_require.c - environment.require: the keys an experiment may
 * require of the host, their parsing, and their check against a
 * fingerprint (see env.h; docs/experiment-file.md, "environment"). */
#include "env.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum req_kind { REQ_GOVERNOR, REQ_BOOL, REQ_LOAD, REQ_FRACTION, REQ_COUNT };

/* Keys in evaluation order: the fingerprint field each one reads. */
static const struct req_key {
	const char *key;
	enum req_kind kind;
	const char *field;
} req_keys[] = {
	{"governor", REQ_GOVERNOR, "governor"},
	{"boost", REQ_BOOL, "boost"},
	{"smt", REQ_BOOL, "smt_active"},
	{"ac_power", REQ_BOOL, "on_battery"},
	{"max_load", REQ_LOAD, "load_1m"},
	{"max_steal", REQ_FRACTION, "steal_fraction"},
	{"min_online_cpus", REQ_COUNT, "online_cpus"},
};
#define NREQ (sizeof(req_keys) / sizeof(req_keys[0]))

static const char *const governors[] = {
	"performance", "powersave", "ondemand", "conservative", "schedutil", "userspace",
};
#define NGOV (sizeof(governors) / sizeof(governors[0]))

static const struct req_key *find_req(const char *key)
{
	size_t i;

	for (i = 0; i < NREQ; i++)
		if (!strcmp(req_keys[i].key, key))
			return &req_keys[i];
	return NULL;
}

static int unknown_key(const char *prefix, const char *key)
{
	const char *names[NREQ], *near;
	size_t i;

	for (i = 0; i < NREQ; i++)
		names[i] = req_keys[i].key;
	if ((near = ab_suggest(key, names, NREQ)))
		return ab_error_set(AB_EINVALID, "%sunknown key '%s'; did you mean '%s'?", prefix, key, near);
	return ab_error_set(AB_EINVALID, "%sunknown key '%s'; expected governor, boost, smt, ac_power, max_load, "
			    "max_steal or min_online_cpus", prefix, key);
}

int ab_env_require_parse(json_t **out, const char *key, const char *value_text)
{
	const struct req_key *k = find_req(key);
	const char *near;
	double d;
	int64_t n;
	size_t i;

	*out = NULL;
	if (!k)
		return unknown_key("", key);
	if (!value_text)
		value_text = "";
	switch (k->kind) {
	case REQ_GOVERNOR:
		for (i = 0; i < NGOV; i++)
			if (!strcmp(value_text, governors[i]))
				return *out = json_string(value_text), 0;
		if ((near = ab_suggest(value_text, governors, NGOV)))
			return ab_error_set(AB_EINVALID, "unknown governor '%s'; did you mean '%s'?", value_text, near);
		return ab_error_set(AB_EINVALID, "unknown governor '%s'; expected performance, powersave, ondemand, "
				    "conservative, schedutil or userspace", value_text);
	case REQ_BOOL:
		if (!strcmp(value_text, "true") || !strcmp(value_text, "True") || !strcmp(value_text, "TRUE"))
			return *out = json_true(), 0;
		if (!strcmp(value_text, "false") || !strcmp(value_text, "False") || !strcmp(value_text, "FALSE"))
			return *out = json_false(), 0;
		return ab_error_set(AB_EINVALID, "expected true or false");
	case REQ_LOAD:
		if (ab_parse_double(&d, value_text) < 0 || d < 0)
			return ab_error_set(AB_EINVALID, "expected a load average like 1.0 (a number >= 0)");
		return *out = json_real(d), 0;
	case REQ_FRACTION:
		if ((ab_parse_percent(&d, value_text) < 0 && ab_parse_double(&d, value_text) < 0) || d < 0 || d > 1)
			return ab_error_set(AB_EINVALID, "expected a percentage like 1%% or a fraction from 0 to 1");
		return *out = json_real(d), 0;
	case REQ_COUNT:
		if (ab_parse_int64(&n, value_text) < 0 || n < 1 || n > 1 << 20)
			return ab_error_set(AB_EINVALID, "expected a whole number of CPUs >= 1");
		return *out = json_integer(n), 0;
	}
	return ab_error_set(AB_ERROR, "unhandled requirement '%s'", key);
}

/* Check the JSON type of one requirement value. */
static int check_value(const struct req_key *k, const json_t *v)
{
	double d = json_number_value(v);

	switch (k->kind) {
	case REQ_GOVERNOR:
		if (json_is_string(v) && *json_string_value(v))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a governor name", k->key);
	case REQ_BOOL:
		if (json_is_boolean(v))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected true or false", k->key);
	case REQ_LOAD:
		if (json_is_number(v) && d >= 0 && isfinite(d))
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a number >= 0", k->key);
	case REQ_FRACTION:
		if (json_is_number(v) && d >= 0 && d <= 1)
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a fraction from 0 to 1", k->key);
	case REQ_COUNT:
		if (json_is_integer(v) && json_integer_value(v) >= 1)
			return 0;
		return ab_error_set(AB_EINVALID, "environment.require.%s: expected a whole number >= 1", k->key);
	}
	return ab_error_set(AB_ERROR, "unhandled requirement '%s'", k->key);
}

/* The reason `want` is not met by fact `have`, or NULL when it is. */
static char *evaluate(const struct req_key *k, const json_t *have, const json_t *want)
{
	const char *name = json_string_value(want);
	double limit = json_number_value(want), x = json_number_value(have);

	if (!strcmp(k->key, "governor")) {
		if (json_is_string(have))
			return !strcmp(json_string_value(have), name) ? NULL
			       : ab_xasprintf("governor is '%s', required '%s'", json_string_value(have), name);
		if (json_is_array(have)) {
			char *list = ab_env_join_strings(have, ", "), *r;
			r = ab_xasprintf("governors differ across CPUs (%s), required '%s' on all", list, name);
			free(list);
			return r;
		}
		return ab_xstrdup("governor unknown on this host");
	}
	if (!strcmp(k->key, "boost") || !strcmp(k->key, "smt")) {
		const char *what = !strcmp(k->key, "boost") ? "boost" : "SMT";
		if (!json_is_boolean(have))
			return ab_xasprintf("%s unknown on this host", what);
		return json_equal(have, want) ? NULL
		       : ab_xasprintf("%s is %s, required %s", what, json_is_true(have) ? "on" : "off",
				      json_is_true(want) ? "on" : "off");
	}
	if (!strcmp(k->key, "ac_power")) {
		if (!json_is_boolean(have))
			return ab_xstrdup("power source unknown on this host");
		if (json_is_true(want) == !json_is_true(have))
			return NULL;
		return ab_xstrdup(json_is_true(want) ? "running on battery, AC power required"
						     : "not running on battery, battery required");
	}
	if (!strcmp(k->key, "max_load")) {
		if (!json_is_number(have))
			return ab_xstrdup("load average unknown on this host");
		return x <= limit ? NULL
		       : ab_xasprintf("load average %.2f (1 min) is above the maximum %.2f", x, limit);
	}
	if (!strcmp(k->key, "max_steal")) {
		if (!json_is_number(have))
			return ab_xstrdup("steal time unknown on this host");
		return x <= limit ? NULL
		       : ab_xasprintf("steal time %.2f%% is above the maximum %.2f%%", 100 * x, 100 * limit);
	}
	if (!json_is_integer(have))
		return ab_xstrdup("online CPUs unknown on this host");
	return json_integer_value(have) >= json_integer_value(want) ? NULL
	       : ab_xasprintf("%lld CPU%s online, at least %lld required", (long long)json_integer_value(have),
			      json_integer_value(have) == 1 ? "" : "s", (long long)json_integer_value(want));
}

int ab_env_check_requirements(const json_t *fp, const json_t *require, char ***unmet)
{
	const char *key;
	json_t *v;
	char **list = NULL, *reason;
	size_t i;
	int err;

	*unmet = NULL;
	if (!json_is_object(require))
		return ab_error_set(AB_EINVALID, "environment.require: expected a map of requirements");
	json_object_foreach((json_t *)require, key, v) {
		const struct req_key *k = find_req(key);
		if (!k)
			return unknown_key("environment.require: ", key);
		if ((err = check_value(k, v)) < 0)
			return err;
	}
	for (i = 0; i < NREQ; i++) {
		if (!(v = json_object_get(require, req_keys[i].key)))
			continue;
		if ((reason = evaluate(&req_keys[i], json_object_get(fp, req_keys[i].field), v)))
			ab_strv_push(&list, reason);
	}
	*unmet = list;
	return (int)ab_strv_len(list);
}
