/* store.h - the store (docs/architecture.md, "The store"): the history of
 * runs, samples and verdicts, over one of two engines behind an interface
 * (store_engine.h) that callers never see: sqlite (store_sqlite.c) for a
 * file, one per repository or shared by several (each design in a project,
 * docs/history.md "Projects"), in WAL mode with synchronous=NORMAL,
 * foreign keys on and a busy timeout so concurrent runs can share it;
 * PostgreSQL (store_pg.c) for a postgresql:// URL; unless
 * ab_store_use_engine chose another. The schema is versioned (sqlite:
 * PRAGMA user_version; PostgreSQL: the table abtool_schema) with numbered
 * migrations embedded in the binary (store/migrations/NNNN_*.sql,
 * store/migrations-pg/ for PostgreSQL). Every statement is prepared with
 * bound parameters. */
#ifndef AB_STORE_H
#define AB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "plan.h"
#include "sample.h"

struct ab_store;
struct ab_store_engine;

/* How long a writer waits for another one before AB_ELOCKED, unless
 * $ABTOOL_BUSY_TIMEOUT_MS says otherwise. */
#define AB_STORE_BUSY_TIMEOUT_MS 30000

/*
 * Open (creating the file and its folder when missing) and migrate the
 * store at `path`. `*out` is new; close with ab_store_close. Errors: AB_EIO
 * when the file cannot be created or is not a usable sqlite database (the
 * message names the path and sqlite's reason), when it cannot be written
 * (a read-only file system, file or folder: sqlite's WAL needs files
 * beside it even to read), when its schema version is newer than this
 * binary's migrations or negative (both refused before anything is
 * written, the file left as it was) or its tables do not match its
 * version; AB_ELOCKED when another process holds it beyond the busy
 * timeout.
 */
int ab_store_open(struct ab_store **out, const char *path);

/*
 * Whether the store opened is still there (store_engine.h `alive`): for
 * sqlite, the path still names the file opened (same device and inode),
 * so that a store deleted or replaced while a run wrote to it is not
 * reported as holding the run. 0, or AB_EIO with a message saying what
 * happened and what to do.
 */
int ab_store_check_alive(struct ab_store *store);

/* Open and migrate the store at `path` like ab_store_open, but create
 * nothing: a missing store is AB_ENOTFOUND with a message naming the
 * path, and no folder is made. For the commands that only read. */
int ab_store_open_existing(struct ab_store **out, const char *path);

void ab_store_close(struct ab_store *store);

/* Whether `path` names a store on a server (postgresql:// or
 * postgres://, PostgreSQL's URL forms) rather than a sqlite file: such a
 * store is opened with the PostgreSQL engine (store_pg.c). */
int ab_store_is_server(const char *path);

/* The engine the next ab_store_open uses (borrowed; NULL: by the path,
 * ab_store_is_server). For the store's tests, which run once per engine;
 * abtool never calls it. */
void ab_store_use_engine(const struct ab_store_engine *engine);

/*
 * Projects (docs/history.md, "Projects"): one store holds the history of
 * many repositories, each design and experiment belonging to one project
 * (migration 0011). The store serves one project at a time: the one set
 * here (copied; NULL or "" is no project, what comparisons of two
 * commands belong to, and the default after open). Designs and
 * experiments are found and added in it (unless ab_run_meta.project
 * says otherwise), and what the store remembers before a run (the same
 * comparison, calibrations, earlier sample times, rejected designs), the
 * designs, notes on a design and history are scoped to it, unless asked
 * for every project. A run is found by its id or uuid in any project.
 * ab_store_project returns the project (borrowed).
 */
void ab_store_set_project(struct ab_store *store, const char *project);
const char *ab_store_project(const struct ab_store *store);

/* 1 when the store holds a design of its project, 0 when it holds none,
 * or AB_EIO: the listing commands list every project from a repository
 * the store knows nothing of (docs/history.md, "Projects"). */
int ab_store_project_known(struct ab_store *store);


