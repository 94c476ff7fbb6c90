#!/bin/bash
# store.sh - the sqlite store: samples written per second, bytes per
# sample, and history queries over a store of 10,000 runs.
#
# 1. Writes. bench/src/store_writes.c calls ab_store_sample_put in a loop,
#    exactly as a run stores its samples (one transaction per sample, WAL,
#    synchronous=NORMAL), with no process run in between; built here
#    against the layer libraries build/libabtool_*.a. Peer: the sqlite3 command-line tool
#    running the same UPDATE per sample, autocommit, same pragmas, on a
#    copy of the same store. Also the rate of a whole `abtool run` of
#    1,000 /bin/true samples, processes included, for scale.
# 2. Size. The store file of a 1,000-sample run minus that of a 200-sample
#    run (stores of their own, closed, WAL checkpointed), per sample.
# 3. History. A store of 10,000 runs and about 1,000,000 samples, generated with sqlite3 straight into
#    the schema of this build (copies of one real 40-sample run's rows:
#    runs, rows, samples, builds, rule_results; 500 designs, 1,000
#    experiment texts, verdicts mixed), then `abtool history` (the newest
#    50), `abtool history --rev HEX`, `abtool history --grep WORD` and `abtool designs
#    --rejected` timed with hyperfine when this build has them (or the
#    build at $ABTOOL_HISTORY); peer: the equivalent sqlite3 query (a
#    LIKE scan; the newest 50, as many as `history` lists by default).
#
# 4. PostgreSQL. A throwaway server (tests/pg/pg-server: initdb in the
#    bench folder, a Unix socket): the write loop of 1. into a PostgreSQL
#    store (peer: psql running the same UPDATEs, autocommit, on the same
#    socket), and the history store of 3. copied there (its template run
#    with `abtool sync`, then the same 10,000 runs and 1,000,000 samples
#    generated in SQL), with the same four queries timed beside sqlite's
#    (peer: psql running the equivalent query).
#
# Usage: bench/store.sh [N]   (samples for the write loop; default 10000)
. "$(dirname "$0")/lib.sh"
need sqlite3 cc pkg-config git hyperfine psql

N=${1:-10000}
BUILD=$(dirname "$ABTOOL")
. "$ROOT/bench/layers.sh"
header
[ -f "$BUILD/libabtool_util.a" ] || { echo "$BENCH: no $BUILD/libabtool_util.a (build abtool first)" >&2; exit 1; }

# -- 1. writes --------------------------------------------------------------
cc -O2 $(abtool_layer_flags -I) -o "$B/store_writes" "$ROOT/bench/src/store_writes.c" \
	$(abtool_layer_flags -l "$BUILD") $(pkg-config --libs libgit2 sqlite3 jansson yaml-0.1 libpcre2-8 libcrypto zlib libpq) \
	-lcsv -lm
awk -v n="$N" 'BEGIN {
	print "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
	for (i = 0; i < n; i++) {
		w = 400000 + (i * 7919 % 100000)
		printf "UPDATE samples SET status = 1, started_at = %d, wall_ns = %d, user_ns = 300000, " \
		       "sys_ns = 0, maxrss_bytes = 1015808, minflt = 73, majflt = 0, nvcsw = 1, nivcsw = 0, " \
		       "exit_code = 0, signal = 0, timed_out = 0, flags = NULL, checksum = NULL, metrics = " \
		       "'\''{\"wall_ns\":%d.0,\"user_ns\":300000.0,\"sys_ns\":0.0,\"cpu_ns\":300000.0," \
		       "\"maxrss_bytes\":1015808.0}'\'', error = NULL, stdout = NULL, stderr = NULL " \
		       "WHERE run_id = 1 AND seq = %d;\n", 1796020000 + i, w, w, i
	}
}' > "$B/updates.sql"
for r in 1 2 3; do
	rm -f "$B"/w.db* "$B"/p.db*
	"$B/store_writes" plan "$B/w.db" "$N"
	cp "$B/w.db" "$B/p.db"
	if [ $((r % 2)) = 1 ]; then
		"$B/store_writes" put "$B/w.db" "$N" | sed 's/.*samples_per_second=//' >> "$B/abtool.rate"
	fi
	t0=$(epoch_ns)
	sqlite3 "$B/p.db" < "$B/updates.sql" > /dev/null
	t1=$(epoch_ns)
	echo $((N * 1000000000 / (t1 - t0))) >> "$B/sqlite.rate"
	if [ $((r % 2)) = 0 ]; then
		"$B/store_writes" put "$B/w.db" "$N" | sed 's/.*samples_per_second=//' >> "$B/abtool.rate"
	fi
