/* store_search.h - what the full-text search reads of a run's verdict
 * reasons: what distinguishes the run, not the explanations abtool writes
 * into every reason (docs/history.md, "Search"). */
#ifndef AB_STORE_SEARCH_H
#define AB_STORE_SEARCH_H

#include <stdint.h>

struct ab_store;

/*
 * The searched text of a run whose `reasons` is the stored JSON array of
 * its verdict's reasons, one line per part; `rules` (NULL-terminated, may
 * be NULL) are the names of the run's rules. A rule's reason
 * ("RULE: ROW: HEAD: FINDINGS: OUTCOME; ROW: ...", the grammar of
 * abtool/verdict/rules.c) gives its rule's name, each row's label and
 * metric, and the findings that carry the row's outcome (in a row whose
 * findings differ, those marked with it), each without the remarks in
 * parentheses and brackets (what a bound means, how often noise alone
 * passes, p-values, intervals, counts) and without the clauses that
 * explain a finding rather than state it (", but ...", ", kept by ...",
 * ": they ..."): "no regression", "lanes=1: ratio 1.644", "lower bound
 * 1.558 above 1.020". Another reason (a checksum mismatch, a failed
 * sample, a build, the host's requirements) is kept whole, but for the
 * advice after "no acceptance rules". Text that is not a JSON array is
 * kept as it is. New string; NULL when `reasons` is NULL.
 */
char *ab_store_search_text(const char *reasons, char *const *rules);

/* Set runs.search_text of run `run_id` from its stored reasons and rule
 * names (the search index follows through the triggers of migration
 * 0013). Inside the caller's transaction; 0 or AB_EIO. */
int ab_store_search_derive(struct ab_store *store, int64_t run_id);

/* The C part of migration 0013: ab_store_search_derive for every run
 * with reasons, inside the migration's transaction. 0 or AB_EIO. */
int ab_store_search_backfill(struct ab_store *store);

#endif
