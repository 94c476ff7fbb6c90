/* report_speedup.h - hyperfine's summary line for a comparison of two
 * commands (`sides:`, abtool compare): per row, which side is faster and
 * by how much, with the decision interval ("`fast` ran 1.98 [1.90, 2.05]
 * times faster than `slow`"), or that no difference is shown. The text
 * view (report_text.c) prints it under the rows, the Markdown report
 * (report_md.c) under the verdict; docs/cli.md, "compare", describes it.
 * Internal to the report layer. */
#ifndef AB_REPORT_SPEEDUP_H
#define AB_REPORT_SPEEDUP_H

#include <stdio.h>

#include <jansson.h>

#include "report_common.h"

/*
 * The summary lines of document `doc` (borrowed), one per row with a
 * decision interval, as plain text: the sides' names in backticks, their
 * control characters as spaces; a row of a matrix leads with its label.
 * Where the interval [L, U] of B/A excludes 1 the faster side's speed-up
 * is shown with its interval (1/ratio and [1/U, 1/L] when B is faster on
 * a lower-is-better metric); otherwise "no difference shown", which is
 * not equivalence (or, for a sequential row whose looks' intervals do not
 * intersect, that nothing is decided), its bounds with the digits that
 * keep one near 1 from printing as 1.000 (3 to 6). A sequential row's
 * estimate (of all pairs) outside its repeated interval is said to lie
 * outside. A time metric (unit ns) "ran N times faster", any
 * other metric "was N times better on METRIC". `glue` is the byte that
 * joins the words a wrapped line must keep together (a number and its
 * interval), or ' '. NULL for a document without `sides` or an invalid
 * one; else a new NULL-terminated array (ab_strv_free), possibly empty.
 */
char **ab_report_speedup_lines(const json_t *doc, char glue);

/* The same lines onto `f` in a renderer's markup `m` (its code for the
 * names, its text for the rest): one line each, as a list item ("- ")
 * when there are several, then a blank line; nothing when there are
 * none. With the Markdown report's markup, its paragraph under the
 * verdict. */
void ab_report_speedups(FILE *f, const json_t *doc, const struct ab_report_markup *m);

#endif
