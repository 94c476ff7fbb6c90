/* fuzz_analyze.c - bytes as the pairs file of `abtool analyze`: read as
 * TSV (lower is better) and as CSV (higher is better, in ns), and when
 * they read, decided on by fixed rules as `--accept` would. */
#include "fuzz.h"
#include "analysis.h"
#include "pairs_file.h"
#include "rules.h"

#include <stdlib.h>
#include <string.h>

static const char rules[] =
	"accept:\n"
	"  - name: gain\n"
	"    faster_by: 5%\n"
	"    min_pair_wins: 60%\n"
	"  - name: no regression\n"
	"    no_regression: 2%\n"
	"    max_rsd: 10%\n"
	"    max_ci_width: 20%\n";

static void one(const char *path, const uint8_t *data, size_t size,
		const struct ab_pairs_file_options *opt)
{
	struct ab_pairs_file in;
	struct ab_analysis a;

	if (ab_pairs_file_read(&in, path, (const char *)data, size, opt) == 0) {
		if (ab_experiment_parse_rules(&in.exp, "/fuzz/rules.yaml", rules, strlen(rules)) != 0)
			abort(); /* rules without where: fit every matrix */
		ab_analysis_run(&a, &in.exp, in.samples, in.nsamples);
		ab_rules_evaluate(&a, NULL, NULL);
		ab_analysis_release(&a);
	}
	ab_pairs_file_release(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ab_pairs_file_options tsv = { "value", "", AB_LOWER_IS_BETTER, 0, 0 };
	static const struct ab_pairs_file_options csv = { "ops", "ns", AB_HIGHER_IS_BETTER, 0, 0 };

	one("/fuzz/pairs.tsv", data, size, &tsv);
	one("/fuzz/pairs.csv", data, size, &csv);
	return 0;
}
