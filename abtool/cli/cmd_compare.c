/* cmd_compare.c - `abtool compare 'CMD_A' 'CMD_B'`: two commands A/B
 * tested the paired way without a repository or an experiment file (what
 * people reach for hyperfine for). The command line becomes the text of
 * an experiment with `sides:` (docs/experiment-file.md, "sides"), which
 * the one pipeline runs as `abtool run` runs a file: balanced AB|BA pairs
 * of fresh processes, checksums, rules, the store (kind "compare") and
 * the reports. The text is stored with the run, so `show`, `report` and
 * `resume` work as for any run (docs/cli.md, "abtool compare"). A command
 * runs without a shell unless it needs one (shellwords.h), so that what
 * is timed is the command and not /bin/sh's start too; hyperfine's
 * options are read as abtool's or refused with abtool's way. */
#include "cmd.h"
#include "config.h"
#include "error.h"
#include "predicates.h"
#include "shellwords.h"
#include "util.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line says beyond the shared groups. */
struct compare_ctx {
	const char *names[2];      /* -n (twice), --name-a, --name-b */
	const char *name_opts[2];  /* the option that gave names[i] ("-n", "--name-a"), or NULL */
	int nnames;                /* how many -n were given */
	const char *checksum_regex;
	int check_stdout;
	char **params;             /* "NAME\tv1\tv2..." per -P or -L, in order */
	char **param_opts;         /* params[i]'s option and name as said back: "-P lanes" */
	char **rules;              /* YAML flow mappings of the rules given as options */
	const char *accept_path;   /* --accept RULES.yaml */
	int64_t timeout_ms;        /* --timeout, or 0 */
	const char *metric;        /* --metric, or NULL: wall_ns */
	int shell;                 /* SHELL_AUTO, SHELL_NONE (-N, --shell=none) or SHELL_GIVEN */
	char **shell_words;        /* SHELL_GIVEN: the words of --shell (the shell and its options) */
	const char *hooks[2];      /* --prepare, --conclude (the experiment's prepare:, cleanup:) */
	char **again;              /* the words of the options above, as the Reproduce line gives
	                              them (the plan's are the run's to add; outputs and the
	                              store reproduce nothing of the measurement) */
	char *hook_forms[2];       /* hooks[] as the experiment's YAML lists (command_form) */
};

enum {
	OPT_NAME = 'n', OPT_NAME_A = 2000, OPT_NAME_B, OPT_CHECKSUM, OPT_CHECK_STDOUT, OPT_SCAN, OPT_LIST,
	OPT_NO_REGRESSION, OPT_FASTER_BY, OPT_EQUIVALENT, OPT_ACCEPT, OPT_TIMEOUT,
	OPT_METRIC, OPT_NO_SHELL = 'N', OPT_SHELL = 'S', OPT_PREPARE = 'p', OPT_CONCLUDE = 'C',
};

/* How the commands run: without a shell unless one is needed (the
 * default), never through one (-N), or through --shell's. */
enum { SHELL_AUTO, SHELL_NONE, SHELL_GIVEN };

/* The largest range -P expands to: the matrix bound is far above what a
 * comparison of two commands can run. */
#define SCAN_MAX_VALUES 1000

/*
 * Keep the parameter `param` ("NAME\tV1\tV2...", taken) of option `opt`
 * ("-P", "-L") once it is one the experiment takes, each refusal in the
 * option's words rather than as a line of the generated experiment: a
 * name of matrix: (ab_is_identifier) given once, values neither empty
 * nor twice (ab_values_equal, as matrix: compares them), and at most
 * AB_LIMIT_ROWS rows in all (limits.rows's default, which a comparison
 * has no file to raise). CMD_GO_ON, or 64 after the message.
 */
