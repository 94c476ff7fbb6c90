# A real store whose samples table has a page of garbage: reading it gives
# exit 74, "is damaged", and how to look at and save what is left.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
root=$(sqlite3 "$db" "pragma wal_checkpoint(truncate); select rootpage from sqlite_master where name = 'samples'" | tail -n 1)
perl -e 'srand(9); print map { chr(int(rand(256))) } 1 .. 4096' |
	dd of="$db" bs=4096 seek=$((root - 1)) count=1 conv=notrunc 2>/dev/null
[ "$(sqlite3 "$db" "pragma integrity_check" 2>&1)" != ok ] || fail "the store is not damaged"
expect_fail 74 "store '$db' is damaged (database disk image is malformed) while " "$ABTOOL" show 1 --store "$db"
assert_contains "$T/err" "keep a copy, see what is left with sqlite3 '$db' 'pragma integrity_check'"
expect_fail 74 "is damaged" "$ABTOOL" export 1 --store "$db"
expect_fail 74 "is damaged" "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
assert_not_contains "$T/err" "is kept"
echo ok
