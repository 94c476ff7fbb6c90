/* cmd_output.c - the output files of the measuring commands: the output
 * options and their up-front writability check, rendering a report in a
 * format, writing it, and the GitHub Actions summary and annotations
 * (see cmd.h). */
#include "cmd.h"
#include "error.h"
#include "jsontext.h"
#include "report.h"
#include "report_common.h"
#include "report_sides.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

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
		      const char *const *metric_names, size_t nmetrics, int inconclusive_fails,
		      const json_t *profiles)
{
	const struct ab_report_format *f = ab_report_format_find(format);
	struct ab_report_render in = {doc, samples, nsamples, metric_names, nmetrics,
				      inconclusive_fails, profiles};

	*text = NULL;
	*len = 0;
	if (!f)
		return ab_error_set(AB_EINVALID, "unknown report format '%s'; expected one of %s", format,
				    AB_REPORT_FORMAT_NAMES_BAR + 1);
	return ab_report_format_render(text, len, f, &in);
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

/* One annotation, "::KIND title=TITLE::MESSAGE", escaped (gh_escape) and
 * written past the workflow-command guard (cmd_workflow_command). */
static void annotate(const char *kind, const char *title, const char *message)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return;
	fprintf(f, "::%s title=", kind);
	gh_escape(f, title, 1);
	fputs("::", f);
	gh_escape(f, message, 0);
	if (fclose(f) == 0)
		cmd_workflow_command(line);
	free(line);
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
		json_array_foreach(json_object_get(doc, "reasons"), i, reason)
			annotate("error", "abtool: invalid run", json_string_value(reason));
	/* an invalid run's rules decide nothing: its reasons are the annotations */
	json_array_foreach(verdict && !strcmp(verdict, "invalid") ? NULL : json_object_get(doc, "rules"), i, rule) {
		const char *outcome = json_string_value(json_object_get(rule, "outcome"));
		char *title;
		if (!outcome || !strcmp(outcome, "pass"))
			continue;
		title = ab_xasprintf("abtool: %s (%s)", json_string_value(json_object_get(rule, "name")), outcome);
		annotate(!strcmp(outcome, "fail") || inconclusive_fails ? "error" : "warning", title,
			 json_string_value(json_object_get(rule, "detail")));
		free(title);
	}
}

/* After an invalid run's reasons when the checksums differed. */
static const char mismatch_hint[] =
	"abtool: the samples printed different checksums: the candidate changed the result, or the "
	"benchmark's checksum is not the same for the same work (a time, an address, a random seed in "
	"it); fix that, or relax it for some rows with a rule's 'checksum: may_change'";

/* An invalid run's reasons on stderr too, where a CI log shows them even
 * when stdout (the report) goes to a file. */
static void print_invalid(const json_t *doc)
{
	json_t *reason;
	size_t i;
	int mismatch = 0;

	json_array_foreach(json_object_get(doc, "reasons"), i, reason) {
		const char *r = json_string_value(reason);
		char *named = ab_report_sides_text(doc, r);  /* a comparison's sides by their names */

		fprintf(stderr, "abtool: invalid: %s\n", named);
		mismatch |= r && strstr(r, "checksum mismatch") != NULL;
		free(named);
	}
	if (mismatch)
		fprintf(stderr, "%s\n", mismatch_hint);
}

/* Render `format` and write it to `path` ("-" for stdout). */
static int emit_one(const char *path, const struct ab_report_format *format,
		    const struct ab_report_render *in)
{
	char *text;
	size_t len;
	int err;

	err = ab_report_format_render(&text, &len, format, in);
	if (!err)
		err = cmd_write_output(path, text, len);
	free(text);
	return err;
}

char **cmd_where_lines(const json_t *doc, const char *store_flag, const char *const *files,
		       const char *const *file_options)
{
	char *shown = store_flag ? ab_store_describe(store_flag) : NULL;  /* no password */
	char **lines = NULL, *quoted = shown ? ab_shell_quote(shown, 0) : NULL, *s = NULL;
	long long id = json_integer_value(json_object_get(doc, "run_id"));
	size_t i, len = 0;
	FILE *f;

	if (id > 0)
		ab_strv_push(&lines, ab_xasprintf("full report: abtool report %lld%s%s", id,
						  quoted ? " --store " : "", quoted ? quoted : ""));
	else if (!files || !files[0])
		ab_strv_push(&lines, ab_xstrdup("full report: give --md FILE (or --html FILE)"));
	if ((f = open_memstream(&s, &len))) {
		for (i = 0; files && files[i]; i++)
			if (strcmp(files[i], "-"))
				fprintf(f, "%s %s %s", ftell(f) ? "," : "written:", file_options[i], files[i]);
		fclose(f);
		if (s && *s)
			ab_strv_push(&lines, s);
		else
			free(s);
	}
	free(quoted);
	free(shown);
	return lines;
}

