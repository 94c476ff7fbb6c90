/* testutil.h - helpers shared by the cmocka unit tests. */
#ifndef AB_TESTUTIL_H
#define AB_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* A new empty temporary folder under $TMPDIR (or /tmp), removed by
 * ab_test_rmtemp. New string. */
char *ab_test_mktemp(const char *tag);
void ab_test_rmtemp(char *dir);

/* Write `text` to dir/name (creating folders); aborts the test on error. */
void ab_test_write(const char *dir, const char *name, const char *text);

/* The URL of a new, empty database `name` on the tests' PostgreSQL
 * server (tests/pg/pg-server; $ABTOOL_TEST_PG names it, as CTest's
 * fixture "pg" sets it); aborts the test when there is none. New string. */
char *ab_test_pg_database(const char *name);

/* Assert that two doubles agree to `sig` significant digits. */
#define assert_close(a, b, sig) ab_test_assert_close((a), (b), (sig), #a, __FILE__, __LINE__)
void ab_test_assert_close(double a, double b, int sig, const char *expr,
			  const char *file, int line);

#endif