done
[ "$(sqlite3 "$B/p.db" "SELECT count(*) FROM samples WHERE status = 1")" = "$N" ] || { echo "$BENCH: the sqlite3 peer did not store $N samples" >&2; exit 1; }
a=$(median < "$B/abtool.rate"); s=$(median < "$B/sqlite.rate")

# a real run, processes included
EXP_PAIRS=250 true_repo "$B/k1000" '[/bin/true, "{n}"]' 'matrix: {n: [1, 2]}'
EXP_PAIRS=50 true_repo "$B/k200" '[/bin/true, "{n}"]' 'matrix: {n: [1, 2]}'
rc=0
timed "$B/k1000.total" "$ABTOOL" run "$B/k1000/exp.yaml" --store "$B/k1000.db" --quiet || rc=$?
verdict_ok "$rc"
rc=0
timed "$B/k200.total" "$ABTOOL" run "$B/k200/exp.yaml" --store "$B/k200.db" --quiet || rc=$?
verdict_ok "$rc"
run_rate=$(awk -v t="$(cat "$B/k1000.total")" 'BEGIN { printf "%.0f", 1000 / (t / 1e9) }')

echo
echo "| writes | samples/s | ratio to sqlite3 CLI |"
echo "| --- | --- | --- |"
echo "| ab_store_sample_put loop ($N samples, median of 3) | $a | $(ratio "$a" "$s" 2) |"
echo "| peer: sqlite3 CLI, same UPDATEs, autocommit, WAL, synchronous=NORMAL | $s | 1.00 |"
echo "| whole \`abtool run\`, 1,000 /bin/true samples (processes, plan, report) | $run_rate | - |"

# -- 2. size ----------------------------------------------------------------
s1000=$(stat -c %s "$B/k1000.db"); s200=$(stat -c %s "$B/k200.db")
[ -e "$B/k1000.db-wal" ] && s1000=$((s1000 + $(stat -c %s "$B/k1000.db-wal")))
[ -e "$B/k200.db-wal" ] && s200=$((s200 + $(stat -c %s "$B/k200.db-wal")))
sw=$(stat -c %s "$B/w.db")
echo
echo "| size | bytes |"
echo "| --- | --- |"
echo "| store after one 1,000-sample run | $s1000 |"
echo "| store after one 200-sample run | $s200 |"
echo "| per sample, (1,000-run - 200-run) / 800 | $(( (s1000 - s200) / 800 )) |"
echo "| per sample, write loop store / $N | $((sw / N)) |"

