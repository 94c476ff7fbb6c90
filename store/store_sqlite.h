/* store_sqlite.h - what the sqlite engine (store_sqlite.c) lends other
 * engines that speak its dialect (the tests' text engine). */
#ifndef AB_STORE_SQLITE_H
#define AB_STORE_SQLITE_H

#include <stddef.h>

/* The FTS5 query of one term (the sqlite engine's search_term,
 * store_engine.h): the words as one FTS5 string, double quotes doubled,
 * then * for a prefix. A new string; the caller frees it. */
char *ab_store_sqlite_search_term(const char *text, size_t len, int prefix);

#endif
