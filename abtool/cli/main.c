/* main.c - the command table and dispatch. Every command lives in
 * cmd_<name>.c; `abtool help`, `--help`, docs/cli.md's option lists, the man
 * page and the completions are built from this table (cmd_help.c, cmd_doc.c). */
#include "cmd.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* A report file's place in a usage line, from a row of the registry of
 * formats (report_format.h): "[--md F] ". */
#define USAGE_FILE_(id, name, help, needs, render, people) "[--" name " F] "
/* The output options of the measuring commands (CMD_OUTPUT_OPTIONS). */
#define USAGE_OUTPUTS \
	AB_REPORT_FORMATS(USAGE_FILE_) "[--inconclusive=reject|accept] [--quiet] [--verbose]"
/* What stdout shows (CMD_VIEW_OPTIONS). */
#define USAGE_VIEW "[--format text|md] [--color auto|always|never]"

/* The usage lines say what an option table cannot (operands, alternatives
 * such as --json | --ids); cli.usage_lines checks each against its table. */
const struct ab_command_entry ab_commands[] = {
	{"run", cmd_run,
	 "EXP.yaml [--candidate REV] [--parent REV] [--pairs N] [--max-pairs N] [--seed N] [--warmup N] "
	 "[--store DB] [--dependency NAME=PARENT..CANDIDATE] [--overlay-from REV] [--row NAME=VALUE] "
	 "[--shard K/N --group ID] " USAGE_OUTPUTS " [--design NAME] [--new-evidence TEXT] " USAGE_VIEW,
	 "build the candidate and its exact parent, run order-balanced pairs, decide the verdict", cmd_run_options},
	{"compare", cmd_compare,
	 "'CMD_A' 'CMD_B' [-n NAME] [-n NAME] [--name-a NAME] [--name-b NAME] [--checksum-regex RE] "
	 "[--check-stdout] [-P NAME MIN MAX] [-L NAME V1,V2,...] [--no-regression P%] "
	 "[--faster-by P%] [--equivalent-within P%] [--accept RULES.yaml] [--metric NAME] "
	 "[--timeout DURATION] [-N] [--shell SHELL] [--prepare CMD] [--conclude CMD] [--pairs N] "
	 "[--max-pairs N] [--seed N] [--warmup N] [--store DB] " USAGE_OUTPUTS " " USAGE_VIEW,
	 "A/B two commands, paired: no repository, no build (what hyperfine 'a' 'b' is used for)",
	 cmd_compare_options},
	{"verdict", cmd_verdict, "--group ID [--store DB] " USAGE_OUTPUTS,
	 "decide the shards of a group (run --shard K/N --group ID) together, as one run", cmd_verdict_options},
	{"check", cmd_check, "EXP.yaml [--candidate REV] [--parent REV] [--dependency NAME=PARENT..CANDIDATE] "
	 "[--overlay-from REV] [--row NAME=VALUE] [--pairs N] [--max-pairs N] [--store DB]",
	 "validate an experiment file and show its plan and the rows each rule selects", cmd_check_options},
	{"analyze", cmd_analyze,
	 "FILE [--accept RULES.yaml] [--metric NAME] [--unit U] [--better lower|higher] [--looks N,N,...] "
	 "[--max-rows N] [--max-line-bytes N] " USAGE_OUTPUTS " " USAGE_VIEW,
	 "the same statistics and rules on pairs collected elsewhere (TSV or CSV), or hyperfine's JSON export",
	 cmd_analyze_options},
	{"calibrate", cmd_calibrate,
	 "EXP.yaml [--pairs N] [--seed N] [--warmup N] [--candidate REV] [--parent REV] [--store DB] "
	 "[--dependency NAME=PARENT..CANDIDATE] [--overlay-from REV] [--row NAME=VALUE] " USAGE_OUTPUTS,
	 "A/A on the parent built twice: the noise floor, false-outcome rates, pairs needed", cmd_calibrate_options},
	{"resume", cmd_resume, "RUN | bisect:ID [--store DB] " USAGE_OUTPUTS " " USAGE_VIEW,
	 "finish an interrupted run from its stored plan (bisect:ID: an interrupted bisect)", cmd_resume_options},
	{"bisect", cmd_bisect,
	 "EXP.yaml --good REV --bad REV [--threshold P%] [--metric NAME] [--row NAME=VALUE]\n"
	 "                  [--steps sequential|fixed] [--pairs N] [--seed N] [--warmup N] [--store DB]\n"
	 "                  [--json F] [--quiet] [--verbose]\n"
	 "                  | --resume ID [--store DB] [--json F]",
	 "find the commit between good and bad that moved a row, confirmed against its exact parent",
	 cmd_bisect_options},
	{"report", cmd_report, "RUN [--format text" AB_REPORT_FORMAT_NAMES_BAR "|folded] "
	 "[--side parent|candidate] [-o FILE] [--color auto|always|never] [--store DB]",
	 "print a stored run's report again, byte-identical to what run wrote", cmd_report_options},
	{"profile", cmd_profile, "RUN [--row NAME=VALUE] [--samples N] [--event EVENT] [--quiet] [--store DB]",
	 "profile a finished run's rows: both sides under perf record, stored apart (docs/profiles.md)",
	 cmd_profile_options},
	{"history", cmd_history,
	 "[--verdict V] [--design D] [--experiment NAME] [--kind K] [--rev OID] [--since DATE] [--until DATE] "
	 "[--grep TEXT] [--limit N] [--json | --ids] [--project NAME | --all-projects] [--store DB]",
	 "list stored runs newest first, filtered and searched (names, hypotheses, reasons, notes)", cmd_history_options},
	{"show", cmd_show, "RUN [--json] [--profile] [--store DB]",
	 "everything about one run: verdict and reasons, revisions, builds, rows, rules, notes", cmd_show_options},
	{"designs", cmd_designs, "[--rejected] [--json] [--all-projects] [--store DB]",
	 "list designs with their run count and latest verdict", cmd_designs_options},
	{"site", cmd_site, "OUTDIR [--project NAME] [--commit-url TEMPLATE] [--rebuild] [--quiet] [--store DB]",
	 "write the store as a static site: projects, designs, rows over time, each run's report",
	 cmd_site_options},
	{"note", cmd_note, "RUN TEXT | --design D TEXT [--store DB]",
	 "attach a note (a reason, a link) to a run or a design; searchable with history --grep", cmd_note_options},
	{"config", cmd_config, "[KEY [VALUE]] [--unset KEY] [--store DB]",
	 "the store's own settings, for everyone who uses it: block_rejected true|false", cmd_config_options},
	{"export", cmd_export, "RUN [--format json|tsv] [-o FILE] [--store DB]",
	 "write one run, every sample included, as a JSON document (for import) or TSV", cmd_export_options},
	{"import", cmd_import, "FILE [--store DB]",
	 "add a run exported from another store (a run already present is left alone)", cmd_import_options},
	{"sync", cmd_sync, "--from STORE --to STORE [--dry-run] [--quiet]",
	 "copy the finished runs one store lacks from another (files or postgresql:// URLs), by run uuid",
	 cmd_sync_options},
	{"cache", cmd_cache, "[list] | prune [--older-than DURATION] [--keep-size SIZE] | clear [--store DB]",
	 "the build cache: entries with size, age, revision, last use; prune or clear it", cmd_cache_options},
	{"init", cmd_init, "[--template NAME | --workflow github-actions[-sharded]\n"
	 "                  [--action OWNER/REPO@REF]] [--list] [FILE]",
	 "write a commented experiment file from a template (no-regression, lane-split, memory, pr-gate)", cmd_init_options},
	{"env", cmd_env, "[--json] [--root DIR] [EXP.yaml]",
	 "print the host fingerprint stored with each run and the warnings it implies; with "
	 "EXP.yaml, also the outputs of its environment.commands", cmd_env_options},
	{"demo", cmd_demo, "[--dir DIR] [--store DB]",
	 "write a small git repository with a faster candidate and run a full A/B on it", cmd_demo_options},
	{NULL, NULL, NULL, NULL, NULL},
};

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
	/* Nor can data begin a line of stdout with a CI runner's workflow command. */
	cmd_guard_stdout();
	if (argc < 2) {
		cmd_print_commands(stderr, 80);
		return AB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc >= 3 && !strcmp(argv[1], "help"))
			return cmd_help(argv[2]);
		cmd_print_commands(stdout, cmd_help_width());
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("abtool %s\n", ABTOOL_VERSION);
		return 0;
	}
	/* hidden: what the build and scripts/gen-cli-doc generate from the tables */
	if (!strcmp(argv[1], "__doc"))
		return cmd_doc(argc - 1, argv + 1);
	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, argv[1])) {
			/* getopt names the program in its messages: "abtool run: ..." */
			static char prog[64];
			snprintf(prog, sizeof(prog), "abtool %s", c->name);
			argv[1] = prog;
			return c->fn(argc - 1, argv + 1);
		}
	return cmd_unknown_command(argv[1]);
}
