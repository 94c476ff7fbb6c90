# A run interrupted between two pairs (SIGINT while the first sample of a
# pair runs: its 4 committed samples are the warmups and one whole pair)
# has nothing to supersede on resume: the report says it was interrupted
# and resumed, but does not warn that "0 samples" were superseded.
. "$(dirname "$0")/corpus.sh"

db="$T/store.db"
start_hung_run
kill -INT $pid
wait $pid
[ "$(run_status "$db")" = interrupted ] || fail "status $(run_status "$db"), expected interrupted"
rm -f "$T/hang"
expect_decided "$ABTOOL" resume 1 --store "$db" --json "$T/r.json"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 2")" = 0 ] || fail "samples were superseded"
[ "$(jqv "$T/r.json" .resumed.superseded_samples)" = 0 ] || fail "resumed.superseded_samples"
host=$(jqv "$T/r.json" .resumed.resumed_on)
jqv "$T/r.json" '.warnings[]' >"$T/warnings"
assert_contains "$T/warnings" "the run was interrupted and resumed on '$host'"
assert_not_contains "$T/warnings" "0 samples"
assert_not_contains "$T/warnings" "superseded"
assert_contains "$T/out" "the run was interrupted and resumed on '$host'"
assert_not_contains "$T/out" "were superseded"
echo ok
