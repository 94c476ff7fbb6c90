/* cmd_store.c - where the store is, one lookup order for every command
 * (see cmd.h and docs/cli.md, "Where the store is"). */
#include "cmd.h"
#include "error.h"
#include "project.h"
#include "revs.h"
#include "runner.h"
#include "userconf.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMD_STORE_HINT "give --store REPO/.git/abtool/abtool.db (the store of the repository REPO " \
	"you measure), or set ABTOOL_STORE or store: in the config file"

/* Refuse a store named by a URL other than PostgreSQL's ("sqlite://x",
 * "mysql://..."): SCHEME:// with a scheme of two or more letters, digits,
 * '+', '-', '.'. postgresql:// and postgres:// name a PostgreSQL store
 * (store.h ab_store_is_server). The message names the scheme only: the
 * rest of a URL may hold a password. `source` says where the name came
 * from. */
static int check_url(const char *path, const char *source)
{
	const char *p = path;

	if (!isalpha((unsigned char)*p) || ab_store_is_server(path))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (strncmp(p, "://", 3) || p - path < 2)
		return 0;
	return ab_error_set(AB_EINVALID, "%s '%.*s://...': abtool does not serve '%.*s:' stores, only a "
			    "store file or a PostgreSQL database (postgresql://HOST/DB); give --store a file "
			    "path such as .git/abtool/abtool.db (write a file name with :// in it as ./NAME)",
			    source, (int)(p - path), path, (int)(p - path), path);
}

/* The store of the repository that holds `dir`: 0 with *out, AB_ENOTFOUND
 * (no message) when there is none, or another error. */
static int repo_store(char **out, const char *dir)
{
	git_repository *repo = NULL;
	int err;

	if ((err = ab_revs_open_repository(&repo, dir)) < 0)
		return err;
	*out = ab_path_join(git_repository_commondir(repo), "abtool/abtool.db");
	git_repository_free(repo);
	return 0;
}

/* The store of the repository the experiment files of the current folder
 * (*.yaml, *.yml that load) name, when they all name one: 0 with *out,
 * AB_ENOTFOUND when none does, AB_EINVALID when they name several. */
static int experiment_store(char **out)
{
	DIR *d = opendir(".");
	struct dirent *de;
	char *first_file = NULL;
	int err = AB_ENOTFOUND;

	*out = NULL;
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct ab_experiment exp;
		char *path = NULL;

		if (!((n > 5 && !strcmp(de->d_name + n - 5, ".yaml")) ||
		      (n > 4 && !strcmp(de->d_name + n - 4, ".yml"))))
			continue;
		if (ab_experiment_load(&exp, de->d_name) == 0 && exp.repo &&
		    repo_store(&path, exp.repo) == 0) {
			if (!*out) {
				*out = path;
				first_file = ab_xstrdup(de->d_name);
				err = 0;
			} else if (strcmp(*out, path)) {
				err = ab_error_set(AB_EINVALID, "the experiment files '%s' and '%s' here name "
						   "different repositories, whose stores are '%s' and '%s'; "
						   "give --store with the one you mean", first_file,
						   de->d_name, *out, path);
				free(path);
				ab_experiment_release(&exp);
				break;
			} else {
				free(path);
			}
		}
		ab_experiment_release(&exp);
	}
	if (d)
		closedir(d);
	free(first_file);
	if (err < 0) {
		free(*out);
		*out = NULL;
	}
	return err;
}

/* The per-user store, the lookup's last step: $XDG_DATA_HOME/abtool/abtool.db,
 * else ~/.local/share/abtool/abtool.db (new string). */
static char *user_store(void)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')  /* the XDG base directory rule: a relative one is ignored */
		return ab_path_join(xdg, "abtool/abtool.db");
	return ab_xasprintf("%s/.local/share/abtool/abtool.db", home && *home ? home : "/tmp");
}

int cmd_store_in_repository(const char *dir)
{
	char *path = NULL;
	int err = dir ? repo_store(&path, dir) : AB_ENOTFOUND;

	free(path);
	ab_error_clear();
	return err == 0;
}

