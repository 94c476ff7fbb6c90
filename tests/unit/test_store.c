/* test_store.c - the store's history layer: the upgrade of a store made by
 * schema 0001 (applied here by hand with sqlite3, rows inserted as version
 * 1 wrote them), full-text search, history filters, notes, designs, and
 * export/import between two stores. With ABTOOL_TEST_STORE_PG set (CTest's
 * unit.test_store.pg) the same cases run on PostgreSQL: the fixture's runs
 * are copied into a new database on the tests' server, and the cases that
 * read or migrate the sqlite file themselves are skipped. */
#include "testutil.h"
#include "embed.h"
#include "error.h"
#include "store.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#define OID(prefix) prefix "00000000000000000000000000000000"

static const char exp1_text[] = "name: object-churn\ndesign: batched-publication\n"
				"hypothesis: batching removes the alloc_lock convoy at 4/8 lanes\n";
static const char exp2_text[] = "name: odd-trial\ndesign: odd-divisors\n";

/* Rows as version 1 of the schema stored them. */
static const char v1_rows[] =
	"INSERT INTO designs VALUES (1, 'batched-publication', '2026-01-01T00:00:00Z'),"
	" (2, 'odd-divisors', '2026-01-02T00:00:00Z');"
	"INSERT INTO runs(id, uuid, experiment_id, design_id, kind, created_at, finished_at, status, verdict,"
	" reasons, repo, parent_oid, candidate_oid, parent_tree, candidate_tree, exact_parent, seed, pairs,"
	" warmup, host, abtool_version, options, report) VALUES"
	" (1, '11111111111111111111111111111111', 1, 1, 'ab', '2026-01-03T10:00:00Z', '2026-01-03T10:05:00Z',"
	"  'finished', 'rejected', '[\"no low-lane regression: lanes=1: ratio 1.041 [1.030, 1.052]: regression\"]',"
	"  '/src/a', '" OID("aaaa1111") "', '" OID("bbbb2222") "', 't1', 't2', 1, 7, 1, 0,"
	"  '{\"hostname\":\"vm\",\"load_1m\":0.33000000000000002}', '0.1.0', '{\"seed\":7}',"
	"  '{\"schema\":\"abtool-report-1\",\"run_id\":1,\"metric\":\"wall_ns\",\"rows\":["
	"{\"label\":\"lanes=1\",\"better\":\"lower\",\"ratio\":1.041},"
	"{\"label\":\"lanes=4\",\"better\":\"lower\",\"ratio\":0.518},"
	"{\"label\":\"lanes=8\",\"better\":\"lower\",\"ratio\":null}]}'),"
	" (2, '22222222222222222222222222222222', 2, 2, 'ab', '2026-02-10T12:30:00Z', '2026-02-10T12:31:00Z',"
	"  'finished', 'accepted', '[]', '/src/b', '" OID("bbbb2222") "', '" OID("cccc3333") "', NULL, NULL,"
	"  1, 8, 1, 0, NULL, '0.1.0', NULL,"
	"  '{\"run_id\":2,\"metric\":\"ops\",\"rows\":[{\"better\":\"higher\",\"ratio\":1.2},"
	"{\"better\":\"higher\",\"ratio\":1.5}]}'),"
	" (3, '33333333333333333333333333333333', 1, 1, 'ab', '2026-03-01T08:00:00Z', NULL, 'running', NULL,"
	"  NULL, '/src/a', '" OID("aaaa1111") "', '" OID("dddd4444") "', NULL, NULL, 1, 9, 1, 0, NULL,"
	"  '0.1.0', NULL, NULL);"
	"INSERT INTO builds VALUES (1, 'parent', '" OID("aaaa1111") "', 't1', 'k1', '/c/k1', 'make', 0, 'ok',"
	" 1000, NULL, '{\"bench\":\"abc\"}'), (1, 'candidate', '" OID("bbbb2222") "', 't2', 'k2', '/c/k2',"
	" 'make', 1, 'ok', 0, NULL, '{\"bench\":\"def\"}');"
	"INSERT INTO rows VALUES (1, 0, '{\"lanes\":1}'), (1, 1, '{\"lanes\":4}'), (1, 2, '{\"lanes\":8}');"
	"INSERT INTO samples(run_id, seq, row_idx, pair, warmup, side, pair_order, status, started_at, wall_ns,"
	" user_ns, sys_ns, maxrss_bytes, exit_code, signal, timed_out, checksum, metrics) VALUES"
	" (1, 0, 0, 0, -1, 'parent', 'AB', 1, 1767434400, 100, 90, 1, 2048, 0, 0, 0, 'c1',"
	"  '{\"wall_ns\":100.0,\"user_ns\":90.0}'),"
	" (1, 1, 0, 0, -1, 'candidate', 'AB', 1, 1767434401, 104, 95, 1, 2048, 0, 0, 0, 'c1',"
	"  '{\"wall_ns\":104.0,\"user_ns\":95.0}'),"
	" (1, 2, 1, 0, -1, 'candidate', 'BA', 2, 1767434402, 52, 50, 0, 2048, 0, 0, 0, 'c4', NULL),"
	" (1, 3, 1, 0, -1, 'parent', 'BA', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);"
	"INSERT INTO rule_results VALUES (1, 0, 'no low-lane regression', 'fail', 'lanes=1: regression');"
	"INSERT INTO notes(id, run_id, design_id, created_at, text) VALUES"
	" (1, 1, NULL, '2026-01-03T11:00:00Z', 'the convoy moved to the free list, see https://example.invalid/42'),"
	" (2, NULL, 2, '2026-01-04T09:00:00Z', 'odd divisors: the idea came from Knuth');";

static const char *const tables[] = {"designs", "experiments", "runs", "builds", "rows",
				     "samples", "rule_results", "notes"};

static void exec_ok(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("sql failed: %s", msg);
}

