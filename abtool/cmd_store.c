/* cmd_store.c - where the store is: --store, $ABTOOL_STORE, or the
 * repository's .git/abtool/abtool.db (see cmd.h). */
#include "cmd.h"
#include "error.h"
#include "revs.h"
#include "util.h"

#include <stdlib.h>

int cmd_store_path(char **out, const char *flag, const char *repo_dir)
{
	const char *env = getenv("ABTOOL_STORE");
	git_repository *repo = NULL;
	int err;

	*out = NULL;
	if (flag) {
		*out = ab_xstrdup(flag);
		return 0;
	}
	if (env && *env) {
		*out = ab_xstrdup(env);
		return 0;
	}
	if ((err = ab_revs_open_repository(&repo, repo_dir ? repo_dir : ".")) == AB_ENOTFOUND)
		return repo_dir
			? ab_error_set(AB_EINVALID, "'%s' is not a git repository (or any of its parents), so "
				       "there is no default store; set 'repo:' in the experiment file, or give "
				       "--store FILE", repo_dir)
			: ab_error_set(AB_EINVALID, "the current folder is not in a git repository, so there is "
				       "no default store (.git/abtool/abtool.db); run this in the repository "
				       "you measure, or give --store FILE (or set ABTOOL_STORE)");
	if (err < 0)
		return ab_error_prefix("no default store");
	*out = ab_path_join(git_repository_commondir(repo), "abtool/abtool.db");
	git_repository_free(repo);
	return 0;
}

int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir)
{
	char *path;
	int err;

	*out = NULL;
	if ((err = cmd_store_path(&path, flag, repo_dir)) < 0)
		return err;
	err = ab_store_open(out, path);
	free(path);
	return err;
}
