/* site_runs.c - a run's folder of the site (see site.h): its report as
 * `abtool report RUN --format html` renders it, its samples as `--format
 * tsv` does, and summary.json, the little of the report the project pages
 * read (rows, ratios, intervals, per-pair log ratios, the failed rules).
 * A folder whose stamp names the run's current state is kept as it is, so
 * that a rebuild after one new run renders one report. */
#include "site.h"
#include "report.h"
#include "report_common.h"
#include "report_format.h"
#include "error.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ab_site_write(const char *path, const char *data, size_t len, struct ab_site_stats *st)
{
	char *tmp = ab_xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int err = 0;

	/* no fsync: a site is rewritten from the store whenever it is lost */
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", tmp, strerror(errno));
		if (f)
			fclose(f);
		unlink(tmp);
	} else if (rename(tmp, path) < 0) {
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	} else {
		st->pages++;
		st->bytes += len;
	}
	free(tmp);
	return err;
}

/* The state of a run that its folder was rendered from. New string. */
static char *stamp_of(const json_t *run)
{
	return ab_xasprintf("abtool %s\nuuid %s\nstatus %s\nfinished_at %s\n", ABTOOL_VERSION,
			    ab_report_str(run, "uuid"), ab_report_str(run, "status"),
			    ab_report_str(run, "finished_at"));
}

/* The details of rule `rule`'s rows, those whose outcome is `first`
 * first (the part that decided), joined by "; "; the rule's own detail
 * when it has no rows. New string. */
static char *detail_first(const json_t *rule, const char *first)
{
	const json_t *rows = json_object_get(rule, "rows"), *r;
	char *out = ab_xstrdup(""), *next;
	size_t i;
	int pass;

	if (!json_array_size(rows)) {
		free(out);
		return ab_xstrdup(ab_report_str(rule, "detail"));
	}
	for (pass = 0; pass < 2; pass++)
		json_array_foreach(rows, i, r) {
			if ((pass == 0) != !strcmp(ab_report_str(r, "outcome"), first))
				continue;
			next = ab_xasprintf("%s%s%s", out, *out ? "; " : "", ab_report_str(r, "detail"));
			free(out);
			out = next;
		}
	return out;
}

/* The rows of the summary: label, metric, ratio, interval, log ratios. */
static json_t *summary_rows(const json_t *doc)
{
	json_t *rows = json_array(), *r, *pp;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "rows"), i, r) {
		json_t *d = json_array(), *ci = json_object_get(r, "ci");
		json_t *row = json_pack("{s:s, s:s, s:s, s:s}", "label", ab_report_str(r, "label"), "metric",
					ab_report_str(r, "metric"), "unit", ab_report_str(r, "unit"), "better",
					ab_report_str(r, "better"));

		json_array_foreach(json_object_get(r, "per_pair"), j, pp)
			if (json_is_number(json_object_get(pp, "log_ratio")))
				json_array_append(d, json_object_get(pp, "log_ratio"));
		json_object_set(row, "ratio", json_is_number(json_object_get(r, "ratio"))
					      ? json_object_get(r, "ratio") : json_null());
		json_object_set(row, "ci", json_is_number(json_array_get(ci, 0)) &&
					   json_is_number(json_array_get(ci, 1)) ? ci : json_null());
		json_object_set_new(row, "d", d);
		json_array_append_new(rows, row);
	}
	return rows;
}

json_t *ab_site_summary(const json_t *doc)
{
	json_t *s = json_pack("{s:b, s:s, s:o, s:[], s:[]}", "has_report", doc != NULL, "subject",
			      ab_report_str(json_object_get(doc, "candidate"), "subject"), "rows",
			      doc ? summary_rows(doc) : json_array(), "failed", "inconclusive");
	size_t i;
	json_t *rule;

	json_array_foreach(json_object_get(doc, "rules"), i, rule) {
		const char *o = ab_report_str(rule, "outcome");
		const char *key = !strcmp(o, "fail") ? "failed" : !strcmp(o, "inconclusive") ? "inconclusive" : NULL;
		char *detail;

		if (!key)
			continue;
		detail = detail_first(rule, o);
		json_array_append_new(json_object_get(s, key), json_pack("{s:s, s:s}", "rule",
									 ab_report_str(rule, "name"),
									 "detail", detail));
		free(detail);
	}
	return s;
}

/* The kept summary of the run in `dir` when its stamp is `stamp` and its
 * files are there, else NULL. */
