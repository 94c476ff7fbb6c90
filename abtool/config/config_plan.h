/* config_plan.h - the schedule's keys of an experiment file that make a
 * plan sequential: `pairs:` as a count or as {min, max} / {looks}, and
 * `sequential: {spending}` (docs/experiment-file.md, "Schedule";
 * docs/statistics.md, "Sequential plans"); private to config*.c. */
#ifndef AB_CONFIG_PLAN_H
#define AB_CONFIG_PLAN_H

#include "config_yaml.h"

/* The reader of `pairs:` (a key_handler function; `field` unused): an
 * integer 1 .. 100000 is the fixed plan (exp->pairs); a mapping {min: N,
 * max: M} or {looks: [..]} makes the plan sequential (exp->sequential,
 * exp->seq) with exp->pairs its last look. Errors name the key. */
int cfg_h_pairs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* The reader of `sequential:` (a mapping {spending: NAME}): the spending
 * of a sequential plan, into exp->spending. Read after `pairs:`. */
int cfg_h_sequential(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* The reader of `limits:` (a mapping {rows: N, samples: N}): the bounds
 * of the plan (experiment.h, AB_LIMIT_ROWS and AB_LIMIT_SAMPLES; rows at
 * most AB_MAX_ROWS, samples at most AB_LIMIT_MAX_SAMPLES), checked once
 * the whole file is read (ab_experiment_check_limits). */
int cfg_h_limits(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

#endif
