# An end-to-end A/A: a candidate that only changes a README, measured
# against its exact parent, passes equivalent_within (TOST) (exit 0); the
# same rule on a candidate 3x slower in CPU time fails (exit 1). The A/A
# decides on `work`, a count the benchmark prints, equal on both sides
# whatever the host does: every pair ties, B/A is exactly 1 (an A/A on
# CPU time moves by 9% and more beside the suite's own jobs; the A/A
# error of timings is the scripted source's, tests/unit/). The 3x slower
# candidate is decided on cpu_ns, which other jobs on the machine barely
# move.
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
sed -e 's|^benchmark: .*|&; echo work=1000|' -e 's|^metric: cpu_ns$|metric: work|' "$T/repo/exp.yaml" >"$T/repo/aa.yaml"
printf 'metrics:\n  work: {regex: "work=([0-9]+)", better: lower}\n' >>"$T/repo/aa.yaml"
expect_exit 0 "$ABTOOL" run "$T/repo/aa.yaml" --json "$T/aa.json" --seed 3
assert_contains "$T/out" "Verdict: accepted"
assert_contains "$T/out" "(equivalent within 20%): pass"
[ "$(jqv "$T/aa.json" '.rules[0].equivalent_within')" = 0.2 ] || fail "threshold in the JSON rule"
[ "$(jqv "$T/aa.json" '.rows[0] | [.metric, .ratio, .tied, .pair_wins, .pair_losses] | @tsv')" = "$(printf 'work\t1\ttrue\t0\t0')" ] ||
	fail "the A/A's row: $(jqv "$T/aa.json" '.rows[0] | {metric, ratio, tied, pair_wins, pair_losses}')"
# the commit before the README one is 3x slower than its own parent
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --candidate HEAD~1 --json "$T/slower.json" --seed 3
assert_contains "$T/out" "(a difference beyond 20%)"
echo ok
