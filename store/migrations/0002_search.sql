-- 0002_search.sql: full-text search over the store's prose, and the
-- indexes the history queries need (docs/history.md).
--
-- The searchable documents, one FTS row each:
--   experiment  its name and hypothesis      rowid = experiments.id * 4 + 0
--   design      its name                     rowid = designs.id * 4 + 1
--   run         its verdict reasons          rowid = runs.id * 4 + 2
--   note        its text                     rowid = notes.id * 4 + 3
-- The rowid encodes the source, so a trigger replaces or removes a
-- document with one rowid lookup.
--
-- `search` is an ordinary FTS5 table that keeps its own copy of the text,
-- not a contentless or external-content one. The text is small (names,
-- hypotheses, notes, reasons), so the copy costs little; in exchange a
-- document is deleted by rowid alone (contentless and external-content
-- tables need the exact old values for FTS5's 'delete', and silently
-- corrupt the index when a row changed without them), snippet() and
-- highlight() work, and the index can be checked or rebuilt from
-- `search_source` at any time:
--   DELETE FROM search; INSERT INTO search(rowid, kind, text)
--     SELECT docid, kind, text FROM search_source;
-- Triggers keep it in sync with the tables, so rows written by any path
-- (a run, `abtool note`, `abtool import`) are indexed in the same
-- transaction. Porter stemming: "regression" finds "regressions".

CREATE VIRTUAL TABLE search USING fts5(
	kind UNINDEXED,       -- experiment | design | run | note
	text,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

-- What each document says: the one definition used by the triggers, by
-- the population below and by a rebuild. Run reasons are a JSON array of
-- strings, indexed one per line; text that is not such an array is
-- indexed as it is rather than failing the write.
CREATE VIEW search_source(docid, kind, ref, text) AS
	SELECT id * 4 + 0, 'experiment', id, name || char(10) || coalesce(hypothesis, '')
	FROM experiments
	UNION ALL
	SELECT id * 4 + 1, 'design', id, name FROM designs
	UNION ALL
	SELECT id * 4 + 2, 'run', id,
	       CASE WHEN json_valid(reasons)
	            THEN CASE WHEN json_type(reasons) = 'array'
	                      THEN (SELECT group_concat(value, char(10)) FROM json_each(reasons))
	                      ELSE reasons END
	            ELSE reasons END
	FROM runs WHERE reasons IS NOT NULL
	UNION ALL
	SELECT id * 4 + 3, 'note', id, text FROM notes;

INSERT INTO search(rowid, kind, text)
	SELECT docid, kind, text FROM search_source WHERE text IS NOT NULL AND text != '';

CREATE TRIGGER search_experiments_insert AFTER INSERT ON experiments BEGIN
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'experiment' AND ref = NEW.id;
END;
CREATE TRIGGER search_experiments_update AFTER UPDATE OF name, hypothesis ON experiments
WHEN OLD.name IS NOT NEW.name OR OLD.hypothesis IS NOT NEW.hypothesis BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 0;
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'experiment' AND ref = NEW.id;
END;
CREATE TRIGGER search_experiments_delete AFTER DELETE ON experiments BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 0;
END;

-- designs and experiments are found-or-added with an upsert that sets a
-- column to itself: the WHEN clauses keep that from re-indexing.
CREATE TRIGGER search_designs_insert AFTER INSERT ON designs BEGIN
	INSERT INTO search(rowid, kind, text) VALUES (NEW.id * 4 + 1, 'design', NEW.name);
END;
CREATE TRIGGER search_designs_update AFTER UPDATE OF name ON designs
WHEN OLD.name IS NOT NEW.name BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 1;
	INSERT INTO search(rowid, kind, text) VALUES (NEW.id * 4 + 1, 'design', NEW.name);
END;
CREATE TRIGGER search_designs_delete AFTER DELETE ON designs BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 1;
END;

CREATE TRIGGER search_runs_insert AFTER INSERT ON runs WHEN NEW.reasons IS NOT NULL BEGIN
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'run' AND ref = NEW.id AND text IS NOT NULL AND text != '';
END;
CREATE TRIGGER search_runs_update AFTER UPDATE OF reasons ON runs
WHEN OLD.reasons IS NOT NEW.reasons BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 2;
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'run' AND ref = NEW.id AND text IS NOT NULL AND text != '';
END;
CREATE TRIGGER search_runs_delete AFTER DELETE ON runs BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 2;
END;

CREATE TRIGGER search_notes_insert AFTER INSERT ON notes BEGIN
	INSERT INTO search(rowid, kind, text) VALUES (NEW.id * 4 + 3, 'note', NEW.text);
END;
CREATE TRIGGER search_notes_update AFTER UPDATE OF text ON notes
WHEN OLD.text IS NOT NEW.text BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 3;
	INSERT INTO search(rowid, kind, text) VALUES (NEW.id * 4 + 3, 'note', NEW.text);
END;
CREATE TRIGGER search_notes_delete AFTER DELETE ON notes BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 3;
END;

-- Every revision a run measured, for `history --rev`. A later schema that
-- records dependency revisions adds them here with another UNION ALL arm
-- (role 'dependency:NAME'), and --rev matches them with no change to the
-- query.
CREATE VIEW run_revisions(run_id, role, oid) AS
	SELECT id, 'parent', parent_oid FROM runs
	UNION ALL
	SELECT id, 'candidate', candidate_oid FROM runs;

-- History is read newest first, filtered by verdict, design, experiment
-- name or revision prefix (a range scan: oid >= prefix AND oid < prefix||'g').
DROP INDEX runs_design;
CREATE INDEX runs_design ON runs(design_id, created_at);
CREATE INDEX runs_created ON runs(created_at);
CREATE INDEX runs_verdict ON runs(verdict, created_at);
CREATE INDEX runs_parent ON runs(parent_oid);
CREATE INDEX runs_candidate ON runs(candidate_oid);
CREATE INDEX experiments_name ON experiments(name);
CREATE INDEX notes_run ON notes(run_id);
CREATE INDEX notes_design ON notes(design_id);
