/* report_format_hyperfine.c - a run's samples in the layout of hyperfine's
 * --export-json (docs/reports.md, "hyperfine's JSON"), so that the
 * scripts written for hyperfine's exports (box plots, histograms,
 * parameter plots) read an abtool run: one entry of `results` per row and
 * side, its wall times in seconds. */
#include "report_format.h"
#include "error.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The name of side `side` (AB_PARENT, AB_CANDIDATE): a comparison's own
 * names (doc.sides, `-n`), else "parent" and "candidate". */
static const char *side_name(const json_t *doc, int side)
{
	const char *name = json_string_value(
		json_object_get(json_array_get(json_object_get(doc, "sides"), (size_t)side), "name"));

	return name ? name : side == AB_PARENT ? "parent" : "candidate";
}

/* A row parameter's value as text, as hyperfine gives parameters. */
static json_t *parameter_text(const json_t *v)
{
	if (json_is_string(v))
		return json_string(json_string_value(v));
	if (json_is_integer(v))
		return json_sprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return json_sprintf("%.17g", json_real_value(v));
	return json_string("");
}

/* A number, or null when it is not finite (no samples, one sample's
 * standard deviation). */
static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The entry of row `row`'s side `side`: its successful pairs' samples, in
 * plan order (warmups, superseded and failed samples left out). */
static json_t *result(const struct ab_report_render *in, const json_t *row_doc, size_t row,
		      int side)
{
	const json_t *row_params = json_object_get(row_doc, "params");
	/* a row of a matrix is named by its label; without a matrix ("all") the side alone */
	const char *label = json_object_size(row_params)
				    ? json_string_value(json_object_get(row_doc, "label")) : NULL;
	double *t = ab_xcalloc(in->nsamples + 1, sizeof(*t)), user = 0, system = 0, sum = 0, sq = 0;
	json_t *times = json_array(), *codes = json_array(), *params = json_object(), *out, *v;
	double mean, stddev, lo = INFINITY, hi = -INFINITY;
	const char *key;
	size_t i, n = 0;

	for (i = 0; i < in->nsamples; i++) {
		const struct ab_sample *s = &in->samples[i];

		if (s->entry.row != row || s->entry.side != side || s->entry.pair < 0 ||
		    s->status != AB_SAMPLE_DONE || !ab_sample_ok(s))
			continue;
		t[n] = (double)s->wall_ns / 1e9;
		json_array_append_new(times, json_real(t[n]));
		json_array_append_new(codes, json_integer(s->exit_code));
		user += (double)s->user_ns / 1e9;
		system += (double)s->sys_ns / 1e9;
		sum += t[n];
		lo = fmin(lo, t[n]);
		hi = fmax(hi, t[n]);
		n++;
	}
	mean = n ? sum / (double)n : NAN;
	for (i = 0; i < n; i++)
		sq += (t[i] - mean) * (t[i] - mean);
	/* the sample standard deviation (n - 1), as hyperfine reports it */
	stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : NAN;
	json_object_foreach((json_t *)row_params, key, v)
		json_object_set_new(params, key, parameter_text(v));
	out = json_object();
	json_object_set_new(out, "command", label && *label
					    ? json_sprintf("%s (%s)", side_name(in->doc, side), label)
					    : json_string(side_name(in->doc, side)));
	json_object_set_new(out, "mean", number_or_null(mean));
	json_object_set_new(out, "stddev", number_or_null(stddev));
	json_object_set_new(out, "median", number_or_null(ab_stats_median(t, n)));
	json_object_set_new(out, "user", number_or_null(n ? user / (double)n : NAN));
	json_object_set_new(out, "system", number_or_null(n ? system / (double)n : NAN));
	json_object_set_new(out, "min", number_or_null(n ? lo : NAN));
	json_object_set_new(out, "max", number_or_null(n ? hi : NAN));
	json_object_set_new(out, "times", times);
	json_object_set_new(out, "exit_codes", codes);
	json_object_set_new(out, "parameters", params);
	free(t);
	return out;
}

int ab_report_format_hyperfine(FILE *f, const struct ab_report_render *in)
{
	const json_t *rows = json_object_get(in->doc, "rows"), *row;
	json_t *results = json_array(), *doc;
	size_t r;
	int side, err = 0;
	char *text;

	json_array_foreach(rows, r, row)
		for (side = AB_PARENT; side <= AB_CANDIDATE; side++)
			json_array_append_new(results, result(in, row, r, side));
	doc = json_pack("{s:o}", "results", results);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	if (!text || fputs(text, f) == EOF || fputc('\n', f) == EOF)
		err = ab_error_set(AB_EIO, "cannot write the hyperfine layout");
	free(text);
	json_decref(doc);
	return err;
}
