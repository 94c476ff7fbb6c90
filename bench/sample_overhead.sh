#!/bin/bash
# sample_overhead.sh - the per-sample wall time abtool records, against
# `hyperfine -N` on the same command, alternated in one run.
#
# For /bin/true and for a ~1 ms C program (compiled here), each of ROUNDS
# rounds runs an abtool experiment of PAIRS pairs (2*PAIRS samples, both
# sides the same command, no build, warmup 0) and `hyperfine -N --runs
# 2*PAIRS`, in alternating order (abtool first in odd rounds, hyperfine
# first in even ones). abtool's figure is the wall_ns it stored for its
# samples; hyperfine's is the time of each run from --export-json. Both
# are pooled over the rounds; the table gives the medians and their
# ratio. Target: abtool within 1.10x of hyperfine -N.
#
# Usage: bench/sample_overhead.sh [ROUNDS [PAIRS]]   (default 20 40)
. "$(dirname "$0")/lib.sh"
need hyperfine sqlite3 jq cc git

ROUNDS=${1:-20}
PAIRS=${2:-40}
RUNS=$((2 * PAIRS))
header

cat > "$B/one_ms.c" <<'EOF2'
/* About 1 ms of dependent integer work after start-up. */
int main(void)
{
	volatile unsigned long long sink;
	unsigned long long x = 1, i;

	for (i = 0; i < 300000ULL; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	return 0;
}
EOF2
cc -O1 -o "$B/one_ms.bin" "$B/one_ms.c"

EXP_PAIRS=$PAIRS true_repo "$B/true" "[/bin/true]"
EXP_PAIRS=$PAIRS true_repo "$B/one_ms" "[$B/one_ms.bin]"
DB="$B/store.db"

run_abtool() { # NAME: one experiment; appends its samples' wall_ns
	local rc=0
	"$ABTOOL" run "$B/$1/exp.yaml" --store "$DB" --quiet > /dev/null 2> "$B/err" || rc=$?
	# 2 (inconclusive) is expected: both sides are the same command
	if [ "$rc" -gt 3 ]; then
		cat "$B/err" >&2
		exit 1
	fi
	samples_wall "$DB" "$(last_run "$DB")" >> "$B/$1.abtool"
}

run_hyperfine() { # NAME CMD: appends hyperfine's times in ns
	hyperfine -N --runs "$RUNS" --style none --export-json "$B/hf.json" "$2" > /dev/null 2>&1
	jq -r '.results[0].times[] | . * 1e9 | floor' "$B/hf.json" >> "$B/$1.hyperfine"
}

: > "$B/true.abtool"; : > "$B/true.hyperfine"; : > "$B/one_ms.abtool"; : > "$B/one_ms.hyperfine"
for r in $(seq 1 "$ROUNDS"); do
	for name in true one_ms; do
		if [ "$name" = true ]; then cmd=/bin/true; else cmd=$B/one_ms.bin; fi
		if [ $((r % 2)) = 1 ]; then
			run_abtool "$name"; run_hyperfine "$name" "$cmd"
		else
			run_hyperfine "$name" "$cmd"; run_abtool "$name"
		fi
	done
done

echo
echo "| command | samples each | abtool median | hyperfine -N median | ratio abtool/hyperfine | target |"
echo "| --- | --- | --- | --- | --- | --- |"
for name in true one_ms; do
	a=$(median < "$B/$name.abtool")
	h=$(median < "$B/$name.hyperfine")
	n=$(wc -l < "$B/$name.abtool")
	x=$(ratio "$a" "$h" 3)
	label=$([ "$name" = true ] && echo /bin/true || echo "1 ms C program")
	met=$(awk -v x="$x" 'BEGIN { print (x <= 1.10 ? "met" : "not met") }')
	echo "| $label | $n | $(ns_to us "$a") us | $(ns_to us "$h") us | $x | <= 1.10: $met |"
done
echo
echo "load after: $(load_now)"