/* The terminal view at stdout's width, `height` lines at most before its
 * warnings fold into a line that names `hint` (report.h, struct
 * ab_report_text_options). */
static int render_view(char **text, size_t *len, const json_t *doc, int color_mode,
		       const char *const *where, int height, const char *hint)
{
	struct ab_report_text_options opt;
	int err;

	opt.width = cmd_fd_columns(STDOUT_FILENO);
	opt.color = cmd_color_wanted(color_mode, STDOUT_FILENO);
	opt.where = where;
	opt.height = height;
	opt.warnings_hint = hint;
	err = ab_report_text(text, doc, &opt);
	*len = err < 0 ? 0 : strlen(*text);
	return err;
}

int cmd_render_view(char **text, size_t *len, const json_t *doc, int color_mode,
		    const char *const *where)
{
	return render_view(text, len, doc, color_mode, where, 0, NULL);
}

/* The rows of the terminal on stdout: its size, else $LINES, else 24; 0
 * when stdout is no terminal. */
static int stdout_rows(void)
{
	const char *env = getenv("LINES");
	struct winsize ws;
	long n;
	char *end;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0)
		return ws.ws_row;
	if (env && *env && (n = strtol(env, &end, 10)) > 0 && n < 100000 && !*end)
		return (int)n;
	return 24;
}

/* The screen rows a line of `cols` columns takes at `width` columns. */
static int rows_of(size_t cols, int width)
{
	return cols ? (int)((cols + (size_t)width - 1) / (size_t)width) : 1;
}

/*
 * How many lines the terminal view may take after a run so that its
 * verdict and rows stay on the screen: the screen's rows, less what
 * cmd_emit_reports and cmd_finish_run print on stderr after it when
 * stderr shares the terminal (the verdict line, an invalid run's
 * reasons, the --inconclusive line, "stored as run N in PATH") and the
 * shell's prompt. 0, no limit, with --verbose or when stdout is no
 * terminal: a pipe, a file and `abtool report` keep every warning.
 */
static int view_height(const struct cmd_output *out, const json_t *doc)
{
	int rows = stdout_rows(), width = cmd_fd_columns(STDOUT_FILENO), after = 1;
	const char *verdict = ab_report_str(doc, "verdict");
	json_t *reason;
	size_t i;

	if (out->verbose || rows <= 0)
		return 0;
	if (isatty(STDERR_FILENO)) {
		if (!out->quiet) {
			char *line = ab_report_verdict_line(doc);

			after += cmd_fd_smart_terminal(STDERR_FILENO)
				 ? 1 : rows_of(17 + ab_report_text_width(line), width);
			free(line);
			if (out->run && out->run->store)
				after += rows_of(40 + strlen(ab_store_path(out->run->store)), width);
		}
		json_array_foreach(!strcmp(verdict, "invalid") ? json_object_get(doc, "reasons") : NULL, i,
				   reason) {
			const char *r = json_string_value(reason);

			after += rows_of(17 + ab_report_text_width(r ? r : ""), width);
			if (r && strstr(r, "checksum mismatch"))
				after += rows_of(strlen(mismatch_hint), width);
		}
		if (!strcmp(verdict, "inconclusive") && out->inconclusive_exit != AB_EXIT_INCONCLUSIVE)
			after += rows_of(80, width);
	}
	return rows - after > 1 ? rows - after : 1;
}

/* The command that shows the warnings the view folds: the stored run's
 * report ("abtool report 3 --store S"), or NULL (new string). */
static char *warnings_hint(const json_t *doc, const char *store_flag)
{
	char *shown = store_flag ? ab_store_describe(store_flag) : NULL;  /* no password */
	char *quoted = shown ? ab_shell_quote(shown, 0) : NULL, *hint = NULL;
	long long id = json_integer_value(json_object_get(doc, "run_id"));

	if (id > 0)
		hint = ab_xasprintf("abtool report %lld%s%s", id, quoted ? " --store " : "",
				    quoted ? quoted : "");
	free(quoted);
	free(shown);
	return hint;
}

/* What stdout shows: the terminal view (--format text, or a terminal
 * without --format md; a calibration keeps its Markdown there), fitted
 * to the screen's height on a terminal (view_height), or the Markdown
 * report. */
