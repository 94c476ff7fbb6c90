# Run-level notes and labels of a report, on pairs files (no timing
# involved): an empty intersection of a sequential row's looks is flagged
# and never decided, an estimate outside its repeated interval says why,
# the repeated intervals' level is stated per row, each row's interval
# note is its own (a row without an interval beside rows with one, rows of
# different pairs), lattice data get "at least", beyond 2,000 pairs the
# normal approximation is labelled and flagged in the JSON, a reason shows
# the digits its comparison needs, and the TSV has no column twice.
. "$(dirname "$0")/lib.sh"

# 1. The acceptance case of the empty intersection: looks 8, 16, 32 of a
# row whose first look sits above 1 and the rest well below, so that the
# first look's interval and the last one's do not meet; and a row whose
# estimate of all pairs falls outside the intersection of its looks.
cat >"$T/seq.tsv" <<'EOF2'
row	parent	candidate
disjoint	100.0944	103.1427
outside	99.3324	102.3575
disjoint	99.5092	102.0283
outside	101.5695	104.1408
disjoint	99.5251	99.4256
outside	102.0908	101.9887
disjoint	100.0648	102.0862
outside	101.2526	103.2981
disjoint	100.3460	103.9203
outside	102.2963	105.9400
disjoint	98.6912	98.4940
outside	98.1002	97.9042
disjoint	100.8686	103.7328
outside	99.0532	101.8659
disjoint	98.6289	101.6326
outside	99.3827	102.4093
disjoint	98.4942	93.5470
outside	100.1638	100.3110
disjoint	101.4621	96.9582
outside	99.6358	99.3218
disjoint	101.0358	96.1014
outside	101.8732	101.9042
disjoint	99.4032	94.1624
outside	99.6079	99.3846
disjoint	100.0297	95.1168
outside	100.3490	99.7323
disjoint	100.5344	95.7924
outside	100.1102	99.4992
disjoint	99.0154	94.6326
outside	99.0239	98.7283
disjoint	99.3081	94.9352
outside	101.3621	101.2381
disjoint	99.9597	95.4857
outside	97.7439	97.6214
disjoint	99.7960	95.4219
outside	98.7638	99.0222
disjoint	99.1548	94.1121
outside	101.9542	101.7757
disjoint	99.4820	94.0106
outside	99.8999	99.2830
disjoint	100.1547	94.6278
outside	99.1481	98.9845
disjoint	100.4604	95.7626
outside	99.2167	99.1411
disjoint	100.7409	95.7486
outside	101.9989	101.7881
disjoint	99.1678	94.2562
outside	99.2240	98.6727
disjoint	98.8900	93.9101
outside	100.2176	99.6331
disjoint	99.0213	94.0680
outside	98.7122	98.3826
disjoint	100.5329	95.3586
outside	99.5672	99.4946
disjoint	101.2626	96.3090
outside	101.4911	100.9498
disjoint	100.7350	96.1097
outside	100.0342	100.0942
disjoint	99.9116	95.1436
outside	100.4744	99.9385
disjoint	98.2118	93.3922
outside	99.0842	98.8681
disjoint	100.0944	95.0850
outside	100.3987	99.9361
EOF2
printf 'accept:\n  - name: not slower\n    max_ratio: 1.0\n' >"$T/rules.yaml"
expect_exit 2 "$ABTOOL" analyze "$T/seq.tsv" --accept "$T/rules.yaml" --looks 8,16,32 --json "$T/seq.json"
[ "$(jqv "$T/seq.json" '.rows[0].ci_empty')" = true ] || fail "the disjoint row is not flagged"
[ "$(jqv "$T/seq.json" '.rows[0].ci[0] > .rows[0].ci[1]')" = true ] || fail "the disjoint row's bounds"
[ "$(jqv "$T/seq.json" '.rows[0].stopped')" = max ] || fail "the disjoint row stopped early"
[ "$(jqv "$T/seq.json" '.rules[0].rows[0].outcome')" = inconclusive ] || fail "an empty intersection was decided"
[ "$(jqv "$T/seq.json" '.rows[1].estimate_outside_ci')" = true ] || fail "the estimate outside is not flagged"
assert_contains "$T/out" "max_ratio: not decided: the repeated intervals of the looks do not intersect"
assert_contains "$T/out" "| disjoint |"
assert_contains "$T/out" "(looks' intervals disjoint: not decided)"
assert_contains "$T/out" "In row=disjoint, the repeated intervals of the looks do not intersect"
assert_contains "$T/out" "(estimate of all pairs, outside)"
assert_contains "$T/out" "In row=outside, the estimate 0.9986 is of all 32 pairs and lies outside the interval [0.9990, 1.0090]"
assert_contains "$T/out" "row=outside: ratio 0.9986 [0.9990, 1.0090] (the estimate of all pairs lies outside"
assert_contains "$T/out" "row=disjoint: the repeated intervals of the 3 looks this row reached do not intersect"
assert_not_contains "$T/out" "repeated upper bound 0.985 below 1.000"
assert_not_contains "$T/out" "**0.954**"
# the level of the repeated intervals is per row, not for all rows together
assert_contains "$T/out" "for each row, whichever look it stopped at, its looks' intervals cover its true ratio together with probability at least"
assert_contains "$T/out" "a level per row (of many rows, some miss)"
assert_not_contains "$T/out" "they cover together"

