/* config_rules.h - the `accept:` section of an experiment or rules file
 * (config.h; docs/rules.md): its rules, their selectors and predicates,
 * read with the table of predicates.h; private to config*.c. */
#ifndef AB_CONFIG_RULES_H
#define AB_CONFIG_RULES_H

#include "config_yaml.h"

/* The reader of `accept:` (a key_handler function; `field` unused): the
 * rules into c->exp->rules, each with a unique name and at least one
 * predicate. Needs `matrix`, `metrics` and `scaling` read before. */
int cfg_h_accept(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* A `where:` selector (a key_handler function) into the struct
 * ab_selector at `field`: parameter: value or [values], each a value or a
 * comparison; it must select at least one row. Used by rules (c->rule
 * set) and by `profile.rows` (c->rule NULL). */
int cfg_h_where(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

#endif
