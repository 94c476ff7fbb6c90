/* report_format.c - the registry of report formats (see report_format.h):
 * its rows, and the renderers of report.h behind its one signature. */
#include "report_format.h"
#include "error.h"
#include "jsontext.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ROW_(id, name, help, needs, render, people) \
	[AB_REPORT_FORMAT_##id] = {name, help, needs, render, people},
const struct ab_report_format ab_report_formats[AB_REPORT_NFORMATS] = {AB_REPORT_FORMATS(ROW_)};
#undef ROW_

const struct ab_report_format *ab_report_format_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < AB_REPORT_NFORMATS; i++)
		if (!strcmp(ab_report_formats[i].name, name))
			return &ab_report_formats[i];
	return NULL;
}

int ab_report_format_render(char **text, size_t *len, const struct ab_report_format *format,
			    const struct ab_report_render *in)
{
	FILE *f;
	int err;

	*text = NULL;
	*len = 0;
	if (!(f = open_memstream(text, len)))
		return ab_error_set(AB_EIO, "cannot render the report: %s", strerror(errno));
	err = format->render(f, in);
	if (fclose(f) != 0 && !err)
		err = ab_error_set(AB_EIO, "cannot render the report: %s", strerror(errno));
	if (err < 0) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return err;
}

int ab_report_format_json(FILE *f, const struct ab_report_render *in)
{
	char *text = ab_report_json_text(in->doc);
	size_t n = strlen(text);
	int err = fwrite(text, 1, n, f) == n ? 0 : ab_error_set(AB_EIO, "cannot write the JSON report");

	free(text);
	return err;
}

int ab_report_format_md(FILE *f, const struct ab_report_render *in)
{
	return ab_report_markdown(f, in->doc);
}

int ab_report_format_tsv(FILE *f, const struct ab_report_render *in)
{
	return ab_report_tsv(f, in->doc, in->samples, in->nsamples, in->metric_names, in->nmetrics);
}

int ab_report_format_html(FILE *f, const struct ab_report_render *in)
{
	return ab_report_html(f, in);
}

int ab_report_format_summary(FILE *f, const struct ab_report_render *in)
{
	return ab_report_summary(f, in->doc);
}

int ab_report_format_junit(FILE *f, const struct ab_report_render *in)
{
	return ab_report_junit(f, in->doc, in->inconclusive_fails);
}
