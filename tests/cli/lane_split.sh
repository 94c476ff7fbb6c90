# The lane-split rule set on a candidate that does 4x the work at lanes
# 1-2 and a tenth of the work at lanes 4-8: rejected, and the reason names
# the low-lane rows; with only the high-lane rule, accepted. Effects this
# large are decided on cpu_ns whatever else the machine runs: over 3x in
# CPU time even on a loaded machine, where a process's start costs some
# 10 ms of it (1.8x and 2x were not: min_pair_wins on a 2x effect is the
# host's).
. "$(dirname "$0")/lib.sh"

bench() {  # bench LOW_FACTOR HIGH_FACTOR: work = 40M steps x factor
	cat <<EOF2
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int lanes = atoi(argv[1]);
	double factor = lanes <= 2 ? $1 : $2;
	unsigned long long n = (unsigned long long)(40e6 * factor), x = 1, i;
	volatile unsigned long long sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	printf("checksum=%d\n", lanes * 31);
	return 0;
}
EOF2
}
mkdir -p "$T/repo"
git -C "$T/repo" init -q
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/repo/Makefile"
bench 1.0 1.0 > "$T/repo/bench.c"
git -C "$T/repo" add -A && git -C "$T/repo" commit -qm parent
bench 4.0 0.1 > "$T/repo/bench.c"
git -C "$T/repo" commit -qam "candidate: batching"

cat > "$T/repo/split.yaml" <<'EOF2'
name: lane-split
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2, 4, 8]}
metric: cpu_ns
pairs: 12
accept:
  - name: no low-lane regression
    where: {lanes: [1, 2]}
    no_regression: 2%
  - name: material gain at 4/8 lanes
    where: {lanes: ">=4"}
    faster_by: 5%
    min_pair_wins: 7
EOF2
expect_exit 1 "$ABTOOL" run "$T/repo/split.yaml" --json "$T/split.json"
assert_contains "$T/out" "Verdict: rejected"
[ "$(jqv "$T/split.json" '.rules[0].outcome')" = fail ] || fail "low-lane rule should fail"
[ "$(jqv "$T/split.json" '.rules[1].outcome')" = pass ] || fail "high-lane rule should pass"
reason=$(jqv "$T/split.json" '.reasons[0]')
case $reason in
*"lanes=1"*"lanes=2"*regression*) ;;
*) fail "the reason does not name the low-lane rows: $reason" ;;
esac
case $reason in *"lanes=4"*|*"lanes=8"*) fail "the reason names a high-lane row: $reason" ;; esac
[ "$(jqv "$T/split.json" '.rules[0].rows | map(.outcome) | join(",")')" = fail,fail ] || fail "rows of rule 1"

# only the high-lane rule: accepted
sed '/no low-lane regression/,/no_regression/d' "$T/repo/split.yaml" > "$T/repo/high.yaml"
expect_exit 0 "$ABTOOL" run "$T/repo/high.yaml" --json "$T/high.json"
[ "$(jqv "$T/high.json" '.rules | length')" = 1 ] || fail "one rule"
[ "$(jqv "$T/high.json" .verdict)" = accepted ] || fail "high-lane only should be accepted"
echo ok
