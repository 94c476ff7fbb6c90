/* store_sqlite.c - the sqlite engine of the store (store_engine.h): one
 * file per store, WAL mode with synchronous=NORMAL, foreign keys on, a
 * busy timeout so concurrent runs can share it, FTS5 for search. */
#include "store_engine.h"
#include "store_sqlite.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

struct ab_db {
	sqlite3 *db;
	char *path;
	struct stat id;          /* the file at open: st_dev and st_ino */
	int readonly;            /* sqlite fell back to read-only at open */
	char reason[512];        /* the message of an AB_DB_FAULT_READONLY */
};

struct sq_stmt {
	struct ab_db_stmt base;
	sqlite3_stmt *st;
};

#define SQ(s) (((struct sq_stmt *)(s))->st)

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

/*
 * Why the store's file cannot be written, as text for a message into
 * `buf`, or NULL when nothing says so: its file system is mounted
 * read-only (statvfs ST_RDONLY), the file is not writable, or its folder
 * is not (sqlite makes its -wal and -shm files there). The checks are
 * access(2)'s, so root is refused only by a read-only file system.
 */
static const char *read_only_reason(const char *path, char *buf, size_t size)
{
	char *dir = ab_xstrdup(path), *slash = strrchr(dir, '/');
	const char *folder = ".";
	struct statvfs sv;
	const char *out = buf;

	if (slash) {
		slash[slash == dir] = '\0';
		folder = dir;
	}
	if (statvfs(folder, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		snprintf(buf, size, "its file system is mounted read-only");
	else if (access(path, F_OK) == 0 && access(path, W_OK) < 0)
		snprintf(buf, size, "the file is not writable (%s)", strerror(errno));
	else if (access(folder, W_OK) < 0)
		snprintf(buf, size, "its folder '%s' is not writable (%s)", folder, strerror(errno));
	else
		out = NULL;
	free(dir);
	return out;
}

static void sq_last_error(struct ab_db *db, struct ab_db_error *out)
{
	int rc = sqlite3_extended_errcode(db->db);

	out->message = sqlite3_errmsg(db->db);
	out->sys_errno = 0;
	/* sqlite says "unable to open database file" with the errno of its
	 * last attempt (ENOENT for a -shm it could not create): say why */
	if (db->readonly || (rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) {
		db->reason[0] = '\0';
		if (read_only_reason(db->path, db->reason, sizeof(db->reason)) || db->readonly) {
			if (!db->reason[0])
				snprintf(db->reason, sizeof(db->reason), "sqlite could open it read-only only");
			out->fault = AB_DB_FAULT_READONLY;
			out->message = db->reason;
			return;
		}
	}
	/* errno is the I/O error's only: other errors leave a stale one */
	if ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_CANTOPEN)
		out->sys_errno = sqlite3_system_errno(db->db);
	switch (rc & 0xff) {
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
		out->fault = rc == SQLITE_IOERR_WRITE && no_room(db->path) ? AB_DB_FAULT_FULL
									    : AB_DB_FAULT_OTHER;
	}
}

static int sq_exec(struct ab_db *db, const char *sql)
{
	return sqlite3_exec(db->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : AB_EIO;
}

static void sq_close(struct ab_db *db)
{
	if (!db)
		return;
	sqlite3_close_v2(db->db);
	free(db->path);
	free(db);
}

/* What a file that is no store is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a folder" : S_ISCHR(mode) ? "a character device" : S_ISBLK(mode)
		? "a block device" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" : "no regular file";
}

/*
 * The store's file before sqlite sees it (docs/security.md, "File
 * permissions"). It is a regular file, or missing: a device, a FIFO or a
 * folder is refused, where sqlite would leave a journal beside it with
 * the device's mode (/dev/null-journal, 0666). A command that only reads
 * (not `create`) needs a file that holds something: sqlite would turn a
 * missing or an empty one into a store (AB_ENOTFOUND). A new store is
 * made here, mode 0600 (it holds benchmark output and host names) in
 * folders made 0700; sqlite gives its journal and WAL the file's mode.
 * An existing store keeps its mode.
 */
static int check_file(const char *path, int create)
{
	char *dir, *slash;
	struct stat st;
	int err = 0, fd, missing;

	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return ab_error_set(AB_EINVALID, "the store '%s' is %s, not a store file; give --store "
					    "a file such as .git/abtool/abtool.db", path, file_kind(st.st_mode));
		if (!create && st.st_size == 0)
			return ab_error_set(AB_ENOTFOUND, "the store '%s' is an empty file", path);
		return 0;
	}
	if (!create)
		return errno == ENOENT ? ab_error_set(AB_ENOTFOUND, "there is no store at '%s'", path)
			: ab_error_set(AB_EIO, "cannot open the store '%s': %s", path, strerror(errno));
	missing = errno == ENOENT;
	dir = ab_xstrdup(path);
	if ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if ((err = ab_mkdir_p_mode(dir, 0700)) < 0) {
			char *why = ab_xstrdup(ab_error_last());
			ab_error_set(err, "cannot create the store '%s': %s; give --store a file in a folder "
				     "you can write", path, why);
			free(why);
		}
	}
	free(dir);
	/* where this fails (a read-only folder), sqlite's open says why */
	if (err == 0 && missing && (fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
		close(fd);
	return err;
}

static int sq_open(struct ab_db **out, const char *path, int lock_wait_ms, int create,
		   const char **what)
{
	struct ab_db *db;
	char *file;
	int err;

	*out = NULL;
	if ((err = check_file(path, create)) < 0)
		return err;
	db = ab_xcalloc(1, sizeof(*db));
	db->path = ab_xstrdup(path);
	/* sqlite gives "" a temporary database and ":memory:" (and, where URIs
	 * are on, "file:...?mode=memory") one in memory: a relative name is
	 * always opened as ./NAME, a file, never a special name. */
	file = path[0] == '/' ? ab_xstrdup(path) : ab_xasprintf("./%s", path);
	if (sqlite3_open_v2(file, &db->db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		int sys = db->db ? sqlite3_system_errno(db->db) : 0;
		const char *ro = read_only_reason(path, db->reason, sizeof(db->reason));

		/* sqlite's errno is its last attempt's: say why a read-only
		 * place refused the file rather than "No such file" */
		err = ab_error_set(AB_EIO, "cannot open the store '%s': %s%s%s; give --store a file in a "
				   "folder you can write", path,
				   ro ? ro : db->db ? sqlite3_errmsg(db->db) : "out of memory",
				   sys && !ro ? ": " : "", sys && !ro ? strerror(sys) : "");
		free(file);
		sq_close(db);
		return err;
	}
	free(file);
	sqlite3_busy_timeout(db->db, lock_wait_ms);
	sqlite3_extended_result_codes(db->db, 1);
	*out = db;
	/* sqlite opens a file it may not write read-only, without a word */
	*what = "opening";
	if (sqlite3_db_readonly(db->db, "main") == 1) {
		db->readonly = 1;
		return AB_EIO;
	}
	/* The file sqlite opened (it opens it at once), for sq_alive. */
	if (stat(path, &db->id) < 0)
		memset(&db->id, 0, sizeof(db->id));
	/* Neither pragma touches the file. */
	*what = "configuring";
	return sq_exec(db, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
}

/* WAL mode is written to the file's header, and a file that is not a
 * database fails here (SQLITE_NOTADB) if reading the version did not. */
static int sq_ready(struct ab_db *db, const char **what)
{
	*what = "enabling WAL";
	return sq_exec(db, "PRAGMA journal_mode=WAL");
}

/* The path names the file opened: the same device and inode. */
static int sq_alive(struct ab_db *db)
{
	struct stat now;

	if (!db->id.st_ino)
		return 0;  /* not known at open: nothing to compare */
	if (stat(db->path, &now) < 0)
		return ab_error_set(AB_EIO, "the file was deleted while abtool had it open (%s)",
				    strerror(errno));
	if (now.st_dev != db->id.st_dev || now.st_ino != db->id.st_ino)
		return ab_error_set(AB_EIO, "the file was replaced while abtool had it open (inode %llu, "
				    "now %llu)", (unsigned long long)db->id.st_ino,
				    (unsigned long long)now.st_ino);
	return 0;
}

static int sq_prepare(struct ab_db *db, const char *sql, struct ab_db_stmt **out)
{
	sqlite3_stmt *st;
	struct sq_stmt *s;

	*out = NULL;
	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return AB_EIO;
	s = ab_xmalloc(sizeof(*s));
	s->base.engine = &ab_store_engine_sqlite;
	s->st = st;
	*out = &s->base;
	return 0;
}

static int sq_rc(int rc)
{
	return rc == SQLITE_OK ? 0 : AB_EIO;
}

static int sq_bind_int64(struct ab_db_stmt *st, int i, int64_t v)
{
	return sq_rc(sqlite3_bind_int64(SQ(st), i, v));
}

static int sq_bind_double(struct ab_db_stmt *st, int i, double v)
{
	return sq_rc(sqlite3_bind_double(SQ(st), i, v));
}

static int sq_bind_text(struct ab_db_stmt *st, int i, const char *s, size_t len)
{
	return sq_rc(sqlite3_bind_text64(SQ(st), i, s, len, SQLITE_TRANSIENT, SQLITE_UTF8));
}

static int sq_bind_blob(struct ab_db_stmt *st, int i, const void *p, size_t len)
{
	return sq_rc(sqlite3_bind_blob64(SQ(st), i, p, len, SQLITE_TRANSIENT));
}

static int sq_bind_null(struct ab_db_stmt *st, int i)
{
	return sq_rc(sqlite3_bind_null(SQ(st), i));
}

static int sq_step(struct ab_db_stmt *st)
{
	int rc = sqlite3_step(SQ(st));

	return rc == SQLITE_ROW ? AB_DB_ROW : rc == SQLITE_DONE ? AB_DB_DONE : AB_EIO;
}

static int sq_column_count(struct ab_db_stmt *st)
{
	return sqlite3_column_count(SQ(st));
}

static const char *sq_column_name(struct ab_db_stmt *st, int i)
{
	return sqlite3_column_name(SQ(st), i);
}

static enum ab_db_type sq_column_type(struct ab_db_stmt *st, int i)
{
	switch (sqlite3_column_type(SQ(st), i)) {
	case SQLITE_INTEGER:
		return AB_DB_INT;
	case SQLITE_FLOAT:
		return AB_DB_FLOAT;
	case SQLITE_NULL:
		return AB_DB_NULL;
	case SQLITE_BLOB:
		return AB_DB_BLOB;
	default:
		return AB_DB_TEXT;
	}
}

static int64_t sq_column_int64(struct ab_db_stmt *st, int i)
{
	return sqlite3_column_int64(SQ(st), i);
}

static double sq_column_double(struct ab_db_stmt *st, int i)
{
	return sqlite3_column_double(SQ(st), i);
}

static const char *sq_column_text(struct ab_db_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(SQ(st), i);
}

static const void *sq_column_blob(struct ab_db_stmt *st, int i, size_t *len)
{
	const void *p = sqlite3_column_blob(SQ(st), i);

	*len = (size_t)sqlite3_column_bytes(SQ(st), i);
	return p;
}

static void sq_reset(struct ab_db_stmt *st)
{
	sqlite3_reset(SQ(st));
	sqlite3_clear_bindings(SQ(st));
}

static void sq_finalize(struct ab_db_stmt *st)
{
	if (!st)
		return;
	sqlite3_finalize(SQ(st));
	free(st);
}

static int sq_begin(struct ab_db *db, int write)
{
	return sq_exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int sq_commit(struct ab_db *db)
{
	return sq_exec(db, "COMMIT");
}

static void sq_rollback(struct ab_db *db)
{
	sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

static int64_t sq_changes(struct ab_db *db)
{
	return sqlite3_changes64(db->db);
}

static int64_t sq_last_insert_id(struct ab_db *db)
{
	return sqlite3_last_insert_rowid(db->db);
}

/* sqlite's "Making Other Kinds Of Table Schema Changes": foreign keys
 * off outside the migration's transaction, PRAGMA foreign_key_check
 * inside it before the commit, on again after (store_engine.h). */
static int sq_rebuild(struct ab_db *db, enum ab_db_rebuild step)
{
	sqlite3_stmt *st;
	int rc, err = 0;

	if (step != AB_DB_REBUILD_CHECK)
		return sq_exec(db, step == AB_DB_REBUILD_BEFORE ? "PRAGMA foreign_keys=OFF"
								: "PRAGMA foreign_keys=ON");
	if (sqlite3_prepare_v2(db->db, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return AB_EIO;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		err = ab_error_set(AB_EIO, "row %lld of table '%s' refers to a row of '%s' that is not "
				   "there", (long long)sqlite3_column_int64(st, 1),
				   (const char *)sqlite3_column_text(st, 0),
				   (const char *)sqlite3_column_text(st, 2));
	else if (rc != SQLITE_DONE)
		err = ab_error_set(AB_EIO, "checking the foreign keys: %s", sqlite3_errmsg(db->db));
	sqlite3_finalize(st);
	return err;
}

/* The schema version is PRAGMA user_version. */
static int sq_schema_version(struct ab_db *db, int *out)
{
	sqlite3_stmt *st;
	int rc;

	*out = 0;
	if (sqlite3_prepare_v2(db->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return AB_EIO;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : AB_EIO;
}

static int sq_set_schema_version(struct ab_db *db, int version)
{
	char sql[48];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return sq_exec(db, sql);
}

/* The FTS5 statements: the search table of migration 0002 (its rowid
 * encodes the source: ref = rowid / 4, rowid % 4 the kind), and a
 * temporary FTS5 table with the search table's tokenizer, read back
 * through fts5vocab, to stem words as the search does. */
static const char *sq_sql(enum ab_db_sql which)
{
	switch (which) {
	case AB_DB_SQL_SEARCH_RUNS:
		return AB_SQL_SEARCH_RUNS("rowid", "search MATCH ?%d");
	case AB_DB_SQL_WORDS_SETUP:
		return "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_words USING "
		       "fts5(text, tokenize = 'porter unicode61 remove_diacritics 2'); "
		       "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_terms USING "
		       "fts5vocab(temp, memory_words, instance); DELETE FROM temp.memory_words";
	case AB_DB_SQL_WORDS_ADD:
		return "INSERT INTO temp.memory_words(rowid, text) VALUES (?1, ?2)";
	case AB_DB_SQL_WORDS_REPEATED:
		return "SELECT doc FROM temp.memory_terms t WHERE offset = 0 AND "
		       "EXISTS (SELECT 1 FROM temp.memory_terms u WHERE u.term = t.term "
		       "AND u.offset = 0 AND u.doc < t.doc)";
	case AB_DB_SQL_WORDS_CLEAR:
		return "DELETE FROM temp.memory_words";
	case AB_DB_SQL_MEMORY_MATCH:
		return "SELECT %zu AS word, rowid AS doc, rank FROM search WHERE search MATCH ?%zu "
		       "AND rowid %% 4 != 2";
	case AB_DB_SQL_DERIVE_HEADLINE:
		return "UPDATE runs SET metric = json_extract(report, '$.metric'), "
		       "better = coalesce((SELECT json_extract(value, '$.better') FROM json_each(report, "
		       "'$.rows') LIMIT 1), 'lower'), "
		       "ratio_min = (SELECT min(json_extract(value, '$.ratio')) FROM json_each(report, "
		       "'$.rows') WHERE json_type(value, '$.ratio') IN ('real', 'integer')), "
		       "ratio_max = (SELECT max(json_extract(value, '$.ratio')) FROM json_each(report, "
		       "'$.rows') WHERE json_type(value, '$.ratio') IN ('real', 'integer')) "
		       "WHERE id = ?1 AND report IS NOT NULL AND json_valid(report)";
	case AB_DB_SQL_DERIVE_RULE_METRIC:
		return "UPDATE rule_results SET metric = (SELECT u.value ->> 'metric' FROM runs r, "
		       "json_each(r.report, '$.rules') u WHERE r.id = rule_results.run_id AND "
		       "json_valid(r.report) AND CAST(u.key AS INTEGER) = rule_results.idx) WHERE run_id = ?1";
	case AB_DB_SQL_RUN_DEPENDENCIES:
		return "(SELECT json_group_array(json_object('name', x.name, 'parent', x.parent_oid, "
		       "'candidate', x.candidate_oid)) FROM (SELECT name, parent_oid, candidate_oid "
		       "FROM run_dependencies WHERE run_id = r.id ORDER BY rowid) x)";
	case AB_DB_SQL_RUN_RULE_NAMES:
		return "(SELECT json_group_array(x.name) FROM (SELECT name FROM rule_results "
		       "WHERE run_id = r.id ORDER BY idx) x)";
	}
	return NULL;
}

char *ab_store_sqlite_search_term(const char *text, size_t len, int prefix)
{
	char *term = ab_xmalloc(2 * len + 4), *w = term;
	size_t i;

	*w++ = '"';
	for (i = 0; i < len; i++) {
		if (text[i] == '"')
			*w++ = '"';
		*w++ = text[i];
	}
	*w++ = '"';
	if (prefix)
		*w++ = '*';
	*w = '\0';
	return term;
}

const struct ab_store_engine ab_store_engine_sqlite = {
	.name = "sqlite",
	.migrations = "store/migrations/",
	.open = sq_open,
	.close = sq_close,
	.ready = sq_ready,
	.alive = sq_alive,
	.exec = sq_exec,
	.prepare = sq_prepare,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob,
	.bind_null = sq_bind_null,
	.step = sq_step,
	.column_count = sq_column_count,
	.column_name = sq_column_name,
	.column_type = sq_column_type,
	.column_int64 = sq_column_int64,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.column_blob = sq_column_blob,
	.reset = sq_reset,
	.finalize = sq_finalize,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.changes = sq_changes,
	.last_insert_id = sq_last_insert_id,
	.last_error = sq_last_error,
	.schema_version = sq_schema_version,
	.set_schema_version = sq_set_schema_version,
	.rebuild = sq_rebuild,
	.sql = sq_sql,
	.search_term = ab_store_sqlite_search_term,
};
