/* shards.c - a matrix split over hosts and decided together (shards.h). */
#include "shards.h"
#include "error.h"
#include "report.h"
#include "rules.h"
#include "run.h"
#include "util.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The shard (1-based) of every row when split `count` ways, as
 * ab_shards_of describes (new array of nrows); *units receives the number
 * of units. */
static size_t *shard_assign(const struct ab_experiment *exp, size_t count, size_t *units)
{
	size_t nrows = ab_experiment_nrows(exp), *load, *shard, *size, r, k, best;
	long *root;

	root = ab_xcalloc(nrows, sizeof(*root));
	size = ab_xcalloc(nrows, sizeof(*size));
	shard = ab_xcalloc(nrows, sizeof(*shard));
	load = ab_xcalloc(count, sizeof(*load));
	/* the unit of a row is its base row when a scaling predicate pairs them */
	for (r = 0; r < nrows; r++) {
		long base = ab_experiment_row_scales(exp, r) ? ab_experiment_scaling_base(exp, r) : -1;

		root[r] = base >= 0 ? base : (long)r;
		size[root[r]]++;
	}
	*units = 0;
	for (r = 0; r < nrows; r++) {
		if (!shard[root[r]]) {  /* the unit's first row: its shard */
			for (best = 0, k = 1; k < count; k++)
				if (load[k] < load[best])
					best = k;
			load[best] += size[root[r]];
			shard[root[r]] = best + 1;
			(*units)++;
		}
	}
	for (r = 0; r < nrows; r++)
		shard[r] = shard[root[r]];
	free(root);
	free(size);
	free(load);
	return shard;
}

size_t ab_shards_of(const struct ab_experiment *exp, size_t row, size_t count, size_t *units_out)
{
	size_t units, *shard = shard_assign(exp, count ? count : 1, &units);
	size_t out = row < ab_experiment_nrows(exp) ? shard[row] : 1;

	if (units_out)
		*units_out = units;
	free(shard);
	return out;
}

int ab_shards_select(struct ab_experiment *exp, int index, int count)
{
	size_t nrows = ab_experiment_nrows(exp), r, units = 0, n = 0, *shard;
	uint8_t *mask;

	if (count < 1 || index < 1 || index > count)
		return ab_error_set(AB_EINVALID, "--shard %d/%d: expected K/N with 1 <= K <= N", index, count);
	if (exp->row_subset)
		return ab_error_set(AB_EINVALID, "--shard and --row do not combine: a shard is a subset "
				    "of the matrix already");
	shard = shard_assign(exp, (size_t)count, &units);
	mask = ab_xcalloc(nrows, 1);
	for (r = 0; r < nrows; r++)
		n += mask[r] = shard[r] == (size_t)index;
	free(shard);
	if (n == 0) {
		free(mask);
		return ab_error_set(AB_EINVALID, "--shard %d/%d: this shard has no row to measure: the "
				    "experiment's %zu row%s make %zu unit%s (a row stays with the base row a "
				    "scaling predicate pairs it with), so at most %zu shards", index, count,
				    nrows, nrows == 1 ? "" : "s", units, units == 1 ? "" : "s", units);
	}
	exp->row_subset = mask;
	exp->shard_index = index;
	exp->shard_count = count;
	return 0;
}

char *ab_shards_reproduce_args(const struct ab_experiment *exp, const char *group)
{
	char *quoted, *out;

	if (!exp->shard_count)
		return ab_xstrdup("");
	quoted = group ? ab_shell_quote(group, 0) : NULL;
	out = ab_xasprintf(" --shard %d/%d%s%s", exp->shard_index, exp->shard_count,
			   quoted ? " --group " : "", quoted ? quoted : "");
	free(quoted);
	return out;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static int64_t run_id(const json_t *run)
{
	return (int64_t)json_integer_value(json_object_get(run, "id"));
}

static int shard_int(const json_t *run, const char *key)
{
	return (int)json_integer_value(json_object_get(json_object_get(json_object_get(run, "options"),
								       "shard"), key));
}

/* 0 when every run of the group measured what the first did: the same
 * commits, experiment text, abtool version and shard count; else the
 * refusal (AB_EINVALID, naming both runs). */
static int check_same(const struct ab_shards_group *g)
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
						    same[k].what, (long long)run_id(first), str(first, same[k].key),
						    (long long)run_id(r), str(r, same[k].key));
		if (shard_int(r, "count") != g->count)
			return ab_error_set(AB_EINVALID, "group '%s': run %lld is shard %d of %d, run %lld "
					    "of %d: the shards of a group split the matrix the same number of ways",
					    g->id, (long long)run_id(first), shard_int(first, "index"), g->count,
					    (long long)run_id(r), shard_int(r, "count"));
	}
	return 0;
}

/* Pick the newest finished run of each shard; list what is missing. */
static void pick_shards(struct ab_shards_group *g)
{
	char *quoted = ab_shell_quote(g->id, 0);
	json_t *r;
	size_t i;
	int k;

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
		if (unfinished)
			ab_strv_push(&g->missing, ab_xasprintf("shard %d/%d is run %lld, %s (finish it: abtool "
							       "resume %lld)", k, g->count,
							       (long long)run_id(unfinished), str(unfinished, "status"),
							       (long long)run_id(unfinished)));
		else
			ab_strv_push(&g->missing, ab_xasprintf("shard %d/%d has no run (abtool run EXP.yaml "
							       "--shard %d/%d --group %s)", k, g->count, k,
							       g->count, quoted));
	}
	free(quoted);
}

