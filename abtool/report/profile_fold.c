/* profile_fold.c - folding `perf script` text into folded stacks and the
 * shares of functions in them (see profile_fold.h; the folded format is
 * Brendan Gregg's stackcollapse output, docs/profiles.md). */
#include "profile_fold.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct stack {
	char *text;
	uint64_t count;
};

struct ab_fold {
	struct stack *v;
	size_t n, cap;
	size_t merged;   /* v[0..merged) is sorted and without duplicates */
};

struct ab_fold *ab_fold_new(void)
{
	return ab_xcalloc(1, sizeof(struct ab_fold));
}

void ab_fold_free(struct ab_fold *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		free(f->v[i].text);
	free(f->v);
	free(f);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct stack *)a)->text, ((const struct stack *)b)->text);
}

/* Sort and add up equal stacks (the set keeps its meaning). */
static void merge(struct ab_fold *f)
{
	size_t i, k = 0;

	if (f->n == 0)
		return;
	qsort(f->v, f->n, sizeof(*f->v), by_text);
	for (i = 1; i < f->n; i++) {
		if (!strcmp(f->v[i].text, f->v[k].text)) {
			f->v[k].count += f->v[i].count;
			free(f->v[i].text);
		} else {
			f->v[++k] = f->v[i];
		}
	}
	f->n = f->merged = k + 1;
}

/* Add `count` samples of `stack` (taken over). */
static void add(struct ab_fold *f, char *stack, uint64_t count)
{
	if (f->n == f->cap) {
		if (f->n >= 2 * f->merged + 1024) {
			merge(f);
			if (f->n < f->cap) {
				f->v[f->n].text = stack;
				f->v[f->n++].count = count;
				return;
			}
		}
		f->cap = f->cap ? 2 * f->cap : 256;
		f->v = ab_xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	f->v[f->n].text = stack;
	f->v[f->n++].count = count;
}

/* A growing string. */
struct buf {
	char *s;
	size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = ab_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* The symbol of a frame line ("  ADDRESS SYMBOL"), without "+0x..", as
 * [start, start + *n); NULL when the line is no frame. */
static const char *frame_symbol(const char *line, size_t len, size_t *n)
{
	const char *p = line, *end = line + len, *sym, *e;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == line || p == end || !isxdigit((unsigned char)*p))
		return NULL;
	while (p < end && isxdigit((unsigned char)*p))
		p++;
	while (p < end && *p == ' ')
		p++;
	sym = p;
	e = end;
	while (e > sym && isspace((unsigned char)e[-1]))
		e--;
	for (p = e; p > sym + 1; p--)  /* the last "+0x" starts the offset */
		if (p[-1] == '+' && p + 1 < e && p[0] == '0' && p[1] == 'x') {
			e = p - 1;
			break;
		}
	*n = (size_t)(e - sym);
	if (*n == 0) {
		*n = 9;
		return "[unknown]";
	}
	return sym;
}

/* The command name and event of a header line "COMM TID EVENT:": the
 * last two words are the thread id and the event, the rest the name. */
static void header(const char *line, size_t len, struct buf *comm, char *event, size_t size)
{
	const char *end = line + len, *words[2] = {NULL, NULL}, *p;
	int seen = 0;

	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	for (p = end; p > line && seen < 2; p--) {
		if (!isspace((unsigned char)p[-1]))
			continue;
		words[seen++] = p;
		while (p > line + 1 && isspace((unsigned char)p[-2]))
			p--;
	}
	p = seen == 2 ? words[1] : end;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	comm->n = 0;
	buf_add(comm, line, (size_t)(p - line));
	if (event && size && !event[0] && words[0]) {
		size_t n = strcspn(words[0], ":");
		snprintf(event, size, "%.*s", (int)(n < (size_t)(end - words[0]) ? n : (size_t)(end - words[0])),
			 words[0]);
	}
}

/* Frame names are kept as they are, but a ';' would split the frame. */
static void add_frame(struct buf *b, const char *s, size_t n)
{
	size_t i, start = b->n;

	buf_add(b, s, n);
	for (i = start; i < b->n; i++)
		if (b->s[i] == ';' || b->s[i] == '\n')
			b->s[i] = ':';
}

/* The stack root first: the command, then the frames from the last. */
static void finish_sample(struct ab_fold *f, struct buf *comm, const char **frames, const size_t *lens,
			  size_t nframes)
{
	struct buf st = {NULL, 0, 0};
	size_t i;

	add_frame(&st, comm->n ? comm->s : "[unknown]", comm->n ? comm->n : 9);
	for (i = nframes; i > 0; i--) {
		buf_add(&st, ";", 1);
		add_frame(&st, frames[i - 1], lens[i - 1]);
	}
	add(f, st.s, 1);
}

size_t ab_fold_perf_script(struct ab_fold *f, const char *text, size_t len, char *event, size_t size)
{
	const char *p = text, *end = text + len, **frames = NULL;
	size_t *lens = NULL, nframes = 0, capf = 0, added = 0;
	struct buf comm = {NULL, 0, 0};
	int in_sample = 0;

	if (event && size)
		event[0] = '\0';
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p, *sym;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), slen;

		p = nl ? nl + 1 : end;
		if ((sym = frame_symbol(line, n, &slen))) {
			if (!in_sample)
				continue;
			if (nframes == capf) {
				capf = capf ? 2 * capf : 64;
				frames = ab_xrealloc(frames, capf * sizeof(*frames));
				lens = ab_xrealloc(lens, capf * sizeof(*lens));
			}
			frames[nframes] = sym;
			lens[nframes++] = slen;
			continue;
		}
		if (in_sample) {
			finish_sample(f, &comm, frames, lens, nframes);
			added++;
			in_sample = 0;
		}
		if (n && !isspace((unsigned char)line[0])) {
			header(line, n, &comm, event, size);
			in_sample = 1;
			nframes = 0;
		}
	}
	if (in_sample) {
		finish_sample(f, &comm, frames, lens, nframes);
		added++;
	}
	free(frames);
	free(lens);
	free(comm.s);
	return added;
}

