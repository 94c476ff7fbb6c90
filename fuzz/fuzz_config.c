/* fuzz_config.c - bytes as an experiment file (ab_experiment_parse), and
 * the same bytes as a rules file over a fixed experiment
 * (ab_experiment_parse_rules, as `abtool analyze --accept` reads it).
 * When a file parses, the row helpers, placeholder expansion, command
 * display and row policies run on it too, as `abtool check` would. */
#include "fuzz.h"
#include "config.h"

#include <stdlib.h>
#include <string.h>

/* Rows beyond this are not walked one by one (parsing allows 10^6). */
#define WALK_ROWS 64

static const char fixed_experiment[] =
	"name: fuzz\n"
	"benchmark: [./bench, '{workload}', '{lanes}']\n"
	"checksum: {regex: 'checksum=(\\S+)'}\n"
	"matrix: {workload: [churn, scan], lanes: [1, 2, 4, 8]}\n"
	"metrics:\n"
	"  ops: {regex: 'ops=(\\S+)', unit: ops/s, better: higher}\n"
	"scaling: {parameter: lanes, work: per_lane}\n"
	"pairs: 8\n";

static void walk(const struct ab_experiment *exp)
{
	size_t nrows = ab_experiment_nrows(exp), r, p;
	struct ab_row_policy policy;
	struct ab_command cmd;
	char *s;

	s = ab_command_display(&exp->benchmark);
	free(s);
	s = ab_command_display(&exp->build);
	free(s);
	for (r = 0; r < nrows && r < WALK_ROWS; r++) {
		for (p = 0; p < exp->nparams; p++)
			(void)ab_experiment_row_value(exp, r, p);
		ab_experiment_row_policy(exp, r, &policy);
		if (ab_command_expand(&cmd, &exp->benchmark, exp, r) == 0)
			ab_command_release(&cmd);
		if (ab_command_expand(&cmd, &exp->build, exp, r) == 0)
			ab_command_release(&cmd);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ab_experiment exp;
	const char *text = (const char *)data;

	if (ab_experiment_parse(&exp, "/fuzz/exp.yaml", text, size) == 0)
		walk(&exp);
	ab_experiment_release(&exp);

	if (ab_experiment_parse(&exp, "/fuzz/fixed.yaml", fixed_experiment,
				strlen(fixed_experiment)) != 0)
		abort(); /* the harness is broken, not the input */
	if (ab_experiment_parse_rules(&exp, "/fuzz/rules.yaml", text, size) == 0)
		walk(&exp);
	ab_experiment_release(&exp);
	return 0;
}