# 2. A row of 4 pairs (no interval) beside rows of 8 and 12 pairs, and an
# integer-valued row with ties: each row's note is its own.
{
	printf 'row\tparent\tcandidate\n'
	# candidates about 0.8 of the parent, every ratio distinct
	A=(99.1 100.2 98.7 100.9 101.3 99.8 100.4 99.5 100.1 98.9 100.6 99.9)
	B=(79.3 80.1 79.2 80.6 81.2 79.7 80.5 79.4 80.2 79.0 80.6 79.8)
	for i in 0 1 2 3; do printf 'a\t%s\t%s\n' "${A[$i]}" "${B[$i]}"; done
	for i in 0 1 2 3 4 5 6 7; do printf 'b\t%s\t%s\n' "${A[$i]}" "${B[$i]}"; done
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do printf 'c\t%s\t%s\n' "${A[$i]}" "${B[$i]}"; done
	for c in 995 995 997 1000 995 997 997 995; do printf 'd\t1000\t%s\n' "$c"; done
} >"$T/mixed.tsv"
printf 'accept:\n  - name: gain\n    faster_by: 5%%\n    where: {row: [a, b, c]}\n' >"$T/gain.yaml"
expect_exit 2 "$ABTOOL" analyze "$T/mixed.tsv" --accept "$T/gain.yaml" --json "$T/mixed.json"
assert_contains "$T/out" "its coverage is 92.19% for 8 pairs (row=b), 90.77% for 12 pairs (row=c), at least 92.19% for 8 pairs (row=d) (at least: tied or zero differences"
assert_contains "$T/out" "No interval for row=a (4 pairs): too few pairs for an exact one-sided 95% bound (5 at least), so rules on that row can only be inconclusive."
assert_not_contains "$T/out" "No interval: 4 pairs are too few"
assert_not_contains "$T/out" "rules on these rows can only be inconclusive"
[ "$(jqv "$T/mixed.json" '[.rows[] | .tied] | join(",")')" = false,false,false,true ] || fail "tied flags"
[ "$(jqv "$T/mixed.json" '[.rules[0].rows[] | .outcome] | join(",")')" = inconclusive,pass,pass ] || fail "outcomes"

# 3. Beyond 2,000 pairs the interval comes from the normal approximation:
# the note says so and the JSON flags it.
awk 'BEGIN { print "parent\tcandidate"; for (i = 0; i < 2100; i++) printf "%d\t%d\n", 1000 + i % 13, 1000 + (i * 7) % 17 }' >"$T/long.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/long.tsv" --json "$T/long.json"
[ "$(jqv "$T/long.json" '.rows[0].ci_approximate')" = true ] || fail "the approximation is not flagged"
assert_contains "$T/out" "one-sided 95% bounds from the normal approximation of the signed-rank statistic (beyond 2,000 pairs); its coverage is about 90"
assert_not_contains "$T/out" "exact one-sided"

# 4. A reason shows the digits its comparison needs: 0.98998 is below
# 1/1.01 = 0.990099, not equal to it.
{
	printf 'parent\tcandidate\n'
	for c in 99.0 99.5 101.0 98.8 99.2 99.7 99.4; do printf '100\t%s\n' "$c"; done
} >"$T/eq.tsv"
printf 'accept:\n  - name: same\n    equivalent_within: 1%%\n' >"$T/eq.yaml"
expect_exit 2 "$ABTOOL" analyze "$T/eq.tsv" --accept "$T/eq.yaml"
assert_contains "$T/out" "(the interval [0.9900, 1.0020] is not inside [0.9901 = 1/1.01, 1.0100])"
assert_not_contains "$T/out" "[0.990, 1.002] is not inside [0.990 = 1/1.01, 1.010]"

# 5. A pairs file's `row` column is a matrix parameter: the TSV names it
# param.row beside the fixed row column, never `row` twice.
expect_exit 2 "$ABTOOL" analyze "$T/mixed.tsv" --accept "$T/gain.yaml" --tsv "$T/samples.tsv"
head -1 "$T/samples.tsv" | tr '\t' '\n' >"$T/columns"
[ "$(grep -c '^row$' "$T/columns")" = 1 ] || fail "row twice in the TSV header: $(head -1 "$T/samples.tsv")"
[ "$(sed -n 3p "$T/columns")" = param.row ] || fail "the parameter's column: $(head -1 "$T/samples.tsv")"
