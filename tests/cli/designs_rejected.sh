# The rejected-design workflow on real runs: a candidate 10x slower under
# no_regression: 2% is rejected; `abtool designs --rejected` lists its
# design with the reason and the note that says why; a later accepted run
# of the same design takes it off the list. The verdicts are on cpu_ns,
# which other jobs on the machine barely move.
. "$(dirname "$0")/lib.sh"

db=$(test_store store)
make_repo "$T/fast" 40 4
EXP_NAME=halve EXP_DESIGN=halve-the-loop write_exp "$T/fast"
expect_exit 0 "$ABTOOL" run "$T/fast/exp.yaml" --store "$db" --quiet --seed 5

make_repo "$T/slow" 10 100
cat >"$T/slow/exp.yaml" <<'EOF2'
name: double
design: double-the-loop
hypothesis: doubling the loop count costs nothing measurable
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1]}
metric: cpu_ns
pairs: 6
warmup: 1
accept:
  - name: no regression
    no_regression: 2%
EOF2
expect_exit 1 "$ABTOOL" run "$T/slow/exp.yaml" --store "$db" --quiet --seed 6 --json "$T/rejected.json"
[ "$(jqv "$T/rejected.json" .verdict)" = rejected ] || fail "not rejected"
reason=$(jqv "$T/rejected.json" '.reasons[0]')
case "$reason" in "no regression: lanes=1: ratio "*"above 1.020 (a regression above 2%)"*) ;; *) fail "reason: $reason" ;; esac
expect_exit 0 "$ABTOOL" note --design double-the-loop --store "$db" "the loop is the work, not overhead"

# Both designs, the most recent first, with counts and latest verdicts.
expect_exit 0 "$ABTOOL" designs --store "$db"
head -n 1 "$T/out" | grep -q "^design  *runs  verdict  *run  date (UTC)  *reason$" || fail "header"
grep -Eq "^double-the-loop +1  rejected +2  $(date -u +%Y-%m-%d) [0-9:]{5}  no regression: lanes=1: ratio " "$T/out" \
	|| fail "double-the-loop line"
grep -Eq "^halve-the-loop +1  accepted +1  " "$T/out" || fail "halve-the-loop line"
grep -Eq "^ +note $(date -u +%Y-%m-%d) [0-9:]{5}: the loop is the work, not overhead$" "$T/out" || fail "note line"
[ "$(grep -n '^double-the-loop' "$T/out" | cut -d: -f1)" = 2 ] || fail "newest design first"

# --rejected: only the rejected design.
expect_exit 0 "$ABTOOL" designs --rejected --store "$db"
assert_contains "$T/out" "double-the-loop"
assert_not_contains "$T/out" "halve-the-loop"
expect_exit 0 "$ABTOOL" designs --rejected --json --store "$db"
[ "$(jqv "$T/out" 'map(.design) | join(",")')" = double-the-loop ] || fail "json --rejected"
[ "$(jqv "$T/out" '.[0].latest_run')" = 2 ] || fail "latest run"
[ "$(jqv "$T/out" '.[0].latest_reasons[0]')" = "$reason" ] || fail "latest reason"
[ "$(jqv "$T/out" '.[0].last_note')" = "the loop is the work, not overhead" ] || fail "last note"
[ "$(jqv "$T/out" '.[0].runs')" = 1 ] || fail "runs"

# A calibration does not change a standing: shown as a newer run. A design
# with only a calibration has no standing yet: undecided.
expect_exit 0 "$ABTOOL" calibrate "$T/fast/exp.yaml" --store "$db" --quiet --pairs 5 --seed 8
sed 's/^design: .*/design: only-calibrated/' "$T/fast/exp.yaml" >"$T/fast/exp2.yaml"
expect_exit 0 "$ABTOOL" calibrate "$T/fast/exp2.yaml" --store "$db" --quiet --pairs 5 --seed 9
expect_exit 0 "$ABTOOL" designs --store "$db"
grep -Eq "^ +newer: run 3 calibrate, calibrated$" "$T/out" || fail "newer line of halve-the-loop"
grep -Eq "^only-calibrated +1  undecided +4  $(date -u +%Y-%m-%d) [0-9:]{5}  newest run: calibrate, calibrated$" "$T/out" \
	|| fail "undecided line"
assert_not_contains "$T/out" "finished"

# Before retrying, search the history for the idea.
expect_exit 0 "$ABTOOL" history --grep "overhead" --json --store "$db"
[ "$(jqv "$T/out" 'map(.id) | join(",")')" = 2 ] || fail "history --grep over the design note"

# A new candidate of the same design is accepted: no longer rejected.
bench_source 1 >"$T/slow/bench.c"
git -C "$T/slow" commit -qam "candidate: work 1"
expect_exit 0 "$ABTOOL" run "$T/slow/exp.yaml" --store "$db" --quiet --seed 7
expect_exit 0 "$ABTOOL" designs --rejected --store "$db"
[ ! -s "$T/out" ] || fail "an accepted design is still listed as rejected"
assert_contains "$T/err" "no rejected designs"
expect_exit 0 "$ABTOOL" designs --json --store "$db"
[ "$(jqv "$T/out" '.[0].design + " " + (.[0].runs | tostring) + " " + .[0].latest_verdict')" = "double-the-loop 2 accepted" ] \
	|| fail "the design's latest verdict"
echo ok
