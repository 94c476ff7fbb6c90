/* experiment.h - a loaded experiment (the result of config.h's parser):
 * its types, and the queries the rest of abtool asks of it at run time
 * (the rows of the matrix, which rules select a row, the commands of a
 * row). Plain structs: nothing here knows YAML. The types follow the
 * experiment file (docs/experiment-file.md). */
#ifndef AB_EXPERIMENT_H
#define AB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "sequential.h"

/* More matrix rows than this is a mistake, not an experiment; the bound
 * also keeps the product of value counts from overflowing. */
#define AB_MAX_ROWS 1000000

/* Most pairs a fixed plan may ask for (`pairs:`, --pairs). */
#define AB_EXPERIMENT_MAX_PAIRS 100000

/* How a step of `abtool bisect` with a sequential plan stops its rows
 * (docs/history.md, "How a comparison decides"): at each look on the
 * bisect's judgement of `metric` against the threshold (bisect.h,
 * ab_bisect_rows_decided), not on the experiment's rules. */
struct ab_step_stop {
	int active;                   /* 0 for every run that is not such a step */
	char *metric;                 /* the metric searched (new) */
	double threshold;             /* the smallest change that counts, a fraction (0.05) */
	int direction;                /* +1 up, -1 down, 0 both (the endpoints' step) */
};

/* The default bounds of a run's plan, which `limits: {rows, samples}`
 * raises (docs/experiment-file.md, "limits"): a matrix of more rows, or a
 * plan of more samples, is refused when the file loads (abtool check
 * says so) and when options change the plan, before anything is built
 * or stored. The samples' bound keeps the plan's memory and the store's
 * rows (about 200 bytes and one row per sample) in proportion; a bound
 * above AB_LIMIT_MAX_SAMPLES is not accepted. */
#define AB_LIMIT_ROWS 10000
#define AB_LIMIT_SAMPLES 100000
#define AB_LIMIT_MAX_SAMPLES 10000000

/* A position in the experiment file, 1-based (0 when unknown). */
struct ab_mark {
	int line;
	int column;
};

/* A command: either a string run as `/bin/sh -c shell`, or an argv list
 * executed directly (no shell, no word splitting). Exactly one is set. */
struct ab_command {
	char *shell;   /* new string, or NULL */
	char **argv;   /* NULL-terminated, or NULL */
	size_t argc;
};

enum ab_checksum_kind {
	AB_CHECKSUM_NONE = 0,       /* no `checksum:` key: results are not compared */
	AB_CHECKSUM_REGEX,          /* {regex: RE}: first capture group on stdout (PCRE2) */
	AB_CHECKSUM_STDOUT_SHA256,  /* {stdout: sha256}: SHA-256 of the whole stdout */
	AB_CHECKSUM_JSON,           /* {json: KEY}: KEY of the last JSON object line on stdout */
	AB_CHECKSUM_FILE,           /* {file: PATH}: SHA-256 of PATH (relative to workdir) after the run */
};

struct ab_checksum {
	enum ab_checksum_kind kind;
	char *arg;  /* the regex, JSON key or path; NULL for NONE and STDOUT_SHA256 */
};

/* One matrix parameter and its values, in file order. Values are kept as
 * the strings written; numeric comparisons parse them on demand. */
struct ab_param {
	char *name;
	char **values;
	size_t nvalues;
};

/* Where a metric's value comes from. */
enum ab_metric_source {
	AB_METRIC_BUILTIN = 0, /* measured by abtool: wall_ns, user_ns, sys_ns, cpu_ns, maxrss_bytes */
	AB_METRIC_PERF,        /* hardware counters through perf_event_open: instructions, cycles */
	AB_METRIC_CACHEGRIND,  /* instructions counted by valgrind's cachegrind: cachegrind_instructions */
	AB_METRIC_REGEX,       /* first capture group of a regex on stdout, a number */
	AB_METRIC_JSON,        /* a key of the last JSON object line on stdout, a number */
};

struct ab_metric {
	char *name;            /* e.g. "wall_ns", "ops_per_s" */
	char *unit;            /* "ns", "bytes", or what the benchmark says ("ops/s") */
	enum ab_better better;
	enum ab_metric_source source;
	char *pattern;         /* regex or JSON key; NULL for builtins */
	struct ab_mark mark;   /* its key under metrics: (0 for builtins) */
};

