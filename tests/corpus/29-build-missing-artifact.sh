# A declared artifact neither side's build produces: the experiment file
# is wrong (exit 64; the run is stored invalid), the artifact named, and
# the message says that the builds ran and that no file of that name is
# in the tree.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
echo "artifacts: [bench, lib/libfast.so]" >>"$T/repo/exp.yaml"
expect_fail 64 "abtool: parent build: artifact 'lib/libfast.so' was not found in the tree, nor any file of that name (the build ran and succeeded" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "abtool: invalid: the experiment file is wrong: neither side's build makes artifact 'lib/libfast.so'"
[ "$(sqlite3 "$T/store.db" "select status from builds where side = 'parent'")" = missing_artifact ] || fail "build status"
[ "$(sqlite3 "$T/store.db" "select verdict from runs where id = 1")" = invalid ] || fail "run not stored invalid"
assert_integrity "$T/store.db"
echo ok
