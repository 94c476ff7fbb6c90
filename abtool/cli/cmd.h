/* cmd.h - what the commands share: the command table's entry, the store
 * location rule, progress and error printing. Only cmd_*.c and main.c
 * print or exit (CONTRIBUTING.md, "Layout and layers"). The definitions are by concern: cmd.c
 * (messages), cmd_options.c (option tables), cmd_store.c (the store's
 * location), cmd_output.c (output files and rendering), cmd_progress.c
 * (progress and run events), cmd_measure.c (the measuring commands'
 * driver), cmd_text.c (text for the terminal). */
#ifndef AB_CMD_H
#define AB_CMD_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis.h"
#include "report_format.h"
#include "run.h"
#include "store.h"

/* Exit codes (docs/architecture.md, "Exit codes"; docs/cli.md). */
enum {
	AB_EXIT_ACCEPTED = 0,
	AB_EXIT_REJECTED = 1,
	AB_EXIT_INCONCLUSIVE = 2,
	AB_EXIT_INVALID = 3,
	AB_EXIT_USAGE = 64,
	AB_EXIT_INTERNAL = 70,
	AB_EXIT_IO = 74,
};

struct cmd_option;

struct ab_command_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;     /* after "abtool NAME " */
	const char *summary;   /* one line */
	const struct cmd_option *options;  /* the command's option table (below) */
};

