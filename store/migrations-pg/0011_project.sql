-- 0011_project.sql (PostgreSQL): projects, as sqlite's 0011_project.sql
-- (docs/history.md, "Projects"): a design and an experiment belong to a
-- project, UNIQUE (project, name) on designs and UNIQUE (project, hash) on
-- experiments replace the store-wide UNIQUE constraints, and the rows
-- written before get '' (a design whose runs are all comparisons) or the
-- placeholder '(unclaimed)', which the first command opening the store
-- from a repository claims. PostgreSQL changes the constraints in place:
-- no table is rebuilt.

ALTER TABLE designs ADD COLUMN project TEXT NOT NULL DEFAULT '(unclaimed)';
UPDATE designs d SET project = '' WHERE EXISTS (SELECT 1 FROM runs r WHERE r.design_id = d.id)
	AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.design_id = d.id AND r.kind != 'compare');
ALTER TABLE designs ALTER COLUMN project DROP DEFAULT;
ALTER TABLE designs DROP CONSTRAINT designs_name_key;
ALTER TABLE designs ADD CONSTRAINT designs_project_name_key UNIQUE (project, name);

ALTER TABLE experiments ADD COLUMN project TEXT;
UPDATE experiments e SET project = (SELECT d.project FROM designs d WHERE d.id = e.design_id);
ALTER TABLE experiments ALTER COLUMN project SET NOT NULL;
ALTER TABLE experiments DROP CONSTRAINT experiments_hash_key;
ALTER TABLE experiments ADD CONSTRAINT experiments_project_hash_key UNIQUE (project, hash);
CREATE INDEX experiments_design ON experiments(design_id);
