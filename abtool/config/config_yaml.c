/* config_yaml.c - the YAML walker of the experiment file's parser and its
 * messages (config_yaml.h). */
#include "config_yaml.h"
#include "error.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct ab_mark cfg_mark(yaml_mark_t m)
{
	struct ab_mark out = { (int)m.line + 1, (int)m.column + 1 };
	return out;
}

int cfg_fail(struct ctx *c, yaml_mark_t mark, const char *fmt, ...)
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
 * cfg_path_pop() needs to undo it. */
size_t cfg_path_key(struct ctx *c, const char *key)
{
	return path_append(c, c->pathlen ? "." : "", key);
}

size_t cfg_path_index(struct ctx *c, size_t i)
{
	char s[32];

	snprintf(s, sizeof(s), "[%zu]", i);
	return path_append(c, "", s);
}

void cfg_path_pop(struct ctx *c, size_t old)
{
	c->pathlen = old;
	c->path[old] = '\0';
}

yaml_node_t *cfg_node(struct ctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

/* The text of scalar `v`, or NULL when `v` is not a scalar or is a YAML
 * null (empty, "~" or "null" written plain). */
const char *cfg_scalar(const yaml_node_t *v)
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
int cfg_get_text(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		    const char *expected, int allow_empty, const char **out)
{
	const char *s = cfg_scalar(v);

	if (!s)
		return cfg_fail(c, mark, "%s", expected);
	if (has_nul(v))
		return cfg_fail(c, mark, "the value contains a NUL character");
	if (!allow_empty && !*s)
		return cfg_fail(c, mark, "expected a non-empty string");
	*out = s;
	return 0;
}

int cfg_get_string(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		      int allow_empty, char **out)
{
	const char *s = NULL;
	int err = cfg_get_text(c, mark, v, "expected a string", allow_empty, &s);

	if (!err)
		*out = ab_xstrdup(s);
	return err;
}

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
int cfg_find_duplicate(struct entry *e, size_t n, size_t *dup, size_t *first)
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
		return cfg_fail(c, mark, "unknown key '<<' (YAML merge keys are not supported)");
	for (; known->key && n < sizeof(names) / sizeof(names[0]); known++)
		names[n++] = known->key;
	near = ab_suggest(key, names, n);
	if (near)
		return cfg_fail(c, mark, "unknown key '%s'; did you mean '%s'?", key, near);
	return cfg_fail(c, mark, "unknown key '%s'", key);
}

/*
 * Check that `map` is a mapping (else an error at `mark` saying
 * `expected`) whose keys are non-empty strings, none repeated and, when
 * `known` is given, all known. Errors come in file order.
 */
int cfg_check_mapping(struct ctx *c, yaml_node_t *map, yaml_mark_t mark,
			 const struct key_handler *known, const char *expected)
{
	yaml_node_pair_t *pairs;
	struct entry *e;
	size_t n, i, dup = 0, first = 0, save;
	int err = 0, has_dup;

	if (!map || map->type != YAML_MAPPING_NODE)
		return cfg_fail(c, mark, "%s", expected);
	pairs = map->data.mapping.pairs.start;
	n = (size_t)(map->data.mapping.pairs.top - pairs);
	e = ab_xcalloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		yaml_node_t *k = cfg_node(c, pairs[i].key);
		const char *s = cfg_scalar(k);

		if (!s || !*s || has_nul(k)) {
			err = cfg_fail(c, k->start_mark, "expected a string key");
			goto out;
		}
		e[i].s = s;
		e[i].index = i;
	}
	has_dup = cfg_find_duplicate(e, n, &dup, &first);
	for (i = 0; i < n; i++) {
		yaml_node_t *k = cfg_node(c, pairs[i].key);
		const char *s = cfg_scalar(k);

		save = cfg_path_key(c, s);
		if (has_dup && i == dup) {
			yaml_mark_t f = cfg_node(c, pairs[first].key)->start_mark;

			err = cfg_fail(c, k->start_mark, "duplicate key '%s' (first at %zu:%zu)",
				   s, f.line + 1, f.column + 1);
		} else if (known && !find_handler(known, s)) {
			err = unknown_key(c, k->start_mark, s, known);
		}
		cfg_path_pop(c, save);
		if (err)
			goto out;
	}
out:
	free(e);
	return err;
}

/* The pair of `map` whose key is `key`, or NULL */
yaml_node_pair_t *cfg_find_pair(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *s = cfg_scalar(cfg_node(c, p->key));
		if (s && !strcmp(s, key))
			return p;
	}
	return NULL;
}

