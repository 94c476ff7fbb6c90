/* cmd_analyze.c - `abtool analyze FILE`: the statistics and rules of
 * `abtool run` on pairs collected elsewhere (TSV or CSV, long or wide;
 * docs/analyze.md). With --accept RULES.yaml it gates like run: exit 0
 * accepted, 1 rejected, 2 inconclusive, 3 invalid. hyperfine's JSON
 * export is read too, as unpaired rows that decide nothing (hyperfine.h).
 * Nothing is stored. */
#include "cmd.h"
#include "hyperfine.h"
#include "pairs_file.h"
#include "rules.h"
#include "stopping.h"
#include "error.h"
#include "report.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct cmd_option cmd_analyze_options[] = {
	{"accept", 0, "RULES.yaml", "the rules (a YAML file whose only key is accept:)",
	 "none: the verdict is inconclusive, exit 0", CMD_OWN, 'a', 0, 0},
	{"metric", 0, "NAME", "the name of the measured value", "value", CMD_OWN, 'M', 0, 0},
	{"unit", 0, "U", "its unit (ns and bytes are scaled)", "none", CMD_OWN, 'u', 0, 0},
	{"better", 0, "lower|higher", "its direction", "lower", CMD_OWN, 'b', 0, 0},
	{"looks", 0, "N,N,...", "replay a sequential plan with these looks over the pairs in their "
	 "order: where each row would have stopped, and its verdict", "a fixed plan", CMD_OWN, 'L', 0, 0},
	{"max-rows", 0, "N", "the most rows the parameter columns (or hyperfine's parameters) may make",
	 "10000", CMD_OWN, 'R', 1, AB_MAX_ROWS},
	{"max-line-bytes", 0, "N", "the longest line of a pairs file", "1048576", CMD_OWN, 'B', 1,
	 1LL << 40},
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS(0, 0),
	CMD_VIEW_OPTIONS,
	CMD_OPTIONS_END,
};

/* The options of analyze beyond the outputs. */
struct analyze_ctx {
	struct ab_pairs_file_options opt;
	const char *rules_path;
	struct ab_seq_plan plan;  /* --looks, when plan.nlooks > 0 */
};

/* --looks 8,16,32: the looks of a sequential plan (ab_seq_plan_check). */
static int parse_looks(struct ab_seq_plan *plan, const char *arg)
{
	size_t looks[AB_SEQ_MAX_LOOKS], n = 0;
	char *copy = ab_xstrdup(arg), *tok, *save = NULL;
	int64_t v;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		if (n == AB_SEQ_MAX_LOOKS || ab_parse_int64(&v, tok) < 0 || v < 1 || v > AB_SEQ_MAX_PAIRS)
			err = -1;
		else
			looks[n++] = (size_t)v;
	}
	free(copy);
	if (err || n == 0)
		return cmd_usage("analyze", "--looks: expected pair counts like 8,16,32,64 (at most %d, "
				 "each 1 to %d), got '%s'", AB_SEQ_MAX_LOOKS, AB_SEQ_MAX_PAIRS, arg);
	if (ab_seq_plan_from_looks(plan, looks, n) < 0)
		return cmd_usage("analyze", "--looks %s: %s", arg, ab_error_last());
	return CMD_GO_ON;
}

static int analyze_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct analyze_ctx *ctx = args->ctx;

	switch (o->code) {
	case 'a':
		ctx->rules_path = arg;
		break;
	case 'M':
		ctx->opt.metric = arg;
		break;
	case 'u':
		ctx->opt.unit = arg;
		break;
	case 'L':
		return parse_looks(&ctx->plan, arg);
	case 'R':
	case 'B': {
		int64_t v;

		if (ab_parse_int64(&v, arg) < 0 || v < o->min || v > o->max)
			return cmd_usage("analyze", "--%s: expected an integer from %lld to %lld, got '%s'",
					 o->name, o->min, o->max, arg);
		*(o->code == 'R' ? &ctx->opt.max_rows : &ctx->opt.max_line) = (size_t)v;
		break;
	}
	default:
		if (!strcmp(arg, "lower"))
			ctx->opt.better = AB_LOWER_IS_BETTER;
		else if (!strcmp(arg, "higher"))
			ctx->opt.better = AB_HIGHER_IS_BETTER;
		else
			return cmd_usage("analyze", "--better: expected lower or higher, got '%s'", arg);
	}
	return CMD_GO_ON;
}

/* The matrix of a hyperfine export as an experiment for the rules to be
 * read against (their where: and metric:); `out` is initialised here. */
static int hyperfine_experiment(struct ab_experiment *out, const struct ab_hyperfine *h)
{
	char *matrix = json_dumps(h->matrix, JSON_COMPACT);
	char *text = ab_xasprintf("name: hyperfine export\nbenchmark: hyperfine\nmatrix: %s\n", matrix);
	int err = ab_experiment_parse(out, "hyperfine export", text, strlen(text));

	free(matrix);
	free(text);
	return err;
}