static int add_param(struct compare_ctx *ctx, const char *opt, char *param)
{
	char **values = NULL, *const *p, *said;
	size_t i, j, n, len = strcspn(param, "\t"), rows = 1;
	int rc = CMD_GO_ON;

	said = ab_xasprintf("%s %.*s", opt, (int)len, param);
	for (i = len; param[i]; i++)  /* the values, split at tabs; an empty one stays */
		if (param[i] == '\t')
			ab_strv_push(&values, ab_xstrndup(param + i + 1, strcspn(param + i + 1, "\t")));
	n = ab_strv_len(values);
	if (!ab_is_identifier(param, len))
		rc = cmd_usage("compare", "%s '%.*s': expected a parameter name of letters, digits and _, "
			       "not starting with a digit, like %s lanes", opt, (int)len, param, opt);
	for (p = ctx->param_opts; rc == CMD_GO_ON && p && *p; p++)
		if (!strcmp(strchr(*p, ' ') + 1, strchr(said, ' ') + 1))
			rc = cmd_usage("compare", "%s: the parameter is given twice (%s first): give "
				       "each parameter once, with all its values", said, *p);
	for (i = 0; rc == CMD_GO_ON && i < n; i++) {
		if (!*values[i])
			rc = cmd_usage("compare", "%s: value %zu is empty: list values separated by single "
				       "commas, like %s 1,2,4", said, i + 1, said);
		for (j = 0; rc == CMD_GO_ON && j < i; j++)
			if (ab_values_equal(values[i], values[j]))
				rc = cmd_usage("compare", "%s: the value '%s' is listed twice: list each "
					       "value once", said, values[i]);
	}
	for (p = ctx->params; rc == CMD_GO_ON && p && *p; p++) {
		size_t k = 0;
		const char *c;

		for (c = *p; (c = strchr(c, '\t')); c++)
			k++;
		rows = rows <= AB_MAX_ROWS / k ? rows * k : AB_MAX_ROWS;
	}
	if (rc == CMD_GO_ON && n && rows > AB_LIMIT_ROWS / n)
		rc = cmd_usage("compare", "%s: the parameters make %s%zu rows (the product of their "
			       "counts of values), more than the %d a comparison measures: use fewer values",
			       said, rows * n >= AB_MAX_ROWS ? "over " : "", rows * n, AB_LIMIT_ROWS);
	ab_strv_free(values);
	if (rc != CMD_GO_ON) {
		free(said);
		free(param);
		return rc;
	}
	ab_strv_push(&ctx->params, param);
	ab_strv_push(&ctx->param_opts, said);
	return CMD_GO_ON;
}

/* -P NAME MIN MAX (integers, step 1) as "NAME\tMIN\t...\tMAX"; `arg` is
 * the three words joined by spaces (cmd_compare_join_multi). */
static int scan_param(struct compare_ctx *ctx, const char *arg)
{
	char name[128], *out;
	long long lo, hi, v;
	int n = 0;

	if (sscanf(arg, "%127s %lld %lld%n", name, &lo, &hi, &n) != 3 || arg[n] != '\0')
		return cmd_usage("compare", "-P/--parameter-scan: expected NAME MIN MAX with integers, like "
				 "'-P lanes 1 8'");
	if (hi < lo || hi - lo >= SCAN_MAX_VALUES)
		return cmd_usage("compare", "-P %s: expected MIN <= MAX and at most %d values", name,
				 SCAN_MAX_VALUES);
	out = ab_xstrdup(name);
	for (v = lo; v <= hi; v++) {
		char *next = ab_xasprintf("%s\t%lld", out, v);
		free(out);
		out = next;
	}
	return add_param(ctx, "-P", out);
}

/* -L NAME V1,V2,... as "NAME\tV1\tV2...". */
static int list_param(struct compare_ctx *ctx, const char *arg)
{
	const char *sp = strchr(arg, ' ');
	char *out, *p;

	if (!sp || sp == arg || !sp[1] || strchr(sp + 1, ' '))
		return cmd_usage("compare", "-L/--parameter-list: expected NAME VALUES with values separated "
				 "by commas, like '-L lanes 1,2,4,8'");
	out = ab_xasprintf("%.*s\t%s", (int)(sp - arg), arg, sp + 1);
	for (p = out; *p; p++)
		if (*p == ',')
			*p = '\t';
	return add_param(ctx, "-L", out);
}

/* The longest --timeout: 30 days. A sample's limit is kept in
 * nanoseconds (int64_t), where 2^63 ns is about 106752 days; a bound far
 * below that, and far above any sample worth comparing, keeps it exact. */
#define TIMEOUT_MAX_MS (30LL * 24 * 3600 * 1000)

/* 1 when `s` is a side's name: [A-Za-z0-9_.+-]+, the rule of sides.X.name
 * (config_keys_command.c, side_name_ok), so that a bad -n is refused in
 * the option's words and not as a line of the generated experiment. */
