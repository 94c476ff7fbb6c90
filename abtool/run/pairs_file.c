/* pairs_file.c - read the pairs file of `abtool analyze` (see pairs_file.h). */
#include "pairs_file.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

/* As for the experiment file's matrix (config.c) */

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

/* Parse line by line so that every record knows its line. A line longer
 * than `max_line` is refused before libcsv sees it (libcsv grows its
 * field buffer by a fixed step, so a huge field costs time quadratic in
 * its length: the step is 64 KiB here). */
static int parse(struct table *t, const char *path, const char *text, size_t len, unsigned char delim,
		 size_t max_line)
{
	struct csv_parser p;
	const char *s = text, *end = text + len;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) != 0)
		return ab_error_set(AB_ENOMEM, "out of memory");
	csv_set_delim(&p, delim);
	csv_set_blk_size(&p, 1 << 16);
	t->line = 1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		if (n - (nl != NULL) > max_line) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: a line of %zu bytes, longer than the %zu a line "
					   "may have; is it a pairs file? (abtool analyze --max-line-bytes N reads "
					   "longer lines; the default is %u)", path, t->line, n - (nl != NULL),
					   max_line, AB_PAIRS_MAX_LINE);
			break;
		}
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
		t->line += nl != NULL;  /* a last line without a newline ends the file on its own line */
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
	char *end;

	if (ab_parse_double(out, text) == 0)
		return *out > 0;
	/* strtod flags a subnormal such as 1e-320 with ERANGE: still a
	 * positive number, and ratio statistics handle it (stats.h) */
	errno = 0;
	*out = strtod(text, &end);
	return errno == ERANGE && !*end && isfinite(*out) && *out > 0 && !isspace((unsigned char)*text);
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

static void synthesize(struct ab_experiment *exp, const char *path,
		       const struct ab_pairs_file_options *opt)
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

/* The reading of one pairs file: its table, its columns, and the halves
 * of pairs read from its records. */
struct reader {
	const char *path;
	struct ab_pairs_file *out;
	struct table t;
	long c_pair, c_side, c_value, c_parent, c_cand, c_order;
	long *pcol;              /* per parameter: its column */
	struct value_set *sets;  /* per parameter: its values */
	struct half *h;
	size_t nh, h_alloc;
};

static void reader_free(struct reader *rd)
{
	size_t i;

	for (i = 0; i < rd->nh; i++) {
		free(rd->h[i].vi);
		free(rd->h[i].pair);
	}
	free(rd->h);
	free(rd->pcol);
	for (i = 0; rd->sets && i < rd->out->exp.nparams; i++)
		free(rd->sets[i].slot);
	free(rd->sets);
	table_free(&rd->t);
}

/* Drop the records whose first field starts with '#'. */
static void drop_comments(struct table *t)
{
	size_t i, j;

	for (i = j = 0; i < t->n; i++) {
		if (t->records[i][0] && t->records[i][0][0] == '#') {
			ab_strv_free(t->records[i]);
			continue;
		}
		t->lines[j] = t->lines[i];
		t->records[j++] = t->records[i];
	}
	t->n = j;
}

/* The header's columns: the layout's (pair, side and value, or parent and
 * candidate), order, and every other one a parameter of the matrix. */
static int read_header(struct reader *rd)
{
	struct ab_pairs_file *out = rd->out;
	struct ab_experiment *exp = &out->exp;
	char **header = rd->t.records[0];
	size_t i;

	rd->c_pair = column(header, "pair");
	rd->c_side = column(header, "side");
	rd->c_value = column(header, "value");
	rd->c_parent = column(header, "parent");
	rd->c_cand = column(header, "candidate");
	rd->c_order = column(header, "order");
	out->wide = rd->c_parent >= 0 && rd->c_cand >= 0;
	out->has_order = rd->c_order >= 0;
	exp->order_unknown = !out->has_order;
	if (!out->wide && (rd->c_side < 0 || rd->c_value < 0 || rd->c_pair < 0))
		return ab_error_set(AB_EINVALID, "%s:%zu: the header needs either 'parent' and 'candidate' "
				    "columns (wide) or 'pair', 'side' and 'value' columns (long)", rd->path,
				    rd->t.lines[0]);
	for (i = 0; header[i]; i++) {
		long first = column(header, header[i]);

		if (first != (long)i)  /* a second 'parent' would be a parameter named parent */
			return ab_error_set(AB_EINVALID, "%s:%zu: column '%s' is named twice (columns %ld and "
					    "%zu); give each column its own name", rd->path, rd->t.lines[0],
					    header[i], first + 1, i + 1);
	}
	rd->pcol = ab_xcalloc(ab_strv_len(header) + 1, sizeof(long));
	rd->sets = ab_xcalloc(ab_strv_len(header) + 1, sizeof(*rd->sets));
	for (i = 0; header[i]; i++) {
		long ci = (long)i;
		if (ci == rd->c_pair || ci == rd->c_order ||
		    (out->wide ? ci == rd->c_parent || ci == rd->c_cand
			       : ci == rd->c_side || ci == rd->c_value))
			continue;
		if (!*header[i])
			return ab_error_set(AB_EINVALID, "%s:%zu: column %zu has no name", rd->path,
					    rd->t.lines[0], i + 1);
		exp->matrix = ab_xrealloc(exp->matrix, (exp->nparams + 1) * sizeof(*exp->matrix));
		memset(&exp->matrix[exp->nparams], 0, sizeof(*exp->matrix));
		exp->matrix[exp->nparams].name = ab_xstrdup(header[i]);
		rd->pcol[exp->nparams++] = ci;
	}
	return 0;
}

