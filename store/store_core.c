/* store_core.c - what the store's sections share (see store_core.h). */
#include "store_core.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/random.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ab_db_error(struct ab_store *store, const char *what)
{
	struct ab_db_error e;
	int sys;

	store->engine->last_error(store->db, &e);
	sys = e.sys_errno;
	if (ab_store_engine_is_server(store->engine))  /* a server's words, not a file's */
		switch (e.fault) {
		case AB_DB_FAULT_BUSY:
			return ab_error_set(AB_ELOCKED, "store '%s': another abtool held the store's write "
					    "lock longer than %d ms while %s (%s); try again when it has "
					    "finished, or wait longer with ABTOOL_BUSY_TIMEOUT_MS", store->path,
					    store->busy_timeout_ms, what, e.message);
		case AB_DB_FAULT_NOTADB:
			return ab_error_set(AB_EIO, "'%s' is not an abtool store (%s): give --store an empty "
					    "database (createdb) or an abtool store; this one is left as it was",
					    store->path, e.message);
		case AB_DB_FAULT_READONLY:
			return ab_error_set(AB_EIO, "store '%s' cannot be written while %s: %s; grant the "
					    "user the right to create and write tables in the database, or give "
					    "another --store", store->path, what, e.message);
		case AB_DB_FAULT_CORRUPT:
		case AB_DB_FAULT_FULL:
			return ab_error_set(AB_EIO, "store '%s': the server failed while %s: %s; see the "
					    "server's log", store->path, what, e.message);
		default:
			break;
		}
	switch (e.fault) {
	case AB_DB_FAULT_BUSY:
		return ab_error_set(AB_ELOCKED, "store '%s' is locked by another process (waited %d ms while "
				    "%s): another abtool, or a sqlite3 session, holds its write lock; try again "
				    "when it has finished, or wait longer with ABTOOL_BUSY_TIMEOUT_MS",
				    store->path, store->busy_timeout_ms, what);
	case AB_DB_FAULT_NOTADB:
		return ab_error_set(AB_EIO, "'%s' is not an abtool store (%s): a damaged store or another "
				    "file; move it away to start a new store there, or give another --store",
				    store->path, e.message);
	case AB_DB_FAULT_CORRUPT:
		return ab_error_set(AB_EIO, "store '%s' is damaged (%s) while %s; keep a copy, see what "
				    "is left with sqlite3 '%s' 'pragma integrity_check' (or save it with "
				    "sqlite3's .recover), or give another --store", store->path, e.message, what,
				    store->path);
	case AB_DB_FAULT_READONLY:
		return ab_error_set(AB_EIO, "store '%s' cannot be written: %s (while %s); abtool writes "
				    "beside its store even to read it (sqlite's '%s-wal' and '%s-shm'), so it "
				    "cannot be used where it is; copy it to a writable folder and pass --store "
				    "with the copy, or make it writable", store->path, e.message, what,
				    store->path, store->path);
	case AB_DB_FAULT_LOST:
		return ab_error_set(AB_EIO, "store '%s': the connection to the server was lost while %s "
				    "(%s); what was committed before is kept: when the server is back, "
				    "resume an interrupted run with abtool resume, or run the command again",
				    store->path, what, e.message);
	default:
		break;
	}
	if (e.fault == AB_DB_FAULT_FULL || sys == ENOSPC || sys == EFBIG || sys == EDQUOT)
		return ab_error_set(AB_EIO, "store '%s': %s: %s%s%s%s: the disk is full or a file size limit "
				    "(ulimit -f) was reached; free space or lift the limit, then try again",
				    store->path, what, e.message, sys ? " (" : "", sys ? strerror(sys) : "",
				    sys ? ")" : "");
	return ab_error_set(AB_EIO, "store '%s': %s: %s%s%s", store->path, what, e.message,
			    sys ? ": " : "", sys ? strerror(sys) : "");
}

int ab_db_exec(struct ab_store *store, const char *sql, const char *what)
{
	if (store->engine->exec(store->db, sql) < 0)
		return ab_db_error(store, what);
	return 0;
}

int ab_db_prepare(struct ab_store *store, struct ab_db_stmt **st, const char *sql)
{
	if (store->engine->prepare(store->db, sql, st) < 0)
		return ab_db_error(store, "preparing a statement");
	return 0;
}

int ab_db_step_done(struct ab_store *store, struct ab_db_stmt *st, const char *what)
{
	if (ab_db_step(st) < 0)
		return ab_db_error(store, what);
	return 0;
}

int ab_db_begin(struct ab_store *store, int write, const char *what)
{
	if (store->engine->begin(store->db, write) < 0)
		return ab_db_error(store, what);
	return 0;
}

int ab_db_commit(struct ab_store *store, const char *what)
{
	if (store->engine->commit(store->db) < 0)
		return ab_db_error(store, what);
	return 0;
}

void ab_db_rollback(struct ab_store *store)
{
	store->engine->rollback(store->db);
}

void ab_store_now_iso(char buf[32])
{
	ab_utc_iso8601(buf, 32, (int64_t)time(NULL));
}

void ab_sql_append(char **sql, const char *fragment)
{
	char *next = ab_xasprintf("%s%s", *sql ? *sql : "", fragment);

	free(*sql);
	*sql = next;
}

json_t *ab_db_row_object(struct ab_db_stmt *st)
{
	json_t *o = json_object();
	int i, n = st->engine->column_count(st);

	for (i = 0; i < n; i++) {
		const char *name = st->engine->column_name(st, i);
		switch (ab_db_column_type(st, i)) {
		case AB_DB_INT:
			json_object_set_new(o, name, json_integer(ab_db_column_int64(st, i)));
			break;
		case AB_DB_FLOAT:
			json_object_set_new(o, name, json_real(ab_db_column_double(st, i)));
			break;
		case AB_DB_NULL:
			json_object_set_new(o, name, json_null());
			break;
		default:
			json_object_set_new(o, name, json_string(ab_db_column_text(st, i)));
		}
	}
	return o;
}

