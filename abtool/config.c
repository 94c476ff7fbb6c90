/* config.c - read and validate the experiment file (config.h, DESIGN.md
 * "Experiment file").
 *
 * The file is loaded with libyaml's document API and validated on its
 * nodes, which carry their marks. Conventions for messages:
 *
 *   PATH:LINE:COLUMN: KEY.PATH: what is wrong
 *
 * KEY.PATH names the key or list element at fault (`accept[1].faster_by`,
 * `matrix.lanes[2]`, 0-based indices) and LINE:COLUMN is where that key or
 * element starts: a bad value is reported at its key, so that in block
 * style the column is the key's indentation. A missing key is reported at
 * the mapping that should hold it. Only file-level problems (not UTF-8,
 * YAML syntax, not a mapping, several documents) have no key path.
 *
 * Anchors and aliases are resolved (libyaml's loader makes an alias share
 * the anchored node), so an error in an aliased value points at the
 * anchored original. Merge keys (`<<`) are not supported and are reported
 * as unknown keys.
 *
 * Keys are processed in the order of top_keys[] rather than file order, so
 * that `matrix` and `metrics` are known before `benchmark`, `metric`,
 * `scaling` and `accept` refer to them. Unknown and duplicate keys of a
 * mapping are reported first, in file order.
 */
#include "config.h"
#include "env.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <yaml.h>

/* More rows than this is a mistake, not an experiment; the bound also
 * keeps the product of value counts from overflowing. */
#define MAX_ROWS 1000000

struct ctx {
	const char *file;           /* the path as given, for messages */
	yaml_document_t *doc;
	struct ab_experiment *exp;
	struct ab_rule *rule;       /* the rule being read, for rule handlers */
	const char *repo;           /* `repo:` as written (borrowed from doc) */
	char path[1024];            /* the key path of the node being read */
	size_t pathlen;
};

/* A known key and how to read its value into the field at `offset` of
 * the struct being filled (the experiment, or the current rule). */
struct key_handler {
	const char *key;
	int (*fn)(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
	size_t offset;
};

/* A growable string */
struct buf {
	char *s;
	size_t len, alloc;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	AB_GROW(b->s, b->alloc, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* The buffer's string (new; "" when nothing was added) */
static char *buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : ab_xstrdup("");

	b->s = NULL;
	b->len = b->alloc = 0;
	return s;
}

static struct ab_mark to_mark(yaml_mark_t m)
{
	struct ab_mark out = { (int)m.line + 1, (int)m.column + 1 };
	return out;
}

static int fail(struct ctx *c, yaml_mark_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, yaml_mark_t mark, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->pathlen)
		return ab_error_set(AB_EINVALID, "%s:%zu:%zu: %s: %s", c->file,
				    mark.line + 1, mark.column + 1, c->path, msg);
	return ab_error_set(AB_EINVALID, "%s:%zu:%zu: %s", c->file,
			    mark.line + 1, mark.column + 1, msg);
}

static size_t path_append(struct ctx *c, const char *sep, const char *s)
{
	size_t old = c->pathlen;
	int n = snprintf(c->path + old, sizeof(c->path) - old, "%s%s", sep, s);

	if (n > 0)
		c->pathlen = old + (size_t)n < sizeof(c->path) ? old + (size_t)n
							       : sizeof(c->path) - 1;
	return old;
}

/* Append ".key" (or "key" at the top) to the key path; returns what
 * path_pop() needs to undo it. */
static size_t path_key(struct ctx *c, const char *key)
{
	return path_append(c, c->pathlen ? "." : "", key);
}

static size_t path_index(struct ctx *c, size_t i)
{
	char s[32];

	snprintf(s, sizeof(s), "[%zu]", i);
	return path_append(c, "", s);
}

static void path_pop(struct ctx *c, size_t old)
{
	c->pathlen = old;
	c->path[old] = '\0';
}

static yaml_node_t *node(struct ctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

/* The text of scalar `v`, or NULL when `v` is not a scalar or is a YAML
 * null (empty, "~" or "null" written plain). */
static const char *scalar_text(const yaml_node_t *v)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	const char *s;
	size_t i;

	if (!v || v->type != YAML_SCALAR_NODE)
		return NULL;
	s = (const char *)v->data.scalar.value;
	if (v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		for (i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
			if (!strcmp(s, nulls[i]))
				return NULL;
	return s;
}

static int has_nul(const yaml_node_t *v)
{
	return strlen((const char *)v->data.scalar.value) != v->data.scalar.length;
}

/* The text of scalar `v` (borrowed) into *out, or an error at `mark`
 * saying `expected`. */
static int get_text(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		    const char *expected, int allow_empty, const char **out)
{
	const char *s = scalar_text(v);

	if (!s)
		return fail(c, mark, "%s", expected);
	if (has_nul(v))
		return fail(c, mark, "the value contains a NUL character");
	if (!allow_empty && !*s)
		return fail(c, mark, "expected a non-empty string");
	*out = s;
	return 0;
}

static int get_string(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		      int allow_empty, char **out)
{
	const char *s = NULL;
	int err = get_text(c, mark, v, "expected a string", allow_empty, &s);

	if (!err)
		*out = ab_xstrdup(s);
	return err;
}

static int is_identifier(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') ||
			s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* The candidate closest to `word`, when close enough to be a likely typo
 * (at most 2 edits, and fewer edits than the word has letters); or NULL. */
static const char *suggest(const char *word, const char *const *cands, size_t n)
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

/* Equal as strings, or as numbers when both parse as numbers ("4" and
 * "4.0"): the equality of where: selectors. */
static int values_equal(const char *a, const char *b)
{
	double x, y;

	if (!strcmp(a, b))
		return 1;
	return !ab_parse_double(&x, a) && !ab_parse_double(&y, b) && x == y;
}

/* An entry of a duplicate search: a string, numeric when `isnum`. */
struct entry {
	const char *s;
	double num;
	int isnum;
	size_t index;
};

static int entry_key_cmp(const struct entry *a, const struct entry *b)
{
	if (a->isnum != b->isnum)
		return a->isnum ? -1 : 1;
	if (a->isnum)
		return (a->num > b->num) - (a->num < b->num);
	return strcmp(a->s, b->s);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int r = entry_key_cmp(a, b);

	if (r)
		return r;
	return (a->index > b->index) - (a->index < b->index);
}

/*
 * Find the earliest second occurrence of a value among `n` entries (which
 * are sorted in place; O(n log n), so that huge mappings stay cheap).
 * Returns 1 and sets *dup and *first to original indices, or 0.
 */
static int find_duplicate(struct entry *e, size_t n, size_t *dup, size_t *first)
{
	int found = 0;
	size_t i;

	if (n < 2)
		return 0;
	qsort(e, n, sizeof(*e), entry_cmp);
	for (i = 1; i < n; i++) {
		if (entry_key_cmp(&e[i - 1], &e[i]))
			continue;
		if (i >= 2 && !entry_key_cmp(&e[i - 2], &e[i - 1]))
			continue; /* not the second of its group */
		if (!found || e[i].index < *dup) {
			*dup = e[i].index;
			*first = e[i - 1].index;
			found = 1;
		}
	}
	return found;
}

static const struct key_handler *find_handler(const struct key_handler *known, const char *key)
{
	for (; known->key; known++)
		if (!strcmp(known->key, key))
			return known;
	return NULL;
}

static int unknown_key(struct ctx *c, yaml_mark_t mark, const char *key,
		       const struct key_handler *known)
{
	const char *names[32], *near;
	size_t n = 0;

	if (!strcmp(key, "<<"))
		return fail(c, mark, "unknown key '<<' (YAML merge keys are not supported)");
	for (; known->key && n < sizeof(names) / sizeof(names[0]); known++)
		names[n++] = known->key;
	near = suggest(key, names, n);
	if (near)
		return fail(c, mark, "unknown key '%s'; did you mean '%s'?", key, near);
	return fail(c, mark, "unknown key '%s'", key);
}

/*
 * Check that `map` is a mapping (else an error at `mark` saying
 * `expected`) whose keys are non-empty strings, none repeated and, when
 * `known` is given, all known. Errors come in file order.
 */
static int check_mapping(struct ctx *c, yaml_node_t *map, yaml_mark_t mark,
			 const struct key_handler *known, const char *expected)
{
	yaml_node_pair_t *pairs;
	struct entry *e;
	size_t n, i, dup = 0, first = 0, save;
	int err = 0, has_dup;

	if (!map || map->type != YAML_MAPPING_NODE)
		return fail(c, mark, "%s", expected);
	pairs = map->data.mapping.pairs.start;
	n = (size_t)(map->data.mapping.pairs.top - pairs);
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		yaml_node_t *k = node(c, pairs[i].key);
		const char *s = scalar_text(k);

		if (!s || !*s || has_nul(k)) {
			err = fail(c, k->start_mark, "expected a string key");
			goto out;
		}
		e[i].s = s;
		e[i].index = i;
	}
	has_dup = find_duplicate(e, n, &dup, &first);
	for (i = 0; i < n; i++) {
		yaml_node_t *k = node(c, pairs[i].key);
		const char *s = scalar_text(k);

		save = path_key(c, s);
		if (has_dup && i == dup) {
			yaml_mark_t f = node(c, pairs[first].key)->start_mark;

			err = fail(c, k->start_mark, "duplicate key '%s' (first at %zu:%zu)",
				   s, f.line + 1, f.column + 1);
		} else if (known && !find_handler(known, s)) {
			err = unknown_key(c, k->start_mark, s, known);
		}
		path_pop(c, save);
		if (err)
			goto out;
	}
out:
	free(e);
	return err;
}

/* The pair of `map` whose key is `key`, or NULL */
static yaml_node_pair_t *find_pair(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *s = scalar_text(node(c, p->key));
		if (s && !strcmp(s, key))
			return p;
	}
	return NULL;
}

static size_t npairs(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

static size_t nitems(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

/* Read the keys of mapping `map` (already checked) with `handlers`, in
 * the handlers' order, into the struct at `base`. */
static int read_keys(struct ctx *c, yaml_node_t *map, const struct key_handler *handlers,
		     void *base)
{
	const struct key_handler *h;
	yaml_node_pair_t *p;
	size_t save;
	int err = 0;

	for (h = handlers; h->key && !err; h++) {
		if (!h->fn || !(p = find_pair(c, map, h->key)))
			continue;
		save = path_key(c, h->key);
		err = h->fn(c, (char *)base + h->offset, node(c, p->key), node(c, p->value));
		path_pop(c, save);
	}
	return err;
}

static int missing_key(struct ctx *c, yaml_node_t *map, const char *key)
{
	size_t save = path_key(c, key);
	int err = fail(c, map->start_mark, "required key is missing");

	path_pop(c, save);
	return err;
}

/* Placeholders: "{name}" is a matrix parameter, "{{" and "}}" are braces,
 * anything else is copied as is. */

static long find_param_n(const struct ab_experiment *exp, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < exp->nparams; i++)
		if (exp->matrix[i].name && strlen(exp->matrix[i].name) == n &&
		    !memcmp(exp->matrix[i].name, name, n))
			return (long)i;
	return -1;
}

/*
 * Expand `tmpl` for `row` into `out` (NULL: only check the names).
 * Returns 0, or -1 with *bad and *badlen naming the unknown placeholder.
 */
static int expand_template(struct buf *out, const char *tmpl, const struct ab_experiment *exp,
			   size_t row, const char **bad, size_t *badlen)
{
	const char *s = tmpl, *name;
	size_t n;
	long p;

	while (*s) {
		if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) {
			if (out)
				buf_add(out, s, 1);
			s += 2;
			continue;
		}
		if (s[0] == '{') {
			name = s + 1;
			for (n = 0; name[n] && name[n] != '}' && name[n] != '{'; n++)
				;
			if (name[n] == '}' && is_identifier(name, n)) {
				p = find_param_n(exp, name, n);
				if (p < 0) {
					*bad = name;
					*badlen = n;
					return -1;
				}
				if (out)
					buf_puts(out, ab_experiment_row_value(exp, row, (size_t)p));
				s = name + n + 1;
				continue;
			}
		}
		if (out)
			buf_add(out, s, 1);
		s++;
	}
	return 0;
}

static void list_params(struct buf *b, const struct ab_experiment *exp)
{
	size_t i;

	for (i = 0; i < exp->nparams; i++) {
		if (i)
			buf_puts(b, ", ");
		buf_puts(b, exp->matrix[i].name);
	}
}

static int unknown_param(struct ctx *c, yaml_mark_t mark, const char *what, const char *name)
{
	const struct ab_experiment *exp = c->exp;
	const char **names = ab_xcalloc(exp->nparams, sizeof(*names)), *near;
	struct buf b = { 0 };
	size_t i;
	int err;

	for (i = 0; i < exp->nparams; i++)
		names[i] = exp->matrix[i].name;
	near = suggest(name, names, exp->nparams);
	if (exp->nparams == 0)
		err = fail(c, mark, "%s '%s': the experiment has no matrix", what, name);
	else if (near)
		err = fail(c, mark, "%s '%s'; did you mean '%s'?", what, name, near);
	else {
		list_params(&b, exp);
		err = fail(c, mark, "%s '%s'; matrix parameters are: %s", what, name, b.s);
	}
	free(b.s);
	free(names);
	return err;
}

static int check_placeholders(struct ctx *c, yaml_mark_t mark, const char *tmpl)
{
	const struct ab_experiment *exp = c->exp;
	const char **names, *near, *bad;
	struct buf b = { 0 };
	char *name;
	size_t n, i;
	int err;

	if (!expand_template(NULL, tmpl, exp, 0, &bad, &n))
		return 0;
	name = ab_xstrndup(bad, n);
	names = ab_xcalloc(exp->nparams, sizeof(*names));
	for (i = 0; i < exp->nparams; i++)
		names[i] = exp->matrix[i].name;
	near = suggest(name, names, exp->nparams);
	if (near) {
		err = fail(c, mark, "unknown placeholder '{%s}'; did you mean '{%s}'?", name, near);
	} else {
		if (exp->nparams) {
			buf_puts(&b, "matrix parameters are: ");
			list_params(&b, exp);
		} else {
			buf_puts(&b, "the experiment has no matrix");
		}
		err = fail(c, mark, "unknown placeholder '{%s}'; %s (write {{ and }} for literal braces)",
			   name, b.s);
	}
	free(b.s);
	free(names);
	free(name);
	return err;
}

/* Value readers. Each reports at the key `k`, whose path is pushed. */

static int h_string(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_string(c, k->start_mark, v, 0, field);
}

static int h_bool(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };
	const char *s = scalar_text(v);
	size_t i;

	for (i = 0; s && i < 3; i++) {
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			*(int *)field = !strcmp(s, yes[i]);
			return 0;
		}
	}
	return fail(c, k->start_mark, "expected true or false");
}

