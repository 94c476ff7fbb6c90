/* pairs_file.h - the input reader of `abtool analyze`: pairs collected
 * elsewhere, as TSV or CSV (parsed with libcsv), turned into an experiment
 * and samples that the same analysis as `abtool run` decides on.
 *
 * Two layouts (docs/analyze.md):
 *   long:  parameter columns…, pair, side, value [, order]
 *          one line per sample; side is parent|candidate (or A|B)
 *   wide:  parameter columns…, [pair,] parent, candidate [, order]
 *          one line per pair
 * Every other column is a matrix parameter; its values, in order of first
 * appearance, make the rows. `order` (AB or BA) is optional; without it
 * the order effect is not computed. Lines whose first field starts with
 * '#' are comments. */
#ifndef AB_PAIRS_FILE_H
#define AB_PAIRS_FILE_H

#include "config.h"
#include "sample.h"

/* The default bounds of a pairs file (abtool analyze --max-rows,
 * --max-line-bytes): a file beyond them is refused with a message naming
 * the option that raises them. The analysis and its report cost about
 * 30 KB per row; no line of a pairs file comes near 1 MiB. */
#define AB_PAIRS_MAX_ROWS AB_LIMIT_ROWS
#define AB_PAIRS_MAX_LINE (1u << 20)

struct ab_pairs_file_options {
	const char *metric;     /* name of the value, default "value" */
	const char *unit;       /* default "" ("ns" and "bytes" format by magnitude) */
	enum ab_better better;  /* default lower */
	size_t max_rows;        /* the most rows the parameter columns may make; 0: AB_PAIRS_MAX_ROWS
	                           (at most AB_MAX_ROWS) */
	size_t max_line;        /* the longest line in bytes; 0: AB_PAIRS_MAX_LINE */
};

struct ab_pairs_file {
	struct ab_experiment exp;    /* synthesized: matrix, one metric, pairs = most pairs of a row */
	struct ab_sample *samples;   /* all DONE, in row and pair order (new) */
	size_t nsamples;
	int wide;                    /* 1: wide layout, 0: long */
	int has_order;               /* an order column was given */
};

/*
 * Read `text` (len bytes; `path` names it in messages and decides the
 * delimiter: ".csv" → comma, otherwise tab, unless the header has no tab
 * but commas). `out` is initialised here; release with
 * ab_pairs_file_release, also on error. Errors: AB_EINVALID with
 * "PATH:LINE: column 'x': what is wrong" (a missing column, a column
 * named twice, a value that is not a positive number, an unknown side, a
 * pair given twice, a pair with only one side, no data, a line longer
 * than opt->max_line, parameter columns that make more rows than
 * opt->max_rows). LINE is the line a record ends on, the last line too
 * when the file does not end with a newline. Memory and time are linear
 * in the file's size and its rows.
 */
int ab_pairs_file_read(struct ab_pairs_file *out, const char *path, const char *text, size_t len,
		       const struct ab_pairs_file_options *opt);

/* Free what ab_pairs_file_read allocated in `in` and zero it. */
void ab_pairs_file_release(struct ab_pairs_file *in);

#endif
