# A calibration interrupted by SIGINT and finished by resume: resume exits
# 0 as `abtool calibrate` does for a completed calibration (it decides
# nothing), not 2 for "inconclusive", so `calibrate || resume` in a script
# does not fail.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_bench "$T" 3
EXP_PAIRS=5 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
"$ABTOOL" calibrate "$T/repo/exp.yaml" --pairs 5 --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
rm -f "$T/hang"
expect_exit 0 "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the calibration"
assert_contains "$T/out" "calibrat"
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "calibrated"
echo ok
