# `abtool init`: every template passes `abtool check` and, run against the
# demo repository, gives the verdict its header comment states, and
# rejects the same change the other way round (slower). The equivalence
# template also passes an A/A (a candidate that only changes a README).
# init never overwrites a file, and an unknown template lists the known
# ones. The templates' rules decide on wall time; here each written
# template gets `metric: cpu_ns` appended before it runs, so that its rules
# decide what it states whatever else the machine runs (the demo's gain is
# about 0.7 in CPU time, tests/cli/demo.sh). A rule that names its own
# metric (memory's maxrss_bytes) keeps it.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$ABTOOL" demo --dir "$T/demo"
"$ABTOOL" init --list > "$T/list" || fail "init --list"
for t in no-regression lane-split memory pr-gate equivalence; do
	grep -q "^  $t " "$T/list" || fail "template $t not listed"
	expect_exit 0 "$ABTOOL" init --template "$t" "$T/demo/$t.yaml"
	expect_exit 0 "$ABTOOL" check "$T/demo/$t.yaml"
	assert_contains "$T/out" "ok"
	grep -q '^metric:' "$T/demo/$t.yaml" && fail "template $t sets metric: itself"
	echo "metric: cpu_ns" >>"$T/demo/$t.yaml"
	want=$(sed -n 's/^# Verdict on the `abtool demo` repository.*: \([a-z]*\)$/\1/p' "$T/demo/$t.yaml")
	[ -n "$want" ] || fail "template $t does not state its verdict on the demo"
	case $want in accepted) code=0 ;; rejected) code=1 ;; inconclusive) code=2 ;; *) code=3 ;; esac
	expect_exit $code "$ABTOOL" run "$T/demo/$t.yaml" --json "$T/$t.json"
	[ "$(jqv "$T/$t.json" .verdict)" = "$want" ] || fail "template $t: verdict $(jqv "$T/$t.json" .verdict), documented $want"
	# and the gate closes: the same two commits the other way round make
	# a candidate about 1.4x slower in CPU time, which every template rejects
	expect_exit 1 "$ABTOOL" run "$T/demo/$t.yaml" --candidate HEAD~1 --parent HEAD --json "$T/$t-slower.json"
	case "$t: $(jqv "$T/$t-slower.json" '.reasons[0]')" in
	equivalence:*"(a difference beyond "*"): fail"*) ;;
	equivalence:*) fail "template $t on a slower candidate: $(jqv "$T/$t-slower.json" '.reasons[0]')" ;;
	*"(a regression above "*"): fail"*) ;;
	*) fail "template $t on a slower candidate: $(jqv "$T/$t-slower.json" '.reasons[0]')" ;;
	esac
done
# The equivalence template on an A/A: a README-only candidate against its
# exact parent (the demo's faster version on both sides) is accepted. It
# is never rejected; were its CPU times too noisy for its 5% margin (the
# report warns about RSD), it could stay inconclusive, said so here.
echo "notes" > "$T/demo/README"
git -C "$T/demo" add README
git -C "$T/demo" commit -qm "README only"
"$ABTOOL" run "$T/demo/equivalence.yaml" --json "$T/aa.json" > "$T/out" 2> "$T/err"
rc=$?
case $rc in
0) [ "$(jqv "$T/aa.json" .verdict)" = accepted ] || fail "equivalence A/A: verdict $(jqv "$T/aa.json" .verdict)" ;;
2) grep -q "RSD above 5%" "$T/out" || fail "equivalence A/A inconclusive on a quiet machine: $(jqv "$T/aa.json" '.reasons[0]')"
   echo "note: the equivalence A/A stayed inconclusive on this loaded machine: $(jqv "$T/aa.json" '.reasons[0]')" ;;
*) fail "equivalence A/A: exit $rc ($(jqv "$T/aa.json" '.reasons[0]'))" ;;
esac
# never overwrite
expect_exit 64 "$ABTOOL" init --template memory "$T/demo/memory.yaml"
assert_contains "$T/err" "already exists"
expect_exit 64 "$ABTOOL" init --template nope
assert_contains "$T/err" "no template 'nope'"
assert_contains "$T/err" "lane-split"
# to stdout (the file, before this case appended its metric: line)
"$ABTOOL" init --template lane-split > "$T/stdout.yaml" || fail "init to stdout"
sed '$d' "$T/demo/lane-split.yaml" | cmp -s "$T/stdout.yaml" - || fail "stdout differs from the file"
echo ok
