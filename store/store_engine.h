/* store_engine.h - the database engine under the store: an interface of
 * function pointers at the level of prepared statements, so that the
 * store's sections (store*.c) never name the engine. abtool links two:
 * sqlite (store_sqlite.c) for a file and PostgreSQL (store_pg.c) for a
 * server database; store.c chooses by the store's path (or
 * ab_store_use_engine), and another engine implements the same table.
 *
 * What every engine must guarantee (the contract):
 *
 *   SQL. The store writes one SQL text per statement, with parameters
 *   numbered ?1..?N (each number may appear more than once, or not at
 *   all); an engine whose placeholders are spelled otherwise ($1..$N)
 *   renumbers them, outside string literals and quoted names. A script
 *   (exec) is statements separated by semicolons, without parameters.
 *   Statements that differ between engines (full-text search) are asked
 *   for with `sql`; the migrations are the embedded files under
 *   `migrations`, numbered NNNN_name.sql from 1, applied in order, each
 *   in its own write transaction; an engine that cannot change a
 *   constraint in place (sqlite: a migration rebuilds the table) has the
 *   `rebuild` hook around each, for what must happen outside the
 *   transaction.
 *
 *   Values. A parameter is bound as an int64, a double, a text (copied
 *   by the engine before bind returns; may hold any byte but NUL), a
 *   blob (copied) or NULL, by its number; a number never bound is NULL.
 *   What is read back is what was stored, exactly: an int64 to the last
 *   bit (every value of int64_t), a double to the last bit (an engine
 *   that moves values as text writes 17 significant digits), text
 *   byte for byte, NULL distinct from the empty text and from 0. A
 *   column's type (column_type) is that of the value in the current
 *   row: AB_DB_INT for integers, AB_DB_FLOAT for reals, AB_DB_TEXT,
 *   AB_DB_BLOB, AB_DB_NULL; reading a column in another type converts
 *   as sqlite does (text of a number, number of a numeric text).
 *   Pointers returned by column_text, column_blob and column_name stay
 *   valid until the statement is stepped again, reset or finalized.
 *
 *   Statements. step returns AB_DB_ROW with a row to read, AB_DB_DONE
 *   when there are no more, or a negative value on failure (last_error
 *   then describes it). An engine may run the whole statement on the
 *   first step and hand out its rows after (as a server's client library
 *   does): a statement's effects are complete when step first returns
 *   AB_DB_DONE, or when a statement with RETURNING gives its first row.
 *   reset makes a statement ready to run again and clears its bindings.
 *   changes is the number of rows the last completed INSERT, UPDATE or
 *   DELETE changed; last_insert_id the id (INTEGER PRIMARY KEY) of the
 *   row the last INSERT added on this connection.
 *
 *   Transactions. Outside begin/commit every statement commits on its
 *   own. begin(write = 1) takes the database's write lock at once (a
 *   concurrent writer waits up to the open's lock_wait_ms, then the
 *   call fails with AB_DB_FAULT_BUSY), so two processes never both
 *   apply one migration; begin(write = 0) starts a read transaction
 *   that sees one snapshot of the database. rollback never fails and
 *   may be called when the transaction is already gone.
 *
 *   Errors. Nothing prints. last_error describes the connection's last
 *   failure (fault kind, the system errno when the failure was an I/O
 *   one, the engine's message) until the next call on the connection;
 *   the store turns it into the user's message (store_core.c ab_db_error).
 */
#ifndef AB_STORE_ENGINE_H
#define AB_STORE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct ab_store_engine;

/* A connection. Each engine's own struct; the store never looks inside. */
struct ab_db;

/* A prepared statement. Each engine's struct begins with this member so
 * that the store's helpers (store_core.h) reach the engine from it. */
struct ab_db_stmt {
	const struct ab_store_engine *engine;
};

enum { AB_DB_DONE = 0, AB_DB_ROW = 1 };

enum ab_db_type { AB_DB_NULL, AB_DB_INT, AB_DB_FLOAT, AB_DB_TEXT, AB_DB_BLOB };

