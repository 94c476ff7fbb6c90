/* revs_path.c - the first-parent path between two commits, the range
 * `abtool bisect` searches (revs.h). */
#include "revs.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Resolve `spec` to a commit of `repo` (new). */
static int lookup(git_commit **out, git_repository *repo, const char *spec, const char *what)
{
	git_object *obj = NULL;
	int rc;

	if (git_revparse_single(&obj, repo, spec) < 0)
		return ab_error_set(AB_ENOTFOUND, "%s: unknown revision '%s': %s", what, spec,
				    ab_revs_git_error());
	rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		return ab_error_set(AB_EINVALID, "%s: '%s' does not name a commit", what, spec);
	return 0;
}

int ab_revs_first_parent_path(char ***hex, char ***subjects, size_t *n, const char *repo_path,
			      const char *good, const char *bad)
{
	git_repository *repo = NULL;
	git_commit *g = NULL, *c = NULL, *p;
	char buf[GIT_OID_HEXSZ + 1];
	char **h = NULL, **s = NULL;
	size_t k = 0, i;
	int err;

	*hex = *subjects = NULL;
	*n = 0;
	if ((err = ab_revs_open_repository(&repo, repo_path)) == AB_ENOTFOUND)
		return ab_error_set(AB_ENOTFOUND, "'%s' is not a git repository", repo_path);
	if (err < 0)
		return err;
	if ((err = lookup(&g, repo, good, "--good")) < 0 || (err = lookup(&c, repo, bad, "--bad")) < 0)
		goto out;
	if (git_oid_equal(git_commit_id(g), git_commit_id(c))) {
		err = ab_error_set(AB_EINVALID, "--good and --bad name the same commit %.10s",
				   git_oid_tostr_s(git_commit_id(g)));
		goto out;
	}
	/* from bad back to good along first parents, then reversed */
	while (!git_oid_equal(git_commit_id(c), git_commit_id(g))) {
		git_oid_tostr(buf, sizeof(buf), git_commit_id(c));
		ab_strv_push(&h, ab_xstrdup(buf));
		ab_strv_push(&s, ab_xstrdup(git_commit_summary(c) ? git_commit_summary(c) : ""));
		k++;
		if (git_commit_parentcount(c) == 0 || git_commit_parent(&p, c, 0) < 0) {
			err = ab_error_set(AB_EINVALID, "--good %s is not on the first-parent history of --bad "
					   "%s (give the older commit as --good)", good, bad);
			goto out;
		}
		git_commit_free(c);
		c = p;
	}
	git_oid_tostr(buf, sizeof(buf), git_commit_id(g));
	ab_strv_push(&h, ab_xstrdup(buf));
	ab_strv_push(&s, ab_xstrdup(git_commit_summary(g) ? git_commit_summary(g) : ""));
	k++;
	for (i = 0; i < k / 2; i++) {
		char *t = h[i];
		h[i] = h[k - 1 - i];
		h[k - 1 - i] = t;
		t = s[i];
		s[i] = s[k - 1 - i];
		s[k - 1 - i] = t;
	}
	*hex = h;
	*subjects = s;
	*n = k;
	h = s = NULL;
out:
	ab_strv_free(h);
	ab_strv_free(s);
	git_commit_free(g);
	git_commit_free(c);
	git_repository_free(repo);
	return err;
}
