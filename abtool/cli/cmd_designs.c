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

/* The columns of the table before the reason, in their order. */
enum { D_PROJECT, D_DESIGN, D_RUNS, D_VERDICT, D_RUN, D_DATE, D_NCOLS };

/* How the table narrows to a screen (cmd_table_fit): the time of day
 * first, then the names elided (a design to 12 columns, a project to 15:
 * "root:" and 10 hex digits), the date and the run count,
 * until the reason has two fifths of the width and at least REASON_MIN
 * columns. */
static const struct cmd_fit_step designs_fit[] = {
	{D_DATE, 0}, {D_DESIGN, 0}, {D_PROJECT, 0}, {D_DATE, 1}, {D_RUNS, 1},
};

#define NAME_MAX_COLS 32
#define REASON_MIN 30
#define REASON_PIPE 100  /* the reason's columns in a pipe (no width) */

/* Cell `text` (borrowed) of column `c`, elided to its width (right-aligned
 * when `right`), and the two spaces after it, when the column is shown. */
static void put_cell(const struct cmd_column *c, const char *text, int right)
{
	char *shown;

	if (!c->shown)
		return;
	shown = cmd_one_line(text, c->width);
	if (right)
		printf("%*s", (int)(c->width - cmd_text_width(shown)), "");
	cmd_put_padded(stdout, shown, right ? 0 : c->width);
	fputs("  ", stdout);
	free(shown);
}

/* A line's cells before the reason, in the columns' order (the counts,
 * runs and run, right-aligned). */
static void put_cells(const struct cmd_column *c, const char *const cells[D_NCOLS])
{
	size_t i;

	for (i = 0; i < D_NCOLS; i++)
		put_cell(&c[i], cells[i], i == D_RUNS || i == D_RUN);
}

static const char *const header[D_NCOLS] = {"project", "design", "runs", "verdict", "run", "date (UTC)"};

/* The columns' widths over `list` (a project column when `projects`),
 * fitted to `columns` (0: no limit); the reason's room. */
static size_t designs_columns(struct cmd_column *c, const json_t *list, int projects, size_t columns)
{
	size_t i, wdesign = strlen("design"), wproject = strlen("project");
	json_t *d;

	json_array_foreach(list, i, d) {
		if (cmd_text_width(str(d, "design")) > wdesign)
			wdesign = cmd_text_width(str(d, "design"));
		if (cmd_text_width(cmd_project_label(d)) > wproject)
			wproject = cmd_text_width(cmd_project_label(d));
	}
	memset(c, 0, D_NCOLS * sizeof(*c));
	c[D_PROJECT].full = !projects ? 0 : wproject > NAME_MAX_COLS ? NAME_MAX_COLS : wproject;
	c[D_DESIGN].full = wdesign > NAME_MAX_COLS ? NAME_MAX_COLS : wdesign;
	for (i = D_PROJECT; i <= D_DESIGN; i++) {
		/* a project's label keeps "root:" and 10 hex digits whole */
		size_t min = i == D_PROJECT ? 15 : 12;
		c[i].min = c[i].full < min ? c[i].full : min;
		c[i].elide = 1;
	}
	c[D_RUNS] = (struct cmd_column){.full = 4, .min = 4};
	c[D_VERDICT] = (struct cmd_column){.full = 12, .min = 12};
	c[D_RUN] = (struct cmd_column){.full = 4, .min = 4};
	c[D_DATE] = (struct cmd_column){.full = 16, .min = 10};
	return cmd_table_fit(c, D_NCOLS, designs_fit, sizeof(designs_fit) / sizeof(designs_fit[0]), columns,
			     columns * 2 / 5 > REASON_MIN ? columns * 2 / 5 : REASON_MIN);
}

/* ", new evidence: run N's profile" when `key` names the run whose
 * profile --new-evidence linked, else "" (static). */
static const char *evidence(const json_t *d, const char *key, const char *before)
{
	static char text[64];

	if (!json_is_integer(json_object_get(d, key)))
		return "";
	snprintf(text, sizeof(text), "%snew evidence: run %lld's profile", before,
		 (long long)json_integer_value(json_object_get(d, key)));
	return text;
}

/* The state of the newest run: its kind when not an A/B run, then its
 * verdict or status ("calibrate, calibrated"). New string. */
static char *newest_state(const json_t *d)
{
	int ab = !strcmp(str(d, "newest_kind"), "ab");

	return ab_xasprintf("%s%s%s", ab ? "" : str(d, "newest_kind"), ab ? "" : ", ",
			    json_is_string(json_object_get(d, "newest_verdict")) ? str(d, "newest_verdict")
										 : str(d, "newest_status"));
}

