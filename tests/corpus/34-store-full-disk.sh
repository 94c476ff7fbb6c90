# A full disk, simulated with RLIMIT_FSIZE: abtool exits 74 with a message
# instead of dying of SIGXFSZ, the samples committed before the fault are
# unchanged, and the run is finished by resume once the limit is lifted.
# First `ulimit -f` in a subshell, at a new store; then the same limit set
# (prlimit) on a running abtool once 4 samples are committed, at the size
# its write-ahead log has then, so that the fifth sample's commit fails.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_bench "$T" 5
EXP_PAIRS=4 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"

( ulimit -f 16; exec "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/small.db" ) >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 74 ] || { cat "$T/err" >&2; fail "exit $rc under ulimit -f 16, expected 74"; }
assert_contains "$T/err" "the disk is full or a file size limit (ulimit -f) was reached; free space or lift the limit, then try again"
assert_contains "$T/err" "File too large"

touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
snapshot "$db" "$T/before"
[ "$(wc -l <"$T/before")" = 4 ] || fail "expected 4 committed samples, got $(wc -l <"$T/before")"
wal=$(stat -c %s "$db-wal")
prlimit --pid $pid --fsize=$wal:$wal || fail "prlimit"
rm -f "$T/hang"
release
wait $pid
rc=$?
[ $rc = 74 ] || { cat "$T/err" >&2; fail "exit $rc with a full disk, expected 74"; }
assert_contains "$T/err" "abtool: store '$db': storing a sample: "
assert_contains "$T/err" "the disk is full or a file size limit (ulimit -f) was reached"
assert_contains "$T/err" "finish it with 'abtool resume 1 --store $db'"
assert_unchanged "$db" "$T/before"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
