/* store_core.h - what the store's sections (store.c, store_write.c,
 * store_query.c, store_export.c, store_settings.c) share, below them: the
 * store handle, statements through the engine (store_engine.h) with the
 * store's error messages, JSON rows, column tables, and the results a
 * finished or imported run derives from its report. Internal to store/. */
#ifndef AB_STORE_CORE_H
#define AB_STORE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "store_engine.h"

struct ab_store {
	const struct ab_store_engine *engine;
	struct ab_db *db;
	char *path;
	struct ab_db_stmt *sample_put;   /* prepared once: the per-sample hot path */
	int busy_timeout_ms;
	char *project;                   /* the project the store serves (ab_store_set_project) */
	int (*cancel)(void);             /* nonzero: stop a long write or read (ab_store_set_cancel) */
};

/* Whether a loop over many rows stops at row `i` (every 1024th row asks
 * store->cancel): AB_EINTERRUPTED with a message naming `what`, else 0. */
int ab_db_cancelled(struct ab_store *store, size_t i, const char *what);

/* Translate the connection's last error (after a failed call) into the
 * store's message, with what to do about it: AB_ELOCKED or AB_EIO. */
int ab_db_error(struct ab_store *store, const char *what);

/* Run a script; prepare a statement (*st NULL on failure); run a
 * statement to completion. Each returns 0 or the ab_db_error. */
int ab_db_exec(struct ab_store *store, const char *sql, const char *what);
int ab_db_prepare(struct ab_store *store, struct ab_db_stmt **st, const char *sql);
int ab_db_step_done(struct ab_store *store, struct ab_db_stmt *st, const char *what);

/* Transactions (store_engine.h); rollback ignores errors. */
int ab_db_begin(struct ab_store *store, int write, const char *what);
int ab_db_commit(struct ab_store *store, const char *what);
void ab_db_rollback(struct ab_store *store);

/* The engine's statement `which` (static text). */
static inline const char *ab_db_sql(struct ab_store *store, enum ab_db_sql which)
{
	return store->engine->sql(which);
}

static inline int ab_db_bind_int64(struct ab_db_stmt *st, int i, int64_t v)
{
	return st->engine->bind_int64(st, i, v);
}

static inline int ab_db_bind_double(struct ab_db_stmt *st, int i, double v)
{
	return st->engine->bind_double(st, i, v);
}

static inline int ab_db_bind_null(struct ab_db_stmt *st, int i)
{
	return st->engine->bind_null(st, i);
}

/* Bind text `s` (copied), or NULL when s is NULL. */
static inline int ab_db_bind_text(struct ab_db_stmt *st, int i, const char *s)
{
	return s ? st->engine->bind_text(st, i, s, strlen(s)) : st->engine->bind_null(st, i);
}

/* Bind `len` bytes at `p` (copied). */
static inline int ab_db_bind_blob(struct ab_db_stmt *st, int i, const void *p, size_t len)
{
	return st->engine->bind_blob(st, i, p, len);
}

/* A blob column (NULL for NULL), its size in *len; valid until the
 * statement steps again. */
static inline const void *ab_db_column_blob(struct ab_db_stmt *st, int i, size_t *len)
{
	return st->engine->column_blob(st, i, len);
}

static inline int ab_db_step(struct ab_db_stmt *st)
{
	return st->engine->step(st);
}

static inline enum ab_db_type ab_db_column_type(struct ab_db_stmt *st, int i)
{
	return st->engine->column_type(st, i);
}

static inline int64_t ab_db_column_int64(struct ab_db_stmt *st, int i)
{
	return st->engine->column_int64(st, i);
}

static inline double ab_db_column_double(struct ab_db_stmt *st, int i)
{
	return st->engine->column_double(st, i);
}

/* NULL for NULL; valid until the statement steps again. */
static inline const char *ab_db_column_text(struct ab_db_stmt *st, int i)
{
	return st->engine->column_text(st, i);
}

/* Ready to run again, bindings cleared. */
static inline void ab_db_reset(struct ab_db_stmt *st)
{
	st->engine->reset(st);
}

/* NULL: nothing to do. */
static inline void ab_db_finalize(struct ab_db_stmt *st)
{
	if (st)
		st->engine->finalize(st);
}

/* The current UTC time as ISO 8601 text. */
void ab_store_now_iso(char buf[32]);

/* 32 random hex digits and a NUL into out: a run's or a bisect's uuid
 * (getrandom, else the clock). */
void ab_store_new_uuid(char out[33]);

