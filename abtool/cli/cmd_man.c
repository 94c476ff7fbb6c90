/* cmd_man.c - the man pages in mdoc, as git has them: abtool(1), the
 * overview that lists the command pages, and a page per command,
 * abtool-run(1), abtool-compare(1), ... (`abtool __doc man [COMMAND]`,
 * `abtool __doc man --dir DIR`, which the build runs: CMakeLists.txt).
 * The synopsis and the options come from the command and option tables
 * (main.c, cmd.h "Options"); what the tables do not hold, each page's
 * description, exit status, examples and related pages, is the registry
 * below, one entry per command: a command without one fails the build. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The pages' date: the day their text last changed (mdoc's .Dd). */
#define MAN_DATE "December 5, 2026"

/* How a command exits; each adds its codes to those of every command. */
enum man_exits {
	EXITS_PLAIN,      /* 0 success */
	EXITS_VERDICT,    /* 0-3 the verdict's code */
	EXITS_ANALYZE,    /* the verdict's code with --accept, else 0 (3 invalid) */
	EXITS_CALIBRATE,  /* 0 completed, 3 invalid */
	EXITS_BISECT,     /* 0 a culprit, 1 none, 2 inconclusive, 3 unmeasurable */
	EXITS_CHECK,      /* 0 valid */
};

/* What the tables do not say about a command. */
struct man_entry {
	const char *name;
	const char *description;  /* paragraphs separated by "\n\n" */
	enum man_exits exits;
	const char *exit_note;    /* a sentence after the codes, or NULL */
	/* pairs of a sentence and its command lines ("\n" between lines), NULL-terminated */
	const char *examples[9];
	const char *see_also;     /* other command pages, space-separated */
};

