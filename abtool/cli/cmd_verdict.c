/* cmd_verdict.c - `abtool verdict --group ID`: the shards of a group
 * (`abtool run --shard K/N --group ID`, measured on several hosts into one
 * store) decided together: their stored samples go through one analysis
 * and one evaluation of the rules, with the error control over every row,
 * and the reports say which host measured each row (docs/ci.md,
 * "Sharding"). The exit code gates as run's does (0 accepted, 1 rejected,
 * 2 inconclusive, 3 invalid); a group with a missing or unfinished shard
 * is incomplete: exit 2, never decided. Shards of different commits,
 * experiment texts or abtool versions are refused (64). Nothing is
 * stored. */
#include "cmd.h"
#include "error.h"
#include "report.h"
#include "shards.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const struct cmd_option cmd_verdict_options[] = {
	{"group", 'g', "ID", "the group the shards were run under (run --shard K/N --group ID)", NULL,
	 CMD_OWN, 'g', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 0),
	CMD_OPTIONS_END,
};

int cmd_verdict(int argc, char **argv)
{
	struct ab_shards_group g;
	struct ab_shards_decision d;
	struct ab_store *store = NULL;
	struct cmd_args args;
	const char *id = NULL;
	char *const *line;
	int err, rc;

	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	cmd_args_init(&args, "verdict", cmd_own_string, &id);
	if ((rc = cmd_parse_options(&args, cmd_verdict_options, argc, argv)) != CMD_GO_ON)
		goto out;
	if (optind != argc || !id || !*id) {
		rc = cmd_usage("verdict", "expected --group ID (the group the shards were run under)");
		goto out;
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_READ)) < 0 ||
	    (err = ab_shards_group_load(&g, store, id)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (g.missing) {
		fprintf(stderr, "abtool: group '%s' is incomplete, not decided: ", id);
		for (line = g.missing; *line; line++)
			fprintf(stderr, "%s%s", line == g.missing ? "" : "; ", *line);
		fprintf(stderr, "\n");
		rc = AB_EXIT_INCONCLUSIVE;
		goto out;
	}
	if ((err = ab_shards_decide(&d, &g, store)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (d.incomplete) {
		fprintf(stderr, "abtool: group '%s' is incomplete, not decided: ", id);
		for (line = d.incomplete; *line; line++)
			fprintf(stderr, "%s%s", line == d.incomplete ? "" : "; ", *line);
		fprintf(stderr, "; the store lacks the samples of %zu row%s of the plan: run the shards again "
			"under a new --group\n", ab_strv_len(d.incomplete), ab_strv_len(d.incomplete) == 1 ? "" : "s");
		rc = AB_EXIT_INCONCLUSIVE;
		goto out;
	}
	rc = cmd_emit_reports(&args.out, &d.exp, d.samples, d.nsamples, d.doc, d.analysis.verdict);
out:
	ab_shards_decision_release(&d);
	ab_shards_group_release(&g);
	if (store)
		ab_store_close(store);
	cmd_args_release(&args);
	return rc;
}
