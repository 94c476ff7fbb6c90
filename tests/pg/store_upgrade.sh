# A PostgreSQL store of schema version 12 (tests/fixtures/store-pg-v12.sql:
# pg_dump of real runs of that version's binary) opens with this binary:
# migration 0013 replaces each run's search document (its whole reasons)
# with its search text, which the C step computes for every stored run,
# and every row survives. Before it, `history --grep noise` found all
# three runs: two through abtool's explanations in their reasons ("noise
# alone reaches 5 of 6", "not fewer than noise allows"); after it, only
# the run whose hypothesis says noise, as on sqlite (store_upgrade.sh,
# history_grep.sh).
. "$(dirname "$0")/../cli/lib.sh"

pg=$(test_store v12)
psql -X -q -v ON_ERROR_STOP=1 "$pg" -f "$ABTOOL_TEST_SRC/tests/fixtures/store-pg-v12.sql" >"$T/load.log" 2>&1 ||
	{ cat "$T/load.log" >&2; fail "loading store-pg-v12.sql"; }
[ "$(sql "$pg" "SELECT version FROM abtool_schema")" = 12 ] || fail "the fixture is not schema version 12"
counts="SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM samples) || ' ' ||
	(SELECT count(*) FROM rule_results) || ' ' || (SELECT count(*) FROM notes) || ' ' ||
	(SELECT md5(string_agg(reasons || report, '' ORDER BY id)) FROM runs)"
before=$(sql "$pg" "$counts")
[ "${before%% *}" = 3 ] || fail "the fixture's runs: $before"
# the fixture's runs as version 12 indexed them: every run says "noise"
[ "$(sql "$pg" "SELECT count(*) FROM search WHERE kind = 'run' AND tsv @@ to_tsquery('english', 'noise')")" = 2 ] ||
	fail "the fixture's reasons do not say noise"

expect_exit 0 "$ABTOOL" history --store "$pg" --grep noise --ids
[ "$(cat "$T/out")" = 3 ] || fail "history --grep noise after the upgrade: $(tr '\n' ' ' <"$T/out")"
[ "$(sql "$pg" "SELECT version FROM abtool_schema")" = 13 ] || fail "not upgraded to 13"
[ "$(sql "$pg" "$counts")" = "$before" ] || fail "rows changed in the upgrade: $before, now $(sql "$pg" "$counts")"
[ "$(sql "$pg" "SELECT search_text FROM runs WHERE id = 1")" = "material gain
load=heavy: ratio 0.990
lower bound 0.990 above 0.909 = 1/1.1" ] || fail "run 1's search text: $(sql "$pg" "SELECT search_text FROM runs WHERE id = 1")"
[ "$(sql "$pg" "SELECT search_text FROM runs WHERE id = 2")" = "most pairs win
all: ratio 0.866
4 pair wins, fewer than the 5 needed" ] || fail "run 2's search text: $(sql "$pg" "SELECT search_text FROM runs WHERE id = 2")"
# what distinguishes a run is still found: a rule's name, a row, the
# failing finding, a note; a passing finding and the explanations are not
for q in "material gain:1" "heavy:1" "fewer needed:2" "quiet box:1" "herd:2" "least:" "allows:" "probability:"; do
	expect_exit 0 "$ABTOOL" history --store "$pg" --grep "${q%%:*}" --ids
	[ "$(tr '\n' ',' <"$T/out" | sed 's/,$//')" = "${q#*:}" ] ||
		fail "--grep '${q%%:*}': runs '$(tr '\n' ',' <"$T/out")', expected '${q#*:}'"
done
# a second open changes nothing
expect_exit 0 "$ABTOOL" history --store "$pg" --ids
[ "$(sql "$pg" "$counts")" = "$before" ] && [ "$(sql "$pg" "SELECT count(*) FROM search WHERE kind = 'run'")" = 2 ] ||
	fail "a second open changed the store"
echo ok
