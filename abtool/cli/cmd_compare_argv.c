/* cmd_compare_argv.c - compare's command line before getopt reads it:
 * hyperfine's multi-word options (-P NAME MIN MAX, -L NAME VALUES) joined
 * into one word, and hyperfine's spellings read as abtool's or refused
 * with abtool's way (cmd.h; docs/cli.md, "compare"). */
#include "cmd.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/*
 * hyperfine's -P NAME MIN MAX and -L NAME VALUES take three and two
 * words; getopt gives an option one. Join them into one word ("-P" "lanes
 * 1 8") before parsing, in a new argv (the array only: its strings are
 * argv's or *joined's, freed by the caller with ab_strv_free).
 */
char **cmd_compare_join_multi(int argc, char **argv, int *newc, char ***joined)
{
	char **out = ab_xcalloc((size_t)argc + 1, sizeof(*out));
	int i, n = 0, words, w;

	*joined = NULL;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {  /* operands only from here */
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		out[n++] = argv[i];
		words = !strcmp(a, "-P") || !strcmp(a, "--parameter-scan") ? 3
			: !strcmp(a, "-L") || !strcmp(a, "--parameter-list") ? 2 : 0;
		if (words && i + words < argc) {
			char *j = ab_xstrdup(argv[i + 1]);
			for (w = 2; w <= words; w++) {
				char *next = ab_xasprintf("%s %s", j, argv[i + w]);
				free(j);
				j = next;
			}
			ab_strv_push(joined, j);
			out[n++] = j;
			i += words;
		}
	}
	*newc = n;
	return out;
}

/*
 * hyperfine's options (its --help, 1.15 to 1.19) that abtool compare
 * does not spell alike; -n, -P, -L, --warmup, -N, -S/--shell, -p/--prepare
 * and -C/--conclude are the same. One that maps onto abtool becomes abtool's option `as`
 * (the same argument, which then has abtool's bounds); the others are
 * refused, with what abtool does instead (docs/cli.md, "compare").
 */
static const struct hyperfine_option {
	const char *names;  /* its spellings, separated by spaces: "-r --runs" */
	int arg;            /* an accepted one takes an argument (the next word unless attached) */
	const char *as;     /* the option of abtool compare it is, or NULL: refused */
	const char *hint;   /* refused: what to do instead */
} hyperfine_options[] = {
	{"-w", 1, "--warmup", NULL},
	{"-r --runs", 1, "--pairs", NULL},
	{"-m --min-runs", 1, "--pairs", NULL},
	{"-M --max-runs", 1, "--max-pairs", NULL},
	{"--command-name", 1, "--name", NULL},
	{"--export-json", 1, "--hyperfine", NULL},
	{"--export-markdown", 1, "--md", NULL},
	{"-s --setup", 0, NULL, "abtool runs nothing once before a command's samples: run it before "
	 "abtool compare ('SETUP && abtool compare ...'); --prepare CMD runs before every sample"},
	{"-c --cleanup", 0, NULL, "abtool runs nothing once after a command's samples: run it after "
	 "abtool compare; --conclude CMD runs after every sample"},
	{"-i --ignore-failure", 0, NULL, "a sample that fails (a non-zero exit, a signal, a timeout) "
	 "stops the run as invalid (exit 3), since its time is not the command's: make the command "
	 "exit 0, e.g. 'CMD || true' (which runs through /bin/sh)"},
	{"--reference", 0, NULL, "the first command is the reference already: ratios are the second "
	 "over the first (B/A); give the reference first"},
	{"-u --time-unit", 0, NULL, "the reports choose a unit for each value (us, ms, s); --json F "
	 "and --tsv F keep nanoseconds"},
	{"--show-output --output", 0, NULL, "each sample's stdout and stderr are captured, for "
	 "--checksum-regex, --check-stdout and a failed sample's report (abtool show RUN); -v prints "
	 "a line per sample"},
	{"--input", 0, NULL, "each sample's stdin is /dev/null: give the file as an argument, or "
	 "write 'CMD < FILE' (which runs through /bin/sh)"},
	{"-D --parameter-step-size", 0, NULL, "-P steps by 1: list other values with -L NAME "
	 "V1,V2,..."},
	{"--export-csv", 0, NULL, "--tsv F writes every sample, one line each, tab-separated (later: "
	 "abtool report RUN --format tsv)"},
	{"--export-asciidoc --export-orgmode", 0, NULL, "--md F writes the Markdown report"},
	{"--style --sort", 0, NULL, "--format text|md and --color auto|always|never choose what "
	 "stdout shows; the rows keep the matrix's order"},
};