enum ab_cmp {
	AB_CMP_EQ = 0, /* value equals (as a string, or numerically when both parse) */
	AB_CMP_LT,
	AB_CMP_LE,
	AB_CMP_GT,
	AB_CMP_GE,
};

/* One accepted value or comparison, e.g. `4`, `"==4"` or `">=4"`. `value`
 * is the operand without the operator. At load, an operand of <, <=, >, >=
 * must be a number, and an equality must equal some value of the
 * parameter (a typo is an error, not a silently smaller selection). */
struct ab_cond {
	enum ab_cmp op;
	char *value;
};

/* `param: cond` or `param: [cond, ...]`: the row matches when any cond
 * holds for the row's value of `param`. */
struct ab_where_term {
	size_t param;             /* index into ab_experiment.matrix */
	struct ab_cond *conds;
	size_t nconds;
	struct ab_mark mark;      /* the parameter's key under where: */
};

/* A `where:` mapping: every term must hold (AND). No terms: all rows. */
struct ab_selector {
	struct ab_where_term *terms;
	size_t nterms;
};

/* An acceptance rule. Its predicates' values are described by the table of
 * predicates.h (name, kind, how each decides): unset numeric predicates
 * are NAN (or -1 for counts and policies). Fractions, not percents:
 * `no_regression: 2%` is 0.02. */
struct ab_rule {
	char *name;
	struct ab_selector where;
	char *metric;              /* NULL: the experiment's metric */
	/* The predicates' values, one field per entry of ab_predicates[]: */
	double no_regression;      /* margins δ (fractions) */
	double faster_by;
	double slower_by;
	double equivalent_within;  /* δ of TOST: both bounds inside [1/(1+δ), 1+δ] */
	int differs;               /* 1: a difference either way (U < 1 or L > 1); -1 unset */
	int64_t min_pair_wins;     /* a count >= 1, or -1 */
	double min_pair_wins_frac; /* a fraction (0, 1] of the row's pairs, or NAN */
	double max_ratio;          /* ratios B/A as is, on the bound */
	double min_ratio;
	double max_ratio_estimate; /* ratios B/A, on the Hodges–Lehmann estimate */
	double min_ratio_estimate;
	double min_scaling_parent; /* each side's scaling at the row */
	double min_scaling_candidate;
	double scaling_not_worse;  /* a margin δ on B's scaling against A's */
	double max_rsd;            /* dispersion gates (fractions) */
	double max_ci_width;       /* on U/L - 1 */
	int64_t max_flagged_samples; /* a count of samples, or -1 */
	int checksum_may_change;   /* integrity: -1 unset, 0 must_match, 1 may_change (each side
	                              must still agree with itself) for the rows selected */
	int allow_failed_pairs;    /* integrity: pairs with a timed-out sample tolerated per
	                              selected row (a timed-out sample takes its side's worst
	                              value; both sides timed out make a tie); -1 unset */
	struct ab_mark mark;       /* the rule's mapping */
	struct ab_mark where_mark; /* its `where:` key (or the rule when absent) */
};

enum ab_scaling_work {
	AB_SCALING_NONE = 0,
	AB_SCALING_PER_LANE,  /* fixed work per lane: S_N = (N/N0) * T_N0 / T_N */
	AB_SCALING_TOTAL,     /* fixed total work:    S_N = T_N0 / T_N */
};

/* A further git repository materialized inside each side's tree
 * (`dependencies:`): its own parent and candidate revisions. */
struct ab_dependency {
	char *name;                /* unique among dependencies; names it in reports */
	char *repo;                /* absolute path */
	char *candidate;           /* revspec, default "HEAD" */
	char *parent;              /* revspec, or NULL: the candidate itself (the same
	                              revision on both sides) unless exact_parent */
	int exact_parent;          /* 1: the parent must be the candidate's first parent
	                              (the default parent when none is given); default 0 */
	char *path;                /* where in each side's tree it is materialized
	                              (relative); default ".abtool-deps/NAME" */
	char *env;                 /* an environment variable that receives the absolute
	                              path of the side's copy, or NULL */
	struct ab_mark mark;
};

/* What a run does about samples other processes disturbed (`contention:`,
 * docs/measurement.md, "Contention"). A sample is contended when its
 * process waited on a CPU's run queue for more than `max_cpu_wait` of its
 * wall time (runq_ns; where the kernel keeps no schedstats, when other
 * processes used more than half a CPU). A pair of the plan in which
 * either sample was contended is run again, whole, in its own look and
 * order, at most `reruns` times per row; the rule sees only whether a
 * sample was disturbed, never which side was slower. */