static int get_int(struct ctx *c, yaml_node_t *k, yaml_node_t *v, int min, int max, int *out)
{
	const char *s = scalar_text(v);
	int64_t x;

	if (!s || ab_parse_int64(&x, s) || x < min || x > max)
		return fail(c, k->start_mark, "expected an integer from %d to %d", min, max);
	*out = (int)x;
	return 0;
}

static int h_pairs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_int(c, k, v, 1, 100000, field);
}

static int h_warmup(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_int(c, k, v, 0, 1000, field);
}

static int h_duration(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = scalar_text(v);

	if (!s || ab_parse_duration_ms(field, s))
		return fail(c, k->start_mark, "expected a duration like 500ms, 60s or 10m");
	return 0;
}

static int h_percent(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = scalar_text(v);

	if (!s || ab_parse_percent(field, s))
		return fail(c, k->start_mark, "expected a percentage like 5%%");
	return 0;
}

/* A relative path without "..": it stays inside the tree. */
static int inside_tree(const char *p)
{
	const char *s = p, *e;

	if (p[0] == '/')
		return 0;
	for (; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (e - s == 2 && s[0] == '.' && s[1] == '.')
			return 0;
	}
	return 1;
}

static int get_tree_path(struct ctx *c, yaml_mark_t mark, yaml_node_t *v, char **out)
{
	int err = get_string(c, mark, v, 0, out);

	if (!err && !inside_tree(*out)) {
		free(*out);
		*out = NULL;
		err = fail(c, mark, "expected a path inside the tree (relative, without '..')");
	}
	return err;
}

static int h_tree_path(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_tree_path(c, k->start_mark, v, field);
}

static int h_repo(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	(void)field;
	c->exp->repo_mark = to_mark(v->start_mark);
	return get_text(c, k->start_mark, v, "expected a string", 0, &c->repo);
}

static int h_artifacts(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n, i, save;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return fail(c, k->start_mark, "expected a list of strings");
	n = nitems(v);
	if (n == 0)
		return 0;
	exp->artifacts = ab_xcalloc(n + 1, sizeof(*exp->artifacts));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = node(c, v->data.sequence.items.start[i]);

		save = path_index(c, i);
		err = get_tree_path(c, item->start_mark, item, &exp->artifacts[i]);
		path_pop(c, save);
		if (!err)
			exp->nartifacts++;
	}
	return err;
}

static int get_command(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct ab_command *out)
{
	size_t n, i, save;
	int err = 0;

	if (v && v->type == YAML_SEQUENCE_NODE) {
		n = nitems(v);
		if (n == 0)
			return fail(c, k->start_mark, "expected a non-empty list of strings");
		out->argv = ab_xcalloc(n + 1, sizeof(*out->argv));
		for (i = 0; i < n && !err; i++) {
			yaml_node_t *item = node(c, v->data.sequence.items.start[i]);

			save = path_index(c, i);
			/* argv[0] names the program; later arguments may be empty */
			err = get_string(c, item->start_mark, item, i > 0, &out->argv[i]);
			path_pop(c, save);
			if (!err)
				out->argc++;
		}
		return err;
	}
	if (!scalar_text(v))
		return fail(c, k->start_mark, "expected a string or a list of strings");
	return get_string(c, k->start_mark, v, 0, &out->shell);
}

static int h_command(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_command(c, k, v, field);
}

/* The benchmark: a command whose {param} placeholders name matrix
 * parameters (read after `matrix`). */
static int h_benchmark(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_command *cmd = field;
	size_t i, save;
	int err = get_command(c, k, v, cmd);

	if (err)
		return err;
	if (cmd->shell)
		return check_placeholders(c, k->start_mark, cmd->shell);
	for (i = 0; i < cmd->argc && !err; i++) {
		save = path_index(c, i);
		err = check_placeholders(c, node(c, v->data.sequence.items.start[i])->start_mark,
					 cmd->argv[i]);
		path_pop(c, save);
	}
	return err;
}

static int h_env(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	const char *name, *value = NULL;
	size_t save;
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, NULL, "expected a mapping of NAME: value");
	if (err)
		return err;
	exp->env = ab_xcalloc(npairs(v) + 1, sizeof(*exp->env));
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = node(c, p->key);

		name = scalar_text(pk);
		save = path_key(c, name);
		if (!is_identifier(name, strlen(name)))
			err = fail(c, pk->start_mark, "'%s' is not a valid environment variable name "
				   "(letters, digits and _, not starting with a digit)", name);
		else
			err = get_text(c, pk->start_mark, node(c, p->value),
				       "expected a string value (write '' for an empty one)", 1, &value);
		if (!err)
			exp->env[exp->nenv++] = ab_xasprintf("%s=%s", name, value);
		path_pop(c, save);
	}
	return err;
}

static int check_regex(struct ctx *c, yaml_mark_t mark, const char *re)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE offset;
	pcre2_code *code;
	uint32_t groups = 0;
	int errcode;

	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &errcode,
			     &offset, NULL);
	if (!code) {
		if (pcre2_get_error_message(errcode, msg, sizeof(msg)) < 0)
			strcpy((char *)msg, "unknown error");
		return fail(c, mark, "invalid regex at offset %zu: %s", (size_t)offset,
			    (const char *)msg);
	}
	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
	pcre2_code_free(code);
	if (groups == 0)
		return fail(c, mark, "the regex has no capture group; put the value to extract in ( )");
	return 0;
}

static const struct key_handler checksum_keys[] = {
	{ "regex", NULL, 0 }, { "stdout", NULL, 0 }, { "json", NULL, 0 }, { "file", NULL, 0 },
	{ NULL, NULL, 0 },
};

