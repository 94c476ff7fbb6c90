/* cmd_note.c - `abtool note RUN TEXT` and `abtool note --design D TEXT`:
 * attach free text (why a design was rejected, a link to a discussion) to
 * a run or to a whole design. Notes are shown by `abtool show` (a design's
 * notes on every run of it) and found by `abtool history --grep`. TEXT is
 * the remaining arguments joined by spaces (after "--" when it starts with
 * '-'), or "-" to read standard input. */
#include "cmd.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static char *read_stdin(void)
{
	char *text = NULL;
	size_t len = 0, alloc = 0, n;

	do {
		AB_GROW(text, alloc, len + 4096);
		n = fread(text + len, 1, alloc - len - 1, stdin);
		len += n;
	} while (n > 0);
	text[len] = '\0';
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	return text;
}

const struct cmd_option cmd_note_options[] = {
	{"design", 0, "D", "attach the note to the design D instead of a run", NULL, CMD_OWN, 'd', 0, 0},
	CMD_STORE_OPTION,
	CMD_HELP_OPTION,
	CMD_OPTIONS_END,
};

/* With no current project (cmd_store_lists_every_project), the design is
 * the one of that name in any project, when one project has it: the
 * store's project becomes that one. 0, or AB_EINVALID when several do. */
static int design_project(struct ab_store *store, const char *design)
{
	json_t *list = NULL, *d;
	const char *found = NULL;
	size_t i;
	int err = 0;

	if (!cmd_store_lists_every_project(store) ||
	    ab_store_designs(store, AB_STORE_DESIGNS_ALL_PROJECTS, &list) < 0)
		return 0;
	json_array_foreach(list, i, d) {
		const char *p = json_string_value(json_object_get(d, "project"));
		if (strcmp(json_string_value(json_object_get(d, "design")), design))
			continue;
		if (found && strcmp(found, p)) {
			err = ab_error_set(AB_EINVALID, "the store '%s' has a design '%s' in the projects "
					   "'%s' and '%s'; run abtool note from the repository of the one "
					   "you mean", ab_store_path(store), design, found, p);
			break;
		}
		found = p;
	}
	if (!err && found)
		ab_store_set_project(store, found);
	json_decref(list);
	return err;
}

int cmd_note(int argc, char **argv)
{
	const char *design = NULL;
	struct cmd_args args;
	int stop;
	struct ab_store *store = NULL;
	json_t *run = NULL;
	char *text = NULL;
	int64_t run_id = 0, note_id = 0;
	int err, rc = 0, i;

	/* Options may follow the text; text that starts with '-' goes after "--". */
	cmd_args_init(&args, "note", cmd_own_string, &design);
	if ((stop = cmd_parse_options(&args, cmd_note_options, argc, argv)) != CMD_GO_ON)
		return stop;
	if (!design && optind + 2 > argc)
		return cmd_usage("note", "expected a run and the text of the note");
	if (design && optind + 1 > argc)
		return cmd_usage("note", "expected the text of the note");
	i = design ? optind : optind + 1;
	if (i == argc - 1 && !strcmp(argv[i], "-")) {
		text = read_stdin();
	} else {
		for (; i < argc; i++) {
			char *next = ab_xasprintf("%s%s%s", text ? text : "", text ? " " : "", argv[i]);
			free(text);
			text = next;
		}
	}
	if ((err = cmd_open_store(&store, args.store, NULL, CMD_STORE_WRITE)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if (!design && (err = ab_store_run_resolve(store, argv[optind], &run_id)) < 0) {
		rc = cmd_fail(err);
		goto out;
	}
	if ((design && (err = design_project(store, design)) < 0) ||
	    (err = ab_store_note_add(store, run_id, design, text, &note_id)) < 0) {
		rc = err == AB_EINVALID ? cmd_usage("note", "%s", ab_error_last()) : cmd_fail(err);
		goto out;
	}
	cmd_plain_stdout();  /* the design's name comes from users */
	if (design) {
		printf("note %lld added to design '%s'\n", (long long)note_id, design);
	} else if (ab_store_run_get(store, run_id, &run) == 0) {
		printf("note %lld added to run %lld (design '%s')\n", (long long)note_id, (long long)run_id,
		       json_string_value(json_object_get(run, "design")));
	}
out:
	json_decref(run);
	free(text);
	ab_store_close(store);
	return rc;
}
