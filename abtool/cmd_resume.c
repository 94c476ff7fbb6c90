/* cmd_resume.c - `abtool resume RUN`: finish an interrupted run. Re-runs
 * any half-finished pair whole, runs the rest of the stored plan with the
 * same builds (rebuilding only what the cache lost) and decides the
 * verdict the stored samples give. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

int cmd_resume(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"store", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		CMD_OUTPUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct cmd_output out;
	struct ab_experiment exp;
	struct ab_store *store = NULL;
	struct ab_run run;
	struct ab_analysis analysis;
	struct ab_run_events events;
	const char *store_flag = NULL;
	json_t *doc = NULL;
	int64_t run_id;
	int c, err, rc;

	cmd_output_init(&out);
	memset(&run, 0, sizeof(run));
	memset(&exp, 0, sizeof(exp));
	memset(&analysis, 0, sizeof(analysis));
	optind = 1;
	while ((c = getopt_long(argc, argv, "qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'S':
			store_flag = optarg;
			break;
		case 'h':
			return cmd_help("resume");
		default:
			switch (cmd_output_option(&out, "resume", c, optarg)) {
			case 1:
				break;
			case 0:
				return cmd_bad_option("resume");
			default:
				return AB_EXIT_USAGE;
			}
			break;
		}
	}
	if (optind != argc - 1)
		return cmd_usage("resume", "expected one run id");
	out.progress = !out.quiet && isatty(STDERR_FILENO);
	if ((err = cmd_open_store(&store, store_flag, NULL)) < 0)
		return cmd_fail(err);
	if ((err = ab_store_run_resolve(store, argv[optind], &run_id)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	cmd_install_signals();
	events = cmd_run_events(&out);
	out.run = &run;
	err = ab_run_resume(&run, &exp, store, run_id, &events);
	if (err == 0 && run.host_change)
		cmd_warn("the host changed since run %lld started (%s): samples from two machines are "
			 "being mixed", (long long)run_id, run.host_change);
	if (err == 0)
		err = ab_run_samples(&run);
	rc = cmd_finish_run(&out, &run, err, &analysis, &doc);
	/* as abtool calibrate: a calibration decides nothing, so it succeeds
	 * unless it is invalid or failed */
	if (doc && run.kind && !strcmp(run.kind, "calibrate") && analysis.verdict != AB_INVALID &&
	    rc <= AB_EXIT_INCONCLUSIVE)
		rc = 0;
out:
	json_decref(doc);
	ab_analysis_release(&analysis);
	ab_run_release(&run);
	ab_experiment_release(&exp);
	ab_store_close(store);
	return rc;
}