#define AB_CONTENTION_MAX_CPU_WAIT 0.10

enum ab_contention_exhausted {
	AB_CONTENTION_KEEP = 0,         /* re-runs spent: the contended pairs count, and the
	                                   report says how many */
	AB_CONTENTION_INCONCLUSIVE = 1, /* re-runs spent: the row decides nothing */
};

struct ab_contention {
	double max_cpu_wait;          /* share of wall time, default 0.10 */
	int reruns;                   /* pairs run again per row at most; 0 (default): none, the
	                                 flag only; -1 (`reruns: auto`): half the plan's pairs per row */
	enum ab_contention_exhausted exhausted;
	double quiet_cpus;            /* > 0: before each pair, wait until other processes use
	                                 fewer CPUs than this (`quiet: {below}`) */
	int64_t quiet_wait_ms;        /* ... for at most this long per pair (`quiet: {wait}`) */
};

/* One declared side of a comparison of two commands (`sides:`): its
 * name for the reports and the command it runs instead of a build's
 * benchmark (docs/experiment-file.md, "sides"). */
struct ab_side_command {
	char *name;                   /* [A-Za-z0-9_.+-]+, unique between the sides */
	struct ab_command command;    /* may hold {param} placeholders */
	struct ab_mark mark;
};

struct ab_experiment {
	/* The file */
	char *path;            /* as given on the command line */
	char *dir;             /* absolute folder of the file; `repo` is relative to it */
	char *text;            /* the whole file, NUL-terminated */
	size_t text_len;
	char hash[65];         /* SHA-256 of text, hex */

	/* Identity */
	char *name;            /* required */
	char *design;          /* default: name */
	char *hypothesis;      /* optional, NULL */
	char *project;         /* project:, or NULL: the repository's (docs/history.md, "Projects") */

	/* Revisions */
	char *repo;            /* absolute path; default the file's folder */
	char *candidate;       /* revspec; default "HEAD" */
	char *parent;          /* revspec or NULL (the candidate's first parent) */
	int exact_parent;      /* default 1 */

	/* Build and benchmark */
	struct ab_command build;      /* may be empty (no build) */
	char **artifacts;             /* NULL-terminated paths relative to the tree, or NULL */
	size_t nartifacts;
	struct ab_command benchmark;  /* required unless `sides:`; may hold {param} placeholders */
	/* `sides:` two commands instead of two revisions (a comparison, run kind "compare"):
	 * nothing is built, no revision is read, each side runs its own command in the
	 * experiment's folder (`workdir` relative to it); has_sides 0 otherwise */
	int has_sides;
	struct ab_side_command sides[2];  /* a, b: the parent's and the candidate's places */
	char *workdir;                /* benchmark's folder relative to the tree; default "." */
	char **env;                   /* NULL-terminated "NAME=value" set for builds and samples */
	size_t nenv;
	char **env_keep;              /* env.keep: PG* names that builds and samples keep although
	                                 abtool's PostgreSQL store used them (NULL-terminated), or
	                                 NULL (docs/security.md, "Credentials") */
	struct ab_checksum checksum;
	/* `prepare:` and `cleanup:`: run before and after every sample (warmups too) in the
	 * sample's folder with its environment and the row's placeholders, outside the timed
	 * window; either may be empty (no hook) */
	struct ab_command prepare, cleanup;
	/* `inputs:` files or folders outside the trees that the benchmark reads: absolute
	 * paths (given relative to the file's folder, or absolute), NULL-terminated, or NULL */
	char **inputs;
	size_t ninputs;

	/* Matrix and metrics */
	struct ab_param *matrix;      /* may be empty: one row without parameters */
	size_t nparams;
	char *metric;                 /* primary metric; default "wall_ns" */
	struct ab_metric *metrics;    /* builtins first, then `metrics:` entries */
	size_t nmetrics;
	char *scaling_param;          /* NULL when `scaling:` is absent */
	enum ab_scaling_work scaling_work;

