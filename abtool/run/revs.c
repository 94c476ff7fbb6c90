/* revs.c - revisions and trees with libgit2 (see revs.h). */
#include "revs.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ab_revs_global_init(void)
{
	static int done;

	if (!done) {
		git_libgit2_init();
		done = 1;
	}
}

const char *ab_revs_git_error(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

int ab_revs_open_repository(git_repository **out, const char *path)
{
	int rc;

	ab_revs_global_init();
	rc = git_repository_open_ext(out, path, 0, NULL);
	if (rc == 0)
		return 0;
	*out = NULL;
	if (rc == GIT_ENOTFOUND)
		return AB_ENOTFOUND;
	/* there is one, but libgit2 cannot read it */
	return ab_error_set(AB_EINVALID, "cannot open the git repository at '%s': %s%s", path,
			    ab_revs_git_error(),
			    strstr(ab_revs_git_error(), "objectformat")
			    ? " (a SHA-256 repository: the libgit2 abtool is built with reads SHA-1 "
			      "repositories only)" : "");
}

static char *subject(const git_commit *c)
{
	const char *s = git_commit_summary((git_commit *)c);
	return ab_xstrdup(s ? s : "");
}

static void short_hex(char out[13], const git_oid *oid)
{
	git_oid_tostr(out, 13, oid);
	out[10] = '\0';
}

/* "names a tree, not a commit" for a revision that does not peel to a
 * commit; libgit2 says "the git_object of id '...' can not be
 * successfully peeled into a commit (git_object_t=1)". A tag is followed
 * to what it points at. */
static int not_a_commit(git_object *obj, const char *spec, const char *role)
{
	git_object *target = NULL;
	const git_object *what = obj;
	char h[13];
	int err;

	if (git_object_type(obj) == GIT_OBJECT_TAG && git_object_peel(&target, obj, GIT_OBJECT_ANY) == 0)
		what = target;
	short_hex(h, git_object_id(what));
	err = ab_error_set(AB_EINVALID, "%s revision '%s' names a %s (%s), not a commit; give a commit, "
			   "branch or tag that points at a commit (without a suffix such as ^{tree} or "
			   ":path)", role, spec, git_object_type2string(git_object_type(what)), h);
	git_object_free(target);
	return err;
}

static int resolve(git_commit **out, git_repository *repo, const char *spec, const char *role,
		   const char *path)
{
	git_object *obj = NULL;
	git_reference *head = NULL;
	int err;

	if (git_revparse_single(&obj, repo, spec) < 0 && !strcmp(spec, "HEAD") &&
	    git_repository_head_unborn(repo) == 1) {
		/* a new repository, or a branch made with 'git checkout --orphan' */
		const char *branch = git_reference_lookup(&head, repo, "HEAD") == 0 &&
						     git_reference_symbolic_target(head)
					     ? git_reference_symbolic_target(head) : "?";

		if (!strncmp(branch, "refs/heads/", 11))
			branch += 11;
		err = ab_error_set(AB_ENOTFOUND, "the %s is HEAD, but HEAD of '%s' is branch '%s', which "
				   "has no commit yet; commit first, or name a commit with --candidate",
				   role, path, branch);
		git_reference_free(head);
		return err;
	}
	if (!obj && strpbrk(spec, "~^") && strstr(ab_revs_git_error(), "does not exist"))
		/* libgit2 says "parent 0 does not exist" */
		return ab_error_set(AB_ENOTFOUND, "%s revision '%s' reaches further back than the history of "
				    "'%s' (a root commit on the way, or a shallow clone); 'git log --oneline' "
				    "lists the commits", role, spec, path);
	if (!obj)
		return ab_error_set(AB_ENOTFOUND, "unknown %s revision '%s' in '%s': %s; give a commit, "
				    "branch or tag of that repository ('git log --oneline' lists commits)",
				    role, spec, path, ab_revs_git_error());
	err = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	if (err < 0)
		err = not_a_commit(obj, spec, role);
	git_object_free(obj);
	return err;
}

/* Stop the walk (a negative return) at the first gitlink: a submodule's commit. */
static int gitlink_cb(const char *root, const git_tree_entry *e, void *payload)
{
	char **path = payload;

	if (git_tree_entry_filemode(e) != GIT_FILEMODE_COMMIT)
		return 0;
	*path = ab_xasprintf("%s%s", root, git_tree_entry_name(e));
	return -1;
}

/*
 * Refuse a tree with submodules: a checkout by libgit2 leaves each one an
 * empty folder, so both sides would build without that code, or fail in
 * a way that says nothing about the change.
 */
static int refuse_submodules(const git_commit *c, const char *role)
{
	git_tree *tree = NULL;
	char *path = NULL, h[13];
	int err = 0;

	short_hex(h, git_commit_id(c));
	if (git_commit_tree(&tree, c) < 0)
		return ab_error_set(AB_EIO, "cannot read the tree of %s %s: %s", role, h, ab_revs_git_error());
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, gitlink_cb, &path) < 0 && !path)
		err = ab_error_set(AB_EIO, "cannot read the tree of %s %s: %s", role, h, ab_revs_git_error());
	if (path)
		err = ab_error_set(AB_EINVALID, "the tree of %s %s has submodule '%s': abtool does not check "
				   "out submodules; vendor the code or list it under dependencies:", role, h, path);
	free(path);
	git_tree_free(tree);
	return err;
}