/* What went wrong, as far as the store's messages tell apart. */
enum ab_db_fault {
	AB_DB_FAULT_OTHER,
	AB_DB_FAULT_BUSY,      /* another connection holds the lock beyond the wait */
	AB_DB_FAULT_NOTADB,    /* the file or server is not a database */
	AB_DB_FAULT_CORRUPT,   /* the database is damaged */
	AB_DB_FAULT_FULL,      /* no room: disk full or a size limit */
	AB_DB_FAULT_READONLY,  /* the database cannot be written: a read-only file system,
	                          file or folder (sqlite's WAL files cannot be made), or a
	                          server's read-only session or missing privilege */
	AB_DB_FAULT_LOST,      /* the connection to the server is lost: what was committed
	                          before stays, the statement and its transaction did not */
};

struct ab_db_error {
	enum ab_db_fault fault;
	int sys_errno;          /* errno of an I/O failure (file system), or 0 */
	const char *message;    /* the engine's text (borrowed; valid until the next call) */
};

/* The engine-specific statements the store asks for (sql). The FTS5 index
 * of migration 0002 is sqlite's; another engine has its own full-text
 * search, with the same parameters and result columns. */
/* The steps of a migration the `rebuild` hook is called at. */
enum ab_db_rebuild {
	AB_DB_REBUILD_BEFORE,   /* outside any transaction, before the migration's begins */
	AB_DB_REBUILD_CHECK,    /* inside it, after the migration's statements, before commit */
	AB_DB_REBUILD_AFTER,    /* outside again, after its commit or rollback */
};

enum ab_db_sql {
	/* A condition on runs r: the run matches the full-text query ?%d
	 * (a format with one %d: the parameter number). Each engine's is
	 * AB_SQL_SEARCH_RUNS over its own match. */
	AB_DB_SQL_SEARCH_RUNS,
	/* Script: make the (temporary, connection-local) word table of
	 * AB_DB_SQL_WORDS_* empty and ready. */
	AB_DB_SQL_WORDS_SETUP,
	/* Add word ?2 as document ?1 (0, 1, ...) to the word table. */
	AB_DB_SQL_WORDS_ADD,
	/* The documents (one column) whose first term some earlier document
	 * of the word table also has: words that stem alike. */
	AB_DB_SQL_WORDS_REPEATED,
	/* Script: empty the word table. */
	AB_DB_SQL_WORDS_CLEAR,
	/* A format with two %zu (word number, parameter number): the
	 * documents of the search index matching full-text query ?N as
	 * (word, doc, rank), lower rank better, only experiment, design and
	 * note documents; joined with UNION ALL, one per word. */
	AB_DB_SQL_MEMORY_MATCH,
	/* An UPDATE of runs ?1 from its JSON report (store_core.c
	 * ab_store_derive_results): metric, better, ratio_min, ratio_max. */
	AB_DB_SQL_DERIVE_HEADLINE,
	/* An UPDATE of rule_results of run ?1: each rule's metric from the
	 * report's rules[idx].metric. */
	AB_DB_SQL_DERIVE_RULE_METRIC,
	/* A scalar subquery over a run r: its run_dependencies as a JSON
	 * array of {name, parent, candidate} in the order they were added
	 * ('[]' when none). */
	AB_DB_SQL_RUN_DEPENDENCIES,
	/* A scalar subquery over a run r: its rule_results' names as a JSON
	 * array in idx order ('[]' when none). */
	AB_DB_SQL_RUN_RULE_NAMES,
};

/* AB_DB_SQL_SEARCH_RUNS: the runs whose experiment, design, own text or
 * notes (a note on the run, or on its design and no run) are documents of
 * the search table that match. Both engines' search table has a row per
 * document, its id ref * 4 + the kind's number and its `kind`; DOCID is
 * the engine's name for that id, MATCH its condition (static text, with
 * ?%d) that a row matches the full-text query: the only difference
 * between the engines' texts. */
