/* store.h - the sqlite store (DESIGN.md "Store"): one file per repository,
 * schema versioned with PRAGMA user_version and numbered migrations
 * embedded in the binary (store/migrations/NNNN_*.sql), WAL mode with
 * synchronous=NORMAL, foreign keys on, and a busy timeout so concurrent
 * runs can share it. Every statement is prepared with bound parameters. */
#ifndef AB_STORE_H
#define AB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "plan.h"
#include "sample.h"

struct ab_store;

/* How long a writer waits for another one before AB_ELOCKED, unless
 * $ABTOOL_BUSY_TIMEOUT_MS says otherwise. */
#define AB_STORE_BUSY_TIMEOUT_MS 30000

/*
 * Open (creating the file and its folder when missing) and migrate the
 * store at `path`. `*out` is new; close with ab_store_close. Errors: AB_EIO
 * when the file cannot be created or is not a usable sqlite database (the
 * message names the path and sqlite's reason), AB_ELOCKED when another
 * process holds it beyond the busy timeout.
 */
int ab_store_open(struct ab_store **out, const char *path);

void ab_store_close(struct ab_store *store);

/* The path given to ab_store_open (borrowed). */
const char *ab_store_path(const struct ab_store *store);

/* Schema version after migration (PRAGMA user_version). */
int ab_store_schema_version(struct ab_store *store);

/* What a new run records up front. Borrowed strings; id and uuid are
 * filled in by ab_store_run_create. */
struct ab_run_meta {
	int64_t id;
	char uuid[33];
	const char *kind;             /* "ab", "calibrate" or "analyze" */
	const char *experiment_hash;
	const char *experiment_name;
	const char *experiment_path;
	const char *experiment_text;
	const char *design;
	const char *hypothesis;       /* or NULL */
	const char *repo;
	const char *parent_oid, *candidate_oid;
	const char *parent_tree, *candidate_tree;
	int exact_parent;
	uint64_t seed;
	int pairs, warmup;
	const char *host_json;        /* or NULL */
	const char *options_json;     /* or NULL */
	char **row_params_json;       /* nrows JSON objects {param: value} */
	size_t nrows;
};

/*
 * In one transaction: find or add the design and the experiment, add the
 * run (status "running"), its rows and every planned sample of `plan`.
 * Fills meta->id and meta->uuid. Errors: AB_EIO, AB_ELOCKED.
 */
int ab_store_run_create(struct ab_store *store, struct ab_run_meta *meta,
			const struct ab_plan *plan);

/* A build of one side, as recorded in the store. Borrowed strings. */
struct ab_build_record {
	const char *side;             /* "parent" or "candidate" */
	const char *commit_oid, *tree_oid, *cache_key, *dir, *command;
	int cached;
	const char *status;           /* "ok", "failed", "timed_out" */
	int64_t duration_ns;
	const char *log;              /* or NULL */
	const char *artifacts_json;   /* or NULL */
};

/* Insert or replace the build of one side of a run. AB_EIO. */
int ab_store_build_put(struct ab_store *store, int64_t run_id, const struct ab_build_record *b);

/*
 * Record sample `s` (its entry.seq names the planned row) in its own
 * transaction. `metric_names[i]` names s->metrics[i]. AB_EIO, AB_ELOCKED.
 */
int ab_store_sample_put(struct ab_store *store, int64_t run_id, const struct ab_sample *s,
			const char *const *metric_names);

/*
 * Load every sample of a run (planned, done and superseded) in plan order
 * into new memory (free with ab_samples_free). Metric values are looked up
 * by `metric_names` (nmetrics of them); a name missing in a sample's JSON
 * gives NAN. AB_EIO.
 */
int ab_store_samples_load(struct ab_store *store, int64_t run_id,
			  const char *const *metric_names, size_t nmetrics,
			  struct ab_sample **out, size_t *n);

/* Mark samples `seqs` of a run superseded (re-run on resume). AB_EIO. */
int ab_store_samples_supersede(struct ab_store *store, int64_t run_id,
			       const uint32_t *seqs, size_t n);

/* Append fresh planned samples with new sequence numbers after the last
 * one (used by resume to re-run a half-finished pair whole); writes the
 * assigned seq into each entry. AB_EIO. */
int ab_store_samples_append(struct ab_store *store, int64_t run_id,
			    struct ab_plan_entry *entries, size_t n);

/* Set a run's status ("running", "interrupted", "finished"). AB_EIO. */
int ab_store_run_set_status(struct ab_store *store, int64_t run_id, const char *status);

/* One rule's outcome for the rule_results table. Borrowed strings. */
struct ab_rule_record {
	const char *name, *outcome, *detail;
};

/*
 * Finish a run in one transaction: verdict, reasons (JSON array text),
 * the JSON report text, and the rules' outcomes; status "finished".
 */
int ab_store_run_finish(struct ab_store *store, int64_t run_id, const char *verdict,
			const char *reasons_json, const char *report_json,
			const struct ab_rule_record *rules, size_t nrules);

/*
 * The run's columns as a JSON object (new reference), with "experiment"
 * {hash, name, path, text, hypothesis}, "design" and "builds" [{...}]
 * joined in. AB_ENOTFOUND when no run has that id. */
int ab_store_run_get(struct ab_store *store, int64_t run_id, json_t **out);

/*
 * Earlier finished runs of the same comparison (experiment hash and both
 * revisions), oldest first, as a JSON array of {id, created_at, verdict}
 * (new reference). `exclude_run` is left out. AB_EIO.
 */
int ab_store_same_comparison(struct ab_store *store, const char *experiment_hash,
			     const char *parent_oid, const char *candidate_oid,
			     int64_t exclude_run, json_t **out);

/*
 * The report of the newest finished calibration (kind "calibrate") of the
 * experiment with text hash `experiment_hash`, as a JSON document (new
 * reference), or *out = NULL when there is none. AB_EIO.
 */
int ab_store_latest_calibration(struct ab_store *store, const char *experiment_hash, json_t **out);

/*
 * The mean wall time of the samples of earlier runs of the experiment with
 * text hash `experiment_hash`, per matrix row (`row_mean_ns`, nrows
 * entries, NAN for rows never measured), and the number of earlier runs in
 * *runs. AB_EIO.
 */
int ab_store_sample_times(struct ab_store *store, const char *experiment_hash, size_t nrows,
			  double *row_mean_ns, int64_t *runs);

/* Resolve "latest" or a decimal id or a uuid prefix to a run id.
 * AB_ENOTFOUND naming the text. */
int ab_store_run_resolve(struct ab_store *store, const char *text, int64_t *out);

#endif
