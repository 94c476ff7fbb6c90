-- 0001_init.sql: designs, experiments, runs and everything measured.
-- Times are ISO 8601 UTC text; JSON columns hold jansson-built documents.

CREATE TABLE designs (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL UNIQUE,
	created_at  TEXT NOT NULL
);

-- One row per distinct experiment file text.
CREATE TABLE experiments (
	id          INTEGER PRIMARY KEY,
	hash        TEXT NOT NULL UNIQUE,      -- SHA-256 of text
	name        TEXT NOT NULL,
	design_id   INTEGER NOT NULL REFERENCES designs(id),
	hypothesis  TEXT,
	path        TEXT NOT NULL,             -- where it was first read
	text        TEXT NOT NULL,
	created_at  TEXT NOT NULL
);

CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,
	uuid           TEXT NOT NULL UNIQUE,   -- stable across stores (export/import)
	experiment_id  INTEGER NOT NULL REFERENCES experiments(id),
	design_id      INTEGER NOT NULL REFERENCES designs(id),
	kind           TEXT NOT NULL DEFAULT 'ab',  -- ab | calibrate | analyze
	created_at     TEXT NOT NULL,
	finished_at    TEXT,
	status         TEXT NOT NULL,          -- running | interrupted | finished
	verdict        TEXT,                   -- accepted | rejected | inconclusive | invalid
	reasons        TEXT,                   -- JSON array of strings
	repo           TEXT NOT NULL,
	parent_oid     TEXT NOT NULL,
	candidate_oid  TEXT NOT NULL,
	parent_tree    TEXT,
	candidate_tree TEXT,
	exact_parent   INTEGER NOT NULL,
	seed           INTEGER NOT NULL,
	pairs          INTEGER NOT NULL,
	warmup         INTEGER NOT NULL,
	host           TEXT,                   -- JSON environment fingerprint
	abtool_version TEXT NOT NULL,
	options        TEXT,                   -- JSON: command-line options that shaped the run
	report         TEXT                    -- JSON report once finished
);
CREATE INDEX runs_experiment ON runs(experiment_id);
CREATE INDEX runs_design ON runs(design_id);

CREATE TABLE builds (
	run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	side         TEXT NOT NULL CHECK (side IN ('parent', 'candidate')),
	commit_oid   TEXT NOT NULL,
	tree_oid     TEXT NOT NULL,
	cache_key    TEXT NOT NULL,
	dir          TEXT NOT NULL,
	command      TEXT,
	cached       INTEGER NOT NULL,         -- 1: reused from the build cache
	status       TEXT NOT NULL,            -- ok | failed | timed_out
	duration_ns  INTEGER,
	log          TEXT,                     -- the build log (tail when long)
	artifacts    TEXT,                     -- JSON {path: sha256}
	PRIMARY KEY (run_id, side)
);

CREATE TABLE rows (
	run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	idx     INTEGER NOT NULL,
	params  TEXT NOT NULL,                 -- JSON {name: value}
	PRIMARY KEY (run_id, idx)
);

-- The plan is written here before the first sample runs (status 0); each
-- sample is updated in its own transaction as it completes.
CREATE TABLE samples (
	run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq           INTEGER NOT NULL,
	row_idx       INTEGER NOT NULL,
	pair          INTEGER NOT NULL,        -- -1 for warmups
	warmup        INTEGER NOT NULL,        -- warmup index, -1 for pairs
	side          TEXT NOT NULL CHECK (side IN ('parent', 'candidate')),
	pair_order    TEXT NOT NULL CHECK (pair_order IN ('AB', 'BA')),
	status        INTEGER NOT NULL DEFAULT 0,  -- 0 planned, 1 done, 2 superseded
	started_at    INTEGER,                 -- unix seconds
	wall_ns       INTEGER,
	user_ns       INTEGER,
	sys_ns        INTEGER,
	maxrss_bytes  INTEGER,
	minflt        INTEGER,
	majflt        INTEGER,
	nvcsw         INTEGER,
	nivcsw        INTEGER,
	exit_code     INTEGER,
	signal        INTEGER,
	timed_out     INTEGER,
	flags         TEXT,
	checksum      TEXT,
	metrics       TEXT,                    -- JSON {name: value or null}
	error         TEXT,
	stdout        TEXT,                    -- kept for failed samples
	stderr        TEXT,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE rule_results (
	run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	idx       INTEGER NOT NULL,
	name      TEXT NOT NULL,
	outcome   TEXT NOT NULL,               -- pass | fail | inconclusive
	detail    TEXT,
	PRIMARY KEY (run_id, idx)
);

CREATE TABLE notes (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER REFERENCES runs(id) ON DELETE CASCADE,
	design_id   INTEGER REFERENCES designs(id),
	created_at  TEXT NOT NULL,
	text        TEXT NOT NULL
);