/* cmd_store_path, saying whether the path is the per-user store's and
 * whether it is a repository's own store (found through the repository). */
static int store_path(char **out, const char *flag, const char *repo_dir, int *per_user, int *owned)
{
	const char *env = getenv("ABTOOL_STORE");
	struct ab_userconf conf;
	int err;

	*out = NULL;
	if (flag)
		return (err = check_url(flag, "--store")) < 0 ? err : (*out = ab_xstrdup(flag), 0);
	if (env && *env)
		return (err = check_url(env, "ABTOOL_STORE")) < 0 ? err : (*out = ab_xstrdup(env), 0);
	if ((err = ab_userconf_load(&conf)) < 0) {
		ab_userconf_release(&conf);
		return err;
	}
	if (conf.store) {
		*out = conf.store;
		conf.store = NULL;
		ab_userconf_release(&conf);
		return 0;
	}
	ab_userconf_release(&conf);
	if (repo_dir) {
		/* a command given an experiment file: its repository's store */
		if ((err = repo_store(out, repo_dir)) == AB_ENOTFOUND)
			return ab_error_set(AB_EINVALID, "'%s' is not a git repository (or any of its parents), "
					    "so there is no default store; set 'repo:' in the experiment "
					    "file, or give --store FILE", repo_dir);
		*owned = 1;
		return err < 0 ? ab_error_prefix("no default store") : 0;
	}
	if ((err = repo_store(out, ".")) != AB_ENOTFOUND) {
		*owned = 1;
		return err < 0 ? ab_error_prefix("no default store") : 0;
	}
	if ((err = experiment_store(out)) != AB_ENOTFOUND)
		return err;
	/* outside any repository: the user's own store (abtool compare) */
	*out = user_store();
	*per_user = 1;
	return 0;
}

int cmd_store_path(char **out, const char *flag, const char *repo_dir)
{
	int per_user = 0, owned = 0;

	return store_path(out, flag, repo_dir, &per_user, &owned);
}

int cmd_repository_project(char **out, const char *dir)
{
	git_repository *repo = NULL;
	struct ab_userconf conf;
	int err;

	*out = NULL;
	if ((err = ab_revs_open_repository(&repo, dir ? dir : ".")) == AB_ENOTFOUND) {
		ab_error_clear();
		return 0;
	}
	if (err < 0)
		return err;
	if ((err = ab_userconf_load(&conf)) == 0 && conf.project) {
		*out = conf.project;
		conf.project = NULL;
	} else if (err == 0 && (err = ab_revs_project(out, repo)) == AB_EINVALID) {
		/* no remote and no commit yet: no project to claim old rows with */
		ab_error_clear();
		err = 0;
	} else if (err == AB_EIO) {
		/* a history libgit2 cannot walk (a shallow clone without a remote):
		 * an experiment file's project: still names the runs' */
		cmd_warn("no project for the repository: %s", ab_error_last());
		err = 0;
	}
	ab_userconf_release(&conf);
	git_repository_free(repo);
	return err;
}

/* The store's project after open: the repository's (cmd_repository_project).
 * It claims the rows older stores wrote without one (ab_store_claim_project)
 * when the store is that repository's own, or the command measures in that
 * repository (`repo_dir`): a store given with --store to a command that
 * only reads may be another repository's. */
static int use_repository_project(struct ab_store *store, const char *repo_dir, int owned)
{
	char *project = NULL;
	int err;

	if ((err = cmd_repository_project(&project, repo_dir)) == 0 && project && (owned || repo_dir) &&
	    (err = ab_store_claim_project(store, project)) > 0)
		err = 0;
	ab_store_set_project(store, project);
	free(project);
	return err;
}

int cmd_store_lists_every_project(struct ab_store *store)
{
	int known;

	if (!*ab_store_project(store))
		return 1;
	known = ab_store_project_known(store);
	ab_error_clear();
	return known == 0;
}

