# abtool analyze of hyperfine's --export-json (real exports of hyperfine
# 1.15.0, made once and committed: tests/fixtures/hyperfine/README.md):
# a row per two commands and per value of a -P parameter, labelled
# unpaired (medians and the Mann-Whitney p, no paired interval), and under
# any rule the verdict is inconclusive: exit 2, never a pass or a fail.
. "$(dirname "$0")/lib.sh"

F="$ABTOOL_TEST_SRC/tests/fixtures/hyperfine"
cp "$F/parameter.json" "$T/p.json"
cp "$F/three.json" "$T/three.json"
[ "$(jq '.results | length' "$T/p.json")" = 4 ] && [ "$(jq '.results | length' "$T/three.json")" = 3 ] ||
	fail "the hyperfine fixtures are not the ones the case was written for"
printf 'accept:\n  - {name: gain, faster_by: 5%%}\n  - {name: same, no_regression: 1000%%}\n' >"$T/rules.yaml"

expect_exit 2 "$ABTOOL" analyze "$T/p.json" --accept "$T/rules.yaml" --json "$T/p.out.json"
[ "$(jqv "$T/p.out.json" '.rows | length')" = 2 ] || fail "rows of -P n 1 2"
[ "$(jqv "$T/p.out.json" '[.rows[].params.n] | join(",")')" = 1,2 ] || fail "the parameter's rows"
[ "$(jqv "$T/p.out.json" '[.rows[] | .unpaired and .ci == [null, null] and .pair_wins == null
	and (.p_mann_whitney_unpaired | type) == "number" and .ratio > 1] | all')" = true ] \
	|| fail "rows not unpaired: $(jqv "$T/p.out.json" .rows)"
[ "$(jqv "$T/p.out.json" '.verdict + " " + ([.rules[].outcome] | unique | join(","))')" \
	= "inconclusive inconclusive" ] || fail "verdict: $(jqv "$T/p.out.json" '.verdict, .rules')"
assert_contains "$T/out" "(blocks, not pairs)"
assert_contains "$T/out" "(medians, unpaired)"
assert_contains "$T/out" "blocks are not pairs"
# without rules nothing gates: exit 0, as analyze of pairs
expect_exit 0 "$ABTOOL" analyze "$T/p.json"
expect_exit 2 "$ABTOOL" analyze "$T/three.json" --accept "$T/rules.yaml" --json "$T/t.json"
[ "$(jqv "$T/t.json" '[.rows[].params.commands] | join("|")')" \
	= "sleep 0.01 vs sleep 0.02|sleep 0.01 vs sleep 0.03|sleep 0.02 vs sleep 0.03" ] \
	|| fail "rows of three commands: $(jqv "$T/t.json" '[.rows[].params]')"
# one command: nothing to compare
jq '.results |= .[:1]' "$T/three.json" >"$T/one.json"
expect_exit 64 "$ABTOOL" analyze "$T/one.json"
assert_contains "$T/err" "no two commands share parameter values"
echo ok