/* Append a constant fragment to a growing SQL text (user values are
 * always bound, never appended). */
void ab_sql_append(char **sql, const char *fragment);

/* The current row of `st` as a JSON object keyed by column names (new). */
json_t *ab_db_row_object(struct ab_db_stmt *st);

/* Parse the JSON text of `key` in `o` into a value (replacing the text);
 * text that does not parse stays a string, so nothing is lost. */
void ab_json_parse_member(json_t *o, const char *key);

/* Run a query with ?1 = run_id; its rows as a new array in *out. */
int ab_db_query_run_rows(struct ab_store *store, const char *sql, int64_t run_id, const char *what,
			 json_t **out);

/* The notes of a run and of its design (notes whose run_id is NULL), oldest
 * first, as a new array in *out of objects {FIRST..., created_at, scope,
 * text}: `first` is a column list that ends in ", " (e.g. "n.id, ") or "",
 * scope is "design" or "run". An unknown run has no notes. AB_EIO with a
 * message naming `what`. Read by show (ab_store_notes) and by export. */
int ab_db_query_run_notes(struct ab_store *store, const char *first, int64_t run_id, const char *what,
			  json_t **out);

/* The id of the design named `name` in `project`, added when new with
 * `created_at` (NULL: now). */
int ab_store_design_id(struct ab_store *store, const char *project, const char *name,
		       const char *created_at, int64_t *out);

/* What a run derives from its stored report (docs/history.md "Row
 * results"): the headline columns of runs (migration 0005), row_results,
 * the metric of each rule_results line and rule_row_results (migration
 * 0006). Replaces what was there; call inside the caller's transaction,
 * after rule_results is written, and with it ab_store_search_derive
 * (store_search.h), which derives what the search reads of its reasons. */
int ab_store_derive_results(struct ab_store *store, int64_t run_id);

/* One column of a table as export and import (and, for samples, the
 * writes and reads of store_sample.c) see it. JSON columns are values in
 * the document and text in the store, written back with the json_dumps
 * flags their writer uses so that the text round-trips. */
enum {
	AB_COL_REQUIRED = 1,   /* NOT NULL in the schema */
	AB_COL_JSON = 2,
	AB_COL_REPORT = 4,     /* the JSON report: ab_report_json_text */
};

/* How a sample column is bound from and read into struct ab_sample
 * (store_sample.c); AB_SAMPLE_NONE for the other tables' columns. */
enum ab_sample_kind {
	AB_SAMPLE_NONE,
	AB_SAMPLE_U32,        /* uint32_t */
	AB_SAMPLE_INT,        /* int (an enum too) */
	AB_SAMPLE_INT64,      /* int64_t */
	AB_SAMPLE_INT_OPT,    /* int, -1 stored as NULL */
	AB_SAMPLE_INT64_OPT,  /* int64_t, -1 stored as NULL */
	AB_SAMPLE_SIDE,       /* enum ab_side as "parent"/"candidate" */
	AB_SAMPLE_ORDER,      /* enum ab_order as "AB"/"BA" */
	AB_SAMPLE_FLAGS,      /* unsigned flags as their names, 0 as NULL */
	AB_SAMPLE_TEXT,       /* char *, NULL as NULL */
	AB_SAMPLE_METRICS,    /* double metrics[nmetrics] as a JSON object by name */
};

struct ab_store_column {
	const char *name;
	unsigned flags;
	size_t dump;
	enum ab_sample_kind kind;
	size_t offset;        /* of the member in struct ab_sample */
	int planned;          /* set when the plan is stored, not by a sample's write */
};

/* 1 when the A/B run R's builds both declare artifacts and every one
 * hashes the same on both sides (the builds' artifacts column holds the
 * sorted compact JSON {path: sha256}, so equal text is equal content):
 * derived from the stored builds, no column of its own. */
#define AB_SQL_IDENTICAL_ARTIFACTS(R) \
	"(SELECT count(*) FROM builds p JOIN builds c ON c.run_id = p.run_id AND c.side = 'candidate' " \
	"WHERE p.run_id = " R ".id AND p.side = 'parent' AND " R ".kind = 'ab' AND p.status = 'ok' " \
	"AND c.status = 'ok' AND p.artifacts NOT IN ('', '{}') AND p.artifacts = c.artifacts)"

#define AB_NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* "c1, c2, ..." of a column list, each name after `prefix` (new string). */
char *ab_store_column_list(const struct ab_store_column *cols, size_t n, const char *prefix);

#endif
