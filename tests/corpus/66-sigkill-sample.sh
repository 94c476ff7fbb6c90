# SIGKILL of abtool during a sample (a CI runner's hard stop, the OOM
# killer): abtool can do nothing, so the kernel stops the benchmark
# (PR_SET_PDEATHSIG) instead of leaving it running, orphaned, competing
# with the next job; the run stays 'running', its 4 committed samples are
# kept, and resume finishes it.
. "$(dirname "$0")/corpus.sh"

db="$T/store.db"
start_hung_run
kill -KILL $pid
wait $pid 2>/dev/null
# the hanging benchmark would wait to be released forever: it must be gone
assert_group_gone "$(cat "$T/hung.pgid")"
[ -e "$T/hang" ] || fail "the case removed its own hang file"
[ "$(run_status "$db")" = running ] || fail "status $(run_status "$db"), expected running"
assert_unchanged "$db" "$T/before"
rm -f "$T/hang"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
