-- 0013_search_text.sql (PostgreSQL), as sqlite's: a run's search document
-- is runs.search_text (its rules' names, rows and the findings that
-- failed, without abtool's explanations; store/store_search.c), not its
-- whole reasons. store.c fills it for every run with reasons after this
-- file, in the same transaction; the trigger indexes what it writes.
ALTER TABLE runs ADD COLUMN search_text TEXT;

CREATE OR REPLACE FUNCTION abtool_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	k INT := TG_ARGV[0]::int;
BEGIN
	IF TG_OP = 'DELETE' THEN
		DELETE FROM search WHERE docid = OLD.id * 4 + k;
		RETURN OLD;
	END IF;
	IF k = 0 THEN
		PERFORM abtool_search_put(NEW.id * 4, 'experiment',
			NEW.name || E'\n' || coalesce(NEW.hypothesis, ''));
	ELSIF k = 1 THEN
		PERFORM abtool_search_put(NEW.id * 4 + 1, 'design', NEW.name);
	ELSIF k = 2 THEN
		PERFORM abtool_search_put(NEW.id * 4 + 2, 'run', NEW.search_text);
	ELSE
		PERFORM abtool_search_put(NEW.id * 4 + 3, 'note', NEW.text);
	END IF;
	RETURN NEW;
END
$$;

DROP TRIGGER search_runs ON runs;
CREATE TRIGGER search_runs AFTER INSERT OR UPDATE OF search_text OR DELETE ON runs
	FOR EACH ROW EXECUTE FUNCTION abtool_search_sync(2);

DELETE FROM search WHERE kind = 'run';
