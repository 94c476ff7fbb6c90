/* site.c - the static site of a store (see site.h): gather each project's
 * model from the store's read API (history, designs, notes, bisects), keep
 * or render each run's folder (site_runs.c), and write the pages
 * (site_page.h) under the site's folder. */
#include "site.h"
#include "report_common.h"
#include "site_page.h"
#include "project.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *ab_site_slug(const char *name)
{
	char *out = ab_xmalloc(strlen(name) + 12), *o = out;
	const unsigned char *s;

	if (!*name)
		return strcpy(out, "comparisons");
	for (s = (const unsigned char *)name; *s; s++) {
		if (isalnum(*s) || *s == '.' || *s == '-')
			*o++ = (char)tolower(*s);
		else if (o > out && o[-1] != '-')
			*o++ = '-';
	}
	while (o > out && o[-1] == '-')
		o--;
	*o = '\0';
	if (!*out || *out == '.')
		strcpy(out, "project");
	return out;
}

/* The project `name`'s model in `projects` (an object by name), made on
 * first use (borrowed). */
static json_t *project_of(json_t *projects, const char *name, const struct ab_site_options *opt)
{
	json_t *p = json_object_get(projects, name);

	if (!p) {
		char label[48];

		/* a root commit's project as git abbreviates a commit (cmd_project_label) */
		snprintf(label, sizeof(label), "%.15s", name);
		p = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[]}", "name", name, "label",
			      !*name ? "comparisons of two commands" :
			      !strncmp(name, AB_PROJECT_ROOT, strlen(AB_PROJECT_ROOT)) ? label : name, "store",
			      opt->store_name ? opt->store_name : "", "generated_at",
			      opt->generated_at ? opt->generated_at : "", "order", "time", "order_note",
			      "by the time of their runs", "runs", "designs", "bisects");
		json_object_set_new(p, "by_design", json_object());
		json_object_set_new(p, "by_experiment", json_object());
		json_object_set_new(projects, name, p);
	}
	return p;
}

/* The notes of run `run` (a history object with notes): its own as
 * run_notes, its design's into `design_notes` by "PROJECT\nDESIGN" (each
 * note once). */
static int run_notes(struct ab_store *store, json_t *run, json_t *design_notes)
{
	json_t *notes = NULL, *n, *mine = json_array();
	char *key = ab_xasprintf("%s\n%s", ab_report_str(run, "project"), ab_report_str(run, "design"));
	size_t i;
	int err;

	if ((err = ab_store_notes(store, ab_report_int(run, "id"), &notes)) < 0)
		goto out;
	json_array_foreach(notes, i, n) {
		if (!strcmp(ab_report_str(n, "scope"), "run")) {
			json_array_append_new(mine, json_pack("{s:s, s:s}", "created_at",
							      ab_report_str(n, "created_at"), "text",
							      ab_report_str(n, "text")));
		} else {
			json_t *list = json_object_get(design_notes, key), *seen;
			size_t j;
			int dup = 0;

			if (!list) {
				list = json_array();
				json_object_set_new(design_notes, key, list);
			}
			json_array_foreach(list, j, seen)
				dup |= ab_report_int(seen, "id") == ab_report_int(n, "id");
			if (!dup)
				json_array_append(list, n);
		}
	}
out:
	json_object_set(run, "run_notes", mine);
	json_decref(mine);
	json_decref(notes);
	free(key);
	return err;
}

/* Append `run` to the array `key` of the object `by` (made when missing). */
static void append_to(json_t *by, const char *key, json_t *run)
{
	json_t *list = json_object_get(by, key);

	if (!list) {
		list = json_array();
		json_object_set_new(by, key, list);
	}
	json_array_append(list, run);
}

/* Run `run` into its project's model `p`: p.runs, and p.by_design (but a
 * bisect's step) and p.by_experiment (an A/B run), which the pages read
 * so that a page of one design or experiment reads its runs only. */
static void index_run(json_t *p, json_t *run)
{
	json_array_append(json_object_get(p, "runs"), run);
	if (strcmp(ab_report_str(run, "kind"), "bisect"))
		append_to(json_object_get(p, "by_design"), ab_report_str(run, "design"), run);
	if (!strcmp(ab_report_str(run, "kind"), "ab"))
		append_to(json_object_get(p, "by_experiment"), ab_report_str(run, "experiment"), run);
}

/* Each run of `runs` into its project's model, with its folder's summary
 * and its notes. */
