# A shallow clone (git clone --depth 1) has the candidate but not its
# parent: exit 64 with how to fetch more history.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
git clone -q --depth 1 "file://$T/repo" "$T/shallow"
[ -f "$T/shallow/.git/shallow" ] || fail "the clone is not shallow"
write_exp "$T/shallow"
parent=$(git -C "$T/repo" rev-parse --short=10 HEAD~1)
expect_fail 64 "the parent $parent of candidate" "$ABTOOL" run "$T/shallow/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "is not in the repository (a shallow clone?); fetch more history, e.g. 'git fetch --deepen=1'"
echo ok