size_t ab_fold_each(const char *text, size_t len,
		    void (*fn)(void *ctx, const char *stack, size_t slen, uint64_t count), void *ctx)
{
	const char *p = text, *end = text + len;
	size_t seen = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p, *e, *sp;
		uint64_t count = 0;

		e = nl ? nl : end;
		p = nl ? nl + 1 : end;
		while (e > line && (e[-1] == '\r' || e[-1] == ' '))
			e--;
		for (sp = e; sp > line && isdigit((unsigned char)sp[-1]); sp--)
			;
		if (sp == e || sp == line || sp[-1] != ' ' || sp - 1 == line)
			continue;
		for (const char *d = sp; d < e; d++)
			count = count * 10 + (uint64_t)(*d - '0');
		fn(ctx, line, (size_t)(sp - 1 - line), count);
		seen++;
	}
	return seen;
}

struct add_ctx {
	struct ab_fold *f;
	uint64_t samples;
};

static void add_line(void *ctx, const char *stack, size_t slen, uint64_t count)
{
	struct add_ctx *a = ctx;

	add(a->f, ab_xstrndup(stack, slen), count);
	a->samples += count;
}

uint64_t ab_fold_add_folded(struct ab_fold *f, const char *text, size_t len)
{
	struct add_ctx a = {f, 0};

	ab_fold_each(text, len, add_line, &a);
	return a.samples;
}

static int by_count_desc(const void *a, const void *b)
{
	const struct stack *x = *(const struct stack *const *)a, *y = *(const struct stack *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->text, y->text);
}

char *ab_fold_text(const struct ab_fold *cf, size_t cap, uint64_t *samples, uint64_t *dropped)
{
	struct ab_fold *f = (struct ab_fold *)cf;  /* merging keeps the set's meaning */
	struct stack **order;
	struct buf out = {NULL, 0, 0};
	uint8_t *keep;
	size_t i, bytes = 0;
	uint64_t kept = 0, cut = 0;
	char num[32];

	merge(f);
	order = ab_xcalloc(f->n + 1, sizeof(*order));
	keep = ab_xcalloc(f->n + 1, 1);
	for (i = 0; i < f->n; i++)
		order[i] = &f->v[i];
	qsort(order, f->n, sizeof(*order), by_count_desc);
	for (i = 0; i < f->n; i++) {
		size_t line = strlen(order[i]->text) + (size_t)snprintf(num, sizeof(num), " %llu\n",
							     (unsigned long long)order[i]->count);
		if (cap > 0 && bytes + line > cap) {
			cut += order[i]->count;
			continue;
		}
		bytes += line;
		keep[order[i] - f->v] = 1;
	}
	buf_add(&out, "", 0);
	for (i = 0; i < f->n; i++) {
		if (!keep[i])
			continue;
		buf_add(&out, f->v[i].text, strlen(f->v[i].text));
		buf_add(&out, num, (size_t)snprintf(num, sizeof(num), " %llu\n",
						    (unsigned long long)f->v[i].count));
		kept += f->v[i].count;
	}
	free(order);
	free(keep);
	if (samples)
		*samples = kept;
	if (dropped)
		*dropped = cut;
	return out.s;
}