size_t cfg_npairs(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

size_t cfg_nitems(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

/* Read the keys of mapping `map` (already checked) with `handlers`, in
 * the handlers' order, into the struct at `base`. */
int cfg_read_keys(struct ctx *c, yaml_node_t *map, const struct key_handler *handlers,
		     void *base)
{
	const struct key_handler *h;
	yaml_node_pair_t *p;
	size_t save;
	int err = 0;

	for (h = handlers; h->key && !err; h++) {
		if (!h->fn || !(p = cfg_find_pair(c, map, h->key)))
			continue;
		save = cfg_path_key(c, h->key);
		err = h->fn(c, (char *)base + h->offset, cfg_node(c, p->key), cfg_node(c, p->value));
		cfg_path_pop(c, save);
	}
	return err;
}

int cfg_missing_key(struct ctx *c, yaml_node_t *map, const char *key)
{
	size_t save = cfg_path_key(c, key);
	int err = cfg_fail(c, map->start_mark, "required key is missing");

	cfg_path_pop(c, save);
	return err;
}

char *cfg_join(const char *const *words, size_t n)
{
	size_t i, len = 1;
	char *out, *end;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 2;
	out = end = ab_xmalloc(len);
	*out = '\0';
	for (i = 0; i < n; i++)
		end = stpcpy(i ? stpcpy(end, ", ") : end, words[i]);
	return out;
}

const char **cfg_param_names(const struct ab_experiment *exp)
{
	const char **names = ab_xcalloc(exp->nparams ? exp->nparams : 1, sizeof(*names));
	size_t i;

	for (i = 0; i < exp->nparams; i++)
		names[i] = exp->matrix[i].name;
	return names;
}

int cfg_unknown_param(struct ctx *c, yaml_mark_t mark, const char *what, const char *name)
{
	const struct ab_experiment *exp = c->exp;
	const char **names = cfg_param_names(exp), *near;
	char *list = NULL;
	int err;

	near = ab_suggest(name, names, exp->nparams);
	if (exp->nparams == 0)
		err = cfg_fail(c, mark, "%s '%s': the experiment has no matrix", what, name);
	else if (near)
		err = cfg_fail(c, mark, "%s '%s'; did you mean '%s'?", what, name, near);
	else {
		list = cfg_join(names, exp->nparams);
		err = cfg_fail(c, mark, "%s '%s'; matrix parameters are: %s", what, name, list);
	}
	free(list);
	free(names);
	return err;
}

/* Value readers. Each reports at the key `k`, whose path is pushed. */

int cfg_h_string(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	return cfg_get_string(c, k->start_mark, v, 0, field);
}

int cfg_h_bool(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };
	const char *s = cfg_scalar(v);
	size_t i;

	for (i = 0; s && i < 3; i++) {
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			*(int *)field = !strcmp(s, yes[i]);
			return 0;
		}
	}
	return cfg_fail(c, k->start_mark, "expected true or false");
}

int cfg_get_int(struct ctx *c, yaml_node_t *k, yaml_node_t *v, int min, int max, int *out)
{
	const char *s = cfg_scalar(v);
	int64_t x;

	if (!s || ab_parse_int64(&x, s) || x < min || x > max)
		return cfg_fail(c, k->start_mark, "expected an integer from %d to %d", min, max);
	*out = (int)x;
	return 0;
}

int cfg_h_duration(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);

	if (!s || ab_parse_duration_ms(field, s))
		return cfg_fail(c, k->start_mark, "expected a duration like 500ms, 60s or 10m");
	return 0;
}

int cfg_h_percent(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	const char *s = cfg_scalar(v);

	if (!s || ab_parse_percent(field, s))
		return cfg_fail(c, k->start_mark, "expected a percentage like 5%%");
	return 0;
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

int cfg_is_builtin_metric(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtin_names) / sizeof(builtin_names[0]); i++)
		if (!strcmp(name, builtin_names[i]))
			return 1;
	for (i = 0; i < sizeof(optional_builtins) / sizeof(optional_builtins[0]); i++)
		if (!strcmp(name, optional_builtins[i].name))
			return 1;
	return 0;
}

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

static int check_metric(struct ctx *c, yaml_mark_t mark, const char *name)
{
	const struct ab_experiment *exp = c->exp;
	const char **names, *near;
	char *list;
	size_t i;
	int err;

	if (ab_experiment_metric(exp, name) || add_optional_builtin(c->exp, name))
		return 0;
	names = ab_xcalloc(exp->nmetrics, sizeof(*names));
	for (i = 0; i < exp->nmetrics; i++)
		names[i] = exp->metrics[i].name;
	list = cfg_join(names, exp->nmetrics);
	near = ab_suggest(name, names, exp->nmetrics);
	if (near)
		err = cfg_fail(c, mark, "unknown metric '%s'; did you mean '%s'?", name, near);
	else
		err = cfg_fail(c, mark, "unknown metric '%s'; metrics are: %s", name, list);
	free(list);
	free(names);
	return err;
}

/* `metric:` of the experiment or of a rule (read after `metrics`) */
int cfg_h_metric(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v)
{
	char **out = field;
	int err = cfg_get_string(c, k->start_mark, v, 0, out);

	if (!err)
		err = check_metric(c, k->start_mark, *out);
	return err;
}

void cfg_add_builtin_metrics(struct ab_experiment *exp)
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

