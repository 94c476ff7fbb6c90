# A parent that is not the candidate's first parent is refused (exit 64),
# naming both commits; exact_parent: false accepts the comparison.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 20
git -C "$T/repo" commit -q --allow-empty -m "third"
root=$(git -C "$T/repo" rev-list --max-parents=0 HEAD)
head=$(git -C "$T/repo" rev-parse HEAD)
EXP_EXTRA="parent: $root" write_exp "$T/repo"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml"
assert_contains "$T/err" "parent ${root:0:10}"
assert_contains "$T/err" "is not the exact parent of candidate ${head:0:10}"
assert_contains "$T/err" "exact_parent: false"
# check refuses it the same way
expect_exit 64 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "is not the exact parent"

# exact_parent: false accepts the same comparison: check shows it as not
# the exact parent, and a run compares those two commits and records
# exact_parent: false in its report.
EXP_PAIRS=2 EXP_EXTRA="parent: $root
exact_parent: false" write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/out" "parent    $root"
assert_contains "$T/out" "(NOT the exact parent)"
assert_contains "$T/out" "candidate $head"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --json "$T/r.json"
[ "$(jqv "$T/r.json" .exact_parent)" = false ] || fail "exact_parent in the report: $(jqv "$T/r.json" .exact_parent)"
[ "$(jqv "$T/r.json" .parent.oid)" = "$root" ] || fail "the parent compared is not $root"
[ "$(jqv "$T/r.json" .candidate.oid)" = "$head" ] || fail "the candidate compared is not $head"

# An unknown revision and a folder that is not a repository: 64 as well.
write_exp "$T/repo"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --candidate no-such-rev
assert_contains "$T/err" "unknown candidate revision 'no-such-rev'"
mkdir -p "$T/plain"
write_exp "$T/plain"
expect_exit 64 "$ABTOOL" run "$T/plain/exp.yaml"
assert_contains "$T/err" "is not a git repository"
echo ok
