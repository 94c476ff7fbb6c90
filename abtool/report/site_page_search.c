/* site_page_search.c - the search of a project's site (see site_page.h):
 * the page, and its index as a script file, since a browser refuses
 * fetch() under file:// but runs a <script src> of the same folder. The
 * index holds what `abtool history --grep` searches (names, hypotheses,
 * notes and reasons), one entry per design and per run that no design
 * lists; search.js filters it in the browser. */
#include "site_page.h"
#include "report_common.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* At most this much text of notes and reasons per entry: the index of a
 * large store stays small enough to load at once. */
#define SEARCH_TEXT_MAX 4000

/* Append `s` to the text being built in *buf (a new string), once: texts
 * already in it are not added again, and nothing past SEARCH_TEXT_MAX. */
static void add_text(char **buf, const char *s)
{
	char *next;

	if (!s || !*s || strstr(*buf, s) || strlen(*buf) >= SEARCH_TEXT_MAX)
		return;
	next = ab_xasprintf("%s%s%.*s", *buf, **buf ? " · " : "", SEARCH_TEXT_MAX, s);
	free(*buf);
	*buf = next;
}

/* A run's reasons and notes into *text. */
static void run_texts(char **text, const json_t *r)
{
	const json_t *s = json_object_get(r, "summary"), *x;
	size_t i;

	json_array_foreach(json_object_get(s, "failed"), i, x)
		add_text(text, ab_report_str(x, "detail"));
	json_array_foreach(json_object_get(s, "inconclusive"), i, x)
		add_text(text, ab_report_str(x, "detail"));
	json_array_foreach(json_object_get(r, "reasons"), i, x)
		add_text(text, json_string_value(x));
	json_array_foreach(json_object_get(r, "run_notes"), i, x)
		add_text(text, ab_report_str(x, "text"));
}

/* The entry of design `d`: its hypotheses, its notes, its runs' notes and
 * reasons. */
static json_t *design_entry(const json_t *p, const json_t *d)
{
	char *hyp = ab_xstrdup(""), *text = ab_xstrdup(""), *url;
	const char *v = ab_report_str(d, "latest_verdict");
	size_t i;
	json_t *r, *e;

	json_array_foreach(json_object_get(d, "design_notes"), i, r)
		add_text(&text, ab_report_str(r, "text"));
	json_array_foreach(ab_site_design_runs(p, ab_report_str(d, "design")), i, r) {
		if (strcmp(ab_report_str(r, "design"), ab_report_str(d, "design")) ||
		    !strcmp(ab_report_str(r, "kind"), "bisect"))
			continue;
		add_text(&hyp, ab_report_str(r, "hypothesis"));
		add_text(&text, ab_report_str(r, "experiment"));
		run_texts(&text, r);
	}
	url = ab_xasprintf("designs.html#d-%s", ab_report_str(d, "key"));
	e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "k", "design", "n", ab_report_str(d, "design"), "h",
		      hyp, "t", text, "v", *v ? v : "undecided", "u", url);
	free(url);
	free(hyp);
	free(text);
	return e;
}

/* 1 when a design of `listed` (p.designs' names) lists run `r`. */
static int listed(const json_t *names, const json_t *r)
{
	return strcmp(ab_report_str(r, "kind"), "bisect") && json_object_get(names, ab_report_str(r, "design"));
}

/* The entry of a run no design lists. */
static json_t *run_entry(const json_t *r)
{
	char *text = ab_xstrdup(""), *name, *url;
	const char *v = ab_report_str(r, "verdict");
	long long id = ab_report_int(r, "id");
	json_t *e;

	add_text(&text, ab_report_str(r, "design"));
	run_texts(&text, r);
	name = ab_xasprintf("run %lld: %s", id, ab_report_str(r, "experiment"));
	url = json_is_true(json_object_get(json_object_get(r, "summary"), "has_report"))
		      ? ab_xasprintf("../../runs/%lld/report.html", id) : ab_xstrdup("index.html");
	e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "k", ab_report_str(r, "kind"), "n", name, "h",
		      ab_report_str(r, "hypothesis"), "t", text, "v", *v ? v : ab_report_str(r, "status"),
		      "u", url);
	free(url);
	free(name);
	free(text);
	return e;
}

void ab_site_search_index(FILE *f, const json_t *p)
{
	json_t *list = json_array(), *names = json_object(), *x;
	size_t i;
	char *text;

	json_array_foreach(json_object_get(p, "designs"), i, x) {
		json_array_append_new(list, design_entry(p, x));
		json_object_set_new(names, ab_report_str(x, "design"), json_true());
	}
	json_array_foreach(json_object_get(p, "runs"), i, x)
		if (!listed(names, x))
			json_array_append_new(list, run_entry(x));
	json_decref(names);
	/* ASCII: U+2028 and U+2029, line ends to older JavaScript, escaped too */
	text = json_dumps(list, JSON_COMPACT | JSON_ENSURE_ASCII);
	fprintf(f, "/* abtool site: the search index of a project */\nwindow.ABTOOL_SEARCH = %s;\n",
		text ? text : "[]");
	free(text);
	json_decref(list);
}

void ab_site_page_search(FILE *f, const json_t *p)
{
	static const char *const scripts[] = {"search-index.js", "../../search.js", NULL};

	ab_site_head(f, "../../", "search", p);
	fprintf(f, "<h1>Search</h1>\n<p class=\"meta\">The designs and runs of this project whose "
		"names, hypotheses, notes or reasons hold every word typed (as <code>abtool history "
		"--grep</code> searches, without stemming). A search can be linked: "
		"<code>search.html?q=WORDS</code>.</p>\n<p><label for=\"q\">Words:</label> "
		"<input id=\"q\" type=\"search\" size=\"40\" autocomplete=\"off\"> "
		"<span id=\"matches\" class=\"meta\"></span></p>\n<ul id=\"results\" class=\"results\"></ul>\n"
		"<noscript><p>The search needs JavaScript; the <a href=\"designs.html\">designs</a> page "
		"lists everything it searches.</p></noscript>\n");
	ab_site_foot(f, p, scripts);
}
