/* cmd_options.c - the option tables: the shared groups' handlers and the
 * parser that generates getopt_long's arrays from a command's table (see
 * cmd.h, "Options"). */
#include "cmd.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Add the --dependency argument `arg` of command `cmd` to `pins`: 0, or
 * -1 after printing a usage error (exit 64). Whether NAME is one of the
 * experiment's dependencies is checked when the run resolves them. */
static int dep_pin_add(struct cmd_dep_pins *pins, const char *cmd, const char *arg)
{
	char *copy = ab_xstrdup(arg), *eq = strchr(copy, '='), *dots = eq ? strstr(eq + 1, "..") : NULL;
	struct ab_dep_pin *pin;

	if (!eq || eq == copy || !dots || dots == eq + 1 || !dots[2] || dots[2] == '.') {
		free(copy);
		cmd_usage(cmd, "--dependency: expected NAME=PARENT..CANDIDATE (a dependency of the experiment "
			  "and two of its revisions joined by two dots, e.g. lib=v1.2..HEAD), got '%s'", arg);
		return -1;
	}
	*eq = '\0';
	*dots = '\0';
	ab_strv_push(&pins->text, copy);
	pins->v = ab_xrealloc(pins->v, (pins->n + 1) * sizeof(*pins->v));
	pin = &pins->v[pins->n++];
	pin->name = copy;
	pin->parent = eq + 1;
	pin->candidate = dots + 2;
	return 0;
}

/* CMD_PINS: --dependency (into args->pins), --overlay-from. */
static int pins(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	if (o->code == 'd')
		return dep_pin_add(&a->pins, a->cmd, arg) < 0 ? AB_EXIT_USAGE : CMD_GO_ON;
	if (!*arg)
		return cmd_usage(a->cmd, "--overlay-from: give a revision (candidate, parent, a commit, a tag "
				 "or a branch)");
	a->run.overlay_from = arg;
	return CMD_GO_ON;
}

/* CMD_REVISIONS: --candidate, --parent. */
static int revisions(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	if (o->code == 'c')
		a->run.candidate = arg;
	else
		a->run.parent = arg;
	return CMD_GO_ON;
}

/* CMD_PLAN: --pairs and --max-pairs within the option's bounds, --warmup, --seed. */
static int plan(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	int64_t v;

	if (o->code == 'p') {
		if (ab_parse_int64(&v, arg) < 0 || v < o->min || v > o->max)
			return cmd_usage(a->cmd, "--pairs: expected an integer from %lld to %lld, got '%s'",
					 o->min, o->max, arg);
		a->run.pairs = (int)v;
		return CMD_GO_ON;
	}
	if (o->code == 'M') {
		if (ab_parse_int64(&v, arg) < 0 || v < o->min || v > o->max)
			return cmd_usage(a->cmd, "--max-pairs: expected an integer from %lld to %lld, got '%s'",
					 o->min, o->max, arg);
		a->run.max_pairs = (int)v;
		return CMD_GO_ON;
	}
	if (o->code == 'w') {
		if (ab_parse_int64(&v, arg) < 0 || v < o->min || v > o->max)
			return cmd_usage(a->cmd, "--warmup: expected an integer from %lld to %lld, got '%s'",
					 o->min, o->max, arg);
		a->run.have_warmup = 1;
		a->run.warmup = (int)v;
		return CMD_GO_ON;
	}
	if (ab_parse_int64(&v, arg) < 0 || v < o->min)
		return cmd_usage(a->cmd, "--seed: expected a non-negative integer, got '%s'", arg);
	a->run.have_seed = 1;
	a->run.seed = (uint64_t)v;
	return CMD_GO_ON;
}

/* CMD_ROWS: --row NAME=VALUE, checked against the matrix when the
 * experiment is loaded (ab_experiment_select_rows). */
static int rows(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	const char *eq = strchr(arg, '=');

	(void)o;
	if (!eq || eq == arg)
		return cmd_usage(a->cmd, "--row: expected NAME=VALUE (a matrix parameter and one of its "
				 "values, e.g. lanes=8), got '%s'", arg);
	a->run.rows = ab_xrealloc(a->run.rows, (a->run.nrows + 1) * sizeof(*a->run.rows));
	a->run.rows[a->run.nrows++] = arg;
	return CMD_GO_ON;
}

