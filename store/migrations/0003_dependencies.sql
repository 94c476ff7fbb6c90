-- 0003_dependencies.sql: the revisions of every further repository a run
-- measured (`dependencies:` in the experiment file), so that a verdict is
-- stored against all of them and `abtool history --rev` finds a run by a
-- dependency's commit too.

CREATE TABLE run_dependencies (
	run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	name           TEXT NOT NULL,
	repo           TEXT NOT NULL,
	parent_oid     TEXT NOT NULL,
	candidate_oid  TEXT NOT NULL,
	PRIMARY KEY (run_id, name)
);
CREATE INDEX run_dependencies_parent ON run_dependencies(parent_oid);
CREATE INDEX run_dependencies_candidate ON run_dependencies(candidate_oid);

DROP VIEW run_revisions;
CREATE VIEW run_revisions(run_id, role, oid) AS
	SELECT id, 'parent', parent_oid FROM runs
	UNION ALL
	SELECT id, 'candidate', candidate_oid FROM runs
	UNION ALL
	SELECT run_id, 'dependency ' || name || ' parent', parent_oid FROM run_dependencies
	UNION ALL
	SELECT run_id, 'dependency ' || name || ' candidate', candidate_oid FROM run_dependencies;
