# Another process holds the store's write lock beyond the busy timeout
# (ABTOOL_BUSY_TIMEOUT_MS=500) while a run wants to commit its fifth
# sample: exit 74, the lock named and what to do; the four samples
# committed before are unchanged, and resume finishes the run once the
# lock is gone. Reading the store (history) works meanwhile.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_bench "$T" 5
EXP_PAIRS=4 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
ABTOOL_BUSY_TIMEOUT_MS=500 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
snapshot "$db" "$T/before"
[ "$(wc -l <"$T/before")" = 4 ] || fail "expected 4 committed samples, got $(wc -l <"$T/before")"
# hold the write lock (a sqlite3 session in a transaction) until the case
# releases it: the session says "locked" on the events once it holds it,
# and reads the ROLLBACK from $T/unlock, a FIFO, only when the case writes it
mkfifo "$T/unlock"
{
	echo "BEGIN IMMEDIATE;"
	echo ".print locked"
	cat "$T/unlock"
} | sqlite3 "$db" 1<>"$T/events" &
holder=$!
await locked
# reading needs no write lock
ABTOOL_BUSY_TIMEOUT_MS=500 expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "running"
rm -f "$T/hang"
release
wait $pid
rc=$?
echo "ROLLBACK;" >"$T/unlock"
wait $holder
[ $rc = 74 ] || { cat "$T/err" >&2; fail "exit $rc, expected 74"; }
assert_contains "$T/err" "store '$db' is locked by another process (waited 500 ms while storing a sample): another abtool, or a sqlite3 session, holds its write lock; try again when it has finished, or wait longer with ABTOOL_BUSY_TIMEOUT_MS"
assert_contains "$T/err" "run 1 is kept with the samples stored so far; once the problem is fixed, finish it with 'abtool resume 1 --store $db'"
assert_unchanged "$db" "$T/before"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
assert_kept "$db" "$T/before"
echo ok
