# Every printed p-value says which it is: the warnings print two-sided p
# (signed-rank against sign test), the Holm reasons one-sided adjusted p.
# The history column of row ratios says it is a range over rows, and an
# accepted run gets a short reason there too. The pairs go through
# `abtool analyze` (deterministic values, the run's analysis and rules).
. "$(dirname "$0")/lib.sh"

# one row whose three smallest log ratios are the only positive ones: the
# signed-rank test decides, the sign test on 7/10 wins does not
awk 'BEGIN {
	printf "workload\tpair\tparent\tcandidate\n"
	split("-0.04 -0.05 -0.06 -0.07 -0.08 -0.09 -0.10 0.01 0.02 0.03", d, " ")
	for (i = 1; i <= 10; i++) printf "w\t%d\t1000\t%.6f\n", i, 1000 * exp(d[i])
}' >"$T/disagree.tsv"
expect_decided "$ABTOOL" analyze "$T/disagree.tsv" --json "$T/d.json"
jqv "$T/d.json" '.warnings[]' >"$T/warnings"
assert_contains "$T/warnings" "the signed-rank test (two-sided p "
assert_contains "$T/warnings" "and the sign test on pair wins (two-sided p "

# three rows each refuting 'no regression: 2%' at one-sided p = 10/256,
# which Holm's adjustment over the verdict's 3 refutations does not keep
awk 'BEGIN {
	printf "lanes\tpair\tparent\tcandidate\n"
	split("0.01 0.02 0.03 0.04 -0.05 0.06 0.07 0.08", d, " ")
	for (l = 1; l <= 3; l++) for (i = 1; i <= 8; i++) printf "%d\t%d\t1000\t%.9f\n", l, i, 1020 * exp(d[i])
}' >"$T/holm.tsv"
printf 'accept:\n  - name: all lanes\n    no_regression: 2%%\n' >"$T/rules.yaml"
expect_exit 2 "$ABTOOL" analyze "$T/holm.tsv" --accept "$T/rules.yaml"
assert_contains "$T/out" "but not after Holm's adjustment over the verdict's 3 refutations (one-sided adjusted p 0.117)"
assert_not_contains "$T/out" "rows (p "

# history: the ratio column is labelled a range over rows; an accepted run
# names the rules that passed
make_repo "$T/repo" 60 30
EXP_LANES="1, 2" write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
# (a loaded machine may leave it inconclusive: the reason is about the
# stored verdict, so make it the accepted one it would be)
sqlite3 "$db" "update runs set verdict = 'accepted', reasons = '[]' where id = 1"
expect_exit 0 "$ABTOOL" history --store "$db"
head -n 1 "$T/out" | grep -q "verdict .*ratio B/A, range over rows  reason" || fail "header: $(head -n 1 "$T/out")"
assert_contains "$T/out" "both rules passed: no regression, material gain"
"$ABTOOL" history --store "$db" | grep -qE "accepted +[0-9.]+(–[0-9.]+)? +both rules passed" \
	|| fail "the ratio range and the reason: $("$ABTOOL" history --store "$db")"

[ "$("$ABTOOL" history --store "$db" --json | jq -c '.[0].rules')" = '["no regression","material gain"]' ] \
	|| fail "history --json rules"
echo ok
