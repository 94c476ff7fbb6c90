# lib.sh - shared helpers of the benchmarks in bench/ (sourced, not run).
# Everything happens in a fresh temporary folder with its own build cache
# and store; nothing of the user's is read or written. Set KEEP=1 to keep
# the folder, ABTOOL=path to measure another binary.
set -eu
set -o pipefail

BENCH=$(basename "$0" .sh)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ABTOOL=${ABTOOL:-$ROOT/build/abtool}
[ -x "$ABTOOL" ] || { echo "$BENCH: no abtool at $ABTOOL; build it first (see README.md) or set ABTOOL" >&2; exit 1; }
ABTOOL=$(cd "$(dirname "$ABTOOL")" && pwd)/$(basename "$ABTOOL")

B=$(mktemp -d "${TMPDIR:-/tmp}/abtool-bench-$BENCH.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	echo "$BENCH: keeping $B" >&2
else
	trap 'rm -rf "$B"' EXIT
fi
export XDG_CACHE_HOME="$B/cache"
unset ABTOOL_STORE
export GIT_AUTHOR_NAME=abtool-bench GIT_AUTHOR_EMAIL=bench@abtool.invalid
export GIT_COMMITTER_NAME=abtool-bench GIT_COMMITTER_EMAIL=bench@abtool.invalid
export LC_ALL=C

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || { echo "$BENCH: needs '$t' (scripts/install-deps --bench)" >&2; exit 1; }
	done
}

# The load at the start, so a reader can judge the figures.
load_now() {
	cut -d' ' -f1-3 /proc/loadavg
}

header() {
	echo "# $BENCH ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(load_now), $("$ABTOOL" --version 2>/dev/null | head -n1 || echo abtool))"
}

# median: the median of the numbers on stdin, one per line.
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.17g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio A B [DIGITS]: A / B.
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b == 0) print "nan"; else printf "%.*f\n", d, a / b }'
}

# ns_to UNIT NS: nanoseconds as us, ms or s with 3 significant decimals.
ns_to() {
	awk -v u="$1" -v n="$2" 'BEGIN {
		d = u == "us" ? 1e3 : u == "ms" ? 1e6 : 1e9
		printf "%.3f\n", n / d }'
}

now_ns() {
	date +%s%N
}

# true_repo DIR BENCHMARK_YAML [EXTRA_YAML]: a git repository of two
# commits with nothing to build and an experiment file `exp.yaml` whose
# benchmark is BENCHMARK_YAML (argv form, e.g. "[/bin/true]").
true_repo() {
	local dir=$1
	mkdir -p "$dir"
	git -C "$dir" init -q
	echo "parent" > "$dir/side"
	git -C "$dir" add side
	git -C "$dir" commit -qm parent
	echo "candidate" > "$dir/side"
	git -C "$dir" commit -qam candidate
	cat > "$dir/exp.yaml" <<EOF2
name: ${EXP_NAME:-bench-$BENCH}
design: abtool-bench
benchmark: $2
pairs: ${EXP_PAIRS:-20}
warmup: ${EXP_WARMUP:-0}
${3:-}
EOF2
}

# samples_wall DB RUN: wall_ns of the finished non-warmup samples of RUN.
samples_wall() {
	sqlite3 "$1" "SELECT wall_ns FROM samples WHERE run_id = $2 AND status = 1 AND warmup = -1"
}

# last_run DB: the id of the newest run.
last_run() {
	sqlite3 "$1" "SELECT max(id) FROM runs"
}


# epoch_ns: the wall clock in ns, without starting a process (bash 5).
epoch_ns() {
	local t=${EPOCHREALTIME/[.,]/}
	echo "${t}000"
}

# timed FILE CMD...: run CMD (stdout and stderr to $B/last.out, .err),
# append its wall time in ns to FILE; returns CMD's exit code.
timed() {
	local file=$1 t0 t1 rc=0
	shift
	t0=$(epoch_ns)
	"$@" > "$B/last.out" 2> "$B/last.err" || rc=$?
	t1=$(epoch_ns)
	echo $((t1 - t0)) >> "$file"
	return $rc
}

# verdict_ok RC: abtool run's exit codes 0-3 are verdicts; others are errors.
verdict_ok() {
	if [ "$1" -gt 3 ]; then
		echo "$BENCH: abtool failed (exit $1):" >&2
		cat "$B/last.err" >&2
		exit 1
	fi
}
