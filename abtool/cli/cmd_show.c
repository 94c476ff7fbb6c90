/* cmd_show.c - `abtool show RUN`: everything the store knows about one
 * run, for a person deciding whether to retry a design: experiment,
 * design, hypothesis, status, verdict with every reason, revisions with
 * their subjects, builds, host, plan progress, the rows of the stored
 * report, the rules' outcomes, the notes of the run and its design, and
 * the other runs of the same comparison. --json prints the same as one
 * document (schema "abtool-show-1": the export document without samples,
 * plus sample counts and the same-comparison runs). */
#include "cmd.h"
#include "env.h"
#include "error.h"
#include "report.h"
#include "report_common.h"
#include "report_sides.h"
#include "revs.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long integer(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static double num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Seconds since the epoch of "2026-11-30T05:44:56Z", or -1. */
static int64_t iso_seconds(const char *iso)
{
	struct tm tm;
	int n = 0;

	memset(&tm, 0, sizeof(tm));
	if (!iso || sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || !n)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm);
}

/* Print the lines of `text` after `indent` spaces each. */
static void print_lines(const char *text, int indent)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		printf("%*s%.*s\n", indent, "", nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* Print `text` (one line: a rule's detail) after `indent` spaces, whole:
 * wrapped at spaces to the terminal's width on a terminal, on one line
 * otherwise (for grep), never broken inside its clauses' punctuation. */
static void print_detail(const char *text, int indent)
{
	int columns = cmd_terminal_columns();

	printf("%*s", indent, "");
	if (columns > indent + 20)
		cmd_put_wrapped(stdout, text, (size_t)indent, (size_t)indent, (size_t)columns);
	else
		printf("%s\n", text);
}

static void print_header(const json_t *doc, int64_t id)
{
	const json_t *run = json_object_get(doc, "run"), *exp = json_object_get(doc, "experiment");
	const json_t *reasons = json_object_get(run, "reasons"), *r;
	const char *verdict = json_string_value(json_object_get(run, "verdict"));
	const char *hypothesis = json_string_value(json_object_get(exp, "hypothesis"));
	int64_t t0 = iso_seconds(str(run, "created_at")), t1 = iso_seconds(str(run, "finished_at"));
	size_t i;

	printf("run %lld  %s\n", (long long)id, str(run, "uuid"));
	printf("experiment  %s  (%s, sha256 %.12s)\n", str(exp, "name"), str(exp, "path"), str(exp, "hash"));
	printf("design      %s\n", str(json_object_get(doc, "design"), "name"));
	if (cmd_project_chosen(str(doc, "project")))  /* not the repository's own, derived id */
		printf("project     %s\n", str(doc, "project"));
	if (hypothesis)
		printf("hypothesis  %s\n", hypothesis);
	printf("status      %s, started %s", str(run, "status"), str(run, "created_at"));
	/* as history shows it: a running run whose process on this host is gone */
	if (!strcmp(str(run, "status"), "running") &&
	    ab_store_run_owner(json_object_get(run, "options")) == AB_OWNER_DEAD)
		printf(" (dead: its process is gone; 'abtool resume %lld' finishes it)", (long long)id);
	if (t0 >= 0 && t1 >= 0)
		printf(", finished %s (%lld s)", str(run, "finished_at"), (long long)(t1 - t0));
	printf("\n");
	if (strcmp(str(run, "kind"), "ab"))
		printf("kind        %s\n", str(run, "kind"));
	printf("verdict     %s%s\n", verdict ? verdict : "none yet",
	       ab_report_artifacts_identical(json_object_get(run, "report"))
	       ? " (identical artifacts: every declared artifact is byte-identical on both sides)" : "");
	json_array_foreach(reasons, i, r) {  /* a comparison's sides by their names */
		char *named = ab_report_sides_text(run, json_string_value(r));
		printf("  - %s\n", named);
		free(named);
	}
	if (verdict && !strcmp(verdict, "accepted") && !json_array_size(reasons))
		printf("  every rule passed\n");
}

/* The overlay (from the report) and the dependencies (from the report,
 * or the run's options while it is unfinished). */
static void print_inputs(const json_t *run, const json_t *report)
{
	const json_t *overlay = json_object_get(report, "overlay"), *deps = json_object_get(report, "dependencies");
	const json_t *p, *d;
	size_t i;

	if (json_is_object(overlay)) {
		printf("  overlay    from %s %.10s:", str(overlay, "from"), str(overlay, "source"));
		json_array_foreach(json_object_get(overlay, "paths"), i, p)
			printf("%s %s (%s %.10s)", i ? "," : "", str(p, "path"), str(p, "type"), str(p, "oid"));
		printf(", on both sides\n");
	}
	if (!json_is_array(deps))
		deps = json_object_get(json_object_get(run, "options"), "dependencies");
	json_array_foreach((json_t *)deps, i, d)
		printf("  dependency %s (%s): parent %.10s%s, candidate %.10s\n", str(d, "name"), str(d, "path"),
		       str(json_object_get(d, "parent"), "oid"),
		       json_is_true(json_object_get(d, "exact_parent")) ? " (exact parent)" : "",
		       str(json_object_get(d, "candidate"), "oid"));
}

/* Subjects come from the stored report; a run without one (unfinished)
 * asks the repository, when it is still there. */
static void print_revisions(const json_t *doc)
{
	const json_t *run = json_object_get(doc, "run"), *report = json_object_get(run, "report");
	const char *subject[2] = {json_string_value(json_object_get(json_object_get(report, "parent"), "subject")),
				  json_string_value(json_object_get(json_object_get(report, "candidate"), "subject"))};
	struct ab_revs revs;
	int have_revs = 0;

	if (json_is_array(json_object_get(run, "sides"))) {  /* a comparison: two commands */
		const json_t *sides = json_object_get(run, "sides");
		size_t i;

		printf("\nsides (two commands, no revisions)\n");
		for (i = 0; i < 2; i++)
			printf("  %s  %s  %s\n", i ? "b" : "a", str(json_array_get(sides, i), "name"),
			       str(json_array_get(sides, i), "command"));
		print_inputs(run, report);
		return;
	}
	memset(&revs, 0, sizeof(revs));
	if (!subject[0] || !subject[1]) {
		ab_revs_global_init();
		have_revs = ab_revs_open(&revs, str(run, "repo"), str(run, "candidate_oid"),
					 str(run, "parent_oid"), 0) == 0;
		if (have_revs) {
			subject[0] = revs.parent_subject;
			subject[1] = revs.candidate_subject;
		}
		ab_error_clear();
	}
	printf("\nrevisions (repository %s%s)\n", str(run, "repo"),
	       subject[0] && subject[1] ? "" : ", not found: no subjects");
	printf("  parent     %.10s%s%s  (%s)\n", str(run, "parent_oid"), subject[0] ? "  " : "",
	       subject[0] ? subject[0] : "", integer(run, "exact_parent") ? "exact parent" : "NOT the exact parent");
	printf("  candidate  %.10s%s%s\n", str(run, "candidate_oid"), subject[1] ? "  " : "",
	       subject[1] ? subject[1] : "");
	ab_revs_release(&revs);
	print_inputs(run, report);
}

static void print_builds(const json_t *doc)
{
	const json_t *builds = json_object_get(doc, "builds"), *b;
	size_t i;

	if (!json_array_size(builds))
		return;
	printf("\nbuilds\n");
	json_array_foreach(builds, i, b) {
		char t[32], how[48];
		const char *path;
		json_t *sha;

		if (integer(b, "cached"))
			snprintf(how, sizeof(how), "cached");
		else
			snprintf(how, sizeof(how), "built in %s", ab_format_ns(t, sizeof(t), num(b, "duration_ns")));
		printf("  %-9s  %-9s  %-20s  %s\n", str(b, "side"), str(b, "status"), how, str(b, "command"));
		json_object_foreach(json_object_get(b, "artifacts"), path, sha)
			printf("  %-9s  artifact %s sha256 %.12s\n", "", path, json_string_value(sha));
		if (strcmp(str(b, "status"), "ok") && *str(b, "log")) {
			const char *log = str(b, "log"), *p = log + strlen(log);
			int lines = 0;
			while (p > log && lines < 6)
				lines += *--p == '\n';
			printf("  %-9s  last lines of the build log:\n", "");
			print_lines(p == log ? p : p + 1, 13);
		}
	}
}

static void print_plan(const json_t *doc, const json_t *counts)
{
	const json_t *run = json_object_get(doc, "run");
	char *host = json_is_object(json_object_get(run, "host")) ? ab_env_summary(json_object_get(run, "host")) : NULL;

	printf("\nhost        %s\n", host ? host : "unknown");
	printf("plan        seed %lld, %lld pairs per row after %lld warmup%s per side, %zu row%s; "
	       "%lld of %lld samples done", integer(run, "seed"), integer(run, "pairs"), integer(run, "warmup"),
	       integer(run, "warmup") == 1 ? "" : "s", json_array_size(json_object_get(doc, "rows")),
	       json_array_size(json_object_get(doc, "rows")) == 1 ? "" : "s", integer(counts, "done"),
	       integer(counts, "planned"));
	if (integer(counts, "failed"))
		printf(", %lld failed", integer(counts, "failed"));
	if (integer(counts, "superseded"))
		printf(", %lld superseded on resume", integer(counts, "superseded"));
	if (integer(counts, "stopped"))
		printf(", %lld not run (a sequential plan stopped their rows)", integer(counts, "stopped"));
	printf("\n");
	free(host);
}

static void print_rows(const json_t *doc, int64_t id)
{
	const json_t *run = json_object_get(doc, "run"), *report = json_object_get(run, "report");
	const json_t *rows = json_object_get(report, "rows"), *row;
	size_t i, wlabel = 3;

	if (!json_is_object(report)) {
		const json_t *planned = json_object_get(doc, "rows"), *p;
		printf("\nrows        ");
		json_array_foreach(planned, i, p) {
			char *label = json_dumps(json_object_get(p, "params"), JSON_COMPACT | JSON_ENCODE_ANY);
			printf("%s%s", i ? ", " : "", label);
			free(label);
		}
		printf("\n            no results yet: the run is %s; finish it with 'abtool resume %lld'\n",
		       str(run, "status"), (long long)id);
		return;
	}
	json_array_foreach(rows, i, row)
		if (cmd_text_width(str(row, "label")) > wlabel)
			wlabel = cmd_text_width(str(row, "label"));
	printf("\nrows (%s, %s is better)\n  ", str(report, "metric"),
	       json_array_size(rows) ? str(json_array_get(rows, 0), "better") : "lower");
	cmd_put_padded(stdout, "row", wlabel);
	{
		/* a comparison's columns carry its sides' names */
		const json_t *sides = json_object_get(run, "sides");
		const char *na = json_string_value(json_object_get(json_array_get(sides, 0), "name"));
		const char *nb = json_string_value(json_object_get(json_array_get(sides, 1), "name"));

		printf("  %10.10s  %10.10s  %9s  %-16s  %9s  %s\n", na ? na : "parent", nb ? nb : "candidate",
		       "ratio B/A", "90% CI", "pair wins", "checksum");
	}
	json_array_foreach(rows, i, row) {
		const json_t *ci = json_object_get(row, "ci"), *match = json_object_get(row, "checksum_match");
		char a[32], b[32], ratio[32], interval[96], wins[32];
		const char *unit = str(row, "unit"), *was, *now;

		ab_report_format_value(a, sizeof(a), num(json_object_get(row, "parent"), "median"), unit);
		ab_report_format_value(b, sizeof(b), num(json_object_get(row, "candidate"), "median"), unit);
		if (json_is_number(json_object_get(row, "ratio")))
			snprintf(ratio, sizeof(ratio), "%.3f", num(row, "ratio"));
		else
			snprintf(ratio, sizeof(ratio), "n/a");
		if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)))
			snprintf(interval, sizeof(interval), "[%.3f, %.3f]%s", json_number_value(json_array_get(ci, 0)),
				 json_number_value(json_array_get(ci, 1)), ab_report_ci_flag(row));
		else
			snprintf(interval, sizeof(interval), "n/a");
		snprintf(wins, sizeof(wins), "%lld/%lld", integer(row, "pair_wins"), integer(row, "pairs"));
		printf("  ");
		cmd_put_padded(stdout, str(row, "label"), wlabel);
		printf("  %10s  %10s  %9s  %-16s  %9s  %s\n", a, b, ratio, interval, wins,
		       json_is_true(match) ? "match"
		       : ab_report_checksum_changed(row, &was, &now) ? "changed (may_change)"
		       : json_is_false(match) ? "MISMATCH" : "-");
		if (json_is_string(json_object_get(row, "unavailable")))
			printf("  %*s  %s\n", (int)wlabel, "", str(row, "unavailable"));
	}
}

