/* test_revs.c - materializing a revision: the files git would check out,
 * HEAD detached, the user's repository untouched; checkout filters
 * (crlf, ident) still apply wherever gitattributes or core.autocrlf ask
 * for them, although abtool skips them when nothing can apply. */
#include "testutil.h"
#include "error.h"
#include "revs.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fixture {
	char *tmp;            /* everything below lives here */
	char *src;            /* the user's repository */
	git_repository *repo;
	git_oid commit;
};

/* Empty global, XDG and system configuration, whatever the user's is. */
static void isolate_config(const char *tmp)
{
	char *dir = ab_path_join(tmp, "config");
	int level;

	assert_int_equal(ab_mkdir_p(dir), 0);
	for (level = GIT_CONFIG_LEVEL_SYSTEM; level <= GIT_CONFIG_LEVEL_GLOBAL; level++)
		assert_int_equal(git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, dir), 0);
	free(dir);
}

/* Commit every file of the work tree (paths of `files`, NULL-terminated
 * name/text pairs) as the only commit of a new repository. */
static void make_repo(struct fixture *f, const char *const *files)
{
	git_index *index;
	git_oid tree_oid;
	git_tree *tree;
	git_signature *sig;

	f->src = ab_path_join(f->tmp, "src");
	assert_int_equal(git_repository_init(&f->repo, f->src, 0), 0);
	for (; *files; files += 2)
		ab_test_write(f->src, files[0], files[1]);
	assert_int_equal(git_repository_index(&index, f->repo), 0);
	assert_int_equal(git_index_add_all(index, NULL, 0, NULL, NULL), 0);
	assert_int_equal(git_index_write(index), 0);
	assert_int_equal(git_index_write_tree(&tree_oid, index), 0);
	assert_int_equal(git_tree_lookup(&tree, f->repo, &tree_oid), 0);
	assert_int_equal(git_signature_new(&sig, "t", "t@abtool.invalid", 1700000000, 0), 0);
	assert_int_equal(git_commit_create_v(&f->commit, f->repo, "HEAD", sig, sig, NULL, "c\n",
					     tree, 0), 0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
}

static void fixture_release(struct fixture *f)
{
	git_repository_free(f->repo);
	free(f->src);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, NULL);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, NULL);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, NULL);
	ab_test_rmtemp(f->tmp);
}

static void setup(struct fixture *f, const char *tag)
{
	memset(f, 0, sizeof(*f));
	ab_revs_global_init();
	f->tmp = ab_test_mktemp(tag);
	isolate_config(f->tmp);
}

/* Materialize the commit into tmp/NAME; returns the folder (new). */
static char *materialize(struct fixture *f, const char *name)
{
	char *dir = ab_path_join(f->tmp, name);

	if (ab_revs_materialize(f->repo, &f->commit, dir) < 0)
		fail_msg("materialize: %s", ab_error_last());
	return dir;
}

static void assert_file(const char *dir, const char *name, const char *want)
{
	char *path = ab_path_join(dir, name), *text = NULL;
	size_t len = 0;

	if (ab_read_file(&text, &len, path) < 0)
		fail_msg("cannot read %s: %s", path, ab_error_last());
	assert_int_equal(len, strlen(want));
	assert_memory_equal(text, want, len);
	free(text);
	free(path);
}

static const char *const plain_files[] = {
	"a.txt", "one\ntwo\n",
	"sub/deeper/b.c", "int b;\r\nint c;\n",
	NULL,
};

static void test_plain_tree(void **state)
{
	struct fixture f;
	git_repository *tree_repo;
	git_reference *head;
	git_strarray refs;
	char *dir;

	(void)state;
	setup(&f, "revs-plain");
	make_repo(&f, plain_files);
	dir = materialize(&f, "tree");
	/* Byte for byte what was committed, CR included. */
	assert_file(dir, "a.txt", "one\ntwo\n");
	assert_file(dir, "sub/deeper/b.c", "int b;\r\nint c;\n");
	assert_int_equal(git_repository_open(&tree_repo, dir), 0);
	assert_int_equal(git_repository_head_detached(tree_repo), 1);
	assert_int_equal(git_repository_head(&head, tree_repo), 0);
	assert_true(git_oid_equal(git_reference_target(head), &f.commit));
	git_reference_free(head);
	git_repository_free(tree_repo);
	/* The user's repository got no new reference. */
	assert_int_equal(git_reference_list(&refs, f.repo), 0);
	assert_int_equal(refs.count, 1);
	git_strarray_dispose(&refs);
	free(dir);
	fixture_release(&f);
}