static int h_checksum(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	static const enum ab_checksum_kind kinds[] = {
		AB_CHECKSUM_REGEX, AB_CHECKSUM_STDOUT_SHA256, AB_CHECKSUM_JSON, AB_CHECKSUM_FILE,
	};
	struct ab_checksum *cs = field;
	yaml_node_t *pk, *pv;
	const char *key, *kind = NULL, *s;
	size_t i, save;
	int err;

	err = check_mapping(c, v, k->start_mark, checksum_keys,
			    "expected a mapping with one of regex, stdout, json or file");
	if (err)
		return err;
	if (npairs(v) == 0)
		return fail(c, k->start_mark, "expected one of regex, stdout, json or file");
	pk = node(c, v->data.mapping.pairs.start[0].key);
	pv = node(c, v->data.mapping.pairs.start[0].value);
	if (npairs(v) > 1) {
		kind = scalar_text(pk);
		pk = node(c, v->data.mapping.pairs.start[1].key);
		key = scalar_text(pk);
		save = path_key(c, key);
		err = fail(c, pk->start_mark, "give only one of regex, stdout, json or file "
			   "('%s' is already given)", kind);
		path_pop(c, save);
		return err;
	}
	key = scalar_text(pk);
	save = path_key(c, key);
	for (i = 0; strcmp(checksum_keys[i].key, key); i++)
		;
	cs->kind = kinds[i];
	if (cs->kind == AB_CHECKSUM_STDOUT_SHA256) {
		s = scalar_text(pv);
		if (!s || strcmp(s, "sha256"))
			err = fail(c, pk->start_mark, "expected sha256");
	} else {
		err = get_string(c, pk->start_mark, pv, 0, &cs->arg);
		if (!err && cs->kind == AB_CHECKSUM_REGEX)
			err = check_regex(c, pk->start_mark, cs->arg);
	}
	path_pop(c, save);
	return err;
}

static int h_matrix(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct entry *e = NULL;
	size_t i, j, n, save, save2, dup, first, rows = 1;
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of parameter: [values]");
	if (err)
		return err;
	if (npairs(v) == 0)
		return fail(c, k->start_mark, "expected at least one parameter "
			    "(leave out matrix: for a single row)");
	exp->matrix = ab_xcalloc(npairs(v), sizeof(*exp->matrix));
	exp->nparams = npairs(v);
	for (i = 0; i < exp->nparams && !err; i++) {
		struct ab_param *p = &exp->matrix[i];
		yaml_node_t *pk = node(c, v->data.mapping.pairs.start[i].key);
		yaml_node_t *pv = node(c, v->data.mapping.pairs.start[i].value);
		const char *name = scalar_text(pk), *text = NULL;

		save = path_key(c, name);
		if (!is_identifier(name, strlen(name))) {
			err = fail(c, pk->start_mark, "'%s' is not a valid parameter name "
				   "(letters, digits and _, not starting with a digit)", name);
			goto next;
		}
		p->name = ab_xstrdup(name);
		if (pv->type == YAML_SEQUENCE_NODE) {
			n = nitems(pv);
			if (n == 0) {
				err = fail(c, pk->start_mark, "expected a value or a non-empty list of values");
				goto next;
			}
			p->values = ab_xcalloc(n, sizeof(*p->values));
			for (j = 0; j < n && !err; j++) {
				yaml_node_t *item = node(c, pv->data.sequence.items.start[j]);

				save2 = path_index(c, j);
				err = get_text(c, item->start_mark, item,
					       "expected a value (a string or a number)", 1, &text);
				if (!err)
					p->values[p->nvalues++] = ab_xstrdup(text);
				path_pop(c, save2);
			}
		} else {
			p->values = ab_xcalloc(1, sizeof(*p->values));
			if (!scalar_text(pv))
				err = fail(c, pk->start_mark, "expected a value or a non-empty list of values");
			else
				err = get_string(c, pk->start_mark, pv, 1, &p->values[0]);
			if (!err)
				p->nvalues = 1;
		}
		if (err)
			goto next;
		e = ab_xcalloc(p->nvalues, sizeof(*e));
		for (j = 0; j < p->nvalues; j++) {
			e[j].s = p->values[j];
			e[j].isnum = !ab_parse_double(&e[j].num, p->values[j]);
			e[j].index = j;
		}
		if (find_duplicate(e, p->nvalues, &dup, &first)) {
			save2 = path_index(c, dup);
			err = fail(c, node(c, pv->data.sequence.items.start[dup])->start_mark,
				   "duplicate value '%s' (same as %s.%s[%zu])",
				   p->values[dup], "matrix", name, first);
			path_pop(c, save2);
		}
		free(e);
		e = NULL;
		if (!err && rows > MAX_ROWS / p->nvalues)
			err = fail(c, pk->start_mark, "the matrix has more than %d rows", MAX_ROWS);
		rows *= p->nvalues;
next:
		path_pop(c, save);
	}
	return err;
}

static const char *const builtin_names[] = {
	"wall_ns", "user_ns", "sys_ns", "cpu_ns", "maxrss_bytes",
};

/* Builtins measured only when the experiment names them (they change how
 * samples run): hardware counters, and instruction counts under valgrind. */
static const struct {
	const char *name;
	enum ab_metric_source source;
} optional_builtins[] = {
	{ "instructions", AB_METRIC_PERF },
	{ "cycles", AB_METRIC_PERF },
	{ "cachegrind_instructions", AB_METRIC_CACHEGRIND },
};

/* Add an optional builtin metric when `name` is one; 1 if it was added. */
static int add_optional_builtin(struct ab_experiment *exp, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(optional_builtins) / sizeof(optional_builtins[0]); i++) {
		struct ab_metric *m;
		if (strcmp(name, optional_builtins[i].name))
			continue;
		exp->metrics = ab_xrealloc(exp->metrics, (exp->nmetrics + 1) * sizeof(*exp->metrics));
		m = &exp->metrics[exp->nmetrics++];
		memset(m, 0, sizeof(*m));
		m->name = ab_xstrdup(name);
		m->unit = ab_xstrdup("count");
		m->better = AB_LOWER_IS_BETTER;
		m->source = optional_builtins[i].source;
		return 1;
	}
	return 0;
}

static const struct key_handler metric_keys[] = {
	{ "regex", NULL, 0 }, { "json", NULL, 0 }, { "unit", NULL, 0 }, { "better", NULL, 0 },
	{ NULL, NULL, 0 },
};

static int read_metric(struct ctx *c, yaml_node_t *pk, yaml_node_t *pv, struct ab_metric *m)
{
	yaml_node_pair_t *re, *js, *unit, *better, *src;
	const char *s;
	size_t save;
	int err;

	err = check_mapping(c, pv, pk->start_mark, metric_keys,
			    "expected a mapping like {regex: 'ops=(\\S+)', better: higher}");
	if (err)
		return err;
	re = find_pair(c, pv, "regex");
	js = find_pair(c, pv, "json");
	unit = find_pair(c, pv, "unit");
	better = find_pair(c, pv, "better");
	if (re && js) {
		src = re > js ? re : js;
		save = path_key(c, re > js ? "regex" : "json");
		err = fail(c, node(c, src->key)->start_mark,
			   "give only one of regex or json ('%s' is already given)",
			   re > js ? "json" : "regex");
		path_pop(c, save);
		return err;
	}
	if (!re && !js)
		return fail(c, pv->start_mark, "expected regex or json to say where the value comes from");
	if (!better)
		return missing_key(c, pv, "better");
	src = re ? re : js;
	m->source = re ? AB_METRIC_REGEX : AB_METRIC_JSON;
	save = path_key(c, re ? "regex" : "json");
	err = get_string(c, node(c, src->key)->start_mark, node(c, src->value), 0, &m->pattern);
	if (!err && re)
		err = check_regex(c, node(c, src->key)->start_mark, m->pattern);
	path_pop(c, save);
	if (err)
		return err;
	if (unit) {
		save = path_key(c, "unit");
		err = get_string(c, node(c, unit->key)->start_mark, node(c, unit->value), 1, &m->unit);
		path_pop(c, save);
		if (err)
			return err;
	} else {
		m->unit = ab_xstrdup("");
	}
	save = path_key(c, "better");
	s = scalar_text(node(c, better->value));
	if (s && !strcmp(s, "lower"))
		m->better = AB_LOWER_IS_BETTER;
	else if (s && !strcmp(s, "higher"))
		m->better = AB_HIGHER_IS_BETTER;
	else
		err = fail(c, node(c, better->key)->start_mark, "expected lower or higher");
	path_pop(c, save);
	return err;
}

static int h_metrics(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t alloc = exp->nmetrics, save, i;
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of metric names to {regex or json, unit, better}");
	if (err)
		return err;
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = node(c, p->key);
		const char *name = scalar_text(pk);
		struct ab_metric *m;

		save = path_key(c, name);
		for (i = 0; i < sizeof(builtin_names) / sizeof(builtin_names[0]); i++)
			if (!strcmp(name, builtin_names[i]))
				break;
		if (i < sizeof(builtin_names) / sizeof(builtin_names[0]) || !strcmp(name, "instructions") ||
		    !strcmp(name, "cycles") || !strcmp(name, "cachegrind_instructions")) {
			err = fail(c, pk->start_mark, "'%s' is a builtin metric; choose another name", name);
		} else if (!is_identifier(name, strlen(name))) {
			err = fail(c, pk->start_mark, "'%s' is not a valid metric name "
				   "(letters, digits and _, not starting with a digit)", name);
		} else {
			AB_GROW(exp->metrics, alloc, exp->nmetrics + 1);
			m = &exp->metrics[exp->nmetrics++];
			memset(m, 0, sizeof(*m));
			m->name = ab_xstrdup(name);
			m->mark = to_mark(pk->start_mark);
			err = read_metric(c, pk, node(c, p->value), m);
		}
		path_pop(c, save);
	}
	return err;
}

static int check_metric(struct ctx *c, yaml_mark_t mark, const char *name)
{
	const struct ab_experiment *exp = c->exp;
	const char **names, *near;
	struct buf b = { 0 };
	size_t i;
	int err;

	if (ab_experiment_metric(exp, name) || add_optional_builtin(c->exp, name))
		return 0;
	names = ab_xcalloc(exp->nmetrics, sizeof(*names));
	for (i = 0; i < exp->nmetrics; i++) {
		names[i] = exp->metrics[i].name;
		if (i)
			buf_puts(&b, ", ");
		buf_puts(&b, names[i]);
	}
	near = suggest(name, names, exp->nmetrics);
	if (near)
		err = fail(c, mark, "unknown metric '%s'; did you mean '%s'?", name, near);
	else
		err = fail(c, mark, "unknown metric '%s'; metrics are: %s", name, b.s);
	free(b.s);
	free(names);
	return err;
}

