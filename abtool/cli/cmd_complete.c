/* cmd_complete.c - the bash, zsh and fish completions of abtool,
 * generated from the command table (main.c) and the option tables (cmd.h,
 * "Options") by `abtool __doc bash|zsh|fish` at build time
 * (CMakeLists.txt installs them): the commands, each command's options,
 * the values of an option whose argument lists them ("md|json|tsv"), the
 * templates and workflows of `init`, files where a file is expected (the
 * *.yaml and *.yml files, and folders, where an experiment or rules file
 * is), the branches and tags of the working directory's repository where a
 * revision is, and the run ids of the store (`abtool history --ids`)
 * where a run is. */
#include "cmd.h"
#include "embed.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What an argument takes. */
enum arg_kind {
	ARG_TEXT,    /* anything: nothing to offer */
	ARG_FILE,
	ARG_DIR,
	ARG_VALUES,  /* one of a list of words */
	ARG_RUN,     /* a run of the store */
	ARG_YAML,    /* an experiment or rules file: *.yaml, *.yml, or a folder on the way */
	ARG_REV,     /* a git revision: a branch, a tag, HEAD */
};

/* The embedded files under `dir` ending in `ext`, their names without it, joined by spaces
 * into `out` (new string). */
static char *embedded_names(const char *dir, const char *ext)
{
	const struct ab_embedded_file *e;
	size_t dl = strlen(dir), el = strlen(ext), pl;
	char *out = ab_xstrdup(""), *next;

	for (e = ab_embedded; e->path; e++) {
		pl = strlen(e->path);
		if (strncmp(e->path, dir, dl) || pl <= dl + el || strcmp(e->path + pl - el, ext) ||
		    strchr(e->path + dl, '/'))
			continue;
		next = ab_xasprintf("%s%s%.*s", out, *out ? " " : "", (int)(pl - dl - el), e->path + dl);
		free(out);
		out = next;
	}
	return out;
}

/* The kind of the argument of option `o` of command `c`; with ARG_VALUES, `*values` is the
 * words joined by spaces (new string). */
static enum arg_kind option_arg(const struct ab_command_entry *c, const struct cmd_option *o,
				char **values)
{
	static const char *const files[] = {"F", "FILE", "DB", NULL};
	size_t i;
	char *p;

	*values = NULL;
	if (!strcmp(c->name, "init") && !strcmp(o->name, "template")) {
		*values = embedded_names("templates/init/", ".yaml");
		return ARG_VALUES;
	}
	if (!strcmp(c->name, "init") && !strcmp(o->name, "workflow")) {
		*values = embedded_names("templates/ci/", ".yml");
		return ARG_VALUES;
	}
	if (strchr(o->arg, '|')) {
		*values = ab_xstrdup(o->arg);
		for (p = *values; *p; p++)
			if (*p == '|')
				*p = ' ';
		return ARG_VALUES;
	}
	if (!strcmp(o->arg, "DIR"))
		return ARG_DIR;
	if (!strcmp(o->arg, "EXP.yaml") || !strcmp(o->arg, "RULES.yaml"))
		return ARG_YAML;
	if (!strcmp(o->arg, "REV"))
		return ARG_REV;
	for (i = 0; files[i]; i++)
		if (!strcmp(o->arg, files[i]))
			return ARG_FILE;
	return ARG_TEXT;
}

/* What the operands of command `c` are, from the words of its usage line outside brackets
 * (or alone in them: "[FILE]", "[list]"): runs where it names RUN, files where it names FILE,
 * OUTDIR or EXP.yaml, else its subcommands where it has lowercase words ("[list] | prune [--older-than
 * DURATION] | clear": `*values`, new string). */
static enum arg_kind operand_kind(const struct ab_command_entry *c, char **values)
{
	const char *u = c->usage, *w;
	enum arg_kind kind = ARG_TEXT;
	size_t n;
	int depth, alone;
	char *next;

	*values = NULL;
	while (*u) {
		if (strchr(" \n|", *u)) {
			u++;
			continue;
		}
		/* a word, or a bracketed group with its nesting */
		for (n = 0, depth = 0; u[n] && (depth > 0 || !strchr(" \n|", u[n])); n++)
			depth += u[n] == '[' ? 1 : u[n] == ']' ? -1 : 0;
		alone = *u != '[' || (u[n - 1] == ']' && !memchr(u, ' ', n) && !memchr(u + 1, '[', n - 1));
		w = *u == '[' ? u + 1 : u;
		if (alone) {
			size_t len = *u == '[' ? n - 2 : n;
			if (len == 3 && !strncmp(w, "RUN", 3))
				kind = ARG_RUN;
			else if (kind == ARG_TEXT && ((len == 4 && !strncmp(w, "FILE", 4)) ||
						      (len == 6 && !strncmp(w, "OUTDIR", 6))))
				kind = ARG_FILE;  /* a folder: the files' completion offers folders too */
			else if (kind == ARG_TEXT && len == 8 && !strncmp(w, "EXP.yaml", 8))
				kind = ARG_YAML;
			else if (len && islower((unsigned char)*w) &&
				 strspn(w, "abcdefghijklmnopqrstuvwxyz-") == len) {
				next = ab_xasprintf("%s%s%.*s", *values ? *values : "", *values ? " " : "",
						    (int)len, w);
				free(*values);
				*values = next;
			}
		}
		u += n;
	}
	return *values ? ARG_VALUES : kind;
}

