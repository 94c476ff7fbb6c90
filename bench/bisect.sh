#!/bin/bash
# bisect.sh - time and pairs to a culprit: `abtool bisect` with fixed steps
# (every pair of the plan's maximum at each comparison) against sequential
# steps (the plan's looks, their alpha spent at the bisect's level, each
# stopping once decided), alternated repeat by repeat in the same run, each
# from a warm build cache with its own store (docs/history.md, "How a
# comparison decides"; docs/performance.md, "Bisect").
#
# Fixtures:
# - chain: a generated repository of 12 commits whose benchmark is a C loop
#   of ITER dependent multiply-adds (default 20,000,000); commit 7 makes
#   lanes=4 FACTOR times slower (default 2); rows lanes=1 and 4, --row
#   lanes=4, cpu_ns, threshold 40%, pairs: {min: 8, max: 64};
# - lz4 (with LZ4=path to a clone of https://github.com/lz4/lz4): the 19
#   first-parent commits c5a6e858..de6531b4, the lorem ipsum generator
#   `tests/datagen -g16M` (built with `make -C tests datagen`), cpu_ns,
#   threshold 30%, pairs: {min: 8, max: 64}; the culprit is 2a1de078
#   ("improved speed of lorem ipsum generator", about 1.8x).
#
# The table gives, per steps kind and repeat, the outcome and culprit, the
# comparisons, the pairs all steps used (the result's pairs_total) and the
# wall time of the bisect (bash's EPOCHREALTIME around the process, the
# builds cached by a first bisect), then the medians and the sequential
# steps' share of the fixed steps' time and pairs.
#
# Usage: bench/bisect.sh [REPEATS]   (default 3; ITER, FACTOR, LZ4 from the
# environment)
. "$(dirname "$0")/lib.sh"
need git cc make jq

REPEATS=${1:-3}
ITER=${ITER:-20000000}
FACTOR=${FACTOR:-2}
header

make_chain() {  # make_chain DIR
	local dir=$1 i f
	mkdir -p "$dir"
	git -C "$dir" init -q
	printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' >"$dir/Makefile"
	echo bench >"$dir/.gitignore"
	for i in $(seq 1 12); do
		f=1
		[ "$i" -ge 7 ] && f=$FACTOR
		cat >"$dir/bench.c" <<EOF2
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int lanes = atoi(argv[1]);
	double factor = lanes >= 4 ? $f : 1.0;
	unsigned long long n = (unsigned long long)($ITER * factor), x = 1, i;
	volatile unsigned long long sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	printf("checksum=%d\n", lanes * 31);
	return 0;
}
EOF2
		echo "commit $i" >"$dir/NOTES"
		git -C "$dir" add -A
		git -C "$dir" commit -qm "commit $i"
	done
	cat >"$dir/exp.yaml" <<'EOF2'
name: bisect-bench
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 4]}
metric: cpu_ns
pairs: {min: 8, max: 64}
warmup: 0
accept:
  - name: no regression
    no_regression: 40%
EOF2
}

# one KIND FIXTURE EXP GOOD BAD ARGS...: one bisect, its line of the table
one() {
	local kind=$1 name=$2 exp=$3 good=$4 bad=$5 t0 t1 out
	shift 5
	out="$B/$name-$kind-$RANDOM.json"
	t0=$EPOCHREALTIME
	"$ABTOOL" bisect "$exp" --good "$good" --bad "$bad" --steps "$kind" --store "$B/$name-$kind.db" \
		-q --json "$out" "$@" >/dev/null 2>"$B/err" || true
	t1=$EPOCHREALTIME
	[ -s "$out" ] || { cat "$B/err" >&2; echo "| $name | $kind | failed | | | | |"; return; }
	printf '| %s | %s | %s | %s | %s | %s | %.1f |\n' "$name" "$kind" "$(jq -r .outcome "$out")" \
		"$(jq -r '.culprit.subject // "-"' "$out" | cut -c1-40)" "$(jq -r .comparisons "$out")" \
		"$(jq -r .pairs_total "$out")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}

run_fixture() {  # run_fixture NAME EXP GOOD BAD ARGS...
	local name=$1 exp=$2 good=$3 bad=$4 r
	shift 4
	# a first bisect builds every tree the others reuse
	"$ABTOOL" bisect "$exp" --good "$good" --bad "$bad" --steps fixed --pairs 10 --store "$B/warm.db" \
		-q "$@" >/dev/null 2>&1 || true
	for r in $(seq 1 "$REPEATS"); do
		one fixed "$name" "$exp" "$good" "$bad" "$@" --seed "$r"
		one sequential "$name" "$exp" "$good" "$bad" "$@" --seed "$r"
	done
}

echo
echo "| fixture | steps | outcome | culprit | comparisons | pairs | wall s |"
echo "| --- | --- | --- | --- | ---: | ---: | ---: |"
make_chain "$B/chain"
run_fixture chain "$B/chain/exp.yaml" HEAD~11 HEAD --row lanes=4 --threshold 40% | tee "$B/table"
if [ -n "${LZ4:-}" ]; then
	git clone -q "$LZ4" "$B/lz4"
	git -C "$B/lz4" checkout -q de6531b4
	cat >"$B/lz4.yaml" <<EOF2
name: lz4-lorem
repo: lz4
build: make -C tests datagen
benchmark: tests/datagen -g16M -s1 > /dev/null
metric: cpu_ns
pairs: {min: 8, max: 64}
warmup: 0
accept:
  - name: faster
    faster_by: 30%
EOF2
	run_fixture lz4 "$B/lz4.yaml" c5a6e858 de6531b4 --threshold 30% | tee -a "$B/table"
fi
echo
for f in chain lz4; do
	for k in fixed sequential; do
		grep "^| $f | $k |" "$B/table" >"$B/rows" || continue
		printf '%s %s: median pairs %s, median wall %.1f s\n' "$f" "$k" \
			"$(awk -F'|' '{ print $7 }' "$B/rows" | median)" "$(awk -F'|' '{ print $8 }' "$B/rows" | median)"
	done
done
echo "load at the end: $(load_now)"
