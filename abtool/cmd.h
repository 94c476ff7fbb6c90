/* cmd.h - what the commands share: the command table's entry, the store
 * location rule, progress and error printing. Only cmd_*.c and main.c
 * print or exit (STYLE.md). */
#ifndef AB_CMD_H
#define AB_CMD_H

#include <stdio.h>

#include <jansson.h>

#include "analysis.h"
#include "run.h"
#include "store.h"

/* Exit codes of DESIGN.md ("Command line"). */
enum {
	AB_EXIT_ACCEPTED = 0,
	AB_EXIT_REJECTED = 1,
	AB_EXIT_INCONCLUSIVE = 2,
	AB_EXIT_INVALID = 3,
	AB_EXIT_USAGE = 64,
	AB_EXIT_INTERNAL = 70,
	AB_EXIT_IO = 74,
};

struct ab_command_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;     /* after "abtool NAME " */
	const char *summary;   /* one line */
};

/* The table (main.c), terminated by a NULL name. */
extern const struct ab_command_entry ab_commands[];

int cmd_run(int argc, char **argv);
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
int cmd_note(int argc, char **argv);
int cmd_config(int argc, char **argv);

/* 1 when the store's setting `key` (abtool config) is "true". */
struct ab_store;
int cmd_store_flag_true(struct ab_store *store, const char *key);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);

/* Print "abtool: MESSAGE" for the last error and return its exit code. */
int cmd_fail(int err);

/* Print a usage error for command `name` and return 64. */
int cmd_usage(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After getopt reported an unknown option or a missing argument: print
 * the command's usage to stderr and return 64. */
int cmd_bad_option(const char *name);

/* Print the usage of command `name` to stdout; returns 0 (for --help). */
int cmd_help(const char *name);

/* Print "abtool: warning: ..." to stderr. */
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Route stdout through a filter that turns control characters other than
 * newline and tab into spaces: for the text of `show` and `check`, which
 * prints commit subjects, names and notes that a repository or a pull
 * request controls (an escape sequence could retitle or rewrite the
 * terminal). */
void cmd_plain_stdout(void);

/* Warn that the parent descends from the candidate (ab_revs.parent_descends):
 * --candidate and --parent were probably swapped. */
struct ab_revs;
void cmd_warn_swapped(const struct ab_revs *revs);

/*
 * Open the store: `flag` (--store) when given, else $ABTOOL_STORE, else
 * .git/abtool/abtool.db in the common git directory of `repo_dir` (or of
 * the working directory when NULL). Prints nothing; returns the error.
 */
int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir);

/* The path cmd_open_store would open (new string); the same errors. */
int cmd_store_path(char **out, const char *flag, const char *repo_dir);

/* Output options shared by run and resume. */
struct cmd_output {
	const char *json_path, *md_path, *tsv_path, *html_path;
	const char *summary_path;  /* --summary: the short Markdown summary */
	const char *junit_path;    /* --junit: JUnit XML, one test case per rule and row */
	int quiet, verbose;
	int inconclusive_exit;     /* exit code for an inconclusive verdict: 2, or 1/0 with
	                              --inconclusive=reject|accept */
	int progress;              /* stderr is a terminal and not quiet */
	int progress_dirty;        /* a progress line is on screen */
	int warned_truncated;      /* the output_truncated warning was printed */
	const struct ab_run *run;  /* borrowed: the run being measured, for the hints that
	                              name a failed sample's folder and command; or NULL */
};

/* Option codes of the output options every measuring command shares. */
enum {
	CMD_OPT_JSON = 1000, CMD_OPT_MD, CMD_OPT_TSV, CMD_OPT_HTML, CMD_OPT_SUMMARY, CMD_OPT_JUNIT,
	CMD_OPT_INCONCLUSIVE,
};

