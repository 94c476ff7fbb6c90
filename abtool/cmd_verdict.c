/* cmd_verdict.c - `abtool verdict --group ID`: the shards of a group
 * (`abtool run --shard K/N --group ID`, measured on several hosts into one
 * store) decided together: their stored samples go through one analysis
 * and one evaluation of the rules, with the error control over every row,
 * and the reports say which host measured each row (docs/ci.md,
 * "Sharding"). The exit code gates as run's does (0 accepted, 1 rejected,
 * 2 inconclusive, 3 invalid); a group with a missing or unfinished shard
 * is incomplete: exit 2, never decided. Shards of different commits,
 * experiment texts or abtool versions are refused (64). Nothing is
 * stored. */
#include "cmd.h"
#include "error.h"
#include "report.h"
#include "rules.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct cmd_option cmd_verdict_options[] = {
	{"group", 'g', "ID", "the group the shards were run under (run --shard K/N --group ID)", NULL,
	 CMD_OWN, 'g', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OUTPUT_OPTIONS('q', 0),
	CMD_OPTIONS_END,
};

/* The shards of a group, one finished run per index, and what they share. */
struct group {
	const char *id;
	json_t *runs;        /* ab_store_group_runs */
	int count;           /* N of --shard K/N */
	json_t **shard;      /* count entries: the run measuring shard k + 1 (borrowed), or NULL */
};

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static int shard_int(const json_t *run, const char *key)
{
	return (int)json_integer_value(json_object_get(json_object_get(json_object_get(run, "options"),
								       "shard"), key));
}

/* 0 when every run of the group measured what the first did: the same
 * commits, experiment text, abtool version and shard count; else the
 * refusal (AB_EINVALID, naming both runs). */
