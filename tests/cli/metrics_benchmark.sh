# A metric the benchmark prints as the primary metric: a lower-is-better
# latency (regex) and a higher-is-better throughput (a JSON line); the
# candidate does a tenth of the work, so both gates accept it, and the report
# shows each metric in the benchmark's unit and direction. The benchmark
# times its loop in CPU time (CLOCK_PROCESS_CPUTIME_ID), which other jobs
# on the machine barely move, so both gates decide whatever else runs.
. "$(dirname "$0")/lib.sh"

bench() {
	cat <<EOF2
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec t0, t1;
	unsigned long long x = 1, i, n = $1 * 1000000ULL;
	volatile unsigned long long sink;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("latency_ms=%.3f\n", s * 1e3);
	printf("{\"ops_per_s\": %.1f, \"result\": \"same\"}\n", 40e6 / s);
	return 0;
}
EOF2
}
mkdir -p "$T/repo"
git -C "$T/repo" init -q
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/repo/Makefile"
echo bench > "$T/repo/.gitignore"
bench 100 > "$T/repo/bench.c"
git -C "$T/repo" add -A && git -C "$T/repo" commit -qm parent
bench 10 > "$T/repo/bench.c"
git -C "$T/repo" commit -qam "candidate: a tenth of the work"

cat > "$T/repo/lower.yaml" <<'EOF2'
name: latency
build: make
benchmark: ./bench
checksum: {json: result}
metrics:
  latency_ms: {regex: 'latency_ms=(\S+)', unit: ms, better: lower}
metric: latency_ms
pairs: 6
accept:
  - name: faster
    faster_by: 20%
EOF2
expect_exit 0 "$ABTOOL" run "$T/repo/lower.yaml" --json "$T/lower.json"
[ "$(jqv "$T/lower.json" '.rows[0].metric')" = latency_ms ] || fail "primary metric"
[ "$(jqv "$T/lower.json" '.rows[0].better')" = lower ] || fail "direction"
[ "$(jqv "$T/lower.json" '.rows[0].pair_wins')" -ge 5 ] || fail "wins (lower is better)"
awk "BEGIN { exit !($(jqv "$T/lower.json" '.rows[0].ratio') < 0.8) }" || fail "ratio below 1 for a faster candidate"
assert_contains "$T/out" "## Rows (latency_ms, lower is better)"
assert_contains "$T/out" " ms |"

sed -e 's/latency_ms: {regex.*/ops_per_s: {json: ops_per_s, unit: ops\/s, better: higher}/' \
    -e 's/^metric: latency_ms/metric: ops_per_s/' -e 's/^name: latency/name: throughput/' \
    "$T/repo/lower.yaml" > "$T/repo/higher.yaml"
# a rule on another metric than the primary one
printf '  - name: wall bound\n    metric: wall_ns\n    max_ratio: 100\n' >>"$T/repo/higher.yaml"
expect_exit 0 "$ABTOOL" run "$T/repo/higher.yaml" --json "$T/higher.json" --html "$T/higher.html"
[ "$(jqv "$T/higher.json" '.rows[0].better')" = higher ] || fail "direction"
[ "$(jqv "$T/higher.json" '.rows[0].pair_wins')" -ge 5 ] || fail "wins (higher is better)"
awk "BEGIN { exit !($(jqv "$T/higher.json" '.rows[0].ratio') > 1.25) }" || fail "ratio above 1 for a faster candidate"
assert_contains "$T/out" "above 1.200 (faster by at least 20%): pass"
assert_contains "$T/out" "ops/s"
# wall time is still measured, as another metric
[ "$(jqv "$T/higher.json" '.rows[0].metrics.wall_ns.pairs')" = 6 ] || fail "wall_ns"
# the per-pair chart plots the primary metric and says which rules it is not
assert_contains "$T/higher.html" "ratio B/A of the primary metric (ops_per_s)"
assert_contains "$T/higher.html" "Rules on wall_ns decide on that metric's own interval, given in their reasons."
echo ok