static void add_experiment(sqlite3 *db, int id, int design, const char *name, const char *hypothesis,
			   const char *text)
{
	sqlite3_stmt *st;
	char hex[65];

	ab_sha256_hex(hex, text, strlen(text));
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO experiments VALUES (?1, ?2, ?3, ?4, ?5, "
					    "'exp.yaml', ?6, '2026-01-01T00:00:00Z')", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int(st, 1, id);
	sqlite3_bind_text(st, 2, hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, design);
	if (hypothesis)
		sqlite3_bind_text(st, 5, hypothesis, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, text, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
}

/* Every row of `table`, every column, as text (new string). */
/* The rows of `table` over the columns it had in schema 1 (later
 * migrations may add columns, never change the existing ones). */
static char *dump_table(const char *path, const char *table)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *sql, *out = ab_xstrdup(""), *cols = ab_xstrdup("");

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* columns of schema 1: those not added by a later migration */
	sql = ab_xasprintf("SELECT group_concat(name, ', ') FROM pragma_table_info('%s') WHERE name NOT IN "
			   "('padding_bytes', 'unavailable', 'other_cpu_ns', 'metric', 'better', 'ratio_min', 'ratio_max', "
			   "'sides', 'evidence_run_id', 'project', 'started_ns', 'runq_ns', 'waited_ns', 'search_text')", table);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW) {
		free(cols);
		cols = ab_xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	free(sql);
	sql = ab_xasprintf("SELECT %s FROM %s ORDER BY 1, 2", cols, table);
	free(cols);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i;
		for (i = 0; i < sqlite3_column_count(st); i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);
			char *next = ab_xasprintf("%s%s|", out, v ? v : "<null>");
			free(out);
			out = next;
		}
		{
			char *next = ab_xasprintf("%s\n", out);
			free(out);
			out = next;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(sql);
	return out;
}

/* The first column of the first row of `sql` on the database at `path`,
 * as text (new string; "<null>" for NULL). */
static char *query_text(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *out;

	if (ab_store_is_server(path)) {  /* psql, the statement on its stdin; its first row */
		char *cmd = ab_xasprintf("psql -X -q -At -v ON_ERROR_STOP=1 '%s' <<'EOF'\n%s;\nEOF", path, sql);
		FILE *p = popen(cmd, "r");
		char buf[4096] = "";

		assert_non_null(p);
		if (!fgets(buf, sizeof(buf), p))
			buf[0] = '\0';
		assert_int_equal(pclose(p), 0);
		buf[strcspn(buf, "\n")] = '\0';
		free(cmd);
		return ab_xstrdup(buf[0] ? buf : "<null>");
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	out = ab_xstrdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "<null>");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return out;
}

/* A store at dir/name made by schema 0001 alone, with v1's rows. */
static char *make_v1_store(const char *dir, const char *name)
{
	const struct ab_embedded_file *init = ab_embed_find("store/migrations/0001_init.sql");
	char *path = ab_path_join(dir, name);
	sqlite3 *db;

	assert_non_null(init);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec_ok(db, "BEGIN");
	exec_ok(db, (const char *)init->data);
	exec_ok(db, "PRAGMA user_version = 1");
	add_experiment(db, 1, 1, "object-churn", "batching removes the alloc_lock convoy at 4/8 lanes",
		       exp1_text);
	add_experiment(db, 2, 2, "odd-trial", NULL, exp2_text);
	exec_ok(db, v1_rows);
	exec_ok(db, "COMMIT");
	sqlite3_close(db);
	return path;
}

struct fixture {
	char *dir, *path;
	char *url;               /* on PostgreSQL: the store's database, else NULL */
	struct ab_store *store;
};

/* The cases run on PostgreSQL (see the head of the file). */
static int on_pg(void)
{
	const char *e = getenv("ABTOOL_TEST_STORE_PG");

	return e && *e;
}

/* A case that reads the sqlite file with sqlite3 or migrates it. */
#define SQLITE_ONLY() do { if (on_pg()) skip(); } while (0)

/* Every run of `from` copied into a new PostgreSQL database (export and
 * import, as abtool sync does, in id order so that the ids agree); its
 * store, open. */
static struct ab_store *copy_to_pg(struct ab_store *from, char **url_out)
{
	static int n;
	char name[32], *url;
	struct ab_store *pg = NULL;
	json_t *runs = NULL, *r, *doc;
	size_t i;
	int64_t id;
	int existed;

	snprintf(name, sizeof(name), "unit_store_%d", n++);
	url = ab_test_pg_database(name);
	if (ab_store_open(&pg, url) < 0)
		fail_msg("open %s: %s", url, ab_error_last());
	assert_int_equal(ab_store_run_uuids(from, &runs), 0);
	json_array_foreach(runs, i, r) {
		int running;

		doc = NULL;
		if (ab_store_export(from, json_integer_value(json_object_get(r, "id")),
				    AB_STORE_EXPORT_SAMPLES, &doc) < 0)
			fail_msg("exporting run %zu: %s", i + 1, ab_error_last());
		/* import refuses a run "running" (no process runs it there):
		 * imported as interrupted, then set running as in `from` */
		running = !strcmp(json_string_value(json_object_get(json_object_get(doc, "run"), "status")),
				  "running");
		if (running)
			json_object_set_new(json_object_get(doc, "run"), "status", json_string("interrupted"));
		if (ab_store_import(pg, doc, &id, &existed) < 0 ||
		    (running && ab_store_run_set_status(pg, id, "running") < 0))
			fail_msg("copying run %zu: %s", i + 1, ab_error_last());
		assert_int_equal(id, json_integer_value(json_object_get(r, "id")));
		json_decref(doc);
	}
	json_decref(runs);
	*url_out = url;
	return pg;
}

static int setup(void **state)
{
	struct fixture *f = ab_xcalloc(1, sizeof(*f));

	f->dir = ab_test_mktemp("store");
	f->path = make_v1_store(f->dir, "a.db");
	if (ab_store_open(&f->store, f->path) < 0)
		fail_msg("open: %s", ab_error_last());
	/* the rows of schema 1 are the project's that opens the store first */
	assert_int_equal(ab_store_claim_project(f->store, "example.org/team/a"), 2);
	ab_store_set_project(f->store, "example.org/team/a");
	if (on_pg()) {
		struct ab_store *pg = copy_to_pg(f->store, &f->url);

		ab_store_close(f->store);
		f->store = pg;
		ab_store_set_project(f->store, "example.org/team/a");
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ab_store_close(f->store);
	ab_test_rmtemp(f->dir);
	free(f->path);
	free(f->url);
	free(f);
	return 0;
}

/* The ids of a history query, as "3,1" (new string); "error" on failure. */
static char *history_ids(struct ab_store *store, const struct ab_history_filter *filter)
{
	json_t *list = NULL, *o;
	char *out = ab_xstrdup("");
	size_t i;

	if (ab_store_history(store, filter, &list) < 0) {
		free(out);
		return ab_xstrdup("error");
	}
	json_array_foreach(list, i, o) {
		char *next = ab_xasprintf("%s%s%lld", out, i ? "," : "",
					  (long long)json_integer_value(json_object_get(o, "id")));
		free(out);
		out = next;
	}
	json_decref(list);
	return out;
}

#define assert_history(store, want, ...) do { \
		struct ab_history_filter flt_ = {__VA_ARGS__}; \
		char *got_ = history_ids((store), &flt_); \
		assert_string_equal(got_, (want)); \
		free(got_); \
	} while (0)

/* The schema version a new store reaches: the number of embedded migrations. */
static int latest_version(void)
{
	const struct ab_embedded_file *f;
	int n = 0;

	for (f = ab_embedded; f->path; f++)
		n += !strncmp(f->path, "store/migrations/", 17);
	return n;
}

static void test_upgrade_keeps_rows_and_indexes_them_body(void **state)
{
	char *dir = ab_test_mktemp("upgrade"), *path = make_v1_store(dir, "v1.db");
	char *before[sizeof(tables) / sizeof(tables[0])];
	struct ab_store *store;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		before[i] = dump_table(path, tables[i]);
	if (ab_store_open(&store, path) < 0)
		fail_msg("open: %s", ab_error_last());
	assert_int_equal(ab_store_schema_version(store), latest_version());
	/* Rows older than projects belong to none until a repository claims
	 * them: no project's history lists them, every project's does. */
	assert_history(store, "", .grep = "convoy");
	assert_history(store, "3,1", .grep = "convoy", .all_projects = 1);
	assert_int_equal(ab_store_claim_project(store, ""), 0);
	assert_int_equal(ab_store_claim_project(store, "example.org/team/a"), 2);
	assert_int_equal(ab_store_claim_project(store, "example.org/team/b"), 0);
	ab_store_set_project(store, "example.org/team/a");
	{
		char *p = query_text(path, "SELECT group_concat(project, ',') FROM (SELECT project FROM "
				     "designs UNION ALL SELECT project FROM experiments)");
		assert_string_equal(p, "example.org/team/a,example.org/team/a,example.org/team/a,"
				    "example.org/team/a");
		free(p);
	}
	/* Text written before the search index existed is found. */
	assert_history(store, "3,1", .grep = "convoy");          /* a hypothesis */
	assert_history(store, "1", .grep = "free list");         /* a note on a run */
	assert_history(store, "2", .grep = "knuth");             /* a note on a design */
	assert_history(store, "1", .grep = "regression");        /* verdict reasons */
	assert_history(store, "2", .grep = "odd-divisors");      /* a design name */
	ab_store_close(store);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char *after = dump_table(path, tables[i]);
		assert_true(strlen(before[i]) > 0);
		assert_string_equal(after, before[i]);
		free(after);
		free(before[i]);
	}
	/* Migration 0006 derives the row results from the stored reports:
	 * the primary metric per row (named by the report when its rows do
	 * not), a ratio the report lacks stays NULL, runs without a report
	 * have none. */
	{
		char *rr = query_text(path, "SELECT group_concat(x, ',') FROM (SELECT run_id || ':' || row_idx "
				      "|| ':' || metric || ':' || is_primary || ':' || better || ':' || "
				      "coalesce(ratio, 'null') AS x FROM row_results ORDER BY run_id, row_idx)");
		assert_string_equal(rr, "1:0:wall_ns:1:lower:1.041,1:1:wall_ns:1:lower:0.518,"
				    "1:2:wall_ns:1:lower:null,2:0:ops:1:higher:1.2,2:1:ops:1:higher:1.5");
		free(rr);
	}
	/* Opening again is a no-op. */
	if (ab_store_open(&store, path) < 0)
		fail_msg("reopen: %s", ab_error_last());
	assert_int_equal(ab_store_schema_version(store), latest_version());
	ab_store_close(store);
	free(path);
	ab_test_rmtemp(dir);
}

