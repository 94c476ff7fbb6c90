/* run.c - the pipeline's driver (see run.h): what every phase uses; the
 * phases are run_inputs.c, run_build.c, run_start.c, run_samples.c and
 * run_finish.c. */
#include "run.h"
#include "measure.h"
#include "env.h"
#include "error.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char **ab_run_metric_names(const struct ab_experiment *exp)
{
	const char **names = ab_xcalloc(exp->nmetrics + 1, sizeof(*names));
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		names[i] = exp->metrics[i].name;
	return names;
}

int ab_run_load_samples(struct ab_run *run)
{
	const char **names = ab_run_metric_names(run->exp);
	int err;

	ab_samples_free(run->samples, run->nsamples);
	run->samples = NULL;
	run->nsamples = 0;
	err = ab_store_samples_load(run->store, run->meta.id, names, run->exp->nmetrics,
				    &run->samples, &run->nsamples);
	free(names);
	return err;
}

void ab_run_release(struct ab_run *run)
{
	ab_revs_release(&run->revs);
	for (size_t i = 0; i < run->ndeps; i++)
		ab_revs_release(&run->deps[i]);
	free(run->deps);
	json_decref(run->overlay);
	json_decref(run->inputs);
	ab_build_release(&run->builds[0]);
	ab_build_release(&run->builds[1]);
	ab_strv_free(run->integrity);
	ab_strv_free(run->env_unmet);
	json_decref(run->host);
	json_decref(run->options);
	ab_samples_free(run->samples, run->nsamples);
	ab_extract_free(run->extractor);
	ab_measure_free(run->measure);
	free(run->cache_dir);
	free(run->identity);
	free(run->host_change);
	json_decref(run->host_started);
	memset(run, 0, sizeof(*run));
}