int ab_revs_open(struct ab_revs *out, const char *repo_path, const char *candidate_spec,
		 const char *parent_spec, int require_exact)
{
	git_commit *cand = NULL, *first = NULL, *par = NULL;
	const git_oid *first_oid;
	char *shown = NULL;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if ((err = ab_revs_open_repository(&out->repo, repo_path)) == AB_ENOTFOUND)
		return ab_error_set(AB_EINVALID, "'%s' is not a git repository (or any of its parents): %s; "
				    "set 'repo:' in the experiment file", repo_path, ab_revs_git_error());
	if (err < 0)
		return err;
	out->commondir = ab_xstrdup(git_repository_commondir(out->repo));
	if (git_repository_workdir(out->repo))
		out->workdir = ab_xstrdup(git_repository_workdir(out->repo));

	/* messages name the repository, not the folder it was found from */
	shown = out->workdir ? ab_xstrndup(out->workdir, strlen(out->workdir) - (strlen(out->workdir) > 1))
			     : ab_xstrdup(repo_path);
	if ((err = resolve(&cand, out->repo, candidate_spec, "candidate", shown)) < 0)
		goto out;
	git_oid_cpy(&out->candidate, git_commit_id(cand));
	out->candidate_parents = (int)git_commit_parentcount(cand);
	out->candidate_subject = subject(cand);
	if (out->candidate_parents == 0 && !parent_spec) {
		char h[13];
		short_hex(h, &out->candidate);
		err = ab_error_set(AB_EINVALID, "candidate %s ('%s') is a root commit: it has no parent to "
				   "compare against; name a later commit with --candidate", h,
				   out->candidate_subject);
		goto out;
	}
	if (out->candidate_parents > 0) {
		first_oid = git_commit_parent_id(cand, 0);
		if (git_commit_lookup(&first, out->repo, first_oid) < 0) {
			char h[13], p[13];
			short_hex(h, &out->candidate);
			short_hex(p, first_oid);
			err = ab_error_set(AB_ENOTFOUND, "the parent %s of candidate %s is not in the repository "
					   "(a shallow clone?); fetch more history, e.g. 'git fetch "
					   "--deepen=1' or 'actions/checkout' with fetch-depth: 0", p, h);
			goto out;
		}
	}
	if (parent_spec) {
		if ((err = resolve(&par, out->repo, parent_spec, "parent", shown)) < 0)
			goto out;
		if (require_exact && (!first || !git_oid_equal(git_commit_id(par), git_commit_id(first)))) {
			char c[13], p[13], f[13];
			short_hex(c, &out->candidate);
			short_hex(p, git_commit_id(par));
			if (first)
				short_hex(f, git_commit_id(first));
			err = ab_error_set(AB_EINVALID,
					   "parent %s ('%s') is not the exact parent of candidate %s ('%s'); "
					   "its first parent is %s; remove 'parent:' to compare against the "
					   "exact parent, or set 'exact_parent: false' to compare these two",
					   p, git_commit_summary(par), c, out->candidate_subject,
					   first ? f : "none (a root commit)");
			goto out;
		}
	} else {
		par = first;
		first = NULL;
	}
	if ((err = refuse_submodules(cand, "candidate")) < 0 ||
	    (err = refuse_submodules(par, "parent")) < 0)
		goto out;
	git_oid_cpy(&out->parent, git_commit_id(par));
	out->exact_parent = out->candidate_parents > 0 &&
			    git_oid_equal(&out->parent, git_commit_parent_id(cand, 0));
	/* --candidate and --parent swapped: the ratios would read backwards */
	out->parent_descends = !out->exact_parent && !git_oid_equal(&out->parent, &out->candidate) &&
			       git_graph_descendant_of(out->repo, &out->parent, &out->candidate) == 1;
	out->parent_subject = subject(par);
	git_oid_cpy(&out->parent_tree, git_commit_tree_id(par));
	git_oid_cpy(&out->candidate_tree, git_commit_tree_id(cand));
	git_oid_tostr(out->parent_hex, sizeof(out->parent_hex), &out->parent);
	git_oid_tostr(out->candidate_hex, sizeof(out->candidate_hex), &out->candidate);
	git_oid_tostr(out->parent_tree_hex, sizeof(out->parent_tree_hex), &out->parent_tree);
	git_oid_tostr(out->candidate_tree_hex, sizeof(out->candidate_tree_hex), &out->candidate_tree);
out:
	free(shown);
	git_commit_free(cand);
	git_commit_free(first);
	git_commit_free(par);
	return err;
}