/* test_upgrade_keeps_rows_and_indexes_them_body on sqlite only: it reads or migrates the file itself (its
 * declarations allocate, so the skip comes first). */
static void test_upgrade_keeps_rows_and_indexes_them(void **state)
{
	SQLITE_ONLY();
	test_upgrade_keeps_rows_and_indexes_them_body(state);
}

static void test_history_filters(void **state)
{
	struct fixture *f = *state;

	assert_history(f->store, "3,2,1", .limit = 0);
	assert_history(f->store, "3", .limit = 1);
	assert_history(f->store, "1", .verdict = "rejected");
	assert_history(f->store, "2", .verdict = "accepted");
	assert_history(f->store, "", .verdict = "invalid");
	assert_history(f->store, "3,1", .design = "batched-publication");
	assert_history(f->store, "", .design = "batched");
	assert_history(f->store, "2", .experiment = "odd-trial");
	/* A revision prefix matches the parent or the candidate. */
	assert_history(f->store, "2,1", .rev = "bbbb2");
	assert_history(f->store, "3,1", .rev = "aaaa1111");
	assert_history(f->store, "3", .rev = "dddd");
	assert_history(f->store, "", .rev = "e");
	assert_history(f->store, "3,2", .since = "2026-02-01T00:00:00Z");
	assert_history(f->store, "1", .until = "2026-02-10T12:30:00Z");
	assert_history(f->store, "2", .since = "2026-02-10T12:30:00Z", .until = "2026-02-10T12:30:01Z");
	assert_history(f->store, "1", .design = "batched-publication", .verdict = "rejected",
		       .rev = "aaaa", .grep = "convoy");
}

/* A run is named by its id, "latest" or a prefix of its uuid; a uuid
 * prefix of digits only (run 2's is 2222...) used to be taken for an id,
 * which no run has. */
static void test_run_resolve(void **state)
{
	struct fixture *f = *state;
	int64_t id;

	assert_int_equal(ab_store_run_resolve(f->store, "2", &id), 0);
	assert_int_equal(id, 2);
	assert_int_equal(ab_store_run_resolve(f->store, "latest", &id), 0);
	assert_int_equal(id, 3);
	assert_int_equal(ab_store_run_resolve(f->store, "22222222", &id), 0);
	assert_int_equal(id, 2);
	assert_int_equal(ab_store_run_resolve(f->store, "3333333333", &id), 0);
	assert_int_equal(id, 3);
	/* short numbers stay ids, known or not; so does a long one no uuid starts with */
	assert_int_equal(ab_store_run_resolve(f->store, "22", &id), 0);
	assert_int_equal(id, 22);
	assert_int_equal(ab_store_run_resolve(f->store, "4444444", &id), 0);
	assert_int_equal(id, 4444444);
	assert_int_equal(ab_store_run_resolve(f->store, "zz", &id), AB_ENOTFOUND);
}

static void test_history_fields(void **state)
{
	struct fixture *f = *state;
	struct ab_history_filter filter = {0};
	json_t *list, *r1, *r2, *r3;

	assert_int_equal(ab_store_history(f->store, &filter, &list), 0);
	assert_int_equal(json_array_size(list), 3);
	r3 = json_array_get(list, 0);
	r2 = json_array_get(list, 1);
	r1 = json_array_get(list, 2);
	/* Lower is better: best is the smallest ratio; null ratios are skipped. */
	assert_close(json_real_value(json_object_get(r1, "ratio_best")), 0.518, 6);
	assert_close(json_real_value(json_object_get(r1, "ratio_worst")), 1.041, 6);
	assert_string_equal(json_string_value(json_object_get(r1, "metric")), "wall_ns");
	assert_string_equal(json_string_value(json_object_get(r1, "design")), "batched-publication");
	assert_string_equal(json_string_value(json_object_get(r1, "experiment")), "object-churn");
	assert_string_equal(json_string_value(json_array_get(json_object_get(r1, "reasons"), 0)),
			    "no low-lane regression: lanes=1: ratio 1.041 [1.030, 1.052]: regression");
	assert_int_equal(json_integer_value(json_object_get(r1, "notes")), 1);
	assert_null(json_object_get(r1, "report"));
	/* Higher is better: best is the largest. */
	assert_close(json_real_value(json_object_get(r2, "ratio_best")), 1.5, 6);
	assert_close(json_real_value(json_object_get(r2, "ratio_worst")), 1.2, 6);
	assert_string_equal(json_string_value(json_object_get(r2, "better")), "higher");
	assert_int_equal(json_integer_value(json_object_get(r2, "notes")), 1);
	/* An unfinished run: its status, no verdict, no headline, no reasons. */
	assert_string_equal(json_string_value(json_object_get(r3, "status")), "running");
	assert_true(json_is_null(json_object_get(r3, "verdict")));
	assert_true(json_is_null(json_object_get(r3, "ratio_best")));
	assert_int_equal(json_array_size(json_object_get(r3, "reasons")), 0);
	json_decref(list);
}