/* A .gitattributes file deep in the tree turns the filters on. */
static void test_tree_attributes(void **state)
{
	static const char *const files[] = {
		"a.txt", "one\ntwo\n",
		"sub/.gitattributes", "*.txt eol=crlf\n*.id ident\n",
		"sub/c.txt", "x\ny\n",
		"sub/d.id", "$Id$\n",
		NULL,
	};
	struct fixture f;
	git_oid blob;
	char *dir, want[80];

	(void)state;
	setup(&f, "revs-attrs");
	make_repo(&f, files);
	dir = materialize(&f, "tree");
	assert_file(dir, "a.txt", "one\ntwo\n");
	assert_file(dir, "sub/c.txt", "x\r\ny\r\n");
	assert_int_equal(git_odb_hash(&blob, "$Id$\n", 5, GIT_OBJECT_BLOB), 0);
	snprintf(want, sizeof(want), "$Id: %s $\n", git_oid_tostr_s(&blob));
	assert_file(dir, "sub/d.id", want);
	free(dir);
	fixture_release(&f);
}

static void write_config_file(struct fixture *f, const char *name, const char *text)
{
	char *dir = ab_path_join(f->tmp, "config");

	ab_test_write(dir, name, text);
	free(dir);
}

/* core.autocrlf = true converts on checkout; input does not. */
static void test_autocrlf(void **state)
{
	struct fixture f;
	char *dir;

	(void)state;
	setup(&f, "revs-autocrlf");
	make_repo(&f, plain_files);
	write_config_file(&f, ".gitconfig", "[core]\n\tautocrlf = input\n");
	dir = materialize(&f, "input");
	assert_file(dir, "a.txt", "one\ntwo\n");
	free(dir);
	write_config_file(&f, ".gitconfig", "[core]\n\tautocrlf = true\n");
	dir = materialize(&f, "true");
	assert_file(dir, "a.txt", "one\r\ntwo\r\n");
	free(dir);
	fixture_release(&f);
}

/* Attributes from the XDG file, the system file and core.attributesFile. */
static void test_global_attributes(void **state)
{
	struct fixture f;
	char *dir, *file, *cfg;

	(void)state;
	setup(&f, "revs-global");
	make_repo(&f, plain_files);
	write_config_file(&f, "attributes", "*.txt eol=crlf\n");
	dir = materialize(&f, "xdg");
	assert_file(dir, "a.txt", "one\r\ntwo\r\n");
	free(dir);

	file = ab_path_join(f.tmp, "config/attributes");
	assert_int_equal(unlink(file), 0);
	write_config_file(&f, "gitattributes", "*.txt eol=crlf\n");
	dir = materialize(&f, "system");
	assert_file(dir, "a.txt", "one\r\ntwo\r\n");
	free(dir);

	free(file);
	file = ab_path_join(f.tmp, "config/gitattributes");
	assert_int_equal(unlink(file), 0);
	free(file);
	file = ab_path_join(f.tmp, "elsewhere/attrs");
	ab_test_write(f.tmp, "elsewhere/attrs", "*.txt eol=crlf\n");
	cfg = ab_xasprintf("[core]\n\tattributesFile = %s\n", file);
	write_config_file(&f, ".gitconfig", cfg);
	dir = materialize(&f, "configured");
	assert_file(dir, "a.txt", "one\r\ntwo\r\n");
	free(dir);
	free(cfg);
	free(file);

	fixture_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_tree),
		cmocka_unit_test(test_tree_attributes),
		cmocka_unit_test(test_autocrlf),
		cmocka_unit_test(test_global_attributes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
