# Every committed fixture store (tests/fixtures/store-vN.db, made by real
# runs of the binary whose schema was version N) opens with this binary:
# the migrations bring it to the latest version, and every row survives
# (counts of each table, content hashes of samples and runs).
. "$(dirname "$0")/lib.sh"

fixtures="$ABTOOL_TEST_SRC/tests/fixtures"
latest=$(ls "$ABTOOL_TEST_SRC"/store/migrations/[0-9][0-9][0-9][0-9]_*.sql | wc -l)
[ "$latest" -ge 2 ] || fail "expected at least two migrations, found $latest"
ls "$fixtures"/store-v*.db >/dev/null 2>&1 || fail "no fixture stores in $fixtures"

tables="designs experiments runs builds rows samples rule_results notes"
# snapshot DB ORIGINAL: counts and content hashes of DB, over the columns
# the fixture ORIGINAL had (a migration may add columns, never change them)
snapshot() {
	local t cols
	for t in $tables; do
		echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")"
	done
	for t in "samples:run_id, seq" "runs:id" "builds:run_id, side" "rule_results:run_id, idx"; do
		cols=$(sqlite3 "$2" "SELECT group_concat(name, ', ') FROM pragma_table_info('${t%%:*}')")
		echo "${t%%:*} $(sqlite3 "$1" "SELECT $cols FROM ${t%%:*} ORDER BY ${t#*:}" | sha256sum)"
	done
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
EOF2
head -n 8 "$T/store-v1.after" | diff "$T/want" - >&2 || fail "store-v1.db counts"
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