/* The halves of pairs of record i (> 0): one in the long layout, two in
 * the wide one. */
static int read_record(struct reader *rd, size_t i)
{
	struct ab_pairs_file *out = rd->out;
	struct ab_experiment *exp = &out->exp;
	char **header = rd->t.records[0], **rec = rd->t.records[i];
	size_t line = rd->t.lines[i], nf = ab_strv_len(rec), p, sides = out->wide ? 2 : 1, s;
	int order = -1;

	if (nf != ab_strv_len(header))
		return ab_error_set(AB_EINVALID, "%s:%zu: %zu fields, but the header has %zu", rd->path, line,
				    nf, ab_strv_len(header));
	if (rd->c_order >= 0) {
		if (!strcmp(rec[rd->c_order], "AB"))
			order = 0;
		else if (!strcmp(rec[rd->c_order], "BA"))
			order = 1;
		else
			return ab_error_set(AB_EINVALID, "%s:%zu: column 'order': expected AB or BA, got '%s'",
					    rd->path, line, rec[rd->c_order]);
	}
	for (s = 0; s < sides; s++) {
		struct half *x;
		long vc = out->wide ? (s ? rd->c_cand : rd->c_parent) : rd->c_value;

		AB_GROW(rd->h, rd->h_alloc, rd->nh + 1);
		x = &rd->h[rd->nh++];
		memset(x, 0, sizeof(*x));
		x->line = line;
		x->order = order;
		x->vi = ab_xcalloc(exp->nparams + 1, sizeof(size_t));
		for (p = 0; p < exp->nparams; p++)
			x->vi[p] = param_value(&exp->matrix[p], &rd->sets[p], rec[rd->pcol[p]]);
		x->pair = rd->c_pair >= 0 ? ab_xstrdup(rec[rd->c_pair]) : ab_xasprintf("#line%zu", line);
		if (out->wide) {
			x->side = (int)s;
		} else if (!strcmp(rec[rd->c_side], "parent") || !strcmp(rec[rd->c_side], "A")) {
			x->side = 0;
		} else if (!strcmp(rec[rd->c_side], "candidate") || !strcmp(rec[rd->c_side], "B")) {
			x->side = 1;
		} else {
			return ab_error_set(AB_EINVALID, "%s:%zu: column 'side': expected parent or candidate "
					    "(or A or B), got '%s'", rd->path, line, rec[rd->c_side]);
		}
		if (!positive(&x->value, rec[vc]))
			return ab_error_set(AB_EINVALID, "%s:%zu: column '%s': expected a positive number, "
					    "got '%s'", rd->path, line, header[vc], rec[vc]);
	}
	return 0;
}

/* The number of rows: the product of the parameters' value counts, at
 * most `max_rows` (checked before the product can overflow). */
static int count_rows(const struct reader *rd, size_t max_rows, size_t *out)
{
	const struct ab_experiment *exp = &rd->out->exp;
	size_t nrows = 1, i;

	for (i = 0; i < exp->nparams; i++) {
		if (nrows > max_rows / exp->matrix[i].nvalues)
			return ab_error_set(AB_EINVALID, "%s:%zu: column '%s' (%zu distinct values): the "
					    "parameter columns make more than %zu rows (the product of their "
					    "numbers of distinct values); is it a parameter? (abtool analyze "
					    "--max-rows N analyzes more rows, up to %d; the default is %d)",
					    rd->path, rd->t.lines[0], exp->matrix[i].name, exp->matrix[i].nvalues,
					    max_rows, AB_MAX_ROWS, AB_PAIRS_MAX_ROWS);
		nrows *= exp->matrix[i].nvalues;
	}
	*out = nrows;
	return 0;
}

/* Give each pair its sort key within its row: its number when every
 * pair id is an integer (`numeric`), else the position of its first half.
 * idx holds the halves sorted by row and pair id; a side given twice for
 * a pair is an error. */