static int name_ok(const char *s)
{
	static const char allowed[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-";

	return *s && !s[strspn(s, allowed)];
}

/* `s` as a YAML double-quoted scalar (JSON's quoting, which YAML reads). */
static char *yq(const char *s)
{
	json_t *j = json_string(s);
	char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	return out ? out : ab_xstrdup("\"\"");  /* not UTF-8: the parser says so */
}

/* -n NAME (the next side without a name, in order), --name-a NAME or
 * --name-b NAME (`side` 0 or 1, -1 for -n): checked as sides.X.name is,
 * and each side named once. */
static int name_option(struct compare_ctx *ctx, int side, const char *arg)
{
	static const char *const opts[] = {"-n", "--name-a", "--name-b"};
	const char *opt = opts[side + 1];
	char *q;
	int rc;

	if (!name_ok(arg)) {  /* said back quoted: it may hold a newline or an escape */
		q = yq(arg);
		rc = cmd_usage("compare", "%s %s: expected a name of letters, digits and '_', '.', '+', "
			       "'-', like -n old", opt, q);
		free(q);
		return rc;
	}
	if (side < 0) {
		if (ctx->nnames == 2)
			return cmd_usage("compare", "-n/--name: at most twice, once per command");
		side = ctx->nnames++;
	}
	if (ctx->names[side])
		return cmd_usage("compare", "%s %s: command %c is named '%s' already (by %s): name "
				 "each command once", opt, arg, 'A' + side, ctx->names[side], ctx->name_opts[side]);
	ctx->names[side] = arg;
	ctx->name_opts[side] = opt;
	return CMD_GO_ON;
}

/* A rule from --no-regression, --faster-by or --equivalent-within. */
static int percent_rule(struct compare_ctx *ctx, const char *opt, const char *key, const char *arg)
{
	double f;

	if (ab_parse_percent(&f, arg) || f <= 0)
		return cmd_usage("compare", "--%s: expected a percentage like 5%%", opt);
	ab_strv_push(&ctx->rules, ab_xasprintf("{name: %s, %s: '%g%%'}", opt, key, 100 * f));
	return CMD_GO_ON;
}

/* Keep option `o` with its argument for the Reproduce line: -P and -L
 * as their words (cmd_compare_join_multi joined them with spaces, which neither's
 * words hold), a rules file by its absolute path (the line may be run in
 * another folder). */
static void keep_for_reproduce(struct compare_ctx *ctx, const struct cmd_option *o, const char *arg)
{
	char *copy, *save = NULL, *w;

	ab_strv_push(&ctx->again, ab_xasprintf("--%s", o->name));
	if (!arg)
		return;
	if (o->code == OPT_SCAN || o->code == OPT_LIST) {
		copy = ab_xstrdup(arg);
		for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
			ab_strv_push(&ctx->again, ab_xstrdup(w));
		free(copy);
	} else if (o->code == OPT_ACCEPT) {
		ab_strv_push(&ctx->again, ab_path_absolute(NULL, arg));
	} else {
		ab_strv_push(&ctx->again, ab_xstrdup(arg));
	}
}

/* --shell SHELL (and -N, as "none"): none, default (/bin/sh), or a shell
 * with its options ("bash --norc"), split into words. */
static int shell_option(struct compare_ctx *ctx, const char *arg)
{
	ab_strv_free(ctx->shell_words);
	ctx->shell_words = NULL;
	ctx->shell = SHELL_NONE;
	if (!strcmp(arg, "none"))
		return CMD_GO_ON;
	if (ab_shellwords_split(&ctx->shell_words, NULL, strcmp(arg, "default") ? arg : "/bin/sh") < 0)
		return cmd_usage("compare", "--shell '%s': %s", arg, ab_error_last());
	if (!ctx->shell_words)
		return cmd_usage("compare", "--shell: expected none, default, or a shell with its options "
				 "like 'bash --norc'");
	ctx->shell = SHELL_GIVEN;
	return CMD_GO_ON;
}

static int compare_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct compare_ctx *ctx = args->ctx;

	keep_for_reproduce(ctx, o, arg);
	switch (o->code) {
	case OPT_NAME:
		return name_option(ctx, -1, arg);
	case OPT_NAME_A:
	case OPT_NAME_B:
		return name_option(ctx, o->code == OPT_NAME_B, arg);
	case OPT_CHECKSUM:
		ctx->checksum_regex = arg;
		return CMD_GO_ON;
	case OPT_CHECK_STDOUT:
		ctx->check_stdout = 1;
		return CMD_GO_ON;
	case OPT_SCAN:
		return scan_param(ctx, arg);
	case OPT_LIST:
		return list_param(ctx, arg);
	case OPT_NO_REGRESSION:
		return percent_rule(ctx, "no-regression", "no_regression", arg);
	case OPT_FASTER_BY:
		return percent_rule(ctx, "faster-by", "faster_by", arg);
	case OPT_EQUIVALENT:
		return percent_rule(ctx, "equivalent-within", "equivalent_within", arg);
	case OPT_ACCEPT:
		ctx->accept_path = arg;
		return CMD_GO_ON;
	case OPT_METRIC:
		ctx->metric = arg;
		return CMD_GO_ON;
	case OPT_NO_SHELL:
		return shell_option(ctx, "none");
	case OPT_SHELL:
		return shell_option(ctx, arg);
	case OPT_PREPARE:
	case OPT_CONCLUDE:
		if (ctx->hooks[o->code == OPT_CONCLUDE])
			return cmd_usage("compare", "--%s: give it once: one command runs %s every sample of "
					 "both commands", o->name, o->code == OPT_CONCLUDE ? "after" : "before");
		ctx->hooks[o->code == OPT_CONCLUDE] = arg;
		return CMD_GO_ON;
	default:
		if (ab_parse_duration_ms(&ctx->timeout_ms, arg) || ctx->timeout_ms <= 0)
			return cmd_usage("compare", "--timeout: expected a duration like 30s or 5m");
		if (ctx->timeout_ms > TIMEOUT_MAX_MS)
			return cmd_usage("compare", "--timeout %s: at most 30d (%lld ms), the longest one "
					 "sample may take", arg, TIMEOUT_MAX_MS);
		return CMD_GO_ON;
	}
}

