/* store_export.c - a run as one self-describing JSON document, and its
 * import into another store (see store.h). */
#include "store.h"
#include "project.h"
#include "store_core.h"
#include "store_sample.h"
#include "store_search.h"
#include "error.h"
#include "jsontext.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A column of a table other than samples (store_sample.c has those). */
#define COL(name, flags, dump) {name, flags, dump, AB_SAMPLE_NONE, 0, 0}

/* Export only: import takes the project apart (import_project). */
static const struct ab_store_column design_columns[] = {
	COL("name", AB_COL_REQUIRED, 0),
	COL("created_at", AB_COL_REQUIRED, 0),
	COL("project", 0, 0),
};

static const struct ab_store_column experiment_columns[] = {
	COL("hash", AB_COL_REQUIRED, 0),
	COL("name", AB_COL_REQUIRED, 0),
	COL("hypothesis", 0, 0),
	COL("path", AB_COL_REQUIRED, 0),
	COL("text", AB_COL_REQUIRED, 0),
	COL("created_at", AB_COL_REQUIRED, 0),
};

static const struct ab_store_column run_columns[] = {
	COL("uuid", AB_COL_REQUIRED, 0),
	COL("kind", AB_COL_REQUIRED, 0),
	COL("created_at", AB_COL_REQUIRED, 0),
	COL("finished_at", 0, 0),
	COL("status", AB_COL_REQUIRED, 0),
	COL("verdict", 0, 0),
	COL("reasons", AB_COL_JSON, JSON_COMPACT),
	COL("repo", AB_COL_REQUIRED, 0),
	COL("parent_oid", AB_COL_REQUIRED, 0),
	COL("candidate_oid", AB_COL_REQUIRED, 0),
	COL("parent_tree", 0, 0),
	COL("candidate_tree", 0, 0),
	COL("exact_parent", AB_COL_REQUIRED, 0),
	COL("seed", AB_COL_REQUIRED, 0),
	COL("pairs", AB_COL_REQUIRED, 0),
	COL("warmup", AB_COL_REQUIRED, 0),
	COL("host", AB_COL_JSON, JSON_COMPACT),
	COL("abtool_version", AB_COL_REQUIRED, 0),
	COL("options", AB_COL_JSON, JSON_COMPACT),
	COL("sides", AB_COL_JSON, JSON_COMPACT),
	COL("report", AB_COL_JSON | AB_COL_REPORT, 0),
};

static const struct ab_store_column build_columns[] = {
	COL("side", AB_COL_REQUIRED, 0),
	COL("commit_oid", AB_COL_REQUIRED, 0),
	COL("tree_oid", AB_COL_REQUIRED, 0),
	COL("cache_key", AB_COL_REQUIRED, 0),
	COL("dir", AB_COL_REQUIRED, 0),
	COL("command", 0, 0),
	COL("cached", AB_COL_REQUIRED, 0),
	COL("status", AB_COL_REQUIRED, 0),
	COL("duration_ns", 0, 0),
	COL("log", 0, 0),
	COL("artifacts", AB_COL_JSON, JSON_COMPACT | JSON_SORT_KEYS),
};

static const struct ab_store_column row_columns[] = {
	COL("idx", AB_COL_REQUIRED, 0),
	COL("params", AB_COL_REQUIRED | AB_COL_JSON, JSON_COMPACT),
};

static const struct ab_store_column dependency_columns[] = {
	COL("name", AB_COL_REQUIRED, 0),
	COL("repo", AB_COL_REQUIRED, 0),
	COL("parent_oid", AB_COL_REQUIRED, 0),
	COL("candidate_oid", AB_COL_REQUIRED, 0),
};

static const struct ab_store_column rule_columns[] = {
	COL("idx", AB_COL_REQUIRED, 0),
	COL("name", AB_COL_REQUIRED, 0),
	COL("outcome", AB_COL_REQUIRED, 0),
	COL("detail", 0, 0),
	COL("metric", 0, 0),
};

