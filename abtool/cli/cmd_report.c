/* cmd_report.c - `abtool report RUN`: regenerate a stored run's report.
 * The JSON report is stored with the run; every format of the registry
 * (report_format.h) renders from it, and from the stored samples or
 * profiles when its row says it reads them, so what this writes is
 * byte-identical to what `abtool run` wrote (HTML adds the run's profiles,
 * also those taken later by `abtool profile`). `--format folded` writes a
 * side's profiled stacks (docs/profiles.md). */
#include "cmd.h"
#include "error.h"
#include "report.h"
#include "report_format.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --side parent|candidate: whose stacks --format folded writes. */
static int own_side(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	(void)o;
	if (strcmp(arg, "parent") && strcmp(arg, "candidate"))
		return cmd_usage("report", "--side: expected parent or candidate, got '%s'", arg);
	*(int *)args->ctx = !strcmp(arg, "candidate");
	return CMD_GO_ON;
}

/* --format's values: the terminal view, the registry's formats, a side's
 * profiled stacks. */
#define FORMAT_VALUES "text" AB_REPORT_FORMAT_NAMES_BAR "|folded"

const struct cmd_option cmd_report_options[] = {
	CMD_FORMAT_OPTIONS(FORMAT_VALUES, "the format (text: the terminal "
			   "view; tsv: the raw samples; folded: a side's profiled stacks)",
			   "text on a terminal, else md"),
	CMD_COLOR_OPTION,
	{"side", 0, "parent|candidate", "whose stacks --format folded writes", "candidate", CMD_OWN, 'd',
	 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* 1 when `format` is one of --format's values. */
static int known_format(const char *format)
{
	return !strcmp(format, "text") || !strcmp(format, "folded") || ab_report_format_find(format);
}

/* `name`, "|"-separated, as a list in words ("a, b or c"): new string. */
static char *in_words(const char *name)
{
	char *s = ab_xstrdup(name), *last = strrchr(s, '|'), *out, *p;
	size_t n = 0;

	for (p = s; *p; p++)
		n += *p == '|';
	out = ab_xcalloc(strlen(s) + 2 * n + 4, 1);
	for (p = s; *p; p++) {
		if (*p != '|')
			strncat(out, p, 1);
		else
			strcat(out, p == last ? " or " : ", ");
	}
	free(s);
	return out;
}

/* The terminal view of run `id`'s report `doc` into *out (new, *len
 * bytes), ending with how to get the full report from the same store. */
static int render_text(char **out, size_t *len, json_t *doc, const struct cmd_args *args, int64_t id)
{
	char *shown = args->store ? ab_store_describe(args->store) : NULL;  /* no password */
	char *quoted = shown ? ab_shell_quote(shown, 0) : NULL;
	char **where = NULL, *line = ab_xasprintf("full report: abtool report %lld --format md%s%s "
						  "(or --format html -o report.html)", (long long)id,
						  quoted ? " --store " : "", quoted ? quoted : "");
	int err;

	free(quoted);
	free(shown);
	ab_strv_push(&where, line);
	err = cmd_render_view(out, len, doc, args->out.color, (const char *const *)where);
	ab_strv_free(where);
	return err;
}

int cmd_report(int argc, char **argv)
{
	const char *format, *output, *text;
	const struct ab_report_format *f;
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *run = NULL, *doc = NULL;
	const char **names = NULL;
	struct ab_sample *samples = NULL;
	size_t nnames = 0, nsamples = 0, len = 0;
	char *rendered = NULL;
	json_t *profiles = NULL;
	int64_t id;
	int err, rc = 0, side = 1;

	cmd_args_init(&args, "report", own_side, &side);
	args.format = NULL;
	if ((stop = cmd_parse_options(&args, cmd_report_options, argc, argv)) != CMD_GO_ON)
		return stop;
	output = args.output;
	/* the terminal view only where a person reads it: stdout a terminal, no -o */
	format = args.format ? args.format : !strcmp(output, "-") && isatty(STDOUT_FILENO) ? "text" : "md";
	if (optind != argc - 1)
		return cmd_usage("report", "expected one run id (see 'abtool history')");
	if (!known_format(format)) {
		char *values = in_words(FORMAT_VALUES);

		cmd_usage("report", "--format: expected %s, got '%s'", values, format);
		free(values);
		return AB_EXIT_USAGE;
	}
	if ((rc = cmd_open_run(&store, args.store, argv[optind], &id)) != 0)
		return rc;
	if ((err = ab_store_run_get(store, id, &run)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (!strcmp(format, "folded")) {
		/* The stacks as stored: for flame graph tools (inferno, speedscope). */
		if ((err = cmd_profile_folded(&rendered, &len, store, id, side)) < 0 ||
		    (err = cmd_write_output(output, rendered, len)) < 0)
			rc = cmd_fail(err);
		goto out;
	}
	text = json_string_value(json_object_get(run, "report"));
	if (!text) {
		rc = cmd_fail(ab_error_set(AB_EINVALID, "run %lld has no report: it is %s; finish it with "
					   "'abtool resume %lld'", (long long)id,
					   json_string_value(json_object_get(run, "status")), (long long)id));
		goto out;
	}
	if (!strcmp(format, "json")) {
		/* The stored text itself: what run wrote, byte for byte. */
		if ((err = cmd_write_output(output, text, strlen(text))) < 0)
			rc = cmd_fail(err);
		goto out;
	}
	if (!(doc = json_loads(text, 0, NULL))) {
		rc = cmd_fail(ab_error_set(AB_EIO, "run %lld: the stored report is not valid JSON", (long long)id));
		goto out;
	}
	f = ab_report_format_find(format);  /* NULL for text */
	if (f && (f->needs & AB_REPORT_NEEDS_SAMPLES)) {
		/* Metric names from the document, so the stored experiment
		 * need not be parsed again (it may name a file that moved). */
		names = ab_report_metric_names(doc, &nnames);
		if ((err = ab_store_samples_load(store, id, names, nnames, &samples, &nsamples)) < 0) {
			rc = cmd_fail(err);
			goto out;
		}
	}
	if (!strcmp(format, "text")) {
		err = render_text(&rendered, &len, doc, &args, id);
	} else {
		if (f->needs & AB_REPORT_NEEDS_PROFILES)
			profiles = cmd_profiles_json(store, id);
		err = cmd_render_report(&rendered, &len, format, doc, samples, nsamples, names, nnames, 0,
					profiles);
	}
	if (!strcmp(output, "-") && (!f || f->for_people))
		cmd_stdout_for_people();
	if (err < 0 || (err = cmd_write_output(output, rendered, len)) < 0)
		rc = cmd_fail(err);
out:
	free(rendered);
	free(names);
	ab_samples_free(samples, nsamples);
	json_decref(doc);
	json_decref(profiles);
	json_decref(run);
	ab_store_close(store);
	return rc;
}
