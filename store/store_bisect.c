/* store_bisect.c - bisects and their steps (migration 0009; see store.h,
 * "A bisect"). */
#include "store.h"
#include "store_core.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int ab_store_bisect_create(struct ab_store *store, struct ab_bisect_record *b)
{
	struct ab_db_stmt *st;
	char now[32];
	int err;

	ab_store_now_iso(now);
	ab_store_new_uuid(b->uuid);
	if ((err = ab_db_prepare(store, &st,
				 "INSERT INTO bisects(uuid, created_at, status, repo, experiment_path, "
				 "experiment_hash, good_oid, bad_oid, options) "
				 "VALUES (?1, ?2, 'running', ?3, ?4, ?5, ?6, ?7, ?8)")) < 0)
		return err;
	ab_db_bind_text(st, 1, b->uuid);
	ab_db_bind_text(st, 2, now);
	ab_db_bind_text(st, 3, b->repo);
	ab_db_bind_text(st, 4, b->experiment_path);
	ab_db_bind_text(st, 5, b->experiment_hash);
	ab_db_bind_text(st, 6, b->good_oid);
	ab_db_bind_text(st, 7, b->bad_oid);
	ab_db_bind_text(st, 8, b->options_json);
	if ((err = ab_db_step_done(store, st, "storing a bisect")) == 0)
		b->id = store->engine->last_insert_id(store->db);
	ab_db_finalize(st);
	return err;
}

int ab_store_bisect_resolve(struct ab_store *store, const char *text, int64_t *out)
{
	struct ab_db_stmt *st;
	int64_t id = 0;
	int err, rc, latest = !strcmp(text, "latest");

	if (!latest && (ab_parse_int64(&id, text) < 0 || id <= 0))
		return ab_error_set(AB_ENOTFOUND, "'%s' is not a bisect id (a number, or latest)", text);
	if ((err = ab_db_prepare(store, &st, latest ? "SELECT id FROM bisects ORDER BY id DESC LIMIT 1"
						    : "SELECT id FROM bisects WHERE id = ?1")) < 0)
		return err;
	if (!latest)
		ab_db_bind_int64(st, 1, id);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW)
		*out = ab_db_column_int64(st, 0);
	else if (rc == AB_DB_DONE)
		err = ab_error_set(AB_ENOTFOUND, "no bisect %s in %s", text, ab_store_path(store));
	else
		err = ab_db_error(store, "finding a bisect");
	ab_db_finalize(st);
	return err;
}

/* Column i as a JSON string, or null. */
static json_t *text_or_null(struct ab_db_stmt *st, int i)
{
	const char *s = ab_db_column_type(st, i) == AB_DB_NULL ? NULL : ab_db_column_text(st, i);

	return s ? json_string(s) : json_null();
}

