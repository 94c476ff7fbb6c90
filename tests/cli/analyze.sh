# smoke
# Designed error: 0: the pairs are written here, nothing is timed.
# `abtool analyze`: the same statistics on pairs collected elsewhere. A
# wide and a long file of the same data give identical JSON rows; the
# values of stats-vectors.md section 4 come out; --accept gates with the
# run's exit codes; bad input names the file, line and column.
. "$(dirname "$0")/lib.sh"

A=(1012 998 1005 1021 1003 1010 995)
B=(931 925 940 929 918 944 921)
O=(AB BA BA AB AB BA AB)
{
	printf 'workload\tlanes\tpair\torder\tparent\tcandidate\n'
	for i in 0 1 2 3 4 5 6; do
		printf 'churn\t1\t%d\t%s\t%s\t%s\n' $((i + 1)) "${O[$i]}" "${A[$i]}" "${B[$i]}"
		printf 'churn\t2\t%d\t%s\t%s\t%s\n' $((i + 1)) "${O[$i]}" "${A[$i]}" "$((B[i] * 2))"
	done
} > "$T/wide.tsv"
{
	echo "# the same pairs, one sample per line"
	echo "workload,lanes,pair,order,side,value"
	for i in 6 5 4 3 2 1 0; do
		echo "churn,1,$((i + 1)),${O[$i]},candidate,${B[$i]}"
		echo "churn,1,$((i + 1)),${O[$i]},parent,${A[$i]}"
		echo "churn,2,$((i + 1)),${O[$i]},parent,${A[$i]}"
		echo "churn,2,$((i + 1)),${O[$i]},candidate,$((B[i] * 2))"
	done
} > "$T/long.csv"
cat > "$T/rules.yaml" <<'EOF2'
accept:
  - name: gain at one lane
    where: {lanes: 1}
    faster_by: 5%
    min_pair_wins: 7
  - name: no regression at two lanes
    where: {lanes: 2}
    no_regression: 2%
EOF2

expect_exit 1 "$ABTOOL" analyze "$T/wide.tsv" --accept "$T/rules.yaml" --unit ms --json "$T/wide.json"
assert_contains "$T/out" "Verdict: rejected"
assert_contains "$T/out" "lanes=2"
expect_exit 1 "$ABTOOL" analyze "$T/long.csv" --accept "$T/rules.yaml" --unit ms --json "$T/long.json"
jq -S .rows "$T/wide.json" > "$T/wide.rows"
jq -S .rows "$T/long.json" > "$T/long.rows"
cmp -s "$T/wide.rows" "$T/long.rows" || { diff "$T/wide.rows" "$T/long.rows" | head -20; fail "wide and long rows differ"; }
jq -S .rules "$T/wide.json" > "$T/wide.rules"
jq -S .rules "$T/long.json" > "$T/long.rules"
cmp -s "$T/wide.rules" "$T/long.rules" || fail "wide and long rules differ"

# stats-vectors.md section 4, to 6 significant digits
r='.rows[] | select(.params.lanes == 1)'
[ "$(jq -r "$r | .ratio * 1e6 | round" "$T/wide.json")" = 924152 ] || fail "HL ratio"
[ "$(jq -r "$r | .ci[0] * 1e6 | round" "$T/wide.json")" = 915254 ] || fail "lower bound"
[ "$(jq -r "$r | .ci[1] * 1e6 | round" "$T/wide.json")" = 931079 ] || fail "upper bound"
[ "$(jq -r "$r | .ci_level" "$T/wide.json")" = 0.921875 ] || fail "coverage"
[ "$(jq -r "$r | .pair_wins" "$T/wide.json")" = 7 ] || fail "pair wins"
[ "$(jq -r "$r | .p_sign" "$T/wide.json")" = 0.015625 ] || fail "sign test p"
[ "$(jq -r "$r | .p_signed_rank" "$T/wide.json")" = 0.015625 ] || fail "signed-rank p"
[ "$(jq -r '.rules[0].outcome' "$T/wide.json")" = pass ] || fail "rule 1"
[ "$(jq -r '.rules[1].outcome' "$T/wide.json")" = fail ] || fail "rule 2"

# Without --accept: the report, exit 0; --accept with only passing rules: 0
expect_exit 0 "$ABTOOL" analyze "$T/wide.tsv"
assert_contains "$T/out" "no acceptance rules"
head -5 "$T/rules.yaml" > "$T/pass.yaml"
expect_exit 0 "$ABTOOL" analyze "$T/wide.tsv" --accept "$T/pass.yaml"
# a higher-is-better reading of the same numbers rejects the gain
expect_exit 1 "$ABTOOL" analyze "$T/wide.tsv" --accept "$T/pass.yaml" --better higher