const struct cmd_option cmd_compare_options[] = {
	{"name", 'n', "NAME", "a name for a command in the reports: the first -n names A, the second B",
	 "a, b", CMD_OWN, OPT_NAME, 0, 0},
	{"name-a", 0, "NAME", "the name of command A", NULL, CMD_OWN, OPT_NAME_A, 0, 0},
	{"name-b", 0, "NAME", "the name of command B", NULL, CMD_OWN, OPT_NAME_B, 0, 0},
	{"checksum-regex", 0, "RE", "a sample's checksum: the first capture group of RE on stdout; "
	 "both commands must agree", NULL, CMD_OWN, OPT_CHECKSUM, 0, 0},
	{"check-stdout", 0, NULL, "the checksum is the SHA-256 of the whole stdout: both commands must "
	 "print the same", NULL, CMD_OWN, OPT_CHECK_STDOUT, 0, 0},
	{"parameter-scan", 'P', "NAME MIN MAX", "a matrix parameter from MIN to MAX (integers), "
	 "substituted for {NAME} in the commands", NULL, CMD_OWN, OPT_SCAN, 0, 0},
	{"parameter-list", 'L', "NAME V1,V2", "a matrix parameter with the values listed, substituted "
	 "for {NAME}", NULL, CMD_OWN, OPT_LIST, 0, 0},
	{"no-regression", 0, "P%", "a rule: B is not slower than A by more than P%", NULL, CMD_OWN,
	 OPT_NO_REGRESSION, 0, 0},
	{"faster-by", 0, "P%", "a rule: B is faster than A by at least P%", NULL, CMD_OWN, OPT_FASTER_BY,
	 0, 0},
	{"equivalent-within", 0, "P%", "a rule: A and B are within P% of each other (TOST)", NULL,
	 CMD_OWN, OPT_EQUIVALENT, 0, 0},
	{"accept", 0, "RULES.yaml", "the rules of a rules file (accept: [...]), after those given as "
	 "options", NULL, CMD_OWN, OPT_ACCEPT, 0, 0},
	{"metric", 0, "NAME", "the primary metric the rules decide on (wall_ns, cpu_ns, user_ns, "
	 "maxrss_bytes, ...)", "wall_ns", CMD_OWN, OPT_METRIC, 0, 0},
	{"timeout", 0, "DURATION", "the most one sample may take", "10m", CMD_OWN, OPT_TIMEOUT, 0, 0},
	{"no-shell", 'N', NULL, "run each command without a shell, split into words as hyperfine -N "
	 "does (the same as --shell=none)", NULL, CMD_OWN, OPT_NO_SHELL, 0, 0},
	{"shell", 'S', "SHELL", "run each command through SHELL -c: none, default (/bin/sh), or a "
	 "shell with its options ('bash --norc'); nothing is subtracted for its start",
	 "none, or /bin/sh for both when one has shell syntax", CMD_OWN, OPT_SHELL, 0, 0},
	{"prepare", 'p', "CMD", "run CMD before every sample, untimed (the experiment's prepare:)", NULL,
	 CMD_OWN, OPT_PREPARE, 0, 0},
	{"conclude", 'C', "CMD", "run CMD after every sample, untimed (the experiment's cleanup:)", NULL,
	 CMD_OWN, OPT_CONCLUDE, 0, 0},
	CMD_PLAN_OPTIONS(1, "pairs per row", "8"),
	CMD_MAX_PAIRS_OPTION,
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 'v'),
	CMD_VIEW_OPTIONS,
	CMD_OPTIONS_END,
};

/* The words `words` as a YAML flow sequence (new string). */
static char *yaml_list(char *const *words)
{
	char *out = ab_xstrdup("["), *q, *next;
	char *const *w;

	for (w = words; *w; w++) {
		q = yq(*w);
		next = ab_xasprintf("%s%s%s", out, w == words ? "" : ", ", q);
		free(q);
		free(out);
		out = next;
	}
	next = ab_xasprintf("%s]", out);
	free(out);
	return next;
}

