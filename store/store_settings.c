/* store_settings.c - the store's own settings (migration 0007; see
 * store.h). */
#include "store.h"
#include "store_core.h"
#include "util.h"

int ab_store_setting_get(struct ab_store *store, const char *key, char **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = NULL;
	if ((err = ab_db_prepare(store, &st, "SELECT value FROM settings WHERE key = ?1")) < 0)
		return err;
	ab_db_bind_text(st, 1, key);
	rc = ab_db_step(st);
	if (rc == AB_DB_ROW)
		*out = ab_xstrdup(ab_db_column_text(st, 0));
	else if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading a setting");
	ab_db_finalize(st);
	return err;
}

int ab_store_setting_set(struct ab_store *store, const char *key, const char *value)
{
	struct ab_db_stmt *st;
	char now[32];
	int err;

	ab_store_now_iso(now);
	if ((err = ab_db_prepare(store, &st, value ? "INSERT INTO settings(key, value, updated_at) VALUES (?1, ?2, ?3) "
					       "ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3"
					     : "DELETE FROM settings WHERE key = ?1")) < 0)
		return err;
	ab_db_bind_text(st, 1, key);
	if (value) {
		ab_db_bind_text(st, 2, value);
		ab_db_bind_text(st, 3, now);
	}
	err = ab_db_step_done(store, st, "storing a setting");
	ab_db_finalize(st);
	return err;
}

int ab_store_settings(struct ab_store *store, json_t **out)
{
	struct ab_db_stmt *st;
	int err, rc;

	*out = json_array();
	if ((err = ab_db_prepare(store, &st, "SELECT key, value, updated_at FROM settings ORDER BY key")) < 0)
		return err;
	while ((rc = ab_db_step(st)) == AB_DB_ROW)
		json_array_append_new(*out, json_pack("{s:s, s:s, s:s}", "key", ab_db_column_text(st, 0),
						      "value", ab_db_column_text(st, 1),
						      "updated_at", ab_db_column_text(st, 2)));
	if (rc != AB_DB_DONE)
		err = ab_db_error(store, "reading the settings");
	ab_db_finalize(st);
	return err;
}
