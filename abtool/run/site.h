/* site.h - the static site of a store (`abtool site`, docs/history.md "The
 * site"): read everything a project's pages show from the store through
 * its read API (store.h), render each run's report as `abtool report`
 * does (the registry of formats, report_format.h) and the project's pages
 * (site_page.h), and write them under one folder. The pages are static
 * files, readable from file:// and from any static host (GitHub Pages);
 * nothing is fetched when they are viewed. */
#ifndef AB_SITE_H
#define AB_SITE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "store.h"

struct ab_site_options {
	const char *outdir;        /* the site's folder (made when missing) */
	const char *project;       /* only this project's pages (exactly; "" the comparisons');
	                              NULL: every project's */
	const char *store_name;    /* how the pages name the store: ab_store_describe's, without
	                              a password (docs/security.md, "Credentials") */
	const char *generated_at;  /* the time the pages say they were written (ISO 8601 UTC) */
	int rebuild;               /* render every run's report again, even one whose files are
	                              up to date */
	const char *commit_url;    /* a commit's link: a URL with {commit}, or NULL: derived from a
	                              project on github.com, gitlab.com, codeberg.org or
	                              bitbucket.org, none for another */
	/* The run's profiles as the HTML report reads them beside its document
	 * (a new reference; an empty array when it has none), so that a run's
	 * page is the bytes `abtool report RUN --format html` writes. NULL:
	 * no profiles. */
	json_t *(*profiles)(struct ab_store *store, int64_t run_id);
};

/* What ab_site_build did. */
struct ab_site_stats {
	size_t projects;   /* projects written */
	size_t runs;       /* runs in them */
	size_t rendered;   /* runs whose report was rendered now */
	size_t kept;       /* runs whose files were up to date */
	size_t pages;      /* files written (reports and samples included) */
	uint64_t bytes;    /* their size */
};

/*
 * Write the site of `store` under opt->outdir (docs/history.md, "The
 * site"): OUTDIR/index.html (the projects), OUTDIR/style.css and search.js,
 * per project OUTDIR/p/SLUG/ (its front page, designs and a page per
 * design, rows and a page per experiment, bisects, regressions and their
 * feed, search and its index), and per
 * run OUTDIR/runs/ID/ (report.html and samples.tsv, as `abtool report`
 * renders them, and summary.json, what the project pages read of the
 * report). A run whose folder holds the files of its current state (the
 * stamp file names the run's uuid, status and finish time) is not
 * rendered again, unless opt->rebuild. Errors: AB_EIO (the folder or a
 * file cannot be written, the store fails), AB_ENOTFOUND (opt->project
 * has no run in the store).
 */
int ab_site_build(struct ab_store *store, const struct ab_site_options *opt, struct ab_site_stats *out);

/* A folder name for project `name` (new string): its letters, digits, '.'
 * and '-' kept, every other run of characters one '-', lowercase;
 * "comparisons" for "" (the comparisons of two commands). */
char *ab_site_slug(const char *name);

/* What the site's sections share (site.c, site_runs.c). */

/* Write `len` bytes of `data` to `path` through a temporary file renamed
 * over it (no fsync: a site is written again from the store when it is
 * lost), and count it in `st`. AB_EIO naming the file. */
int ab_site_write(const char *path, const char *data, size_t len, struct ab_site_stats *st);

/* What the project pages read of a run's report document `doc` (borrowed;
 * NULL: a run without a report): {has_report, subject, rows [{label,
 * metric, unit, better, ratio, ci, d}], failed [{rule, detail}],
 * inconclusive [{rule, detail}]}, each rule's detail with its rows of that
 * outcome first (site_page.h). New reference. */
json_t *ab_site_summary(const json_t *doc);

/*
 * Run `run`'s folder OUTDIR/runs/ID (run: an object of ab_store_history,
 * borrowed): kept when its stamp names the run's state (uuid, status,
 * finish time, abtool's version) and opt->rebuild is not set, else
 * rendered from the store (report.html, samples.tsv, summary.json,
 * stamp). *summary is the run's summary (new reference). Counts the run
 * as rendered or kept in `st`. Errors: AB_EIO, and the store's.
 */
int ab_site_run_folder(struct ab_store *store, const struct ab_site_options *opt, const json_t *run,
		       json_t **summary, struct ab_site_stats *st);

/* Place each run of project model `p` (site_page.h) in its project's
 * history: run.pos, the candidate's index on the first-parent history of
 * HEAD of the repository the newest run names (libgit2), a commit off it
 * at the commit it branched from plus one half, null for a commit the
 * repository lacks; p.order "first-parent", p.commits and p.order_note
 * say so. Without a repository at hand: the runs' order in time (p.order
 * "time"). Never fails (site_order.c). */
void ab_site_order(json_t *p);

#endif
