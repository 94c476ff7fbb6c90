/* engine_text.c - a second store engine, for the tests only: it works the
 * way a server database's client library does, so that the store's tests
 * (test_store.c, linked with this file as test_store_text) prove the
 * engine interface (store_engine.h) on what a server engine such as
 * PostgreSQL's must get right:
 *
 *   - every value crosses the interface as text: a bound int64 is kept
 *     as its decimal digits, a double as 17 significant digits, a blob as
 *     \x and hex digits (bytea's hex form), each with its type (libpq's
 *     paramTypes); values read back are text too, parsed on request;
 *   - a statement runs whole on its first step and its rows are
 *     materialized as strings before the first one is read (a PGresult);
 *     its changes and last insert id are the result's;
 *   - placeholders are renumbered from ?N to $N, outside string literals
 *     and quoted names, and bound by name;
 *   - errors are captured with the result they belong to.
 *
 * Underneath is the same sqlite file through the sqlite3 API, so it
 * speaks the sqlite dialect and asks the sqlite engine for its
 * engine-specific statements. Installing it: a constructor makes it the
 * engine of every ab_store_open in the test program. */
#include "store.h"
#include "store_engine.h"
#include "store_sqlite.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

extern const struct ab_store_engine ab_test_engine_text;

struct ab_db {
	sqlite3 *db;
	int code, sys;           /* the last failure: sqlite code, errno */
	char *message;
	int64_t changes, last_id;
	char *path;
	struct stat id;          /* the file at open, as a server's session */
};

/* A value as text with its type; text NULL for NULL. */
struct value {
	enum ab_db_type type;
	char *text;
	size_t len;
};

struct tx_stmt {
	struct ab_db_stmt base;
	struct ab_db *db;
	sqlite3_stmt *st;
	struct value *params;
	int nparams;
	int ran;                 /* materialized */
	int ncols;
	char **names;
	struct value *cells;     /* nrows * ncols */
	size_t nrows, next;      /* rows, and the row after the current one */
	unsigned char *blob;     /* the last blob column_blob decoded */
};

#define TX(s) ((struct tx_stmt *)(s))

static void fail(struct ab_db *db)
{
	free(db->message);
	db->code = sqlite3_extended_errcode(db->db);
	db->sys = sqlite3_system_errno(db->db);
	db->message = ab_xstrdup(sqlite3_errmsg(db->db));
}

static void tx_last_error(struct ab_db *db, struct ab_db_error *out)
{
	out->message = db->message ? db->message : "not an error";
	out->sys_errno = (db->code & 0xff) == SQLITE_IOERR || (db->code & 0xff) == SQLITE_FULL ? db->sys : 0;
	switch (db->code & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		out->fault = AB_DB_FAULT_BUSY;
		break;
	case SQLITE_NOTADB:
		out->fault = AB_DB_FAULT_NOTADB;
		break;
	case SQLITE_CORRUPT:
		out->fault = AB_DB_FAULT_CORRUPT;
		break;
	case SQLITE_FULL:
		out->fault = AB_DB_FAULT_FULL;
		break;
	default:
		out->fault = AB_DB_FAULT_OTHER;
	}
}

