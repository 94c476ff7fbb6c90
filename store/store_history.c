/* store_history.c - the store's history (docs/history.md): runs by
 * filter and full-text search, designs and their standing, notes, rule
 * results and sample counts (see store.h). */
#include "store.h"
#include "store_core.h"
#include "error.h"
#include "util.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A subset run (--row) is partial: its verdict speaks for some rows only,
 * so it sets no design's standing. The options are compact JSON written by
 * abtool, where the key can only appear unescaped as a key (a quote inside
 * a string is escaped), so the match is exact and needs no JSON functions
 * of the engine. */
#define AB_STORE_NOT_PARTIAL "AND coalesce(r.options, '') NOT LIKE '%\"partial\":true%' "

#define AB_SEARCH_MAX_TERMS 16

/*
 * Split the user's search text into full-text queries, one per term. A
 * term is a "double-quoted phrase" or a run of non-space characters; the
 * engine's search_term quotes each (sqlite: an FTS5 string; PostgreSQL:
 * quoted lexemes of to_tsquery), so operators, column filters and stray
 * quotes in the text are searched for, never parsed. A word ending in '*'
 * (other than "*" alone) becomes a prefix query (docs/history.md,
 * "Searching history").
 */
static int search_terms(struct ab_store *store, char ***out, const char *text)
{
	const char *p = text;
	char **terms = NULL;

	*out = NULL;
	while (*p) {
		const char *start, *end;
		int prefix = 0;
		char *term;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			start = ++p;
			while (*p && *p != '"')
				p++;
			end = p;
			if (*p)
				p++;
		} else {
			start = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			end = p;
			if (end - start > 1 && end[-1] == '*') {
				prefix = 1;
				end--;
			}
		}
		if (end == start)
			continue;
		if (ab_strv_len(terms) == AB_SEARCH_MAX_TERMS) {
			ab_strv_free(terms);
			return ab_error_set(AB_EINVALID, "search text '%s' has more than %d words", text,
					    AB_SEARCH_MAX_TERMS);
		}
		term = store->engine->search_term(start, (size_t)(end - start), prefix);
		ab_strv_push(&terms, term);
	}
	if (!terms)
		return ab_error_set(AB_EINVALID, "search text '%s' has no words", text);
	*out = terms;
	return 0;
}

/* ratio_best and ratio_worst of a history row from its ratio_min and
 * ratio_max columns (which is best depends on the metric's direction). */
static void add_headline(json_t *o)
{
	json_t *lo = json_incref(json_object_get(o, "ratio_min")), *hi = json_incref(json_object_get(o, "ratio_max"));
	int higher = json_is_string(json_object_get(o, "better")) &&
		     !strcmp(json_string_value(json_object_get(o, "better")), "higher");

	json_object_del(o, "ratio_min");
	json_object_del(o, "ratio_max");
	if (!json_is_number(lo) || !json_is_number(hi)) {
		json_object_set_new(o, "ratio_best", json_null());
		json_object_set_new(o, "ratio_worst", json_null());
	} else {
		json_object_set(o, "ratio_best", higher ? hi : lo);
		json_object_set(o, "ratio_worst", higher ? lo : hi);
	}
	json_decref(lo);
	json_decref(hi);
}

enum ab_run_owner ab_store_run_owner(const json_t *options)
{
	json_int_t pid = json_integer_value(json_object_get(options, "pid"));
	const char *host = json_string_value(json_object_get(options, "hostname"));
	char here[HOST_NAME_MAX + 1], path[64], *cmdline = NULL;
	size_t len = 0;
	int alive;

	if (pid <= 0 || !host || gethostname(here, sizeof(here)) < 0)
		return AB_OWNER_UNKNOWN;
	here[sizeof(here) - 1] = '\0';
	if (strcmp(here, host))
		return AB_OWNER_UNKNOWN;
	if (pid == getpid())
		return AB_OWNER_DEAD;
	snprintf(path, sizeof(path), "/proc/%lld/cmdline", (long long)pid);
	alive = ab_read_file(&cmdline, &len, path) == 0 && memmem(cmdline, len, "abtool", 6);
	free(cmdline);
	ab_error_clear();
	return alive ? AB_OWNER_ALIVE : AB_OWNER_DEAD;
}