/* The table (main.c), terminated by a NULL name. */
extern const struct ab_command_entry ab_commands[];

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_designs(int argc, char **argv);
int cmd_site(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_note(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_profile(int argc, char **argv);

/* 1 when the store's setting `key` (abtool config) is "true". */
struct ab_store;
int cmd_store_flag_true(struct ab_store *store, const char *key);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_sync(int argc, char **argv);
int cmd_verdict(int argc, char **argv);

/* Print "abtool: MESSAGE" for the last error and return its exit code. */
int cmd_fail(int err);

/* Print a usage error for command `name` and return 64. */
int cmd_usage(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After getopt reported an unknown option or a missing argument: print
 * the command's usage to stderr and return 64. */
int cmd_bad_option(const char *name);

/* Print the usage of command `name`, its summary and its options, grouped
 * and wrapped (cmd_help.c), to stdout; returns 0 (for --help), or 64 after
 * cmd_unknown_command when there is no such command. */
int cmd_help(const char *name);

/* Print "abtool: warning: ..." to stderr: on a terminal wrapped at spaces
 * to its width (continuation lines indented by 2), never cut inside a
 * word; elsewhere one line. */
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for a notice: "abtool: ..." (what the store remembers, what a
 * command is about to do). */
void cmd_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `head` followed by `tail`, with `tail` cut ("…", cmd_one_line) so that
 * cmd_notice's "abtool: " and the text wrap into at most `lines` lines of
 * stderr's terminal (never cutting `head`); the whole text when stderr is
 * not a terminal. New string. */
char *cmd_notice_fit(const char *head, const char *tail, size_t lines);

/* Route stdout through the workflow-command guard for the whole process
 * (main() does it before any command runs): no line of stdout begins
 * with "::" or "##[" (after blanks) that abtool did not write itself,
 * whatever the format; the bytes are otherwise unchanged (docs/security.md,
 * "Workflow commands"). Buffered as stdout is. */
void cmd_guard_stdout(void);

/* From now on stdout is text for people (a Markdown report or the
 * terminal view): the guard also puts its space into a "##[" in the
 * middle of a line, which GitHub's runner reads anywhere; a JSON or TSV
 * field keeps its bytes otherwise. */
void cmd_stdout_for_people(void);

/* Route stdout through the terminal filter (cmd_term_stderr's rules): for the text of `show` and `check`, which prints commit
 * subjects, names and notes that a repository or a pull request controls
 * (an escape sequence could retitle or rewrite the terminal). */
void cmd_plain_stdout(void);

/* Write abtool's own workflow command `line` (e.g. "::error title=...::...",
 * escaped by the caller as GitHub's toolkit does) to stderr past the guard,
 * on a line of its own, with control characters blanked. */
void cmd_workflow_command(const char *line);

/* Route stderr, for the whole process, through the terminal filter
 * (main() does it before any command runs), the one function that text
 * for a terminal goes through: every control character but newline and
 * tab becomes a space: C0 and DEL, and C1 (U+0080-U+009F) in a UTF-8 or
 * the C locale, or the bytes the locale calls controls in another
 * (docs/security.md, "Terminal text"). So every message, warning and
 * error, the design names, notes, subjects and benchmark output tails
 * they embed included, reaches the terminal without control characters.
 * The workflow-command guard (cmd_guard_stdout) applies too, with "##["
 * neutralized anywhere in a line. Unbuffered like stderr. */
void cmd_term_stderr(void);

/* abtool's own control sequence, which the filter would blank: erase the
 * progress line ("\r" and ESC [K written to fd 2 after flushing stderr). */
void cmd_term_erase_line(void);

/* Warn that the parent descends from the candidate (ab_revs.parent_descends):
 * --candidate and --parent were probably swapped. */
struct ab_revs;
void cmd_warn_swapped(const struct ab_revs *revs);

enum cmd_store_mode {
	CMD_STORE_READ,    /* only read: never create the store or its folders */
	CMD_STORE_WRITE,   /* create the store (and its folder) when missing */
};

/*
 * Open the store, found in one order for every command (docs/cli.md,
 * "Where the store is"): `flag` (--store), else $ABTOOL_STORE, else the
 * config file's store: (userconf.h), else .git/abtool/abtool.db in the
 * common git directory of `repo_dir` (a command given an experiment file:
 * its repository), else of the repository holding the working directory,
 * else of the repository the experiment files in the working directory
 * name, else the per-user store $XDG_DATA_HOME/abtool/abtool.db
 * (~/.local/share/abtool/abtool.db; its folders made in CMD_STORE_WRITE).
 * The store serves the project of the repository `repo_dir` (or the
 * working directory) is in (cmd_repository_project), and none outside
 * any. A postgresql:// URL is a PostgreSQL store; a name with another URL
 * scheme ("mysql://...") is refused (AB_EINVALID). In CMD_STORE_READ a
 * missing store is AB_ENOTFOUND naming
 * the path, and nothing is created. Every message says which --store to
 * give. Prints nothing; returns the error.
 */
int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir,
		   enum cmd_store_mode mode);

/*
 * Open the store of --store `flag` to read it (cmd_open_store,
 * CMD_STORE_READ) and resolve `run` ("latest", a decimal id or a uuid
 * prefix, ab_store_run_resolve) into *id: 0 with *out open (the caller
 * closes it), or the exit code of the error, whose message it printed,
 * with *out NULL.
 */
int cmd_open_run(struct ab_store **out, const char *flag, const char *run, int64_t *id);

/*
 * The project of the repository holding `dir` (NULL: the working
 * directory; docs/history.md, "Projects"): the config file's project:,
 * else derived from the repository (ab_revs_project, revs.h). *out is a
 * new string, or NULL outside any repository and in one with neither a
 * remote nor a commit. cmd_open_store sets it as the store's project and
 * claims the rows an older store wrote without one. 0 (a repository whose
 * history cannot be read to its root gets a warning and no project), or
 * AB_EINVALID (a bad config file), AB_EIO.
 */
int cmd_repository_project(char **out, const char *dir);

/* The project of a history or designs row as its column shows it (borrowed):
 * "-" for the comparisons' (''); a project nobody chose, a repository's
 * root commit ("root:" and 40 hex digits), abbreviated as git abbreviates
 * a commit ("root:346f8a0366"; in a buffer valid until the next call). */
const char *cmd_project_label(const json_t *o);

/* 1 when `project` was chosen by someone (the config's or the
 * experiment's project:), 0 for none ('' or NULL) and for the one derived
 * from the repository's root commit ("root:..."), which output names as
 * "this repository" instead of its id. */
int cmd_project_chosen(const char *project);

/* 1 when history, designs and note --design look at every project of the
 * store, there being no current one: the command runs outside any
 * repository, or in one the store has no design of (docs/history.md,
 * "Projects"); 0 when they look at the store's project. */
int cmd_store_lists_every_project(struct ab_store *store);

/* The project of `exp`'s runs as the store's: "" for a comparison
 * (sides:), the file's project: when it has one, else the repository's
 * that cmd_open_store set. */
void cmd_store_experiment_project(struct ab_store *store, const struct ab_experiment *exp);

/* 1 when `dir` (may be NULL: 0) is in a git repository: a comparison of
 * two commands (sides:) uses that repository's store, else the lookup
 * without one. */
int cmd_store_in_repository(const char *dir);

/* The path cmd_open_store would open (new string); the same errors but
 * the missing store's. */
int cmd_store_path(char **out, const char *flag, const char *repo_dir);

/* Open the store named `name` by the option `option` ("--from"), as
 * cmd_open_store opens --store (a URL other than postgresql:// refused;
 * in CMD_STORE_READ a missing store is AB_ENOTFOUND naming it and the
 * option), without the lookup. Prints nothing. */
int cmd_open_named_store(struct ab_store **out, const char *name, const char *option,
			 enum cmd_store_mode mode);

/* Output options shared by run and resume. */
struct cmd_output {
	const char *paths[AB_REPORT_NFORMATS];  /* --md F, --json F, ...: a file per format of
	                                           the registry (report_format.h), or NULL */
	int quiet, verbose;
	int inconclusive_exit;     /* exit code for an inconclusive verdict: 2, or 1/0 with
	                              --inconclusive=reject|accept */
	int view;                  /* what stdout shows: CMD_VIEW_AUTO, _TEXT or _MD (--format) */
	int color;                 /* CMD_COLOR_AUTO, _ALWAYS or _NEVER (--color) */
	const char *store_flag;    /* borrowed: --store as given, for the commands the view
	                              suggests; or NULL */
	int progress;              /* the progress line: stderr is a terminal (not TERM=dumb) and
	                              not quiet */
	int ci_lines;              /* CI is set, stderr is no terminal, not quiet: a plain line per
	                              completed round-robin sweep instead */
	int progress_dirty;        /* a progress line is on screen */
	int64_t measure_start_ns;  /* when the first sample started (monotonic), or 0 */
	int sweep;                 /* the highest pair index started, -1 before the first pair */
	size_t done, total;        /* samples done and planned, from the last sample_start */
	int64_t eta_ns;            /* the last ETA, or -1 */
	int warned_truncated;      /* the output_truncated warning was printed */
	const struct ab_run *run;  /* borrowed: the run being measured, for the hints that
	                              name a failed sample's folder and command; or NULL */
	json_t *profiles;          /* the run's profiles for the HTML report (cmd_profiles_json),
	                              or NULL */
};

/* Option codes of the output options (the group CMD_OUTPUTS): a report
 * file's is CMD_OPT_FILE plus its format's enum ab_report_format_id. */
enum {
	CMD_OPT_FILE = 1000,
	CMD_OPT_JSON = CMD_OPT_FILE + AB_REPORT_FORMAT_JSON,
	CMD_OPT_INCONCLUSIVE = CMD_OPT_FILE + AB_REPORT_NFORMATS, CMD_OPT_VIEW, CMD_OPT_COLOR,
};

/* --format of run, resume and analyze (what stdout shows), --color. */
enum { CMD_VIEW_AUTO, CMD_VIEW_TEXT, CMD_VIEW_MD };
enum { CMD_COLOR_AUTO, CMD_COLOR_ALWAYS, CMD_COLOR_NEVER };

/* Defaults: no files, inconclusive exits 2. */
void cmd_output_init(struct cmd_output *out);

/*
 * Handle option `c` (with `arg`) if it is one of the group CMD_OUTPUTS:
 * returns 1 when handled, 0 when it is not an output option, and -1 after
 * printing a usage error of command `cmd` (exit 64).
 */
int cmd_output_option(struct cmd_output *out, const char *cmd, int c, const char *arg);

/* Erase the progress line, if one is on screen, before printing anything
 * else (cmd_progress.c). */
void cmd_clear_progress(struct cmd_output *out);

/* The samples are over (done or interrupted): stop the build line's
 * clock, erase the progress line, and in CI print the last completed
 * sweep's line when `completed`. */
void cmd_progress_end(struct cmd_output *out, int completed);

/* Decide out->progress and out->ci_lines from stderr, TERM, CI and
 * --quiet (docs/cli.md, "Progress"). */
void cmd_progress_init(struct cmd_output *out);

/* Events that print builds and progress according to `out` (ctx = out). */
struct ab_run_events cmd_run_events(struct cmd_output *out);

/*
 * Render a report document in `format` (a name of the registry,
 * report_format.h: "md", "json", ...) into new memory `*text` (free() it)
 * of `*len` bytes. "tsv" needs the run's samples (borrowed; metric_names[i] names
 * samples[k].metrics[i]). `inconclusive_fails` makes JUnit count
 * inconclusive rows as failures (--inconclusive=reject). `profiles`
 * (cmd_profiles_json, or NULL) adds the differential flame graphs to
 * "html". Returns 0, AB_EINVALID for an unknown format, or AB_EIO.
 */
int cmd_render_report(char **text, size_t *len, const char *format, const json_t *doc,
		      const struct ab_sample *samples, size_t nsamples,
		      const char *const *metric_names, size_t nmetrics, int inconclusive_fails,
		      const json_t *profiles);

/*
 * The lines of the terminal view that say where the full report is (a
 * new NULL-terminated array: ab_strv_free): "full report: abtool report
 * N" (with --store `store_flag` when given, a URL without its password:
 * ab_store_describe) for a stored run, and
 * "written: --md a.md, --html r.html" for the files given (`files`
 * NULL-terminated, each with its option in `file_options`; "-" left out).
 */
char **cmd_where_lines(const json_t *doc, const char *store_flag, const char *const *files,
		       const char *const *file_options);

/* Render the terminal view of `doc` for stdout (its width, --color
 * `color_mode`) into new memory `*text` of `*len` bytes, with the
 * `where` lines last (cmd_where_lines). 0, or the renderer's error. */
int cmd_render_view(char **text, size_t *len, const json_t *doc, int color_mode,
		    const char *const *where);

/*
 * Print the report to stdout (the terminal view on a terminal or with
 * --format text, else the Markdown report), write the --json/--md/--tsv/--html
 * files, print the verdict line on stderr (unless quiet), and return the verdict's exit code (or an I/O error's). Every
 * format renders from the document as stored (serialized and read back),
 * so `abtool report` later regenerates the same bytes; TSV takes the
 * samples of `run`.
 */
int cmd_emit_reports(struct cmd_output *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t nsamples, const json_t *doc,
		     enum ab_verdict verdict);

/*
 * The end every measuring command shares, after ab_run_samples returned
 * `err`: tell how to resume an interrupted run (128+signal), report an
 * error, or finish the run (analysis, stored verdict and report) and emit
 * its reports; then say where the run is stored. Returns the exit code;
 * `analysis` and `*doc` are filled for the caller to release.
 */
int cmd_finish_run(struct cmd_output *out, struct ab_run *run, int err, struct ab_analysis *analysis,
		   json_t **doc);

/*
 * The measuring commands (run, calibrate, resume) through one driver,
 * cmd_measure (cmd_measure.c): load the experiment file (unless the run
 * is resumed), install the signal handlers, open the store, start the run
 * (ab_run_start, or the command's `start`), run its samples, finish it and
 * emit the reports. A calibration decides nothing: it exits 0 unless it is
 * invalid or failed. Each command contributes what is its own through the
 * hooks; each returns 0 to go on, or the exit code (after its message).
 */
struct cmd_measure {
	struct cmd_args *args;           /* the parsed options: store, run options, outputs */
	const char *exp_path;            /* the experiment file, or NULL (resume: `start` loads it) */
	/* After the experiment file is loaded (may be NULL): run's --design, calibrate's pairs. */
	int (*loaded)(struct cmd_measure *m);
	/* The store is open, nothing is started (may be NULL): run consults the memory, resume
	 * finds the stored run. */
	int (*opened)(struct cmd_measure *m);
	/* Instead of ab_run_start (may be NULL): resume's ab_run_resume. Returns the error. */
	int (*start)(struct cmd_measure *m, const struct ab_run_events *events);
	/* After a successful start, before the samples (may be NULL): run's new evidence and
	 * memory, resume's host warning. Returns 0 or the error. */
	int (*started)(struct cmd_measure *m);
	/* After the run is finished and its reports emitted, with its report document (may be
	 * NULL): calibrate's sequential plans. The store is still open. */
	void (*finished)(struct cmd_measure *m, const json_t *doc);
	void *ctx;                       /* the command's own state */
	/* The driver's, for the hooks: */
	struct ab_experiment exp;
	struct ab_store *store;
	struct ab_run run;
};

/* Apply the config file's build cache cap (cache.max_size, userconf.h):
 * remove the least recently used entries of the cache at `cache_dir`
 * (NULL: ab_cache_dir) until it holds at most that much, leaving alone the
 * entries a run holds and those of `store`'s unfinished runs (store may be
 * NULL). Says on stderr what it removed (unless quiet) or why it failed;
 * nothing without the key. After each run (cmd_measure). */
void cmd_cache_cap(const char *cache_dir, struct ab_store *store, int quiet);

/* Drive `m` (its args parsed, the rest zero but the hooks and ctx) to the
 * end; returns the exit code. */
int cmd_measure(struct cmd_measure *m);

/* Print what the newest calibration of this experiment file says about
 * `pairs` planned pairs (nothing when there is none). */
void cmd_print_calibration(FILE *f, struct ab_store *store, const struct ab_experiment *exp);

/*
 * Options (cmd_options.c). Every command describes its options in one
 * table of struct cmd_option, `cmd_NAME_options[]` in cmd_NAME.c, listed
 * in the command table (main.c): the command's own options plus the shared
 * groups it takes (the CMD_*_OPTIONS macros below), ended by
 * CMD_OPTIONS_END. cmd_parse_options generates getopt_long's arrays from
 * the table and hands each option to its group's handler, or to the
 * command's own handler (cmd_args.own) for CMD_OWN; `--help` prints the
 * command's usage and the table.
 *
 * To add an option:
 *   - one a single command has: add a line to its table, group CMD_OWN,
 *     with a `code` of its own (a letter or a number; the letter is not
 *     the short form, `letter` is), and a case for that code in the
 *     command's handler, which stores the value in the command's context
 *     (args->ctx) and returns CMD_GO_ON, or cmd_usage(...) for a bad value;
 *   - one several commands share: add it to a group's macro here (or a
 *     new group: an enum cmd_group value, a macro and a handler in
 *     cmd_options.c's table), and the field it sets to struct cmd_args;
 *   - either way give the argument's name (`arg`, NULL for a flag), one
 *     line of help (the meaning, short: docs/cli.md's prose says more), the default when
 *     there is one, and the bounds of a number (checked by the handler,
 *     which reads them from the option); then add it to the command's
 *     usage line (main.c; cli.usage_lines fails until the line names
 *     every option of the table) and regenerate docs/cli.md's option lists
 *     (scripts/gen-cli-doc build/abtool). --help, the man page and the
 *     completions follow by themselves (cmd_help.c, cmd_doc.c,
 *     cmd_complete.c), and cli.help_docs checks all of them.
 * Keep the order of a table as it is: getopt_long lists the candidates of
 * an ambiguous abbreviation in that order.
 */

enum cmd_group {
	CMD_OWN,        /* the command's own option: cmd_args.own handles it */
	CMD_REVISIONS,  /* --candidate, --parent: into cmd_args.run */
	CMD_PINS,       /* --dependency, --overlay-from: into cmd_args.pins, cmd_args.run */
	CMD_PLAN,       /* --pairs, --seed, --warmup: into cmd_args.run */
	CMD_ROWS,       /* --row NAME=VALUE (run, check, calibrate): into cmd_args.run.rows */
	CMD_STORE,      /* --store: cmd_args.store */
	CMD_OUTPUTS,    /* --json ... --junit, --inconclusive, --quiet, --verbose: cmd_args.out */
	CMD_FORMAT,     /* --format, --output (report, export): cmd_args.format, .output */
	CMD_HELP,       /* --help, --version: on stdout, exit 0 */
	CMD_NGROUPS
};

struct cmd_option {
	const char *name;        /* the long name, without "--" */
	char letter;             /* the short form (-q), or 0 */
	const char *arg;         /* the argument's name ("REV", "N", "F"), NULL for a flag */
	const char *help;        /* one line: what it does */
	const char *def;         /* the default, or NULL */
	enum cmd_group group;
	int code;                /* which option, for its handler */
	long long min, max;      /* an integer argument's bounds (min < max), else 0, 0 */
};

#define CMD_OPTIONS_END {NULL, 0, NULL, NULL, NULL, CMD_OWN, 0, 0, 0}

#define CMD_REVISION_OPTIONS                                                                      \
	{"candidate", 0, "REV", "the candidate revision instead of the file's candidate:", NULL,      \
	 CMD_REVISIONS, 'c', 0, 0},                                                               \
	{"parent", 0, "REV", "the parent instead of the exact parent (e.g. a merge base); implies "   \
	 "exact_parent: false", NULL, CMD_REVISIONS, 'P', 0, 0}

#define CMD_PIN_OPTIONS                                                                           \
	{"dependency", 0, "NAME=PARENT..CANDIDATE", "the revisions of the dependency NAME instead "   \
	 "of its parent: and candidate: (repeatable)", NULL, CMD_PINS, 'd', 0, 0},                \
	{"overlay-from", 0, "REV", "take the overlay's paths from REV (candidate, parent or a "       \
	 "revspec) instead of overlay.from", NULL, CMD_PINS, 'O', 0, 0}

/* --pairs from `min_pairs` to 100000 (run 1, calibrate 5), --seed >= 0, --warmup 0 to 1000. */
#define CMD_PLAN_OPTIONS(min_pairs, pairs_help, pairs_default)                                    \
	{"pairs", 0, "N", pairs_help, pairs_default, CMD_PLAN, 'p', (min_pairs), 100000},          \
	{"seed", 0, "N", "the plan's seed (a non-negative integer); the same seed gives the same "    \
	 "order of samples", "a random seed, stored", CMD_PLAN, 's', 0, INT64_MAX},                 \
	{"warmup", 0, "N", "warmup pairs per row instead of the file's warmup: (never analysed)",     \
	 NULL, CMD_PLAN, 'w', 0, 1000}

/* --max-pairs N: a sequential plan from the plan's pairs to N (run; docs/statistics.md,
 * "Sequential plans"). */
#define CMD_MAX_PAIRS_OPTION                                                                      \
	{"max-pairs", 0, "N", "run sequentially: each row stops at the first look (its pairs, "      \
	 "doubling, up to N) where the rules decide it", NULL, CMD_PLAN, 'M', 6, 256}

/* --row NAME=VALUE: measure a subset of the matrix (repeatable; values of one parameter
 * OR together, different parameters AND). */
#define CMD_ROW_OPTION                                                                            \
	{"row", 0, "NAME=VALUE", "only the matrix rows with this value (repeatable: one parameter's " \
	 "values OR, different parameters AND); a partial run", NULL, CMD_ROWS, 'r', 0, 0}

#define CMD_STORE_OPTION                                                                          \
	{"store", 0, "DB", "the store: a file or a postgresql:// URL",                           \
	 "$ABTOOL_STORE, config store:, else .git/abtool/abtool.db",                                  \
	 CMD_STORE, 'S', 0, 0}

/* A report file's output option, from a row of the registry (report_format.h). */
#define CMD_OUTPUT_FILE_OPTION_(id, name, help, needs, render, people)                            \
	{name, 0, "F", help, NULL, CMD_OUTPUTS, CMD_OPT_FILE + AB_REPORT_FORMAT_##id, 0, 0},

/* `q` and `v`: the short forms of --quiet and --verbose, or 0 (analyze has none). */
#define CMD_OUTPUT_OPTIONS(q, v)                                                                  \
	AB_REPORT_FORMATS(CMD_OUTPUT_FILE_OPTION_)                                                \
	{"inconclusive", 0, "reject|accept", "map exit 2 (inconclusive) to 1 or 0", "exit 2",         \
	 CMD_OUTPUTS, CMD_OPT_INCONCLUSIVE, 0, 0},                                                \
	{"quiet", (q), NULL, "only errors: no progress line, no build or store lines", NULL,          \
	 CMD_OUTPUTS, 'q', 0, 0},                                                                 \
	{"verbose", (v), NULL, "one line per successful sample (row, side, time, checksum); "         \
	 "every warning in the terminal view", NULL, CMD_OUTPUTS, 'v', 0, 0}

/* --color WHEN: whether the terminal view is coloured. */
#define CMD_COLOR_OPTION                                                                          \
	{"color", 0, "auto|always|never", "colour the terminal view (auto: when stdout is a "         \
	 "terminal, NO_COLOR is unset and TERM is not dumb)", "auto", CMD_OUTPUTS, CMD_OPT_COLOR,   \
	 0, 0}

/* --format text|md: what stdout shows (run, resume, analyze), and --color. */
#define CMD_VIEW_OPTIONS                                                                          \
	{"format", 0, "text|md", "what stdout shows: the terminal view or the Markdown report",       \
	 "text on a terminal, else md", CMD_OUTPUTS, CMD_OPT_VIEW, 0, 0},                         \
	CMD_COLOR_OPTION

/* --format (-f) FORMATS with its help line and default; -o, --output FILE. */
#define CMD_FORMAT_OPTIONS(formats, format_help, format_default)                                  \
	{"format", 'f', formats, format_help, format_default, CMD_FORMAT, 'f', 0, 0},                 \
	{"output", 'o', "FILE", "write FILE (atomically) instead of stdout", "stdout", CMD_FORMAT,    \
	 'o', 0, 0}

/* -V, --version: every command takes it (CMD_HELP_OPTION includes it; a command with a --help
 * of its own, as init, lists it beside). */
#define CMD_VERSION_OPTION                                                                        \
	{"version", 'V', NULL, "print abtool's version and exit", NULL, CMD_HELP, 'V', 0, 0}

#define CMD_HELP_OPTION                                                                           \
	{"help", 'h', NULL, "show the usage and the options", NULL, CMD_HELP, 'h', 0, 0},            \
	CMD_VERSION_OPTION

/* The revisions of dependencies given with --dependency NAME=PARENT..CANDIDATE
 * (run, check, calibrate): `v` points into `text` (one copy of every argument). */
struct cmd_dep_pins {
	struct ab_dep_pin *v;
	size_t n;
	char **text;
};

/* What the shared groups fill in, and the command's own handler. */
struct cmd_args {
	const char *cmd;              /* the command's name, for messages */
	const char *store;            /* CMD_STORE: --store, or NULL */
	struct ab_run_options run;    /* CMD_REVISIONS, CMD_PLAN, CMD_PINS (dep_pins point into
	                                 `pins` once parsed) */
	struct cmd_dep_pins pins;     /* CMD_PINS: --dependency */
	struct cmd_output out;        /* CMD_OUTPUTS */
	const char *format, *output;  /* CMD_FORMAT: the command's default format, then --format;
	                                 "-" (stdout), then --output */
	/* CMD_OWN: handle option `o` (o->code) with its argument `arg` (NULL for a flag). */
	int (*own)(struct cmd_args *args, const struct cmd_option *o, const char *arg);
	void *ctx;                    /* the command's own state, for `own` */
};

/* What a handler and cmd_parse_options return to go on (otherwise: an exit code). */
#define CMD_GO_ON (-1)

/* Start `args` for command `cmd` (the groups' defaults) with the handler
 * `own` of the command's own options and its state `ctx` (both may be NULL
 * for a command without options of its own). */
void cmd_args_init(struct cmd_args *args, const char *cmd,
		   int (*own)(struct cmd_args *, const struct cmd_option *, const char *), void *ctx);

/* The own handler of a command whose ctx is one string (`const char **`:
 * set to the argument of its one option). */
int cmd_own_string(struct cmd_args *args, const struct cmd_option *o, const char *arg);

/* Release what cmd_parse_options allocated (the --dependency pins). */
void cmd_args_release(struct cmd_args *args);

/*
 * Parse the options of argv with table `options` (getopt_long, so options
 * and operands may mix; optind is then the first operand). Returns
 * CMD_GO_ON, or the exit code to return now: 0 after --help (printed) or
 * an own option that finished the command, 64 after a usage error
 * (printed, with getopt's message for an unknown option). The table may
 * be of any length; an option whose group or code its group's handler
 * does not know is abtool's own mistake, asserted (CONTRIBUTING.md,
 * "Invariants"), never a silent fall into another option.
 */
int cmd_parse_options(struct cmd_args *args, const struct cmd_option *options, int argc,
		      char **argv);

/*
 * Help, generated from the command table and the option tables
 * (cmd_help.c): `--help`, `abtool --help`, did-you-mean for options and
 * commands. docs/cli.md's option lists, the man page and the shell
 * completions come from the same tables (cmd_doc.c, cmd_complete.c).
 */

/* The command named `name` exactly, or NULL. */
const struct ab_command_entry *cmd_find_command(const char *name);

/* "abtool: 'NAME' is not a command" with "did you mean 'run'?" when one
 * is close, on stderr; returns 64. */
int cmd_unknown_command(const char *name);

/* The heading of a group in --help, the man page and docs/cli.md
 * ("Revisions", "Plan", "Output", "Store", "General"; the command's own
 * options: "Options"), and the order of the headings: groups with the
 * same rank print under one heading, in ascending rank. */
const char *cmd_group_title(enum cmd_group group);
int cmd_group_rank(enum cmd_group group);

/* "-f, --format md|json" or "--pairs N" (new string). */
char *cmd_option_label(const struct cmd_option *o);

/* The help line of `o` with its bounds and default appended:
 * "pairs per row (1 to 100000; default: 4 x ...)" (new string). */
char *cmd_option_text(const struct cmd_option *o);

/* Print `text` onto `f`, which is at column `col`, wrapped at spaces to
 * `width` columns (one column per code point), continuation lines
 * indented by `indent` spaces; a word longer than the line is not cut.
 * Ends with a newline. */
void cmd_put_wrapped(FILE *f, const char *text, size_t col, size_t indent, size_t width);

/* The same for a command's usage line (its line breaks are spaces): a
 * bracketed [--option ARG] is never broken. */
void cmd_put_usage(FILE *f, const char *usage, size_t col, size_t indent, size_t width);

/* The width help text is wrapped to: the terminal's columns on stdout,
 * else 80. */
size_t cmd_help_width(void);

/* Print the option list of table `options` onto `f`, grouped under
 * their headings, one option each ("  -q, --quiet   help (default: ...)"),
 * wrapped to `width` columns. */
void cmd_print_options(FILE *f, const struct cmd_option *options, size_t width);

/* Print `abtool --help`: the usage, the commands with their summaries,
 * the exit codes, wrapped to `width`. */
void cmd_print_commands(FILE *f, size_t width);

/* After getopt_long reported the unknown option `bad` ("--jsn" or
 * "--jsn=x"): print "abtool CMD: did you mean --json?" on stderr when an
 * option of `options` is close to it (ab_suggest), nothing for an
 * ambiguous abbreviation (getopt listed the candidates). */
void cmd_suggest_option(const char *cmd, const struct cmd_option *options, const char *bad);

/* The options of command `c` in help order (by group rank, then table
 * order): `rank` (int) and `o` (const struct cmd_option *) are the loop's. */
#define CMD_FOR_EACH_OPTION(c, rank, o)                                                           \
	for (rank = 0; rank <= cmd_group_rank(CMD_HELP); rank++)                                  \
		for (o = (c)->options; o && o->name; o++)                                         \
			if (cmd_group_rank(o->group) == rank)

/* `abtool __doc KIND [COMMAND...] [--output FILE]`, hidden: what the
 * build and scripts/gen-cli-doc generate from the tables (cmd_doc.c):
 * md (docs/cli.md's blocks), man (abtool(1), or with COMMAND its page
 * abtool-COMMAND(1); with --dir DIR every page into DIR), bash, zsh, fish
 * (completions), commands, table (the tables as TSV, for the tests). */
int cmd_doc(int argc, char **argv);

/* The man pages in mdoc (cmd_man.c): print abtool(1) onto `f` when
 * `command` is NULL, else the page abtool-COMMAND(1) of the command
 * named `command` (borrowed). AB_ENOTFOUND for no such command; AB_ERROR
 * when a command of the table has no entry in cmd_man.c's registry (its
 * description, exit status, examples and related pages). */
int cmd_print_man(FILE *f, const char *command);

/* Write every man page into the existing folder `dir`: abtool.1 and
 * abtool-NAME.1 for each command. The errors of cmd_print_man, and
 * AB_EIO (message set) for a file that cannot be written. */
int cmd_write_man_pages(const char *dir);

/* The completion scripts (cmd_complete.c): print the completion of
 * abtool for `shell` ("bash", "zsh" or "fish") onto `f`; AB_EINVALID
 * for another shell. */
int cmd_print_completion(FILE *f, const char *shell);

/*
 * compare's command line before getopt (cmd_compare_argv.c). hyperfine's
 * -P NAME MIN MAX and -L NAME VALUES joined into one word each: a new
 * argv of *newc words (the array only: its strings are argv's or new ones
 * pushed onto *joined, which the caller frees with ab_strv_free).
 */
char **cmd_compare_join_multi(int argc, char **argv, int *newc, char ***joined);

/* hyperfine's options in `av` (after cmd_compare_join_multi) rewritten
 * as compare's own in place (new strings onto *joined), or the first
 * that has no counterpart refused naming abtool's way. CMD_GO_ON, or 64
 * after the usage message. */
int cmd_compare_hyperfine(int ac, char **av, char ***joined);

/* The option tables (cmd_NAME.c). */
extern const struct cmd_option cmd_run_options[], cmd_compare_options[], cmd_check_options[], cmd_analyze_options[],
	cmd_calibrate_options[], cmd_resume_options[], cmd_report_options[], cmd_history_options[],
	cmd_show_options[], cmd_designs_options[], cmd_note_options[], cmd_config_options[],
	cmd_export_options[], cmd_import_options[], cmd_sync_options[], cmd_init_options[], cmd_env_options[],
	cmd_demo_options[], cmd_cache_options[], cmd_bisect_options[], cmd_verdict_options[],
	cmd_profile_options[], cmd_site_options[];

/*
 * Profiles (cmd_profile.c; docs/profiles.md). cmd_profile_after_run: the
 * experiment's `profile:` after a finished run's verdict is stored (run,
 * resume): messages on stderr; returns 0 (also when no profile could be
 * taken: the reason is printed) or AB_EINTERRUPTED.
 * cmd_print_profile_table: each profiled row's table of the functions whose
 * inclusive share changed most (`show --profile`). cmd_profiles_json: the
 * profiles for the HTML report, [{row, label, parent: {ok, event, runs,
 * samples, dropped, reason?, folded?}, candidate: {...}}] (new; [] when
 * there are none or the store fails). cmd_profile_folded: one side's
 * folded stacks (0 parent, 1 candidate) into new memory `*text`, each
 * stack prefixed with its row's label when several rows were profiled;
 * AB_ENOTFOUND when the side has none.
 */
int cmd_profile_after_run(struct cmd_output *out, struct ab_run *run);
int cmd_print_profile_table(FILE *f, struct ab_store *store, int64_t run_id);
json_t *cmd_profiles_json(struct ab_store *store, int64_t run_id);
int cmd_profile_folded(char **text, size_t *len, struct ab_store *store, int64_t run_id, int side);

/* Install SIGINT/SIGTERM handlers that interrupt the running sample. */
void cmd_install_signals(void);

/* After another error of a stored run (a store, I/O or internal error
 * while building or measuring): print it, and how to resume the run once
 * the cause is fixed; return the error's exit code. */
int cmd_run_failed(const struct ab_run *run, int err);

/* After AB_EINTERRUPTED: tell the user how to resume; return 128+sig. */
int cmd_interrupted(const struct ab_run *run);

/* Write `len` bytes of `text` to `path` ("-" for stdout). 0 or AB_EIO. */
int cmd_write_output(const char *path, const char *text, size_t len);

/* Text for the history commands (history, show, designs). */

/* Columns of the terminal on stdout, or 0 when stdout is not a terminal. */
int cmd_terminal_columns(void);

/* Columns of the terminal on `fd` (ioctl TIOCGWINSZ), else $COLUMNS when
 * it is a positive number, else 80. */
int cmd_fd_columns(int fd);

/* Whether `fd` is a terminal that takes control sequences: a tty and
 * TERM is not "dumb". */
int cmd_fd_smart_terminal(int fd);

/* Whether to colour what goes to `fd` for --color `mode`: always, never,
 * or (auto) when `fd` is a smart terminal and NO_COLOR is unset or empty
 * (https://no-color.org). */
int cmd_color_wanted(int mode, int fd);

/* Display width of UTF-8 text: one column per code point. */
size_t cmd_text_width(const char *s);

/* `s` on one line (control characters, newline and tab included, become
 * spaces as in cmd_term_stderr; "::" at its start and "##[" anywhere get
 * the guard's space), cut to at most
 * `max` columns with "…" when longer (max 0: no cut). New string; NULL
 * gives "". */
char *cmd_one_line(const char *s, size_t max);

/* The host's warnings (ab_env_warnings of fingerprint `host`, level
 * "warning") on stderr, one "abtool: warning: host: ..." each: what the
 * busy processes, the governor, boost and the load will cost, before the
 * builds and the first sample, as pyperf's `system show` does. */
void cmd_print_host(const json_t *host);

/* Print `s` and pad it with spaces to `width` columns. */
void cmd_put_padded(FILE *f, const char *s, size_t width);

/* Tables fitted to the screen (cmd_table.c: history, designs). */

/* The width a table on stdout is fitted to: the terminal's when stdout is
 * one (cmd_fd_columns), else $COLUMNS when it is a positive number (as
 * git and gh honour it), else 0: no limit, so that a pipe gets whole
 * columns. */
int cmd_table_columns(void);

/* One column of a table before the free text of its last column. The
 * caller sets `full` (the widest cell and header in the column's full
 * form), `min` (its narrowest: a shorter form of its values, or the width
 * a name may be elided to with "…"; `full` when it has none) and `elide`
 * (any width from `min` to `full` will do, as for a name; else only the
 * two forms); a column whose `full` is 0 is not in the table.
 * cmd_table_fit sets `width` and `shown`. */
struct cmd_column {
	size_t full, min, width;
	int elide, shown;
};

/* One step of fitting: shrink column `column` to its `min` (an elided
 * name only as far as needed), or leave it out when `drop`. */
struct cmd_fit_step {
	size_t column;
	int drop;
};

/*
 * Fit cols[0 .. n) (each followed by two spaces) and a last column of at
 * least `last_min` columns of free text into `columns` columns: the
 * steps are taken in order until they fit, then what a later step freed
 * goes back to the columns shrunk before it. Returns the columns left for
 * the last column (at least 1, though fewer than `last_min` when every
 * step was not enough), or 0 when `columns` is 0 (no limit: every column
 * shown at its full width).
 */
size_t cmd_table_fit(struct cmd_column *cols, size_t n, const struct cmd_fit_step *steps, size_t nsteps,
		     size_t columns, size_t last_min);

/* `s` on one line as cmd_one_line makes it, cut to at most `max` columns
 * (0: no cut) with "…" after the last whole word when a word ends in the
 * second half of the room, else inside the word; no separator (" ,;:")
 * is left before the "…". New string. */
char *cmd_fit_words(const char *s, size_t max);

/* "2026-11-30 05:44" from "2026-11-30T05:44:56Z" into buf (>= 17 bytes);
 * "-" for NULL. */
const char *cmd_short_time(char *buf, size_t size, const char *iso);

#endif
