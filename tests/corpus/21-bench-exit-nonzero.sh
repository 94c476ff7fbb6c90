# A benchmark that exits 3: the sample fails, the run stops at once and is
# invalid (exit 3); the sample's stderr is shown and stored.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: "./bench {lanes}; echo cannot open the data set >\&2; exit 3"|' "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: exit 3" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "cannot open the data set"
assert_contains "$T/out" "Verdict: invalid"
[ "$(sqlite3 "$T/store.db" "select exit_code || ' ' || stderr from samples where status = 1")" = "3 cannot open the data set" ] || fail "the failed sample's exit code and stderr are not stored"
assert_integrity "$T/store.db"
echo ok
