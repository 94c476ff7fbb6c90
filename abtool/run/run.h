/* run.h - one execution of an experiment's plan, from revisions to the
 * stored verdict: the pipeline's driver. It calls each stage in order
 * (revisions, builds, plan, samples, analysis, report document) and hands
 * each stage's result to the next and to the store; it never prints:
 * progress reaches the caller through `struct ab_run_events`. `abtool run`
 * and `abtool resume` both drive it. */
#ifndef AB_RUN_H
#define AB_RUN_H

#include <stdint.h>

#include <jansson.h>

#include "analysis.h"
#include "build.h"
#include "config.h"
#include "extract.h"
#include "plan.h"
#include "revs.h"
#include "sample.h"
#include "store.h"

/* Callbacks for progress; any may be NULL. `ctx` is passed back. */
struct ab_run;
struct ab_executor;

struct ab_run_events {
	void *ctx;
	/* A build starts (cached = 0) or was found in the cache (cached = 1). */
	void (*build_start)(void *ctx, const char *side, const char *oid, int cached);
	void (*build_done)(void *ctx, const char *side, const struct ab_build *b);
	/* Another process is building the same tree: waiting for its lock. */
	void (*build_waiting)(void *ctx, const char *lock_path);
	/* Before each sample: `done` of `total` samples already ran. */
	void (*sample_start)(void *ctx, const struct ab_plan_entry *e, const char *row_label,
			     size_t done, size_t total, int64_t eta_ns);
	void (*sample_done)(void *ctx, const struct ab_sample *s, const char *row_label);
	/* A sequential plan's look k (0-based) at `pairs` pairs per row is over:
	 * `decided` rows stopped so far, `running` go on to the next look;
	 * `budget` 1 when the budget stopped them all; `rows` one line per row
	 * measured in this look, with its repeated interval (NULL-terminated,
	 * borrowed); `last` 1 at the plan's last look, where the `running`
	 * rows stop undecided. Called after every look the run reaches. */
	void (*look_done)(void *ctx, size_t k, size_t pairs, size_t decided, size_t running, int budget,
			  int last, char *const *rows);
	/* The revisions, dependencies and overlay are resolved; nothing is
	 * built yet (the place for warnings about them). May be NULL. */
	void (*resolved)(void *ctx, const struct ab_run *run);
};

struct ab_run {
	const struct ab_experiment *exp;  /* borrowed */
	struct ab_store *store;           /* borrowed */
	struct ab_run_events events;
	struct ab_revs revs;
	struct ab_revs *deps;             /* one per experiment dependency (parent, candidate) */
	size_t ndeps;
	json_t *overlay;                  /* {from, source, paths: [{path, type, oid}]} or NULL */
	git_oid overlay_source;
	char *cache_dir;
	char *identity;                   /* compiler identity text */
	struct ab_build builds[2];        /* parent, candidate */
	char **integrity;                 /* build failures (NULL-terminated), or NULL */
	json_t *host;                     /* fingerprint at the start (load_after_* added by ab_run_finish) */
	char **env_unmet;                 /* unmet environment.require conditions, or NULL */
	json_t *options;                  /* what reproduces the run: experiment path, candidate, seed */
	struct ab_run_meta meta;          /* id, uuid, seed, ... */
	char created_at[32];
	struct ab_sample *samples;        /* the whole plan, in seq order */
	size_t nsamples;
	struct ab_extractor *extractor;
	struct ab_measure *measure;       /* contention, counters, cachegrind, padding */
	const struct ab_executor *executor; /* what runs the samples (borrowed); NULL: real
	                                     processes, ab_run_executor */
	const char *kind;                 /* "ab" or "calibrate" */
	int block_pairs;                  /* calibrate: the experiment's planned pairs */
	char *host_change;                /* resume: how the host differs from the run's start, or NULL */
	json_t *host_started;             /* resume: the fingerprint stored when the run started (the
	                                     report's and `show`'s host), or NULL */
	int resumed;                      /* this process resumed the run */
	int dirty;                        /* the user's work tree had uncommitted changes at the start */
	int stopped_early;                /* a failed sample or checksum mismatch stopped the samples */
	int budget_spent;                 /* a sequential plan's budget stopped every row at a look */
	json_t *inputs;                   /* `inputs:` as hashed at the start (ab_inputs_hash), or NULL */
	char inputs_hash[65];             /* their identity, "" without inputs */
	char inputs_stamp[65];            /* their sizes and modification times at the start */
	int candidate_only_experiment;    /* the candidate's tree differs from its parent's only in
	                                     the experiment file (measured: --candidate named it) */
	int experiment_wrong;             /* invalid because of the experiment file itself (neither
	                                     side's build makes a declared artifact): exit 64 */
};

