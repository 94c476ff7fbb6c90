/* userconf.h - the per-user config file, $XDG_CONFIG_HOME/abtool/config
 * (default ~/.config/abtool/config): YAML, one mapping; the keys are in
 * docs/cli.md, "The config file". Every key is optional; an unknown key
 * or a bad value is an error naming file:line:column. */
#ifndef AB_USERCONF_H
#define AB_USERCONF_H

#include <stdint.h>

struct ab_userconf {
	char *path;              /* the file read (or that would be), new */
	int found;               /* 1: the file exists */
	char *store;             /* store: an absolute path, or NULL; new */
	char *store_at;          /* "FILE:LINE:COLUMN" of store:'s value, or NULL; new */
	int64_t cache_max_size;  /* cache: {max_size:} in bytes, or -1 when not set */
	char *project;           /* project: the project of every repository the user works
	                            in (docs/history.md, "Projects"), or NULL; new */
};

/* The config file's path: $XDG_CONFIG_HOME/abtool/config when
 * XDG_CONFIG_HOME is an absolute path, else $HOME/.config/abtool/config.
 * New string. */
char *ab_userconf_path(void);

/*
 * Read the config file (ab_userconf_path) into `out`, initialised here;
 * release with ab_userconf_release. A missing file is no error (found 0,
 * nothing set). A relative store: starts at the config file's folder, a
 * leading "~/" at $HOME. Errors: AB_EINVALID for a YAML error, an unknown
 * key or a bad value (the message starts with FILE:LINE:COLUMN), AB_EIO
 * when the file exists but cannot be read; release `out` either way.
 */
int ab_userconf_load(struct ab_userconf *out);

void ab_userconf_release(struct ab_userconf *c);

#endif
