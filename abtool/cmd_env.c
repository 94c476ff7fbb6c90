/* cmd_env.c - `abtool env`: the host fingerprint abtool stores with each
 * run, so a reader can tell on what machine a verdict was reached. */
#include "cmd.h"
#include "env.h"

#include <stdlib.h>
#include <string.h>

int cmd_env(int argc, char **argv)
{
	json_t *fp = ab_env_fingerprint("");
	int json = argc > 1 && !strcmp(argv[1], "--json");
	char *text;

	if (argc > 2 || (argc == 2 && !json)) {
		json_decref(fp);
		return cmd_usage("env", "unknown argument '%s'", argv[1]);
	}
	if (json) {
		text = json_dumps(fp, JSON_INDENT(2));
		printf("%s\n", text);
	} else {
		text = ab_env_summary(fp);
		printf("%s\n", text);
	}
	free(text);
	json_decref(fp);
	return 0;
}
