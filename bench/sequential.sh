#!/bin/bash
# sequential.sh - time to a decided verdict: a sequential plan
# (`pairs: {min: 8, max: 64}`, looks 8, 16, 32, 64, default spending)
# against a fixed plan of the pairs calibrate says the same margin needs,
# both measured in the same run, alternated repeat by repeat.
#
# Fixtures: three generated repositories whose benchmark is a C loop of
# ITER dependent multiply-adds (default 10,000,000, about 10 ms), the
# candidate doing 1/2, 0.9 and 0.97 of the parent's iterations: effects of
# about 2x, 10% and 3%. Each has one rule, a margin the effect clears
# (faster_by 10%, 3% and 1%). One `abtool calibrate` of the parent (A/A,
# CAL_PAIRS pairs, default 48: six blocks of 8) with all three rules gives
# this machine's spread of log ratios and, per margin, the fixed pairs
# needed for 80% power (calibration.rows[0].pairs_needed[].pairs, at the
# margin's expected ratio; docs/statistics.md, "Calibration") and the
# sequential plan calibrate itself recommends (printed for reference).
# The fixed plan of a fixture is `pairs: N` with that N (at least 5, at
# most FIXED_MAX, default 256).
#
# Per fixture and repeat, both plans run from a warm build cache (one run
# of one pair first builds both trees) with their own store, and the table
# gives the verdicts, the pairs the row used (the report's rows[0].pairs:
# for a sequential plan the pairs up to the look it stopped at,
# rows[0].look) and the wall time of `abtool run` (bash's EPOCHREALTIME
# around the process, builds cached, so mostly samples), medians over the
# repeats, and the sequential plan's share of the fixed plan's time.
# "decided" is accepted or rejected; inconclusive is not.
#
# Needs an abtool that reads `pairs: {min, max}` (the sequential plans of
# docs/experiment-file.md); with an older one it says so and exits 2.
#
# Usage: bench/sequential.sh [REPEATS]   (default 3; ITER, CAL_PAIRS,
# FIXED_MAX and SEQ_PLAN, the sequential plan's `pairs:` value, default
# "{min: 8, max: 64}", from the environment)
. "$(dirname "$0")/lib.sh"
need git cc make jq

REPEATS=${1:-3}
ITER=${ITER:-10000000}
CAL_PAIRS=${CAL_PAIRS:-48}
FIXED_MAX=${FIXED_MAX:-256}
SEQ_PLAN=${SEQ_PLAN:-"{min: 8, max: 64}"}
header

# fixture: name, candidate's share of the iterations (per mille), rule
# name, faster_by margin
FIXTURES="2x:500:gain-10:10% 10pct:900:gain-3:3% 3pct:970:gain-1:1%"

