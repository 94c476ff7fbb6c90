/* config_read.h - readers the experiment's keys (config_keys*.c) and the
 * rules (config_rules.c) share: each item of a sequence with its index on
 * the key path, and a string key of a mapping; private to config*.c. */
#ifndef AB_CONFIG_READ_H
#define AB_CONFIG_READ_H

#include "config_yaml.h"

/* The reader of one item of a sequence: item `i` of it, with "[i]" on the
 * key path; `arg` is the caller's. 0, or an error as for cfg_fail. */
typedef int (*cfg_item_fn)(struct ctx *c, yaml_node_t *item, size_t i, void *arg);

/*
 * Call `fn` on each item of sequence `seq` in order, each with its "[i]"
 * pushed on the key path and popped after, and stop at the first error,
 * which it returns (0 when every item was read).
 */
int cfg_read_items(struct ctx *c, yaml_node_t *seq, cfg_item_fn fn, void *arg);

/*
 * The string key `key` of mapping `map` (already checked) into *out, a new
 * string: when the key is absent, an error "required key is missing" if
 * `required`, else 0 with *out unchanged. With `valid` given, a string it
 * refuses (returns 0) is an error at the key saying `problem`. The key is
 * on the key path of every message.
 */
int cfg_read_string_key(struct ctx *c, yaml_node_t *map, const char *key, int required,
			int (*valid)(const char *s), const char *problem, char **out);

#endif