static int gather_runs(struct ab_store *store, const struct ab_site_options *opt, json_t *runs,
		       json_t *projects, json_t *design_notes, struct ab_site_stats *st)
{
	size_t i;
	json_t *run, *summary;
	int err;

	json_array_foreach(runs, i, run) {
		if ((err = ab_site_run_folder(store, opt, run, &summary, st)) < 0)
			return err;
		json_object_set_new(run, "summary", summary);
			if (ab_report_int(run, "notes") > 0 && (err = run_notes(store, run, design_notes)) < 0)
			return err;
		if (!json_object_get(run, "run_notes"))
			json_object_set_new(run, "run_notes", json_array());
		index_run(project_of(projects, ab_report_str(run, "project"), opt), run);
		st->runs++;
	}
	return 0;
}

/* Give each design of `p` a key of its own for its page and anchor
 * (design-KEY.html, #d-KEY): its name made safe (ab_site_slug), with a
 * number after a name that gives the same, in name order; not the
 * store's id, which another engine numbers otherwise. */
static void design_keys(json_t *p)
{
	json_t *designs = json_object_get(p, "designs"), *used = json_object();
	const char **names = ab_xcalloc(json_array_size(designs) + 1, sizeof(*names));
	size_t i, j, n = json_array_size(designs);

	for (i = 0; i < n; i++)
		names[i] = ab_report_str(json_array_get(designs, i), "design");
	qsort(names, n, sizeof(*names), by_text);
	for (i = 0; i < n; i++) {
		char *slug = ab_site_slug(names[i]), *key = ab_xstrdup(slug);
		int k = 1;

		while (json_object_get(used, key)) {
			free(key);
			key = ab_xasprintf("%s-%d", slug, ++k);
		}
		json_object_set_new(used, key, json_true());
		for (j = 0; j < n; j++)
			if (!strcmp(ab_report_str(json_array_get(designs, j), "design"), names[i]))
				json_object_set_new(json_array_get(designs, j), "key", json_string(key));
		free(key);
		free(slug);
	}
	free(names);
	json_decref(used);
}

/* The designs of the projects in `projects`, with their notes. */
static int gather_designs(struct ab_store *store, json_t *projects, json_t *design_notes)
{
	json_t *designs = NULL, *d, *p;
	size_t i;
	int err;

	if ((err = ab_store_designs(store, AB_STORE_DESIGNS_ALL_PROJECTS, &designs)) < 0)
		return err;
	json_array_foreach(designs, i, d) {
		char *key = ab_xasprintf("%s\n%s", ab_report_str(d, "project"), ab_report_str(d, "design"));
		json_t *notes = json_object_get(design_notes, key);

		json_object_set_new(d, "design_notes", notes ? json_incref(notes) : json_array());
		if ((p = json_object_get(projects, ab_report_str(d, "project"))) != NULL)
			json_array_append(json_object_get(p, "designs"), d);
		free(key);
	}
	json_decref(designs);
	return 0;
}

/* Render `fn` over `p` and `arg` into DIR/NAME (a page of one design or
 * one experiment). */
static int write_page_of(const char *dir, const char *name, void (*fn)(FILE *, const json_t *, const void *),
			 const json_t *p, const void *arg, struct ab_site_stats *st)
{
	char *text = NULL, *path = ab_path_join(dir, name);
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f) {
		free(path);
		return ab_error_set(AB_EIO, "cannot render '%s': out of memory", name);
	}
	fn(f, p, arg);
	err = fclose(f) != 0 ? ab_error_set(AB_EIO, "cannot render '%s': out of memory", name)
			     : ab_site_write(path, text, len, st);
	free(text);
	free(path);
	return err;
}

/* A page of the whole project: its renderer. */
struct page {
	void (*render)(FILE *f, const json_t *p);
};

static void project_page(FILE *f, const json_t *p, const void *page)
{
	((const struct page *)page)->render(f, p);
}

/* Render the project page `render` over `p` into DIR/NAME. */
static int write_page(const char *dir, const char *name, void (*render)(FILE *, const json_t *),
		      const json_t *p, struct ab_site_stats *st)
{
	struct page page = {render};

	return write_page_of(dir, name, project_page, p, &page, st);
}

static void rows_page(FILE *f, const json_t *p, const void *name)
{
	ab_site_page_rows(f, p, name);
}

static void design_page(FILE *f, const json_t *p, const void *d)
{
	ab_site_page_design(f, p, d);
}