/* Occurrences of frames, gathered before they are added up by name. */
struct occ_list {
	struct ab_fold_func *v;
	size_t n, cap;
	uint64_t samples;
};

static void occ_add(struct occ_list *l, const char *name, size_t n, uint64_t self, uint64_t total, int root)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = ab_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].name = ab_xstrndup(name, n);
	l->v[l->n].self = self;
	l->v[l->n].total = total;
	l->v[l->n++].root = root;
}

struct span {
	const char *s;
	size_t n;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

static void occ_line(void *ctx, const char *stack, size_t slen, uint64_t count)
{
	struct occ_list *l = ctx;
	struct span *fr = NULL;
	size_t nf = 0, i;
	const char *p = stack, *end = stack + slen;

	while (p <= end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *e = semi ? semi : end;
		fr = ab_xrealloc(fr, (nf + 1) * sizeof(*fr));
		fr[nf].s = p;
		fr[nf++].n = (size_t)(e - p);
		if (!semi)
			break;
		p = semi + 1;
	}
	l->samples += count;
	if (nf == 0) {
		free(fr);
		return;
	}
	occ_add(l, fr[0].s, fr[0].n, 0, 0, 1);
	occ_add(l, fr[nf - 1].s, fr[nf - 1].n, count, 0, 0);
	qsort(fr, nf, sizeof(*fr), span_cmp);
	for (i = 0; i < nf; i++)
		if (i == 0 || span_cmp(&fr[i], &fr[i - 1]))
			occ_add(l, fr[i].s, fr[i].n, 0, count, 0);
	free(fr);
}

static int func_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ab_fold_func *)a)->name, ((const struct ab_fold_func *)b)->name);
}

void ab_fold_funcs(struct ab_fold_funcs *out, const char *text, size_t len)
{
	struct occ_list l = {NULL, 0, 0, 0};
	size_t i, k = 0;

	ab_fold_each(text, len, occ_line, &l);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), func_cmp);
	for (i = 1; i < l.n; i++) {
		if (!strcmp(l.v[i].name, l.v[k].name)) {
			l.v[k].self += l.v[i].self;
			l.v[k].total += l.v[i].total;
			l.v[k].root |= l.v[i].root;
			free(l.v[i].name);
		} else {
			l.v[++k] = l.v[i];
		}
	}
	out->v = l.v;
	out->n = l.n ? k + 1 : 0;
	out->samples = l.samples;
}

void ab_fold_funcs_release(struct ab_fold_funcs *fs)
{
	size_t i;

	for (i = 0; fs && i < fs->n; i++)
		free(fs->v[i].name);
	if (fs)
		free(fs->v);
}

const struct ab_fold_func *ab_fold_funcs_find(const struct ab_fold_funcs *fs, const char *name)
{
	struct ab_fold_func key;

	key.name = (char *)name;
	return fs->n ? bsearch(&key, fs->v, fs->n, sizeof(*fs->v), func_cmp) : NULL;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static int change_cmp(const void *a, const void *b)
{
	const struct ab_fold_change *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Fill line `c` for function `name` from both sides' entries. */
static void change_of(struct ab_fold_change *c, const char *name, const struct ab_fold_funcs *s[2])
{
	int i;

	memset(c, 0, sizeof(*c));
	c->name = name;
	for (i = 0; i < 2; i++) {
		const struct ab_fold_func *fn = ab_fold_funcs_find(s[i], name);
		c->self[i] = fn ? fn->self : 0;
		c->total[i] = fn ? fn->total : 0;
		c->self_share[i] = share(c->self[i], s[i]->samples);
		c->total_share[i] = share(c->total[i], s[i]->samples);
	}
	c->delta = c->total_share[1] - c->total_share[0];
}

struct ab_fold_change *ab_fold_compare(const struct ab_fold_funcs *a, const struct ab_fold_funcs *b,
				       size_t *n)
{
	const struct ab_fold_funcs *s[2] = {a, b};
	struct ab_fold_change *out = ab_xcalloc(a->n + b->n + 1, sizeof(*out));
	size_t i, k = 0;

	for (i = 0; i < a->n; i++)
		if (!a->v[i].root)
			change_of(&out[k++], a->v[i].name, s);
	for (i = 0; i < b->n; i++)
		if (!b->v[i].root && !ab_fold_funcs_find(a, b->v[i].name))
			change_of(&out[k++], b->v[i].name, s);
	qsort(out, k, sizeof(*out), change_cmp);
	*n = k;
	return out;
}
