/* revs_project.c - the derived project of a repository (revs.h,
 * ab_revs_project; docs/history.md, "Projects"): its remotes and root
 * commit through libgit2, the URL normalized by project.c. */
#include "revs.h"
#include "error.h"
#include "project.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The URL of remote "origin", else of the first remote by name, as
 * configured (new string), or NULL when there is none. The entries
 * remote.NAME.url are read with a plain iterator: libgit2 1.5's
 * git_remote_list and git_remote_lookup match config names with a regex
 * whose match data leaks on every name that does not match. */
static char *first_remote_url(git_repository *repo)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	char *best = NULL, *url = NULL;

	if (git_repository_config_snapshot(&cfg, repo) < 0 || git_config_iterator_new(&it, cfg) < 0) {
		git_config_free(cfg);
		return NULL;
	}
	while (git_config_next(&e, it) == 0) {
		size_t n = strlen(e->name);
		char *name;

		if (strncmp(e->name, "remote.", 7) || n < 12 || strcmp(e->name + n - 4, ".url") ||
		    !e->value)
			continue;
		name = ab_xstrndup(e->name + 7, n - 11);
		if (!best || (strcmp(best, "origin") && (!strcmp(name, "origin") ||
							 strcmp(name, best) < 0))) {
			free(best);
			free(url);
			best = name;
			url = ab_xstrdup(e->value);
		} else {
			free(name);
		}
	}
	git_config_iterator_free(it);
	git_config_free(cfg);
	free(best);
	return url;
}

/* "root:" and the id of the root commit reached from HEAD by first parents. */
static int root_commit(char **out, git_repository *repo)
{
	git_commit *c = NULL, *parent;
	git_oid head;
	char hex[GIT_OID_HEXSZ + 1];

	if (git_reference_name_to_id(&head, repo, "HEAD") < 0)
		return ab_error_set(AB_EINVALID, "the repository '%s' has no remote and no commit, so it "
				    "has no project yet; commit something, add a remote, or set project: "
				    "in the experiment file", git_repository_path(repo));
	if (git_commit_lookup(&c, repo, &head) < 0)
		return ab_error_set(AB_EIO, "cannot read HEAD of '%s': %s", git_repository_path(repo),
				    ab_revs_git_error());
	while (git_commit_parentcount(c) > 0) {
		if (git_commit_parent(&parent, c, 0) < 0) {
			int err = ab_error_set(AB_EIO, "cannot read the first parent of %s in '%s' (a "
					       "shallow clone?): %s; set project: in the experiment file",
					       git_oid_tostr_s(git_commit_id(c)),
					       git_repository_path(repo), ab_revs_git_error());
			git_commit_free(c);
			return err;
		}
		git_commit_free(c);
		c = parent;
	}
	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	git_commit_free(c);
	*out = ab_xasprintf(AB_PROJECT_ROOT "%s", hex);
	return 0;
}

int ab_revs_project(char **out, git_repository *repo)
{
	char *url = first_remote_url(repo);
	int err = url ? ab_project_from_url(out, url) : AB_ENOTFOUND;

	free(url);
	if (err == 0)
		return 0;
	/* no remote, or a URL that does not parse: the root commit names it */
	ab_error_clear();
	return root_commit(out, repo);
}