static int emit_stdout(struct cmd_output *out, const struct ab_report_render *in)
{
	const char *list[AB_REPORT_NFORMATS + 1], *lopts[AB_REPORT_NFORMATS + 1];
	char *text, **where, *hint, options[AB_REPORT_NFORMATS][16];
	size_t len, i, n = 0;
	int err;

	cmd_stdout_for_people();
	if (out->view == CMD_VIEW_MD ||
	    (out->view == CMD_VIEW_AUTO && (!isatty(STDOUT_FILENO) ||
					    !strcmp(ab_report_str(in->doc, "kind"), "calibrate"))))
		return emit_one("-", &ab_report_formats[AB_REPORT_FORMAT_MD], in);
	for (i = 0; i < AB_REPORT_NFORMATS; i++)
		if (out->paths[i]) {
			snprintf(options[i], sizeof(options[i]), "--%s", ab_report_formats[i].name);
			lopts[n] = options[i];
			list[n++] = out->paths[i];
		}
	list[n] = NULL;
	where = cmd_where_lines(in->doc, out->store_flag, list, lopts);
	hint = warnings_hint(in->doc, out->store_flag);
	err = render_view(&text, &len, in->doc, out->color, (const char *const *)where,
			  view_height(out, in->doc), hint);
	free(hint);
	ab_strv_free(where);
	if (!err)
		err = cmd_write_output("-", text, len);
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
	/* every file renders from the stored text read back, as `abtool report` does */
	struct ab_report_render in = {canon, samples, nsamples, names, exp->nmetrics, strict,
				      out->profiles};
	size_t i;

	cmd_clear_progress(out);
	if (!canon) {
		err = ab_error_set(AB_ERROR, "the report document does not read back as JSON");
		goto out;
	}
	if ((err = emit_stdout(out, &in)) < 0)
		goto out;
	fflush(stdout);
	for (i = 0; i < AB_REPORT_NFORMATS && err == 0; i++)
		if (out->paths[i])
			err = emit_one(out->paths[i], &ab_report_formats[i], &in);
	if (err < 0)
		goto out;
	github_actions(canon, strict);
out:
	if (canon && verdict == AB_INVALID)
		print_invalid(canon);
	if (canon && !out->quiet) {
		char *line = ab_report_verdict_line(canon), *full = ab_xasprintf("abtool: verdict: %s", line);
		/* on a terminal one line, cut to its width: the view or the report says the rest */
		char *cut = cmd_one_line(full, cmd_fd_smart_terminal(STDERR_FILENO)
						       ? (size_t)cmd_fd_columns(STDERR_FILENO) : 0);

		fprintf(stderr, "%s\n", cut);
		free(cut);
		free(full);
		free(line);
	}
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
static int writable_output(const char *cmd, const char *name, const char *path)
{
	const char *slash;
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
	char name[16], other[16];
	size_t i, k;

	if (c >= CMD_OPT_FILE && c < CMD_OPT_FILE + AB_REPORT_NFORMATS) {
		k = (size_t)(c - CMD_OPT_FILE);
		snprintf(name, sizeof(name), "--%s", ab_report_formats[k].name);
		if (writable_output(cmd, name, arg) < 0)
			return -1;
		/* one file per format, one format per file ('-' may repeat) */
		if (out->paths[k])
			return cmd_usage(cmd, "%s given twice ('%s' and '%s')", name, out->paths[k], arg), -1;
		for (i = 0; i < AB_REPORT_NFORMATS && strcmp(arg, "-"); i++)
			if (out->paths[i] && !strcmp(out->paths[i], arg)) {
				snprintf(other, sizeof(other), "--%s", ab_report_formats[i].name);
				return cmd_usage(cmd, "%s and %s name the same file '%s': one would "
						 "overwrite the other", other, name, arg), -1;
			}
		out->paths[k] = arg;
		return 1;
	}
	switch (c) {
	case CMD_OPT_INCONCLUSIVE:
		if (!strcmp(arg, "reject"))
			out->inconclusive_exit = AB_EXIT_REJECTED;
		else if (!strcmp(arg, "accept"))
			out->inconclusive_exit = AB_EXIT_ACCEPTED;
		else
			return cmd_usage(cmd, "--inconclusive: expected reject or accept, got '%s'", arg), -1;
		return 1;
	case CMD_OPT_VIEW:
		if (!strcmp(arg, "text"))
			out->view = CMD_VIEW_TEXT;
		else if (!strcmp(arg, "md"))
			out->view = CMD_VIEW_MD;
		else
			return cmd_usage(cmd, "--format: expected text or md, got '%s' (the other formats "
					 "are files: --json F, --html F, ...)", arg), -1;
		return 1;
	case CMD_OPT_COLOR:
		if (!strcmp(arg, "auto"))
			out->color = CMD_COLOR_AUTO;
		else if (!strcmp(arg, "always"))
			out->color = CMD_COLOR_ALWAYS;
		else if (!strcmp(arg, "never"))
			out->color = CMD_COLOR_NEVER;
		else
			return cmd_usage(cmd, "--color: expected auto, always or never, got '%s'", arg), -1;
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