static void test_grep_is_never_fts_syntax(void **state)
{
	static const char *const hostile[] = {
		"\"unterminated phrase", "AND", "OR NOT", "NEAR(convoy alloc)", "text:convoy",
		"kind:note", "(", ")", "'", "^convoy", "convoy\"s", "a\"\"b", "*", "-convoy", "+", "{x}",
		"convoy OR", "%", "\\", "NOT convoy", "convoy*\"",
	};
	struct fixture *f = *state;
	json_t *list;
	size_t i;

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		struct ab_history_filter filter = {.grep = hostile[i]};
		if (ab_store_history(f->store, &filter, &list) < 0)
			fail_msg("--grep '%s': %s", hostile[i], ab_error_last());
		json_decref(list);
	}
	/* Words all have to match (anywhere in the run's texts), phrases in order. */
	assert_history(f->store, "1", .grep = "convoy regression");
	assert_history(f->store, "3,1", .grep = "\"alloc_lock convoy\"");
	assert_history(f->store, "", .grep = "\"convoy alloc_lock\"");
	assert_history(f->store, "3,1", .grep = "CONVOY");
	/* Stemming and prefixes. */
	assert_history(f->store, "1", .grep = "regressions");
	assert_history(f->store, "3,1", .grep = "conv*");
	assert_history(f->store, "", .grep = "NEAR(convoy alloc)");
	/* Nothing to search for, or too much. */
	{
		struct ab_history_filter filter = {.grep = "\""};
		assert_int_equal(ab_store_history(f->store, &filter, &list), AB_EINVALID);
		filter.grep = " \"\" ";
		assert_int_equal(ab_store_history(f->store, &filter, &list), AB_EINVALID);
		filter.grep = "a b c d e f g h i j k l m n o p q";
		assert_int_equal(ab_store_history(f->store, &filter, &list), AB_EINVALID);
	}
}

static void test_notes(void **state)
{
	struct fixture *f = *state;
	json_t *notes;
	int64_t id = 0;

	assert_int_equal(ab_store_note_add(f->store, 2, NULL, "the speedup holds at 8 lanes too", &id), 0);
	assert_true(id > 2);
	assert_history(f->store, "2", .grep = "speedup");
	assert_int_equal(ab_store_notes(f->store, 2, &notes), 0);
	assert_int_equal(json_array_size(notes), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(notes, 0), "scope")), "design");
	assert_string_equal(json_string_value(json_object_get(json_array_get(notes, 1), "scope")), "run");
	assert_string_equal(json_string_value(json_object_get(json_array_get(notes, 1), "text")),
			    "the speedup holds at 8 lanes too");
	json_decref(notes);

	/* A design note shows on every run of the design and is searchable. */
	assert_int_equal(ab_store_note_add(f->store, 0, "batched-publication",
					   "rejected twice: the lock is not the bottleneck", NULL), 0);
	assert_history(f->store, "3,1", .grep = "bottleneck");
	assert_int_equal(ab_store_notes(f->store, 3, &notes), 0);
	assert_int_equal(json_array_size(notes), 1);
	json_decref(notes);
	assert_int_equal(ab_store_notes(f->store, 1, &notes), 0);
	assert_int_equal(json_array_size(notes), 2);
	json_decref(notes);

	assert_int_equal(ab_store_note_add(f->store, 0, "batched-publicaton", "x", NULL), AB_ENOTFOUND);
	assert_non_null(strstr(ab_error_last(), "did you mean 'batched-publication'"));
	assert_int_equal(ab_store_note_add(f->store, 99, NULL, "x", NULL), AB_ENOTFOUND);
	assert_int_equal(ab_store_note_add(f->store, 1, NULL, " \n", NULL), AB_EINVALID);
}

/* The store's settings: unset, set, replaced, listed, removed. */
static void test_settings(void **state)
{
	struct fixture *f = *state;
	json_t *list;
	char *value = NULL;

	assert_int_equal(ab_store_setting_get(f->store, "block_rejected", &value), 0);
	assert_null(value);
	assert_int_equal(ab_store_setting_set(f->store, "block_rejected", "true"), 0);
	assert_int_equal(ab_store_setting_set(f->store, "block_rejected", "false"), 0);
	assert_int_equal(ab_store_setting_get(f->store, "block_rejected", &value), 0);
	assert_string_equal(value, "false");
	free(value);
	assert_int_equal(ab_store_settings(f->store, &list), 0);
	assert_int_equal(json_array_size(list), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(list, 0), "key")), "block_rejected");
	assert_non_null(json_string_value(json_object_get(json_array_get(list, 0), "updated_at")));
	json_decref(list);
	assert_int_equal(ab_store_setting_set(f->store, "block_rejected", NULL), 0);
	assert_int_equal(ab_store_setting_get(f->store, "block_rejected", &value), 0);
	assert_null(value);
}

/* The count of a store call's JSON array, or -1 on failure. */
static long memory_count(struct ab_store *store, const char *design, char *const *words)
{
	json_t *list = NULL;
	long n = ab_store_rejected_memory(store, design, words, &list) < 0 ? -1
		 : (long)json_array_size(list);

	json_decref(list);
	return n;
}

/* One store, two projects (docs/history.md, "Projects"): a design of one
 * name in each, and the memory of rejected designs, the designs and the
 * history of one project never see the other's. */
