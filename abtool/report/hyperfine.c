/* hyperfine.c - hyperfine's JSON export read as unpaired rows, and their
 * report document (see hyperfine.h). */
#include "hyperfine.h"
#include "error.h"
#include "report.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What every rule and the verdict say of blocks. */
#define UNPAIRED_REASON "blocks are not pairs: hyperfine ran each command in a block of its own, so " \
	"these rows hold medians and the unpaired Mann-Whitney contrast only, without a paired " \
	"interval, and no rule passes or fails on them; measure pairs with abtool compare"

int ab_hyperfine_is_export(const char *path, const char *text, size_t len)
{
	size_t n = strlen(path), i = 0;

	if (n >= 5 && !strcmp(path + n - 5, ".json"))
		return 1;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i < len && (text[i] == '{' || text[i] == '[');
}

/* Append `value` to the list of `key` in `matrix` when it is not there;
 * `seen` ({key: {value: true}}) finds it in constant time. */
static void matrix_add(json_t *matrix, json_t *seen, const char *key, const char *value)
{
	json_t *list = json_object_get(matrix, key), *set = json_object_get(seen, key);

	if (!list) {
		list = json_array();
		json_object_set_new(matrix, key, list);
		set = json_object();
		json_object_set_new(seen, key, set);
	}
	if (json_object_get(set, value))
		return;
	json_object_set_new(set, value, json_true());
	json_array_append_new(list, json_string(value));
}

/* The times of result `r` (seconds) in ns, into *out: 0, or AB_EINVALID. */
static int result_times(double **out, size_t *n, const json_t *r, const char *path, size_t idx)
{
	const json_t *times = json_object_get(r, "times"), *t;
	size_t i;

	*out = ab_xcalloc(json_array_size(times) + 1, sizeof(**out));
	*n = 0;
	json_array_foreach(times, i, t) {
		double s = json_number_value(t);
		if (!json_is_number(t) || !isfinite(s) || s <= 0)
			return ab_error_set(AB_EINVALID, "%s: results[%zu].times[%zu]: expected a positive "
					    "number of seconds", path, idx, i);
		(*out)[(*n)++] = s * 1e9;
	}
	if (!*n)
		return ab_error_set(AB_EINVALID, "%s: results[%zu]: no times (export with a hyperfine that "
				    "records every run's time)", path, idx);
	return 0;
}

/* Add the row of results i and j (same parameters) to `h`. */
static int add_row(struct ab_hyperfine *h, json_t *seen, const json_t *results, size_t i, size_t j,
		   const char *path)
{
	const json_t *ri = json_array_get(results, i), *rj = json_array_get(results, j), *v;
	struct ab_hyperfine_row *row;
	const char *key;
	char *label;
	int err;

	AB_GROW(h->rows, h->alloc, h->nrows + 1);
	row = &h->rows[h->nrows++];
	memset(row, 0, sizeof(*row));
	row->command[0] = ab_xstrdup(json_string_value(json_object_get(ri, "command")));
	row->command[1] = ab_xstrdup(json_string_value(json_object_get(rj, "command")));
	if ((err = result_times(&row->times_ns[0], &row->n[0], ri, path, i)) < 0 ||
	    (err = result_times(&row->times_ns[1], &row->n[1], rj, path, j)) < 0)
		return err;
	row->params = json_object();
	json_object_foreach((json_t *)json_object_get(ri, "parameters"), key, v) {
		const char *s = json_is_string(v) ? json_string_value(v) : "";
		json_object_set_new(row->params, key, json_string(s));
		matrix_add(h->matrix, seen, key, s);
	}
	label = ab_xasprintf("%s vs %s", row->command[0], row->command[1]);
	json_object_set_new(row->params, "commands", json_string(label));
	free(label);
	return 0;
}

/* The results in order of their parameters' text, then of their place
 * in the export (qsort is not stable: the index decides ties). */
struct keyed {
	char *key;
	size_t index;
};

