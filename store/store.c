/* store.c - the store: open and migrate, close (see store.h). The
 * sections are store_write.c, store_query.c, store_history.c,
 * store_export.c and store_settings.c, over store_core.c and the engine
 * (store_engine.h; store_sqlite.c). */
#include "store.h"
#include "project.h"
#include "store_core.h"
#include "store_search.h"
#include "store_sample.h"
#include "embed.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct ab_store_engine *chosen_engine;

void ab_store_use_engine(const struct ab_store_engine *engine)
{
	chosen_engine = engine;
}

int ab_store_is_server(const char *path)
{
	return ab_store_engine_scheme(path);
}

static int busy_timeout_ms(void)
{
	const char *env = getenv("ABTOOL_BUSY_TIMEOUT_MS");
	int64_t v;

	if (env && ab_parse_int64(&v, env) == 0 && v >= 0 && v < 86400000)
		return (int)v;
	return AB_STORE_BUSY_TIMEOUT_MS;
}

/* The schema version, or a negative error. */
static int user_version(struct ab_store *store, int *out)
{
	if (store->engine->schema_version(store->db, out) < 0)
		return ab_db_error(store, "reading the schema version");
	return 0;
}

/* The schema version this binary knows: its highest embedded migration. */
static int known_version(const struct ab_store *store)
{
	const struct ab_embedded_file *f;
	const char *prefix = store->engine->migrations;
	size_t len = strlen(prefix);
	long version, known = 0;

	for (f = ab_embedded; f->path; f++)
		if (!strncmp(f->path, prefix, len) && (version = strtol(f->path + len, NULL, 10)) > known)
			known = version;
	return (int)known;
}

/* Refuse, before anything is written, a schema version that no
 * migration of this binary leads to: a newer abtool's (its tables may
 * mean other things) or a negative one (set by hand, or another
 * program's database). */
static int check_version(struct ab_store *store)
{
	int current = 0, known = known_version(store), err;

	if ((err = user_version(store, &current)) < 0)
		return err;
	if (current > known)
		return ab_error_set(AB_EIO, "store '%s' has schema version %d, newer than this abtool "
				    "(%s) knows (%d): a newer abtool wrote it; use that abtool, or upgrade "
				    "this one, or give another --store (the store is left as it was)",
				    store->path, current, ABTOOL_VERSION, known);
	if (current < 0)
		return ab_error_set(AB_EIO, "store '%s' has schema version %d, which no abtool writes "
				    "(abtool's are 1 to %d): it was set by hand, or the file is another "
				    "program's database; keep a copy and give another --store (the store is "
				    "left as it was)", store->path, current, known);
	return 0;
}

/* The migrations with a step in C after their SQL, in the same
 * transaction: what the SQL of both engines cannot compute alike. */
static const struct {
	long version;
	int (*step)(struct ab_store *store);
} migration_steps[] = {
	{13, ab_store_search_backfill},  /* the runs' search text (store_search.c) */
};

/* Apply migration `f` (version `version`) over schema version `current`.
 * A statement that does not apply (a table that already exists, or one
 * that is missing) means the tables do not match the version. */
static int apply(struct ab_store *store, const struct ab_embedded_file *f, long version, int current)
{
	struct ab_db_error e;
	size_t i;

	if (store->engine->exec(store->db, (const char *)f->data) < 0) {
		store->engine->last_error(store->db, &e);
		if (e.fault != AB_DB_FAULT_OTHER || e.sys_errno)
			return ab_db_error(store, f->path);
		return ab_error_set(AB_EIO, "store '%s' has schema version %d, but its tables are not "
				    "that version's: migration %ld (%s) does not apply: %s; the version was "
				    "set by hand, or the file is another program's database; keep a copy "
				    "and give another --store", store->path, current, version, f->path,
				    e.message);
	}
	for (i = 0; i < AB_NCOLS(migration_steps); i++)
		if (migration_steps[i].version == version && migration_steps[i].step(store) < 0)
			return ab_error_prefix("store '%s': migration %ld (%s)", store->path, version, f->path);
	if (store->engine->set_schema_version(store->db, (int)version) < 0)
		return ab_db_error(store, "setting the schema version");
	return 0;
}

/* Apply migration `f` in its own write transaction, inside the engine's
 * rebuild hook when it has one (store_engine.h: sqlite turns foreign keys
 * off outside the transaction, which a table rebuild needs, and checks
 * them before the commit). */
