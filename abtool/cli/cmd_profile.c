/* cmd_profile.c - profiles of a run's rows (docs/profiles.md): `abtool
 * profile RUN [--row NAME=VALUE]` profiles a finished run afterwards;
 * `profile:` in the experiment file does it after the measured pairs of
 * `run` and `resume` (cmd_profile_after_run). Both sides run extra samples
 * under `perf record -g` in the run's trees; the folded stacks are stored
 * apart from the samples, which, like the verdict, never change. This file
 * also has what `show --profile`, `report --format folded` and the HTML
 * report read of them. */
#include "cmd.h"
#include "error.h"
#include "profile_fold.h"
#include "runner.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The functions `show --profile` lists per row. */
#define TABLE_LINES 15

/* Print one row's table of the functions whose inclusive share changed most. */
static void print_row_table(FILE *f, const struct ab_store_profile *a, const struct ab_store_profile *b)
{
	struct ab_fold_funcs fa, fb;
	struct ab_fold_change *c;
	size_t n, i;

	fprintf(f, "\nprofile of row %s (perf -e %s; parent %lld samples in %lld runs, candidate %lld "
		"samples in %lld runs)\n", a->label, a->event, (long long)a->stack_samples, (long long)a->runs,
		(long long)b->stack_samples, (long long)b->runs);
	for (i = 0; i < 2; i++) {
		const struct ab_store_profile *p = i ? b : a;
		if (p->reason)
			fprintf(f, "  %s: %s\n", i ? "candidate" : "parent", p->reason);
	}
	ab_fold_funcs(&fa, a->folded, a->folded_len);
	ab_fold_funcs(&fb, b->folded, b->folded_len);
	c = ab_fold_compare(&fa, &fb, &n);
	fprintf(f, "  %-32s %8s %8s %8s %8s %9s %9s %9s\n", "function", "self A", "self B", "incl A",
		"incl B", "change", "samples A", "samples B");
	for (i = 0; i < n && i < TABLE_LINES; i++) {
		fprintf(f, "  ");
		cmd_put_padded(f, c[i].name, 32);
		fprintf(f, " %7.1f%% %7.1f%% %7.1f%% %7.1f%% %+6.1f pp %9llu %9llu\n", 100 * c[i].self_share[0],
			100 * c[i].self_share[1], 100 * c[i].total_share[0], 100 * c[i].total_share[1],
			100 * c[i].delta, (unsigned long long)c[i].total[0], (unsigned long long)c[i].total[1]);
	}
	if (n > TABLE_LINES)
		fprintf(f, "  (%zu more functions; all stacks: abtool report RUN --format folded --side "
			"parent|candidate)\n", n - TABLE_LINES);
	fprintf(f, "  self: samples in the function itself; incl: samples with the function on the stack; "
		"change: incl B - incl A in percentage points; samples: incl counts behind the shares\n");
	free(c);
	ab_fold_funcs_release(&fa);
	ab_fold_funcs_release(&fb);
}

int cmd_print_profile_table(FILE *f, struct ab_store *store, int64_t run_id)
{
	struct ab_store_profile *v;
	size_t n, i;
	int err;

	if ((err = ab_store_profiles_get(store, run_id, &v, &n)) < 0)
		return err;
	if (n == 0)
		fprintf(f, "\nrun %lld has no profile: add 'profile:' to the experiment file, or run 'abtool "
			"profile %lld'\n", (long long)run_id, (long long)run_id);
	for (i = 0; i < n;) {
		const struct ab_store_profile *a = &v[i], *b = i + 1 < n ? &v[i + 1] : NULL;
		if (!b || b->row != a->row || a->side != 0) {
			fprintf(f, "\nrow %s: only the %s side has a profile entry\n", a->label,
				a->side ? "candidate" : "parent");
			i++;
			continue;
		}
		if (!a->ok || !b->ok)
			fprintf(f, "\nprofile of row %s: unavailable: %s\n", a->label,
				!a->ok ? a->reason : b->reason);
		else
			print_row_table(f, a, b);
		i += 2;
	}
	ab_store_profiles_free(v, n);
	return 0;
}

