/* cmd_doc.c - `abtool __doc`, hidden: documentation generated from the
 * command table (main.c) and the option tables (cmd.h, "Options"), so
 * that a new command or option reaches every one of them: docs/cli.md's
 * marked blocks (scripts/gen-cli-doc), the man pages abtool(1) and
 * abtool-COMMAND(1) in mdoc (cmd_man.c) and the shell completions (both
 * made by the build, CMakeLists.txt),
 * and the tables as TSV for the tests (tests/cli/help_docs.sh). */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The usage line of `c`, "abtool NAME USAGE", wrapped to 100 columns as
 * docs/cli.md shows it (new string, with a final newline). */
static char *usage_block(const struct ab_command_entry *c)
{
	char *buf = NULL, *head = ab_xasprintf("abtool %s ", c->name);
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fputs(head, f);
	cmd_put_usage(f, c->usage, strlen(head), strlen(head), 100);
	fclose(f);
	free(head);
	return buf;
}

/* Markdown table text: '|' escaped. */
static void md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* docs/cli.md's block of command `c`: the usage, then the options. */
static void print_md(FILE *f, const struct ab_command_entry *c)
{
	const struct cmd_option *o;
	char *usage = usage_block(c), *label, *text;
	int rank, shown = -1;

	fprintf(f, "```\n%s```\n\n", usage);
	fprintf(f, "| | option | meaning |\n| --- | --- | --- |\n");
	CMD_FOR_EACH_OPTION(c, rank, o) {
		label = cmd_option_label(o);
		text = cmd_option_text(o);
		fprintf(f, "| %s | `", shown == rank ? "" : cmd_group_title(o->group));
		shown = rank;
		md_cell(f, label);
		fputs("` | ", f);
		md_cell(f, text);
		fputs(" |\n", f);
		free(text);
		free(label);
	}
	free(usage);
}

/* The list of commands at the top of docs/cli.md. */
static void print_md_commands(FILE *f)
{
	const struct ab_command_entry *c;
	char *text = ab_xstrdup("One section per command, in the order `abtool --help` lists them:"), *next;

	for (c = ab_commands; c->name; c++) {
		next = ab_xasprintf("%s [%s](#%s)%s", text, c->name, c->name, c[1].name ? "," : ".");
		free(text);
		text = next;
	}
	cmd_put_wrapped(f, text, 0, 0, 72);
	free(text);
}

/* The tables as TSV, one option a line: command, label, heading, text. */
static void print_table(FILE *f)
{
	const struct ab_command_entry *c;
	const struct cmd_option *o;
	char *label, *text;
	int rank;

	for (c = ab_commands; c->name; c++)
		CMD_FOR_EACH_OPTION(c, rank, o) {
			label = cmd_option_label(o);
			text = cmd_option_text(o);
			fprintf(f, "%s\t%s\t%s\t%s\n", c->name, label, cmd_group_title(o->group), text);
			free(label);
			free(text);
		}
}

int cmd_doc(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "", *output = "-", *man_command = NULL, *dir = NULL;
	const struct ab_command_entry *c;
	char *buf = NULL;
	size_t len = 0;
	int i, err = 0, named = 0;
	FILE *f = open_memstream(&buf, &len);

	for (i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "--output") || !strcmp(argv[i], "-o")) && i + 1 < argc) {
			output = argv[++i];
		} else if (!strcmp(kind, "man") && !strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(kind, "man") && !man_command && argv[i][0] != '-') {
			man_command = argv[i];
		} else if (!strcmp(kind, "md") && !strcmp(argv[i], "--commands")) {
			print_md_commands(f);
			named = 1;
		} else if (!strcmp(kind, "md") && (c = cmd_find_command(argv[i]))) {
			print_md(f, c);
			named = 1;
		} else {
			fclose(f);
			free(buf);
			if (!strcmp(kind, "md"))
				return cmd_unknown_command(argv[i]);
			fprintf(stderr, "abtool __doc: unexpected argument '%s'\n", argv[i]);
			return AB_EXIT_USAGE;
		}
	}
	if (!strcmp(kind, "md") && !named)
		for (c = ab_commands; c->name; c++)
			fprintf(f, "%s\n", c->name);  /* the commands that have a block */
	else if (!strcmp(kind, "man") && dir)
		err = cmd_write_man_pages(dir);
	else if (!strcmp(kind, "man"))
		err = cmd_print_man(f, man_command);
	else if (!strcmp(kind, "table"))
		print_table(f);
	else if (!strcmp(kind, "commands"))
		for (c = ab_commands; c->name; c++)
			fprintf(f, "%s\t%s\n", c->name, c->summary);
	else if (strcmp(kind, "md"))
		err = cmd_print_completion(f, kind);
	fclose(f);
	if (err < 0 && !strcmp(kind, "man")) {
		free(buf);
		return cmd_fail(err);
	}
	if (err < 0) {
		free(buf);
		fprintf(stderr, "usage: abtool __doc md [COMMAND...|--commands] | man [COMMAND | --dir DIR] | "
			"table | commands | bash | zsh | fish [--output FILE]\n");
		return AB_EXIT_USAGE;
	}
	err = cmd_write_output(output, buf, len);
	free(buf);
	return err < 0 ? cmd_fail(err) : 0;
}
