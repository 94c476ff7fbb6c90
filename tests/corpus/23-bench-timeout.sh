# A benchmark that hangs past its timeout (timeout: 1s): its process group
# is killed, the sample fails as timed out, the run is invalid (exit 3),
# and stderr says to raise timeout: if it is only slow.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i -e "s|^benchmark: .*|benchmark: \"echo \\\$\\\$ >$T/hung.pid; sleep 600\"|" -e 's|^timeout: .*|timeout: 1s|' "$T/repo/exp.yaml"
start=$(date +%s)
expect_fail 3 "lanes=1: parent sample 0 failed: timed out after 1 s" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the timeout did not stop the sample"
assert_contains "$T/err" "if the benchmark is only slow, raise 'timeout:'"
kill -0 "$(cat "$T/hung.pid")" 2>/dev/null && fail "the timed-out benchmark survived"
[ "$(sqlite3 "$T/store.db" "select timed_out from samples where status = 1")" = 1 ] || fail "timed_out not stored"
assert_integrity "$T/store.db"
echo ok