json_t *cmd_profiles_json(struct ab_store *store, int64_t run_id)
{
	struct ab_store_profile *v;
	json_t *rows = json_array(), *row = NULL;
	size_t n, i;

	if (ab_store_profiles_get(store, run_id, &v, &n) < 0)
		return rows;
	for (i = 0; i < n; i++) {
		const struct ab_store_profile *p = &v[i];
		json_t *side = json_pack("{s:b, s:s, s:I, s:I, s:I}", "ok", p->ok, "event", p->event,
					 "runs", (json_int_t)p->runs, "samples", (json_int_t)p->stack_samples,
					 "dropped", (json_int_t)p->dropped);
		if (p->reason)
			json_object_set_new(side, "reason", json_string(p->reason));
		if (p->folded)
			json_object_set_new(side, "folded", json_stringn(p->folded, p->folded_len));
		if (!row || json_integer_value(json_object_get(row, "row")) != p->row) {
			row = json_pack("{s:I, s:s}", "row", (json_int_t)p->row, "label", p->label);
			json_array_append_new(rows, row);
		}
		json_object_set_new(row, p->side ? "candidate" : "parent", side);
	}
	ab_store_profiles_free(v, n);
	return rows;
}

int cmd_profile_folded(char **text, size_t *len, struct ab_store *store, int64_t run_id, int side)
{
	struct ab_store_profile *v;
	size_t n, i, rows = 0;
	char *out = NULL;
	size_t olen = 0;
	FILE *f;
	int err;

	*text = NULL;
	*len = 0;
	if ((err = ab_store_profiles_get(store, run_id, &v, &n)) < 0)
		return err;
	for (i = 0; i < n; i++)
		rows += v[i].side == side && v[i].ok;
	if (rows == 0) {
		err = ab_error_set(AB_ENOTFOUND, "run %lld has no %s profile%s%s", (long long)run_id,
				   side ? "candidate" : "parent", n ? ": " : " (see 'abtool profile')",
				   n && v[0].reason ? v[0].reason : "");
		ab_store_profiles_free(v, n);
		return err;
	}
	f = open_memstream(&out, &olen);
	for (i = 0; f && i < n; i++) {
		const char *p, *e, *end;
		if (v[i].side != side || !v[i].ok)
			continue;
		/* several rows: each stack starts with its row's label */
		for (p = v[i].folded, end = p + v[i].folded_len; p < end; p = e + 1) {
			e = memchr(p, '\n', (size_t)(end - p));
			if (!e)
				e = end;
			if (rows > 1)
				fprintf(f, "%s;", v[i].label);
			fprintf(f, "%.*s\n", (int)(e - p), p);
		}
	}
	if (!f || fclose(f) != 0) {
		free(out);
		ab_store_profiles_free(v, n);
		return ab_error_set(AB_EIO, "cannot write the folded stacks");
	}
	ab_store_profiles_free(v, n);
	*text = out;
	*len = olen;
	return 0;
}

/* What ab_run_profile did, on stderr. */
static void print_outcome(const struct ab_profile_outcome *o, int64_t run_id, const char *event, int samples)
{
	if (o->rows == 0) {
		fprintf(stderr, "abtool: no profile was taken: profile.rows selects no row this run measured\n");
		return;
	}
	if (o->sides_ok == 0) {
		fprintf(stderr, "abtool: no profile was taken: %s; the run's samples and verdict stand\n", o->why);
		return;
	}
	fprintf(stderr, "abtool: profiled %zu row%s (%d sample%s of each side under perf record -e %s); "
		"see 'abtool show %lld --profile'\n", o->rows, o->rows == 1 ? "" : "s", samples,
		samples == 1 ? "" : "s", event, (long long)run_id);
	if (o->why)
		fprintf(stderr, "abtool: %zu of %zu sides have no profile: %s\n", o->sides - o->sides_ok, o->sides,
			o->why);
	if (o->note)
		fprintf(stderr, "abtool: a profile was %s\n", o->note);
}

