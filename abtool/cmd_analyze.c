/* cmd_analyze.c - `abtool analyze FILE`: the statistics and rules of
 * `abtool run` on pairs collected elsewhere (TSV or CSV, long or wide;
 * docs/analyze.md). With --accept RULES.yaml it gates like run: exit 0
 * accepted, 1 rejected, 2 inconclusive, 3 invalid. Nothing is stored. */
#include "cmd.h"
#include "error.h"
#include "pairs_file.h"
#include "report.h"
#include "rules.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"accept", required_argument, NULL, 'a'},
		{"metric", required_argument, NULL, 'M'},
		{"unit", required_argument, NULL, 'u'},
		{"better", required_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},
		CMD_OUTPUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct ab_pairs_file_options opt = {"value", "", AB_LOWER_IS_BETTER};
	struct ab_pairs_file in;
	struct ab_analysis a;
	struct ab_report_input ri;
	struct cmd_output out;
	const char *rules_path = NULL;
	char *text = NULL, created[32];
	size_t len;
	json_t *doc = NULL;
	int c, err, rc;

	cmd_output_init(&out);
	memset(&a, 0, sizeof(a));
	memset(&in, 0, sizeof(in));
	out.quiet = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			rules_path = optarg;
			break;
		case 'M':
			opt.metric = optarg;
			break;
		case 'u':
			opt.unit = optarg;
			break;
		case 'b':
			if (!strcmp(optarg, "lower"))
				opt.better = AB_LOWER_IS_BETTER;
			else if (!strcmp(optarg, "higher"))
				opt.better = AB_HIGHER_IS_BETTER;
			else
				return cmd_usage("analyze", "--better: expected lower or higher, got '%s'", optarg);
			break;
		case 'h':
			return cmd_help("analyze");
		default:
			switch (cmd_output_option(&out, "analyze", c, optarg)) {
			case 1:
				break;
			case 0:
				return cmd_bad_option("analyze");
			default:
				return AB_EXIT_USAGE;
			}
			break;
		}
	}
	if (optind != argc - 1)
		return cmd_usage("analyze", "expected one file of pairs (TSV or CSV)");
	if ((err = ab_read_file(&text, &len, argv[optind])) == AB_ENOTFOUND)
		return cmd_fail(ab_error_set(AB_EINVALID, "'%s': no such file; check the path", argv[optind]));
	if (err < 0)
		return cmd_fail(err);
	if ((err = ab_pairs_file_read(&in, argv[optind], text, len, &opt)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	free(text);
	text = NULL;
	if (rules_path) {
		if ((err = ab_experiment_read(&text, &len, rules_path)) < 0 ||
		    (err = ab_experiment_parse_rules(&in.exp, rules_path, text, len)) < 0) {
			rc = cmd_fail(err == AB_ENOTFOUND ? AB_EINVALID : err);
			goto out;
		}
	}
	if (!rules_path)
		out.inconclusive_exit = AB_EXIT_INCONCLUSIVE;  /* nothing to gate: exit 0 below */
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
	rc = cmd_emit_reports(&out, &in.exp, in.samples, in.nsamples, doc, a.verdict);
	if (!rules_path && rc >= 0 && rc <= AB_EXIT_INVALID)
		rc = a.verdict == AB_INVALID ? AB_EXIT_INVALID : 0;
out:
	json_decref(doc);
	ab_analysis_release(&a);
	ab_pairs_file_release(&in);
	free(text);
	return rc;
}
