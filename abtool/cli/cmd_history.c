/* cmd_history.c - `abtool history`: the store as the memory of designs.
 * Lists runs newest first, one line each (id, date, design, experiment,
 * revisions, verdict or status, the best–worst row ratio, the first
 * reason), filtered by verdict, design, experiment, revision prefix, date
 * range and a full-text search over names, hypotheses, notes and what
 * failed in the reasons;
 * --json gives the full objects of ab_store_history. */
#include "cmd.h"
#include "error.h"
#include "project.h"
#include "report_sides.h"
#include "util.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/*
 * Parse a date given on the command line: YYYY-MM-DD, or an ISO 8601 time
 * YYYY-MM-DDTHH:MM[:SS] (a space may replace the T) in UTC unless it ends
 * with Z or an offset like +02:00. `*start` receives the first second it
 * names and `*span` how many seconds it covers (a day, a minute or a
 * second), so that --until includes the whole day or minute it names.
 */
static int parse_date(const char *text, int64_t *start, int64_t *span)
{
	struct tm tm, check;
	int y, mo, d, h = 0, mi = 0, s = 0, n = 0, oh = 0, om = 0, sign = 0;
	const char *p;
	time_t t;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(text, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	p = text + 10;
	*span = 86400;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		if (sscanf(p + 1, "%2d:%2d%n", &h, &mi, &n) != 2 || n != 5)
			return -1;
		p += 6;
		*span = 60;
		if (*p == ':') {
			if (sscanf(p + 1, "%2d%n", &s, &n) != 1 || n != 2)
				return -1;
			p += 3;
			*span = 1;
		}
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			sign = *p == '-' ? -1 : 1;
			if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) == 2 && n == 5)
				p += 6;
			else if (sscanf(p + 1, "%2d%2d%n", &oh, &om, &n) == 2 && n == 4)
				p += 5;
			else
				return -1;
			if (oh > 23 || om > 59)
				return -1;
		}
	}
	if (*p)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	check = tm;
	t = timegm(&tm);
	/* timegm normalizes Feb 30 into March: refuse what it had to move. */
	if (tm.tm_year != check.tm_year || tm.tm_mon != check.tm_mon || tm.tm_mday != check.tm_mday ||
	    tm.tm_hour != check.tm_hour || tm.tm_min != check.tm_min || tm.tm_sec != check.tm_sec)
		return -1;
	*start = (int64_t)t - sign * (oh * 3600 + om * 60);
	return 0;
}

static const char *const kinds[] = {"ab", "calibrate", "analyze", "compare", NULL};
static const char *const verdicts[] = {"accepted", "rejected", "inconclusive", "invalid", "calibrated", NULL};

/* "0.518–1.041" (lowest–highest ratio), "0.513" when they agree, "-";
 * "-" for an invalid run too: it makes no speed claim, and its ratios come
 * from the pairs before it stopped. */
static void format_ratios(char *buf, size_t size, const json_t *run)
{
	json_t *best = json_object_get(run, "ratio_best"), *worst = json_object_get(run, "ratio_worst");
	const char *verdict = json_string_value(json_object_get(run, "verdict"));
	double a, b, lo, hi;
	char ta[24], tb[24];

	if (!json_is_number(best) || !json_is_number(worst) || (verdict && !strcmp(verdict, "invalid"))) {
		snprintf(buf, size, "-");
		return;
	}
	a = json_number_value(best);
	b = json_number_value(worst);
	lo = a < b ? a : b;
	hi = a < b ? b : a;
	snprintf(ta, sizeof(ta), "%.3f", lo);
	snprintf(tb, sizeof(tb), "%.3f", hi);
	if (!strcmp(ta, tb))
		snprintf(buf, size, "%s", ta);
	else
		snprintf(buf, size, "%s–%s", ta, tb);
}

static const char *run_state(const json_t *run)
{
	const char *verdict = json_string_value(json_object_get(run, "verdict"));

	if (!verdict && json_is_false(json_object_get(run, "alive")))
		return "dead";  /* running, but its process on this host is gone */
	return verdict ? verdict : json_string_value(json_object_get(run, "status"));
}

