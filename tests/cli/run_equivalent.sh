# An end-to-end A/A: a candidate that only changes a README, measured
# against its exact parent, passes equivalent_within (TOST) with a margin
# generous enough for a loaded machine and enough pairs to decide it
# (exit 0); the same rule on a candidate 3x slower fails (exit 1). On
# cpu_ns, which other jobs on the machine barely move.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 20 60
echo "a README that changes nothing the benchmark runs" > "$T/repo/README"
git -C "$T/repo" add README
git -C "$T/repo" commit -qm "readme only"
cat > "$T/repo/exp.yaml" <<'EOF2'
name: a-a
design: a-a
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1]}
metric: cpu_ns
pairs: 20
warmup: 1
timeout: 60s
accept:
  - name: no change
    equivalent_within: 20%
EOF2
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/aa.json" --seed 3
assert_contains "$T/out" "Verdict: accepted"
assert_contains "$T/out" "(equivalent within 20%): pass"
[ "$(jqv "$T/aa.json" '.rules[0].equivalent_within')" = 0.2 ] || fail "threshold in the JSON rule"
# the commit before the README one is 3x slower than its own parent
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --candidate HEAD~1 --json "$T/slower.json" --seed 3
assert_contains "$T/out" "(a difference beyond 20%)"
echo ok