/* The entry of hyperfine_options[] that `a` ("-w", "-w3", "--runs",
 * "--runs=5") spells, or NULL; *attached: the argument given in `a`
 * itself, or NULL. */
static const struct hyperfine_option *hyperfine_find(const char *a, const char **attached)
{
	const struct hyperfine_option *h;
	size_t n = a[1] == '-' ? strcspn(a, "=") : 2;
	const char *name, *end;

	*attached = a[1] == '-' ? (a[n] ? a + n + 1 : NULL) : (a[2] ? a + 2 : NULL);
	for (h = hyperfine_options; h < hyperfine_options + sizeof(hyperfine_options) /
		     sizeof(hyperfine_options[0]); h++)
		for (name = h->names; *name; name = end + strspn(end, " ")) {
			end = name + strcspn(name, " ");
			/* "-iq" is -i and -q, refused for its -i; "-w3" is -w 3 */
			if ((size_t)(end - name) == n && !strncmp(name, a, n) && (!*attached || h->arg || !h->as))
				return h;
		}
	return NULL;
}

/* 1 when `a`, an option of abtool compare's table (getopt's spellings: a
 * long name or its unique abbreviation, a group of letters), takes the
 * next word of the command line as its argument. */
static int takes_next_word(const char *a)
{
	const struct cmd_option *o, *found = NULL;
	size_t n, matches = 0;

	if (a[1] == '-') {
		if (strchr(a, '='))
			return 0;
		n = strlen(a + 2);
		for (o = cmd_compare_options; o->name; o++)
			if (!strncmp(o->name, a + 2, n)) {
				if (strlen(o->name) == n)
					return o->arg != NULL;
				found = o;
				matches++;
			}
		return matches == 1 && found->arg;
	}
	for (a++; *a; a++) {
		for (o = cmd_compare_options; o->name && o->letter != *a; o++)
			;
		if (!o->name || o->arg)  /* getopt refuses it, or the rest is its argument */
			return o->name && !a[1];
	}
	return 0;
}

/*
 * Read hyperfine's options in `av` (after cmd_compare_join_multi) as abtool's: each
 * one that maps onto an option of abtool compare is replaced by it (a new
 * string in *joined when it carries its argument), and the first that
 * does not is a usage error naming what abtool does instead. CMD_GO_ON,
 * or 64 after the message.
 */
int cmd_compare_hyperfine(int ac, char **av, char ***joined)
{
	const struct hyperfine_option *h;
	const char *attached;
	int i;

	for (i = 1; i < ac && strcmp(av[i], "--"); i++) {
		if (av[i][0] != '-' || !av[i][1])
			continue;  /* an operand */
		if (!(h = hyperfine_find(av[i], &attached))) {
			i += takes_next_word(av[i]);
			continue;
		}
		if (!h->as)
			return cmd_usage("compare", "%.*s is hyperfine's: %s", attached && av[i][1] == '-' ?
					 (int)(attached - av[i] - 1) : attached ? 2 : (int)strlen(av[i]), av[i],
					 h->hint);
		av[i] = attached ? ab_xasprintf("%s=%s", h->as, attached) : (char *)h->as;
		if (attached)
			ab_strv_push(joined, av[i]);
		i += h->arg && !attached;
	}
	return CMD_GO_ON;
}
