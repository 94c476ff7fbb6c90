# A schema version no abtool writes (negative), or one whose tables are
# not that version's (set back by hand: 0 or 3 on a current store), gets
# a message that says so and what to do instead of sqlite's "table
# designs already exists": exit 74. Set right again, the store works.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
known=$(sqlite3 "$db" "pragma user_version")
sqlite3 "$db" "pragma user_version = -1"
before=$(sha256sum <"$db")
expect_fail 74 "store '$db' has schema version -1, which no abtool writes (abtool's are 1 to $known): it was set by hand, or the file is another program's database; keep a copy and give another --store" \
	"$ABTOOL" history --store "$db"
[ "$(sha256sum <"$db")" = "$before" ] || fail "the store file changed"
sqlite3 "$db" "pragma user_version = 0"
expect_fail 74 "store '$db' has schema version 0, but its tables are not that version's: migration 1 (store/migrations/0001_init.sql) does not apply: table designs already exists; the version was set by hand, or the file is another program's database; keep a copy and give another --store" \
	"$ABTOOL" history --store "$db"
sqlite3 "$db" "pragma user_version = 3"
expect_fail 74 "store '$db' has schema version 3, but its tables are not that version's: migration 4" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
[ "$(sqlite3 "$db" "pragma user_version")" = 3 ] || fail "the version changed"
[ "$(sqlite3 "$db" "select count(*) from runs")" = 1 ] || fail "a run was added"
sqlite3 "$db" "pragma user_version = $known"
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "e2e-design"
echo ok
