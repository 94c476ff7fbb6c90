# A store write that fails mid-run (a trigger added while the fifth
# sample runs refuses every sample's commit, as an I/O error would): exit
# 74, and the run, which abtool can still write, is marked interrupted
# rather than left 'running'; history shows it so, and once the fault is
# gone resume finishes it with the 4 committed samples unchanged.
. "$(dirname "$0")/corpus.sh"

db="$T/store.db"
start_hung_run
sqlite3 "$db" "CREATE TRIGGER refuse_samples BEFORE UPDATE ON samples WHEN NEW.status = 1
	BEGIN SELECT RAISE(ABORT, 'simulated write failure'); END"
rm -f "$T/hang"
release
wait $pid
rc=$?
[ $rc = 74 ] || { cat "$T/err" >&2; fail "exit $rc, expected 74"; }
assert_contains "$T/err" "abtool: store '$db': storing a sample: simulated write failure"
assert_contains "$T/err" "run 1 is kept with the samples stored so far; once the problem is fixed, finish it with 'abtool resume 1 --store $db'"
[ "$(run_status "$db")" = interrupted ] || fail "status $(run_status "$db"), expected interrupted"
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "interrupted"
assert_unchanged "$db" "$T/before"
sqlite3 "$db" "DROP TRIGGER refuse_samples"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
