/* stopping.c - when a sequential plan stops a row (stopping.h). */
#include "stopping.h"
#include "bisect.h"
#include "predicates.h"
#include "rules.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Whether the rule sets a predicate that needs `scaling:` (its rows are
 * paired with their base rows by sweep). */
static int uses_scaling(const struct ab_rule *rule)
{
	const struct ab_predicate *p;

	for (p = ab_predicates; p->name; p++)
		if (p->needs_scaling && ab_predicate_is_set(p, rule))
			return 1;
	return 0;
}

void ab_stopping_decided(const struct ab_analysis *a, uint8_t *decided)
{
	const struct ab_experiment *exp = a->exp;
	size_t i, j, r;
	int changed = 1;

	/* a bisect step stops on the bisect's judgement, not on the rules */
	if (exp->step.active) {
		ab_bisect_rows_decided(a, &exp->step, decided);
		return;
	}
	for (r = 0; r < a->nrows; r++)
		decided[r] = 1;
	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule_result *res = &a->rules[i];
		for (j = 0; !res->not_evaluated && j < res->nrows; j++)
			if (res->rows[j].inferential && res->rows[j].decided == AB_INCONCLUSIVE)
				decided[res->rows[j].row] = 0;
	}
	/* A scaling rule's rows and their base rows run on together while
	 * any of them is undecided; rules may share rows: to a fixed point. */
	while (changed) {
		changed = 0;
		for (i = 0; i < exp->nrules; i++) {
			const struct ab_rule_result *res = &a->rules[i];
			int open = 0;
			if (res->not_evaluated || !uses_scaling(&exp->rules[i]))
				continue;
			for (j = 0; j < res->nrows && !open; j++) {
				long base = a->rows[res->rows[j].row].scaling_change.base;
				open = !decided[res->rows[j].row] || (base >= 0 && !decided[base]);
			}
			for (j = 0; open && j < res->nrows; j++) {
				long base = a->rows[res->rows[j].row].scaling_change.base;
				changed |= decided[res->rows[j].row] || (base >= 0 && decided[base]);
				decided[res->rows[j].row] = 0;
				if (base >= 0)
					decided[base] = 0;
			}
		}
	}
}

size_t ab_stopping_bucket(const struct ab_seq_plan *plan, const struct ab_plan_entry *e)
{
	size_t k;

	if (e->pair < 0)
		return 0;
	for (k = 0; k + 1 < plan->nlooks && (size_t)e->pair >= plan->looks[k]; k++)
		;
	return k;
}

size_t ab_stopping_replay(const struct ab_experiment *exp, struct ab_sample *samples, size_t n)
{
	enum ab_sample_status *kept = ab_xmalloc((n ? n : 1) * sizeof(*kept));
	size_t nrows = ab_experiment_nrows(exp), i, k, stopped = 0;
	uint8_t *decided = ab_xcalloc(nrows ? nrows : 1, 1), *gone = ab_xcalloc(nrows ? nrows : 1, 1);

	/* Hide every pair beyond the first look, then bring back one look at
	 * a time the pairs of the rows still running. */
	for (i = 0; i < n; i++) {
		kept[i] = samples[i].status;
		if (ab_stopping_bucket(&exp->seq, &samples[i].entry) > 0 && kept[i] == AB_SAMPLE_DONE)
			samples[i].status = AB_SAMPLE_PLANNED;
	}
	for (k = 0; k < exp->seq.nlooks; k++) {
		struct ab_analysis a;

		for (i = 0; k > 0 && i < n; i++)
			if (ab_stopping_bucket(&exp->seq, &samples[i].entry) == k && samples[i].entry.row < nrows &&
			    !gone[samples[i].entry.row])
				samples[i].status = kept[i];
		if (k + 1 == exp->seq.nlooks)
			break;
		ab_analysis_run(&a, exp, samples, n);
		ab_rules_evaluate(&a, NULL, NULL);
		ab_stopping_decided(&a, decided);
		ab_analysis_release(&a);
		for (i = 0; i < nrows; i++)
			gone[i] |= decided[i];
	}
	for (i = 0; i < n; i++)
		if (samples[i].status == AB_SAMPLE_PLANNED && kept[i] == AB_SAMPLE_DONE) {
			samples[i].status = AB_SAMPLE_STOPPED;
			stopped++;
		}
	free(kept);
	free(decided);
	free(gone);
	return stopped;
}