bench_c() {
	cat <<EOF2
#include <stdio.h>
int main(void)
{
	unsigned long long x = 1, i;
	for (i = 0; i < ${1}ULL; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("%llx\n", x);
	return 0;
}
EOF2
}

# make_fixture DIR PERMILLE: parent ITER iterations, candidate ITER *
# PERMILLE / 1000.
make_fixture() {
	local dir=$1
	mkdir -p "$dir"
	git -C "$dir" init -q
	bench_c "$ITER" > "$dir/bench.c"
	printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$dir/Makefile"
	echo bench > "$dir/.gitignore"
	git -C "$dir" add -A
	git -C "$dir" commit -qm parent
	bench_c $((ITER * $2 / 1000)) > "$dir/bench.c"
	git -C "$dir" commit -qam candidate
}

# write_exp FILE PAIRS_YAML RULES_YAML
write_exp() {
	cat > "$1" <<EOF2
name: bench-sequential
design: abtool-bench
build: make
artifacts: [bench]
benchmark: ./bench
pairs: $2
warmup: 1
accept:
$3
EOF2
}

rule_yaml() {
	printf '  - name: %s\n    faster_by: %s\n' "$1" "$2"
}

all_rules=""
for f in $FIXTURES; do
	IFS=: read -r name permille rule margin <<< "$f"
	make_fixture "$B/$name" "$permille"
	all_rules="$all_rules$(rule_yaml "$rule" "$margin")"$'\n'
done

# Does this abtool read the sequential plan?
write_exp "$B/2x/probe.yaml" "$SEQ_PLAN" "$(rule_yaml probe 10%)"
if ! "$ABTOOL" check "$B/2x/probe.yaml" --store "$B/probe.db" > "$B/probe.out" 2>&1; then
	echo "$BENCH: this abtool does not read 'pairs: $SEQ_PLAN':" >&2
	sed 's/^/  /' "$B/probe.out" >&2
	exit 2
fi

# The machine's spread, and the fixed pairs each margin needs.
write_exp "$B/3pct/cal.yaml" 8 "$all_rules"
t0=$(epoch_ns)
"$ABTOOL" calibrate "$B/3pct/cal.yaml" --pairs "$CAL_PAIRS" --seed 1 --json "$B/cal.json" \
	--store "$B/cal.db" > "$B/cal.out" 2> "$B/cal.err" || {
	echo "$BENCH: abtool calibrate failed:" >&2
	cat "$B/cal.err" >&2
	exit 1
}
t1=$(epoch_ns)
echo
echo "calibration: $CAL_PAIRS A/A pairs in $(ns_to s $((t1 - t0))) s, spread of log ratios" \
	"$(jq -r '.calibration.rows[0].spread * 100 | . * 100 | round / 100' "$B/cal.json")%"
grep -F "sequential: " "$B/cal.err" | sed 's/^abtool: /  /' || true

echo
echo "| effect | rule | plan | verdicts | pairs used (median; range) | looks stopped at | wall time (median) | sequential / fixed |"
echo "| --- | --- | --- | --- | ---: | --- | ---: | ---: |"
for f in $FIXTURES; do
	IFS=: read -r name permille rule margin <<< "$f"
	dir="$B/$name"
	fixed=$(jq -r --arg r "$rule" '.calibration.rows[0].pairs_needed[] | select(.rule == $r) | .pairs' \
		"$B/cal.json")
	[ -n "$fixed" ] || { echo "$BENCH: no pairs_needed for rule $rule" >&2; exit 1; }
	[ "$fixed" -lt 5 ] && fixed=5
	capped=""
	if [ "$fixed" -gt "$FIXED_MAX" ]; then
		capped=" (needs $fixed; capped)"
		fixed=$FIXED_MAX
	fi
	write_exp "$dir/fixed.yaml" "$fixed" "$(rule_yaml "$rule" "$margin")"
	write_exp "$dir/seq.yaml" "$SEQ_PLAN" "$(rule_yaml "$rule" "$margin")"
	# warm the build cache: both trees built once, outside the timings
	"$ABTOOL" run "$dir/fixed.yaml" --pairs 1 --quiet --store "$B/warm.db" > /dev/null 2>&1 || true
	for i in $(seq 1 "$REPEATS"); do
		order="fixed seq"
		[ $((i % 2)) = 0 ] && order="seq fixed"
		for plan in $order; do
			rc=0
			timed "$B/$name.$plan.ns" "$ABTOOL" run "$dir/$plan.yaml" --seed "$i" --quiet \
				--store "$B/$name.$plan.db" --json "$B/$name.$plan.$i.json" || rc=$?
			verdict_ok "$rc"
			jq -r '[.verdict, (.rows[0].pairs | tostring), (.rows[0].look // "-" | tostring)] | join(" ")' \
				"$B/$name.$plan.$i.json" >> "$B/$name.$plan.rows"
		done
	done
	for plan in fixed seq; do
		rows="$B/$name.$plan.rows"
		verdicts=$(cut -d' ' -f1 "$rows" | sort | uniq -c | awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }')
		pairs_med=$(cut -d' ' -f2 "$rows" | median)
		pairs_rng="$(cut -d' ' -f2 "$rows" | sort -n | head -n1)–$(cut -d' ' -f2 "$rows" | sort -n | tail -n1)"
		looks=$(cut -d' ' -f3 "$rows" | paste -sd, -)
		wall=$(median < "$B/$name.$plan.ns")
		if [ "$plan" = fixed ]; then
			label="pairs: $fixed$capped"
			fixed_wall=$wall
			share=""
		else
			label="pairs: $SEQ_PLAN"
			share=$(ratio "$wall" "$fixed_wall")
		fi
		echo "| ${name/pct/%} | faster_by $margin | $label | $verdicts | $pairs_med; $pairs_rng | $looks |" \
			"$(ns_to s "$wall") s | $share |"
	done
done
echo
echo "load at the end: $(load_now)"
