/* cache.h - the build cache's entries as a whole: list them, prune them
 * by age or total size, clear them (docs/cli.md, "abtool cache"). An entry
 * is CACHE/builds/KEY/ (the tree) with KEY.json (the finished build's
 * record: status, commit, created_unix), KEY.log, KEY.use (its
 * modification time is the last use; a run holds a shared flock on it
 * while it uses the entry, see build.h) and KEY.lock (the exclusive lock
 * of a build; the empty file stays when the entry is removed). */
#ifndef AB_CACHE_H
#define AB_CACHE_H

#include <stddef.h>
#include <stdint.h>

enum ab_cache_action {
	AB_CACHE_KEPT = 0,
	AB_CACHE_REMOVED,
	AB_CACHE_LOCKED,      /* not removed: a run holds it (building or using it) */
	AB_CACHE_UNFINISHED,  /* not removed: a run not finished in the store uses it */
};

struct ab_cache_entry {
	char key[65];
	int64_t size;             /* bytes on disk of all its files */
	int64_t created_unix;     /* from KEY.json, else the tree's mtime; 0 unknown */
	int64_t last_used_unix;   /* KEY.use's mtime, else created_unix */
	char *commit;             /* from KEY.json, or NULL (a failed or unfinished build); new */
	int ok;                   /* 1: KEY.json says the build finished ok */
	int locked;               /* 1: a run holds it now (ab_cache_list checks) */
	enum ab_cache_action action;
};

/*
 * The entries of the cache at `cache_dir` (abtool's cache directory, as
 * ab_cache_dir), most recently used first: *out new (free with
 * ab_cache_entries_free), *n their number. A missing cache is no entries.
 * AB_EIO when the folder cannot be read.
 */
int ab_cache_list(const char *cache_dir, struct ab_cache_entry **out, size_t *n);

void ab_cache_entries_free(struct ab_cache_entry *e, size_t n);

/* What to prune. */
struct ab_cache_prune {
	int64_t older_than_s;     /* remove entries last used longer ago than this; -1: no age limit */
	int64_t keep_size;        /* then remove least recently used first down to this; -1: none */
	int all;                  /* remove every entry (clear) */
	char *const *unfinished;  /* keys of unfinished runs' builds, never removed (or NULL) */
	int64_t now_unix;         /* the time ages count from */
};

/*
 * Prune the cache at `cache_dir`: list its entries (ab_cache_list) and
 * remove those the options choose (older_than_s first, then keep_size,
 * least recently used first), skipping an entry a run holds (its KEY.lock
 * or KEY.use is locked: AB_CACHE_LOCKED) or whose key is in `unfinished`
 * (AB_CACHE_UNFINISHED); such an entry still counts towards keep_size.
 * Each entry's action says what happened; *out and *n as ab_cache_list.
 * AB_EIO when a chosen entry's files cannot be removed (the entries are
 * returned still).
 */
int ab_cache_prune(const char *cache_dir, const struct ab_cache_prune *opt,
		   struct ab_cache_entry **out, size_t *n);

#endif