#define NAME_COLS_MAX 28

/* Under a run that --rev found through a dependency, the dependency's
 * revisions, so that the line says why it matched (its own
 * parent..candidate are the main repository's). The columns stay as they
 * are: the line is indented past the id, like a note under a design, and
 * cut to `columns` (0: no limit). */
static void print_dependency_matches(const json_t *run, size_t wid, const char *rev, size_t columns)
{
	size_t i, len = rev ? strlen(rev) : 0;
	json_t *d;

	json_array_foreach(json_object_get(run, "dependencies"), i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		const char *par = json_string_value(json_object_get(d, "parent"));
		const char *cand = json_string_value(json_object_get(d, "candidate"));
		char *line, *shown;

		if (!rev || !name || !par || !cand || (strncasecmp(par, rev, len) && strncasecmp(cand, rev, len)))
			continue;
		shown = cmd_one_line(name, NAME_COLS_MAX);
		line = ab_xasprintf("%*s  dependency %s: %.10s..%.10s", (int)wid, "", shown, par, cand);
		free(shown);
		shown = cmd_one_line(line, columns);
		printf("%s\n", shown);
		free(line);
		free(shown);
	}
}

/* The reason column: "identical artifacts; " before the run's first
 * reason when both sides' declared artifacts are byte-identical (the
 * change may not have reached the build), fitted to `room` columns. New
 * string. */
static char *history_reason(const json_t *run, const char *reason, size_t room)
{
	const char *verdict = json_string_value(json_object_get(run, "verdict"));
	const json_t *rules = json_object_get(run, "rules"), *r;
	char *passed = NULL, *text, *out, *next;
	size_t i;

	/* An accepted run has no reasons: say which rules passed. */
	if (!reason && verdict && !strcmp(verdict, "accepted") && json_array_size(rules)) {
		json_array_foreach(rules, i, r) {
			next = ab_xasprintf("%s%s%s", passed ? passed : "", passed ? ", " : "",
					    json_string_value(r) ? json_string_value(r) : "");
			free(passed);
			passed = next;
		}
		next = ab_xasprintf("%s passed: %s", json_array_size(rules) == 1 ? "the rule"
			: json_array_size(rules) == 2 ? "both rules" : "every rule", passed);
		free(passed);
		passed = next;
	}
	{
		char ev[48] = "";
		if (json_is_integer(json_object_get(run, "evidence_run")))
			snprintf(ev, sizeof(ev), "new evidence: run %lld's profile; ",
				 (long long)json_integer_value(json_object_get(run, "evidence_run")));
		text = ab_xasprintf("%s%s%s", ev, json_is_true(json_object_get(run, "identical_artifacts"))
				    ? "identical artifacts; " : "", reason ? reason : passed ? passed : "");
	}
	/* a comparison's sides by their names, as its reports name them */
	out = ab_report_sides_text(run, text);
	free(text);
	text = out;
	out = cmd_one_line(text, room);
	free(text);
	free(passed);
	return out;
}

/* The project as a column shows it: "-" for the comparisons' (''). */
const char *cmd_project_label(const json_t *o)
{
	static char root[5 + 10 + 1];
	const char *p = json_string_value(json_object_get(o, "project"));

	if (p && !strncmp(p, AB_PROJECT_ROOT, strlen(AB_PROJECT_ROOT)) && strlen(p) > 5 + 10) {
		snprintf(root, sizeof(root), "%.15s", p);  /* AB_PROJECT_ROOT and 10 hex digits */
		return root;
	}
	return p && *p ? p : "-";
}

int cmd_project_chosen(const char *project)
{
	return project && *project && strncmp(project, AB_PROJECT_ROOT, strlen(AB_PROJECT_ROOT));
}

/* The columns of history's table before the reason, in their order. */
enum { H_ID, H_DATE, H_PROJECT, H_DESIGN, H_EXPERIMENT, H_REVS, H_VERDICT, H_RATIO, H_NCOLS };

