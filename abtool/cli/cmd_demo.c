/* cmd_demo.c - `abtool demo`: the embedded default. Writes a small git
 * repository from templates compiled into the binary (a C benchmark taking
 * a lanes argument; a parent commit and a candidate commit that is clearly
 * faster with the same checksum; an experiment file with a lanes matrix
 * and a gate), then runs the full experiment on it exactly as
 * `abtool run` would. Needs only cc and make. Exits 0 with any verdict
 * but invalid (the demo gates nothing); other exit codes as for run. */
#include "cmd.h"
#include "embed.h"
#include "error.h"
#include "revs.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_template(const char *dir, const char *name, const char *template)
{
	const struct ab_embedded_file *f = ab_embed_find(template);
	char *path = ab_path_join(dir, name);
	int err;

	if (!f) {
		free(path);
		return ab_error_set(AB_ERROR, "template '%s' is missing from this build", template);
	}
	err = ab_write_file(path, f->data, f->size);
	free(path);
	return err;
}

/* Commit every file of the work tree on top of HEAD (if any). */
static int commit_all(git_repository *repo, const char *message)
{
	git_index *index = NULL;
	git_oid tree_oid, commit_oid;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	git_object *head = NULL;
	int err = 0;

	if (git_revparse_single(&head, repo, "HEAD") == 0)
		git_object_peel((git_object **)&parent, head, GIT_OBJECT_COMMIT);
	if (git_repository_index(&index, repo) < 0 ||
	    git_index_add_all(index, NULL, 0, NULL, NULL) < 0 ||
	    git_index_write(index) < 0 ||
	    git_index_write_tree(&tree_oid, index) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_oid) < 0 ||
	    git_signature_now(&sig, "abtool demo", "demo@abtool.invalid") < 0 ||
	    git_commit_create_v(&commit_oid, repo, "HEAD", sig, sig, NULL, message, tree,
				parent ? 1 : 0, parent) < 0)
		err = ab_error_set(AB_EIO, "cannot commit the demo repository: %s", ab_revs_git_error());
	git_object_free(head);
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	return err;
}

static int make_repo(const char *dir)
{
	git_repository *repo = NULL;
	int err;

	ab_revs_global_init();
	if (git_repository_init(&repo, dir, 0) < 0)
		return ab_error_set(AB_EIO, "cannot create a repository in '%s': %s", dir, ab_revs_git_error());
	err = write_template(dir, "Makefile", "templates/demo/Makefile");
	if (!err)
		err = write_template(dir, "bench.c", "templates/demo/bench.c");
	if (!err)
		err = write_template(dir, "exp.yaml", "templates/demo/exp.yaml");
	if (!err)
		err = write_template(dir, ".gitignore", "templates/demo/gitignore");
	if (!err)
		err = commit_all(repo, "prime count: trial division by every integer\n");
	if (!err)
		err = write_template(dir, "bench.c", "templates/demo/bench-candidate.c");
	if (!err)
		err = commit_all(repo, "prime count: skip even trial divisors\n");
	git_repository_free(repo);
	return err;
}

const struct cmd_option cmd_demo_options[] = {
	{"dir", 0, "DIR", "where to write the repository: a new or empty folder",
	 "a new $TMPDIR/abtool-demo-XXXXXX", CMD_OWN, 'd', 0, 0},
	{"store", 0, "DB", "the store file", "DIR/.git/abtool/abtool.db", CMD_STORE, 'S', 0, 0},
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_demo(int argc, char **argv)
{
	const char *dir_flag = NULL;
	struct cmd_args args;
	int stop;
	char *dir, *exp_path;
	char *run_argv[6];
	int err, rc, n = 0;

	cmd_args_init(&args, "demo", cmd_own_string, &dir_flag);
	if ((stop = cmd_parse_options(&args, cmd_demo_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (optind != argc)
		return cmd_usage("demo", "unexpected argument '%s'", argv[optind]);
	if (dir_flag) {
		if (mkdir(dir_flag, 0777) < 0 && errno != EEXIST)
			return cmd_fail(ab_error_set(AB_EIO, "cannot create '%s': %s", dir_flag, strerror(errno)));
		dir = ab_path_absolute(NULL, dir_flag);
		if (rmdir(dir) < 0 || mkdir(dir, 0777) < 0) {
			rc = cmd_fail(ab_error_set(AB_EINVALID, "--dir '%s' must be a new or empty folder", dir_flag));
			free(dir);
			return rc;
		}
	} else {
		const char *tmp = getenv("TMPDIR");
		dir = ab_xasprintf("%s/abtool-demo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			rc = cmd_fail(ab_error_set(AB_EIO, "cannot create a folder for the demo: %s", strerror(errno)));
			free(dir);
			return rc;
		}
	}
	if ((err = make_repo(dir)) < 0) {
		rc = cmd_fail(err);
		free(dir);
		return rc;
	}
	fprintf(stderr, "abtool demo: a repository with a parent and a faster candidate is in %s\n", dir);
	exp_path = ab_path_join(dir, "exp.yaml");
	run_argv[n++] = "run";
	run_argv[n++] = exp_path;
	if (args.store) {
		run_argv[n++] = "--store";
		run_argv[n++] = (char *)args.store;
	}
	run_argv[n] = NULL;
	rc = cmd_run(n, run_argv);
	/* The demo shows the tool, it gates nothing: a verdict other than
	 * accepted (a loaded machine can leave the gain inconclusive) is
	 * explained, and the demo still succeeds. Invalid runs and errors keep
	 * their exit codes. */
	if (rc == AB_EXIT_REJECTED || rc == AB_EXIT_INCONCLUSIVE) {
		fprintf(stderr, "\nabtool demo: the verdict is %s, not the accepted the demo expects; "
			"on a busy machine the noise can hide the gain (see the warnings above, and "
			"'abtool calibrate %s' for this machine's noise floor)\n",
			rc == AB_EXIT_REJECTED ? "rejected" : "inconclusive", exp_path);
		rc = 0;
	}
	fprintf(stderr, "\nabtool demo: try 'abtool check %s', or change %s/bench.c, commit, and "
		"'abtool run %s' again\n", exp_path, dir, exp_path);
	free(exp_path);
	free(dir);
	return rc;
}
