# smoke
# run, on wall time (the default metric): a candidate doing a sixth of the
# work (about 5x faster in wall time, with the process's start) with the
# same checksum is accepted (exit 0), with pair wins >= pairs - 2 in every
# row and a ratio near 0.2, and every sample stored.
# Designed error: 3e-5. Each of the 2 rows must pass faster_by: 20% (the
# upper bound of B/A, the 18th largest of 78 Walsh averages of 12 pairs,
# below 0.833 where B/A is 0.21-0.26 here), win 10 of 12 pairs and have
# its Hodges-Lehmann ratio in (0.08, 0.5). Spread assumed: the log ratios
# of 1,220 A/A pairs (18-75 ms of CPU each) measured on this 2-core
# machine at load 12-16 from other jobs, 40% of them beside two busy loops:
# sd 0.33, 2.3% beyond a factor 2, 0.3% beyond 4, 0.04% beyond 10, largest
# 12.9. Resampling them around B/A = 0.26, 400,000 simulated rows failed 5
# times: 1.3e-5 per row, 2.6e-5 for two (most failures are two pairs off
# by a factor 8 or more, which drag 18 Walsh averages above 0.833).
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 120 20
EXP_LANES="1, 2" EXP_PAIRS=12 EXP_METRIC=wall_ns write_exp "$T/repo"
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/report.json" --seed 7
assert_contains "$T/out" "Verdict: accepted"
[ "$(jqv "$T/report.json" .verdict)" = accepted ] || fail "verdict in JSON"
[ "$(jqv "$T/report.json" '.rows | length')" = 2 ] || fail "two rows"
for r in 0 1; do
	wins=$(jqv "$T/report.json" ".rows[$r].pair_wins")
	pairs=$(jqv "$T/report.json" ".rows[$r].pairs")
	[ "$pairs" = 12 ] || fail "row $r has $pairs pairs"
	[ "$wins" -ge 10 ] || fail "row $r: only $wins/12 pair wins"
	ratio=$(jqv "$T/report.json" ".rows[$r].ratio")
	awk "BEGIN { exit !($ratio > 0.08 && $ratio < 0.5) }" || fail "row $r ratio $ratio not near 0.2"
	[ "$(jqv "$T/report.json" ".rows[$r].checksum_match")" = true ] || fail "row $r checksum"
done
[ "$(jqv "$T/report.json" .parent.oid)" = "$(git -C "$T/repo" rev-parse HEAD~1)" ] || fail "parent oid"
[ "$(jqv "$T/report.json" .candidate.oid)" = "$(git -C "$T/repo" rev-parse HEAD)" ] || fail "candidate oid"
[ "$(jqv "$T/report.json" .exact_parent)" = true ] || fail "exact parent"
[ "$(jqv "$T/report.json" .plan.seed)" = 7 ] || fail "seed"

# The store holds the plan and every sample: 2 rows x (12 pairs + 1 warmup) x 2 sides.
db="$T/repo/.git/abtool/abtool.db"
[ -f "$db" ] || fail "no store at $db"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1")" = 52 ] || fail "samples stored"
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
