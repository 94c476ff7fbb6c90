# A benchmark that exits 0 without printing its checksum: the sample fails
# (exit 3), and stderr shows what it printed instead.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: "echo result is 42"|' "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: checksum not found in stdout: no match of checksum.regex 'checksum=(\\S+)'" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "--- its stdout (tail) ---"
assert_contains "$T/err" "result is 42"
assert_integrity "$T/store.db"
echo ok
