-- 0012_sample_timing.sql: when each sample started, and how long its
-- process waited for a CPU. started_ns is the start of the timed window in
-- nanoseconds since the Unix epoch (CLOCK_MONOTONIC's reading at the start,
-- moved onto the wall clock once per process), so that two samples
-- started together (a duet pair) can be checked to have started within a
-- millisecond of each other; started_at keeps its seconds. runq_ns is the
-- time the sample's process waited on a CPU's run queue while it was
-- runnable (Linux's /proc/PID/schedstat, read as it ended): contention
-- tied to the sample itself, not to the host. waited_ns is how long the
-- first sample of a pair waited for a quiet host before it started
-- (contention: {quiet}). NULL: not measured (a sample of an older abtool,
-- a kernel without schedstats, no quiet wait).
ALTER TABLE samples ADD COLUMN started_ns INTEGER;
ALTER TABLE samples ADD COLUMN runq_ns INTEGER;
ALTER TABLE samples ADD COLUMN waited_ns INTEGER;