/* `metric:` of the experiment or of a rule (read after `metrics`) */
static int h_metric(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	char **out = field;
	int err = get_string(c, k->start_mark, v, 0, out);

	if (!err)
		err = check_metric(c, k->start_mark, *out);
	return err;
}

static const struct key_handler scaling_keys[] = {
	{ "parameter", NULL, 0 }, { "work", NULL, 0 }, { NULL, NULL, 0 },
};

static int h_scaling(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *pp, *pw;
	const struct ab_param *param;
	const char *name, *work;
	double x;
	size_t save, i;
	long idx;
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, scaling_keys,
			    "expected a mapping like {parameter: lanes, work: per_lane}");
	if (err)
		return err;
	if (!(pp = find_pair(c, v, "parameter")))
		return missing_key(c, v, "parameter");
	if (!(pw = find_pair(c, v, "work")))
		return missing_key(c, v, "work");

	save = path_key(c, "parameter");
	err = get_text(c, node(c, pp->key)->start_mark, node(c, pp->value),
		       "expected the name of a matrix parameter", 0, &name);
	if (err)
		goto out;
	idx = ab_experiment_param(exp, name);
	if (idx < 0) {
		err = unknown_param(c, node(c, pp->key)->start_mark, "unknown matrix parameter", name);
		goto out;
	}
	param = &exp->matrix[idx];
	for (i = 0; i < param->nvalues; i++) {
		if (ab_parse_double(&x, param->values[i]) || x <= 0) {
			err = fail(c, node(c, pp->key)->start_mark,
				   "matrix parameter '%s' has the value '%s', not a positive number",
				   name, param->values[i]);
			goto out;
		}
	}
	exp->scaling_param = ab_xstrdup(name);
	path_pop(c, save);

	save = path_key(c, "work");
	work = scalar_text(node(c, pw->value));
	if (work && !strcmp(work, "per_lane"))
		exp->scaling_work = AB_SCALING_PER_LANE;
	else if (work && !strcmp(work, "total"))
		exp->scaling_work = AB_SCALING_TOTAL;
	else
		err = fail(c, node(c, pw->key)->start_mark, "expected per_lane or total");
out:
	path_pop(c, save);
	return err;
}

/* Rules */

static int read_cond(struct ctx *c, yaml_mark_t mark, yaml_node_t *v,
		     const struct ab_param *param, struct ab_cond *out)
{
	static const struct { const char *text; enum ab_cmp op; } ops[] = {
		{ ">=", AB_CMP_GE }, { "<=", AB_CMP_LE }, { "==", AB_CMP_EQ },
		{ ">", AB_CMP_GT }, { "<", AB_CMP_LT },
	};
	const char *s = NULL, *operand, *optext = NULL;
	enum ab_cmp op = AB_CMP_EQ;
	struct buf b = { 0 };
	double x;
	size_t i;
	int err;

	err = get_text(c, mark, v, "expected a value or a comparison like \">=4\"", 1, &s);
	if (err)
		return err;
	operand = s;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!strncmp(s, ops[i].text, strlen(ops[i].text))) {
			op = ops[i].op;
			optext = ops[i].text;
			operand = s + strlen(optext);
			while (*operand == ' ')
				operand++;
			break;
		}
	}
	if (op != AB_CMP_EQ && ab_parse_double(&x, operand))
		return fail(c, mark, "expected a number after '%s', not '%s'", optext, operand);
	if (op == AB_CMP_EQ) {
		for (i = 0; i < param->nvalues; i++)
			if (values_equal(param->values[i], operand))
				break;
		if (i == param->nvalues) {
			for (i = 0; i < param->nvalues; i++) {
				buf_puts(&b, i ? ", " : "");
				buf_puts(&b, param->values[i]);
			}
			err = fail(c, mark, "no row has %s = %s; its values are %s",
				   param->name, operand, b.s);
			free(b.s);
			return err;
		}
	}
	out->op = op;
	out->value = ab_xstrdup(operand);
	return 0;
}

static int h_where(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	struct ab_selector *sel = field;
	yaml_node_pair_t *p;
	size_t save, save2, n, j, row, nrows;
	int err;

	c->rule->where_mark = to_mark(k->start_mark);
	err = check_mapping(c, v, k->start_mark, NULL,
			    "expected a mapping of parameter: value or [values]");
	if (err)
		return err;
	sel->terms = ab_xcalloc(npairs(v), sizeof(*sel->terms));
	for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top && !err; p++) {
		yaml_node_t *pk = node(c, p->key), *pv = node(c, p->value);
		const char *name = scalar_text(pk);
		struct ab_where_term *t;
		long idx;

		save = path_key(c, name);
		idx = ab_experiment_param(exp, name);
		if (idx < 0) {
			err = unknown_param(c, pk->start_mark, "unknown matrix parameter", name);
			goto next;
		}
		t = &sel->terms[sel->nterms++];
		t->param = (size_t)idx;
		t->mark = to_mark(pk->start_mark);
		if (pv->type != YAML_SEQUENCE_NODE) {
			t->conds = ab_xcalloc(1, sizeof(*t->conds));
			err = read_cond(c, pk->start_mark, pv, &exp->matrix[idx], &t->conds[0]);
			if (!err)
				t->nconds = 1;
			goto next;
		}
		n = nitems(pv);
		if (n == 0) {
			err = fail(c, pk->start_mark, "expected a value or a non-empty list of values");
			goto next;
		}
		t->conds = ab_xcalloc(n, sizeof(*t->conds));
		for (j = 0; j < n && !err; j++) {
			yaml_node_t *item = node(c, pv->data.sequence.items.start[j]);

			save2 = path_index(c, j);
			err = read_cond(c, item->start_mark, item, &exp->matrix[idx],
					&t->conds[t->nconds]);
			if (!err)
				t->nconds++;
			path_pop(c, save2);
		}
next:
		path_pop(c, save);
	}
	if (err)
		return err;
	nrows = ab_experiment_nrows(exp);
	for (row = 0; row < nrows; row++)
		if (ab_selector_match(sel, exp, row))
			return 0;
	return fail(c, k->start_mark, "selects no row of the matrix; compare it with the values "
		    "under 'matrix:'");
}

static int h_min_pair_wins(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_rule *r = c->rule;
	const char *s = scalar_text(v);
	int64_t n;
	double f;

	(void)field;
	if (s && !ab_parse_int64(&n, s) && n >= 1) {
		r->min_pair_wins = n;
		return 0;
	}
	if (s && !ab_parse_percent(&f, s) && f > 0 && f <= 1) {
		r->min_pair_wins_frac = f;
		return 0;
	}
	return fail(c, k->start_mark, "expected a count of pairs like 7 or a percentage like 90%%");
}

static int get_positive(struct ctx *c, yaml_mark_t mark, yaml_node_t *v, double *out)
{
	const char *s = scalar_text(v);

	if (!s || ab_parse_double(out, s) || !(*out > 0))
		return fail(c, mark, "expected a positive ratio like 1.01");
	return 0;
}

static const struct key_handler ratio_keys[] = {
	{ "bound", NULL, 0 }, { "estimate", NULL, 0 }, { NULL, NULL, 0 },
};

/* max_ratio / min_ratio: a number or {bound: r} decides on the interval,
 * {estimate: r} on the point estimate (observational). */
static int h_ratio(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_rule *r = c->rule;
	double *bound = field;
	double *estimate = bound == &r->max_ratio ? &r->max_ratio_estimate : &r->min_ratio_estimate;
	yaml_node_pair_t *p;
	size_t save;
	int err;

	if (!v || v->type != YAML_MAPPING_NODE)
		return get_positive(c, k->start_mark, v, bound);
	err = check_mapping(c, v, k->start_mark, ratio_keys,
			    "expected a ratio like 1.01, {bound: 1.01} or {estimate: 1.01}");
	if (err)
		return err;
	if (npairs(v) != 1)
		return fail(c, k->start_mark, "expected exactly one of bound or estimate");
	p = v->data.mapping.pairs.start;
	save = path_key(c, scalar_text(node(c, p->key)));
	err = get_positive(c, node(c, p->key)->start_mark, node(c, p->value),
			   !strcmp(scalar_text(node(c, p->key)), "bound") ? bound : estimate);
	path_pop(c, save);
	return err;
}

static const struct key_handler side_keys[] = {
	{ "parent", NULL, 0 }, { "candidate", NULL, 0 }, { NULL, NULL, 0 },
};

/* min_scaling: s (the candidate) or {candidate: s, parent: s}. Needs
 * `scaling:`, which is read before `accept`. */
static int h_min_scaling(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_rule *r = c->rule;
	yaml_node_pair_t *p;
	size_t save;
	int err = 0;

	(void)field;
	if (!c->exp->scaling_param)
		return fail(c, k->start_mark, "needs 'scaling:' in the experiment (which parameter, "
			    "and per_lane or total work)");
	if (!v || v->type != YAML_MAPPING_NODE)
		return get_positive(c, k->start_mark, v, &r->min_scaling_candidate);
	err = check_mapping(c, v, k->start_mark, side_keys,
			    "expected a scaling like 1.0 or {candidate: 1.0, parent: 0.9}");
	for (p = v->data.mapping.pairs.start; !err && p < v->data.mapping.pairs.top; p++) {
		const char *side = scalar_text(node(c, p->key));
		save = path_key(c, side);
		err = get_positive(c, node(c, p->key)->start_mark, node(c, p->value),
				   !strcmp(side, "parent") ? &r->min_scaling_parent
							   : &r->min_scaling_candidate);
		path_pop(c, save);
	}
	return err;
}

static int h_scaling_not_worse(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	if (!c->exp->scaling_param)
		return fail(c, k->start_mark, "needs 'scaling:' in the experiment (which parameter, "
			    "and per_lane or total work)");
	return h_percent(c, field, k, v);
}

static int h_checksum_policy(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = scalar_text(v);

	if (s && !strcmp(s, "must_match"))
		*(int *)field = 0;
	else if (s && !strcmp(s, "may_change"))
		*(int *)field = 1;
	else
		return fail(c, k->start_mark, "expected must_match or may_change");
	return 0;
}

