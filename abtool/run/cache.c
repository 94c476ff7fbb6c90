/* cache.c - the build cache as a whole (see cache.h). */
#include "cache.h"
#include "error.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes on disk (st_blocks) of `path` and, for a folder, of everything
 * below it; not following symbolic links. 0 when it is missing. */
static int64_t disk_size(const char *path)
{
	struct stat st;
	int64_t total;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st) < 0)
		return 0;
	total = (int64_t)st.st_blocks * 512;
	if (!S_ISDIR(st.st_mode) || !(d = opendir(path)))
		return total;
	while ((e = readdir(d))) {
		char *sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = ab_path_join(path, e->d_name);
		total += disk_size(sub);
		free(sub);
	}
	closedir(d);
	return total;
}

/* 1 when `name` starts with a cache key (64 lowercase hex digits)
 * followed by the end or one of the entry's suffixes. */
static int key_of(const char *name, char key[65])
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!name[i] || !strchr("0123456789abcdef", name[i]))
			return 0;
	if (name[64] && name[64] != '.')
		return 0;
	memcpy(key, name, 64);
	key[64] = '\0';
	return 1;
}

static int64_t mtime_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_mtim.tv_sec : 0;
}

/* Try to take `path`'s flock exclusively without waiting: the fd (>= 0)
 * holding it, -1 when another process holds it, -2 when there is no such
 * file (nobody can hold it). */
static int try_exclusive(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -2;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Take the entry's KEY.lock, then its KEY.use, exclusively without
 * waiting (a builder takes KEY.lock before KEY.use, so this order cannot
 * miss one between the two). 0 with the fds (-1 or >= 0) to close, or -1
 * when a run holds either. */
static int lock_entry_all(const char *builds, const char *key, int fds[2])
{
	char *lock = ab_xasprintf("%s/%s.lock", builds, key);
	char *use = ab_xasprintf("%s/%s.use", builds, key);
	int a = try_exclusive(lock), b = a == -1 ? -1 : try_exclusive(use);

	free(lock);
	free(use);
	if (a == -1 || b == -1) {
		if (a >= 0)
			close(a);
		return -1;
	}
	fds[0] = a;
	fds[1] = b;
	return 0;
}

static void unlock_entry_all(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
}

static void read_entry(struct ab_cache_entry *e, const char *builds)
{
	char *dir = ab_path_join(builds, e->key), *json = ab_xasprintf("%s.json", dir);
	char *use = ab_xasprintf("%s.use", dir), *log = ab_xasprintf("%s.log", dir);
	json_t *state = json_load_file(json, 0, NULL);
	const char *status = json_string_value(json_object_get(state, "status"));
	const char *commit = json_string_value(json_object_get(state, "commit"));
	DIR *d;
	struct dirent *de;
	int fds[2];

	e->ok = status && !strcmp(status, "ok");
	e->commit = commit ? ab_xstrdup(commit) : NULL;
	e->created_unix = json_integer_value(json_object_get(state, "created_unix"));
	if (!e->created_unix)
		e->created_unix = mtime_of(dir);
	e->last_used_unix = mtime_of(use);
	if (!e->last_used_unix)
		e->last_used_unix = e->created_unix;
	e->size = disk_size(dir) + disk_size(json) + disk_size(log) + disk_size(use);
	/* the samples' scratch folders, KEY.scratch-PID */
	if ((d = opendir(builds))) {
		while ((de = readdir(d))) {
			if (!strncmp(de->d_name, e->key, 64) && !strncmp(de->d_name + 64, ".scratch-", 9)) {
				char *p = ab_path_join(builds, de->d_name);
				e->size += disk_size(p);
				free(p);
			}
		}
		closedir(d);
	}
	if (lock_entry_all(builds, e->key, fds) < 0)
		e->locked = 1;
	else
		unlock_entry_all(fds);
	json_decref(state);
	free(dir);
	free(json);
	free(use);
	free(log);
}

static int by_last_use(const void *a, const void *b)
{
	const struct ab_cache_entry *x = a, *y = b;

	if (x->last_used_unix != y->last_used_unix)
		return x->last_used_unix > y->last_used_unix ? -1 : 1;
	return strcmp(x->key, y->key);
}

int ab_cache_list(const char *cache_dir, struct ab_cache_entry **out, size_t *n)
{
	char *builds = ab_path_join(cache_dir, "builds");
	struct ab_cache_entry *v = NULL;
	size_t len = 0, cap = 0, i;
	DIR *d = opendir(builds);
	struct dirent *de;
	char key[65];

	*out = NULL;
	*n = 0;
	if (!d) {
		int err = errno == ENOENT ? 0 : ab_error_set(AB_EIO, "cannot read the build cache '%s': %s",
							   builds, strerror(errno));
		free(builds);
		return err;
	}
	while ((de = readdir(d))) {
		const char *rest = de->d_name + 64;

		/* an entry is its tree or its record; the lock files alone are not one */
		if (!key_of(de->d_name, key) || (*rest && strcmp(rest, ".json")))
			continue;
		for (i = 0; i < len && strcmp(v[i].key, key); i++)
			;
		if (i < len)
			continue;
		if (len == cap)
			v = ab_xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
		memset(&v[len], 0, sizeof(v[len]));
		memcpy(v[len].key, key, sizeof(key));
		len++;
	}
	closedir(d);
	for (i = 0; i < len; i++)
		read_entry(&v[i], builds);
	if (len)
		qsort(v, len, sizeof(*v), by_last_use);
	free(builds);
	*out = v;
	*n = len;
	return 0;
}

void ab_cache_entries_free(struct ab_cache_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].commit);
	free(e);
}

