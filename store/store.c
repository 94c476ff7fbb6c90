/* store.c - the sqlite store (see store.h). */
#include "store.h"
#include "embed.h"
#include "error.h"
#include "report.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <time.h>

#include <sqlite3.h>

struct ab_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *sample_put;   /* prepared once: the per-sample hot path */
	int busy_timeout_ms;
};

/*
 * Whether a write to the store may have failed for want of room: a file
 * size limit applies (RLIMIT_FSIZE), or its file system has less than
 * 1 MiB left. sqlite reports a failed write without errno when later
 * calls have changed it.
 */
static int no_room(const char *path)
{
	char *dir = ab_xstrdup(path), *slash = strrchr(dir, '/');
	struct rlimit rl;
	struct statvfs sv;
	int full = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;

	if (slash)
		slash[slash == dir] = '\0';
	if (!full && statvfs(slash ? dir : ".", &sv) == 0)
		full = (unsigned long long)sv.f_bavail * sv.f_frsize < 1024 * 1024;
	free(dir);
	return full;
}

/* Translate the connection's last error, with what to do about it. */
static int db_error(struct ab_store *store, const char *what)
{
	int rc = sqlite3_extended_errcode(store->db), sys = 0;
	const char *msg = sqlite3_errmsg(store->db);

	/* errno is the I/O error's only: other errors leave a stale one */
	if ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_CANTOPEN)
		sys = sqlite3_system_errno(store->db);

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return ab_error_set(AB_ELOCKED, "store '%s' is locked by another process (waited %d ms while "
				    "%s): another abtool, or a sqlite3 session, holds its write lock; try again "
				    "when it has finished, or wait longer with ABTOOL_BUSY_TIMEOUT_MS",
				    store->path, store->busy_timeout_ms, what);
	case SQLITE_NOTADB:
		return ab_error_set(AB_EIO, "'%s' is not an abtool store (%s): a damaged store or another "
				    "file; move it away to start a new store there, or give another --store",
				    store->path, msg);
	case SQLITE_CORRUPT:
		return ab_error_set(AB_EIO, "store '%s' is damaged (%s) while %s; keep a copy, see what "
				    "is left with sqlite3 '%s' 'pragma integrity_check' (or save it with "
				    "sqlite3's .recover), or give another --store", store->path, msg, what,
				    store->path);
	}
	if ((rc & 0xff) == SQLITE_FULL || sys == ENOSPC || sys == EFBIG || sys == EDQUOT ||
	    (rc == SQLITE_IOERR_WRITE && no_room(store->path)))
		return ab_error_set(AB_EIO, "store '%s': %s: %s%s%s%s: the disk is full or a file size limit "
				    "(ulimit -f) was reached; free space or lift the limit, then try again",
				    store->path, what, msg, sys ? " (" : "", sys ? strerror(sys) : "", sys ? ")" : "");
	return ab_error_set(AB_EIO, "store '%s': %s: %s%s%s", store->path, what, msg,
			    sys ? ": " : "", sys ? strerror(sys) : "");
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

/* The schema version (PRAGMA user_version), or a negative error. */
static int user_version(struct ab_store *store, int *out)
{
	sqlite3_stmt *st;
	int err, rc;

	*out = 0;
	if ((err = prepare(store, &st, "PRAGMA user_version")) < 0)
		return err;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	else if (rc != SQLITE_DONE)
		err = db_error(store, "reading the schema version");
	sqlite3_finalize(st);
	return err;
}

/* Embedded migrations are "store/migrations/NNNN_name.sql"; version N is
 * applied when user_version < N, each in its own IMMEDIATE transaction so
 * that two processes opening a new store do not both apply it. A store
 * that is up to date is not locked at all, so that reading it works while
 * another process holds its write lock. */