static int h_allow_failed_pairs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return get_int(c, k, v, 0, 100000, field);
}

static int h_max_flagged(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = scalar_text(v);
	int64_t n;

	if (!s || ab_parse_int64(&n, s) || n < 0 || n > 1000000)
		return fail(c, k->start_mark, "expected a count of samples from 0 upwards");
	*(int64_t *)field = n;
	return 0;
}

#define RULE_KEY(key, fn) { #key, fn, offsetof(struct ab_rule, key) }
static const struct key_handler rule_keys[] = {
	RULE_KEY(name, h_string),
	RULE_KEY(where, h_where),
	RULE_KEY(metric, h_metric),
	RULE_KEY(no_regression, h_percent),
	RULE_KEY(faster_by, h_percent),
	RULE_KEY(slower_by, h_percent),
	RULE_KEY(min_pair_wins, h_min_pair_wins),
	RULE_KEY(max_ratio, h_ratio),
	RULE_KEY(min_ratio, h_ratio),
	{ "min_scaling", h_min_scaling, 0 },
	RULE_KEY(scaling_not_worse, h_scaling_not_worse),
	RULE_KEY(max_rsd, h_percent),
	RULE_KEY(max_ci_width, h_percent),
	{ "checksum", h_checksum_policy, offsetof(struct ab_rule, checksum_may_change) },
	RULE_KEY(allow_failed_pairs, h_allow_failed_pairs),
	{ "max_flagged_samples", h_max_flagged, offsetof(struct ab_rule, max_flagged_samples) },
	{ NULL, NULL, 0 },
};

static int read_rule(struct ctx *c, yaml_node_t *v, struct ab_rule *r, yaml_mark_t *name_mark)
{
	yaml_node_pair_t *name;
	int err;

	r->mark = to_mark(v->start_mark);
	r->where_mark = r->mark;
	err = check_mapping(c, v, v->start_mark, rule_keys,
			    "expected a mapping with a name and a predicate like faster_by: 5%");
	if (err)
		return err;
	if (!(name = find_pair(c, v, "name")))
		return missing_key(c, v, "name");
	*name_mark = node(c, name->key)->start_mark;
	c->rule = r;
	err = read_keys(c, v, rule_keys, r);
	c->rule = NULL;
	if (err)
		return err;
	if (isnan(r->no_regression) && isnan(r->faster_by) && isnan(r->slower_by) &&
	    r->min_pair_wins < 0 && isnan(r->min_pair_wins_frac) && isnan(r->max_ratio) &&
	    isnan(r->min_ratio) && isnan(r->max_ratio_estimate) && isnan(r->min_ratio_estimate) &&
	    isnan(r->min_scaling_parent) && isnan(r->min_scaling_candidate) &&
	    isnan(r->scaling_not_worse) && isnan(r->max_rsd) && isnan(r->max_ci_width) &&
	    r->checksum_may_change < 0 && r->allow_failed_pairs < 0 && r->max_flagged_samples < 0)
		return fail(c, v->start_mark, "rule has no predicate; add one of no_regression, "
			    "faster_by, slower_by, min_pair_wins, max_ratio, min_ratio, min_scaling, "
			    "scaling_not_worse, max_rsd, max_ci_width, max_flagged_samples, checksum or "
			    "allow_failed_pairs");
	return 0;
}

static int h_accept(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_mark_t *marks;
	struct entry *e;
	size_t n, i, save, dup, first;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return fail(c, k->start_mark, "expected a list of rules");
	n = nitems(v);
	if (n == 0)
		return 0;
	exp->rules = ab_xcalloc(n, sizeof(*exp->rules));
	for (i = 0; i < n; i++) {
		struct ab_rule *r = &exp->rules[i];

		r->no_regression = r->faster_by = r->slower_by = NAN;
		r->max_rsd = r->max_ci_width = r->min_pair_wins_frac = NAN;
		r->max_ratio = r->min_ratio = r->max_ratio_estimate = r->min_ratio_estimate = NAN;
		r->min_scaling_parent = r->min_scaling_candidate = r->scaling_not_worse = NAN;
		r->min_pair_wins = -1;
		r->checksum_may_change = -1;
		r->allow_failed_pairs = -1;
		r->max_flagged_samples = -1;
	}
	exp->nrules = n;
	marks = ab_xcalloc(n, sizeof(*marks));
	for (i = 0; i < n && !err; i++) {
		save = path_index(c, i);
		err = read_rule(c, node(c, v->data.sequence.items.start[i]), &exp->rules[i], &marks[i]);
		path_pop(c, save);
	}
	if (err)
		goto out;
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].s = exp->rules[i].name;
		e[i].index = i;
	}
	if (find_duplicate(e, n, &dup, &first)) {
		save = path_index(c, dup);
		path_key(c, "name");
		err = fail(c, marks[dup], "duplicate rule name '%s' (first at accept[%zu])",
			   exp->rules[dup].name, first);
		path_pop(c, save);
	}
	free(e);
out:
	free(marks);
	return err;
}

/* A path inside the tree as the tree sees it, to compare paths: empty and
 * "." segments dropped, so "bench/", "./bench" and "bench" are one path
 * (new string). */
static char *tree_path_key(const char *p)
{
	char *out = ab_xmalloc(strlen(p) + 1), *w = out;
	const char *s, *e;

	for (s = p; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (e == s || (e - s == 1 && s[0] == '.'))
			continue;
		if (w != out)
			*w++ = '/';
		memcpy(w, s, (size_t)(e - s));
		w += e - s;
	}
	*w = '\0';
	return out;
}

/* A list of paths inside the tree (overlay:), each once: a path given
 * twice is an error at its second place. */
static int read_path_list(struct ctx *c, yaml_node_t *k, yaml_node_t *v, char ***out)
{
	struct entry *e;
	size_t n, i, save, dup, first;
	int err = 0;

	if (!v || v->type != YAML_SEQUENCE_NODE || nitems(v) == 0)
		return fail(c, k->start_mark, "expected a non-empty list of paths");
	n = nitems(v);
	*out = ab_xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = node(c, v->data.sequence.items.start[i]);
		save = path_index(c, i);
		err = get_tree_path(c, item->start_mark, item, &(*out)[i]);
		path_pop(c, save);
	}
	if (err)
		return err;
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].s = tree_path_key((*out)[i]);
		e[i].index = i;
	}
	if (find_duplicate(e, n, &dup, &first)) {
		yaml_mark_t at = node(c, v->data.sequence.items.start[dup])->start_mark;
		yaml_mark_t was = node(c, v->data.sequence.items.start[first])->start_mark;

		save = path_index(c, dup);
		if (!strcmp((*out)[dup], (*out)[first]))
			err = fail(c, at, "duplicate path '%s' (first at %zu:%zu); list each path once",
				   (*out)[dup], was.line + 1, was.column + 1);
		else
			err = fail(c, at, "duplicate path '%s': the same as '%s' (first at %zu:%zu); list each "
				   "path once", (*out)[dup], (*out)[first], was.line + 1, was.column + 1);
		path_pop(c, save);
	}
	for (i = 0; i < n; i++)
		free((char *)e[i].s);
	free(e);
	return err;
}

static const struct key_handler overlay_keys[] = {
	{ "from", NULL, 0 }, { "paths", NULL, 0 }, { NULL, NULL, 0 },
};

/* overlay: [paths] (from the candidate) or {from: REV, paths: [...]} */
static int h_overlay(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int err;

	(void)field;
	exp->overlay_mark = to_mark(k->start_mark);
	if (v && v->type == YAML_SEQUENCE_NODE) {
		exp->overlay_from = ab_xstrdup("candidate");
		return read_path_list(c, k, v, &exp->overlay_paths);
	}
	err = check_mapping(c, v, k->start_mark, overlay_keys,
			    "expected a list of paths, or {from: candidate, paths: [...]}");
	if (err)
		return err;
	if (!(p = find_pair(c, v, "paths")))
		return missing_key(c, v, "paths");
	save = path_key(c, "paths");
	err = read_path_list(c, node(c, p->key), node(c, p->value), &exp->overlay_paths);
	path_pop(c, save);
	if (err)
		return err;
	if ((p = find_pair(c, v, "from"))) {
		save = path_key(c, "from");
		err = get_string(c, node(c, p->key)->start_mark, node(c, p->value), 0, &exp->overlay_from);
		path_pop(c, save);
	} else {
		exp->overlay_from = ab_xstrdup("candidate");
	}
	return err;
}

static const struct key_handler dependency_keys[] = {
	{ "name", NULL, 0 }, { "repo", NULL, 0 }, { "candidate", NULL, 0 }, { "parent", NULL, 0 },
	{ "exact_parent", NULL, 0 }, { "path", NULL, 0 }, { "env", NULL, 0 }, { NULL, NULL, 0 },
};

/* An optional string key of mapping `v` into *out (left NULL when absent). */
static int optional_string(struct ctx *c, yaml_node_t *v, const char *key, char **out)
{
	yaml_node_pair_t *p = find_pair(c, v, key);
	size_t save;
	int err;

	if (!p)
		return 0;
	save = path_key(c, key);
	err = get_string(c, node(c, p->key)->start_mark, node(c, p->value), 0, out);
	path_pop(c, save);
	return err;
}

