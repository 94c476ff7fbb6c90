/* cmd.c - helpers shared by the commands (see cmd.h). */
#include "cmd.h"
#include "error.h"
#include "report.h"
#include "revs.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir)
{
	const char *env = getenv("ABTOOL_STORE");
	git_repository *repo = NULL;
	char *path;
	int err;

	if (flag)
		return ab_store_open(out, flag);
	if (env && *env)
		return ab_store_open(out, env);
	ab_revs_global_init();
	if (git_repository_open_ext(&repo, repo_dir ? repo_dir : ".", 0, NULL) < 0)
		return ab_error_set(AB_EINVALID, "'%s' is not a git repository (or any of its parents), "
				    "so there is no default store; set 'repo:' in the experiment file, or "
				    "give --store FILE", repo_dir ? repo_dir : ".");
	path = ab_path_join(git_repository_commondir(repo), "abtool/abtool.db");
	git_repository_free(repo);
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
	if (b->status != AB_BUILD_OK) {
		char *tail = ab_build_log_tail(b, 20);
		fprintf(stderr, "abtool: %s build failed (%s); last lines of %s:\n%s%s", side,
			b->detail ? b->detail : ab_build_status_name(b->status), b->log_path, tail,
			*tail && tail[strlen(tail) - 1] != '\n' ? "\n" : "");
		free(tail);
	} else if (b->cached) {
		fprintf(stderr, "%s: build cached (%s)\n", side, b->dir);
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

static void on_sample_done(void *ctx, const struct ab_sample *s, const char *row)
{
	struct cmd_output *out = ctx;
	char t[32];

	if (!ab_sample_ok(s)) {
		clear_progress(out);
		fprintf(stderr, "abtool: %s: %s sample %u failed: %s\n", row,
			ab_side_name((enum ab_side)s->entry.side), s->entry.seq, s->error ? s->error : "failed");
		if (s->stderr_text && *s->stderr_text)
			fprintf(stderr, "--- its stderr (tail) ---\n%s\n",
				strlen(s->stderr_text) > 2000 ? s->stderr_text + strlen(s->stderr_text) - 2000
							      : s->stderr_text);
		return;
	}
	if (out->verbose) {
		clear_progress(out);
		fprintf(stderr, "%s %s %s %s checksum %s\n", row,
			s->entry.pair >= 0 ? "pair" : "warmup", ab_side_name((enum ab_side)s->entry.side),
			ab_format_ns(t, sizeof(t), (double)s->wall_ns), s->checksum ? s->checksum : "-");
	}
}

struct ab_run_events cmd_run_events(struct cmd_output *out)
{
	struct ab_run_events ev;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = out;
	ev.build_start = on_build_start;
	ev.build_done = on_build_done;
	ev.sample_start = on_sample_start;
	ev.sample_done = on_sample_done;
	return ev;
}

int cmd_write_output(const char *path, const char *text, size_t len)
{
	if (!strcmp(path, "-")) {
		if (fwrite(text, 1, len, stdout) != len)
			return ab_error_set(AB_EIO, "cannot write to stdout: %s", strerror(errno));
		return 0;
	}
	return ab_write_file(path, text, len);
}

static int write_markdown(const char *path, const json_t *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return ab_error_set(AB_EIO, "out of memory");
	err = ab_report_markdown(f, doc);
	fclose(f);
	if (!err)
		err = cmd_write_output(path, text, len);
	free(text);
	return err;
}

int cmd_emit_reports(struct cmd_output *out, const json_t *doc, enum ab_verdict verdict)
{
	int err;

	clear_progress(out);
	if ((err = write_markdown("-", doc)) < 0)
		return cmd_fail(err);
	fflush(stdout);
	if (out->md_path && (err = write_markdown(out->md_path, doc)) < 0)
		return cmd_fail(err);
	if (out->json_path) {
		char *text = ab_report_json_text(doc);
		err = cmd_write_output(out->json_path, text, strlen(text));
		free(text);
		if (err < 0)
			return cmd_fail(err);
	}
	return ab_verdict_exit_code(verdict);
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

int cmd_interrupted(const struct ab_run *run)
{
	int sig = ab_runner_interrupted();
	size_t done = 0, total = 0, i;

	for (i = 0; i < run->nsamples; i++) {
		total += run->samples[i].status != AB_SAMPLE_SUPERSEDED;
		done += run->samples[i].status == AB_SAMPLE_DONE;
	}
	fputs("\r\033[K", stderr);
	if (run->meta.id)
		fprintf(stderr, "abtool: interrupted by %s: run %lld is kept with %zu of %zu samples; "
			"finish it with 'abtool resume %lld'\n", sig == SIGTERM ? "SIGTERM" : "SIGINT",
			(long long)run->meta.id, done, total, (long long)run->meta.id);
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