static void test_projects(void **state)
{
	struct fixture *f = *state;
	char *words[] = {"batching", "convoy", NULL};
	json_t *list = NULL, *doc = NULL, *d;
	int64_t id = 0;
	int existed = -1;
	size_t i;

	/* run 1 rejected batched-publication in team/a */
	assert_int_equal(memory_count(f->store, "batched-publication", NULL), 1);
	assert_int_equal(memory_count(f->store, "another-idea", words), 1);
	ab_store_set_project(f->store, "example.org/team/b");
	assert_string_equal(ab_store_project(f->store), "example.org/team/b");
	assert_int_equal(memory_count(f->store, "batched-publication", NULL), 0);
	assert_int_equal(memory_count(f->store, "another-idea", words), 0);
	assert_int_equal(ab_store_designs(f->store, 0, &list), 0);
	assert_int_equal(json_array_size(list), 0);
	json_decref(list);
	assert_int_equal(ab_store_project_known(f->store), 0);
	assert_history(f->store, "", .limit = 0);
	assert_history(f->store, "3,2,1", .all_projects = 1);
	assert_history(f->store, "3,1", .project = "example.org/team/a", .design = "batched-publication");
	/* run 1 again, as team/b's run: the same name there is another design,
	 * and the same text another experiment */
	assert_int_equal(ab_store_export(f->store, 1, AB_STORE_EXPORT_SAMPLES, &doc), 0);
	json_object_set_new(json_object_get(doc, "run"), "uuid",
			    json_string("66666666666666666666666666666666"));
	json_object_set_new(json_object_get(doc, "design"), "project", json_string("example.org/team/b"));
	assert_int_equal(ab_store_import(f->store, doc, &id, &existed), 0);
	assert_int_equal(id, 4);
	json_decref(doc);
	assert_int_equal(ab_store_project_known(f->store), 1);
	assert_history(f->store, "4", .limit = 0);
	assert_int_equal(memory_count(f->store, "batched-publication", NULL), 1);
	assert_int_equal(ab_store_designs(f->store, AB_STORE_DESIGNS_ALL_PROJECTS, &list), 0);
	assert_int_equal(json_array_size(list), 3);
	json_array_foreach(list, i, d)
		if (!strcmp(json_string_value(json_object_get(d, "design")), "batched-publication"))
			assert_int_equal(json_integer_value(json_object_get(d, "runs")),
					 strcmp(json_string_value(json_object_get(d, "project")),
						"example.org/team/a") ? 1 : 2);
	json_decref(list);
	{
		char *n = query_text(f->url ? f->url : f->path, "SELECT count(*) || ':' || "
				     "count(DISTINCT project) FROM experiments WHERE name = 'object-churn'");
		assert_string_equal(n, "2:2");
		free(n);
	}
	/* a note on a design is on the current project's */
	assert_int_equal(ab_store_note_add(f->store, 0, "odd-divisors", "x", NULL), AB_ENOTFOUND);
	assert_non_null(strstr(ab_error_last(), "example.org/team/b"));
}

static void test_designs(void **state)
{
	struct fixture *f = *state;
	json_t *list, *d;

	assert_int_equal(ab_store_designs(f->store, 0, &list), 0);
	assert_int_equal(json_array_size(list), 2);
	d = json_array_get(list, 0);   /* the design with the newest run */
	assert_string_equal(json_string_value(json_object_get(d, "design")), "batched-publication");
	assert_int_equal(json_integer_value(json_object_get(d, "runs")), 2);
	assert_int_equal(json_integer_value(json_object_get(d, "latest_run")), 1);
	assert_string_equal(json_string_value(json_object_get(d, "latest_verdict")), "rejected");
	assert_int_equal(json_integer_value(json_object_get(d, "newest_run")), 3);
	assert_string_equal(json_string_value(json_object_get(d, "newest_status")), "running");
	assert_int_equal(json_integer_value(json_object_get(d, "notes")), 1);
	assert_string_equal(json_string_value(json_object_get(d, "last_note")),
			    "the convoy moved to the free list, see https://example.invalid/42");
	assert_true(json_is_array(json_object_get(d, "latest_reasons")));
	d = json_array_get(list, 1);
	assert_string_equal(json_string_value(json_object_get(d, "latest_verdict")), "accepted");
	json_decref(list);

	assert_int_equal(ab_store_designs(f->store, 1, &list), 0);
	assert_int_equal(json_array_size(list), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(list, 0), "design")),
			    "batched-publication");
	json_decref(list);
}

/* Only a newer decisive A/B run changes a design's standing: an
 * inconclusive rerun, an invalid run and a calibration leave it rejected. */
/* Run `sql` on the fixture's store behind its back: with sqlite3 on the
 * file, or with psql (on its stdin) on PostgreSQL. */
static void exec_store(struct fixture *f, const char *sql)
{
	sqlite3 *db;

	if (f->url) {
		char *cmd = ab_xasprintf("psql -X -q -v ON_ERROR_STOP=1 '%s'", f->url);
		FILE *p = popen(cmd, "w");

		assert_non_null(p);
		fprintf(p, "%s;\n", sql);
		assert_int_equal(pclose(p), 0);
		free(cmd);
		return;
	}
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	exec_ok(db, sql);
	sqlite3_close(db);
}

static void test_designs_standing(void **state)
{
	struct fixture *f = *state;
	json_t *list, *d;
	static const char *const later[] = {
		"(4, '4444', 1, 1, 'ab', '2026-04-01T08:00:00Z', 'finished', 'inconclusive')",
		"(5, '5555', 1, 1, 'ab', '2026-04-02T08:00:00Z', 'finished', 'invalid')",
		"(6, '6666', 1, 1, 'calibrate', '2026-04-03T08:00:00Z', 'finished', 'calibrated')",
		"(7, '7777', 1, 1, 'ab', '2026-04-04T08:00:00Z', 'finished', 'accepted')",
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		char *sql = ab_xasprintf("INSERT INTO runs(id, uuid, experiment_id, design_id, kind, created_at, "
					 "status, verdict, repo, parent_oid, candidate_oid, exact_parent, seed, pairs, "
					 "warmup, abtool_version) SELECT * FROM (VALUES %s) AS v CROSS JOIN (SELECT "
					 "'/src/a', '" OID("aaaa1111") "', '" OID("dddd4444") "', 1, 1, 1, 0, "
					 "'0.1.0') AS c", later[i]);
		exec_store(f, sql);
		free(sql);
		assert_int_equal(ab_store_designs(f->store, 1, &list), 0);
		d = json_array_get(list, 0);
		if (i < 3) {
			assert_int_equal(json_array_size(list), 1);
			assert_int_equal(json_integer_value(json_object_get(d, "latest_run")), 1);
			assert_string_equal(json_string_value(json_object_get(d, "latest_verdict")), "rejected");
			assert_int_equal(json_integer_value(json_object_get(d, "newest_run")), 4 + (int)i);
		} else {
			assert_int_equal(json_array_size(list), 0);   /* accepted: no longer rejected */
		}
		json_decref(list);
	}
	assert_int_equal(ab_store_designs(f->store, 0, &list), 0);
	d = json_array_get(list, 0);
	assert_int_equal(json_integer_value(json_object_get(d, "latest_run")), 7);
	assert_string_equal(json_string_value(json_object_get(d, "latest_verdict")), "accepted");
	json_decref(list);
}

/* An export without what differs between stores by design. */
static json_t *comparable(json_t *doc)
{
	json_t *c = json_deep_copy(doc);

	json_object_del(c, "exported_at");
	json_object_del(json_object_get(c, "run"), "id");
	json_object_del(json_object_get(json_object_get(c, "run"), "report"), "run_id");
	return c;
}

