# A run killed with SIGKILL cannot remove its samples' scratch folders
# (builds/KEY.scratch-PID); the next run that uses the same build entries
# removes them, since their process is gone, and leaves none of its own.
. "$(dirname "$0")/corpus.sh"

start_hung_run
builds="$XDG_CACHE_HOME/abtool/builds"
ls -d "$builds"/*.scratch-"$pid" >/dev/null 2>&1 || fail "no scratch folder of the run: $(ls "$builds")"
kill -KILL $pid
wait $pid 2>/dev/null
assert_group_gone "$(cat "$T/hung.pgid")"
rm -f "$T/hang"
[ "$(ls -d "$builds"/*.scratch-"$pid" | wc -l)" = 2 ] || fail "the killed run left no scratch folders"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "build cached"
left=$(ls -d "$builds"/*.scratch-* 2>/dev/null)
[ -z "$left" ] || fail "scratch folders left: $left"
echo ok
