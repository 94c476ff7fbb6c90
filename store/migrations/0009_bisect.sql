-- 0009_bisect.sql: `abtool bisect` (docs/history.md, "Bisecting a change").
-- A bisect is a search over the first-parent path from a good to a bad
-- commit; each of its comparisons is an ordinary stored run (runs), linked
-- to the bisect by bisect_steps. Only tables of its own: it applies on top
-- of any migration that adds columns or tables elsewhere.
CREATE TABLE bisects (
	id               INTEGER PRIMARY KEY,
	uuid             TEXT NOT NULL UNIQUE,
	created_at       TEXT NOT NULL,            -- ISO 8601 UTC
	finished_at      TEXT,
	status           TEXT NOT NULL,            -- running | finished
	repo             TEXT NOT NULL,
	experiment_path  TEXT NOT NULL,            -- as given; a resume reloads it
	experiment_hash  TEXT NOT NULL,            -- SHA-256 of its text: a resume refuses a change
	good_oid         TEXT NOT NULL,
	bad_oid          TEXT NOT NULL,
	options          TEXT NOT NULL,            -- JSON: path (the commits, oldest first), rows,
	                                           -- metric, threshold, pairs, seed, alpha, pid
	outcome          TEXT,                     -- culprit | spread | no-change | inconclusive | invalid
	result           TEXT                      -- JSON: the result document once finished
);

CREATE TABLE bisect_steps (
	bisect_id      INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,
	seq            INTEGER NOT NULL,           -- 0, 1, ... in the order the search asked
	role           TEXT NOT NULL,              -- endpoints | left | right | confirm
	parent_oid     TEXT NOT NULL,
	candidate_oid  TEXT NOT NULL,
	run_id         INTEGER REFERENCES runs(id),
	decision       TEXT,                       -- NULL until decided: reaches | below | undecided |
	                                           -- skip-candidate | skip-parent
	detail         TEXT,                       -- JSON: direction, row, ratio, bounds, level
	PRIMARY KEY (bisect_id, seq)
) WITHOUT ROWID;
CREATE INDEX bisect_steps_run ON bisect_steps(run_id);