/* "alive" of a history row from its owner_options (the options of a
 * running run, NULL for the others). */
static void add_alive(json_t *o)
{
	const char *text = json_string_value(json_object_get(o, "owner_options"));
	json_t *opts = text ? json_loads(text, 0, NULL) : NULL;
	enum ab_run_owner owner = opts ? ab_store_run_owner(opts) : AB_OWNER_UNKNOWN;

	json_object_set_new(o, "alive", owner == AB_OWNER_UNKNOWN ? json_null() : json_boolean(owner));
	json_object_del(o, "owner_options");
	json_decref(opts);
}

/* "bisect_step" of a history row from its step_options (the options of a
 * bisect's step, which keep its mark through export, import and sync:
 * {bisect: the bisect's uuid, seq, role}), else null. */
static void add_step(json_t *o)
{
	const char *text = json_string_value(json_object_get(o, "step_options"));
	json_t *opts = text ? json_loads(text, 0, NULL) : NULL;
	const json_t *mark = json_object_get(opts, "bisect_step");

	json_object_set_new(o, "bisect_step", json_is_object(mark)
			    ? json_pack("{s:O, s:O, s:O}", "bisect", json_object_get(mark, "bisect"),
					"seq", json_object_get(mark, "seq"), "role", json_object_get(mark, "role"))
			    : json_null());
	json_object_del(o, "step_options");
	json_decref(opts);
}

/* Append `clause` (a format with one %d, the parameter's number) to the
 * query, with `value` as its next parameter. */
static void add_filter(char **sql, const char **params, int *n, const char *clause,
		       const char *value)
{
	char buf[160];

	params[(*n)++] = value;
	snprintf(buf, sizeof(buf), clause, *n);
	ab_sql_append(sql, buf);
}

/* One row of the history as ab_store_history gives it (new): the columns
 * of the query, with the headline, "alive" and "bisect_step" worked out and
 * the JSON columns parsed (an array where the text was none). */
static json_t *history_row(struct ab_db_stmt *st)
{
	json_t *o = ab_db_row_object(st);

	add_headline(o);
	add_alive(o);
	add_step(o);
	ab_json_parse_member(o, "reasons");
	if (!json_is_array(json_object_get(o, "reasons")))
		json_object_set_new(o, "reasons", json_array());
	ab_json_parse_member(o, "dependencies");
	if (!json_is_array(json_object_get(o, "dependencies")))
		json_object_set_new(o, "dependencies", json_array());
	ab_json_parse_member(o, "sides");
	ab_json_parse_member(o, "rules");
	if (!json_is_array(json_object_get(o, "rules")))
		json_object_set_new(o, "rules", json_array());
	json_object_set_new(o, "identical_artifacts",
			    json_boolean(json_integer_value(json_object_get(o, "identical_artifacts"))));
	return o;
}

