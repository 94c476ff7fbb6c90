/* store_profile.c - profiles of a run's rows, stored apart from its
 * samples, the folded text compressed with zlib (see store.h;
 * docs/profiles.md), and the link of a run to the run that is its new
 * evidence. */
#include "store.h"
#include "store_core.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const char *const side_names[2] = {"parent", "candidate"};

/* 1 when run `id` exists, 0 when not, or an error. */
static int run_exists(struct ab_store *store, int64_t id)
{
	struct ab_db_stmt *st;
	int err, rc;

	if ((err = ab_db_prepare(store, &st, "SELECT 1 FROM runs WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, id);
	rc = ab_db_step(st);
	ab_db_finalize(st);
	if (rc == AB_DB_ROW)
		return 1;
	if (rc == AB_DB_DONE)
		return 0;
	return ab_db_error(store, "looking up a run");
}

static int no_run(struct ab_store *store, int64_t id)
{
	return ab_error_set(AB_ENOTFOUND, "store '%s' has no run %lld; list runs with 'abtool history'",
			    store->path, (long long)id);
}

int ab_store_profile_put(struct ab_store *store, int64_t run_id, const struct ab_store_profile *p)
{
	struct ab_db_stmt *st;
	unsigned char *z = NULL;
	uLongf zlen = 0;
	char now[32];
	int err;

	if ((err = run_exists(store, run_id)) <= 0)
		return err < 0 ? err : no_run(store, run_id);
	if (p->folded) {
		zlen = compressBound((uLong)p->folded_len);
		z = ab_xmalloc(zlen ? zlen : 1);
		if (compress2(z, &zlen, (const Bytef *)p->folded, (uLong)p->folded_len, 6) != Z_OK) {
			free(z);
			return ab_error_set(AB_ERROR, "compressing a profile failed");
		}
	}
	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st,
				 "INSERT INTO profiles(run_id, row, side, event, status, reason, runs, "
				 "stack_samples, dropped, folded_bytes, folded, created_at, label) VALUES (?1, ?2, "
				 "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT(run_id, row, side) "
				 "DO UPDATE SET event = excluded.event, status = excluded.status, "
				 "reason = excluded.reason, runs = excluded.runs, "
				 "stack_samples = excluded.stack_samples, dropped = excluded.dropped, "
				 "folded_bytes = excluded.folded_bytes, folded = excluded.folded, "
				 "created_at = excluded.created_at, label = excluded.label")) < 0) {
		free(z);
		return err;
	}
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_int64(st, 2, p->row);
	ab_db_bind_text(st, 3, side_names[p->side ? 1 : 0]);
	ab_db_bind_text(st, 4, p->event ? p->event : "");
	ab_db_bind_text(st, 5, p->ok ? "ok" : "unavailable");
	ab_db_bind_text(st, 6, p->reason);
	ab_db_bind_int64(st, 7, p->runs);
	ab_db_bind_int64(st, 8, p->stack_samples);
	ab_db_bind_int64(st, 9, p->dropped);
	ab_db_bind_int64(st, 10, (int64_t)(p->folded ? p->folded_len : 0));
	if (z)
		ab_db_bind_blob(st, 11, z, (size_t)zlen);
	else
		ab_db_bind_null(st, 11);
	ab_db_bind_text(st, 12, now);
	ab_db_bind_text(st, 13, p->label ? p->label : "");
	err = ab_db_step_done(store, st, "storing a profile");
	ab_db_finalize(st);
	free(z);
	return err;
}

/* Inflate `zlen` bytes into a new NUL-terminated string of `len` bytes. */
static int inflate_text(char **out, const void *z, size_t zlen, size_t len)
{
	uLongf n = (uLongf)len;
	char *s = ab_xmalloc(len + 1);

	if (uncompress((Bytef *)s, &n, (const Bytef *)z, (uLong)zlen) != Z_OK || n != (uLongf)len) {
		free(s);
		return ab_error_set(AB_EIO, "a stored profile does not decompress: the store is damaged");
	}
	s[len] = '\0';
	*out = s;
	return 0;
}

int ab_store_profiles_get(struct ab_store *store, int64_t run_id, struct ab_store_profile **out,
			  size_t *n)
{
	struct ab_db_stmt *st;
	struct ab_store_profile *v = NULL;
	size_t k = 0;
	int err = 0, rc;

	*out = NULL;
	*n = 0;
	if ((err = ab_db_prepare(store, &st,
				 "SELECT row, side, event, status, reason, runs, stack_samples, dropped, "
				 "folded_bytes, folded, created_at, label FROM profiles WHERE run_id = ?1 "
				 "ORDER BY row, side = 'candidate'")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	while (err == 0 && (rc = ab_db_step(st)) == AB_DB_ROW) {
		struct ab_store_profile *p;
		const void *z;
		size_t zlen = 0;
		const char *t;

		v = ab_xrealloc(v, (k + 1) * sizeof(*v));
		p = &v[k++];
		memset(p, 0, sizeof(*p));
		p->row = ab_db_column_int64(st, 0);
		p->side = !strcmp(ab_db_column_text(st, 1), "candidate");
		p->event = ab_xstrdup(ab_db_column_text(st, 2));
		p->ok = !strcmp(ab_db_column_text(st, 3), "ok");
		p->reason = (t = ab_db_column_text(st, 4)) ? ab_xstrdup(t) : NULL;
		p->runs = ab_db_column_int64(st, 5);
		p->stack_samples = ab_db_column_int64(st, 6);
		p->dropped = ab_db_column_int64(st, 7);
		p->folded_len = (size_t)ab_db_column_int64(st, 8);
		snprintf(p->created_at, sizeof(p->created_at), "%s", ab_db_column_text(st, 10));
		p->label = ab_xstrdup(ab_db_column_text(st, 11));
		if ((z = ab_db_column_blob(st, 9, &zlen)))
			err = inflate_text(&p->folded, z, zlen, p->folded_len);
	}
	if (err == 0 && rc != AB_DB_DONE)
		err = ab_db_error(store, "reading profiles");
	ab_db_finalize(st);
	if (err < 0) {
		ab_store_profiles_free(v, k);
		return err;
	}
	*out = v;
	*n = k;
	return 0;
}

void ab_store_profiles_free(struct ab_store_profile *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].event);
		free(v[i].label);
		free(v[i].reason);
		free(v[i].folded);
	}
	free(v);
}

int ab_store_run_set_evidence(struct ab_store *store, int64_t run_id, int64_t evidence_run_id)
{
	struct ab_db_stmt *st;
	int err;

	if ((err = run_exists(store, evidence_run_id)) <= 0)
		return err < 0 ? err : no_run(store, evidence_run_id);
	if ((err = ab_db_prepare(store, &st, "UPDATE runs SET evidence_run_id = ?2 WHERE id = ?1")) < 0)
		return err;
	ab_db_bind_int64(st, 1, run_id);
	ab_db_bind_int64(st, 2, evidence_run_id);
	err = ab_db_step_done(store, st, "linking the new evidence");
	ab_db_finalize(st);
	return err;
}