/* A dependency's revisions named on the command line (`run --dependency
 * NAME=PARENT..CANDIDATE`): they replace the experiment file's revspecs
 * of the dependency `name`. Borrowed strings. */
struct ab_dep_pin {
	const char *name;
	const char *parent;
	const char *candidate;
};

/* Options of a new run. */
struct ab_run_options {
	const char *candidate;     /* overrides the experiment's candidate, or NULL */
	const char *parent;        /* overrides the parent (e.g. a merge base), or NULL; the
	                              comparison is then recorded as exact only when it is
	                              the candidate's first parent */
	int pairs;                 /* overrides pairs when > 0: a fixed plan */
	int max_pairs;             /* > 0: a sequential plan up to max_pairs (--max-pairs;
	                              ab_experiment_set_pairs) */
	int have_seed;
	uint64_t seed;
	const char *cache_dir;     /* NULL: ab_cache_dir() */
	const char *salt_parent, *salt_candidate;  /* build salts ("" normally) */
	int aa;                    /* calibration: both sides are the parent, built twice */
	const char *design;        /* overrides the experiment's design (a CI gate's pull
	                              request or branch), or NULL */
	const struct ab_dep_pin *dep_pins;  /* dependencies' revisions instead of the file's;
	                                       each name at most once (borrowed) */
	size_t ndep_pins;
	const char *overlay_from;  /* overrides overlay.from (candidate, parent or a revspec),
	                              or NULL */
	int have_warmup;           /* --warmup given: `warmup` overrides the file's warmup */
	int warmup;
	const char *reproduce;     /* the start of the command line that runs the comparison
	                              again (abtool compare and its options that make the
	                              experiment), or NULL: `abtool run` of the file; the
	                              Reproduce line adds the plan's options, then
	                              `reproduce_commands` */
	const char *const *reproduce_commands;  /* with `reproduce`: its two commands (borrowed) */
	const char **rows;         /* --row NAME=VALUE selections (borrowed strings; the array is
	                              cmd_args'), or NULL: every row */
	size_t nrows;
	int shard_index, shard_count;  /* --shard K/N: measure shard K of N (0, 0: no shard) */
	const char *group;         /* --group ID: the shards' group, stored in the run's options */
	const json_t *step;        /* a step of `abtool bisect`: its mark {bisect (the bisect's
	                              uuid), seq, role} (borrowed), stored in the run's options as
	                              "bisect_step" with exp->step's stopping rule when active
	                              ("stop"); the run's kind is then "bisect", which designs,
	                              their standing and the rejected-design memory leave out.
	                              NULL for every other run */
};

/*
 * Resolve what a run builds besides the two commits, before anything is
 * built: the dependencies' revisions (dependencies:, or opt->dep_pins)
 * and the overlay's paths in its source revision (overlay:, from
 * opt->overlay_from when set), into run->deps and run->overlay.
 * `run->exp` and `run->revs` must be set; the rest of `run` may be zero,
 * as in `abtool check` (release with ab_run_release). `opt` may be NULL.
 * Errors: AB_ENOTFOUND (an unknown revision or path), AB_EINVALID (a pin
 * naming no dependency of the experiment, or naming one twice;
 * overlay_from without an overlay), AB_EIO.
 */
int ab_run_resolve_inputs(struct ab_run *run, const struct ab_run_options *opt);

/*
 * Start a run: resolve revisions, store the plan, build both sides.
 * `run` is initialised here (release with ab_run_release, also on error);
 * `executor` runs its samples and says where the host fingerprint is read
 * (executor.h; borrowed, NULL: real processes, ab_run_executor).
 * `exp` may be modified by options (pairs). Errors: AB_EINVALID when
 * --pairs leaves a rule's min_pair_wins out of reach, those of revs (64),
 * store (74), AB_EINTERRUPTED. A failed build is not an error: it is
 * recorded as an integrity failure (run->integrity) and ab_run_samples
 * then does nothing.
 */