static const struct man_entry entries[] = {
	{"run",
	 "Reads the experiment file, checks out and builds the candidate revision and its "
	 "exact (first) parent in cached trees, and runs the benchmark as fresh processes in "
	 "balanced, seeded AB|BA pairs over every row of the matrix. Both sides must print the "
	 "same checksum. Each row's ratio (candidate over parent, Hodges-Lehmann) gets an exact "
	 "Wilcoxon signed-rank interval, the rules of accept: decide each row, and the verdict "
	 "is accepted, rejected, inconclusive or invalid.\n\n"
	 "The plan is stored before the first sample and every sample as it completes, so an "
	 "interrupted run is finished by abtool resume. At a terminal the verdict and a line "
	 "per row are printed; in a pipe, the Markdown report.",
	 EXITS_VERDICT,
	 "A rejected design blocked by block_rejected, a revision that is not the exact parent, "
	 "a shallow clone or a finished run are 64.",
	 {"Measure HEAD against its exact parent and keep every report:",
	  "abtool run exp.yaml --json report.json --html report.html\necho $?",
	  "Gate a pull request against its merge base, failing the job on a noisy runner:",
	  "abtool run perf/gate.yaml --candidate \"$HEAD\" --parent \"$BASE\" \\e\n"
	  "    --design \"pr-$PR\" --inconclusive=reject",
	  "A sequential plan for a fixed file: each row stops at the first look that decides it:",
	  "abtool run exp.yaml --max-pairs 64",
	  "Only the rows at 8 lanes:",
	  "abtool run exp.yaml --row lanes=8", NULL},
	 "resume report check calibrate compare history"},
	{"compare",
	 "Measures two commands the paired way, without a repository, a build or an "
	 "experiment file: A in the parent's place, B in the candidate's, each sample a fresh "
	 "process in balanced AB|BA pairs. -P and -L make a row per value of a "
	 "parameter, substituted for {NAME} in both commands. The rules, the verdict, the "
	 "reports and the exit codes are those of abtool run.\n\n"
	 "A command runs without a shell, split into words, unless it has shell syntax (a pipe, "
	 "a redirection, a variable, a glob, ...); then both commands run through /bin/sh -c, "
	 "so that its start is timed on both sides, the report's provenance says so, and "
	 "nothing is subtracted for it. -N never uses a shell; --shell SHELL always does.\n\n"
	 "hyperfine's options are read where abtool does the same (-w, -r, --export-json as "
	 "--hyperfine, --export-markdown as --md, ...) and refused, with abtool's way, where it "
	 "does not (--export-csv, -i, --setup, ...).\n\n"
	 "Given no rule, it decides which command is faster, as hyperfine's users expect: the "
	 "rule differs passes when a row's interval of B/A excludes 1 on either side (each "
	 "bound one-sided at 5%), on a sequential plan that stops a row at the first look "
	 "(8, 16, 32, 64 pairs) that shows a difference, and the reports say \"A ran 1.98 [1.90, "
	 "2.05] times faster than B\". A row that shows none by the last look is \"no difference "
	 "shown\", which is not equivalence (--equivalent-within tests that).\n\n"
	 "Outside a repository the runs go to the per-user store.",
	 EXITS_VERDICT, "Given no rule: 0 when every row shows a difference, either way; 2 when a "
	 "row shows none at the plan's maximum; 1 only when a rule given fails. With "
	 "--check-stdout, two outputs that differ make the verdict invalid (3).",
	 {"Which of two commands is faster, run without a shell as hyperfine -N runs them (exit 0 "
	  "when a difference is shown):",
	  "abtool compare -N 'sleep 0.01' 'sleep 0.02'",
	  "Two versions of a program on one input, with a rule:",
	  "abtool compare './old input.js' './new input.js' -n old -n new \\e\n"
	  "    --check-stdout --faster-by 5%",
	  "A row per lane count:",
	  "abtool compare 'prog --lanes {lanes} a' 'prog --lanes {lanes} b' -P lanes 1 8",
	  "Past comparisons:",
	  "abtool history --kind compare", NULL},
	 "run analyze history"},
	{"verdict",
	 "Decides the shards of a group, each measured by abtool run --shard K/N --group ID on "
	 "its own machine, together: their stored samples go through one analysis and one "
	 "evaluation of the rules, as one run of the whole matrix would. The shards must be in "
	 "one store: a team store, or one into which their exports were imported. Nothing is "
	 "stored.",
	 EXITS_VERDICT,
	 "A group with a shard missing or unfinished is 2 whatever --inconclusive; shards of "
	 "different commits or experiment texts, or no run of the group, are 64.",
	 {"Two shards measured on two runners, decided on a third:",
	  "abtool run exp.yaml --shard 1/2 --group pr-7      # runner 1\n"
	  "abtool export latest -o shard-1.json\n"
	  "abtool import shard-1.json                        # the deciding runner\n"
	  "abtool verdict --group pr-7 --json verdict.json", NULL},
	 "run export import"},
	{"check",
	 "Validates an experiment file and prints what a run would do: the commits of both "
	 "sides, the rows of the matrix, the rows each rule selects and the plan. Nothing is "
	 "built or measured. When the store holds a calibration of the same file, it also "
	 "says which margins the planned pairs can reach.",
	 EXITS_CHECK, NULL,
	 {"Validate before a run:",
	  "abtool check exp.yaml",
	  "Against another parent:",
	  "abtool check exp.yaml --parent v1.4", NULL},
	 "run calibrate init"},
	{"analyze",
	 "The statistics and rules of abtool run on pairs measured elsewhere: a TSV or CSV file "
	 "of pairs, one row a pair, or a JSON export of hyperfine. hyperfine measures in blocks, "
	 "not pairs: its exports get medians and the unpaired Mann-Whitney test, and a verdict "
	 "of at most inconclusive.",
	 EXITS_ANALYZE, NULL,
	 {"Rules over a file of pairs:",
	  "abtool analyze pairs.tsv --accept rules.yaml --json analysis.json",
	  "A hyperfine export:",
	  "hyperfine --export-json runs.json 'a' 'b'\nabtool analyze runs.json", NULL},
	 "compare run"},
	{"calibrate",
	 "An A/A experiment: the parent is built twice and measured against itself, which gives "
	 "this machine's noise floor, the rate of false outcomes of each rule and the pairs each "
	 "margin needs. The calibration is stored; check and run of the same file then say "
	 "what it implies for their plan.",
	 EXITS_CALIBRATE, NULL,
	 {"Calibrate, then see what the planned pairs can decide:",
	  "abtool calibrate exp.yaml --pairs 16\nabtool check exp.yaml", NULL},
	 "check run"},
	{"resume",
	 "Finishes an interrupted run from its stored plan: the samples already stored are kept, "
	 "the rest are measured with the same seed and order, and the verdict is decided as the "
	 "run would have decided it. bisect:ID finishes an interrupted bisect.",
	 EXITS_VERDICT, "A finished or unknown run is 64.",
	 {"After Ctrl-C (exit 130):",
	  "abtool resume latest",
	  "An interrupted bisect:",
	  "abtool resume bisect:3", NULL},
	 "run bisect history"},
	{"bisect",
	 "Finds the commit between a good and a bad revision that moved a row, measuring each "
	 "step as abtool run does (every comparison is a stored run), skipping commits that do "
	 "not build, and ends with that commit measured against its exact parent. A change "
	 "spread over several commits is reported as a range. The whole search names a wrong "
	 "commit with probability at most 5%.",
	 EXITS_BISECT, NULL,
	 {"The commit that made lanes=8 slower by 5% or more:",
	  "abtool bisect exp.yaml --good v1.4 --bad main --row lanes=8 --threshold 5%",
	  "After an interruption:",
	  "abtool bisect --resume 3", NULL},
	 "run resume"},
	{"report",
	 "Prints a stored run's report again, byte for byte what run wrote, in any format: the "
	 "terminal view, Markdown, JSON, the TSV of every sample, HTML, the CI summary, JUnit or "
	 "folded stacks of a profile.",
	 EXITS_PLAIN, NULL,
	 {"The newest run as HTML:",
	  "abtool report latest --format html -o report.html",
	  "Every sample of run 12:",
	  "abtool report 12 --format tsv", NULL},
	 "show history export"},
	{"profile",
	 "Runs a finished run's rows once more on both sides under perf record, stores the "
	 "profiles apart from the samples (they never change the verdict), and prints the "
	 "functions whose share changed most.",
	 EXITS_PLAIN, "Without perf, or where perf may not record, it is 64 with the reason.",
	 {"Profile the lanes=4 row of run 12:",
	  "abtool profile 12 --row lanes=4\nabtool show 12 --profile", NULL},
	 "show report"},
	{"history",
	 "Lists the stored runs, newest first: id, date, experiment, design, verdict and "
	 "revisions, filtered by verdict, design, revision or kind, and searched in names, "
	 "hypotheses, notes and what failed in the reasons; on a terminal the table fits its width.",
	 EXITS_PLAIN, NULL,
	 {"The runs that mention a convoy:",
	  "abtool history --grep convoy",
	  "The rejected runs as JSON:",
	  "abtool history --verdict rejected --json", NULL},
	 "show designs note"},
	{"show",
	 "Everything stored about one run: its verdict and reasons, revisions, builds, host, "
	 "rows, rules and notes.",
	 EXITS_PLAIN, NULL,
	 {"The newest run:",
	  "abtool show latest",
	  "Run 12 as JSON:",
	  "abtool show 12 --json", NULL},
	 "report history note"},
	{"designs",
	 "Lists the designs the runs were recorded under, with their run count and latest "
	 "verdict; --rejected lists the ideas that lost, and why.",
	 EXITS_PLAIN, NULL,
	 {"What was tried and rejected:",
	  "abtool designs --rejected", NULL},
	 "history config note"},
	{"site",
	 "Writes the store as a static site into OUTDIR: a front page per project with its "
	 "latest verdicts, rows and designs by outcome; the designs, the rejected ones first with "
	 "the failing part of their reasons; and each run's HTML report with its samples as TSV, "
	 "as report writes them. The pages load nothing from elsewhere and open from file:// or "
	 "a static host such as GitHub Pages. A second build renders only the runs whose files "
	 "are missing or out of date.",
	 EXITS_PLAIN, NULL,
	 {"The site of the repository's store, opened in a browser:",
	  "abtool site public\nxdg-open public/index.html",
	  "One project of a team store:",
	  "abtool site public --project github.com/acme/engine --store postgresql://perf@db/abtool", NULL},
	 "history designs report"},
	{"note",
	 "Attaches a note, a reason or a link, to a run or a design; history --grep searches "
	 "the notes.",
	 EXITS_PLAIN, NULL,
	 {"Why run 12 does not count:",
	  "abtool note 12 'measured during a kernel upgrade'",
	  "A note on a design:",
	  "abtool note --design batched-publication 'see issue 41'", NULL},
	 "history designs"},
	{"config",
	 "Reads and sets the store's own settings, which hold for everyone who uses the store. "
	 "block_rejected true makes run refuse a design the store has rejected unless "
	 "--new-evidence says what changed.",
	 EXITS_PLAIN, NULL,
	 {"Refuse rejected designs:",
	  "abtool config block_rejected true",
	  "Every setting:",
	  "abtool config", NULL},
	 "designs run"},
	{"export",
	 "Writes one run, every sample included, as a JSON document that import reads, or as "
	 "TSV.",
	 EXITS_PLAIN, NULL,
	 {"Move run 12 to another store:",
	  "abtool export 12 -o run-12.json\nabtool import run-12.json --store other.db", NULL},
	 "import sync"},
	{"import",
	 "Adds a run exported by export to the store; a run already present (by its uuid) is "
	 "left alone.",
	 EXITS_PLAIN, NULL,
	 {"A shard's run, on the runner that decides the group:",
	  "abtool import abtool-export-1.json", NULL},
	 "export sync verdict"},
	{"sync",
	 "Copies the finished runs one store lacks from another, by run uuid: sqlite files or "
	 "PostgreSQL URLs.",
	 EXITS_PLAIN, NULL,
	 {"A laptop's runs into the team store:",
	  "abtool sync --from .git/abtool/abtool.db --to postgresql://perf@db.example/abtool",
	  "What would be copied:",
	  "abtool sync --from a.db --to b.db --dry-run", NULL},
	 "export import"},
	{"cache",
	 "The build cache, shared by every repository of the user: lists its entries with their "
	 "size, age, revision and last use; prune removes old ones, clear removes all.",
	 EXITS_PLAIN, NULL,
	 {"Keep the cache under 2 GiB:",
	  "abtool cache prune --keep-size 2G",
	  "Entries unused for a month:",
	  "abtool cache prune --older-than 30d", NULL},
	 "run"},
	{"init",
	 "Writes a commented experiment file from a template (no-regression, lane-split, "
	 "memory, equivalence, pr-gate), or with --workflow the GitHub Actions workflow that "
	 "gates pull requests with the abtool action. An existing file is never overwritten.",
	 EXITS_PLAIN, NULL,
	 {"A first experiment:",
	  "abtool init --template lane-split exp.yaml",
	  "A pull-request gate and its workflow:",
	  "abtool init --template pr-gate perf/gate.yaml\n"
	  "abtool init --workflow github-actions .github/workflows/perf-gate.yml", NULL},
	 "check run"},
	{"env",
	 "Prints the host fingerprint stored with each run (CPU, governor, turbo, load, kernel, "
	 "compiler) and the warnings it implies for measuring; with an experiment file, also "
	 "the outputs of its environment.commands.",
	 EXITS_PLAIN, NULL,
	 {"Before measuring on a new machine:",
	  "abtool env",
	  "As JSON:",
	  "abtool env --json", NULL},
	 "run calibrate"},
	{"demo",
	 "Writes a small git repository whose candidate commit is about twice as fast as its "
	 "parent, runs the whole experiment on it and prints the report. It exits 0 whatever "
	 "the verdict.",
	 EXITS_PLAIN, NULL,
	 {"The demo in a folder that stays:",
	  "abtool demo --dir /tmp/abtool-demo", NULL},
	 "run init"},
};

