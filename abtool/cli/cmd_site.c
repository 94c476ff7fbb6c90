/* cmd_site.c - `abtool site OUTDIR`: the store as a static site
 * (docs/history.md, "The site"), for the question a terminal table answers
 * badly: what did we try on this row, what did it do, why was it
 * rejected, how far have we come. Every project's front page, its designs
 * (the rejected ones first, with the failing part of their reasons), each
 * run's report and samples as `abtool report` writes them; readable from
 * file:// or a static host such as GitHub Pages, nothing fetched when it
 * is viewed. A second build renders only the runs whose files are missing
 * or out of date. */
#include "cmd.h"
#include "error.h"
#include "site.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const struct cmd_option cmd_site_options[] = {
	{"project", 0, "NAME", "only the project NAME (exactly, as 'abtool history --all-projects' "
	 "shows it; '' for comparisons)", "every project", CMD_OWN, 'P', 0, 0},
	{"commit-url", 0, "TEMPLATE", "link each commit to TEMPLATE with {commit} replaced by its id",
	 "derived from a project on github.com, gitlab.com, codeberg.org or bitbucket.org", CMD_OWN,
	 'u', 0, 0},
	{"rebuild", 0, NULL, "render every run's report again, also those whose files are up to date",
	 NULL, CMD_OWN, 'r', 0, 0},
	{"quiet", 'q', NULL, "print nothing but errors", NULL, CMD_OWN, 'q', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* What the options of site set. */
struct site_ctx {
	struct ab_site_options opt;
	int quiet;
};

static int site_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct site_ctx *ctx = args->ctx;

	if (o->code == 'P') {
		ctx->opt.project = arg;
	} else if (o->code == 'u') {
		/* a web page's link: no javascript: or data: URL from a command line */
		if (!strstr(arg, "{commit}") || (strncmp(arg, "https://", 8) && strncmp(arg, "http://", 7)))
			return cmd_usage("site", "--commit-url: expected an http(s) URL with {commit}, like "
					 "https://git.example/engine/commit/{commit}, got '%s'", arg);
		ctx->opt.commit_url = arg;
	} else if (o->code == 'r') {
		ctx->opt.rebuild = 1;
	} else {
		ctx->quiet = 1;
	}
	return CMD_GO_ON;
}

/* The time the pages say they were written: now, or $SOURCE_DATE_EPOCH
 * (reproducible-builds.org's variable) when it is set, so that two builds
 * of the same store can give the same bytes. */
static void generated_at(char *buf, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	int64_t t;

	if (!epoch || ab_parse_int64(&t, epoch) < 0 || t < 0)
		t = (int64_t)time(NULL);
	ab_utc_iso8601(buf, size, t);
}

int cmd_site(int argc, char **argv)
{
	struct site_ctx ctx;
	struct cmd_args args;
	struct ab_site_stats st;
	struct ab_store *store = NULL;
	char when[32], size[32], *name = NULL;
	struct stat sb;
	int stop, err, rc = 0;

	memset(&ctx, 0, sizeof(ctx));
	cmd_args_init(&args, "site", site_option, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_site_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (optind != argc - 1)
		return cmd_usage("site", "expected one folder to write the site into");
	if (stat(argv[optind], &sb) == 0 && !S_ISDIR(sb.st_mode))
		return cmd_usage("site", "%s is not a folder: give a folder to write the site into (made when "
				 "missing)", argv[optind]);
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_READ)) < 0)
		return cmd_fail(err);
	generated_at(when, sizeof(when));
	name = ab_store_describe(ab_store_path(store));  /* no password (docs/security.md) */
	ctx.opt.outdir = argv[optind];
	ctx.opt.store_name = name;
	ctx.opt.generated_at = when;
	ctx.opt.profiles = cmd_profiles_json;
	if ((err = ab_site_build(store, &ctx.opt, &st)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (!ctx.quiet)
		printf("%s/index.html: %zu project%s, %zu run%s (%zu rendered, %zu up to date), %zu files "
		       "written, %s\n", argv[optind], st.projects, st.projects == 1 ? "" : "s", st.runs,
		       st.runs == 1 ? "" : "s", st.rendered, st.kept, st.pages,
		       ab_format_size(size, sizeof(size), (int64_t)st.bytes));
out:
	free(name);
	ab_store_close(store);
	return rc;
}