void ab_revs_release(struct ab_revs *revs)
{
	git_repository_free(revs->repo);
	free(revs->commondir);
	free(revs->workdir);
	free(revs->parent_subject);
	free(revs->candidate_subject);
	memset(revs, 0, sizeof(*revs));
}

int ab_revs_changed_paths(char ***out, int *more, const struct ab_revs *revs, size_t max)
{
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	size_t i, n;
	int err = 0;

	*out = NULL;
	*more = 0;
	if (git_tree_lookup(&a, revs->repo, &revs->parent_tree) < 0 ||
	    git_tree_lookup(&b, revs->repo, &revs->candidate_tree) < 0 ||
	    git_diff_tree_to_tree(&diff, revs->repo, a, b, NULL) < 0) {
		err = ab_error_set(AB_EIO, "cannot compare the trees of %.10s and %.10s: %s",
				   revs->parent_hex, revs->candidate_hex, ab_revs_git_error());
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n && i < max; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		ab_strv_push(out, ab_xstrdup(d->new_file.path ? d->new_file.path : d->old_file.path));
	}
	*more = n > max;
out:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	return err;
}

int ab_revs_dirty(struct ab_revs *revs)
{
	git_status_options opts;
	git_status_list *list;
	git_oid head;
	int dirty;

	/* Only a candidate that is the checked-out commit can be mistaken for
	 * the work tree; the check stats every tracked file (20,000 stats in
	 * a large tree), so skip it otherwise. */
	if (!revs->workdir || git_reference_name_to_id(&head, revs->repo, "HEAD") < 0 ||
	    !git_oid_equal(&head, &revs->candidate))
		return 0;
	git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, revs->repo, &opts) < 0)
		return ab_error_set(AB_EIO, "cannot read the work tree's status: %s", ab_revs_git_error());
	dirty = git_status_list_entrycount(list) > 0;
	git_status_list_free(list);
	return dirty;
}

/* git_tree_walk callback: stop at the first .gitattributes. */
static int find_attributes(const char *root, const git_tree_entry *entry, void *payload)
{
	(void)root;
	if (!strcmp(git_tree_entry_name(entry), ".gitattributes")) {
		*(int *)payload = 1;
		return -1;
	}
	return 0;
}

/* Does `name` exist in one of the folders of libgit2's search path for
 * config `level` (GIT_OPT_GET_SEARCH_PATH, ':'-separated)? */
static int in_search_path(int level, const char *name)
{
	git_buf dirs = GIT_BUF_INIT;
	const char *p, *end;
	int found = 0;

	if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &dirs) < 0)
		return 1;   /* cannot tell: assume it does */
	for (p = dirs.ptr; p && *p && !found; p = *end ? end + 1 : end) {
		char *dir, *path;

		end = strchr(p, GIT_PATH_LIST_SEPARATOR);
		if (!end)
			end = p + strlen(p);
		dir = ab_xstrndup(p, (size_t)(end - p));
		path = ab_path_join(dir, name);
		found = access(path, F_OK) == 0;
		free(path);
		free(dir);
	}
	git_buf_dispose(&dirs);
	return found;
}

