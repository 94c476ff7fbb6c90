# A declared artifact the build does not produce: invalid (exit 3), the
# artifact named.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
echo "artifacts: [bench, lib/libfast.so]" >>"$T/repo/exp.yaml"
expect_fail 3 "abtool: parent build failed (artifact 'lib/libfast.so' was not built)" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "abtool: invalid: parent build failed (artifact 'lib/libfast.so' was not built)"
[ "$(sqlite3 "$T/store.db" "select status from builds where side = 'parent'")" = missing_artifact ] || fail "build status"
assert_integrity "$T/store.db"
echo ok
