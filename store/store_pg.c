/* store_pg.c - the PostgreSQL engine of the store (store_engine.h),
 * through libpq, loaded when the first store is opened (pq_load), not
 * linked: a store is a database on a server, named by a
 * postgresql:// or postgres:// URL (libpq's URI form). Values cross as
 * text (libpq's text format, bytea in its hex form), each statement runs
 * whole on its first step (PQexecParams) and hands out its rows after;
 * the schema version is the table abtool_schema; a write transaction
 * takes one transaction-scoped advisory lock, so that writers queue as
 * they do on a sqlite file and two processes never both apply one
 * migration. Credentials stay with libpq: the URL, PGPASSFILE or
 * PGSERVICE give them, and only host, port, user and database name reach
 * a message (docs/history.md, "A team store on PostgreSQL"). */
#include "store_engine.h"
#include "error.h"
#include "util.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

/* The library loaded when the first PostgreSQL store is opened (pq_load),
 * not linked: a command on a sqlite store never loads libpq and the
 * Kerberos, LDAP and TLS libraries it needs (docs/performance.md,
 * "Start-up"). ABTOOL_LIBPQ names another file, for packagers and for
 * the test that runs abtool as if libpq were not installed. */
#define PQ_LIBRARY "libpq.so.5"

/* The functions of libpq the engine calls, without their PQ prefix;
 * libpq-fe.h gives their types. Call them as pq.exec(...). */
#define PQ_FUNCTIONS(X)                                                                         \
	X(clear) X(cmdTuples) X(connectdbParams) X(conninfoFree) X(conninfoParse) X(errorMessage) \
	X(exec) X(execParams) X(finish) X(fname) X(freemem) X(ftype) X(getisnull) X(getlength)    \
	X(getvalue) X(host) X(nfields) X(ntuples) X(resultErrorField) X(resultStatus)             \
	X(setNoticeProcessor) X(status) X(transactionStatus) X(unescapeBytea)

struct pq_functions {
#define PQ_POINTER(name) __typeof__(PQ##name) *name;
	PQ_FUNCTIONS(PQ_POINTER)
#undef PQ_POINTER
};

/* Filled by pq_load; every call into libpq goes through it. */
static struct pq_functions pq;
static void *pq_handle;

/* Load libpq and its functions into `pq`, once per process (stores are
 * opened by one thread): 0, or AB_EIO with a message that names the
 * file and Debian's package, and nothing loaded. */