static int read_dependency(struct ctx *c, yaml_node_t *v, struct ab_dependency *d)
{
	yaml_node_pair_t *p;
	const char *repo;
	size_t save;
	int err;

	d->mark = to_mark(v->start_mark);
	err = check_mapping(c, v, v->start_mark, dependency_keys,
			    "expected a mapping like {name: gc, repo: ../gc, path: deps/gc}");
	if (err)
		return err;
	if (!(p = find_pair(c, v, "name")))
		return missing_key(c, v, "name");
	save = path_key(c, "name");
	err = get_string(c, node(c, p->key)->start_mark, node(c, p->value), 0, &d->name);
	if (!err && !is_identifier(d->name, strlen(d->name)))
		err = fail(c, node(c, p->key)->start_mark, "expected a name of letters, digits and '_'");
	path_pop(c, save);
	if (err)
		return err;
	if (!(p = find_pair(c, v, "repo")))
		return missing_key(c, v, "repo");
	save = path_key(c, "repo");
	err = get_text(c, node(c, p->key)->start_mark, node(c, p->value), "expected a path", 0, &repo);
	path_pop(c, save);
	if (err)
		return err;
	d->repo = ab_path_absolute(c->exp->dir, repo);
	if ((err = optional_string(c, v, "candidate", &d->candidate)) ||
	    (err = optional_string(c, v, "parent", &d->parent)) ||
	    (err = optional_string(c, v, "env", &d->env)))
		return err;
	if (d->env && !is_identifier(d->env, strlen(d->env))) {
		save = path_key(c, "env");
		err = fail(c, node(c, find_pair(c, v, "env")->key)->start_mark,
			   "expected an environment variable name");
		path_pop(c, save);
		return err;
	}
	if ((p = find_pair(c, v, "path"))) {
		save = path_key(c, "path");
		err = get_tree_path(c, node(c, p->key)->start_mark, node(c, p->value), &d->path);
		path_pop(c, save);
		if (err)
			return err;
	}
	if ((p = find_pair(c, v, "exact_parent"))) {
		save = path_key(c, "exact_parent");
		err = h_bool(c, &d->exact_parent, node(c, p->key), node(c, p->value));
		path_pop(c, save);
		if (err)
			return err;
	}
	if (!d->candidate)
		d->candidate = ab_xstrdup("HEAD");
	if (!d->path)
		d->path = ab_xasprintf(".abtool-deps/%s", d->name);
	return 0;
}

static int h_dependencies(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	size_t n, i, j, save;
	int err = 0;

	(void)field;
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return fail(c, k->start_mark, "expected a list of dependencies");
	n = nitems(v);
	exp->dependencies = ab_xcalloc(n ? n : 1, sizeof(*exp->dependencies));
	exp->ndependencies = n;
	for (i = 0; i < n && !err; i++) {
		yaml_node_t *item = node(c, v->data.sequence.items.start[i]);
		save = path_index(c, i);
		err = read_dependency(c, item, &exp->dependencies[i]);
		for (j = 0; !err && j < i; j++) {
			if (!strcmp(exp->dependencies[j].name, exp->dependencies[i].name))
				err = fail(c, item->start_mark, "duplicate dependency name '%s' (first at "
					   "dependencies[%zu])", exp->dependencies[i].name, j);
			else if (!strcmp(exp->dependencies[j].path, exp->dependencies[i].path))
				err = fail(c, item->start_mark, "dependency path '%s' is already used by "
					   "dependencies[%zu]", exp->dependencies[i].path, j);
		}
		path_pop(c, save);
	}
	return err;
}

/* "0-3,6": CPU numbers and ranges; 1 when `s` is such a list. */
static int is_cpu_list(const char *s)
{
	int want_digit = 1;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			want_digit = 0;
		else if ((*s == ',' || *s == '-') && !want_digit)
			want_digit = 1;
		else
			return 0;
	}
	return !want_digit;
}

static const struct key_handler affinity_keys[] = {
	{ "cpus", NULL, 0 }, { "per_lane", NULL, 0 }, { NULL, NULL, 0 },
};

/* affinity: "0-3" or {cpus: "0-7", per_lane: lanes} */
static int h_affinity(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	const char *text;
	size_t save;
	int err;

	(void)field;
	if (v && v->type == YAML_SCALAR_NODE) {
		if ((err = get_string(c, k->start_mark, v, 0, &exp->affinity_cpus)))
			return err;
		if (!is_cpu_list(exp->affinity_cpus))
			return fail(c, k->start_mark, "expected a CPU list like \"0-3,6\"");
		return 0;
	}
	err = check_mapping(c, v, k->start_mark, affinity_keys,
			    "expected a CPU list like \"0-3\" or {cpus: \"0-7\", per_lane: lanes}");
	if (err)
		return err;
	if (!(p = find_pair(c, v, "cpus")))
		return missing_key(c, v, "cpus");
	save = path_key(c, "cpus");
	err = get_string(c, node(c, p->key)->start_mark, node(c, p->value), 0, &exp->affinity_cpus);
	if (!err && !is_cpu_list(exp->affinity_cpus))
		err = fail(c, node(c, p->key)->start_mark, "expected a CPU list like \"0-7\"");
	path_pop(c, save);
	if (err || !(p = find_pair(c, v, "per_lane")))
		return err;
	save = path_key(c, "per_lane");
	err = get_text(c, node(c, p->key)->start_mark, node(c, p->value), "expected a matrix parameter", 0, &text);
	if (!err) {
		long idx = ab_experiment_param(exp, text);
		size_t i;
		double x;
		if (idx < 0)
			err = unknown_param(c, node(c, p->key)->start_mark, "unknown matrix parameter", text);
		for (i = 0; !err && i < exp->matrix[idx].nvalues; i++)
			if (ab_parse_double(&x, exp->matrix[idx].values[i]) || x < 1 || x != (double)(long)x)
				err = fail(c, node(c, p->key)->start_mark, "matrix parameter '%s' has the value "
					   "'%s', not a CPU count", text, exp->matrix[idx].values[i]);
		if (!err)
			exp->affinity_per_lane = ab_xstrdup(text);
	}
	path_pop(c, save);
	return err;
}

/* env_padding: true (up to 4096 bytes), false, or a byte count */
static int h_env_padding(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = scalar_text(v);
	int64_t n;

	if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
		*(int *)field = !strcmp(s, "true") ? 4096 : 0;
		return 0;
	}
	if (!s || ab_parse_int64(&n, s) || n < 0 || n > 65536)
		return fail(c, k->start_mark, "expected true, false or a byte count from 0 to 65536");
	*(int *)field = (int)n;
	return 0;
}

static const struct key_handler history_keys[] = {
	{ "block_rejected", h_bool, offsetof(struct ab_experiment, block_rejected) },
	{ NULL, NULL, 0 },
};

static int h_history(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, history_keys, "expected a mapping like {block_rejected: true}");
	if (err)
		return err;
	return read_keys(c, v, history_keys, c->exp);
}

static const struct key_handler environment_keys[] = {
	{ "require", NULL, 0 }, { "commands", NULL, 0 }, { "commands_timeout", NULL, 0 }, { NULL, NULL, 0 },
};

static int h_environment(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	size_t save;
	int err;

	(void)field;
	err = check_mapping(c, v, k->start_mark, environment_keys,
			    "expected a mapping like {require: {governor: performance}, commands: [...]}");
	if (err)
		return err;
	if ((p = find_pair(c, v, "commands"))) {
		yaml_node_t *cv = node(c, p->value);
		yaml_node_item_t *it;
		size_t n = 0;

		save = path_key(c, "commands");
		if (cv->type != YAML_SEQUENCE_NODE) {
			err = fail(c, node(c, p->key)->start_mark, "expected a list of shell commands");
			path_pop(c, save);
			return err;
		}
		exp->environment_commands = ab_xcalloc(nitems(cv) + 1, sizeof(char *));
		for (it = cv->data.sequence.items.start; it < cv->data.sequence.items.top; it++, n++) {
			size_t s2 = path_index(c, n);
			err = get_string(c, node(c, *it)->start_mark, node(c, *it), 0, &exp->environment_commands[n]);
			path_pop(c, s2);
			if (err) {
				path_pop(c, save);
				return err;
			}
		}
		path_pop(c, save);
	}
	if ((p = find_pair(c, v, "commands_timeout"))) {
		save = path_key(c, "commands_timeout");
		err = h_duration(c, &exp->environment_commands_timeout_ms, node(c, p->key), node(c, p->value));
		path_pop(c, save);
		if (err)
			return err;
	}
	if ((p = find_pair(c, v, "require"))) {
		yaml_node_t *rv = node(c, p->value);
		yaml_node_pair_t *q;

		save = path_key(c, "require");
		if (rv->type != YAML_MAPPING_NODE) {
			err = fail(c, node(c, p->key)->start_mark, "expected a mapping like {governor: performance}");
			path_pop(c, save);
			return err;
		}
		exp->environment_require = json_object();
		for (q = rv->data.mapping.pairs.start; q < rv->data.mapping.pairs.top; q++) {
			const char *key = scalar_text(node(c, q->key)), *val = scalar_text(node(c, q->value));
			json_t *typed = NULL;
			size_t s2 = path_key(c, key ? key : "?");

			if (!key || ab_env_require_parse(&typed, key, val ? val : "") < 0) {
				char msg[512];
				snprintf(msg, sizeof(msg), "%s", key ? ab_error_last() : "expected a key");
				err = fail(c, node(c, q->key)->start_mark, "%s", msg);
				path_pop(c, s2);
				path_pop(c, save);
				return err;
			}
			if (json_object_get(exp->environment_require, key)) {
				err = fail(c, node(c, q->key)->start_mark, "duplicate key '%s'", key);
				json_decref(typed);
				path_pop(c, s2);
				path_pop(c, save);
				return err;
			}
			json_object_set_new(exp->environment_require, key, typed);
			path_pop(c, s2);
		}
		path_pop(c, save);
	}
	return 0;
}

/*
 * The top-level keys, in the order they are read: `matrix` before
 * `benchmark` (placeholders), `metrics` before `metric`, and both before
 * `scaling` and `accept`.
 */
#define EXP_KEY(key, fn) { #key, fn, offsetof(struct ab_experiment, key) }
static const struct key_handler top_keys[] = {
	EXP_KEY(name, h_string),
	EXP_KEY(design, h_string),
	EXP_KEY(hypothesis, h_string),
	EXP_KEY(repo, h_repo),
	EXP_KEY(candidate, h_string),
	EXP_KEY(parent, h_string),
	EXP_KEY(exact_parent, h_bool),
	EXP_KEY(build, h_command),
	EXP_KEY(artifacts, h_artifacts),
	EXP_KEY(workdir, h_tree_path),
	EXP_KEY(env, h_env),
	EXP_KEY(checksum, h_checksum),
	EXP_KEY(matrix, h_matrix),
	EXP_KEY(benchmark, h_benchmark),
	EXP_KEY(metrics, h_metrics),
	EXP_KEY(metric, h_metric),
	{ "scaling", h_scaling, 0 },
	EXP_KEY(pairs, h_pairs),
	EXP_KEY(warmup, h_warmup),
	{ "timeout", h_duration, offsetof(struct ab_experiment, timeout_ms) },
	{ "build_timeout", h_duration, offsetof(struct ab_experiment, build_timeout_ms) },
	{ "accept", h_accept, 0 },
	{ "environment", h_environment, 0 },
	{ "history", h_history, 0 },
	{ "overlay", h_overlay, 0 },
	{ "affinity", h_affinity, 0 },
	{ "aslr", h_bool, offsetof(struct ab_experiment, aslr) },
	{ "env_padding", h_env_padding, offsetof(struct ab_experiment, env_padding) },
	{ "dependencies", h_dependencies, 0 },
	{ NULL, NULL, 0 },
};