static int load_steps(struct ab_store *store, int64_t id, json_t *steps)
{
	struct ab_db_stmt *st;
	int err, rc;

	if ((err = ab_db_prepare(store, &st,
				 "SELECT s.seq, s.role, s.parent_oid, s.candidate_oid, s.run_id, s.decision, "
				 "s.detail, r.status, r.verdict FROM bisect_steps s LEFT JOIN runs r "
				 "ON r.id = s.run_id WHERE s.bisect_id = ?1 ORDER BY s.seq")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = json_object();

		json_object_set_new(o, "seq", json_integer(ab_db_column_int64(st, 0)));
		json_object_set_new(o, "role", text_or_null(st, 1));
		json_object_set_new(o, "parent_oid", text_or_null(st, 2));
		json_object_set_new(o, "candidate_oid", text_or_null(st, 3));
		json_object_set_new(o, "run_id", ab_db_column_type(st, 4) == AB_DB_NULL ? json_null()
						 : json_integer(ab_db_column_int64(st, 4)));
		json_object_set_new(o, "decision", text_or_null(st, 5));
		json_object_set_new(o, "detail", text_or_null(st, 6));
		ab_json_parse_member(o, "detail");
		json_object_set_new(o, "run_status", text_or_null(st, 7));
		json_object_set_new(o, "verdict", text_or_null(st, 8));
		json_array_append_new(steps, o);
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading a bisect's steps");
	ab_db_finalize(st);
	return err;
}

int ab_store_bisect_get(struct ab_store *store, int64_t id, json_t **out)
{
	static const char *const cols[] = {"uuid", "created_at", "finished_at", "status", "repo",
					   "experiment_path", "experiment_hash", "good_oid", "bad_oid",
					   "options", "outcome", "result"};
	struct ab_db_stmt *st;
	json_t *o = NULL;
	size_t i;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st,
				 "SELECT uuid, created_at, finished_at, status, repo, experiment_path, "
				 "experiment_hash, good_oid, bad_oid, options, outcome, result FROM bisects "
				 "WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW) {
		o = json_pack("{s:I}", "id", (json_int_t)id);
		for (i = 0; i < AB_NCOLS(cols); i++)
			json_object_set_new(o, cols[i], text_or_null(st, (int)i));
		ab_json_parse_member(o, "options");
		ab_json_parse_member(o, "result");
	} else if (rc == AB_DB_DONE) {
		err = ab_error_set(AB_ENOTFOUND, "no bisect %lld in %s", (long long)id, ab_store_path(store));
	} else {
		err = ab_db_error(store, "reading a bisect");
	}
	ab_db_finalize(st);
	if (err == 0) {
		json_t *steps = json_array();
		json_object_set_new(o, "steps", steps);
		err = load_steps(store, id, steps);
	}
	if (err < 0)
		json_decref(o);
	else
		*out = o;
	return err;
}

int ab_store_bisect_step_put(struct ab_store *store, int64_t id, int64_t seq, const char *role,
			     const char *parent_oid, const char *candidate_oid, int64_t run_id,
			     const char *decision, const char *detail_json)
{
	struct ab_db_stmt *st;
	int err;

	if ((err = ab_db_prepare(store, &st,
				 "INSERT INTO bisect_steps(bisect_id, seq, role, parent_oid, "
				 "candidate_oid, run_id, decision, detail) "
				 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(bisect_id, seq) DO UPDATE SET "
				 "role = excluded.role, parent_oid = excluded.parent_oid, "
				 "candidate_oid = excluded.candidate_oid, run_id = excluded.run_id, "
				 "decision = excluded.decision, detail = excluded.detail")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	ab_db_bind_int64(st, 2, seq);
	ab_db_bind_text(st, 3, role);
	ab_db_bind_text(st, 4, parent_oid);
	ab_db_bind_text(st, 5, candidate_oid);
	if (run_id > 0)
		ab_db_bind_int64(st, 6, run_id);
	else
		ab_db_bind_null(st, 6);
	if (decision)
		ab_db_bind_text(st, 7, decision);
	else
		ab_db_bind_null(st, 7);
	if (detail_json)
		ab_db_bind_text(st, 8, detail_json);
	else
		ab_db_bind_null(st, 8);
	err = ab_db_step_done(store, st, "storing a bisect step");
	ab_db_finalize(st);
	return err;
}

int ab_store_bisect_finish(struct ab_store *store, int64_t id, const char *outcome,
			   const char *result_json)
{
	struct ab_db_stmt *st;
	char now[32];
	int err;

	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st,
				 "UPDATE bisects SET status = 'finished', finished_at = ?2, outcome = ?3, "
				 "result = ?4 WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	ab_db_bind_text(st, 2, now);
	ab_db_bind_text(st, 3, outcome);
	ab_db_bind_text(st, 4, result_json);
	err = ab_db_step_done(store, st, "finishing a bisect");
	ab_db_finalize(st);
	return err;
}

int ab_store_bisect_runs(struct ab_store *store, json_t **out)
{
	struct ab_db_stmt *st;
	char key[32];
	int err, rc;

	*out = json_object();
	if ((err = ab_db_prepare(store, &st, "SELECT run_id, bisect_id, seq, role FROM bisect_steps "
					     "WHERE run_id IS NOT NULL")) < 0)
		return err;
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		snprintf(key, sizeof(key), "%lld", (long long)ab_db_column_int64(st, 0));
		json_object_set_new(*out, key, json_pack("{s:I, s:I, s:s}",
							 "bisect", (json_int_t)ab_db_column_int64(st, 1),
							 "seq", (json_int_t)ab_db_column_int64(st, 2),
							 "role", ab_db_column_text(st, 3)));
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading the bisects' runs");
	ab_db_finalize(st);
	return err;
}

int ab_store_bisects(struct ab_store *store, int64_t limit, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = json_array();
	if ((err = ab_db_prepare(store, &st,
				 "SELECT b.id, b.created_at, b.status, b.good_oid, b.bad_oid, b.outcome, "
				 "(SELECT count(*) FROM bisect_steps s WHERE s.bisect_id = b.id) "
				 "FROM bisects b ORDER BY b.id DESC LIMIT ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, limit > 0 ? limit : INT64_MAX);  /* PostgreSQL refuses LIMIT -1 */
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I}",
				      "id", (json_int_t)ab_db_column_int64(st, 0),
				      "created_at", text_or_null(st, 1), "status", text_or_null(st, 2),
				      "good_oid", text_or_null(st, 3), "bad_oid", text_or_null(st, 4),
				      "outcome", text_or_null(st, 5),
				      "steps", (json_int_t)ab_db_column_int64(st, 6));
		json_array_append_new(*out, o);
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading the bisects");
	ab_db_finalize(st);
	return err;
}