/*
 * Could a checkout filter change a file of `tree` in `tree_repo`? libgit2
 * has two filters, crlf and ident, and abtool registers none: both act
 * only through gitattributes (the tree's .gitattributes files,
 * core.attributesFile or the XDG attributes file, the system
 * gitattributes; the tree's own $GIT_DIR/info/attributes cannot exist,
 * as git_repository_init copies no templates) or, for crlf on checkout, core.autocrlf
 * = true (libgit2 1.5 crlf.c convert_attrs; "input" converts only on
 * commit). When none of them is there, the filters are skipped: looking
 * the attributes up costs libgit2 1.5 two realpath() calls per file
 * (attr.c collect_attr_files), about half the time of checking out
 * 20,000 small files. Errors count as "could".
 */
static int filters_may_apply(git_repository *tree_repo, git_tree *tree)
{
	git_config *cfg = NULL;
	git_buf value = GIT_BUF_INIT;
	int found = 0, autocrlf = 0, may = 1;

	if (git_tree_walk(tree, GIT_TREEWALK_PRE, find_attributes, &found) < 0 || found)
		return 1;
	if (in_search_path(GIT_CONFIG_LEVEL_SYSTEM, "gitattributes"))
		return 1;
	if (git_repository_config_snapshot(&cfg, tree_repo) < 0)
		return 1;
	if (git_config_get_string_buf(&value, cfg, "core.attributesfile") != GIT_ENOTFOUND)
		goto out;
	if (in_search_path(GIT_CONFIG_LEVEL_XDG, "attributes"))
		goto out;
	git_buf_dispose(&value);
	switch (git_config_get_string_buf(&value, cfg, "core.autocrlf")) {
	case GIT_ENOTFOUND:
		may = 0;
		break;
	case 0:
		may = strcmp(value.ptr, "input") &&
		      (git_config_parse_bool(&autocrlf, value.ptr) < 0 || autocrlf);
		break;
	}
out:
	git_buf_dispose(&value);
	git_config_free(cfg);
	return may;
}

int ab_revs_materialize(git_repository *repo, const git_oid *commit, const char *dir)
{
	git_repository *tree_repo = NULL;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_checkout_options co;
	char *alternates = NULL, *objects = NULL, *line = NULL;
	int err = 0;

	ab_revs_global_init();
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if (git_repository_init(&tree_repo, dir, 0) < 0) {
		err = ab_error_set(AB_EIO, "cannot create a tree in '%s': %s", dir, ab_revs_git_error());
		goto out;
	}
	git_repository_free(tree_repo);
	tree_repo = NULL;

	/* Borrow the objects instead of copying them: a checkout costs only
	 * the files written, and the user's repository is never written to. */
	objects = ab_path_join(git_repository_commondir(repo), "objects");
	alternates = ab_path_join(dir, ".git/objects/info/alternates");
	line = ab_xasprintf("%s\n", objects);
	if ((err = ab_write_file(alternates, line, strlen(line))) < 0)
		goto out;

	if (git_repository_open(&tree_repo, dir) < 0 ||
	    git_commit_lookup(&c, tree_repo, commit) < 0 ||
	    git_commit_tree(&tree, c) < 0) {
		err = ab_error_set(AB_EIO, "cannot open the tree in '%s': %s", dir, ab_revs_git_error());
		goto out;
	}
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	co.disable_filters = !filters_may_apply(tree_repo, tree);
	if (git_checkout_tree(tree_repo, (git_object *)c, &co) < 0 ||
	    git_repository_set_head_detached(tree_repo, commit) < 0) {
		err = ab_error_set(AB_EIO, "cannot check out %s in '%s': %s", git_oid_tostr_s(commit),
				   dir, ab_revs_git_error());
		goto out;
	}
out:
	git_tree_free(tree);
	git_commit_free(c);
	git_repository_free(tree_repo);
	free(alternates);
	free(objects);
	free(line);
	return err;
}

static const char *entry_type(const git_tree_entry *e)
{
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		return "link";
	return git_tree_entry_type(e) == GIT_OBJECT_TREE ? "tree" : "blob";
}

