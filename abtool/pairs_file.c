/* pairs_file.c - read the pairs file of `abtool analyze` (see pairs_file.h). */
#include "pairs_file.h"
#include "error.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

/* As for the experiment file's matrix (config.c) */
#define MAX_ROWS 1000000

/* The table as libcsv delivers it: records of fields. */
struct table {
	char ***records;   /* NULL-terminated field arrays */
	size_t *lines;     /* 1-based line where each record starts */
	size_t n, alloc;
	char **cur;        /* the record being read */
	size_t line;       /* current line */
	size_t ncur;
};

static void on_field(void *s, size_t len, void *data)
{
	struct table *t = data;

	t->cur = ab_xrealloc(t->cur, (t->ncur + 2) * sizeof(char *));
	t->cur[t->ncur++] = ab_xstrndup(s ? s : "", s ? len : 0);
	t->cur[t->ncur] = NULL;
}

static void on_record(int c, void *data)
{
	struct table *t = data;

	(void)c;
	if (!t->cur)
		return;
	if (t->n + 1 > t->alloc) {
		AB_GROW(t->records, t->alloc, t->n + 1);
		t->lines = ab_xrealloc(t->lines, t->alloc * sizeof(size_t));
	}
	t->records[t->n] = t->cur;
	t->lines[t->n] = t->line;
	t->n++;
	t->cur = NULL;
	t->ncur = 0;
}

static void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ab_strv_free(t->records[i]);
	ab_strv_free(t->cur);
	free(t->records);
	free(t->lines);
}

/* Parse line by line so that every record knows its line. */
static int parse(struct table *t, const char *path, const char *text, size_t len, unsigned char delim)
{
	struct csv_parser p;
	const char *s = text, *end = text + len;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) != 0)
		return ab_error_set(AB_ENOMEM, "out of memory");
	csv_set_delim(&p, delim);
	t->line = 1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		if (csv_parse(&p, s, n, on_field, on_record, t) != n) {
			/* libcsv's own words name no cause a user can act on:
			 * say what abtool expected, then quote it. */
			err = ab_error_set(AB_EINVALID, "%s:%zu: not a line of %s: a quote inside an unquoted "
					   "field, or text after a closing quote (libcsv: %s); abtool analyze reads "
					   "TSV or CSV with a header line (docs/analyze.md)", path, t->line,
					   delim == CSV_COMMA ? "CSV" : "TSV", csv_strerror(csv_error(&p)));
			break;
		}
		s += n;
		t->line++;
	}
	if (!err && csv_fini(&p, on_field, on_record, t) != 0)
		err = ab_error_set(AB_EINVALID, "%s:%zu: %s (an unterminated quote?)", path, t->line,
				   csv_strerror(csv_error(&p)));
	csv_free(&p);
	return err;
}

static long column(char **header, const char *name)
{
	long i;

	for (i = 0; header[i]; i++)
		if (!strcmp(header[i], name))
			return i;
	return -1;
}

static int positive(double *out, const char *text)
{
	return ab_parse_double(out, text) == 0 && *out > 0;
}

/* The distinct values of a parameter column, hashed (open addressing,
 * FNV-1a), so that a column with a new value on every line (an id or a
 * date) costs O(lines) rather than O(lines^2). */
struct value_set {
	size_t *slot;      /* value index + 1; 0 when empty */
	size_t cap;        /* a power of two, at least twice the values */
	size_t alloc;      /* of the parameter's values array */
};

