/* cmd_help.c - help made from the command table (main.c) and the option
 * tables (cmd.h, "Options"): `abtool --help`, `abtool COMMAND --help`,
 * the option labels and texts that docs/cli.md, the man page and the
 * completions share, and did-you-mean for options and commands. */
#include "cmd.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const struct ab_command_entry *cmd_find_command(const char *name)
{
	const struct ab_command_entry *c;

	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int cmd_unknown_command(const char *name)
{
	const char *names[64], *near;
	size_t n = 0;
	const struct ab_command_entry *c;

	for (c = ab_commands; c->name && n < sizeof(names) / sizeof(names[0]); c++)
		names[n++] = c->name;
	near = ab_suggest(name, names, n);
	if (near)
		fprintf(stderr, "abtool: '%s' is not a command; did you mean '%s'? see 'abtool --help'\n",
			name, near);
	else
		fprintf(stderr, "abtool: '%s' is not a command; see 'abtool --help'\n", name);
	return AB_EXIT_USAGE;
}

const char *cmd_group_title(enum cmd_group group)
{
	switch (group) {
	case CMD_OWN:
		return "Options";
	case CMD_REVISIONS:
	case CMD_PINS:
		return "Revisions";
	case CMD_PLAN:
	case CMD_ROWS:
		return "Plan";
	case CMD_OUTPUTS:
	case CMD_FORMAT:
		return "Output";
	case CMD_STORE:
		return "Store";
	default:
		return "General";
	}
}

int cmd_group_rank(enum cmd_group group)
{
	static const int rank[CMD_NGROUPS] = {
		[CMD_OWN] = 0, [CMD_REVISIONS] = 1, [CMD_PINS] = 1, [CMD_PLAN] = 2, [CMD_ROWS] = 2,
		[CMD_OUTPUTS] = 3, [CMD_FORMAT] = 3, [CMD_STORE] = 4, [CMD_HELP] = 5,
	};

	return group < CMD_NGROUPS ? rank[group] : 5;
}

char *cmd_option_label(const struct cmd_option *o)
{
	const char *sp = o->arg ? " " : "", *arg = o->arg ? o->arg : "";

	if (o->letter)
		return ab_xasprintf("-%c, --%s%s%s", o->letter, o->name, sp, arg);
	return ab_xasprintf("--%s%s%s", o->name, sp, arg);
}

char *cmd_option_text(const struct cmd_option *o)
{
	char bounds[64] = "";
	size_t n = strlen(o->help);

	if (o->max > o->min && o->max != INT64_MAX)
		snprintf(bounds, sizeof(bounds), "%lld to %lld", o->min, o->max);
	/* "(never analysed)" + bounds: "(never analysed; 0 to 1000)" */
	if (*bounds && !o->def && n && o->help[n - 1] == ')')
		return ab_xasprintf("%.*s; %s)", (int)(n - 1), o->help, bounds);
	if (*bounds && o->def)
		return ab_xasprintf("%s (%s; default: %s)", o->help, bounds, o->def);
	if (*bounds)
		return ab_xasprintf("%s (%s)", o->help, bounds);
	if (o->def)
		return ab_xasprintf("%s (default: %s)", o->help, o->def);
	return ab_xstrdup(o->help);
}

size_t cmd_help_width(void)
{
	int cols = cmd_terminal_columns();

	return cols > 0 ? (size_t)cols : 80;
}

/* The length of the word at `s` (up to a space; with `groups`, a space
 * inside [...] belongs to the word). */
static size_t word_len(const char *s, int groups)
{
	size_t n = 0;
	int depth = 0;

	for (; s[n] && ((s[n] != ' ' && s[n] != '\n') || depth > 0); n++) {
		if (groups && s[n] == '[')
			depth++;
		else if (groups && s[n] == ']' && depth > 0)
			depth--;
	}
	return n;
}

/* cmd_put_wrapped, with `groups`: keep each [...] of a usage line on one
 * line, unless it is wider than a line from `indent` (then it breaks at
 * its spaces, as text does). */
static void wrap(FILE *f, const char *text, size_t col, size_t indent, size_t width, int groups)
{
	size_t n, w, start = col;
	char *word;

	while (*text) {
		while (*text == ' ' || *text == '\n')
			text++;
		if (!*text)
			break;
		n = word_len(text, groups);
		word = ab_xstrndup(text, n);
		w = cmd_text_width(word);
		if (groups && n > word_len(text, 0) && indent + w > width) {
			/* a [...] wider than a line of its own breaks at its spaces */
			free(word);
			n = word_len(text, 0);
			word = ab_xstrndup(text, n);
			w = cmd_text_width(word);
		}
		if (col > start && col + 1 + w > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += w;
		free(word);
		text += n;
	}
	fputc('\n', f);
}

void cmd_put_wrapped(FILE *f, const char *text, size_t col, size_t indent, size_t width)
{
	wrap(f, text, col, indent, width, 0);
}

void cmd_put_usage(FILE *f, const char *usage, size_t col, size_t indent, size_t width)
{
	wrap(f, usage, col, indent, width, 1);
}

/* The column the help of an option starts at, and the label's room. */
#define HELP_COL 28

void cmd_print_options(FILE *f, const struct cmd_option *options, size_t width)
{
	const struct cmd_option *o;
	int rank, printed = 0;
	size_t col, indent = width < 60 ? 8 : HELP_COL;
	char *label, *text;

	for (rank = 0; rank <= cmd_group_rank(CMD_HELP); rank++) {
		int heading = 0;
		for (o = options; o && o->name; o++) {
			if (cmd_group_rank(o->group) != rank)
				continue;
			if (!heading)
				fprintf(f, "%s%s:\n", printed ? "\n" : "", cmd_group_title(o->group));
			heading = printed = 1;
			label = cmd_option_label(o);
			text = cmd_option_text(o);
			fprintf(f, "  %s", label);
			col = 2 + cmd_text_width(label);
			if (col + 2 > indent) {
				fprintf(f, "\n%*s", (int)indent, "");
			} else {
				fprintf(f, "%*s", (int)(indent - col), "");
			}
			cmd_put_wrapped(f, text, indent, indent, width);
			free(label);
			free(text);
		}
	}
}

int cmd_help(const char *name)
{
	const struct ab_command_entry *c = cmd_find_command(name);
	size_t width = cmd_help_width();
	char *head;

	if (!c)
		return cmd_unknown_command(name);
	head = ab_xasprintf("usage: abtool %s ", c->name);
	fputs(head, stdout);
	cmd_put_usage(stdout, c->usage, strlen(head), width < 60 ? 8 : strlen(head), width);
	fputc('\n', stdout);
	cmd_put_wrapped(stdout, c->summary, 0, 0, width);
	if (c->options && c->options->name) {
		fputc('\n', stdout);
		cmd_print_options(stdout, c->options, width);
	}
	printf("\n");
	cmd_put_wrapped(stdout, "More in 'man abtool' and docs/cli.md.", 0, 0, width);
	free(head);
	return 0;
}

void cmd_print_commands(FILE *f, size_t width)
{
	const struct ab_command_entry *c;
	size_t indent = width < 60 ? 4 : 13;

	fprintf(f, "usage: abtool COMMAND [ARGS]\n       abtool --help | --version\n\n");
	cmd_put_wrapped(f, "abtool " ABTOOL_VERSION ": exact-parent A/B performance experiments.", 0, 0,
			width);
	fprintf(f, "\ncommands:\n");
	for (c = ab_commands; c->name; c++) {
		fprintf(f, "  %-10s", c->name);
		if (indent < 13)
			fprintf(f, "\n%*s", (int)indent, "");
		else
			fputc(' ', f);
		cmd_put_wrapped(f, c->summary, indent, indent, width);
	}
	fputc('\n', f);
	cmd_put_wrapped(f, "exit codes of run and resume: 0 accepted, 1 rejected, 2 inconclusive, "
			"3 invalid, 64 bad command line or experiment file, 70 internal error, 74 I/O or "
			"store error, 130/143 interrupted (the run is kept: abtool resume RUN).", 0, 0, width);
	cmd_put_wrapped(f, "'abtool COMMAND --help' (or 'abtool help COMMAND') shows a command's "
			"options; 'man abtool' has them all.", 0, 0, width);
}

void cmd_suggest_option(const char *cmd, const struct cmd_option *options, const char *bad)
{
	const char *names[64], *near;
	const struct cmd_option *o;
	size_t n = 0, prefixed = 0, len;
	char *name;

	if (strncmp(bad, "--", 2) || !bad[2])
		return;
	len = strcspn(bad + 2, "=");
	name = ab_xstrndup(bad + 2, len);
	for (o = options; o->name && n < sizeof(names) / sizeof(names[0]); o++) {
		names[n++] = o->name;
		prefixed += !strncmp(o->name, name, len);
	}
	/* an ambiguous abbreviation: getopt listed the possibilities */
	near = prefixed > 1 ? NULL : ab_suggest(name, names, n);
	if (near)
		fprintf(stderr, "abtool %s: did you mean --%s?\n", cmd, near);
	free(name);
}
