# abtool sync between a sqlite store and a PostgreSQL store, there and
# back: every run's export is identical in all three stores (the runs take
# the same local ids in stores that were empty), a second sync copies
# nothing, an unfinished run is skipped and named, and --dry-run writes
# nothing.
. "$(dirname "$0")/../cli/lib.sh"

make_repo "$T/repo" 20 10
EXP_PAIRS=4 write_exp "$T/repo"
a="$T/a.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$a" --quiet --seed 1
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$a" --quiet --seed 2 --design other-design
expect_exit 0 "$ABTOOL" note 1 --store "$a" "a note travels with its run"
pg=$(test_store team)
b="$T/b.db"

expect_exit 0 "$ABTOOL" sync --from "$a" --to "$pg" --dry-run
assert_contains "$T/out" "would copy 2 runs"
[ "$(sql "$pg" "select count(*) from runs")" = 0 ] || fail "--dry-run copied"
expect_exit 0 "$ABTOOL" sync --from "$a" --to "$pg"
assert_contains "$T/out" "copied 2 runs from '$a' to 'postgresql://abtool@/sync_team?host="
expect_exit 0 "$ABTOOL" sync --from "$pg" --to "$b"
assert_contains "$T/out" "copied 2 runs"
for id in 1 2; do
	for s in "$a" "$pg" "$b"; do
		"$ABTOOL" export "$id" --store "$s" | jq -S 'del(.exported_at)' >"$T/export.$id.$(echo "$s" | md5sum | cut -c1-8)" \
			|| fail "export $id from $s"
	done
	[ "$(md5sum "$T"/export.$id.* | cut -d' ' -f1 | sort -u | wc -l)" = 1 ] \
		|| { diff "$T"/export.$id.* | head -20 >&2; fail "run $id: the three exports differ"; }
	[ "$(jq '.samples | length' "$T"/export.$id.* | sort -u)" -gt 0 ] || fail "run $id: no samples"
done
grep -q "a note travels with its run" "$T"/export.1.* || fail "the note was not copied"

# A second sync, either way, copies nothing and changes nothing.
before=$(sql "$pg" "select (select count(*) from runs), (select count(*) from samples), (select count(*) from notes)")
expect_exit 0 "$ABTOOL" sync --from "$a" --to "$pg"
assert_contains "$T/out" "copied 0 runs"
assert_contains "$T/out" "2 already there"
expect_exit 0 "$ABTOOL" sync --from "$b" --to "$pg"
assert_contains "$T/out" "copied 0 runs"
[ "$(sql "$pg" "select (select count(*) from runs), (select count(*) from samples), (select count(*) from notes)")" = "$before" ] \
	|| fail "a second sync changed the team store"

# An unfinished run stays behind, named.
sql "$a" "update runs set status = 'interrupted' where id = 2"
c="$T/c.db"
expect_exit 0 "$ABTOOL" sync --from "$a" --to "$c"
assert_contains "$T/out" "copied 1 run from"
assert_contains "$T/out" "1 unfinished (not copied)"
assert_contains "$T/err" "run 2 ("
assert_contains "$T/err" "is interrupted: not copied; finish it (abtool resume 2)"

# A password in the URL (the tests' server trusts any) reaches no
# message, report or row of the store.
pw="postgresql://abtool:hunter2@/sync_team?host=${pg#*host=}"
expect_exit 0 "$ABTOOL" sync --from "$a" --to "$pw"
cat "$T/out" "$T/err" > "$T/pw.log"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$pw" --seed 9 --json "$T/pw.json" --md "$T/pw.md"
cat "$T/out" "$T/err" >> "$T/pw.log"
expect_exit 0 "$ABTOOL" history --store "$pw"
cat "$T/out" "$T/err" >> "$T/pw.log"
grep -q hunter2 "$T/pw.log" "$T/pw.json" "$T/pw.md" && fail "the password in a message or report"
grep -q "postgresql://abtool@/sync_team" "$T/pw.log" || fail "the store not named in the run's output"
pg_dump "$pg" | grep -q hunter2 && fail "the password in the store"
[ "$(pg_dump "$pg" | wc -l)" -gt 100 ] || fail "pg_dump printed nothing"

expect_exit 64 "$ABTOOL" sync --from "$a"
assert_contains "$T/err" "expected --from STORE and --to STORE"
expect_exit 64 "$ABTOOL" sync --from "$T/none.db" --to "$c"
assert_contains "$T/err" "there is no store at '$T/none.db' (--from)"
expect_exit 64 "$ABTOOL" sync --from "$a" --to "$a"
assert_contains "$T/err" "name one store"
echo ok