static void test_export_import(void **state)
{
	struct fixture *f = *state;
	char *path_b = ab_path_join(f->dir, "b.db");
	struct ab_store *b;
	json_t *a1, *a2, *a3, *b1, *ca, *cb, *notes, *samples;
	int64_t id = 0;
	int existed = -1;

	assert_int_equal(ab_store_note_add(f->store, 0, "batched-publication", "a design note", NULL), 0);
	assert_int_equal(ab_store_export(f->store, 1, AB_STORE_EXPORT_SAMPLES, &a1), 0);
	assert_int_equal(ab_store_export(f->store, 2, AB_STORE_EXPORT_SAMPLES, &a2), 0);
	assert_int_equal(ab_store_export(f->store, 3, AB_STORE_EXPORT_SAMPLES, &a3), 0);
	assert_string_equal(json_string_value(json_object_get(a1, "schema")), "abtool-export-1");
	samples = json_object_get(a1, "samples");
	assert_int_equal(json_array_size(samples), 4);
	assert_close(json_real_value(json_object_get(json_object_get(json_array_get(samples, 1), "metrics"),
						     "wall_ns")), 104.0, 6);
	assert_int_equal(json_array_size(json_object_get(a1, "builds")), 2);
	assert_int_equal(json_array_size(json_object_get(a1, "rows")), 3);
	assert_int_equal(json_array_size(json_object_get(a1, "rule_results")), 1);
	assert_int_equal(json_array_size(json_object_get(a1, "notes")), 2);
	assert_true(json_is_object(json_object_get(json_object_get(a1, "run"), "report")));
	assert_int_equal(ab_store_export(f->store, 42, 0, &b1), AB_ENOTFOUND);

	assert_string_equal(json_string_value(json_object_get(json_object_get(a1, "design"), "project")),
			    "example.org/team/a");
	if (ab_store_open(&b, path_b) < 0)
		fail_msg("open b: %s", ab_error_last());
	/* b serves another project: the runs keep theirs */
	ab_store_set_project(b, "example.org/team/b");
	/* Run 2 first, so that run 1 gets another local id in b. */
	assert_int_equal(ab_store_import(b, a2, &id, &existed), 0);
	assert_int_equal(existed, 0);
	assert_int_equal(ab_store_import(b, a1, &id, &existed), 0);
	assert_int_equal(existed, 0);
	assert_int_equal(id, 2);
	assert_int_equal(ab_store_export(b, 2, AB_STORE_EXPORT_SAMPLES, &b1), 0);
	ca = comparable(a1);
	cb = comparable(b1);
	assert_true(json_equal(ca, cb));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(b1, "run"),
									    "report"), "run_id")), 2);
	json_decref(ca);
	json_decref(cb);
	json_decref(b1);

	/* Importing the same run again changes nothing. */
	assert_int_equal(ab_store_import(b, a1, &id, &existed), 0);
	assert_int_equal(existed, 1);
	assert_int_equal(id, 2);
	assert_history(b, "", .limit = 0);
	ab_store_set_project(b, "example.org/team/a");
	assert_history(b, "1,2", .limit = 0);   /* newest first: by when the run was made */
	/* Imported text is searchable; the design note is not added twice.
	 * Run 3 was exported while "running": no process runs it in b, so
	 * import refuses that status; as interrupted it is imported. */
	assert_int_equal(ab_store_import(b, a3, &id, &existed), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "run.status: expected"));
	json_object_set_new(json_object_get(a3, "run"), "status", json_string("interrupted"));
	assert_int_equal(ab_store_import(b, a3, &id, &existed), 0);
	assert_int_equal(id, 3);
	assert_history(b, "3,2", .grep = "convoy");
	assert_int_equal(ab_store_notes(b, 3, &notes), 0);
	assert_int_equal(json_array_size(notes), 1);
	json_decref(notes);

	/* Damaged documents are refused and leave the store as it was. */
	json_object_set_new(json_object_get(a2, "experiment"), "text", json_string("name: changed\n"));
	json_object_set_new(json_object_get(a2, "run"), "uuid", json_string("44444444444444444444444444444444"));
	assert_int_equal(ab_store_import(b, a2, &id, &existed), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "experiment.hash"));
	json_object_set_new(a3, "schema", json_string("abtool-report-1"));
	assert_int_equal(ab_store_import(b, a3, &id, &existed), AB_EINVALID);
	json_object_set_new(json_object_get(a1, "run"), "uuid", json_string("55555555555555555555555555555555"));
	json_object_del(json_array_get(json_object_get(a1, "samples"), 3), "side");
	assert_int_equal(ab_store_import(b, a1, &id, &existed), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "samples[3].side"));
	assert_history(b, "3,1,2", .limit = 0);

	ab_store_close(b);
	json_decref(a1);
	json_decref(a2);
	json_decref(a3);
	free(path_b);
}

/* A run written through the store and read back: the plan, a sample with
 * the extremes of its columns (int64 limits, a double's last bit, NULL
 * against empty text, optional columns), the claim, the finish with its
 * derived results, and an export and import of that run. Run on every
 * engine (test_store_text runs these tests on the text engine). */
