/* rules.h - acceptance rules over an analysis: each rule's outcome on the
 * rows it selects, and the verdict (docs/statistics.md;
 * docs/rules.md). The predicates are those of predicates.h. Run after
 * ab_analysis_run, which computes what the rules decide on. */
#ifndef AB_RULES_H
#define AB_RULES_H

#include "analysis.h"

/*
 * Evaluate the experiment's rules over the finished row analysis `a` and
 * set a->rules, a->verdict, a->reasons and a->rule_warnings. Integrity
 * failures that happened before the samples (a failed build) are passed
 * as `integrity` (NULL-terminated reasons, borrowed), which make the
 * verdict invalid. Unmet `environment.require` conditions (`unmet`,
 * borrowed, or NULL) turn any other verdict into inconclusive: a noisy
 * host does not decide a gate. What it sets is released by
 * ab_analysis_release. Never fails.
 */
void ab_rules_evaluate(struct ab_analysis *a, char *const *integrity, char *const *unmet);

#endif
