-- 0006_row_results.sql: the results of each row, and each rule's outcome
-- on each row, in tables that SQL can query (docs/history.md "Row
-- results"), instead of only inside the JSON report of runs.report.
--
-- Both tables are derived from the stored report by the two views below,
-- the one definition used by this migration's backfill, by a run when it
-- finishes (in the transaction that stores its verdict) and by `abtool
-- import`. So the tables always say what the report says.
--
-- row_results: one line per run, row and metric that the report has
-- statistics or an "unavailable" reason for. The primary metric's
-- statistics are the row's own members in the report; the others are in
-- its "metrics" object.
CREATE TABLE row_results (
	run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	row_idx           INTEGER NOT NULL,   -- rows.idx
	metric            TEXT NOT NULL,
	is_primary        INTEGER NOT NULL,   -- 1: the run's primary metric (runs.metric)
	unit              TEXT,
	better            TEXT,               -- lower | higher
	pairs             INTEGER,            -- pairs the statistics used
	parent_median     REAL,               -- in the metric's unit
	candidate_median  REAL,
	parent_rsd        REAL,               -- a fraction
	candidate_rsd     REAL,
	ratio             REAL,               -- Hodges-Lehmann B/A
	ci_low            REAL,               -- the decision interval [L, U]
	ci_high           REAL,
	ci_level          REAL,               -- its exact coverage
	pair_wins         INTEGER,
	pair_losses       INTEGER,
	p_signed_rank     REAL,               -- exact Wilcoxon signed-rank p
	p_sign            REAL,               -- exact sign-test p
	checksum_match    INTEGER,            -- the row's checksums agreed (1/0)
	unavailable       TEXT,               -- why there are no statistics, else NULL
	PRIMARY KEY (run_id, row_idx, metric)
) WITHOUT ROWID;
CREATE INDEX row_results_metric_ratio ON row_results(metric, ratio);

-- The metric each rule decided on (the primary one unless the rule names
-- another).
ALTER TABLE rule_results ADD COLUMN metric TEXT;

-- rule_row_results: each rule's outcome on each row it selected, with the
-- reason (detail) the report gives; the rule's overall outcome stays in
-- rule_results.
CREATE TABLE rule_row_results (
	run_id    INTEGER NOT NULL,
	rule_idx  INTEGER NOT NULL,           -- rule_results.idx
	row_idx   INTEGER NOT NULL,           -- rows.idx
	outcome   TEXT NOT NULL,              -- pass | fail | inconclusive
	detail    TEXT,
	PRIMARY KEY (run_id, rule_idx, row_idx),
	FOREIGN KEY (run_id, rule_idx) REFERENCES rule_results(run_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE VIEW row_results_source AS
	SELECT r.id AS run_id, CAST(w.key AS INTEGER) AS row_idx,
	       coalesce(w.value ->> 'metric', r.report ->> 'metric') AS metric, 1 AS is_primary,
	       w.value ->> 'unit' AS unit, w.value ->> 'better' AS better, w.value ->> 'pairs' AS pairs,
	       w.value ->> '$.parent.median' AS parent_median, w.value ->> '$.candidate.median' AS candidate_median,
	       w.value ->> '$.parent.rsd' AS parent_rsd, w.value ->> '$.candidate.rsd' AS candidate_rsd,
	       w.value ->> 'ratio' AS ratio, w.value ->> '$.ci[0]' AS ci_low, w.value ->> '$.ci[1]' AS ci_high,
	       w.value ->> 'ci_level' AS ci_level, w.value ->> 'pair_wins' AS pair_wins,
	       w.value ->> 'pair_losses' AS pair_losses, w.value ->> 'p_signed_rank' AS p_signed_rank,
	       w.value ->> 'p_sign' AS p_sign, w.value ->> 'checksum_match' AS checksum_match,
	       w.value ->> 'unavailable' AS unavailable
	FROM runs r, json_each(r.report, '$.rows') w
	WHERE r.report IS NOT NULL AND json_valid(r.report)
	AND coalesce(w.value ->> 'metric', r.report ->> 'metric') IS NOT NULL
	UNION ALL
	SELECT r.id, CAST(w.key AS INTEGER), m.key, 0,
	       m.value ->> 'unit', m.value ->> 'better', m.value ->> 'pairs',
	       m.value ->> '$.parent.median', m.value ->> '$.candidate.median',
	       m.value ->> '$.parent.rsd', m.value ->> '$.candidate.rsd',
	       m.value ->> 'ratio', m.value ->> '$.ci[0]', m.value ->> '$.ci[1]',
	       m.value ->> 'ci_level', m.value ->> 'pair_wins',
	       m.value ->> 'pair_losses', m.value ->> 'p_signed_rank',
	       m.value ->> 'p_sign', w.value ->> 'checksum_match',
	       m.value ->> 'unavailable'
	FROM runs r, json_each(r.report, '$.rows') w, json_each(w.value, '$.metrics') m
	WHERE r.report IS NOT NULL AND json_valid(r.report)
	AND m.key IS NOT coalesce(w.value ->> 'metric', r.report ->> 'metric');

-- A rule's rows carry the row's params, not its index: the index is that
-- of the report row with the same params (both written by one function).
CREATE VIEW rule_row_results_source AS
	SELECT r.id AS run_id, CAST(u.key AS INTEGER) AS rule_idx,
	       (SELECT CAST(w.key AS INTEGER) FROM json_each(r.report, '$.rows') w
	        WHERE json(w.value -> 'params') = json(x.value -> 'params')) AS row_idx,
	       x.value ->> 'outcome' AS outcome, x.value ->> 'detail' AS detail
	FROM runs r, json_each(r.report, '$.rules') u, json_each(u.value, '$.rows') x
	WHERE r.report IS NOT NULL AND json_valid(r.report);

INSERT INTO row_results SELECT * FROM row_results_source;

UPDATE rule_results SET metric = (SELECT u.value ->> 'metric' FROM runs r, json_each(r.report, '$.rules') u
                                  WHERE r.id = rule_results.run_id AND json_valid(r.report)
                                  AND CAST(u.key AS INTEGER) = rule_results.idx);

INSERT INTO rule_row_results(run_id, rule_idx, row_idx, outcome, detail)
	SELECT s.run_id, s.rule_idx, s.row_idx, s.outcome, s.detail FROM rule_row_results_source s
	WHERE s.row_idx IS NOT NULL AND s.outcome IS NOT NULL
	AND EXISTS (SELECT 1 FROM rule_results x WHERE x.run_id = s.run_id AND x.idx = s.rule_idx);
