# resume of a finished run: exit 64, its verdict, and where to see it;
# the run is left as it was.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
verdict=$(sqlite3 "$T/store.db" "select verdict from runs where id = 1")
snapshot "$T/store.db" "$T/before"
expect_fail 64 "run 1 is already finished (verdict $verdict); see it with 'abtool show 1'" \
	"$ABTOOL" resume 1 --store "$T/store.db"
assert_unchanged "$T/store.db" "$T/before"
[ "$(run_status "$T/store.db")" = finished ] || fail "status changed"
assert_integrity "$T/store.db"
echo ok
