/* cmd.c - helpers shared by the commands (see cmd.h). */
#include "cmd.h"
#include "calibrate.h"
#include "error.h"
#include "jsontext.h"
#include "report.h"
#include "revs.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int cmd_fail(int err)
{
	fprintf(stderr, "abtool: %s\n", ab_error_last());
	return ab_error_exit_code(err);
}

int cmd_usage(const char *name, const char *fmt, ...)
{
	va_list ap;
	const struct ab_command_entry *c;

	fprintf(stderr, "abtool %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, name))
			fprintf(stderr, "usage: abtool %s %s\n", c->name, c->usage);
	return AB_EXIT_USAGE;
}

int cmd_bad_option(const char *name)
{
	const struct ab_command_entry *c;

	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, name))
			fprintf(stderr, "usage: abtool %s %s\n", c->name, c->usage);
	return AB_EXIT_USAGE;
}

int cmd_help(const char *name)
{
	const struct ab_command_entry *c;

	for (c = ab_commands; c->name; c++)
		if (!strcmp(c->name, name))
			printf("usage: abtool %s %s\n\n%s\n", c->name, c->usage, c->summary);
	return 0;
}

void cmd_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("abtool: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cmd_warn_swapped(const struct ab_revs *revs)
{
	cmd_warn("the parent %.10s is a descendant of the candidate %.10s: were the candidate and the "
		 "parent swapped (--candidate and --parent, or candidate: and parent:)? ratios are "
		 "candidate/parent, so they would read backwards",
		 revs->parent_hex, revs->candidate_hex);
}

int cmd_store_path(char **out, const char *flag, const char *repo_dir)
{
	const char *env = getenv("ABTOOL_STORE");
	git_repository *repo = NULL;
	int err;

	*out = NULL;
	if (flag) {
		*out = ab_xstrdup(flag);
		return 0;
	}
	if (env && *env) {
		*out = ab_xstrdup(env);
		return 0;
	}
	if ((err = ab_revs_open_repository(&repo, repo_dir ? repo_dir : ".")) == AB_ENOTFOUND)
		return repo_dir
			? ab_error_set(AB_EINVALID, "'%s' is not a git repository (or any of its parents), so "
				       "there is no default store; set 'repo:' in the experiment file, or give "
				       "--store FILE", repo_dir)
			: ab_error_set(AB_EINVALID, "the current folder is not in a git repository, so there is "
				       "no default store (.git/abtool/abtool.db); run this in the repository "
				       "you measure, or give --store FILE (or set ABTOOL_STORE)");
	if (err < 0)
		return ab_error_prefix("no default store");
	*out = ab_path_join(git_repository_commondir(repo), "abtool/abtool.db");
	git_repository_free(repo);
	return 0;
}

int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir)
{
	char *path;
	int err;

	*out = NULL;
	if ((err = cmd_store_path(&path, flag, repo_dir)) < 0)
		return err;
	err = ab_store_open(out, path);
	free(path);
	return err;
}

/* Erase the progress line before printing anything else. */
static void clear_progress(struct cmd_output *out)
{
	if (out->progress_dirty) {
		fputs("\r\033[K", stderr);
		out->progress_dirty = 0;
	}
}

static void on_build_start(void *ctx, const char *side, const char *oid, int cached)
{
	struct cmd_output *out = ctx;

	(void)cached;
	if (out->quiet)
		return;
	clear_progress(out);
	if (out->progress) {
		fprintf(stderr, "preparing %s %.10s…", side, oid);
		out->progress_dirty = 1;
	}
}