int ab_shards_group_load(struct ab_shards_group *g, struct ab_store *store, const char *id)
{
	int err;

	memset(g, 0, sizeof(*g));
	g->id = ab_xstrdup(id);
	if ((err = ab_store_group_runs(store, id, &g->runs)) < 0)
		return err;
	if (!json_array_size(g->runs))
		return ab_error_set(AB_EINVALID, "no run of group '%s' in the store '%s': run the shards with "
				    "'abtool run EXP.yaml --shard K/N --group %s' into this store (or import "
				    "their exports: abtool import)", id, ab_store_path(store), id);
	g->count = shard_int(json_array_get(g->runs, 0), "count");
	if ((err = check_same(g)) < 0)
		return err;
	g->shard = ab_xcalloc(g->count > 0 ? (size_t)g->count : 1, sizeof(*g->shard));
	pick_shards(g);
	return 0;
}

void ab_shards_group_release(struct ab_shards_group *g)
{
	free(g->id);
	json_decref(g->runs);
	free(g->shard);
	ab_strv_free(g->missing);
	memset(g, 0, sizeof(*g));
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

/* Every shard's samples in one array, the host of each row (`hosts`,
 * nrows borrowed strings), the group member of the report (new) and the
 * integrity failures of invalid shards (`integrity`). A row of a shard
 * with no sample at all is listed in out->incomplete. */
static int load_samples(struct ab_shards_decision *out, const struct ab_shards_group *g,
			struct ab_store *store, const char **hosts, json_t **group_json, char ***integrity)
{
	const struct ab_experiment *exp = &out->exp;
	const char **names = ab_run_metric_names(exp);
	size_t nrows = ab_experiment_nrows(exp);
	json_t *shards = json_array();
	int k, err = 0;

	for (k = 0; k < g->count && err == 0; k++) {
		const json_t *run = g->shard[k];
		json_t *host = json_loads(str(run, "host"), 0, NULL), *rows = json_array(), *obj;
		const char *hostname = json_string_value(json_object_get(host, "hostname"));
		int64_t id = run_id(run);
		struct ab_sample *s = NULL;
		size_t ns = 0, i, r;
		uint8_t *has = ab_xcalloc(nrows ? nrows : 1, 1);

		if ((err = ab_store_samples_load(store, id, names, exp->nmetrics, &s, &ns)) == 0) {
			for (i = 0; i < ns; i++)
				if (s[i].entry.row < nrows && s[i].entry.pair >= 0 && s[i].status == AB_SAMPLE_DONE)
					has[s[i].entry.row] = 1;
			out->samples = ab_xrealloc(out->samples, (out->nsamples + ns) * sizeof(*out->samples));
			memcpy(out->samples + out->nsamples, s, ns * sizeof(*s));  /* the members move */
			out->nsamples += ns;
			free(s);
		}
		obj = json_pack("{s:i, s:I, s:s, s:s, s:s, s:o}", "index", k + 1, "run_id", (json_int_t)id,
				"run_uuid", str(run, "uuid"), "hostname", hostname ? hostname : "",
				"verdict", str(run, "verdict"), "rows", rows);
		json_array_append_new(shards, obj);
		for (r = 0; r < nrows; r++) {
			char *label;

			if (ab_shards_of(exp, r, (size_t)g->count, NULL) != (size_t)k + 1)
				continue;
			label = ab_row_label(exp, r);
			json_array_append_new(rows, json_string(label));
			hosts[r] = str(obj, "hostname");  /* lives as long as the group member */
			if (err == 0 && !has[r])
				ab_strv_push(&out->incomplete, ab_xasprintf("no measured pair of row %s (shard "
									    "%d/%d, run %lld)", label, k + 1,
									    g->count, (long long)id));
			free(label);
		}
		free(has);
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

/* The report document of the combined analysis (new reference). The
 * revisions, builds and host come from the first shard's stored report. */
static json_t *group_document(const struct ab_shards_group *g, const struct ab_shards_decision *d,
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
	in.exp = &d->exp;
	in.analysis = &d->analysis;
	in.run_uuid = "";
	in.created_at = created;
	in.repo = d->exp.repo;
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
	in.samples = d->samples;
	in.nsamples = d->nsamples;
	in.group = group_json;
	in.row_hosts = hosts;
	doc = ab_report_document(&in);
	json_decref(report);
	json_decref(host);
	free(reproduce);
	free(quoted);
	return doc;
}

int ab_shards_decide(struct ab_shards_decision *out, const struct ab_shards_group *g, struct ab_store *store)
{
	const char **hosts = NULL;
	char **integrity = NULL;
	json_t *group_json = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	assert(g->count > 0 && !g->missing);
	if ((err = load_experiment(&out->exp, g->shard[0])) < 0)
		return err;
	hosts = ab_xcalloc(ab_experiment_nrows(&out->exp) + 1, sizeof(*hosts));
	if ((err = load_samples(out, g, store, hosts, &group_json, &integrity)) == 0 && !out->incomplete) {
		ab_analysis_run(&out->analysis, &out->exp, out->samples, out->nsamples);
		ab_rules_evaluate(&out->analysis, integrity, NULL);
		out->doc = group_document(g, out, hosts, group_json);
	}
	json_decref(group_json);
	ab_strv_free(integrity);
	free(hosts);
	return err;
}

void ab_shards_decision_release(struct ab_shards_decision *d)
{
	json_decref(d->doc);
	ab_analysis_release(&d->analysis);
	ab_samples_free(d->samples, d->nsamples);
	ab_experiment_release(&d->exp);
	ab_strv_free(d->incomplete);
	memset(d, 0, sizeof(*d));
}
