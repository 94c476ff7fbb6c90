/* cmd_config.c - `abtool config`: the store's own settings, shared by
 * everyone who uses the store (a team store), as opposed to one
 * experiment file's keys. `abtool config` lists them, `abtool config KEY`
 * prints one, `abtool config KEY VALUE` sets it, `--unset KEY` removes
 * it. Only known keys with valid values are stored. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct setting {
	const char *key;
	const char *const *values;  /* the accepted values */
	const char *fallback;       /* the value when unset */
	const char *meaning;
};

static const char *const booleans[] = {"true", "false", NULL};

static const struct setting settings[] = {
	{"block_rejected", booleans, "false",
	 "refuse to run a design whose standing is rejected unless --new-evidence is given, "
	 "for every experiment (as history: {block_rejected: true} does for one)"},
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

static const struct setting *find(const char *key)
{
	size_t i;

	for (i = 0; i < NSETTINGS; i++)
		if (!strcmp(settings[i].key, key))
			return &settings[i];
	return NULL;
}

static char *known_keys(void)
{
	char *out = ab_xstrdup(""), *next;
	size_t i;

	for (i = 0; i < NSETTINGS; i++) {
		next = ab_xasprintf("%s%s%s", out, i ? ", " : "", settings[i].key);
		free(out);
		out = next;
	}
	return out;
}

int cmd_store_flag_true(struct ab_store *store, const char *key)
{
	char *value = NULL;
	int on = ab_store_setting_get(store, key, &value) == 0 && value && !strcmp(value, "true");

	free(value);
	return on;
}

const struct cmd_option cmd_config_options[] = {
	{"unset", 0, "KEY", "remove the store's setting KEY (back to its default)", NULL, CMD_OWN, 'u', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_config(int argc, char **argv)
{
	const char *unset = NULL, *key = NULL, *value = NULL;
	struct cmd_args args;
	int stop;
	const struct setting *s = NULL;
	struct ab_store *store = NULL;
	json_t *list = NULL, *item;
	char *current = NULL, *keys;
	size_t i, j;
	int err, rc = 0;

	cmd_args_init(&args, "config", cmd_own_string, &unset);
	if ((stop = cmd_parse_options(&args, cmd_config_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (argc - optind > 2 || (unset && argc - optind > 0))
		return cmd_usage("config", "expected [KEY [VALUE]] or --unset KEY");
	key = unset ? unset : optind < argc ? argv[optind] : NULL;
	value = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (key && !(s = find(key))) {
		keys = known_keys();
		rc = cmd_usage("config", "no setting '%s'; the settings are: %s", key, keys);
		free(keys);
		return rc;
	}
	if (value) {
		for (j = 0; s->values[j] && strcmp(s->values[j], value); j++)
			;
		if (!s->values[j])
			return cmd_usage("config", "%s: expected true or false, got '%s'", key, value);
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_WRITE)) < 0)
		return cmd_fail(err);
	if (unset || value) {
		if ((err = ab_store_setting_set(store, key, value)) < 0)
			rc = cmd_fail(err);
		else if (unset)
			fprintf(stderr, "abtool config: %s unset in '%s' (now %s, the default)\n", key,
				ab_store_path(store), s->fallback);
		else
			fprintf(stderr, "abtool config: %s = %s in '%s'\n", key, value, ab_store_path(store));
	} else if (key) {
		if ((err = ab_store_setting_get(store, key, &current)) < 0)
			rc = cmd_fail(err);
		else
			printf("%s\n", current ? current : s->fallback);
	} else if ((err = ab_store_settings(store, &list)) < 0) {
		rc = cmd_fail(err);
	} else {
		/* every known setting, its value and whether it is set here */
		for (i = 0; i < NSETTINGS; i++) {
			const char *v = settings[i].fallback, *when = NULL;

			json_array_foreach(list, j, item)
				if (!strcmp(json_string_value(json_object_get(item, "key")), settings[i].key)) {
					v = json_string_value(json_object_get(item, "value"));
					when = json_string_value(json_object_get(item, "updated_at"));
				}
			printf("%s = %s  (%s%s; %s)\n", settings[i].key, v, when ? "set " : "default",
			       when ? when : "", settings[i].meaning);
		}
	}
	free(current);
	json_decref(list);
	ab_store_close(store);
	return rc;
}
