-- 0013_search_text.sql: what --grep reads of a run's reasons
-- (docs/history.md, "Search"). The search index held each run's reasons
-- whole, so that a word of abtool's own explanations ("noise alone
-- reaches 5 of 6 with probability 10.9%", in every min_pair_wins finding)
-- found every run. A run's document is now runs.search_text: its rules'
-- names, rows and the findings that failed, without the explanations
-- (store/store_search.c, ab_store_search_text). That text is made in C
-- for both engines alike, when a run finishes or is imported
-- (ab_store_derive_results), and here, after this file, for every run
-- with reasons (store.c's C step of migration 13, in the same
-- transaction); the triggers index what it writes.
ALTER TABLE runs ADD COLUMN search_text TEXT;

DROP TRIGGER search_runs_insert;
DROP TRIGGER search_runs_update;
DROP VIEW search_source;

CREATE VIEW search_source(docid, kind, ref, text) AS
	SELECT id * 4 + 0, 'experiment', id, name || char(10) || coalesce(hypothesis, '')
	FROM experiments
	UNION ALL
	SELECT id * 4 + 1, 'design', id, name FROM designs
	UNION ALL
	SELECT id * 4 + 2, 'run', id, search_text FROM runs WHERE search_text IS NOT NULL
	UNION ALL
	SELECT id * 4 + 3, 'note', id, text FROM notes;

CREATE TRIGGER search_runs_insert AFTER INSERT ON runs WHEN NEW.search_text IS NOT NULL BEGIN
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'run' AND ref = NEW.id AND text != '';
END;
CREATE TRIGGER search_runs_update AFTER UPDATE OF search_text ON runs
WHEN OLD.search_text IS NOT NEW.search_text BEGIN
	DELETE FROM search WHERE rowid = OLD.id * 4 + 2;
	INSERT INTO search(rowid, kind, text) SELECT docid, kind, text FROM search_source
	WHERE kind = 'run' AND ref = NEW.id AND text != '';
END;

-- The runs' old documents (their whole reasons) go; the C step writes
-- the new ones through the update trigger.
DELETE FROM search WHERE kind = 'run';
