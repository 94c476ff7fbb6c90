/* config_contention.h - the `contention:` key of an experiment file
 * (docs/experiment-file.md, "contention"; docs/measurement.md,
 * "Contention"); private to config*.c. */
#ifndef AB_CONFIG_CONTENTION_H
#define AB_CONFIG_CONTENTION_H

#include "config_yaml.h"

/* The reader of `contention:` (a key_handler function; `field` unused):
 * a mapping {max_cpu_wait: PERCENT, reruns: N|auto, when_exhausted:
 * keep|inconclusive, quiet: {below: CPUS, wait: DURATION}}, every key
 * optional, into exp->contention; `contention: off` is the default (the
 * flag only, no re-run, no wait).
 * Errors name the key, its line and column. */
int cfg_h_contention(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

#endif
