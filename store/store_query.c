/* store_query.c - the store's queries of runs: one run, the same
 * comparison, a run named by the user, the latest calibration, earlier
 * sample times, and the rejected designs a new one resembles (see
 * store.h). */
#include "store.h"
#include "store_core.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ab_store_run_get(struct ab_store *store, int64_t run_id, json_t **out)
{
	struct ab_db_stmt *st;
	json_t *run = NULL, *builds;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st,
			   "SELECT r.*, d.name AS design, d.project AS project, e.hash AS experiment_hash, e.name AS "
			   "experiment_name, e.path AS experiment_path, e.text AS experiment_text, "
			   "e.hypothesis AS hypothesis FROM runs r JOIN designs d ON d.id = r.design_id "
			   "JOIN experiments e ON e.id = r.experiment_id WHERE r.id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW)
		run = ab_db_row_object(st);
	else if (rc == AB_DB_DONE)
		err = ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
				   "'abtool history'", store->path, (long long)run_id);
	else
		err = ab_db_error(store, "reading the run");
	ab_db_finalize(st);
	if (err)
		return err;

	builds = json_array();
	json_object_set_new(run, "builds", builds);
	if ((err = ab_db_prepare(store, &st, "SELECT * FROM builds WHERE run_id = ?1 ORDER BY side DESC")) < 0)
		goto out_free;
	ab_db_bind_int64(st, 1, run_id);
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		json_array_append_new(builds, ab_db_row_object(st));
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading builds");
	ab_db_finalize(st);
	if (err)
		goto out_free;
	*out = run;
	return 0;
out_free:
	json_decref(run);
	return err;
}

int ab_store_same_comparison(struct ab_store *store, const char *experiment_hash,
			     const char *parent_oid, const char *candidate_oid,
			     const char *inputs_hash, int64_t exclude_run, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = json_array();
	if ((err = ab_db_prepare(store, &st,
			   "SELECT r.id, r.created_at, r.verdict, r.options FROM runs r JOIN experiments e "
			   "ON e.id = r.experiment_id WHERE e.hash = ?1 AND e.project = ?5 AND "
			   "r.parent_oid = ?2 AND r.candidate_oid = ?3 AND r.id != ?4 AND "
			   "r.status = 'finished' ORDER BY r.id")) < 0)
		return err;
	ab_db_bind_text(st, 5, store->project);
	ab_db_bind_text(st, 1, experiment_hash);
	ab_db_bind_text(st, 2, parent_oid);
	ab_db_bind_text(st, 3, candidate_oid);
	ab_db_bind_int64(st, 4, exclude_run);
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = ab_db_row_object(st);
		json_t *opts = json_loads(json_string_value(json_object_get(o, "options")) ?
					  json_string_value(json_object_get(o, "options")) : "{}", 0, NULL);
		const char *theirs = json_string_value(json_object_get(opts, "inputs_hash"));

		/* the inputs outside the trees are part of what was compared */
		json_object_del(o, "options");
		if (!strcmp(theirs ? theirs : "", inputs_hash ? inputs_hash : ""))
			json_array_append_new(*out, o);
		else
			json_decref(o);
		json_decref(opts);
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading earlier runs");
	ab_db_finalize(st);
	return err;
}

int ab_store_group_runs(struct ab_store *store, const char *group, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = json_array();
	/* a coarse filter in SQL, the exact one on the parsed options */
	if ((err = ab_db_prepare(store, &st,
			   "SELECT r.id, r.uuid, r.created_at, r.status, r.verdict, r.reasons, r.parent_oid, "
			   "r.candidate_oid, r.parent_tree, r.candidate_tree, r.exact_parent, r.seed, "
			   "r.abtool_version, e.hash AS experiment_hash, e.text AS experiment_text, "
			   "e.path AS experiment_path, d.name AS design, r.host, r.options, r.report FROM runs r "
			   "JOIN experiments e ON e.id = r.experiment_id JOIN designs d ON d.id = r.design_id "
			   "WHERE r.options LIKE '%\"group\":%' ORDER BY r.id")) < 0)
		return err;
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = ab_db_row_object(st);
		const char *text = json_string_value(json_object_get(o, "options"));
		json_t *opts = json_loads(text ? text : "{}", 0, NULL);
		const char *theirs = json_string_value(json_object_get(opts, "group"));

		if (theirs && !strcmp(theirs, group)) {
			json_object_set_new(o, "options", opts);
			json_array_append_new(*out, o);
		} else {
			json_decref(opts);
			json_decref(o);
		}
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading the group's runs");
	ab_db_finalize(st);
	return err;
}