/* Exported for readers only: import derives both tables from the report
 * again (ab_store_derive_results), so they always agree with it. */
static const struct ab_store_column row_result_columns[] = {
	COL("row_idx", AB_COL_REQUIRED, 0),
	COL("metric", AB_COL_REQUIRED, 0),
	COL("is_primary", AB_COL_REQUIRED, 0),
	COL("unit", 0, 0),
	COL("better", 0, 0),
	COL("pairs", 0, 0),
	COL("parent_median", 0, 0),
	COL("candidate_median", 0, 0),
	COL("parent_rsd", 0, 0),
	COL("candidate_rsd", 0, 0),
	COL("ratio", 0, 0),
	COL("ci_low", 0, 0),
	COL("ci_high", 0, 0),
	COL("ci_level", 0, 0),
	COL("pair_wins", 0, 0),
	COL("pair_losses", 0, 0),
	COL("p_signed_rank", 0, 0),
	COL("p_sign", 0, 0),
	COL("checksum_match", 0, 0),
	COL("unavailable", 0, 0),
};

static const struct ab_store_column rule_row_columns[] = {
	COL("rule_idx", AB_COL_REQUIRED, 0),
	COL("row_idx", AB_COL_REQUIRED, 0),
	COL("outcome", AB_COL_REQUIRED, 0),
	COL("detail", 0, 0),
};

/* Select `cols` of `table` `tail` (which binds ?1 = key) into objects,
 * JSON columns parsed, appended to `list`. */
static int export_rows(struct ab_store *store, const char *table, const struct ab_store_column *cols, size_t n,
		       const char *tail, int64_t key, json_t *list)
{
	char *names = ab_store_column_list(cols, n, ""), *sql = ab_xasprintf("SELECT %s FROM %s %s", names, table, tail);
	struct ab_db_stmt *st;
	size_t i;
	int err, rc;

	free(names);
	err = ab_db_prepare(store, &st, sql);
	free(sql);
	if (err < 0)
		return err;
	ab_db_bind_int64(st, 1, key);
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = ab_db_row_object(st);
		for (i = 0; i < n; i++)
			if (cols[i].flags & AB_COL_JSON)
				ab_json_parse_member(o, cols[i].name);
		json_array_append_new(list, o);
	}
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "exporting the run");
	ab_db_finalize(st);
	return err;
}

