-- 0008_compare.sql: comparisons of two commands (`abtool compare`, an
-- experiment with `sides:`), runs of kind 'compare' without commits.
--
-- A comparison has no repository and no revisions: its runs store '' in
-- repo, parent_oid and candidate_oid (and NULL trees), and no builds. The
-- columns stay NOT NULL: SQLite cannot drop a NOT NULL in place, and
-- rebuilding `runs` under the foreign keys, triggers and views that name
-- it would put every stored run at risk for no gain. What names the two
-- sides is the new column below. A comparison's experiment and run still
-- point at a row of `designs` (its design_id is NOT NULL too), but no
-- query reads a comparison as a design: `abtool designs`, the standing of
-- a design, block_rejected and "a similar design was rejected" read runs
-- of other kinds only (store_history.c, store_query.c).
ALTER TABLE runs ADD COLUMN sides TEXT;  -- JSON [{name, command}] of sides a and b; NULL otherwise

-- `abtool history --kind compare`, newest first.
CREATE INDEX runs_kind ON runs(kind, created_at);
