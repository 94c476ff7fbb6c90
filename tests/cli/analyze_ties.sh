# `abtool analyze --json` on the verdict-trust issue's reproducers: exact
# ties of integer pairs whose ratios are within 1e-4 of 1 (the signed-rank
# p equals the sign test's, no "a few large pairs" warning), ratios that
# overflow a double, subnormal values, and rows with no interval.
. "$(dirname "$0")/lib.sh"

# Item 1: pair 1 one way, pairs 2-6 and 8 the other, pair 7 tied.
{
	printf 'pair\tparent\tcandidate\n'
	printf '1\t1000000000\t1000001000\n'
	for i in 2 3 4 5 6; do printf '%d\t1000001000\t1000000000\n' $i; done
	printf '7\t1000001000\t1000001000\n'
	printf '8\t1000001000\t1000000000\n'
} >"$T/ties.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/ties.tsv" --json "$T/ties.json"
[ "$(jq -r '.rows[0].p_signed_rank' "$T/ties.json")" = 0.125 ] || fail "signed-rank p of the ties"
[ "$(jq -r '.rows[0].p_sign' "$T/ties.json")" = 0.125 ] || fail "sign p of the ties"
assert_not_contains "$T/out" "a few large pairs"
assert_not_contains "$T/err" "a few large pairs"

# Item 2: b/a overflows in every pair; five one way, the sixth reversed.
{
	printf 'pair\tparent\tcandidate\n'
	for i in 1 2 3 4 5; do printf '%d\t1e-300\t1e300\n' $i; done
	printf '6\t1e300\t1e-300\n'
} >"$T/huge.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/huge.tsv" --json "$T/huge.json"
[ "$(jq -r '.rows[0].p_signed_rank' "$T/huge.json")" = 0.21875 ] || fail "signed-rank p of overflowing ratios"

# Subnormal values are positive numbers.
{
	printf 'pair\tparent\tcandidate\n'
	for i in 1 2 3 4 5; do printf '%d\t1e-320\t2e-320\n' $i; done
	printf '6\t2e-320\t1e-320\n'
} >"$T/tiny.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/tiny.tsv" --json "$T/tiny.json"
[ "$(jq -r '.rows[0].p_signed_rank' "$T/tiny.json")" = 0.21875 ] || fail "signed-rank p of subnormal values"
[ "$(jq -r '.rows[0].ratio > 1' "$T/tiny.json")" = true ] || fail "ratio of subnormal values"

# One and four pairs: no interval, so no level.
for n in 1 4; do
	{
		printf 'pair\tparent\tcandidate\n'
		for i in $(seq 1 $n); do printf '%d\t100\t9%d\n' $i $i; done
	} >"$T/few$n.tsv"
	expect_exit 0 "$ABTOOL" analyze "$T/few$n.tsv" --json "$T/few$n.json"
	[ "$(jq -c '.rows[0].ci' "$T/few$n.json")" = '[null,null]' ] || fail "$n pairs: ci"
	[ "$(jq -r '.rows[0].ci_level' "$T/few$n.json")" = null ] || fail "$n pairs: ci_level"
done
echo ok
