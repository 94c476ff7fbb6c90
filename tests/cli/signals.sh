# SIGTERM and SIGINT during a sample and during a build: the children are
# killed, the run is kept as interrupted with every finished sample, the
# exit code is 143 or 130, and `abtool resume` finishes it. The sample and
# the build say when they hang (events_open, hang_bench, hang_build), and
# their process groups are waited for by pidfd (assert_group_gone).
. "$(dirname "$0")/lib.sh"

events_open
make_repo "$T/repo" 20 10
# during a sample: the first sample hangs while $T/hang exists
hang_bench "$T" 1
EXP_PAIRS=6 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
touch "$T/hang"
db="$T/store.db"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "exit $rc after SIGTERM, expected 143"
assert_contains "$T/err" "interrupted by SIGTERM: run 1 is kept"
assert_contains "$T/err" "abtool resume 1"
assert_group_gone "$(cat "$T/hung.pgid")"
[ "$(sqlite3 "$db" "select status from runs")" = interrupted ] || fail "status"
rm -f "$T/hang"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(sqlite3 "$db" "select status from runs where id = 1")" = finished ] || fail "resume did not finish the run"
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 0")" = 0 ] || fail "samples left"

# during a build: SIGINT
make_repo "$T/repo2" 20 10
hang_build "$T"
EXP_BUILD="$T/build.sh" write_exp "$T/repo2"
touch "$T/hang-build"
"$ABTOOL" run "$T/repo2/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await build
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
assert_contains "$T/err" "interrupted by SIGINT"
assert_group_gone "$(cat "$T/build.pgid")"
[ "$(sqlite3 "$db" "select status from runs where id = 2")" = interrupted ] || fail "status after a build interrupt"
echo ok
