/* config_read.c - readers the experiment's keys and the rules share
 * (config_read.h). */
#include "config_read.h"

int cfg_read_items(struct ctx *c, yaml_node_t *seq, cfg_item_fn fn, void *arg)
{
	size_t n = cfg_nitems(seq), i, save;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		save = cfg_path_index(c, i);
		err = fn(c, cfg_node(c, seq->data.sequence.items.start[i]), i, arg);
		cfg_path_pop(c, save);
	}
	return err;
}

int cfg_read_string_key(struct ctx *c, yaml_node_t *map, const char *key, int required,
			int (*valid)(const char *s), const char *problem, char **out)
{
	yaml_node_pair_t *p = cfg_find_pair(c, map, key);
	size_t save;
	int err;

	if (!p)
		return required ? cfg_missing_key(c, map, key) : 0;
	save = cfg_path_key(c, key);
	err = cfg_get_string(c, cfg_node(c, p->key)->start_mark, cfg_node(c, p->value), 0, out);
	if (!err && valid && !valid(*out))
		err = cfg_fail(c, cfg_node(c, p->key)->start_mark, "%s", problem);
	cfg_path_pop(c, save);
	return err;
}
