# Two `abtool resume` of the same interrupted run at once: exactly one
# runs the rest of the plan, the other stops with exit 64 (the run is
# being resumed by another process) instead of running the same samples
# a second time and finishing the run twice. A resume started while the
# first one measures is refused the same way.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
hang_bench "$T" 3
EXP_PAIRS=3 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
wait_for "$T/hung.pgid"
kill -INT $pid
wait $pid
[ $? = 130 ] || fail "the run was not interrupted"
rm -f "$T/hung.pgid"
echo 0 >"$T/count"

# both at once: while $T/hang exists, the one that proceeds hangs in its
# first sample; the other must stop on its own
"$ABTOOL" resume 1 --store "$db" >"$T/out1" 2>"$T/err1" &
p1=$!
"$ABTOOL" resume 1 --store "$db" >"$T/out2" 2>"$T/err2" &
p2=$!
wait_for "$T/hung.pgid"
for i in $(seq 1 400); do
	kill -0 $p1 2>/dev/null && kill -0 $p2 2>/dev/null || break
	sleep 0.05
done
if kill -0 $p1 2>/dev/null; then winner=$p1 loser=$p2 lerr="$T/err2"; else winner=$p2 loser=$p1 lerr="$T/err1"; fi
kill -0 $loser 2>/dev/null && { rm -f "$T/hang"; fail "both resumes are running the same run"; }
wait $loser
rc=$?
[ $rc = 64 ] || { cat "$lerr" >&2; fail "the second resume exited $rc, expected 64"; }
grep -qE "run 1 is (still running \(pid [0-9]+ on this host\)|being resumed by another process); wait for it, or stop it and resume then" "$lerr" ||
	{ cat "$lerr" >&2; fail "the second resume did not say the run is taken"; }

# and one started later, while the first measures
expect_fail 64 "run 1 is still running (pid $winner on this host); wait for it, or stop it and resume then" \
	"$ABTOOL" resume 1 --store "$db"
rm -f "$T/hang"
wait $winner
case $? in 0 | 1 | 2) ;; *) fail "the resume that went on did not decide" ;; esac
[ "$(run_status "$db")" = finished ] || fail "the run is not finished"
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 1")" = 8 ] ||
	fail "samples done: $(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 1"), expected 8"
assert_integrity "$db"
echo ok