int ab_store_history(struct ab_store *store, const struct ab_history_filter *f, json_t **out)
{
	const char *params[9 + AB_SEARCH_MAX_TERMS];
	char **terms = NULL, *sql = NULL, *rev_end = NULL, buf[160];
	struct ab_db_stmt *st = NULL;
	int n = 0, i, err, rc;
	json_t *list;

	*out = NULL;
	if (f->grep && (err = search_terms(store, &terms, f->grep)) < 0)
		return err;
	ab_sql_append(&sql,
		   "SELECT r.id, r.uuid, r.kind, r.created_at, r.finished_at, r.status, r.verdict, r.repo, "
		   "r.parent_oid, r.candidate_oid, r.exact_parent, r.seed, r.pairs, r.warmup, "
		   "r.abtool_version, d.project, d.name AS design, e.name AS experiment, e.hypothesis, "
		   "r.reasons, "
		   "(SELECT count(*) FROM notes n WHERE n.run_id = r.id OR (n.run_id IS NULL AND "
		   "n.design_id = r.design_id)) AS notes, r.metric, r.better, r.ratio_min, r.ratio_max, "
		   );
	ab_sql_append(&sql, ab_db_sql(store, AB_DB_SQL_RUN_DEPENDENCIES));
	ab_sql_append(&sql, " AS dependencies, " AB_SQL_IDENTICAL_ARTIFACTS("r") " AS identical_artifacts, ");
	ab_sql_append(&sql, ab_db_sql(store, AB_DB_SQL_RUN_RULE_NAMES));
	ab_sql_append(&sql, " AS rules, r.evidence_run_id AS evidence_run, "
		   "CASE WHEN r.status = 'running' THEN r.options END AS owner_options, r.sides, "
		   "CASE WHEN r.kind = 'bisect' THEN r.options END AS step_options "
		   "FROM runs r JOIN designs d ON d.id = r.design_id "
		   "JOIN experiments e ON e.id = r.experiment_id WHERE r.id IN (");
	/* The runs that match, newest first, limited, picked by id before the
	 * columns above are worked out for them: sqlite would compute the
	 * subqueries for every match (thousands for a common word) before
	 * it sorts and keeps the newest 50. */
	ab_sql_append(&sql, "SELECT r.id FROM runs r JOIN designs d ON d.id = r.design_id "
		   "JOIN experiments e ON e.id = r.experiment_id WHERE 1 = 1");
	/* one project; by default the store's, with the comparisons */
	if (!f->all_projects)
		add_filter(&sql, params, &n, f->project ? " AND d.project = ?%d"
			   : " AND (d.project = ?%d OR d.project = '')",
			   f->project ? f->project : store->project);
	if (f->verdict)
		add_filter(&sql, params, &n, " AND r.verdict = ?%d", f->verdict);
	if (f->design)
		add_filter(&sql, params, &n, " AND d.name = ?%d", f->design);
	if (f->experiment)
		add_filter(&sql, params, &n, " AND e.name = ?%d", f->experiment);
	if (f->kind)
		add_filter(&sql, params, &n, " AND r.kind = ?%d", f->kind);
	if (f->rev) {
		/* Hex digits sort below 'g': every oid with the prefix lies in
		 * [prefix, prefix + "g"), an index range. */
		rev_end = ab_xasprintf("%sg", f->rev);
		params[n++] = f->rev;
		params[n++] = rev_end;
		snprintf(buf, sizeof(buf), " AND r.id IN (SELECT run_id FROM run_revisions "
			 "WHERE oid >= ?%d AND oid < ?%d)", n - 1, n);
		ab_sql_append(&sql, buf);
	}
	if (f->since)
		add_filter(&sql, params, &n, " AND r.created_at >= ?%d", f->since);
	if (f->until)
		add_filter(&sql, params, &n, " AND r.created_at < ?%d", f->until);
	for (i = 0; terms && terms[i]; i++) {
		char *clause;
		params[n++] = terms[i];
		clause = ab_xasprintf(ab_db_sql(store, AB_DB_SQL_SEARCH_RUNS), n);
		ab_sql_append(&sql, " AND ");
		ab_sql_append(&sql, clause);
		free(clause);
	}
	if (f->limit > 0)
		snprintf(buf, sizeof(buf), " ORDER BY r.created_at DESC, r.id DESC LIMIT %lld)",
			 (long long)f->limit);
	else  /* no limit: sqlite's LIMIT -1 is an error to PostgreSQL */
		snprintf(buf, sizeof(buf), ")");
	ab_sql_append(&sql, buf);
	ab_sql_append(&sql, " ORDER BY r.created_at DESC, r.id DESC");

	if ((err = ab_db_prepare(store, &st, sql)) < 0)
		goto out;
	for (i = 0; i < n; i++)
		ab_db_bind_text(st, i + 1, params[i]);
	list = json_array();
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		json_array_append_new(list, history_row(st));
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "searching the history");
		json_decref(list);
	} else {
		*out = list;
	}
out:
	ab_db_finalize(st);
	ab_strv_free(terms);
	free(rev_end);
	free(sql);
	return err;
}