/*
 * Give the designs and experiments written before migration 0011 (project
 * AB_PROJECT_UNCLAIMED) to `project`, the repository's that opened the
 * store, in one write transaction, taken only when there is such a row.
 * A design whose name `project` already has, or an experiment whose text
 * it has, keeps the placeholder (--all-projects lists them). NULL or ""
 * claims nothing (no repository). Returns the number of designs claimed
 * (0 when there were none), or AB_EIO, AB_ELOCKED.
 */
int ab_store_claim_project(struct ab_store *store, const char *project);

/* A function the store asks between the rows of a long write or read (a
 * run's plan, its samples) whether to stop; nonzero stops it with
 * AB_EINTERRUPTED, a write rolled back. NULL (the default): never. The
 * driver gives it ab_runner_interrupted, so that SIGINT while a large
 * plan is stored ends abtool at once. */
void ab_store_set_cancel(struct ab_store *store, int (*cancel)(void));

/* The store's name as messages give it (borrowed): the file path given
 * to ab_store_open, or for a server the URL's user, host, port and
 * database without its password or options (ab_store_describe). */
const char *ab_store_path(const struct ab_store *store);

/* The name messages, reports and suggested command lines may give the
 * store `path` (new string), the same as ab_store_path of the store
 * opened from it: a file path as it is, a postgresql:// URL as
 * "postgresql://USER@HOST:PORT/DB" without its password or other
 * options (docs/security.md, "Credentials"). Never fails. */
char *ab_store_describe(const char *path);

/* 1 when the two open stores are one: the same file however it was
 * named (./X, a symbolic link, another path to it: the same device and
 * inode), or the same PostgreSQL database (user, host, port and database
 * alike); else 0. */
int ab_store_same(const struct ab_store *a, const struct ab_store *b);

/* 1 when `path` is a PostgreSQL URL that holds a password (in its user
 * part or as password=), else 0: given on a command line, other users of
 * the machine can read it in /proc/PID/cmdline (docs/security.md,
 * "Credentials"). */
int ab_store_url_has_password(const char *path);

/* Schema version after migration (PRAGMA user_version). */
int ab_store_schema_version(struct ab_store *store);

/* What a new run records up front. Borrowed strings; id, uuid and
 * created_at (the time stored as the run's start) are filled in by
 * ab_store_run_create. */
