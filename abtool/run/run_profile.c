/* run_profile.c - profiles of a run's rows after its measured pairs:
 * extra samples of each side under `perf record -g`, folded and stored
 * apart from the samples (see run.h, ab_run_profile; docs/profiles.md). */
#include "run.h"
#include "measure.h"
#include "error.h"
#include "profile_fold.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The folded text kept per side and row; beyond it the stacks with the
 * fewest samples are cut (and the profile says so). */
#define PROFILE_CAP (1024 * 1024)
/* The most of `perf script` output one sample's profile reads. */
#define SCRIPT_CAP ((size_t)256 * 1024 * 1024)

/* `perf` on abtool's PATH (new string), or NULL. */
static char *find_perf(void)
{
	return ab_path_search(getenv("PATH"), "perf");
}

/* One side of one row being profiled. */
struct side {
	struct ab_fold *fold;
	char *why;          /* the first failure (new), or NULL */
	int script_cut;     /* perf script printed more than SCRIPT_CAP: the rest was not folded */
	int64_t runs;
	char event[64];     /* the event perf recorded */
};

/* What every profiled sample needs. */
struct prof {
	struct ab_run *run;
	const char *perf;
	const char *event;
	char *cwd[2], **env[2];
	char data[4096];    /* perf.data's path */
};

/* Run `argv` (or `shell`) for row `row`'s side `side`, capturing stdout
 * up to `cap` bytes; `*r` must be released. */
static int run_cmd(struct prof *p, struct ab_runner_result *r, char *const *argv, const char *shell,
		   int side, const char *cpus, size_t cap)
{
	struct ab_runner_spec spec;
	int64_t t = p->run->exp->timeout_ms;

	memset(&spec, 0, sizeof(spec));
	spec.shell = shell;
	spec.argv = shell ? NULL : argv;
	spec.cwd = p->cwd[side];
	spec.env_extra = p->env[side];
	spec.cpus = cpus;
	spec.no_aslr = !p->run->exp->aslr;
	spec.timeout_ms = t > 0 ? 4 * t : 0;  /* perf slows the benchmark down */
	spec.stdin_null = 1;
	spec.output_cap = cap;
	return ab_runner_run(r, &spec);
}

/* A hook of the row (prepare or cleanup), as its samples run it; 1 when it
 * failed (the reason into s->why), or a runner error. */
static int hook(struct prof *p, struct side *s, const struct ab_command *cmd, const char *what, int side)
{
	struct ab_runner_result r;
	char why[256];
	int err;

	if (!cmd->shell && !cmd->argv)
		return 0;
	if ((err = run_cmd(p, &r, cmd->argv, cmd->shell, side, NULL, 4096)) < 0) {
		ab_runner_result_release(&r);
		return err;
	}
	err = !r.exited || r.exit_code != 0 || r.timed_out;
	if (err && !s->why)
		s->why = ab_xasprintf("%s failed (%s)", what, ab_runner_describe(why, sizeof(why), &r, 0));
	ab_runner_result_release(&r);
	return err;
}

/* The first line of a process's stderr that says something (new
 * string, at most 200 bytes), or "no message": blank lines are skipped,
 * and a heading that ends in ':' gets the line after it (perf prints
 * "Error:" on a line of its own, then the reason). */
static char *first_line(const struct ab_output *o)
{
	const char *s = o->data ? o->data : "", *end = s + (o->data ? o->len : 0), *line;
	char *out = NULL, *next;
	size_t n;

	while (s < end) {
		line = s;
		n = strcspn(line, "\n");
		if (line + n > end)
			n = (size_t)(end - line);
		s = line + n + 1;
		while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\r' || line[n - 1] == '\t'))
			n--;
		while (n > 0 && (*line == ' ' || *line == '\t')) {
			line++;
			n--;
		}
		if (!n)
			continue;
		next = ab_xasprintf("%s%s%.*s", out ? out : "", out ? " " : "", (int)n, line);
		free(out);
		out = next;
		if (line[n - 1] != ':')
			break;
	}
	if (out && strlen(out) > 200)
		out[200] = '\0';
	return out ? out : ab_xstrdup("no message");
}

