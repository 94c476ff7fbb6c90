/* config_keys.h - the experiment file's keys (config.h): the reader of
 * the top-level mapping, which dispatches each key to its reader; private
 * to config*.c. */
#ifndef AB_CONFIG_KEYS_H
#define AB_CONFIG_KEYS_H

#include "config_yaml.h"

/* Read the experiment's root node (NULL: an empty file) into c->exp and
 * fill in the defaults that depend on other keys (design, repo, ...).
 * Errors as for ab_experiment_parse. */
int cfg_read_root(struct ctx *c, yaml_node_t *root);

#endif