/* The rows page of each experiment of `p`: rows-I.html. */
static int write_rows(const char *dir, const json_t *p, struct ab_site_stats *st)
{
	json_t *names = ab_site_experiments(p), *name;
	size_t i;
	int err = 0;

	json_array_foreach(names, i, name) {
		char *file = ab_xasprintf("rows-%zu.html", i);
		err = write_page_of(dir, file, rows_page, p, json_string_value(name), st);
		free(file);
		if (err < 0)
			break;
	}
	json_decref(names);
	return err;
}

/* The project of bisect `b`: its steps' runs', found in `by_run` (run id
 * to project), or NULL when none of its runs is there. */
static const char *bisect_project(const json_t *b, const json_t *by_run)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(b, "steps"), i, s) {
		char key[32];
		snprintf(key, sizeof(key), "%lld", ab_report_int(s, "run_id"));
		if (json_object_get(by_run, key))
			return json_string_value(json_object_get(by_run, key));
	}
	return NULL;
}

/* Each bisect into its project's model (newest first), its result's
 * culprit without the rows it repeats. */
static int gather_bisects(struct ab_store *store, const json_t *runs, json_t *projects)
{
	json_t *list = NULL, *by_run = json_object(), *x, *b = NULL;
	const char *project;
	size_t i;
	int err;

	json_array_foreach(runs, i, x) {
		char key[32];
		snprintf(key, sizeof(key), "%lld", ab_report_int(x, "id"));
		json_object_set_new(by_run, key, json_string(ab_report_str(x, "project")));
	}
	if ((err = ab_store_bisects(store, 0, &list)) < 0)
		goto out;
	json_array_foreach(list, i, x) {
		if ((err = ab_store_bisect_get(store, ab_report_int(x, "id"), &b)) < 0)
			goto out;
		json_object_del(json_object_get(json_object_get(b, "result"), "culprit"), "row_results");
		json_object_del(b, "options");
		if ((project = bisect_project(b, by_run)) && json_object_get(projects, project))
			json_array_append(json_object_get(json_object_get(projects, project), "bisects"), b);
		json_decref(b);
		b = NULL;
	}
out:
	json_decref(list);
	json_decref(by_run);
	return err;
}

/* The link of a commit of project `name` when it names a repository of a
 * forge whose commit pages are known (project.c normalizes the remote's
 * URL to HOST/PATH), as a template with {commit}; NULL for any other. */
static char *forge_commit_url(const char *name)
{
	static const char *const forges[][2] = {
		{"github.com/", "/commit/"}, {"gitlab.com/", "/-/commit/"},
		{"codeberg.org/", "/commit/"}, {"bitbucket.org/", "/commits/"},
	};
	size_t i;

	for (i = 0; i < sizeof(forges) / sizeof(forges[0]); i++)
		if (!strncmp(name, forges[i][0], strlen(forges[i][0])) && strchr(name + strlen(forges[i][0]), '/'))
			return ab_xasprintf("https://%s%s{commit}", name, forges[i][1]);
	return NULL;
}

/* Write project `p`'s pages under OUTDIR/p/SLUG/. */
static int write_project(const struct ab_site_options *opt, json_t *p, struct ab_site_stats *st)
{
	char *rel = ab_xasprintf("p/%s", ab_report_str(p, "slug"));
	char *dir = ab_path_join(opt->outdir, rel);
	const json_t *d;
	size_t i;
	int err;

	if ((err = ab_mkdir_p(dir)) < 0 || (err = write_page(dir, "index.html", ab_site_page_index, p, st)) < 0 ||
	    (err = write_page(dir, "designs.html", ab_site_page_designs, p, st)) < 0 ||
	    (err = write_page(dir, "search.html", ab_site_page_search, p, st)) < 0 ||
	    (err = write_page(dir, "search-index.js", ab_site_search_index, p, st)) < 0)
		goto out;
	if ((err = write_page(dir, "rows.html", ab_site_page_rows_index, p, st)) < 0 ||
	    (err = write_page(dir, "bisects.html", ab_site_page_bisects, p, st)) < 0 ||
	    (err = write_page(dir, "regressions.html", ab_site_page_regressions, p, st)) < 0 ||
	    (err = write_page(dir, "feed.xml", ab_site_feed, p, st)) < 0 ||
	    (err = write_rows(dir, p, st)) < 0)
		goto out;
	json_array_foreach(json_object_get(p, "designs"), i, d) {
		char *name = ab_xasprintf("design-%s.html", ab_report_str(d, "key"));
		err = write_page_of(dir, name, design_page, p, d, st);
		free(name);
		if (err < 0)
			goto out;
	}
	st->projects++;
out:
	free(dir);
	free(rel);
	return err;
}