/* Why the matrix makes `cmd` need a shell: a value of -L that the shell
 * would read (a glob, a quote, a blank) substituted for a {NAME}; or NULL. */
static const char *values_need_shell(const struct compare_ctx *ctx, const char *cmd)
{
	char *const *p;

	if (!strchr(cmd, '{'))
		return NULL;
	for (p = ctx->params; p && *p; p++)
		if (strpbrk(strchr(*p, '\t'), "|&;<>()$`\\*?[]~#'\" \n"))
			return "a value of -L with shell syntax";
	return NULL;
}

/*
 * The command `cmd` as the argv list (YAML, new string in *out) the
 * experiment runs: its words (ab_shellwords_split) when no shell is used,
 * else the shell's words, -c and `cmd`, so that the report's provenance
 * names the shell. `shell`: use it (the shell's words, /bin/sh's by
 * default), or not. 0, or 64 after a usage error naming `what` ("command
 * A", "--prepare").
 */
static int command_form(char **out, const struct compare_ctx *ctx, int shell, const char *what,
			const char *cmd)
{
	static char *const sh[] = {"/bin/sh", NULL};
	char **words = NULL;
	char *const *w;
	const char *why;

	*out = NULL;
	if (!cmd[strspn(cmd, " \t\n")])
		return cmd_usage("compare", "%s is empty: give a command like './old input'", what);
	/* no shell syntax before an unbalanced quote (ab_shellwords_need_shell's
	 * phrase): /bin/sh would refuse it too, so say it as -N does */
	if (ctx->shell == SHELL_AUTO && (why = ab_shellwords_need_shell(cmd)) &&
	    !strcmp(why, "an unbalanced quote") && ab_shellwords_split(&words, NULL, cmd) < 0)
		return cmd_usage("compare", "%s '%s': %s (/bin/sh would refuse it too)", what, cmd,
				 ab_error_last());
	ab_strv_free(words);
	words = NULL;
	if (shell) {
		for (w = ctx->shell_words ? ctx->shell_words : sh; *w; w++)
			ab_strv_push(&words, ab_xstrdup(*w));
		ab_strv_push(&words, ab_xstrdup("-c"));
		ab_strv_push(&words, ab_xstrdup(cmd));
	} else if (ab_shellwords_split(&words, NULL, cmd) < 0) {
		return cmd_usage("compare", "%s '%s' (run without a shell): %s", what, cmd, ab_error_last());
	}
	*out = yaml_list(words);
	ab_strv_free(words);
	return 0;
}

/* Why `cmd` runs through a shell under ctx->shell (the phrase of
 * ab_shellwords_need_shell, "--shell"), or NULL. */
static const char *shell_reason(const struct compare_ctx *ctx, const char *cmd)
{
	const char *why;

	if (ctx->shell != SHELL_AUTO)
		return ctx->shell == SHELL_GIVEN ? "--shell" : NULL;
	why = ab_shellwords_need_shell(cmd);
	return why ? why : values_need_shell(ctx, cmd);
}

/* 1 when the template `tmpl` has the placeholder {name} (`len` bytes),
 * read as ab_command_expand reads it: "{{" and "}}" are braces. */
static int has_placeholder(const char *tmpl, const char *name, size_t len)
{
	const char *s;

	for (s = tmpl; s && *s; s++) {
		if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}'))
			s++;
		else if (s[0] == '{' && !strncmp(s + 1, name, len) && s[len + 1] == '}')
			return 1;
	}
	return 0;
}

/* Each -P or -L substituted somewhere (a command, --prepare or
 * --conclude), as hyperfine checks: a parameter that nothing uses would
 * measure the same commands once per value. CMD_GO_ON, or 64. */
static int params_used(const struct compare_ctx *ctx, char *const cmds[2])
{
	size_t i, len;

	for (i = 0; ctx->params && ctx->params[i]; i++) {
		len = strcspn(ctx->params[i], "\t");
		if (!has_placeholder(cmds[0], ctx->params[i], len) &&
		    !has_placeholder(cmds[1], ctx->params[i], len) &&
		    !has_placeholder(ctx->hooks[0], ctx->params[i], len) &&
		    !has_placeholder(ctx->hooks[1], ctx->params[i], len))
			return cmd_usage("compare", "%s: neither command has {%.*s}: write it where the "
					 "value goes, like 'echo {%.*s}'", ctx->param_opts[i], (int)len,
					 ctx->params[i], (int)len, ctx->params[i]);
	}
	return CMD_GO_ON;
}

/* A given --shell's program found (ab_path_search on PATH, as the
 * child's exec looks it up) and executable, else a usage error naming it:
 * every sample would fail to start. CMD_GO_ON, or 64. */