static int tx_exec(struct ab_db *db, const char *sql)
{
	if (sqlite3_exec(db->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	fail(db);
	return AB_EIO;
}

static void tx_close(struct ab_db *db)
{
	if (!db)
		return;
	sqlite3_close_v2(db->db);
	free(db->message);
	free(db->path);
	free(db);
}

static int tx_open(struct ab_db **out, const char *path, int lock_wait_ms, int create,
		   const char **what)
{
	struct ab_db *db;
	char *file;
	int rc;

	*out = NULL;
	if (!create && access(path, F_OK) < 0)
		return ab_error_set(AB_ENOTFOUND, "there is no store at '%s'", path);
	db = ab_xcalloc(1, sizeof(*db));
	file = path[0] == '/' ? ab_xstrdup(path) : ab_xasprintf("./%s", path);
	rc = sqlite3_open_v2(file, &db->db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), NULL);

	free(file);
	*out = NULL;
	if (rc != SQLITE_OK) {
		int err = ab_error_set(AB_EIO, "cannot open the store '%s': %s", path,
				       db->db ? sqlite3_errmsg(db->db) : "out of memory");
		tx_close(db);
		return err;
	}
	sqlite3_busy_timeout(db->db, lock_wait_ms);
	sqlite3_extended_result_codes(db->db, 1);
	db->path = ab_xstrdup(path);
	if (stat(path, &db->id) < 0)
		memset(&db->id, 0, sizeof(db->id));
	*out = db;
	*what = "configuring";
	return tx_exec(db, "PRAGMA foreign_keys=ON");
}

/* A server engine asks its connection; this one's "server" is the file,
 * and the connection is lost when the file is. */
static int tx_alive(struct ab_db *db)
{
	struct stat now;

	errno = 0;
	if (stat(db->path, &now) < 0 || now.st_ino != db->id.st_ino || now.st_dev != db->id.st_dev)
		return ab_error_set(AB_EIO, "the connection to the server is lost (%s)",
				    errno ? strerror(errno) : "another database");
	return 0;
}

/* ?N as $N outside '...' and "..." (quotes doubled inside). */
static char *renumber(const char *sql)
{
	char *out = ab_xmalloc(strlen(sql) + 1), *o = out;
	const char *p;
	char quote = 0;

	for (p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '?' && p[1] >= '0' && p[1] <= '9') {
			*o++ = '$';
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static int tx_prepare(struct ab_db *db, const char *sql, struct ab_db_stmt **out)
{
	char *text = renumber(sql);
	struct tx_stmt *s;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->db, text, -1, &st, NULL);

	free(text);
	*out = NULL;
	if (rc != SQLITE_OK) {
		fail(db);
		return AB_EIO;
	}
	s = ab_xcalloc(1, sizeof(*s));
	s->base.engine = &ab_test_engine_text;
	s->db = db;
	s->st = st;
	*out = &s->base;
	return 0;
}

static void clear_value(struct value *v)
{
	free(v->text);
	memset(v, 0, sizeof(*v));
}

static void clear_rows(struct tx_stmt *s)
{
	size_t i;

	for (i = 0; i < s->nrows * (size_t)s->ncols; i++)
		free(s->cells[i].text);
	for (i = 0; i < (size_t)s->ncols; i++)
		free(s->names[i]);
	free(s->cells);
	free(s->names);
	free(s->blob);
	s->cells = NULL;
	s->names = NULL;
	s->blob = NULL;
	s->nrows = s->next = 0;
	s->ncols = 0;
	s->ran = 0;
}

static struct value *param(struct tx_stmt *s, int i)
{
	if (i > s->nparams) {
		s->params = ab_xrealloc(s->params, (size_t)i * sizeof(*s->params));
		memset(s->params + s->nparams, 0, (size_t)(i - s->nparams) * sizeof(*s->params));
		s->nparams = i;
	}
	clear_value(&s->params[i - 1]);
	return &s->params[i - 1];
}

static int set_param(struct ab_db_stmt *st, int i, enum ab_db_type type, char *text, size_t len)
{
	struct value *v = param(TX(st), i);

	v->type = type;
	v->text = text;
	v->len = len;
	return 0;
}

static int tx_bind_int64(struct ab_db_stmt *st, int i, int64_t x)
{
	char *t = ab_xasprintf("%" PRId64, x);
	return set_param(st, i, AB_DB_INT, t, strlen(t));
}

static int tx_bind_double(struct ab_db_stmt *st, int i, double x)
{
	char *t = ab_xasprintf("%.17g", x);
	return set_param(st, i, AB_DB_FLOAT, t, strlen(t));
}

static int tx_bind_text(struct ab_db_stmt *st, int i, const char *p, size_t len)
{
	char *t = ab_xmalloc(len + 1);

	memcpy(t, p, len);
	t[len] = '\0';
	return set_param(st, i, AB_DB_TEXT, t, len);
}

/* A blob as bytea's hex form: \x and two hex digits a byte. */
static char *hex_text(const unsigned char *p, size_t len)
{
	char *t = ab_xmalloc(2 * len + 3);
	size_t i;

	t[0] = '\\';
	t[1] = 'x';
	for (i = 0; i < len; i++)
		sprintf(t + 2 + 2 * i, "%02x", p[i]);
	t[2 + 2 * len] = '\0';
	return t;
}

static unsigned char *hex_bytes(const char *t, size_t *len)
{
	size_t n = (strlen(t) - 2) / 2, i;
	unsigned char *b = ab_xmalloc(n ? n : 1);

	for (i = 0; i < n; i++) {
		unsigned x;
		sscanf(t + 2 + 2 * i, "%2x", &x);
		b[i] = (unsigned char)x;
	}
	*len = n;
	return b;
}

static int tx_bind_blob(struct ab_db_stmt *st, int i, const void *p, size_t len)
{
	char *t = hex_text(p, len);
	return set_param(st, i, AB_DB_BLOB, t, strlen(t));
}

static int tx_bind_null(struct ab_db_stmt *st, int i)
{
	return set_param(st, i, AB_DB_NULL, NULL, 0);
}

/* Give sqlite the text parameters, each parsed back by its type. */
static void bind_all(struct tx_stmt *s)
{
	int i;

	for (i = 1; i <= s->nparams; i++) {
		const struct value *v = &s->params[i - 1];
		char name[16];
		int idx;
		size_t len;

		snprintf(name, sizeof(name), "$%d", i);
		if (!(idx = sqlite3_bind_parameter_index(s->st, name)) || !v->text)
			continue;
		switch (v->type) {
		case AB_DB_INT:
			sqlite3_bind_int64(s->st, idx, strtoll(v->text, NULL, 10));
			break;
		case AB_DB_FLOAT:
			sqlite3_bind_double(s->st, idx, strtod(v->text, NULL));
			break;
		case AB_DB_BLOB: {
			unsigned char *bytes = hex_bytes(v->text, &len);
			sqlite3_bind_blob64(s->st, idx, bytes, len, free);
			break;
		}
		default:
			sqlite3_bind_text64(s->st, idx, v->text, v->len, SQLITE_TRANSIENT, SQLITE_UTF8);
		}
	}
}

/* The column's value in the current sqlite row as text. */
static void cell_of(sqlite3_stmt *st, int i, struct value *v)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		v->type = AB_DB_INT;
		v->text = ab_xasprintf("%" PRId64, (int64_t)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		v->type = AB_DB_FLOAT;
		v->text = ab_xasprintf("%.17g", sqlite3_column_double(st, i));
		break;
	case SQLITE_NULL:
		v->type = AB_DB_NULL;
		v->text = NULL;
		break;
	case SQLITE_BLOB:
		v->type = AB_DB_BLOB;
		v->text = hex_text(sqlite3_column_blob(st, i), (size_t)sqlite3_column_bytes(st, i));
		break;
	default:
		v->type = AB_DB_TEXT;
		v->len = (size_t)sqlite3_column_bytes(st, i);
		v->text = ab_xmalloc(v->len + 1);
		memcpy(v->text, sqlite3_column_text(st, i), v->len);
		v->text[v->len] = '\0';
		return;
	}
	v->len = v->text ? strlen(v->text) : 0;
}

/* Run the statement whole and keep its rows as strings (a PGresult). */
static int run(struct tx_stmt *s)
{
	size_t alloc = 0;
	int rc, i;

	clear_rows(s);
	sqlite3_reset(s->st);
	sqlite3_clear_bindings(s->st);
	bind_all(s);
	s->ncols = sqlite3_column_count(s->st);
	s->names = ab_xcalloc((size_t)s->ncols + 1, sizeof(*s->names));
	for (i = 0; i < s->ncols; i++)
		s->names[i] = ab_xstrdup(sqlite3_column_name(s->st, i));
	while ((rc = sqlite3_step(s->st)) == SQLITE_ROW) {
		if (s->nrows == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			s->cells = ab_xrealloc(s->cells, alloc * (size_t)(s->ncols ? s->ncols : 1) * sizeof(*s->cells));
		}
		for (i = 0; i < s->ncols; i++)
			cell_of(s->st, i, &s->cells[s->nrows * (size_t)s->ncols + (size_t)i]);
		s->nrows++;
	}
	if (rc != SQLITE_DONE) {
		fail(s->db);
		sqlite3_reset(s->st);
		clear_rows(s);
		return AB_EIO;
	}
	s->db->changes = sqlite3_changes64(s->db->db);
	s->db->last_id = sqlite3_last_insert_rowid(s->db->db);
	sqlite3_reset(s->st);
	s->ran = 1;
	return 0;
}

static int tx_step(struct ab_db_stmt *st)
{
	struct tx_stmt *s = TX(st);
	int err;

	if (!s->ran && (err = run(s)) < 0)
		return err;
	if (s->next < s->nrows) {
		s->next++;
		return AB_DB_ROW;
	}
	return AB_DB_DONE;
}

static const struct value *cell(struct ab_db_stmt *st, int i)
{
	struct tx_stmt *s = TX(st);

	return &s->cells[(s->next - 1) * (size_t)s->ncols + (size_t)i];
}

static int tx_column_count(struct ab_db_stmt *st)
{
	struct tx_stmt *s = TX(st);

	return s->ran ? s->ncols : sqlite3_column_count(s->st);
}

static const char *tx_column_name(struct ab_db_stmt *st, int i)
{
	return TX(st)->names[i];
}

static enum ab_db_type tx_column_type(struct ab_db_stmt *st, int i)
{
	return cell(st, i)->type;
}

static int64_t tx_column_int64(struct ab_db_stmt *st, int i)
{
	const struct value *v = cell(st, i);

	if (!v->text)
		return 0;
	return v->type == AB_DB_FLOAT ? (int64_t)strtod(v->text, NULL) : strtoll(v->text, NULL, 10);
}

static double tx_column_double(struct ab_db_stmt *st, int i)
{
	const struct value *v = cell(st, i);

	return v->text ? strtod(v->text, NULL) : 0.0;
}

static const char *tx_column_text(struct ab_db_stmt *st, int i)
{
	return cell(st, i)->text;
}

static const void *tx_column_blob(struct ab_db_stmt *st, int i, size_t *len)
{
	struct tx_stmt *s = TX(st);
	const struct value *v = cell(st, i);

	free(s->blob);
	s->blob = NULL;
	*len = 0;
	if (!v->text)
		return NULL;
	if (v->type != AB_DB_BLOB) {
		*len = v->len;
		return v->text;
	}
	return s->blob = hex_bytes(v->text, len);
}

static void tx_reset(struct ab_db_stmt *st)
{
	struct tx_stmt *s = TX(st);
	int i;

	clear_rows(s);
	for (i = 0; i < s->nparams; i++)
		clear_value(&s->params[i]);
}

static void tx_finalize(struct ab_db_stmt *st)
{
	struct tx_stmt *s = TX(st);

	if (!s)
		return;
	tx_reset(st);
	free(s->params);
	sqlite3_finalize(s->st);
	free(s);
}

static int tx_begin(struct ab_db *db, int write)
{
	return tx_exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int tx_commit(struct ab_db *db)
{
	return tx_exec(db, "COMMIT");
}

static void tx_rollback(struct ab_db *db)
{
	sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

static int64_t tx_changes(struct ab_db *db)
{
	return db->changes;
}

static int64_t tx_last_insert_id(struct ab_db *db)
{
	return db->last_id;
}

/* Through the engine's own statements, as text. */
static int tx_schema_version(struct ab_db *db, int *out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = 0;
	if ((err = tx_prepare(db, "PRAGMA user_version", &st)) < 0)
		return err;
	if ((rc = tx_step(st)) == AB_DB_ROW)
		*out = (int)tx_column_int64(st, 0);
	tx_finalize(st);
	return rc < 0 ? rc : 0;
}

static int tx_set_schema_version(struct ab_db *db, int version)
{
	char sql[48];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return tx_exec(db, sql);
}

/* A server changes constraints in place; this one's tables are sqlite's,
 * rebuilt as the sqlite engine does (foreign keys off around the
 * migration, checked before its commit). */
static int tx_rebuild(struct ab_db *db, enum ab_db_rebuild step)
{
	sqlite3_stmt *st;
	int bad;

	if (step != AB_DB_REBUILD_CHECK)
		return tx_exec(db, step == AB_DB_REBUILD_BEFORE ? "PRAGMA foreign_keys=OFF"
								: "PRAGMA foreign_keys=ON");
	if (sqlite3_prepare_v2(db->db, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return AB_EIO;
	bad = sqlite3_step(st) != SQLITE_DONE;
	sqlite3_finalize(st);
	return bad ? ab_error_set(AB_EIO, "a foreign key does not hold") : 0;
}

static const char *tx_sql(enum ab_db_sql which)
{
	return ab_store_engine_sqlite.sql(which);
}

const struct ab_store_engine ab_test_engine_text = {
	.name = "text",
	.migrations = "store/migrations/",
	.open = tx_open,
	.close = tx_close,
	.alive = tx_alive,
	.exec = tx_exec,
	.prepare = tx_prepare,
	.bind_int64 = tx_bind_int64,
	.bind_double = tx_bind_double,
	.bind_text = tx_bind_text,
	.bind_blob = tx_bind_blob,
	.bind_null = tx_bind_null,
	.step = tx_step,
	.column_count = tx_column_count,
	.column_name = tx_column_name,
	.column_type = tx_column_type,
	.column_int64 = tx_column_int64,
	.column_double = tx_column_double,
	.column_text = tx_column_text,
	.column_blob = tx_column_blob,
	.reset = tx_reset,
	.finalize = tx_finalize,
	.begin = tx_begin,
	.commit = tx_commit,
	.rollback = tx_rollback,
	.changes = tx_changes,
	.last_insert_id = tx_last_insert_id,
	.last_error = tx_last_error,
	.schema_version = tx_schema_version,
	.set_schema_version = tx_set_schema_version,
	.rebuild = tx_rebuild,
	.sql = tx_sql,
	.search_term = ab_store_sqlite_search_term,
};

__attribute__((constructor)) static void use_text_engine(void)
{
	ab_store_use_engine(&ab_test_engine_text);
}