# -- 3. history over 10,000 runs ---------------------------------------------
# the template run: 50 pairs of one row after a warmup pair, 102 samples,
# so that 10,000 runs hold about 1,000,000 samples
EXP_PAIRS=50 true_repo "$B/hist" "[/bin/true]"
rc=0
timed "$B/hist.total" "$ABTOOL" run "$B/hist/exp.yaml" --store "$B/history.db" --quiet || rc=$?
verdict_ok "$rc"
H="$B/history.db"
# The columns of TABLE with some replaced: cols TABLE 'name=expr' ...
cols() {
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
t0=$(epoch_ns)
sqlite3 "$H" <<EOF2
PRAGMA foreign_keys=ON;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
INSERT INTO designs(project, name, created_at)
SELECT (SELECT project FROM designs WHERE id = 1), 'design-' || i || CASE i % 10 WHEN 0 THEN '-batched-publication' WHEN 1 THEN '-lock-free-queue'
  WHEN 2 THEN '-arena-allocator' ELSE '-tuning' END, '2026-01-01T00:00:00Z' FROM n;
COMMIT;
EOF2
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
t1=$(epoch_ns)
echo
echo "history store: $(sqlite3 "$H" "SELECT count(*) FROM runs") runs, $(sqlite3 "$H" "SELECT count(*) FROM samples") samples, $(( $(stat -c %s "$H") / 1048576 )) MiB, generated in $(ns_to s $((t1 - t0))) s"

peer_grep="SELECT r.id, r.created_at, d.name, r.verdict FROM runs r JOIN designs d ON d.id = r.design_id JOIN experiments e ON e.id = r.experiment_id WHERE d.name LIKE '%batch%' OR e.hypothesis LIKE '%batch%' OR e.name LIKE '%batch%' OR r.reasons LIKE '%batch%' ORDER BY r.id DESC LIMIT 50"
peer_rejected="SELECT d.name, count(*), max(r.created_at) FROM runs r JOIN designs d ON d.id = r.design_id WHERE r.verdict = 'rejected' GROUP BY d.id ORDER BY max(r.created_at) DESC"
echo
echo "| query over 10,000 runs | abtool | peer: sqlite3 CLI | ratio |"
echo "| --- | --- | --- | --- |"
HA=${ABTOOL_HISTORY:-$ABTOOL}
query_row() { # LABEL SUBCOMMAND-ARGS PEER-SQL
	local label=$1 args=$2 sql=$3 a p
	hyperfine -N --warmup 1 --runs 10 --style none --export-json "$B/q.json" \
		"sqlite3 $H \"$sql\"" > /dev/null 2>&1 || true
	p=$(jq '.results[0].median * 1e9 | floor' "$B/q.json")
	if "$HA" ${args%% *} --help > /dev/null 2>&1; then
		hyperfine -N --warmup 1 --runs 10 --style none --export-json "$B/q.json" \
			"$HA $args --store $H" > /dev/null 2>&1
		a=$(jq '.results[0].median * 1e9 | floor' "$B/q.json")
		echo "| \`abtool $args\` | $(ns_to ms "$a") ms | $(ns_to ms "$p") ms | $(ratio "$a" "$p" 2) |"
	else
		echo "| \`abtool $args\` | not available in this build | $(ns_to ms "$p") ms | - |"
	fi
}
rev=$(sqlite3 "$H" "SELECT substr(candidate_oid, 1, 8) FROM runs WHERE id = 5000")
peer_plain="SELECT r.id, r.created_at, d.name, e.name, r.parent_oid, r.candidate_oid, r.verdict, r.reasons FROM runs r JOIN designs d ON d.id = r.design_id JOIN experiments e ON e.id = r.experiment_id ORDER BY r.id DESC LIMIT 50"
peer_rev="SELECT r.id, r.created_at, d.name, r.verdict FROM runs r JOIN designs d ON d.id = r.design_id WHERE r.parent_oid LIKE '$rev%' OR r.candidate_oid LIKE '$rev%' ORDER BY r.id DESC LIMIT 50"
query_row "history" "history" "$peer_plain"
query_row "history" "history --rev $rev" "$peer_rev"
query_row "history" "history --grep batch" "$peer_grep"
query_row "designs" "designs --rejected" "$peer_rejected"

# -- 4. PostgreSQL ------------------------------------------------------------
PGS="$B/pg"
chmod 755 "$B"  # under root the server runs as the user postgres, who must reach $B/pg
"$ROOT/tests/pg/pg-server" start "$PGS" || { echo "$BENCH: no PostgreSQL server" >&2; exit 1; }
if [ "${KEEP:-0}" = 1 ]; then
	trap '"$ROOT/tests/pg/pg-server" stop "$PGS"' EXIT
else
	trap '"$ROOT/tests/pg/pg-server" stop "$PGS"; rm -rf "$B"' EXIT
fi
W=$("$ROOT/tests/pg/pg-server" url "$PGS" writes 2>/dev/null)
P=$("$ROOT/tests/pg/pg-server" url "$PGS" peer 2>/dev/null)
for r in 1 2 3; do
	psql -X -q "$W" -c "SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public" > /dev/null
	psql -X -q "$P" -c "SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public" > /dev/null
	"$B/store_writes" plan "$W" "$N"
	"$B/store_writes" plan "$P" "$N"
	if [ $((r % 2)) = 1 ]; then
		"$B/store_writes" put "$W" "$N" | sed 's/.*samples_per_second=//' >> "$B/pg_abtool.rate"
	fi
	grep -v PRAGMA "$B/updates.sql" > "$B/updates_pg.sql"
	t0=$(epoch_ns)
	psql -X -q "$P" -f "$B/updates_pg.sql" > /dev/null
	t1=$(epoch_ns)
	echo $((N * 1000000000 / (t1 - t0))) >> "$B/pg_psql.rate"
	if [ $((r % 2)) = 0 ]; then
		"$B/store_writes" put "$W" "$N" | sed 's/.*samples_per_second=//' >> "$B/pg_abtool.rate"
	fi
done
[ "$(psql -X -At "$P" -c "SELECT count(*) FROM samples WHERE status = 1")" = "$N" ] || { echo "$BENCH: the psql peer did not store $N samples" >&2; exit 1; }
pa=$(median < "$B/pg_abtool.rate"); pp=$(median < "$B/pg_psql.rate")
echo
echo "| writes, PostgreSQL on a local socket | samples/s | ms per sample | ratio to psql |"
echo "| --- | --- | --- | --- |"
echo "| ab_store_sample_put loop ($N samples, median of 3) | $pa | $(awk -v r="$pa" 'BEGIN { printf "%.3f", 1000 / r }') | $(ratio "$pa" "$pp" 2) |"
echo "| peer: psql, same UPDATEs, autocommit | $pp | $(awk -v r="$pp" 'BEGIN { printf "%.3f", 1000 / r }') | 1.00 |"

# The history store on PostgreSQL: the template run through abtool sync,
# then the same generation as 3. in PostgreSQL's SQL.
HP=$("$ROOT/tests/pg/pg-server" url "$PGS" history 2>/dev/null)
"$ABTOOL" sync --from "$H" --to "$HP" --quiet > /dev/null 2>&1 || true
t0=$(epoch_ns)
"$ABTOOL" export 1 --store "$H" > "$B/template.json"
"$ABTOOL" import "$B/template.json" --store "$HP" > /dev/null 2>&1 || true
pcols() { # TABLE 'name=expr' ...: the columns of TABLE, some replaced, as "names|exprs"
	local table=$1 names exprs=() name e
	shift
	names=$(psql -X -At "$HP" -c "SELECT column_name FROM information_schema.columns WHERE table_name = '$table' AND is_generated = 'NEVER' AND (identity_generation IS NULL OR identity_generation = 'BY DEFAULT') ORDER BY ordinal_position")
	for name in $names; do
		e="t.$name"
		for kv in "$@"; do
			[ "${kv%%=*}" = "$name" ] && e="${kv#*=}"
		done
		[ "$e" = SKIP ] && continue
		exprs+=("$e")
	done
	names=$(for name in $names; do skip=; for kv in "$@"; do [ "$kv" = "$name=SKIP" ] && skip=1; done; [ -z "$skip" ] && echo "$name"; done)
	echo "$(echo $names | tr ' ' ',')|$(IFS=,; echo "${exprs[*]}")"
}
psql -X -q "$HP" -c "INSERT INTO designs(project, name, created_at) SELECT (SELECT project FROM designs WHERE id = 1), 'design-' || i || CASE i % 10 WHEN 0 THEN '-batched-publication' WHEN 1 THEN '-lock-free-queue' WHEN 2 THEN '-arena-allocator' ELSE '-tuning' END, '2026-01-01T00:00:00Z' FROM generate_series(1, 500) n(i)"
IFS='|' read -r ecols eexprs < <(pcols experiments "id=SKIP" "hash=md5(random()::text) || md5(random()::text)" \
	"name='experiment-' || n.i" "design_id=(SELECT min(id) FROM designs) + 1 + n.i % 500" \
	"hypothesis=CASE n.i % 7 WHEN 0 THEN 'batching removes the alloc_lock convoy at ' || n.i || ' lanes' WHEN 1 THEN 'a lock-free queue halves p99 latency' ELSE 'tuning constant ' || n.i END" \
	"text=t.text || E'\\n' || '# variant ' || n.i")
psql -X -q "$HP" -c "INSERT INTO experiments($ecols) SELECT $eexprs FROM experiments t, generate_series(1, 1000) n(i) WHERE t.id = 1"
IFS='|' read -r rcols rexprs < <(pcols runs "id=SKIP" "uuid=md5(random()::text)" \
	"experiment_id=(SELECT min(id) FROM experiments WHERE id > 1) + n.i % 1000" \
	"design_id=(SELECT design_id FROM experiments WHERE id = (SELECT min(id) FROM experiments WHERE id > 1) + n.i % 1000)" \
	"created_at=to_char(to_timestamp(1767225600 + n.i * 600) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')" \
	"status='finished'" "candidate_oid=md5(random()::text) || substr(md5(random()::text), 1, 8)" \
	"verdict=CASE n.i % 5 WHEN 0 THEN 'rejected' WHEN 1 THEN 'accepted' WHEN 2 THEN 'invalid' ELSE 'inconclusive' END")
psql -X -q "$HP" -c "INSERT INTO runs($rcols) SELECT $rexprs FROM runs t, generate_series(1, 9999) n(i) WHERE t.id = 1"
for table in rows samples builds rule_results; do
	IFS='|' read -r c e < <(pcols "$table" "run_id=r.id")
	psql -X -q "$HP" -c "INSERT INTO $table($c) SELECT $e FROM $table t, runs r WHERE t.run_id = 1 AND r.id > 1"
done
psql -X -q "$HP" -c "VACUUM ANALYZE" > /dev/null
t1=$(epoch_ns)
echo
echo "history store on PostgreSQL: $(psql -X -At "$HP" -c "SELECT count(*) FROM runs") runs, $(psql -X -At "$HP" -c "SELECT count(*) FROM samples") samples, generated in $(ns_to s $((t1 - t0))) s"
echo
echo "| query over 10,000 runs | abtool on PostgreSQL | abtool on sqlite | peer: psql | ratio to psql |"
echo "| --- | --- | --- | --- | --- |"
pg_query_row() { # SUBCOMMAND-ARGS PEER-SQL
	local args=$1 sql=$2 a s p
	hyperfine -N --warmup 1 --runs 10 --style none --export-json "$B/q.json" \
		"psql -X -q -At $HP -c \"$sql\"" > /dev/null 2>&1 || true
	p=$(jq '.results[0].median * 1e9 | floor' "$B/q.json")
	hyperfine -N --warmup 1 --runs 10 --style none --export-json "$B/q.json" \
		"$HA $args --store $HP" > /dev/null 2>&1
	a=$(jq '.results[0].median * 1e9 | floor' "$B/q.json")
	hyperfine -N --warmup 1 --runs 10 --style none --export-json "$B/q.json" \
		"$HA $args --store $H" > /dev/null 2>&1
	s=$(jq '.results[0].median * 1e9 | floor' "$B/q.json")
	echo "| \`abtool $args\` | $(ns_to ms "$a") ms | $(ns_to ms "$s") ms | $(ns_to ms "$p") ms | $(ratio "$a" "$p" 2) |"
}
# the floor every command on PostgreSQL stands on: a process, a new
# connection (a server backend) and the schema check, with no query
pg_query_row "config block_rejected" "SELECT 1"
prev=$(psql -X -At "$HP" -c "SELECT substr(candidate_oid, 1, 8) FROM runs WHERE id = 5000")
pg_query_row "history" "$peer_plain"
pg_query_row "history --rev $prev" "SELECT r.id, r.created_at, d.name, r.verdict FROM runs r JOIN designs d ON d.id = r.design_id WHERE r.parent_oid LIKE '$prev%' OR r.candidate_oid LIKE '$prev%' ORDER BY r.id DESC LIMIT 50"
pg_query_row "history --grep batch" "$(echo "$peer_grep" | sed 's/ LIKE / ILIKE /g')"
pg_query_row "designs --rejected" "$peer_rejected"
echo
echo "load after: $(load_now)"