/* How the table narrows to a screen (cmd_table_fit): the ratio's short
 * header and 8 hex digits of each commit first; then the experiment (the
 * design names the idea), the time of day, the commits, the names elided
 * (to NAME_MIN, a project to PROJECT_MIN), the date and the ratio, until
 * the reason has two fifths of the width and at least REASON_MIN
 * columns. The id, the design and the verdict stay. */
static const struct cmd_fit_step history_fit[] = {
	{H_RATIO, 0}, {H_REVS, 0}, {H_EXPERIMENT, 0}, {H_EXPERIMENT, 1}, {H_DATE, 0}, {H_REVS, 1},
	{H_DESIGN, 0}, {H_PROJECT, 0}, {H_DATE, 1}, {H_RATIO, 1},
};

#define NAME_MIN 12
#define PROJECT_MIN 15  /* cmd_project_label's "root:" and 10 hex digits */
#define REASON_MIN 30
#define REASON_PIPE 100  /* the reason's columns in a pipe (no width) */
#define RATIO_HEADER "ratio B/A, range over rows"  /* a range over rows, not an interval */

/* The parent..candidate cell `width` columns wide: the commits' first 10
 * hex digits (22 columns) or 8; a comparison's side names, each elided to
 * half. New string. */
static char *revs_cell(const json_t *run, size_t width)
{
	const json_t *sides = json_object_get(run, "sides");
	int hex = width >= 22 ? 10 : 8;
	char *a, *b, *out;

	if (!json_is_array(sides))
		return ab_xasprintf("%.*s..%.*s", hex, json_string_value(json_object_get(run, "parent_oid")),
				    hex, json_string_value(json_object_get(run, "candidate_oid")));
	a = cmd_one_line(json_string_value(json_object_get(json_array_get(sides, 0), "name")), (width - 2) / 2);
	b = cmd_one_line(json_string_value(json_object_get(json_array_get(sides, 1), "name")), (width - 2) / 2);
	out = ab_xasprintf("%s..%s", a, b);
	free(a);
	free(b);
	return out;
}

/* The widest cell of the name `key` (or the project label) over `list`
 * and its header, at most NAME_COLS_MAX. */
static size_t name_width(const json_t *list, const char *key, const char *header)
{
	size_t i, w = cmd_text_width(header);
	json_t *run;

	json_array_foreach(list, i, run) {
		size_t x = cmd_text_width(key ? json_string_value(json_object_get(run, key)) : cmd_project_label(run));
		w = x > w ? x : w;
	}
	return w > NAME_COLS_MAX ? NAME_COLS_MAX : w;
}

/* The columns' full and short widths over `list` (a project column when
 * `projects`), fitted to `columns` (0: no limit); the reason's room. */
static size_t history_columns(struct cmd_column *c, const json_t *list, int projects, size_t columns)
{
	size_t i, wid = 2, wratio = 0;
	json_t *run;
	char buf[80];

	memset(c, 0, H_NCOLS * sizeof(*c));
	json_array_foreach(list, i, run) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(json_object_get(run, "id")));
		wid = strlen(buf) > wid ? strlen(buf) : wid;
		format_ratios(buf, sizeof(buf), run);
		wratio = cmd_text_width(buf) > wratio ? cmd_text_width(buf) : wratio;
	}
	c[H_ID] = (struct cmd_column){.full = wid, .min = wid};
	c[H_DATE] = (struct cmd_column){.full = 16, .min = 10};
	if (projects)
		c[H_PROJECT].full = name_width(list, NULL, "project");
	c[H_DESIGN].full = name_width(list, "design", "design");
	c[H_EXPERIMENT].full = name_width(list, "experiment", "experiment");
	for (i = H_PROJECT; i <= H_EXPERIMENT; i++) {
		/* a project's label keeps "root:" and 10 hex digits whole */
		size_t min = i == H_PROJECT ? PROJECT_MIN : NAME_MIN;
		c[i].min = c[i].full < min ? c[i].full : min;
		c[i].elide = 1;
	}
	c[H_REVS] = (struct cmd_column){.full = 22, .min = 18};
	c[H_VERDICT] = (struct cmd_column){.full = 12, .min = 12};
	c[H_RATIO].full = wratio > strlen(RATIO_HEADER) ? wratio : strlen(RATIO_HEADER);
	c[H_RATIO].min = wratio > strlen("ratio B/A") ? wratio : strlen("ratio B/A");
	return cmd_table_fit(c, H_NCOLS, history_fit, sizeof(history_fit) / sizeof(history_fit[0]), columns,
			     columns * 2 / 5 > REASON_MIN ? columns * 2 / 5 : REASON_MIN);
}

