-- 0005_headline.sql: what `abtool history` shows of each run, kept in
-- columns instead of being read out of the stored JSON report on every
-- query: the primary metric, its direction, and the lowest and highest
-- row ratio (candidate/parent). Filled when a run finishes; backfilled
-- here from the reports of finished runs with SQLite's JSON functions.
ALTER TABLE runs ADD COLUMN metric TEXT;
ALTER TABLE runs ADD COLUMN better TEXT;
ALTER TABLE runs ADD COLUMN ratio_min REAL;
ALTER TABLE runs ADD COLUMN ratio_max REAL;

UPDATE runs SET
	metric = json_extract(report, '$.metric'),
	better = coalesce((SELECT json_extract(value, '$.better') FROM json_each(report, '$.rows') LIMIT 1), 'lower'),
	ratio_min = (SELECT min(json_extract(value, '$.ratio')) FROM json_each(report, '$.rows')
	             WHERE json_type(value, '$.ratio') IN ('real', 'integer')),
	ratio_max = (SELECT max(json_extract(value, '$.ratio')) FROM json_each(report, '$.rows')
	             WHERE json_type(value, '$.ratio') IN ('real', 'integer'))
WHERE report IS NOT NULL AND json_valid(report);
