-- 0004_sample_quality.sql: what a sample's conditions were. padding_bytes
-- is the per-pair environment padding (the same for both samples of a
-- pair, Mytkowicz et al. 2009); unavailable holds, as a JSON object, why
-- a metric has no value ({"instructions": "perf_event_open: ..."}) -
-- stored as unavailable with its reason, never as zero; other_cpu_ns is
-- the CPU time other processes used during the sample (from /proc/stat).
ALTER TABLE samples ADD COLUMN padding_bytes INTEGER;
ALTER TABLE samples ADD COLUMN unavailable TEXT;
ALTER TABLE samples ADD COLUMN other_cpu_ns INTEGER;
