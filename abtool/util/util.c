/* util.c - see util.h: allocation, arrays of strings, words for the
 * shell, and "did you mean" (the other concerns are util_*.c). */
#include "util.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ab_out_of_memory(void)
{
	fputs("abtool: out of memory\n", stderr);
	exit(70);
}

void *ab_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		ab_out_of_memory();
	return p;
}

void *ab_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		ab_out_of_memory();
	return p;
}

void *ab_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		ab_out_of_memory();
	return p;
}

char *ab_xstrdup(const char *s)
{
	char *p;
	if (!s)
		return NULL;
	p = strdup(s);
	if (!p)
		ab_out_of_memory();
	return p;
}

char *ab_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		ab_out_of_memory();
	return p;
}

char *ab_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		ab_out_of_memory();
	return s;
}

void ab_grow(void *arr, size_t *alloc, size_t n, size_t size)
{
	void **p = arr;
	size_t want;

	if (n <= *alloc)
		return;
	want = *alloc ? *alloc : 8;
	while (want < n)
		want *= 2;
	*p = ab_xrealloc(*p, want * size);
	*alloc = want;
}

size_t ab_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

void ab_strv_push(char ***list, char *s)
{
	size_t n = ab_strv_len(*list);

	*list = ab_xrealloc(*list, (n + 2) * sizeof(**list));
	(*list)[n] = s;
	(*list)[n + 1] = NULL;
}

void ab_strv_append(char ***list, size_t *n, char *s)
{
	size_t cap = 2;

	while (cap < *n + 2)
		cap *= 2;
	*list = ab_xrealloc(*list, cap * sizeof(**list));
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
}

void ab_strv_free(char **v)
{
	char **p;
	if (!v)
		return;
	for (p = v; *p; p++)
		free(*p);
	free(v);
}

char *ab_shell_quote(const char *s, int always)
{
	const char *p;
	char *out, *o;

	for (p = s; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./=:,@%+-", *p))
			break;
	if (!always && *s && !*p)
		return ab_xstrdup(s);
	o = out = ab_xmalloc(4 * strlen(s) + 3);
	*o++ = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

size_t ab_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row, result;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	row = ab_xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t prev = row[0], tmp;
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	result = row[lb];
	free(row);
	return result;
}

const char *ab_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, i, d;

	for (i = 0; i < n; i++) {
		d = ab_edit_distance(word, cands[i]);
		if (d < best_d && d < strlen(word)) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