static const struct man_entry *find_entry(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(entries[i].name, name))
			return &entries[i];
	return NULL;
}

/* Text lines of roff: `s` wrapped at spaces to lines of at most 80 bytes
 * (mandoc -T lint's limit), a line's leading '.' or '\'' made literal,
 * '\' escaped. With `groups` (a usage line), the spaces of a [...] are
 * unbreakable ("\ "). */
static void roff_lines(FILE *f, const char *s, int groups)
{
	size_t col = 0, n;
	int depth, sentence_end = 0;

	while (*s) {
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		for (n = 0, depth = 0; s[n] && ((s[n] != ' ' && s[n] != '\n') || depth > 0); n++)
			depth += !groups ? 0 : s[n] == '[' ? 1 : s[n] == ']' ? -1 : 0;
		/* mdoc: a new sentence on a new line */
		if (col && (col + 1 + n > 72 || (sentence_end && *s >= 'A' && *s <= 'Z'))) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		if (!col && (*s == '.' || *s == '\''))
			col += (size_t)fprintf(f, "\\&");
		if (groups)  /* no hyphenation, and "\-" for a dash (ASCII, not a hyphen) */
			col += (size_t)fprintf(f, "\\%%");
		sentence_end = !groups && n > 1 && strchr(".?!", s[n - 1]) && s[n - 2] != '.';
		for (; n; n--, s++)
			col += (size_t)fprintf(f, *s == '\\' ? "\\e" : *s == ' ' ? "\\ " :
					       groups && *s == '-' ? "\\-" : "%c", *s);
	}
	fputc('\n', f);
}

