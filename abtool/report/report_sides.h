/* report_sides.h - a comparison's sides by their names in the reports'
 * text. The document's strings name the sides "parent" and "candidate"
 * (warnings, reasons, rule details: the analysis writes them the same for
 * every kind of run), which a comparison of two commands (kind compare,
 * doc.sides with `-n NAME`) does not have; the Markdown and HTML reports
 * write those words as the sides' names instead, so that `-n short -n
 * long` reads "short" and "long" everywhere, in stored runs too. */
#ifndef AB_REPORT_SIDES_H
#define AB_REPORT_SIDES_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* How a renderer writes the two kinds of piece: `plain` the first `len`
 * bytes of the text between names (escaped as the format needs), `name` a
 * side's name (borrowed from the document; escaped, and marked as the
 * format marks a name, e.g. as code). */
struct ab_report_sides_writer {
	void (*plain)(FILE *f, const char *s, size_t len);
	void (*name)(FILE *f, const char *name);
};

/* A plain piece as it is, unescaped: for abtool's own text (the method),
 * which holds no markup. */
void ab_report_sides_raw(FILE *f, const char *s, size_t len);

/* Whether `doc` is a comparison whose sides have names (doc.sides). */
int ab_report_sides_named(const json_t *doc);

/*
 * Write `text` (NULL: nothing) onto `f` through `w`: for a comparison
 * (ab_report_sides_named), each whole word "parent" or "candidate" (not
 * inside a longer word or identifier: "parent's" matches, "parents" and
 * "exact_parent" do not) as side A's or side B's name, the rest as plain
 * pieces; for any other document, the whole text as one plain piece.
 */
void ab_report_sides_write(FILE *f, const json_t *doc, const char *text, const struct ab_report_sides_writer *w);

/*
 * `text` (NULL: "") with a comparison's "parent" and "candidate" written
 * as its sides' names, plain (no escaping or marks), as
 * ab_report_sides_write does: for the one-line texts on stderr and in
 * `abtool show` and `abtool history`. `doc` only needs its "sides" array
 * (a report document, or a stored run as show and history read it). New
 * string (the caller frees it); aborts when out of memory.
 */
char *ab_report_sides_text(const json_t *doc, const char *text);

#endif
