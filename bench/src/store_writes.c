/* store_writes.c - abtool's store on its own: ab_store_sample_put in a
 * loop, as ab_run_samples calls it (one transaction per sample, WAL,
 * synchronous=NORMAL), without running any process. Built by
 * bench/store.sh against the layer libraries build/libabtool_*.a.
 *
 *   store_writes plan DB N   create a run of N planned samples (1 row)
 *   store_writes put DB N    store N finished samples into run 1, timed;
 *                            prints samples=, seconds=, samples_per_second=
 */
#include "error.h"
#include "plan.h"
#include "sample.h"
#include "store.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const metric_names[] = { "wall_ns", "user_ns", "sys_ns", "cpu_ns",
					    "maxrss_bytes" };

static int plan(struct ab_store *store, size_t n)
{
	struct ab_run_meta m;
	struct ab_plan p;
	char *rows[] = { "{\"n\":1}", NULL };
	int err;

	memset(&m, 0, sizeof(m));
	if ((err = ab_plan_build(&p, 1, n / 2, 0, 1)) < 0)
		return err;
	m.kind = "ab";
	m.experiment_hash = "bench-store-writes";
	m.experiment_name = "bench-store-writes";
	m.experiment_path = "exp.yaml";
	m.experiment_text = "name: bench-store-writes\n";
	m.design = "abtool-bench";
	m.repo = ".";
	m.parent_oid = "1111111111111111111111111111111111111111";
	m.candidate_oid = "2222222222222222222222222222222222222222";
	m.exact_parent = 1;
	m.seed = 1;
	m.pairs = (int)(n / 2);
	m.row_params_json = rows;
	m.nrows = 1;
	err = ab_store_run_create(store, &m, &p);
	ab_plan_release(&p);
	return err;
}

/* What a /bin/true sample looks like when stored. */
static int put(struct ab_store *store, size_t n)
{
	double metrics[5];
	int64_t t0, t1;
	size_t i;
	int err = 0;

	t0 = ab_now_ns();
	for (i = 0; i < n && !err; i++) {
		struct ab_sample s;

		memset(&s, 0, sizeof(s));
		s.entry.seq = (uint32_t)i;
		s.entry.side = (enum ab_side)(i % 2);
		s.status = AB_SAMPLE_DONE;
		s.started_unix = (int64_t)time(NULL);
		s.wall_ns = 400000 + (int64_t)(i * 7919 % 100000);
		s.user_ns = 300000;
		s.sys_ns = 0;
		s.maxrss_bytes = 1015808;
		s.minflt = 73;
		s.nvcsw = 1;
		metrics[0] = (double)s.wall_ns;
		metrics[1] = (double)s.user_ns;
		metrics[2] = (double)s.sys_ns;
		metrics[3] = (double)(s.user_ns + s.sys_ns);
		metrics[4] = (double)s.maxrss_bytes;
		s.metrics = metrics;
		s.nmetrics = 5;
		err = ab_store_sample_put(store, 1, &s, metric_names);
	}
	t1 = ab_now_ns();
	if (!err)
		printf("samples=%zu seconds=%.6f samples_per_second=%.0f\n", n, (double)(t1 - t0) / 1e9,
		       (double)n / ((double)(t1 - t0) / 1e9));
	return err;
}

int main(int argc, char **argv)
{
	struct ab_store *store;
	size_t n;
	int err;

	if (argc != 4 || (strcmp(argv[1], "plan") && strcmp(argv[1], "put"))) {
		fprintf(stderr, "usage: store_writes plan|put DB N\n");
		return 64;
	}
	n = strtoul(argv[3], NULL, 10);
	if ((err = ab_store_open(&store, argv[2])) < 0) {
		fprintf(stderr, "store_writes: %s\n", ab_error_last());
		return 1;
	}
	err = !strcmp(argv[1], "plan") ? plan(store, n) : put(store, n);
	if (err < 0)
		fprintf(stderr, "store_writes: %s\n", ab_error_last());
	ab_store_close(store);
	return err < 0;
}