static int migrate(struct ab_store *store)
{
	const struct ab_embedded_file *f;
	static const char prefix[] = "store/migrations/";
	int err;

	for (f = ab_embedded; f->path; f++) {
		long version;
		int current = 0;

		if (strncmp(f->path, prefix, sizeof(prefix) - 1))
			continue;
		version = strtol(f->path + sizeof(prefix) - 1, NULL, 10);
		if ((err = user_version(store, &current)) < 0)
			return err;
		if (current >= version)
			continue;
		if ((err = exec_sql(store, "BEGIN IMMEDIATE", "starting a migration")) < 0)
			return err;
		if ((err = user_version(store, &current)) < 0)
			goto out_rollback;
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
	struct ab_store *store;
	char *dir, *slash, *file;
	int err;

	*out = NULL;
	/* sqlite gives "" a temporary database and ":memory:" (and, where URIs
	 * are on, "file:...?mode=memory") one in memory, deleted on close:
	 * a run stored there would be lost without a word. */
	if (!*path)
		return ab_error_set(AB_EINVALID, "the store's file name is empty; give --store a file, or "
				    "leave --store out to use the repository's store");
	store = ab_xcalloc(1, sizeof(*store));
	dir = ab_xstrdup(path);
	slash = strrchr(dir, '/');
	/* a relative name always as ./NAME: a file, never a special name */
	file = path[0] == '/' ? ab_xstrdup(path) : ab_xasprintf("./%s", path);
	store->path = ab_xstrdup(path);
	if (slash && slash != dir) {
		*slash = '\0';
		if ((err = ab_mkdir_p(dir)) < 0) {
			char *why = ab_xstrdup(ab_error_last());
			ab_error_set(err, "cannot create the store '%s': %s; give --store a file in a folder "
				     "you can write", path, why);
			free(why);
			free(dir);
			goto out_free;
		}
	}
	free(dir);
	if (sqlite3_open_v2(file, &store->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		int sys = store->db ? sqlite3_system_errno(store->db) : 0;
		err = ab_error_set(AB_EIO, "cannot open the store '%s': %s%s%s; give --store a file in a "
				   "folder you can write", path,
				   store->db ? sqlite3_errmsg(store->db) : "out of memory",
				   sys ? ": " : "", sys ? strerror(sys) : "");
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
			   "stderr = ?21, padding_bytes = ?22, unavailable = ?23, other_cpu_ns = ?24 "
			   "WHERE run_id = ?1 AND seq = ?2")) < 0)
		goto out_close;
	free(file);
	*out = store;
	return 0;
out_close:
	sqlite3_close_v2(store->db);
out_free:
	free(file);
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

/* The id of the design named `name`, adding it when new with `created_at`
 * (NULL: now). */
static int design_id(struct ab_store *store, const char *name, const char *created_at, int64_t *out)
{
	sqlite3_stmt *st;
	char now[32];
	int err;

	now_iso(now);
	if ((err = prepare(store, &st, "INSERT INTO designs(name, created_at) VALUES (?1, ?2) "
				       "ON CONFLICT(name) DO UPDATE SET name = name RETURNING id")) < 0)
		return err;
	bind_text(st, 1, name);
	bind_text(st, 2, created_at ? created_at : now);
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
	if ((err = design_id(store, m->design, NULL, &design)) < 0 ||
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
	if ((err = exec_sql(store, "COMMIT", "storing the plan")) < 0)
		goto out_rollback;
	return 0;
out_rollback:
	sqlite3_finalize(st);
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	m->id = 0;  /* rolled back: there is no such run */
	return err;
}

int ab_store_run_dependencies_put(struct ab_store *store, int64_t run_id, const json_t *deps)
{
	sqlite3_stmt *st;
	size_t i;
	json_t *d;
	int err;

	if ((err = prepare(store, &st,
			   "INSERT OR REPLACE INTO run_dependencies(run_id, name, repo, parent_oid, candidate_oid) "
			   "VALUES (?1, ?2, ?3, ?4, ?5)")) < 0)
		return err;
	json_array_foreach((json_t *)deps, i, d) {
		sqlite3_bind_int64(st, 1, run_id);
		bind_text(st, 2, json_string_value(json_object_get(d, "name")));
		bind_text(st, 3, json_string_value(json_object_get(d, "repo")));
		bind_text(st, 4, json_string_value(json_object_get(d, "parent_oid")));
		bind_text(st, 5, json_string_value(json_object_get(d, "candidate_oid")));
		if ((err = step_done(store, st, "storing the dependencies")) < 0)
			break;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
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
	if (s->padding_bytes >= 0)
		sqlite3_bind_int(st, 22, s->padding_bytes);
	else
		sqlite3_bind_null(st, 22);
	bind_text(st, 23, s->unavailable);
	if (s->other_cpu_ns >= 0)
		sqlite3_bind_int64(st, 24, s->other_cpu_ns);
	else
		sqlite3_bind_null(st, 24);
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
			   "exit_code, signal, timed_out, flags, checksum, metrics, error, stdout, stderr, "
			   "padding_bytes, unavailable, other_cpu_ns "
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
		s->padding_bytes = sqlite3_column_type(st, 25) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 25);
		s->unavailable = column_strdup(st, 26);
		s->other_cpu_ns = sqlite3_column_type(st, 27) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 27);
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

int ab_store_run_patch_host(struct ab_store *store, int64_t run_id, const char *fields_json)
{
	sqlite3_stmt *st;
	int err;

	if ((err = prepare(store, &st, "UPDATE runs SET host = json_patch(coalesce(host, '{}'), ?2) "
				       "WHERE id = ?1")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, fields_json);
	err = step_done(store, st, "updating the run's host fingerprint");
	sqlite3_finalize(st);
	return err;
}

int ab_store_run_claim(struct ab_store *store, int64_t run_id, const char *expected,
		       const char *options)
{
	sqlite3_stmt *st;
	int err;

	if ((err = prepare(store, &st, "UPDATE runs SET status = 'running', options = ?3 WHERE id = ?1 "
				       "AND options IS ?2 AND status != 'finished'")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, expected);
	bind_text(st, 3, options);
	err = step_done(store, st, "taking the run over");
	sqlite3_finalize(st);
	if (err < 0)
		return err;
	return sqlite3_changes(store->db) > 0;
}

/* The headline `history` lists, kept in columns of runs (migration 0005,
 * which backfills them with the same expressions) so that a history query
 * never reads the stored reports: the primary metric, its direction, the
 * lowest and highest row ratio. From the run's stored report. */
static int update_headline(struct ab_store *store, int64_t run_id)
{
	sqlite3_stmt *st;
	int err;

	if ((err = prepare(store, &st,
			   "UPDATE runs SET metric = json_extract(report, '$.metric'), "
			   "better = coalesce((SELECT json_extract(value, '$.better') FROM json_each(report, '$.rows') "
			   "LIMIT 1), 'lower'), "
			   "ratio_min = (SELECT min(json_extract(value, '$.ratio')) FROM json_each(report, '$.rows') "
			   "WHERE json_type(value, '$.ratio') IN ('real', 'integer')), "
			   "ratio_max = (SELECT max(json_extract(value, '$.ratio')) FROM json_each(report, '$.rows') "
			   "WHERE json_type(value, '$.ratio') IN ('real', 'integer')) "
			   "WHERE id = ?1 AND report IS NOT NULL AND json_valid(report)")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	err = step_done(store, st, "storing the run's headline");
	sqlite3_finalize(st);
	return err;
}

/* The row results of a run (migration 0006): row_results, the metric of
 * each rule_results line and rule_row_results, derived from the run's
 * stored report by the views row_results_source and
 * rule_row_results_source, the definitions the migration backfilled with.
 * Replaces what was there; call inside the caller's transaction, after
 * rule_results is written. */
static int update_row_results(struct ab_store *store, int64_t run_id)
{
	static const char *const steps[] = {
		"DELETE FROM row_results WHERE run_id = ?1",
		"INSERT INTO row_results SELECT * FROM row_results_source WHERE run_id = ?1",
		"UPDATE rule_results SET metric = (SELECT u.value ->> 'metric' FROM runs r, "
		"json_each(r.report, '$.rules') u WHERE r.id = rule_results.run_id AND json_valid(r.report) "
		"AND CAST(u.key AS INTEGER) = rule_results.idx) WHERE run_id = ?1",
		"DELETE FROM rule_row_results WHERE run_id = ?1",
		"INSERT INTO rule_row_results(run_id, rule_idx, row_idx, outcome, detail) "
		"SELECT s.run_id, s.rule_idx, s.row_idx, s.outcome, s.detail FROM rule_row_results_source s "
		"WHERE s.run_id = ?1 AND s.row_idx IS NOT NULL AND s.outcome IS NOT NULL "
		"AND EXISTS (SELECT 1 FROM rule_results x WHERE x.run_id = s.run_id AND x.idx = s.rule_idx)",
	};
	sqlite3_stmt *st;
	size_t i;
	int err = 0;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]) && !err; i++) {
		if ((err = prepare(store, &st, steps[i])) < 0)
			break;
		sqlite3_bind_int64(st, 1, run_id);
		err = step_done(store, st, "storing the row results");
		sqlite3_finalize(st);
	}
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
	if ((err = step_done(store, st, "finishing the run")) < 0 || (err = update_headline(store, run_id)) < 0)
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
	st = NULL;
	if ((err = update_row_results(store, run_id)) < 0)
		goto out_rollback;
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

/* The run whose uuid starts with text, or "latest" (AB_ENOTFOUND, message
 * set, when there is none). */
static int resolve_name(struct ab_store *store, const char *text, int64_t *out)
{
	sqlite3_stmt *st;
	int err, rc;

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

int ab_store_run_resolve(struct ab_store *store, const char *text, int64_t *out)
{
	sqlite3_stmt *st;
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
	if ((err = prepare(store, &st, "SELECT count(*) FROM runs WHERE id = ?1")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		err = db_error(store, "finding the run");
	else if (sqlite3_column_int64(st, 0) > 0)
		err = 1;
	sqlite3_finalize(st);
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

/* ---- history: search, notes, designs ---------------------------------- */

/* A growing SQL text built from constant fragments only: user values are
 * always bound. */
static void sql_append(char **sql, const char *fragment)
{
	char *next = ab_xasprintf("%s%s", *sql ? *sql : "", fragment);

	free(*sql);
	*sql = next;
}

#define AB_SEARCH_MAX_TERMS 16

/*
 * Split the user's search text into FTS5 queries, one per term. A term is
 * a "double-quoted phrase" or a run of non-space characters; each becomes
 * an FTS5 string ("..." with inner quotes doubled), so operators, column
 * filters and stray quotes in the text are searched for, never parsed. A
 * word ending in '*' (other than "*" alone) becomes a prefix query.
 */
static int search_terms(char ***out, const char *text)
{
	const char *p = text;
	char **terms = NULL;

	*out = NULL;
	while (*p) {
		const char *start, *end, *q;
		int prefix = 0;
		char *term, *w;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			start = ++p;
			while (*p && *p != '"')
				p++;
			end = p;
			if (*p)
				p++;
		} else {
			start = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			end = p;
			if (end - start > 1 && end[-1] == '*') {
				prefix = 1;
				end--;
			}
		}
		if (end == start)
			continue;
		if (ab_strv_len(terms) == AB_SEARCH_MAX_TERMS) {
			ab_strv_free(terms);
			return ab_error_set(AB_EINVALID, "search text '%s' has more than %d words", text,
					    AB_SEARCH_MAX_TERMS);
		}
		term = w = ab_xmalloc(2 * (size_t)(end - start) + 4);
		*w++ = '"';
		for (q = start; q < end; q++) {
			if (*q == '"')
				*w++ = '"';
			*w++ = *q;
		}
		*w++ = '"';
		if (prefix)
			*w++ = '*';
		*w = '\0';
		ab_strv_push(&terms, term);
	}
	if (!terms)
		return ab_error_set(AB_EINVALID, "search text '%s' has no words", text);
	*out = terms;
	return 0;
}

/* The runs one FTS5 query finds through any of their texts: the
 * experiment (name, hypothesis), the design (name), the run (reasons),
 * notes on the run, notes on its design. The rowid encodes the source
 * (0002_search.sql): ref = rowid / 4. */
static const char search_runs_sql[] =
	"r.id IN (WITH h(kind, ref) AS (SELECT kind, rowid / 4 FROM search WHERE search MATCH ?%d) "
	"SELECT x.id FROM runs x WHERE x.experiment_id IN (SELECT ref FROM h WHERE kind = 'experiment') "
	"OR x.design_id IN (SELECT ref FROM h WHERE kind = 'design') "
	"OR x.id IN (SELECT ref FROM h WHERE kind = 'run') "
	"OR x.id IN (SELECT n.run_id FROM notes n WHERE n.id IN (SELECT ref FROM h WHERE kind = 'note')) "
	"OR x.design_id IN (SELECT n.design_id FROM notes n WHERE n.run_id IS NULL "
	"AND n.id IN (SELECT ref FROM h WHERE kind = 'note')))";

/* Parse the JSON text of `key` in `o` into a value (replacing the text);
 * text that does not parse stays a string, so nothing is lost. */
static void parse_json_member(json_t *o, const char *key)
{
	const char *text = json_string_value(json_object_get(o, key));
	json_t *v;

	if (text && (v = json_loads(text, JSON_DECODE_ANY, NULL)))
		json_object_set_new(o, key, v);
}

/* The best and worst primary-metric row ratios of a stored report. */
/* ratio_best and ratio_worst of a history row from its ratio_min and
 * ratio_max columns (which is best depends on the metric's direction). */
static void add_headline(json_t *o)
{
	json_t *lo = json_incref(json_object_get(o, "ratio_min")), *hi = json_incref(json_object_get(o, "ratio_max"));
	int higher = json_is_string(json_object_get(o, "better")) &&
		     !strcmp(json_string_value(json_object_get(o, "better")), "higher");

	json_object_del(o, "ratio_min");
	json_object_del(o, "ratio_max");
	if (!json_is_number(lo) || !json_is_number(hi)) {
		json_object_set_new(o, "ratio_best", json_null());
		json_object_set_new(o, "ratio_worst", json_null());
	} else {
		json_object_set(o, "ratio_best", higher ? hi : lo);
		json_object_set(o, "ratio_worst", higher ? lo : hi);
	}
	json_decref(lo);
	json_decref(hi);
}

int ab_store_history(struct ab_store *store, const struct ab_history_filter *f, json_t **out)
{
	const char *params[8 + AB_SEARCH_MAX_TERMS];
	char **terms = NULL, *sql = NULL, *rev_end = NULL, buf[160];
	sqlite3_stmt *st = NULL;
	int n = 0, i, err, rc;
	json_t *list;

	*out = NULL;
	if (f->grep && (err = search_terms(&terms, f->grep)) < 0)
		return err;
	sql_append(&sql,
		   "SELECT r.id, r.uuid, r.kind, r.created_at, r.finished_at, r.status, r.verdict, r.repo, "
		   "r.parent_oid, r.candidate_oid, r.exact_parent, r.seed, r.pairs, r.warmup, "
		   "r.abtool_version, d.name AS design, e.name AS experiment, e.hypothesis, r.reasons, "
		   "(SELECT count(*) FROM notes n WHERE n.run_id = r.id OR (n.run_id IS NULL AND "
		   "n.design_id = r.design_id)) AS notes, r.metric, r.better, r.ratio_min, r.ratio_max, "
		   "(SELECT json_group_array(json_object('name', x.name, 'parent', x.parent_oid, "
		   "'candidate', x.candidate_oid)) FROM (SELECT name, parent_oid, candidate_oid "
		   "FROM run_dependencies WHERE run_id = r.id ORDER BY rowid) x) AS dependencies "
		   "FROM runs r JOIN designs d ON d.id = r.design_id "
		   "JOIN experiments e ON e.id = r.experiment_id WHERE 1");
	if (f->verdict) {
		params[n++] = f->verdict;
		snprintf(buf, sizeof(buf), " AND r.verdict = ?%d", n);
		sql_append(&sql, buf);
	}
	if (f->design) {
		params[n++] = f->design;
		snprintf(buf, sizeof(buf), " AND d.name = ?%d", n);
		sql_append(&sql, buf);
	}
	if (f->experiment) {
		params[n++] = f->experiment;
		snprintf(buf, sizeof(buf), " AND e.name = ?%d", n);
		sql_append(&sql, buf);
	}
	if (f->rev) {
		/* Hex digits sort below 'g': every oid with the prefix lies in
		 * [prefix, prefix + "g"), an index range. */
		rev_end = ab_xasprintf("%sg", f->rev);
		params[n++] = f->rev;
		params[n++] = rev_end;
		snprintf(buf, sizeof(buf), " AND r.id IN (SELECT run_id FROM run_revisions "
			 "WHERE oid >= ?%d AND oid < ?%d)", n - 1, n);
		sql_append(&sql, buf);
	}
	if (f->since) {
		params[n++] = f->since;
		snprintf(buf, sizeof(buf), " AND r.created_at >= ?%d", n);
		sql_append(&sql, buf);
	}
	if (f->until) {
		params[n++] = f->until;
		snprintf(buf, sizeof(buf), " AND r.created_at < ?%d", n);
		sql_append(&sql, buf);
	}
	for (i = 0; terms && terms[i]; i++) {
		char *clause;
		params[n++] = terms[i];
		clause = ab_xasprintf(search_runs_sql, n);
		sql_append(&sql, " AND ");
		sql_append(&sql, clause);
		free(clause);
	}
	snprintf(buf, sizeof(buf), " ORDER BY r.created_at DESC, r.id DESC LIMIT %lld",
		 f->limit > 0 ? (long long)f->limit : -1LL);
	sql_append(&sql, buf);

	if ((err = prepare(store, &st, sql)) < 0)
		goto out;
	for (i = 0; i < n; i++)
		bind_text(st, i + 1, params[i]);
	list = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *o = row_object(st);
		add_headline(o);
		parse_json_member(o, "reasons");
		if (!json_is_array(json_object_get(o, "reasons")))
			json_object_set_new(o, "reasons", json_array());
		parse_json_member(o, "dependencies");
		if (!json_is_array(json_object_get(o, "dependencies")))
			json_object_set_new(o, "dependencies", json_array());
		json_array_append_new(list, o);
	}
	if (rc != SQLITE_DONE) {
		err = db_error(store, "searching the history");
		json_decref(list);
	} else {
		*out = list;
	}
out:
	sqlite3_finalize(st);
	ab_strv_free(terms);
	free(rev_end);
	free(sql);
	return err;
}

int ab_store_designs(struct ab_store *store, int rejected_only, json_t **out)
{
	sqlite3_stmt *st;
	json_t *list;
	int err, rc;

	*out = NULL;
	if ((err = prepare(store, &st,
			   "WITH x AS (SELECT d.id, d.name, d.created_at, "
			   "(SELECT count(*) FROM runs r WHERE r.design_id = d.id) AS runs, "
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id AND r.kind = 'ab' "
			   "AND r.verdict IN ('accepted', 'rejected') "
			   "ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS decided, "
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id "
			   "ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS newest, "
			   "(SELECT n.id FROM notes n WHERE n.design_id = d.id OR n.run_id IN "
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id) "
			   "ORDER BY n.created_at DESC, n.id DESC LIMIT 1) AS last_note "
			   "FROM designs d) "
			   "SELECT x.id, x.name AS design, x.created_at, x.runs, "
			   "l.id AS latest_run, l.created_at AS latest_created_at, l.verdict AS latest_verdict, "
			   "l.reasons AS latest_reasons, w.id AS newest_run, w.created_at AS newest_created_at, "
			   "w.status AS newest_status, w.kind AS newest_kind, w.verdict AS newest_verdict, "
			   "(SELECT count(*) FROM notes n WHERE n.design_id = x.id OR n.run_id IN "
			   "(SELECT r.id FROM runs r WHERE r.design_id = x.id)) AS notes, "
			   "nt.text AS last_note, nt.created_at AS last_note_created_at "
			   "FROM x LEFT JOIN runs l ON l.id = x.decided LEFT JOIN runs w ON w.id = x.newest "
			   "LEFT JOIN notes nt ON nt.id = x.last_note "
			   "WHERE ?1 = 0 OR l.verdict = 'rejected' "
			   "ORDER BY coalesce(w.created_at, x.created_at) DESC, x.id DESC")) < 0)
		return err;
	sqlite3_bind_int(st, 1, rejected_only != 0);
	list = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *o = row_object(st);
		parse_json_member(o, "latest_reasons");
		json_array_append_new(list, o);
	}
	if (rc != SQLITE_DONE) {
		err = db_error(store, "listing designs");
		json_decref(list);
	} else {
		*out = list;
	}
	sqlite3_finalize(st);
	return err;
}

/* The error for an unknown design, with the closest known name. */
static int design_not_found(struct ab_store *store, const char *name)
{
	sqlite3_stmt *st;
	char *best = NULL;
	size_t best_d = (size_t)-1;

	if (prepare(store, &st, "SELECT name FROM designs") == 0) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *cand = (const char *)sqlite3_column_text(st, 0);
			size_t d = ab_edit_distance(name, cand);
			if (d < best_d) {
				best_d = d;
				free(best);
				best = ab_xstrdup(cand);
			}
		}
		sqlite3_finalize(st);
	}
	if (best && best_d <= 3 && best_d < strlen(name))
		ab_error_set(AB_ENOTFOUND, "no design '%s' in the store '%s'; did you mean '%s'?",
			     name, store->path, best);
	else
		ab_error_set(AB_ENOTFOUND, "no design '%s' in the store '%s'; list designs with "
			     "'abtool designs'", name, store->path);
	free(best);
	return AB_ENOTFOUND;
}

int ab_store_note_add(struct ab_store *store, int64_t run_id, const char *design, const char *text,
		      int64_t *out)
{
	sqlite3_stmt *st;
	const char *p;
	int64_t did = 0;
	char now[32];
	int err, rc;

	for (p = text; p && *p && isspace((unsigned char)*p); p++)
		;
	if (!p || !*p)
		return ab_error_set(AB_EINVALID, "a note needs some text");
	if (run_id > 0)
		err = prepare(store, &st, "SELECT design_id FROM runs WHERE id = ?1");
	else
		err = prepare(store, &st, "SELECT id FROM designs WHERE name = ?2");
	if (err < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, design);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		did = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE && run_id > 0)
		return ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
				    "'abtool history'", store->path, (long long)run_id);
	if (rc == SQLITE_DONE)
		return design_not_found(store, design ? design : "");
	if (rc != SQLITE_ROW)
		return db_error(store, "finding what the note is about");

	now_iso(now);
	if ((err = prepare(store, &st, "INSERT INTO notes(run_id, design_id, created_at, text) "
				       "VALUES (?1, ?2, ?3, ?4)")) < 0)
		return err;
	if (run_id > 0)
		sqlite3_bind_int64(st, 1, run_id);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, did);
	bind_text(st, 3, now);
	bind_text(st, 4, text);
	err = step_done(store, st, "adding the note");
	if (!err && out)
		*out = sqlite3_last_insert_rowid(store->db);
	sqlite3_finalize(st);
	return err;
}

