/* store_write.c - the store's writes: a run and its plan, builds,
 * dependencies, samples (store_sample.c spells the row), a run's status,
 * host fingerprint and finish (see store.h). */
#include "store.h"
#include "store_core.h"
#include "store_sample.h"
#include "store_search.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static int experiment_id(struct ab_store *store, const struct ab_run_meta *m, int64_t design,
			 int64_t *out)
{
	struct ab_db_stmt *st;
	char now[32];
	int err;

	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st,
			   "INSERT INTO experiments(project, hash, name, design_id, hypothesis, path, text, "
			   "created_at) VALUES (?8, ?1, ?2, ?3, ?4, ?5, ?6, ?7) "
			   "ON CONFLICT(project, hash) DO UPDATE SET hash = excluded.hash RETURNING id")) < 0)
		return err;
	ab_db_bind_text(st, 1, m->experiment_hash);
	ab_db_bind_text(st, 2, m->experiment_name);
	ab_db_bind_int64(st, 3, design);
	ab_db_bind_text(st, 4, m->hypothesis);
	ab_db_bind_text(st, 5, m->experiment_path);
	ab_db_bind_text(st, 6, m->experiment_text);
	ab_db_bind_text(st, 7, now);
	ab_db_bind_text(st, 8, m->project ? m->project : store->project);
	if (ab_db_step(st) != AB_DB_ROW)
		err = ab_db_error(store, "adding the experiment");
	else
		*out = ab_db_column_int64(st, 0);
	ab_db_finalize(st);
	return err;
}

static int insert_plan(struct ab_store *store, int64_t run_id, const struct ab_plan_entry *e,
		       size_t n)
{
	struct ab_db_stmt *st;
	char *sql = ab_sample_sql_insert();
	size_t i;
	int err = ab_db_prepare(store, &st, sql);

	free(sql);
	if (err < 0)
		return err;
	for (i = 0; i < n && !err; i++) {
		ab_sample_bind_plan(st, run_id, &e[i]);
		err = ab_db_step_done(store, st, "storing the plan");
		ab_db_reset(st);
		if (!err)
			err = ab_db_cancelled(store, i, "storing the plan");
	}
	ab_db_finalize(st);
	return err;
}

int ab_store_run_create(struct ab_store *store, struct ab_run_meta *m, const struct ab_plan *plan)
{
	struct ab_db_stmt *st = NULL;
	int64_t design = 0, experiment = 0;
	char now[32];
	size_t i;
	int err;

	ab_store_now_iso(now);
	memcpy(m->created_at, now, sizeof(now));
	ab_store_new_uuid(m->uuid);
	if ((err = ab_db_begin(store, 1, "starting the run")) < 0)
		return err;
	if ((err = ab_store_design_id(store, m->project ? m->project : store->project, m->design, NULL,
				      &design)) < 0 ||
	    (err = experiment_id(store, m, design, &experiment)) < 0 ||
	    (err = ab_db_prepare(store, &st,
			   "INSERT INTO runs(uuid, experiment_id, design_id, kind, created_at, status, repo, "
			   "parent_oid, candidate_oid, parent_tree, candidate_tree, exact_parent, seed, "
			   "pairs, warmup, host, abtool_version, options, sides) VALUES (?1, ?2, ?3, ?4, ?5, "
			   "'running', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)")) < 0)
		goto out_rollback;
	ab_db_bind_text(st, 1, m->uuid);
	ab_db_bind_int64(st, 2, experiment);
	ab_db_bind_int64(st, 3, design);
	ab_db_bind_text(st, 4, m->kind ? m->kind : "ab");
	ab_db_bind_text(st, 5, now);
	ab_db_bind_text(st, 6, m->repo);
	ab_db_bind_text(st, 7, m->parent_oid);
	ab_db_bind_text(st, 8, m->candidate_oid);
	ab_db_bind_text(st, 9, m->parent_tree);
	ab_db_bind_text(st, 10, m->candidate_tree);
	ab_db_bind_int64(st, 11, m->exact_parent);
	ab_db_bind_int64(st, 12, (int64_t)m->seed);
	ab_db_bind_int64(st, 13, m->pairs);
	ab_db_bind_int64(st, 14, m->warmup);
	ab_db_bind_text(st, 15, m->host_json);
	ab_db_bind_text(st, 16, ABTOOL_VERSION);
	ab_db_bind_text(st, 17, m->options_json);
	ab_db_bind_text(st, 18, m->sides_json);
	if ((err = ab_db_step_done(store, st, "adding the run")) < 0)
		goto out_rollback;
	m->id = store->engine->last_insert_id(store->db);
	ab_db_finalize(st);
	st = NULL;

	if ((err = ab_db_prepare(store, &st, "INSERT INTO rows(run_id, idx, params) VALUES (?1, ?2, ?3)")) < 0)
		goto out_rollback;
	for (i = 0; i < m->nrows; i++) {
		ab_db_bind_int64(st, 1, m->id);
		ab_db_bind_int64(st, 2, (int64_t)i);
		ab_db_bind_text(st, 3, m->row_params_json[i]);
		if ((err = ab_db_step_done(store, st, "storing the rows")) < 0 ||
		    (err = ab_db_cancelled(store, i, "storing the rows")) < 0)
			goto out_rollback;
		ab_db_reset(st);
	}
	ab_db_finalize(st);
	st = NULL;
	if ((err = insert_plan(store, m->id, plan->entries, plan->n)) < 0)
		goto out_rollback;
	if ((err = ab_db_commit(store, "storing the plan")) < 0)
		goto out_rollback;
	return 0;
out_rollback:
	ab_db_finalize(st);
	ab_db_rollback(store);
	m->id = 0;  /* rolled back: there is no such run */
	return err;
}