static json_t *kept_summary(const char *dir, const char *stamp)
{
	char *path = ab_path_join(dir, "stamp"), *text = NULL;
	json_t *s = NULL;
	size_t len;
	struct stat sb;

	if (ab_read_file(&text, &len, path) == 0 && !strcmp(text, stamp)) {
		free(path);
		path = ab_path_join(dir, "summary.json");
		s = json_load_file(path, 0, NULL);
		free(path);
		path = ab_path_join(dir, "report.html");
		if (s && json_is_true(json_object_get(s, "has_report")) && stat(path, &sb) < 0) {
			json_decref(s);
			s = NULL;
		}
	}
	ab_error_clear();
	free(text);
	free(path);
	return s;
}

/* Render format `id` of the registry over `in` into DIR/NAME. */
static int render_file(const char *dir, const char *name, enum ab_report_format_id id,
		       const struct ab_report_render *in, struct ab_site_stats *st)
{
	char *text = NULL, *path = ab_path_join(dir, name);
	size_t len = 0;
	int err;

	if ((err = ab_report_format_render(&text, &len, &ab_report_formats[id], in)) == 0)
		err = ab_site_write(path, text, len, st);
	free(text);
	free(path);
	return err;
}

/* The report and samples of run `id` from its document `doc`, as `abtool
 * report` renders them (cmd_report.c): the HTML page with the run's
 * profiles, the samples' TSV with the metric names of the document. */
static int render_run(struct ab_store *store, const struct ab_site_options *opt, int64_t id,
		      const json_t *doc, const char *dir, struct ab_site_stats *st)
{
	struct ab_report_render in = {doc, NULL, 0, NULL, 0, 0, NULL};
	struct ab_sample *samples = NULL;
	const char **names;
	size_t nnames = 0, nsamples = 0;
	json_t *profiles = opt->profiles ? opt->profiles(store, id) : NULL;
	int err;

	/* the HTML page draws each side's distribution from the samples */
	names = ab_report_metric_names(doc, &nnames);
	if ((err = ab_store_samples_load(store, id, names, nnames, &samples, &nsamples)) < 0)
		goto out;
	in.samples = samples;
	in.nsamples = nsamples;
	in.metric_names = names;
	in.nmetrics = nnames;
	in.profiles = profiles;
	if ((err = render_file(dir, "report.html", AB_REPORT_FORMAT_HTML, &in, st)) == 0) {
		in.profiles = NULL;
		err = render_file(dir, "samples.tsv", AB_REPORT_FORMAT_TSV, &in, st);
	}
out:
	ab_samples_free(samples, nsamples);
	free(names);
	json_decref(profiles);
	return err;
}

/* Render run `run`'s folder `dir` and write its summary and stamp. */
static int render_folder(struct ab_store *store, const struct ab_site_options *opt, const json_t *run,
			 const char *dir, const char *stamp, json_t **summary, struct ab_site_stats *st)
{
	int64_t id = ab_report_int(run, "id");
	json_t *full = NULL, *doc = NULL;
	const char *text;
	char *path, *dumped;
	int err;

	if ((err = ab_store_run_get(store, id, &full)) < 0)
		return err;
	text = json_string_value(json_object_get(full, "report"));
	if (text && !(doc = json_loads(text, 0, NULL))) {
		json_decref(full);
		return ab_error_set(AB_EIO, "run %lld: the stored report is not valid JSON", (long long)id);
	}
	*summary = ab_site_summary(doc);
	if ((err = ab_mkdir_p(dir)) < 0 || (doc && (err = render_run(store, opt, id, doc, dir, st)) < 0))
		goto out;
	path = ab_path_join(dir, "summary.json");
	dumped = json_dumps(*summary, JSON_COMPACT);
	err = ab_site_write(path, dumped, strlen(dumped), st);
	free(dumped);
	free(path);
	path = ab_path_join(dir, "stamp");
	if (!err)
		err = ab_site_write(path, stamp, strlen(stamp), st);
	free(path);
out:
	json_decref(doc);
	json_decref(full);
	return err;
}

int ab_site_run_folder(struct ab_store *store, const struct ab_site_options *opt, const json_t *run,
		       json_t **summary, struct ab_site_stats *st)
{
	char *name = ab_xasprintf("runs/%lld", ab_report_int(run, "id"));
	char *dir = ab_path_join(opt->outdir, name), *stamp = stamp_of(run);
	int err = 0;

	*summary = NULL;
	if (!opt->rebuild && (*summary = kept_summary(dir, stamp)) != NULL) {
		st->kept++;
	} else if ((err = render_folder(store, opt, run, dir, stamp, summary, st)) == 0) {
		st->rendered++;
	} else {
		json_decref(*summary);
		*summary = NULL;
	}
	free(stamp);
	free(dir);
	free(name);
	return err;
}
