/* cmd_init.c - `abtool init [--template NAME] [FILE]`: write a commented
 * experiment file from a template compiled into the binary (no-regression,
 * lane-split, memory, pr-gate), to FILE or to stdout; `--workflow
 * github-actions` (or github-actions-sharded) writes the CI workflow of
 * docs/ci.md, which uses the abtool action named by --action. Never
 * overwrites. */
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

/* The action the workflows use unless --action names another: this
 * version's tag of abtool's repository (docs/ci.md, "GitHub Actions"). */
#define DEFAULT_ACTION "abtool/abtool@v" ABTOOL_VERSION
#define WORKFLOWS "github-actions, github-actions-sharded"

/* A workflow's text with every @ABTOOL_ACTION@ replaced by `action` (new). */
static char *workflow_text(const struct ab_embedded_file *f, const char *action)
{
	static const char mark[] = "@ABTOOL_ACTION@";
	char *text = ab_xstrndup((const char *)f->data, f->size), *at, *next;

	while ((at = strstr(text, mark))) {
		next = ab_xasprintf("%.*s%s%s", (int)(at - text), text, action, at + sizeof(mark) - 1);
		free(text);
		text = next;
	}
	return text;
}

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
	{"workflow", 0, "NAME", "write the CI workflow NAME (" WORKFLOWS ") instead of an "
	 "experiment file", NULL, CMD_OWN, 'w', 0, 0},
	{"action", 0, "OWNER/REPO@REF", "the abtool action the workflow uses (uses: ...)", DEFAULT_ACTION,
	 CMD_OWN, 'a', 0, 0},
	/* its own: the usage, then the templates */
	{"help", 'h', NULL, "show the usage, the options and the templates", NULL, CMD_OWN, 'h', 0, 0},
	CMD_VERSION_OPTION,
	CMD_OPTIONS_END,
};

/* --template, --workflow, --action (ctx: the three names), --list, --help. */
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
		printf("CI workflows (--workflow NAME):\n  github-actions\n  github-actions-sharded\n");
		return 0;
	case 'w':
		v[1] = arg;
		break;
	case 'a':
		if (!*arg || strpbrk(arg, " \t\r\n'\"#") || (!strchr(arg, '@') && strncmp(arg, "./", 2)))
			return cmd_usage("init", "--action: expected OWNER/REPO@REF (or ./PATH for an action in "
					 "the repository), got '%s'", arg);
		v[2] = arg;
		break;
	default:
		cmd_help("init");
		printf("\ntemplates:\n");
		list(stdout);
		return 0;
	}
	return CMD_GO_ON;
}

/* Write template or workflow `f` to `file` (NULL or "-": stdout), a
 * workflow with its action `action`; never over an existing file. */
static int write_out(const struct ab_embedded_file *f, const char *workflow, const char *action,
		     const char *name, const char *file)
{
	char *text = workflow ? workflow_text(f, action) : ab_xstrndup((const char *)f->data, f->size);
	size_t len = strlen(text);
	int fd, rc = 0;

	if (!file || !strcmp(file, "-")) {
		fwrite(text, 1, len, stdout);
		free(text);
		return 0;
	}
	/* O_EXCL: an existing experiment file is never replaced. */
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		rc = cmd_fail(errno == EEXIST ? ab_error_set(AB_EINVALID, "'%s' already exists; remove it or "
							     "name another file", file)
				 : ab_error_set(AB_EIO, "cannot create '%s': %s", file, strerror(errno)));
	else if (write(fd, text, len) != (ssize_t)len || close(fd) < 0)
		rc = cmd_fail(ab_error_set(AB_EIO, "cannot write '%s': %s", file, strerror(errno)));
	else if (workflow)
		fprintf(stderr, "abtool: wrote '%s' (uses: %s); set the experiment: in it (docs/ci.md)\n",
			file, action);
	else
		fprintf(stderr, "abtool: wrote '%s' from the %s template; edit it, then 'abtool check %s'\n",
			file, name, file);
	free(text);
	return rc;
}

int cmd_init(int argc, char **argv)
{
	const char *v[3] = {"no-regression", NULL, DEFAULT_ACTION}, *name, *workflow;
	struct cmd_args args;
	int stop;
	const struct ab_embedded_file *f;
	char *path;

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
		fprintf(stderr, "abtool init: no CI workflow '%s'; the workflows are: " WORKFLOWS "\n", workflow);
		return AB_EXIT_USAGE;
	}
	if (!f) {
		fprintf(stderr, "abtool init: no template '%s'; the templates are:\n", name);
		list(stderr);
		return AB_EXIT_USAGE;
	}
	return write_out(f, workflow, v[2], name, optind == argc ? NULL : argv[optind]);
}
