/* main.c - the command table and dispatch. Every command lives in
 * cmd_<name>.c; `abtool help` and `--help` are built from this table. */
#include "cmd.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

const struct ab_command_entry ab_commands[] = {
	{"run", cmd_run,
	 "EXP.yaml [--candidate REV] [--parent REV] [--pairs N] [--seed N] [--warmup N] [--store DB]\n"
	 "                  [--dependency NAME=PARENT..CANDIDATE] [--overlay-from REV] [--row NAME=VALUE]\n"
	 "                  [--json F] [--md F] [--tsv F] [--html F] [--summary F] [--junit F]\n"
	 "                  [--inconclusive=reject|accept] [--design NAME] [--new-evidence TEXT] [--quiet] [--verbose]",
	 "build the candidate and its exact parent, run order-balanced pairs, decide the verdict", cmd_run_options},
	{"check", cmd_check, "EXP.yaml [--candidate REV] [--parent REV] [--dependency NAME=PARENT..CANDIDATE]\n"
	 "                  [--overlay-from REV] [--row NAME=VALUE] [--store DB]",
	 "validate an experiment file and show its plan and the rows each rule selects", cmd_check_options},
	{"analyze", cmd_analyze,
	 "FILE [--accept RULES.yaml] [--metric NAME] [--unit U] [--better lower|higher]\n"
	 "                  [--json F] [--md F] [--html F] [--summary F] [--junit F] [--inconclusive=reject|accept]",
	 "the same statistics and rules on pairs collected elsewhere (TSV or CSV)", cmd_analyze_options},
	{"calibrate", cmd_calibrate,
	 "EXP.yaml [--pairs N] [--seed N] [--warmup N] [--candidate REV] [--parent REV] [--store DB]\n"
	 "                  [--dependency NAME=PARENT..CANDIDATE] [--overlay-from REV] [--row NAME=VALUE]\n"
	 "                  [--json F] [--md F] [--tsv F] [--html F] [--summary F] [--junit F] [--quiet] [--verbose]",
	 "A/A on the parent built twice: the noise floor, false-outcome rates, pairs needed", cmd_calibrate_options},
	{"resume", cmd_resume, "RUN [--store DB] [--json F] [--md F] [--tsv F] [--html F] [--summary F] [--junit F]\n"
	 "                  [--inconclusive=reject|accept] [--quiet] [--verbose]",
	 "finish an interrupted run from its stored plan", cmd_resume_options},
	{"report", cmd_report, "RUN [--format md|json|tsv|html|summary|junit|folded] [--side parent|candidate]\n"
	 "                  [-o FILE] [--store DB]",
	 "print a stored run's report again, byte-identical to what run wrote", cmd_report_options},
	{"profile", cmd_profile, "RUN [--row NAME=VALUE] [--samples N] [--event EVENT] [--quiet] [--store DB]",
	 "profile a finished run's rows: both sides under perf record, stored apart (docs/profiles.md)",
	 cmd_profile_options},
	{"history", cmd_history,
	 "[--verdict V] [--design D] [--experiment NAME] [--rev OID] [--since DATE] [--until DATE] "
	 "[--grep TEXT] [--limit N] [--json] [--store DB]",
	 "list stored runs newest first, filtered and searched (names, hypotheses, reasons, notes)", cmd_history_options},
	{"show", cmd_show, "RUN [--json] [--profile] [--store DB]",
	 "everything about one run: verdict and reasons, revisions, builds, rows, rules, notes", cmd_show_options},
	{"designs", cmd_designs, "[--rejected] [--json] [--store DB]",
	 "list designs with their run count and latest verdict", cmd_designs_options},
	{"note", cmd_note, "RUN TEXT | --design D TEXT [--store DB]",
	 "attach a note (a reason, a link) to a run or a design; searchable with history --grep", cmd_note_options},
	{"config", cmd_config, "[KEY [VALUE]] [--unset KEY] [--store DB]",
	 "the store's own settings, for everyone who uses it: block_rejected true|false", cmd_config_options},
	{"export", cmd_export, "RUN [--format json|tsv] [-o FILE] [--store DB]",
	 "write one run, every sample included, as a JSON document (for import) or TSV", cmd_export_options},
	{"import", cmd_import, "FILE [--store DB]",
	 "add a run exported from another store (a run already present is left alone)", cmd_import_options},
	{"cache", cmd_cache, "[list] | prune [--older-than DURATION] [--keep-size SIZE] | clear [--store DB]",
	 "the build cache: entries with size, age, revision, last use; prune or clear it", cmd_cache_options},
	{"init", cmd_init, "[--template NAME | --workflow github-actions] [--list] [FILE]",
	 "write a commented experiment file from a template (no-regression, lane-split, memory, pr-gate)", cmd_init_options},
	{"env", cmd_env, "[--json] [--root DIR] [EXP.yaml]",
	 "print the host fingerprint stored with each run and the warnings it implies; with "
	 "EXP.yaml, also the outputs of its environment.commands", cmd_env_options},
	{"demo", cmd_demo, "[--dir DIR] [--store DB]",
	 "write a small git repository with a faster candidate and run a full A/B on it", cmd_demo_options},
	{NULL, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	const struct ab_command_entry *c;

	fprintf(f, "usage: abtool COMMAND [ARGS]\n\nabtool %s: exact-parent A/B performance experiments.\n\n"
		   "commands:\n", ABTOOL_VERSION);
	for (c = ab_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nexit codes of run and resume: 0 accepted, 1 rejected, 2 inconclusive, 3 invalid,\n"
		   "64 bad command line or experiment file, 70 internal error, 74 I/O or store error,\n"
		   "130/143 interrupted (the run is kept: abtool resume RUN).\n"
		   "'abtool COMMAND --help' shows a command's options.\n");
}

int main(int argc, char **argv)
{
	const struct ab_command_entry *c;

	/* A file that reaches RLIMIT_FSIZE (ulimit -f) must fail with EFBIG,
	 * which sqlite and our writes report, not kill abtool between a
	 * sample and its commit. Children get the default back (runner.c). */
	signal(SIGXFSZ, SIG_IGN);
	/* Messages embed design names, notes, subjects and benchmark output:
	 * no control character of theirs reaches the terminal. */
	cmd_term_stderr();
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc >= 3 && !strcmp(argv[1], "help"))
			return cmd_help(argv[2]);
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? AB_EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("abtool %s\n", ABTOOL_VERSION);
		return 0;
	}
	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, argv[1])) {
			/* getopt names the program in its messages: "abtool run: ..." */
			static char prog[64];
			snprintf(prog, sizeof(prog), "abtool %s", c->name);
			argv[1] = prog;
			return c->fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "abtool: '%s' is not a command; see 'abtool --help'\n", argv[1]);
	return AB_EXIT_USAGE;
}
