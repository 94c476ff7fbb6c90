/* site_order.c - where each run's candidate sits in its project's history,
 * for the rows charts of the site (see site.h): along the first-parent
 * history of HEAD when the repository the runs name is at hand (libgit2),
 * else by the time of the runs. */
#include "site.h"
#include "report_common.h"
#include "revs.h"
#include "error.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most this many first-parent commits are walked. */
#define ORDER_MAX_COMMITS 1000000

/* The first-parent history of HEAD in `repo`, oldest first: *index maps
 * each commit's hex id to its position (new object). The number of
 * commits, or -1 when HEAD cannot be walked (an empty repository). */
static long long first_parent(json_t **index, git_repository *repo)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	json_t *ids = json_array();
	long long n = -1, i;
	char hex[GIT_OID_HEXSZ + 1];

	*index = json_object();
	if (git_revwalk_new(&walk, repo) < 0 || git_revwalk_push_head(walk) < 0)
		goto out;
	git_revwalk_simplify_first_parent(walk);
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL);
	while (json_array_size(ids) < ORDER_MAX_COMMITS && git_revwalk_next(&oid, walk) == 0)
		json_array_append_new(ids, json_string(git_oid_tostr(hex, sizeof(hex), &oid)));
	n = (long long)json_array_size(ids);
	for (i = 0; i < n; i++)  /* the walk is newest first */
		json_object_set_new(*index, json_string_value(json_array_get(ids, (size_t)i)),
				    json_integer(n - 1 - i));
out:
	git_revwalk_free(walk);
	json_decref(ids);
	return n;
}

/* The position of commit `hex`: its index on the first-parent history,
 * or, for a commit off it (a branch), the index of where it forked plus
 * one half; -1 when the repository does not have it. */
static double position(git_repository *repo, const json_t *index, const char *hex)
{
	const json_t *at = json_object_get(index, hex);
	git_oid oid, head, base;
	char buf[GIT_OID_HEXSZ + 1];

	if (at)
		return (double)json_integer_value(at);
	if (git_oid_fromstr(&oid, hex) < 0 || git_reference_name_to_id(&head, repo, "HEAD") < 0 ||
	    git_merge_base(&base, repo, &oid, &head) < 0)
		return -1;
	at = json_object_get(index, git_oid_tostr(buf, sizeof(buf), &base));
	return at ? (double)json_integer_value(at) + 0.5 : -1;
}

/* The repository of the project's newest run that names one at hand. */
static git_repository *open_repository(const json_t *runs, const char **path)
{
	git_repository *repo = NULL;
	size_t i;
	json_t *r;

	json_array_foreach(runs, i, r) {
		const char *dir = ab_report_str(r, "repo");
		if (*dir && ab_revs_open_repository(&repo, dir) == 0) {
			*path = dir;
			return repo;
		}
	}
	ab_error_clear();
	return NULL;
}

/* Without the repository: the runs' order in time, oldest first (their
 * creation times, then ids: p.runs is newest first). */
static void by_time(json_t *p)
{
	json_t *runs = json_object_get(p, "runs");
	size_t i, n = json_array_size(runs);

	for (i = 0; i < n; i++)
		json_object_set_new(json_array_get(runs, i), "pos", json_real((double)(n - 1 - i)));
	json_object_set_new(p, "order", json_string("time"));
	json_object_set_new(p, "order_note", json_string("by the time of their runs (the repository "
							  "is not at hand)"));
}

void ab_site_order(json_t *p)
{
	json_t *runs = json_object_get(p, "runs"), *index = NULL, *r;
	const char *path = NULL;
	git_repository *repo = open_repository(runs, &path);
	long long n = repo ? first_parent(&index, repo) : -1;
	size_t i;
	char *note;

	if (n <= 0) {
		by_time(p);
		goto out;
	}
	json_array_foreach(runs, i, r) {
		double at = *ab_report_str(r, "candidate_oid")
				    ? position(repo, index, ab_report_str(r, "candidate_oid")) : -1;
		json_object_set_new(r, "pos", at >= 0 ? json_real(at) : json_null());
	}
	note = ab_xasprintf("along the first-parent history of HEAD of %s (%lld commits; a commit off "
			    "it sits just after the commit it branched from)", path, n);
	json_object_set_new(p, "order", json_string("first-parent"));
	json_object_set_new(p, "order_note", json_string(note));
	json_object_set_new(p, "commits", json_integer(n));
	free(note);
out:
	json_decref(index);
	git_repository_free(repo);
}
