/* cmd_sync.c - `abtool sync --from STORE --to STORE`: copy the finished
 * runs of one store that the other lacks, each with every sample, build,
 * row, rule result and note, so that a laptop's or a CI runner's runs
 * reach the team's store after the fact (docs/history.md, "A team store
 * on PostgreSQL"). A run is the same run in both stores when its uuid is:
 * a run already in TO is left alone, so a second sync copies nothing.
 * Each run is copied as `abtool export RUN | abtool import -` would copy
 * it (store.h ab_store_export, ab_store_import: one transaction per run),
 * and either store may be a sqlite file or a PostgreSQL database. A run
 * still running or interrupted is not evidence yet: it is skipped and
 * named, for a later sync once it has finished. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { SYNC_FROM = 'f', SYNC_TO = 't', SYNC_DRY_RUN = 'n', SYNC_QUIET = 'q' };

const struct cmd_option cmd_sync_options[] = {
	{"from", 0, "STORE", "the store to copy runs from (a file or a postgresql:// URL)", NULL, CMD_OWN,
	 SYNC_FROM, 0, 0},
	{"to", 0, "STORE", "the store to copy them to (made when it is a new file)", NULL, CMD_OWN, SYNC_TO,
	 0, 0},
	{"dry-run", 'n', NULL, "list the runs a sync would copy; copy nothing", NULL, CMD_OWN, SYNC_DRY_RUN,
	 0, 0},
	{"quiet", 'q', NULL, "only errors and the closing count: no line per run", NULL, CMD_OWN, SYNC_QUIET,
	 0, 0},
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

struct sync_opts {
	const char *from, *to;
	int dry_run, quiet;
};

static int sync_option(struct cmd_args *args, const struct cmd_option *o, const char *arg)
{
	struct sync_opts *s = args->ctx;

	if (o->code == SYNC_FROM)
		s->from = arg;
	else if (o->code == SYNC_TO)
		s->to = arg;
	else if (o->code == SYNC_QUIET)
		s->quiet = 1;
	else
		s->dry_run = 1;
	return CMD_GO_ON;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* Copy run `id` of `from` into `to`: 0 with *new_id, or an error. */
static int copy_run(struct ab_store *from, struct ab_store *to, int64_t id, int64_t *new_id)
{
	json_t *doc = NULL;
	int existed = 0, err;

	if ((err = ab_store_export(from, id, AB_STORE_EXPORT_SAMPLES, &doc)) == 0)
		err = ab_store_import(to, doc, new_id, &existed);
	json_decref(doc);
	return err;
}

int cmd_sync(int argc, char **argv)
{
	struct sync_opts s = {0};
	struct cmd_args args;
	struct ab_store *from = NULL, *to = NULL;
	json_t *have = NULL, *runs = NULL, *there = json_object(), *r;
	size_t i, copied = 0, present = 0, unfinished = 0;
	int stop, err, rc = 0;

	cmd_args_init(&args, "sync", sync_option, &s);
	if ((stop = cmd_parse_options(&args, cmd_sync_options, argc, argv)) != CMD_GO_ON) {
		json_decref(there);
		return stop;
	}
	if (optind != argc || !s.from || !s.to) {
		json_decref(there);
		return cmd_usage("sync", "expected --from STORE and --to STORE (files or postgresql:// URLs)");
	}
	if ((err = cmd_open_named_store(&from, s.from, "--from", CMD_STORE_READ)) < 0 ||
	    (err = ab_store_run_uuids(from, &runs)) < 0 ||
	    (err = cmd_open_named_store(&to, s.to, "--to", s.dry_run ? CMD_STORE_READ : CMD_STORE_WRITE)) < 0 ||
	    (err = ab_store_run_uuids(to, &have)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (ab_store_same(from, to)) {
		rc = cmd_fail(ab_error_set(AB_EINVALID, "--from and --to name one store ('%s'); give two",
					   ab_store_path(from)));
		goto out;
	}
	json_array_foreach(have, i, r)
		json_object_set(there, str(r, "uuid"), json_true());
	cmd_plain_stdout();
	json_array_foreach(runs, i, r) {
		int64_t id = json_integer_value(json_object_get(r, "id")), new_id = 0;

		if (json_object_get(there, str(r, "uuid"))) {
			present++;
			continue;
		}
		if (strcmp(str(r, "status"), "finished")) {
			unfinished++;
			if (!s.quiet)
				fprintf(stderr, "abtool sync: run %lld (%.8s) is %s: not copied; finish it "
					"(abtool resume %lld), then sync again\n", (long long)id, str(r, "uuid"),
					str(r, "status"), (long long)id);
			continue;
		}
		if (s.dry_run) {
			printf("would copy run %lld (%.8s, %s)\n", (long long)id, str(r, "uuid"), str(r, "kind"));
			copied++;
			continue;
		}
		if ((err = copy_run(from, to, id, &new_id)) < 0) {
			ab_error_prefix("copying run %lld (%.8s); the %zu runs copied before it are kept",
					(long long)id, str(r, "uuid"), copied);
			rc = cmd_fail(err);
			goto out;
		}
		copied++;
		if (!s.quiet)
			printf("copied run %lld (%.8s) as run %lld\n", (long long)id, str(r, "uuid"),
			       (long long)new_id);
	}
	printf("%s %zu run%s from '%s' to '%s'; %zu already there%s", s.dry_run ? "would copy" : "copied",
	       copied, copied == 1 ? "" : "s", ab_store_path(from), ab_store_path(to), present,
	       unfinished ? ", " : "\n");
	if (unfinished)
		printf("%zu unfinished (not copied)\n", unfinished);
out:
	json_decref(there);
	json_decref(runs);
	json_decref(have);
	ab_store_close(from);
	ab_store_close(to);
	return rc;
}