/* Append every row of `st` (bound, unstepped) to `list` as objects. */
static int collect_rows(struct ab_store *store, sqlite3_stmt *st, json_t *list, const char *what)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(list, row_object(st));
	return rc == SQLITE_DONE ? 0 : db_error(store, what);
}

/* Run a query with ?1 = run_id and return its rows as a new array. */
static int query_run_rows(struct ab_store *store, const char *sql, int64_t run_id, const char *what,
			  json_t **out)
{
	sqlite3_stmt *st;
	int err;

	*out = NULL;
	if ((err = prepare(store, &st, sql)) < 0)
		return err;
	sqlite3_bind_int64(st, 1, run_id);
	*out = json_array();
	if ((err = collect_rows(store, st, *out, what)) < 0) {
		json_decref(*out);
		*out = NULL;
	}
	sqlite3_finalize(st);
	return err;
}

int ab_store_notes(struct ab_store *store, int64_t run_id, json_t **out)
{
	return query_run_rows(store,
			      "SELECT n.id, n.created_at, CASE WHEN n.run_id IS NULL THEN 'design' "
			      "ELSE 'run' END AS scope, n.text FROM notes n JOIN runs r ON r.id = ?1 "
			      "WHERE n.run_id = r.id OR (n.run_id IS NULL AND n.design_id = r.design_id) "
			      "ORDER BY n.created_at, n.id", run_id, "reading notes", out);
}