/* Paragraphs of `s` (separated by a blank line) as roff text. */
static void roff_paragraphs(FILE *f, const char *s)
{
	const char *end;
	char *para;

	for (;;) {
		end = strstr(s, "\n\n");
		para = end ? ab_xstrndup(s, (size_t)(end - s)) : ab_xstrdup(s);
		roff_lines(f, para, 0);
		free(para);
		if (!end)
			break;
		fputs(".Pp\n", f);
		s = end + 2;
	}
}

/* Example lines in a literal display; they are written with roff's escapes already
 * ("\e" for a backslash), a line's leading '.' made literal. */
static void roff_literal(FILE *f, const char *s)
{
	fputs(".Bd -literal -offset indent\n", f);
	while (*s) {
		if (*s == '.' || *s == '\'')
			fputs("\\&", f);
		while (*s && *s != '\n')
			fputc(*s++, f);
		fputc('\n', f);
		if (*s)
			s++;
	}
	fputs(".Ed\n", f);
}

/* One option as an mdoc list item: ".It Fl q , Fl -quiet Ar F". */
static void man_option(FILE *f, const struct cmd_option *o)
{
	char *text = cmd_option_text(o);

	fputs(".It", f);
	if (o->letter)
		fprintf(f, " Fl %c ,", o->letter);
	fprintf(f, " Fl -%s", o->name);
	if (o->arg)
		fprintf(f, " Ar \"%s\"", o->arg);
	fputc('\n', f);
	roff_lines(f, text, 0);
	free(text);
}