static int read_root(struct ctx *c, yaml_node_t *root)
{
	struct ab_experiment *exp = c->exp;
	yaml_node_pair_t *p;
	yaml_mark_t start = { 0, 0, 0 };
	int err;

	if (!root)
		return fail(c, start, "the file is empty (or only comments); an experiment needs at least "
			    "'name:' and 'benchmark:': start from 'abtool init'");
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root->start_mark, "expected a mapping of experiment keys (name:, benchmark:, "
			    "...), not a %s", root->type == YAML_SEQUENCE_NODE ? "list" : "single value");
	err = check_mapping(c, root, root->start_mark, top_keys, "");
	if (err)
		return err;
	if (!find_pair(c, root, "name"))
		return missing_key(c, root, "name");
	if (!find_pair(c, root, "benchmark"))
		return missing_key(c, root, "benchmark");
	if ((p = find_pair(c, root, "candidate")))
		exp->candidate_mark = to_mark(node(c, p->key)->start_mark);
	if ((p = find_pair(c, root, "parent")))
		exp->parent_mark = to_mark(node(c, p->key)->start_mark);
	err = read_keys(c, root, top_keys, exp);
	if (err)
		return err;

	if (!exp->design)
		exp->design = ab_xstrdup(exp->name);
	exp->repo = ab_path_absolute(exp->dir, c->repo ? c->repo : ".");
	if (!exp->candidate)
		exp->candidate = ab_xstrdup("HEAD");
	if (!exp->workdir)
		exp->workdir = ab_xstrdup(".");
	if (!exp->metric)
		exp->metric = ab_xstrdup("wall_ns");
	return 0;
}

/* libyaml's printable set (YAML 1.1 §5.1), which its reader enforces */
static int printable(uint32_t cp)
{
	return cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) ||
	       cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
	       (cp >= 0x10000 && cp <= 0x10FFFF);
}

/*
 * Check that the text is UTF-8 without NUL or control characters before
 * libyaml sees it, so that binary files get a clear message with a
 * position. When `stop` is reached first, only report its position in
 * *mark (used for libyaml's reader errors, which give an offset).
 */
static int check_text(struct ctx *c, const unsigned char *s, size_t len, size_t stop,
		      yaml_mark_t *mark)
{
	size_t i = 0, n, j;
	uint32_t cp, min;

	memset(mark, 0, sizeof(*mark));
	if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
		i = 3; /* a byte order mark, which libyaml skips */
	while (i < len && i < stop) {
		unsigned char b = s[i];

		if (b < 0x80) {
			cp = b, n = 1, min = 0;
		} else if ((b & 0xE0) == 0xC0) {
			cp = b & 0x1F, n = 2, min = 0x80;
		} else if ((b & 0xF0) == 0xE0) {
			cp = b & 0x0F, n = 3, min = 0x800;
		} else if ((b & 0xF8) == 0xF0) {
			cp = b & 0x07, n = 4, min = 0x10000;
		} else {
			goto bad_utf8;
		}
		if (n > len - i)
			goto bad_utf8;
		for (j = 1; j < n; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				goto bad_utf8;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad_utf8;
		if (cp == 0)
			return fail(c, *mark, "not a YAML text file: NUL byte (is it binary?)");
		if (!printable(cp))
			return fail(c, *mark, "not a YAML text file: control character U+%04X "
				    "(is it binary?)", (unsigned)cp);
		if (cp == '\n' || cp == 0x85 || cp == 0x2028 || cp == 0x2029 ||
		    (cp == '\r' && (i + 1 >= len || s[i + 1] != '\n'))) {
			mark->line++;
			mark->column = 0;
		} else if (cp != '\r') {
			mark->column++;
		}
		i += n;
	}
	return 0;
bad_utf8:
	return fail(c, *mark, "not a YAML text file: invalid UTF-8 byte 0x%02x "
		    "(save the file as UTF-8)", s[i]);
}

static int syntax_error(struct ctx *c, const yaml_parser_t *parser, const char *text, size_t len)
{
	yaml_mark_t mark = parser->problem_mark, cm = parser->context_mark;
	const char *problem = parser->problem ? parser->problem : "unknown error";

	if (parser->error == YAML_MEMORY_ERROR)
		return ab_error_set(AB_ENOMEM, "%s: out of memory while reading YAML", c->file);
	if (parser->error == YAML_READER_ERROR)
		check_text(c, (const unsigned char *)text, len, parser->problem_offset, &mark);
	if (strstr(problem, "unknown escape"))  /* the classic: a regex in double quotes */
		return fail(c, mark, "YAML syntax error: %s: in double quotes YAML reads a backslash as an "
			    "escape; write text with backslashes, such as a regex, in single quotes "
			    "('checksum=(\\S+)') or double each backslash", problem);
	if (parser->context)
		return fail(c, mark, "YAML syntax error: %s (%s that starts at %zu:%zu)",
			    problem, parser->context, cm.line + 1, cm.column + 1);
	return fail(c, mark, "YAML syntax error: %s", problem);
}

static void add_builtin_metrics(struct ab_experiment *exp)
{
	static const char *const units[] = { "ns", "ns", "ns", "ns", "bytes" };
	size_t i, n = sizeof(builtin_names) / sizeof(builtin_names[0]);

	exp->metrics = ab_xcalloc(n, sizeof(*exp->metrics));
	for (i = 0; i < n; i++) {
		struct ab_metric *m = &exp->metrics[i];

		m->name = ab_xstrdup(builtin_names[i]);
		m->unit = ab_xstrdup(units[i]);
		m->better = AB_LOWER_IS_BETTER;
		m->source = AB_METRIC_BUILTIN;
	}
	exp->nmetrics = n;
}

static char *folder_of(const char *path)
{
	char *abs = ab_path_absolute(NULL, path), *slash = strrchr(abs, '/');

	if (slash == abs)
		slash[1] = '\0';
	else
		*slash = '\0';
	return abs;
}

static void release_rule(struct ab_rule *r)
{
	size_t j, k;

	for (j = 0; j < r->where.nterms; j++) {
		for (k = 0; k < r->where.terms[j].nconds; k++)
			free(r->where.terms[j].conds[k].value);
		free(r->where.terms[j].conds);
	}
	free(r->where.terms);
	free(r->name);
	free(r->metric);
}

/* Deeper than any experiment or rules file needs (they nest 4 levels). */
#define MAX_YAML_DEPTH 64

/* Refuse nesting deeper than MAX_YAML_DEPTH before loading the document:
 * libyaml's scanner spends time proportional to the nesting depth on
 * every token, so a 1 MiB file of '[' took minutes of CPU (quadratic).
 * Reading events stops at the first level too deep. A syntax error is
 * left for the load to report. */
static int check_depth(struct ctx *c, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, err = 0, done = 0;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !err && yaml_parser_parse(&parser, &ev)) {
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
			if (++depth > MAX_YAML_DEPTH)
				err = fail(c, ev.start_mark, "YAML nested more than %d levels deep (an "
					   "experiment or rules file needs a few)", MAX_YAML_DEPTH);
		} else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return err;
}

/* Parse one YAML document from text and hand its root to `read`. */
static int load_document(struct ctx *c, const char *path, const char *text, size_t len,
			 int (*read)(struct ctx *c, yaml_node_t *root))
{
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	yaml_mark_t mark;
	int err;

	c->doc = &doc;
	err = check_text(c, (const unsigned char *)text, len, len, &mark);
	if (!err)
		err = check_depth(c, text, len);
	if (err)
		return err;
	if (!yaml_parser_initialize(&parser))
		return ab_error_set(AB_ENOMEM, "%s: out of memory while reading YAML", path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err = syntax_error(c, &parser, text, len);
		goto out_parser;
	}
	if (!yaml_parser_load(&parser, &extra)) {
		err = syntax_error(c, &parser, text, len);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra))
		err = fail(c, extra.start_mark, "the file holds more than one YAML document; "
			   "write one experiment per file");
	yaml_document_delete(&extra);
	if (err)
		goto out_doc;
	err = read(c, yaml_document_get_root_node(&doc));
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	c->doc = NULL;
	return err;
}

int ab_experiment_check_pairs(const struct ab_experiment *exp, const char *source)
{
	size_t i;

	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule *r = &exp->rules[i];

		if (r->min_pair_wins > exp->pairs)
			return ab_error_set(AB_EINVALID, "%s:%d:%d: accept[%zu] (%s): min_pair_wins %lld "
					    "exceeds the %d planned pairs per row (%s), so the rule could "
					    "never pass; lower it, write a share like 90%%, or plan more pairs",
					    exp->path, r->mark.line, r->mark.column, i, r->name,
					    (long long)r->min_pair_wins, exp->pairs, source);
	}
	return 0;
}

static int check_own_pairs(struct ab_experiment *exp, const char *file)
{
	char source[64];
	const char *path = exp->path;
	int err;

	snprintf(source, sizeof(source), "pairs: %d", exp->pairs);
	exp->path = (char *)file;
	err = ab_experiment_check_pairs(exp, source);
	exp->path = (char *)path;
	return err;
}

int ab_experiment_parse(struct ab_experiment *out, const char *path,
			const char *text, size_t len)
{
	struct ctx c;
	int err;

	memset(out, 0, sizeof(*out));
	out->path = ab_xstrdup(path);
	out->dir = folder_of(path);
	out->text = ab_xmalloc(len + 1);
	memcpy(out->text, text, len);
	out->text[len] = '\0';
	out->text_len = len;
	ab_sha256_hex(out->hash, text, len);
	out->exact_parent = 1;
	out->aslr = 1;
	out->pairs = 8;
	out->warmup = 1;
	out->timeout_ms = 600000;
	out->build_timeout_ms = 3600000;
	out->environment_commands_timeout_ms = 30000;
	add_builtin_metrics(out);

	memset(&c, 0, sizeof(c));
	c.file = out->path;
	c.exp = out;
	err = load_document(&c, path, text, len, read_root);
	return err ? err : check_own_pairs(out, out->path);
}

