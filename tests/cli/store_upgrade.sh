# Every committed fixture store (tests/fixtures/store-vN.db, made by real
# runs of the binary whose schema was version N) opens with this binary:
# the migrations bring it to the latest version, and every row survives
# (count and content hash of every table the fixture has, over the columns
# it had), and the row results that migration 0006 derives from the stored
# reports say what the reports say.
. "$(dirname "$0")/lib.sh"

fixtures="$ABTOOL_TEST_SRC/tests/fixtures"
latest=$(ls "$ABTOOL_TEST_SRC"/store/migrations/[0-9][0-9][0-9][0-9]_*.sql | wc -l)
[ "$latest" -ge 2 ] || fail "expected at least two migrations, found $latest"
ls "$fixtures"/store-v*.db >/dev/null 2>&1 || fail "no fixture stores in $fixtures"

# table:ordering key of every table a fixture may hold (run_dependencies
# since schema 3, settings since 7)
tables="designs:id experiments:id runs:id builds:run_id,side rows:run_id,idx samples:run_id,seq
rule_results:run_id,idx notes:id run_dependencies:run_id,name settings:key"
# snapshot DB ORIGINAL: the count and a content hash of each table of DB,
# over the columns the fixture ORIGINAL had (a migration may add columns,
# never change them); a table ORIGINAL lacks must be empty in DB. Three
# sqlite3 processes per snapshot: ORIGINAL's columns, DB's tables, then one
# query for all (sqlite3's sha3_query hashes a query's rows, types and
# values).
snapshot() {
	local t cols sql=""
	sqlite3 "$2" "SELECT m.name, group_concat(p.name, ', ') FROM sqlite_schema m, pragma_table_info(m.name) p
		WHERE m.type = 'table' GROUP BY m.name" >"$T/columns" || fail "columns of $2"
	sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE type = 'table'" >"$T/tables" || fail "tables of $1"
	for t in $tables; do
		cols=$(sed -n "s/^${t%%:*}|//p" "$T/columns")
		if [ -z "$cols" ]; then
			if grep -qx "${t%%:*}" "$T/tables"; then
				sql="$sql SELECT '${t%%:*} ' || count(*) FROM ${t%%:*};"
			else
				sql="$sql SELECT '${t%%:*} 0';"
			fi
			continue
		fi
		sql="$sql SELECT '${t%%:*} ' || count(*) FROM ${t%%:*};
			SELECT '${t%%:*} sha3 ' || hex(sha3_query('SELECT $cols FROM ${t%%:*} ORDER BY ${t#*:}'));"
	done
	sqlite3 "$1" "$sql" || fail "snapshot of $1"
}

# check_row_results DB NAME: for every run of DB with a report, the
# primary metric's line of row_results for each row, and each rule's
# outcome per row in rule_row_results, hold the report's values (read here
# with jq, not with the SQL that filled the tables). All runs at once: one
# query per table, one jq per side, a line per run.
check_row_results() {
	sqlite3 -json "$1" "SELECT id, report FROM runs WHERE report IS NOT NULL ORDER BY id" |
		jq -s '.[0] // [] | map({id, report: (.report | fromjson)})' >"$T/reports.json" || fail "$2: reports"
	jq -c '.[] | [.id, [.report.rows | to_entries[] | [.key, .value.metric, .value.pairs, .value.parent.median,
		.value.candidate.median, .value.parent.rsd, .value.candidate.rsd, .value.ratio,
		.value.ci[0], .value.ci[1], .value.ci_level, .value.pair_wins, .value.p_signed_rank,
		.value.checksum_match, .value.unavailable]]]' "$T/reports.json" >"$T/want.rows"
	sqlite3 -json "$1" "SELECT run_id, row_idx, metric, pairs, parent_median, candidate_median, parent_rsd,
		candidate_rsd, ratio, ci_low, ci_high, ci_level, pair_wins, p_signed_rank, checksum_match,
		unavailable FROM row_results WHERE is_primary AND run_id IN (SELECT id FROM runs WHERE report IS NOT NULL)
		ORDER BY run_id, row_idx" |
		jq -sc --slurpfile ids <(jq '[.[].id]' "$T/reports.json") '(.[0] // []) as $r | $ids[0][] as $id |
		[$id, [$r[] | select(.run_id == $id) | [.row_idx, .metric, .pairs, .parent_median, .candidate_median,
		.parent_rsd, .candidate_rsd, .ratio, .ci_low, .ci_high, .ci_level, .pair_wins, .p_signed_rank,
		(if .checksum_match == null then null else .checksum_match == 1 end), .unavailable]]]' \
		>"$T/got.rows" || fail "$2: row_results"
	diff "$T/want.rows" "$T/got.rows" >&2 || fail "$2: row_results differ from the runs' reports"
	jq -c '.[] | [.id, (.report | (.rows | map(.params)) as $p | [.rules | to_entries[] | .key as $i |
		.value.rows[] | .params as $q | [$i, ($p | map(. == $q) | index(true)), .outcome, .detail]])]' \
		"$T/reports.json" >"$T/want.rules"
	sqlite3 -json "$1" "SELECT run_id, rule_idx, row_idx, outcome, detail FROM rule_row_results
		WHERE run_id IN (SELECT id FROM runs WHERE report IS NOT NULL) ORDER BY run_id, rule_idx, row_idx" |
		jq -sc --slurpfile ids <(jq '[.[].id]' "$T/reports.json") '(.[0] // []) as $r | $ids[0][] as $id |
		[$id, [$r[] | select(.run_id == $id) | [.rule_idx, .row_idx, .outcome, .detail]]]' \
		>"$T/got.rules" || fail "$2: rule_row_results"
	diff "$T/want.rules" "$T/got.rules" >&2 || fail "$2: rule_row_results differ from the runs' reports"
	[ "$(jq '[.[].report.rows | length] | add // 0' "$T/reports.json")" -gt 0 ] || fail "$2: no row results checked"
}

