/* cmd_calibrate.c - `abtool calibrate EXP.yaml`: an A/A run. Both sides
 * are the experiment's parent revision, built twice into separate trees,
 * measured exactly as `abtool run` would. Every "faster" or "slower"
 * outcome is then false: per row abtool reports the spread of the log
 * ratios, the rate of false outcomes in blocks of the planned pair count
 * with exact binomial intervals, and the pairs each rule's margin needs.
 * The result is stored; `check` and `run` of the same experiment file say
 * whether the planned pairs are enough. */
#include "cmd.h"
#include "calibrate.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <unistd.h>

const struct cmd_option cmd_calibrate_options[] = {
	CMD_REVISION_OPTIONS,
	CMD_PLAN_OPTIONS(5, "pairs per row", "4 x the experiment's pairs, four blocks"),
	CMD_PIN_OPTIONS,  /* both sides are built at the pinned parent */
	CMD_ROW_OPTION,
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 'v'),
	CMD_OPTIONS_END,
};

/* Four blocks of the planned size unless told otherwise. */
static int loaded(struct cmd_measure *m)
{
	struct ab_run_options *opt = &m->args->run;
	int pairs = (int)ab_experiment_first_look(&m->exp), quiet = m->args->out.quiet;

	if (!opt->pairs)
		opt->pairs = 4 * pairs;
	else if (!quiet && opt->pairs < 2 * pairs)
		cmd_warn("--pairs %d makes %d block%s of the experiment's %d pairs: the false-outcome rate of "
			 "so few blocks says little; give --pairs %d or more", opt->pairs, opt->pairs / pairs,
			 opt->pairs / pairs == 1 ? "" : "s", pairs, 4 * pairs);
	else if (!quiet && opt->pairs % pairs)
		cmd_warn("--pairs %d is not a multiple of the experiment's %d pairs: the last %d pairs of each "
			 "row form no block (they count in the rows table, not in the false-outcome rates)",
			 opt->pairs, pairs, opt->pairs % pairs);
	return 0;
}

/* The sequential plan beside each fixed pairs-needed figure (the report's
 * table gives the fixed ones), on stderr. */
static void finished(struct cmd_measure *m, const json_t *doc)
{
	char **lines, **l, *metric;

	if (m->args->out.quiet)
		return;
	lines = ab_calibrate_sequential_lines(json_object_get(doc, "calibration"));
	for (l = lines; l && *l; l++)
		fprintf(stderr, "abtool: %s\n", *l);
	ab_strv_free(lines);
	if ((metric = ab_calibrate_metric_text(json_object_get(doc, "calibration"))))
		fprintf(stderr, "abtool: metric: %s\n", metric);
	free(metric);
}

int cmd_calibrate(int argc, char **argv)
{
	struct cmd_args args;
	struct cmd_measure m = {0};
	int rc;

	cmd_args_init(&args, "calibrate", NULL, NULL);
	args.run.aa = 1;
	if ((rc = cmd_parse_options(&args, cmd_calibrate_options, argc, argv)) == CMD_GO_ON) {
		if (optind != argc - 1) {
			rc = cmd_usage("calibrate", "expected one experiment file");
		} else {
			m.args = &args;
			m.exp_path = argv[optind];
			m.loaded = loaded;
			m.finished = finished;
			rc = cmd_measure(&m);
		}
	}
	cmd_args_release(&args);
	return rc;
}
