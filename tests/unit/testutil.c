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