/* CMD_STORE: --store. */
static int store(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	(void)o;
	a->store = arg;
	return CMD_GO_ON;
}

/* CMD_OUTPUTS: cmd_output_option. */
static int outputs(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	return cmd_output_option(&a->out, a->cmd, o->code, arg) < 0 ? AB_EXIT_USAGE : CMD_GO_ON;
}

/* CMD_FORMAT: --format, --output. */
static int format(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	if (o->code == 'f')
		a->format = arg;
	else
		a->output = arg;
	return CMD_GO_ON;
}

int cmd_own_string(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	(void)o;
	*(const char **)args->ctx = arg;
	return CMD_GO_ON;
}

/* CMD_HELP: --help, --version. */
static int help(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	(void)arg;
	if (o->code == 'V') {
		printf("abtool %s\n", ABTOOL_VERSION);
		return 0;
	}
	return cmd_help(a->cmd);
}

/* CMD_OWN: the command's handler. */
static int own_option(struct cmd_args *a, const struct cmd_option *o, const char *arg)
{
	return a->own(a, o, arg);
}

/* The handler of each group, by enum cmd_group. */
static int (*const handlers[])(struct cmd_args *, const struct cmd_option *, const char *) = {
	[CMD_OWN] = own_option, [CMD_REVISIONS] = revisions, [CMD_PINS] = pins, [CMD_PLAN] = plan,
	[CMD_ROWS] = rows,
	[CMD_STORE] = store, [CMD_OUTPUTS] = outputs, [CMD_FORMAT] = format, [CMD_HELP] = help,
};

void cmd_args_init(struct cmd_args *args, const char *cmd,
		   int (*own)(struct cmd_args *, const struct cmd_option *, const char *), void *ctx)
{
	memset(args, 0, sizeof(*args));
	args->cmd = cmd;
	cmd_output_init(&args->out);
	args->output = "-";
	args->own = own;
	args->ctx = ctx;
}

/* The most options a table holds. */
#define MAX_OPTIONS 48

/* getopt_long's value for the option at index i of a table. */
#define OPTION_VALUE(i) (0x10000 + (int)(i))

int cmd_parse_options(struct cmd_args *args, const struct cmd_option *options, int argc,
		      char **argv)
{
	struct option longopts[MAX_OPTIONS + 1];
	char letters[2 * MAX_OPTIONS + 1], *l = letters;
	const struct cmd_option *o;
	size_t n;
	int c, rc;

	for (n = 0; options[n].name && n < MAX_OPTIONS; n++) {
		o = &options[n];
		longopts[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					      OPTION_VALUE(n)};
		if (o->letter) {
			*l++ = o->letter;
			if (o->arg)
				*l++ = ':';
		}
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	*l = '\0';
	optind = 1;
	while ((c = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
		if (c >= OPTION_VALUE(0) && c < OPTION_VALUE(n))
			o = &options[c - OPTION_VALUE(0)];
		else
			for (o = options; o->name && o->letter != c; o++)
				;
		if (!o->name) {
			/* getopt said why; an unknown long option leaves optopt 0 */
			if (!optopt && optind > 1 && optind <= argc)
				cmd_suggest_option(args->cmd, options, argv[optind - 1]);
			return cmd_bad_option(args->cmd);
		}
		if ((rc = handlers[o->group](args, o, optarg)) != CMD_GO_ON)
			return rc;
	}
	args->run.dep_pins = args->pins.v;
	args->run.ndep_pins = args->pins.n;
	return CMD_GO_ON;
}

void cmd_args_release(struct cmd_args *args)
{
	free(args->pins.v);
	ab_strv_free(args->pins.text);
	memset(&args->pins, 0, sizeof(args->pins));
	args->run.dep_pins = NULL;
	args->run.ndep_pins = 0;
	free(args->run.rows);
	args->run.rows = NULL;
	args->run.nrows = 0;
}