static int has_option(const struct ab_command_entry *c, const char *name)
{
	const struct cmd_option *o;

	for (o = c->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return 1;
	return 0;
}

static void man_header(FILE *f, const char *generated_by, const char *title)
{
	fprintf(f, ".\\\" Generated by '%s' from abtool's command and option tables (cmd_man.c).\n"
		   ".Dd %s\n.Dt %s 1\n.Os abtool %s\n", generated_by, MAN_DATE, title, ABTOOL_VERSION);
}

/* The stores, as every command that takes --store finds them. */
static void man_stores(FILE *f)
{
	fputs(".Sh FILES\n.Bl -tag -width Ds\n"
	      ".It Pa .git/abtool/abtool.db\nthe store of a repository, a sqlite file in its git "
	      "common directory,\nfor the experiment's repository or the working directory's\n"
	      ".It Pa ~/.local/share/abtool/abtool.db\nthe per-user store\n"
	      ".Pq Pa $XDG_DATA_HOME/abtool/abtool.db ,\noutside any repository:\n"
	      ".Nm abtool Cm compare\nkeeps its runs there\n"
	      ".It Li postgresql://USER@HOST/DB\na team's store on a PostgreSQL server, given as\n"
	      ".Fl -store ,\n.Ev ABTOOL_STORE\nor store: in the config file\n"
	      ".It Pa ~/.config/abtool/config\nthe settings of one user (store:, cache.max_size)\n"
	      ".It Pa ~/.cache/abtool/\nthe cache of trees and builds\n.El\n", f);
}

/* ENVIRONMENT; `demo`: with TMPDIR, where demo makes its repository. */
static void man_environment(FILE *f, int demo)
{
	fputs(".Sh ENVIRONMENT\n.Bl -tag -width Ds\n"
	      ".It Ev ABTOOL_STORE\nthe store, a file or a PostgreSQL URL, when\n.Fl -store\n"
	      "is not given\n"
	      ".It Ev ABTOOL_BUSY_TIMEOUT_MS\nhow long a store writer waits for another one, in "
	      "milliseconds (default 30000)\n"
	      ".It Ev XDG_CONFIG_HOME , XDG_CACHE_HOME , XDG_DATA_HOME\nthe folders of the config "
	      "file, the build cache and the per-user store\n", f);
	if (demo)
		fputs(".It Ev TMPDIR\nwhere\n.Cm demo\nmakes its repository without\n.Fl -dir\n", f);
	fputs(".El\n", f);
}

/* ".It CODE" and its text. */
static void exit_item(FILE *f, const char *code, const char *text)
{
	fprintf(f, ".It %s\n", code);
	roff_lines(f, text, 0);
}

/* The codes of every command, after a command's own. */
static void exits_common(FILE *f, int measures)
{
	exit_item(f, "64", "a bad command line or input file, an unknown run or revision");
	exit_item(f, "70", "an internal error");
	exit_item(f, "74", "an I/O or store error: a file that cannot be written, a store that cannot "
		  "be opened, stayed locked or is damaged, a full disk");
	if (measures)
		fputs(".It 130 , 143\ninterrupted by SIGINT or SIGTERM; the run is kept and\n"
		      ".Nm abtool Cm resume\nfinishes it\n", f);
}

static void man_exit_status(FILE *f, const struct man_entry *e)
{
	static const char *const verdict =
		".It 0\naccepted (or inconclusive with\n.Fl -inconclusive Ns =accept )\n"
		".It 1\nrejected (or inconclusive with\n.Fl -inconclusive Ns =reject )\n"
		".It 2\ninconclusive: a rule could not decide, or there are no rules\n"
		".It 3\ninvalid: a build or a sample failed or timed out, or the checksums differ\n";

	fputs(".Sh EXIT STATUS\n.Bl -tag -width Ds -compact\n", f);
	switch (e->exits) {
	case EXITS_VERDICT:
		fputs(verdict, f);
		break;
	case EXITS_ANALYZE:
		fputs(".It 0\nwithout\n.Fl -accept ,\nor accepted with it\n"
		      ".It 1\nrejected\n.It 2\ninconclusive (a hyperfine export: always)\n"
		      ".It 3\ninvalid\n", f);
		break;
	case EXITS_CALIBRATE:
		exit_item(f, "0", "the calibration completed, whatever its rules say (both sides are "
			  "one commit)");
		exit_item(f, "3", "invalid: a build or sample failed, or the two builds printed different "
			  "checksums");
		break;
	case EXITS_BISECT:
		exit_item(f, "0", "a confirmed culprit commit");
		exit_item(f, "1", "no single commit: the endpoints differ by less than the threshold, or "
			  "the change is spread over a range");
		exit_item(f, "2", "inconclusive, with a range");
		exit_item(f, "3", "an endpoint cannot be measured");
		break;
	case EXITS_CHECK:
		fputs(".It 0\nthe file is valid\n", f);
		break;
	default:
		fputs(".It 0\nsuccess, also when nothing matched\n", f);
	}
	exits_common(f, e->exits == EXITS_VERDICT || e->exits == EXITS_CALIBRATE ||
			e->exits == EXITS_BISECT);
	fputs(".El\n", f);
	if (e->exit_note) {
		fputs(".Pp\n", f);
		roff_lines(f, e->exit_note, 0);
	}
}

static void man_examples(FILE *f, const struct man_entry *e)
{
	size_t i;

	fputs(".Sh EXAMPLES\n", f);
	for (i = 0; e->examples[i]; i += 2) {
		if (i)
			fputs(".Pp\n", f);
		roff_lines(f, e->examples[i], 0);
		roff_literal(f, e->examples[i + 1]);
	}
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* abtool(1) (unless `overview`: the page is abtool(1)), then ".Xr
 * abtool-NAME 1" for each name of `names`, in mdoc's order (by name). */
static void man_see_also(FILE *f, const char *names, int overview)
{
	char *copy = ab_xstrdup(names), *save = NULL, *w, *list[32];
	size_t n = 0, i;

	for (w = strtok_r(copy, " ", &save); w && n < sizeof(list) / sizeof(list[0]);
	     w = strtok_r(NULL, " ", &save))
		list[n++] = w;
	qsort(list, n, sizeof(list[0]), compare_names);
	fputs(".Sh SEE ALSO\n", f);
	if (!overview)
		fprintf(f, ".Xr abtool 1%s\n", n ? " ," : "");
	for (i = 0; i < n; i++)
		fprintf(f, ".Xr abtool-%s 1%s\n", list[i], i + 1 < n ? " ," : "");
	free(copy);
}

/* abtool-NAME(1). */
static void print_command_page(FILE *f, const struct ab_command_entry *c, const struct man_entry *e)
{
	const struct cmd_option *o;
	char *upper = ab_xasprintf("ABTOOL-%s", c->name), *by = ab_xasprintf("abtool __doc man %s", c->name);
	int rank, open = -1;
	char *p;

	for (p = upper; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	man_header(f, by, upper);
	fprintf(f, ".Sh NAME\n.Nm abtool-%s\n.Nd ", c->name);
	roff_lines(f, c->summary, 0);
	fprintf(f, ".Sh SYNOPSIS\n.Nm abtool\n.Cm %s\n", c->name);
	roff_lines(f, c->usage, 1);
	fputs(".Sh DESCRIPTION\n", f);
	roff_paragraphs(f, e->description);
	CMD_FOR_EACH_OPTION(c, rank, o) {
		if (open != rank) {
			if (open >= 0)
				fprintf(f, ".El\n");
			fprintf(f, ".Pp\n%s:\n.Bl -tag -width Ds\n", cmd_group_title(o->group));
			open = rank;
		}
		man_option(f, o);
	}
	if (open >= 0)
		fprintf(f, ".El\n");
	if (has_option(c, "store")) {
		man_environment(f, !strcmp(c->name, "demo"));
		man_stores(f);
	}
	man_exit_status(f, e);
	man_examples(f, e);
	man_see_also(f, e->see_also, 0);
	free(by);
	free(upper);
}

/* abtool(1): the command pages, what every command shares, the stores. */
static void print_overview(FILE *f)
{
	const struct ab_command_entry *c;
	char *names = ab_xstrdup(""), *next;

	man_header(f, "abtool __doc man", "ABTOOL");
	fputs(".Sh NAME\n.Nm abtool\n.Nd exact-parent A/B performance experiments\n"
	      ".Sh SYNOPSIS\n.Nm\n.Ar command\n.Op Ar options\n.Op Ar arguments\n"
	      ".Nm\n.Fl h | -help\n.Nm\n.Fl V | -version\n"
	      ".Sh DESCRIPTION\n.Nm\nbuilds a candidate commit and its exact parent,\n"
	      "runs their benchmark in order-balanced pairs of fresh processes,\n"
	      "and decides with the rules of an experiment file whether the candidate is\n"
	      "accepted, rejected, inconclusive or invalid.\n"
	      "Every run is kept in a store: a sqlite file in the repository's\n.Pa .git ,\n"
	      "the per-user store outside any repository, or a team's PostgreSQL database\n"
	      "(see\n.Sx FILES ) .\n.Pp\n"
	      "Each command has its page,\n.Xr abtool-run 1\nfor\n.Nm Cm run ,\n"
	      "and takes\n.Fl h , Fl -help\n(its options) and\n.Fl V , Fl -version .\n"
	      ".Nm Cm help Ar command\nprints a command's options.\n"
	      ".Ss Commands\n.Bl -tag -width Ds\n", f);
	for (c = ab_commands; c->name; c++) {
		fprintf(f, ".It Xr abtool-%s 1\n", c->name);
		roff_lines(f, c->summary, 0);
	}
	fputs(".El\n", f);
	man_environment(f, 1);
	man_stores(f);
	fputs(".Sh EXIT STATUS\nThe commands that decide a verdict,\n"
	      ".Cm run , compare , verdict , resume\nand\n.Cm analyze Fl -accept :\n"
	      ".Bl -tag -width Ds -compact\n"
	      ".It 0\naccepted\n.It 1\nrejected\n.It 2\ninconclusive\n.It 3\ninvalid\n.El\n"
	      ".Pp\n.Cm calibrate\nexits 0 when the calibration completed, 3 when it is invalid;\n"
	      ".Cm bisect\nexits 0 for a confirmed culprit, 1 for none, 2 when it ends inconclusive\n"
	      "and 3 when an endpoint cannot be measured\n(each command's page says more).\n"
	      ".Pp\nOf every command:\n.Bl -tag -width Ds -compact\n"
	      ".It 0\nsuccess\n", f);
	exits_common(f, 1);
	fputs(".El\n.Sh EXAMPLES\nA first experiment, validated, measured and reported again:\n"
	      ".Bd -literal -offset indent\nabtool init --template lane-split exp.yaml\n"
	      "abtool check exp.yaml\nabtool run exp.yaml --json report.json\n"
	      "abtool report latest --format html -o report.html\n.Ed\n"
	      ".Pp\nTwo commands, without a repository:\n"
	      ".Bd -literal -offset indent\nabtool compare './old in' './new in' --faster-by 5%\n.Ed\n",
	      f);
	for (c = ab_commands; c->name; c++) {
		next = ab_xasprintf("%s%s%s", names, *names ? " " : "", c->name);
		free(names);
		names = next;
	}
	man_see_also(f, names, 1);
	free(names);
}

int cmd_print_man(FILE *f, const char *command)
{
	const struct ab_command_entry *c;
	const struct man_entry *e;

	for (c = ab_commands; c->name; c++)
		if (!find_entry(c->name))
			return ab_error_set(AB_ERROR, "command '%s' has no man page entry in cmd_man.c",
					    c->name);
	if (!command) {
		print_overview(f);
		return 0;
	}
	if (!(c = cmd_find_command(command)))
		return ab_error_set(AB_ENOTFOUND, "'%s' is not a command", command);
	e = find_entry(c->name);
	print_command_page(f, c, e);
	return 0;
}

int cmd_write_man_pages(const char *dir)
{
	const struct ab_command_entry *c;
	char *buf, *path;
	size_t len;
	FILE *f;
	int err = 0;

	for (c = NULL;; c = c ? c + 1 : ab_commands) {
		if (c && !c->name)
			break;
		buf = NULL;
		f = open_memstream(&buf, &len);
		err = cmd_print_man(f, c ? c->name : NULL);
		fclose(f);
		path = c ? ab_xasprintf("%s/abtool-%s.1", dir, c->name) : ab_xasprintf("%s/abtool.1", dir);
		if (!err)
			err = cmd_write_output(path, buf, len);
		free(path);
		free(buf);
		if (err < 0)
			break;
	}
	return err;
}