#define AB_SQL_SEARCH_RUNS(DOCID, MATCH)                                                          \
	"r.id IN (WITH h(kind, ref) AS (SELECT kind, " DOCID " / 4 FROM search WHERE " MATCH ") "  \
	"SELECT x.id FROM runs x WHERE x.experiment_id IN (SELECT ref FROM h WHERE kind = "        \
	"'experiment') "                                                                           \
	"OR x.design_id IN (SELECT ref FROM h WHERE kind = 'design') "                             \
	"OR x.id IN (SELECT ref FROM h WHERE kind = 'run') "                                       \
	"OR x.id IN (SELECT n.run_id FROM notes n WHERE n.id IN (SELECT ref FROM h WHERE "        \
	"kind = 'note')) "                                                                         \
	"OR x.design_id IN (SELECT n.design_id FROM notes n WHERE n.run_id IS NULL "               \
	"AND n.id IN (SELECT ref FROM h WHERE kind = 'note')))"

struct ab_store_engine {
	const char *name;
	/* The embedded migrations' path prefix, e.g. "store/migrations/". */
	const char *migrations;
	/* Make the engine usable: load what it opens at run time rather
	 * than links (PostgreSQL: libpq), once per process. The registry
	 * (ab_store_engine_for) calls it before any other hook for a store
	 * of the engine's scheme. 0, or negative with the error message set
	 * (what is missing and the package that has it). NULL: always
	 * usable. */
	int (*load)(void);
	/* Connect to the database `path`, waiting up to lock_wait_ms for
	 * another connection's lock, without changing an existing database:
	 * the store reads its schema version first and leaves a store it does
	 * not know as it found it. When `create` is 1 the database (and the
	 * folder of a file) is created when missing; when 0 nothing is
	 * created and a missing database is AB_ENOTFOUND with *out NULL and a
	 * message naming the path. 0; or a negative AB_E* code with *out NULL
	 * and the error message set (ab_error_set, naming the path); or a
	 * negative code with *out set: last_error tells why and *what names
	 * the step that failed (close *out). */
	int (*open)(struct ab_db **out, const char *path, int lock_wait_ms, int create,
		    const char **what);
	/* The store's name as messages may show it (a new string): for a
	 * server, its host, port, user and database, never a password or
	 * other option of the connection string. NULL: the path itself. */
	char *(*describe)(const char *path);
	/* After the store accepted the schema version: make the connection
	 * ready for the store's reads and writes (sqlite: WAL mode, which
	 * rewrites the file's header). NULL: nothing to do. 0 or negative,
	 * *what naming the step that failed. */
	int (*ready)(struct ab_db *db, const char **what);
	/* Whether the database this connection opened is still the store's:
	 * 0; or AB_EIO with the error message set (ab_error_set, naming the
	 * path and what happened) when it is gone: for a file, it was deleted
	 * or replaced since open (its path names another file, or none); for
	 * a server, the connection is lost. Writes since then may be lost. */
	int (*alive)(struct ab_db *db);
	void (*close)(struct ab_db *db);
	/* Run a script of statements without parameters. 0 or negative. */
	int (*exec)(struct ab_db *db, const char *sql);
	/* Prepare one statement. 0 or negative (*out NULL). A server engine
	 * may send the statement with its first step: then a statement the
	 * server refuses fails there instead. */
	int (*prepare)(struct ab_db *db, const char *sql, struct ab_db_stmt **out);
	int (*bind_int64)(struct ab_db_stmt *st, int i, int64_t v);
	int (*bind_double)(struct ab_db_stmt *st, int i, double v);
	int (*bind_text)(struct ab_db_stmt *st, int i, const char *s, size_t len);
	int (*bind_blob)(struct ab_db_stmt *st, int i, const void *p, size_t len);
	int (*bind_null)(struct ab_db_stmt *st, int i);
	int (*step)(struct ab_db_stmt *st);
	int (*column_count)(struct ab_db_stmt *st);
	const char *(*column_name)(struct ab_db_stmt *st, int i);
	enum ab_db_type (*column_type)(struct ab_db_stmt *st, int i);
	int64_t (*column_int64)(struct ab_db_stmt *st, int i);
	double (*column_double)(struct ab_db_stmt *st, int i);
	const char *(*column_text)(struct ab_db_stmt *st, int i);          /* NULL for NULL */
	const void *(*column_blob)(struct ab_db_stmt *st, int i, size_t *len);
	void (*reset)(struct ab_db_stmt *st);
	void (*finalize)(struct ab_db_stmt *st);                           /* NULL: no-op */
	int (*begin)(struct ab_db *db, int write);
	int (*commit)(struct ab_db *db);
	void (*rollback)(struct ab_db *db);
	int64_t (*changes)(struct ab_db *db);
	int64_t (*last_insert_id)(struct ab_db *db);
	void (*last_error)(struct ab_db *db, struct ab_db_error *out);
	/* The schema version (0 for a new database); set it inside a
	 * migration's transaction. 0 or negative. */
	int (*schema_version)(struct ab_db *db, int *out);
	int (*set_schema_version)(struct ab_db *db, int version);
	/* Around every migration (store.c migrate), for migrations that
	 * rebuild a table: sqlite's "Making Other Kinds Of Table Schema
	 * Changes", whose PRAGMA foreign_keys is a no-op inside a
	 * transaction. BEFORE turns the enforcement of foreign keys off (a
	 * DROP TABLE would otherwise delete, or refuse to delete, the rows
	 * other tables refer to); CHECK checks every foreign key of the
	 * database (0, or AB_EIO with the error message set, naming a table
	 * and row that refers to a missing one: the store rolls the
	 * migration back); AFTER turns enforcement on again and is called
	 * after every BEFORE that succeeded, whether the migration committed
	 * or not. BEFORE and AFTER return 0 or negative (last_error tells
	 * why). NULL: the engine changes constraints in place (ALTER TABLE
	 * ... DROP CONSTRAINT) and needs nothing around a migration. */
	int (*rebuild)(struct ab_db *db, enum ab_db_rebuild step);
	/* An engine-specific statement (static text). */
	const char *(*sql)(enum ab_db_sql which);
	/* The full-text query (a new string, the caller frees it) that
	 * matches the words of `len` bytes at `text` as one phrase, the last
	 * word as a prefix when `prefix`; user text is searched for, never
	 * parsed as query syntax. The matching contract both engines honour
	 * is docs/history.md's "Searching history". */
	char *(*search_term)(const char *text, size_t len, int prefix);
	/* 1 when the store's name `path` holds a password (store.h
	 * ab_store_url_has_password), else 0. NULL: never (a file name). */
	int (*has_password)(const char *path);
};