int ab_store_rule_results(struct ab_store *store, int64_t run_id, json_t **out)
{
	return query_run_rows(store, "SELECT idx, name, outcome, detail FROM rule_results "
				     "WHERE run_id = ?1 ORDER BY idx", run_id, "reading rule results", out);
}

int ab_store_sample_counts(struct ab_store *store, int64_t run_id, json_t **out)
{
	json_t *rows;
	int err = query_run_rows(store,
				 "SELECT coalesce(sum(status != 2), 0) AS planned, "
				 "coalesce(sum(status = 1), 0) AS done, "
				 "coalesce(sum(status = 1 AND error IS NOT NULL), 0) AS failed, "
				 "coalesce(sum(status = 2), 0) AS superseded, "
				 "coalesce(sum(status != 2 AND warmup >= 0), 0) AS warmup "
				 "FROM samples WHERE run_id = ?1", run_id, "counting samples", &rows);

	*out = err ? NULL : json_incref(json_array_get(rows, 0));
	json_decref(rows);
	return err;
}

/* ---- export and import ----------------------------------------------- */

/* One column of a table as export and import see it. JSON columns are
 * values in the document and text in the store, written back with the
 * json_dumps flags their writer uses so that the text round-trips. */
enum {
	COL_REQUIRED = 1,   /* NOT NULL in the schema */
	COL_JSON = 2,
	COL_REPORT = 4,     /* the JSON report: ab_report_json_text */
};