static int shell_found(const struct compare_ctx *ctx)
{
	const char *prog;
	char *found;

	if (ctx->shell != SHELL_GIVEN)
		return CMD_GO_ON;
	prog = ctx->shell_words[0];
	if (strchr(prog, '/'))
		found = access(prog, X_OK) == 0 ? ab_xstrdup(prog) : NULL;
	else
		found = ab_path_search(getenv("PATH"), prog);
	free(found);
	if (found)
		return CMD_GO_ON;
	return cmd_usage("compare", "--shell %s: %s", prog, strchr(prog, '/')
			 ? "no such executable file: give the path of a shell, like /bin/bash"
			 : "not found on PATH: give a shell installed here, or its path");
}

/* Append `fmt` to the text `*t`. */
static void add(char **t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(char **t, const char *fmt, ...)
{
	va_list ap;
	char *piece, *next;

	va_start(ap, fmt);
	if (vasprintf(&piece, fmt, ap) < 0)
		abort();
	va_end(ap);
	next = ab_xasprintf("%s%s", *t ? *t : "", piece);
	free(piece);
	free(*t);
	*t = next;
}

/*
 * The plan and the rule of a comparison given no rule (new string): which
 * side is faster, decided by `differs` on a sequential plan that stops a
 * row at the first look whose interval excludes 1 (predicates.h,
 * AB_COMPARE_DEFAULT_RULE). A matrix of many rows gets a lower maximum,
 * halved until its samples fit limits.samples (which a comparison cannot
 * raise), down to a fixed plan of the first look's pairs.
 */
static char *default_gate(const struct compare_ctx *ctx)
{
	size_t rows = 1, max = AB_COMPARE_DEFAULT_MAX_PAIRS;
	char *const *p;

	for (p = ctx->params; p && *p; p++) {
		size_t values = 0;
		const char *c;

		for (c = *p; (c = strchr(c, '\t')); c++)
			values++;
		rows = values && rows <= AB_LIMIT_SAMPLES / values ? rows * values : AB_LIMIT_SAMPLES;
	}
	while (max > AB_COMPARE_DEFAULT_MIN_PAIRS && rows * 2 * (max + 1) > AB_LIMIT_SAMPLES)
		max /= 2;
	if (max <= AB_COMPARE_DEFAULT_MIN_PAIRS)
		return ab_xasprintf("pairs: %d\naccept:\n  - %s\n", AB_COMPARE_DEFAULT_MIN_PAIRS,
				    AB_COMPARE_DEFAULT_RULE);
	return ab_xasprintf("pairs: {min: %d, max: %zu}\naccept:\n  - %s\n", AB_COMPARE_DEFAULT_MIN_PAIRS,
			    max, AB_COMPARE_DEFAULT_RULE);
}

/* The experiment text of the command line (new string): `cmds` are the
 * two commands as YAML (command_form); `accept_text` (the rules file, or
 * NULL) is appended as its own `accept:` key would be, after the rules of
 * the options. */
static char *experiment_text(const struct compare_ctx *ctx, char *const cmds[2], const char *accept_text)
{
	static const char *const defaults[2] = {"a", "b"};
	char *t = NULL, *q, *name;
	char *const *p, *const *r;
	int i;

	add(&t, "# abtool compare: two commands, paired (docs/cli.md)\n");
	q = ab_xasprintf("%s-vs-%s", ctx->names[0] ? ctx->names[0] : "a", ctx->names[1] ? ctx->names[1] : "b");
	name = yq(q);
	add(&t, "name: %s\n", name);
	free(name);
	free(q);
	add(&t, "sides:\n");
	for (i = 0; i < 2; i++) {
		name = yq(ctx->names[i] ? ctx->names[i] : defaults[i]);
		add(&t, "  %s: {name: %s, command: %s}\n", defaults[i], name, cmds[i]);
		free(name);
	}
	if (ctx->params) {
		add(&t, "matrix:\n");
		for (p = ctx->params; *p; p++) {
			char *copy = ab_xstrdup(*p), *save = NULL, *w = strtok_r(copy, "\t", &save);
			q = yq(w);
			add(&t, "  %s: [", q);
			free(q);
			for (i = 0; (w = strtok_r(NULL, "\t", &save)); i++) {
				q = yq(w);
				add(&t, "%s%s", i ? ", " : "", q);
				free(q);
			}
			add(&t, "]\n");
			free(copy);
		}
	}
	if (ctx->check_stdout) {
		add(&t, "checksum: {stdout: sha256}\n");
	} else if (ctx->checksum_regex) {
		q = yq(ctx->checksum_regex);
		add(&t, "checksum: {regex: %s}\n", q);
		free(q);
	}
	if (ctx->metric && !ab_config_is_builtin_metric(ctx->metric)) {
		/* a count the commands print as NAME=VALUE, lower is better */
		char *re = ab_xasprintf("%s=([-+0-9.eE]+)", ctx->metric), *qre = yq(re);
		q = yq(ctx->metric);
		add(&t, "metrics:\n  %s: {regex: %s, better: lower}\n", q, qre);
		free(q);
		free(qre);
		free(re);
	}
	if (ctx->metric) {
		q = yq(ctx->metric);
		add(&t, "metric: %s\n", q);
		free(q);
	}
	if (ctx->timeout_ms)
		add(&t, "timeout: %lldms\n", (long long)ctx->timeout_ms);
	if (ctx->hook_forms[0])
		add(&t, "prepare: %s\n", ctx->hook_forms[0]);
	if (ctx->hook_forms[1])
		add(&t, "cleanup: %s\n", ctx->hook_forms[1]);
	if (!ctx->rules && !ctx->accept_path) {
		char *gate = default_gate(ctx);
		add(&t, "%s", gate);
		free(gate);
	}
	if (ctx->rules || accept_text)
		add(&t, "accept:\n");
	for (r = ctx->rules; r && *r; r++)
		add(&t, "  - %s\n", *r);
	if (accept_text)
		add(&t, "%s", accept_text);
	return t;
}

/* The items of a rules file's `accept:` (its list, as YAML text indented
 * under the experiment's accept:), once the file itself is known to be a
 * valid rules file for `exp` (ab_experiment_parse_rules, whose messages
 * name the file's own lines). New string, or NULL after printing why. */
static char *accept_items(struct ab_experiment *exp, const char *path, int *rc)
{
	char *text = NULL, *out = NULL, *line, *save = NULL;
	size_t len;
	int err, indent = -1;

	if ((err = ab_experiment_read(&text, &len, path)) < 0 ||
	    (err = ab_experiment_parse_rules(exp, path, text, len)) < 0) {
		*rc = cmd_fail(err);
		free(text);
		return NULL;
	}
	/* every line but the top-level `accept:` key, indented under ours */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "accept:", 7)) {
			const char *rest = line + 7;
			while (*rest == ' ')
				rest++;
			if (*rest && *rest != '#') {  /* accept: [ ... ] in flow style */
				*rc = cmd_usage("compare", "--accept %s: write the rules as a block list under "
						"accept: (one '- ' item per rule)", path);
				free(out);
				free(text);
				return NULL;
			}
			continue;
		}
		/* re-indent the list to two spaces, as the options' rules are */
		if (indent < 0 && line[strspn(line, " ")] != '#')
			indent = (int)strspn(line, " ");
		add(&out, "  %s\n", indent > 0 && strspn(line, " ") >= (size_t)indent ? line + indent : line);
	}
	free(text);
	return out ? out : ab_xstrdup("");
}

