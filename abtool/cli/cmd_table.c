/* cmd_table.c - tables of the history commands (history, designs) fitted
 * to the width of the screen they are shown on, as git log --oneline and
 * gh's tables are: shorter forms of values first, then names elided with
 * "…", then the least important columns left out, and the free text of
 * the last column cut at a word with "…" (see cmd.h). */
#include "cmd.h"
#include "util.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_table_columns(void)
{
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (isatty(STDOUT_FILENO))
		return cmd_fd_columns(STDOUT_FILENO);
	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n > 0 && n < 100000)
			return (int)n;
	}
	return 0;
}

/* The columns the shown columns take, two spaces after each. */
static size_t used_width(const struct cmd_column *cols, size_t n)
{
	size_t i, used = 0;

	for (i = 0; i < n; i++)
		if (cols[i].shown)
			used += cols[i].width + 2;
	return used;
}

size_t cmd_table_fit(struct cmd_column *cols, size_t n, const struct cmd_fit_step *steps, size_t nsteps,
		     size_t columns, size_t last_min)
{
	size_t i, used, spare;

	for (i = 0; i < n; i++) {
		cols[i].width = cols[i].full;
		cols[i].shown = cols[i].full > 0;
	}
	if (!columns)
		return 0;
	for (i = 0; i < nsteps && used_width(cols, n) + last_min > columns; i++) {
		struct cmd_column *c = &cols[steps[i].column];
		size_t over = used_width(cols, n) + last_min - columns;

		assert(steps[i].column < n);
		if (steps[i].drop)
			c->shown = 0;
		else if (c->elide)
			c->width = c->width - c->min > over ? c->width - over : c->min;
		else
			c->width = c->min;
	}
	/* What a later step freed goes back to the columns shrunk before it,
	 * the most reluctant (the last shrunk) first. */
	used = used_width(cols, n);
	spare = used + last_min < columns ? columns - used - last_min : 0;
	while (i-- > 0 && spare) {
		struct cmd_column *c = &cols[steps[i].column];
		size_t grow = c->full - c->width;

		if (steps[i].drop || !c->shown || !grow)
			continue;
		if (c->elide && grow > spare)
			grow = spare;
		if (grow <= spare) {
			c->width += grow;
			spare -= grow;
		}
	}
	used = used_width(cols, n);
	return used + 1 < columns ? columns - used : 1;
}

char *cmd_fit_words(const char *s, size_t max)
{
	char *line = cmd_one_line(s, 0), *out;
	size_t i, cols = 0, cut = 0, space = 0, space_cols = 0;

	if (!max || cmd_text_width(line) <= max)
		return line;
	/* the bytes of the first max - 1 columns, leaving one for "…" */
	for (i = 0; line[i]; i++) {
		if (((unsigned char)line[i] & 0xc0) == 0x80)
			continue;
		if (cols == max - 1)
			break;
		if (line[i] == ' ') {
			space = i;
			space_cols = cols;
		}
		cols++;
	}
	cut = i;
	/* At a word when one ends in the second half: a cut word reads as
	 * another word or number ("abo…", "1.6…"). */
	if (line[cut] != ' ' && space && space_cols >= max / 2)
		cut = space;
	while (cut > 0 && strchr(" ,;:", line[cut - 1]))
		cut--;
	out = ab_xasprintf("%.*s…", (int)cut, line);
	free(line);
	return out;
}