struct column {
	const char *name;
	unsigned flags;
	size_t dump;
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct column design_columns[] = {
	{"name", COL_REQUIRED, 0},
	{"created_at", COL_REQUIRED, 0},
};

static const struct column experiment_columns[] = {
	{"hash", COL_REQUIRED, 0},
	{"name", COL_REQUIRED, 0},
	{"hypothesis", 0, 0},
	{"path", COL_REQUIRED, 0},
	{"text", COL_REQUIRED, 0},
	{"created_at", COL_REQUIRED, 0},
};

static const struct column run_columns[] = {
	{"uuid", COL_REQUIRED, 0},
	{"kind", COL_REQUIRED, 0},
	{"created_at", COL_REQUIRED, 0},
	{"finished_at", 0, 0},
	{"status", COL_REQUIRED, 0},
	{"verdict", 0, 0},
	{"reasons", COL_JSON, JSON_COMPACT},
	{"repo", COL_REQUIRED, 0},
	{"parent_oid", COL_REQUIRED, 0},
	{"candidate_oid", COL_REQUIRED, 0},
	{"parent_tree", 0, 0},
	{"candidate_tree", 0, 0},
	{"exact_parent", COL_REQUIRED, 0},
	{"seed", COL_REQUIRED, 0},
	{"pairs", COL_REQUIRED, 0},
	{"warmup", COL_REQUIRED, 0},
	{"host", COL_JSON, JSON_COMPACT},
	{"abtool_version", COL_REQUIRED, 0},
	{"options", COL_JSON, JSON_COMPACT},
	{"report", COL_JSON | COL_REPORT, 0},
};

static const struct column build_columns[] = {
	{"side", COL_REQUIRED, 0},
	{"commit_oid", COL_REQUIRED, 0},
	{"tree_oid", COL_REQUIRED, 0},
	{"cache_key", COL_REQUIRED, 0},
	{"dir", COL_REQUIRED, 0},
	{"command", 0, 0},
	{"cached", COL_REQUIRED, 0},
	{"status", COL_REQUIRED, 0},
	{"duration_ns", 0, 0},
	{"log", 0, 0},
	{"artifacts", COL_JSON, JSON_COMPACT | JSON_SORT_KEYS},
};

static const struct column row_columns[] = {
	{"idx", COL_REQUIRED, 0},
	{"params", COL_REQUIRED | COL_JSON, JSON_COMPACT},
};

static const struct column sample_columns[] = {
	{"seq", COL_REQUIRED, 0},
	{"row_idx", COL_REQUIRED, 0},
	{"pair", COL_REQUIRED, 0},
	{"warmup", COL_REQUIRED, 0},
	{"side", COL_REQUIRED, 0},
	{"pair_order", COL_REQUIRED, 0},
	{"status", COL_REQUIRED, 0},
	{"started_at", 0, 0},
	{"wall_ns", 0, 0},
	{"user_ns", 0, 0},
	{"sys_ns", 0, 0},
	{"maxrss_bytes", 0, 0},
	{"minflt", 0, 0},
	{"majflt", 0, 0},
	{"nvcsw", 0, 0},
	{"nivcsw", 0, 0},
	{"exit_code", 0, 0},
	{"signal", 0, 0},
	{"timed_out", 0, 0},
	{"flags", 0, 0},
	{"checksum", 0, 0},
	{"metrics", COL_JSON, JSON_COMPACT | JSON_REAL_PRECISION(17)},
	{"error", 0, 0},
	{"stdout", 0, 0},
	{"stderr", 0, 0},
	{"padding_bytes", 0, 0},
	{"unavailable", 0, 0},
	{"other_cpu_ns", 0, 0},
};

static const struct column dependency_columns[] = {
	{"name", COL_REQUIRED, 0},
	{"repo", COL_REQUIRED, 0},
	{"parent_oid", COL_REQUIRED, 0},
	{"candidate_oid", COL_REQUIRED, 0},
};

static const struct column rule_columns[] = {
	{"idx", COL_REQUIRED, 0},
	{"name", COL_REQUIRED, 0},
	{"outcome", COL_REQUIRED, 0},
	{"detail", 0, 0},
	{"metric", 0, 0},
};

/* Exported for readers only: import derives both tables from the report
 * again (update_row_results), so they always agree with it. */
static const struct column row_result_columns[] = {
	{"row_idx", COL_REQUIRED, 0},
	{"metric", COL_REQUIRED, 0},
	{"is_primary", COL_REQUIRED, 0},
	{"unit", 0, 0},
	{"better", 0, 0},
	{"pairs", 0, 0},
	{"parent_median", 0, 0},
	{"candidate_median", 0, 0},
	{"parent_rsd", 0, 0},
	{"candidate_rsd", 0, 0},
	{"ratio", 0, 0},
	{"ci_low", 0, 0},
	{"ci_high", 0, 0},
	{"ci_level", 0, 0},
	{"pair_wins", 0, 0},
	{"pair_losses", 0, 0},
	{"p_signed_rank", 0, 0},
	{"p_sign", 0, 0},
	{"checksum_match", 0, 0},
	{"unavailable", 0, 0},
};

static const struct column rule_row_columns[] = {
	{"rule_idx", COL_REQUIRED, 0},
	{"row_idx", COL_REQUIRED, 0},
	{"outcome", COL_REQUIRED, 0},
	{"detail", 0, 0},
};

/* "c1, c2, ..." of a column list (new string). */
static char *column_list(const struct column *cols, size_t n, const char *prefix)
{
	char *s = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		sql_append(&s, i ? ", " : "");
		sql_append(&s, prefix);
		sql_append(&s, cols[i].name);
	}
	return s;
}

/* Select `cols` of `table` `tail` (which binds ?1 = key) into objects,
 * JSON columns parsed, appended to `list`. */
static int export_rows(struct ab_store *store, const char *table, const struct column *cols, size_t n,
		       const char *tail, int64_t key, json_t *list)
{
	char *names = column_list(cols, n, ""), *sql = ab_xasprintf("SELECT %s FROM %s %s", names, table, tail);
	sqlite3_stmt *st;
	size_t i;
	int err, rc;

	free(names);
	err = prepare(store, &st, sql);
	free(sql);
	if (err < 0)
		return err;
	sqlite3_bind_int64(st, 1, key);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *o = row_object(st);
		for (i = 0; i < n; i++)
			if (cols[i].flags & COL_JSON)
				parse_json_member(o, cols[i].name);
		json_array_append_new(list, o);
	}
	if (rc != SQLITE_DONE)
		err = db_error(store, "exporting the run");
	sqlite3_finalize(st);
	return err;
}

/* Like export_rows for a query that gives exactly one row. */
static int export_one(struct ab_store *store, const char *table, const struct column *cols, size_t n,
		      const char *tail, int64_t key, json_t **out)
{
	json_t *list = json_array();
	int err = export_rows(store, table, cols, n, tail, key, list);

	*out = NULL;
	if (!err && json_array_size(list) == 1)
		*out = json_incref(json_array_get(list, 0));
	else if (!err)
		err = ab_error_set(AB_EIO, "store '%s': run %lld has no %s row", store->path,
				   (long long)key, table);
	json_decref(list);
	return err;
}

static int export_document(struct ab_store *store, int64_t run_id, unsigned flags, json_t **out);

