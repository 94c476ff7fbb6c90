# SIGTERM during a build with samples already committed: a run stopped at
# its fifth sample is resumed after the build cache was removed, and the
# resume is stopped with SIGTERM while it rebuilds: exit 143, the build's
# process group killed, the 4 samples unchanged; a second resume finishes
# the run without changing them.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_bench "$T" 5
hang_build "$T"
EXP_PAIRS=4 EXP_BUILD="$T/build.sh" write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
kill -TERM $pid
wait $pid
[ $? = 143 ] || fail "the first run was not interrupted"
rm -f "$T/hang"
snapshot "$db" "$T/before"
[ "$(wc -l <"$T/before")" = 4 ] || fail "expected 4 committed samples, got $(wc -l <"$T/before")"

rm -rf "$XDG_CACHE_HOME/abtool"
touch "$T/hang-build"
"$ABTOOL" resume 1 --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await build
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || { cat "$T/err" >&2; fail "exit $rc after SIGTERM, expected 143"; }
assert_contains "$T/err" "abtool: interrupted by SIGTERM: run 1 is kept with 4 of 10 samples; finish it with 'abtool resume 1 --store $db'"
assert_group_gone "$(cat "$T/build.pgid")"
[ "$(run_status "$db")" = interrupted ] || fail "status $(run_status "$db"), expected interrupted"
assert_unchanged "$db" "$T/before"
rm -f "$T/hang-build"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