static void on_build_done(void *ctx, const char *side, const struct ab_build *b)
{
	struct cmd_output *out = ctx;
	char t[32];

	clear_progress(out);
	if (out->quiet && b->status == AB_BUILD_OK)
		return;
	if (b->damaged && !out->quiet)
		fprintf(stderr, "%s: the cached build was damaged (%s); built it again\n", side,
			b->damaged);
	if (b->status != AB_BUILD_OK) {
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
	fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s%s", done + 1, total, row, what,
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
	char t[32];

	if (!ab_sample_ok(s)) {
		clear_progress(out);
		fprintf(stderr, "abtool: %s: %s sample %u failed: %s\n", row,
			ab_side_name((enum ab_side)s->entry.side), s->entry.seq, s->error ? s->error : "failed");
		/* A benchmark that ran to exit 0 failed on its output: show it. */
		if (s->exit_code == 0 && !s->signal && !s->timed_out)
			print_tail("stdout", s->stdout_text);
		print_tail("stderr", s->stderr_text);
		print_sample_hint(out->run, s);
		return;
	}
	if ((s->flags & AB_FLAG_OUTPUT_TRUNCATED) && !out->warned_truncated && !out->quiet) {
		clear_progress(out);
		cmd_warn("%s: %s sample %u printed more output than abtool keeps (the first 1 MiB and the "
			 "last 64 KiB of stdout and of stderr; flagged output_truncated): checksums and metrics "
			 "come from what was kept; print less", row, ab_side_name((enum ab_side)s->entry.side),
			 s->entry.seq);
		out->warned_truncated = 1;
	}
	if (out->verbose) {
		clear_progress(out);
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
	clear_progress(out);
	fprintf(stderr, "abtool: another abtool is building the same tree; waiting for %s\n", lock_path);
}

/* Before the builds: what the user should know about the revisions. */
static void on_resolved(void *ctx, const struct ab_run *run)
{
	struct cmd_output *out = ctx;

	if (out->quiet)
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

/* Where an output file's bytes go: a symbolic link's target (the link
 * stays), else the path itself (new string). */
static char *output_target(const char *path)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		return real;
	return ab_xstrdup(path);
}

/* 1 when an existing `path` is a device, a FIFO or a socket: written
 * through, never replaced. */
static int is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int cmd_write_output(const char *path, const char *text, size_t len)
{
	char *target;
	int err;

	if (!strcmp(path, "-")) {
		if (fwrite(text, 1, len, stdout) != len)
			return ab_error_set(AB_EIO, "cannot write to stdout: %s", strerror(errno));
		return 0;
	}
	if (is_special(path)) {  /* /dev/null, a FIFO: written through, never replaced */
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		size_t done = 0;
		ssize_t w = 0;

		if (fd < 0)
			return ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
		while (done < len && ((w = write(fd, text + done, len - done)) > 0 || (w < 0 && errno == EINTR)))
			done += w > 0 ? (size_t)w : 0;
		err = done < len ? ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno)) : 0;
		close(fd);
		return err;
	}
	target = output_target(path);  /* a symbolic link stays one */
	err = ab_write_file(target, text, len);
	free(target);
	return err;
}

int cmd_render_report(char **text, size_t *len, const char *format, const json_t *doc,
		      const struct ab_sample *samples, size_t nsamples,
		      const char *const *metric_names, size_t nmetrics, int inconclusive_fails)
{
	FILE *f;
	int err;

	*text = NULL;
	*len = 0;
	if (!strcmp(format, "json")) {
		*text = ab_report_json_text(doc);
		*len = strlen(*text);
		return 0;
	}
	if (strcmp(format, "md") && strcmp(format, "tsv") && strcmp(format, "html") &&
	    strcmp(format, "summary") && strcmp(format, "junit"))
		return ab_error_set(AB_EINVALID, "unknown report format '%s'; expected md, json, tsv, html, "
				    "summary or junit", format);
	if (!(f = open_memstream(text, len)))
		return ab_error_set(AB_EIO, "cannot render the report: %s", strerror(errno));
	if (!strcmp(format, "md"))
		err = ab_report_markdown(f, doc);
	else if (!strcmp(format, "html"))
		err = ab_report_html(f, doc);
	else if (!strcmp(format, "summary"))
		err = ab_report_summary(f, doc);
	else if (!strcmp(format, "junit"))
		err = ab_report_junit(f, doc, inconclusive_fails);
	else
		err = ab_report_tsv(f, doc, samples, nsamples, metric_names, nmetrics);
	if (fclose(f) != 0 && !err)
		err = ab_error_set(AB_EIO, "cannot render the report: %s", strerror(errno));
	if (err < 0) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return err;
}

/* A workflow command's message: %, CR and LF escaped (GitHub's
 * toolkit escapeData); properties also escape ':' and ','. */
static void gh_escape(FILE *f, const char *s, int property)
{
	for (; s && *s; s++) {
		if (*s == '%')
			fputs("%25", f);
		else if (*s == '\r')
			fputs("%0D", f);
		else if (*s == '\n')
			fputs("%0A", f);
		else if (property && *s == ':')
			fputs("%3A", f);
		else if (property && *s == ',')
			fputs("%2C", f);
		else
			fputc(*s, f);
	}
}

