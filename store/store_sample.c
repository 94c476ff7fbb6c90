/* store_sample.c - the sample row: one column table (see store_sample.h). */
#include "store_sample.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(member) offsetof(struct ab_sample, member)

_Static_assert(sizeof(enum ab_sample_status) == sizeof(int) && sizeof(int32_t) == sizeof(int),
	       "status, pair, warmup and padding_bytes are read and written as an int");

/* The columns of samples (0001_init.sql, 0004_sample_quality.sql,
 * 0012_sample_timing.sql) but
 * run_id, in table order; the export's flags and JSON dump flags. */
const struct ab_store_column ab_sample_columns[] = {
	{"seq", AB_COL_REQUIRED, 0, AB_SAMPLE_U32, AT(entry.seq), 1},
	{"row_idx", AB_COL_REQUIRED, 0, AB_SAMPLE_U32, AT(entry.row), 1},
	{"pair", AB_COL_REQUIRED, 0, AB_SAMPLE_INT, AT(entry.pair), 1},
	{"warmup", AB_COL_REQUIRED, 0, AB_SAMPLE_INT, AT(entry.warmup), 1},
	{"side", AB_COL_REQUIRED, 0, AB_SAMPLE_SIDE, AT(entry.side), 1},
	{"pair_order", AB_COL_REQUIRED, 0, AB_SAMPLE_ORDER, AT(entry.order), 1},
	{"status", AB_COL_REQUIRED, 0, AB_SAMPLE_INT, AT(status), 0},
	{"started_at", 0, 0, AB_SAMPLE_INT64, AT(started_unix), 0},
	{"wall_ns", 0, 0, AB_SAMPLE_INT64, AT(wall_ns), 0},
	{"user_ns", 0, 0, AB_SAMPLE_INT64, AT(user_ns), 0},
	{"sys_ns", 0, 0, AB_SAMPLE_INT64, AT(sys_ns), 0},
	{"maxrss_bytes", 0, 0, AB_SAMPLE_INT64, AT(maxrss_bytes), 0},
	{"minflt", 0, 0, AB_SAMPLE_INT64, AT(minflt), 0},
	{"majflt", 0, 0, AB_SAMPLE_INT64, AT(majflt), 0},
	{"nvcsw", 0, 0, AB_SAMPLE_INT64, AT(nvcsw), 0},
	{"nivcsw", 0, 0, AB_SAMPLE_INT64, AT(nivcsw), 0},
	{"exit_code", 0, 0, AB_SAMPLE_INT, AT(exit_code), 0},
	{"signal", 0, 0, AB_SAMPLE_INT, AT(signal), 0},
	{"timed_out", 0, 0, AB_SAMPLE_INT, AT(timed_out), 0},
	{"flags", 0, 0, AB_SAMPLE_FLAGS, AT(flags), 0},
	{"checksum", 0, 0, AB_SAMPLE_TEXT, AT(checksum), 0},
	{"metrics", AB_COL_JSON, JSON_COMPACT | JSON_REAL_PRECISION(17), AB_SAMPLE_METRICS, AT(metrics), 0},
	{"error", 0, 0, AB_SAMPLE_TEXT, AT(error), 0},
	{"stdout", 0, 0, AB_SAMPLE_TEXT, AT(stdout_text), 0},
	{"stderr", 0, 0, AB_SAMPLE_TEXT, AT(stderr_text), 0},
	{"padding_bytes", 0, 0, AB_SAMPLE_INT_OPT, AT(padding_bytes), 0},
	{"unavailable", 0, 0, AB_SAMPLE_TEXT, AT(unavailable), 0},
	{"other_cpu_ns", 0, 0, AB_SAMPLE_INT64_OPT, AT(other_cpu_ns), 0},
	{"started_ns", 0, 0, AB_SAMPLE_INT64_OPT, AT(started_ns), 0},
	{"runq_ns", 0, 0, AB_SAMPLE_INT64_OPT, AT(runq_ns), 0},
	{"waited_ns", 0, 0, AB_SAMPLE_INT64_OPT, AT(waited_ns), 0},
};

