/* report_html.h - what the HTML report's sections (report_html.c,
 * report_html_provenance.c) share. Internal to the report layer; callers
 * use report.h (ab_report_html). */
#ifndef AB_REPORT_HTML_H
#define AB_REPORT_HTML_H

#include <stdio.h>

#include <jansson.h>

/* The Provenance section: the commits, builds, artifacts, overlay and
 * dependencies of both sides, then the host, noise, plan and compiler
 * lines; for a comparison of two commands (doc.sides), the two commands. */
void ab_report_html_provenance(FILE *f, const json_t *doc);

#endif