static int by_key(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

int ab_hyperfine_read(struct ab_hyperfine *out, const char *path, const char *text, size_t len,
		      size_t max_rows)
{
	json_error_t jerr;
	json_t *doc = json_loadb(text, len, 0, &jerr), *results, *r, *seen = json_object();
	struct keyed *keys = NULL;
	size_t i, j, n = 0, *order = NULL;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->matrix = json_object();
	if (!max_rows)
		max_rows = AB_LIMIT_ROWS;
	if (!doc) {
		err = ab_error_set(AB_EINVALID, "%s:%d:%d: not JSON: %s; abtool analyze reads hyperfine's "
				   "--export-json or a TSV or CSV file of pairs", path, jerr.line, jerr.column,
				   jerr.text);
		goto out;
	}
	results = json_object_get(doc, "results");
	if (!json_is_object(doc) || !json_is_array(results)) {
		err = ab_error_set(AB_EINVALID, "%s: JSON, but not hyperfine's export (an object with a "
				   "\"results\" array, as hyperfine --export-json writes)", path);
		goto out;
	}
	n = json_array_size(results);
	keys = ab_xcalloc(n + 1, sizeof(*keys));
	json_array_foreach(results, i, r) {
		if (!json_is_string(json_object_get(r, "command"))) {
			err = ab_error_set(AB_EINVALID, "%s: results[%zu]: expected a \"command\" string", path, i);
			goto out;
		}
		keys[i].key = json_object_get(r, "parameters")
			  ? json_dumps(json_object_get(r, "parameters"), JSON_COMPACT | JSON_SORT_KEYS)
			  : ab_xstrdup("{}");
		if (!keys[i].key)
			keys[i].key = ab_xstrdup("");  /* parameters jansson cannot write: a group of their own */
		keys[i].index = i;
	}
	/* each two commands measured with the same parameter values, in the
	 * export's order; the groups found by sorting, not by comparing every
	 * two results */
	qsort(keys, n, sizeof(*keys), by_key);
	order = ab_xcalloc(n + 1, sizeof(*order));
	for (i = 0; i < n; i++)
		order[keys[i].index] = i;  /* where result i is among the sorted */
	for (i = 0; i < n && !err; i++)
		for (j = order[i] + 1; j < n && !err && !strcmp(keys[j].key, keys[order[i]].key); j++) {
			if (out->nrows >= max_rows)
				err = ab_error_set(AB_EINVALID, "%s: the commands and parameters make more than "
						   "%zu rows; abtool analyze --max-rows N analyzes more, up to %d "
						   "(the default is %d)", path, max_rows, AB_MAX_ROWS, AB_LIMIT_ROWS);
			else
				err = add_row(out, seen, results, i, keys[j].index, path);
		}
	if (!err && !out->nrows)
		err = ab_error_set(AB_EINVALID, "%s: no two commands share parameter values: nothing to "
				   "compare (give hyperfine two commands or more)", path);
	/* the pairs of commands, each once (a parameter scan repeats them) */
	for (i = 0; i < out->nrows; i++)
		matrix_add(out->matrix, seen, "commands",
			   json_string_value(json_object_get(out->rows[i].params, "commands")));
out:
	for (i = 0; keys && i < n; i++)
		free(keys[i].key);
	free(keys);
	free(order);
	json_decref(seen);
	json_decref(doc);
	return err;
}

void ab_hyperfine_release(struct ab_hyperfine *h)
{
	size_t i;
	int s;

	for (i = 0; i < h->nrows; i++) {
		json_decref(h->rows[i].params);
		for (s = 0; s < 2; s++) {
			free(h->rows[i].command[s]);
			free(h->rows[i].times_ns[s]);
		}
	}
	free(h->rows);
	json_decref(h->matrix);
	memset(h, 0, sizeof(*h));
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* One row as `run`'s rows name their fields, labelled unpaired. */
static json_t *row_json(const struct ab_hyperfine_row *row)
{
	struct ab_summary sum[2];
	struct ab_mann_whitney mw;
	const char *key;
	json_t *o = json_object(), *v;
	char *label = NULL, *next;
	int s;

	for (s = 0; s < 2; s++)
		ab_stats_summary(&sum[s], row->times_ns[s], row->n[s]);
	ab_stats_mann_whitney(&mw, row->times_ns[0], row->n[0], row->times_ns[1], row->n[1]);
	json_object_foreach(row->params, key, v) {
		next = ab_xasprintf("%s%s%s=%s", label ? label : "", label ? " " : "", key, json_string_value(v));
		free(label);
		label = next;
	}
	json_object_set_new(o, "params", json_incref(row->params));
	json_object_set_new(o, "label", json_string(label));
	free(label);
	json_object_set_new(o, "metric", json_string("wall_ns"));
	json_object_set_new(o, "unit", json_string("ns"));
	json_object_set_new(o, "better", json_string("lower"));
	json_object_set_new(o, "unpaired", json_true());
	for (s = 0; s < 2; s++)
		json_object_set_new(o, s ? "candidate" : "parent", json_pack("{s:s, s:I, s:o, s:o, s:o}",
			"command", row->command[s], "samples", (json_int_t)row->n[s],
			"median", num_or_null(sum[s].median), "mean", num_or_null(sum[s].mean),
			"rsd", num_or_null(sum[s].rsd)));
	json_object_set_new(o, "ratio", num_or_null(sum[1].median / sum[0].median));
	json_object_set_new(o, "ratio_of", json_string("medians"));
	json_object_set_new(o, "ci", json_pack("[n, n]"));
	json_object_set_new(o, "ci_level", json_null());
	json_object_set_new(o, "pairs", json_null());
	json_object_set_new(o, "pair_wins", json_null());
	json_object_set_new(o, "p_signed_rank", json_null());
	json_object_set_new(o, "p_mann_whitney_unpaired", num_or_null(mw.p_two_sided));
	json_object_set_new(o, "checksum_match", json_null());
	json_object_set_new(o, "checksum", json_null());
	return o;
}

json_t *ab_hyperfine_document(const struct ab_hyperfine *h, const char *input,
			      const struct ab_experiment *rules, const char *created_at)
{
	json_t *doc = json_object(), *rows = json_array(), *jrules = json_array();
	size_t i, r;

	json_object_set_new(doc, "schema", json_string(AB_REPORT_SCHEMA));
	json_object_set_new(doc, "kind", json_string("analyze"));
	json_object_set_new(doc, "input", json_string(input));
	json_object_set_new(doc, "input_format", json_string("hyperfine"));
	json_object_set_new(doc, "unpaired", json_true());
	json_object_set_new(doc, "run_id", json_integer(0));
	json_object_set_new(doc, "run_uuid", json_string(""));
	json_object_set_new(doc, "experiment", json_string("hyperfine export"));
	json_object_set_new(doc, "design", json_string("hyperfine export"));
	json_object_set_new(doc, "hypothesis", json_null());
	json_object_set_new(doc, "verdict", json_string("inconclusive"));
	json_object_set_new(doc, "reasons", json_pack("[s]", UNPAIRED_REASON));
	json_object_set_new(doc, "warnings", json_array());
	json_object_set_new(doc, "created_at", json_string(created_at));
	json_object_set_new(doc, "abtool_version", json_string(ABTOOL_VERSION));
	json_object_set_new(doc, "plan", json_pack("{s:n, s:n, s:O, s:s}", "pairs", "warmup", "matrix",
						   h->matrix, "order", "blocks (hyperfine), not pairs"));
	json_object_set_new(doc, "metric", json_string("wall_ns"));
	for (i = 0; i < h->nrows; i++)
		json_array_append_new(rows, row_json(&h->rows[i]));
	for (i = 0; rules && i < rules->nrules; i++) {
		json_t *rr = json_array();
		for (r = 0; r < h->nrows; r++)
			json_array_append_new(rr, json_pack("{s:O, s:s, s:s}", "params", h->rows[r].params,
							    "outcome", "inconclusive", "detail",
							    "blocks are not pairs: no outcome"));
		json_array_append_new(jrules, json_pack("{s:s, s:s, s:s, s:o}", "name", rules->rules[i].name,
							"outcome", "inconclusive", "detail", UNPAIRED_REASON,
							"rows", rr));
	}
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "rules", jrules);
	return doc;
}