static size_t hash_text(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

static size_t *find_slot(struct value_set *set, const struct ab_param *p, const char *v)
{
	size_t i = hash_text(v) & (set->cap - 1);

	while (set->slot[i] && strcmp(p->values[set->slot[i] - 1], v))
		i = (i + 1) & (set->cap - 1);
	return &set->slot[i];
}

/* Find or add a value of a parameter; returns its index. */
static size_t param_value(struct ab_param *p, struct value_set *set, const char *v)
{
	size_t *slot, i;

	if (2 * (p->nvalues + 1) > set->cap) {
		free(set->slot);
		set->cap = set->cap ? 2 * set->cap : 16;
		set->slot = ab_xcalloc(set->cap, sizeof(*set->slot));
		for (i = 0; i < p->nvalues; i++)
			*find_slot(set, p, p->values[i]) = i + 1;
	}
	slot = find_slot(set, p, v);
	if (*slot)
		return *slot - 1;
	AB_GROW(p->values, set->alloc, p->nvalues + 2);
	p->values[p->nvalues++] = ab_xstrdup(v);
	p->values[p->nvalues] = NULL;
	*slot = p->nvalues;
	return p->nvalues - 1;
}

/* The row of a record from its parameter values (last parameter fastest). */
static size_t row_of(const struct ab_experiment *exp, const size_t *value_index)
{
	size_t r = 0, p;

	for (p = 0; p < exp->nparams; p++)
		r = r * exp->matrix[p].nvalues + value_index[p];
	return r;
}

/* One parsed pair-half before the row count is final. */
struct half {
	size_t *vi;          /* value index per parameter */
	char *pair;          /* pair id within the row */
	int side;
	double value;
	int order;           /* -1 unknown */
	size_t line;
	size_t row, index;   /* the matrix row; position in the file */
	int64_t key;         /* the pair's sort key within the row */
};

static int by_row_pair_id(const void *pa, const void *pb)
{
	const struct half *a = *(const struct half *const *)pa, *b = *(const struct half *const *)pb;
	int c;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if ((c = strcmp(a->pair, b->pair)))
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int by_row_key(const void *pa, const void *pb)
{
	const struct half *a = *(const struct half *const *)pa, *b = *(const struct half *const *)pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->side - b->side;
}

static void synthesize(struct ab_experiment *exp, const char *path, const struct ab_pairs_file_options *opt)
{
	const char *base = strrchr(path, '/');

	exp->path = ab_xstrdup(path);
	exp->dir = ab_xstrdup(".");
	exp->text = ab_xstrdup("");
	ab_sha256_hex(exp->hash, "", 0);
	exp->name = ab_xstrdup(base ? base + 1 : path);
	exp->design = ab_xstrdup("analyze");
	exp->repo = ab_xstrdup(".");
	exp->candidate = ab_xstrdup("");
	exp->workdir = ab_xstrdup(".");
	exp->benchmark.shell = ab_xstrdup("(collected elsewhere)");
	exp->metric = ab_xstrdup(opt && opt->metric ? opt->metric : "value");
	exp->metrics = ab_xcalloc(1, sizeof(*exp->metrics));
	exp->nmetrics = 1;
	exp->metrics[0].name = ab_xstrdup(exp->metric);
	exp->metrics[0].unit = ab_xstrdup(opt && opt->unit ? opt->unit : "");
	exp->metrics[0].better = opt ? opt->better : AB_LOWER_IS_BETTER;
	exp->metrics[0].source = AB_METRIC_REGEX;
	exp->exact_parent = 1;
	exp->warmup = 0;
}

int ab_pairs_file_read(struct ab_pairs_file *out, const char *path, const char *text, size_t len,
		       const struct ab_pairs_file_options *opt)
{
	struct ab_experiment *exp = &out->exp;
	struct table t;
	struct half *h = NULL, **idx = NULL;
	size_t nh = 0, h_alloc = 0, i, j, r, nrows, *count = NULL;
	long c_pair, c_side, c_value, c_parent, c_cand, c_order, *pcol = NULL;
	struct value_set *sets = NULL;
	const char *ext = strrchr(path, '.');
	unsigned char delim = ext && !strcmp(ext, ".csv") ? CSV_COMMA : CSV_TAB;
	const char *nl;
	size_t first_len;
	char **header;
	int err, numeric;

	memset(out, 0, sizeof(*out));
	/* A UTF-8 byte order mark (spreadsheets write one in "CSV UTF-8")
	 * would otherwise be part of the first column's name. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		len -= 3;
	}
	nl = memchr(text, '\n', len);
	first_len = nl ? (size_t)(nl - text) : len;
	synthesize(exp, path, opt);
	if (memchr(text, '\0', len))
		return ab_error_set(AB_EINVALID, "%s: a text file of TSV or CSV was expected (it holds NUL bytes)", path);
	if (delim == CSV_TAB && !memchr(text, '\t', first_len) && memchr(text, ',', first_len))
		delim = CSV_COMMA;
	if ((err = parse(&t, path, text, len, delim)) < 0)
		goto out;
	/* Drop comment records. */
	for (i = j = 0; i < t.n; i++) {
		if (t.records[i][0] && t.records[i][0][0] == '#') {
			ab_strv_free(t.records[i]);
			continue;
		}
		t.lines[j] = t.lines[i];
		t.records[j++] = t.records[i];
	}
	t.n = j;
	if (t.n < 2) {
		err = ab_error_set(AB_EINVALID, "%s: no data: expected a header line and at least one line "
				   "of samples (see docs/analyze.md)", path);
		goto out;
	}
	header = t.records[0];
	c_pair = column(header, "pair");
	c_side = column(header, "side");
	c_value = column(header, "value");
	c_parent = column(header, "parent");
	c_cand = column(header, "candidate");
	c_order = column(header, "order");
	out->wide = c_parent >= 0 && c_cand >= 0;
	out->has_order = c_order >= 0;
	exp->order_unknown = !out->has_order;
	if (!out->wide && (c_side < 0 || c_value < 0 || c_pair < 0)) {
		err = ab_error_set(AB_EINVALID, "%s:%zu: the header needs either 'parent' and 'candidate' "
				   "columns (wide) or 'pair', 'side' and 'value' columns (long)", path, t.lines[0]);
		goto out;
	}
	pcol = ab_xcalloc(ab_strv_len(header) + 1, sizeof(long));
	sets = ab_xcalloc(ab_strv_len(header) + 1, sizeof(*sets));
	for (i = 0; header[i]; i++) {
		long ci = (long)i;
		if (ci == c_pair || ci == c_order || (out->wide ? ci == c_parent || ci == c_cand
							  : ci == c_side || ci == c_value))
			continue;
		if (!*header[i]) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: column %zu has no name", path, t.lines[0], i + 1);
			goto out;
		}
		exp->matrix = ab_xrealloc(exp->matrix, (exp->nparams + 1) * sizeof(*exp->matrix));
		memset(&exp->matrix[exp->nparams], 0, sizeof(*exp->matrix));
		exp->matrix[exp->nparams].name = ab_xstrdup(header[i]);
		pcol[exp->nparams++] = ci;
	}

	for (i = 1; i < t.n; i++) {
		char **rec = t.records[i];
		size_t nf = ab_strv_len(rec), p, sides = out->wide ? 2 : 1, s;
		int order = -1;

		if (nf != ab_strv_len(header)) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: %zu fields, but the header has %zu", path,
					   t.lines[i], nf, ab_strv_len(header));
			goto out;
		}
		if (c_order >= 0) {
			if (!strcmp(rec[c_order], "AB"))
				order = 0;
			else if (!strcmp(rec[c_order], "BA"))
				order = 1;
			else {
				err = ab_error_set(AB_EINVALID, "%s:%zu: column 'order': expected AB or BA, got '%s'",
						   path, t.lines[i], rec[c_order]);
				goto out;
			}
		}
		for (s = 0; s < sides; s++) {
			struct half *x;
			long vc = out->wide ? (s ? c_cand : c_parent) : c_value;

			AB_GROW(h, h_alloc, nh + 1);
			x = &h[nh++];
			memset(x, 0, sizeof(*x));
			x->line = t.lines[i];
			x->order = order;
			x->vi = ab_xcalloc(exp->nparams + 1, sizeof(size_t));
			for (p = 0; p < exp->nparams; p++)
				x->vi[p] = param_value(&exp->matrix[p], &sets[p], rec[pcol[p]]);
			x->pair = c_pair >= 0 ? ab_xstrdup(rec[c_pair]) : ab_xasprintf("#line%zu", t.lines[i]);
			if (out->wide) {
				x->side = (int)s;
			} else if (!strcmp(rec[c_side], "parent") || !strcmp(rec[c_side], "A")) {
				x->side = 0;
			} else if (!strcmp(rec[c_side], "candidate") || !strcmp(rec[c_side], "B")) {
				x->side = 1;
			} else {
				err = ab_error_set(AB_EINVALID, "%s:%zu: column 'side': expected parent or candidate "
						   "(or A or B), got '%s'", path, t.lines[i], rec[c_side]);
				goto out;
			}
			if (!positive(&x->value, rec[vc])) {
				err = ab_error_set(AB_EINVALID, "%s:%zu: column '%s': expected a positive number, "
						   "got '%s'", path, t.lines[i], header[vc], rec[vc]);
				goto out;
			}
		}
	}

	/* Rows, then pairs within each row: by the pair column's numbers when
	 * they all are integers (so that line order does not matter), else in
	 * order of first appearance. */
	nrows = 1;
	for (i = 0; i < exp->nparams; i++) {
		/* The rows are the product of the columns' value counts: bound
		 * it as the experiment file does, before it can overflow. */
		if (nrows > MAX_ROWS / exp->matrix[i].nvalues) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: column '%s': the parameter columns make "
					   "more than %d rows (the product of their numbers of distinct "
					   "values); is it a parameter?", path, t.lines[0],
					   exp->matrix[i].name, MAX_ROWS);
			goto out;
		}
		nrows *= exp->matrix[i].nvalues;
	}
	count = ab_xcalloc(nrows, sizeof(size_t));
	out->samples = ab_xcalloc(nh + 1, sizeof(*out->samples));
	numeric = 1;
	for (i = 0; i < nh && numeric; i++)
		numeric = ab_parse_int64(&h[i].key, h[i].pair) == 0;
	for (i = 0; i < nh; i++) {
		h[i].row = row_of(exp, h[i].vi);
		h[i].index = i;
	}
	/* Group the halves by (row, pair id); without numeric ids, a pair's
	 * key is the position of its first half. */
	idx = ab_xmalloc((nh ? nh : 1) * sizeof(*idx));
	for (i = 0; i < nh; i++)
		idx[i] = &h[i];
	qsort(idx, nh, sizeof(*idx), by_row_pair_id);
	for (i = 0; i < nh; i++) {
		if (i > 0 && idx[i]->row == idx[i - 1]->row && !strcmp(idx[i]->pair, idx[i - 1]->pair)) {
			if (idx[i]->side == idx[i - 1]->side) {
				const struct half *x = idx[i]->index > idx[i - 1]->index ? idx[i] : idx[i - 1];
				const struct half *y = x == idx[i] ? idx[i - 1] : idx[i];
				err = ab_error_set(AB_EINVALID, "%s:%zu: pair '%s' has a second %s value (first "
						   "at line %zu)", path, x->line, x->pair,
						   x->side ? "candidate" : "parent", y->line);
				goto out;
			}
			if (!numeric)
				idx[i]->key = idx[i - 1]->key;
		} else if (!numeric) {
			idx[i]->key = (int64_t)idx[i]->index;
		}
	}
	qsort(idx, nh, sizeof(*idx), by_row_key);
	for (i = 0; i < nh; i++) {
		struct ab_sample *smp = &out->samples[out->nsamples++];
		const struct half *x = idx[i];

		if (i > 0 && x->row == idx[i - 1]->row && x->key == idx[i - 1]->key)
			;  /* the other half of the same pair */
		else if (i > 0 && x->row == idx[i - 1]->row)
			count[x->row]++;
		else
			count[x->row] = 1;
		smp->entry.seq = (uint32_t)x->index;
		smp->entry.row = (uint32_t)x->row;
		smp->entry.pair = (int32_t)(count[x->row] - 1);
		smp->entry.warmup = -1;
		smp->entry.side = (uint8_t)x->side;
		smp->entry.order = (uint8_t)(x->order < 0 ? 0 : x->order);
		smp->status = AB_SAMPLE_DONE;
		smp->nmetrics = 1;
		smp->metrics = ab_xmalloc(sizeof(double));
		smp->metrics[0] = x->value;
		/* Only for display; a value beyond int64_t (any positive
		 * number is accepted) must not overflow the conversion. */
		smp->wall_ns = x->value < 9.2e18 ? (int64_t)x->value : INT64_MAX;
	}
	/* Every pair needs both sides: after sorting, its halves are adjacent. */
	for (i = 0; i < nh; i++) {
		int prev = i > 0 && idx[i - 1]->row == idx[i]->row && idx[i - 1]->key == idx[i]->key;
		int next = i + 1 < nh && idx[i + 1]->row == idx[i]->row && idx[i + 1]->key == idx[i]->key;
		if (!prev && !next) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: pair '%s' has only a %s value", path, idx[i]->line,
					   idx[i]->pair, idx[i]->side ? "candidate" : "parent");
			goto out;
		}
	}
	exp->pairs = 1;
	for (r = 0; r < nrows; r++)
		if ((int)count[r] > exp->pairs)
			exp->pairs = (int)count[r];
out:
	for (i = 0; i < nh; i++) {
		free(h[i].vi);
		free(h[i].pair);
	}
	free(h);
	free(idx);
	free(count);
	free(pcol);
	for (i = 0; sets && i < exp->nparams; i++)
		free(sets[i].slot);
	free(sets);
	table_free(&t);
	return err;
}

void ab_pairs_file_release(struct ab_pairs_file *in)
{
	ab_samples_free(in->samples, in->nsamples);
	ab_experiment_release(&in->exp);
	memset(in, 0, sizeof(*in));
}