/* `s` with each `quote` (and backslash) preceded by a backslash (new string). */
static char *escaped(const char *s, const char *specials)
{
	char *out = ab_xmalloc(2 * strlen(s) + 1), *p = out;

	for (; *s; s++) {
		if (strchr(specials, *s))
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return out;
}

/* zsh and fish get `s` in single quotes: ' becomes '\'' (zsh) or \' (fish). */
static void put_single_quoted(FILE *f, const char *s, int fish)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs(fish ? "\\'" : "'\\''", f);
		else if (fish && *s == '\\')
			fputs("\\\\", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void bash_command(FILE *f, const struct ab_command_entry *c)
{
	const struct cmd_option *o;
	enum arg_kind kind;
	char *values;

	fprintf(f, "\t%s)\n\t\tcase $prev in\n", c->name);
	for (o = c->options; o && o->name; o++) {
		if (!o->arg)
			continue;
		kind = option_arg(c, o, &values);
		fprintf(f, "\t\t--%s", o->name);
		if (o->letter)
			fprintf(f, "|-%c", o->letter);
		if (kind == ARG_VALUES)
			fprintf(f, ") COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", values);
		else if (kind == ARG_FILE)
			fprintf(f, ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n");
		else if (kind == ARG_DIR)
			fprintf(f, ") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n");
		else if (kind == ARG_YAML)
			fprintf(f, ") COMPREPLY=($(_abtool_yaml \"$cur\")); return ;;\n");
		else if (kind == ARG_REV)
			fprintf(f, ") COMPREPLY=($(compgen -W \"$(_abtool_revs)\" -- \"$cur\")); return ;;\n");
		else
			fprintf(f, ") return ;;\n");
		free(values);
	}
	fprintf(f, "\t\tesac\n\t\topts='");
	for (o = c->options; o && o->name; o++) {
		fprintf(f, "%s--%s", o == c->options ? "" : " ", o->name);
		if (o->letter)
			fprintf(f, " -%c", o->letter);
	}
	kind = operand_kind(c, &values);
	fprintf(f, "'\n\t\toperands=%s\n", kind == ARG_RUN ? "runs" : kind == ARG_FILE ? "files" :
		kind == ARG_YAML ? "yaml" : kind == ARG_VALUES ? "words" : "none");
	if (values)
		fprintf(f, "\t\twords='%s'\n", values);
	fprintf(f, "\t\t;;\n");
	free(values);
}

static void print_bash(FILE *f)
{
	const struct ab_command_entry *c;

	fprintf(f, "# bash completion for abtool(1), generated by 'abtool __doc bash' from its command\n"
		   "# and option tables: do not edit.\n\n"
		   "# The runs of the store abtool finds from here (the newest first), and latest.\n"
		   "_abtool_runs()\n{\n\tabtool history --ids 2>/dev/null\n\techo latest\n}\n\n"
		   "# The experiment and rules files under CUR: *.yaml, *.yml, and the folders\n"
		   "# that may hold them (but .git).\n"
		   "_abtool_yaml()\n{\n"
		   "\tcompgen -d -- \"$1\" | grep -v '\\(^\\|/\\)\\.git$'\n"
		   "\tcompgen -f -X '!*.yaml' -- \"$1\"\n\tcompgen -f -X '!*.yml' -- \"$1\"\n}\n\n"
		   "# The branches and tags of the working directory's repository, and HEAD.\n"
		   "_abtool_revs()\n{\n"
		   "\tgit for-each-ref --format='%%(refname:short)' refs/heads refs/tags refs/remotes "
		   "2>/dev/null\n\techo HEAD\n}\n\n"
		   "_abtool()\n{\n"
		   "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= opts= operands=none words=\n"
		   "\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
		   "\t# --option=value: bash splits the word at '=' (COMP_WORDBREAKS)\n"
		   "\tif [[ $cur == = ]]; then\n\t\tcur=\n"
		   "\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
		   "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n\tfi\n"
		   "\tif ((COMP_CWORD == 1)); then\n\t\tCOMPREPLY=($(compgen -W '");
	for (c = ab_commands; c->name; c++)
		fprintf(f, "%s ", c->name);
	fprintf(f, "help --help -h --version -V' -- \"$cur\"))\n\t\treturn\n\tfi\n"
		   "\tcase ${COMP_WORDS[1]} in\n");
	for (c = ab_commands; c->name; c++)
		bash_command(f, c);
	fprintf(f, "\thelp)\n\t\toperands=words\n\t\twords='");
	for (c = ab_commands; c->name; c++)
		fprintf(f, "%s%s", c->name, c[1].name ? " " : "");
	fprintf(f, "'\n\t\t;;\n\t*) return ;;\n\tesac\n"
		   "\tif [[ $cur == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
		   "\t\treturn\n\tfi\n\tcase $operands in\n"
		   "\truns) COMPREPLY=($(compgen -W \"$(_abtool_runs)\" -- \"$cur\")) ;;\n"
		   "\tfiles) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
		   "\tyaml) COMPREPLY=($(_abtool_yaml \"$cur\")) ;;\n"
		   "\twords) COMPREPLY=($(compgen -W \"$words\" -- \"$cur\")) ;;\n\tesac\n}\n\n"
		   "complete -o filenames -F _abtool abtool\n");
}

/* The action of an argument of `kind` in zsh's _arguments. */
static void zsh_action(FILE *f, enum arg_kind kind, const char *values)
{
	if (kind == ARG_VALUES)
		fprintf(f, "(%s)", values);
	else if (kind == ARG_FILE)
		fputs("_files", f);
	else if (kind == ARG_DIR)
		fputs("_files -/", f);
	else if (kind == ARG_RUN)
		fputs("_abtool_runs", f);
	else if (kind == ARG_YAML)
		fputs("_files -g \"*.(yaml|yml)\"", f);
	else if (kind == ARG_REV)
		fputs("_abtool_revs", f);
	else
		fputs(" ", f);
}

static void zsh_command(FILE *f, const struct ab_command_entry *c)
{
	const struct cmd_option *o;
	enum arg_kind kind;
	char *values, *help, *spec, *msg;
	size_t len;
	FILE *s;

	fprintf(f, "\t%s)\n\t\t_arguments -s -S", c->name);
	for (o = c->options; o && o->name; o++) {
		spec = NULL;
		s = open_memstream(&spec, &len);
		help = escaped(o->help, "[]:\\");
		if (o->letter)
			fprintf(s, "(-%c --%s)-%c%s[%s]", o->letter, o->name, o->letter, o->arg ? "+" : "",
				help);
		else
			fprintf(s, "--%s%s[%s]", o->name, o->arg ? "=" : "", help);
		if (o->arg) {
			kind = option_arg(c, o, &values);
			msg = escaped(o->arg, ":\\");
			fprintf(s, ":%s:", msg);
			zsh_action(s, kind, values);
			free(values);
			free(msg);
		}
		fclose(s);
		fputs(" \\\n\t\t\t", f);
		put_single_quoted(f, spec, 0);
		if (o->letter) {  /* the long form too, with the same exclusion */
			char *lspec = ab_xasprintf("(-%c --%s)--%s%s%s", o->letter, o->name, o->name,
						   o->arg ? "=" : "", strchr(spec, '['));
			fputs(" \\\n\t\t\t", f);
			put_single_quoted(f, lspec, 0);
			free(lspec);
		}
		free(spec);
		free(help);
	}
	kind = operand_kind(c, &values);
	if (kind != ARG_TEXT) {
		fputs(" \\\n\t\t\t'*:", f);
		fputs(kind == ARG_RUN ? "run" : kind == ARG_FILE || kind == ARG_YAML ? "file" : "subcommand", f);
		fputc(':', f);
		zsh_action(f, kind, values);
		fputc('\'', f);
	}
	free(values);
	fputs("\n\t\t;;\n", f);
}

static void print_zsh(FILE *f)
{
	const struct ab_command_entry *c;

	fprintf(f, "#compdef abtool\n# zsh completion for abtool(1), generated by 'abtool __doc zsh' "
		   "from its command\n# and option tables: do not edit.\n\n"
		   "# The runs of the store abtool finds from here (the newest first), and latest.\n"
		   "_abtool_runs() {\n\tlocal -a runs\n"
		   "\truns=(${(f)\"$(abtool history --ids 2>/dev/null)\"} latest)\n"
		   "\tcompadd -a runs\n}\n\n"
		   "# The branches and tags of the working directory's repository, and HEAD.\n"
		   "_abtool_revs() {\n\tlocal -a revs\n"
		   "\trevs=(${(f)\"$(git for-each-ref --format='%%(refname:short)' refs/heads refs/tags "
		   "refs/remotes 2>/dev/null)\"} HEAD)\n"
		   "\tcompadd -a revs\n}\n\n_abtool() {\n\tlocal -a commands\n\tcommands=(\n");
	for (c = ab_commands; c->name; c++) {
		char *entry = ab_xasprintf("%s:%s", c->name, c->summary);
		fputs("\t\t", f);
		put_single_quoted(f, entry, 0);
		fputc('\n', f);
		free(entry);
	}
	fprintf(f, "\t)\n\tif ((CURRENT == 2)); then\n"
		   "\t\t_describe -t commands 'abtool command' commands\n\t\treturn\n\tfi\n"
		   "\tlocal cmd=$words[2]\n\tshift words\n\t((CURRENT--))\n\tcase $cmd in\n");
	for (c = ab_commands; c->name; c++)
		zsh_command(f, c);
	fprintf(f, "\thelp)\n\t\t_describe -t commands 'abtool command' commands\n\t\t;;\n"
		   "\tesac\n}\n\n_abtool \"$@\"\n");
}

static void fish_command(FILE *f, const struct ab_command_entry *c)
{
	const struct cmd_option *o;
	enum arg_kind kind;
	char *values;

	for (o = c->options; o && o->name; o++) {
		fprintf(f, "complete -c abtool -n '__fish_seen_subcommand_from %s'", c->name);
		if (o->letter)
			fprintf(f, " -s %c", o->letter);
		fprintf(f, " -l %s", o->name);
		if (o->arg) {
			kind = option_arg(c, o, &values);
			if (kind == ARG_VALUES)
				fprintf(f, " -x -a '%s'", values);
			else if (kind == ARG_FILE)
				fputs(" -r -F", f);
			else if (kind == ARG_DIR)
				fputs(" -x -a '(__fish_complete_directories)'", f);
			else if (kind == ARG_YAML)
				fputs(" -x -a '(__abtool_yaml)'", f);
			else if (kind == ARG_REV)
				fputs(" -x -a '(__abtool_revs)'", f);
			else
				fputs(" -x", f);
			free(values);
		}
		fputs(" -d ", f);
		put_single_quoted(f, o->help, 1);
		fputc('\n', f);
	}
	kind = operand_kind(c, &values);
	if (kind != ARG_TEXT) {
		fprintf(f, "complete -c abtool -n '__fish_seen_subcommand_from %s'", c->name);
		if (kind == ARG_RUN)
			fputs(" -a '(__abtool_runs)'", f);
		else if (kind == ARG_FILE)
			fputs(" -F", f);
		else if (kind == ARG_YAML)
			fputs(" -a '(__abtool_yaml)'", f);
		else
			fprintf(f, " -a '%s'", values);
		fputc('\n', f);
	}
	free(values);
}

static void print_fish(FILE *f)
{
	const struct ab_command_entry *c;

	fprintf(f, "# fish completion for abtool(1), generated by 'abtool __doc fish' from its "
		   "command\n# and option tables: do not edit.\n\n"
		   "# The runs of the store abtool finds from here (the newest first), and latest.\n"
		   "function __abtool_runs\n\tabtool history --ids 2>/dev/null\n\techo latest\nend\n\n"
		   "# The branches and tags of the working directory's repository, and HEAD.\n"
		   "function __abtool_revs\n\tgit for-each-ref --format='%%(refname:short)' refs/heads "
		   "refs/tags refs/remotes 2>/dev/null\n\techo HEAD\nend\n\n"
		   "# The experiment and rules files under the token: *.yaml, *.yml, and the\n"
		   "# folders that may hold them (but .git).\n"
		   "function __abtool_yaml\n\tset -l t (commandline -ct)\n"
		   "\tfor f in $t*.yaml $t*.yml\n\t\techo $f\n\tend\n"
		   "\tfor d in $t*/\n\t\tstring match -q -r '(^|/)\\.git/$' -- $d; or echo $d\n\tend\nend\n\n"
		   "complete -c abtool -f\n"
		   "complete -c abtool -n __fish_use_subcommand -s h -l help -d 'list the commands'\n"
		   "complete -c abtool -n __fish_use_subcommand -s V -l version -d 'print the version'\n");
	for (c = ab_commands; c->name; c++) {
		fprintf(f, "complete -c abtool -n __fish_use_subcommand -a %s -d ", c->name);
		put_single_quoted(f, c->summary, 1);
		fputc('\n', f);
	}
	for (c = ab_commands; c->name; c++)
		fish_command(f, c);
}

int cmd_print_completion(FILE *f, const char *shell)
{
	if (!strcmp(shell, "bash"))
		print_bash(f);
	else if (!strcmp(shell, "zsh"))
		print_zsh(f);
	else if (!strcmp(shell, "fish"))
		print_fish(f);
	else
		return ab_error_set(AB_EINVALID, "no completion for '%s': bash, zsh or fish", shell);
	return 0;
}
