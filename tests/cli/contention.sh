# serial
# A CPU-burning competitor started during part of a run: the samples that
# ran entirely while it burned are flagged 'contended' (other processes
# used more than half a CPU), and a rule with max_flagged_samples: 0 will
# not decide on the row. Nothing is asserted about the other samples.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 101 100
EXP_PAIRS=8 EXP_EXTRA='  - name: clean samples
    max_flagged_samples: 0' write_exp "$T/repo"
db="$T/s.db"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --json "$T/r.json" >"$T/out" 2>"$T/err" &
pid=$!
done_count() { sqlite3 "$db" "select count(*) from samples where status = 1" 2>/dev/null || echo 0; }
for i in $(seq 1 600); do [ "$(done_count)" -ge 4 ] && break; sleep 0.02; done
start=$(done_count)
# two burners: with the sample's own process, more work than 2 CPUs
( while :; do :; done ) & b1=$!
( while :; do :; done ) & b2=$!
for i in $(seq 1 1000); do [ "$(done_count)" -ge $((start + 5)) ] && break; sleep 0.02; done
kill $b1 $b2
wait $b1 $b2 2>/dev/null
wait $pid
# samples start+1 .. start+3 (0-based seq) began after the burners started
# and ended before they stopped
for seq in $((start + 1)) $((start + 2)) $((start + 3)); do
	flags=$(sqlite3 "$db" "select flags from samples where seq = $seq")
	other=$(sqlite3 "$db" "select other_cpu_ns from samples where seq = $seq")
	case $flags in
	*contended*) ;;
	*) fail "sample $seq ran beside the competitor but is not flagged (flags '$flags', other CPU $other ns)" ;;
	esac
done
[ "$(jqv "$T/r.json" '.rows[0].flagged_samples')" -ge 3 ] || fail "the row's flagged count"
[ "$(jqv "$T/r.json" '.rules[2].outcome')" = inconclusive ] || fail "max_flagged_samples: 0 should refuse to decide"
assert_contains "$T/out" "more than max_flagged_samples 0"
echo ok
