# resume rebuilds a side whose cached build is gone, and compares the
# rebuilt artifacts with the ones the run's first samples ran. A build
# that stamps the time into an artifact cannot come back the same: resume
# stops with exit 64, the run stays interrupted with its samples and its
# stored build rows unchanged, and the message says to start a new run. A
# reproducible build rebuilt the same way is resumed to the end.
. "$(dirname "$0")/lib.sh"

# kill_after DB N EXP: start a run of EXP, whose benchmark is $T/bench.sh
# (hang_bench), and SIGKILL it once DB holds N committed samples: its
# sample N+1 says so and waits.
events_open
kill_after() {
	rm -f "$T/count"
	hang_bench "$T" $(($2 + 1))
	touch "$T/hang"
	"$ABTOOL" run "$3" --store "$1" --seed 5 --quiet >/dev/null 2>&1 &
	local pid=$!
	await hung
	kill -9 $pid
	wait $pid 2>/dev/null
	rm -f "$T/hang"
	[ "$(sqlite3 "$1" "select count(*) from samples where status = 1")" = "$2" ] || fail "the run did not store $2 samples"
}

make_repo "$T/stamp" 20 10
EXP_BUILD="make && date +%s%N > stamp" EXP_EXTRA="artifacts: [bench, stamp]" EXP_PAIRS=8 write_exp "$T/stamp"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/stamp/exp.yaml"
db="$T/stamp.db"
kill_after "$db" 6 "$T/stamp/exp.yaml"
sqlite3 "$db" "select * from builds order by side" >"$T/builds.before"
sqlite3 "$db" "select * from samples order by seq" >"$T/samples.before"
[ "$(wc -l <"$T/builds.before")" = 2 ] || fail "two builds stored before the kill"
[ -d "$XDG_CACHE_HOME/abtool/builds" ] || fail "no build cache at $XDG_CACHE_HOME/abtool/builds"
rm -rf "$XDG_CACHE_HOME/abtool/builds"

expect_exit 64 "$ABTOOL" resume 1 --store "$db"
assert_contains "$T/err" "abtool: run 1 cannot be resumed: the parent build made again (the cached one is gone) differs from the one its samples so far ran: artifact 'stamp' had SHA-256 "
assert_contains "$T/err" "finishing the run would mix two builds on one side, so it stays interrupted"
assert_contains "$T/err" "measure again in a new run: 'abtool run $T/stamp/exp.yaml'"
assert_not_contains "$T/err" "abtool resume"
sqlite3 "$db" "select * from builds order by side" | cmp -s - "$T/builds.before" || fail "stored builds overwritten"
sqlite3 "$db" "select * from samples order by seq" | cmp -s - "$T/samples.before" || fail "samples changed"
[ "$(sqlite3 "$db" "select status || ',' || coalesce(verdict, '-') from runs where id = 1")" = "interrupted,-" ] \
	|| fail "the refused run is not left interrupted"

# Again: the different build is in the cache now, and still refused.
expect_exit 64 "$ABTOOL" resume 1 --store "$db"
assert_contains "$T/err" "the parent build found in the cache differs from the one its samples so far ran"
sqlite3 "$db" "select * from builds order by side" | cmp -s - "$T/builds.before" || fail "stored builds overwritten"

# A reproducible build (the same compiler on the same source in the same
# tree path) comes back the same, and the resume finishes the run.
make_repo "$T/same" 20 10
EXP_EXTRA="artifacts: [bench]" EXP_PAIRS=8 write_exp "$T/same"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/same/exp.yaml"
db="$T/same.db"
kill_after "$db" 6 "$T/same/exp.yaml"
sqlite3 "$db" "select * from builds order by side" >"$T/builds.before"
rm -rf "$XDG_CACHE_HOME/abtool/builds"
expect_decided "$ABTOOL" resume 1 --store "$db"
sqlite3 "$db" "select * from builds order by side" | cmp -s - "$T/builds.before" || fail "resume rewrote the stored builds"
[ "$(sqlite3 "$db" "select status from runs where id = 1")" = finished ] || fail "the reproducible build was not resumed"
echo ok