int ab_store_export(struct ab_store *store, int64_t run_id, unsigned flags, json_t **out)
{
	int err;

	/* One read transaction: a snapshot, even while a run is adding samples. */
	if ((err = exec_sql(store, "BEGIN", "exporting the run")) < 0)
		return err;
	err = export_document(store, run_id, flags, out);
	sqlite3_exec(store->db, err ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
	return err;
}

static int export_document(struct ab_store *store, int64_t run_id, unsigned flags, json_t **out)
{
	json_t *doc, *run = NULL, *part = NULL, *list;
	char now[32];
	int err;

	*out = NULL;
	{
		json_t *runs = json_array();
		err = export_rows(store, "runs", run_columns, NCOLS(run_columns), "WHERE id = ?1", run_id, runs);
		run = json_incref(json_array_get(runs, 0));
		json_decref(runs);
		if (err < 0)
			return err;
		if (!run)
			return ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
					    "'abtool history'", store->path, (long long)run_id);
	}
	now_iso(now);
	doc = json_object();
	json_object_set_new(doc, "schema", json_string(AB_EXPORT_SCHEMA));
	json_object_set_new(doc, "abtool_version", json_string(ABTOOL_VERSION));
	json_object_set_new(doc, "exported_at", json_string(now));
	/* The local id first, for people reading the file; import ignores it. */
	part = json_pack("{s:I}", "id", (json_int_t)run_id);
	json_object_update(part, run);
	json_decref(run);
	json_object_set_new(doc, "run", part);

	if ((err = export_one(store, "designs", design_columns, NCOLS(design_columns),
			      "WHERE id = (SELECT design_id FROM runs WHERE id = ?1)", run_id, &part)) < 0)
		goto out_free;
	json_object_set_new(doc, "design", part);
	if ((err = export_one(store, "experiments", experiment_columns, NCOLS(experiment_columns),
			      "WHERE id = (SELECT experiment_id FROM runs WHERE id = ?1)", run_id, &part)) < 0)
		goto out_free;
	json_object_set_new(doc, "experiment", part);

	json_object_set_new(doc, "builds", list = json_array());
	if ((err = export_rows(store, "builds", build_columns, NCOLS(build_columns),
			       "WHERE run_id = ?1 ORDER BY side DESC", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rows", list = json_array());
	if ((err = export_rows(store, "rows", row_columns, NCOLS(row_columns),
			       "WHERE run_id = ?1 ORDER BY idx", run_id, list)) < 0)
		goto out_free;
	if (flags & AB_STORE_EXPORT_SAMPLES) {
		json_object_set_new(doc, "samples", list = json_array());
		if ((err = export_rows(store, "samples", sample_columns, NCOLS(sample_columns),
				       "WHERE run_id = ?1 ORDER BY seq", run_id, list)) < 0)
			goto out_free;
	}
	json_object_set_new(doc, "dependencies", list = json_array());
	if ((err = export_rows(store, "run_dependencies", dependency_columns, NCOLS(dependency_columns),
			       "WHERE run_id = ?1 ORDER BY name", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rule_results", list = json_array());
	if ((err = export_rows(store, "rule_results", rule_columns, NCOLS(rule_columns),
			       "WHERE run_id = ?1 ORDER BY idx", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "row_results", list = json_array());
	if ((err = export_rows(store, "row_results", row_result_columns, NCOLS(row_result_columns),
			       "WHERE run_id = ?1 ORDER BY row_idx, is_primary DESC, metric", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rule_row_results", list = json_array());
	if ((err = export_rows(store, "rule_row_results", rule_row_columns, NCOLS(rule_row_columns),
			       "WHERE run_id = ?1 ORDER BY rule_idx, row_idx", run_id, list)) < 0)
		goto out_free;
	if ((err = query_run_rows(store,
				  "SELECT n.created_at, CASE WHEN n.run_id IS NULL THEN 'design' ELSE 'run' "
				  "END AS scope, n.text FROM notes n JOIN runs r ON r.id = ?1 "
				  "WHERE n.run_id = r.id OR (n.run_id IS NULL AND n.design_id = r.design_id) "
				  "ORDER BY n.created_at, n.id", run_id, "exporting notes", &list)) < 0)
		goto out_free;
	json_object_set_new(doc, "notes", list);
	*out = doc;
	return 0;
out_free:
	json_decref(doc);
	return err;
}

/* Bind member `c` of `o` (an object of the document named `what`) to
 * parameter i. */
static int bind_member(sqlite3_stmt *st, int i, const struct column *c, const json_t *o, const char *what)
{
	const json_t *v = json_object_get(o, c->name);

	if (!v || json_is_null(v)) {
		if (c->flags & COL_REQUIRED)
			return ab_error_set(AB_EINVALID, "%s.%s: missing", what, c->name);
		sqlite3_bind_null(st, i);
		return 0;
	}
	if ((c->flags & COL_JSON) && !json_is_string(v)) {
		/* A string in a JSON column is text that did not parse on
		 * export: it goes back as it was. */
		char *text = c->flags & COL_REPORT ? ab_report_json_text(v) : json_dumps(v, c->dump | JSON_ENCODE_ANY);
		sqlite3_bind_text(st, i, text, -1, free);
		return 0;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		sqlite3_bind_text(st, i, json_string_value(v), (int)json_string_length(v), SQLITE_TRANSIENT);
		return 0;
	case JSON_INTEGER:
		sqlite3_bind_int64(st, i, json_integer_value(v));
		return 0;
	case JSON_REAL:
		sqlite3_bind_double(st, i, json_real_value(v));
		return 0;
	case JSON_TRUE:
	case JSON_FALSE:
		sqlite3_bind_int(st, i, json_is_true(v));
		return 0;
	default:
		return ab_error_set(AB_EINVALID, "%s.%s: expected a string or a number", what, c->name);
	}
}

/* INSERT INTO table(keys, cols...) for import: the `nkeys` key columns
 * (like "run_id") are ?1..?nkeys, the columns follow. */
static int prepare_insert(struct ab_store *store, sqlite3_stmt **st, const char *table,
			  const char *keys, size_t nkeys, const struct column *cols, size_t n)
{
	char *names = column_list(cols, n, ""), *marks = NULL, *sql;
	size_t i;
	int err;

	for (i = 0; i < nkeys + n; i++) {
		char mark[32];
		snprintf(mark, sizeof(mark), "%s?%zu", i ? ", " : "", i + 1);
		sql_append(&marks, mark);
	}
	sql = ab_xasprintf("INSERT INTO %s(%s, %s) VALUES (%s)", table, keys, names, marks);
	err = prepare(store, st, sql);
	free(names);
	free(marks);
	free(sql);
	return err;
}

/* Insert every object of array `list` (member `name` of the document)
 * into `table` for run `run_id`. */
static int import_rows(struct ab_store *store, const char *table, const struct column *cols, size_t n,
		       const json_t *doc, const char *name, int required, int64_t run_id)
{
	const json_t *list = json_object_get(doc, name), *o;
	sqlite3_stmt *st;
	size_t i, c;
	int err;

	if (!list && !required)
		return 0;
	if (!json_is_array(list))
		return ab_error_set(AB_EINVALID, "\"%s\": expected an array", name);
	if ((err = prepare_insert(store, &st, table, "run_id", 1, cols, n)) < 0)
		return err;
	json_array_foreach(list, i, o) {
		char what[64];

		snprintf(what, sizeof(what), "%s[%zu]", name, i);
		if (!json_is_object(o)) {
			err = ab_error_set(AB_EINVALID, "%s: expected an object", what);
			break;
		}
		sqlite3_bind_int64(st, 1, run_id);
		for (c = 0; c < n && !err; c++)
			err = bind_member(st, (int)c + 2, &cols[c], o, what);
		if (!err)
			err = step_done(store, st, "importing the run");
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		if (err)
			break;
	}
	sqlite3_finalize(st);
	return err;
}

/* Find the experiment by hash or add it from the document's. */
static int import_experiment(struct ab_store *store, const json_t *e, int64_t design, int64_t *out)
{
	sqlite3_stmt *st;
	size_t c;
	int err = 0;

	if ((err = prepare(store, &st,
			   "INSERT INTO experiments(design_id, hash, name, hypothesis, path, text, created_at) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
			   "ON CONFLICT(hash) DO UPDATE SET hash = hash RETURNING id")) < 0)
		return err;
	sqlite3_bind_int64(st, 1, design);
	for (c = 0; c < NCOLS(experiment_columns) && !err; c++)
		err = bind_member(st, (int)c + 2, &experiment_columns[c], e, "experiment");
	if (!err) {
		if (sqlite3_step(st) == SQLITE_ROW)
			*out = sqlite3_column_int64(st, 0);
		else
			err = db_error(store, "importing the experiment");
	}
	sqlite3_finalize(st);
	return err;
}

static int import_notes(struct ab_store *store, const json_t *doc, int64_t run_id, int64_t design)
{
	const json_t *notes = json_object_get(doc, "notes"), *n;
	sqlite3_stmt *seen = NULL, *add = NULL;
	size_t i;
	int err;

	if (!notes)
		return 0;
	if (!json_is_array(notes))
		return ab_error_set(AB_EINVALID, "\"notes\": expected an array");
	if ((err = prepare(store, &seen, "SELECT 1 FROM notes WHERE run_id IS NULL AND design_id = ?1 "
					 "AND created_at = ?2 AND text = ?3")) < 0 ||
	    (err = prepare(store, &add, "INSERT INTO notes(run_id, design_id, created_at, text) "
					"VALUES (?1, ?2, ?3, ?4)")) < 0)
		goto out;
	json_array_foreach(notes, i, n) {
		const char *scope = json_string_value(json_object_get(n, "scope"));
		const char *created = json_string_value(json_object_get(n, "created_at"));
		const char *text = json_string_value(json_object_get(n, "text"));
		int design_note = scope && !strcmp(scope, "design");

		if (!created || !text) {
			err = ab_error_set(AB_EINVALID, "notes[%zu]: expected created_at and text strings", i);
			break;
		}
		if (design_note) {
			int rc;
			sqlite3_bind_int64(seen, 1, design);
			bind_text(seen, 2, created);
			bind_text(seen, 3, text);
			rc = sqlite3_step(seen);
			sqlite3_reset(seen);
			if (rc == SQLITE_ROW)
				continue;
			if (rc != SQLITE_DONE) {
				err = db_error(store, "importing notes");
				break;
			}
			sqlite3_bind_null(add, 1);
		} else {
			sqlite3_bind_int64(add, 1, run_id);
		}
		sqlite3_bind_int64(add, 2, design);
		bind_text(add, 3, created);
		bind_text(add, 4, text);
		err = step_done(store, add, "importing notes");
		sqlite3_reset(add);
		if (err)
			break;
	}
out:
	sqlite3_finalize(seen);
	sqlite3_finalize(add);
	return err;
}

/* Point the imported report at its new local id. */
static int import_fix_report(struct ab_store *store, const json_t *run, int64_t run_id)
{
	json_t *report = json_object_get(run, "report"), *copy;
	sqlite3_stmt *st;
	int err;

	if (!json_is_object(report) || !json_object_get(report, "run_id"))
		return 0;
	copy = json_deep_copy(report);
	json_object_set_new(copy, "run_id", json_integer(run_id));
	if ((err = prepare(store, &st, "UPDATE runs SET report = ?2 WHERE id = ?1")) == 0) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, ab_report_json_text(copy), -1, free);
		err = step_done(store, st, "importing the report");
		sqlite3_finalize(st);
	}
	json_decref(copy);
	return err;
}

int ab_store_import(struct ab_store *store, const json_t *doc, int64_t *out, int *existed)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const json_t *run = json_object_get(doc, "run"), *design = json_object_get(doc, "design");
	const json_t *exp = json_object_get(doc, "experiment");
	const char *uuid, *text, *hash, *dname;
	int64_t design_key = 0, exp_key = 0, run_key = 0;
	sqlite3_stmt *st = NULL;
	char hex[65];
	size_t c;
	int err, rc;

	*out = 0;
	*existed = 0;
	/* Another version of the format: an export, but not one this abtool reads. */
	if (schema && strcmp(schema, AB_EXPORT_SCHEMA) && !strncmp(schema, "abtool-export-", 14)) {
		const char *by = json_string_value(json_object_get(doc, "abtool_version"));

		return ab_error_set(AB_EINVALID, "an export in the format \"%s\"%s%s%s, which this abtool "
				    "(%s) cannot read: it reads \"%s\"; import it with that version of "
				    "abtool or a later one", schema, by ? " (written by abtool " : "",
				    by ? by : "", by ? ")" : "", ABTOOL_VERSION, AB_EXPORT_SCHEMA);
	}
	if (!schema || strcmp(schema, AB_EXPORT_SCHEMA))
		return ab_error_set(AB_EINVALID, "not an abtool export: \"schema\" is %s%s%s, expected \"%s\"; "
				    "import reads what 'abtool export RUN --format json' writes",
				    schema ? "\"" : "", schema ? schema : "missing", schema ? "\"" : "",
				    AB_EXPORT_SCHEMA);
	if (!json_is_object(run) || !json_is_object(design) || !json_is_object(exp))
		return ab_error_set(AB_EINVALID, "\"run\", \"design\" and \"experiment\" must be objects");
	if (!(uuid = json_string_value(json_object_get(run, "uuid"))) || !*uuid)
		return ab_error_set(AB_EINVALID, "run.uuid: expected a string");
	if (!(dname = json_string_value(json_object_get(design, "name"))))
		return ab_error_set(AB_EINVALID, "design.name: expected a string");
	text = json_string_value(json_object_get(exp, "text"));
	hash = json_string_value(json_object_get(exp, "hash"));
	if (!text || !hash)
		return ab_error_set(AB_EINVALID, "experiment.text and experiment.hash: expected strings");
	ab_sha256_hex(hex, text, json_string_length(json_object_get(exp, "text")));
	if (strcmp(hex, hash))
		return ab_error_set(AB_EINVALID, "experiment.hash %s is not the SHA-256 of experiment.text "
				    "(%s): the file was changed after export", hash, hex);
	if (!json_is_array(json_object_get(doc, "samples")))
		return ab_error_set(AB_EINVALID, "\"samples\": expected an array (an export written by "
				    "'abtool export RUN --format json')");

	if ((err = exec_sql(store, "BEGIN IMMEDIATE", "importing the run")) < 0)
		return err;
	if ((err = prepare(store, &st, "SELECT id FROM runs WHERE uuid = ?1")) < 0)
		goto out_rollback;
	bind_text(st, 1, uuid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		*existed = 1;
		sqlite3_finalize(st);
		return exec_sql(store, "COMMIT", "importing the run");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		err = db_error(store, "importing the run");
		goto out_rollback;
	}
	if ((err = design_id(store, dname, json_string_value(json_object_get(design, "created_at")),
			     &design_key)) < 0 ||
	    (err = import_experiment(store, exp, design_key, &exp_key)) < 0)
		goto out_rollback;

	if ((err = prepare_insert(store, &st, "runs", "experiment_id, design_id", 2, run_columns,
				  NCOLS(run_columns))) < 0)
		goto out_rollback;
	sqlite3_bind_int64(st, 1, exp_key);
	sqlite3_bind_int64(st, 2, design_key);
	for (c = 0; c < NCOLS(run_columns) && !err; c++)
		err = bind_member(st, (int)c + 3, &run_columns[c], run, "run");
	if (err || (err = step_done(store, st, "importing the run")) < 0)
		goto out_rollback;
	run_key = sqlite3_last_insert_rowid(store->db);
	sqlite3_finalize(st);
	st = NULL;

	if ((err = import_rows(store, "builds", build_columns, NCOLS(build_columns), doc, "builds", 0, run_key)) < 0 ||
	    (err = import_rows(store, "rows", row_columns, NCOLS(row_columns), doc, "rows", 0, run_key)) < 0 ||
	    (err = import_rows(store, "samples", sample_columns, NCOLS(sample_columns), doc, "samples", 1,
			       run_key)) < 0 ||
	    (err = import_rows(store, "rule_results", rule_columns, NCOLS(rule_columns), doc, "rule_results", 0,
			       run_key)) < 0 ||
	    (err = import_rows(store, "run_dependencies", dependency_columns, NCOLS(dependency_columns), doc,
			       "dependencies", 0, run_key)) < 0 ||
	    (err = import_notes(store, doc, run_key, design_key)) < 0 ||
	    (err = import_fix_report(store, run, run_key)) < 0 ||
	    (err = update_headline(store, run_key)) < 0 ||
	    (err = update_row_results(store, run_key)) < 0)
		goto out_rollback;
	if ((err = exec_sql(store, "COMMIT", "importing the run")) < 0)
		goto out_rollback;
	*out = run_key;
	return 0;
out_rollback:
	sqlite3_finalize(st);
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
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

static void append_memory(sqlite3_stmt *st, json_t *out, int same)
{
	json_t *reasons = json_loads((const char *)sqlite3_column_text(st, 5) ? (const char *)sqlite3_column_text(st, 5)
									  : "[]", 0, NULL);

	json_array_append_new(out, json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:b}",
		"id", (json_int_t)sqlite3_column_int64(st, 0),
		"created_at", (const char *)sqlite3_column_text(st, 1),
		"design", (const char *)sqlite3_column_text(st, 2),
		"experiment", (const char *)sqlite3_column_text(st, 3),
		"verdict", (const char *)sqlite3_column_text(st, 4),
		"reason", json_is_string(json_array_get(reasons, 0)) ? json_string_value(json_array_get(reasons, 0)) : "",
		"same_design", same));
	json_decref(reasons);
}

/* Which of `words` (n of them) are the first with their FTS5 term: the
 * search table's tokenizer (Porter stemming) makes "thread" and "threads"
 * one term, which must count once. The words are tokenized by FTS5
 * itself, in a temporary table read back through fts5vocab. Sets keep[i]
 * to 1 for each word to keep. */
static int distinct_terms(struct ab_store *store, char *const *words, size_t n, int *keep)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err, rc;

	for (i = 0; i < n; i++)
		keep[i] = 1;
	if ((err = exec_sql(store, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_words USING "
				   "fts5(text, tokenize = 'porter unicode61 remove_diacritics 2'); "
				   "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_terms USING "
				   "fts5vocab(temp, memory_words, instance); DELETE FROM temp.memory_words",
			    "stemming the design's words")) < 0)
		return err;
	if ((err = prepare(store, &st, "INSERT INTO temp.memory_words(rowid, text) VALUES (?1, ?2)")) < 0)
		return err;
	for (i = 0; i < n && !err; i++) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
		bind_text(st, 2, words[i]);
		err = step_done(store, st, "stemming the design's words");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (err < 0 || (err = prepare(store, &st, "SELECT doc FROM temp.memory_terms t WHERE offset = 0 AND "
					     "EXISTS (SELECT 1 FROM temp.memory_terms u WHERE u.term = t.term "
					     "AND u.offset = 0 AND u.doc < t.doc)")) < 0)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 doc = sqlite3_column_int64(st, 0);
		if (doc >= 0 && (size_t)doc < n)
			keep[doc] = 0;
	}
	if (rc != SQLITE_DONE)
		err = db_error(store, "stemming the design's words");
out:
	sqlite3_finalize(st);
	sqlite3_exec(store->db, "DELETE FROM temp.memory_words", NULL, NULL, NULL);
	return err;
}

int ab_store_rejected_memory(struct ab_store *store, const char *design, char *const *words,
			     json_t **out)
{
	sqlite3_stmt *st = NULL;
	char *query = NULL, *next;
	char *const *w;
	const char *words_kept[64];
	size_t nwords = 0, nkept = 0, i;
	int err, rc, *keep = NULL;

	*out = json_array();
	if ((err = prepare(store, &st,
			   "SELECT r.id, r.created_at, d.name, e.name, r.verdict, r.reasons FROM runs r "
			   "JOIN designs d ON d.id = r.design_id JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE d.name = ?1 AND r.verdict = 'rejected' ORDER BY r.id DESC LIMIT 5")) < 0)
		goto out;
	bind_text(st, 1, design);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		append_memory(st, *out, 1);
	if (rc != SQLITE_DONE) {
		err = db_error(store, "reading rejected runs");
		goto out;
	}
	sqlite3_finalize(st);
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
		next = ab_xasprintf("%s%sSELECT %zu AS word, rowid AS doc, rank FROM search WHERE search MATCH ?%zu "
				    "AND rowid %% 4 != 2", query ? query : "", query ? " UNION ALL " : "", i, i + 3);
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
			   "SELECT r.id, r.created_at, g.name, e.name, r.verdict, r.reasons FROM best "
			   "JOIN designs g ON g.id = best.design_id "
			   "JOIN runs r ON r.id = (SELECT id FROM runs WHERE design_id = g.id AND verdict = 'rejected' "
			   "  ORDER BY id DESC LIMIT 1) "
			   "JOIN experiments e ON e.id = r.experiment_id "
			   "WHERE g.name != ?2 ORDER BY best.shared DESC, best.rank LIMIT 3", query);
	free(query);
	query = next;
	if ((err = prepare(store, &st, query)) < 0)
		goto out;
	sqlite3_bind_int(st, 1, nkept < 2 ? (int)nkept : 2);
	bind_text(st, 2, design);
	for (i = 0; i < nkept; i++) {
		const char *c;
		char *quoted = ab_xmalloc(2 * strlen(words_kept[i]) + 3), *q = quoted;
		*q++ = '"';
		for (c = words_kept[i]; *c; c++) {
			if (*c == '"')
				*q++ = '"';
			*q++ = *c;
		}
		*q++ = '"';
		*q = '\0';
		sqlite3_bind_text(st, (int)i + 3, quoted, -1, free);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		append_memory(st, *out, 0);
	if (rc != SQLITE_DONE)
		err = db_error(store, "searching rejected designs");
out:
	sqlite3_finalize(st);
	free(query);
	free(keep);
	if (err) {
		json_decref(*out);
		*out = NULL;
	}
	return err;
}

/* ---- settings ------------------------------------------------------------ */

int ab_store_setting_get(struct ab_store *store, const char *key, char **out)
{
	sqlite3_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = prepare(store, &st, "SELECT value FROM settings WHERE key = ?1")) < 0)
		return err;
	bind_text(st, 1, key);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = ab_xstrdup((const char *)sqlite3_column_text(st, 0));
	else if (rc != SQLITE_DONE)
		err = db_error(store, "reading a setting");
	sqlite3_finalize(st);
	return err;
}

int ab_store_setting_set(struct ab_store *store, const char *key, const char *value)
{
	sqlite3_stmt *st;
	char now[32];
	int err;

	now_iso(now);
	if ((err = prepare(store, &st, value ? "INSERT INTO settings(key, value, updated_at) VALUES (?1, ?2, ?3) "
					       "ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3"
					     : "DELETE FROM settings WHERE key = ?1")) < 0)
		return err;
	bind_text(st, 1, key);
	if (value) {
		bind_text(st, 2, value);
		bind_text(st, 3, now);
	}
	err = step_done(store, st, "storing a setting");
	sqlite3_finalize(st);
	return err;
}

int ab_store_settings(struct ab_store *store, json_t **out)
{
	sqlite3_stmt *st;
	int err, rc;

	*out = json_array();
	if ((err = prepare(store, &st, "SELECT key, value, updated_at FROM settings ORDER BY key")) < 0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(*out, json_pack("{s:s, s:s, s:s}", "key", sqlite3_column_text(st, 0),
						      "value", sqlite3_column_text(st, 1),
						      "updated_at", sqlite3_column_text(st, 2)));
	if (rc != SQLITE_DONE)
		err = db_error(store, "reading the settings");
	sqlite3_finalize(st);
	return err;
}