/* The run whose uuid starts with text, or "latest" (AB_ENOTFOUND, message
 * set, when there is none). */
static int resolve_name(struct ab_store *store, const char *text, int64_t *out)
{
	struct ab_db_stmt *st;
	int err, rc;

	if (!strcmp(text, "latest"))
		err = ab_db_prepare(store, &st, "SELECT max(id) FROM runs");
	else if ((err = ab_db_prepare(store, &st, "SELECT id FROM runs WHERE uuid LIKE lower(?1) || '%'"))
		 == 0)
		ab_db_bind_text(st, 1, text);  /* "latest" has no parameter to bind */
	if (err < 0)
		return err;
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW && ab_db_column_type(st, 0) != AB_DB_NULL) {
		*out = ab_db_column_int64(st, 0);
		if (ab_db_step(st) == AB_DB_ROW)
			err = ab_error_set(AB_EINVALID, "run '%s' is ambiguous; give more of its uuid", text);
	} else if (rc == AB_DB_ROW || rc == AB_DB_DONE) {
		err = ab_error_set(AB_ENOTFOUND, "no run '%s' in the store '%s'; list runs with "
				   "'abtool history'", text, store->path);
	} else {
		err = ab_db_error(store, "finding the run");
	}
	ab_db_finalize(st);
	return err;
}

int ab_store_run_resolve(struct ab_store *store, const char *text, int64_t *out)
{
	struct ab_db_stmt *st;
	int64_t id;
	int err, rc;

	if (ab_parse_int64(&id, text) != 0 || id <= 0)
		return resolve_name(store, text, out);
	/* Digits are a run id; but a uuid prefix may be all digits too (one
	 * in 43 of 8 hex digits is): with 7 digits or more, and no run of
	 * that id, try it as one. */
	*out = id;
	if (strlen(text) < 7)
		return 0;
	if ((err = ab_db_prepare(store, &st, "SELECT count(*) FROM runs WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	rc = ab_db_step(st);
	if (rc != AB_DB_ROW)
		err = ab_db_error(store, "finding the run");
	else if (ab_db_column_int64(st, 0) > 0)
		err = 1;
	ab_db_finalize(st);
	if (err)
		return err < 0 ? err : 0;
	err = resolve_name(store, text, &id);
	if (err == AB_ENOTFOUND) {
		/* "store ... has no run N" later, as for any unknown id */
		ab_error_clear();
		return 0;
	}
	if (err == 0)
		*out = id;
	return err;
}

int ab_store_latest_calibration(struct ab_store *store, const char *experiment_hash, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st,
			   "SELECT r.report FROM runs r JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE e.hash = ?1 AND e.project = ?2 AND r.kind = 'calibrate' "
			   "AND r.status = 'finished' AND r.report IS NOT NULL ORDER BY r.id DESC LIMIT 1")) < 0)
		return err;
	ab_db_bind_text(st, 2, store->project);
	ab_db_bind_text(st, 1, experiment_hash);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW)
		*out = json_loads(ab_db_column_text(st, 0), 0, NULL);
	else if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading the calibration");
	ab_db_finalize(st);
	return err;
}

int ab_store_sample_times(struct ab_store *store, const char *experiment_hash, size_t nrows,
			  double *row_mean_ns, int64_t *runs)
{
	struct ab_db_stmt *st;
	size_t i;
	int err, rc;

	for (i = 0; i < nrows; i++)
		row_mean_ns[i] = NAN;
	*runs = 0;
	if ((err = ab_db_prepare(store, &st,
			   "SELECT s.row_idx, avg(s.wall_ns), count(DISTINCT s.run_id) FROM samples s "
			   "JOIN runs r ON r.id = s.run_id JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE e.hash = ?1 AND e.project = ?2 AND s.status = 1 GROUP BY s.row_idx")) < 0)
		return err;
	ab_db_bind_text(st, 2, store->project);
	ab_db_bind_text(st, 1, experiment_hash);
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		int64_t row = ab_db_column_int64(st, 0);
		if (row >= 0 && (size_t)row < nrows)
			row_mean_ns[row] = ab_db_column_double(st, 1);
		if (ab_db_column_int64(st, 2) > *runs)
			*runs = ab_db_column_int64(st, 2);
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading earlier sample times");
	ab_db_finalize(st);
	return err;
}

