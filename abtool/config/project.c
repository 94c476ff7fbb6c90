/* project.c - the project of a repository (see project.h and
 * docs/history.md, "Projects"): the URL through uriparser; what is
 * hand-written here is only the normalization of the parts. A
 * repository's remotes and commits are read in revs_project.c. */
#include "project.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <uriparser/Uri.h>

/* Drop trailing slashes, then a trailing ".git", then the slashes before
 * it ("x.git/", "dir/.git"). */
static void trim_git(char *s)
{
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	if (n > 4 && !strcmp(s + n - 4, ".git"))
		s[n -= 4] = '\0';
	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* Whether `port` is the default port of `scheme` (both lowercase). */
static int default_port(const char *scheme, const char *port)
{
	static const struct {
		const char *scheme, *port;
	} ports[] = {
		{"ssh", "22"}, {"git+ssh", "22"}, {"ssh+git", "22"}, {"git", "9418"},
		{"http", "80"}, {"https", "443"},
	};
	size_t i;

	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (!strcmp(scheme, ports[i].scheme) && !strcmp(port, ports[i].port))
			return 1;
	return 0;
}

static char *range(const UriTextRangeA *r)
{
	return r->first ? ab_xstrndup(r->first, (size_t)(r->afterLast - r->first)) : ab_xstrdup("");
}

/* host[:port][/path] of a URL with a scheme. */
static int from_uri(char **out, const char *url)
{
	UriUriA uri;
	const char *errpos = NULL;
	UriPathSegmentA *seg;
	char *scheme, *host, *port, *path, *next;

	if (uriParseSingleUriA(&uri, url, &errpos) != URI_SUCCESS)
		return ab_error_set(AB_EINVALID, "the remote URL does not parse as a URL (at column %zu)",
				    errpos ? (size_t)(errpos - url) + 1 : 0);
	path = ab_xstrdup("");
	scheme = range(&uri.scheme);
	host = range(&uri.hostText);
	port = range(&uri.portText);
	lower(scheme);
	lower(host);
	for (seg = uri.pathHead; seg; seg = seg->next) {
		char *text = range(&seg->text);
		next = ab_xasprintf("%s%s%s", path, *path || !strcmp(scheme, "file") ? "/" : "", text);
		free(text);
		free(path);
		path = next;
	}
	if (!strcmp(scheme, "file") || !*host) {
		*out = path;  /* a local path: the host of file://host/ names no project */
		path = NULL;
	} else {
		*out = ab_xasprintf("%s%s%s%s%s%s%s", uri.hostData.ip6 || uri.hostData.ipFuture.first
				    ? "[" : "", host, uri.hostData.ip6 || uri.hostData.ipFuture.first
				    ? "]" : "", *port && !default_port(scheme, port) ? ":" : "",
				    *port && !default_port(scheme, port) ? port : "", *path ? "/" : "",
				    path);
	}
	free(scheme);
	free(host);
	free(port);
	free(path);
	uriFreeUriMembersA(&uri);
	trim_git(*out);
	return 0;
}

/* Git's scp-like form: [user@]host:path, or [user@][host]:path. NULL when
 * `url` is not one (a URL, or a local path: a '/' before the first ':'). */
static char *from_scp(const char *url)
{
	const char *colon, *slash = strchr(url, '/'), *at, *host, *close = NULL;
	char *h, *s;

	if (strstr(url, "://"))
		return NULL;
	at = strchr(url, '@');
	host = at && (!slash || at < slash) ? at + 1 : url;
	if (*host == '[' && (close = strchr(host, ']')) && close[1] == ':')
		colon = close + 1;
	else
		colon = strchr(host, ':');
	if (!colon || (slash && slash < colon && !close) || colon == host)
		return NULL;
	h = ab_xstrndup(host, (size_t)(colon - host));
	lower(h);
	for (colon++; *colon == '/'; colon++)
		;
	s = *colon ? ab_xasprintf("%s/%s", h, colon) : ab_xstrdup(h);
	free(h);
	trim_git(s);
	return s;
}

int ab_project_from_url(char **out, const char *url)
{
	*out = NULL;
	if (!url || !*url)
		return ab_error_set(AB_EINVALID, "the remote URL is empty");
	if ((*out = from_scp(url)))
		return 0;
	if (strstr(url, "://"))
		return from_uri(out, url);
	*out = ab_xstrdup(url);  /* a local path */
	trim_git(*out);
	return 0;
}

const char *ab_project_name_problem(const char *name)
{
	const char *p;
	int blank = 1;

	if (!name || !*name)
		return "expected a project name, like github.com/owner/name";
	for (p = name; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "a project name has no control characters";
		if (*p != ' ')
			blank = 0;
	}
	if (blank)
		return "expected a project name, like github.com/owner/name, not only spaces";
	if (!strcmp(name, AB_PROJECT_UNCLAIMED))
		return "'" AB_PROJECT_UNCLAIMED "' is what old stores' rows are until a repository "
		       "claims them; choose another name";
	return NULL;
}
