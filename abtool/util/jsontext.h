/* jsontext.h - the text of the JSON report as abtool stores and writes
 * it: one serialization, shared by the report (report_json.c builds the
 * document), the commands that write it, and the store, which rewrites
 * an imported report with its new run id. */
#ifndef AB_JSONTEXT_H
#define AB_JSONTEXT_H

#include <jansson.h>

/* Serialize the document as abtool writes it: indented, keys in insertion
 * order, reals with 10 significant digits, trailing newline (new string). */
char *ab_report_json_text(const json_t *doc);

#endif