/*
 * In GitHub Actions (GITHUB_ACTIONS=true): append the summary to
 * $GITHUB_STEP_SUMMARY and print an ::error annotation per failing rule
 * (for an invalid run, per integrity reason instead) and a ::warning per
 * inconclusive rule (an ::error when `inconclusive_fails`, as with
 * --inconclusive=reject). The annotations go to stderr, which the runner
 * reads for workflow commands as it does stdout, so that stdout stays the
 * report. A summary that cannot be written is a warning: the verdict and
 * its exit code matter more than the job page.
 */
static void github_actions(const json_t *doc, int inconclusive_fails)
{
	const char *gha = getenv("GITHUB_ACTIONS"), *summary = getenv("GITHUB_STEP_SUMMARY");
	const char *verdict = json_string_value(json_object_get(doc, "verdict"));
	json_t *rule, *reason;
	size_t i;
	FILE *f;
	int err;

	if (!gha || strcmp(gha, "true"))
		return;
	if (summary && *summary) {
		if (!(f = fopen(summary, "a"))) {
			cmd_warn("cannot append to GITHUB_STEP_SUMMARY '%s': %s; the job page has no summary",
				 summary, strerror(errno));
		} else {
			err = ab_report_summary(f, doc);
			if ((fclose(f) != 0 || err < 0))
				cmd_warn("cannot write GITHUB_STEP_SUMMARY '%s': %s; the job page's summary is "
					 "incomplete", summary, strerror(errno));
		}
	}
	if (verdict && !strcmp(verdict, "invalid"))
		json_array_foreach(json_object_get(doc, "reasons"), i, reason) {
			fputs("::error title=", stderr);
			gh_escape(stderr, "abtool: invalid run", 1);
			fputs("::", stderr);
			gh_escape(stderr, json_string_value(reason), 0);
			fputc('\n', stderr);
		}
	/* an invalid run's rules decide nothing: its reasons are the annotations */
	json_array_foreach(verdict && !strcmp(verdict, "invalid") ? NULL : json_object_get(doc, "rules"), i, rule) {
		const char *outcome = json_string_value(json_object_get(rule, "outcome"));
		char *title;
		if (!outcome || !strcmp(outcome, "pass"))
			continue;
		title = ab_xasprintf("abtool: %s (%s)", json_string_value(json_object_get(rule, "name")), outcome);
		fprintf(stderr, "::%s title=", !strcmp(outcome, "fail") || inconclusive_fails ? "error" : "warning");
		gh_escape(stderr, title, 1);
		fputs("::", stderr);
		gh_escape(stderr, json_string_value(json_object_get(rule, "detail")), 0);
		fputc('\n', stderr);
		free(title);
	}
	fflush(stderr);
}

/* An invalid run's reasons on stderr too, where a CI log shows them even
 * when stdout (the report) goes to a file. */
static void print_invalid(const json_t *doc)
{
	json_t *reason;
	size_t i;
	int mismatch = 0;

	json_array_foreach(json_object_get(doc, "reasons"), i, reason) {
		const char *r = json_string_value(reason);
		fprintf(stderr, "abtool: invalid: %s\n", r ? r : "");
		mismatch |= r && strstr(r, "checksum mismatch") != NULL;
	}
	if (mismatch)
		fprintf(stderr, "abtool: the samples printed different checksums: the candidate changed the "
			"result, or the benchmark's checksum is not the same for the same work (a time, an "
			"address, a random seed in it); fix that, or relax it for some rows with a rule's "
			"'checksum: may_change'\n");
}

/* Render `format` and write it to `path` ("-" for stdout). */
static int emit_one(const char *path, const char *format, const json_t *doc,
		    const struct ab_experiment *exp, const struct ab_sample *samples, size_t nsamples,
		    const char *const *names, int inconclusive_fails)
{
	char *text;
	size_t len;
	int err;

	err = cmd_render_report(&text, &len, format, doc, samples, nsamples, names, exp->nmetrics,
				inconclusive_fails);
	if (!err)
		err = cmd_write_output(path, text, len);
	free(text);
	return err;
}