/* Like export_rows for a query that gives exactly one row. */
static int export_one(struct ab_store *store, const char *table, const struct ab_store_column *cols, size_t n,
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
	if ((err = ab_db_begin(store, 0, "exporting the run")) < 0)
		return err;
	err = export_document(store, run_id, flags, out);
	if (err)
		ab_db_rollback(store);
	else
		store->engine->commit(store->db);
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
		err = export_rows(store, "runs", run_columns, AB_NCOLS(run_columns), "WHERE id = ?1", run_id, runs);
		run = json_incref(json_array_get(runs, 0));
		json_decref(runs);
		if (err < 0)
			return err;
		if (!run)
			return ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
					    "'abtool history'", store->path, (long long)run_id);
	}
	ab_store_now_iso(now);
	doc = json_object();
	json_object_set_new(doc, "schema", json_string(AB_EXPORT_SCHEMA));
	json_object_set_new(doc, "abtool_version", json_string(ABTOOL_VERSION));
	json_object_set_new(doc, "exported_at", json_string(now));
	/* The local id first, for people reading the file; import ignores it. */
	part = json_pack("{s:I}", "id", (json_int_t)run_id);
	json_object_update(part, run);
	json_decref(run);
	json_object_set_new(doc, "run", part);

	if ((err = export_one(store, "designs", design_columns, AB_NCOLS(design_columns),
			      "WHERE id = (SELECT design_id FROM runs WHERE id = ?1)", run_id, &part)) < 0)
		goto out_free;
	json_object_set_new(doc, "design", part);
	if ((err = export_one(store, "experiments", experiment_columns, AB_NCOLS(experiment_columns),
			      "WHERE id = (SELECT experiment_id FROM runs WHERE id = ?1)", run_id, &part)) < 0)
		goto out_free;
	json_object_set_new(doc, "experiment", part);

	json_object_set_new(doc, "builds", list = json_array());
	if ((err = export_rows(store, "builds", build_columns, AB_NCOLS(build_columns),
			       "WHERE run_id = ?1 ORDER BY side DESC", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rows", list = json_array());
	if ((err = export_rows(store, "rows", row_columns, AB_NCOLS(row_columns),
			       "WHERE run_id = ?1 ORDER BY idx", run_id, list)) < 0)
		goto out_free;
	if (flags & AB_STORE_EXPORT_SAMPLES) {
		json_object_set_new(doc, "samples", list = json_array());
		if ((err = export_rows(store, "samples", ab_sample_columns, ab_sample_ncolumns,
				       "WHERE run_id = ?1 ORDER BY seq", run_id, list)) < 0)
			goto out_free;
	}
	json_object_set_new(doc, "dependencies", list = json_array());
	if ((err = export_rows(store, "run_dependencies", dependency_columns, AB_NCOLS(dependency_columns),
			       "WHERE run_id = ?1 ORDER BY name", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rule_results", list = json_array());
	if ((err = export_rows(store, "rule_results", rule_columns, AB_NCOLS(rule_columns),
			       "WHERE run_id = ?1 ORDER BY idx", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "row_results", list = json_array());
	if ((err = export_rows(store, "row_results", row_result_columns, AB_NCOLS(row_result_columns),
			       "WHERE run_id = ?1 ORDER BY row_idx, is_primary DESC, metric", run_id, list)) < 0)
		goto out_free;
	json_object_set_new(doc, "rule_row_results", list = json_array());
	if ((err = export_rows(store, "rule_row_results", rule_row_columns, AB_NCOLS(rule_row_columns),
			       "WHERE run_id = ?1 ORDER BY rule_idx, row_idx", run_id, list)) < 0)
		goto out_free;
	if ((err = ab_db_query_run_notes(store, "", run_id, "exporting notes", &list)) < 0)
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
static int bind_member(struct ab_db_stmt *st, int i, const struct ab_store_column *c, const json_t *o, const char *what)
{
	const json_t *v = json_object_get(o, c->name);

	if (!v || json_is_null(v)) {
		if (c->flags & AB_COL_REQUIRED)
			return ab_error_set(AB_EINVALID, "%s.%s: missing", what, c->name);
		ab_db_bind_null(st, i);
		return 0;
	}
	if ((c->flags & AB_COL_JSON) && !json_is_string(v)) {
		/* A string in a JSON column is text that did not parse on
		 * export: it goes back as it was. */
		char *text = c->flags & AB_COL_REPORT ? ab_report_json_text(v) : json_dumps(v, c->dump | JSON_ENCODE_ANY);
		ab_db_bind_text(st, i, text);
		free(text);
		return 0;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		st->engine->bind_text(st, i, json_string_value(v), json_string_length(v));
		return 0;
	case JSON_INTEGER:
		ab_db_bind_int64(st, i, json_integer_value(v));
		return 0;
	case JSON_REAL:
		ab_db_bind_double(st, i, json_real_value(v));
		return 0;
	case JSON_TRUE:
	case JSON_FALSE:
		ab_db_bind_int64(st, i, json_is_true(v));
		return 0;
	default:
		return ab_error_set(AB_EINVALID, "%s.%s: expected a string or a number", what, c->name);
	}
}

/* INSERT INTO table(keys, cols...) for import: the `nkeys` key columns
 * (like "run_id") are ?1..?nkeys, the columns follow. */
static int prepare_insert(struct ab_store *store, struct ab_db_stmt **st, const char *table,
			  const char *keys, size_t nkeys, const struct ab_store_column *cols, size_t n)
{
	char *names = ab_store_column_list(cols, n, ""), *marks = NULL, *sql;
	size_t i;
	int err;

	for (i = 0; i < nkeys + n; i++) {
		char mark[32];
		snprintf(mark, sizeof(mark), "%s?%zu", i ? ", " : "", i + 1);
		ab_sql_append(&marks, mark);
	}
	sql = ab_xasprintf("INSERT INTO %s(%s, %s) VALUES (%s)", table, keys, names, marks);
	err = ab_db_prepare(store, st, sql);
	free(names);
	free(marks);
	free(sql);
	return err;
}

/* Insert every object of array `list` (member `name` of the document)
 * into `table` for run `run_id`. */
static int import_rows(struct ab_store *store, const char *table, const struct ab_store_column *cols, size_t n,
		       const json_t *doc, const char *name, int required, int64_t run_id)
{
	const json_t *list = json_object_get(doc, name), *o;
	struct ab_db_stmt *st;
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
		ab_db_bind_int64(st, 1, run_id);
		for (c = 0; c < n && !err; c++)
			err = bind_member(st, (int)c + 2, &cols[c], o, what);
		if (!err)
			err = ab_db_step_done(store, st, "importing the run");
		ab_db_reset(st);
		if (err)
			break;
	}
	ab_db_finalize(st);
	return err;
}

/* The project an imported run joins: its design's in the document, else
 * (an export written before projects, or of a row no repository claimed)
 * the importing store's. Borrowed. */
static const char *import_project(struct ab_store *store, const json_t *design)
{
	const char *p = json_string_value(json_object_get(design, "project"));

	return p && strcmp(p, AB_PROJECT_UNCLAIMED) ? p : store->project;
}

/* Find the experiment by project and hash or add it from the document's. */
static int import_experiment(struct ab_store *store, const json_t *e, const char *project,
			     int64_t design, int64_t *out)
{
	struct ab_db_stmt *st;
	size_t c;
	int err = 0;

	if ((err = ab_db_prepare(store, &st,
			   "INSERT INTO experiments(design_id, hash, name, hypothesis, path, text, created_at, "
			   "project) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
			   "ON CONFLICT(project, hash) DO UPDATE SET hash = excluded.hash RETURNING id")) < 0)
		return err;
	ab_db_bind_int64(st, 1, design);
	ab_db_bind_text(st, (int)AB_NCOLS(experiment_columns) + 2, project);
	for (c = 0; c < AB_NCOLS(experiment_columns) && !err; c++)
		err = bind_member(st, (int)c + 2, &experiment_columns[c], e, "experiment");
	if (!err) {
		if (ab_db_step(st) == AB_DB_ROW)
			*out = ab_db_column_int64(st, 0);
		else
			err = ab_db_error(store, "importing the experiment");
	}
	ab_db_finalize(st);
	return err;
}

static int import_notes(struct ab_store *store, const json_t *doc, int64_t run_id, int64_t design)
{
	const json_t *notes = json_object_get(doc, "notes"), *n;
	struct ab_db_stmt *seen = NULL, *add = NULL;
	size_t i;
	int err;

	if (!notes)
		return 0;
	if (!json_is_array(notes))
		return ab_error_set(AB_EINVALID, "\"notes\": expected an array");
	if ((err = ab_db_prepare(store, &seen, "SELECT 1 FROM notes WHERE run_id IS NULL AND design_id = ?1 "
					 "AND created_at = ?2 AND text = ?3")) < 0 ||
	    (err = ab_db_prepare(store, &add, "INSERT INTO notes(run_id, design_id, created_at, text) "
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
			ab_db_bind_int64(seen, 1, design);
			ab_db_bind_text(seen, 2, created);
			ab_db_bind_text(seen, 3, text);
			rc = ab_db_step(seen);
			ab_db_reset(seen);
			if (rc == AB_DB_ROW)
				continue;
			if (rc != AB_DB_DONE) {
				err = ab_db_error(store, "importing notes");
				break;
			}
			ab_db_bind_null(add, 1);
		} else {
			ab_db_bind_int64(add, 1, run_id);
		}
		ab_db_bind_int64(add, 2, design);
		ab_db_bind_text(add, 3, created);
		ab_db_bind_text(add, 4, text);
		err = ab_db_step_done(store, add, "importing notes");
		ab_db_reset(add);
		if (err)
			break;
	}
out:
	ab_db_finalize(seen);
	ab_db_finalize(add);
	return err;
}

/* Point the imported report at its new local id. */
static int import_fix_report(struct ab_store *store, const json_t *run, int64_t run_id)
{
	json_t *report = json_object_get(run, "report"), *copy;
	struct ab_db_stmt *st;
	int err;

	if (!json_is_object(report) || !json_object_get(report, "run_id"))
		return 0;
	copy = json_deep_copy(report);
	json_object_set_new(copy, "run_id", json_integer(run_id));
	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET report = ?2 WHERE id = ?1")) == 0) {
		ab_db_bind_int64(st, 1, run_id);
		char *text = ab_report_json_text(copy);
		ab_db_bind_text(st, 2, text);
		free(text);
		err = ab_db_step_done(store, st, "importing the report");
		ab_db_finalize(st);
	}
	json_decref(copy);
	return err;
}

/* What a field of an imported document may hold: a string (TEXT), one
 * of the strings of `choices` ("a|b|c"), an integer from min to max
 * (INT), true, false, 0 or 1 (BOOL), 32 hexadecimal digits (UUID), an
 * object id in hexadecimal or "" (OID), a JSON object or text (JSON). */
enum field_type { F_TEXT, F_CHOICE, F_INT, F_BOOL, F_UUID, F_OID, F_JSON };

struct field_check {
	const char *name;
	enum field_type type;
	const char *choices;
	long long min, max;
};

#define F_U32 0, 4294967295LL
#define F_NS 0, INT64_MAX

static const struct field_check run_checks[] = {
	{"uuid", F_UUID, NULL, 0, 0}, {"kind", F_CHOICE, "ab|calibrate|compare|analyze|bisect", 0, 0},
	{"status", F_CHOICE, "finished|interrupted|failed", 0, 0},
	{"verdict", F_CHOICE, "accepted|rejected|inconclusive|invalid", 0, 0},
	{"created_at", F_TEXT, NULL, 0, 0}, {"finished_at", F_TEXT, NULL, 0, 0},
	{"repo", F_TEXT, NULL, 0, 0}, {"parent_oid", F_OID, NULL, 0, 0}, {"candidate_oid", F_OID, NULL, 0, 0},
	{"parent_tree", F_TEXT, NULL, 0, 0}, {"candidate_tree", F_TEXT, NULL, 0, 0},
	{"exact_parent", F_BOOL, NULL, 0, 0}, {"seed", F_INT, NULL, INT64_MIN, INT64_MAX},
	{"pairs", F_INT, NULL, 1, 100000}, {"warmup", F_INT, NULL, 0, 100000},
	{"abtool_version", F_TEXT, NULL, 0, 0},
};

static const struct field_check sample_checks[] = {
	{"seq", F_INT, NULL, F_U32}, {"row_idx", F_INT, NULL, F_U32}, {"pair", F_INT, NULL, -1, INT32_MAX},
	{"warmup", F_INT, NULL, -1, INT32_MAX}, {"side", F_CHOICE, "parent|candidate", 0, 0},
	{"pair_order", F_CHOICE, "AB|BA", 0, 0}, {"status", F_INT, NULL, 0, 3},
	{"started_at", F_INT, NULL, F_NS}, {"wall_ns", F_INT, NULL, F_NS}, {"user_ns", F_INT, NULL, F_NS},
	{"sys_ns", F_INT, NULL, F_NS}, {"maxrss_bytes", F_INT, NULL, F_NS}, {"minflt", F_INT, NULL, F_NS},
	{"majflt", F_INT, NULL, F_NS}, {"nvcsw", F_INT, NULL, F_NS}, {"nivcsw", F_INT, NULL, F_NS},
	{"exit_code", F_INT, NULL, INT32_MIN, INT32_MAX}, {"signal", F_INT, NULL, 0, 255},
	{"timed_out", F_BOOL, NULL, 0, 0}, {"flags", F_TEXT, NULL, 0, 0}, {"checksum", F_TEXT, NULL, 0, 0},
	{"metrics", F_JSON, NULL, 0, 0}, {"error", F_TEXT, NULL, 0, 0}, {"stdout", F_TEXT, NULL, 0, 0},
	{"stderr", F_TEXT, NULL, 0, 0}, {"padding_bytes", F_INT, NULL, 0, INT32_MAX},
	{"unavailable", F_TEXT, NULL, 0, 0}, {"other_cpu_ns", F_INT, NULL, F_NS},
};

static const struct field_check build_checks[] = {
	{"side", F_CHOICE, "parent|candidate", 0, 0}, {"commit_oid", F_OID, NULL, 0, 0},
	{"tree_oid", F_TEXT, NULL, 0, 0}, {"cache_key", F_TEXT, NULL, 0, 0}, {"dir", F_TEXT, NULL, 0, 0},
	{"command", F_TEXT, NULL, 0, 0}, {"cached", F_BOOL, NULL, 0, 0}, {"status", F_TEXT, NULL, 0, 0},
	{"duration_ns", F_INT, NULL, F_NS}, {"log", F_TEXT, NULL, 0, 0}, {"artifacts", F_JSON, NULL, 0, 0},
};

static const struct field_check row_checks[] = {
	{"idx", F_INT, NULL, F_U32}, {"params", F_JSON, NULL, 0, 0},
};

static const struct field_check rule_checks[] = {
	{"idx", F_INT, NULL, F_U32}, {"name", F_TEXT, NULL, 0, 0},
	{"outcome", F_CHOICE, "pass|fail|inconclusive", 0, 0}, {"detail", F_TEXT, NULL, 0, 0},
	{"metric", F_TEXT, NULL, 0, 0},
};

/* "expected ..." of check `f` (new string): the choices as "a", "b" or "c". */
static char *expected(const struct field_check *f)
{
	const char *c, *bar;
	char *out = NULL, *next;

	switch (f->type) {
	case F_CHOICE:
		for (c = f->choices; *c; c = *bar ? bar + 1 : bar) {
			bar = c + strcspn(c, "|");
			next = ab_xasprintf("%s%s\"%.*s\"", out ? out : "", !out ? "" : *bar ? ", " : " or ",
					    (int)(bar - c), c);
			free(out);
			out = next;
		}
		return out;
	case F_INT:
		if (f->max == INT64_MAX)
			return f->min == INT64_MIN ? ab_xstrdup("an integer")
				: f->min == 0 ? ab_xstrdup("a whole number, 0 or more")
				: ab_xasprintf("an integer from %lld", f->min);
		return ab_xasprintf("an integer from %lld to %lld", f->min, f->max);
	case F_BOOL:
		return ab_xstrdup("true or false");
	case F_UUID:
		return ab_xstrdup("32 lowercase hexadecimal digits, as abtool's run ids are");
	case F_OID:
		return ab_xstrdup("a commit or tree id in hexadecimal (or \"\" for two commands)");
	case F_JSON:
		return ab_xstrdup("a JSON object");
	default:
		return ab_xstrdup("a string");
	}
}

/* Whether the n bytes of `s` are one of the choices "a|b|c". */
static int is_choice(const char *choices, const char *s, size_t n)
{
	const char *c, *bar;

	for (c = choices; *c; c = *bar ? bar + 1 : bar) {
		bar = c + strcspn(c, "|");
		if ((size_t)(bar - c) == n && !strncmp(c, s, n))
			return 1;
	}
	return 0;
}

static int all_hex(const char *s, size_t n, size_t len)
{
	size_t i;

	if (n != len)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Whether `v` (not null) is what `f` says. */
static int field_ok(const json_t *v, const struct field_check *f)
{
	const char *s = json_string_value(v);
	size_t n = s ? json_string_length(v) : 0;

	switch (f->type) {
	case F_CHOICE:
		return s && is_choice(f->choices, s, n);
	case F_INT:
		return json_is_integer(v) && json_integer_value(v) >= f->min && json_integer_value(v) <= f->max;
	case F_BOOL:
		return json_is_boolean(v) || (json_is_integer(v) && (json_integer_value(v) == 0 ||
								       json_integer_value(v) == 1));
	case F_UUID:
		return s && all_hex(s, n, 32);
	case F_OID:
		return s && (n == 0 || all_hex(s, n, 40) || all_hex(s, n, 64));
	case F_JSON:
		return json_is_object(v) || json_is_string(v);
	default:
		return s != NULL;
	}
}

/* Check the fields `checks` of object `o` (named `what`) that are there
 * and not null (bind_member says which are missing). AB_EINVALID names
 * the field, what it holds and what it may hold. */
static int check_fields(const json_t *o, const struct field_check *checks, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const json_t *v = json_object_get(o, checks[i].name);
		char *want, *got;
		int err;

		if (!v || json_is_null(v) || field_ok(v, &checks[i]))
			continue;
		want = expected(&checks[i]);
		got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		err = ab_error_set(AB_EINVALID, "%s.%s: expected %s, got %.60s%s%s", what, checks[i].name, want,
				   got ? got : "?", got && strlen(got) > 60 ? "..." : "",
				   !strcmp(checks[i].name, "status") && json_is_string(v) &&
				   !strcmp(json_string_value(v), "running")
				   ? " (a run still running: finish it with abtool resume, then export it again)" : "");
		free(want);
		free(got);
		return err;
	}
	return 0;
}

/* Check every object of array member `name` of the document. */
static int check_list(const json_t *doc, const char *name, const struct field_check *checks, size_t n)
{
	const json_t *o;
	size_t i;
	char what[64];
	int err;

	json_array_foreach(json_object_get(doc, name), i, o) {
		snprintf(what, sizeof(what), "%s[%zu]", name, i);
		if (json_is_object(o) && (err = check_fields(o, checks, n, what)) < 0)
			return err;
	}
	return 0;
}

/* The types and values of an imported document's fields, before anything
 * is written: a field the store would refuse (a CHECK constraint) or
 * keep wrong (a negative time, a run "running" that no process runs, a
 * uuid that is no id) is bad input, named with its path (exit 64). */
static int check_document(const json_t *doc)
{
	int err;

	if ((err = check_fields(json_object_get(doc, "run"), run_checks, AB_NCOLS(run_checks), "run")) < 0 ||
	    (err = check_list(doc, "samples", sample_checks, AB_NCOLS(sample_checks))) < 0 ||
	    (err = check_list(doc, "builds", build_checks, AB_NCOLS(build_checks))) < 0 ||
	    (err = check_list(doc, "rows", row_checks, AB_NCOLS(row_checks))) < 0)
		return err;
	return check_list(doc, "rule_results", rule_checks, AB_NCOLS(rule_checks));
}

/* Whether `doc` is an export this abtool imports, before anything is
 * written: its schema, its objects run, design and experiment, the run's
 * uuid, the design's name, the experiment's text against its hash, and
 * every field (check_document). AB_EINVALID says what is wrong and what
 * to do. */
static int check_export(const json_t *doc)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const json_t *run = json_object_get(doc, "run"), *design = json_object_get(doc, "design");
	const json_t *exp = json_object_get(doc, "experiment");
	const char *uuid, *text, *hash;
	char hex[65];

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
	if (!json_string_value(json_object_get(design, "name")))
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
	return check_document(doc);
}

int ab_store_import(struct ab_store *store, const json_t *doc, int64_t *out, int *existed)
{
	const json_t *run = json_object_get(doc, "run"), *design = json_object_get(doc, "design");
	const json_t *exp = json_object_get(doc, "experiment");
	const char *uuid, *dname;
	int64_t design_key = 0, exp_key = 0, run_key = 0;
	struct ab_db_stmt *st = NULL;
	size_t c;
	int err, rc;

	*out = 0;
	*existed = 0;
	if ((err = check_export(doc)) < 0)
		return err;
	uuid = json_string_value(json_object_get(run, "uuid"));
	dname = json_string_value(json_object_get(design, "name"));

	if ((err = ab_db_begin(store, 1, "importing the run")) < 0)
		return err;
	if ((err = ab_db_prepare(store, &st, "SELECT id FROM runs WHERE uuid = ?1")) < 0)
		goto out_rollback;
	ab_db_bind_text(st, 1, uuid);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW) {
		*out = ab_db_column_int64(st, 0);
		*existed = 1;
		ab_db_finalize(st);
		return ab_db_commit(store, "importing the run");
	}
	ab_db_finalize(st);
	st = NULL;
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "importing the run");
		goto out_rollback;
	}
	if ((err = ab_store_design_id(store, import_project(store, design), dname,
				      json_string_value(json_object_get(design, "created_at")),
				      &design_key)) < 0 ||
	    (err = import_experiment(store, exp, import_project(store, design), design_key,
				     &exp_key)) < 0)
		goto out_rollback;

	if ((err = prepare_insert(store, &st, "runs", "experiment_id, design_id", 2, run_columns,
				  AB_NCOLS(run_columns))) < 0)
		goto out_rollback;
	ab_db_bind_int64(st, 1, exp_key);
	ab_db_bind_int64(st, 2, design_key);
	for (c = 0; c < AB_NCOLS(run_columns) && !err; c++)
		err = bind_member(st, (int)c + 3, &run_columns[c], run, "run");
	if (err || (err = ab_db_step_done(store, st, "importing the run")) < 0)
		goto out_rollback;
	run_key = store->engine->last_insert_id(store->db);
	ab_db_finalize(st);
	st = NULL;

	if ((err = import_rows(store, "builds", build_columns, AB_NCOLS(build_columns), doc, "builds", 0, run_key)) < 0 ||
	    (err = import_rows(store, "rows", row_columns, AB_NCOLS(row_columns), doc, "rows", 0, run_key)) < 0 ||
	    (err = import_rows(store, "samples", ab_sample_columns, ab_sample_ncolumns, doc, "samples", 1,
			       run_key)) < 0 ||
	    (err = import_rows(store, "rule_results", rule_columns, AB_NCOLS(rule_columns), doc, "rule_results", 0,
			       run_key)) < 0 ||
	    (err = import_rows(store, "run_dependencies", dependency_columns, AB_NCOLS(dependency_columns), doc,
			       "dependencies", 0, run_key)) < 0 ||
	    (err = import_notes(store, doc, run_key, design_key)) < 0 ||
	    (err = import_fix_report(store, run, run_key)) < 0 ||
	    (err = ab_store_derive_results(store, run_key)) < 0 ||
	    (err = ab_store_search_derive(store, run_key)) < 0)
		goto out_rollback;
	if ((err = ab_db_commit(store, "importing the run")) < 0)
		goto out_rollback;
	*out = run_key;
	return 0;
out_rollback:
	ab_db_finalize(st);
	ab_db_rollback(store);
	return err;
}