static void test_run_round_trip(void **state)
{
	static const char *const names[] = {"wall_ns", "ratio", "missing"};
	static char *row_params[] = {"{\"lanes\":1}"};
	static const char report[] = "{\"run_id\":4,\"metric\":\"wall_ns\",\"rows\":[{\"better\":"
				     "\"lower\",\"ratio\":0.9}],\"rules\":[{\"metric\":\"wall_ns\"}]}";
	struct fixture *f = *state;
	struct ab_plan_entry e[3] = {{0, 0, -1, 0, 0, 0}, {1, 0, 0, -1, 1, 1}, {2, 0, 0, -1, 0, 1}};
	struct ab_plan plan = {.entries = e, .n = 3};
	char hash[65];
	struct ab_run_meta m = {.kind = "ab", .experiment_hash = hash, .experiment_name = "rt",
				.experiment_path = "rt.yaml", .experiment_text = "name: rt\n", .design = "rt-design",
				.repo = "/src/rt", .parent_oid = OID("aaaa1111"), .candidate_oid = OID("eeee5555"),
				.exact_parent = 1, .seed = UINT64_MAX, .pairs = 1, .warmup = 1,
				.row_params_json = row_params, .nrows = 1};
	double metrics[3] = {0.1 + 0.2, 5e-324, NAN};
	struct ab_sample s = {.entry = e[1], .status = AB_SAMPLE_DONE, .started_unix = 1767434400,
			      .wall_ns = INT64_MAX, .user_ns = INT64_MIN, .sys_ns = 0, .maxrss_bytes = -1,
			      .exit_code = -1, .signal = 9, .timed_out = 1, .flags = AB_FLAG_CONTENDED,
			      .checksum = "", .metrics = metrics, .nmetrics = 3, .padding_bytes = -1,
			      .other_cpu_ns = 0, .stdout_text = "out\n"};
	struct ab_rule_record rule = {"r", "pass", NULL};
	struct ab_sample *got;
	struct ab_store *b;
	char *path_b = ab_path_join(f->dir, "rt.db");
	json_t *doc, *counts, *run;
	size_t n;
	int64_t id;
	int existed;

	ab_sha256_hex(hash, m.experiment_text, strlen(m.experiment_text));
	assert_int_equal(ab_store_run_create(f->store, &m, &plan), 0);
	assert_int_equal(m.id, 4);
	assert_int_equal(ab_store_sample_put(f->store, m.id, &s, names), 0);
	s.entry.seq = 7;
	assert_int_equal(ab_store_sample_put(f->store, m.id, &s, names), AB_EIO);
	assert_int_equal(ab_store_samples_load(f->store, m.id, names, 3, &got, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(got[0].entry.warmup, 0);
	assert_int_equal(got[0].entry.pair, -1);
	assert_int_equal(got[0].padding_bytes, -1);
	assert_int_equal(got[0].other_cpu_ns, -1);
	assert_null(got[0].checksum);
	assert_int_equal(got[1].entry.side, 1);
	assert_int_equal(got[1].entry.order, 1);
	assert_int_equal(got[1].wall_ns, INT64_MAX);
	assert_int_equal(got[1].user_ns, INT64_MIN);
	assert_int_equal(got[1].maxrss_bytes, -1);
	assert_int_equal(got[1].exit_code, -1);
	assert_int_equal(got[1].signal, 9);
	assert_int_equal(got[1].flags, AB_FLAG_CONTENDED);
	assert_string_equal(got[1].checksum, "");
	assert_null(got[1].error);
	assert_string_equal(got[1].stdout_text, "out\n");
	assert_int_equal(got[1].padding_bytes, -1);
	assert_int_equal(got[1].other_cpu_ns, 0);
	assert_true(got[1].metrics[0] == 0.1 + 0.2);
	assert_true(got[1].metrics[1] == 5e-324);
	assert_true(isnan(got[1].metrics[2]));
	ab_samples_free(got, n);

	assert_int_equal(ab_store_run_claim(f->store, m.id, NULL, "{\"pid\":1}"), 1);
	assert_int_equal(ab_store_run_claim(f->store, m.id, NULL, "{\"pid\":2}"), 0);
	assert_int_equal(ab_store_run_finish(f->store, m.id, "accepted", "[]", report, &rule, 1), 0);
	assert_int_equal(ab_store_sample_counts(f->store, m.id, &counts), 0);
	assert_int_equal(json_integer_value(json_object_get(counts, "done")), 1);
	assert_int_equal(json_integer_value(json_object_get(counts, "warmup")), 1);
	json_decref(counts);
	assert_int_equal(ab_store_run_get(f->store, m.id, &run), 0);
	assert_true((uint64_t)json_integer_value(json_object_get(run, "seed")) == UINT64_MAX);
	assert_close(json_real_value(json_object_get(run, "ratio_min")), 0.9, 9);
	json_decref(run);

	assert_int_equal(ab_store_export(f->store, m.id, AB_STORE_EXPORT_SAMPLES, &doc), 0);
	if (ab_store_open(&b, path_b) < 0)
		fail_msg("open: %s", ab_error_last());
	/* the store keeps any int64, but an export's negative times are bad
	 * input (no sample measures one): import names the field */
	assert_int_equal(ab_store_import(b, doc, &id, &existed), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "samples[1].user_ns: expected a whole number, 0 or more"));
	json_object_set_new(json_array_get(json_object_get(doc, "samples"), 1), "user_ns", json_integer(0));
	json_object_set_new(json_array_get(json_object_get(doc, "samples"), 1), "maxrss_bytes", json_integer(1));
	assert_int_equal(ab_store_import(b, doc, &id, &existed), 0);
	assert_int_equal(id, 1);
	{
		json_t *again, *ca, *cb;
		assert_int_equal(ab_store_export(b, id, AB_STORE_EXPORT_SAMPLES, &again), 0);
		ca = comparable(doc);
		cb = comparable(again);
		assert_true(json_equal(ca, cb));
		json_decref(ca);
		json_decref(cb);
		json_decref(again);
	}
	ab_store_close(b);
	json_decref(doc);
	free(path_b);
}

/* The SHA-256 of a file's bytes (into hex). */
static void file_hash(const char *path, char hex[65])
{
	char *data = NULL;
	size_t len = 0;

	assert_int_equal(ab_read_file(&data, &len, path), 0);
	ab_sha256_hex(hex, data, len);
	free(data);
}

static void set_user_version(const char *path, int version)
{
	char sql[64];
	sqlite3 *db;

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec_ok(db, sql);
	sqlite3_close(db);
}

/* Open `path`, expecting AB_EIO with `phrase` in the message. */
static void assert_open_refused(const char *path, const char *phrase)
{
	struct ab_store *store = NULL;

	assert_int_equal(ab_store_open(&store, path), AB_EIO);
	assert_null(store);
	if (!strstr(ab_error_last(), phrase))
		fail_msg("'%s' does not say '%s'", ab_error_last(), phrase);
}

/* A version newer than the migrations, or negative, is refused before
 * the file is touched (no WAL switch: the bytes stay); a version whose
 * tables do not match is named as such. */
static void test_schema_versions_body(void **state)
{
	char *dir = ab_test_mktemp("store-version"), *path = ab_path_join(dir, "s.db");
	char *plain = ab_path_join(dir, "plain.db"), *want, before[65], after[65];
	struct ab_store *store;

	(void)state;
	assert_int_equal(ab_store_open(&store, path), 0);
	ab_store_close(store);
	set_user_version(path, 99);
	file_hash(path, before);
	want = ab_xasprintf("has schema version 99, newer than this abtool (%s) knows (%d)", ABTOOL_VERSION,
			    latest_version());
	assert_open_refused(path, want);
	free(want);
	file_hash(path, after);
	assert_string_equal(before, after);
	/* rollback-journal mode, as sqlite3 makes a file: still untouched */
	set_user_version(plain, 99);
	file_hash(plain, before);
	assert_open_refused(plain, "has schema version 99");
	file_hash(plain, after);
	assert_string_equal(before, after);
	set_user_version(path, -2);
	assert_open_refused(path, "has schema version -2, which no abtool writes");
	set_user_version(path, 0);
	assert_open_refused(path, "has schema version 0, but its tables are not that version's: "
			    "migration 1 (store/migrations/0001_init.sql) does not apply");
	set_user_version(path, latest_version());
	assert_int_equal(ab_store_open(&store, path), 0);
	assert_int_equal(ab_store_schema_version(store), latest_version());
	ab_store_close(store);
	free(plain);
	free(path);
	ab_test_rmtemp(dir);
}

/* test_schema_versions_body on sqlite only: it reads or migrates the file itself (its
 * declarations allocate, so the skip comes first). */
static void test_schema_versions(void **state)
{
	SQLITE_ONLY();
	test_schema_versions_body(state);
}

/* The store deleted or replaced under an open handle is found gone. */
static void test_check_alive_body(void **state)
{
	struct fixture *f = *state;
	char *away = ab_xasprintf("%s.away", f->path), *copy = ab_xasprintf("%s.copy", f->path);
	char *cmd;

	assert_int_equal(ab_store_check_alive(f->store), 0);
	assert_int_equal(rename(f->path, away), 0);
	assert_int_equal(ab_store_check_alive(f->store), AB_EIO);
	assert_non_null(strstr(ab_error_last(), "is gone: "));
	assert_non_null(strstr(ab_error_last(), "give --store a file that stays where it is"));
	assert_int_equal(rename(away, f->path), 0);
	assert_int_equal(ab_store_check_alive(f->store), 0);
	cmd = ab_xasprintf("cp '%s' '%s' && mv '%s' '%s'", f->path, copy, copy, f->path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ab_store_check_alive(f->store), AB_EIO);
	free(cmd);
	free(copy);
	free(away);
}

/* test_check_alive_body on sqlite only: it reads or migrates the file itself (its
 * declarations allocate, so the skip comes first). */
static void test_check_alive(void **state)
{
	SQLITE_ONLY();
	test_check_alive_body(state);
}

static void set_options(struct fixture *f, int64_t run_id, const char *options)
{
	char *sql = ab_xasprintf("UPDATE runs SET options = '%s' WHERE id = %lld", options,
				 (long long)run_id);

	exec_store(f, sql);
	free(sql);
}

/* The "alive" of run 3 (running) in history: 1, 0, or -1 for null. */
static int history_alive(struct ab_store *store)
{
	struct ab_history_filter filter = {0};
	json_t *list, *alive;
	int out;

	assert_int_equal(ab_store_history(store, &filter, &list), 0);
	alive = json_object_get(json_array_get(list, 0), "alive");
	assert_non_null(alive);
	out = json_is_null(alive) ? -1 : json_is_true(alive);
	assert_true(json_is_null(json_object_get(json_array_get(list, 1), "alive")));
	json_decref(list);
	return out;
}

/* Who runs a run: its recorded pid and host; and a run abandoned after a
 * failure is interrupted, the failure's message kept. */
static void test_owner_and_abandon(void **state)
{
	struct fixture *f = *state;
	char host[HOST_NAME_MAX + 1], *opts;
	json_t *o, *run;
	pid_t child;

	assert_int_equal(gethostname(host, sizeof(host)), 0);
	host[sizeof(host) - 1] = '\0';
	assert_int_equal(history_alive(f->store), -1);  /* no options recorded */
	o = json_pack("{s:I, s:s}", "pid", (json_int_t)getpid(), "hostname", host);
	assert_int_equal(ab_store_run_owner(o), AB_OWNER_DEAD);  /* the caller runs nothing */
	json_decref(o);
	o = json_pack("{s:I, s:s}", "pid", (json_int_t)1, "hostname", "elsewhere.invalid");
	assert_int_equal(ab_store_run_owner(o), AB_OWNER_UNKNOWN);
	json_decref(o);
	assert_int_equal(ab_store_run_owner(NULL), AB_OWNER_UNKNOWN);
	/* a process whose command line names abtool is one */
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		execl("/bin/sleep", "abtool-sleep", "30", (char *)NULL);
		_exit(127);
	}
	usleep(100 * 1000);
	opts = ab_xasprintf("{\"pid\":%lld,\"hostname\":\"%s\"}", (long long)child, host);
	set_options(f, 3, opts);
	o = json_loads(opts, 0, NULL);
	assert_int_equal(ab_store_run_owner(o), AB_OWNER_ALIVE);
	assert_int_equal(history_alive(f->store), 1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_int_equal(ab_store_run_owner(o), AB_OWNER_DEAD);
	assert_int_equal(history_alive(f->store), 0);
	json_decref(o);
	free(opts);

	ab_error_set(AB_EIO, "the failure");
	assert_int_equal(ab_store_run_abandon(f->store, 3), 1);
	assert_int_equal(ab_error_code(), AB_EIO);
	assert_string_equal(ab_error_last(), "the failure");
	assert_int_equal(ab_store_run_get(f->store, 3, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "interrupted");
	json_decref(run);
	assert_int_equal(history_alive(f->store), -1);  /* not running: not judged */
	assert_int_equal(ab_store_run_abandon(f->store, 3), 0);
	assert_int_equal(ab_store_run_abandon(f->store, 1), 0);  /* finished stays finished */
	assert_int_equal(ab_store_run_get(f->store, 1, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "finished");
	json_decref(run);
}

/* On PostgreSQL: a store whose schema version is newer than this abtool's
 * is refused and left as it was; a database with tables, views,
 * sequences, functions, types or schemas of its own (in any schema) but no
 * abtool_schema is another program's, refused and left as it was; a
 * database that does not exist is named. (sqlite's versions of these are
 * test_schema_versions and the corpus.) */
static void test_pg_schema(void **state)
{
	struct fixture f = {0};
	struct ab_store *store = NULL;

	(void)state;
	if (!on_pg())
		skip();
	f.url = ab_test_pg_database("unit_store_newer");
	assert_int_equal(ab_store_open(&store, f.url), 0);
	ab_store_close(store);
	exec_store(&f, "UPDATE abtool_schema SET version = 99");
	store = NULL;
	assert_int_equal(ab_store_open(&store, f.url), AB_EIO);
	assert_null(store);
	assert_non_null(strstr(ab_error_last(), "has schema version 99, newer than this abtool"));
	free(f.url);

	f.url = ab_test_pg_database("unit_store_foreign");
	exec_store(&f, "CREATE TABLE accounts(id INTEGER)");
	assert_int_equal(ab_store_open(&store, f.url), AB_EIO);
	assert_non_null(strstr(ab_error_last(), "is not an abtool store"));
	assert_non_null(strstr(ab_error_last(), "another program's"));
	/* left as it was: no abtool_schema was made, so it is refused again */
	exec_store(&f, "DO $$ BEGIN IF to_regclass('runs') IS NOT NULL OR to_regclass('abtool_schema') "
		   "IS NOT NULL THEN RAISE 'a store table was made'; END IF; END $$");
	assert_int_equal(ab_store_open(&store, f.url), AB_EIO);
	free(f.url);

	/* another program's database whose tables live in another schema, or
	 * that holds only a view, a sequence, a function, a type or a schema:
	 * refused as well, and left without abtool's tables; an extension
	 * (a template may give every database one) is not the program's own */
	{
		static const char *const foreign[] = {
			"CREATE SCHEMA app; CREATE TABLE app.users(id INTEGER)",
			"CREATE VIEW v AS SELECT 1 AS x",
			"CREATE SEQUENCE s",
			"CREATE FUNCTION f() RETURNS INTEGER LANGUAGE sql AS 'SELECT 1'",
			"CREATE TYPE mood AS ENUM ('a')",
			"CREATE SCHEMA app",
		};
		size_t i;

		for (i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
			f.url = ab_test_pg_database("unit_store_foreign_kind");
			exec_store(&f, foreign[i]);
			store = NULL;
			if (ab_store_open(&store, f.url) != AB_EIO)
				fail_msg("taken for an empty database: %s", foreign[i]);
			assert_null(store);
			assert_non_null(strstr(ab_error_last(), "another program's"));
			exec_store(&f, "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_tables WHERE tablename IN "
				   "('runs', 'abtool_schema')) THEN RAISE 'a store table was made'; END IF; "
				   "END $$");
			free(f.url);
		}
		f.url = ab_test_pg_database("unit_store_extension");
		exec_store(&f, "CREATE EXTENSION pg_trgm");
		assert_int_equal(ab_store_open(&store, f.url), 0);
		ab_store_close(store);
		free(f.url);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upgrade_keeps_rows_and_indexes_them),
		cmocka_unit_test_setup_teardown(test_history_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_resolve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grep_is_never_fts_syntax, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_designs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_projects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_designs_standing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_export_import, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_round_trip, setup, teardown),
		cmocka_unit_test(test_schema_versions),
		cmocka_unit_test_setup_teardown(test_check_alive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_and_abandon, setup, teardown),
		cmocka_unit_test(test_pg_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
