-- 0010_profiles.sql: profiles of a run's rows (docs/profiles.md), taken
-- after its measured pairs under `perf record -g` and kept apart from its
-- samples: they decide nothing. One line per row and side; `folded` is the
-- zlib-compressed folded text ("root;...;leaf COUNT" lines), symbols
-- resolved when it was recorded.
CREATE TABLE profiles (
	run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	row           INTEGER NOT NULL,        -- the row's index in the experiment's matrix
	label         TEXT NOT NULL,           -- the row's label ("size=8 lanes=4")
	side          TEXT NOT NULL CHECK (side IN ('parent', 'candidate')),
	event         TEXT NOT NULL,           -- perf's event: cpu-clock, cycles, ...
	status        TEXT NOT NULL CHECK (status IN ('ok', 'unavailable')),
	reason        TEXT,                    -- why there is no profile (unavailable), or what the
	                                       -- size cap cut (ok), else NULL
	runs          INTEGER NOT NULL,        -- the profiled processes of this side and row
	stack_samples INTEGER NOT NULL,        -- perf's samples kept in `folded`
	dropped       INTEGER NOT NULL,        -- perf's samples cut by the size cap (0: none)
	folded_bytes  INTEGER NOT NULL,        -- the size of the folded text
	folded        BLOB,                    -- zlib (compress2) of the folded text, or NULL
	created_at    TEXT NOT NULL,           -- ISO 8601 UTC
	PRIMARY KEY (run_id, row, side)
);

-- `run --new-evidence run:N`: the run whose profile is the new evidence
-- for measuring a rejected design again.
ALTER TABLE runs ADD COLUMN evidence_run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL;
