/* site_page.h - the pages of the static site of a store (`abtool site`,
 * docs/history.md "The site"), rendered from a project's model: a JSON
 * object the run layer gathers from the store (run/site.h) and that these
 * functions only read. Every page is static HTML with an external style
 * sheet and, where a page needs one, an external script of abtool's own
 * (no inline script or style, no font, image or script from elsewhere: a
 * Content-Security-Policy allows only the site's own files), readable from
 * file:// and from any static host. Every string of the model is escaped
 * (ab_report_escape_xml), numbers are printed with fixed precision, and
 * nothing depends on the machine that renders them, so the same model
 * gives the same bytes.
 *
 * The model of a project (borrowed by every function here):
 *   name (the project; "" for comparisons), label (as pages show it),
 *   slug (its folder under p/), store (the store's name without password),
 *   generated_at, commit_url (a template with {commit}, or null),
 *   order ("first-parent" or "time") and order_note (how commits were
 *   ordered),
 *   commits (the first-parent history's length, with order "first-parent"),
 *   runs: ab_store_history's objects, newest first, each with
 *     summary {has_report, subject, rows [{label, metric, unit, better,
 *     ratio, ci [L, U] or null, d [log ratios per pair]}], failed [{rule,
 *     detail}], inconclusive [{rule, detail}]}, run_notes [texts] and pos
 *     (the candidate's position in the order, or null),
 *   by_design {DESIGN: [runs]}, by_experiment {EXPERIMENT: [its A/B runs]}:
 *     the same run objects by design (a bisect's steps left out) and by
 *     experiment, newest first, so that a page of one reads only its runs,
 *   designs: ab_store_designs' objects, each with design_notes [{created_at,
 *     text}] and key (its page is design-KEY.html, its anchor d-KEY),
 *   bisects: ab_store_bisect_get's objects, newest first, with the result's
 *     culprit without its rows.
 */
#ifndef AB_SITE_PAGE_H
#define AB_SITE_PAGE_H

#include <stdio.h>

#include <jansson.h>

/* The site's style sheet (style.css) and the search page's script
 * (search.js: it filters search-index.js's entries by every word typed,
 * or given as ?q=). Static text. */
extern const char ab_site_css[];
extern const char ab_site_search_js[];

/* rows.js: a rows page's filters by row and outcome and the comparison of
 * two runs of a row (?row=LABEL&outcome=V,V&a=RUN&b=RUN sets them). */
extern const char ab_site_rows_js[];

/* The front page of the whole site (index.html): one line per project of
 * `projects` (an array of models), with its counts. */
void ab_site_page_projects(FILE *f, const json_t *projects, const char *store, const char *generated_at);

/* A project's front page (p/SLUG/index.html): the counts of runs by
 * verdict and of designs by standing, the newest verdicts, the rows with
 * their latest accepted ratio, and the designs by outcome. */
void ab_site_page_index(FILE *f, const json_t *p);

/* The designs page (p/SLUG/designs.html): each design by standing, with
 * its hypothesis, the failing part of each failed rule's reason first,
 * notes and new evidence; a rejected design says "do not retry without new
 * evidence". */
void ab_site_page_designs(FILE *f, const json_t *p);

/* One design's page (p/SLUG/design-KEY.html, KEY its name made safe for
 * a path): every run with its verdict and reasons, the notes. `d` is an
 * element of p.designs. */
void ab_site_page_design(FILE *f, const json_t *p, const json_t *d);

/* The experiments of a project whose A/B runs the rows pages chart, by
 * name (a new array of strings); rows page i is rows-i.html. */
json_t *ab_site_experiments(const json_t *p);

/* The rows page of experiment `name` (p/SLUG/rows-I.html, I its index in
 * ab_site_experiments): per row an SVG chart of the accepted runs' ratios
 * and intervals in the project's order (p.order), the rejected and
 * inconclusive attempts marked, and the cumulative change (a measured
 * base-against-head run when there is one, else the product of the
 * estimates with a Bonferroni interval; site_page_rows.c). */
void ab_site_page_rows(FILE *f, const json_t *p, const char *name);

/* The experiments and their rows, each a link to its chart, with the
 * newest accepted ratio (for the rows list and the front page). */
void ab_site_rows_list(FILE *f, const json_t *p);

/* The rows list as a page (p/SLUG/rows.html). */
void ab_site_page_rows_index(FILE *f, const json_t *p);

/* The bisects page (p/SLUG/bisects.html): each bisect's outcome, its
 * culprit with the run that confirmed it, and its steps. */
void ab_site_page_bisects(FILE *f, const json_t *p);

/* The regressions and rejections (p/SLUG/regressions.html: bisects'
 * culprits and rejected A/B runs, newest first) and their Atom feed
 * (p/SLUG/feed.xml, RFC 4287; at most 100 entries, its time the newest
 * entry's). */
void ab_site_page_regressions(FILE *f, const json_t *p);
void ab_site_feed(FILE *f, const json_t *p);

/* The search page (p/SLUG/search.html) and its index (search-index.js,
 * a script that sets window.ABTOOL_SEARCH to an array of entries {k (what:
 * design, run), n (name), h (hypotheses), t (notes and reasons), v (the
 * standing or verdict), u (the page, relative)}: each design, and each run
 * no design lists (comparisons, bisects' steps)). */
void ab_site_page_search(FILE *f, const json_t *p);
void ab_site_search_index(FILE *f, const json_t *p);

/* What site pages share (site_page.c). */

/* The page's head and the navigation: `root` is the relative path to
 * the site's root ("../../" from a project's page), `title` the page's
 * title, `p` the project (NULL on the site's front page). */
void ab_site_head(FILE *f, const char *root, const char *title, const json_t *p);

/* The end of a page: the store and generation time, then the scripts
 * `scripts` (a NULL-terminated list of paths relative to the page, or
 * NULL). */
void ab_site_foot(FILE *f, const json_t *p, const char *const *scripts);

/* A link to run `run` (a history object) from a project's page: its
 * report when it has one, else its number alone. */
void ab_site_run_link(FILE *f, const json_t *run);

/* A commit as a link through p.commit_url, or as code without one. */
void ab_site_commit(FILE *f, const json_t *p, const char *oid);

/* The head of a table of runs: the columns run, date and kind, then
 * `columns` (NULL-terminated, abtool's own text). */
void ab_site_table_head(FILE *f, const char *const *columns);

/* The start of a run's line in such a table: "<tr>", its link, date and
 * kind cells. */
void ab_site_run_cells(FILE *f, const json_t *run);

/* A cell of text (escaped). */
void ab_site_cell(FILE *f, const char *text);

/* A cell with run `run`'s verdict, or its status while it has none. */
void ab_site_verdict_cell(FILE *f, const json_t *run);

/* A verdict (or status) as a coloured label. */
void ab_site_verdict(FILE *f, const char *verdict);

/* The runs of design `design` (p.by_design) and the A/B runs of
 * experiment `name` (p.by_experiment), newest first (borrowed; NULL: none). */
const json_t *ab_site_design_runs(const json_t *p, const char *design);
const json_t *ab_site_experiment_runs(const json_t *p, const char *name);

/* The history object of run `id` in p.runs (borrowed), or NULL. */
const json_t *ab_site_run_by_id(const json_t *p, long long id);

/* The reasons of run `run` as the designs pages list them, the failing
 * part first: each failed rule's failing rows, then its other rows; then
 * the inconclusive rules; else the stored reasons. */
void ab_site_reasons(FILE *f, const json_t *run);

#endif