/* The part of an event name before its modifiers ("cycles:u" -> "cycles"). */
static size_t event_base(const char *e)
{
	return strcspn(e, ":");
}

/* Whether perf recorded the event asked for: perf falls back to cpu-clock
 * by itself when the kernel refuses a hardware event. */
static int same_event(const char *asked, const char *seen)
{
	size_t a = event_base(asked), b = event_base(seen);

	if (a == b && !strncmp(asked, seen, a))
		return 1;
	return (a == 6 && !strncmp(asked, "cycles", 6) && b == 10 && !strncmp(seen, "cpu-cycles", 10)) ||
	       (b == 6 && !strncmp(seen, "cycles", 6) && a == 10 && !strncmp(asked, "cpu-cycles", 10));
}

/* `perf script` of the last record, folded into side `s`. */
static int fold_record(struct prof *p, struct side *s, int side)
{
	char *argv[] = {(char *)p->perf, "script", "-i", p->data, "-F", "comm,tid,event,ip,sym", NULL};
	struct ab_runner_result r;
	char why[256], event[64];
	int err;

	if ((err = run_cmd(p, &r, argv, NULL, side, NULL, SCRIPT_CAP)) < 0) {
		ab_runner_result_release(&r);
		return err;
	}
	if (!r.exited || r.exit_code != 0) {
		char *line = first_line(&r.err);
		if (!s->why)
			s->why = ab_xasprintf("perf script failed (%s): %s",
					      ab_runner_describe(why, sizeof(why), &r, 0), line);
		free(line);
	} else if (ab_fold_perf_script(s->fold, r.out.data, r.out.truncated ? r.out.head_len : r.out.len,
				       event, sizeof(event)) == 0) {
		if (!s->why)
			s->why = ab_xasprintf("perf recorded no samples (a benchmark too short for the "
					      "event's rate?)");
	} else if (!same_event(p->event, event)) {
		if (!s->why)
			s->why = ab_xasprintf("perf recorded %s instead of %s: the kernel refuses %s here "
					      "(a virtual machine without hardware counters?); event: "
					      "cpu-clock works everywhere", event, p->event, p->event);
	} else {
		snprintf(s->event, sizeof(s->event), "%s", event);
		s->script_cut |= r.out.truncated;
		s->runs++;
	}
	ab_runner_result_release(&r);
	return 0;
}

/* One profiled sample of side `side` of row `row`. */
static int profile_one(struct prof *p, struct side *s, int side, const struct ab_command *cmds[3],
		       const char *cpus)
{
	const struct ab_command *cmd = cmds[0];
	struct ab_runner_result r;
	char **argv = NULL, *const *a, why[256];
	int err;

	if (ab_runner_interrupted())
		return ab_error_set(AB_EINTERRUPTED, "interrupted");
	if ((err = hook(p, s, cmds[1], "prepare", side)) != 0)
		return err < 0 ? err : 0;
	ab_strv_push(&argv, ab_xstrdup(p->perf));
	ab_strv_push(&argv, ab_xstrdup("record"));
	ab_strv_push(&argv, ab_xstrdup("-q"));
	ab_strv_push(&argv, ab_xstrdup("-g"));
	ab_strv_push(&argv, ab_xstrdup("-e"));
	ab_strv_push(&argv, ab_xstrdup(p->event));
	ab_strv_push(&argv, ab_xstrdup("-o"));
	ab_strv_push(&argv, ab_xstrdup(p->data));
	ab_strv_push(&argv, ab_xstrdup("--"));
	if (cmd->shell) {
		ab_strv_push(&argv, ab_xstrdup("/bin/sh"));
		ab_strv_push(&argv, ab_xstrdup("-c"));
		ab_strv_push(&argv, ab_xstrdup(cmd->shell));
	} else {
		for (a = cmd->argv; a && *a; a++)
			ab_strv_push(&argv, ab_xstrdup(*a));
	}
	unlink(p->data);
	err = run_cmd(p, &r, argv, NULL, side, cpus, 65536);
	ab_strv_free(argv);
	if (err < 0) {
		ab_runner_result_release(&r);
		return err;
	}
	if (!r.exited || r.exit_code != 0 || r.timed_out) {
		char *line = first_line(&r.err);
		if (!s->why)
			s->why = ab_xasprintf("perf record -e %s failed (%s): %s", p->event,
					      ab_runner_describe(why, sizeof(why), &r, 0), line);
		free(line);
	} else {
		err = fold_record(p, s, side);
	}
	ab_runner_result_release(&r);
	unlink(p->data);
	if (err < 0)
		return err;
	err = hook(p, s, cmds[2], "cleanup", side);
	return err < 0 ? err : 0;
}

