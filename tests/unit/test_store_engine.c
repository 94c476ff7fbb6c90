/* test_store_engine.c - the engine contract of store/store_engine.h, on
 * each engine: the sqlite engine abtool links and the text engine of
 * engine_text.c (a server client library's way: values as text, results
 * materialized, $N placeholders). Values round-trip exactly, NULL stays
 * apart from empty text and 0, blobs keep every byte, placeholders keep
 * their numbers, transactions commit and roll back, changes and the last
 * insert id are the last statement's, a held write lock is a BUSY fault. */
#include "testutil.h"
#include "error.h"
#include "store_engine.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct ab_store_engine ab_test_engine_text;

static const struct ab_store_engine *const engines[] = {&ab_store_engine_sqlite, &ab_test_engine_text};

static void check_engine(const struct ab_store_engine *e, const char *dir)
{
	static const double doubles[] = {0.1 + 0.2, 5e-324, -1.7976931348623157e308, 1.0 / 3.0};
	static const int64_t ints[] = {INT64_MIN, INT64_MAX, 0, -1};
	static const unsigned char blob[] = {0, 1, 0xff, '\'', 0};
	char *path = ab_path_join(dir, e->name);
	struct ab_db *db, *other;
	struct ab_db_stmt *st;
	struct ab_db_error err;
	const char *what = NULL;
	size_t i, len;
	int v;

	if (e->open(&db, path, 100, 1, &what) < 0)
		fail_msg("%s: open: %s", e->name, ab_error_last());
	assert_int_equal(e->schema_version(db, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(e->exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, i, d, s, b)"), 0);
	assert_int_equal(e->prepare(db, "INSERT INTO t(i, d, s, b) VALUES (?2, ?1, ?3, ?4)", &st), 0);
	for (i = 0; i < 4; i++) {
		e->bind_double(st, 1, doubles[i]);
		e->bind_int64(st, 2, ints[i]);
		if (i == 0)
			e->bind_text(st, 3, "", 0);
		else if (i == 1)
			e->bind_text(st, 3, "it's \"?1\" $1", 12);
		e->bind_blob(st, 4, blob, i);   /* 0 bytes: an empty blob */
		assert_int_equal(e->step(st), AB_DB_DONE);
		assert_int_equal(e->changes(db), 1);
		assert_int_equal(e->last_insert_id(db), (int64_t)i + 1);
		e->reset(st);
	}
	e->finalize(st);

	assert_int_equal(e->prepare(db, "SELECT i, d, s, b, ?1 AS p FROM t WHERE id >= ?2 ORDER BY id", &st), 0);
	e->bind_int64(st, 2, 1);
	for (i = 0; i < 4; i++) {
		assert_int_equal(e->step(st), AB_DB_ROW);
		assert_int_equal(e->column_count(st), 5);
		assert_string_equal(e->column_name(st, 2), "s");
		assert_int_equal(e->column_type(st, 0), AB_DB_INT);
		assert_true(e->column_int64(st, 0) == ints[i]);
		assert_int_equal(e->column_type(st, 1), AB_DB_FLOAT);
		assert_memory_equal(&(double){e->column_double(st, 1)}, &doubles[i], sizeof(double));
		assert_int_equal(e->column_type(st, 4), AB_DB_NULL);   /* never bound */
		if (i == 0) {
			assert_int_equal(e->column_type(st, 2), AB_DB_TEXT);
			assert_string_equal(e->column_text(st, 2), "");
		} else if (i == 1) {
			assert_string_equal(e->column_text(st, 2), "it's \"?1\" $1");
		} else {
			assert_int_equal(e->column_type(st, 2), AB_DB_NULL);
			assert_null(e->column_text(st, 2));
		}
		assert_int_equal(e->column_type(st, 3), AB_DB_BLOB);
		if (i)
			assert_memory_equal(e->column_blob(st, 3, &len), blob, i);
		else
			e->column_blob(st, 3, &len);
		assert_int_equal(len, i);
	}
	assert_int_equal(e->step(st), AB_DB_DONE);
	e->finalize(st);

	/* Transactions; a write lock held elsewhere is BUSY. */
	assert_int_equal(e->begin(db, 1), 0);
	assert_int_equal(e->exec(db, "DELETE FROM t"), 0);
	e->rollback(db);
	e->rollback(db);   /* no transaction: harmless */
	assert_int_equal(e->begin(db, 1), 0);
	assert_int_equal(e->set_schema_version(db, 3), 0);
	assert_int_equal(e->commit(db), 0);
	assert_int_equal(e->schema_version(db, &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(e->prepare(db, "SELECT count(*) FROM t", &st), 0);
	assert_int_equal(e->step(st), AB_DB_ROW);
	assert_int_equal(e->column_int64(st, 0), 4);
	e->finalize(st);
	assert_int_equal(e->open(&other, path, 50, 1, &what), 0);
	assert_int_equal(e->begin(db, 1), 0);
	assert_true(e->begin(other, 1) < 0);
	e->last_error(other, &err);
	assert_int_equal(err.fault, AB_DB_FAULT_BUSY);
	e->rollback(db);
	assert_true(e->prepare(db, "SELECT nonsense FROM nowhere", &st) < 0);
	assert_null(st);
	e->last_error(db, &err);
	assert_int_equal(err.fault, AB_DB_FAULT_OTHER);
	assert_non_null(strstr(err.message, "nowhere"));
	e->close(other);
	e->close(db);
	free(path);
}

/* create 0: a missing database is AB_ENOTFOUND naming the path, and
 * neither it nor its folder is made. */
static void check_no_create(const struct ab_store_engine *e, const char *dir)
{
	char *path = ab_xasprintf("%s/sub-%s/store.db", dir, e->name), *sub = ab_xstrdup(path);
	struct ab_db *db = (struct ab_db *)1;
	const char *what = NULL;

	*strrchr(sub, '/') = '\0';
	assert_int_equal(e->open(&db, path, 100, 0, &what), AB_ENOTFOUND);
	assert_null(db);
	assert_non_null(strstr(ab_error_last(), path));
	assert_int_equal(access(sub, F_OK), -1);
	free(path);
	free(sub);
}

static void test_engines(void **state)
{
	char *dir = ab_test_mktemp("engine");
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		check_engine(engines[i], dir);
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		check_no_create(engines[i], dir);
	ab_test_rmtemp(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
