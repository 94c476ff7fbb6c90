# A benchmark whose checksum changes every run (a time in it): the first
# sample that differs stops the run, invalid (exit 3), stderr names the
# values and the likely cause.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: "./bench {lanes} >/dev/null; echo checksum=$(date +%s%N)"|' "$T/repo/exp.yaml"
expect_fail 3 "abtool: invalid: lanes=1: checksum mismatch: " "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "the benchmark's checksum is not the same for the same work"
[ "$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1")" = 2 ] || fail "the run did not stop at the mismatch"
assert_integrity "$T/store.db"
echo ok