int ab_run_start(struct ab_run *run, struct ab_experiment *exp, struct ab_store *store,
		 const struct ab_run_options *opt, const struct ab_run_events *events,
		 const struct ab_executor *executor);

/*
 * Load run `run_id` from the store to finish it: re-parse the stored
 * experiment, resolve the stored commits, prepare the builds (rebuilding
 * only when the cache lost them), and re-plan any half-finished pair as a
 * fresh pair at the end of the plan. `executor` as for ab_run_start.
 * `exp_out` receives the experiment
 * (caller releases it after the run). Errors: AB_ENOTFOUND, AB_EINVALID
 * (the run is already finished), store errors.
 */
int ab_run_resume(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		  int64_t run_id, const struct ab_run_events *events, const struct ab_executor *executor);

/*
 * Load finished run `run_id` to run more processes in its trees (`abtool
 * profile`): the stored experiment, commits, samples and builds (rebuilt
 * only when the cache lost them), without touching its status, plan or
 * verdict. `exp_out` as for ab_run_resume. Errors: AB_ENOTFOUND,
 * AB_EINVALID (the run is not finished), store and build errors.
 */
int ab_run_reopen(struct ab_run *run, struct ab_experiment *exp_out, struct ab_store *store,
		  int64_t run_id, const struct ab_run_events *events);

/* What ab_run_profile did. */
struct ab_profile_outcome {
	size_t rows;           /* rows profiled (both sides tried) */
	size_t sides_ok;       /* sides with a stored profile */
	size_t sides;          /* sides tried */
	char *why;             /* the first reason a side has no profile (new), or NULL */
	char *note;            /* the first note on a kept profile (cut by the cap, new), or NULL */
};

/*
 * Profile run `run` after its measured pairs (docs/profiles.md): for each
 * row the run measured that exp->row_subset keeps (when set) and, with
 * `use_selector`, the experiment's `profile.rows` select,
 * exp->profile_samples samples of each side under `perf record -g -e
 * EVENT`, in the same trees, environment, CPUs and hooks as its samples,
 * in AB|BA order alternating from a seeded first order. Each side's
 * stacks are folded (profile_fold.h) and stored with ab_store_profile_put,
 * apart from the samples, which do not change. What cannot be profiled
 * (perf missing, an event the kernel refuses, a benchmark failing under
 * perf) is stored as unavailable with its reason: not an error. `event`
 * overrides the experiment's when set, `samples` (> 0) its samples.
 * Returns 0, AB_EINTERRUPTED or a store error; `out` is filled (release
 * with ab_profile_outcome_release).
 */
int ab_run_profile(struct ab_run *run, int use_selector, const char *event, int samples,
		   struct ab_profile_outcome *out);

void ab_profile_outcome_release(struct ab_profile_outcome *out);

/*
 * Run every planned sample in plan order, storing each as it completes.
 * A sequential plan runs look by look: at the end of each look the rules
 * are evaluated on the pairs so far and the rows they decide stop (their
 * remaining samples stored as AB_SAMPLE_STOPPED; stopping.h), or every row
 * once the experiment's budget is spent (run->budget_spent). Stops early
 * (run->stopped_early) at the first failed sample or checksum mismatch:
 * the verdict is then invalid whatever else happens. Returns 0,
 * AB_EINTERRUPTED (the run is marked interrupted in the store), or a store
 * error.
 */
int ab_run_samples(struct ab_run *run);

/* The executor that runs samples as real processes (executor.h;
 * run_exec.c): the runner, measure.c and extract.c. */
extern const struct ab_executor ab_run_executor;

/*
 * Analyse the stored samples, build the report document, and store the
 * verdict and the document. `*doc` receives the document (new reference)
 * and `analysis` the analysis (release with ab_analysis_release).
 */
int ab_run_finish(struct ab_run *run, struct ab_analysis *analysis, json_t **doc);

void ab_run_release(struct ab_run *run);

/* How long one `environment.commands` entry may run by default (the
 * experiment's environment.commands_timeout overrides it), and how much
 * of its stderr the fingerprint keeps. */
#define AB_ENV_COMMAND_TIMEOUT_MS 30000
#define AB_ENV_COMMAND_STDERR_CAP 4096