	/* Schedule */
	int pairs;                    /* default 8, 1..100000; a sequential plan's last look */
	int sequential;               /* 1: a sequential plan (`pairs: {min, max}` or {looks}, or
	                                 --max-pairs): rows stop at the first look where they are
	                                 decided (docs/statistics.md, "Sequential plans") */
	struct ab_seq_plan seq;       /* the looks, spending and alpha, when sequential */
	enum ab_seq_spending spending;  /* `sequential: {spending}`; AB_SEQ_SPENDING_DEFAULT */
	int64_t budget_ms;            /* `budget:`: wall-clock time of the samples after which the
	                                 run stops at its next look; 0: none */
	struct ab_step_stop step;     /* a bisect step's stopping rule (set by cmd_bisect.c, kept
	                                 in the run's options, ab_experiment_step_restore) */
	int order_unknown;            /* 1 when the samples carry no AB/BA order (abtool analyze
	                                 of a file without an order column): no order warnings */
	int warmup;                   /* warmup samples per side per row, default 1 */
	size_t limit_rows;            /* `limits.rows`: the most rows measured, default AB_LIMIT_ROWS */
	size_t limit_samples;         /* `limits.samples`: the most samples planned, default
	                                 AB_LIMIT_SAMPLES */
	int64_t timeout_ms;           /* per sample, default 600000 (10m) */
	int64_t build_timeout_ms;     /* per build, default 3600000 (1h) */

	struct ab_rule *rules;
	size_t nrules;

	/* `overlay:` paths taken from one revision into both trees after
	 * checkout, so that both sides run the same harness */
	char **overlay_paths;         /* NULL-terminated relative paths (files or folders), or NULL */
	char *overlay_from;           /* "candidate" (default), "parent", or a revspec */
	struct ab_mark overlay_mark;

	struct ab_dependency *dependencies;
	size_t ndependencies;

	/* Noise controls */
	char *affinity_cpus;          /* `affinity:` CPU list like "0-3,6", or NULL (inherit) */
	char *affinity_per_lane;      /* with {cpus, per_lane: PARAM}: a row with PARAM = N runs on
	                                 the first N CPUs of the list; NULL otherwise */
	int aslr;                     /* 1 (default): address-space randomization as the system has
	                                 it; 0: disabled for the samples (personality) */
	int env_padding;              /* max bytes of per-pair environment padding; 0: off */
	struct ab_contention contention;  /* `contention:` (docs/measurement.md, "Contention") */

	/* `profile:` (docs/profiles.md): extra samples under `perf record` after the
	 * measured pairs, stored apart from them */
	int profile;                  /* 1: profile the run's rows after its pairs */
	struct ab_selector profile_rows;  /* profile.rows: which rows; no terms: every measured row */
	int profile_samples;          /* profile.samples: samples per side and row, default 3 */
	char *profile_event;          /* profile.event: perf's event, default "cpu-clock" */

	/* `history:` */
	int block_rejected;           /* refuse a design whose latest verdict is rejected
	                                 unless --new-evidence is given; default 0 */

	/* `environment:` */
	json_t *environment_require;  /* {key: typed value} for ab_env_check_requirements, or NULL */
	char **environment_commands;  /* shell commands whose output joins the fingerprint, or NULL */
	int64_t environment_commands_timeout_ms;  /* per command, default 30000 (30s) */

	/* A subset of the matrix (run, check, calibrate --row; ab_experiment_select_rows) */
	uint8_t *row_subset;          /* nrows flags, 1 for a row the run measures; NULL: every row */
	char **subset_specs;          /* the --row NAME=VALUE selections as given (NULL-terminated) */
	char **subset_added;          /* labels of rows added because a scaling predicate needs
	                                 them (the base rows), NULL-terminated, or NULL */
	int shard_index, shard_count; /* run --shard K/N (ab_shards_select, shards.h): the subset is
	                                 shard K of N; 0, 0 otherwise */

	/* Marks for semantic errors found by later stages: the keys, or 0
	 * when the key is absent */
	struct ab_mark candidate_mark, parent_mark, repo_mark;
	struct ab_mark matrix_mark, pairs_mark;  /* matrix: and pairs: (the limits' messages) */
};

/*
 * The plan the command line asks for (docs/cli.md, "run"): `pairs` > 0
 * (--pairs N) sets a fixed plan of N pairs; `max_pairs` > 0 (--max-pairs
 * M) makes the plan sequential from its first pairs (N, or the file's
 * `pairs`, or its first look) to M, looks doubling (ab_seq_plan_from_range)
 * with the file's spending. Either 0 leaves that part as the file has it.
 * Errors: AB_EINVALID naming the option, e.g. "--max-pairs 6 is below the
 * 8 pairs the plan starts with" or an odd count.
 */
int ab_experiment_set_pairs(struct ab_experiment *exp, int pairs, int max_pairs);

