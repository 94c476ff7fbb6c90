# SIGINT during the parent's build: exit 130, the build's process group
# killed, the run stored as interrupted with no sample, and resume builds
# again and finishes it.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_build "$T"
EXP_PAIRS=2 EXP_BUILD="$T/build.sh" write_exp "$T/repo"
db="$T/store.db"
touch "$T/hang-build"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await build
snapshot "$db" "$T/before"
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
assert_contains "$T/err" "abtool: interrupted by SIGINT: run 1 is kept with 0 of 6 samples; finish it with 'abtool resume 1 --store $db'"
assert_group_gone "$(cat "$T/build.pgid")"
[ "$(run_status "$db")" = interrupted ] || fail "status $(run_status "$db"), expected interrupted"
assert_unchanged "$db" "$T/before"
rm -f "$T/hang-build"
expect_decided "$ABTOOL" resume 1 --store "$db"
assert_contains "$T/err" "parent: built in"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
echo ok
