# The noise lab's harness end to end (bench/noise/lab; docs/performance.md,
# "The noise lab"), on one load with a handful of short runs: it makes its
# fixture repository, calibrates, starts and stops its neighbours, runs
# abtool, writes results.tsv and table.md, and leaves no process of its
# own; a second invocation resumes (nothing left to do); one stopped by
# SIGTERM in the middle of a cell stops its neighbours (bursts: workers
# that may be stopped by SIGSTOP) and its abtool run. Nothing is asserted
# about timings or verdicts: this runs on busy machines too.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || fail "needs python3"
LAB="$ABTOOL_TEST_SRC/bench/noise/lab"

# A variant of the test's own: a short fixed plan (the harness is under
# test, not the statistics), merged into the lab's experiment file.
cat >"$T/variants.yaml" <<'EOF2'
# the smoke test's plan
smoke:
  description: 6 pairs, no warmup
  yaml: |
    pairs: 6
    warmup: 0
  args: []
EOF2
common=(--modes wall --variants smoke --variants-file "$T/variants.yaml"
	--fixtures aa,fast2x,slow10 --work 200000 --calibration-pairs 2,6 --out "$T/lab")

# leftovers TOKEN: the processes whose environment carries the lab's token
# (every process the lab starts inherits it)
leftovers() {
	grep -l -s -z -x "ABTOOL_NOISE_LAB=$1" /proc/[0-9]*/environ | cut -d/ -f3 || true
}
no_leftovers() {
	local left
	left=$(leftovers "$1")
	[ -z "$left" ] || fail "processes of the lab left: $(ps -o pid=,stat=,args= -p "$(echo $left | tr ' ' ,)")"
}

# 1. end to end on cpu1: 3 A/A runs and one of each effect
expect_exit 0 python3 "$LAB" --loads cpu1 "${common[@]}" --seed 7 --runs 3 --effect-runs 1 \
	--events "$T/events1"
tok=$(awk '$1 == "start" { print $3 }' "$T/events1")
[ -n "$tok" ] || fail "no start event in $T/events1"
no_leftovers "$tok"
assert_contains "$T/events1" "neighbours-up cpu1 "
assert_contains "$T/events1" "neighbours-down cpu1"
assert_contains "$T/events1" "exit 0 clean"
assert_contains "$T/err" "no process of the lab is left"
assert_contains "$T/err" "budget, from the quiet-host calibration:"
assert_contains "$T/err" "total: "
[ "$(grep -c '^run cpu1 wall smoke ' "$T/events1")" -eq 5 ] || fail "not 5 runs"
tsv="$T/lab/results.tsv"
[ "$(head -n1 "$tsv" | cut -f1-7)" = "$(printf 'load\tmode\tvariant\tfixture\tindex\tseed\tverdict')" ] \
	|| fail "results.tsv header: $(head -n1 "$tsv")"
[ "$(tail -n +2 "$tsv" | wc -l)" -eq 5 ] || fail "results.tsv: $(cat "$tsv")"
awk -F'\t' 'NR > 1 && ($7 !~ /^(accepted|rejected|inconclusive|invalid)$/ || $12 != 6 || $20 !~ /^[0-9.]+$/) {
	print "bad line " NR ": " $0; bad = 1 } END { exit bad }' "$tsv" || fail "results.tsv lines"
[ "$(cut -f4 "$tsv" | sort | uniq -c | awk '{ printf "%s%s:%s", s, $2, $1; s = " " }')" = \
	"aa:3 fast2x:1 fixture:1 slow10:1" ] || fail "fixtures in results.tsv: $(cut -f4 "$tsv" | sort | uniq -c)"
assert_contains "$T/lab/table.md" "| cpu1 | wall | smoke |"
assert_contains "$T/out" "| cpu1 | wall | smoke |"
# the experiment abtool ran is the lab's with the variant merged in
assert_contains "$T/lab/exp/wall--smoke.yaml" "pairs: 6"
assert_not_contains "$T/lab/exp/wall--smoke.yaml" "pairs: {min"
assert_contains "$T/lab/exp/wall--smoke.yaml" "max_ratio: 1.0"

# 2. the same again: everything is done, nothing runs, the table stays
expect_exit 0 python3 "$LAB" --loads cpu1 "${common[@]}" --seed 7 --runs 3 --effect-runs 1
assert_contains "$T/err" "0 runs to do (5 done before)"
assert_contains "$T/err" "done before"
[ "$(tail -n +2 "$tsv" | wc -l)" -eq 5 ] || fail "a resumed lab ran again"
expect_exit 0 python3 "$LAB" table --out "$T/lab" --md "$T/table.md"
assert_contains "$T/table.md" "| cpu1 | wall | smoke | "
assert_contains "$T/table.md" "5 runs in 1 cells"

# 3. SIGTERM in the middle of a cell of on/off bursts: the lab stops its
# neighbours and its abtool run, and nothing of it is left. The test waits
# on the lab's events through a FIFO.
mkfifo "$T/events3"
exec 3<>"$T/events3"
python3 "$LAB" --loads bursts "${common[@]}" --seed 8 --runs 20 --effect-runs 0 \
	--events "$T/events3" >"$T/out3" 2>"$T/err3" &
lab=$!
tok=""
while read -r -t 120 ev a b <&3; do
	case $ev in
	start) tok=$b ;;
	run) break ;;             # neighbours up, one run done, the next one started
	exit) fail "the lab ended before its first run: $(cat "$T/err3")" ;;
	esac
done
[ -n "$tok" ] || fail "no start event from the lab: $(cat "$T/err3")"
[ -n "$(leftovers "$tok")" ] || fail "no process of the lab found while it runs"
kill -TERM "$lab"
rc=0
wait "$lab" || rc=$?
[ "$rc" -eq 143 ] || fail "a lab stopped by SIGTERM exits $rc, not 143: $(tail -n 5 "$T/err3")"
last=""
while read -r -t 30 line <&3; do
	last=$line
	case $line in exit*) break ;; esac
done
[ "$last" = "exit 143 clean" ] || fail "last event '$last'"
no_leftovers "$tok"
assert_contains "$T/err3" "interrupted by SIGTERM; stopping every process it started"
# what ran is kept, and a later invocation would resume after it
[ "$(grep -c "^bursts	" "$tsv")" -ge 1 ] || fail "the bursts cell's first run is not in results.tsv"
echo ok