void cmd_store_experiment_project(struct ab_store *store, const struct ab_experiment *exp)
{
	if (exp->has_sides)
		ab_store_set_project(store, "");
	else if (exp->project)
		ab_store_set_project(store, exp->project);
}

/*
 * Before a store named on the command line (`option`) is opened: warn
 * when its URL holds a password, which every user of the machine can read
 * in the process list. After a PostgreSQL store is open: hide the PG*
 * variables of abtool's environment, which libpq read for it (a
 * password, a service, a host), from builds, benchmarks and hooks; the
 * experiment's env.keep gives some back (runner.h ab_runner_hide_env,
 * docs/security.md, "Credentials").
 */
static void warn_password(const char *path, const char *option)
{
	if (path && ab_store_url_has_password(path))
		cmd_warn("%s: the URL holds a password, which other users of this machine can read in "
			 "the process list (/proc/PID/cmdline); keep it in PGPASSFILE (mode 0600) or a "
			 "PGSERVICE entry, or give the URL in ABTOOL_STORE", option);
}

static void hide_store_env(const char *path)
{
	char **e, name[256];

	if (!ab_store_is_server(path))
		return;
	for (e = environ; e && *e; e++) {
		size_t n = strcspn(*e, "=");

		if (n < sizeof(name) && !strncmp(*e, "PG", 2)) {
			memcpy(name, *e, n);
			name[n] = '\0';
			ab_runner_hide_env(name);
		}
	}
}

int cmd_open_store(struct ab_store **out, const char *flag, const char *repo_dir, enum cmd_store_mode mode)
{
	char *path;
	int err, per_user = 0, owned = 0;

	*out = NULL;
	if ((err = store_path(&path, flag, repo_dir, &per_user, &owned)) < 0)
		return err;
	warn_password(flag, "--store");
	if (mode == CMD_STORE_WRITE) {
		char *dir = per_user ? ab_xstrdup(path) : NULL;

		if (dir) {  /* the per-user store's folders, as a repository's .git/abtool is made */
			*strrchr(dir, '/') = '\0';
			err = ab_mkdir_p_mode(dir, 0700);  /* XDG: data folders are the user's */
			free(dir);
		}
		if (err == 0)
			err = ab_store_open(out, path);
	} else if (per_user && (err = ab_store_open_existing(out, path)) == AB_ENOTFOUND) {
		err = ab_error_set(AB_EINVALID, "no store: the current folder is not in a git repository and "
				   "no experiment file here names one in its repo:, and nothing was stored in "
				   "the per-user store '%s' yet (abtool compare stores there); " CMD_STORE_HINT,
				   path);
	} else if (!per_user && (err = ab_store_open_existing(out, path)) == AB_ENOTFOUND) {
		char *why = ab_xstrdup(ab_error_last());

		err = ab_error_set(AB_ENOTFOUND, "%s (%s); nothing was stored there yet, and a command "
				   "that only reads creates no store; %s", why,
				   flag ? "--store" : getenv("ABTOOL_STORE") && *getenv("ABTOOL_STORE")
				   ? "from ABTOOL_STORE" : "the default store", CMD_STORE_HINT);
		free(why);
	}
	if (err == 0)
		hide_store_env(path);
	free(path);
	if (err == 0 && (err = use_repository_project(*out, repo_dir, owned)) < 0) {
		ab_store_close(*out);
		*out = NULL;
	}
	return err;
}

int cmd_open_named_store(struct ab_store **out, const char *name, const char *option,
			 enum cmd_store_mode mode)
{
	int err;

	*out = NULL;
	if ((err = check_url(name, option)) < 0)
		return err;
	warn_password(name, option);
	if (mode == CMD_STORE_WRITE)
		err = ab_store_open(out, name);
	else if ((err = ab_store_open_existing(out, name)) == AB_ENOTFOUND) {
		char *why = ab_xstrdup(ab_error_last());

		err = ab_error_set(AB_ENOTFOUND, "%s (%s); nothing was stored there yet", why, option);
		free(why);
	}
	if (err == 0)
		hide_store_env(name);
	return err;
}