int cmd_profile_after_run(struct cmd_output *out, struct ab_run *run)
{
	const struct ab_experiment *exp = run->exp;
	struct ab_profile_outcome o;
	int err;

	if (!exp->profile || (run->kind && strcmp(run->kind, "ab")))
		return 0;
	cmd_clear_progress(out);
	if (!out->quiet)
		fprintf(stderr, "abtool: profiling after the measured pairs (they decide nothing)\n");
	err = ab_run_profile(run, 1, NULL, 0, &o);
	if (err == AB_EINTERRUPTED)
		fprintf(stderr, "abtool: profiling interrupted: the run's samples and verdict stand; profile "
			"it again with 'abtool profile %lld'\n", (long long)run->meta.id);
	else if (err < 0)
		fprintf(stderr, "abtool: no profile was taken: %s; the run's samples and verdict stand\n",
			ab_error_last());
	else if (!out->quiet || o.sides_ok == 0)
		print_outcome(&o, run->meta.id, exp->profile_event, exp->profile_samples);
	ab_profile_outcome_release(&o);
	return err == AB_EINTERRUPTED ? err : 0;
}

/* The command's own options. */
struct profile_ctx {
	const char *event;
	int samples;
	int quiet;
};

static int own(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct profile_ctx *ctx = args->ctx;
	int64_t n;

	switch (o->code) {
	case 'e':
		ctx->event = arg;
		return CMD_GO_ON;
	case 'n':
		if (ab_parse_int64(&n, arg) != 0 || n < o->min || n > o->max)
			return cmd_usage("profile", "--samples: expected %lld to %lld, got '%s'", o->min, o->max, arg);
		ctx->samples = (int)n;
		return CMD_GO_ON;
	case 'q':
		ctx->quiet = 1;
		return CMD_GO_ON;
	}
	return CMD_GO_ON;
}

const struct cmd_option cmd_profile_options[] = {
	CMD_ROW_OPTION,
	{"samples", 0, "N", "samples of each side and row under perf", "profile.samples, else 3", CMD_OWN,
	 'n', 1, 100},
	{"event", 0, "EVENT", "perf's event (cpu-clock works in VMs; cycles where the kernel allows)",
	 "profile.event, else cpu-clock", CMD_OWN, 'e', 0, 0},
	{"quiet", 'q', NULL, "no build lines", NULL, CMD_OWN, 'q', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_profile(int argc, char **argv)
{
	struct profile_ctx ctx = {NULL, 0, 0};
	struct cmd_args args;
	struct ab_store *store = NULL;
	struct ab_experiment exp;
	struct ab_run run;
	struct ab_run_events events;
	struct ab_profile_outcome o;
	int64_t id = 0;
	int stop, err, rc = 0, opened = 0;

	memset(&o, 0, sizeof(o));
	cmd_args_init(&args, "profile", own, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_profile_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (optind != argc - 1) {
		cmd_args_release(&args);
		return cmd_usage("profile", "expected one run: an id, 'latest' or a uuid prefix");
	}
	args.out.quiet = ctx.quiet;
	cmd_install_signals();
	events = cmd_run_events(&args.out);
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_WRITE)) < 0) {
		cmd_args_release(&args);
		return cmd_fail(err);
	}
	if ((err = ab_store_run_resolve(store, argv[optind], &id)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	opened = 1;
	if ((err = ab_run_reopen(&run, &exp, store, id, &events)) < 0 ||
	    (args.run.nrows && (err = ab_experiment_select_rows(&exp, args.run.rows, args.run.nrows)) < 0)) {
		rc = err == AB_EINVALID ? cmd_usage("profile", "%s", ab_error_last()) : cmd_fail(err);
		goto out;
	}
	if (!ctx.event)
		ctx.event = exp.profile_event ? exp.profile_event : "cpu-clock";
	if (!ctx.samples)
		ctx.samples = exp.profile_samples > 0 ? exp.profile_samples : 3;
	cmd_clear_progress(&args.out);
	if ((err = ab_run_profile(&run, exp.profile && !args.run.nrows, ctx.event, ctx.samples, &o)) < 0) {
		rc = err == AB_EINTERRUPTED ? 128 + (ab_runner_interrupted() ? ab_runner_interrupted() : 2)
					    : cmd_fail(err);
		goto out;
	}
	print_outcome(&o, id, ctx.event, ctx.samples);
	if (o.sides_ok == 0) {
		rc = AB_EXIT_IO;
		goto out;
	}
	cmd_plain_stdout();  /* function names come from the benchmark */
	if ((err = cmd_print_profile_table(stdout, store, id)) < 0)
		rc = cmd_fail(err);
out:
	ab_profile_outcome_release(&o);
	if (opened) {
		ab_run_release(&run);
		ab_experiment_release(&exp);
	}
	ab_store_close(store);
	cmd_args_release(&args);
	return rc;
}