static void print_rules(const json_t *doc)
{
	const json_t *rules = json_object_get(doc, "rule_results"), *r;
	size_t i;

	if (!json_array_size(rules))
		return;
	printf("\nrules\n");
	json_array_foreach(rules, i, r) {
		printf("  %-12s  %s\n", str(r, "outcome"), str(r, "name"));
		print_detail(str(r, "detail"), 16);
	}
}

static void print_notes(const json_t *doc)
{
	const json_t *notes = json_object_get(doc, "notes"), *n;
	size_t i;

	printf("\nnotes");
	if (!json_array_size(notes)) {
		printf("       none (add one with 'abtool note RUN TEXT' or 'abtool note --design D TEXT')\n");
		return;
	}
	printf("\n");
	json_array_foreach(notes, i, n) {
		char t[32];
		printf("  %s  %-6s  %s\n", cmd_short_time(t, sizeof(t), str(n, "created_at")), str(n, "scope"),
		       str(n, "text"));
	}
}

static void print_same(const json_t *same, int64_t id)
{
	const json_t *r;
	size_t i, earlier = 0, later = 0;

	json_array_foreach(same, i, r) {
		if (integer(r, "id") < id)
			earlier++;
		else
			later++;
	}
	if (!earlier && !later)
		return;
	printf("\nsame comparison (experiment file and both commits)\n");
	json_array_foreach(same, i, r) {
		char t[32];
		if (integer(r, "id") >= id)
			continue;
		printf("  run %lld  %s  %s\n", integer(r, "id"), cmd_short_time(t, sizeof(t), str(r, "created_at")),
		       str(r, "verdict"));
	}
	if (!later)
		return;
	printf("  later:");
	json_array_foreach(same, i, r)
		if (integer(r, "id") > id)
			printf(" run %lld (%s)", integer(r, "id"), str(r, "verdict"));
	printf("\n");
}

