/* fuzz_rules.c - bytes as a rules file evaluated over synthetic samples.
 *
 * Input: RULES '\0' SHAPE SAMPLES. RULES (YAML cannot hold a NUL) goes to
 * ab_experiment_parse_rules on a fixed matrix of 6 rows (lanes x mode,
 * with scaling and a higher-is-better metric); when it parses,
 * ab_analysis_run decides on samples made from the rest, so that the
 * predicates, selectors, Holm's step and the verdict all run.
 *
 * SHAPE (3 bytes, 0 when missing): pairs (1..16) and warmups, the plan
 * seed, the candidate's ratio, a truncated run, integrity reasons and
 * unmet environment conditions. Each SAMPLES byte then shapes one sample
 * of the plan: most values give a value near the row's base (so ties and
 * near-ties happen), the top ones a timeout, a failure, a missing metric,
 * a zero, another checksum, an unrun or superseded sample, an extreme
 * value. When the bytes run out, samples follow a fixed pattern. */
#include "fuzz.h"
#include "analysis.h"
#include "rules.h"
#include "plan.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char experiment_fmt[] =
	"name: fuzz\n"
	"benchmark: ./bench {lanes} {mode}\n"
	"checksum: {regex: 'checksum=(\\S+)'}\n"
	"matrix: {lanes: [1, 2, 4], mode: [a, b]}\n"
	"metrics:\n"
	"  ops: {regex: 'ops=(\\S+)', unit: ops/s, better: higher}\n"
	"scaling: {parameter: lanes, work: per_lane}\n"
	"pairs: %u\n"
	"warmup: %u\n";

struct bytes {
	const uint8_t *p;
	size_t n, i;
};

static int next(struct bytes *b, int fallback)
{
	return b->i < b->n ? b->p[b->i++] : fallback;
}

static void fill(struct ab_sample *s, const struct ab_experiment *exp, const struct ab_plan_entry *e,
		 int kind, double ratio)
{
	double lanes = (double)(1u << (e->row / 2)), v;
	size_t m;

	memset(s, 0, sizeof(*s));
	s->entry = *e;
	s->status = AB_SAMPLE_DONE;
	s->started_unix = 1764480000 + e->seq;
	v = 1e8 / lanes * (1 + (double)(kind % 32 - 16) / 256) * (e->side ? ratio : 1);
	s->checksum = ab_xasprintf("%u", e->row * 7919u);
	if (kind >= 224 && kind < 232) {
		s->exit_code = -1;
		s->signal = 9;
		s->timed_out = 1;
		s->error = ab_xstrdup("timed out");
	} else if (kind < 236 && kind >= 232) {
		s->exit_code = 1;
		s->error = ab_xstrdup("exit 1");
	} else if (kind >= 240 && kind < 244) {
		v = kind & 1 ? 0 : -v;
	} else if (kind >= 244 && kind < 248) {
		free(s->checksum);
		s->checksum = ab_xstrdup("other");
	} else if (kind >= 248 && kind < 252) {
		s->status = AB_SAMPLE_PLANNED;
	} else if (kind >= 252 && kind < 254) {
		s->status = AB_SAMPLE_SUPERSEDED;
	} else if (kind == 254) {
		v = 1e300;
	} else if (kind == 255) {
		free(s->checksum);
		s->checksum = NULL;
		s->flags = AB_FLAG_NO_CHECKSUM;
	}
	s->wall_ns = fabs(v) < 9e18 ? (int64_t)v : INT64_MAX;
	s->user_ns = s->wall_ns / 10 * 9;
	s->sys_ns = s->wall_ns / 10;
	s->maxrss_bytes = 1 << 20 | (kind & 3);
	s->nmetrics = exp->nmetrics;
	s->metrics = ab_xmalloc(s->nmetrics * sizeof(double));
	for (m = 0; m < s->nmetrics; m++) {
		const char *name = exp->metrics[m].name;

		if (!strcmp(name, "maxrss_bytes"))
			s->metrics[m] = (double)s->maxrss_bytes;
		else if (!strcmp(name, "ops"))
			s->metrics[m] = kind >= 236 && kind < 240 ? NAN : 1e17 / v;
		else if (!strcmp(name, "sys_ns"))
			s->metrics[m] = v / 10;
		else
			s->metrics[m] = v;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t rules_len = nul ? (size_t)(nul - data) : size, i, n;
	struct bytes b = { nul ? nul + 1 : data + size, nul ? size - rules_len - 1 : 0, 0 };
	int shape = next(&b, 0x07), seed = next(&b, 0), tune = next(&b, 0x40);
	unsigned pairs = 1 + (unsigned)(shape & 15), warmup = (unsigned)(shape >> 4 & 1);
	double ratio = 0.8 + 0.4 * (double)(tune & 63) / 63;
	char *integrity[] = { "build of the candidate failed", NULL };
	char *unmet[] = { "governor is powersave, not performance", NULL };
	struct ab_experiment exp;
	struct ab_analysis a;
	struct ab_sample *s;
	struct ab_plan plan;
	char text[sizeof(experiment_fmt) + 32];

	snprintf(text, sizeof(text), experiment_fmt, pairs, warmup);
	if (ab_experiment_parse(&exp, "/fuzz/fixed.yaml", text, strlen(text)) != 0)
		abort(); /* the harness is broken, not the input */
	if (ab_experiment_parse_rules(&exp, "/fuzz/rules.yaml", (const char *)data, rules_len) != 0)
		goto out_exp;
	if (ab_plan_build(&plan, ab_experiment_nrows(&exp), pairs, warmup, (uint64_t)seed) != 0)
		abort();
	/* A run stopped early has only a prefix of its plan. */
	n = shape & 0x20 ? plan.n - plan.n * (size_t)(tune >> 6) / 4 : plan.n;
	s = ab_xcalloc(n, sizeof(*s));
	for (i = 0; i < n; i++)
		fill(&s[i], &exp, &plan.entries[i], next(&b, (int)(i * 29 + 7) % 224), ratio);
	ab_analysis_run(&a, &exp, s, n);
	ab_rules_evaluate(&a, shape & 0x40 ? integrity : NULL, shape & 0x80 ? unmet : NULL);
	ab_analysis_release(&a);
	ab_samples_free(s, n);
	ab_plan_release(&plan);
out_exp:
	ab_experiment_release(&exp);
	return 0;
}