int ab_store_run_dependencies_put(struct ab_store *store, int64_t run_id, const json_t *deps)
{
	struct ab_db_stmt *st;
	size_t i;
	json_t *d;
	int err;

	if ((err = ab_db_prepare(store, &st,
			   "INSERT INTO run_dependencies(run_id, name, repo, parent_oid, candidate_oid) "
			   "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(run_id, name) DO UPDATE SET "
			   "repo = excluded.repo, parent_oid = excluded.parent_oid, "
			   "candidate_oid = excluded.candidate_oid")) < 0)
		return err;
	json_array_foreach((json_t *)deps, i, d) {
		ab_db_bind_int64(st, 1, run_id);
		ab_db_bind_text(st, 2, json_string_value(json_object_get(d, "name")));
		ab_db_bind_text(st, 3, json_string_value(json_object_get(d, "repo")));
		ab_db_bind_text(st, 4, json_string_value(json_object_get(d, "parent_oid")));
		ab_db_bind_text(st, 5, json_string_value(json_object_get(d, "candidate_oid")));
		if ((err = ab_db_step_done(store, st, "storing the dependencies")) < 0)
			break;
		ab_db_reset(st);
	}
	ab_db_finalize(st);
	return err;
}

int ab_store_build_put(struct ab_store *store, int64_t run_id, const struct ab_build_record *b)
{
	struct ab_db_stmt *st;
	int err;

	if ((err = ab_db_prepare(store, &st,
			   "INSERT INTO builds(run_id, side, commit_oid, tree_oid, cache_key, dir, "
			   "command, cached, status, duration_ns, log, artifacts) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) "
			   "ON CONFLICT(run_id, side) DO UPDATE SET commit_oid = excluded.commit_oid, "
			   "tree_oid = excluded.tree_oid, cache_key = excluded.cache_key, dir = excluded.dir, "
			   "command = excluded.command, cached = excluded.cached, status = excluded.status, "
			   "duration_ns = excluded.duration_ns, log = excluded.log, "
			   "artifacts = excluded.artifacts")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, b->side);
	ab_db_bind_text(st, 3, b->commit_oid);
	ab_db_bind_text(st, 4, b->tree_oid);
	ab_db_bind_text(st, 5, b->cache_key);
	ab_db_bind_text(st, 6, b->dir);
	ab_db_bind_text(st, 7, b->command);
	ab_db_bind_int64(st, 8, b->cached);
	ab_db_bind_text(st, 9, b->status);
	ab_db_bind_int64(st, 10, b->duration_ns);
	ab_db_bind_text(st, 11, b->log);
	ab_db_bind_text(st, 12, b->artifacts_json);
	err = ab_db_step_done(store, st, "storing a build");
	ab_db_finalize(st);
	return err;
}

int ab_store_sample_put(struct ab_store *store, int64_t run_id, const struct ab_sample *s,
			const char *const *metric_names)
{
	struct ab_db_stmt *st = store->sample_put;
	int err;

	ab_sample_bind(st, run_id, s, metric_names);
	err = ab_db_step_done(store, st, "storing a sample");
	if (!err && store->engine->changes(store->db) != 1)
		err = ab_error_set(AB_EIO, "store '%s': run %lld has no planned sample %u",
				   store->path, (long long)run_id, s->entry.seq);
	ab_db_reset(st);
	return err;
}

int ab_store_samples_load(struct ab_store *store, int64_t run_id,
			  const char *const *metric_names, size_t nmetrics,
			  struct ab_sample **out, size_t *n)
{
	struct ab_db_stmt *st;
	struct ab_sample *v = NULL;
	size_t count = 0, alloc = 0;
	char *sql = ab_sample_sql_select();
	int err = ab_db_prepare(store, &st, sql), rc;

	*out = NULL;
	*n = 0;
	free(sql);
	if (err < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		AB_GROW(v, alloc, count + 1);
		ab_sample_read(st, &v[count++], metric_names, nmetrics);
		if ((err = ab_db_cancelled(store, count, "reading the samples")) < 0)
			break;
	}
	if (err < 0) {
		ab_samples_free(v, count);
	} else if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "reading samples");
		ab_samples_free(v, count);
	} else {
		*out = v;
		*n = count;
	}
	ab_db_finalize(st);
	return err;
}

