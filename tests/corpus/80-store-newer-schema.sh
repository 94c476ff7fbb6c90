# A store whose schema version is newer than this abtool's (a newer
# abtool wrote it: pragma user_version=99) is refused by every command
# before anything is written: exit 74 naming both versions and what to
# do; the file is byte for byte as it was, and no run is added.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
known=$(sqlite3 "$db" "pragma user_version")
sqlite3 "$db" "pragma user_version = 99"
before=$(sha256sum <"$db")
expect_fail 74 "store '$db' has schema version 99, newer than this abtool" "$ABTOOL" history --store "$db"
assert_contains "$T/err" "knows ($known): a newer abtool wrote it; use that abtool, or upgrade this one, or give another --store (the store is left as it was)"
expect_fail 74 "store '$db' has schema version 99, newer than this abtool" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
assert_contains "$T/err" "knows ($known)"
assert_not_contains "$T/err" "stored as run"
expect_fail 74 "schema version 99" "$ABTOOL" resume 1 --store "$db"
[ "$(sha256sum <"$db")" = "$before" ] || fail "the store file changed"
[ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] || fail "files were left beside the store"
[ "$(sqlite3 "$db" "select count(*) from runs")" = 1 ] || fail "a run was added"
# a store in rollback-journal mode (sqlite3 made it) stays in that mode
rm -f "$T/plain.db"
sqlite3 "$T/plain.db" "pragma user_version = 99"
before=$(sha256sum <"$T/plain.db")
expect_fail 74 "has schema version 99" "$ABTOOL" history --store "$T/plain.db"
[ "$(sha256sum <"$T/plain.db")" = "$before" ] || fail "the rollback-journal store changed (WAL enabled?)"
echo ok