/* The stopping rule of a bisect step as its run's options keep it, inside
 * the step's mark: {metric, threshold, direction} (new reference), or
 * NULL when exp->step is not active. */
json_t *ab_experiment_step_json(const struct ab_experiment *exp);

/* Restore exp->step from a run's stored "bisect_step" options object
 * (borrowed; NULL or one without a "stop" member leaves it inactive).
 * Returns 0, or AB_EINVALID when its stop rule is unreadable. */
int ab_experiment_step_restore(struct ab_experiment *exp, const json_t *step);

/* The samples a run of `exp` plans: the rows it measures (a --row subset
 * or a shard counts its own) x 2 sides x (pairs, a sequential plan's
 * last look, + warmup). */
size_t ab_experiment_nsamples(const struct ab_experiment *exp);

/*
 * Whether the plan fits the experiment's limits (limit_rows,
 * limit_samples): 0, or AB_EINVALID with a message that gives the count,
 * the limit, its key and its default, and how to raise it; `source` says
 * what set the plan ("exp.yaml:12:1: pairs", "--pairs 5000"). Checked
 * when the file loads and again when options change the plan.
 */
int ab_experiment_check_limits(const struct ab_experiment *exp, const char *source);

/* The pairs a row has at its first analysis: the first look of a
 * sequential plan, else `pairs`. The count that min_pair_wins is read
 * against (a count k of a sequential plan is the share k / first look). */
size_t ab_experiment_first_look(const struct ab_experiment *exp);

/*
 * The sequential plan as stored with a run before its first sample, and
 * as the report's run-level `sequential` object: {looks: [..], spending,
 * alpha, max_pairs, budget_ms (null without a budget)}; NULL for a fixed
 * plan. New reference.
 */
json_t *ab_experiment_plan_json(const struct ab_experiment *exp);

/* The contention policy as the run's options store it and the report
 * shows it (new reference): {max_cpu_wait, reruns (the effective count
 * per row), when_exhausted, quiet: {below, wait_ms} or null}. */
json_t *ab_experiment_contention_json(const struct ab_experiment *exp);

/* Restore the policy stored with a run (resume): a NULL or non-object
 * `stored` (a run of an older abtool) keeps the experiment file's.
 * AB_EINVALID when it is unreadable. */
int ab_experiment_contention_restore(struct ab_experiment *exp, const json_t *stored);

/* The most pairs of a row that contention re-runs (`reruns: auto`, -1, is
 * half the plan's pairs per row, rounded up). */
int ab_experiment_reruns(const struct ab_experiment *exp);

/*
 * Restore the plan stored by ab_experiment_plan_json (resume): `plan`
 * NULL makes the plan fixed at exp->pairs; an object makes it sequential
 * with those looks, spending, alpha and budget. Errors: AB_EINVALID (a
 * stored plan this binary cannot read).
 */
int ab_experiment_plan_restore(struct ab_experiment *exp, const json_t *plan);

/* The options that reproduce the plan's pairs on a command line: "--pairs
 * 8" for a fixed plan, "--pairs 8 --max-pairs 64" for looks doubling from
 * 8 to 64, "" for explicit looks (the file gives them). New string. */
char *ab_experiment_plan_args(const struct ab_experiment *exp);

/* The command side `side` (0: a, the parent's place; 1: b) runs: its own
 * with `sides:`, else the benchmark (borrowed). */
const struct ab_command *ab_experiment_side_command(const struct ab_experiment *exp, int side);

/* Free everything `exp` owns; the struct may be reused after _parse. */
void ab_experiment_release(struct ab_experiment *exp);

/* Number of matrix rows (the product of the parameters' value counts; 1
 * when there is no matrix). Row r's value of parameter p is
 * matrix[p].values[ab_experiment_row_value_index(exp, r, p)]; the last
 * parameter varies fastest, as nested loops in file order. */
size_t ab_experiment_nrows(const struct ab_experiment *exp);
size_t ab_experiment_row_value_index(const struct ab_experiment *exp, size_t row, size_t param);
const char *ab_experiment_row_value(const struct ab_experiment *exp, size_t row, size_t param);

/* 1 when row `row` satisfies every term of `sel`, else 0. Equality holds
 * when the strings are equal or both parse as equal numbers ("4", "4.0");
 * <, <=, >, >= compare numbers, and fail for a value that is not one. */
int ab_selector_match(const struct ab_selector *sel, const struct ab_experiment *exp, size_t row);