struct ab_run_meta {
	int64_t id;
	char uuid[33];
	char created_at[32];
	const char *kind;             /* "ab", "calibrate", "analyze" or "compare" */
	const char *experiment_hash;
	const char *experiment_name;
	const char *experiment_path;
	const char *experiment_text;
	const char *design;
	const char *project;          /* the project of the design and experiment; NULL: the
	                                 store's (ab_store_set_project) */
	const char *hypothesis;       /* or NULL */
	const char *repo;
	const char *parent_oid, *candidate_oid;
	const char *parent_tree, *candidate_tree;
	int exact_parent;
	uint64_t seed;
	int pairs, warmup;
	const char *host_json;        /* or NULL */
	const char *options_json;     /* or NULL */
	char *sides_json;             /* a comparison's sides, JSON [{name, command}], or NULL
	                                 (the caller's; ab_store_run_create only reads it) */
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

/*
 * Record the revisions of the run's dependencies: `deps` is a JSON array
 * of {name, repo, parent_oid, candidate_oid} (borrowed). AB_EIO.
 */
int ab_store_run_dependencies_put(struct ab_store *store, int64_t run_id, const json_t *deps);

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

/* Mark planned samples `seqs` of a run stopped: a sequential plan decided
 * their row at a look, or its budget was spent, so they never run
 * (AB_SAMPLE_STOPPED; docs/statistics.md, "Sequential plans"). AB_EIO. */
int ab_store_samples_stop(struct ab_store *store, int64_t run_id, const uint32_t *seqs, size_t n);

/* Append fresh planned samples with new sequence numbers after the last
 * one (used by resume to re-run a half-finished pair whole); writes the
 * assigned seq into each entry. AB_EIO. */
int ab_store_samples_append(struct ab_store *store, int64_t run_id,
			    struct ab_plan_entry *entries, size_t n);

/* Merge `fields_json` (a JSON object's text, e.g. {"load_after_1m":
 * 0.8}) into the run's stored host fingerprint, keeping its other fields
 * (sqlite's json_patch: a key set to null is removed). Used to add what is
 * measured after the samples to the fingerprint taken at the start.
 * AB_EIO. */
int ab_store_run_patch_host(struct ab_store *store, int64_t run_id, const char *fields_json);

/* Set a run's status ("running", "interrupted", "finished"). AB_EIO. */
int ab_store_run_set_status(struct ab_store *store, int64_t run_id, const char *status);

/*
 * After a failure that ends the process running run `run_id`: mark the
 * run "interrupted" if it is still "running", where the store still
 * accepts the write, so that history and resume see it stopped. The
 * failure's error message and code are kept, whatever happens here.
 * Returns 1 when marked, 0 when the run was not running, or the store's
 * negative error (a full disk, a lock: the run stays "running", and
 * ab_store_run_owner tells it is dead).
 */
int ab_store_run_abandon(struct ab_store *store, int64_t run_id);

/* ab_store_run_owner's answers. */
enum ab_run_owner {
	AB_OWNER_UNKNOWN = -1,  /* recorded on another host, or no pid recorded */
	AB_OWNER_DEAD = 0,      /* this host, and no abtool process has that pid */
	AB_OWNER_ALIVE = 1,     /* an abtool process with that pid runs on this host */
};

/*
 * Whether the process recorded as running a run is alive: `options` is the
 * run's options object (borrowed), whose "pid" and "hostname" run and
 * resume set (hostname compared with gethostname(2); the process checked
 * in /proc/PID/cmdline, which must name abtool, so that a reused pid is
 * not taken for it). The calling process itself counts as dead: it is not
 * running the run.
 */
enum ab_run_owner ab_store_run_owner(const json_t *options);

/* Take an unfinished run over for a resume, in one statement: set its
 * status to "running" and its options (which name the process running
 * it) to `options`, if its options are still `expected`, the text read
 * before. Returns 1 when taken, 0 when another process changed them in
 * between (it resumed the run first), or AB_EIO. */
int ab_store_run_claim(struct ab_store *store, int64_t run_id, const char *expected,
		       const char *options);

/* One rule's outcome for the rule_results table. Borrowed strings. */
struct ab_rule_record {
	const char *name, *outcome, *detail;
};

/*
 * Finish a run in one transaction: verdict, reasons (JSON array text),
 * the JSON report text, and the rules' outcomes; status "finished". In
 * the same transaction the row results are derived from `report_json`
 * (docs/history.md "Row results"): row_results (per row and metric: pairs,
 * per-side median and RSD, ratio, decision interval, pair wins, p values),
 * the metric of each rule_results line and rule_row_results (each rule's
 * outcome and detail per row). All strings borrowed. AB_EIO, AB_ELOCKED.
 */
int ab_store_run_finish(struct ab_store *store, int64_t run_id, const char *verdict,
			const char *reasons_json, const char *report_json,
			const struct ab_rule_record *rules, size_t nrules);

/*
 * The run's columns as a JSON object (new reference), with "experiment"
 * {hash, name, path, text, hypothesis}, "design", "project" and "builds" [{...}]
 * joined in. AB_ENOTFOUND when no run has that id. */
int ab_store_run_get(struct ab_store *store, int64_t run_id, json_t **out);

/*
 * Earlier finished runs of the same comparison in the store's project
 * (experiment hash, both
 * revisions and the hash of the inputs outside the trees: `inputs_hash`,
 * NULL or "" for a run without inputs, matched against the runs' stored
 * options), oldest first, as a JSON array of {id, created_at, verdict}
 * (new reference). `exclude_run` is left out. AB_EIO.
 */
int ab_store_same_comparison(struct ab_store *store, const char *experiment_hash,
			     const char *parent_oid, const char *candidate_oid,
			     const char *inputs_hash, int64_t exclude_run, json_t **out);

/*
 * The report of the newest finished calibration (kind "calibrate") of the
 * store project's experiment with text hash `experiment_hash`, as a JSON document (new
 * reference), or *out = NULL when there is none. AB_EIO.
 */
int ab_store_latest_calibration(struct ab_store *store, const char *experiment_hash, json_t **out);

/*
 * The mean wall time of the samples of earlier runs of the store project's
 * experiment with text hash `experiment_hash`, per matrix row (`row_mean_ns`, nrows
 * entries, NAN for rows never measured), and the number of earlier runs in
 * *runs. AB_EIO.
 */
int ab_store_sample_times(struct ab_store *store, const char *experiment_hash, size_t nrows,
			  double *row_mean_ns, int64_t *runs);

/*
 * What the store remembers before a design is measured again, in the
 * store's project only: rejected runs of the design named `design` (newest first, at most 5), then the
 * latest rejected run of each other design whose own texts (its name,
 * its experiments' names and hypotheses, notes on it and its runs; not
 * verdict reasons) contain at least two different terms of `words` (a
 * NULL-terminated array, borrowed; at most the first 64 are used; words
 * that stem to one FTS5 term count once; with a single term, that one),
 * searched with the FTS5 index: most shared terms first, then the best
 * bm25 rank; at most 3 (NULL or empty `words`: none). A JSON array (new
 * reference) of {id, created_at, design, experiment, verdict, reason,
 * same_design, identical_artifacts (as in ab_store_history)}. Neither a
 * comparison of two commands nor a bisect's step (kind 'bisect': a
 * comparison of two commits of its path, not a run of the design) is
 * remembered. AB_EIO.
 */
int ab_store_rejected_memory(struct ab_store *store, const char *design, char *const *words,
			     json_t **out);

/* The build cache keys of the runs not finished (status running or
 * interrupted: a resume will use those entries again), as a new
 * NULL-terminated array of new strings (free with ab_strv_free), or NULL
 * when there are none. AB_EIO. */
int ab_store_unfinished_cache_keys(struct ab_store *store, char ***out);

/*
 * The runs of the shard group `group` (run --shard K/N --group ID, kept in
 * the runs' options), oldest first, as a JSON array (new reference; empty
 * when the group has none) of {id, uuid, created_at, status, verdict,
 * reasons (text), parent_oid, candidate_oid, parent_tree, candidate_tree,
 * exact_parent, seed, abtool_version, experiment_hash, experiment_text,
 * experiment_path, design, host (text), options (the parsed object),
 * report (text)}.
 * AB_EIO.
 */
int ab_store_group_runs(struct ab_store *store, const char *group, json_t **out);

/* Resolve "latest" or a decimal id or a uuid prefix to a run id.
 * AB_ENOTFOUND naming the text. */
int ab_store_run_resolve(struct ab_store *store, const char *text, int64_t *out);

/*
 * History (docs/history.md). Which runs `ab_store_history` lists; every
 * member is optional (NULL or 0). Borrowed strings.
 */
struct ab_history_filter {
	const char *verdict;      /* "accepted", "rejected", "inconclusive" or "invalid" */
	const char *design;       /* a design name, exactly */
	const char *experiment;   /* an experiment name, exactly */
	const char *kind;         /* a run kind, exactly: "ab", "calibrate", "analyze", "compare" */
	const char *rev;          /* lowercase hex prefix of any revision the run measured
	                             (the run_revisions view: parent, candidate, and
	                             each dependency's parent and candidate) */
	const char *since;        /* created_at >= since: ISO 8601 UTC text like
	                             "2026-11-30T00:00:00Z" (compared as text) */
	const char *until;        /* created_at < until, same form (exclusive) */
	const char *grep;         /* user text searched with FTS5, see below */
	int64_t limit;            /* at most this many runs; <= 0: all */
	const char *project;      /* only this project's runs ("": the comparisons'); NULL: the
	                             store's project (ab_store_set_project) and the comparisons */
	int all_projects;         /* every project's runs (project is not read) */
};

/*
 * The runs that pass `filter`, newest first (created_at, then id), as a
 * JSON array (new reference) of objects with the run's columns (id, uuid,
 * kind, created_at, finished_at, status, verdict, repo, parent_oid,
 * candidate_oid, exact_parent, seed, pairs, warmup, abtool_version),
 * "project" (its design's), "design", "experiment", "hypothesis", "reasons" (array, empty until the
 * run is finished), "notes" (how many notes the run and its design have)
 * and the headline of the stored report: "metric", "better",
 * "ratio_best", "ratio_worst" (the best and worst primary-metric row
 * ratios, candidate/parent; null without a report or a ratio) and
 * "dependencies": the further repositories the run measured, in the
 * experiment file's order, as [{name, parent, candidate}] (full commit
 * ids; empty without `dependencies:`), "alive": for a "running" run,
 * whether the process recorded as running it is (true), is gone (false:
 * killed, or it stopped without marking the run) or cannot be told
 * (null: another host); null for a run that is not running
 * (ab_store_run_owner), "identical_artifacts": true when the run is an
 * A/B run whose ok builds both declare artifacts and every one hashes the
 * same on both sides (from the stored builds), and "rules": the names of
 * the run's rules in the file's order (empty before it is finished), and
 * "sides": a comparison's two commands [{name, command}] (kind "compare",
 * whose parent_oid and candidate_oid are ""), null for other runs, and
 * "bisect_step": a bisect step's mark from its options {bisect (the
 * bisect's uuid), seq, role} (kind "bisect"; it survives export, import
 * and sync, where the bisects table does not travel), null for other runs.
 *
 * `grep` is never read as FTS5 syntax: it is split into words and
 * "double-quoted phrases", each quoted as an FTS5 string (a word ending in
 * '*' is a prefix); a run matches when every word or phrase occurs in
 * some text of the run: its experiment's name or hypothesis, its design's
 * name, its verdict reasons, its notes or its design's notes. Matching is
 * case- and accent-insensitive, with Porter stemming. Errors: AB_EINVALID
 * when `grep` has no word or more than 16, AB_EIO.
 */
int ab_store_history(struct ab_store *store, const struct ab_history_filter *filter, json_t **out);

/* ab_store_designs flags. */
#define AB_STORE_DESIGNS_REJECTED 1u      /* only designs whose standing is "rejected" */
#define AB_STORE_DESIGNS_ALL_PROJECTS 2u  /* every project's, not only the store's */

/*
 * Every design of the store's project (of every project with
 * AB_STORE_DESIGNS_ALL_PROJECTS), the one with the most recent run first,
 * as a JSON array (new reference) of {id, project, design, created_at,
 * runs, latest_run,
 * latest_created_at, latest_verdict, latest_reasons (array or null),
 * latest_identical_artifacts (as "identical_artifacts" of
 * ab_store_history): the design's standing, from its newest A/B run
 * (kind 'ab') whose verdict is accepted or rejected; newest_run, newest_created_at,
 * newest_status, newest_kind, newest_verdict (or null): the newest run of
 * any kind and status but a comparison's or a bisect step's (runs counts
 * the same runs, and a design whose only runs are those is not listed);
 * notes (count of notes on the design and its runs),
 * last_note, last_note_created_at (or null)}. An inconclusive or invalid
 * run, a calibration or an analysis never changes the standing: only new
 * decisive evidence clears a rejection. With AB_STORE_DESIGNS_REJECTED,
 * only designs whose standing is "rejected". AB_EIO.
 */
int ab_store_designs(struct ab_store *store, unsigned flags, json_t **out);

/*
 * Attach a note (free text: a reason, a link) to run `run_id` (> 0) or,
 * when run_id is 0, to the design named `design` of the store's project. Stored with the current
 * UTC time; searchable at once. `*out` receives the note's id (may be
 * NULL). Errors: AB_EINVALID for empty text, AB_ENOTFOUND for an unknown
 * run or design (the message suggests a close design name), AB_EIO.
 */
int ab_store_note_add(struct ab_store *store, int64_t run_id, const char *design,
		      const char *text, int64_t *out);

/*
 * The notes of run `run_id` and of its design, oldest first, as a JSON
 * array (new reference) of {id, created_at, scope ("run" or "design"),
 * text}. An unknown run has no notes. AB_EIO.
 */
int ab_store_notes(struct ab_store *store, int64_t run_id, json_t **out);

/*
 * How far a run's plan got, as a JSON object (new reference): planned
 * (samples of the current plan: neither superseded nor stopped), done,
 * failed (done with an error), superseded, stopped (never run: a
 * sequential plan stopped their row), warmup (planned warmup samples).
 * AB_EIO.
 */
int ab_store_sample_counts(struct ab_store *store, int64_t run_id, json_t **out);

/* Schema name of the document ab_store_export writes. */
#define AB_EXPORT_SCHEMA "abtool-export-1"

/* ab_store_export flags. */
#define AB_STORE_EXPORT_SAMPLES 1u   /* include "samples" (all of them, all fields) */

/*
 * Everything the store knows about run `run_id` as one self-describing
 * JSON document (new reference; docs/cli.md "export"):
 *   schema "abtool-export-1", abtool_version, exported_at,
 *   run {id (local to this store), uuid, every column of runs; reasons,
 *        host, options and report as JSON values},
 *   design {name, created_at, project}, experiment {hash, name, hypothesis, path,
 *   text, created_at}, builds [...], rows [{idx, params}],
 *   samples [every column; metrics as an object] (with
 *   AB_STORE_EXPORT_SAMPLES), rule_results [...], row_results [...],
 *   rule_row_results [...], notes [{created_at, scope, text}] (the run's
 *   and its design's).
 * Errors: AB_ENOTFOUND, AB_EIO.
 */
int ab_store_export(struct ab_store *store, int64_t run_id, unsigned flags, json_t **out);

/*
 * Every run of the store, oldest first, as a new array of {id, uuid,
 * status, kind} (what abtool sync compares two stores by): whatever its
 * project, kind or status. Errors: AB_EIO.
 */
int ab_store_run_uuids(struct ab_store *store, json_t **out);

/*
 * Import a document written by ab_store_export (borrowed) in one
 * transaction. The run gets a new local id (`*out`); its uuid identifies
 * it across stores: when a run with that uuid is already here, nothing
 * changes, `*existed` is 1 and `*out` is that run's id. The run keeps its
 * project (design.project; an export written before projects, or of a
 * row no repository claimed, joins the store's project). The design is
 * matched by project and name and the experiment by project and the hash
 * of its text (both are added when missing); design notes already present (same design, time
 * and text) are not added twice. The stored report's run_id becomes the
 * new local id. row_results and rule_row_results are derived again from
 * the imported report (as when a run finishes), not read from the
 * document, so they agree with the report whatever wrote the file.
 * Errors: AB_EINVALID naming the field when the document is
 * not an export or a required field is missing or of the wrong type, or
 * the experiment text does not match its hash; AB_EIO, AB_ELOCKED.
 */
int ab_store_import(struct ab_store *store, const json_t *doc, int64_t *out, int *existed);

/*
 * The store's own settings (migration 0007), shared by everyone who uses
 * the store. ab_store_setting_get sets `*out` to the value of `key` (new
 * string), or NULL when it is not set. ab_store_setting_set stores `value`
 * (with the current UTC time), or removes the key when `value` is NULL.
 * ab_store_settings returns every setting as a JSON array (new reference)
 * of {key, value, updated_at}, by key. The caller checks keys and values
 * (cmd_config.c). Errors: AB_EIO, AB_ELOCKED.
 */
int ab_store_setting_get(struct ab_store *store, const char *key, char **out);
int ab_store_setting_set(struct ab_store *store, const char *key, const char *value);
int ab_store_settings(struct ab_store *store, json_t **out);

/* A bisect (`abtool bisect`, migration 0009, store_bisect.c): borrowed
 * strings; id and uuid are filled in by ab_store_bisect_create. */
struct ab_bisect_record {
	int64_t id;
	char uuid[33];
	const char *repo;
	const char *experiment_path, *experiment_hash;
	const char *good_oid, *bad_oid;
	const char *options_json;     /* JSON object: path, rows, metric, threshold, ... */
};

/* Add a bisect (status "running"). Errors: AB_EIO, AB_ELOCKED. */
int ab_store_bisect_create(struct ab_store *store, struct ab_bisect_record *b);

/* Resolve "latest" or a decimal id to a bisect id. AB_ENOTFOUND naming
 * the text. */
int ab_store_bisect_resolve(struct ab_store *store, const char *text, int64_t *out);

/*
 * Bisect `id` as a new JSON object: {id, uuid, created_at, finished_at,
 * status, repo, experiment_path, experiment_hash, good_oid, bad_oid,
 * options, outcome, result, steps: [{seq, role, parent_oid,
 * candidate_oid, run_id, decision, detail, run_status, verdict}]} with
 * options, result and detail parsed (null when unset), steps in seq
 * order. Errors: AB_ENOTFOUND, AB_EIO.
 */
int ab_store_bisect_get(struct ab_store *store, int64_t id, json_t **out);

/* Record step `seq` of bisect `id` (insert or replace): its role, the
 * commits compared, its run (0: none yet), and its decision and detail
 * (JSON text) once decided (NULL before). Errors: AB_EIO. */
int ab_store_bisect_step_put(struct ab_store *store, int64_t id, int64_t seq, const char *role,
			     const char *parent_oid, const char *candidate_oid, int64_t run_id,
			     const char *decision, const char *detail_json);

/* Mark bisect `id` finished with `outcome` and the result document (JSON
 * text). Errors: AB_EIO. */
int ab_store_bisect_finish(struct ab_store *store, int64_t id, const char *outcome,
			   const char *result_json);

/* Every run that is a step of a bisect, as a new JSON object
 * {"RUN_ID": {bisect, seq, role}} (for history and show). Errors: AB_EIO. */
int ab_store_bisect_runs(struct ab_store *store, json_t **out);

/* Bisects newest first, at most `limit` (0: all), as a new JSON array of
 * {id, created_at, status, good_oid, bad_oid, outcome, steps}. AB_EIO. */
int ab_store_bisects(struct ab_store *store, int64_t limit, json_t **out);

/* One side of one row's profile (docs/profiles.md), as stored apart
 * from the run's samples. */
struct ab_store_profile {
	int64_t row;              /* the row's index in the experiment's matrix */
	char *label;              /* the row's label */
	int side;                 /* 0 parent, 1 candidate */
	char *event;              /* perf's event */
	int ok;                   /* 1: a profile; 0: unavailable, `reason` says why */
	char *reason;             /* why not (unavailable), what the cap cut (ok), or NULL */
	int64_t runs;             /* profiled processes */
	int64_t stack_samples;    /* perf's samples kept */
	int64_t dropped;          /* perf's samples cut by the size cap */
	char *folded;             /* folded text ("stack COUNT" lines), NUL-terminated, or NULL */
	size_t folded_len;
	char created_at[32];
};

/*
 * Store (or replace) the profile of one side of one row of run `run_id`:
 * the folded text is compressed with zlib. Strings are borrowed.
 * AB_ENOTFOUND (no such run), AB_EIO.
 */
int ab_store_profile_put(struct ab_store *store, int64_t run_id, const struct ab_store_profile *p);

/*
 * The profiles of run `run_id`, by row then side (parent first), into new
 * memory (free with ab_store_profiles_free); none: *n = 0. The folded
 * text is decompressed. AB_EIO (also for a blob that does not inflate).
 */
int ab_store_profiles_get(struct ab_store *store, int64_t run_id, struct ab_store_profile **out,
			  size_t *n);

void ab_store_profiles_free(struct ab_store_profile *v, size_t n);

/*
 * Link run `run_id` to run `evidence_run_id`, whose profile is the new
 * evidence for measuring its design again (`run --new-evidence run:N`).
 * AB_ENOTFOUND (either run), AB_EIO.
 */
int ab_store_run_set_evidence(struct ab_store *store, int64_t run_id, int64_t evidence_run_id);

#endif