int ab_store_designs(struct ab_store *store, unsigned flags, json_t **out)
{
	struct ab_db_stmt *st;
	json_t *list;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st,
			   "WITH x AS (SELECT d.id, d.project, d.name, d.created_at, "
			   "(SELECT count(*) FROM runs r WHERE r.design_id = d.id AND r.kind NOT IN ('compare', 'bisect')) "
			   "AS runs, "
			   /* kind || '': sqlite's planner (no statistics) would take the index
			    * on (kind, created_at) and read every run of the store for each
			    * design; the design's own runs are a few */
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id AND r.kind || '' = 'ab' "
			   "AND r.verdict IN ('accepted', 'rejected') " AB_STORE_NOT_PARTIAL 
			   "ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS decided, "
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id AND r.kind NOT IN ('compare', 'bisect') "
			   "ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS newest, "
			   "(SELECT n.id FROM notes n WHERE n.design_id = d.id OR n.run_id IN "
			   "(SELECT r.id FROM runs r WHERE r.design_id = d.id) "
			   "ORDER BY n.created_at DESC, n.id DESC LIMIT 1) AS last_note "
			   /* not a comparison's, nor a bisect's (its steps are comparisons of
			    * a path's commits, not runs of the design): a design with a run of
			    * another kind, or none (each design's runs through runs_design, not
			    * every run grouped) */
			   "FROM designs d WHERE (?2 = 1 OR d.project = ?3) AND (EXISTS (SELECT 1 FROM runs r "
			   "WHERE r.design_id = d.id AND r.kind NOT IN ('compare', 'bisect')) OR NOT EXISTS "
			   "(SELECT 1 FROM runs r WHERE r.design_id = d.id))) "
			   "SELECT x.id, x.project, x.name AS design, x.created_at, x.runs, "
			   "l.id AS latest_run, l.created_at AS latest_created_at, l.verdict AS latest_verdict, "
			   "l.reasons AS latest_reasons, " AB_SQL_IDENTICAL_ARTIFACTS("l") " AS latest_identical_artifacts, "
			   "l.evidence_run_id AS latest_evidence_run, "
			   "w.id AS newest_run, w.created_at AS newest_created_at, "
			   "w.status AS newest_status, w.kind AS newest_kind, w.verdict AS newest_verdict, "
			   "w.evidence_run_id AS newest_evidence_run, "
			   "(SELECT count(*) FROM notes n WHERE n.design_id = x.id OR n.run_id IN "
			   "(SELECT r.id FROM runs r WHERE r.design_id = x.id)) AS notes, "
			   "nt.text AS last_note, nt.created_at AS last_note_created_at "
			   "FROM x LEFT JOIN runs l ON l.id = x.decided LEFT JOIN runs w ON w.id = x.newest "
			   "LEFT JOIN notes nt ON nt.id = x.last_note "
			   "WHERE ?1 = 0 OR l.verdict = 'rejected' "
			   "ORDER BY coalesce(w.created_at, x.created_at) DESC, x.id DESC")) < 0)
		return err;
	ab_db_bind_int64(st, 1, (flags & AB_STORE_DESIGNS_REJECTED) != 0);
	ab_db_bind_int64(st, 2, (flags & AB_STORE_DESIGNS_ALL_PROJECTS) != 0);
	ab_db_bind_text(st, 3, store->project);
	list = json_array();
	while ((rc = ab_db_step(st)) == AB_DB_ROW) {
		json_t *o = ab_db_row_object(st);
		ab_json_parse_member(o, "latest_reasons");
		json_object_set_new(o, "latest_identical_artifacts",
				    json_boolean(json_integer_value(json_object_get(o, "latest_identical_artifacts"))));
		json_array_append_new(list, o);
	}
	if (rc != AB_DB_DONE) {
		err = ab_db_error(store, "listing designs");
		json_decref(list);
	} else {
		*out = list;
	}
	ab_db_finalize(st);
	return err;
}

int ab_store_project_known(struct ab_store *store)
{
	struct ab_db_stmt *st;
	int err, rc;

	if ((err = ab_db_prepare(store, &st, "SELECT 1 FROM designs WHERE project = ?1 LIMIT 1")) < 0)
		return err;
	ab_db_bind_text(st, 1, store->project);
	rc = ab_db_step(st);
	ab_db_finalize(st);
	if (rc != AB_DB_ROW && rc != AB_DB_DONE)
		return ab_db_error(store, "looking for the project's designs");
	return rc == AB_DB_ROW;
}

/* The error for an unknown design, with the closest known name (of the
 * store's project first: ordered so that its names win a tie). */