/* Cell `text` (borrowed) of column `c`, elided to its width, and the two
 * spaces after it, when the column is shown. */
static void put_cell(const struct cmd_column *c, const char *text)
{
	char *shown;

	if (!c->shown)
		return;
	shown = cmd_one_line(text, c->width);
	cmd_put_padded(stdout, shown, c->width);
	fputs("  ", stdout);
	free(shown);
}

/* The reason cell: the first reason (history_reason), after a bisect
 * step's "bisect 1 step 3 (left): ", cut to `room` columns at a word. New
 * string. */
static char *reason_cell(const json_t *run, size_t room)
{
	const char *reason = json_string_value(json_array_get(json_object_get(run, "reasons"), 0));
	const json_t *b = json_object_get(run, "bisect");
	char *why = history_reason(run, reason, 0), *out;

	if (json_is_object(b)) {
		char id[48], *t;

		/* a step of a bisect of another store: its uuid's first digits */
		if (json_is_integer(json_object_get(b, "bisect")))
			snprintf(id, sizeof(id), "%lld", (long long)json_integer_value(json_object_get(b, "bisect")));
		else
			snprintf(id, sizeof(id), "%.8s", json_string_value(json_object_get(b, "uuid")) ?
				 json_string_value(json_object_get(b, "uuid")) : "?");
		t = ab_xasprintf("bisect %s step %lld (%s): %s", id,
				 (long long)json_integer_value(json_object_get(b, "seq")),
				 json_string_value(json_object_get(b, "role")), why);
		free(why);
		why = t;
	}
	out = cmd_fit_words(why, room);
	free(why);
	return out;
}

/* The table, fitted to the screen (cmd_table_columns); a project column
 * when `projects`. */
static void print_table(const json_t *list, const char *rev, int projects)
{
	struct cmd_column c[H_NCOLS];
	size_t columns = (size_t)cmd_table_columns(), room = history_columns(c, list, projects, columns), i;
	json_t *run;
	char buf[80], id[32];

	printf("%*s  ", (int)c[H_ID].width, "id");
	put_cell(&c[H_DATE], "date (UTC)");
	put_cell(&c[H_PROJECT], "project");
	put_cell(&c[H_DESIGN], "design");
	put_cell(&c[H_EXPERIMENT], "experiment");
	put_cell(&c[H_REVS], "parent..candidate");
	put_cell(&c[H_VERDICT], "verdict");
	put_cell(&c[H_RATIO], c[H_RATIO].width >= strlen(RATIO_HEADER) ? RATIO_HEADER : "ratio B/A");
	printf("reason\n");
	json_array_foreach(list, i, run) {
		char *revs = revs_cell(run, c[H_REVS].width), *why = reason_cell(run, room ? room : REASON_PIPE);

		snprintf(id, sizeof(id), "%*lld", (int)c[H_ID].width,
			 (long long)json_integer_value(json_object_get(run, "id")));
		put_cell(&c[H_ID], id);
		cmd_short_time(buf, sizeof(buf), json_string_value(json_object_get(run, "created_at")));
		if (c[H_DATE].width < 16)
			buf[10] = '\0';
		put_cell(&c[H_DATE], buf);
		put_cell(&c[H_PROJECT], cmd_project_label(run));
		put_cell(&c[H_DESIGN], json_string_value(json_object_get(run, "design")));
		put_cell(&c[H_EXPERIMENT], json_string_value(json_object_get(run, "experiment")));
		put_cell(&c[H_REVS], revs);
		put_cell(&c[H_VERDICT], run_state(run));
		format_ratios(buf, sizeof(buf), run);
		put_cell(&c[H_RATIO], buf);
		printf("%s\n", why);
		print_dependency_matches(run, c[H_ID].width, rev, columns);
		free(revs);
		free(why);
	}
}