static void append_memory(struct ab_db_stmt *st, json_t *out, int same)
{
	json_t *reasons = json_loads(ab_db_column_text(st, 5) ? ab_db_column_text(st, 5)
									  : "[]", 0, NULL);

	json_array_append_new(out, json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:b, s:b}",
		"id", (json_int_t)ab_db_column_int64(st, 0),
		"created_at", ab_db_column_text(st, 1),
		"design", ab_db_column_text(st, 2),
		"experiment", ab_db_column_text(st, 3),
		"verdict", ab_db_column_text(st, 4),
		"reason", json_is_string(json_array_get(reasons, 0)) ? json_string_value(json_array_get(reasons, 0)) : "",
		"same_design", same,
		"identical_artifacts", ab_db_column_int64(st, 6) != 0));
	json_decref(reasons);
}

/* Which of `words` (n of them) are the first with their full-text term:
 * the search table's tokenizer (Porter stemming) makes "thread" and
 * "threads" one term, which must count once. The words are tokenized by
 * the engine itself, in a word table (AB_DB_SQL_WORDS_*; sqlite: FTS5
 * read back through fts5vocab). Sets keep[i] to 1 for each word to keep. */
static int distinct_terms(struct ab_store *store, char *const *words, size_t n, int *keep)
{
	struct ab_db_stmt *st = NULL;
	size_t i;
	int err, rc;

	for (i = 0; i < n; i++)
		keep[i] = 1;
	if ((err = ab_db_exec(store, ab_db_sql(store, AB_DB_SQL_WORDS_SETUP),
			      "stemming the design's words")) < 0 ||
	    (err = ab_db_prepare(store, &st, ab_db_sql(store, AB_DB_SQL_WORDS_ADD))) < 0)
		return err;
	for (i = 0; i < n && !err; i++) {
		ab_db_bind_int64(st, 1, (int64_t)i);
		ab_db_bind_text(st, 2, words[i]);
		err = ab_db_step_done(store, st, "stemming the design's words");
		ab_db_reset(st);
	}
	ab_db_finalize(st);
	st = NULL;
	if (err < 0 || (err = ab_db_prepare(store, &st, ab_db_sql(store, AB_DB_SQL_WORDS_REPEATED))) < 0)
		goto out;
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		int64_t doc = ab_db_column_int64(st, 0);
		if (doc >= 0 && (size_t)doc < n)
			keep[doc] = 0;
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "stemming the design's words");
out:
	ab_db_finalize(st);
	store->engine->exec(store->db, ab_db_sql(store, AB_DB_SQL_WORDS_CLEAR));
	return err;
}

