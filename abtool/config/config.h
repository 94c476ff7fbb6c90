/* config.h - the experiment file (docs/experiment-file.md, a
 * contract): parsed with libyaml's document API and validated on its
 * nodes, so that every error names file:line:column and the key path,
 * e.g. "exp.yaml:12:5: accept[1].faster_by: expected a percentage like 5%".
 * The result is a plain struct; later stages never see YAML.
 *
 * Marks: LINE:COLUMN is where the key or list element named by the key
 * path starts (a bad value is reported at its key); a missing key is
 * reported at the mapping that lacks it. Indices in key paths are 0-based.
 * Anchors and aliases are resolved (an error inside an aliased value
 * points at the anchored original); merge keys (`<<`) are unknown keys.
 * Regexes (checksum, metrics) are PCRE2 patterns checked at load with
 * PCRE2_UTF and must have a capture group; extractors should compile them
 * with PCRE2_UTF too (plus PCRE2_MATCH_INVALID_UTF for arbitrary output). */
#ifndef AB_CONFIG_H
#define AB_CONFIG_H

#include "experiment.h"

/*
 * Read and validate the experiment file at `path` into `out` (caller-owned
 * memory, initialised here; free with ab_experiment_release even on error).
 * Errors: those of ab_experiment_read; AB_EINVALID for every syntax or
 * validation error, the message being
 * "PATH:LINE:COLUMN: KEY.PATH: what is wrong" (and "did you mean 'x'?" for
 * unknown keys, parameters and metrics close to a known one). Problems of
 * the whole file have no key path: "PATH:LINE:COLUMN: YAML syntax error:
 * ..." (libyaml's problem and context), "not a YAML text file: ..." (NUL,
 * control characters, invalid UTF-8), "the file is empty" (or only
 * comments), "expected a mapping of experiment keys" (another top-level node), "the file holds more than
 * one YAML document". A `where:` that selects no row is an error too.
 * AB_ENOMEM when libyaml runs out of memory.
 */
int ab_experiment_load(struct ab_experiment *out, const char *path);

/* The largest experiment (or rules) file abtool reads: anything bigger is
 * the wrong file, and is refused before it is read. */
#define AB_EXPERIMENT_MAX_BYTES (1024 * 1024)

/*
 * Read the experiment or rules file at `path` into new memory `*out`
 * (NUL-terminated, `*len` bytes; free() it), reading at most
 * AB_EXPERIMENT_MAX_BYTES + 1 bytes whatever the file is. Errors:
 * AB_ENOTFOUND (no such file), AB_EINVALID (a directory, a file above the
 * limit: "FILE is N bytes; an experiment file is at most 1 MiB"), AB_EIO.
 */
int ab_experiment_read(char **out, size_t *len, const char *path);

/* The same on text already in memory; `path` names it in messages and
 * its folder anchors `repo`. `text` is copied. */
int ab_experiment_parse(struct ab_experiment *out, const char *path,
			const char *text, size_t len);

/*
 * Replace the rules of `exp` with those of a rules file: a YAML mapping
 * whose only key is `accept:` (the same rules as in an experiment file,
 * validated against exp's matrix and metrics). `path` names the file in
 * messages. Errors as for ab_experiment_parse.
 */
int ab_experiment_parse_rules(struct ab_experiment *exp, const char *path, const char *text, size_t len);

/*
 * Check that every rule's min_pair_wins count can be met with exp->pairs
 * pairs per row (a count above the planned pairs can never pass, so the
 * run would be wasted). `source` names where the pair count came from in
 * the message, e.g. "pairs: 5" or "--pairs 5". Returns 0, or AB_EINVALID:
 * "FILE:LINE:COL: accept[i] (NAME): min_pair_wins N exceeds the P planned
 * pairs per row (SOURCE); ...". ab_experiment_parse and
 * ab_experiment_parse_rules call it with the file's own pairs.
 */
int ab_experiment_check_pairs(const struct ab_experiment *exp, const char *source);

/* 1 when `name` is a builtin metric (docs/measurement.md, "Metrics"):
 * one measured on every sample, or an optional one that naming it adds
 * (hardware counters, cachegrind_instructions); 0 for any other name,
 * which only `metrics:` can declare. */
int ab_config_is_builtin_metric(const char *name);

#endif
