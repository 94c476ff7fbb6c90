/* cmd_cache.c - `abtool cache`: the build cache's entries (size, age,
 * revision, last use), `cache prune --older-than D | --keep-size S` and
 * `cache clear`, which leave alone an entry a run holds and an entry of a
 * run not finished in the store; and the cap of the config file's
 * cache.max_size, applied after each run (see cache.h, docs/cli.md,
 * "abtool cache"). */
#include "cmd.h"
#include "cache.h"
#include "error.h"
#include "userconf.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPT_OLDER_THAN = 1, OPT_KEEP_SIZE };

struct cache_ctx {
	const char *older_than, *keep_size;
};

const struct cmd_option cmd_cache_options[] = {
	{"older-than", 0, "DURATION", "prune: remove entries last used longer ago than this (30d, 12h)",
	 NULL, CMD_OWN, OPT_OLDER_THAN, 0, 0},
	{"keep-size", 0, "SIZE", "prune: remove least recently used entries until the cache holds "
	 "at most SIZE (2G, 500M)", NULL, CMD_OWN, OPT_KEEP_SIZE, 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

static int own(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct cache_ctx *c = args->ctx;

	if (o->code == OPT_OLDER_THAN)
		c->older_than = arg;
	else
		c->keep_size = arg;
	return CMD_GO_ON;
}

/* "3d", "5h", "12m", "40s" into buf. */
static const char *age_text(char *buf, size_t size, int64_t seconds)
{
	if (seconds < 0)
		seconds = 0;
	if (seconds >= 86400)
		snprintf(buf, size, "%lldd", (long long)(seconds / 86400));
	else if (seconds >= 3600)
		snprintf(buf, size, "%lldh", (long long)(seconds / 3600));
	else if (seconds >= 60)
		snprintf(buf, size, "%lldm", (long long)(seconds / 60));
	else
		snprintf(buf, size, "%llds", (long long)seconds);
	return buf;
}

static void print_list(const char *cache_dir, const struct ab_cache_entry *e, size_t n)
{
	int64_t now = time(NULL), total = 0;
	char size[32], age[32], used[32];

	printf("%-12s  %6s  %5s  %9s  %-12s  %s\n", "entry", "size", "age", "last use", "revision",
	       "state");
	for (size_t i = 0; i < n; i++) {
		total += e[i].size;
		printf("%.12s  %6s  %5s  %5s ago  %-12.12s  %s\n", e[i].key,
		       ab_format_size(size, sizeof(size), e[i].size),
		       age_text(age, sizeof(age), now - e[i].created_unix),
		       age_text(used, sizeof(used), now - e[i].last_used_unix),
		       e[i].commit ? e[i].commit : "-",
		       e[i].locked ? "in use" : e[i].ok ? "ok" : "not built");
	}
	printf("%zu entr%s, %s, in %s/builds\n", n, n == 1 ? "y" : "ies",
	       ab_format_size(size, sizeof(size), total), cache_dir);
}

/* The keys of the unfinished runs' builds in the store the lookup finds,
 * or NULL (with a note on stderr) when it finds none. */
static char **unfinished_keys(const char *store_flag, int quiet)
{
	struct ab_store *store = NULL;
	char **keys = NULL;

	if (cmd_open_store(&store, store_flag, NULL, CMD_STORE_READ) < 0 ||
	    ab_store_unfinished_cache_keys(store, &keys) < 0) {
		if (!quiet)
			fprintf(stderr, "abtool cache: not checking for interrupted runs (%s); entries a "
				"running run holds are skipped all the same\n", ab_error_last());
	}
	ab_store_close(store);
	return keys;
}

static void print_pruned(const struct ab_cache_entry *e, size_t n)
{
	int64_t freed = 0;
	size_t removed = 0;
	char size[32];

	for (size_t i = 0; i < n; i++) {
		if (e[i].action == AB_CACHE_REMOVED) {
			removed++;
			freed += e[i].size;
			printf("removed %.12s  %s\n", e[i].key, ab_format_size(size, sizeof(size), e[i].size));
		} else if (e[i].action == AB_CACHE_LOCKED) {
			printf("kept    %.12s  in use by a running run\n", e[i].key);
		} else if (e[i].action == AB_CACHE_UNFINISHED) {
			printf("kept    %.12s  used by an interrupted run (abtool resume finishes it)\n",
			       e[i].key);
		}
	}
	printf("removed %zu entr%s, %s\n", removed, removed == 1 ? "y" : "ies",
	       ab_format_size(size, sizeof(size), freed));
}

int cmd_cache(int argc, char **argv)
{
	struct cache_ctx ctx = {NULL, NULL};
	struct ab_cache_prune opt = {-1, -1, 0, NULL, (int64_t)time(NULL)};
	struct ab_cache_entry *e = NULL;
	struct cmd_args args;
	const char *what;
	char *cache_dir, **keys = NULL;
	size_t n = 0;
	int stop, err;

	cmd_args_init(&args, "cache", own, &ctx);
	if ((stop = cmd_parse_options(&args, cmd_cache_options, argc, argv)) != CMD_GO_ON)
		return stop;
	what = optind < argc ? argv[optind] : "list";
	if (optind + 1 < argc)
		return cmd_usage("cache", "unexpected argument '%s'", argv[optind + 1]);
	if (strcmp(what, "list") && strcmp(what, "prune") && strcmp(what, "clear"))
		return cmd_usage("cache", "expected list, prune or clear, got '%s'", what);
	if (strcmp(what, "prune") && (ctx.older_than || ctx.keep_size))
		return cmd_usage("cache", "--older-than and --keep-size go with 'abtool cache prune'");
	if (!strcmp(what, "prune")) {
		int64_t ms;

		if (!ctx.older_than && !ctx.keep_size)
			return cmd_usage("cache", "prune needs --older-than DURATION or --keep-size SIZE");
		if (ctx.older_than && ab_parse_duration_ms(&ms, ctx.older_than) < 0)
			return cmd_usage("cache", "--older-than: expected a duration like 30d, 12h or 90m, "
					 "got '%s'", ctx.older_than);
		if (ctx.older_than)
			opt.older_than_s = ms / 1000;
		if (ctx.keep_size && ab_parse_size(&opt.keep_size, ctx.keep_size) < 0)
			return cmd_usage("cache", "--keep-size: expected a size like 2G, 500M or 64K "
					 "(powers of 1024), got '%s'", ctx.keep_size);
	}
	opt.all = !strcmp(what, "clear");
	cache_dir = ab_cache_dir();
	if (!strcmp(what, "list")) {
		err = ab_cache_list(cache_dir, &e, &n);
		if (err == 0)
			print_list(cache_dir, e, n);
	} else {
		keys = unfinished_keys(args.store, 0);
		opt.unfinished = keys;
		if ((err = ab_cache_prune(cache_dir, &opt, &e, &n)) == 0)
			print_pruned(e, n);
	}
	ab_cache_entries_free(e, n);
	ab_strv_free(keys);
	free(cache_dir);
	return err < 0 ? cmd_fail(err) : 0;
}

void cmd_cache_cap(const char *cache_dir, struct ab_store *store, int quiet)
{
	struct ab_cache_prune opt = {-1, -1, 0, NULL, (int64_t)time(NULL)};
	struct ab_userconf conf;
	struct ab_cache_entry *e = NULL;
	char **keys = NULL, size[32], cap[32];
	size_t n = 0, removed = 0;
	int64_t freed = 0;
	char *dir = cache_dir ? ab_xstrdup(cache_dir) : ab_cache_dir();

	if (ab_userconf_load(&conf) < 0 || conf.cache_max_size < 0) {
		ab_userconf_release(&conf);
		free(dir);
		return;
	}
	opt.keep_size = conf.cache_max_size;
	if (store && ab_store_unfinished_cache_keys(store, &keys) == 0)
		opt.unfinished = keys;
	if (ab_cache_prune(dir, &opt, &e, &n) < 0)
		fprintf(stderr, "abtool: the build cache's cap (cache.max_size in %s): %s\n", conf.path,
			ab_error_last());
	for (size_t i = 0; i < n; i++)
		if (e[i].action == AB_CACHE_REMOVED) {
			removed++;
			freed += e[i].size;
		}
	if (removed && !quiet)
		fprintf(stderr, "abtool: build cache over its cap (cache.max_size: %s in %s): removed %zu "
			"least recently used entr%s, %s\n", ab_format_size(cap, sizeof(cap), opt.keep_size),
			conf.path, removed, removed == 1 ? "y" : "ies",
			ab_format_size(size, sizeof(size), freed));
	ab_cache_entries_free(e, n);
	ab_strv_free(keys);
	ab_userconf_release(&conf);
	free(dir);
}
