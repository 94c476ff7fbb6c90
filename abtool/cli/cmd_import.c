/* cmd_import.c - `abtool import FILE`: add a run written by `abtool export
 * RUN --format json` in another store (another machine, a CI job) to this
 * one. The run gets a new local id; its uuid says which run it is, so
 * importing it twice leaves the second import a no-op. Designs are matched
 * by name, experiments by the hash of their file. FILE "-" is stdin. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const struct cmd_option cmd_import_options[] = {
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

int cmd_import(int argc, char **argv)
{
	const char *path;
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *doc = NULL, *run;
	json_error_t jerr;
	int64_t id = 0;
	int existed = 0, err, rc = 0;

	cmd_args_init(&args, "import", NULL, NULL);
	if ((stop = cmd_parse_options(&args, cmd_import_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (optind != argc - 1)
		return cmd_usage("import", "expected one file written by 'abtool export RUN --format json'");
	path = argv[optind];
	doc = !strcmp(path, "-") ? json_loadf(stdin, 0, &jerr) : json_load_file(path, 0, &jerr);
	if (!doc) {
		if (strcmp(path, "-") && jerr.line <= 0)
			return cmd_fail(ab_error_set(AB_EIO, "cannot read '%s': %s", path, jerr.text));
		return cmd_fail(ab_error_set(AB_EINVALID, "%s:%d:%d: not JSON: %s; import reads what 'abtool "
					     "export RUN --format json' writes", path, jerr.line, jerr.column,
					     jerr.text));
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_WRITE)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if ((err = ab_store_import(store, doc, &id, &existed)) < 0) {
		ab_error_prefix("cannot import '%s'", path);
		rc = cmd_fail(err);
		goto out;
	}
	run = json_object_get(doc, "run");
	cmd_plain_stdout();  /* names from the imported file */
	if (existed)
		printf("run %s is already in the store '%s' as run %lld; nothing imported\n",
		       json_string_value(json_object_get(run, "uuid")), ab_store_path(store), (long long)id);
	else
		printf("imported run %s as run %lld: %s, design '%s', %s\n",
		       json_string_value(json_object_get(run, "uuid")), (long long)id,
		       json_string_value(json_object_get(json_object_get(doc, "experiment"), "name")),
		       json_string_value(json_object_get(json_object_get(doc, "design"), "name")),
		       json_is_string(json_object_get(run, "verdict"))
		       ? json_string_value(json_object_get(run, "verdict"))
		       : json_string_value(json_object_get(run, "status")));
out:
	json_decref(doc);
	ab_store_close(store);
	return rc;
}
