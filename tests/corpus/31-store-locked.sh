# Another process holds the store's write lock beyond the busy timeout
# (ABTOOL_BUSY_TIMEOUT_MS=500) while a run wants to commit its fifth
# sample: exit 74, the lock named and what to do; the four samples
# committed before are unchanged, and resume finishes the run once the
# lock is gone. Reading the store (history) works meanwhile.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
hang_bench "$T" 5
EXP_PAIRS=4 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
ABTOOL_BUSY_TIMEOUT_MS=500 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
wait_for "$T/hung.pgid"
snapshot "$db" "$T/before"
[ "$(wc -l <"$T/before")" = 4 ] || fail "expected 4 committed samples, got $(wc -l <"$T/before")"
# hold the write lock until $T/lock goes
touch "$T/lock"
{
	echo "BEGIN IMMEDIATE;"
	echo ".print locked"
	while [ -e "$T/lock" ]; do sleep 0.05; done
	echo "ROLLBACK;"
} | sqlite3 "$db" >"$T/holder" &
holder=$!
for i in $(seq 1 200); do grep -q locked "$T/holder" && break; sleep 0.05; done
grep -q locked "$T/holder" || fail "the lock holder did not start"
# reading needs no write lock
ABTOOL_BUSY_TIMEOUT_MS=500 expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "running"
rm -f "$T/hang"
wait $pid
rc=$?
rm -f "$T/lock"
wait $holder
[ $rc = 74 ] || { cat "$T/err" >&2; fail "exit $rc, expected 74"; }
assert_contains "$T/err" "store '$db' is locked by another process (waited 500 ms while storing a sample): another abtool, or a sqlite3 session, holds its write lock; try again when it has finished, or wait longer with ABTOOL_BUSY_TIMEOUT_MS"
assert_contains "$T/err" "run 1 is kept with the samples stored so far; once the problem is fixed, finish it with 'abtool resume 1 --store $db'"
assert_unchanged "$db" "$T/before"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
