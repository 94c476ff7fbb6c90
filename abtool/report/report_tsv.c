/* report_tsv.c - the raw samples of a run as tab-separated values (see
 * report.h). The columns come from the report document (matrix
 * parameters, metric names, row parameters) so that `abtool report
 * --format tsv` needs only the store, and the numbers are printed so that
 * they read back exactly: the file is for re-analysis elsewhere. */
#include "report.h"
#include "report_common.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char **ab_report_metric_names(const json_t *doc, size_t *n)
{
	const json_t *first = json_array_get(json_object_get(doc, "rows"), 0);
	const json_t *others = json_object_get(first, "metrics");
	const char **names = ab_xcalloc(json_object_size(others) + 2, sizeof(*names));
	const char *primary = json_string_value(json_object_get(first, "metric")), *key;
	json_t *value;

	*n = 0;
	if (!primary)
		primary = json_string_value(json_object_get(doc, "metric"));
	if (primary)
		names[(*n)++] = primary;
	json_object_foreach((json_t *)others, key, value)
		if (!primary || strcmp(key, primary))
			names[(*n)++] = key;
	return names;
}

void ab_report_tsv_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '\t':
			fputs("\\t", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* A number: integral values as integers, others in the shortest %.Ng
 * (N = 15, 16, 17) that reads back as the same double. Empty when NAN. */
static void number(FILE *f, double v)
{
	char buf[40];
	int digits;

	if (!isfinite(v))
		return;
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(f, "%.0f", v);
		return;
	}
	for (digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

/* The fixed columns of the file, after the matrix parameters. */
static const char *const fixed_columns[] = {
	"run_id", "seq", "row", "pair", "warmup", "order", "side", "status", "exit_code", "signal",
	"timed_out", "checksum", "flags", "error", "other_cpu_ns", "padding_bytes", "unavailable",
	"nivcsw", "occupancy",
};

/* A matrix parameter's column: its name, or "param.NAME" when the name is
 * a fixed column's or a metric's (a pairs file's `row`, say), so that no
 * two columns share a name. */
static void param_column(FILE *f, const char *name, const char *const *cols, size_t ncols)
{
	size_t i;
	int taken = 0;

	for (i = 0; i < sizeof(fixed_columns) / sizeof(fixed_columns[0]); i++)
		taken |= !strcmp(name, fixed_columns[i]);
	for (i = 0; i < ncols; i++)
		taken |= !strcmp(name, cols[i]);
	if (taken)
		fputs("param.", f);
	ab_report_tsv_text(f, name);
}

/* A row parameter's value as the document holds it. */
static void param_value(FILE *f, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		number(f, json_real_value(v));
	else if (json_is_string(v))
		ab_report_tsv_text(f, json_string_value(v));
}

/* Whether a sample holds measurements. A superseded sample may be the
 * half of an interrupted pair that never started (its start time is 0). */
static int sample_ran(const struct ab_sample *s)
{
	return s->status == AB_SAMPLE_DONE || (s->status == AB_SAMPLE_SUPERSEDED && s->started_unix != 0);
}

static const char *status_name(const struct ab_sample *s)
{
	switch (s->status) {
	case AB_SAMPLE_PLANNED:
		return "planned";
	case AB_SAMPLE_SUPERSEDED:
		return "superseded";
	case AB_SAMPLE_STOPPED:
		return "stopped";
	default:
		return ab_sample_ok(s) ? "ok" : "failed";
	}
}

int ab_report_tsv(FILE *f, const json_t *doc, const struct ab_sample *samples, size_t n,
		  const char *const *metric_names, size_t nmetrics)
{
	const json_t *matrix = json_object_get(json_object_get(doc, "plan"), "matrix");
	const json_t *rows = json_object_get(doc, "rows");
	long long run_id = ab_report_int(doc, "run_id");
	size_t ncols, i, c, k;
	const char **cols = ab_report_metric_names(doc, &ncols);
	long *index = ab_xcalloc(ncols + 1, sizeof(*index));
	const char *pname;
	json_t *vals;
	char flags[128];

	/* Which of the samples' metric slots feeds each metric column. */
	for (c = 0; c < ncols; c++) {
		index[c] = -1;
		for (k = 0; k < nmetrics; k++)
			if (metric_names[k] && !strcmp(metric_names[k], cols[c]))
				index[c] = (long)k;
	}

	fputs("run_id\tseq", f);
	json_object_foreach((json_t *)matrix, pname, vals) {
		fputc('\t', f);
		param_column(f, pname, cols, ncols);
	}
	fputs("\trow\tpair\twarmup\torder\tside\tstatus", f);
	for (c = 0; c < ncols; c++) {
		fputc('\t', f);
		ab_report_tsv_text(f, cols[c]);
	}
	fputs("\texit_code\tsignal\ttimed_out\tchecksum\tflags\terror\tother_cpu_ns\tpadding_bytes\tunavailable"
	      "\tnivcsw\toccupancy\n", f);

	for (i = 0; i < n; i++) {
		const struct ab_sample *s = &samples[i];
		const json_t *params = json_object_get(json_array_get(rows, s->entry.row), "params");
		int ran = sample_ran(s);

		fprintf(f, "%lld\t%u", run_id, s->entry.seq);
		json_object_foreach((json_t *)matrix, pname, vals) {
			fputc('\t', f);
			param_value(f, json_object_get(params, pname));
		}
		fprintf(f, "\t%u\t", s->entry.row);
		if (s->entry.pair >= 0)
			fprintf(f, "%d", s->entry.pair + 1);
		fputc('\t', f);
		if (s->entry.warmup >= 0)
			fprintf(f, "%d", s->entry.warmup + 1);
		fprintf(f, "\t%s\t%s\t%s", ab_order_name((enum ab_order)s->entry.order),
			ab_side_name((enum ab_side)s->entry.side), status_name(s));
		for (c = 0; c < ncols; c++) {
			fputc('\t', f);
			if (ran && index[c] >= 0 && (size_t)index[c] < s->nmetrics)
				number(f, s->metrics[index[c]]);
		}
		if (ran) {
			fprintf(f, "\t%d\t%d\t%d\t", s->exit_code, s->signal, s->timed_out ? 1 : 0);
			ab_report_tsv_text(f, s->checksum);
			fputc('\t', f);
			ab_report_tsv_text(f, ab_sample_flags_string(flags, sizeof(flags), s->flags));
			fputc('\t', f);
			ab_report_tsv_text(f, s->error);
			fputc('\t', f);
			if (s->other_cpu_ns >= 0)
				fprintf(f, "%lld", (long long)s->other_cpu_ns);
			fputc('\t', f);
			if (s->padding_bytes >= 0)
				fprintf(f, "%d", s->padding_bytes);
			fputc('\t', f);
			ab_report_tsv_text(f, s->unavailable);
			fprintf(f, "\t%lld\t", (long long)s->nivcsw);
			if (s->wall_ns > 0)
				number(f, (double)(s->user_ns + s->sys_ns) / (double)s->wall_ns);
		} else {
			fputs("\t\t\t\t\t\t\t\t\t\t\t", f);
		}
		fputc('\n', f);
	}
	free(index);
	free(cols);
	if (ferror(f))
		return ab_error_set(AB_EIO, "cannot write the samples: %s", strerror(errno));
	return 0;
}
