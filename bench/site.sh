#!/bin/bash
# site.sh - `abtool site` over a store of 10,000 runs and about 1,000,000
# samples: the first build's time and size, its largest page, and the
# time of a rebuild after one new run, which renders that run only.
#
# The store is bench/store.sh's history store (its section 3), made the
# same way here: one real run of 50 pairs of /bin/true after a warmup
# pair (102 samples), then with sqlite3 500 designs, 1,000 experiment
# texts and 9,999 copies of the run with its rows, samples, builds and
# rule results (verdicts mixed: a fifth each rejected and accepted, the
# rest invalid and inconclusive). Each run's folder holds its HTML report
# and its samples, as `abtool report` renders them; the project pages are
# the front page, the designs (one page each), the rows (one page per
# experiment), the bisects, the regressions and their feed, the search.
#
# Targets (issue 36): no page over 2 MB; a rebuild after one new run in
# under 10 s. Peer: a rebuild with nothing new, in the same run.
#
# Usage: bench/site.sh [REPEATS]   (rebuilds timed, median; default 3)
. "$(dirname "$0")/lib.sh"
need sqlite3 git /usr/bin/time

REPEATS=${1:-3}
header

# -- the store of bench/store.sh, section 3 ------------------------------------
EXP_PAIRS=50 true_repo "$B/hist" "[/bin/true]"
rc=0
timed "$B/hist.total" "$ABTOOL" run "$B/hist/exp.yaml" --store "$B/history.db" --quiet || rc=$?
verdict_ok "$rc"
H="$B/history.db"
cols() {  # cols TABLE 'name=expr' ...: TABLE's columns, some replaced, as "names|exprs"
	local table=$1 names exprs=() name e
	shift
	names=$(sqlite3 "$H" "SELECT name FROM pragma_table_info('$table') ORDER BY cid")
	for name in $names; do
		e="t.$name"
		for kv in "$@"; do
			[ "${kv%%=*}" = "$name" ] && e="${kv#*=}"
		done
		exprs+=("$e")
	done
	echo "$(echo $names | tr ' ' ',')|$(IFS=,; echo "${exprs[*]}")"
}
sqlite3 "$H" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
	INSERT INTO designs(project, name, created_at) SELECT (SELECT project FROM designs WHERE id = 1),
	'design-' || i || CASE i % 10 WHEN 0 THEN '-batched-publication' WHEN 1 THEN '-lock-free-queue'
	WHEN 2 THEN '-arena-allocator' ELSE '-tuning' END, '2026-01-01T00:00:00Z' FROM n"
IFS='|' read -r ecols eexprs < <(cols experiments "id=NULL" "hash=lower(hex(randomblob(32)))" \
	"name='experiment-' || n.i" "design_id=(SELECT min(id) FROM designs) + 1 + n.i % 500" \
	"hypothesis=CASE n.i % 7 WHEN 0 THEN 'batching removes the alloc_lock convoy at ' || n.i || ' lanes' WHEN 1 THEN 'a lock-free queue halves p99 latency' ELSE 'tuning constant ' || n.i END" \
	"text=t.text || char(10) || '# variant ' || n.i")
sqlite3 "$H" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
	INSERT INTO experiments($ecols) SELECT $eexprs FROM experiments t, n WHERE t.id = 1"
IFS='|' read -r rcols rexprs < <(cols runs "id=NULL" "uuid=lower(hex(randomblob(16)))" \
	"experiment_id=(SELECT min(id) FROM experiments WHERE id > 1) + n.i % 1000" \
	"design_id=(SELECT design_id FROM experiments WHERE id = (SELECT min(id) FROM experiments WHERE id > 1) + n.i % 1000)" \
	"created_at=strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + n.i * 600, 'unixepoch')" \
	"status='finished'" "candidate_oid=lower(hex(randomblob(20)))" \
	"verdict=CASE n.i % 5 WHEN 0 THEN 'rejected' WHEN 1 THEN 'accepted' WHEN 2 THEN 'invalid' ELSE 'inconclusive' END")
