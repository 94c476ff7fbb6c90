# A merge commit as the candidate works: its exact parent is its first
# parent (the branch merged into), in the check, the report and the store.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
git -C "$T/repo" checkout -q -b side HEAD~1
echo "side" >"$T/repo/SIDE"
git -C "$T/repo" add SIDE
git -C "$T/repo" commit -qm "side branch"
git -C "$T/repo" checkout -q -
git -C "$T/repo" merge -q --no-ff --no-edit side
first=$(git -C "$T/repo" rev-parse HEAD^1)
second=$(git -C "$T/repo" rev-parse HEAD^2)
EXP_PAIRS=2 write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/out" "parent    $first"
assert_contains "$T/out" "(exact parent)"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --json "$T/r.json"
[ "$(jqv "$T/r.json" .parent.oid)" = "$first" ] || fail "the report's parent is not the first parent"
[ "$(jqv "$T/r.json" .parent.oid)" != "$second" ] || fail "the report's parent is the second parent"
[ "$(sqlite3 "$T/store.db" "select parent_oid || ' ' || exact_parent from runs")" = "$first 1" ] || fail "stored parent"
echo ok