/* The start of the command line that runs this comparison again (new
 * string): `abtool compare` and the options that make the experiment.
 * The run adds the plan's options (seed, pairs, warmup) and then the two
 * commands (ab_run_options.reproduce); --store, the outputs, -q and -v
 * change nothing measured and are left out, so that no store URL (and
 * no password in it) reaches a report (docs/security.md, "Credentials"). */
static char *reproduce_line(const struct compare_ctx *ctx)
{
	char *out = ab_xstrdup("abtool compare");
	char *const *w;

	for (w = ctx->again; w && *w; w++) {
		char *q = ab_shell_quote(*w, 0), *next = ab_xasprintf("%s %s", out, q);
		free(q);
		free(out);
		out = next;
	}
	return out;
}

/* The pieces of the comparison the loaded hook makes the experiment of. */
struct compare_job {
	struct compare_ctx *ctx;
	char *cmds[2];   /* as given (the Reproduce line's) */
	char *forms[2];  /* as the experiment runs them (command_form) */
};

/* The experiment from the command line (instead of a file): parsed from
 * the text that is stored with the run. */
static int loaded(struct cmd_measure *m)
{
	struct compare_job *job = m->ctx;
	char *text = experiment_text(job->ctx, job->forms, NULL), *items = NULL;
	int err, rc = 0;

	err = ab_experiment_parse(&m->exp, "abtool-compare.yaml", text, strlen(text));
	if (err == 0 && job->ctx->accept_path) {
		if (!(items = accept_items(&m->exp, job->ctx->accept_path, &rc))) {
			free(text);
			return rc;
		}
		free(text);
		text = experiment_text(job->ctx, job->forms, items);
		ab_experiment_release(&m->exp);
		err = ab_experiment_parse(&m->exp, "abtool-compare.yaml", text, strlen(text));
	}
	free(items);
	free(text);
	return err < 0 ? cmd_fail(err) : 0;
}