/* Set samples `seqs` of a run to `status` in one transaction; `what` names
 * the step in messages. */
static int samples_set_status(struct ab_store *store, int64_t run_id, const uint32_t *seqs,
			      size_t n, int status, const char *what)
{
	struct ab_db_stmt *st;
	size_t i;
	int err;

	if ((err = ab_db_begin(store, 1, what)) < 0)
		return err;
	if ((err = ab_db_prepare(store, &st, "UPDATE samples SET status = ?3 WHERE run_id = ?1 AND seq = ?2")) < 0)
		goto out_rollback;
	for (i = 0; i < n && !err; i++) {
		ab_db_bind_int64(st, 1, run_id);
		ab_db_bind_int64(st, 2, seqs[i]);
		ab_db_bind_int64(st, 3, status);
		err = ab_db_step_done(store, st, what);
		ab_db_reset(st);
	}
	ab_db_finalize(st);
	if (err)
		goto out_rollback;
	return ab_db_commit(store, what);
out_rollback:
	ab_db_rollback(store);
	return err;
}

int ab_store_samples_supersede(struct ab_store *store, int64_t run_id, const uint32_t *seqs,
			       size_t n)
{
	return samples_set_status(store, run_id, seqs, n, AB_SAMPLE_SUPERSEDED, "superseding samples");
}

int ab_store_samples_stop(struct ab_store *store, int64_t run_id, const uint32_t *seqs, size_t n)
{
	return samples_set_status(store, run_id, seqs, n, AB_SAMPLE_STOPPED, "stopping rows");
}

int ab_store_samples_append(struct ab_store *store, int64_t run_id, struct ab_plan_entry *entries,
			    size_t n)
{
	struct ab_db_stmt *st;
	int64_t next = 0;
	size_t i;
	int err;

	if ((err = ab_db_begin(store, 1, "extending the plan")) < 0)
		return err;
	if ((err = ab_db_prepare(store, &st, "SELECT coalesce(max(seq) + 1, 0) FROM samples WHERE run_id = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, run_id);
	if (ab_db_step(st) == AB_DB_ROW)
		next = ab_db_column_int64(st, 0);
	ab_db_finalize(st);
	for (i = 0; i < n; i++)
		entries[i].seq = (uint32_t)(next + (int64_t)i);
	if ((err = insert_plan(store, run_id, entries, n)) < 0)
		goto out_rollback;
	return ab_db_commit(store, "extending the plan");
out_rollback:
	ab_db_rollback(store);
	return err;
}

int ab_store_run_set_status(struct ab_store *store, int64_t run_id, const char *status)
{
	struct ab_db_stmt *st;
	int err;

	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET status = ?2 WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, status);
	err = ab_db_step_done(store, st, "updating the run's status");
	ab_db_finalize(st);
	return err;
}

int ab_store_run_abandon(struct ab_store *store, int64_t run_id)
{
	char *message = ab_xstrdup(ab_error_last());
	int code = ab_error_code(), err;
	struct ab_db_stmt *st;

	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET status = 'interrupted' WHERE id = ?1 "
				       "AND status = 'running'")) == 0) {
		ab_db_bind_int64(st, 1, run_id);
		if ((err = ab_db_step_done(store, st, "marking the run interrupted")) == 0)
			err = store->engine->changes(store->db) > 0;
		ab_db_finalize(st);
	}
	if (code)
		ab_error_set(code, "%s", message);
	else
		ab_error_clear();
	free(message);
	return err;
}

