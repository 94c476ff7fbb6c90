# smoke
# calibrate, on wall time (the default metric): an A/A run on the parent
# built twice. Both builds run, the two trees differ, the blocks and
# false-outcome counts add up, and `check` and `run` report what the
# calibration says about the plan.
# Designed error: 0. No assertion depends on the wall times: a calibration
# is always 'calibrated', its counts are structural (blocks, false outcomes
# at most the blocks, a figure per margin), its spread is asserted only
# positive and below 10 (the sd of log ratios, 0.33 on this machine at
# load 12-16), and what check and run say is asserted against the
# calibration's own figures.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 20 10
EXP_BUILD="echo built >> $T/count && make" EXP_PAIRS=5 EXP_METRIC=wall_ns write_exp "$T/repo"
expect_exit 0 "$ABTOOL" calibrate "$T/repo/exp.yaml" --pairs 10 --json "$T/cal.json" --seed 3
[ "$(wc -l < "$T/count")" = 2 ] || fail "the parent is not built twice"
assert_contains "$T/out" "calibrated"
assert_contains "$T/out" "A/A calibration"
assert_contains "$T/out" "## Calibration"
parent=$(git -C "$T/repo" rev-parse HEAD~1)
[ "$(jqv "$T/cal.json" .parent.oid)" = "$parent" ] || fail "parent oid"
[ "$(jqv "$T/cal.json" .candidate.oid)" = "$parent" ] || fail "candidate side must be the parent"
[ "$(jqv "$T/cal.json" .kind)" = calibrate ] || fail "kind"
[ "$(jqv "$T/cal.json" .verdict)" = calibrated ] || fail "verdict"
[ "$(jqv "$T/cal.json" .calibration.block_pairs)" = 5 ] || fail "block size is the planned pairs"
[ "$(jqv "$T/cal.json" '.calibration.rows[0].blocks')" = 2 ] || fail "10 pairs make 2 blocks of 5"
[ "$(jqv "$T/cal.json" '.calibration.total.blocks')" = 2 ] || fail "total blocks"
ff=$(jqv "$T/cal.json" '.calibration.rows[0].false_faster.count')
fs=$(jqv "$T/cal.json" '.calibration.rows[0].false_slower.count')
[ $((ff + fs)) -le 2 ] || fail "false outcomes exceed blocks"
[ "$(jqv "$T/cal.json" '.calibration.rows[0].pairs_needed | length')" = 2 ] || fail "two rule margins"
# each figure states the power it reaches and the true ratio it assumes
need='.calibration.rows[0].pairs_needed[0]'
[ "$(jqv "$T/cal.json" "$need.target_power")" = 0.8 ] || fail "target power"
jqv "$T/cal.json" "$need | (.simulated and .power >= 0.8) or (.simulated == false and .power == null)" |
	grep -qx true || fail "stated power"
jqv "$T/cal.json" "$need | .expected_ratio > 0" | grep -qx true || fail "expected ratio"
spread=$(jqv "$T/cal.json" '.calibration.rows[0].spread')
awk "BEGIN { exit !($spread > 0 && $spread < 10) }" || fail "spread $spread (a finite positive sd of log ratios)"
# the reproduction pins the parent, which both sides are
grep -q "^abtool calibrate .*exp.yaml --parent $parent --seed 3 --pairs 10$" "$T/out" || fail "reproduce line"
assert_no_warning "$T/err"
# beside each fixed figure, a sequential plan {min: 8, max: M} of the same
# power (or none up to 256 pairs), on stderr and in the stored report
[ "$(grep -c "pairs fixed; sequential: " "$T/err")" = 2 ] || fail "a sequential line per rule margin"
jqv "$T/cal.json" '[.calibration.rows[0].pairs_needed[].sequential | .min == 8 and
	(.max == null or (.max >= 16 and .max <= 256 and .expected_pairs >= 8 and .expected_pairs <= .max
	 and .power >= 0.8 and .looks[0] == 8 and .looks[-1] == .max and .spending == "pocock"))] | all' |
	grep -qx true || fail "sequential entries"
plans=$(jqv "$T/cal.json" '[.calibration.rows[0].pairs_needed[].sequential | select(.max != null)] | length')
[ "$(grep -c "sequential: pairs: {min: 8, max: [0-9]*} reaches the same power using about [0-9]* pairs on average" \
	"$T/err")" = "$plans" ] || fail "the sequential line of each plan found"
db="$T/repo/.git/abtool/abtool.db"
[ "$(sqlite3 "$db" "select kind || ' ' || verdict from runs")" = "calibrate calibrated" ] || fail "stored"
# Two trees: the build cache holds two entries for one commit.
[ "$(ls -d "$XDG_CACHE_HOME"/abtool/builds/*/ | wc -l)" = 2 ] || fail "two trees"

# too few pairs for blocks, and pairs that leave a partial block, are said
expect_exit 0 "$ABTOOL" calibrate "$T/repo/exp.yaml" --pairs 5 --store "$T/other.db"
assert_contains "$T/err" "--pairs 5 makes 1 block of the experiment's 5 pairs"
expect_exit 0 "$ABTOOL" calibrate "$T/repo/exp.yaml" --pairs 12 --store "$T/other.db" --json "$T/c12.json"
assert_contains "$T/err" "--pairs 12 is not a multiple of the experiment's 5 pairs: the last 2 pairs"
[ "$(jqv "$T/c12.json" '.calibration.rows[0].blocks')" = 2 ] || fail "12 pairs make 2 blocks of 5"

# check and run say what the calibration means for the plan
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/out" "calibration (run 1,"
# each margin the 5 planned pairs do not reach is followed by its sequential plan
short=$(jqv "$T/cal.json" '[.calibration.rows[0].pairs_needed[] | select(.pairs > 5)] | length')
[ "$(grep -c "^  lanes=1: rule '.*' (.*) sequential: " "$T/out")" = "$short" ] ||
	fail "check: a sequential line after each margin the plan does not reach"
assert_contains "$T/out" "expected  about"
"$ABTOOL" run "$T/repo/exp.yaml" --quiet >/dev/null 2>"$T/err"
"$ABTOOL" run "$T/repo/exp.yaml" 2>"$T/err" >/dev/null
assert_contains "$T/err" "calibration (run 1,"
echo ok
