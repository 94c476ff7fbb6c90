#!/bin/bash
# calibrate.sh [BLOCKS]: the false-outcome rate of abtool's
# decision interval on this machine. `abtool calibrate` runs a real C
# benchmark of a generated repository against itself (the parent built
# twice) for BLOCKS blocks of 8 pairs (default 200 A/A experiments) and
# reports how often a bound excluded 1 ("faster" or "slower" although
# nothing changed), with exact 95% intervals, against the exact rate of
# the one-sided 95% bounds under no change (P(T <= k-1) = 10/256 = 3.906%
# for 8 pairs), and the spread of the per-pair log ratios.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ABTOOL=$(realpath "${ABTOOL:-$here/../build/abtool}")
BLOCKS=${1:-200}
WORK=$(mktemp -d /tmp/abtool-bench-calibrate-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@abtool.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@abtool.invalid

repo="$WORK/repo"
mkdir -p "$repo"
git -C "$repo" init -q
cat > "$repo/bench.c" <<'EOF2'
#include <stdio.h>
int main(void)
{
	unsigned long long x = 1, i;
	for (i = 0; i < 8000000ULL; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("checksum=%llx\n", x);
	return 0;
}
EOF2
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$repo/Makefile"
echo bench > "$repo/.gitignore"
git -C "$repo" add -A && git -C "$repo" commit -qm parent
git -C "$repo" commit -q --allow-empty -m candidate
cat > "$repo/exp.yaml" <<'EOF2'
name: calibrate-bench
build: make
benchmark: ./bench
checksum: {regex: 'checksum=(\S+)'}
pairs: 8
warmup: 1
accept:
  - name: no regression
    no_regression: 2%
EOF2

start=$(date +%s)
"$ABTOOL" calibrate "$repo/exp.yaml" --pairs $((BLOCKS * 8)) --seed 1 --json "$WORK/cal.json" \
	--store "$WORK/store.db" --quiet >/dev/null
end=$(date +%s)
jq -r --arg secs $((end - start)) '
  .calibration as $c | $c.rows[0] as $r |
  "abtool calibrate: \($c.total.blocks) A/A blocks of \($c.block_pairs) pairs (\($r.pairs) pairs, \($secs) s)",
  "| quantity | value |", "| --- | --- |",
  "| expected rate of each false outcome (exact) | \($c.expected_rate * 100 | tostring | .[0:6])% |",
  "| false \"faster\" (U < 1) | \($c.total.false_faster.count) of \($c.total.blocks) = \($c.total.false_faster.rate * 100 | tostring | .[0:5])% [\($c.total.false_faster.ci[0] * 100 | tostring | .[0:5])%, \($c.total.false_faster.ci[1] * 100 | tostring | .[0:5])%] |",
  "| false \"slower\" (L > 1) | \($c.total.false_slower.count) of \($c.total.blocks) = \($c.total.false_slower.rate * 100 | tostring | .[0:5])% [\($c.total.false_slower.ci[0] * 100 | tostring | .[0:5])%, \($c.total.false_slower.ci[1] * 100 | tostring | .[0:5])%] |",
  "| spread of per-pair log ratios (sd / robust sd) | \($r.sd_log_ratio * 100 | tostring | .[0:5])% / \($r.spread * 100 | tostring | .[0:5])% |",
  "| A/A ratio over all pairs | \($r.ratio | tostring | .[0:6]) |",
  "| pairs needed for no_regression 2% (80% power) | \($r.pairs_needed[0].pairs) |"
' "$WORK/cal.json"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
