/* testutil.c - see testutil.h. */
#include "testutil.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ab_test_mktemp(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *dir = ab_xasprintf("%s/abtool-%s-XXXXXX", base && *base ? base : "/tmp", tag);

	if (!mkdtemp(dir))
		fail_msg("mkdtemp %s failed", dir);
	return dir;
}

void ab_test_rmtemp(char *dir)
{
	if (dir)
		ab_remove_tree(dir);
	free(dir);
}

void ab_test_write(const char *dir, const char *name, const char *text)
{
	char *path = ab_path_join(dir, name), *slash = strrchr(path, '/');

	*slash = '\0';
	if (ab_mkdir_p(path) < 0)
		fail_msg("mkdir %s", path);
	*slash = '/';
	if (ab_write_file(path, text, strlen(text)) < 0)
		fail_msg("write %s", path);
	free(path);
}

void ab_test_assert_close(double a, double b, int sig, const char *expr,
			  const char *file, int line)
{
	/* Half a unit in the last significant digit of the expected value. */
	double unit = b == 0 ? pow(10, -sig) : pow(10, floor(log10(fabs(b))) - sig + 1);

	if (isnan(a) && isnan(b))
		return;
	if (!(fabs(a - b) <= 0.5 * unit * (1 + 1e-9))) {
		print_error("%s:%d: %s = %.12g, expected %.12g (%d significant digits)\n",
			       file, line, expr, a, b, sig);
		_fail(file, line);
	}
}

char *ab_test_pg_database(const char *name)
{
	const char *src = getenv("ABTOOL_TEST_SRC"), *server = getenv("ABTOOL_TEST_PG");
	char buf[512] = "", *cmd;
	FILE *f;

	if (!src || !server)
		fail_msg("no PostgreSQL server for the tests: ABTOOL_TEST_SRC and ABTOOL_TEST_PG are unset");
	cmd = ab_xasprintf("'%s/tests/pg/pg-server' url '%s' '%s' 2>/dev/null", src, server, name);
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		fail_msg("cannot run pg-server");
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	if (pclose(f) != 0 || !buf[0])
		fail_msg("pg-server url %s failed", name);
	buf[strcspn(buf, "\n")] = '\0';
	return ab_xstrdup(buf);
}
