/* build.h - builds in materialized trees, cached (docs/experiment-file.md,
 * "Trees and the build cache"). An entry of the cache is one tree plus its build outputs, in
 * CACHE/builds/KEY/, where KEY is the SHA-256 of everything that decides
 * the build's result: the commit and its tree id, the overlay's blobs, the
 * dependencies' commits and places, the build command, the environment
 * the experiment sets, the compiler identity, and a salt
 * (calibration builds the same commit twice). All keys have the same
 * length, so both sides' tree paths have equal length. One lock per entry
 * (flock on KEY.lock, exclusive while the entry is checked or built) lets
 * concurrent runs share the cache; a run that uses an entry holds a shared
 * flock on KEY.use from its build until ab_build_release (the end of the
 * run), and KEY.use's modification time is the entry's last use (cache.h
 * prunes by it). */
#ifndef AB_BUILD_H
#define AB_BUILD_H

#include <stdint.h>

#include <git2.h>
#include <jansson.h>

#include "config.h"

/* A dependency's revision for one side, materialized at `path` inside
 * the tree before the build. Borrowed. */
struct ab_build_dep {
	git_repository *repo;
	const git_oid *commit;
	const char *path;                /* relative to the tree */
	const char *env;                 /* a variable that receives its absolute path, or NULL */
};

/* What to build. Borrowed pointers. */
struct ab_build_spec {
	git_repository *repo;            /* the user's repository */
	const git_oid *commit;
	const char *tree_hex;            /* the commit's tree id */
	const struct ab_command *command;/* may be empty: only materialize */
	char *const *env;                /* "NAME=value", NULL-terminated, or NULL */
	char *const *artifacts;          /* paths relative to the tree to hash, or NULL */
	const char *identity;            /* compiler identity text (part of the key) */
	const char *salt;                /* "" normally */
	const char *cache_dir;           /* abtool's cache directory */
	int64_t timeout_ms;
	/* overlay: paths of overlay_commit (in `repo`) written over the tree */
	const git_oid *overlay_commit;   /* or NULL */
	char *const *overlay_paths;
	const json_t *overlay_entries;   /* [{path, type, oid}] from ab_revs_overlay_resolve (key) */
	const struct ab_build_dep *deps;
	size_t ndeps;
	/* Called once when another process holds the entry's lock, before
	 * waiting for it (may be NULL). */
	void (*waiting)(void *ctx, const char *lock_path);
	void *waiting_ctx;
};

enum ab_build_status {
	AB_BUILD_OK = 0,
	AB_BUILD_FAILED,       /* the command exited non-zero or was killed */
	AB_BUILD_TIMED_OUT,
	AB_BUILD_NO_ARTIFACT,  /* an artifact named in the experiment is missing */
};

struct ab_build {
	char key[65];
	char *dir;             /* the tree (and build folder), new */
	char *log_path;        /* the whole build log, new */
	int cached;            /* 1: reused, the command did not run */
	char *damaged;         /* why a cached entry was not reused but built again (its
	                          tree was changed since its build), or NULL; new */
	int no_command;        /* 1: the experiment has no build command */
	enum ab_build_status status;
	int64_t duration_ns;   /* of the original build (also when cached) */
	char *detail;          /* how a failed build ended ("exit 2"), or NULL */
	char *missing;         /* AB_BUILD_NO_ARTIFACT: the declared artifact not found (its path
	                          relative to the tree), or NULL; new */
	char **same_name;      /* AB_BUILD_NO_ARTIFACT: files in the tree (outside .git) with the
	                          missing artifact's file name, relative to the tree, sorted, at
	                          most 8; NULL-terminated, or NULL when none; new */
	json_t *artifacts;     /* {path: sha256 hex} (new reference) */
	int in_use;            /* 1: use_fd holds the shared lock on KEY.use */
	int use_fd;
};

/*
 * Return a ready tree for the spec: from the cache when an entry with the
 * same key finished successfully and its tree is intact, else materialize
 * and build it now (under the entry's lock; the lock is waited for when
 * another process holds it). Intact: every declared artifact hashes as
 * its build recorded, and the stat data (size, mode, inode, mtime, ctime)
 * of the files the tree's git index lists, and its dependencies', is what
 * it was after the build; otherwise out->damaged says why, and the entry
 * is built again. A failed build is not cached: the next run tries again.
 * Either way the tree's scratch directory (ABTOOL_SCRATCH, see
 * ab_build_env) is emptied; ab_build_release removes it. A ready tree
 * (status ok) is held in use (the shared lock on KEY.use, its time set to
 * now) until ab_build_release, which sets the time again and lets go.
 * Returns 0 when the build ran or was reused, whatever its status (see
 * out->status); AB_EIO when the tree could not be made, AB_EINTERRUPTED
 * when interrupted. `out` is initialised here; release with
 * ab_build_release.
 */
int ab_build_prepare(struct ab_build *out, const struct ab_build_spec *spec);

void ab_build_release(struct ab_build *b);

/* The last `max_lines` lines of the build log (new string). */
char *ab_build_log_tail(const struct ab_build *b, int max_lines);

/* The output of the compiler identity commands (default `cc --version`)
 * joined, for the cache key and the provenance (new string; a failed
 * command contributes its error text instead). */
char *ab_build_identity(char *const *commands);

const char *ab_build_status_name(enum ab_build_status status);

/* The environment a build or a sample of this spec runs with, in the tree
 * `dir`: git's repository variables (GIT_DIR, GIT_WORK_TREE, ...) removed,
 * then the experiment's `env` entries, then NAME=DIR/PATH for every
 * dependency that names a variable, then ABTOOL_SCRATCH: a directory
 * outside the tree, DIR.scratch-PID, for what a sample writes (emptied
 * by ab_build_prepare, removed by ab_build_release; the same length on
 * both sides; none when `dir` is NULL: two commands compared without a
 * tree, `sides:`, and then no dependencies). New NULL-terminated array, in
 * the form of ab_runner_spec.env_extra. */
char **ab_build_env(char *const *env, const struct ab_build_dep *deps, size_t ndeps, const char *dir);

#endif
