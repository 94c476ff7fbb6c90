/* config_keys.h - the experiment file's keys (config.h): the reader of
 * the top-level mapping, which dispatches each key to its reader, and
 * those readers, one file per family of keys (config_keys_<family>.c);
 * private to config*.c. */
#ifndef AB_CONFIG_KEYS_H
#define AB_CONFIG_KEYS_H

#include "config_read.h"
#include "config_yaml.h"

/* Read the experiment's root node (NULL: an empty file) into c->exp and
 * fill in the defaults that depend on other keys (design, repo, ...).
 * Errors as for ab_experiment_parse. */
int cfg_read_root(struct ctx *c, yaml_node_t *root);

/*
 * The readers of the top-level keys (key_handler functions, config_yaml.h):
 * each reads the value `v` of key `k` into the field at `field` (the
 * experiment's member of the same name, unless said otherwise) or into
 * c->exp, and returns 0 or an error as for cfg_fail, at the key unless
 * said otherwise. They run in the order of config_keys.c's table.
 */

/* config_keys_command.c: `build` (a string or a list of strings, into
 * the struct ab_command at `field`); `benchmark`, `prepare`, `cleanup`
 * (the same, whose {param} placeholders name matrix parameters: read
 * after `matrix`); `env` (NAME: value, and `keep:`); `inputs` (paths
 * made absolute from the experiment's folder); `sides` (two commands
 * compared instead of two revisions; `field` unused). */
int cfg_h_command(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_benchmark(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_env(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_inputs(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_sides(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* config_keys_metrics.c: `checksum` (one of regex, stdout, json, file,
 * into the struct ab_checksum at `field`); `metrics` (name: {regex or
 * json, unit, better}, appended to exp->metrics). A regex must compile
 * and have a capture group. */
int cfg_h_checksum(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_metrics(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* config_keys_matrix.c: `matrix` (parameter: value or [values], at most
 * AB_MAX_ROWS rows, no value twice); `scaling` ({parameter, work}, read
 * after `matrix`: the parameter's values must be positive numbers). */
int cfg_h_matrix(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_scaling(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* config_keys_tree.c: `workdir` (a path inside the tree: relative,
 * without ".."; a new string at `field`); `repo` (kept in c->repo, made
 * absolute by cfg_read_root); `artifacts` (paths inside the tree);
 * `overlay` (paths, each once, or {from, paths}); `dependencies` (other
 * repositories, each with its own name and path). */
int cfg_h_tree_path(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_repo(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_artifacts(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_overlay(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_dependencies(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

/* config_keys_host.c: `warmup` (0 to 1000 samples, an int at `field`);
 * `affinity` (a CPU list, or {cpus, per_lane}); `env_padding` (true,
 * false or 0 to 65536 bytes, an int at `field`); `environment`
 * ({require, commands, commands_timeout}). */
int cfg_h_warmup(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_affinity(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_env_padding(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);
int cfg_h_environment(struct ctx *c, void *field, yaml_node_t *k, yaml_node_t *v);

#endif