/*
 * Run the experiment's `environment.commands` (NULL-terminated shell
 * commands, borrowed; NULL for none) one after another in folder `cwd`,
 * stdin from /dev/null, each for at most `timeout_ms` (<= 0: the default
 * AB_ENV_COMMAND_TIMEOUT_MS; then killed with its process group), and
 * record them in fingerprint `fp` (borrowed, modified):
 *   "commands"         {command: its stdout (first 64 KiB)}, as before
 *   "command_results"  {command: {status, exit_code, signal, timed_out,
 *                       stderr}}: status is one line ("exit 0", "exit 3",
 *                       "killed by SIGKILL", "timed out after 30 s",
 *                       "could not run: ..."), exit_code and signal are
 *                       integers or null, stderr keeps the first
 *                       AB_ENV_COMMAND_STDERR_CAP bytes.
 * A command that fails is recorded, not an error: never fails.
 */
void ab_run_env_commands(json_t *fp, char *const *commands, const char *cwd, int64_t timeout_ms);

/* Names of the experiment's metrics, for the store (borrowed pointers into
 * exp; free the array only). */
const char **ab_run_metric_names(const struct ab_experiment *exp);

/* Between the phases of a run (run_*.c); not for other modules. */

/* (Re)load the run's samples from the store into run->samples: 0 or a
 * store error (run.c). */
int ab_run_load_samples(struct ab_run *run);

/* Resolve the dependencies' revisions: from the experiment's revspecs, or
 * the revisions pinned on the command line (`pins`, run --dependency), or
 * (resume) from the commits stored in `stored` ([{name, parent_oid,
 * candidate_oid}]) so that moved branches do not change a run. A pinned
 * parent is taken as given, like --parent: the comparison is recorded as
 * exact only when it is the candidate's first parent (run_inputs.c). */
int ab_run_resolve_deps(struct ab_run *run, const json_t *stored, const struct ab_dep_pin *pins,
			size_t npins);

/* Look up the overlay's paths in its source revision (before anything is
 * built). `from` is overlay.from or what replaces it (run --overlay-from,
 * the stored one on resume); `source_hex` (resume) is the commit it named
 * when the run started, so that a moved branch does not change a run
 * (run_inputs.c). */
int ab_run_resolve_overlay(struct ab_run *run, const char *from, const char *source_hex);

/* Hash the experiment's `inputs:` into run->inputs, inputs_hash and
 * inputs_stamp (nothing without inputs). `stored` (a resume: the run's
 * stored hashes, borrowed; NULL for a new run) must match them, or the
 * resume is refused with AB_EINVALID naming the changed input. Errors of
 * ab_inputs_hash (run_inputs.c). */
int ab_run_hash_inputs(struct ab_run *run, const json_t *stored);

/* Whether the inputs still have the sizes and modification times they had
 * at the start (1), or changed (0: the reason is added to run->integrity,
 * which makes the run invalid; `when` says around which sample, e.g.
 * "before sample 12"). A check that fails to stat counts as a change
 * (run_inputs.c). */
int ab_run_inputs_unchanged(struct ab_run *run, const char *when);

/* The dependencies as the report and the store record them (new;
 * run_inputs.c). */
json_t *ab_run_deps_json(const struct ab_run *run);

/* The dependencies' revisions of side `side`, for a build spec (new array;
 * run_build.c). */
struct ab_build_dep *ab_run_side_deps(const struct ab_run *run, int side);

/* Build (or find in the cache) both sides and record them. `stored` (a
 * resume: the run's stored builds, borrowed; NULL for a new run) is what
 * every build must match: a side whose build came back different stops
 * the resume with AB_EINVALID. A side that already has a stored build
 * keeps that row; only a side never recorded (a run stopped during its
 * builds) is recorded now (run_build.c). */
int ab_run_prepare_builds(struct ab_run *run, const char *salt[2], const json_t *stored);

/* 1 when the run is an A/B run (not a calibration), both builds are ok
 * and declare artifacts, and every declared artifact hashes the same on
 * both sides; 0 otherwise. Identical artifacts do not prove the same
 * benchmark (an interpreter reads its workload from the tree), so the run
 * still counts; the command says so before the first sample. */
int ab_run_artifacts_identical(const struct ab_run *run);

#endif