/* The row of design `d`: the standing's run, date and reason, or the
 * newest run when it has no standing. */
static void print_row(const json_t *d, const struct cmd_column *c, size_t room)
{
	const json_t *latest = json_object_get(d, "latest_run");
	const char *reason = json_string_value(json_array_get(json_object_get(d, "latest_reasons"), 0));
	char t[32], run[32], runs[32], *text, *why;
	const char *verdict = "undecided", *at = "-";

	snprintf(runs, sizeof(runs), "%lld", (long long)json_integer_value(json_object_get(d, "runs")));
	snprintf(run, sizeof(run), "-");
	if (json_is_integer(latest)) {
		snprintf(run, sizeof(run), "%lld", (long long)json_integer_value(latest));
		verdict = str(d, "latest_verdict");
		at = cmd_short_time(t, sizeof(t), str(d, "latest_created_at"));
		text = ab_xasprintf("%s%s%s", evidence(d, "latest_evidence_run", ""),
				    *evidence(d, "latest_evidence_run", "") ? "; " : "",
				    json_is_true(json_object_get(d, "latest_identical_artifacts"))
				    ? "identical artifacts; " : "");
		why = ab_xasprintf("%s%s", text, reason ? reason : "");
		free(text);
		text = why;
	} else if (json_is_integer(json_object_get(d, "newest_run"))) {
		/* no accepted or rejected A/B run: no standing yet */
		char *state = newest_state(d);

		snprintf(run, sizeof(run), "%lld", (long long)json_integer_value(json_object_get(d, "newest_run")));
		at = cmd_short_time(t, sizeof(t), json_string_value(json_object_get(d, "newest_created_at")));
		text = ab_xasprintf("newest run: %s%s", state, evidence(d, "newest_evidence_run", "; "));
		free(state);
	} else {
		text = ab_xstrdup("");
	}
	if (c[D_DATE].width < 16 && strlen(at) > 10)
		t[10] = '\0';
	why = cmd_fit_words(text, room);
	{
		const char *cells[D_NCOLS] = {cmd_project_label(d), str(d, "design"), runs, verdict, run, at};
		put_cells(c, cells);
	}
	printf("%s\n", why);
	free(text);
	free(why);
}

/* A line under a design's row, starting under its verdict (`indent`
 * columns in), cut to `columns` (0: no limit) at a word. */
static void print_under(size_t indent, size_t columns, const char *text)
{
	char *shown = cmd_fit_words(text, columns > indent + 1 ? columns - indent : columns ? 1 : 0);

	printf("%*s%s\n", (int)indent, "", shown);
	free(shown);
}

/* With a project column when `projects`, fitted to the screen
 * (cmd_table_columns). */
static void print_table(const json_t *list, int projects)
{
	struct cmd_column c[D_NCOLS];
	size_t columns = (size_t)cmd_table_columns(), room = designs_columns(c, list, projects, columns), i, indent;
	json_t *d;
	char t[32];

	put_cells(c, header);
	printf("reason\n");
	for (i = 0, indent = 0; i < D_VERDICT; i++)
		indent += c[i].shown ? c[i].width + 2 : 0;
	json_array_foreach(list, i, d) {
		const json_t *latest = json_object_get(d, "latest_run");

		print_row(d, c, room ? room : REASON_PIPE);
		/* A newer run that does not change the standing: unfinished,
		 * inconclusive, invalid, or a calibration. */
		if (json_is_integer(latest) &&
		    json_integer_value(json_object_get(d, "newest_run")) != json_integer_value(latest)) {
			char *state = newest_state(d), *text;

			/* "newer: run 5, inconclusive", "newer: run 7 calibrate, calibrated" */
			text = ab_xasprintf("newer: run %lld%s%s%s",
				(long long)json_integer_value(json_object_get(d, "newest_run")),
				strcmp(str(d, "newest_kind"), "ab") ? " " : ", ", state,
				evidence(d, "newest_evidence_run", "; "));
			print_under(indent, columns, text);
			free(state);
			free(text);
		}
		if (json_is_string(json_object_get(d, "last_note"))) {
			char *text = ab_xasprintf("note %s: %s", cmd_short_time(t, sizeof(t),
						  str(d, "last_note_created_at")), str(d, "last_note"));
			print_under(indent, columns, text);
			free(text);
		}
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