static int check_same(const struct group *g)
{
	static const struct {
		const char *key, *what;
	} same[] = {
		{"parent_oid", "parent commit"}, {"candidate_oid", "candidate commit"},
		{"experiment_hash", "experiment text (its SHA-256)"}, {"abtool_version", "abtool version"},
	};
	const json_t *first = json_array_get(g->runs, 0), *r;
	size_t i, k;

	json_array_foreach(g->runs, i, r) {
		for (k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			if (strcmp(str(first, same[k].key), str(r, same[k].key)))
				return ab_error_set(AB_EINVALID, "group '%s': its shards ran different %ss: run "
						    "%lld has %s, run %lld has %s; the shards of a group must measure "
						    "one comparison: run every shard again under a new --group", g->id,
						    same[k].what, (long long)json_integer_value(json_object_get(first, "id")),
						    str(first, same[k].key),
						    (long long)json_integer_value(json_object_get(r, "id")),
						    str(r, same[k].key));
		if (shard_int(r, "count") != g->count)
			return ab_error_set(AB_EINVALID, "group '%s': run %lld is shard %d of %d, run %lld "
					    "of %d: the shards of a group split the matrix the same number of ways",
					    g->id, (long long)json_integer_value(json_object_get(first, "id")),
					    shard_int(first, "index"), g->count,
					    (long long)json_integer_value(json_object_get(r, "id")),
					    shard_int(r, "count"));
	}
	return 0;
}

/* Pick the newest finished run of each shard; print what is missing.
 * Returns 0 when every shard is there, else AB_EXIT_INCONCLUSIVE. */
static int pick_shards(struct group *g)
{
	json_t *r;
	size_t i;
	int k, missing = 0;

	json_array_foreach(g->runs, i, r) {
		k = shard_int(r, "index");
		if (k >= 1 && k <= g->count && !strcmp(str(r, "status"), "finished"))
			g->shard[k - 1] = r;
	}
	for (k = 1; k <= g->count; k++) {
		const json_t *unfinished = NULL;

		if (g->shard[k - 1])
			continue;
		json_array_foreach(g->runs, i, r)
			if (shard_int(r, "index") == k)
				unfinished = r;
		if (!missing++)
			fprintf(stderr, "abtool: group '%s' is incomplete, not decided: ", g->id);
		else
			fprintf(stderr, "; ");
		if (unfinished)
			fprintf(stderr, "shard %d/%d is run %lld, %s (finish it: abtool resume %lld)", k,
				g->count, (long long)json_integer_value(json_object_get(unfinished, "id")),
				str(unfinished, "status"),
				(long long)json_integer_value(json_object_get(unfinished, "id")));
		else
			fprintf(stderr, "shard %d/%d has no run (abtool run EXP.yaml --shard %d/%d --group %s)",
				k, g->count, k, g->count, g->id);
	}
	if (missing)
		fprintf(stderr, "\n");
	return missing ? AB_EXIT_INCONCLUSIVE : 0;
}

/* The experiment the shards ran, from the stored text (as resume reads it). */
static int load_experiment(struct ab_experiment *exp, const json_t *run)
{
	const json_t *opts = json_object_get(run, "options");
	const char *path = str(opts, "experiment_abspath"), *text = str(run, "experiment_text");
	int err;

	if ((err = ab_experiment_parse(exp, *path ? path : str(run, "experiment_path"), text,
				       strlen(text))) < 0)
		return err;
	if (*str(run, "design") && strcmp(str(run, "design"), exp->design)) {  /* run --design */
		free(exp->design);
		exp->design = ab_xstrdup(str(run, "design"));
	}
	if (json_is_integer(json_object_get(opts, "warmup")))
		exp->warmup = (int)json_integer_value(json_object_get(opts, "warmup"));
	return ab_experiment_plan_restore(exp, json_object_get(opts, "sequential"));
}

/* Every shard's samples in one array (new, samples and n), the host of each
 * row (`hosts`, nrows borrowed strings), the group member of the report
 * (new) and the integrity failures of invalid shards (`integrity`). */
static int load_samples(const struct group *g, struct ab_store *store, const struct ab_experiment *exp,
			struct ab_sample **samples, size_t *n, const char **hosts, json_t **group_json,
			char ***integrity)
{
	const char **names = ab_run_metric_names(exp);
	json_t *shards = json_array();
	int k, err = 0;

	for (k = 0; k < g->count && err == 0; k++) {
		const json_t *run = g->shard[k];
		json_t *host = json_loads(str(run, "host"), 0, NULL), *rows = json_array(), *obj;
		const char *hostname = json_string_value(json_object_get(host, "hostname"));
		int64_t id = json_integer_value(json_object_get(run, "id"));
		struct ab_sample *s = NULL;
		size_t ns = 0, i;

		if ((err = ab_store_samples_load(store, id, names, exp->nmetrics, &s, &ns)) == 0) {
			*samples = ab_xrealloc(*samples, (*n + ns) * sizeof(**samples));
			memcpy(*samples + *n, s, ns * sizeof(*s));  /* the members move with them */
			*n += ns;
			free(s);
		}
		obj = json_pack("{s:i, s:I, s:s, s:s, s:s, s:o}", "index", k + 1, "run_id", (json_int_t)id,
				"run_uuid", str(run, "uuid"), "hostname", hostname ? hostname : "",
				"verdict", str(run, "verdict"), "rows", rows);
		json_array_append_new(shards, obj);
		for (i = 0; i < ab_experiment_nrows(exp); i++)
			if (ab_experiment_shard_of(exp, i, (size_t)g->count, NULL) == (size_t)k + 1) {
				char *label = ab_row_label(exp, i);

				json_array_append_new(rows, json_string(label));
				free(label);
				hosts[i] = str(obj, "hostname");  /* lives as long as the group member */
			}
		if (!strcmp(str(run, "verdict"), "invalid")) {
			json_t *reasons = json_loads(str(run, "reasons"), 0, NULL);

			ab_strv_push(integrity, ab_xasprintf("shard %d/%d (run %lld) is invalid: %s", k + 1,
				g->count, (long long)id, json_array_size(reasons) ?
				json_string_value(json_array_get(reasons, 0)) : "see its report"));
			json_decref(reasons);
		}
		json_decref(host);
	}
	free(names);
	*group_json = json_pack("{s:s, s:i, s:o}", "id", g->id, "count", g->count, "shards", shards);
	return err;
}

/* Every row of the plan has measured pairs: a row whose shard is there
 * but whose samples are not (deleted from the store, or imported without
 * them) leaves the group incomplete, as a missing shard does. Returns 0,
 * or AB_EXIT_INCONCLUSIVE after saying which rows lack samples. */
static int check_rows_measured(const struct group *g, const struct ab_experiment *exp,
			       const struct ab_sample *samples, size_t n)
{
	size_t nrows = ab_experiment_nrows(exp), r, i, *done = ab_xcalloc(nrows, sizeof(*done));
	int missing = 0;

	for (i = 0; i < n; i++)
		if (samples[i].entry.pair >= 0 && samples[i].status == AB_SAMPLE_DONE &&
		    samples[i].entry.row < nrows)
			done[samples[i].entry.row]++;
	for (r = 0; r < nrows; r++) {
		size_t k = ab_experiment_shard_of(exp, r, (size_t)g->count, NULL);
		char *label;

		if (done[r])
			continue;
		label = ab_row_label(exp, r);
		if (!missing++)
			fprintf(stderr, "abtool: group '%s' is incomplete, not decided: no measured pair of row ",
				g->id);
		else
			fprintf(stderr, "; ");
		fprintf(stderr, "%s (shard %zu/%d, run %lld)", label, k, g->count,
			k >= 1 && k <= (size_t)g->count
			? (long long)json_integer_value(json_object_get(g->shard[k - 1], "id")) : 0LL);
		free(label);
	}
	if (missing)
		fprintf(stderr, "; the store lacks the samples of %d row%s of the plan: run %s again "
			"(abtool run EXP.yaml --shard K/N --group %s), or import its export\n", missing,
			missing == 1 ? "" : "s", missing == 1 ? "its shard" : "their shards", g->id);
	free(done);
	return missing ? AB_EXIT_INCONCLUSIVE : 0;
}

/* The report document of the combined analysis (new reference). The
 * revisions, builds and host come from the first shard's stored report. */
static json_t *group_document(const struct group *g, const struct ab_experiment *exp,
			      const struct ab_analysis *a, const struct ab_sample *samples, size_t n,
			      const char *const *hosts, const json_t *group_json)
{
	const json_t *first = g->shard[0];
	json_t *report = json_loads(str(first, "report"), 0, NULL);
	json_t *host = json_loads(str(first, "host"), 0, NULL), *doc;
	const json_t *par = json_object_get(report, "parent"), *cand = json_object_get(report, "candidate");
	struct ab_report_input in;
	char created[32], *reproduce, *quoted = ab_shell_quote(g->id, 0);

	reproduce = ab_xasprintf("abtool verdict --group %s", quoted);
	ab_utc_iso8601(created, sizeof(created), (int64_t)time(NULL));
	memset(&in, 0, sizeof(in));
	in.kind = "group";
	in.exp = exp;
	in.analysis = a;
	in.run_uuid = "";
	in.created_at = created;
	in.repo = exp->repo;
	in.parent_oid = str(first, "parent_oid");
	in.candidate_oid = str(first, "candidate_oid");
	in.parent_tree = str(first, "parent_tree");
	in.candidate_tree = str(first, "candidate_tree");
	in.parent_subject = json_string_value(json_object_get(par, "subject"));
	in.candidate_subject = json_string_value(json_object_get(cand, "subject"));
	in.exact_parent = (int)json_integer_value(json_object_get(first, "exact_parent"));
	in.seed = (uint64_t)json_integer_value(json_object_get(first, "seed"));
	in.builds = json_object_get(report, "builds");
	in.host = host;
	in.reproduce = reproduce;
	in.identity = json_string_value(json_object_get(report, "compiler_identity"));
	in.samples = samples;
	in.nsamples = n;
	in.group = group_json;
	in.row_hosts = hosts;
	doc = ab_report_document(&in);
	json_decref(report);
	json_decref(host);
	free(reproduce);
	free(quoted);
	return doc;
}

int cmd_verdict(int argc, char **argv)
{
	struct group g = {NULL, NULL, 0, NULL};
	struct ab_experiment exp;
	struct ab_analysis a;
	struct ab_store *store = NULL;
	struct ab_sample *samples = NULL;
	struct cmd_args args;
	const char **hosts = NULL;
	char **integrity = NULL;
	json_t *group_json = NULL, *doc = NULL;
	size_t n = 0;
	int err, rc;

	memset(&exp, 0, sizeof(exp));
	memset(&a, 0, sizeof(a));
	cmd_args_init(&args, "verdict", cmd_own_string, &g.id);
	if ((rc = cmd_parse_options(&args, cmd_verdict_options, argc, argv)) != CMD_GO_ON)
		goto out;
	if (optind != argc || !g.id || !*g.id) {
		rc = cmd_usage("verdict", "expected --group ID (the group the shards were run under)");
		goto out;
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_READ)) < 0 ||
	    (err = ab_store_group_runs(store, g.id, &g.runs)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (!json_array_size(g.runs)) {
		rc = cmd_fail(ab_error_set(AB_EINVALID, "no run of group '%s' in the store '%s': run the "
					   "shards with 'abtool run EXP.yaml --shard K/N --group %s' into this "
					   "store (or import their exports: abtool import)", g.id,
					   ab_store_path(store), g.id));
		goto out;
	}
	g.count = shard_int(json_array_get(g.runs, 0), "count");
	if ((err = check_same(&g)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	g.shard = ab_xcalloc((size_t)g.count, sizeof(*g.shard));
	if ((rc = pick_shards(&g)) != 0)
		goto out;
	if ((err = load_experiment(&exp, g.shard[0])) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	hosts = ab_xcalloc(ab_experiment_nrows(&exp), sizeof(*hosts));
	if ((err = load_samples(&g, store, &exp, &samples, &n, hosts, &group_json, &integrity)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if ((rc = check_rows_measured(&g, &exp, samples, n)) != 0)
		goto out;
	ab_analysis_run(&a, &exp, samples, n);
	ab_rules_evaluate(&a, integrity, NULL);
	doc = group_document(&g, &exp, &a, samples, n, hosts, group_json);
	rc = cmd_emit_reports(&args.out, &exp, samples, n, doc, a.verdict);
out:
	json_decref(doc);
	json_decref(group_json);
	ab_analysis_release(&a);
	ab_samples_free(samples, n);
	ab_experiment_release(&exp);
	ab_strv_free(integrity);
	free(hosts);
	free(g.shard);
	json_decref(g.runs);
	if (store)
		ab_store_close(store);
	cmd_args_release(&args);
	return rc;
}