static const struct key_handler rules_file_keys[] = {
	{ "accept", h_accept, 0 },
	{ NULL, NULL, 0 },
};

static int read_rules_root(struct ctx *c, yaml_node_t *root)
{
	yaml_mark_t start = { 0, 0, 0 };
	int err;

	if (!root || root->type != YAML_MAPPING_NODE)
		return fail(c, root ? root->start_mark : start, "expected a mapping with an 'accept:' list of rules");
	err = check_mapping(c, root, root->start_mark, rules_file_keys, "");
	if (err)
		return err;
	if (!find_pair(c, root, "accept"))
		return missing_key(c, root, "accept");
	return read_keys(c, root, rules_file_keys, c->exp);
}

int ab_experiment_parse_rules(struct ab_experiment *exp, const char *path, const char *text, size_t len)
{
	struct ctx c;
	size_t i;
	int err;

	for (i = 0; i < exp->nrules; i++)
		release_rule(&exp->rules[i]);
	free(exp->rules);
	exp->rules = NULL;
	exp->nrules = 0;
	memset(&c, 0, sizeof(c));
	c.file = path;
	c.exp = exp;
	err = load_document(&c, path, text, len, read_rules_root);
	return err ? err : check_own_pairs(exp, path);
}

int ab_experiment_read(char **out, size_t *len, const char *path)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n = 0, r;
	int err = 0;

	*out = NULL;
	*len = 0;
	if (!(f = fopen(path, "rb"))) {
		if (errno == ENOENT)
			return ab_error_set(AB_ENOTFOUND, "'%s': no such file; check the path", path);
		return ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(errno));
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		err = ab_error_set(AB_EINVALID, "'%s' is a directory; give the experiment file in it, "
				   "e.g. '%s/exp.yaml'", path, path);
		goto out_close;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > AB_EXPERIMENT_MAX_BYTES) {
		err = ab_error_set(AB_EINVALID, "%s is %lld bytes; an experiment file is at most 1 MiB "
				   "(is it the right file?)", path, (long long)st.st_size);
		goto out_close;
	}
	/* Never more than the limit and one byte, whatever the file is
	 * (a pipe, /dev/zero, a file still growing). */
	buf = ab_xmalloc(AB_EXPERIMENT_MAX_BYTES + 2);
	while (n <= AB_EXPERIMENT_MAX_BYTES &&
	       (r = fread(buf + n, 1, AB_EXPERIMENT_MAX_BYTES + 1 - n, f)) > 0)
		n += r;
	if (ferror(f)) {
		err = ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(errno));
		free(buf);
	} else if (n > AB_EXPERIMENT_MAX_BYTES) {
		err = ab_error_set(AB_EINVALID, "%s is more than 1 MiB; an experiment file is at most 1 MiB "
				   "(is it the right file?)", path);
		free(buf);
	} else {
		buf[n] = '\0';
		*out = buf;
		*len = n;
	}
out_close:
	fclose(f);
	return err;
}

int ab_experiment_load(struct ab_experiment *out, const char *path)
{
	char *text;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	err = ab_experiment_read(&text, &len, path);
	if (err == AB_ENOTFOUND)
		return ab_error_set(err, "'%s': no such file; check the path, or write an experiment "
				    "file with 'abtool init %s'", path, path);
	if (err)
		return err;
	err = ab_experiment_parse(out, path, text, len);
	free(text);
	if (!err && out->repo_mark.line) {  /* a typo in repo: before "not a git repository" */
		struct stat st;
		int found = stat(out->repo, &st) == 0;

		if (!found || !S_ISDIR(st.st_mode))
			err = ab_error_set(AB_EINVALID, "%s:%d:%d: repo: '%s' %s (a relative path starts at "
					   "the experiment file's folder)", path, out->repo_mark.line,
					   out->repo_mark.column, out->repo, found ? "is not a folder" : "does not exist");
	}
	return err;
}

void ab_experiment_release(struct ab_experiment *exp)
{
	size_t i, j;

	free(exp->path);
	free(exp->dir);
	free(exp->text);
	free(exp->name);
	free(exp->design);
	free(exp->hypothesis);
	free(exp->repo);
	free(exp->candidate);
	free(exp->parent);
	ab_command_release(&exp->build);
	ab_strv_free(exp->artifacts);
	ab_command_release(&exp->benchmark);
	free(exp->workdir);
	ab_strv_free(exp->env);
	free(exp->checksum.arg);
	for (i = 0; i < exp->nparams; i++) {
		for (j = 0; j < exp->matrix[i].nvalues; j++)
			free(exp->matrix[i].values[j]);
		free(exp->matrix[i].values);
		free(exp->matrix[i].name);
	}
	free(exp->matrix);
	free(exp->metric);
	for (i = 0; i < exp->nmetrics; i++) {
		free(exp->metrics[i].name);
		free(exp->metrics[i].unit);
		free(exp->metrics[i].pattern);
	}
	free(exp->metrics);
	free(exp->scaling_param);
	for (i = 0; i < exp->nrules; i++)
		release_rule(&exp->rules[i]);
	free(exp->rules);
	json_decref(exp->environment_require);
	ab_strv_free(exp->environment_commands);
	ab_strv_free(exp->overlay_paths);
	free(exp->affinity_cpus);
	free(exp->affinity_per_lane);
	free(exp->overlay_from);
	for (i = 0; i < exp->ndependencies; i++) {
		struct ab_dependency *d = &exp->dependencies[i];
		free(d->name);
		free(d->repo);
		free(d->candidate);
		free(d->parent);
		free(d->path);
		free(d->env);
	}
	free(exp->dependencies);
	memset(exp, 0, sizeof(*exp));
}

size_t ab_experiment_nrows(const struct ab_experiment *exp)
{
	size_t rows = 1, i;

	for (i = 0; i < exp->nparams; i++)
		rows *= exp->matrix[i].nvalues;
	return rows;
}

size_t ab_experiment_row_value_index(const struct ab_experiment *exp, size_t row, size_t param)
{
	size_t stride = 1, i;

	for (i = param + 1; i < exp->nparams; i++)
		stride *= exp->matrix[i].nvalues;
	return row / stride % exp->matrix[param].nvalues;
}

const char *ab_experiment_row_value(const struct ab_experiment *exp, size_t row, size_t param)
{
	return exp->matrix[param].values[ab_experiment_row_value_index(exp, row, param)];
}

static int cond_holds(const struct ab_cond *cond, const char *value)
{
	double a, b;

	if (cond->op == AB_CMP_EQ)
		return values_equal(value, cond->value);
	if (ab_parse_double(&a, value) || ab_parse_double(&b, cond->value))
		return 0;
	switch (cond->op) {
	case AB_CMP_LT:
		return a < b;
	case AB_CMP_LE:
		return a <= b;
	case AB_CMP_GT:
		return a > b;
	case AB_CMP_GE:
		return a >= b;
	default:
		return 0;
	}
}

int ab_selector_match(const struct ab_selector *sel, const struct ab_experiment *exp, size_t row)
{
	size_t i, j;

	for (i = 0; i < sel->nterms; i++) {
		const struct ab_where_term *t = &sel->terms[i];
		const char *value = ab_experiment_row_value(exp, row, t->param);

		for (j = 0; j < t->nconds; j++)
			if (cond_holds(&t->conds[j], value))
				break;
		if (j == t->nconds)
			return 0;
	}
	return 1;
}

void ab_experiment_row_policy(const struct ab_experiment *exp, size_t row,
			      struct ab_row_policy *out)
{
	size_t i;

	out->checksum_may_change = 0;
	out->allow_failed_pairs = 0;
	for (i = 0; i < exp->nrules; i++) {
		const struct ab_rule *r = &exp->rules[i];
		if (!ab_selector_match(&r->where, exp, row))
			continue;
		if (r->checksum_may_change > 0)
			out->checksum_may_change = 1;
		if (r->allow_failed_pairs > 0 && (size_t)r->allow_failed_pairs > out->allow_failed_pairs)
			out->allow_failed_pairs = (size_t)r->allow_failed_pairs;
	}
}

const struct ab_metric *ab_experiment_metric(const struct ab_experiment *exp, const char *name)
{
	size_t i;

	for (i = 0; i < exp->nmetrics; i++)
		if (!strcmp(exp->metrics[i].name, name))
			return &exp->metrics[i];
	return NULL;
}

long ab_experiment_param(const struct ab_experiment *exp, const char *name)
{
	return find_param_n(exp, name, strlen(name));
}

static int expand_one(char **out, const char *tmpl, const struct ab_experiment *exp, size_t row)
{
	struct buf b = { 0 };
	const char *bad;
	size_t n;

	if (expand_template(&b, tmpl, exp, row, &bad, &n)) {
		free(b.s);
		return ab_error_set(AB_EINVALID, "unknown placeholder '{%.*s}' in '%s': "
				    "no matrix parameter has that name", (int)n, bad, tmpl);
	}
	*out = buf_detach(&b);
	return 0;
}

int ab_command_expand(struct ab_command *out, const struct ab_command *cmd,
		      const struct ab_experiment *exp, size_t row)
{
	size_t i;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (row >= ab_experiment_nrows(exp))
		return ab_error_set(AB_EINVALID, "row %zu is out of range (the matrix has %zu)",
				    row, ab_experiment_nrows(exp));
	if (cmd->shell)
		return expand_one(&out->shell, cmd->shell, exp, row);
	if (!cmd->argv)
		return 0;
	out->argv = ab_xcalloc(cmd->argc + 1, sizeof(*out->argv));
	for (i = 0; i < cmd->argc && !err; i++) {
		err = expand_one(&out->argv[i], cmd->argv[i], exp, row);
		if (!err)
			out->argc++;
	}
	if (err)
		ab_command_release(out);
	return err;
}

void ab_command_release(struct ab_command *cmd)
{
	free(cmd->shell);
	ab_strv_free(cmd->argv);
	memset(cmd, 0, sizeof(*cmd));
}

char *ab_command_display(const struct ab_command *cmd)
{
	struct buf b = { 0 };
	size_t i;

	if (cmd->shell)
		return ab_xstrdup(cmd->shell);
	for (i = 0; i < cmd->argc; i++) {
		char *word = ab_shell_quote(cmd->argv[i], 0);

		if (i)
			buf_puts(&b, " ");
		buf_puts(&b, word);
		free(word);
	}
	return buf_detach(&b);
}
