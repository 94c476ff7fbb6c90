/* project.h - the project a run belongs to (docs/history.md, "Projects"):
 * the name that keeps one repository's designs and verdicts apart from
 * another's in a store that several repositories share. By default it is
 * the repository's first remote URL, normalized so that the ways people
 * clone one repository agree; without a remote, "root:<oid>" of its root
 * commit. The experiment file's `project:` and the config file's
 * `project:` override it (the command layer chooses, cmd_store.c). */
#ifndef AB_PROJECT_H
#define AB_PROJECT_H

/*
 * The project of a remote URL (new string in *out): the URL without its
 * scheme, user and credentials, and its port when it is the scheme's
 * default (ssh 22, git 9418, http 80, https 443), with the host
 * lowercased and a trailing ".git" and slashes dropped. Git's scp-like
 * form [user@]host:path (no "://", no '/' before the first ':') is the
 * host and the path. So git@github.com:Owner/Name.git,
 * ssh://git@github.com/Owner/Name and
 * https://user:token@github.com/Owner/Name.git/ all give
 * "github.com/Owner/Name". An IPv6 host keeps its brackets
 * ("[::1]:2222/x"); a URL without a path is its host. A local path (or a
 * file:// URL) is the path, without a trailing ".git" and slashes.
 * URLs are parsed with uriparser (RFC 3986). Errors: AB_EINVALID for an
 * empty URL or one that does not parse (the message names the URL
 * without its user part).
 */
int ab_project_from_url(char **out, const char *url);

/* What starts the project derived from a repository without a remote:
 * AB_PROJECT_ROOT and the full id of its root commit. */
#define AB_PROJECT_ROOT "root:"

/* The project of the rows written before store migration 0011 until a
 * repository claims them (not a project anyone may name). */
#define AB_PROJECT_UNCLAIMED "(unclaimed)"

/*
 * Whether `name` may be given as a project (`project:` in the experiment
 * file or the config file): NULL when it may, else why not (static
 * text): empty, only spaces, control characters, or the placeholder
 * AB_PROJECT_UNCLAIMED of the rows no repository claimed yet.
 */
const char *ab_project_name_problem(const char *name);

#endif
