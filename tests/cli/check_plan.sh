# check warns about a plan a run would regret, before anything runs: too
# few pairs to ever decide an inferential rule, an odd pair count, and
# uncommitted changes in the work tree (which run warns about before its
# builds and records in the report's warnings).
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 20 10
EXP_PAIRS=4 write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "pairs: 4: fewer than 5 pairs can never give a one-sided 95% bound"
EXP_PAIRS=7 write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "pairs: 7 is odd"
EXP_PAIRS=8 write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_no_warning "$T/err"

# rules on wall_ns while two busy loops run (on two CPUs, the other
# processes use at least half a CPU whatever else runs): check recommends
# cpu_ns; rules on cpu_ns already get no such line, busy or not
( while :; do :; done ) & b1=$!
( while :; do :; done ) & b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT  # also when a check below fails
EXP_PAIRS=8 EXP_METRIC=wall_ns write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
cp "$T/err" "$T/err.wall"
EXP_PAIRS=8 write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
kill $b1 $b2
wait $b1 $b2 2>/dev/null
trap - EXIT
assert_contains "$T/err.wall" "abtool: warning: host: other processes use"
assert_contains "$T/err.wall" "the rules decide on wall_ns"
assert_contains "$T/err.wall" "metric: cpu_ns counts its work only"
assert_not_contains "$T/err" "the rules decide on wall_ns"

# a rule that decides on observed values only: check says how often noise
# alone passes it (P(X >= 7), X ~ Binomial(10, 1/2) = 176/1024)
EXP_PAIRS=10 EXP_EXTRA="  - name: wins only
    min_pair_wins: 7
  - name: estimate only
    max_ratio: {estimate: 1.05}
  - name: wins with a bound
    min_pair_wins: 7
    no_regression: 5%" write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "rule 'wins only' decides on observed values only: noise alone passes min_pair_wins: 7 of 10 pairs with probability 17.2%; add an inferential predicate"
assert_contains "$T/err" "rule 'estimate only' decides on observed values only: max_ratio: {estimate: 1.05} compares the point estimate, with no interval"
assert_not_contains "$T/err" "rule 'wins with a bound'"
assert_not_contains "$T/err" "rule 'no regression'"
EXP_PAIRS=8 write_exp "$T/repo"

# a tracked file changed but not committed: check and run say so
echo "/* not committed */" >> "$T/repo/bench.c"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "has uncommitted changes: a run measures commits, not them"
# ... but not when the candidate is another commit than the checked-out one
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml" --candidate HEAD~1 --parent HEAD
assert_not_contains "$T/err" "uncommitted"
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --json "$T/r.json"
assert_contains "$T/err" "has uncommitted changes: they are not measured"
# the warning comes before the builds
[ "$(grep -n "uncommitted" "$T/err" | head -1 | cut -d: -f1)" -lt "$(grep -n "built in\|build cached" "$T/err" | head -1 | cut -d: -f1)" ] \
	|| fail "the work-tree warning should come before the builds"
jq -e '.warnings | any(test("had uncommitted changes when the run started"))' "$T/r.json" >/dev/null \
	|| fail "the report's warnings do not record the uncommitted changes"
assert_contains "$T/out" "had uncommitted changes when the run started"
# with 2 pairs there is no bound: the note under the rows table says so, as
# the table's "[too few pairs]" does, instead of a coverage of 100%
assert_contains "$T/out" "[too few pairs]"
assert_contains "$T/out" "No interval: 2 pairs are too few for an exact one-sided 95% bound (5 at least)"
assert_not_contains "$T/out" "coverage 100%"
"$ABTOOL" report 1 --store "$T/s.db" --format html -o "$T/r.html" || fail "html report"
assert_contains "$T/r.html" "No interval: 2 pairs are too few"
assert_not_contains "$T/r.html" "coverage 100%"
echo ok
