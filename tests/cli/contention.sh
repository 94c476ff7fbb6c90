# serial: its two CPU burners are the contention it measures; beside
# another case they would double the load the smoke cases are designed for
# (two busy loops), and another case's load would blur which samples ran
# beside the burners only.
# A CPU-burning competitor started during part of a run: the samples that
# ran entirely while it burned are flagged 'contended' (other processes
# used more than half a CPU), and a rule with max_flagged_samples: 0 will
# not decide on the row. Nothing is asserted about the other samples. The
# benchmark (hang_bench) says when its 5th and 10th samples start and
# waits: the burners start at the first event and stop at the second, so
# samples 6 to 9 (seq 5 to 8) ran entirely beside them.
. "$(dirname "$0")/lib.sh"

events_open
make_repo "$T/repo" 101 100
hang_bench "$T" 5,10
EXP_PAIRS=8 EXP_EXTRA='  - name: clean samples
    max_flagged_samples: 0' write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db="$T/s.db"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --json "$T/r.json" >"$T/out" 2>"$T/err" &
pid=$!
await hung
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1")" = 4 ] || fail "4 samples before the burners"
# two burners: with the sample's own process, more work than 2 CPUs
( while :; do :; done ) & b1=$!
( while :; do :; done ) & b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT  # also when a check below fails
release
await hung
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1")" = 9 ] || fail "9 samples while the burners ran"
kill $b1 $b2
wait $b1 $b2 2>/dev/null
trap - EXIT
rm -f "$T/hang"
release
wait $pid
rc=$?
[ $rc -le 2 ] || { cat "$T/err" >&2; fail "run exit $rc"; }
# samples 5 .. 8 (0-based seq) began after the burners started and ended
# before they stopped
for seq in 5 6 7 8; do
	flags=$(sqlite3 "$db" "select flags from samples where seq = $seq")
	other=$(sqlite3 "$db" "select other_cpu_ns from samples where seq = $seq")
	case $flags in
	*contended*) ;;
	*) fail "sample $seq ran beside the competitor but is not flagged (flags '$flags', other CPU $other ns)" ;;
	esac
done
[ "$(jqv "$T/r.json" '.rows[0].flagged_samples')" -ge 4 ] || fail "the row's flagged count"
[ "$(jqv "$T/r.json" '.rules[2].outcome')" = inconclusive ] || fail "max_flagged_samples: 0 should refuse to decide"
assert_contains "$T/out" "more than max_flagged_samples 0"
echo ok