/* The bisect step run `id` is, {bisect, seq, role} (new), or NULL; for a
 * step whose bisect is not in this store (imported or synced), {bisect:
 * null, uuid, seq, role} from the mark the run keeps in its options. */
static json_t *bisect_step(struct ab_store *store, int64_t id, const json_t *run)
{
	const json_t *mark = json_object_get(json_object_get(run, "options"), "bisect_step");
	json_t *steps = NULL, *b;
	char key[32];

	snprintf(key, sizeof(key), "%lld", (long long)id);
	b = ab_store_bisect_runs(store, &steps) == 0 ? json_incref(json_object_get(steps, key)) : NULL;
	json_decref(steps);
	ab_error_clear();
	if (!b && json_is_object(mark))
		b = json_pack("{s:n, s:O, s:O, s:O}", "bisect", "uuid", json_object_get(mark, "bisect"), "seq",
			      json_object_get(mark, "seq"), "role", json_object_get(mark, "role"));
	return b;
}

/* --json (flags[0]), --profile (flags[1]). */
static int own(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	int *flags = args->ctx;

	(void)arg;
	flags[o->code == 'p'] = 1;
	return CMD_GO_ON;
}

const struct cmd_option cmd_show_options[] = {
	{"json", 0, NULL, "print one JSON document (schema abtool-show-1) instead of the text", NULL,
	 CMD_OWN, 'j', 0, 0},
	{"profile", 0, NULL, "also the profiled rows' tables: the functions whose share changed most",
	 NULL, CMD_OWN, 'p', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_show(int argc, char **argv)
{
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *doc = NULL, *counts = NULL, *same = NULL, *run, *bisect = NULL;
	int flags[2] = {0, 0}, json, err, rc = 0;
	int64_t id;

	cmd_args_init(&args, "show", own, flags);
	if ((stop = cmd_parse_options(&args, cmd_show_options, argc, argv)) != CMD_GO_ON)
		return stop;
	json = flags[0];
	if (optind != argc - 1)
		return cmd_usage("show", "expected one run: an id, 'latest' or a uuid prefix");
	if ((rc = cmd_open_run(&store, args.store, argv[optind], &id)) != 0)
		return rc;
	if ((err = ab_store_export(store, id, 0, &doc)) < 0 ||
	    (err = ab_store_sample_counts(store, id, &counts)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	run = json_object_get(doc, "run");
	/* a run of any project, compared with its own project's runs */
	json_object_set(doc, "project", json_object_get(json_object_get(doc, "design"), "project"));
	ab_store_set_project(store, str(doc, "project"));
	if ((err = ab_store_same_comparison(store, str(json_object_get(doc, "experiment"), "hash"),
					    str(run, "parent_oid"), str(run, "candidate_oid"),
					    str(json_object_get(run, "options"), "inputs_hash"), id, &same)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	bisect = bisect_step(store, id, run);
	if (json) {
		char *text;
		json_object_set_new(doc, "schema", json_string("abtool-show-1"));
		json_object_set(doc, "bisect", bisect ? bisect : json_null());
		json_object_set(doc, "samples", counts);
		json_object_set(doc, "same_comparison", same);
		text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("%s\n", text);
		free(text);
		goto out;
	}
	cmd_plain_stdout();  /* subjects, names and notes come from users */
	print_header(doc, id);
	if (bisect && json_is_integer(json_object_get(bisect, "bisect")))
		printf("bisect      bisect %lld, step %lld (%s); 'abtool bisect --resume %lld' shows it\n",
		       integer(bisect, "bisect"), integer(bisect, "seq"), str(bisect, "role"),
		       integer(bisect, "bisect"));
	else if (bisect)
		printf("bisect      a step (%lld, %s) of bisect %.8s of another store\n", integer(bisect, "seq"),
		       str(bisect, "role"), str(bisect, "uuid"));
	print_revisions(doc);
	print_builds(doc);
	print_plan(doc, counts);
	print_rows(doc, id);
	print_rules(doc);
	print_notes(doc);
	print_same(same, id);
	if (*str(json_object_get(run, "report"), "reproduce"))
		printf("\nreproduce   %s\n", str(json_object_get(run, "report"), "reproduce"));
	if (flags[1] && (err = cmd_print_profile_table(stdout, store, id)) < 0)
		rc = cmd_fail(err);
out:
	json_decref(doc);
	json_decref(counts);
	json_decref(same);
	json_decref(bisect);
	ab_store_close(store);
	return rc;
}