/* Each run that is a step of a bisect gets "bisect": {bisect, seq, role}
 * from this store's bisects, or, for a step whose bisect is not in this
 * store (it came by import or sync), {bisect: null, uuid, seq, role} from
 * the mark its run keeps (kind "bisect"); other runs none. */
static void mark_bisects(struct ab_store *store, json_t *list)
{
	json_t *steps = NULL, *run;
	char key[32];
	size_t i;

	if (ab_store_bisect_runs(store, &steps) < 0) {
		json_decref(steps);
		steps = json_object();
		ab_error_clear();
	}
	json_array_foreach(list, i, run) {
		const json_t *mark = json_object_get(run, "bisect_step");

		snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(json_object_get(run, "id")));
		if (json_object_get(steps, key))
			json_object_set(run, "bisect", json_object_get(steps, key));
		else if (json_is_object(mark))
			json_object_set_new(run, "bisect", json_pack("{s:n, s:O, s:O, s:O}", "bisect", "uuid",
				json_object_get(mark, "bisect"), "seq", json_object_get(mark, "seq"), "role",
				json_object_get(mark, "role")));
	}
	json_decref(steps);
}

/* The newest bisects under the table, with how each ended, each line
 * cut to `columns` (0: no limit). */
static void print_bisects(struct ab_store *store, size_t columns)
{
	json_t *list = NULL, *b;
	char t[32], *line, *shown;
	size_t i;

	if (ab_store_bisects(store, 10, &list) == 0 && json_array_size(list)) {
		printf("\nbisects (abtool bisect --resume ID shows or finishes one)\n");
		json_array_foreach(list, i, b) {
			line = ab_xasprintf("  bisect %lld  %s  %.*s..%.*s  %s  %lld steps",
			       (long long)json_integer_value(json_object_get(b, "id")),
			       cmd_short_time(t, sizeof(t), json_string_value(json_object_get(b, "created_at"))),
			       columns && columns < 100 ? 8 : 10, json_string_value(json_object_get(b, "good_oid")),
			       columns && columns < 100 ? 8 : 10, json_string_value(json_object_get(b, "bad_oid")),
			       json_is_string(json_object_get(b, "outcome"))
			       ? json_string_value(json_object_get(b, "outcome")) : "running",
			       (long long)json_integer_value(json_object_get(b, "steps")));
			shown = cmd_one_line(line, columns);
			printf("%s\n", shown);
			free(line);
			free(shown);
		}
	}
	json_decref(list);
}

/* When a named design or experiment has no runs, say which names exist
 * (in the projects `filter` looks at). */
static void suggest_name(struct ab_store *store, const struct ab_history_filter *filter,
			 const char *key, const char *name)
{
	json_t *designs = NULL, *runs = NULL, *o;
	const char *best = NULL;
	size_t i, best_d = (size_t)-1;

	if (!strcmp(key, "design")) {
		if (ab_store_designs(store, filter->all_projects || filter->project
				     ? AB_STORE_DESIGNS_ALL_PROJECTS : 0u, &designs) < 0)
			return;
		json_array_foreach(designs, i, o) {
			const char *cand = json_string_value(json_object_get(o, "design"));
			size_t d = ab_edit_distance(name, cand);
			if (!strcmp(cand, name))
				goto out;  /* it exists: the other filters excluded its runs */
			if (d < best_d) {
				best_d = d;
				best = cand;
			}
		}
	} else {
		struct ab_history_filter all = {0};
		all.project = filter->project;
		all.all_projects = filter->all_projects;
		if (ab_store_history(store, &all, &runs) < 0)
			return;
		json_array_foreach(runs, i, o) {
			const char *cand = json_string_value(json_object_get(o, "experiment"));
			size_t d = ab_edit_distance(name, cand);
			if (!strcmp(cand, name))
				goto out;
			if (d < best_d) {
				best_d = d;
				best = cand;
			}
		}
	}
	if (best && best_d <= 3 && best_d < strlen(name))
		fprintf(stderr, "abtool history: no %s '%s' in the store; did you mean '%s'?\n", key, name, best);
	else
		fprintf(stderr, "abtool history: no %s '%s' in the store%s\n", key, name,
			!strcmp(key, "design") ? "; list designs with 'abtool designs'" : "");
out:
	json_decref(designs);
	json_decref(runs);
}

