/* config_yaml.h - the YAML walker of the experiment file's parser, private
 * to config*.c: the parse context, node lookup, messages with
 * file:line:column and the key path (cfg_fail), the key tables that
 * dispatch a mapping's keys to their readers, did-you-mean for keys (ab_suggest, util.h), and
 * the value readers the experiment's keys and the rules share.
 *
 * Conventions (config.h): a reader reports at its key `k`, whose path is
 * pushed; a missing key is reported at the mapping that lacks it. */
#ifndef AB_CONFIG_YAML_H
#define AB_CONFIG_YAML_H

#include <stddef.h>

#include <yaml.h>

#include "experiment.h"

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
 * the struct being filled (the experiment, or the current rule); `fn`
 * NULL: the key is known but read by its mapping's reader. */
struct key_handler {
	const char *key;
	int (*fn)(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
	size_t offset;
};

/* An entry of a duplicate search: a string, numeric when `isnum`. */
struct entry {
	const char *s;
	double num;
	int isnum;
	size_t index;
};

struct ab_mark cfg_mark(yaml_mark_t m);

/* Set and return AB_EINVALID with "FILE:LINE:COLUMN: KEY.PATH: message"
 * (no key path at the top). */
int cfg_fail(struct ctx *c, yaml_mark_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append ".key" (or "key" at the top), or "[i]", to the key path; each
 * returns what cfg_path_pop() needs to undo it. */
size_t cfg_path_key(struct ctx *c, const char *key);
size_t cfg_path_index(struct ctx *c, size_t i);
void cfg_path_pop(struct ctx *c, size_t old);

yaml_node_t *cfg_node(struct ctx *c, int id);

/* The text of scalar `v`, or NULL when `v` is not a scalar or is a YAML
 * null (empty, "~" or "null" written plain). */
const char *cfg_scalar(const yaml_node_t *v);

/* The text of scalar `v` (borrowed) into *out, or an error at `mark`
 * saying `expected`. */
int cfg_get_text(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		 const char *expected, int allow_empty, const char **out);

/* The same as a new string */
int cfg_get_string(struct ctx *c, yaml_mark_t mark, const yaml_node_t *v,
		   int allow_empty, char **out);

/* The words joined by ", " (new string) */
char *cfg_join(const char *const *words, size_t n);

/* The names of exp's matrix parameters (a new array of borrowed names) */
const char **cfg_param_names(const struct ab_experiment *exp);

/*
 * Find the earliest second occurrence of a value among `n` entries (which
 * are sorted in place; O(n log n), so that huge mappings stay cheap).
 * Returns 1 and sets *dup and *first to original indices, or 0.
 */
int cfg_find_duplicate(struct entry *e, size_t n, size_t *dup, size_t *first);

/*
 * Check that `map` is a mapping (else an error at `mark` saying
 * `expected`) whose keys are non-empty strings, none repeated and, when
 * `known` is given, all known (an unknown key names the closest known
 * one). Errors come in file order.
 */
int cfg_check_mapping(struct ctx *c, yaml_node_t *map, yaml_mark_t mark,
		      const struct key_handler *known, const char *expected);

/* The pair of `map` whose key is `key`, or NULL */
yaml_node_pair_t *cfg_find_pair(struct ctx *c, yaml_node_t *map, const char *key);

size_t cfg_npairs(const yaml_node_t *map);
size_t cfg_nitems(const yaml_node_t *seq);

/* Read the keys of mapping `map` (already checked) with `handlers`, in
 * the handlers' order, into the struct at `base`. */
int cfg_read_keys(struct ctx *c, yaml_node_t *map, const struct key_handler *handlers,
		  void *base);

/* "required key is missing", at `map` with `key` on the path */
int cfg_missing_key(struct ctx *c, yaml_node_t *map, const char *key);

/* "WHAT 'NAME'" with the closest parameter or the list of them */
int cfg_unknown_param(struct ctx *c, yaml_mark_t mark, const char *what, const char *name);

/* Value readers shared by the experiment's keys and the rules' keys */
int cfg_h_string(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_bool(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);   /* int */
int cfg_get_int(struct ctx *c, yaml_node_t *k, yaml_node_t *v, int min, int max, int *out);
int cfg_h_duration(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v); /* int64_t ms */
int cfg_h_percent(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);  /* double */

/* `metric:` of the experiment or of a rule (read after `metrics`): a
 * known metric, or an optional builtin, which it adds to exp->metrics. */
int cfg_h_metric(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* 1 when `name` is a builtin metric (measured, or optional) */
int cfg_is_builtin_metric(const char *name);

/* The measured builtin metrics, first in exp->metrics (new) */
void cfg_add_builtin_metrics(struct ab_experiment *exp);

#endif
