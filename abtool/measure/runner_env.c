/* runner_env.c - the environment of the runner's children: abtool's,
 * less abtool's own credentials (runner.h, ab_runner_hide_env), with a
 * spec's env_extra applied. */
#include "runner.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : strlen(entry);
}

/* Does any of extra[from…] set or remove the variable of `entry`? */
static int overridden(const char *entry, char *const *extra, size_t from)
{
	size_t n = name_len(entry), i;

	for (i = from; extra[i]; i++)
		if (name_len(extra[i]) == n && !strncmp(extra[i], entry, n))
			return 1;
	return 0;
}

/* The names no child inherits from environ besides ABTOOL_STORE
 * (ab_runner_hide_env): new strings, NULL-terminated, or NULL. */
static char **hidden_env;

static int is_hidden(const char *entry)
{
	size_t n = name_len(entry);
	char **h;

	if (n == strlen("ABTOOL_STORE") && !strncmp(entry, "ABTOOL_STORE", n))
		return 1;
	for (h = hidden_env; h && *h; h++)
		if (strlen(*h) == n && !strncmp(*h, entry, n))
			return 1;
	return 0;
}

void ab_runner_hide_env(const char *name)
{
	if (!is_hidden(name))
		ab_strv_push(&hidden_env, ab_xstrdup(name));
}

void ab_runner_keep_env(const char *name)
{
	size_t i, j = 0;

	for (i = 0; hidden_env && hidden_env[i]; i++) {
		if (strcmp(hidden_env[i], name))
			hidden_env[j++] = hidden_env[i];
		else
			free(hidden_env[i]);
	}
	if (hidden_env)
		hidden_env[j] = NULL;
}

char **ab_runner_child_env(char *const *extra)
{
	size_t n = 0, m = 0, i, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = ab_xmalloc((n + m + 1) * sizeof(*env));
	for (i = 0; i < n; i++)
		if ((!extra || !overridden(environ[i], extra, 0)) && !is_hidden(environ[i]))
			env[k++] = environ[i];
	for (i = 0; i < m; i++)
		if (strchr(extra[i], '=') && !overridden(extra[i], extra, i + 1))
			env[k++] = extra[i];
	env[k] = NULL;
	return env;
}
