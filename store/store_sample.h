/* store_sample.h - the sample row of the store, spelled out once: one
 * column table (store_sample.c) gives the columns of the samples table
 * (as migrations 0001 and 0004 made them), the statements that store the
 * plan, record a sample and read samples back, how each column is bound
 * from and read into struct ab_sample, and the columns export and import
 * copy. Internal to store/. */
#ifndef AB_STORE_SAMPLE_H
#define AB_STORE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "store_core.h"

/* The columns of samples but run_id, in table order. */
extern const struct ab_store_column ab_sample_columns[];
extern const size_t ab_sample_ncolumns;

/*
 * The statements (new strings):
 *   insert: the planned columns, ?1 = run_id, then one each;
 *   update: a sample's measured columns, WHERE run_id = ?1 AND seq = ?2,
 *           the columns from ?3 in table order;
 *   select: every column in table order, WHERE run_id = ?1, by seq.
 */
char *ab_sample_sql_insert(void);
char *ab_sample_sql_update(void);
char *ab_sample_sql_select(void);

/* Bind the planned columns of `e` to the insert statement. 0 or negative. */
int ab_sample_bind_plan(struct ab_db_stmt *st, int64_t run_id, const struct ab_plan_entry *e);

/* Bind sample `s` to the update statement; `metric_names[i]` (or NULL:
 * no metrics) names s->metrics[i]. Allocates only the metrics' JSON
 * text. 0 or negative. */
int ab_sample_bind(struct ab_db_stmt *st, int64_t run_id, const struct ab_sample *s,
		   const char *const *metric_names);

/* Read the current row of the select statement into `s` (zeroed first;
 * strings and metrics new). Metric values are looked up by
 * `metric_names` (nmetrics); a name missing in the row's JSON gives NAN. */
void ab_sample_read(struct ab_db_stmt *st, struct ab_sample *s, const char *const *metric_names,
		    size_t nmetrics);

#endif