/* analyze of hyperfine's --export-json: rows of two commands, unpaired;
 * the verdict is inconclusive (exit 2 under rules, 0 without). */
static int analyze_hyperfine(struct cmd_args *args, const struct analyze_ctx *ctx, const char *path,
			     const char *text, size_t len)
{
	struct ab_hyperfine h;
	struct ab_experiment exp;
	char *rules = NULL, created[32];
	size_t rlen;
	json_t *doc = NULL;
	int err, rc;

	memset(&exp, 0, sizeof(exp));
	if ((err = ab_hyperfine_read(&h, path, text, len, ctx->opt.max_rows)) < 0 ||
	    (err = hyperfine_experiment(&exp, &h)) < 0 ||
	    (ctx->rules_path && ((err = ab_experiment_read(&rules, &rlen, ctx->rules_path)) < 0 ||
				 (err = ab_experiment_parse_rules(&exp, ctx->rules_path, rules, rlen)) < 0))) {
		rc = cmd_fail(err == AB_ENOTFOUND ? AB_EINVALID : err);
		goto out;
	}
	ab_utc_iso8601(created, sizeof(created), (int64_t)time(NULL));
	doc = ab_hyperfine_document(&h, path, &exp, created);
	rc = cmd_emit_reports(&args->out, &exp, NULL, 0, doc, AB_INCONCLUSIVE_VERDICT);
	if (!ctx->rules_path && rc == args->out.inconclusive_exit)
		rc = 0;  /* nothing to gate */
out:
	json_decref(doc);
	ab_experiment_release(&exp);
	ab_hyperfine_release(&h);
	free(rules);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_ctx ctx = {{"value", "", AB_LOWER_IS_BETTER, 0, 0}, NULL, {0}};
	struct ab_pairs_file in;
	struct ab_analysis a;
	struct ab_report_input ri;
	struct cmd_args args;
	int stop;
	char *text = NULL, created[32];
	size_t len;
	json_t *doc = NULL;
	int err, rc;

	memset(&a, 0, sizeof(a));
	memset(&in, 0, sizeof(in));
	cmd_args_init(&args, "analyze", analyze_option, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_analyze_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (optind != argc - 1)
		return cmd_usage("analyze", "expected one file of pairs (TSV or CSV)");
	if ((err = ab_read_file(&text, &len, argv[optind])) == AB_ENOTFOUND)
		return cmd_fail(ab_error_set(AB_EINVALID, "'%s': no such file; check the path", argv[optind]));
	if (err < 0)
		return cmd_fail(err);
	if (ab_hyperfine_is_export(argv[optind], text, len)) {
		rc = analyze_hyperfine(&args, &ctx, argv[optind], text, len);
		free(text);
		return rc;
	}
	if ((err = ab_pairs_file_read(&in, argv[optind], text, len, &ctx.opt)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	free(text);
	text = NULL;
	if (ctx.rules_path) {
		if ((err = ab_experiment_read(&text, &len, ctx.rules_path)) < 0 ||
		    (err = ab_experiment_parse_rules(&in.exp, ctx.rules_path, text, len)) < 0) {
			rc = cmd_fail(err == AB_ENOTFOUND ? AB_EINVALID : err);
			goto out;
		}
	}
	if (!ctx.rules_path)
		args.out.inconclusive_exit = AB_EXIT_INCONCLUSIVE;  /* nothing to gate: exit 0 below */
	if (ctx.plan.nlooks) {
		/* the pairs as they came, stopped where the plan would have */
		if (ctx.plan.looks[0] > (size_t)in.exp.pairs)
			cmd_warn("--looks: the first look (%zu pairs) is beyond the %d pairs of the file: no "
				 "row reaches it", ctx.plan.looks[0], in.exp.pairs);
		in.exp.sequential = 1;
		in.exp.seq = ctx.plan;
		ab_stopping_replay(&in.exp, in.samples, in.nsamples);
	}
	ab_analysis_run(&a, &in.exp, in.samples, in.nsamples);
	ab_rules_evaluate(&a, NULL, NULL);
	ab_utc_iso8601(created, sizeof(created), (int64_t)time(NULL));
	memset(&ri, 0, sizeof(ri));
	ri.kind = "analyze";
	ri.input = argv[optind];
	ri.exp = &in.exp;
	ri.analysis = &a;
	ri.created_at = created;
	ri.exact_parent = 1;
	doc = ab_report_document(&ri);
	rc = cmd_emit_reports(&args.out, &in.exp, in.samples, in.nsamples, doc, a.verdict);
	if (!ctx.rules_path && rc >= 0 && rc <= AB_EXIT_INVALID)
		rc = a.verdict == AB_INVALID ? AB_EXIT_INVALID : 0;
out:
	json_decref(doc);
	ab_analysis_release(&a);
	ab_pairs_file_release(&in);
	free(text);
	return rc;
}
