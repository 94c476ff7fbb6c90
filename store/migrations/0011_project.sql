-- 0011_project.sql: one store holds the history of many repositories
-- (docs/history.md, "Projects"). A design and an experiment belong to a
-- project: UNIQUE (project, name) on designs and UNIQUE (project, hash) on
-- experiments replace the store-wide UNIQUE of 0001, so that two projects'
-- design "pr-42" are two designs, and one project's rejection never
-- blocks another's run. A run's project is its design's (and its
-- experiment's, always the same): runs get no column of their own, every
-- query that scopes runs joins designs already.
--
-- The project is a text: a normalized remote URL ("github.com/Owner/Name"),
-- "root:<oid>" of the root commit, or the name given with `project:`; ''
-- for comparisons of two commands (kind 'compare'), which belong to no
-- repository. The rows written before this migration get '' when every run
-- of their design is a comparison, and the placeholder '(unclaimed)'
-- otherwise: the first command that opens the store from a repository
-- gives them that repository's project (ab_store_claim_project).
--
-- The UNIQUE constraints of 0001 are column constraints, which sqlite
-- cannot drop in place: both tables are rebuilt with sqlite's documented
-- procedure ("Making Other Kinds Of Table Schema Changes"). The migration
-- runner turns the enforcement of foreign keys off outside the
-- transaction and runs PRAGMA foreign_key_check before the commit
-- (store_engine.h, `rebuild`): the ids are copied, so every reference to
-- them holds. The triggers of the search index on both tables go with
-- them and are made again, and so is the view over both (search_source,
-- 0002), with the two triggers on runs that read it (a rename checks
-- every trigger, and these would name a missing view), and the index of
-- experiment names; the search index itself keeps its rows (its rowids
-- are the ids, unchanged).

DROP TRIGGER search_runs_insert;
DROP TRIGGER search_runs_update;
DROP VIEW search_source;

CREATE TABLE designs_new (
	id          INTEGER PRIMARY KEY,
	project     TEXT NOT NULL,
	name        TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	UNIQUE (project, name)
);
INSERT INTO designs_new(id, project, name, created_at)
	SELECT d.id, CASE WHEN EXISTS (SELECT 1 FROM runs r WHERE r.design_id = d.id)
	                   AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.design_id = d.id
	                                   AND r.kind != 'compare')
	              THEN '' ELSE '(unclaimed)' END, d.name, d.created_at
	FROM designs d;

CREATE TABLE experiments_new (
	id          INTEGER PRIMARY KEY,
	project     TEXT NOT NULL,             -- its design's
	hash        TEXT NOT NULL,             -- SHA-256 of text
	name        TEXT NOT NULL,
	design_id   INTEGER NOT NULL REFERENCES designs(id),
	hypothesis  TEXT,
	path        TEXT NOT NULL,             -- where it was first read
	text        TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	UNIQUE (project, hash)
);
INSERT INTO experiments_new(id, project, hash, name, design_id, hypothesis, path, text, created_at)
	SELECT e.id, (SELECT d.project FROM designs_new d WHERE d.id = e.design_id), e.hash, e.name,
	       e.design_id, e.hypothesis, e.path, e.text, e.created_at
	FROM experiments e;

DROP TABLE experiments;
DROP TABLE designs;
ALTER TABLE designs_new RENAME TO designs;
ALTER TABLE experiments_new RENAME TO experiments;

CREATE INDEX experiments_name ON experiments(name);
CREATE INDEX experiments_design ON experiments(design_id);

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
