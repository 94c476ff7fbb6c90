/* test_project.c - the project of a repository (project.h): the forms
 * people clone one repository with normalize to one name, credentials
 * never survive, odd URLs (no path, a port, an IPv6 host, local paths)
 * give a stable name, and a repository without remotes is named by its
 * root commit, reached by first parents, in a real repository made with
 * libgit2. */
#include "testutil.h"
#include "error.h"
#include "project.h"
#include "revs.h"
#include "store.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void expect(const char *url, const char *want)
{
	char *got = NULL;

	if (ab_project_from_url(&got, url) != 0)
		fail_msg("'%s': %s", url, ab_error_last());
	if (strcmp(got, want))
		fail_msg("'%s' gave '%s', expected '%s'", url, got, want);
	free(got);
}

static void test_same_repository_agrees(void **state)
{
	(void)state;
	expect("git@github.com:Owner/Name.git", "github.com/Owner/Name");
	expect("ssh://git@github.com/Owner/Name", "github.com/Owner/Name");
	expect("https://user:token@github.com/Owner/Name.git/", "github.com/Owner/Name");
	expect("https://github.com/Owner/Name", "github.com/Owner/Name");
	expect("https://GitHub.COM/Owner/Name.git", "github.com/Owner/Name");
	expect("ssh://git@github.com:22/Owner/Name.git", "github.com/Owner/Name");
	expect("https://github.com:443/Owner/Name", "github.com/Owner/Name");
	expect("git://github.com:9418/Owner/Name.git", "github.com/Owner/Name");
	expect("git+ssh://git@github.com/Owner/Name", "github.com/Owner/Name");
	expect("github.com:Owner/Name", "github.com/Owner/Name");
	expect("git@github.com:/Owner/Name.git", "github.com/Owner/Name");
}

static void test_odd_urls(void **state)
{
	char *got = NULL;

	(void)state;
	/* the path's case is kept: hosts differ in whether it matters */
	expect("https://example.org/A/b", "example.org/A/b");
	/* no path */
	expect("https://example.org", "example.org");
	expect("https://example.org/", "example.org");
	expect("git@example.org:", "example.org");
	/* a port that is not the default stays */
	expect("ssh://git@example.org:2222/x/y.git", "example.org:2222/x/y");
	expect("https://example.org:8443/x", "example.org:8443/x");
	expect("http://example.org:443/x", "example.org:443/x");
	/* IPv6 hosts keep their brackets, in both forms */
	expect("ssh://git@[::1]:2222/x.git", "[::1]:2222/x");
	expect("https://[2001:DB8::1]/x", "[2001:db8::1]/x");
	expect("git@[::1]:x/y.git", "[::1]/x/y");
	/* local paths and file URLs */
	expect("/srv/git/proj.git", "/srv/git/proj");
	expect("/srv/git/proj.git/", "/srv/git/proj");
	expect("/home/me/proj/.git", "/home/me/proj");
	expect("file:///srv/git/proj.git", "/srv/git/proj");
	expect("../sibling", "../sibling");
	expect("./a:b", "./a:b");
	/* credentials never survive, whatever the scheme */
	assert_int_equal(ab_project_from_url(&got, "https://x:secret@example.org/r"), 0);
	assert_null(strstr(got, "secret"));
	free(got);
	/* what is no URL */
	assert_int_equal(ab_project_from_url(&got, ""), AB_EINVALID);
	assert_null(got);
	assert_int_equal(ab_project_from_url(&got, "https://exa mple.org/x"), AB_EINVALID);
	assert_null(got);
}

static void test_names(void **state)
{
	(void)state;
	assert_null(ab_project_name_problem("github.com/a/b"));
	assert_null(ab_project_name_problem("team kernel"));
	assert_non_null(ab_project_name_problem(""));
	assert_non_null(ab_project_name_problem("   "));
	assert_non_null(ab_project_name_problem("a\tb"));
	assert_non_null(ab_project_name_problem(AB_PROJECT_UNCLAIMED));
}