/* Store side `side` of row `row` and count it in `out`. */
static int store_side(struct prof *p, struct side *s, size_t row, int side, struct ab_profile_outcome *out)
{
	struct ab_store_profile sp;
	uint64_t kept = 0, cut = 0;
	int err;

	memset(&sp, 0, sizeof(sp));
	sp.row = (int64_t)row;
	sp.label = ab_row_label(p->run->exp, row);
	sp.side = side;
	sp.event = s->event[0] ? s->event : (char *)p->event;
	sp.runs = s->runs;
	sp.ok = s->runs > 0;
	if (sp.ok) {
		sp.folded = ab_fold_text(s->fold, PROFILE_CAP, &kept, &cut);
		sp.folded_len = strlen(sp.folded);
		sp.stack_samples = (int64_t)kept;
		sp.dropped = (int64_t)cut;
		if (cut)
			sp.reason = ab_xasprintf("cut to %d KiB: the stacks with the fewest samples (%llu of "
						 "%llu samples) were left out", PROFILE_CAP / 1024,
						 (unsigned long long)cut, (unsigned long long)(cut + kept));
		else if (s->script_cut)
			sp.reason = ab_xasprintf("cut: perf script printed more than %zu MiB for a sample; "
						 "the samples after that were left out", SCRIPT_CAP >> 20);
		if (sp.reason && !out->note)
			out->note = ab_xstrdup(sp.reason);
	} else {
		sp.reason = ab_xstrdup(s->why ? s->why : "no profile");
		if (!out->why)
			out->why = ab_xstrdup(sp.reason);
	}
	out->sides++;
	out->sides_ok += (size_t)sp.ok;
	err = ab_store_profile_put(p->run->store, p->run->meta.id, &sp);
	free(sp.folded);
	free(sp.reason);
	free(sp.label);
	return err;
}

/* The rows to profile: measured by the run, kept by exp->row_subset and,
 * with use_selector, selected by profile.rows. */
static uint8_t *rows_to_profile(const struct ab_run *run, int use_selector, size_t nrows)
{
	const struct ab_experiment *exp = run->exp;
	uint8_t *keep = ab_xcalloc(nrows + 1, 1);
	size_t i;

	for (i = 0; i < run->nsamples; i++)
		if (run->samples[i].status == AB_SAMPLE_DONE && run->samples[i].entry.row < nrows)
			keep[run->samples[i].entry.row] = 1;
	for (i = 0; i < nrows; i++)
		if ((exp->row_subset && !exp->row_subset[i]) ||
		    (use_selector && !ab_selector_match(&exp->profile_rows, exp, i)))
			keep[i] = 0;
	return keep;
}

/* Profile row `row`: samples pairs of both sides in AB|BA order, the first
 * order from the run's seed, then alternating. */
