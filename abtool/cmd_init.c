/* cmd_init.c - `abtool init [--template NAME] [FILE]`: write a commented
 * experiment file from a template compiled into the binary (no-regression,
 * lane-split, memory, pr-gate), to FILE or to stdout; `--workflow
 * github-actions` writes the CI workflow of docs/ci.md. Never overwrites. */
#include "cmd.h"
#include "embed.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char prefix[] = "templates/init/";

/* The first comment line of a template, without "# name: " (borrowed into buf). */
static const char *summary(const struct ab_embedded_file *f, char *buf, size_t size)
{
	const char *s = (const char *)f->data, *colon = strchr(s, ':'), *nl = strchr(s, '\n');

	if (!colon || !nl || colon > nl)
		return "";
	snprintf(buf, size, "%.*s", (int)(nl - colon - 2), colon + 2);
	return buf;
}

static void list(FILE *out)
{
	const struct ab_embedded_file *f;
	char buf[256];

	for (f = ab_embedded; f->path; f++)
		if (!strncmp(f->path, prefix, sizeof(prefix) - 1)) {
			fprintf(out, "  %-14.*s ", (int)(strlen(f->path) - sizeof(prefix) + 1 - 5),
				f->path + sizeof(prefix) - 1);
			cmd_put_wrapped(out, summary(f, buf, sizeof(buf)), 17, 17, cmd_help_width());
		}
}

const struct cmd_option cmd_init_options[] = {
	{"template", 't', "NAME", "the template", "no-regression", CMD_OWN, 't', 0, 0},
	{"list", 'l', NULL, "list the templates and workflows", NULL, CMD_OWN, 'l', 0, 0},
	{"workflow", 0, "NAME", "write the CI workflow NAME (github-actions) instead of an experiment "
	 "file", NULL, CMD_OWN, 'w', 0, 0},
	/* its own: the usage, then the templates */
	{"help", 'h', NULL, "show the usage, the options and the templates", NULL, CMD_OWN, 'h', 0, 0},
	CMD_VERSION_OPTION,
	CMD_OPTIONS_END,
};

/* --template, --workflow (ctx: the two names), --list, --help. */
static int init_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	const char **v = args->ctx;

	switch (o->code) {
	case 't':
		v[0] = arg;
		break;
	case 'l':
		printf("templates:\n");
		list(stdout);
		printf("CI workflows (--workflow NAME):\n  github-actions\n");
		return 0;
	case 'w':
		v[1] = arg;
		break;
	default:
		cmd_help("init");
		printf("\ntemplates:\n");
		list(stdout);
		return 0;
	}
	return CMD_GO_ON;
}

int cmd_init(int argc, char **argv)
{
	const char *v[2] = {"no-regression", NULL}, *name, *workflow;
	struct cmd_args args;
	int stop;
	const struct ab_embedded_file *f;
	char *path;
	int fd;

	cmd_args_init(&args, "init", init_option, v);
	if ((stop = cmd_parse_options(&args, cmd_init_options, argc, argv)) != CMD_GO_ON)
		return stop;
	name = v[0];
	workflow = v[1];
	if (argc - optind > 1)
		return cmd_usage("init", "expected at most one file");
	path = workflow ? ab_xasprintf("templates/ci/%s.yml", workflow) : ab_xasprintf("%s%s.yaml", prefix, name);
	f = ab_embed_find(path);
	free(path);
	if (!f && workflow) {
		fprintf(stderr, "abtool init: no CI workflow '%s'; the workflows are: github-actions\n", workflow);
		return AB_EXIT_USAGE;
	}
	if (!f) {
		fprintf(stderr, "abtool init: no template '%s'; the templates are:\n", name);
		list(stderr);
		return AB_EXIT_USAGE;
	}
	if (optind == argc || !strcmp(argv[optind], "-")) {
		fwrite(f->data, 1, f->size, stdout);
		return 0;
	}
	/* O_EXCL: an existing experiment file is never replaced. */
	fd = open(argv[optind], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			return cmd_fail(ab_error_set(AB_EINVALID, "'%s' already exists; remove it or name another "
						     "file", argv[optind]));
		return cmd_fail(ab_error_set(AB_EIO, "cannot create '%s': %s", argv[optind], strerror(errno)));
	}
	if (write(fd, f->data, f->size) != (ssize_t)f->size || close(fd) < 0)
		return cmd_fail(ab_error_set(AB_EIO, "cannot write '%s': %s", argv[optind], strerror(errno)));
	if (workflow)
		fprintf(stderr, "abtool: wrote '%s'; set EXPERIMENT and ABTOOL_GIT in it (docs/ci.md)\n",
			argv[optind]);
	else
		fprintf(stderr, "abtool: wrote '%s' from the %s template; edit it, then 'abtool check %s'\n",
			argv[optind], name, argv[optind]);
	return 0;
}
