/* inputs.c - content hashes and stat stamps of the inputs outside the
 * trees (inputs.h). */
#include "inputs.h"
#include "error.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a walk does with each file: its relative path (within the input)
 * and its stat. `hash` reads the content; the stamp only stats. */
struct walk {
	struct ab_sha256 *sha;
	int hash;
	int64_t bytes, files;
};

static int walk_file(struct walk *w, const char *path, const char *rel, const struct stat *st)
{
	char hex[65], line[96];
	int err;

	ab_sha256_update(w->sha, rel, strlen(rel) + 1);
	if (w->hash) {
		if ((err = ab_sha256_file(hex, path)) < 0)
			return err;
		ab_sha256_update(w->sha, hex, 64);
	} else {
		snprintf(line, sizeof(line), "%lld %lld.%09ld", (long long)st->st_size,
			 (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
		ab_sha256_update(w->sha, line, strlen(line) + 1);
	}
	w->bytes += (int64_t)st->st_size;
	w->files++;
	return 0;
}

static int walk(struct walk *w, const char *path, const char *rel, int depth)
{
	struct dirent **names = NULL;
	struct stat st;
	int n, i, err = 0;

	if (stat(path, &st) < 0)
		return ab_error_set(errno == ENOENT ? AB_ENOTFOUND : AB_EIO, "inputs: %s: %s", path,
				    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return walk_file(w, path, rel, &st);
	if (depth > 64)
		return ab_error_set(AB_EIO, "inputs: %s: folders nested too deep (a link loop?)", path);
	if ((n = scandir(path, &names, NULL, alphasort)) < 0)
		return ab_error_set(AB_EIO, "inputs: %s: %s", path, strerror(errno));
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (!err && strcmp(name, ".") && strcmp(name, "..")) {
			char *sub = ab_xasprintf("%s/%s", path, name);
			char *subrel = ab_xasprintf("%s%s%s", rel, *rel ? "/" : "", name);
			err = walk(w, sub, subrel, depth + 1);
			free(sub);
			free(subrel);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int ab_inputs_hash(json_t **out, char hash[65], char *const *paths)
{
	struct ab_sha256 *all = ab_sha256_new();
	char *const *p;
	int err = 0;

	*out = json_array();
	for (p = paths; p && *p && !err; p++) {
		struct walk w = {ab_sha256_new(), 1, 0, 0};
		struct stat st;
		char hex[65];
		int is_dir = stat(*p, &st) == 0 && S_ISDIR(st.st_mode);

		err = walk(&w, *p, "", 0);
		ab_sha256_final(w.sha, hex);
		if (!err && !is_dir)  /* a file's hash is its content's, as sha256sum says */
			err = ab_sha256_file(hex, *p);
		if (err)
			break;
		json_array_append_new(*out, json_pack("{s:s, s:s, s:s, s:I, s:I}", "path", *p, "type",
						      is_dir ? "folder" : "file", "sha256", hex,
						      "bytes", (json_int_t)w.bytes, "files", (json_int_t)w.files));
		ab_sha256_update(all, *p, strlen(*p) + 1);
		ab_sha256_update(all, hex, 64);
	}
	ab_sha256_final(all, hash);
	if (!paths || !*paths)
		hash[0] = '\0';
	if (err) {
		json_decref(*out);
		*out = NULL;
	}
	return err;
}

int ab_inputs_stamp(char stamp[65], char *const *paths)
{
	struct walk w = {ab_sha256_new(), 0, 0, 0};
	char *const *p;
	int err = 0;

	for (p = paths; p && *p && !err; p++) {
		ab_sha256_update(w.sha, *p, strlen(*p) + 1);
		err = walk(&w, *p, "", 0);
	}
	ab_sha256_final(w.sha, stamp);
	return err;
}

const char *ab_inputs_changed(const json_t *then, const json_t *now)
{
	size_t i, j;
	const json_t *a, *b;

	json_array_foreach(then, i, a) {
		const char *path = json_string_value(json_object_get(a, "path"));
		int found = 0;
		json_array_foreach(now, j, b) {
			if (!path || strcmp(path, json_string_value(json_object_get(b, "path")) ?
						      json_string_value(json_object_get(b, "path")) : ""))
				continue;
			found = 1;
			if (!json_equal(json_object_get(a, "sha256"), json_object_get(b, "sha256")))
				return path;
		}
		if (!found)
			return path;
	}
	json_array_foreach(now, j, b)
		if (j >= json_array_size(then))
			return json_string_value(json_object_get(b, "path"));
	return NULL;
}