int ab_revs_overlay_resolve(json_t **out, git_repository *repo, const git_oid *commit,
			    char *const *paths, const char *what)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	char *const *p;
	int err = 0;

	*out = json_array();
	if (git_commit_lookup(&c, repo, commit) < 0 || git_commit_tree(&tree, c) < 0) {
		err = ab_error_set(AB_EIO, "cannot read %s: %s", what, ab_revs_git_error());
		goto out;
	}
	for (p = paths; p && *p; p++) {
		git_tree_entry *e = NULL;
		char oid[GIT_OID_HEXSZ + 1];
		const char *path = *p;
		size_t len = strlen(path);
		char *trimmed = ab_xstrndup(path, len && path[len - 1] == '/' ? len - 1 : len);

		if (git_tree_entry_bypath(&e, tree, trimmed) < 0) {
			err = ab_error_set(AB_EINVALID, "overlay: '%s' is not in %s; check the path or "
					   "'overlay.from'", path, what);
			free(trimmed);
			goto out;
		}
		git_oid_tostr(oid, sizeof(oid), git_tree_entry_id(e));
		json_array_append_new(*out, json_pack("{s:s, s:s, s:s}", "path", trimmed, "type",
						      entry_type(e), "oid", oid));
		git_tree_entry_free(e);
		free(trimmed);
	}
out:
	git_tree_free(tree);
	git_commit_free(c);
	if (err) {
		json_decref(*out);
		*out = NULL;
	}
	return err;
}

/* Write one blob (file or symlink) at `path`. */
static int write_blob(git_repository *repo, const git_oid *oid, git_filemode_t mode, const char *path)
{
	git_blob *blob = NULL;
	char *dir = ab_xstrdup(path), *slash = strrchr(dir, '/');
	int err = 0;

	if (slash) {
		*slash = '\0';
		if ((err = ab_mkdir_p(dir)) < 0)
			goto out;
	}
	if (git_blob_lookup(&blob, repo, oid) < 0) {
		err = ab_error_set(AB_EIO, "overlay: cannot read the blob of '%s': %s", path, ab_revs_git_error());
		goto out;
	}
	unlink(path);
	if (mode == GIT_FILEMODE_LINK) {
		char *target = ab_xstrndup(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		if (symlink(target, path) < 0)
			err = ab_error_set(AB_EIO, "overlay: cannot write '%s': %s", path, strerror(errno));
		free(target);
		goto out;
	}
	if ((err = ab_write_file(path, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob))) < 0)
		goto out;
	if (chmod(path, mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644) < 0)
		err = ab_error_set(AB_EIO, "overlay: cannot set the mode of '%s': %s", path, strerror(errno));
out:
	git_blob_free(blob);
	free(dir);
	return err;
}

struct walk {
	git_repository *repo;
	const char *base;   /* the folder in the work tree */
	int err;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk *w = payload;
	char *path;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;  /* folders are made on the way; submodules are not overlaid */
	path = ab_xasprintf("%s/%s%s", w->base, root, git_tree_entry_name(e));
	w->err = write_blob(w->repo, git_tree_entry_id(e), git_tree_entry_filemode(e), path);
	free(path);
	return w->err < 0 ? -1 : 0;
}

int ab_revs_overlay_apply(git_repository *repo, const git_oid *commit, char *const *paths,
			  const char *dir)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	char *const *p;
	int err = 0;

	if (git_commit_lookup(&c, repo, commit) < 0 || git_commit_tree(&tree, c) < 0) {
		err = ab_error_set(AB_EIO, "overlay: cannot read the source revision: %s", ab_revs_git_error());
		goto out;
	}
	for (p = paths; p && *p && !err; p++) {
		git_tree_entry *e = NULL;
		size_t len = strlen(*p);
		char *trimmed = ab_xstrndup(*p, len && (*p)[len - 1] == '/' ? len - 1 : len);
		char *target = ab_path_join(dir, trimmed);

		if (git_tree_entry_bypath(&e, tree, trimmed) < 0) {
			err = ab_error_set(AB_EINVALID, "overlay: '%s' is not in the source revision", *p);
		} else if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
			git_tree *sub = NULL;
			struct walk w = {repo, target, 0};
			if ((err = ab_remove_tree(target)) == 0 && (err = ab_mkdir_p(target)) == 0) {
				if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) < 0)
					err = ab_error_set(AB_EIO, "overlay: cannot read '%s': %s", *p, ab_revs_git_error());
				else if (git_tree_walk(sub, GIT_TREEWALK_PRE, walk_cb, &w) < 0)
					err = w.err < 0 ? w.err : ab_error_set(AB_EIO, "overlay: cannot write '%s': %s",
									     *p, ab_revs_git_error());
			}
			git_tree_free(sub);
		} else {
			err = ab_remove_tree(target);
			if (!err)
				err = write_blob(repo, git_tree_entry_id(e), git_tree_entry_filemode(e), target);
		}
		git_tree_entry_free(e);
		free(trimmed);
		free(target);
	}
out:
	git_tree_free(tree);
	git_commit_free(c);
	return err;
}