int cmd_emit_reports(struct cmd_output *out, const struct ab_experiment *exp,
		     const struct ab_sample *samples, size_t nsamples, const json_t *doc,
		     enum ab_verdict verdict)
{
	const char **names = ab_run_metric_names(exp);
	char *stored = ab_report_json_text(doc);
	json_t *canon = json_loads(stored, 0, NULL);
	int err = 0, strict = out->inconclusive_exit == AB_EXIT_REJECTED;

	clear_progress(out);
	if (!canon) {
		err = ab_error_set(AB_ERROR, "the report document does not read back as JSON");
		goto out;
	}
	if ((err = emit_one("-", "md", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	fflush(stdout);
	if (out->md_path && (err = emit_one(out->md_path, "md", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	if (out->json_path && (err = cmd_write_output(out->json_path, stored, strlen(stored))) < 0)
		goto out;
	if (out->tsv_path && (err = emit_one(out->tsv_path, "tsv", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	if (out->html_path && (err = emit_one(out->html_path, "html", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	if (out->summary_path && (err = emit_one(out->summary_path, "summary", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	if (out->junit_path && (err = emit_one(out->junit_path, "junit", canon, exp, samples, nsamples, names, strict)) < 0)
		goto out;
	github_actions(canon, strict);
out:
	if (canon && verdict == AB_INVALID)
		print_invalid(canon);
	json_decref(canon);
	free(stored);
	free(names);
	if (err < 0)
		return cmd_fail(err);
	if (verdict == AB_INCONCLUSIVE_VERDICT && out->inconclusive_exit != AB_EXIT_INCONCLUSIVE) {
		fprintf(stderr, "abtool: the verdict is inconclusive; --inconclusive=%s maps it to exit %d\n",
			out->inconclusive_exit ? "reject" : "accept", out->inconclusive_exit);
		return out->inconclusive_exit;
	}
	return ab_verdict_exit_code(verdict);
}

void cmd_output_init(struct cmd_output *out)
{
	memset(out, 0, sizeof(*out));
	out->inconclusive_exit = AB_EXIT_INCONCLUSIVE;
}

/* An output file that cannot be written is found before anything is
 * built or measured, not after: its folder exists and a file can be
 * created in it (what the writer does: a temporary file renamed into
 * place; /proc, a read-only file system and missing permissions fail
 * here), and the path is not a folder. A device or a FIFO (/dev/null) is
 * written through. 0, or -1 after the usage message. */
static int writable_output(const char *cmd, int c, const char *path)
{
	static const char *const names[] = {"--json", "--md", "--tsv", "--html", "--summary", "--junit"};
	const char *name = names[c - CMD_OPT_JSON], *slash;
	char *target, *dir, *probe = NULL;
	struct stat st;
	int fd, rc = -1;

	if (!*path)
		return cmd_usage(cmd, "%s: expected a file name", name), -1;
	if (!strcmp(path, "-") || is_special(path))
		return 0;
	target = output_target(path);
	slash = strrchr(target, '/');
	dir = slash ? ab_xstrndup(target, slash == target ? 1 : (size_t)(slash - target)) : ab_xstrdup(".");
	if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
		cmd_usage(cmd, "%s %s: is a folder; give a file name", name, path);
	} else if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		cmd_usage(cmd, "%s %s: the folder '%s' does not exist; create it first", name, path, dir);
	} else {
		probe = ab_xasprintf("%s/.abtool-probe.%ld", dir, (long)getpid());
		if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) {
			cmd_usage(cmd, "%s %s: cannot be written: no file can be created in '%s' (%s)", name, path,
				  dir, strerror(errno));
		} else {
			close(fd);
			unlink(probe);
			rc = 0;
		}
	}
	free(probe);
	free(dir);
	free(target);
	return rc;
}

int cmd_output_option(struct cmd_output *out, const char *cmd, int c, const char *arg)
{
	static const char *const names[] = {"--json", "--md", "--tsv", "--html", "--summary", "--junit"};
	const char **paths[] = {&out->json_path, &out->md_path, &out->tsv_path, &out->html_path,
				&out->summary_path, &out->junit_path};
	size_t i;

	if (c >= CMD_OPT_JSON && c <= CMD_OPT_JUNIT) {
		if (writable_output(cmd, c, arg) < 0)
			return -1;
		/* one file per format, one format per file ('-' may repeat) */
		if (*paths[c - CMD_OPT_JSON])
			return cmd_usage(cmd, "%s given twice ('%s' and '%s')", names[c - CMD_OPT_JSON],
					 *paths[c - CMD_OPT_JSON], arg), -1;
		for (i = 0; i < 6 && strcmp(arg, "-"); i++)
			if (*paths[i] && !strcmp(*paths[i], arg))
				return cmd_usage(cmd, "%s and %s name the same file '%s': one would overwrite "
						 "the other", names[i], names[c - CMD_OPT_JSON], arg), -1;
	}
	switch (c) {
	case CMD_OPT_JSON:
		out->json_path = arg;
		return 1;
	case CMD_OPT_MD:
		out->md_path = arg;
		return 1;
	case CMD_OPT_TSV:
		out->tsv_path = arg;
		return 1;
	case CMD_OPT_HTML:
		out->html_path = arg;
		return 1;
	case CMD_OPT_SUMMARY:
		out->summary_path = arg;
		return 1;
	case CMD_OPT_JUNIT:
		out->junit_path = arg;
		return 1;
	case CMD_OPT_INCONCLUSIVE:
		if (!strcmp(arg, "reject"))
			out->inconclusive_exit = AB_EXIT_REJECTED;
		else if (!strcmp(arg, "accept"))
			out->inconclusive_exit = AB_EXIT_ACCEPTED;
		else
			return cmd_usage(cmd, "--inconclusive: expected reject or accept, got '%s'", arg), -1;
		return 1;
	case 'q':
		out->quiet = 1;
		return 1;
	case 'v':
		out->verbose = 1;
		return 1;
	}
	return 0;
}

void cmd_print_calibration(FILE *f, struct ab_store *store, const struct ab_experiment *exp)
{
	json_t *doc = NULL;
	char **advice, **a;

	if (ab_store_latest_calibration(store, exp->hash, &doc) < 0 || !doc)
		return;
	advice = ab_calibrate_advice(json_object_get(doc, "calibration"), exp->pairs);
	fprintf(f, "calibration (run %lld, %s):\n", (long long)json_integer_value(json_object_get(doc, "run_id")),
		json_string_value(json_object_get(doc, "created_at")));
	for (a = advice; a && *a; a++)
		fprintf(f, "  %s\n", *a);
	ab_strv_free(advice);
	json_decref(doc);
}

int cmd_finish_run(struct cmd_output *out, struct ab_run *run, int err, struct ab_analysis *analysis,
		   json_t **doc)
{
	int rc;

	if (err == AB_EINTERRUPTED)
		return cmd_interrupted(run);
	if (err < 0 || (err = ab_run_finish(run, analysis, doc)) < 0)
		return cmd_run_failed(run, err);
	rc = cmd_emit_reports(out, run->exp, run->samples, run->nsamples, *doc, analysis->verdict);
	if ((err = ab_store_check_alive(run->store)) < 0)  /* deleted during the run */
		return cmd_fail(err);
	if (!out->quiet)
		fprintf(stderr, "abtool: stored as run %lld in %s\n", (long long)run->meta.id,
			ab_store_path(run->store));
	return rc;
}

static void on_signal(int sig)
{
	ab_runner_interrupt(sig);
}

void cmd_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;  /* no SA_RESTART: a blocking wait must notice */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cmd_run_failed(const struct ab_run *run, int err)
{
	int rc;

	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	rc = cmd_fail(err);
	if (run->meta.id && run->store && err != AB_EINVALID && err != AB_ENOTFOUND) {
		if (err != AB_ELOCKED)  /* not "running" when it is not: where the store takes it */
			ab_store_run_abandon(run->store, run->meta.id);
		/* the sample in flight is lost, not the ones committed before it */
		fprintf(stderr, "abtool: run %lld is kept with the samples stored so far; once the problem "
			"is fixed, finish it with 'abtool resume %lld --store %s'\n", (long long)run->meta.id,
			(long long)run->meta.id, ab_store_path(run->store));
	}
	return rc;
}

int cmd_interrupted(const struct ab_run *run)
{
	int sig = ab_runner_interrupted();
	size_t done = 0, total = 0, i;

	for (i = 0; i < run->nsamples; i++) {
		total += run->samples[i].status != AB_SAMPLE_SUPERSEDED;
		done += run->samples[i].status == AB_SAMPLE_DONE;
	}
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (run->meta.id)
		fprintf(stderr, "abtool: interrupted by %s: run %lld is kept with %zu of %zu samples; "
			"finish it with 'abtool resume %lld --store %s'\n", sig == SIGTERM ? "SIGTERM" : "SIGINT",
			(long long)run->meta.id, done, total, (long long)run->meta.id, ab_store_path(run->store));
	else
		fprintf(stderr, "abtool: interrupted by %s before the run was stored\n",
			sig == SIGTERM ? "SIGTERM" : "SIGINT");
	return 128 + (sig ? sig : SIGINT);
}

int cmd_terminal_columns(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

size_t cmd_text_width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The write function of cmd_plain_stdout's stream: control characters
 * other than newline and tab become spaces on their way to fd 1. */
static ssize_t plain_write(void *cookie, const char *buf, size_t n)
{
	char tmp[4096];
	size_t done = 0, k, i;

	(void)cookie;
	while (done < n) {
		k = n - done < sizeof(tmp) ? n - done : sizeof(tmp);
		for (i = 0; i < k; i++) {
			unsigned char c = (unsigned char)buf[done + i];
			tmp[i] = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? ' ' : (char)c;
		}
		for (i = 0; i < k;) {
			ssize_t w = write(STDOUT_FILENO, tmp + i, k - i);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return done ? (ssize_t)done : -1;
			i += (size_t)w;
		}
		done += k;
	}
	return (ssize_t)n;
}

void cmd_plain_stdout(void)
{
	static const cookie_io_functions_t io = { .write = plain_write };
	FILE *f;

	fflush(stdout);
	if ((f = fopencookie(NULL, "w", io))) {
		setvbuf(f, NULL, _IOFBF, 8192);
		stdout = f;  /* flushed by exit() like every open stream */
	}
}

char *cmd_one_line(const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0, cols = 0, i;
	char *out = ab_xmalloc(len + 4), *w = out;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		int starts = (c & 0xc0) != 0x80;

		if (starts && max && cols == max - 1 && cmd_text_width(s + i) > 1) {
			memcpy(w, "…", strlen("…"));
			w += strlen("…");
			break;
		}
		cols += starts;
		*w++ = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	*w = '\0';
	return out;
}

void cmd_put_padded(FILE *f, const char *s, size_t width)
{
	size_t n = cmd_text_width(s);

	fputs(s, f);
	for (; n < width; n++)
		fputc(' ', f);
}

const char *cmd_short_time(char *buf, size_t size, const char *iso)
{
	if (!iso || strlen(iso) < 16)
		snprintf(buf, size, "%s", iso ? iso : "-");
	else
		snprintf(buf, size, "%.10s %.5s", iso, iso + 11);
	return buf;
}

int cmd_dep_pin_add(struct cmd_dep_pins *pins, const char *cmd, const char *arg)
{
	char *copy = ab_xstrdup(arg), *eq = strchr(copy, '='), *dots = eq ? strstr(eq + 1, "..") : NULL;
	struct ab_dep_pin *pin;

	if (!eq || eq == copy || !dots || dots == eq + 1 || !dots[2] || dots[2] == '.') {
		free(copy);
		cmd_usage(cmd, "--dependency: expected NAME=PARENT..CANDIDATE (a dependency of the experiment "
			  "and two of its revisions joined by two dots, e.g. lib=v1.2..HEAD), got '%s'", arg);
		return -1;
	}
	*eq = '\0';
	*dots = '\0';
	ab_strv_push(&pins->text, copy);
	pins->v = ab_xrealloc(pins->v, (pins->n + 1) * sizeof(*pins->v));
	pin = &pins->v[pins->n++];
	pin->name = copy;
	pin->parent = eq + 1;
	pin->candidate = dots + 2;
	return 0;
}

int cmd_pin_option(struct cmd_dep_pins *pins, struct ab_run_options *opt, const char *cmd, int c,
		   const char *arg)
{
	if (c == 'd')
		return cmd_dep_pin_add(pins, cmd, arg) < 0 ? -1 : 1;
	if (c != 'O')
		return 0;
	if (!*arg)
		return cmd_usage(cmd, "--overlay-from: give a revision (candidate, parent, a commit, a tag "
				 "or a branch)"), -1;
	opt->overlay_from = arg;
	return 1;
}

void cmd_dep_pins_release(struct cmd_dep_pins *pins)
{
	free(pins->v);
	ab_strv_free(pins->text);
	memset(pins, 0, sizeof(*pins));
}
