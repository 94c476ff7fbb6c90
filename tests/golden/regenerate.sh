#!/bin/bash
# regenerate.sh [--outputs-only] ABTOOL - make the golden fixture again:
# one real run of a small experiment (interrupted once and resumed, so that
# the store holds superseded samples), frozen as tests/golden/store.db, and
# the reports `abtool report 1` renders from it as the expected outputs.
# With --outputs-only the store is kept and only the expected outputs are
# rendered again (a renderer changed, the data did not). Run it only when
# a report changes on purpose, and review the diff of every expected file
# before committing (see README).
set -eu

outputs_only=0
if [ "${1:-}" = --outputs-only ]; then
	outputs_only=1
	shift
fi
[ $# = 1 ] || { echo "usage: regenerate.sh [--outputs-only] ABTOOL" >&2; exit 64; }
ABTOOL=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
LIB="$HERE/../cli/lib.sh"
WORK=$(mktemp -d /tmp/abtool-golden-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

render() {
	local fmt name
	for fmt in md json tsv html; do
		name=report.$fmt
		[ "$fmt" = tsv ] && name=samples.tsv
		cp "$HERE/store.db" "$WORK/copy.db"
		"$ABTOOL" report 1 --store "$WORK/copy.db" --format "$fmt" -o "$HERE/$name"
		rm -f "$WORK/copy.db" "$WORK/copy.db-wal" "$WORK/copy.db-shm"
	done
	echo "regenerate.sh: wrote report.md, report.json, samples.tsv, report.html in $HERE" >&2
}
if [ "$outputs_only" = 1 ]; then
	render
	exit 0
fi
export XDG_CACHE_HOME="$WORK/cache" GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
unset ABTOOL_STORE

# make_repo from the end-to-end cases: bench.c with a parent doing 120
# million multiply-adds per run and a candidate doing 70 million.
ABTOOL_TEST_TMP="$WORK/t" . "$LIB"
make_repo "$WORK/repo" 120 70
git -C "$WORK/repo" commit --amend -qm 'candidate: fewer <steps> & "quoted" subject'
# Two parameters, one of them a string with a backslash, a space and
# markup, so that every renderer's escaping is in the fixture; scaling
# per lane; a benchmark metric that is higher-is-better; every predicate.
cat >"$WORK/repo/exp.yaml" <<'EOF'
name: golden-fixture
design: fewer-steps
hypothesis: 'doing 70 instead of 120 million steps is faster by about 40% & keeps <the> result'
build: make
artifacts: [bench]
benchmark: [./bench, '{lanes}', '{mode}']
checksum: {regex: 'checksum=(\S+)'}
matrix: {mode: [plain, 'odd\value <&>'], lanes: [1, 2]}
scaling: {parameter: lanes, work: per_lane}
metrics:
  lanes_seen: {regex: 'lanes=(\d+)', unit: lanes, better: higher}
pairs: 6
warmup: 1
timeout: 60s
accept:
  - name: no regression
    no_regression: 2%
  - name: material gain at 2 lanes
    where: {lanes: 2}
    faster_by: 10%
    min_pair_wins: 5
  - name: steady
    where: {mode: plain}
    min_pair_wins: 80%
    max_rsd: 20%
    max_ci_width: 30%
  - name: same lanes
    metric: lanes_seen
    slower_by: 1%
EOF
db="$WORK/repo/.git/abtool/abtool.db"

# Interrupt the run while the second sample of a pair runs (an odd number
# of samples done), so that resume supersedes a half-finished pair: SIGINT
# as soon as the run's --verbose line of its 9th sample (one per sample, on
# stderr, read through a FIFO as it comes) says it is done, while the 10th
# (over 100 ms of work) runs. No clock, no second attempt: if it missed,
# say so.
mkfifo "$WORK/err.fifo"
"$ABTOOL" run "$WORK/repo/exp.yaml" --seed 20260101 --verbose >/dev/null 2>"$WORK/err.fifo" &
pid=$!
n=0
while IFS= read -r line; do
	printf '%s\n' "$line" >>"$WORK/err"
	case $line in
	*" checksum "*)
		n=$((n + 1))
		if [ "$n" = 9 ]; then kill -INT "$pid"; fi
		;;
	esac
done <"$WORK/err.fifo"
wait "$pid" || true
"$ABTOOL" resume 1 --store "$db" --quiet >/dev/null 2>>"$WORK/err" || true
[ "$(sqlite3 "$db" "select count(*) from samples where status = 2")" -gt 0 ] &&
	[ "$(sqlite3 "$db" "select status from runs where id = 1")" = finished ] || {
	cat "$WORK/err" >&2
	echo "regenerate.sh: the interrupt missed the half-finished pair (the 10th sample ended first); run it again" >&2
	exit 1
}

# One self-contained file: fold the WAL in and leave WAL mode.
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;" >/dev/null
cp "$db" "$HERE/store.db"
render
