/* cmd_progress.c - what a measuring command prints while it builds and
 * measures: the progress line, builds, failed samples and the warnings
 * about the revisions (the run's events; see cmd.h). */
#include "cmd.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Erase the progress line before printing anything else. */
void cmd_clear_progress(struct cmd_output *out)
{
	if (out->progress_dirty) {
		cmd_term_erase_line();
		out->progress_dirty = 0;
	}
}

static void on_build_start(void *ctx, const char *side, const char *oid, int cached)
{
	struct cmd_output *out = ctx;

	(void)cached;
	if (out->quiet)
		return;
	cmd_clear_progress(out);
	if (out->progress) {
		fprintf(stderr, "preparing %s %.10s…", side, oid);
		out->progress_dirty = 1;
	}
}

static void on_build_done(void *ctx, const char *side, const struct ab_build *b)
{
	struct cmd_output *out = ctx;
	char t[32];

	cmd_clear_progress(out);
	if (out->quiet && b->status == AB_BUILD_OK)
		return;
	if (b->damaged && !out->quiet)
		fprintf(stderr, "%s: the cached build was damaged (%s); built it again\n", side,
			b->damaged);
	if (b->status == AB_BUILD_NO_ARTIFACT) {
		/* the build succeeded: its log is not about the artifact */
		fprintf(stderr, "abtool: %s build: %s (the build %s and succeeded; its log is in %s)\n",
			side, b->detail, b->cached ? "was reused from the cache" : "ran", b->log_path);
	} else if (b->status != AB_BUILD_OK) {
		char *tail = ab_build_log_tail(b, 20);
		fprintf(stderr, "abtool: %s build failed (%s); last lines of %s:\n%s%s", side,
			b->detail ? b->detail : ab_build_status_name(b->status), b->log_path, tail,
			*tail && tail[strlen(tail) - 1] != '\n' ? "\n" : "");
		free(tail);
	} else if (b->cached) {
		fprintf(stderr, "%s: build cached (%s)\n", side, b->dir);
	} else if (b->no_command) {
		fprintf(stderr, "%s: tree ready, no build command (%s)\n", side, b->dir);
	} else {
		fprintf(stderr, "%s: built in %s\n", side, ab_format_ns(t, sizeof(t), (double)b->duration_ns));
	}
}

static void on_sample_start(void *ctx, const struct ab_plan_entry *e, const char *row, size_t done,
			    size_t total, int64_t eta_ns)
{
	struct cmd_output *out = ctx;
	char what[48], eta[32] = "";

	if (!out->progress)
		return;
	if (e->pair >= 0)
		snprintf(what, sizeof(what), "pair %d", e->pair + 1);
	else
		snprintf(what, sizeof(what), "warmup %d", e->warmup + 1);
	if (eta_ns >= 0) {
		long s = (long)(eta_ns / 1000000000);
		snprintf(eta, sizeof(eta), " · ETA %ld:%02ld", s / 60, s % 60);
	}
	cmd_term_erase_line();
	fprintf(stderr, "[%zu/%zu] %s %s %s%s", done + 1, total, row, what,
		ab_side_name((enum ab_side)e->side), eta);
	out->progress_dirty = 1;
}

/* The last 2000 bytes of a captured stream. */
static void print_tail(const char *what, const char *text)
{
	size_t len = text ? strlen(text) : 0;

	if (len)
		fprintf(stderr, "--- its %s (tail) ---\n%s%s", what, len > 2000 ? text + len - 2000 : text,
			text[len - 1] == '\n' ? "" : "\n");
}

/* How to reproduce a failed sample: its folder and command, by hand. */
static void print_sample_hint(const struct ab_run *run, const struct ab_sample *s)
{
	struct ab_command cmd;
	char *dir, *quoted, *line;

	if (!run || !run->exp || !run->builds[s->entry.side].dir ||
	    ab_command_expand(&cmd, &run->exp->benchmark, run->exp, s->entry.row) < 0)
		return;
	dir = ab_path_absolute(run->builds[s->entry.side].dir, run->exp->workdir);
	quoted = ab_shell_quote(dir, 1);
	line = ab_command_display(&cmd);
	fprintf(stderr, "abtool: %sto see why, run it by hand: cd %s && %s\n",
		s->timed_out ? "if the benchmark is only slow, raise 'timeout:'; " : "", quoted, line);
	free(line);
	free(quoted);
	free(dir);
	ab_command_release(&cmd);
}