/* Remove the entry's files but KEY.lock, holding its locks. */
static int remove_entry(const char *builds, struct ab_cache_entry *e, char *const *unfinished)
{
	static const char *const suffixes[] = {"", ".json", ".log", ".use"};
	char *const *u;
	DIR *d;
	struct dirent *de;
	int fds[2], err = 0;
	size_t i;

	for (u = unfinished; u && *u; u++)
		if (!strcmp(*u, e->key)) {
			e->action = AB_CACHE_UNFINISHED;
			return 0;
		}
	if (lock_entry_all(builds, e->key, fds) < 0) {
		e->action = AB_CACHE_LOCKED;
		e->locked = 1;
		return 0;
	}
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]) && err == 0; i++) {
		char *p = ab_xasprintf("%s/%s%s", builds, e->key, suffixes[i]);
		err = ab_remove_tree(p);
		free(p);
	}
	if (err == 0 && (d = opendir(builds))) {
		while ((de = readdir(d)) && err == 0) {
			if (!strncmp(de->d_name, e->key, 64) && !strncmp(de->d_name + 64, ".scratch-", 9)) {
				char *p = ab_path_join(builds, de->d_name);
				err = ab_remove_tree(p);
				free(p);
			}
		}
		closedir(d);
	}
	unlock_entry_all(fds);
	if (err == 0)
		e->action = AB_CACHE_REMOVED;
	return err;
}

int ab_cache_prune(const char *cache_dir, const struct ab_cache_prune *opt,
		   struct ab_cache_entry **out, size_t *n)
{
	char *builds = ab_path_join(cache_dir, "builds");
	struct ab_cache_entry *v;
	int64_t total = 0;
	size_t i, len;
	int err;

	if ((err = ab_cache_list(cache_dir, out, n)) < 0) {
		free(builds);
		return err;
	}
	v = *out;
	len = *n;
	for (i = 0; i < len; i++)
		total += v[i].size;
	for (i = 0; i < len && err == 0; i++)
		if (opt->all || (opt->older_than_s >= 0 &&
				 v[i].last_used_unix < opt->now_unix - opt->older_than_s)) {
			if ((err = remove_entry(builds, &v[i], opt->unfinished)) == 0 &&
			    v[i].action == AB_CACHE_REMOVED)
				total -= v[i].size;
		}
	/* least recently used first: the list is most recent first */
	for (i = len; i-- > 0 && err == 0 && opt->keep_size >= 0 && total > opt->keep_size;)
		if (v[i].action == AB_CACHE_KEPT &&
		    (err = remove_entry(builds, &v[i], opt->unfinished)) == 0 &&
		    v[i].action == AB_CACHE_REMOVED)
			total -= v[i].size;
	free(builds);
	return err;
}
