/* fuzz_hyperfine.c - bytes as hyperfine's --export-json given to `abtool
 * analyze`: the JSON test (ab_hyperfine_is_export), the reader
 * (ab_hyperfine_read, rows bounded at 64 so that an input costs little),
 * and, when it reads, the experiment its matrix makes, fixed rules over
 * it and the report document, as cmd_analyze.c does. */
#include "fuzz.h"
#include "config.h"
#include "hyperfine.h"

#include <stdlib.h>
#include <string.h>

static const char rules[] =
	"accept:\n"
	"  - name: gain\n"
	"    faster_by: 5%\n"
	"  - name: no regression\n"
	"    no_regression: 2%\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ab_hyperfine h;
	struct ab_experiment exp;
	const char *text = (const char *)data;
	char *matrix, *yaml;
	json_t *doc;

	(void)ab_hyperfine_is_export("/fuzz/runs.txt", text, size);
	if (ab_hyperfine_read(&h, "/fuzz/runs.json", text, size, 64) == 0) {
		matrix = json_dumps(h.matrix, JSON_COMPACT);
		yaml = malloc(strlen(matrix ? matrix : "{}") + 64);
		if (!yaml)
			abort();
		sprintf(yaml, "name: hyperfine export\nbenchmark: hyperfine\nmatrix: %s\n", matrix ? matrix : "{}");
		if (ab_experiment_parse(&exp, "hyperfine export", yaml, strlen(yaml)) == 0) {
			if (ab_experiment_parse_rules(&exp, "/fuzz/rules.yaml", rules, strlen(rules)) != 0)
				abort();  /* rules without where: fit every matrix */
			doc = ab_hyperfine_document(&h, "/fuzz/runs.json", &exp, "2026-01-01T00:00:00Z");
			if (!doc)
				abort();
			json_decref(doc);
		}
		ab_experiment_release(&exp);
		free(yaml);
		free(matrix);
	}
	ab_hyperfine_release(&h);
	return 0;
}
