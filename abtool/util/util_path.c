/* util_path.c - paths: joining, making absolute, the cache folder and
 * the search of a PATH (see util.h). */
#include "util.h"
#include "error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *ab_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return ab_xasprintf("%.*s/%s", (int)n, dir, name);
}

char *ab_path_absolute(const char *base, const char *path)
{
	char *joined, *out, *seg, *save = NULL;
	char cwd[PATH_MAX];
	size_t len = 0;

	if (path[0] == '/') {
		joined = ab_xstrdup(path);
	} else {
		if (!base) {
			if (!getcwd(cwd, sizeof(cwd)))
				strcpy(cwd, "/");
			base = cwd;
		}
		joined = ab_path_join(base, path);
	}
	/* Normalise ".", ".." and repeated slashes lexically. */
	out = ab_xmalloc(strlen(joined) + 2);
	out[0] = '\0';
	for (seg = strtok_r(joined, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
			continue;
		}
		out[len++] = '/';
		strcpy(out + len, seg);
		len += strlen(seg);
	}
	if (len == 0)
		strcpy(out, "/");
	free(joined);
	return out;
}

char *ab_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return ab_path_join(xdg, "abtool");
	return ab_xasprintf("%s/.cache/abtool", home && *home ? home : "/tmp");
}

char *ab_path_search(const char *path, const char *name)
{
	const char *dir;
	size_t len;

	for (dir = path; dir && *dir; dir += len + (dir[len] == ':')) {
		char *cand;

		len = strcspn(dir, ":");
		if (!len)
			continue;
		cand = ab_xasprintf("%.*s/%s", (int)len, dir, name);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}
