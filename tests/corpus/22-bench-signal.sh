# A benchmark that dies on a signal (SIGSEGV, SIGABRT): invalid (exit 3),
# the signal named.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
for sig in SEGV ABRT; do
	sed -i "s|^benchmark: .*|benchmark: \"kill -$sig \\\$\\\$\"|" "$T/repo/exp.yaml"
	expect_fail 3 "lanes=1: parent sample 0 failed: killed by SIG$sig" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
done
[ "$(sqlite3 "$T/store.db" "select group_concat(signal) from (select signal from samples where status = 1 order by run_id)")" = "11,6" ] || fail "signals stored"
assert_integrity "$T/store.db"
echo ok
