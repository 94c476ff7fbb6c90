# A benchmark that does not exist, through the shell (exit 127) and as an
# argv (exec fails): the run is invalid (exit 3), stderr names the sample,
# why, and the folder and command to try by hand.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: ./no-such-bench {lanes}|' "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: exit 127" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "no-such-bench: not found"
assert_contains "$T/err" "to see why, run it by hand: cd '$XDG_CACHE_HOME/abtool/builds/"
assert_contains "$T/err" "&& ./no-such-bench 1"
assert_contains "$T/err" "abtool: invalid: lanes=1: 1 failed sample(s), first: parent sample 0 (warmup 1): exit 127"
sed -i 's|^benchmark: .*|benchmark: [./no-such-bench, "{lanes}"]|' "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: could not start: No such file or directory" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ "$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1")" = 2 ] || fail "more than the failed samples ran"
assert_integrity "$T/store.db"
echo ok
