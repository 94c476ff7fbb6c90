/* fuzz_import.c - bytes as the file of `abtool import`: parsed as JSON
 * (jansson, as cmd_import.c reads it) and imported into a real sqlite
 * store (ab_store_import: the format and field checks, then the rows in
 * one transaction), and a run it imported exported again. The store is a
 * file in a folder of this process's own under TMPDIR (or /tmp), made
 * anew every 256 inputs so that it stays small; removed at exit. */
#include "fuzz.h"
#include "store.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dir, *path;
static struct ab_store *store;
static unsigned inputs;

static void cleanup(void)
{
	if (store)
		ab_store_close(store);
	store = NULL;
	if (dir)
		ab_remove_tree(dir);
}

static struct ab_store *fresh_store(void)
{
	if (!dir) {
		const char *tmp = getenv("TMPDIR");
		char *tmpl = ab_xasprintf("%s/abtool-fuzz-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");

		if (!(dir = mkdtemp(tmpl)))
			abort();
		path = ab_path_join(dir, "store.db");
		atexit(cleanup);
	}
	if (store && inputs % 256)
		return store;
	if (store)
		ab_store_close(store);
	store = NULL;
	unlink(path);
	if (ab_store_open(&store, path) != 0)
		abort();  /* a new store in a folder of our own always opens */
	return store;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ab_store *s = fresh_store();
	json_t *doc = json_loadb((const char *)data, size, 0, NULL), *again = NULL;
	int64_t id = 0;
	int existed = 0;

	inputs++;
	if (doc && ab_store_import(s, doc, &id, &existed) == 0) {
		if (ab_store_export(s, id, AB_STORE_EXPORT_SAMPLES, &again) != 0)
			abort();  /* what was imported exports again */
		json_decref(again);
	}
	json_decref(doc);
	return 0;
}
