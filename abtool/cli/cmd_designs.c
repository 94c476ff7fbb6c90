/* cmd_designs.c - `abtool designs`: every design of the current project (or
 * of every project: --all-projects; docs/history.md, "Projects") with its run
 * count, its standing (the verdict, run, date and first reason of its
 * newest accepted or rejected A/B run), a newer run that did not change it,
 * and its latest note; --rejected keeps the designs whose standing is
 * rejected: the list to read before retrying an idea. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* The design's column, after its project's when `wproject` > 0. */
static void put_design(const json_t *d, size_t wproject, size_t wdesign)
{
	char *name = cmd_one_line(str(d, "design"), wdesign);

	if (wproject) {
		char *project = cmd_one_line(cmd_project_label(d), wproject);
		cmd_put_padded(stdout, project, wproject);
		fputs("  ", stdout);
		free(project);
	}
	cmd_put_padded(stdout, name, wdesign);
	free(name);
}

/* Ends a line about the newest run: the profile it linked as new
 * evidence, when it did not change the standing (or there is none). */
static void put_newest_evidence(const json_t *d)
{
	if (json_is_integer(json_object_get(d, "newest_evidence_run")))
		printf("; new evidence: run %lld's profile",
		       (long long)json_integer_value(json_object_get(d, "newest_evidence_run")));
	putchar('\n');
}

/* With a project column when `projects` is set. */
static void print_table(const json_t *list, int projects)
{
	size_t i, wdesign = 6, wproject = 0;
	int columns = cmd_terminal_columns();
	json_t *d;

	json_array_foreach(list, i, d) {
		if (cmd_text_width(str(d, "design")) > wdesign)
			wdesign = cmd_text_width(str(d, "design"));
		if (projects && cmd_text_width(cmd_project_label(d)) > wproject)
			wproject = cmd_text_width(cmd_project_label(d));
	}
	if (wdesign > 32)
		wdesign = 32;
	if (wproject > 32)
		wproject = 32;
	if (projects && wproject < 7)
		wproject = 7;
	if (wproject) {
		cmd_put_padded(stdout, "project", wproject);
		fputs("  ", stdout);
	}
	cmd_put_padded(stdout, "design", wdesign);
	printf("  %4s  %-12s  %4s  %-16s  %s\n", "runs", "verdict", "run", "date (UTC)", "reason");
	json_array_foreach(list, i, d) {
		const json_t *latest = json_object_get(d, "latest_run");
		const char *reason = json_string_value(json_array_get(json_object_get(d, "latest_reasons"), 0));
		size_t used = (wproject ? wproject + 2 : 0) + wdesign + 2 + 4 + 2 + 12 + 2 + 4 + 2 + 16 + 2;
		size_t room = columns > 0 ? ((size_t)columns > used + 20 ? (size_t)columns - used : 20) : 100;
		char *why, t[32], run[32];

		{
			char ev[48] = "";
			char *text;
			if (json_is_integer(json_object_get(d, "latest_evidence_run")))
				snprintf(ev, sizeof(ev), "new evidence: run %lld's profile; ",
					 (long long)json_integer_value(json_object_get(d, "latest_evidence_run")));
			text = ab_xasprintf("%s%s%s", ev, json_is_true(json_object_get(d,
					    "latest_identical_artifacts")) ? "identical artifacts; " : "",
					    reason ? reason : "");
			why = cmd_one_line(text, room);
			free(text);
		}
		put_design(d, wproject, wdesign);
		if (json_is_integer(latest)) {
			snprintf(run, sizeof(run), "%lld", (long long)json_integer_value(latest));
			printf("  %4lld  %-12s  %4s  %-16s  %s\n", (long long)json_integer_value(json_object_get(d, "runs")),
			       str(d, "latest_verdict"), run, cmd_short_time(t, sizeof(t), str(d, "latest_created_at")), why);
		} else if (json_is_integer(json_object_get(d, "newest_run"))) {
			/* no accepted or rejected A/B run: no standing yet */
			snprintf(run, sizeof(run), "%lld", (long long)json_integer_value(json_object_get(d, "newest_run")));
			printf("  %4lld  %-12s  %4s  %-16s  newest run: %s%s%s",
			       (long long)json_integer_value(json_object_get(d, "runs")), "undecided", run,
			       cmd_short_time(t, sizeof(t), json_string_value(json_object_get(d, "newest_created_at"))),
			       strcmp(str(d, "newest_kind"), "ab") ? str(d, "newest_kind") : "",
			       strcmp(str(d, "newest_kind"), "ab") ? ", " : "",
			       json_is_string(json_object_get(d, "newest_verdict")) ? str(d, "newest_verdict")
										 : str(d, "newest_status"));
			put_newest_evidence(d);
		} else {
			printf("  %4lld  %-12s  %4s  %-16s\n", (long long)json_integer_value(json_object_get(d, "runs")),
			       "undecided", "-", "-");
		}
		/* A newer run that does not change the standing: unfinished,
		 * inconclusive, invalid, or a calibration. */
		if (json_is_integer(latest) && json_integer_value(json_object_get(d, "newest_run")) != json_integer_value(latest)) {
			printf("%*s  newer: run %lld%s%s, %s", (int)((wproject ? wproject + 2 : 0) +
			       wdesign + 2 + 4), "",
			       (long long)json_integer_value(json_object_get(d, "newest_run")),
			       strcmp(str(d, "newest_kind"), "ab") ? " " : "",
			       strcmp(str(d, "newest_kind"), "ab") ? str(d, "newest_kind") : "",
			       json_is_string(json_object_get(d, "newest_verdict")) ? str(d, "newest_verdict")
										 : str(d, "newest_status"));
			put_newest_evidence(d);
		}
		if (json_is_string(json_object_get(d, "last_note"))) {
			char *note = cmd_one_line(str(d, "last_note"), columns > 0 && (size_t)columns > wdesign + 30
								? (size_t)columns - wdesign - 30 : 100);
			printf("%*s  note %s: %s\n", (int)((wproject ? wproject + 2 : 0) + wdesign + 2 + 4), "",
			       cmd_short_time(t, sizeof(t), str(d, "last_note_created_at")), note);
			free(note);
		}
		free(why);
	}
}

