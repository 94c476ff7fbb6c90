/* report_md.h - what the Markdown report's sections (report_md.c,
 * report_md_provenance.c, report_md_rows.c) share: the writing of a
 * document's string as Markdown, and each section. Internal to the report
 * layer; callers use report.h (ab_report_markdown, ab_report_summary). */
#ifndef AB_REPORT_MD_H
#define AB_REPORT_MD_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * Every string of the report document (what users, benchmarks, git and
 * input files wrote, and what the store holds) reaches the Markdown
 * through ab_report_md() (md_write in report_md.c), which renders it as
 * the text it is, inline, on the line abtool's own text started:
 *
 * - line breaks and the other control characters become spaces (C0,
 *   DEL, and the C1 controls U+0080-U+009F as UTF-8, C2 80 to C2 9F: CSI
 *   C2 9B acts like ESC [ on a UTF-8 terminal), so a string can neither
 *   end its line nor start a block: no heading, list item, quote, fence,
 *   table row or forged "**Verdict" line, and no escape sequence;
 * - as text (MD_TEXT), '<', '>' and '&' become &lt; &gt; &amp;, so no HTML
 *   tag, comment, entity or autolink is formed (GitHub shows them as the
 *   characters), and a backslash before punctuation or at the end is
 *   doubled, so it escapes neither the string's next character nor
 *   abtool's text after it; '*', '~' and '`', '_' unless it stands
 *   between two letters or digits (where it cannot emphasize), and ']'
 *   before '(', '[' or at the end get a backslash, so a string cannot
 *   make text bold, struck through or code, or link or embed an image:
 *   it shows as the characters it is (a bare URL still becomes a link);
 * - as code (MD_CODE), the string goes between fences one backtick longer
 *   than its longest run of backticks (CommonMark 6.1), with a space
 *   inside each fence when it starts or ends with a backtick or a space,
 *   so nothing in it ends the span early, and inside a span nothing is
 *   markup; MD_BLOCK does the same as a fenced code block (at least
 *   three backticks);
 * - in a table cell (MD_CELL), '|' is written '\|', which GitHub's table
 *   parser (cmark-gfm) takes as a pipe of the cell before it parses the
 *   inlines, in code spans too, so a string cannot end its cell.
 *
 * See docs/security.md, "Reports".
 */
enum { MD_TEXT = 0, MD_CELL = 1, MD_CODE = 2, MD_BLOCK = 4 };

/* A whole string (NULL: empty) as `how` (MD_*) says. */
void ab_report_md(FILE *f, const char *s, unsigned how);

/* At most the first `n` bytes of `s` as `how` says: an object id's short
 * form, a line of a longer text. */
void ab_report_md_short(FILE *f, const char *s, size_t n, unsigned how);

/* A string of the document `doc` (NULL: empty) as text (MD_TEXT), a
 * comparison's "parent" and "candidate" as its sides' names in code spans
 * (report_sides.h): the warnings, the reasons and the rules' details. */
void ab_report_md_text(FILE *f, const json_t *doc, const char *s);

/* The Provenance section (report_md_provenance.c): the commits, builds,
 * overlay, dependencies and inputs of both sides, the partial run's note
 * and the run's lines; for a comparison of two commands
 * (doc.sides), the two commands instead of commits and builds. */
void ab_report_md_provenance(FILE *f, const json_t *doc);
void ab_report_md_sides_provenance(FILE *f, const json_t *doc);

/* A partial run's note (--row, doc.subset): what was measured, added,
 * and not evaluated. Nothing when subset is not an object. */
void ab_report_md_subset_note(FILE *f, const json_t *subset);

/* The summary's inputs beyond the two commits, one short line each: the
 * overlay (both sides ran these paths) and the dependencies. */
void ab_report_md_summary_inputs(FILE *f, const json_t *doc);

/* The Rows table (report_md_rows.c) of doc.rows (at least one): each
 * row's parameters, each side's median, RSD (and scaling), the ratio with
 * its interval, pair wins, checksum (and a group's host), then the notes
 * under it. */
void ab_report_md_rows(FILE *f, const json_t *doc);

/* The Other metrics table (ab_report_other_metrics): nothing when the rows
 * measure one metric only. */
void ab_report_md_other_metrics(FILE *f, const json_t *doc);

#endif