int ab_store_rejected_memory(struct ab_store *store, const char *design, char *const *words,
			     json_t **out)
{
	struct ab_db_stmt *st = NULL;
	char *query = NULL, *next;
	char *const *w;
	const char *words_kept[64];
	size_t nwords = 0, nkept = 0, i;
	int err, rc, *keep = NULL;

	*out = json_array();
	if ((err = ab_db_prepare(store, &st,
			   "SELECT r.id, r.created_at, d.name, e.name, r.verdict, r.reasons, "
			   AB_SQL_IDENTICAL_ARTIFACTS("r") " FROM runs r "
			   "JOIN designs d ON d.id = r.design_id JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE d.name = ?1 AND d.project = ?2 AND r.verdict = 'rejected' "
			   "AND r.kind NOT IN ('compare', 'bisect') ORDER BY r.id DESC LIMIT 5")) < 0)
		goto out;
	ab_db_bind_text(st, 1, design);
	ab_db_bind_text(st, 2, store->project);
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		append_memory(st, *out, 1);
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "reading rejected runs");
		goto out;
	}
	ab_db_finalize(st);
	st = NULL;

	/* One FTS5 query per word, each word an FTS5 string (double quotes
	 * doubled), so user text is searched for, never parsed as query
	 * syntax. A design is similar when its own texts (experiment names
	 * and hypotheses, its name, notes; not verdict reasons, which every
	 * run words alike) hold at least two different words of the new
	 * design's (its only word, when it has one): one shared word like
	 * "threads" or "cache" is common in performance work and says
	 * nothing. The best matches first: more shared words, then the best
	 * bm25 rank of a matching document. */
	for (w = words; w && *w && nwords < sizeof(words_kept) / sizeof(words_kept[0]); w++)
		nwords++;
	if (!nwords)
		goto out;
	keep = ab_xcalloc(nwords, sizeof(*keep));
	if ((err = distinct_terms(store, words, nwords, keep)) < 0)
		goto out;
	for (i = 0; i < nwords; i++)
		if (keep[i])
			words_kept[nkept++] = words[i];
	for (i = 0; i < nkept; i++) {
		char *match = ab_xasprintf(ab_db_sql(store, AB_DB_SQL_MEMORY_MATCH), i, i + 4);
		next = ab_xasprintf("%s%s%s", query ? query : "", query ? " UNION ALL " : "", match);
		free(match);
		free(query);
		query = next;
	}
	next = ab_xasprintf(
			   "WITH m AS (%s), "
			   "d AS (SELECT CASE doc %% 4 "
			   "  WHEN 0 THEN (SELECT design_id FROM experiments WHERE id = doc / 4) "
			   "  WHEN 1 THEN doc / 4 "
			   "  ELSE (SELECT coalesce(n.design_id, (SELECT design_id FROM runs x WHERE x.id = n.run_id)) "
			   "        FROM notes n WHERE n.id = doc / 4) END AS design_id, word, rank FROM m), "
			   "best AS (SELECT design_id, count(DISTINCT word) AS shared, min(rank) AS rank FROM d "
			   "  WHERE design_id IS NOT NULL GROUP BY design_id HAVING count(DISTINCT word) >= ?1) "
			   "SELECT r.id, r.created_at, g.name, e.name, r.verdict, r.reasons, "
			   AB_SQL_IDENTICAL_ARTIFACTS("r") " FROM best "
			   "JOIN designs g ON g.id = best.design_id AND g.project = ?3 "
			   "JOIN runs r ON r.id = (SELECT id FROM runs WHERE design_id = g.id AND verdict = 'rejected' "
			   "  AND kind NOT IN ('compare', 'bisect') "
			   "  ORDER BY id DESC LIMIT 1) "
			   "JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE g.name != ?2 ORDER BY best.shared DESC, best.rank LIMIT 3", query);
	free(query);
	query = next;
	if ((err = ab_db_prepare(store, &st, query)) < 0)
		goto out;
	ab_db_bind_int64(st, 1, nkept < 2 ? (int)nkept : 2);
	ab_db_bind_text(st, 2, design);
	ab_db_bind_text(st, 3, store->project);
	for (i = 0; i < nkept; i++) {
		char *quoted = store->engine->search_term(words_kept[i], strlen(words_kept[i]), 0);
		ab_db_bind_text(st, (int)i + 4, quoted);
		free(quoted);
	}
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		append_memory(st, *out, 0);
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "searching rejected designs");
out:
	ab_db_finalize(st);
	free(query);
	free(keep);
	if (err) {
		json_decref(*out);
		*out = NULL;
	}
	return err;
}

int ab_store_run_uuids(struct ab_store *store, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st, "SELECT id, uuid, status, kind FROM runs ORDER BY id")) < 0)
		return err;
	*out = json_array();
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		json_array_append_new(*out, ab_db_row_object(st));
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "listing the runs");
		json_decref(*out);
		*out = NULL;
	}
	ab_db_finalize(st);
	return err;
}

int ab_store_unfinished_cache_keys(struct ab_store *store, char ***out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st,
			   "SELECT DISTINCT b.cache_key FROM builds b JOIN runs r ON r.id = b.run_id "
			   "WHERE r.status IN ('running', 'interrupted') ORDER BY b.cache_key")) < 0)
		return err;
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		ab_strv_push(out, ab_xstrdup(ab_db_column_text(st, 0)));
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "reading the unfinished runs' builds");
		ab_strv_free(*out);
		*out = NULL;
	}
	ab_db_finalize(st);
	return err;
}