int ab_store_run_patch_host(struct ab_store *store, int64_t run_id, const char *fields_json)
{
	struct ab_db_stmt *st;
	json_t *host = NULL, *fields = json_loads(fields_json, 0, NULL);
	char *text = NULL;
	int err, rc;

	/* RFC 7396 merge of two objects whose members are never objects
	 * themselves: member by member (jansson's json_object_update), in one
	 * write transaction, with the writer's flags (store_export.c: host is
	 * JSON_COMPACT). */
	if (!json_is_object(fields)) {
		json_decref(fields);
		return ab_error_set(AB_ERROR, "the host fields to patch are not a JSON object");
	}
	if ((err = ab_db_begin(store, 1, "updating the run's host fingerprint")) < 0)
		goto out;
	if ((err = ab_db_prepare(store, &st, "SELECT host FROM runs WHERE id = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, run_id);
	if ((rc = ab_db_step(st)) == AB_DB_ROW && ab_db_column_text(st, 0))
		host = json_loads(ab_db_column_text(st, 0), 0, NULL);
	ab_db_finalize(st);
	if (rc < 0) {
		err = ab_db_error(store, "updating the run's host fingerprint");
		goto out_rollback;
	}
	if (!json_is_object(host)) {
		json_decref(host);
		host = json_object();
	}
	json_object_update(host, fields);
	text = json_dumps(host, JSON_COMPACT);
	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET host = ?2 WHERE id = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, text);
	err = ab_db_step_done(store, st, "updating the run's host fingerprint");
	ab_db_finalize(st);
	if (err == 0 && (err = ab_db_commit(store, "updating the run's host fingerprint")) == 0)
		goto out;
out_rollback:
	ab_db_rollback(store);
out:
	free(text);
	json_decref(host);
	json_decref(fields);
	return err;
}

int ab_store_run_claim(struct ab_store *store, int64_t run_id, const char *expected,
		       const char *options)
{
	struct ab_db_stmt *st;
	int err;

	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET status = 'running', options = ?3 WHERE id = ?1 "
				       "AND options IS NOT DISTINCT FROM ?2 AND status != 'finished'")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, expected);
	ab_db_bind_text(st, 3, options);
	err = ab_db_step_done(store, st, "taking the run over");
	ab_db_finalize(st);
	if (err < 0)
		return err;
	return store->engine->changes(store->db) > 0;
}

int ab_store_run_finish(struct ab_store *store, int64_t run_id, const char *verdict,
			const char *reasons_json, const char *report_json,
			const struct ab_rule_record *rules, size_t nrules)
{
	struct ab_db_stmt *st = NULL;
	char now[32];
	size_t i;
	int err;

	ab_store_now_iso(now);
	if ((err = ab_db_begin(store, 1, "finishing the run")) < 0)
		return err;
	if ((err = ab_db_prepare(store, &st,
			   "UPDATE runs SET status = 'finished', finished_at = ?2, verdict = ?3, "
			   "reasons = ?4, report = ?5 WHERE id = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, now);
	ab_db_bind_text(st, 3, verdict);
	ab_db_bind_text(st, 4, reasons_json);
	ab_db_bind_text(st, 5, report_json);
	if ((err = ab_db_step_done(store, st, "finishing the run")) < 0)
		goto out_rollback;
	ab_db_finalize(st);
	st = NULL;
	if ((err = ab_db_prepare(store, &st, "DELETE FROM rule_results WHERE run_id = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, run_id);
	if ((err = ab_db_step_done(store, st, "storing rule results")) < 0)
		goto out_rollback;
	ab_db_finalize(st);
	st = NULL;
	if ((err = ab_db_prepare(store, &st, "INSERT INTO rule_results(run_id, idx, name, outcome, detail) "
				       "VALUES (?1, ?2, ?3, ?4, ?5)")) < 0)
		goto out_rollback;
	for (i = 0; i < nrules; i++) {
		ab_db_bind_int64(st, 1, run_id);
		ab_db_bind_int64(st, 2, (int64_t)i);
		ab_db_bind_text(st, 3, rules[i].name);
		ab_db_bind_text(st, 4, rules[i].outcome);
		ab_db_bind_text(st, 5, rules[i].detail);
		if ((err = ab_db_step_done(store, st, "storing rule results")) < 0)
			goto out_rollback;
		ab_db_reset(st);
	}
	ab_db_finalize(st);
	st = NULL;
	if ((err = ab_store_derive_results(store, run_id)) < 0 ||
	    (err = ab_store_search_derive(store, run_id)) < 0)
		goto out_rollback;
	return ab_db_commit(store, "finishing the run");
out_rollback:
	ab_db_finalize(st);
	ab_db_rollback(store);
	return err;
}
