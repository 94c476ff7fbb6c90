/* cmd_resume.c - `abtool resume RUN`: finish an interrupted run. Re-runs
 * any half-finished pair whole, runs the rest of the stored plan with the
 * same builds (rebuilding only what the cache lost) and decides the
 * verdict the stored samples give. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

const struct cmd_option cmd_resume_options[] = {
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 'v'),
	CMD_VIEW_OPTIONS,
	CMD_OPTIONS_END,
};

/* The stored run: RUN resolved in the store (ctx: RUN, then its id). */
struct resume_ctx {
	const char *ref;
	int64_t run_id;
};

static int opened(struct cmd_measure *m)
{
	struct resume_ctx *ctx = m->ctx;
	int err;

	json_t *run = NULL;

	if ((err = ab_store_run_resolve(m->store, ctx->ref, &ctx->run_id)) < 0)
		return cmd_fail(err);
	/* a run of any project resumes in its own */
	if (ab_store_run_get(m->store, ctx->run_id, &run) == 0)
		ab_store_set_project(m->store, json_string_value(json_object_get(run, "project")));
	json_decref(run);
	ab_error_clear();
	return 0;
}

static int start(struct cmd_measure *m, const struct ab_run_events *events)
{
	const struct resume_ctx *ctx = m->ctx;

	return ab_run_resume(&m->run, &m->exp, m->store, ctx->run_id, events, NULL);
}

static int started(struct cmd_measure *m)
{
	const struct resume_ctx *ctx = m->ctx;
	json_t *steps = NULL, *b;
	char key[32];

	snprintf(key, sizeof(key), "%lld", (long long)ctx->run_id);
	if (ab_store_bisect_runs(m->store, &steps) == 0 && (b = json_object_get(steps, key)) &&
	    !m->args->out.quiet)
		fprintf(stderr, "abtool: run %lld is step %lld of bisect %lld: this finishes the run only; "
			"'abtool resume bisect:%lld' continues the bisect\n", (long long)ctx->run_id,
			(long long)json_integer_value(json_object_get(b, "seq")),
			(long long)json_integer_value(json_object_get(b, "bisect")),
			(long long)json_integer_value(json_object_get(b, "bisect")));
	json_decref(steps);

	if (m->run.host_change)
		cmd_warn("the host changed since run %lld started (%s): samples from two machines are "
			 "being mixed", (long long)ctx->run_id, m->run.host_change);
	return 0;
}

/* `abtool resume bisect:ID`: the bisect's resume (cmd_bisect --resume),
 * with the store, --json and --quiet given. */
static int resume_bisect(const struct cmd_args *args, const char *ref)
{
	char *v[10];
	int n = 0;

	v[n++] = "abtool bisect";
	v[n++] = "--resume";
	v[n++] = (char *)ref + strlen("bisect:");
	if (args->store) {
		v[n++] = "--store";
		v[n++] = (char *)args->store;
	}
	if (args->out.paths[AB_REPORT_FORMAT_JSON]) {
		v[n++] = "--json";
		v[n++] = (char *)args->out.paths[AB_REPORT_FORMAT_JSON];
	}
	if (args->out.quiet)
		v[n++] = "--quiet";
	v[n] = NULL;
	return cmd_bisect(n, v);
}

int cmd_resume(int argc, char **argv)
{
	struct resume_ctx ctx = {NULL, 0};
	struct cmd_args args;
	struct cmd_measure m = {0};
	int rc;

	cmd_args_init(&args, "resume", NULL, NULL);
	if ((rc = cmd_parse_options(&args, cmd_resume_options, argc, argv)) == CMD_GO_ON) {
		if (optind != argc - 1) {
			rc = cmd_usage("resume", "expected one run id");
		} else if (!strncmp(argv[optind], "bisect:", 7)) {
			rc = resume_bisect(&args, argv[optind]);
		} else {
			ctx.ref = argv[optind];
			m.args = &args;
			m.opened = opened;
			m.start = start;
			m.started = started;
			m.ctx = &ctx;
			rc = cmd_measure(&m);
		}
	}
	cmd_args_release(&args);
	return rc;
}
