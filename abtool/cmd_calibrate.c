/* cmd_calibrate.c - `abtool calibrate EXP.yaml`: an A/A run. Both sides
 * are the experiment's parent revision, built twice into separate trees,
 * measured exactly as `abtool run` would. Every "faster" or "slower"
 * outcome is then false: per row abtool reports the spread of the log
 * ratios, the rate of false outcomes in blocks of the planned pair count
 * with exact binomial intervals, and the pairs each rule's margin needs.
 * The result is stored; `check` and `run` of the same experiment file say
 * whether the planned pairs are enough. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"candidate", required_argument, NULL, 'c'},
		{"parent", required_argument, NULL, 'P'},
		{"pairs", required_argument, NULL, 'p'},
		{"seed", required_argument, NULL, 's'},
		{"dependency", required_argument, NULL, 'd'},
		{"overlay-from", required_argument, NULL, 'O'},
		{"store", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		CMD_OUTPUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct ab_run_options opt;
	struct cmd_output out;
	struct ab_experiment exp;
	struct ab_store *store = NULL;
	struct ab_run run;
	struct ab_analysis analysis;
	struct ab_run_events events;
	const char *store_flag = NULL;
	struct cmd_dep_pins pins = {0};
	json_t *doc = NULL;
	int64_t v;
	int c, err, rc;

	memset(&opt, 0, sizeof(opt));
	cmd_output_init(&out);
	memset(&run, 0, sizeof(run));
	memset(&analysis, 0, sizeof(analysis));
	opt.aa = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.candidate = optarg;
			break;
		case 'P':
			opt.parent = optarg;
			break;
		case 'p':
			if (ab_parse_int64(&v, optarg) < 0 || v < 5 || v > 100000) {
				rc = cmd_usage("calibrate", "--pairs: expected an integer from 5 to 100000, got '%s'",
					       optarg);
				goto out_pins;
			}
			opt.pairs = (int)v;
			break;
		case 's':
			if (ab_parse_int64(&v, optarg) < 0 || v < 0) {
				rc = cmd_usage("calibrate", "--seed: expected a non-negative integer, got '%s'", optarg);
				goto out_pins;
			}
			opt.have_seed = 1;
			opt.seed = (uint64_t)v;
			break;
		case 'S':
			store_flag = optarg;
			break;
		case 'd':  /* both sides are built at the pinned parent */
		case 'O':
			if (cmd_pin_option(&pins, &opt, "calibrate", c, optarg) < 0) {
				rc = AB_EXIT_USAGE;
				goto out_pins;
			}
			break;
		case 'h':
			rc = cmd_help("calibrate");
			goto out_pins;
		default:
			switch (cmd_output_option(&out, "calibrate", c, optarg)) {
			case 1:
				break;
			case 0:
				rc = cmd_bad_option("calibrate");
				goto out_pins;
			default:
				rc = AB_EXIT_USAGE;
				goto out_pins;
			}
			break;
		}
	}
	if (optind != argc - 1) {
		rc = cmd_usage("calibrate", "expected one experiment file");
		goto out_pins;
	}
	opt.dep_pins = pins.v;
	opt.ndep_pins = pins.n;
	out.progress = !out.quiet && isatty(STDERR_FILENO);
	if ((err = ab_experiment_load(&exp, argv[optind])) < 0) {
		rc = cmd_fail(err);
		ab_experiment_release(&exp);
		goto out_pins;
	}
	/* Four blocks of the planned size unless told otherwise. */
	if (!opt.pairs)
		opt.pairs = 4 * exp.pairs;
	else if (!out.quiet && opt.pairs < 2 * exp.pairs)
		cmd_warn("--pairs %d makes %d block%s of the experiment's %d pairs: the false-outcome rate of "
			 "so few blocks says little; give --pairs %d or more", opt.pairs, opt.pairs / exp.pairs,
			 opt.pairs / exp.pairs == 1 ? "" : "s", exp.pairs, 4 * exp.pairs);
	else if (!out.quiet && opt.pairs % exp.pairs)
		cmd_warn("--pairs %d is not a multiple of the experiment's %d pairs: the last %d pairs of each "
			 "row form no block (they count in the rows table, not in the false-outcome rates)",
			 opt.pairs, exp.pairs, opt.pairs % exp.pairs);
	cmd_install_signals();
	events = cmd_run_events(&out);
	out.run = &run;
	if ((err = cmd_open_store(&store, store_flag, exp.repo)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	err = ab_run_start(&run, &exp, store, &opt, &events);
	if (err == 0)
		err = ab_run_samples(&run);
	rc = cmd_finish_run(&out, &run, err, &analysis, &doc);
	/* a calibration decides nothing: success unless it is invalid or failed */
	if (doc && analysis.verdict != AB_INVALID && rc <= AB_EXIT_INCONCLUSIVE)
		rc = 0;
out:
	json_decref(doc);
	ab_analysis_release(&analysis);
	ab_run_release(&run);
	ab_store_close(store);
	ab_experiment_release(&exp);
out_pins:
	cmd_dep_pins_release(&pins);
	return rc;
}