/* Their getopt_long entries, to put in a command's option table. */
#define CMD_OUTPUT_LONGOPTS                                                   \
	{"json", required_argument, NULL, CMD_OPT_JSON},                      \
	{"md", required_argument, NULL, CMD_OPT_MD},                          \
	{"tsv", required_argument, NULL, CMD_OPT_TSV},                        \
	{"html", required_argument, NULL, CMD_OPT_HTML},                      \
	{"summary", required_argument, NULL, CMD_OPT_SUMMARY},                \
	{"junit", required_argument, NULL, CMD_OPT_JUNIT},                    \
	{"inconclusive", required_argument, NULL, CMD_OPT_INCONCLUSIVE},      \
	{"quiet", no_argument, NULL, 'q'},                                    \
	{"verbose", no_argument, NULL, 'v'}

/* Defaults: no files, inconclusive exits 2. */
void cmd_output_init(struct cmd_output *out);

/*
 * Handle option `c` (with `arg`) if it is one of CMD_OUTPUT_LONGOPTS:
 * returns 1 when handled, 0 when it is not an output option, and -1 after
 * printing a usage error of command `cmd` (exit 64).
 */
int cmd_output_option(struct cmd_output *out, const char *cmd, int c, const char *arg);

/* Erase the progress line, if one is on screen, before printing anything
 * else (cmd_progress.c). */
void cmd_clear_progress(struct cmd_output *out);

/* Events that print builds and progress according to `out` (ctx = out). */
struct ab_run_events cmd_run_events(struct cmd_output *out);

/*
 * Render a report document in `format` ("md", "json", "tsv", "html",
 * "summary" or "junit") into new memory `*text` (free() it) of `*len`
 * bytes. "tsv" needs the run's samples (borrowed; metric_names[i] names
 * samples[k].metrics[i]). `inconclusive_fails` makes JUnit count
 * inconclusive rows as failures (--inconclusive=reject). Returns 0,
 * AB_EINVALID for an unknown format, or AB_EIO.
 */
int cmd_render_report(char **text, size_t *len, const char *format, const json_t *doc,
		      const struct ab_sample *samples, size_t nsamples,
		      const char *const *metric_names, size_t nmetrics, int inconclusive_fails);

/*
 * Print the Markdown report to stdout, write the --json/--md/--tsv/--html
 * files, and return the verdict's exit code (or an I/O error's). Every
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

/* Print what the newest calibration of this experiment file says about
 * `pairs` planned pairs (nothing when there is none). */
void cmd_print_calibration(FILE *f, struct ab_store *store, const struct ab_experiment *exp);

/* The revisions of dependencies given with --dependency NAME=PARENT..CANDIDATE
 * (run, check): `v` points into `text` (one copy of every argument). */
struct cmd_dep_pins {
	struct ab_dep_pin *v;
	size_t n;
	char **text;
};

/* Add the --dependency argument `arg` of command `cmd` to `pins`: 0, or
 * -1 after printing a usage error (exit 64). Whether NAME is one of the
 * experiment's dependencies is checked when the run resolves them. */
int cmd_dep_pin_add(struct cmd_dep_pins *pins, const char *cmd, const char *arg);

void cmd_dep_pins_release(struct cmd_dep_pins *pins);

/* The options run, check and calibrate share for the revisions of the
 * other repositories: option code 'd' (--dependency, added to `pins`)
 * and 'O' (--overlay-from, into opt->overlay_from; `arg` is borrowed).
 * 1 when `c` was one of them, 0 when not, -1 after a usage error of
 * command `cmd` (exit 64). */
int cmd_pin_option(struct cmd_dep_pins *pins, struct ab_run_options *opt, const char *cmd, int c,
		   const char *arg);

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

/* Display width of UTF-8 text: one column per code point. */
size_t cmd_text_width(const char *s);

/* `s` on one line (control characters become spaces), cut to at most
 * `max` columns with "…" when longer (max 0: no cut). New string; NULL
 * gives "". */
char *cmd_one_line(const char *s, size_t max);

/* Print `s` and pad it with spaces to `width` columns. */
void cmd_put_padded(FILE *f, const char *s, size_t width);

/* "2026-11-30 05:44" from "2026-11-30T05:44:56Z" into buf (>= 17 bytes);
 * "-" for NULL. */
const char *cmd_short_time(char *buf, size_t size, const char *iso);

#endif
