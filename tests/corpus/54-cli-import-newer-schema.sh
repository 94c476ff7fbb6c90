# import of an export written by another version of abtool in another
# format ("abtool-export-2"): exit 64, named as an export in a format this
# abtool cannot read, with the version that wrote it, instead of "not an
# abtool export"; nothing is stored.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --quiet
expect_exit 0 "$ABTOOL" export 1 --store "$T/store.db" -o "$T/run.json"
jq '.schema = "abtool-export-2" | .abtool_version = "9.1.0"' "$T/run.json" >"$T/newer.json"
expect_fail 64 "cannot import '$T/newer.json': an export in the format \"abtool-export-2\" (written by abtool 9.1.0), which this abtool (" \
	"$ABTOOL" import "$T/newer.json" --store "$T/other.db"
assert_contains "$T/err" "cannot read: it reads \"abtool-export-1\"; import it with that version of abtool or a later one"
assert_not_contains "$T/err" "not an abtool export"
[ "$(sqlite3 "$T/other.db" "select count(*) from runs")" = 0 ] || fail "something was imported"
expect_exit 0 "$ABTOOL" import "$T/run.json" --store "$T/other.db"
echo ok
