# serial
# A candidate about 2x faster with the same checksum is accepted (exit 0),
# with pair wins >= pairs - 1 in every row, and every sample stored.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 80 40
EXP_LANES="1, 2" write_exp "$T/repo"
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/report.json" --seed 7
assert_contains "$T/out" "Verdict: accepted"
[ "$(jqv "$T/report.json" .verdict)" = accepted ] || fail "verdict in JSON"
[ "$(jqv "$T/report.json" '.rows | length')" = 2 ] || fail "two rows"
for r in 0 1; do
	wins=$(jqv "$T/report.json" ".rows[$r].pair_wins")
	pairs=$(jqv "$T/report.json" ".rows[$r].pairs")
	[ "$pairs" = 6 ] || fail "row $r has $pairs pairs"
	[ "$wins" -ge 5 ] || fail "row $r: only $wins/6 pair wins"
	ratio=$(jqv "$T/report.json" ".rows[$r].ratio")
	awk "BEGIN { exit !($ratio > 0.35 && $ratio < 0.7) }" || fail "row $r ratio $ratio not near 0.5"
	[ "$(jqv "$T/report.json" ".rows[$r].checksum_match")" = true ] || fail "row $r checksum"
done
[ "$(jqv "$T/report.json" .parent.oid)" = "$(git -C "$T/repo" rev-parse HEAD~1)" ] || fail "parent oid"
[ "$(jqv "$T/report.json" .candidate.oid)" = "$(git -C "$T/repo" rev-parse HEAD)" ] || fail "candidate oid"
[ "$(jqv "$T/report.json" .exact_parent)" = true ] || fail "exact parent"
[ "$(jqv "$T/report.json" .plan.seed)" = 7 ] || fail "seed"

# The store holds the plan and every sample: 2 rows x (6 pairs + 1 warmup) x 2 sides.
db="$T/repo/.git/abtool/abtool.db"
[ -f "$db" ] || fail "no store at $db"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1")" = 28 ] || fail "samples stored"
[ "$(sqlite3 "$db" "select verdict from runs")" = accepted ] || fail "verdict stored"
[ "$(sqlite3 "$db" "pragma journal_mode")" = wal ] || fail "WAL mode"

# The user's repository is untouched: no new branch, clean status, same HEAD.
[ "$(git -C "$T/repo" branch --list | wc -l)" = 1 ] || fail "a branch was added"
[ -z "$(git -C "$T/repo" status --porcelain --untracked-files=no)" ] || fail "work tree changed"

# The stored report regenerates byte-identically.
"$ABTOOL" report 1 --store "$db" > "$T/again.md" || fail "report"
cmp -s "$T/out" "$T/again.md" || fail "abtool report differs from what run printed"
"$ABTOOL" report 1 --store "$db" --format json > "$T/again.json" || fail "report json"
cmp -s "$T/report.json" "$T/again.json" || fail "JSON report differs"
echo ok