static int key_pairs(const struct reader *rd, struct half **idx, int numeric)
{
	size_t i;

	for (i = 0; i < rd->nh; i++) {
		if (i > 0 && idx[i]->row == idx[i - 1]->row && !strcmp(idx[i]->pair, idx[i - 1]->pair)) {
			if (idx[i]->side == idx[i - 1]->side) {
				const struct half *x = idx[i]->index > idx[i - 1]->index ? idx[i] : idx[i - 1];
				const struct half *y = x == idx[i] ? idx[i - 1] : idx[i];
				return ab_error_set(AB_EINVALID, "%s:%zu: pair '%s' has a second %s value (first "
						    "at line %zu)", rd->path, x->line, x->pair,
						    x->side ? "candidate" : "parent", y->line);
			}
			if (!numeric)
				idx[i]->key = idx[i - 1]->key;
		} else if (!numeric) {
			idx[i]->key = (int64_t)idx[i]->index;
		}
	}
	return 0;
}

/* One sample per half into out->samples, from idx sorted by row and
 * key; count[row] receives the pairs of each row. */
static void fill_samples(const struct reader *rd, struct half *const *idx, size_t *count)
{
	struct ab_pairs_file *out = rd->out;
	size_t i;

	for (i = 0; i < rd->nh; i++) {
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
}

/* Rows, then pairs within each row: by the pair column's numbers when
 * they all are integers (so that line order does not matter), else in
 * order of first appearance. Every pair needs both sides. */
static int pair_up(const struct reader *rd, size_t nrows)
{
	struct ab_experiment *exp = &rd->out->exp;
	size_t *count = ab_xcalloc(nrows, sizeof(size_t)), nh = rd->nh, i, r;
	struct half *h = rd->h, **idx;
	int err, numeric = 1;

	rd->out->samples = ab_xcalloc(nh + 1, sizeof(*rd->out->samples));
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
	if ((err = key_pairs(rd, idx, numeric)) < 0)
		goto out;
	qsort(idx, nh, sizeof(*idx), by_row_key);
	fill_samples(rd, idx, count);
	/* Every pair needs both sides: after sorting, its halves are adjacent. */
	for (i = 0; i < nh; i++) {
		int prev = i > 0 && idx[i - 1]->row == idx[i]->row && idx[i - 1]->key == idx[i]->key;
		int next = i + 1 < nh && idx[i + 1]->row == idx[i]->row && idx[i + 1]->key == idx[i]->key;
		if (!prev && !next) {
			err = ab_error_set(AB_EINVALID, "%s:%zu: pair '%s' has only a %s value", rd->path,
					   idx[i]->line, idx[i]->pair, idx[i]->side ? "candidate" : "parent");
			goto out;
		}
	}
	exp->pairs = 1;
	for (r = 0; r < nrows; r++)
		if ((int)count[r] > exp->pairs)
			exp->pairs = (int)count[r];
out:
	free(idx);
	free(count);
	return err;
}

int ab_pairs_file_read(struct ab_pairs_file *out, const char *path, const char *text, size_t len,
		       const struct ab_pairs_file_options *opt)
{
	struct reader rd;
	const char *ext = strrchr(path, '.');
	unsigned char delim = ext && !strcmp(ext, ".csv") ? CSV_COMMA : CSV_TAB;
	const char *nl;
	size_t first_len, i, nrows = 0;
	int err;

	memset(out, 0, sizeof(*out));
	memset(&rd, 0, sizeof(rd));
	rd.path = path;
	rd.out = out;
	/* A UTF-8 byte order mark (spreadsheets write one in "CSV UTF-8")
	 * would otherwise be part of the first column's name. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		len -= 3;
	}
	nl = memchr(text, '\n', len);
	first_len = nl ? (size_t)(nl - text) : len;
	synthesize(&out->exp, path, opt);
	if (memchr(text, '\0', len))
		return ab_error_set(AB_EINVALID, "%s: a text file of TSV or CSV was expected (it holds NUL bytes)", path);
	if (delim == CSV_TAB && !memchr(text, '\t', first_len) && memchr(text, ',', first_len))
		delim = CSV_COMMA;
	if ((err = parse(&rd.t, path, text, len, delim,
			 opt && opt->max_line ? opt->max_line : AB_PAIRS_MAX_LINE)) < 0)
		goto out;
	drop_comments(&rd.t);
	if (rd.t.n < 2) {
		err = ab_error_set(AB_EINVALID, "%s: no data: expected a header line and at least one line "
				   "of samples (see docs/analyze.md)", path);
		goto out;
	}
	if ((err = read_header(&rd)) < 0)
		goto out;
	for (i = 1; i < rd.t.n; i++)
		if ((err = read_record(&rd, i)) < 0)
			goto out;
	if ((err = count_rows(&rd, opt && opt->max_rows ? opt->max_rows : AB_PAIRS_MAX_ROWS, &nrows)) < 0)
		goto out;
	err = pair_up(&rd, nrows);
out:
	reader_free(&rd);
	return err;
}

void ab_pairs_file_release(struct ab_pairs_file *in)
{
	ab_samples_free(in->samples, in->nsamples);
	ab_experiment_release(&in->exp);
	memset(in, 0, sizeof(*in));
}
