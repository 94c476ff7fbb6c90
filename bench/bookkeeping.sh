#!/bin/bash
# bookkeeping.sh - abtool's own time in a run: the wall time of a whole
# `abtool run` minus its builds and its samples, as a fraction of the
# total and per sample.
#
#   total        wall time of the abtool process (bash's EPOCHREALTIME around it)
#   builds       duration_ns of the builds the run performed (cached ones cost nothing)
#   samples      the sum of wall_ns of every sample of the run, warmups included
#   bookkeeping  total - builds - samples: start-up, fingerprint, checkouts,
#                cache lookups, the plan, storing samples, statistics, reports
#
# Cases: `abtool demo` (writes its repository, builds both sides, 36 samples),
# the demo's experiment run again (builds cached), and /bin/true experiments
# of 2 rows x 250 pairs (1,000 samples) and 2 rows x 50 pairs (200 samples);
# the difference of the last two gives the cost of one more sample without
# the fixed start-up. The peer is hyperfine -N --runs 1000 /bin/true: its
# wall time minus the times it reports, per run.
# Targets: under 2% of the demo's wall time; under 1 ms per sample.
#
# Usage: bench/bookkeeping.sh [REPEATS]   (default 3; medians are reported)
. "$(dirname "$0")/lib.sh"
need sqlite3 jq cc make git hyperfine

REPEATS=${1:-3}
header

DB="$B/store.db"
EXP_PAIRS=250 true_repo "$B/k1000" '[/bin/true, "{n}"]' 'matrix: {n: [1, 2]}'
EXP_PAIRS=50 true_repo "$B/k200" '[/bin/true, "{n}"]' 'matrix: {n: [1, 2]}'

# account NAME: split the newest run of $DB, whose total is the last line
# of $B/NAME.total, into builds, samples and bookkeeping (one line each
# appended to $B/NAME.{builds,samples,book,n}).
account() {
	local run total builds samples n
	run=$(last_run "$DB")
	total=$(tail -n1 "$B/$1.total")
	builds=$(sqlite3 "$DB" "SELECT coalesce(sum(duration_ns), 0) FROM builds WHERE run_id = $run AND cached = 0")
	samples=$(sqlite3 "$DB" "SELECT coalesce(sum(wall_ns), 0) FROM samples WHERE run_id = $run AND status = 1")
	n=$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = $run AND status = 1")
	echo "$builds" >> "$B/$1.builds"
	echo "$samples" >> "$B/$1.samples"
	echo $((total - builds - samples)) >> "$B/$1.book"
	echo "$n" >> "$B/$1.n"
}

run_case() { # NAME CMD...
	local name=$1 rc=0
	shift
	timed "$B/$name.total" "$@" || rc=$?
	verdict_ok "$rc"
	account "$name"
}

for r in $(seq 1 "$REPEATS"); do
	rm -rf "$B/demo" "$B/cache"
	run_case demo "$ABTOOL" demo --dir "$B/demo" --store "$DB"
	run_case demo_cached "$ABTOOL" run "$B/demo/exp.yaml" --store "$DB" --quiet
	run_case k1000 "$ABTOOL" run "$B/k1000/exp.yaml" --store "$DB" --quiet
	run_case k200 "$ABTOOL" run "$B/k200/exp.yaml" --store "$DB" --quiet
	# the peer: hyperfine's own time around 1,000 runs
	timed "$B/hf.total" hyperfine -N --runs 1000 --style none --export-json "$B/hf.json" /bin/true
	jq '[.results[0].times[]] | add * 1e9 | floor' "$B/hf.json" >> "$B/hf.samples"
	echo $(( $(tail -n1 "$B/hf.total") - $(tail -n1 "$B/hf.samples") )) >> "$B/hf.book"
done

echo
echo "| case | samples | total | builds | samples' wall | bookkeeping | bookkeeping / total | per sample | target |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
row() { # NAME LABEL TARGET
	local t b s k n frac per met
	t=$(median < "$B/$1.total"); b=$(median < "$B/$1.builds"); s=$(median < "$B/$1.samples")
	k=$(median < "$B/$1.book"); n=$(median < "$B/$1.n")
	frac=$(awk -v k="$k" -v t="$t" 'BEGIN { printf "%.2f%%", 100 * k / t }')
	per=$(awk -v k="$k" -v n="$n" 'BEGIN { printf "%.3f ms", k / n / 1e6 }')
	case $3 in
	frac) met=$(awk -v k="$k" -v t="$t" 'BEGIN { print (k / t < 0.02 ? "< 2%: met" : "< 2%: not met") }') ;;
	per) met=$(awk -v k="$k" -v n="$n" 'BEGIN { print (k / n < 1e6 ? "< 1 ms/sample: met" : "< 1 ms/sample: not met") }') ;;
	*) met="-" ;;
	esac
	echo "| $2 | $n | $(ns_to ms "$t") ms | $(ns_to ms "$b") ms | $(ns_to ms "$s") ms | $(ns_to ms "$k") ms | $frac | $per | $met |"
}
row demo "abtool demo (cold cache)" frac
row demo_cached "demo experiment, builds cached" frac
row k1000 "/bin/true, 2 rows x 250 pairs" per
row k200 "/bin/true, 2 rows x 50 pairs" -
echo 1000 > "$B/hf.n1"
t=$(median < "$B/hf.total"); s=$(median < "$B/hf.samples"); k=$(median < "$B/hf.book")
echo "| peer: hyperfine -N --runs 1000 /bin/true | 1000 | $(ns_to ms "$t") ms | 0 | $(ns_to ms "$s") ms | $(ns_to ms "$k") ms | $(awk -v k="$k" -v t="$t" 'BEGIN { printf "%.2f%%", 100 * k / t }') | $(awk -v k="$k" 'BEGIN { printf "%.3f ms", k / 1000 / 1e6 }') | - |"

k1=$(median < "$B/k1000.book"); k2=$(median < "$B/k200.book")
slope=$(awk -v a="$k1" -v b="$k2" 'BEGIN { printf "%.1f", (a - b) / 800 / 1e3 }')
fixed=$(awk -v a="$k1" -v s="$slope" 'BEGIN { printf "%.1f", a / 1e6 - s * 1000 / 1e3 }')
hfper=$(awk -v k="$(median < "$B/hf.book")" 'BEGIN { printf "%.1f", k / 1000 / 1e3 }')
echo
echo "one more sample costs abtool ${slope} us of bookkeeping (1,000 vs 200 samples); fixed part ${fixed} ms"
echo "peer: hyperfine's own time per run ${hfper} us; ratio abtool/hyperfine per sample $(ratio "$slope" "$hfper" 2)"
echo "load after: $(load_now)"