for fixture in "$fixtures"/store-v*.db; do
	name=$(basename "$fixture" .db)
	version=${name#store-v}
	[ ! -e "$fixture-wal" ] && [ ! -e "$fixture-shm" ] || fail "$name: -wal/-shm files next to the fixture"
	db="$T/$name.db"
	cp "$fixture" "$db"
	[ "$(sqlite3 "$db" "PRAGMA user_version")" = "$version" ] || fail "$name is not schema version $version"
	snapshot "$db" "$fixture" >"$T/$name.before"
	# Any command that opens the store upgrades it.
	expect_exit 0 "$ABTOOL" report 1 --store "$db" --format json
	[ "$(jqv "$T/out" .run_id)" = 1 ] || fail "$name: report of run 1"
	[ "$(sqlite3 "$db" "PRAGMA user_version")" = "$latest" ] || fail "$name: not upgraded to $latest"
	[ "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok ] || fail "$name: integrity check"
	snapshot "$db" "$fixture" >"$T/$name.after"
	diff "$T/$name.before" "$T/$name.after" >&2 || fail "$name: rows changed in the upgrade"
	# A second open changes nothing.
	expect_exit 0 "$ABTOOL" report 1 --store "$db" --format json
	snapshot "$db" "$fixture" | cmp -s - "$T/$name.after" || fail "$name: second open changed rows"
	check_row_results "$db" "$name"
	# --grep reads what distinguishes a run, not abtool's explanations in
	# its reasons (migration 0013): "noise" finds the runs whose own text
	# says it, not those whose reasons say "noise alone reaches 5 of 6"
	sqlite3 "$db" "SELECT r.id FROM runs r JOIN experiments e ON e.id = r.experiment_id
		JOIN designs d ON d.id = r.design_id WHERE e.name || ' ' || coalesce(e.hypothesis, '') || ' ' ||
		d.name LIKE '%noise%' OR EXISTS (SELECT 1 FROM notes n WHERE (n.run_id = r.id OR (n.run_id IS NULL
		AND n.design_id = r.design_id)) AND n.text LIKE '%noise%') ORDER BY r.id DESC" >"$T/noise.want"
	expect_exit 0 "$ABTOOL" history --store "$db" --grep noise --ids --all-projects
	diff "$T/noise.want" "$T/out" >&2 || fail "$name: history --grep noise"
	[ "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE reasons LIKE '%noise alone%' AND search_text LIKE '%noise%'")" = 0 ] ||
		fail "$name: a run's search text keeps 'noise alone'"
done

# What store-v1.db holds (tests/fixtures/make-store-fixture.sh): four runs
# (accepted, rejected, invalid, interrupted).
db="$T/store-v1.db"
cat >"$T/want" <<EOF2
designs 4
experiments 4
runs 4
builds 8
rows 5
samples 458
rule_results 6
notes 0
run_dependencies 0
settings 0
EOF2
grep -v ' sha3 ' "$T/store-v1.after" | diff "$T/want" - >&2 || fail "store-v1.db counts"
# The later fixtures' notes and dependency survive, in content.
[ "$(sqlite3 "$T/store-v2.db" "SELECT group_concat(coalesce(run_id, '-') || ':' || text, '|') FROM notes")" \
	= "2:doubling the loop is a dead end; see the flame graph|-:retry only with a new compiler" ] \
	|| fail "store-v2.db notes"
[ "$(sqlite3 "$T/store-v5.db" "SELECT run_id || ':' || name || ':' || length(parent_oid) FROM run_dependencies")" \
	= "6:dep:40" ] || fail "store-v5.db dependency"
[ "$(sqlite3 "$T/store-v7.db" "SELECT key || '=' || value FROM settings")" = block_rejected=false ] \
	|| fail "store-v7.db setting"
# Migration 0011 (projects): opened with --store from no repository of
# theirs, the rows keep the placeholder a repository claims later, but
# the comparison of v10 belongs to no project at once; every design keeps
# its id and name under UNIQUE (project, name).
[ "$(sqlite3 "$T/store-v10.db" "SELECT group_concat(id || ':' || project, ',') FROM (SELECT * FROM designs
	ORDER BY id)")" = "1:(unclaimed),2:(unclaimed),3:(unclaimed),4:(unclaimed),5:(unclaimed),6:(unclaimed),7:" ] \
	|| fail "store-v10.db: designs' projects"
[ "$(sqlite3 "$T/store-v10.db" "SELECT count(*) FROM experiments e JOIN designs d ON d.id = e.design_id
	WHERE e.project = d.project")" = 7 ] || fail "store-v10.db: an experiment's project is its design's"
sqlite3 "$T/store-v10.db" "INSERT INTO designs(project, name, created_at) VALUES ('p', 'halve-the-loop', 'x')" \
	|| fail "store-v10.db: a second project cannot have a design of the same name"
! sqlite3 "$T/store-v10.db" "INSERT INTO designs(project, name, created_at) VALUES ('p', 'halve-the-loop', 'x')" \
	2>/dev/null || fail "store-v10.db: UNIQUE (project, name) does not hold"
[ "$(sqlite3 "$T/store-v10.db" "PRAGMA foreign_key_check")" = "" ] || fail "store-v10.db: foreign keys"
# the search index still finds what was written before the rebuild
expect_exit 0 "$ABTOOL" history --store "$T/store-v10.db" --grep "halve" --ids
[ "$(cat "$T/out")" = "$(printf '5\n1')" ] || fail "store-v10.db: history --grep after 0011: $(cat "$T/out")"
# the reasons of v11's rejected run explain its pair wins with "noise
# alone reaches 5 of 6": they are searched without it (migration 0013)
[ "$(sqlite3 "$T/store-v11.db" "SELECT count(*) FROM runs WHERE id = 2 AND reasons LIKE '%noise alone reaches%'")" = 1 ] ||
	fail "store-v11.db: run 2's reasons"
[ "$(sqlite3 "$T/store-v11.db" "SELECT replace(search_text, char(10), '|') FROM runs WHERE id = 2")" = \
	"no regression|lanes=1: ratio 1.708|lower bound 1.610 above 1.020|material gain|lanes=1: ratio 1.708|lower bound 1.610 above 0.833 = 1/1.2, 0 pair wins, fewer than the 5 needed" ] ||
	fail "store-v11.db: run 2's search text: $(sqlite3 "$T/store-v11.db" "SELECT search_text FROM runs WHERE id = 2")"
# What 0006 derived for the rejected run of v1: its one row, slower, and
# both rules failing on it; the example query of docs/history.md finds it.
[ "$(sqlite3 "$db" "SELECT printf('%.3f', ratio) FROM row_results WHERE run_id = 2 AND metric = 'wall_ns'")" \
	= 1.926 ] || fail "store-v1.db: ratio of run 2"
[ "$(sqlite3 "$db" "SELECT group_concat(outcome) FROM rule_row_results WHERE run_id = 2")" = fail,fail ] \
	|| fail "store-v1.db: rule outcomes of run 2"
[ "$(sqlite3 "$db" "SELECT group_concat(metric) FROM rule_results WHERE run_id = 2")" = wall_ns,wall_ns ] \
	|| fail "store-v1.db: rule metrics"
sqlite3 "$db" "SELECT r.id, w.params, x.ratio FROM row_results x
	JOIN runs r ON r.id = x.run_id JOIN designs d ON d.id = r.design_id
	JOIN rows w ON w.run_id = x.run_id AND w.idx = x.row_idx
	WHERE d.name = 'double-the-loop' AND x.is_primary AND x.ci_low > 1" >"$T/slower"
grep -Eq '^2\|\{"lanes":1\}\|1\.92' "$T/slower" && [ "$(wc -l <"$T/slower")" = 1 ] \
	|| fail "the slower-rows query: $(cat "$T/slower")"
[ "$(sqlite3 "$db" "SELECT group_concat(coalesce(verdict, status), ',') FROM (SELECT * FROM runs ORDER BY id)")" \
	= "accepted,rejected,invalid,interrupted" ] || fail "store-v1.db verdicts"
# Text written before the search index existed is indexed by the upgrade.
[ "$(sqlite3 "$db" "SELECT rowid FROM search WHERE search MATCH 'wall'")" = 4 ] || fail "hypothesis not indexed"
[ "$(sqlite3 "$db" "SELECT rowid FROM search WHERE search MATCH 'regression'")" = 10 ] || fail "reasons not indexed"
expect_exit 0 "$ABTOOL" history --store "$db" --grep "wall time" --json
[ "$(jqv "$T/out" 'map(.id) | join(",")')" = 1 ] || fail "history --grep over an old hypothesis"
expect_exit 0 "$ABTOOL" history --store "$db"
grep -Eq "^ 4  .*  interrupted  " "$T/out" || fail "the interrupted run shows its status"
grep -Eq "^ 2  .*  rejected  +1\.926  +no regression: lanes=1: ratio 1\.926 " "$T/out" || fail "the rejected run's line"
echo ok