static int apply_in_transaction(struct ab_store *store, const struct ab_embedded_file *f,
				long version)
{
	int (*rebuild)(struct ab_db *, enum ab_db_rebuild) = store->engine->rebuild;
	int current = 0, err;

	if (rebuild && rebuild(store->db, AB_DB_REBUILD_BEFORE) < 0)
		return ab_db_error(store, "preparing a migration");
	if ((err = ab_db_begin(store, 1, "starting a migration")) < 0)
		goto out_after;
	if ((err = user_version(store, &current)) < 0)
		goto out_rollback;
	if (current < version && (err = apply(store, f, version, current)) < 0)
		goto out_rollback;
	if (current < version && rebuild && (err = rebuild(store->db, AB_DB_REBUILD_CHECK)) < 0) {
		err = ab_error_prefix("store '%s': migration %ld (%s) leaves a broken reference, so it "
				      "is not applied (the store is left as it was)", store->path,
				      version, f->path);
		goto out_rollback;
	}
	if ((err = ab_db_commit(store, "committing a migration")) < 0)
		goto out_rollback;
	goto out_after;
out_rollback:
	ab_db_rollback(store);
out_after:
	if (rebuild && rebuild(store->db, AB_DB_REBUILD_AFTER) < 0 && err == 0)
		err = ab_db_error(store, "finishing a migration");
	return err;
}

/* Embedded migrations are "<the engine's prefix>NNNN_name.sql"; version N
 * is applied when the schema version is below N, each in its own write
 * transaction so that two processes opening a new store do not both
 * apply it. A store that is up to date is not locked at all, so that
 * reading it works while another process holds its write lock. */
static int migrate(struct ab_store *store)
{
	const struct ab_embedded_file *f;
	const char *prefix = store->engine->migrations;
	size_t len = strlen(prefix);
	int err;

	for (f = ab_embedded; f->path; f++) {
		long version;
		int current = 0;

		if (strncmp(f->path, prefix, len))
			continue;
		version = strtol(f->path + len, NULL, 10);
		if ((err = user_version(store, &current)) < 0)
			return err;
		if (current >= version)
			continue;
		if ((err = apply_in_transaction(store, f, version)) < 0)
			return err;
	}
	return 0;
}

static int store_open(struct ab_store **out, const char *path, int create)
{
	struct ab_store *store;
	const struct ab_store_engine *engine = chosen_engine;
	const char *what = "opening";
	char *sql;
	int err;

	*out = NULL;
	/* An empty name is no store: sqlite would give it a temporary
	 * database, deleted on close, and a run stored there would be lost
	 * without a word. */
	if (!*path)
		return ab_error_set(AB_EINVALID, "the store's file name is empty; give --store a file, or "
				    "leave --store out to use the repository's store");
	if (!engine && (err = ab_store_engine_for(path, &engine)) < 0)
		return err;
	store = ab_xcalloc(1, sizeof(*store));
	store->engine = engine;
	store->path = store->engine->describe ? store->engine->describe(path) : ab_xstrdup(path);
	store->project = ab_xstrdup("");
	store->busy_timeout_ms = busy_timeout_ms();
	if ((err = store->engine->open(&store->db, path, store->busy_timeout_ms, create, &what)) < 0) {
		if (store->db)
			err = ab_db_error(store, what);
		goto out_close;
	}
	/* The version first: a store this binary does not know stays as it is. */
	if ((err = check_version(store)) < 0)
		goto out_close;
	if (store->engine->ready && store->engine->ready(store->db, &what) < 0) {
		err = ab_db_error(store, what);
		goto out_close;
	}
	if ((err = migrate(store)) < 0)
		goto out_close;
	sql = ab_sample_sql_update();
	err = ab_db_prepare(store, &store->sample_put, sql);
	free(sql);
	if (err < 0)
		goto out_close;
	*out = store;
	return 0;
out_close:
	ab_store_close(store);
	return err;
}

