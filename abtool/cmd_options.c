/* cmd_options.c - the options several commands share (see cmd.h). */
#include "cmd.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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
