# Two `abtool resume` of the same interrupted run at once: exactly one
# runs the rest of the plan, the other stops with exit 64 (the run is
# being resumed by another process) instead of running the same samples
# a second time and finishing the run twice. A resume started while the
# first one measures is refused the same way.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_bench "$T" 3
EXP_PAIRS=3 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/store.db"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
await hung
kill -INT $pid
wait $pid
[ $? = 130 ] || fail "the run was not interrupted"
echo 0 >"$T/count"

# both at once: while $T/hang exists, the one that proceeds hangs in its
# first sample (the event "hung"); the other must stop on its own (the
# event "exit")
start_bg r1 "$ABTOOL" resume 1 --store "$db"
start_bg r2 "$ABTOOL" resume 1 --store "$db"
await "pid r1"
p1=${EVENT##* }
await "pid r2"
p2=${EVENT##* }
await hung
await exit 300 "both resumes are running the same run (neither stopped on its own)"
read -r _ loser rc <<<"$EVENT"
case $loser in
r1) winner=$p2 wname=r2 ;;
r2) winner=$p1 wname=r1 ;;
*) fail "unexpected event: $EVENT" ;;
esac
[ "$rc" = 64 ] || { cat "$T/$loser.err" >&2; fail "the second resume exited $rc, expected 64"; }
grep -qE "run 1 is (still running \(pid [0-9]+ on this host\)|being resumed by another process); wait for it, or stop it and resume then" "$T/$loser.err" ||
	{ cat "$T/$loser.err" >&2; fail "the second resume did not say the run is taken"; }

# and one started later, while the first measures
expect_fail 64 "run 1 is still running (pid $winner on this host); wait for it, or stop it and resume then" \
	"$ABTOOL" resume 1 --store "$db"
rm -f "$T/hang"
release
await "exit $wname"
case ${EVENT##* } in 0 | 1 | 2) ;; *) cat "$T/$wname.err" >&2; fail "the resume that went on did not decide" ;; esac
[ "$(run_status "$db")" = finished ] || fail "the run is not finished"
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 1")" = 8 ] ||
	fail "samples done: $(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 1"), expected 8"
assert_integrity "$db"
echo ok
