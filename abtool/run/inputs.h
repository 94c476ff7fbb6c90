/* inputs.h - the files and folders a benchmark reads from outside the
 * trees (`inputs:` of the experiment file, docs/experiment-file.md): their
 * content hashes, which join the run's provenance, the comparison's
 * identity and the report, and a cheap stamp of their sizes and
 * modification times, taken around every sample. */
#ifndef AB_INPUTS_H
#define AB_INPUTS_H

#include <jansson.h>

/*
 * Hash every path of `paths` (NULL-terminated absolute paths, or NULL):
 * a file's SHA-256; a folder's SHA-256 over its files' relative paths and
 * hashes, in byte order of the paths, recursively (symbolic links are
 * followed). `*out` receives [{path, type: "file"|"folder", sha256, bytes,
 * files}] (new reference) and `hash` the SHA-256 of those hashes with
 * their paths, the inputs' identity ("" when there are none). Errors:
 * AB_ENOTFOUND (a path that does not exist, message "inputs: PATH: ..."),
 * AB_EIO; `*out` is then NULL.
 */
int ab_inputs_hash(json_t **out, char hash[65], char *const *paths);

/*
 * The stamp of `paths`: a SHA-256 over every file's relative path, size
 * and modification time (nanoseconds), without reading any content; two
 * equal stamps say nothing changed as far as stat(2) can tell. Errors as
 * for ab_inputs_hash (a path that disappeared is AB_ENOTFOUND).
 */
int ab_inputs_stamp(char stamp[65], char *const *paths);

/* The first path whose entry differs between two results of
 * ab_inputs_hash (borrowed from `now`, or from `then` when it is gone), or
 * NULL when they agree. */
const char *ab_inputs_changed(const json_t *then, const json_t *now);

#endif