static int pq_load(void)
{
	const char *file = getenv("ABTOOL_LIBPQ"), *missing = NULL;
	struct pq_functions f;
	void *handle;

	if (pq_handle)
		return 0;
	if (!file || !*file)
		file = PQ_LIBRARY;
	if (!(handle = dlopen(file, RTLD_NOW | RTLD_LOCAL)))
		return ab_error_set(AB_EIO, "cannot open a PostgreSQL store: %s is not installed (Debian: "
				    "apt-get install libpq5): %s", file, dlerror());
#define PQ_SYMBOL(name) \
	if (!(f.name = (__typeof__(f.name))dlsym(handle, "PQ" #name)) && !missing) \
		missing = "PQ" #name;
	PQ_FUNCTIONS(PQ_SYMBOL)
#undef PQ_SYMBOL
	if (missing) {
		int rc = ab_error_set(AB_EIO, "cannot open a PostgreSQL store: %s has no %s; install "
				      "libpq 10 or later (Debian: apt-get install libpq5)", file, missing);

		dlclose(handle);
		return rc;
	}
	pq = f;
	pq_handle = handle;
	return 0;
}

/* The advisory lock of a write transaction: any constant the store owns
 * ("abtool" in ASCII). */
#define PG_WRITE_LOCK 0x6162746f6f6cLL

/* pg_type oids (server/catalog/pg_type_d.h, stable across versions) */
enum {
	PG_BOOL = 16, PG_BYTEA = 17, PG_INT8 = 20, PG_INT2 = 21, PG_INT4 = 23, PG_TEXT = 25, PG_OID = 26,
	PG_FLOAT4 = 700, PG_FLOAT8 = 701, PG_NUMERIC = 1700,
};

struct ab_db {
	PGconn *conn;
	char *name;              /* host, port, user, database: for messages */
	enum ab_db_fault fault;  /* the last failure */
	char *message;
	int64_t changes;
	int lock_wait_ms;
};

struct pg_stmt {
	struct ab_db_stmt base;
	struct ab_db *db;
	char *sql;               /* with $N placeholders */
	int nparams;
	char **values;           /* nparams texts (NULL for NULL) */
	int *lengths, *formats;
	Oid *types;
	PGresult *res;
	int ran, row, nrows;     /* row: the current one (-1 before the first) */
	unsigned char *blob;     /* the last blob column_blob decoded */
	unsigned char *used;     /* nparams flags: $N appears in the text */
};

#define PS(s) ((struct pg_stmt *)(s))

/* Remember a failure: its kind from the SQLSTATE (PostgreSQL's
 * "Appendix A. PostgreSQL Error Codes"), its primary message. */
static void fail(struct ab_db *db, const PGresult *res)
{
	const char *state = res ? pq.resultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? pq.resultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char *nl;

	if (!msg || !*msg)
		msg = pq.errorMessage(db->conn);
	free(db->message);
	db->message = ab_xstrdup(msg && *msg ? msg : "unknown error");
	if ((nl = strchr(db->message, '\n')))
		*nl = '\0';
	db->fault = AB_DB_FAULT_OTHER;
	/* no SQLSTATE: libpq's own failure, which on a connection that was
	 * working is the connection (the server closed it, or the network);
	 * class 08 is a connection exception, 57P0x an operator's or a
	 * crash's shutdown of the server */
	if (pq.status(db->conn) == CONNECTION_BAD || (res && !state) ||
	    (state && (!strncmp(state, "08", 2) || !strncmp(state, "57P0", 4))))
		db->fault = AB_DB_FAULT_LOST;
	else if (state && (!strcmp(state, "55P03") || !strcmp(state, "40001") || !strcmp(state, "40P01")))
		db->fault = AB_DB_FAULT_BUSY;
	else if (state && !strncmp(state, "53", 2))
		db->fault = AB_DB_FAULT_FULL;
	else if (state && (!strcmp(state, "25006") || !strcmp(state, "42501")))
		db->fault = AB_DB_FAULT_READONLY;
	else if (state && !strncmp(state, "XX00", 4))
		db->fault = AB_DB_FAULT_CORRUPT;
}

static void pg_last_error(struct ab_db *db, struct ab_db_error *out)
{
	out->fault = db->fault;
	out->sys_errno = 0;
	out->message = db->message ? db->message : "not an error";
}

/* Run `sql` without parameters; 0, or AB_EIO with the failure kept. */
static int pg_exec(struct ab_db *db, const char *sql)
{
	PGresult *res = pq.exec(db->conn, sql);
	ExecStatusType s = pq.resultStatus(res);
	int ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;

	if (!ok)
		fail(db, res);
	pq.clear(res);
	return ok ? 0 : AB_EIO;
}

static void pg_close(struct ab_db *db)
{
	if (!db)
		return;
	pq.finish(db->conn);
	free(db->name);
	free(db->message);
	free(db);
}

/* Notices ("relation already exists, skipping") are not the user's. */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* "postgresql://USER@HOST:PORT/DB" of a connection URL, without
 * its password or any other option: what messages may name. */
static char *describe(const char *conninfo)
{
	PQconninfoOption *opts, *o;
	const char *host = NULL, *hostaddr = NULL, *port = NULL, *dbname = NULL, *user = NULL;
	const char *service = NULL, *sock;
	char *out;

	if (pq_load() < 0)
		return ab_xstrdup("postgresql://...");  /* nothing of a URL libpq cannot parse */
	opts = pq.conninfoParse(conninfo, NULL);
	for (o = opts; o && o->keyword; o++) {
		if (!o->val || !*o->val)
			continue;
		if (!strcmp(o->keyword, "host"))
			host = o->val;
		else if (!strcmp(o->keyword, "hostaddr"))
			hostaddr = o->val;
		else if (!strcmp(o->keyword, "port"))
			port = o->val;
		else if (!strcmp(o->keyword, "dbname"))
			dbname = o->val;
		else if (!strcmp(o->keyword, "user"))
			user = o->val;
		else if (!strcmp(o->keyword, "service"))
			service = o->val;
	}
	/* a socket folder goes in the query, as libpq's URLs write it */
	sock = (host && host[0] == '/') ? host : NULL;
	out = ab_xasprintf("postgresql://%s%s%s%s%s/%s%s%s%s%s%s", user ? user : "", user ? "@" : "",
			   sock ? "" : host ? host : hostaddr ? hostaddr : "", port ? ":" : "",
			   port ? port : "", dbname ? dbname : "", sock ? "?host=" : "", sock ? sock : "",
			   service ? " (service " : "", service ? service : "", service ? ")" : "");
	pq.conninfoFree(opts);
	return out;
}

/* The password in the user part or as password=, by libpq's parse. */
static int has_password(const char *path)
{
	PQconninfoOption *opts, *o;
	int found = 0;

	if (pq_load() < 0 || !(opts = pq.conninfoParse(path, NULL)))
		return 0;
	for (o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val)
			found = 1;
	pq.conninfoFree(opts);
	return found;
}

static int pg_open(struct ab_db **out, const char *path, int lock_wait_ms, int create,
		   const char **what)
{
	const char *keys[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *vals[] = {"10", "abtool", path, NULL};
	struct ab_db *db;
	char *err = NULL;
	PQconninfoOption *opts;
	int loaded;

	*out = NULL;
	if ((loaded = pq_load()) < 0)
		return loaded;
	/* create: a server's database is made with createdb, not by a client */
	if (!(opts = pq.conninfoParse(path, &err))) {
		int rc = ab_error_set(AB_EINVALID, "the store '%s' is not a PostgreSQL connection URL: %s",
				      path, err ? err : "out of memory");
		pq.freemem(err);
		return rc;
	}
	pq.conninfoFree(opts);
	db = ab_xcalloc(1, sizeof(*db));
	db->name = describe(path);
	db->lock_wait_ms = lock_wait_ms;
	db->conn = pq.connectdbParams(keys, vals, 1);
	if (!db->conn || pq.status(db->conn) != CONNECTION_OK) {
		const char *why = db->conn ? pq.errorMessage(db->conn) : "out of memory";
		char *msg = ab_xstrdup(why), *nl;
		const char *host = db->conn ? pq.host(db->conn) : NULL;
		int rc;

		while ((nl = strrchr(msg, '\n')) && !nl[1])
			*nl = '\0';
		for (nl = msg; (nl = strpbrk(nl, "\n\t"));)
			*nl = ' ';
		if (strstr(msg, "database \"") && strstr(msg, "\" does not exist"))
			/* the server answered: the database is missing */
			rc = create ? ab_error_set(AB_EIO, "there is no database for the PostgreSQL store %s "
						   "(host %s): %s; create it (createdb), or give another "
						   "--store", db->name, host && *host ? host : "default", msg)
				: ab_error_set(AB_ENOTFOUND, "there is no store at %s (host %s): %s", db->name,
					       host && *host ? host : "default", msg);
		else
			rc = ab_error_set(AB_EIO, "cannot connect to the PostgreSQL store %s (host %s): %s; "
					  "check that the server runs and the URL, PGPASSFILE or PGSERVICE "
					  "are right (nothing was written)", db->name,
					  host && *host ? host : "default", msg);
		free(msg);
		pg_close(db);
		return rc;
	}
	pq.setNoticeProcessor(db->conn, quiet, NULL);
	*out = db;
	*what = "configuring the session";
	return pg_exec(db, "SET client_min_messages = warning; SET TIME ZONE 'UTC'; "
		       "SET extra_float_digits = 3; SET standard_conforming_strings = on");
}

/* The connection answers: libpq's status, then a round trip. */
static int pg_alive(struct ab_db *db)
{
	if (pq.status(db->conn) == CONNECTION_OK && pg_exec(db, "SELECT 1") == 0)
		return 0;
	return ab_error_set(AB_EIO, "the connection to the PostgreSQL server %s is lost (%s)", db->name,
			    db->message ? db->message : pq.errorMessage(db->conn));
}

/* ?N as $N outside '...' and "..." (quotes doubled inside; the store's
 * statements hold no dollar quotes); *max the highest N. */
static char *renumber(const char *sql, int *max, unsigned char **used)
{
	char *out = ab_xmalloc(strlen(sql) + 1), *o = out;
	const char *p;
	char quote = 0;

	*max = 0;
	for (p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '?' && p[1] >= '0' && p[1] <= '9') {
			int n = (int)strtol(p + 1, NULL, 10);
			if (n > *max) {
				*used = ab_xrealloc(*used, (size_t)n);
				memset(*used + *max, 0, (size_t)(n - *max));
				*max = n;
			}
			(*used)[n - 1] = 1;
			*o++ = '$';
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static int pg_prepare(struct ab_db *db, const char *sql, struct ab_db_stmt **out)
{
	struct pg_stmt *s = ab_xcalloc(1, sizeof(*s));

	s->base.engine = &ab_store_engine_pg;
	s->db = db;
	s->sql = renumber(sql, &s->nparams, &s->used);
	if (s->nparams) {
		s->values = ab_xcalloc((size_t)s->nparams, sizeof(*s->values));
		s->lengths = ab_xcalloc((size_t)s->nparams, sizeof(*s->lengths));
		s->formats = ab_xcalloc((size_t)s->nparams, sizeof(*s->formats));
		s->types = ab_xcalloc((size_t)s->nparams, sizeof(*s->types));
	}
	s->row = -1;
	*out = &s->base;
	return 0;
}

/* Keep parameter i (from 1) as `len` bytes at `p` (NULL: SQL NULL). */
static int put(struct ab_db_stmt *st, int i, Oid type, const void *p, size_t len, int binary)
{
	struct pg_stmt *s = PS(st);

	if (i < 1 || i > s->nparams)
		return 0;  /* a number the statement does not use: sqlite ignores it too */
	free(s->values[i - 1]);
	s->values[i - 1] = NULL;
	if (p) {
		s->values[i - 1] = ab_xmalloc(len + 1);
		memcpy(s->values[i - 1], p, len);
		s->values[i - 1][len] = '\0';
	}
	s->lengths[i - 1] = (int)len;
	s->formats[i - 1] = binary;
	s->types[i - 1] = type;
	return 0;
}

static int pg_bind_int64(struct ab_db_stmt *st, int i, int64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%" PRId64, v);

	return put(st, i, PG_INT8, buf, (size_t)n, 0);
}

static int pg_bind_double(struct ab_db_stmt *st, int i, double v)
{
	char buf[40];
	int n = isnan(v) ? snprintf(buf, sizeof(buf), "NaN")
		: isinf(v) ? snprintf(buf, sizeof(buf), v < 0 ? "-Infinity" : "Infinity")
		: snprintf(buf, sizeof(buf), "%.17g", v);

	return put(st, i, PG_FLOAT8, buf, (size_t)n, 0);
}

/* Text goes untyped (0): the server takes the type the statement gives
 * the parameter, as sqlite's affinity does. */
static int pg_bind_text(struct ab_db_stmt *st, int i, const char *p, size_t len)
{
	return put(st, i, 0, p, len, 0);
}

static int pg_bind_blob(struct ab_db_stmt *st, int i, const void *p, size_t len)
{
	return put(st, i, PG_BYTEA, p ? p : "", len, 1);
}

static int pg_bind_null(struct ab_db_stmt *st, int i)
{
	return put(st, i, 0, NULL, 0, 0);
}

static int pg_step(struct ab_db_stmt *st)
{
	struct pg_stmt *s = PS(st);

	if (!s->ran) {
		ExecStatusType status;
		const char *tuples;
		int i;

		/* a number the text skips has no context to take a type from */
		for (i = 0; i < s->nparams; i++)
			if (!s->used[i] && !s->types[i])
				s->types[i] = PG_TEXT;

		s->res = pq.execParams(s->db->conn, s->sql, s->nparams, s->types,
				      (const char *const *)s->values, s->lengths, s->formats, 0);
		status = pq.resultStatus(s->res);
		if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
			fail(s->db, s->res);
			pq.clear(s->res);
			s->res = NULL;
			return AB_EIO;
		}
		s->ran = 1;
		s->nrows = pq.ntuples(s->res);
		tuples = pq.cmdTuples(s->res);
		if (tuples && *tuples)
			s->db->changes = strtoll(tuples, NULL, 10);
	}
	if (s->row + 1 < s->nrows) {
		s->row++;
		return AB_DB_ROW;
	}
	s->row = s->nrows;
	return AB_DB_DONE;
}

static int pg_column_count(struct ab_db_stmt *st)
{
	return PS(st)->res ? pq.nfields(PS(st)->res) : 0;
}

static const char *pg_column_name(struct ab_db_stmt *st, int i)
{
	return pq.fname(PS(st)->res, i);
}

static int in_row(struct ab_db_stmt *st)
{
	struct pg_stmt *s = PS(st);

	return s->res && s->row >= 0 && s->row < s->nrows;
}

/* A numeric's text is an integer when it has no fraction or exponent. */
static enum ab_db_type pg_column_type(struct ab_db_stmt *st, int i)
{
	struct pg_stmt *s = PS(st);

	if (!in_row(st) || pq.getisnull(s->res, s->row, i))
		return AB_DB_NULL;
	switch (pq.ftype(s->res, i)) {
	case PG_BOOL:
	case PG_INT2:
	case PG_INT4:
	case PG_INT8:
	case PG_OID:
		return AB_DB_INT;
	case PG_FLOAT4:
	case PG_FLOAT8:
		return AB_DB_FLOAT;
	case PG_NUMERIC:
		return strpbrk(pq.getvalue(s->res, s->row, i), ".eEN") ? AB_DB_FLOAT : AB_DB_INT;
	case PG_BYTEA:
		return AB_DB_BLOB;
	default:
		return AB_DB_TEXT;
	}
}

static const char *pg_column_text(struct ab_db_stmt *st, int i)
{
	struct pg_stmt *s = PS(st);

	if (!in_row(st) || pq.getisnull(s->res, s->row, i))
		return NULL;
	return pq.getvalue(s->res, s->row, i);
}

/* Column i as the text of a number (NULL for NULL): a boolean's as 1 or
 * 0, as sqlite stores it. */
static const char *number_text(struct ab_db_stmt *st, int i)
{
	const char *t = pg_column_text(st, i);

	if (t && pq.ftype(PS(st)->res, i) == PG_BOOL)
		return t[0] == 't' ? "1" : "0";
	return t;
}

static int64_t pg_column_int64(struct ab_db_stmt *st, int i)
{
	const char *t = number_text(st, i);

	if (!t)
		return 0;
	if (strpbrk(t, ".eE"))
		return (int64_t)strtod(t, NULL);
	return strtoll(t, NULL, 10);
}

static double pg_column_double(struct ab_db_stmt *st, int i)
{
	const char *t = number_text(st, i);

	return t ? strtod(t, NULL) : 0;
}

static const void *pg_column_blob(struct ab_db_stmt *st, int i, size_t *len)
{
	struct pg_stmt *s = PS(st);
	const char *t = pg_column_text(st, i);

	*len = 0;
	if (!t)
		return NULL;
	if (pq.ftype(s->res, i) != PG_BYTEA) {
		*len = (size_t)pq.getlength(s->res, s->row, i);
		return t;
	}
	pq.freemem(s->blob);
	s->blob = pq.unescapeBytea((const unsigned char *)t, len);
	return s->blob;
}

static void pg_reset(struct ab_db_stmt *st)
{
	struct pg_stmt *s = PS(st);
	int i;

	pq.clear(s->res);
	s->res = NULL;
	s->ran = 0;
	s->row = -1;
	s->nrows = 0;
	for (i = 0; i < s->nparams; i++) {
		free(s->values[i]);
		s->values[i] = NULL;
		s->types[i] = 0;
		s->formats[i] = 0;
		s->lengths[i] = 0;
	}
}

static void pg_finalize(struct ab_db_stmt *st)
{
	struct pg_stmt *s = PS(st);

	if (!st)
		return;
	pg_reset(st);
	pq.freemem(s->blob);
	free(s->values);
	free(s->lengths);
	free(s->formats);
	free(s->types);
	free(s->used);
	free(s->sql);
	free(s);
}

/* A write transaction waits up to lock_wait_ms for the store's write
 * lock (lock_timeout, SQLSTATE 55P03 when it runs out: AB_DB_FAULT_BUSY);
 * a read transaction sees one snapshot (REPEATABLE READ). */
static int pg_begin(struct ab_db *db, int write)
{
	char sql[200];

	if (!write)
		return pg_exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ");
	snprintf(sql, sizeof(sql), "BEGIN; SET LOCAL lock_timeout = %d; SELECT pg_advisory_xact_lock(%lld)",
		 db->lock_wait_ms > 0 ? db->lock_wait_ms : 1, (long long)PG_WRITE_LOCK);
	if (pg_exec(db, sql) == 0)
		return 0;
	{
		enum ab_db_fault fault = db->fault;
		char *message = db->message ? ab_xstrdup(db->message) : NULL;

		pq.clear(pq.exec(db->conn, "ROLLBACK"));
		db->fault = fault;
		free(db->message);
		db->message = message;
	}
	return AB_EIO;
}

static int pg_commit(struct ab_db *db)
{
	return pg_exec(db, "COMMIT");
}

static void pg_rollback(struct ab_db *db)
{
	if (pq.transactionStatus(db->conn) != PQTRANS_IDLE)
		pq.clear(pq.exec(db->conn, "ROLLBACK"));
}

static int64_t pg_changes(struct ab_db *db)
{
	return db->changes;
}

/* The identity the last INSERT drew on this connection (lastval()): the
 * store's inserts draw one identity each, and the search triggers none. */
static int64_t pg_last_insert_id(struct ab_db *db)
{
	PGresult *res = pq.exec(db->conn, "SELECT lastval()");
	int64_t id = 0;

	if (pq.resultStatus(res) == PGRES_TUPLES_OK && pq.ntuples(res) == 1)
		id = strtoll(pq.getvalue(res, 0, 0), NULL, 10);
	pq.clear(res);
	return id;
}

/* What a database holds of its users' own, outside PostgreSQL's schemas
 * (pg_catalog, information_schema, pg_toast*, pg_temp*) and outside the
 * extensions (a template may give every new database some): relations
 * of any kind (tables, views, sequences, ...), functions and procedures,
 * types (not a relation's row type, not an array type) and schemas other
 * than public. */
#define PG_OWN_SCHEMA(col) "(" col " NOT IN ('pg_catalog', 'information_schema') AND " col \
	" NOT LIKE 'pg\\_toast%' AND " col " NOT LIKE 'pg\\_temp%')"
#define PG_NOT_EXTENSION(cls, oid) " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = " \
	"'" cls "'::regclass AND d.objid = " oid " AND d.deptype = 'e')"
#define PG_OWN_OBJECTS                                                                             \
	"(SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE "    \
	PG_OWN_SCHEMA("n.nspname") PG_NOT_EXTENSION("pg_class", "c.oid") ") + (SELECT count(*) "  \
	"FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE "                      \
	PG_OWN_SCHEMA("n.nspname") PG_NOT_EXTENSION("pg_proc", "p.oid") ") + (SELECT count(*) "    \
	"FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.typrelid = 0 AND "   \
	"t.typelem = 0 AND " PG_OWN_SCHEMA("n.nspname") PG_NOT_EXTENSION("pg_type", "t.oid")     \
	") + (SELECT count(*) FROM pg_namespace s WHERE s.nspname <> 'public' AND "               \
	PG_OWN_SCHEMA("s.nspname") PG_NOT_EXTENSION("pg_namespace", "s.oid") ")"

/* The version is the one row of abtool_schema. A database without it is
 * new (version 0) when it holds nothing of its own (PG_OWN_OBJECTS: no
 * table in any schema, no view, sequence, function, type or schema), and
 * not a store (AB_DB_FAULT_NOTADB) when it holds anything: abtool leaves
 * another program's database as it found it. */
static int pg_schema_version(struct ab_db *db, int *out)
{
	PGresult *res;
	int rc = 0;

	*out = 0;
	res = pq.exec(db->conn, "SELECT " PG_OWN_OBJECTS ", (SELECT count(*) FROM pg_tables WHERE "
		     "schemaname = current_schema() AND tablename = 'abtool_schema')");
	if (pq.resultStatus(res) != PGRES_TUPLES_OK) {
		fail(db, res);
		pq.clear(res);
		return AB_EIO;
	}
	if (strcmp(pq.getvalue(res, 0, 1), "1")) {
		if (strcmp(pq.getvalue(res, 0, 0), "0")) {
			free(db->message);
			db->message = ab_xstrdup("the database holds tables, views, sequences, functions "
						 "or schemas but no abtool_schema: it is another program's");
			db->fault = AB_DB_FAULT_NOTADB;
			rc = AB_EIO;
		}
		pq.clear(res);
		return rc;
	}
	pq.clear(res);
	res = pq.exec(db->conn, "SELECT version FROM abtool_schema");
	if (pq.resultStatus(res) != PGRES_TUPLES_OK) {
		fail(db, res);
		rc = AB_EIO;
	} else if (pq.ntuples(res) > 0) {
		*out = atoi(pq.getvalue(res, 0, 0));
	}
	pq.clear(res);
	return rc;
}

static int pg_set_schema_version(struct ab_db *db, int version)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS abtool_schema(version INTEGER NOT NULL); "
		 "DELETE FROM abtool_schema; INSERT INTO abtool_schema VALUES (%d)", version);
	return pg_exec(db, sql);
}

/* The full-text statements on the search table of 0010_init.sql (a
 * tsvector per document, docid = ref * 4 + kind) and a temporary word
 * table stemmed by the same 'english' configuration. A query is the
 * text of to_tsquery (pg_search_term). */
static const char *pg_sql(enum ab_db_sql which)
{
	switch (which) {
	case AB_DB_SQL_SEARCH_RUNS:
		return AB_SQL_SEARCH_RUNS("docid", "tsv @@ to_tsquery('english', ?%d)");
	case AB_DB_SQL_WORDS_SETUP:
		return "CREATE TEMPORARY TABLE IF NOT EXISTS memory_words(doc BIGINT, text TEXT); "
		       "DELETE FROM memory_words";
	case AB_DB_SQL_WORDS_ADD:
		return "INSERT INTO memory_words(doc, text) VALUES (?1, ?2)";
	case AB_DB_SQL_WORDS_REPEATED:
		return "WITH t AS (SELECT doc, (SELECT lexeme FROM unnest(to_tsvector('english', text)) "
		       "ORDER BY positions[1] LIMIT 1) AS term FROM memory_words) "
		       "SELECT t.doc FROM t WHERE t.term IS NOT NULL AND EXISTS (SELECT 1 FROM t u "
		       "WHERE u.term = t.term AND u.doc < t.doc)";
	case AB_DB_SQL_WORDS_CLEAR:
		return "DELETE FROM memory_words";
	case AB_DB_SQL_MEMORY_MATCH:
		return "SELECT %zu AS word, docid AS doc, -ts_rank(tsv, q) AS rank FROM search, "
		       "to_tsquery('english', ?%zu) q WHERE tsv @@ q AND docid %% 4 != 2";
	case AB_DB_SQL_DERIVE_HEADLINE:
		return "UPDATE runs SET metric = report::json ->> 'metric', "
		       "better = coalesce((SELECT w.value ->> 'better' FROM abtool_elements(report::json "
		       "-> 'rows') w ORDER BY w.idx LIMIT 1), 'lower'), "
		       "ratio_min = (SELECT min(abtool_num(w.value -> 'ratio')) FROM "
		       "abtool_elements(report::json -> 'rows') w), "
		       "ratio_max = (SELECT max(abtool_num(w.value -> 'ratio')) FROM "
		       "abtool_elements(report::json -> 'rows') w) "
		       "WHERE id = ?1 AND report IS NOT NULL";
	case AB_DB_SQL_DERIVE_RULE_METRIC:
		return "UPDATE rule_results SET metric = (SELECT u.value ->> 'metric' FROM runs r, "
		       "abtool_elements(r.report::json -> 'rules') u WHERE r.id = rule_results.run_id "
		       "AND u.idx = rule_results.idx) WHERE run_id = ?1";
	case AB_DB_SQL_RUN_DEPENDENCIES:
		return "(SELECT coalesce(json_agg(json_build_object('name', x.name, 'parent', x.parent_oid, "
		       "'candidate', x.candidate_oid) ORDER BY x.ord), '[]') FROM run_dependencies x "
		       "WHERE x.run_id = r.id)";
	case AB_DB_SQL_RUN_RULE_NAMES:
		return "(SELECT coalesce(json_agg(x.name ORDER BY x.idx), '[]') FROM rule_results x "
		       "WHERE x.run_id = r.id)";
	}
	return NULL;
}

/* A byte of a word: a letter or digit of ASCII, or any byte of a UTF-8
 * sequence (the letters of other scripts). */
static int word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* A term of to_tsquery: each word of `text` quoted (quotes doubled,
 * backslashes escaped), words joined by <-> (a phrase: consecutive
 * words), the last one a prefix (:*) when `prefix`. Words are what
 * PostgreSQL's parser would split: runs of letters and digits. */
static char *pg_search_term(const char *text, size_t len, int prefix)
{
	char *out = ab_xmalloc(4 * len + 16), *o = out;
	size_t i = 0;
	int words = 0;

	while (i < len) {
		size_t start;

		while (i < len && !word_byte((unsigned char)text[i]))
			i++;
		if (i >= len)
			break;
		if (words++)
			o += sprintf(o, " <-> ");
		*o++ = '\'';
		for (start = i; i < len && word_byte((unsigned char)text[i]); i++) {
			if (text[i] == '\'' || text[i] == '\\')
				*o++ = text[i] == '\'' ? '\'' : '\\';
			*o++ = text[i];
		}
		(void)start;
		*o++ = '\'';
	}
	if (!words)
		;  /* no word: the empty query, which matches nothing */
	else if (prefix)
		o += sprintf(o, ":*");
	*o = '\0';
	return out;
}

const struct ab_store_engine ab_store_engine_pg = {
	.name = "postgresql",
	.migrations = "store/migrations-pg/",
	.load = pq_load,
	.open = pg_open,
	.describe = describe,
	.close = pg_close,
	.ready = NULL,
	.alive = pg_alive,
	.exec = pg_exec,
	.prepare = pg_prepare,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.column_count = pg_column_count,
	.column_name = pg_column_name,
	.column_type = pg_column_type,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.changes = pg_changes,
	.last_insert_id = pg_last_insert_id,
	.last_error = pg_last_error,
	.schema_version = pg_schema_version,
	.set_schema_version = pg_set_schema_version,
	.sql = pg_sql,
	.search_term = pg_search_term,
	.has_password = has_password,
};