static int design_not_found(struct ab_store *store, const char *name)
{
	struct ab_db_stmt *st;
	char *best = NULL;
	size_t best_d = (size_t)-1;

	if (ab_db_prepare(store, &st, "SELECT name FROM designs ORDER BY project != ?1, id") == 0) {
		ab_db_bind_text(st, 1, store->project);
		while (ab_db_step(st) == AB_DB_ROW) {
			const char *cand = ab_db_column_text(st, 0);
			size_t d = ab_edit_distance(name, cand);
			if (d < best_d) {
				best_d = d;
				free(best);
				best = ab_xstrdup(cand);
			}
		}
		ab_db_finalize(st);
	}
	if (best && best_d <= 3 && best_d < strlen(name))
		ab_error_set(AB_ENOTFOUND, "no design '%s' in %s%s%s of the store '%s'; did you mean "
			     "'%s'?", name, *store->project ? "the project '" : "the comparisons",
			     store->project, *store->project ? "'" : "", store->path, best);
	else
		ab_error_set(AB_ENOTFOUND, "no design '%s' in %s%s%s of the store '%s'; list designs "
			     "with 'abtool designs' (--all-projects: of every project)", name,
			     *store->project ? "the project '" : "the comparisons", store->project,
			     *store->project ? "'" : "", store->path);
	free(best);
	return AB_ENOTFOUND;
}

int ab_store_note_add(struct ab_store *store, int64_t run_id, const char *design, const char *text,
		      int64_t *out)
{
	struct ab_db_stmt *st;
	const char *p;
	int64_t did = 0;
	char now[32];
	int err, rc;

	for (p = text; p && *p && isspace((unsigned char)*p); p++)
		;
	if (!p || !*p)
		return ab_error_set(AB_EINVALID, "a note needs some text");
	if (run_id > 0)
		err = ab_db_prepare(store, &st, "SELECT design_id FROM runs WHERE id = ?1");
	else
		err = ab_db_prepare(store, &st, "SELECT id FROM designs WHERE name = ?2 AND project = ?3");
	if (err < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_text(st, 2, design);
	if (run_id <= 0)
		ab_db_bind_text(st, 3, store->project);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW)
		did = ab_db_column_int64(st, 0);
	ab_db_finalize(st);
	if (rc == AB_DB_DONE && run_id > 0)
		return ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with "
				    "'abtool history'", store->path, (long long)run_id);
	if (rc == AB_DB_DONE)
		return design_not_found(store, design ? design : "");
	if (rc != AB_DB_ROW)
		return ab_db_error(store, "finding what the note is about");

	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st, "INSERT INTO notes(run_id, design_id, created_at, text) "
				       "VALUES (?1, ?2, ?3, ?4)")) < 0)
		return err;
	if (run_id > 0)
		ab_db_bind_int64(st, 1, run_id);
	else
		ab_db_bind_null(st, 1);
	ab_db_bind_int64(st, 2, did);
	ab_db_bind_text(st, 3, now);
	ab_db_bind_text(st, 4, text);
	err = ab_db_step_done(store, st, "adding the note");
	if (!err && out)
		*out = store->engine->last_insert_id(store->db);
	ab_db_finalize(st);
	return err;
}

int ab_store_notes(struct ab_store *store, int64_t run_id, json_t **out)
{
	return ab_db_query_run_notes(store, "n.id, ", run_id, "reading notes", out);
}

int ab_store_sample_counts(struct ab_store *store, int64_t run_id, json_t **out)
{
	json_t *rows;
	int err = ab_db_query_run_rows(store,
				 "SELECT count(*) FILTER (WHERE status NOT IN (2, 3)) AS planned, "
				 "count(*) FILTER (WHERE status = 1) AS done, "
				 "count(*) FILTER (WHERE status = 1 AND error IS NOT NULL) AS failed, "
				 "count(*) FILTER (WHERE status = 2) AS superseded, "
				 "count(*) FILTER (WHERE status = 3) AS stopped, "
				 "count(*) FILTER (WHERE status NOT IN (2, 3) AND warmup >= 0) AS warmup "
				 "FROM samples WHERE run_id = ?1", run_id, "counting samples", &rows);

	*out = err ? NULL : json_incref(json_array_get(rows, 0));
	json_decref(rows);
	return err;
}
