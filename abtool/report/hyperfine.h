/* hyperfine.h - hyperfine's `--export-json` as `abtool analyze` reads it
 * (docs/analyze.md, "hyperfine's exports"). hyperfine runs each command
 * in a block of its own, so its runs are not pairs: every two commands
 * measured with the same parameter values make a row of medians and the
 * unpaired Mann–Whitney contrast, with no paired interval, and no rule
 * passes or fails on them (the verdict is at most inconclusive). */
#ifndef AB_HYPERFINE_H
#define AB_HYPERFINE_H

#include <stddef.h>

#include <jansson.h>

#include "experiment.h"

/* One row: command a against command b, at one set of parameter values. */
struct ab_hyperfine_row {
	json_t *params;          /* {param: value, ..., "commands": "A vs B"} (new reference) */
	char *command[2];        /* as hyperfine names them (new strings) */
	double *times_ns[2];     /* every run of each, in ns (new) */
	size_t n[2];
};

struct ab_hyperfine {
	struct ab_hyperfine_row *rows;
	size_t nrows, alloc;
	json_t *matrix;          /* {param: [values in order of first appearance]}, "commands" last */
};

/* 1 when the file `path` with `text` (len bytes) is JSON to abtool
 * analyze, for this reader rather than the pairs file's: its name ends in
 * .json, or its first character after blanks (and a UTF-8 byte order
 * mark) is '{' or '[', which no header line of a pairs file begins with.
 * A JSON file that does not parse or is no export is then named as such
 * by ab_hyperfine_read, at its line and column. */
int ab_hyperfine_is_export(const char *path, const char *text, size_t len);

/*
 * Read hyperfine's export `text` into `out` (initialised here; release
 * with ab_hyperfine_release, also on error). Results with the same
 * "parameters" form a group; each two commands of a group, in the export's
 * order, a row; at most `max_rows` rows (0: AB_LIMIT_ROWS). Errors:
 * AB_EINVALID "PATH:LINE:COLUMN: not JSON: ..." (jansson's position and
 * words), "PATH: not hyperfine's export" without a "results" array,
 * "PATH: results[i]: ..." for a result without a command or with no
 * positive finite times, "PATH: no two commands share parameter values"
 * when there is no row, more rows than `max_rows`. Time and memory are
 * linear in the results and the rows.
 */
int ab_hyperfine_read(struct ab_hyperfine *out, const char *path, const char *text, size_t len,
		      size_t max_rows);

void ab_hyperfine_release(struct ab_hyperfine *h);

/*
 * The report document of kind "analyze" (docs/reports.md) for `h`:
 * "input" `input`, "unpaired": true, the rows as `run`'s rows name their
 * fields (label, params, metric wall_ns in ns, parent and candidate:
 * {samples, median, rsd}, "ratio" the ratio of medians B/A) with "ci"
 * [null, null], "pairs" and "pair_wins" null, "unpaired": true and
 * "p_mann_whitney_unpaired" (Mann & Whitney 1947, two-sided); the rules of
 * `rules` (exp->rules, may be NULL) each "inconclusive" with the reason;
 * verdict "inconclusive". `created_at` is ISO 8601 UTC. New reference.
 */
json_t *ab_hyperfine_document(const struct ab_hyperfine *h, const char *input,
			      const struct ab_experiment *rules, const char *created_at);

#endif
