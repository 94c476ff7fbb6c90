/* util.h - small helpers shared by the modules: allocation, files, paths,
 * hashing (OpenSSL's libcrypto) and the parsing of durations and
 * percentages used by the experiment file. */
#ifndef AB_UTIL_H
#define AB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Allocation that never returns NULL: like git's xmalloc(), abtool stops
 * with exit 70 and a message when memory runs out. New memory; free(). */
void *ab_xmalloc(size_t size);
void *ab_xcalloc(size_t n, size_t size);
void *ab_xrealloc(void *p, size_t size);
char *ab_xstrdup(const char *s);                 /* NULL stays NULL */
char *ab_xstrndup(const char *s, size_t n);
char *ab_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What the allocators above do when memory runs out: "abtool: out of
 * memory" on stderr, then exit 70; for memory another library allocates
 * (OpenSSL's contexts). */
void ab_out_of_memory(void) __attribute__((noreturn));

/* Grow `*arr` (elements of `size` bytes, `*alloc` allocated) to hold at
 * least `n` elements. */
void ab_grow(void *arr, size_t *alloc, size_t n, size_t size);
#define AB_GROW(arr, alloc, n) ab_grow(&(arr), &(alloc), (n), sizeof(*(arr)))

/* Append `s` to the NULL-terminated array `*list` (which may be NULL),
 * taking ownership of `s`. */
void ab_strv_push(char ***list, char *s);

/* ab_strv_push for a long list whose length the caller keeps in `*n`
 * (ab_strv_len of the list when it starts): the array is reallocated to
 * a power of two of elements, which realloc finds in place until it is
 * full, so n appends cost O(n) rather than ab_strv_push's O(n^2). */
void ab_strv_append(char ***list, size_t *n, char *s);

/* Number of strings in a NULL-terminated array (0 for NULL). */
size_t ab_strv_len(char *const *v);

/* Free a NULL-terminated array of strings and the array. */
void ab_strv_free(char **v);

/* Read a whole file into new memory (NUL-terminated; *len excludes it).
 * Errors: AB_ENOTFOUND when missing, AB_EIO otherwise; the message names
 * the path. */
int ab_read_file(char **out, size_t *len, const char *path);

/* Write `len` bytes atomically (temporary file, fsync, rename). AB_EIO. */
int ab_write_file(const char *path, const void *data, size_t len);

/* mkdir -p with mode 0777 (umask applies). AB_EIO. */
int ab_mkdir_p(const char *path);

/* mkdir -p giving each folder it makes `mode` (umask applies; folders
 * that exist keep theirs): 0700 for a store's folders (the XDG base
 * directory specification's mode for data folders). AB_EIO. */
int ab_mkdir_p_mode(const char *path, unsigned mode);

/* rm -rf; a missing path is not an error. AB_EIO. */
int ab_remove_tree(const char *path);

/* New string: `dir` and `name` joined by one '/' */
char *ab_path_join(const char *dir, const char *name);

/* New absolute, normalised path of `path` taken relative to `base` (or
 * the working directory when base is NULL); the path need not exist. */
char *ab_path_absolute(const char *base, const char *path);

/* The first `dir/name` that is executable (access X_OK) for a `dir` of the
 * colon-separated list `path` (a PATH's value; empty entries are skipped,
 * NULL or "" finds nothing): a new string, or NULL. The one search of a
 * PATH in abtool's own process (the child's, between fork and exec, is
 * child.c's, which must not allocate). */
char *ab_path_search(const char *path, const char *name);

/* `s` as one word for /bin/sh (new string): as is when `always` is 0 and
 * it is not empty and has only characters of [A-Za-z0-9_./=:,@%+-], else
 * single-quoted with each ' written '\''. */
char *ab_shell_quote(const char *s, int always);

/* abtool's cache directory: $XDG_CACHE_HOME/abtool, else
 * $HOME/.cache/abtool (new string; created on demand by callers). */
char *ab_cache_dir(void);

/* SHA-256 as 64 lowercase hex digits plus NUL into `hex`. */
void ab_sha256_hex(char hex[65], const void *data, size_t len);

/* SHA-256 of a file's content. AB_ENOTFOUND, AB_EIO. */
int ab_sha256_file(char hex[65], const char *path);

/* Incremental SHA-256 (for streamed process output). Opaque context;
 * ab_sha256_new returns a new context, _final frees it. */
struct ab_sha256;
struct ab_sha256 *ab_sha256_new(void);
void ab_sha256_update(struct ab_sha256 *ctx, const void *data, size_t len);
void ab_sha256_final(struct ab_sha256 *ctx, char hex[65]);

/* Parse a duration like "500ms", "60s", "10m", "1h", "30d", "250us" into
 * milliseconds (microseconds round up to 1 ms; d is 24 hours). Returns 0,
 * or -1 when the text is not a positive duration with a unit. */
int ab_parse_duration_ms(int64_t *out, const char *text);

/* Parse a size like "2G", "500M", "64K", "1T" or "1048576" (bytes) into
 * bytes; the units are powers of 1024 and may end in "B" or "iB" ("2GB",
 * "2GiB"). Returns 0, or -1 when the text is not a non-negative size. */
int ab_parse_size(int64_t *out, const char *text);

/* A size in bytes as "1.2G", "500M", "12K" or "300B" (powers of 1024)
 * into buf. Returns buf. */
char *ab_format_size(char *buf, size_t size, int64_t bytes);

/* Parse a percentage like "5%" or "0.5%" into a fraction (0.05, 0.005).
 * Returns 0, or -1 when not a finite non-negative number followed by '%'. */
int ab_parse_percent(double *out, const char *text);

/* Parse a whole decimal integer / real number; 0 or -1. */
int ab_parse_int64(int64_t *out, const char *text);
int ab_parse_double(double *out, const char *text);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
int64_t ab_now_ns(void);

/* A reading of ab_now_ns as nanoseconds since the Unix epoch: moved by
 * the offset between CLOCK_REALTIME and CLOCK_MONOTONIC read now, so that
 * two readings moved in one process keep their exact difference. */
int64_t ab_epoch_ns(int64_t monotonic_ns);

/* Wall-clock time as "2026-11-30T05:25:29Z" into buf (>= 21 bytes). */
void ab_utc_iso8601(char *buf, size_t size, int64_t unix_seconds);

/* Human units by magnitude, like "99.90 ms", "1.543 s", "812 µs", "2.4 MiB";
 * four significant digits. Writes into buf and returns it. */
const char *ab_format_ns(char *buf, size_t size, double ns);
const char *ab_format_bytes(char *buf, size_t size, double bytes);

/* Levenshtein distance between two short strings (for "did you mean"). */
size_t ab_edit_distance(const char *a, const char *b);

/* The candidate closest to `word`, when close enough to be a likely typo
 * (at most 2 edits, and fewer edits than the word has letters); or NULL.
 * Borrowed from `cands`. Every "did you mean" of abtool uses it: unknown
 * keys, parameters, metrics and placeholders of the experiment file, the
 * host requirements, unknown options and commands. */
const char *ab_suggest(const char *word, const char *const *cands, size_t n);

#endif