const struct cmd_option cmd_history_options[] = {
	{"verdict", 0, "V", "runs with verdict V: accepted, rejected, inconclusive, invalid or calibrated",
	 NULL, CMD_OWN, 'V', 0, 0},
	{"design", 0, "D", "runs of the design named D (exactly)", NULL, CMD_OWN, 'd', 0, 0},
	{"experiment", 0, "NAME", "runs of experiments named NAME (exactly)", NULL, CMD_OWN, 'e', 0, 0},
	{"kind", 0, "K", "runs of kind K: ab, calibrate, analyze or compare (abtool compare, sides:)",
	 NULL, CMD_OWN, 'k', 0, 0},
	{"rev", 0, "OID", "runs that measured a commit starting with these hex digits (4 or more)", NULL,
	 CMD_OWN, 'r', 0, 0},
	{"since", 0, "DATE", "runs started at or after DATE (YYYY-MM-DD or ISO 8601; UTC unless a zone "
	 "is given)", NULL, CMD_OWN, 's', 0, 0},
	{"until", 0, "DATE", "runs started up to DATE, inclusive at its precision", NULL, CMD_OWN, 'u',
	 0, 0},
	{"grep", 0, "TEXT", "full-text search over names, hypotheses, notes and what failed in the reasons",
	 NULL, CMD_OWN, 'g', 0, 0},
	{"limit", 'n', "N", "at most N runs (0 for all)", "50", CMD_OWN, 'n', 0, INT64_MAX},
	{"json", 0, NULL, "print a JSON array of objects instead of the table", NULL, CMD_OWN, 'j', 0, 0},
	{"ids", 0, NULL, "print only the run ids, one a line (for shell completion)", NULL, CMD_OWN,
	 'i', 0, 0},
	{"project", 0, "NAME", "runs of the project NAME (exactly; '' for comparisons), instead of the "
	 "current repository's", NULL, CMD_OWN, 'P', 0, 0},
	{"all-projects", 0, NULL, "runs of every project in the store, with a project column", NULL,
	 CMD_OWN, 'A', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* What the options of history set. */
struct history_ctx {
	struct ab_history_filter filter;
	char since[32], until[32], *rev;
	int json;                     /* 1: --json, 2: --ids */
	int all_given;                /* --all-projects */
};

static int history_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct history_ctx *ctx = args->ctx;
	size_t len = strlen(arg ? arg : ""), i;
	int64_t start, span, v;

	switch (o->code) {
	case 'V':
		for (i = 0; verdicts[i] && strcmp(verdicts[i], arg); i++)
			;
		if (!verdicts[i])
			return cmd_usage("history", "--verdict: expected accepted, rejected, inconclusive, "
					 "invalid or calibrated, got '%s'", arg);
		ctx->filter.verdict = arg;
		break;
	case 'd':
		ctx->filter.design = arg;
		break;
	case 'e':
		ctx->filter.experiment = arg;
		break;
	case 'k':
		for (i = 0; kinds[i] && strcmp(kinds[i], arg); i++)
			;
		if (!kinds[i])
			return cmd_usage("history", "--kind: expected ab, calibrate, analyze or compare, got '%s'",
					 arg);
		ctx->filter.kind = arg;
		break;
	case 'r':
		for (i = 0; i < len && isxdigit((unsigned char)arg[i]); i++)
			;
		if (len < 4 || len > 64 || i != len)
			return cmd_usage("history", "--rev: expected at least 4 hex digits of a commit id, "
					 "got '%s'", arg);
		free(ctx->rev);
		ctx->filter.rev = ctx->rev = ab_xstrdup(arg);
		for (i = 0; i < len; i++)
			ctx->rev[i] = (char)tolower((unsigned char)ctx->rev[i]);
		break;
	case 's':
	case 'u':
		if (parse_date(arg, &start, &span) < 0)
			return cmd_usage("history", "--%s: expected a date like 2026-11-30 or "
					 "2026-11-30T14:05:00Z, got '%s'", o->name, arg);
		if (o->code == 's') {
			ab_utc_iso8601(ctx->since, sizeof(ctx->since), start);
			ctx->filter.since = ctx->since;
		} else {
			ab_utc_iso8601(ctx->until, sizeof(ctx->until), start + span);
			ctx->filter.until = ctx->until;
		}
		break;
	case 'g':
		ctx->filter.grep = arg;
		break;
	case 'P':
		ctx->filter.project = arg;
		break;
	case 'A':
		ctx->filter.all_projects = 1;
		ctx->all_given = 1;
		break;
	case 'n':
		if (ab_parse_int64(&v, arg) < 0 || v < o->min)
			return cmd_usage("history", "--limit: expected a count (0 for all), got '%s'", arg);
		ctx->filter.limit = v;
		break;
	default:
		ctx->json = o->code == 'i' ? 2 : 1;
	}
	return CMD_GO_ON;
}

int cmd_history(int argc, char **argv)
{
	struct history_ctx ctx;
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *list = NULL;
	int err, rc = 0;

	memset(&ctx, 0, sizeof(ctx));
	ctx.filter.limit = 50;
	cmd_args_init(&args, "history", history_option, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_history_options, argc, argv)) != CMD_GO_ON) {
		free(ctx.rev);
		return stop;
	}
	if (optind != argc) {
		free(ctx.rev);
		return cmd_usage("history", "unexpected argument '%s'", argv[optind]);
	}
	if (ctx.filter.project && ctx.all_given) {
		free(ctx.rev);
		return cmd_usage("history", "--project and --all-projects: give one");
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_READ)) < 0) {
		free(ctx.rev);
		return cmd_fail(err);
	}
	/* no current project (docs/history.md, "Projects"): every project */
	if (!ctx.filter.project && !ctx.filter.all_projects)
		ctx.filter.all_projects = cmd_store_lists_every_project(store);
	if ((err = ab_store_history(store, &ctx.filter, &list)) < 0) {
		rc = err == AB_EINVALID ? cmd_usage("history", "--grep: %s", ab_error_last()) : cmd_fail(err);
		goto out;
	}
	mark_bisects(store, list);
	if (ctx.json == 2) {
		size_t i;
		json_t *o;
		json_array_foreach(list, i, o)
			printf("%lld\n", (long long)json_integer_value(json_object_get(o, "id")));
	} else if (ctx.json) {
		char *text = json_dumps(list, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("%s\n", text);
		free(text);
	} else if (json_array_size(list)) {
		print_table(list, ctx.filter.rev, ctx.all_given);
		print_bisects(store, (size_t)cmd_table_columns());
	}
	if (!json_array_size(list)) {
		if (ctx.filter.design)
			suggest_name(store, &ctx.filter, "design", ctx.filter.design);
		if (ctx.filter.experiment)
			suggest_name(store, &ctx.filter, "experiment", ctx.filter.experiment);
		if (!ctx.json && ctx.filter.all_projects)
			fprintf(stderr, "abtool history: no runs match in the store '%s'\n", ab_store_path(store));
		else if (!ctx.json) {
			const char *project = ctx.filter.project ? ctx.filter.project : ab_store_project(store);

			if (cmd_project_chosen(project))
				fprintf(stderr, "abtool history: no runs of the project '%s' match in the store '%s' "
					"(--all-projects: of every project)\n", project, ab_store_path(store));
			else
				fprintf(stderr, "abtool history: no runs of this repository match in the store '%s' "
					"(--all-projects: of every project)\n", ab_store_path(store));
		}
	}
out:
	json_decref(list);
	ab_store_close(store);
	free(ctx.rev);
	return rc;
}