# equivalent_within (TOST): 16 pairs of 0.1% noise around a ratio r. An
# A/A passes (exit 0), 10% slower fails (1), at the margin it cannot be
# shown either way (2).
for r in 1.0 1.1 1.02; do
	awk -v r=$r 'BEGIN { print "pair\torder\tparent\tcandidate"
		for (i = 1; i <= 16; i++) {
			a = ((i * 7) % 11 - 5) / 5; b = ((i * 5) % 13 - 6) / 6
			printf "%d\t%s\t%.4f\t%.4f\n", i, ((int((i - 1) / 2) + i - 1) % 2) ? "BA" : "AB",
				1000 * (1 + 0.001 * a), 1000 * r * (1 + 0.001 * b) } }' > "$T/eq_$r.tsv"
done
printf 'accept:\n  - name: no change\n    equivalent_within: 2%%\n' > "$T/eq.yaml"
expect_exit 0 "$ABTOOL" analyze "$T/eq_1.0.tsv" --accept "$T/eq.yaml"
assert_contains "$T/out" "inside [0.980 = 1/1.02, 1.020] (equivalent within 2%): pass"
expect_exit 1 "$ABTOOL" analyze "$T/eq_1.1.tsv" --accept "$T/eq.yaml"
assert_contains "$T/out" "above 1.020 (a difference beyond 2%), kept by Holm's adjustment over the verdict's 2 refutations"
expect_exit 2 "$ABTOOL" analyze "$T/eq_1.02.tsv" --accept "$T/eq.yaml"
assert_contains "$T/out" "cannot show equivalence within 2% (the interval [1.0194, 1.0205] is not inside [0.9804 = 1/1.02, 1.0200]): inconclusive"

# Bad input
printf 'lanes\tparent\tcandidate\n1\t100\tfast\n' > "$T/bad1.tsv"
expect_exit 64 "$ABTOOL" analyze "$T/bad1.tsv"
assert_contains "$T/err" "bad1.tsv:2: column 'candidate': expected a positive number, got 'fast'"
printf 'lanes,pair,side,value\n1,1,parent,10\n1,1,parent,11\n' > "$T/bad2.csv"
expect_exit 64 "$ABTOOL" analyze "$T/bad2.csv"
assert_contains "$T/err" "bad2.csv:3: pair '1' has a second parent value (first at line 2)"
printf 'lanes,pair,side,value\n1,1,parent,10\n1,2,candidate,11\n' > "$T/bad3.csv"
expect_exit 64 "$ABTOOL" analyze "$T/bad3.csv"
assert_contains "$T/err" "bad3.csv:2: pair '1' has only a parent value"
printf 'lanes,x,y\n1,2,3\n' > "$T/bad4.csv"
expect_exit 64 "$ABTOOL" analyze "$T/bad4.csv"
assert_contains "$T/err" "the header needs either 'parent' and 'candidate'"
printf 'lanes,pair,side,value\n1,1,left,10\n' > "$T/bad5.csv"
expect_exit 64 "$ABTOOL" analyze "$T/bad5.csv"
assert_contains "$T/err" "column 'side': expected parent or candidate"
printf 'accept:\n  - name: x\n    where: {lanes: 3}\n    faster_by: 5%%\n' > "$T/badrules.yaml"
expect_exit 64 "$ABTOOL" analyze "$T/wide.tsv" --accept "$T/badrules.yaml"
assert_contains "$T/err" "badrules.yaml:3:13: accept[0].where.lanes: no row has lanes = 3; its values are 1, 2"
expect_exit 64 "$ABTOOL" analyze "$T/missing.tsv"
assert_contains "$T/err" "missing.tsv"

# The order effect: a candidate 10% slower whenever it runs second (AB
# pairs) and 10% faster when it runs first: material, and reported; the
# balanced order cancels it in the ratio.
{
	printf 'pair\torder\tparent\tcandidate\n'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		if [ $((i % 2)) = 0 ]; then printf '%d\tAB\t1000\t%d\n' $i $((1100 + i))
		else printf '%d\tBA\t1000\t%d\n' $i $((900 + i)); fi
	done
} >"$T/order.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/order.tsv"
assert_contains "$T/out" "Order effect (AB against BA pairs): material (at least 0.5% with p below 0.05 after Holm's adjustment over the rows) in 1 of 1 rows, up to 10.54% (all)"
assert_contains "$T/out" "the crossover estimate 1.001 [0.999, 1.003] removes it"
sed 's/^\([0-9]*\)\tBA\t1000\t9/\1\tBA\t1000\t11/' "$T/order.tsv" >"$T/no-order.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/no-order.tsv"
assert_contains "$T/out" "Order effect (AB against BA pairs): running second changes a ratio by at most 0.05% (all); material (at least 0.5% with p below 0.05 after Holm's adjustment over the rows) in no row."
echo ok
