/* test_cache.c - the build cache as a whole (cache.c) on entries made by
 * hand: listing (size, last use from KEY.use's mtime, record), prune by
 * age and by size least recently used first, locked and unfinished
 * entries kept, clear; the size and duration parsers it takes from
 * util.c; and the config file (userconf.c). */
#include "testutil.h"
#include "cache.h"
#include "error.h"
#include "userconf.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char key_n[5][65];

/* Entry n: a tree with one file of `kb` KiB, a record, a KEY.use last
 * touched `days` days ago. */
static void make_entry(const char *cache, int n, int kb, int days)
{
	char *builds = ab_path_join(cache, "builds"), name[128], *p, *blob;
	struct timespec t[2];
	int fd;

	memset(key_n[n], 'a' + n, 64);
	key_n[n][64] = '\0';
	blob = ab_xcalloc(1, (size_t)kb * 1024 + 1);
	memset(blob, 'x', (size_t)kb * 1024);
	snprintf(name, sizeof(name), "%s/data", key_n[n]);
	ab_test_write(builds, name, blob);
	snprintf(name, sizeof(name), "%s.json", key_n[n]);
	ab_test_write(builds, name, "{\"status\": \"ok\", \"commit\": \"0123456789abcdef\", "
		      "\"created_unix\": 1000}");
	p = ab_xasprintf("%s/%s.use", builds, key_n[n]);
	fd = open(p, O_WRONLY | O_CREAT, 0666);
	close(fd);
	t[0].tv_sec = t[1].tv_sec = time(NULL) - (time_t)days * 86400;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	free(p);
	free(blob);
	free(builds);
}

