/* cmd_env.c - `abtool env [EXP.yaml]`: the host fingerprint abtool stores
 * with each run, so a reader can tell on what machine a verdict was
 * reached, and the warnings it implies, so a user can fix the host before
 * measuring. With an experiment file it also runs the file's
 * `environment.commands`, as a run would, and shows their outputs. */
#include "cmd.h"
#include "config.h"
#include "env.h"
#include "run.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* One fingerprint value as text (new string): null is "unknown", arrays
 * are joined, sizes and fractions get human units beside the raw value. */
static char *format_value(const char *key, const json_t *v)
{
	char buf[32];

	if (json_is_null(v) || !v)
		return ab_xstrdup("unknown");
	if (json_is_true(v))
		return ab_xstrdup("yes");
	if (json_is_false(v))
		return ab_xstrdup("no");
	if (json_is_string(v))
		return ab_xstrdup(json_string_value(v));
	if (json_is_integer(v) && strstr(key, "_bytes"))
		return ab_xasprintf("%lld (%s)", (long long)json_integer_value(v),
				    ab_format_bytes(buf, sizeof(buf), (double)json_integer_value(v)));
	if (json_is_integer(v))
		return ab_xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v) && strstr(key, "_fraction"))
		return ab_xasprintf("%.4g (%.2f%%)", json_real_value(v), 100 * json_real_value(v));
	if (json_is_real(v))
		return ab_xasprintf("%.2f", json_real_value(v));
	if (json_is_array(v)) {
		char *out = ab_xstrdup(json_array_size(v) ? "" : "none"), *next, *item;
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			item = format_value(key, e);
			next = ab_xasprintf("%s%s%s", out, i ? ", " : "", item);
			free(item);
			free(out);
			out = next;
		}
		return out;
	}
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* Print `text` with every line indented by `indent` (no trailing blank
 * line for a final newline). */
static void print_indented(const char *indent, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		printf("%s%.*s\n", indent, (int)n, text);
		text += n + (text[n] == '\n');
	}
}

/* The environment.commands section: each command with how it ended, its
 * stdout and its stderr. */
static void print_commands(const json_t *fp)
{
	const json_t *results = json_object_get(fp, "command_results");
	const char *cmd;
	json_t *out;

	printf("\nenvironment.commands:\n");
	json_object_foreach(json_object_get(fp, "commands"), cmd, out) {
		const json_t *res = json_object_get(results, cmd);
		const char *status = json_string_value(json_object_get(res, "status"));
		const char *err = json_string_value(json_object_get(res, "stderr"));

		printf("$ %s   (%s)\n", cmd, status ? status : "status unknown");
		print_indented("  ", json_string_value(out) ? json_string_value(out) : "");
		if (err && *err) {
			printf("  stderr:\n");
			print_indented("    ", err);
		}
	}
}

static void print_text(const json_t *fp, const json_t *warnings)
{
	const char *key;
	json_t *v;
	size_t i, width = 0;

	json_object_foreach((json_t *)fp, key, v)
		if (strlen(key) > width && strcmp(key, "commands") && strcmp(key, "command_results"))
			width = strlen(key);
	json_object_foreach((json_t *)fp, key, v) {
		char *text;
		if (!strcmp(key, "commands") || !strcmp(key, "command_results"))
			continue;
		text = format_value(key, v);
		printf("%s:%*s %s\n", key, (int)(width - strlen(key)), "", text);
		free(text);
	}
	if (json_is_object(json_object_get(fp, "commands")))
		print_commands(fp);
	if (json_array_size(warnings))
		printf("\n");
	json_array_foreach(warnings, i, v)
		printf("%s: %s\n", !strcmp(json_string_value(json_object_get(v, "level")), "info") ? "note" : "warning",
		       json_string_value(json_object_get(v, "message")));
}

const struct cmd_option cmd_env_options[] = {
	{"json", 0, NULL, "print {fingerprint, warnings} as JSON instead of the text", NULL, CMD_OWN,
	 'j', 0, 0},
	{"root", 0, "DIR", "read the files under DIR instead of / (a copied tree, a test's fake one)",
	 "/", CMD_OWN, 'r', 0, 0},
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* --json and --root. */
struct env_ctx {
	int json;
	const char *root;
};

static int env_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct env_ctx *ctx = args->ctx;

	if (o->code == 'j')
		ctx->json = 1;
	else
		ctx->root = arg;
	return CMD_GO_ON;
}

int cmd_env(int argc, char **argv)
{
	struct env_ctx ctx = {0, ""};
	struct cmd_args args;
	const char *root;
	struct ab_experiment exp;
	json_t *fp, *warnings;
	int err, json, stop;

	cmd_args_init(&args, "env", env_option, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_env_options, argc, argv)) != CMD_GO_ON)
		return stop;
	json = ctx.json;
	root = ctx.root;
	if (argc - optind > 1)
		return cmd_usage("env", "unexpected argument '%s'", argv[optind + 1]);
	memset(&exp, 0, sizeof(exp));
	if (optind < argc && (err = ab_experiment_load(&exp, argv[optind])) < 0) {
		ab_experiment_release(&exp);
		return cmd_fail(err);
	}
	fp = ab_env_fingerprint(root);
	ab_env_busy_processes(fp, root, AB_ENV_BUSY_WINDOW_NS);
	if (optind < argc) {
		/* as a run records them: in the experiment's folder */
		ab_run_env_commands(fp, exp.environment_commands, exp.dir, exp.environment_commands_timeout_ms);
		ab_experiment_release(&exp);
	}
	warnings = ab_env_warnings(fp, AB_ENV_LOAD_THRESHOLD_DEFAULT);
	{
		const char *cmd;
		json_t *res;
		json_object_foreach(json_object_get(fp, "command_results"), cmd, res) {
			const char *status = json_string_value(json_object_get(res, "status"));
			if (status && strcmp(status, "exit 0"))
				json_array_append_new(warnings, json_pack("{s:s, s:s, s:s+++}", "id", "command",
					"level", "warning", "message", "environment.commands: '", cmd, "' ", status));
		}
	}
	if (json) {
		json_t *doc = json_pack("{s:O, s:O}", "fingerprint", fp, "warnings", warnings);
		char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("%s\n", text);
		free(text);
		json_decref(doc);
	} else {
		cmd_plain_stdout();  /* the commands' outputs */
		print_text(fp, warnings);
	}
	json_decref(warnings);
	json_decref(fp);
	return 0;
}
