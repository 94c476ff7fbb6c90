/* shards.h - a matrix split over hosts and decided together (docs/ci.md,
 * "Sharding"): which rows shard K of N measures (`run --shard K/N`), and
 * how the finished shards of a group (`run --shard K/N --group ID`, one
 * store) become one analysis, one evaluation of the rules with the error
 * control over every row, and one report document of kind `group`
 * (`abtool verdict --group ID`). Below the command layer: nothing here
 * prints; the command says what is missing and emits the reports. */
#ifndef AB_SHARDS_H
#define AB_SHARDS_H

#include <stddef.h>

#include <jansson.h>

#include "analysis.h"
#include "experiment.h"
#include "sample.h"
#include "store.h"

/*
 * The shard (1 to count) that measures row `row` when the matrix is split
 * `count` ways. Rows are split in units, a row with the base row a
 * scaling predicate pairs it with (ab_experiment_scaling_base) being one
 * unit, so that every predicate of a row is decided from one host's
 * samples; the units, in the order of their first row, go each to the
 * shard with the fewest rows so far (the lowest numbered on a tie).
 * Deterministic: the experiment alone decides. `units_out` (may be NULL)
 * receives the number of units, the most shards that each measure
 * something.
 */
size_t ab_shards_of(const struct ab_experiment *exp, size_t row, size_t count, size_t *units_out);

/*
 * Restrict `exp` to shard `index` of `count` (ab_shards_of): sets
 * exp->row_subset, exp->shard_index and exp->shard_count. Errors:
 * AB_EINVALID when index is not 1 to count, when a --row subset is
 * already set (the two do not combine), or when the shard has no row
 * (more shards than units; the message says how many there can be).
 */
int ab_shards_select(struct ab_experiment *exp, int index, int count);

/* What a shard's Reproduce line adds: " --shard K/N" and, with a group
 * (may be NULL), " --group ID" quoted for the shell (new string; "" when
 * `exp` is not a shard). */
char *ab_shards_reproduce_args(const struct ab_experiment *exp, const char *group);

/* The runs of a group and the finished run chosen for each shard. */
struct ab_shards_group {
	char *id;                 /* the group (new) */
	json_t *runs;             /* ab_store_group_runs: every run of the group (new reference) */
	int count;                /* N of --shard K/N */
	const json_t **shard;     /* count entries: the newest finished run of shard k + 1
	                             (borrowed from runs), or NULL */
	char **missing;           /* one line per shard without a finished run, saying how to
	                             finish it (NULL-terminated, new), or NULL */
};

/*
 * Read group `id` from `store` into `g` (release with
 * ab_shards_group_release): its runs, the shard count, the newest
 * finished run of each shard and what is missing. Errors: AB_EINVALID
 * when the store holds no run of the group (the message says how to run
 * one), or when its runs measured different commits, experiment texts,
 * abtool versions or shard counts (the message names two runs); store
 * errors (AB_EIO).
 */
int ab_shards_group_load(struct ab_shards_group *g, struct ab_store *store, const char *id);

void ab_shards_group_release(struct ab_shards_group *g);

/* The decision over a complete group. */
struct ab_shards_decision {
	struct ab_experiment exp;   /* the experiment the shards ran (from the stored text) */
	struct ab_sample *samples;  /* every shard's samples (new) */
	size_t nsamples;
	struct ab_analysis analysis; /* analysed, the rules evaluated over every row */
	json_t *doc;                /* the report document, kind "group" (new reference) */
	char **incomplete;          /* rows of the plan with no sample (deleted from the store):
	                               one line each (new), or NULL; the group is then not
	                               decided (analysis and doc are empty) */
};

/*
 * Decide complete group `g` (no g->missing) from the samples of its
 * shards in `store`: one analysis and one evaluation of the rules over
 * every row, the integrity failures of invalid shards included, and the
 * report document with each row's host. A row of the plan that has no
 * measured pair in its shard leaves the group incomplete (out->incomplete),
 * never decided. Release with ab_shards_decision_release. Errors: those of
 * ab_experiment_parse (the stored text) and of the store.
 */
int ab_shards_decide(struct ab_shards_decision *out, const struct ab_shards_group *g, struct ab_store *store);

void ab_shards_decision_release(struct ab_shards_decision *d);

#endif