static void on_sample_done(void *ctx, const struct ab_sample *s, const char *row)
{
	struct cmd_output *out = ctx;
	const char *reads;
	char t[32];

	if (!ab_sample_ok(s)) {
		cmd_clear_progress(out);
		fprintf(stderr, "abtool: %s: %s sample %u failed: %s\n", row,
			ab_side_name((enum ab_side)s->entry.side), s->entry.seq, s->error ? s->error : "failed");
		/* A benchmark that ran to exit 0 failed on its output: show it. */
		if (s->exit_code == 0 && !s->signal && !s->timed_out)
			print_tail("stdout", s->stdout_text);
		print_tail("stderr", s->stderr_text);
		print_sample_hint(out->run, s);
		return;
	}
	reads = out->run && out->run->exp ? ab_experiment_stdout_reads(out->run->exp) : NULL;
	/* Only what was read from the kept text is affected (checksum
	 * {stdout: sha256} hashes the whole stream). */
	if ((s->flags & AB_FLAG_OUTPUT_TRUNCATED) && reads && !out->warned_truncated && !out->quiet) {
		cmd_clear_progress(out);
		cmd_warn("%s: %s sample %u printed more output than abtool keeps (the first 1 MiB and the "
			 "last 64 KiB of stdout and of stderr; flagged output_truncated): %s come from "
			 "what was kept; print less", row, ab_side_name((enum ab_side)s->entry.side),
			 s->entry.seq, reads);
		out->warned_truncated = 1;
	}
	if (out->verbose) {
		cmd_clear_progress(out);
		fprintf(stderr, "%s %s %s %s checksum %s\n", row,
			s->entry.pair >= 0 ? "pair" : "warmup", ab_side_name((enum ab_side)s->entry.side),
			ab_format_ns(t, sizeof(t), (double)s->wall_ns), s->checksum ? s->checksum : "-");
	}
}

static void on_build_waiting(void *ctx, const char *lock_path)
{
	struct cmd_output *out = ctx;

	if (out->quiet)
		return;
	cmd_clear_progress(out);
	fprintf(stderr, "abtool: another abtool is building the same tree; waiting for %s\n", lock_path);
}

/* Before the builds: what the user should know about the revisions. */
static void on_resolved(void *ctx, const struct ab_run *run)
{
	struct cmd_output *out = ctx;

	if (out->quiet || run->exp->has_sides)  /* two commands: no revisions to warn of */
		return;
	if (run->dirty)
		cmd_warn("the work tree of '%s' has uncommitted changes: they are not measured, only "
			 "commits are (commit them, or measure them in a commit of their own)",
			 run->revs.workdir ? run->revs.workdir : run->exp->repo);
	if (!run->revs.exact_parent && strcmp(run->kind, "calibrate"))
		cmd_warn("parent %.10s is not the exact parent of candidate %.10s (exact_parent: false "
			 "or --parent)", run->revs.parent_hex, run->revs.candidate_hex);
	if (run->revs.parent_descends)
		cmd_warn_swapped(&run->revs);
	if (run->candidate_only_experiment)
		cmd_warn("the candidate %.10s changes only the experiment file '%s': this run compares a "
			 "build with itself (measured because --candidate names it; the change is in its "
			 "parent %.10s)", run->revs.candidate_hex, run->exp->path, run->revs.parent_hex);
}

struct ab_run_events cmd_run_events(struct cmd_output *out)
{
	struct ab_run_events ev;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = out;
	ev.build_start = on_build_start;
	ev.build_done = on_build_done;
	ev.build_waiting = on_build_waiting;
	ev.sample_start = on_sample_start;
	ev.sample_done = on_sample_done;
	ev.resolved = on_resolved;
	return ev;
}
