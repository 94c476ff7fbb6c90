/* revs.h - revisions: the candidate and its exact parent, resolved with
 * libgit2 (no git subprocess), and the materialization of one revision as
 * a tree on disk (docs/experiment-file.md, "Trees and the build cache"). */
#ifndef AB_REVS_H
#define AB_REVS_H

#include <git2.h>
#include <jansson.h>

struct ab_revs {
	git_repository *repo;      /* owned */
	char *commondir;           /* git's common directory (where the store lives), new */
	char *workdir;             /* the user's work tree, or NULL for a bare repository */
	git_oid parent, candidate; /* commits */
	git_oid parent_tree, candidate_tree;
	char parent_hex[GIT_OID_HEXSZ + 1], candidate_hex[GIT_OID_HEXSZ + 1];
	char parent_tree_hex[GIT_OID_HEXSZ + 1], candidate_tree_hex[GIT_OID_HEXSZ + 1];
	char *parent_subject, *candidate_subject;   /* first lines of the messages, new */
	int exact_parent;          /* 1: parent is the candidate's first parent */
	int parent_descends;       /* 1: the parent is a descendant of the candidate (swapped?) */
	int candidate_parents;     /* number of parents of the candidate (2+ for a merge) */
};

/* Initialise libgit2 once per process (idempotent). */
void ab_revs_global_init(void);

/*
 * Open the repository at `repo_path` and resolve `candidate_spec` (any
 * revspec) to a commit and the parent: `parent_spec` when given, else the
 * candidate's first parent. When `require_exact` and parent_spec names a
 * commit other than the first parent, refuse. Fills `out` (release with
 * ab_revs_release, also on error).
 * Errors (all AB_EINVALID or AB_ENOTFOUND, exit 64): not a repository; an
 * unknown revision; a candidate without parents; a parent commit missing
 * from the object database (a shallow clone); a parent that is not the
 * exact parent (the message names both commits and the first parent); a
 * candidate or parent whose tree has a submodule (a gitlink), which abtool
 * does not check out.
 */
int ab_revs_open(struct ab_revs *out, const char *repo_path, const char *candidate_spec,
		 const char *parent_spec, int require_exact);

void ab_revs_release(struct ab_revs *revs);

/*
 * The paths (relative to the repository's root) whose blobs differ
 * between the parent's and the candidate's trees, at most `max` of them,
 * into *out (NULL-terminated new array, or NULL when the trees are the
 * same); *more is set to 1 when there were more than `max`. Errors:
 * AB_EIO when a tree cannot be read or compared.
 */
int ab_revs_changed_paths(char ***out, int *more, const struct ab_revs *revs, size_t max);

/* 1 when the candidate is the checked-out commit (HEAD) and tracked files
 * of the user's work tree or index differ from it (their changes are not
 * measured: only commits are); 0 when clean, bare, or the candidate is
 * another commit; negative on error. Costs one stat per tracked file. */
int ab_revs_dirty(struct ab_revs *revs);

/*
 * Materialize `commit` of `repo` into the empty or missing folder `dir`: a
 * repository of its own whose objects are borrowed from `repo` through
 * objects/info/alternates, HEAD detached at the commit, the work tree
 * checked out. Nothing in the user's repository changes (no branch, no
 * index, no work tree). Errors: AB_EIO with libgit2's message.
 */
int ab_revs_materialize(git_repository *repo, const git_oid *commit, const char *dir);

/*
 * Look up `paths` (relative, files or folders) in the tree of `commit`:
 * a JSON array (new reference) of {path, type ("blob", "tree" or "link"),
 * oid}. Errors: AB_EINVALID naming the first path that the revision does
 * not have (`what` names the revision in the message, e.g. "candidate
 * 76a1119").
 */
int ab_revs_overlay_resolve(json_t **out, git_repository *repo, const git_oid *commit,
			    char *const *paths, const char *what);

/*
 * Write `paths` of `commit`'s tree into the work tree `dir`: a file
 * replaces the file there (mode and symlinks kept), a folder replaces the
 * whole folder (files that only the target had are removed first).
 * Errors: AB_EIO with the path.
 */
int ab_revs_overlay_apply(git_repository *repo, const git_oid *commit, char *const *paths,
			  const char *dir);

/* The libgit2 error as "message" (borrowed, never NULL). */
const char *ab_revs_git_error(void);

/* Open the repository that holds `path` (looking upwards, as git does).
 * Returns AB_ENOTFOUND when there is none (no message: the caller says
 * what to do; ab_revs_git_error() has libgit2's), AB_EINVALID with a
 * message for a repository libgit2 cannot open (a SHA-256 repository, an
 * unknown extension, no permission). */
int ab_revs_open_repository(git_repository **out, const char *path);

/*
 * The first-parent path from commit `good` to commit `bad` (revspecs) in
 * the repository holding `repo_path`: *hex and *subjects (new
 * NULL-terminated arrays of *n entries) list good, then every commit on
 * bad's first-parent chain after it, oldest first, ending with bad.
 * Errors: AB_ENOTFOUND (no repository, an unknown revision), AB_EINVALID
 * (good is bad, or not on bad's first-parent chain: the message says to
 * swap them when bad descends from good the other way round) (revs_path.c).
 */
int ab_revs_first_parent_path(char ***hex, char ***subjects, size_t *n, const char *repo_path,
			      const char *good, const char *bad);

/*
 * The derived project of `repo` (new string in *out; revs_project.c):
 * the URL of its remote "origin", else of its first remote by name, as
 * configured (remote.NAME.url; url.NAME.insteadOf is not applied: it is
 * one user's rewrite), through ab_project_from_url (project.h); with no
 * remote, AB_PROJECT_ROOT and the full id of the root commit reached from
 * HEAD by first parents. Errors: AB_EINVALID when there is neither a
 * remote nor a commit (an empty repository; the message says to set
 * project:), AB_EIO when libgit2 fails.
 */
int ab_revs_project(char **out, git_repository *repo);

#endif
