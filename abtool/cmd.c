/* cmd.c - what every command shares: error, usage and help messages, and
 * warnings (see cmd.h; help is cmd_help.c). */
#include "cmd.h"
#include "error.h"
#include "revs.h"

#include <stdarg.h>
#include <string.h>

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

void cmd_warn(const char *fmt, ...)
{
	static const char head[] = "abtool: warning: ";
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	fputs(head, stderr);
	if (msg && isatty(STDERR_FILENO))  /* wrapped at spaces, never cut inside a word */
		cmd_put_wrapped(stderr, msg, sizeof(head) - 1, 2, (size_t)cmd_fd_columns(STDERR_FILENO));
	else
		fprintf(stderr, "%s\n", msg ? msg : fmt);
	free(msg);
}

void cmd_warn_swapped(const struct ab_revs *revs)
{
	cmd_warn("the parent %.10s is a descendant of the candidate %.10s: were the candidate and the "
		 "parent swapped (--candidate and --parent, or candidate: and parent:)? ratios are "
		 "candidate/parent, so they would read backwards",
		 revs->parent_hex, revs->candidate_hex);
}