static int present(const char *cache, int n)
{
	char *p = ab_xasprintf("%s/builds/%s", cache, key_n[n]);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

static void test_list_and_prune(void **state)
{
	char *dir = ab_test_mktemp("cache"), *use;
	struct ab_cache_entry *e;
	struct ab_cache_prune opt = {-1, -1, 0, NULL, (int64_t)time(NULL)};
	char *unfinished[] = {key_n[4], NULL};
	size_t n;
	int fd;

	(void)state;
	make_entry(dir, 0, 64, 40);
	make_entry(dir, 1, 64, 20);
	make_entry(dir, 2, 64, 10);
	make_entry(dir, 3, 64, 0);
	make_entry(dir, 4, 64, 50);
	assert_int_equal(ab_cache_list(dir, &e, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(e[0].key, key_n[3]);  /* most recently used first */
	assert_string_equal(e[4].key, key_n[4]);
	assert_true(e[0].ok);
	assert_string_equal(e[0].commit, "0123456789abcdef");
	assert_int_equal(e[0].created_unix, 1000);
	assert_true(e[0].size >= 64 * 1024);
	assert_false(e[0].locked);
	ab_cache_entries_free(e, n);

	/* a run holds entry 0: its KEY.use is share-locked */
	use = ab_xasprintf("%s/builds/%s.use", dir, key_n[0]);
	fd = open(use, O_RDWR);
	assert_int_equal(flock(fd, LOCK_SH), 0);
	opt.older_than_s = 30 * 86400;
	opt.unfinished = unfinished;
	assert_int_equal(ab_cache_prune(dir, &opt, &e, &n), 0);
	assert_int_equal(e[3].action, AB_CACHE_LOCKED);
	assert_int_equal(e[4].action, AB_CACHE_UNFINISHED);
	ab_cache_entries_free(e, n);
	assert_true(present(dir, 0) && present(dir, 4));
	close(fd);

	/* the lock gone, entry 0 goes; then down to the size of two entries,
	 * least recently used first (entry 4, unfinished, counts but stays) */
	opt.unfinished = NULL;
	assert_int_equal(ab_cache_prune(dir, &opt, &e, &n), 0);
	ab_cache_entries_free(e, n);
	assert_false(present(dir, 0));
	assert_false(present(dir, 4));
	make_entry(dir, 4, 64, 50);
	assert_int_equal(ab_cache_list(dir, &e, &n), 0);
	opt.keep_size = e[0].size + e[1].size + e[3].size;
	ab_cache_entries_free(e, n);
	opt.older_than_s = -1;
	opt.unfinished = unfinished;
	assert_int_equal(ab_cache_prune(dir, &opt, &e, &n), 0);
	ab_cache_entries_free(e, n);
	assert_true(present(dir, 3) && present(dir, 2) && present(dir, 4));
	assert_false(present(dir, 1));

	opt.all = 1;
	opt.unfinished = NULL;
	assert_int_equal(ab_cache_prune(dir, &opt, &e, &n), 0);
	ab_cache_entries_free(e, n);
	assert_int_equal(ab_cache_list(dir, &e, &n), 0);
	assert_int_equal(n, 0);  /* the KEY.lock files alone are no entries */
	ab_cache_entries_free(e, n);
	free(use);
	ab_test_rmtemp(dir);
}

static void test_sizes_and_durations(void **state)
{
	int64_t v;
	char buf[32];

	(void)state;
	assert_int_equal(ab_parse_size(&v, "2G"), 0);
	assert_int_equal(v, 2LL << 30);
	assert_int_equal(ab_parse_size(&v, "500M"), 0);
	assert_int_equal(v, 500LL << 20);
	assert_int_equal(ab_parse_size(&v, "1.5k"), 0);
	assert_int_equal(v, 1536);
	assert_int_equal(ab_parse_size(&v, "2GiB"), 0);
	assert_int_equal(v, 2LL << 30);
	assert_int_equal(ab_parse_size(&v, "4096"), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(ab_parse_size(&v, "2 G"), -1);
	assert_int_equal(ab_parse_size(&v, "lots"), -1);
	assert_int_equal(ab_parse_size(&v, "-1G"), -1);
	assert_int_equal(ab_parse_size(&v, "2Q"), -1);
	assert_int_equal(ab_parse_duration_ms(&v, "30d"), 0);
	assert_int_equal(v, 30LL * 86400000);
	assert_string_equal(ab_format_size(buf, sizeof(buf), 300), "300B");
	assert_string_equal(ab_format_size(buf, sizeof(buf), 1536), "1.5K");
	assert_string_equal(ab_format_size(buf, sizeof(buf), 86LL << 20), "86M");
}

static void test_userconf(void **state)
{
	char *dir = ab_test_mktemp("userconf"), *want;
	struct ab_userconf c;

	(void)state;
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(ab_userconf_load(&c), 0);  /* no file: nothing set */
	assert_false(c.found);
	assert_null(c.store);
	assert_int_equal(c.cache_max_size, -1);
	ab_userconf_release(&c);

	ab_test_write(dir, "abtool/config", "# mine\nstore: runs/abtool.db\ncache:\n  max_size: 2G\n");
	assert_int_equal(ab_userconf_load(&c), 0);
	want = ab_xasprintf("%s/abtool/runs/abtool.db", dir);
	assert_string_equal(c.store, want);
	assert_int_equal(c.cache_max_size, 2LL << 30);
	ab_userconf_release(&c);
	free(want);

	ab_test_write(dir, "abtool/config", "store: x.db\ncache:\n  max_sise: 2G\n");
	assert_int_equal(ab_userconf_load(&c), AB_EINVALID);
	want = ab_xasprintf("%s/abtool/config:3:3: cache: unknown key", dir);
	assert_non_null(strstr(ab_error_last(), want));
	ab_userconf_release(&c);
	free(want);

	ab_test_write(dir, "abtool/config", "cache: {max_size: huge}\n");
	assert_int_equal(ab_userconf_load(&c), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), ":1:19: cache.max_size: expected a size"));
	ab_userconf_release(&c);

	ab_test_write(dir, "abtool/config", "colour: blue\n");
	assert_int_equal(ab_userconf_load(&c), AB_EINVALID);
	assert_non_null(strstr(ab_error_last(), ":1:1: colour: unknown key"));
	ab_userconf_release(&c);

	ab_test_write(dir, "abtool/config", "store: [a\n");
	assert_int_equal(ab_userconf_load(&c), AB_EINVALID);
	ab_userconf_release(&c);
	unsetenv("XDG_CONFIG_HOME");
	ab_test_rmtemp(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_and_prune),
		cmocka_unit_test(test_sizes_and_durations),
		cmocka_unit_test(test_userconf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