const size_t ab_sample_ncolumns = AB_NCOLS(ab_sample_columns);

#define MEMBER(type, s, c) (*(type *)((char *)(s) + (c)->offset))

char *ab_sample_sql_insert(void)
{
	char *sql = NULL, mark[32];
	size_t i, n = 0;

	ab_sql_append(&sql, "INSERT INTO samples(run_id");
	for (i = 0; i < ab_sample_ncolumns; i++) {
		if (!ab_sample_columns[i].planned)
			continue;
		ab_sql_append(&sql, ", ");
		ab_sql_append(&sql, ab_sample_columns[i].name);
		n++;
	}
	ab_sql_append(&sql, ") VALUES (?1");
	for (i = 0; i < n; i++) {
		snprintf(mark, sizeof(mark), ", ?%zu", i + 2);
		ab_sql_append(&sql, mark);
	}
	ab_sql_append(&sql, ")");
	return sql;
}

char *ab_sample_sql_update(void)
{
	char *sql = NULL, mark[32];
	size_t i;
	int k = 3;

	ab_sql_append(&sql, "UPDATE samples SET ");
	for (i = 0; i < ab_sample_ncolumns; i++) {
		if (ab_sample_columns[i].planned)
			continue;
		ab_sql_append(&sql, k > 3 ? ", " : "");
		ab_sql_append(&sql, ab_sample_columns[i].name);
		snprintf(mark, sizeof(mark), " = ?%d", k++);
		ab_sql_append(&sql, mark);
	}
	ab_sql_append(&sql, " WHERE run_id = ?1 AND seq = ?2");
	return sql;
}

char *ab_sample_sql_select(void)
{
	char *names = ab_store_column_list(ab_sample_columns, ab_sample_ncolumns, "");
	char *sql = ab_xasprintf("SELECT %s FROM samples WHERE run_id = ?1 ORDER BY seq", names);

	free(names);
	return sql;
}

static char *metrics_json(const struct ab_sample *s, const char *const *names)
{
	json_t *o = json_object();
	char *text;
	size_t i;

	for (i = 0; i < s->nmetrics; i++)
		json_object_set_new(o, names[i], isnan(s->metrics[i]) ? json_null()
								      : json_real(s->metrics[i]));
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(o);
	return text;
}

/* Bind column `c` of sample `s` to parameter i. */
static int bind_column(struct ab_db_stmt *st, int i, const struct ab_store_column *c,
		       const struct ab_sample *s, const char *const *metric_names)
{
	char flags[128], *metrics;
	int err;

	switch (c->kind) {
	case AB_SAMPLE_U32:
		return ab_db_bind_int64(st, i, MEMBER(const uint32_t, s, c));
	case AB_SAMPLE_INT:
		return ab_db_bind_int64(st, i, MEMBER(const int, s, c));
	case AB_SAMPLE_INT64:
		return ab_db_bind_int64(st, i, MEMBER(const int64_t, s, c));
	case AB_SAMPLE_INT_OPT:
		return MEMBER(const int, s, c) >= 0 ? ab_db_bind_int64(st, i, MEMBER(const int, s, c))
						    : ab_db_bind_null(st, i);
	case AB_SAMPLE_INT64_OPT:
		return MEMBER(const int64_t, s, c) >= 0 ? ab_db_bind_int64(st, i, MEMBER(const int64_t, s, c))
							: ab_db_bind_null(st, i);
	case AB_SAMPLE_SIDE:
		return ab_db_bind_text(st, i, ab_side_name(MEMBER(const uint8_t, s, c)));
	case AB_SAMPLE_ORDER:
		return ab_db_bind_text(st, i, ab_order_name(MEMBER(const uint8_t, s, c)));
	case AB_SAMPLE_FLAGS:
		return ab_db_bind_text(st, i, s->flags ? ab_sample_flags_string(flags, sizeof(flags), s->flags)
						       : NULL);
	case AB_SAMPLE_TEXT:
		return ab_db_bind_text(st, i, MEMBER(char *const, s, c));
	case AB_SAMPLE_METRICS:
		metrics = metric_names && s->nmetrics ? metrics_json(s, metric_names) : NULL;
		err = ab_db_bind_text(st, i, metrics);
		free(metrics);
		return err;
	case AB_SAMPLE_NONE:
		break;
	}
	return ab_db_bind_null(st, i);
}

