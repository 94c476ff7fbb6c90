/* replay.c - run a fuzzer's LLVMFuzzerTestOneInput on every file of the
 * corpus folders (or files) named on the command line, in name order, so
 * that the normal build (gcc, no libFuzzer) replays the corpora as
 * regression tests: a crash, a sanitizer report (in the sanitizer build)
 * or a leak fails the test. Exit 1 when a file cannot be read or nothing
 * was replayed, so that a moved corpus cannot pass silently. */
#include "fuzz.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_file(const char *path)
{
	char *text;
	size_t len;

	if (ab_read_file(&text, &len, path) < 0) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)text, len);
	free(text);
	return 0;
}

/* Replay one file or every regular file of a folder; returns the count
 * replayed, or -1. */
static long replay(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	long count = 0;
	DIR *dir;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: no such file or folder '%s'\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path) < 0 ? -1 : 1;
	if (!(dir = opendir(path))) {
		fprintf(stderr, "replay: cannot open folder '%s'\n", path);
		return -1;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		AB_GROW(names, alloc, n + 1);
		names[n++] = ab_path_join(path, de->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && count >= 0; i++) {
		if (stat(names[i], &st) == 0 && !S_ISREG(st.st_mode))
			continue;
		count = replay_file(names[i]) < 0 ? -1 : count + 1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0, n;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS-FOLDER-OR-FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if ((n = replay(argv[i])) < 0)
			return 1;
		total += n;
	}
	printf("replayed %ld inputs\n", total);
	return total > 0 ? 0 : 1;
}