const struct cmd_option cmd_designs_options[] = {
	{"rejected", 0, NULL, "only designs whose standing is rejected", NULL, CMD_OWN, 'r', 0, 0},
	{"json", 0, NULL, "print a JSON array of objects instead of the table", NULL, CMD_OWN, 'j', 0, 0},
	{"all-projects", 0, NULL, "the designs of every project in the store, with a project column",
	 NULL, CMD_OWN, 'A', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* --rejected, --json, --all-projects (ctx: the three flags). */
static int designs_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	int *flags = args->ctx;

	(void)arg;
	flags[o->code == 'r' ? 0 : o->code == 'j' ? 1 : 2] = 1;
	return CMD_GO_ON;
}

int cmd_designs(int argc, char **argv)
{
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *list = NULL;
	int flags[3] = {0, 0, 0}, rejected, json, all, err, rc = 0;

	cmd_args_init(&args, "designs", designs_option, flags);
	if ((stop = cmd_parse_options(&args, cmd_designs_options, argc, argv)) != CMD_GO_ON)
		return stop;
	rejected = flags[0];
	json = flags[1];
	if (optind != argc)
		return cmd_usage("designs", "unexpected argument '%s'", argv[optind]);
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_READ)) < 0)
		return cmd_fail(err);
	/* no current project (docs/history.md, "Projects"): every project */
	all = flags[2] || cmd_store_lists_every_project(store);
	if ((err = ab_store_designs(store, (rejected ? AB_STORE_DESIGNS_REJECTED : 0u) |
				    (all ? AB_STORE_DESIGNS_ALL_PROJECTS : 0u), &list)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (json) {
		char *text = json_dumps(list, JSON_INDENT(2));
		printf("%s\n", text);
		free(text);
	} else if (json_array_size(list)) {
		print_table(list, flags[2]);
	} else if (all) {
		fprintf(stderr, "abtool designs: no %sdesigns in the store '%s'\n", rejected ? "rejected " : "",
			ab_store_path(store));
	} else {
		fprintf(stderr, "abtool designs: no %sdesigns of the project '%s' in the store '%s' "
			"(--all-projects: of every project)\n", rejected ? "rejected " : "",
			ab_store_project(store), ab_store_path(store));
	}
out:
	json_decref(list);
	ab_store_close(store);
	return rc;
}
