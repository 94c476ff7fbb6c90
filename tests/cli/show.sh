# abtool show on real runs: a 10x slower candidate rejected twice (the same
# comparison), with a run note and a design note; every section shows the
# stored values. An interrupted run (from the v1 fixture store) shows its
# status and how to finish it.
. "$(dirname "$0")/lib.sh"

db=$(test_store store)
make_repo "$T/repo" 10 100   # rejected on cpu_ns (write_exp)
EXP_NAME=double EXP_DESIGN=double-the-loop \
	EXP_EXTRA="hypothesis: doubling the loop count costs nothing measurable" write_exp "$T/repo"
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet --seed 3
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet --seed 4 --json "$T/report.json"
expect_exit 0 "$ABTOOL" note 2 --store "$db" "profile: the loop is all of the time"
expect_exit 0 "$ABTOOL" note --design double-the-loop --store "$db" "see https://example.invalid/issue/7"

expect_exit 0 "$ABTOOL" show 2 --store "$db"
cp "$T/out" "$T/show.txt"
uuid=$(jqv "$T/report.json" .run_uuid)
assert_contains "$T/show.txt" "run 2  $uuid"
assert_contains "$T/show.txt" "experiment  double  ($T/repo/exp.yaml, sha256 $(sha256sum "$T/repo/exp.yaml" | cut -c1-12))"
assert_contains "$T/show.txt" "design      double-the-loop"
assert_contains "$T/show.txt" "hypothesis  doubling the loop count costs nothing measurable"
assert_contains "$T/show.txt" "status      finished, started $(jqv "$T/report.json" .created_at)"
assert_contains "$T/show.txt" "verdict     rejected"
n=$(jqv "$T/report.json" '.reasons | length')
[ "$n" -ge 1 ] || fail "no reasons"
for i in $(seq 0 $((n - 1))); do
	assert_contains "$T/show.txt" "  - $(jqv "$T/report.json" ".reasons[$i]")"
done
parent=$(git -C "$T/repo" rev-parse HEAD~1)
candidate=$(git -C "$T/repo" rev-parse HEAD)
assert_contains "$T/show.txt" "  parent     ${parent:0:10}  parent: work 10  (exact parent)"
assert_contains "$T/show.txt" "  candidate  ${candidate:0:10}  candidate: work 100"
grep -Eq "^  parent +ok +(cached|built in [0-9.]+ [mµ]?s) +make$" "$T/show.txt" || fail "parent build line"
grep -Eq "^  candidate +ok +cached +make$" "$T/show.txt" || fail "second run's candidate build is cached"
assert_contains "$T/show.txt" "plan        seed 4, 6 pairs per row after 1 warmup per side, 1 row; 14 of 14 samples done"
grep -q "^host        [0-9]*-CPU " "$T/show.txt" || fail "host summary"
# The rows table holds the stored report's numbers.
ratio=$(printf %.3f "$(jqv "$T/report.json" '.rows[0].ratio')")
lo=$(printf %.3f "$(jqv "$T/report.json" '.rows[0].ci[0]')")
hi=$(printf %.3f "$(jqv "$T/report.json" '.rows[0].ci[1]')")
wins="$(jqv "$T/report.json" '.rows[0].pair_wins')/6"
grep -Eq "^  lanes=1 .* $ratio  \[$lo, $hi\] +$wins  match$" "$T/show.txt" || fail "row lanes=1: $ratio [$lo, $hi] $wins"
# Rules with outcome and detail.
for i in 0 1; do
	outcome=$(jqv "$T/report.json" ".rules[$i].outcome")
	name=$(jqv "$T/report.json" ".rules[$i].name")
	grep -Eq "^  $outcome +$name$" "$T/show.txt" || fail "rule $name: $outcome"
	detail=$(jqv "$T/report.json" ".rules[$i].detail" | sed 's/; .*//')
	assert_contains "$T/show.txt" "                $detail"
done
[ "$(jqv "$T/report.json" '.rules[1].outcome')" = fail ] || fail "material gain should fail"
# Notes, oldest first, the design's too; the earlier run of the comparison.
grep -Eq "^  $(date -u +%Y-%m-%d) [0-9:]{5}  run     profile: the loop is all of the time$" "$T/show.txt" || fail "run note"
grep -Eq "^  $(date -u +%Y-%m-%d) [0-9:]{5}  design  see https://example.invalid/issue/7$" "$T/show.txt" || fail "design note"
grep -Eq "^  run 1  $(date -u +%Y-%m-%d) [0-9:]{5}  rejected$" "$T/show.txt" || fail "earlier run"
assert_contains "$T/show.txt" "reproduce   abtool run $T/repo/exp.yaml --candidate $candidate --seed 4 --pairs 6"

# Run 1: the design note shows on every run of the design; run 2 is later.
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "see https://example.invalid/issue/7"
assert_not_contains "$T/out" "profile: the loop"
assert_contains "$T/out" "later: run 2 (rejected)"

# latest and a uuid prefix name the same run; unknown runs are refused.
expect_exit 0 "$ABTOOL" show latest --store "$db"
cmp -s "$T/out" "$T/show.txt" || fail "show latest differs from show 2"
expect_exit 0 "$ABTOOL" show "${uuid:0:8}" --store "$db"
cmp -s "$T/out" "$T/show.txt" || fail "show by uuid prefix differs"
expect_exit 64 "$ABTOOL" show 99 --store "$db"
assert_contains "$T/err" "has no run 99"
expect_exit 64 "$ABTOOL" show --store "$db"

# --json: the export document without samples, plus counts and the comparison.
expect_exit 0 "$ABTOOL" show 2 --json --store "$db"
[ "$(jqv "$T/out" .schema)" = abtool-show-1 ] || fail "schema"
[ "$(jqv "$T/out" .run.uuid)" = "$uuid" ] || fail "uuid"
[ "$(jqv "$T/out" .run.report.rows[0].ratio)" = "$(jqv "$T/report.json" .rows[0].ratio)" ] || fail "report"
[ "$(jqv "$T/out" .samples.done)" = 14 ] || fail "samples done"
[ "$(jqv "$T/out" .samples.planned)" = 14 ] || fail "samples planned"
[ "$(jqv "$T/out" '.same_comparison | map(.id) | join(",")')" = 1 ] || fail "same comparison"
[ "$(jqv "$T/out" '.notes | map(.scope) | join(",")')" = run,design ] || fail "notes"
[ "$(jqv "$T/out" '.rule_results | length')" = 2 ] || fail "rule results"
[ "$(jqv "$T/out" '.builds | map(.side) | join(",")')" = parent,candidate ] || fail "builds"
[ "$(jqv "$T/out" 'has("samples") and (.samples | type) == "object"')" = true ] || fail "no sample list"

# An interrupted run: its status and how to finish it.
cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v1.db" "$T/v1.db"
expect_exit 0 "$ABTOOL" show 4 --store "$T/v1.db"
assert_contains "$T/out" "status      interrupted"
assert_contains "$T/out" "verdict     none yet"
assert_contains "$T/out" "no results yet: the run is interrupted; finish it with 'abtool resume 4'"
grep -Eq "^plan .*; 60 of 402 samples done$" "$T/out" || fail "interrupted plan progress"
echo ok
