# A candidate that changes nothing. (1) HEAD only adds the experiment file
# on top of the change: refused before building (exit 64), naming the
# parent to measure instead; with --candidate naming it, measured with a
# warning. (2) A README-only candidate: every declared artifact is
# byte-identical, said before the first sample and in the verdict line;
# the run counts, and history, show and designs mark it.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 4 2
change=$(git -C "$T/repo" rev-parse HEAD)
EXP_PAIRS=2 write_exp "$T/repo"
git -C "$T/repo" add exp.yaml
git -C "$T/repo" commit -qm "add perf experiment"
db="$T/store.db"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
assert_contains "$T/err" "changes only the experiment file 'exp.yaml'"
assert_contains "$T/err" "'abtool run $T/repo/exp.yaml --candidate ${change:0:10}'"
assert_not_contains "$T/err" "built in"
[ ! -e "$db" ] || [ "$(sqlite3 "$db" "select count(*) from runs")" = 0 ] || fail "a run was stored"
# measuring the commit named, with a warning
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --candidate HEAD
assert_contains "$T/err" "abtool: warning: the candidate $(git -C "$T/repo" rev-parse --short=10 HEAD) changes only the experiment file"
# the suggested commit is measured without complaint
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --candidate "$change"
assert_not_contains "$T/err" "changes only the experiment file"

# (2) a README-only candidate with artifacts: [bench]
make_repo "$T/r2" 4 4
echo "artifacts: [bench]" >>"$(EXP_PAIRS=2 write_exp "$T/r2"; echo "$T/r2/exp.yaml")"
git -C "$T/r2" add exp.yaml
git -C "$T/r2" commit -qm "the experiment"
echo "docs" >"$T/r2/README"
git -C "$T/r2" add README
git -C "$T/r2" commit -qm "README only"
db2="$T/store2.db"
expect_decided "$ABTOOL" run "$T/r2/exp.yaml" --store "$db2" --verbose --json "$T/r2.json"
warn=$(grep -n "every declared artifact is byte-identical on both sides: did the change reach the build" "$T/err" | head -n 1 | cut -d: -f1)
first=$(grep -n " checksum " "$T/err" | head -n 1 | cut -d: -f1)
[ -n "$warn" ] && [ -n "$first" ] && [ "$warn" -lt "$first" ] || fail "no warning before the first sample (line $warn, first sample $first)"
assert_contains "$T/out" ".** ⚠ Identical artifacts: every declared artifact is byte-identical on both sides."
[ "$(jqv "$T/r2.json" .verdict)" != invalid ] || fail "the run should count"
expect_exit 0 "$ABTOOL" history --store "$db2"
assert_contains "$T/out" "identical artifacts; "
[ "$("$ABTOOL" history --store "$db2" --json | jq -r '.[0].identical_artifacts')" = true ] || fail "history --json"
expect_exit 0 "$ABTOOL" show 1 --store "$db2"
assert_contains "$T/out" "(identical artifacts: every declared artifact is byte-identical on both sides)"
# designs marks the design's standing when it comes from such a run
sqlite3 "$db2" "update runs set verdict = 'rejected' where id = 1"
expect_exit 0 "$ABTOOL" designs --store "$db2" --rejected
assert_contains "$T/out" "identical artifacts; "
# and the memory a new run of the design prints says so when it cites it
expect_decided "$ABTOOL" run "$T/r2/exp.yaml" --store "$db2"
assert_contains "$T/err" "abtool: this design 'e2e-design' was rejected in run 1 ("
grep -q "was rejected in run 1 (.*): identical artifacts; " "$T/err" || fail "the memory does not mark run 1"
# an A/B run with different artifacts is not marked
expect_exit 0 "$ABTOOL" history --store "$db"
assert_not_contains "$T/out" "identical artifacts"
echo ok
