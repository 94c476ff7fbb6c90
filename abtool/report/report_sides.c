/* report_sides.c - a comparison's sides by their names in the reports'
 * text (see report_sides.h). */
#include "report_sides.h"
#include "report_common.h"

#include <stdlib.h>
#include <string.h>

void ab_report_sides_raw(FILE *f, const char *s, size_t len)
{
	fwrite(s, 1, len, f);
}

int ab_report_sides_named(const json_t *doc)
{
	return json_array_size(json_object_get(doc, "sides")) == 2;
}

/* Whether c can be part of a word or an identifier (user_ns, exact_parent). */
static int word_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

void ab_report_sides_write(FILE *f, const json_t *doc, const char *text, const struct ab_report_sides_writer *w)
{
	static const char *const words[2] = {"parent", "candidate"};
	const char *p, *start;

	if (!text)
		return;
	if (!ab_report_sides_named(doc)) {
		w->plain(f, text, strlen(text));
		return;
	}
	for (p = start = text; *p; p++) {
		int side;

		if (p > text && word_char(p[-1]))
			continue;
		for (side = 0; side < 2; side++) {
			size_t n = strlen(words[side]);
			if (!strncmp(p, words[side], n) && !word_char(p[n]))
				break;
		}
		if (side == 2)
			continue;
		if (p > start)
			w->plain(f, start, (size_t)(p - start));
		w->name(f, ab_report_side_label(doc, side));
		p += strlen(words[side]) - 1;
		start = p + 1;
	}
	if (p > start)
		w->plain(f, start, (size_t)(p - start));
}

/* A side's name as it is. */
static void name_plain(FILE *f, const char *name)
{
	fputs(name, f);
}

char *ab_report_sides_text(const json_t *doc, const char *text)
{
	static const struct ab_report_sides_writer w = {ab_report_sides_raw, name_plain};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	ab_report_sides_write(f, doc, text ? text : "", &w);
	if (fclose(f) != 0 || !buf)
		abort();
	return buf;
}