/*
 * The commands as the experiment runs them (job->forms, and the hooks'
 * ctx->hook_forms): without a shell unless -S or one of the two commands
 * needs it, and then both through it, so that its start is timed on both
 * sides alike; said on stderr unless `quiet`. 0, or 64 after a usage error.
 */
static int command_forms(struct compare_job *job, int quiet)
{
	static const char *const what[2] = {"command A", "command B"};
	static const char *const hook[2] = {"--prepare", "--conclude"};
	struct compare_ctx *ctx = job->ctx;
	const char *why[2] = {shell_reason(ctx, job->cmds[0]), shell_reason(ctx, job->cmds[1])};
	char *shell, *reason, *const *w;
	int i, rc = 0;

	for (i = 0; i < 2 && !rc; i++)
		rc = command_form(&job->forms[i], ctx, why[0] || why[1], what[i], job->cmds[i]);
	for (i = 0; i < 2 && !rc; i++)
		if (ctx->hooks[i])  /* untimed: a shell only where it is needed */
			rc = command_form(&ctx->hook_forms[i], ctx, shell_reason(ctx, ctx->hooks[i]) != NULL,
					  hook[i], ctx->hooks[i]);
	if (rc || quiet || (!why[0] && !why[1]))
		return rc;
	/* abtool subtracts nothing for the shell (hyperfine subtracts its mean): say so */
	shell = ab_xstrdup(ctx->shell_words ? ctx->shell_words[0] : "/bin/sh");
	for (w = ctx->shell_words ? ctx->shell_words + 1 : NULL; w && *w; w++) {
		char *next = ab_xasprintf("%s %s", shell, *w);
		free(shell);
		shell = next;
	}
	reason = ctx->shell == SHELL_GIVEN ? ab_xstrdup("--shell")
		: ab_xasprintf("%s%s%s%s%s", why[0] ? "A: " : "", why[0] ? why[0] : "",
			       why[0] && why[1] ? "; " : "", why[1] ? "B: " : "", why[1] ? why[1] : "");
	cmd_notice("both commands run through %s -c (%s): the shell's start is timed on both sides and "
		   "nothing is subtracted for it, which pulls the ratio toward 1; -N runs them without a "
		   "shell", shell, reason);
	free(reason);
	free(shell);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_ctx ctx;
	struct compare_job job = {0};
	struct cmd_args args;
	struct cmd_measure m = {0};
	char **joined = NULL, **av, *reproduce = NULL;
	int ac, rc;

	memset(&ctx, 0, sizeof(ctx));
	av = cmd_compare_join_multi(argc, argv, &ac, &joined);
	cmd_args_init(&args, "compare", compare_option, &ctx);
	if ((rc = cmd_compare_hyperfine(ac, av, &joined)) == CMD_GO_ON &&
	    (rc = cmd_parse_options(&args, cmd_compare_options, ac, av)) == CMD_GO_ON) {
		if (optind != ac - 2) {
			rc = cmd_usage("compare", "expected two commands, like abtool compare './old' './new'");
		} else if (!strcmp(ctx.names[0] ? ctx.names[0] : "a", ctx.names[1] ? ctx.names[1] : "b")) {
			rc = cmd_usage("compare", "both commands are named '%s': give each its own name, like "
				       "-n old -n new", ctx.names[0] ? ctx.names[0] : "a");
		} else if (ctx.check_stdout && ctx.checksum_regex) {
			rc = cmd_usage("compare", "--check-stdout and --checksum-regex: give one checksum");
		} else {
			job.ctx = &ctx;
			job.cmds[0] = av[optind];
			job.cmds[1] = av[optind + 1];
		}
		if (rc == CMD_GO_ON && (rc = params_used(&ctx, job.cmds)) == CMD_GO_ON &&
		    (rc = shell_found(&ctx)) == CMD_GO_ON && (rc = command_forms(&job, args.out.quiet)) == 0) {
			reproduce = reproduce_line(&ctx);
			args.run.reproduce = reproduce;
			args.run.reproduce_commands = (const char *const *)job.cmds;
			m.args = &args;
			m.loaded = loaded;
			m.ctx = &job;
			rc = cmd_measure(&m);
		}
	}
	cmd_args_release(&args);
	free(reproduce);
	ab_strv_free(ctx.params);
	ab_strv_free(ctx.param_opts);
	ab_strv_free(ctx.rules);
	ab_strv_free(ctx.again);
	ab_strv_free(ctx.shell_words);
	free(ctx.hook_forms[0]);
	free(ctx.hook_forms[1]);
	free(job.forms[0]);
	free(job.forms[1]);
	ab_strv_free(joined);
	free(av);
	return rc;
}
