/* jsontext.c - the report's JSON text (see jsontext.h). */
#include "jsontext.h"
#include "util.h"

#include <stdlib.h>

char *ab_report_json_text(const json_t *doc)
{
	char *body = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	char *text = ab_xasprintf("%s\n", body);

	free(body);
	return text;
}
