/* config_profile.h - the `profile:` key of an experiment file
 * (docs/experiment-file.md, docs/profiles.md); private to config*.c. */
#ifndef AB_CONFIG_PROFILE_H
#define AB_CONFIG_PROFILE_H

#include "config_yaml.h"

/* The reader of `profile:` (a key_handler function; `field` unused):
 * `true`/`false`, or a mapping {rows: selector, samples: 1..100, event:
 * NAME} into c->exp->profile*. Needs `matrix` read before. */
int cfg_h_profile(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

#endif