sqlite3 "$H" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
	INSERT INTO runs($rcols) SELECT $rexprs FROM runs t, n WHERE t.id = 1"
for table in rows samples builds rule_results; do
	IFS='|' read -r c e < <(cols "$table" "run_id=r.id")
	sqlite3 "$H" "INSERT INTO $table($c) SELECT $e FROM $table t, runs r WHERE t.run_id = 1 AND r.id > 1"
done
sqlite3 "$H" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
echo
echo "store: $(sqlite3 "$H" "SELECT count(*) FROM runs") runs, $(sqlite3 "$H" "SELECT count(*) FROM samples") samples, $(( $(stat -c %s "$H") / 1048576 )) MiB"

# -- the first build -----------------------------------------------------------
S="$B/site"
t0=$(epoch_ns)
/usr/bin/time -f '%M' -o "$B/first.rss" "$ABTOOL" site "$S" --store "$H" > "$B/first.out" 2> "$B/first.err" ||
	{ cat "$B/first.err" >&2; exit 1; }
t1=$(epoch_ns)
first=$((t1 - t0))
files=$(find "$S" -type f | wc -l)
bytes=$(du -sb "$S" | cut -f1)
pages=$(du -sb "$S/p" | cut -f1)
read -r largest largest_name < <(find "$S" -type f -printf '%s %P\n' | sort -n | tail -n 1)
read -r lp lp_name < <(find "$S/p" -type f -printf '%s %P\n' | sort -n | tail -n 1)
grep -q "10000 runs (10000 rendered, 0 up to date)" "$B/first.out" || { cat "$B/first.out" >&2; exit 1; }

# -- rebuilds: nothing new, then one new run each time -------------------------
for r in $(seq 1 "$REPEATS"); do
	timed "$B/same.ns" "$ABTOOL" site "$S" --store "$H" || { cat "$B/last.err" >&2; exit 1; }
	grep -q "(0 rendered, " "$B/last.out" || { cat "$B/last.out" >&2; exit 1; }
	rc=0
	"$ABTOOL" run "$B/hist/exp.yaml" --store "$H" --quiet > /dev/null 2>&1 || rc=$?
	[ "$rc" -le 3 ] || { echo "$BENCH: the new run failed (exit $rc)" >&2; exit 1; }
	timed "$B/new.ns" "$ABTOOL" site "$S" --store "$H" || { cat "$B/last.err" >&2; exit 1; }
	grep -q "(1 rendered, " "$B/last.out" || { cat "$B/last.out" >&2; exit 1; }
done
same=$(median < "$B/same.ns")
new=$(median < "$B/new.ns")

echo
echo "| abtool site over 10,000 runs | figure | target |"
echo "| --- | --- | --- |"
echo "| first build (every run's report and samples rendered) | $(ns_to s "$first") s | bounded |"
echo "| its peak RSS | $(( $(cat "$B/first.rss") / 1024 )) MiB | - |"
echo "| files written | $files | - |"
echo "| size, all | $(( bytes / 1048576 )) MiB | bounded |"
echo "| size, the project pages (p/) | $(( pages / 1048576 )) MiB | - |"
echo "| largest file | $((largest / 1024)) KiB ($largest_name) | < 2048 KiB |"
echo "| largest project page | $((lp / 1024)) KiB ($lp_name) | < 2048 KiB |"
echo "| rebuild after one new run (1 rendered; median of $REPEATS) | $(ns_to s "$new") s | < 10 s |"
echo "| peer: rebuild with nothing new (median of $REPEATS) | $(ns_to s "$same") s | - |"
status=0
[ "$largest" -lt $((2 * 1048576)) ] || { echo "$BENCH: $largest_name is over 2 MB" >&2; status=1; }
[ "$new" -lt 10000000000 ] || { echo "$BENCH: the rebuild took 10 s or more" >&2; status=1; }
echo
echo "load after: $(load_now)"
exit $status
