# parent: naming a commit that is not the candidate's first parent is
# refused (exit 64) with both commits, the real first parent and the two
# ways out.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
echo "// third" >>"$T/repo/bench.c"
git -C "$T/repo" commit -qam third
write_exp "$T/repo"
sed -i '1a parent: HEAD~2' "$T/repo/exp.yaml"
first=$(git -C "$T/repo" rev-parse --short=10 HEAD~1)
expect_fail 64 "is not the exact parent of candidate" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "its first parent is $first; remove 'parent:' to compare against the exact parent, or set 'exact_parent: false'"
[ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] || fail "a run was stored"
echo ok