/* The projects of `projects` (an object by name) in name order, each
 * given a slug of its own (a collision gets a number). New array. */
static json_t *slugs(json_t *projects)
{
	json_t *list = json_array(), *used = json_object(), *p;
	const char *name, **names = ab_xcalloc(json_object_size(projects) + 1, sizeof(*names));
	size_t i, n = 0;

	json_object_foreach(projects, name, p)
		names[n++] = name;
	qsort(names, n, sizeof(*names), by_text);
	for (i = 0; i < n; i++) {
		char *slug, *s;
		int k = 1;

		p = json_object_get(projects, names[i]);
		/* a root commit's project by its abbreviated label */
		slug = ab_site_slug(strncmp(names[i], AB_PROJECT_ROOT, strlen(AB_PROJECT_ROOT))
				    ? names[i] : ab_report_str(p, "label"));
		s = ab_xstrdup(slug);
		while (json_object_get(used, s)) {
			free(s);
			s = ab_xasprintf("%s-%d", slug, ++k);
		}
		json_object_set_new(used, s, json_true());
		json_object_set_new(p, "slug", json_string(s));
		json_array_append(list, p);
		free(s);
		free(slug);
	}
	free(names);
	json_decref(used);
	return list;
}

/* The site's own files at its root. */
static int write_root(const struct ab_site_options *opt, const json_t *list, struct ab_site_stats *st)
{
	char *text = NULL, *path = ab_path_join(opt->outdir, "style.css");
	size_t len = 0;
	FILE *f;
	int err;

	if ((err = ab_site_write(path, ab_site_css, strlen(ab_site_css), st)) < 0)
		goto out;
	free(path);
	path = ab_path_join(opt->outdir, "search.js");
	if ((err = ab_site_write(path, ab_site_search_js, strlen(ab_site_search_js), st)) < 0)
		goto out;
	free(path);
	path = ab_path_join(opt->outdir, "rows.js");
	if ((err = ab_site_write(path, ab_site_rows_js, strlen(ab_site_rows_js), st)) < 0)
		goto out;
	free(path);
	path = ab_path_join(opt->outdir, "index.html");
	if (!(f = open_memstream(&text, &len))) {
		err = ab_error_set(AB_EIO, "cannot render the site's index: out of memory");
		goto out;
	}
	ab_site_page_projects(f, list, opt->store_name, opt->generated_at);
	fclose(f);
	err = ab_site_write(path, text, len, st);
out:
	free(text);
	free(path);
	return err;
}

int ab_site_build(struct ab_store *store, const struct ab_site_options *opt, struct ab_site_stats *out)
{
	struct ab_history_filter filter = {0};
	json_t *runs = NULL, *projects = json_object(), *notes = json_object(), *list = NULL, *p;
	size_t i;
	int err;

	memset(out, 0, sizeof(*out));
	filter.project = opt->project;
	filter.all_projects = !opt->project;
	if ((err = ab_store_history(store, &filter, &runs)) < 0)
		goto out;
	if (opt->project && !json_array_size(runs)) {
		err = ab_error_set(AB_ENOTFOUND, "no run of the project '%s' in the store '%s' (see 'abtool "
				   "history --all-projects')", opt->project, opt->store_name ? opt->store_name : "");
		goto out;
	}
	if ((err = ab_mkdir_p(opt->outdir)) < 0 ||
	    (err = gather_runs(store, opt, runs, projects, notes, out)) < 0 ||
	    (err = gather_designs(store, projects, notes)) < 0 ||
	    (err = gather_bisects(store, runs, projects)) < 0)
		goto out;
	list = slugs(projects);
	json_array_foreach(list, i, p) {
		char *url = opt->commit_url ? ab_xstrdup(opt->commit_url) : forge_commit_url(ab_report_str(p, "name"));

		json_object_set_new(p, "commit_url", url ? json_string(url) : json_null());
		free(url);
		ab_site_order(p);
		design_keys(p);
		if ((err = write_project(opt, p, out)) < 0)
			goto out;
	}
	err = write_root(opt, list, out);
out:
	json_decref(list);
	json_decref(notes);
	json_decref(projects);
	json_decref(runs);
	return err;
}