void ab_json_parse_member(json_t *o, const char *key)
{
	const char *text = json_string_value(json_object_get(o, key));
	json_t *v;

	if (text && (v = json_loads(text, JSON_DECODE_ANY, NULL)))
		json_object_set_new(o, key, v);
}

int ab_db_query_run_rows(struct ab_store *store, const char *sql, int64_t run_id, const char *what,
			 json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st, sql)) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	*out = json_array();
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		json_array_append_new(*out, ab_db_row_object(st));
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, what);
		json_decref(*out);
		*out = NULL;
	}
	ab_db_finalize(st);
	return err;
}

int ab_db_query_run_notes(struct ab_store *store, const char *first, int64_t run_id, const char *what,
			  json_t **out)
{
	char *sql = ab_xasprintf("SELECT %sn.created_at, CASE WHEN n.run_id IS NULL THEN 'design' "
				 "ELSE 'run' END AS scope, n.text FROM notes n JOIN runs r ON r.id = ?1 "
				 "WHERE n.run_id = r.id OR (n.run_id IS NULL AND n.design_id = r.design_id) "
				 "ORDER BY n.created_at, n.id", first);
	int err = ab_db_query_run_rows(store, sql, run_id, what, out);

	free(sql);
	return err;
}

int ab_store_design_id(struct ab_store *store, const char *project, const char *name,
		       const char *created_at, int64_t *out)
{
	struct ab_db_stmt *st;
	char now[32];
	int err;

	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st, "INSERT INTO designs(project, name, created_at) "
					     "VALUES (?3, ?1, ?2) ON CONFLICT(project, name) "
					     "DO UPDATE SET name = excluded.name RETURNING id")) < 0)
		return err;
	ab_db_bind_text(st, 1, name);
	ab_db_bind_text(st, 2, created_at ? created_at : now);
	ab_db_bind_text(st, 3, project);
	if (ab_db_step(st) != AB_DB_ROW)
		err = ab_db_error(store, "adding the design");
	else
		*out = ab_db_column_int64(st, 0);
	ab_db_finalize(st);
	return err;
}

/* Each step with ?1 = run_id. The headline `history` lists is kept in
 * columns of runs (migration 0005, which backfills them with the same
 * expressions) so that a history query never reads the stored reports:
 * the primary metric, its direction, the lowest and highest row ratio.
 * The row results (migration 0006) come from the views
 * row_results_source and rule_row_results_source, the definitions the
 * migration backfilled with. */
static const struct {
	const char *sql, *what;
	int engine_sql;  /* sql NULL: the engine's statement (store_engine.h) */
} derive_steps[] = {
	{NULL, "storing the run's headline", AB_DB_SQL_DERIVE_HEADLINE},
	{"DELETE FROM row_results WHERE run_id = ?1", "storing the row results", 0},
	{"INSERT INTO row_results SELECT * FROM row_results_source WHERE run_id = ?1",
	 "storing the row results", 0},
	{NULL, "storing the row results", AB_DB_SQL_DERIVE_RULE_METRIC},
	{"DELETE FROM rule_row_results WHERE run_id = ?1", "storing the row results", 0},
	{"INSERT INTO rule_row_results(run_id, rule_idx, row_idx, outcome, detail) "
	 "SELECT s.run_id, s.rule_idx, s.row_idx, s.outcome, s.detail FROM rule_row_results_source s "
	 "WHERE s.run_id = ?1 AND s.row_idx IS NOT NULL AND s.outcome IS NOT NULL "
	 "AND EXISTS (SELECT 1 FROM rule_results x WHERE x.run_id = s.run_id AND x.idx = s.rule_idx)",
	 "storing the row results", 0},
};

int ab_store_derive_results(struct ab_store *store, int64_t run_id)
{
	struct ab_db_stmt *st;
	size_t i;
	int err = 0;

	for (i = 0; i < AB_NCOLS(derive_steps) && !err; i++) {
		const char *sql = derive_steps[i].sql ? derive_steps[i].sql
			: ab_db_sql(store, (enum ab_db_sql)derive_steps[i].engine_sql);
		if ((err = ab_db_prepare(store, &st, sql)) < 0)
			break;
		ab_db_bind_int64(st, 1, run_id);
		err = ab_db_step_done(store, st, derive_steps[i].what);
		ab_db_finalize(st);
	}
	return err;
}

char *ab_store_column_list(const struct ab_store_column *cols, size_t n, const char *prefix)
{
	char *s = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		ab_sql_append(&s, i ? ", " : "");
		ab_sql_append(&s, prefix);
		ab_sql_append(&s, cols[i].name);
	}
	return s;
}

void ab_store_new_uuid(char out[33])
{
	unsigned char b[16];
	size_t i;

	if (getrandom(b, sizeof(b), 0) != sizeof(b)) {
		uint64_t t = (uint64_t)ab_now_ns() ^ (uint64_t)time(NULL) << 20;
		for (i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)(t >> (i % 8 * 8)) ^ (unsigned char)(i * 131);
	}
	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

int ab_db_cancelled(struct ab_store *store, size_t i, const char *what)
{
	if ((i & 1023) != 1023 || !store->cancel || !store->cancel())
		return 0;
	return ab_error_set(AB_EINTERRUPTED, "interrupted while %s", what);
}