int ab_sample_bind_plan(struct ab_db_stmt *st, int64_t run_id, const struct ab_plan_entry *e)
{
	struct ab_sample s = {.entry = *e};
	size_t i;
	int k = 2, err = ab_db_bind_int64(st, 1, run_id);

	for (i = 0; i < ab_sample_ncolumns && !err; i++)
		if (ab_sample_columns[i].planned)
			err = bind_column(st, k++, &ab_sample_columns[i], &s, NULL);
	return err;
}

int ab_sample_bind(struct ab_db_stmt *st, int64_t run_id, const struct ab_sample *s,
		   const char *const *metric_names)
{
	size_t i;
	int k = 3, err;

	if ((err = ab_db_bind_int64(st, 1, run_id)) < 0 || (err = ab_db_bind_int64(st, 2, s->entry.seq)) < 0)
		return err;
	for (i = 0; i < ab_sample_ncolumns && !err; i++)
		if (!ab_sample_columns[i].planned)
			err = bind_column(st, k++, &ab_sample_columns[i], s, metric_names);
	return err;
}

static double *read_metrics(const char *text, const char *const *metric_names, size_t nmetrics)
{
	double *m = ab_xmalloc((nmetrics ? nmetrics : 1) * sizeof(double));
	json_t *o = text && nmetrics ? json_loads(text, 0, NULL) : NULL;
	size_t i;

	for (i = 0; i < nmetrics; i++) {
		json_t *val = json_object_get(o, metric_names[i]);
		m[i] = json_is_number(val) ? json_number_value(val) : NAN;
	}
	json_decref(o);
	return m;
}

void ab_sample_read(struct ab_db_stmt *st, struct ab_sample *s, const char *const *metric_names,
		    size_t nmetrics)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < ab_sample_ncolumns; i++) {
		const struct ab_store_column *c = &ab_sample_columns[i];
		const char *text;
		int col = (int)i, null = ab_db_column_type(st, col) == AB_DB_NULL;

		switch (c->kind) {
		case AB_SAMPLE_U32:
			MEMBER(uint32_t, s, c) = (uint32_t)ab_db_column_int64(st, col);
			break;
		case AB_SAMPLE_INT:
			MEMBER(int, s, c) = (int)ab_db_column_int64(st, col);
			break;
		case AB_SAMPLE_INT64:
			MEMBER(int64_t, s, c) = ab_db_column_int64(st, col);
			break;
		case AB_SAMPLE_INT_OPT:
			MEMBER(int, s, c) = null ? -1 : (int)ab_db_column_int64(st, col);
			break;
		case AB_SAMPLE_INT64_OPT:
			MEMBER(int64_t, s, c) = null ? -1 : ab_db_column_int64(st, col);
			break;
		case AB_SAMPLE_SIDE:
			MEMBER(uint8_t, s, c) = !strcmp(ab_db_column_text(st, col), "candidate");
			break;
		case AB_SAMPLE_ORDER:
			MEMBER(uint8_t, s, c) = !strcmp(ab_db_column_text(st, col), "BA");
			break;
		case AB_SAMPLE_FLAGS:
			s->flags = ab_sample_flags_parse(ab_db_column_text(st, col));
			break;
		case AB_SAMPLE_TEXT:
			text = ab_db_column_text(st, col);
			MEMBER(char *, s, c) = text ? ab_xstrdup(text) : NULL;
			break;
		case AB_SAMPLE_METRICS:
			s->nmetrics = nmetrics;
			s->metrics = read_metrics(ab_db_column_text(st, col), metric_names, nmetrics);
			break;
		case AB_SAMPLE_NONE:
			break;
		}
	}
}