/* A row's integrity policy, from the rules that select it: the checksum
 * may change between sides when any of them says `checksum: may_change`;
 * the pairs with a timed-out sample tolerated are the largest
 * `allow_failed_pairs` of them (0 when none says). */
struct ab_row_policy {
	int checksum_may_change;
	size_t allow_failed_pairs;   /* pairs, not samples */
};

void ab_experiment_row_policy(const struct ab_experiment *exp, size_t row,
			      struct ab_row_policy *out);

/* The metric named `name` (borrowed), or NULL. */
const struct ab_metric *ab_experiment_metric(const struct ab_experiment *exp, const char *name);

/*
 * What a sample reads from the text of its stdout that abtool keeps (the
 * first 1 MiB and the last 64 KiB), so what output beyond that can affect:
 * "checksums and metrics", "checksums" (checksum.regex, checksum.json),
 * "metrics" (`metrics:` entries, which read stdout), or NULL when nothing
 * is read from the kept text (checksum {stdout: sha256} hashes the whole
 * stream, {file: PATH} a file). A static string.
 */
const char *ab_experiment_stdout_reads(const struct ab_experiment *exp);

/* Index of the matrix parameter named `name`, or -1. */
long ab_experiment_param(const struct ab_experiment *exp, const char *name);

/* Expand {param} placeholders of `cmd` for row `row` into `out` (new;
 * release with ab_command_release). A placeholder is `{` NAME `}` with NAME
 * in [A-Za-z_][A-Za-z0-9_]*; "{{" and "}}" stand for braces; any other
 * brace is copied as is (`awk '{print $1}'`). Values are substituted
 * verbatim, without shell quoting. At load, the benchmark's placeholders
 * are checked against the matrix.
 * Errors: AB_EINVALID for an unknown {name} (message names it) or a row
 * out of range; `out` is then empty. */
int ab_command_expand(struct ab_command *out, const struct ab_command *cmd,
		      const struct ab_experiment *exp, size_t row);

void ab_command_release(struct ab_command *cmd);

/* The command as one line for reports: the shell string, or the argv
 * joined with spaces, an element single-quoted (' as '\'') when it is
 * empty or has a character outside [A-Za-z0-9_./=:,@%+-] (new string). */
char *ab_command_display(const struct ab_command *cmd);

/* 1 when s[0..n) is a name: [A-Za-z_][A-Za-z0-9_]* (matrix parameters,
 * metrics, placeholders, environment variables). */
int ab_is_identifier(const char *s, size_t n);

/* Equal as strings, or as numbers when both parse as numbers ("4" and
 * "4.0"): the equality of where: selectors. */
int ab_values_equal(const char *a, const char *b);

/* Check the {param} placeholders of `tmpl` (as ab_command_expand reads
 * them) against exp's matrix: 0, or -1 with *bad and *badlen naming the
 * first unknown one (pointing into tmpl). */
int ab_template_check(const char *tmpl, const struct ab_experiment *exp,
		      const char **bad, size_t *badlen);

/*
 * Restrict `exp` to the rows that `specs` (n strings NAME=VALUE, as --row
 * gives them) select: the values given for one parameter OR together,
 * different parameters AND. Rows a scaling predicate needs (the base row
 * of a selected row that a rule with a scaling predicate selects: the
 * smallest value of the scaling parameter, the same other values) are
 * added, and named in exp->subset_added. Sets exp->row_subset and exp->subset_specs
 * (owned by exp). n == 0 leaves `exp` as it is. Errors: AB_EINVALID for a
 * malformed spec, an unknown parameter or a value not in the matrix (the
 * message names what the matrix offers).
 */
int ab_experiment_select_rows(struct ab_experiment *exp, const char *const *specs, size_t n);

/* Whether a rule with a scaling predicate selects row `row`: the row
 * then needs its base row (ab_experiment_scaling_base) measured beside
 * it, in a --row subset and in the same shard (shards.h). */
int ab_experiment_row_scales(const struct ab_experiment *exp, size_t row);

/* 1 when row `row` is measured: there is no subset, or it is in it. */
int ab_experiment_row_selected(const struct ab_experiment *exp, size_t row);

/* The row with the smallest value of the scaling parameter and the same
 * values of every other parameter as `row` (the base row of the scaling
 * predicates), or -1 when the experiment has no scaling. */
long ab_experiment_scaling_base(const struct ab_experiment *exp, size_t row);

/* Free what rule `r` owns (not `r` itself). */
void ab_rule_release(struct ab_rule *r);

#endif
