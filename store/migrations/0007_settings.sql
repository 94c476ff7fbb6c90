-- 0007_settings.sql: settings of the store itself, shared by everyone who
-- uses it (a team store), set with `abtool config` (docs/cli.md). The
-- known keys and their values are checked by abtool, not here:
--   block_rejected  true | false: refuse to run a design whose standing
--                   is rejected unless --new-evidence is given, for every
--                   experiment, as `history: {block_rejected: true}` does
--                   for one.
CREATE TABLE settings (
	key         TEXT PRIMARY KEY,
	value       TEXT NOT NULL,
	updated_at  TEXT NOT NULL            -- ISO 8601 UTC
) WITHOUT ROWID;