/* A commit of the empty tree with `nparents` parents (not on any branch). */
static void commit(git_repository *repo, const git_oid *parents, size_t nparents, git_oid *out)
{
	git_treebuilder *tb;
	git_oid tree_oid;
	git_tree *tree;
	git_signature *sig;
	const git_commit *p[2];
	git_commit *c[2] = {NULL, NULL};
	size_t i;

	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tree_oid, tb), 0);
	git_treebuilder_free(tb);
	assert_int_equal(git_tree_lookup(&tree, repo, &tree_oid), 0);
	for (i = 0; i < nparents; i++) {
		assert_int_equal(git_commit_lookup(&c[i], repo, &parents[i]), 0);
		p[i] = c[i];
	}
	assert_int_equal(git_signature_new(&sig, "t", "t@abtool.invalid", 1700000000 + (int)nparents,
					   0), 0);
	assert_int_equal(git_commit_create(out, repo, NULL, sig, sig, NULL, "c\n", tree, nparents, p), 0);
	git_signature_free(sig);
	git_tree_free(tree);
	for (i = 0; i < nparents; i++)
		git_commit_free(c[i]);
}

static void test_repository(void **state)
{
	char *tmp = ab_test_mktemp("project"), *got = NULL, want[64];
	git_repository *repo;
	git_oid root, side_root, second, merge;
	git_config *cfg;

	(void)state;
	assert_int_equal(git_repository_init(&repo, tmp, 0), 0);
	/* an empty repository has no project to derive */
	assert_int_equal(ab_revs_project(&got, repo), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), "project:"));
	/* HEAD's first-parent chain: root <- second <- merge, whose second
	 * parent is another root commit, older: the first parents decide */
	commit(repo, NULL, 0, &root);
	commit(repo, &root, 1, &second);
	{
		git_treebuilder *tb;
		git_oid tree_oid, parents[2];
		git_signature *sig;
		git_tree *tree;
		git_commit *a, *b;

		/* a second root, with a tree of its own so that it differs */
		assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
		{
			git_oid blob;
			assert_int_equal(git_blob_create_from_buffer(&blob, repo, "x", 1), 0);
			assert_int_equal(git_treebuilder_insert(NULL, tb, "f", &blob, GIT_FILEMODE_BLOB), 0);
		}
		assert_int_equal(git_treebuilder_write(&tree_oid, tb), 0);
		git_treebuilder_free(tb);
		assert_int_equal(git_tree_lookup(&tree, repo, &tree_oid), 0);
		assert_int_equal(git_signature_new(&sig, "t", "t@abtool.invalid", 1600000000, 0), 0);
		assert_int_equal(git_commit_create(&side_root, repo, NULL, sig, sig, NULL, "side\n", tree,
						   0, NULL), 0);
		parents[0] = second;
		parents[1] = side_root;
		assert_int_equal(git_commit_lookup(&a, repo, &parents[0]), 0);
		assert_int_equal(git_commit_lookup(&b, repo, &parents[1]), 0);
		assert_int_equal(git_commit_create(&merge, repo, "HEAD", sig, sig, NULL, "merge\n", tree,
						   2, (const git_commit *[]){a, b}), 0);
		git_commit_free(a);
		git_commit_free(b);
		git_signature_free(sig);
		git_tree_free(tree);
	}
	snprintf(want, sizeof(want), "root:%s", git_oid_tostr_s(&root));
	assert_int_equal(ab_revs_project(&got, repo), 0);
	assert_string_equal(got, want);
	free(got);

	/* a remote wins over the root commit; origin over the first by name
	 * (set in the config: git_remote_create of libgit2 1.5 leaks) */
	assert_int_equal(git_repository_config(&cfg, repo), 0);
	assert_int_equal(git_config_set_string(cfg, "remote.zeta.url",
					       "https://example.org/z/zeta.git"), 0);
	assert_int_equal(ab_revs_project(&got, repo), 0);
	assert_string_equal(got, "example.org/z/zeta");
	free(got);
	assert_int_equal(git_config_set_string(cfg, "remote.alpha.url",
					       "git@example.org:a/alpha.git"), 0);
	assert_int_equal(ab_revs_project(&got, repo), 0);
	assert_string_equal(got, "example.org/a/alpha");
	free(got);
	assert_int_equal(git_config_set_string(cfg, "remote.origin.url",
					       "ssh://git@Example.org/o/Origin"), 0);
	assert_int_equal(ab_revs_project(&got, repo), 0);
	assert_string_equal(got, "example.org/o/Origin");
	free(got);
	git_config_free(cfg);

	git_repository_free(repo);
	ab_test_rmtemp(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_repository_agrees),
		cmocka_unit_test(test_odd_urls),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_repository),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
