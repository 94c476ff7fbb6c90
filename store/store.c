/* store.c - the sqlite store (see store.h). */
#include "store.h"
#include "embed.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <sqlite3.h>

struct ab_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *sample_put;   /* prepared once: the per-sample hot path */
	int busy_timeout_ms;
};

static int db_error(struct ab_store *store, const char *what)
{
	int rc = sqlite3_extended_errcode(store->db);
	int code = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED ? AB_ELOCKED : AB_EIO;

	if (code == AB_ELOCKED)
		return ab_error_set(code, "store '%s' is locked by another process (waited %d ms while %s); "
				    "try again when the other run has finished",
				    store->path, store->busy_timeout_ms, what);
	return ab_error_set(code, "store '%s': %s: %s", store->path, what, sqlite3_errmsg(store->db));
}

static int exec_sql(struct ab_store *store, const char *sql, const char *what)
{
	if (sqlite3_exec(store->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(store, what);
	return 0;
}

static int prepare(struct ab_store *store, sqlite3_stmt **stmt, const char *sql)
{
	if (sqlite3_prepare_v2(store->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return db_error(store, "preparing a statement");
	return 0;
}

static void now_iso(char buf[32])
{
	ab_utc_iso8601(buf, 32, (int64_t)time(NULL));
}

static int busy_timeout_ms(void)
{
	const char *env = getenv("ABTOOL_BUSY_TIMEOUT_MS");
	int64_t v;

	if (env && ab_parse_int64(&v, env) == 0 && v >= 0 && v < 86400000)
		return (int)v;
	return AB_STORE_BUSY_TIMEOUT_MS;
}

/* Embedded migrations are "store/migrations/NNNN_name.sql"; version N is
 * applied when user_version < N, each in its own IMMEDIATE transaction so
 * that two processes opening a new store do not both apply it. */
static int migrate(struct ab_store *store)
{
	const struct ab_embedded_file *f;
	static const char prefix[] = "store/migrations/";
	int err;

	for (f = ab_embedded; f->path; f++) {
		long version;
		int current = 0;
		sqlite3_stmt *st;

		if (strncmp(f->path, prefix, sizeof(prefix) - 1))
			continue;
		version = strtol(f->path + sizeof(prefix) - 1, NULL, 10);
		if ((err = exec_sql(store, "BEGIN IMMEDIATE", "starting a migration")) < 0)
			return err;
		if ((err = prepare(store, &st, "PRAGMA user_version")) < 0)
			goto out_rollback;
		if (sqlite3_step(st) == SQLITE_ROW)
			current = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (current < version) {
			char *set = ab_xasprintf("PRAGMA user_version = %ld", version);
			err = exec_sql(store, (const char *)f->data, f->path);
			if (!err)
				err = exec_sql(store, set, "setting the schema version");
			free(set);
			if (err < 0)
				goto out_rollback;
		}
		if ((err = exec_sql(store, "COMMIT", "committing a migration")) < 0)
			goto out_rollback;
	}
	return 0;
out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int ab_store_open(struct ab_store **out, const char *path)
{
	struct ab_store *store = ab_xcalloc(1, sizeof(*store));
	char *dir = ab_xstrdup(path), *slash = strrchr(dir, '/');
	int err;

	*out = NULL;
	store->path = ab_xstrdup(path);
	if (slash && slash != dir) {
		*slash = '\0';
		if ((err = ab_mkdir_p(dir)) < 0) {
			ab_error_prefix("cannot create the store '%s'", path);
			free(dir);
			goto out_free;
		}
	}
	free(dir);
	if (sqlite3_open_v2(path, &store->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		err = ab_error_set(AB_EIO, "cannot open the store '%s': %s", path,
				   store->db ? sqlite3_errmsg(store->db) : "out of memory");
		goto out_close;
	}
	store->busy_timeout_ms = busy_timeout_ms();
	sqlite3_busy_timeout(store->db, store->busy_timeout_ms);
	sqlite3_extended_result_codes(store->db, 1);
	/* journal_mode=WAL touches the file first: a file that is not a
	 * database fails here with SQLITE_NOTADB. */
	if ((err = exec_sql(store, "PRAGMA journal_mode=WAL", "enabling WAL")) < 0 ||
	    (err = exec_sql(store, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
			    "configuring")) < 0 ||
	    (err = migrate(store)) < 0)
		goto out_close;
	if ((err = prepare(store, &store->sample_put,
			   "UPDATE samples SET status = ?3, started_at = ?4, wall_ns = ?5, "
			   "user_ns = ?6, sys_ns = ?7, maxrss_bytes = ?8, minflt = ?9, majflt = ?10, "
			   "nvcsw = ?11, nivcsw = ?12, exit_code = ?13, signal = ?14, timed_out = ?15, "
			   "flags = ?16, checksum = ?17, metrics = ?18, error = ?19, stdout = ?20, "
			   "stderr = ?21 WHERE run_id = ?1 AND seq = ?2")) < 0)
		goto out_close;
	*out = store;
	return 0;
out_close:
	sqlite3_close_v2(store->db);
out_free:
	free(store->path);
	free(store);
	return err;
}

void ab_store_close(struct ab_store *store)
{
	if (!store)
		return;
	sqlite3_finalize(store->sample_put);
	sqlite3_close_v2(store->db);
	free(store->path);
	free(store);
}

const char *ab_store_path(const struct ab_store *store)
{
	return store->path;
}

int ab_store_schema_version(struct ab_store *store)
{
	sqlite3_stmt *st;
	int v = -1;

	if (prepare(store, &st, "PRAGMA user_version") < 0)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Run a statement to completion; returns 0 or the store error. */
static int step_done(struct ab_store *store, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(store, what);
	return 0;
}

/* The id of the design named `name`, adding it when new. */
static int design_id(struct ab_store *store, const char *name, int64_t *out)
{
	sqlite3_stmt *st;
	char now[32];
	int err;

	now_iso(now);
	if ((err = prepare(store, &st, "INSERT INTO designs(name, created_at) VALUES (?1, ?2) "
				       "ON CONFLICT(name) DO UPDATE SET name = name RETURNING id")) < 0)
		return err;
	bind_text(st, 1, name);
	bind_text(st, 2, now);
	if (sqlite3_step(st) != SQLITE_ROW)
		err = db_error(store, "adding the design");
	else
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return err;
}

static int experiment_id(struct ab_store *store, const struct ab_run_meta *m, int64_t design,
			 int64_t *out)
{
	sqlite3_stmt *st;
	char now[32];
	int err;

	now_iso(now);
	if ((err = prepare(store, &st,
			   "INSERT INTO experiments(hash, name, design_id, hypothesis, path, text, created_at) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
			   "ON CONFLICT(hash) DO UPDATE SET hash = hash RETURNING id")) < 0)
		return err;
	bind_text(st, 1, m->experiment_hash);
	bind_text(st, 2, m->experiment_name);
	sqlite3_bind_int64(st, 3, design);
	bind_text(st, 4, m->hypothesis);
	bind_text(st, 5, m->experiment_path);
	bind_text(st, 6, m->experiment_text);
	bind_text(st, 7, now);
	if (sqlite3_step(st) != SQLITE_ROW)
		err = db_error(store, "adding the experiment");
	else
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return err;
}

static void new_uuid(char out[33])
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

static int insert_plan(struct ab_store *store, int64_t run_id, const struct ab_plan_entry *e,
		       size_t n)
{
	sqlite3_stmt *st;
	size_t i;
	int err;

	if ((err = prepare(store, &st,
			   "INSERT INTO samples(run_id, seq, row_idx, pair, warmup, side, pair_order) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")) < 0)
		return err;
	for (i = 0; i < n && !err; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, e[i].seq);
		sqlite3_bind_int64(st, 3, e[i].row);
		sqlite3_bind_int64(st, 4, e[i].pair);
		sqlite3_bind_int64(st, 5, e[i].warmup);
		sqlite3_bind_text(st, 6, ab_side_name(e[i].side), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, ab_order_name(e[i].order), -1, SQLITE_STATIC);
		err = step_done(store, st, "storing the plan");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return err;
}

int ab_store_run_create(struct ab_store *store, struct ab_run_meta *m, const struct ab_plan *plan)
{
	sqlite3_stmt *st = NULL;
	int64_t design = 0, experiment = 0;
	char now[32];
	size_t i;
	int err;

	now_iso(now);
	new_uuid(m->uuid);
	if ((err = exec_sql(store, "BEGIN IMMEDIATE", "starting the run")) < 0)
		return err;
	if ((err = design_id(store, m->design, &design)) < 0 ||
	    (err = experiment_id(store, m, design, &experiment)) < 0 ||
	    (err = prepare(store, &st,
			   "INSERT INTO runs(uuid, experiment_id, design_id, kind, created_at, status, repo, "
			   "parent_oid, candidate_oid, parent_tree, candidate_tree, exact_parent, seed, "
			   "pairs, warmup, host, abtool_version, options) VALUES (?1, ?2, ?3, ?4, ?5, "
			   "'running', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)")) < 0)
		goto out_rollback;
	bind_text(st, 1, m->uuid);
	sqlite3_bind_int64(st, 2, experiment);
	sqlite3_bind_int64(st, 3, design);
	bind_text(st, 4, m->kind ? m->kind : "ab");
	bind_text(st, 5, now);
	bind_text(st, 6, m->repo);
	bind_text(st, 7, m->parent_oid);
	bind_text(st, 8, m->candidate_oid);
	bind_text(st, 9, m->parent_tree);
	bind_text(st, 10, m->candidate_tree);
	sqlite3_bind_int(st, 11, m->exact_parent);
	sqlite3_bind_int64(st, 12, (sqlite3_int64)m->seed);
	sqlite3_bind_int(st, 13, m->pairs);
	sqlite3_bind_int(st, 14, m->warmup);
	bind_text(st, 15, m->host_json);
	bind_text(st, 16, ABTOOL_VERSION);
	bind_text(st, 17, m->options_json);
	if ((err = step_done(store, st, "adding the run")) < 0)
		goto out_rollback;
	m->id = sqlite3_last_insert_rowid(store->db);
	sqlite3_finalize(st);
	st = NULL;

	if ((err = prepare(store, &st, "INSERT INTO rows(run_id, idx, params) VALUES (?1, ?2, ?3)")) < 0)
		goto out_rollback;
	for (i = 0; i < m->nrows; i++) {
		sqlite3_bind_int64(st, 1, m->id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		bind_text(st, 3, m->row_params_json[i]);
		if ((err = step_done(store, st, "storing the rows")) < 0)
			goto out_rollback;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((err = insert_plan(store, m->id, plan->entries, plan->n)) < 0)
		goto out_rollback;
	return exec_sql(store, "COMMIT", "storing the plan");
out_rollback:
	sqlite3_finalize(st);
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int ab_store_build_put(struct ab_store *store, int64_t run_id, const struct ab_build_record *b)
{
	sqlite3_stmt *st;
	int err;

	if ((err = prepare(store, &st,
			   "INSERT OR REPLACE INTO builds(run_id, side, commit_oid, tree_oid, cache_key, dir, "
			   "command, cached, status, duration_ns, log, artifacts) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, b->side);
	bind_text(st, 3, b->commit_oid);
	bind_text(st, 4, b->tree_oid);
	bind_text(st, 5, b->cache_key);
	bind_text(st, 6, b->dir);
	bind_text(st, 7, b->command);
	sqlite3_bind_int(st, 8, b->cached);
	bind_text(st, 9, b->status);
	sqlite3_bind_int64(st, 10, b->duration_ns);
	bind_text(st, 11, b->log);
	bind_text(st, 12, b->artifacts_json);
	err = step_done(store, st, "storing a build");
	sqlite3_finalize(st);
	return err;
}

static char *metrics_json(const struct ab_sample *s, const char *const *names)
{
	json_t *o = json_object();
	char *text;
	size_t i;

	for (i = 0; i < s->nmetrics; i++)
		json_object_set_new(o, names[i], isnan(s->metrics[i]) ? json_null()
								      : json_real(s->metrics[i]));
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(o);
	return text;
}

int ab_store_sample_put(struct ab_store *store, int64_t run_id, const struct ab_sample *s,
			const char *const *metric_names)
{
	sqlite3_stmt *st = store->sample_put;
	char flags[128];
	char *metrics = metric_names && s->nmetrics ? metrics_json(s, metric_names) : NULL;
	int err;

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, s->entry.seq);
	sqlite3_bind_int(st, 3, (int)s->status);
	sqlite3_bind_int64(st, 4, s->started_unix);
	sqlite3_bind_int64(st, 5, s->wall_ns);
	sqlite3_bind_int64(st, 6, s->user_ns);
	sqlite3_bind_int64(st, 7, s->sys_ns);
	sqlite3_bind_int64(st, 8, s->maxrss_bytes);
	sqlite3_bind_int64(st, 9, s->minflt);
	sqlite3_bind_int64(st, 10, s->majflt);
	sqlite3_bind_int64(st, 11, s->nvcsw);
	sqlite3_bind_int64(st, 12, s->nivcsw);
	sqlite3_bind_int(st, 13, s->exit_code);
	sqlite3_bind_int(st, 14, s->signal);
	sqlite3_bind_int(st, 15, s->timed_out);
	bind_text(st, 16, s->flags ? ab_sample_flags_string(flags, sizeof(flags), s->flags) : NULL);
	bind_text(st, 17, s->checksum);
	bind_text(st, 18, metrics);
	bind_text(st, 19, s->error);
	bind_text(st, 20, s->stdout_text);
	bind_text(st, 21, s->stderr_text);
	err = step_done(store, st, "storing a sample");
	if (!err && sqlite3_changes(store->db) != 1)
		err = ab_error_set(AB_EIO, "store '%s': run %lld has no planned sample %u",
				   store->path, (long long)run_id, s->entry.seq);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	free(metrics);
	return err;
}

static char *column_strdup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? ab_xstrdup((const char *)t) : NULL;
}

int ab_store_samples_load(struct ab_store *store, int64_t run_id,
			  const char *const *metric_names, size_t nmetrics,
			  struct ab_sample **out, size_t *n)
{
	sqlite3_stmt *st;
	struct ab_sample *v = NULL;
	size_t count = 0, alloc = 0, i;
	int err, rc;

	*out = NULL;
	*n = 0;
	if ((err = prepare(store, &st,
			   "SELECT seq, row_idx, pair, warmup, side, pair_order, status, started_at, "
			   "wall_ns, user_ns, sys_ns, maxrss_bytes, minflt, majflt, nvcsw, nivcsw, "
			   "exit_code, signal, timed_out, flags, checksum, metrics, error, stdout, stderr "
			   "FROM samples WHERE run_id = ?1 ORDER BY seq")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ab_sample *s;
		const char *mj;

		AB_GROW(v, alloc, count + 1);
		s = &v[count++];
		memset(s, 0, sizeof(*s));
		s->entry.seq = (uint32_t)sqlite3_column_int64(st, 0);
		s->entry.row = (uint32_t)sqlite3_column_int64(st, 1);
		s->entry.pair = sqlite3_column_int(st, 2);
		s->entry.warmup = sqlite3_column_int(st, 3);
		s->entry.side = !strcmp((const char *)sqlite3_column_text(st, 4), "candidate");
		s->entry.order = !strcmp((const char *)sqlite3_column_text(st, 5), "BA");
		s->status = (enum ab_sample_status)sqlite3_column_int(st, 6);
		s->started_unix = sqlite3_column_int64(st, 7);
		s->wall_ns = sqlite3_column_int64(st, 8);
		s->user_ns = sqlite3_column_int64(st, 9);
		s->sys_ns = sqlite3_column_int64(st, 10);
		s->maxrss_bytes = sqlite3_column_int64(st, 11);
		s->minflt = sqlite3_column_int64(st, 12);
		s->majflt = sqlite3_column_int64(st, 13);
		s->nvcsw = sqlite3_column_int64(st, 14);
		s->nivcsw = sqlite3_column_int64(st, 15);
		s->exit_code = sqlite3_column_int(st, 16);
		s->signal = sqlite3_column_int(st, 17);
		s->timed_out = sqlite3_column_int(st, 18);
		s->flags = ab_sample_flags_parse((const char *)sqlite3_column_text(st, 19));
		s->checksum = column_strdup(st, 20);
		s->error = column_strdup(st, 22);
		s->stdout_text = column_strdup(st, 23);
		s->stderr_text = column_strdup(st, 24);
		s->nmetrics = nmetrics;
		s->metrics = ab_xmalloc((nmetrics ? nmetrics : 1) * sizeof(double));
		for (i = 0; i < nmetrics; i++)
			s->metrics[i] = NAN;
		mj = (const char *)sqlite3_column_text(st, 21);
		if (mj && nmetrics) {
			json_t *o = json_loads(mj, 0, NULL);
			for (i = 0; o && i < nmetrics; i++) {
				json_t *val = json_object_get(o, metric_names[i]);
				if (json_is_number(val))
					s->metrics[i] = json_number_value(val);
			}
			json_decref(o);
		}
	}
	if (rc != SQLITE_DONE) {
		err = db_error(store, "reading samples");
		ab_samples_free(v, count);
	} else {
		*out = v;
		*n = count;
	}
	sqlite3_finalize(st);
	return err;
}

int ab_store_samples_supersede(struct ab_store *store, int64_t run_id, const uint32_t *seqs,
			       size_t n)
{
	sqlite3_stmt *st;
	size_t i;
	int err;

	if ((err = exec_sql(store, "BEGIN IMMEDIATE", "superseding samples")) < 0)
		return err;
	if ((err = prepare(store, &st, "UPDATE samples SET status = 2 WHERE run_id = ?1 AND seq = ?2")) < 0)
		goto out_rollback;
	for (i = 0; i < n && !err; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, seqs[i]);
		err = step_done(store, st, "superseding samples");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (err)
		goto out_rollback;
	return exec_sql(store, "COMMIT", "superseding samples");
out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int ab_store_samples_append(struct ab_store *store, int64_t run_id, struct ab_plan_entry *entries,
			    size_t n)
{
	sqlite3_stmt *st;
	int64_t next = 0;
	size_t i;
	int err;

	if ((err = exec_sql(store, "BEGIN IMMEDIATE", "extending the plan")) < 0)
		return err;
	if ((err = prepare(store, &st, "SELECT coalesce(max(seq) + 1, 0) FROM samples WHERE run_id = ?1")) < 0)
		goto out_rollback;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		next = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		entries[i].seq = (uint32_t)(next + (int64_t)i);
	if ((err = insert_plan(store, run_id, entries, n)) < 0)
		goto out_rollback;
	return exec_sql(store, "COMMIT", "extending the plan");
out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int ab_store_run_set_status(struct ab_store *store, int64_t run_id, const char *status)
{
	sqlite3_stmt *st;
	int err;

	if ((err = prepare(store, &st, "UPDATE runs SET status = ?2 WHERE id = ?1")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, status);
	err = step_done(store, st, "updating the run's status");
	sqlite3_finalize(st);
	return err;
}

int ab_store_run_finish(struct ab_store *store, int64_t run_id, const char *verdict,
			const char *reasons_json, const char *report_json,
			const struct ab_rule_record *rules, size_t nrules)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	size_t i;
	int err;

	now_iso(now);
	if ((err = exec_sql(store, "BEGIN IMMEDIATE", "finishing the run")) < 0)
		return err;
	if ((err = prepare(store, &st,
			   "UPDATE runs SET status = 'finished', finished_at = ?2, verdict = ?3, "
			   "reasons = ?4, report = ?5 WHERE id = ?1")) < 0)
		goto out_rollback;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, now);
	bind_text(st, 3, verdict);
	bind_text(st, 4, reasons_json);
	bind_text(st, 5, report_json);
	if ((err = step_done(store, st, "finishing the run")) < 0)
		goto out_rollback;
	sqlite3_finalize(st);
	st = NULL;
	if ((err = prepare(store, &st, "DELETE FROM rule_results WHERE run_id = ?1")) < 0)
		goto out_rollback;
	sqlite3_bind_int64(st, 1, run_id);
	if ((err = step_done(store, st, "storing rule results")) < 0)
		goto out_rollback;
	sqlite3_finalize(st);
	st = NULL;
	if ((err = prepare(store, &st, "INSERT INTO rule_results(run_id, idx, name, outcome, detail) "
				       "VALUES (?1, ?2, ?3, ?4, ?5)")) < 0)
		goto out_rollback;
	for (i = 0; i < nrules; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		bind_text(st, 3, rules[i].name);
		bind_text(st, 4, rules[i].outcome);
		bind_text(st, 5, rules[i].detail);
		if ((err = step_done(store, st, "storing rule results")) < 0)
			goto out_rollback;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return exec_sql(store, "COMMIT", "finishing the run");
out_rollback:
	sqlite3_finalize(st);
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

/* The current row of `st` as a JSON object keyed by column names. */
static json_t *row_object(sqlite3_stmt *st)
{
	json_t *o = json_object();
	int i, n = sqlite3_column_count(st);

	for (i = 0; i < n; i++) {
		const char *name = sqlite3_column_name(st, i);
		switch (sqlite3_column_type(st, i)) {
		case SQLITE_INTEGER:
			json_object_set_new(o, name, json_integer(sqlite3_column_int64(st, i)));
			break;
		case SQLITE_FLOAT:
			json_object_set_new(o, name, json_real(sqlite3_column_double(st, i)));
			break;
		case SQLITE_NULL:
			json_object_set_new(o, name, json_null());
			break;
		default:
			json_object_set_new(o, name, json_string((const char *)sqlite3_column_text(st, i)));
		}
	}
	return o;
}

int ab_store_run_get(struct ab_store *store, int64_t run_id, json_t **out)
{
	sqlite3_stmt *st;
	json_t *run = NULL, *builds;
	int err, rc;

	*out = NULL;
	if ((err = prepare(store, &st,
			   "SELECT r.*, d.name AS design, e.hash AS experiment_hash, e.name AS "
			   "experiment_name, e.path AS experiment_path, e.text AS experiment_text, "
			   "e.hypothesis AS hypothesis FROM runs r JOIN designs d ON d.id = r.design_id "
			   "JOIN experiments e ON e.id = r.experiment_id WHERE r.id = ?1")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		run = row_object(st);
	else if (rc == SQLITE_DONE)
		err = ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
				   "'abtool history'", store->path, (long long)run_id);
	else
		err = db_error(store, "reading the run");
	sqlite3_finalize(st);
	if (err)
		return err;

	builds = json_array();
	json_object_set_new(run, "builds", builds);
	if ((err = prepare(store, &st, "SELECT * FROM builds WHERE run_id = ?1 ORDER BY side DESC")) < 0)
		goto out_free;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(builds, row_object(st));
	if (rc != SQLITE_DONE)
		err = db_error(store, "reading builds");
	sqlite3_finalize(st);
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
			     int64_t exclude_run, json_t **out)
{
	sqlite3_stmt *st;
	int err, rc;

	*out = json_array();
	if ((err = prepare(store, &st,
			   "SELECT r.id, r.created_at, r.verdict FROM runs r JOIN experiments e "
			   "ON e.id = r.experiment_id WHERE e.hash = ?1 AND r.parent_oid = ?2 AND "
			   "r.candidate_oid = ?3 AND r.id != ?4 AND r.status = 'finished' ORDER BY r.id")) < 0)
		return err;
	bind_text(st, 1, experiment_hash);
	bind_text(st, 2, parent_oid);
	bind_text(st, 3, candidate_oid);
	sqlite3_bind_int64(st, 4, exclude_run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(*out, row_object(st));
	if (rc != SQLITE_DONE)
		err = db_error(store, "reading earlier runs");
	sqlite3_finalize(st);
	return err;
}

int ab_store_run_resolve(struct ab_store *store, const char *text, int64_t *out)
{
	sqlite3_stmt *st;
	int64_t id;
	int err, rc;

	if (ab_parse_int64(&id, text) == 0 && id > 0) {
		*out = id;
		return 0;
	}
	if (!strcmp(text, "latest"))
		err = prepare(store, &st, "SELECT max(id) FROM runs WHERE ?1 IS NOT NULL");
	else
		err = prepare(store, &st, "SELECT id FROM runs WHERE uuid LIKE ?1 || '%'");
	if (err < 0)
		return err;
	bind_text(st, 1, text);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*out = sqlite3_column_int64(st, 0);
		if (sqlite3_step(st) == SQLITE_ROW)
			err = ab_error_set(AB_EINVALID, "run '%s' is ambiguous; give more of its uuid", text);
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		err = ab_error_set(AB_ENOTFOUND, "no run '%s' in the store '%s'; list runs with "
				   "'abtool history'", text, store->path);
	} else {
		err = db_error(store, "finding the run");
	}
	sqlite3_finalize(st);
	return err;
}

int ab_store_latest_calibration(struct ab_store *store, const char *experiment_hash, json_t **out)
{
	sqlite3_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = prepare(store, &st,
			   "SELECT r.report FROM runs r JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE e.hash = ?1 AND r.kind = 'calibrate' AND r.status = 'finished' "
			   "AND r.report IS NOT NULL ORDER BY r.id DESC LIMIT 1")) < 0)
		return err;
	bind_text(st, 1, experiment_hash);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	else if (rc != SQLITE_DONE)
		err = db_error(store, "reading the calibration");
	sqlite3_finalize(st);
	return err;
}

int ab_store_sample_times(struct ab_store *store, const char *experiment_hash, size_t nrows,
			  double *row_mean_ns, int64_t *runs)
{
	sqlite3_stmt *st;
	size_t i;
	int err, rc;

	for (i = 0; i < nrows; i++)
		row_mean_ns[i] = NAN;
	*runs = 0;
	if ((err = prepare(store, &st,
			   "SELECT s.row_idx, avg(s.wall_ns), count(DISTINCT s.run_id) FROM samples s "
			   "JOIN runs r ON r.id = s.run_id JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE e.hash = ?1 AND s.status = 1 GROUP BY s.row_idx")) < 0)
		return err;
	bind_text(st, 1, experiment_hash);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t row = sqlite3_column_int64(st, 0);
		if (row >= 0 && (size_t)row < nrows)
			row_mean_ns[row] = sqlite3_column_double(st, 1);
		if (sqlite3_column_int64(st, 2) > *runs)
			*runs = sqlite3_column_int64(st, 2);
	}
	if (rc != SQLITE_DONE)
		err = db_error(store, "reading earlier sample times");
	sqlite3_finalize(st);
	return err;
}