int ab_store_check_alive(struct ab_store *store)
{
	char *why;
	int err;

	if (!store->engine->alive || (err = store->engine->alive(store->db)) == 0)
		return 0;
	why = ab_xstrdup(ab_error_last());
	if (ab_store_is_server(store->path))
		err = ab_error_set(AB_EIO, "store '%s': %s; what was committed before is kept (reports "
				   "already written too): when the server is back, resume an interrupted "
				   "run with abtool resume", store->path, why);
	else
		err = ab_error_set(AB_EIO, "store '%s' is gone: %s; what abtool stored in it since is "
				   "lost with it (reports already written are kept); give --store a file "
				   "that stays where it is, and run again", store->path, why);
	free(why);
	return err;
}

int ab_store_open(struct ab_store **out, const char *path)
{
	return store_open(out, path, 1);
}

int ab_store_open_existing(struct ab_store **out, const char *path)
{
	return store_open(out, path, 0);
}

void ab_store_close(struct ab_store *store)
{
	if (!store)
		return;
	ab_db_finalize(store->sample_put);
	if (store->db)
		store->engine->close(store->db);
	free(store->path);
	free(store->project);
	free(store);
}

void ab_store_set_project(struct ab_store *store, const char *project)
{
	free(store->project);
	store->project = ab_xstrdup(project ? project : "");
}

const char *ab_store_project(const struct ab_store *store)
{
	return store->project;
}

/* Each step with ?1 = the project, ?2 = the placeholder. A design whose
 * name the project has already keeps the placeholder (two designs cannot
 * merge here; docs/history.md says so), and so does an experiment whose
 * text it has. */
static const char *const claim_steps[] = {
	"UPDATE designs SET project = ?1 WHERE project = ?2 AND NOT EXISTS "
	"(SELECT 1 FROM designs x WHERE x.project = ?1 AND x.name = designs.name)",
	"UPDATE experiments SET project = ?1 WHERE project = ?2 AND NOT EXISTS "
	"(SELECT 1 FROM experiments x WHERE x.project = ?1 AND x.hash = experiments.hash) "
	"AND design_id IN (SELECT id FROM designs WHERE project = ?1)",
};

int ab_store_claim_project(struct ab_store *store, const char *project)
{
	struct ab_db_stmt *st;
	int64_t claimed = 0;
	size_t i;
	int err, rc;

	/* A look first, without the write lock: claimed once, looked at always. */
	if ((err = ab_db_prepare(store, &st, "SELECT 1 FROM designs WHERE project = ?1 LIMIT 1")) < 0)
		return err;
	ab_db_bind_text(st, 1, AB_PROJECT_UNCLAIMED);
	rc = ab_db_step(st);
	ab_db_finalize(st);
	if (rc == AB_DB_DONE)
		return 0;
	if (rc != AB_DB_ROW)
		return ab_db_error(store, "looking for rows without a project");
	if (!project || !*project || !strcmp(project, AB_PROJECT_UNCLAIMED))
		return 0;
	if ((err = ab_db_begin(store, 1, "claiming the rows without a project")) < 0)
		return err;
	for (i = 0; i < sizeof(claim_steps) / sizeof(claim_steps[0]) && !err; i++) {
		if ((err = ab_db_prepare(store, &st, claim_steps[i])) < 0)
			break;
		ab_db_bind_text(st, 1, project);
		ab_db_bind_text(st, 2, AB_PROJECT_UNCLAIMED);
		if ((err = ab_db_step_done(store, st, "claiming the rows without a project")) == 0 && !i)
			claimed = store->engine->changes(store->db);
		ab_db_finalize(st);
	}
	if (err || (err = ab_db_commit(store, "claiming the rows without a project")) < 0) {
		ab_db_rollback(store);
		return err;
	}
	return claimed > INT32_MAX ? INT32_MAX : (int)claimed;
}

const char *ab_store_path(const struct ab_store *store)
{
	return store->path;
}

int ab_store_same(const struct ab_store *a, const struct ab_store *b)
{
	struct stat sa, sb;

	if (ab_store_is_server(a->path) || ab_store_is_server(b->path))
		return !strcmp(a->path, b->path);  /* described alike (ab_store_describe) */
	if (stat(a->path, &sa) < 0 || stat(b->path, &sb) < 0)
		return !strcmp(a->path, b->path);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void ab_store_set_cancel(struct ab_store *store, int (*cancel)(void))
{
	store->cancel = cancel;
}

char *ab_store_describe(const char *path)
{
	return ab_store_engine_describe(path);
}

int ab_store_schema_version(struct ab_store *store)
{
	int v;

	return store->engine->schema_version(store->db, &v) < 0 ? -1 : v;
}
