# allow_failed_pairs counts failed pairs, not timed-out samples, and never
# drops one: a benchmark that hangs past a 1 s timeout on some calls only
# (both samples of pair 3, then one sample of pair 6; it blocks on a FIFO
# nothing writes) is tolerated by allow_failed_pairs: 2; pair 3 stays in
# the row as a tie (d = 0), pair 6 as a loss for the side that timed out,
# and the report says so. The rule decides on `work`, a count the
# benchmark prints (2000 on the parent, 1000 on the candidate), not on a
# time: every pair that did not time out is a win for the candidate, and
# the verdict (accepted) holds whatever the host does.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/repo"
git -C "$T/repo" init -q
# Calls are counted across both trees in $T/calls (plan order, no warmup):
# calls 5 and 6 are the two samples of pair 3, call 11 the first of pair 6.
mkfifo "$T/never"
cat >"$T/repo/bench.sh" <<'EOF2'
#!/bin/sh
n=$(cat "$1" 2>/dev/null || echo 0)
echo $((n + 1)) >"$1"
case $n in 4 | 5 | 10) read -r _ <"$2" ;; esac
echo checksum=1 work=2000
EOF2
chmod +x "$T/repo/bench.sh"
git -C "$T/repo" add -A
git -C "$T/repo" commit -qm parent
sed -i 's/work=2000/work=1000/' "$T/repo/bench.sh"
git -C "$T/repo" commit -qam "candidate: half the work"
cat >"$T/repo/exp.yaml" <<EOF2
name: failed-pairs
build: 'true'
benchmark: [./bench.sh, '$T/calls', '$T/never']
checksum: {regex: 'checksum=(\S+)'}
pairs: 16
warmup: 0
timeout: 1s
metrics:
  work: {regex: 'work=([0-9]+)', better: lower}
metric: work
accept:
  - name: no large regression
    no_regression: 50%
    allow_failed_pairs: 2
EOF2
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --seed 7 --json "$T/r.json"
[ "$(cat "$T/calls")" = 32 ] || fail "expected 32 calls, got $(cat "$T/calls")"
[ "$(jqv "$T/r.json" '.rows[0].pairs')" = 16 ] || fail "a pair was dropped: $(jqv "$T/r.json" '.rows[0].pairs') pairs"
[ "$(jqv "$T/r.json" '.rows[0].planned_pairs')" = 16 ] || fail "planned_pairs"
[ "$(jqv "$T/r.json" '.rows[0].failed_pairs')" = 2 ] || fail "failed_pairs"
[ "$(jqv "$T/r.json" '.rows[0].timed_out_ties')" = 1 ] || fail "timed_out_ties"
[ "$(jqv "$T/r.json" '.rows[0].timed_out_losses')" = 1 ] || fail "timed_out_losses"
[ "$(jqv "$T/r.json" '.rows[0].failed_samples')" = 0 ] || fail "failed_samples"
# pair 3 is a tie: 16 pairs = wins + losses + 1
w=$(jqv "$T/r.json" '.rows[0].pair_wins')
l=$(jqv "$T/r.json" '.rows[0].pair_losses')
[ $((w + l)) = 15 ] || fail "wins $w + losses $l should be 15 (one tie)"
[ "$l" -le 1 ] || fail "$l losses: only the pair where one side timed out can be one"
# the fields are documented in the closed schema
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/r.json" ||
		fail "schema validation of the report with failed pairs"
fi
assert_contains "$T/out" "all: allow_failed_pairs tolerated 2 pair(s) with a timed-out sample, none dropped: 1 where only the"
assert_contains "$T/out" "timed out (its worst value: a loss for it), 1 where both sides timed out (both worst: a tie, d = 0)"

# One allowed failed pair is too few for two: invalid, and the run stops at
# the first timeout beyond it (call 11), not at the second sample of pair 3.
rm -f "$T/calls"
sed -i 's/allow_failed_pairs: 2/allow_failed_pairs: 1/' "$T/repo/exp.yaml"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --seed 7 --json "$T/r1.json"
[ "$(cat "$T/calls")" = 11 ] || fail "the run should stop at call 11, made $(cat "$T/calls")"
[ "$(jqv "$T/r1.json" .verdict)" = invalid ] || fail "verdict with allow_failed_pairs: 1"
assert_contains "$T/out" "(pair 6): timed out after 1 s"
echo ok
