/* cmd.c - what every command shares: error, usage and help messages,
 * warnings, and opening the run a command names (see cmd.h; help is
 * cmd_help.c). */
#include "cmd.h"
#include "error.h"
#include "revs.h"
#include "util.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

int cmd_fail(int err)
{
	fprintf(stderr, "abtool: %s\n", ab_error_last());
	return ab_error_exit_code(err);
}

/* "usage: abtool NAME USAGE" on stderr, from the command table, wrapped
 * as --help wraps it to stderr's width (80 columns in a pipe). */
static void print_usage(const char *name)
{
	const struct ab_command_entry *c = cmd_find_command(name);
	size_t width = (size_t)cmd_fd_columns(STDERR_FILENO), col;

	if (!c)
		return;
	col = (size_t)fprintf(stderr, "usage: abtool %s ", c->name);
	cmd_put_usage(stderr, c->usage, col, width < 60 ? 8 : col, width);
}

int cmd_usage(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "abtool %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage(name);
	return AB_EXIT_USAGE;
}

int cmd_bad_option(const char *name)
{
	print_usage(name);
	return AB_EXIT_USAGE;
}

/* `head`, then the message of fmt/ap: wrapped at spaces on a terminal. */
static void put_notice(const char *head, const char *fmt, va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fputs(head, stderr);
	if (msg && isatty(STDERR_FILENO))  /* wrapped at spaces, never cut inside a word */
		cmd_put_wrapped(stderr, msg, strlen(head), 2, (size_t)cmd_fd_columns(STDERR_FILENO));
	else
		fprintf(stderr, "%s\n", msg ? msg : fmt);
	free(msg);
}

void cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_notice("abtool: warning: ", fmt, ap);
	va_end(ap);
}

void cmd_notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_notice("abtool: ", fmt, ap);
	va_end(ap);
}

/* How many lines cmd_notice takes for `msg` at `columns`. */
static size_t notice_lines(const char *msg, size_t columns)
{
	char *buf = NULL;
	size_t len = 0, n = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return 1;
	cmd_put_wrapped(f, msg, strlen("abtool: "), 2, columns);
	fclose(f);
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	free(buf);
	return n;
}

char *cmd_notice_fit(const char *head, const char *tail, size_t lines)
{
	size_t columns = (size_t)cmd_fd_columns(STDERR_FILENO), max = cmd_text_width(tail);
	char *out = ab_xasprintf("%s%s", head, tail);

	if (!isatty(STDERR_FILENO))
		return out;
	while (notice_lines(out, columns) > lines && max > 8) {  /* the tail shorter by 8 at a time */
		char *cut = cmd_one_line(tail, max -= 8);

		free(out);
		out = ab_xasprintf("%s%s", head, cut);
		free(cut);
	}
	return out;
}

int cmd_open_run(struct ab_store **out, const char *flag, const char *run, int64_t *id)
{
	int err, rc;

	if ((err = cmd_open_store(out, flag, NULL, CMD_STORE_READ)) < 0)
		return cmd_fail(err);
	if ((err = ab_store_run_resolve(*out, run, id)) < 0) {
		rc = cmd_fail(err);
		ab_store_close(*out);
		*out = NULL;
		return rc;
	}
	return 0;
}

void cmd_warn_swapped(const struct ab_revs *revs)
{
	cmd_warn("the parent %.10s is a descendant of the candidate %.10s: were the candidate and the "
		 "parent swapped (--candidate and --parent, or candidate: and parent:)? ratios are "
		 "candidate/parent, so they would read backwards",
		 revs->parent_hex, revs->candidate_hex);
}