static int profile_row(struct prof *p, size_t row, int samples, struct ab_profile_outcome *out)
{
	const struct ab_experiment *exp = p->run->exp;
	struct ab_command cmd[4];  /* side a's command, side b's, prepare, cleanup */
	const struct ab_command *cmds[2][3] = {{&cmd[0], &cmd[2], &cmd[3]}, {&cmd[1], &cmd[2], &cmd[3]}};
	/* each side's own command when two commands are compared (sides:) */
	const struct ab_command *tmpl[4] = {ab_experiment_side_command(exp, 0),
					    ab_experiment_side_command(exp, 1), &exp->prepare, &exp->cleanup};
	struct side s[2];
	char *cpus = ab_measure_row_cpus(exp, row);
	int k, i, first = (int)((p->run->meta.seed >> (row % 61)) & 1), err = 0;

	memset(cmd, 0, sizeof(cmd));
	memset(s, 0, sizeof(s));
	for (i = 0; i < 4 && err == 0; i++)
		if (tmpl[i]->shell || tmpl[i]->argv)
			err = ab_command_expand(&cmd[i], tmpl[i], exp, row);
	s[0].fold = ab_fold_new();
	s[1].fold = ab_fold_new();
	for (k = 0; k < samples && err == 0; k++) {
		int a = (first + k) & 1;  /* 0: parent first (AB), 1: candidate first (BA) */
		if ((err = profile_one(p, &s[a], a, cmds[a], cpus)) == 0)
			err = profile_one(p, &s[!a], !a, cmds[!a], cpus);
	}
	for (i = 0; i < 2 && err == 0; i++)
		err = store_side(p, &s[i], row, i, out);
	if (err == 0)
		out->rows++;
	for (i = 0; i < 4; i++)
		ab_command_release(&cmd[i]);
	for (i = 0; i < 2; i++) {
		ab_fold_free(s[i].fold);
		free(s[i].why);
	}
	free(cpus);
	return err;
}

/* Every selected row without a profile: unavailable for `why`. */
static int all_unavailable(struct prof *p, const uint8_t *keep, size_t nrows, const char *why,
			   struct ab_profile_outcome *out)
{
	size_t r;
	int i, err = 0;

	for (r = 0; r < nrows && err == 0; r++) {
		for (i = 0; i < 2 && keep[r] && err == 0; i++) {
			struct side s;
			memset(&s, 0, sizeof(s));
			s.why = (char *)why;
			err = store_side(p, &s, r, i, out);
		}
		out->rows += keep[r] && err == 0;
	}
	return err;
}

int ab_run_profile(struct ab_run *run, int use_selector, const char *event, int samples,
		   struct ab_profile_outcome *out)
{
	const struct ab_experiment *exp = run->exp;
	size_t nrows = ab_experiment_nrows(exp), r;
	uint8_t *keep = rows_to_profile(run, use_selector, nrows);
	struct prof p;
	char *perf = find_perf();
	int i, fd, err = 0;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.run = run;
	p.perf = perf;
	p.event = event ? event : exp->profile_event ? exp->profile_event : "cpu-clock";
	if (samples <= 0)
		samples = exp->profile_samples > 0 ? exp->profile_samples : 3;
	if (run->integrity) {
		err = all_unavailable(&p, keep, nrows, "a side did not build", out);
		goto out;
	}
	if (!perf) {
		err = all_unavailable(&p, keep, nrows, "perf is not on PATH (Debian: apt-get install "
				      "linux-perf)", out);
		goto out;
	}
	snprintf(p.data, sizeof(p.data), "%s/abtool-perf-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(p.data)) < 0) {
		err = ab_error_set(AB_EIO, "creating a file for perf's data: %s", strerror(errno));
		goto out;
	}
	close(fd);
	for (i = 0; i < 2; i++) {
		struct ab_build_dep *deps = ab_run_side_deps(run, i);
		/* as the samples ran: two commands in the experiment's folder, a build in its tree */
		p.cwd[i] = ab_path_absolute(exp->has_sides ? exp->dir : run->builds[i].dir, exp->workdir);
		p.env[i] = ab_build_env(exp->env, deps, run->ndeps, exp->has_sides ? NULL : run->builds[i].dir);
		free(deps);
	}
	for (r = 0; r < nrows && err == 0; r++)
		if (keep[r])
			err = profile_row(&p, r, samples, out);
	unlink(p.data);
	for (i = 0; i < 2; i++) {
		free(p.cwd[i]);
		ab_strv_free(p.env[i]);
	}
out:
	free(perf);
	free(keep);
	return err;
}

void ab_profile_outcome_release(struct ab_profile_outcome *out)
{
	if (!out)
		return;
	free(out->why);
	free(out->note);
	out->why = out->note = NULL;
}