/* The sqlite engine (store_sqlite.c): one file per store, WAL. */
extern const struct ab_store_engine ab_store_engine_sqlite;

/* The PostgreSQL engine (store_pg.c, libpq loaded when the first store
 * is opened): a store is a database on a server, named by a postgresql://
 * or postgres:// URL (libpq's URI form). Not in a build configured with
 * -DABTOOL_POSTGRESQL=OFF. */
extern const struct ab_store_engine ab_store_engine_pg;

/*
 * The engines by URL scheme (store_engine.c, one table): a store named by
 * a URL whose scheme is in the table is a database on a server, opened by
 * that scheme's engine; any other name is a sqlite file. A scheme whose
 * engine was left out of the build stays in the table, so that its URLs
 * are still told from file names, and are refused saying why.
 */

/* 1 when `path` begins with a scheme of the table (postgresql://,
 * postgres://), whether or not this abtool has its engine; else 0. */
int ab_store_engine_scheme(const char *path);

/* The engine that opens the store `path`, usable (its load hook has
 * run): the engine of the scheme `path` begins with, or sqlite's. 0 with
 * *out; or AB_EIO with *out NULL and the error message set when that
 * scheme's engine is not in this build or cannot load what it needs
 * (the message names the build option or the package to install). */
int ab_store_engine_for(const char *path, const struct ab_store_engine **out);

/* 1 when `engine` opens stores by a URL scheme (a server's), else 0 (a
 * file's, or an engine of the tests): for the words of messages. */
int ab_store_engine_is_server(const struct ab_store_engine *engine);

/* The name messages, reports and command lines give the store `path`
 * (store.h ab_store_describe; a new string): the engine's describe, or
 * the path itself; when the scheme's engine is not usable, the scheme
 * followed by "..." (the rest may hold a password). Never fails. */
char *ab_store_engine_describe(const char *path);

#endif
