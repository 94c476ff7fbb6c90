# A second run of the same experiment performs no build: the build
# command's executions are counted, not timed.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 20
EXP_BUILD="echo built >> $T/count && make" EXP_PAIRS=2 write_exp "$T/repo"
expect_exit 2 "$ABTOOL" run "$T/repo/exp.yaml" --quiet
[ "$(wc -l < "$T/count")" = 2 ] || fail "first run: $(wc -l < "$T/count") builds, expected 2"
expect_exit 2 "$ABTOOL" run "$T/repo/exp.yaml"
[ "$(wc -l < "$T/count")" = 2 ] || fail "second run rebuilt: $(wc -l < "$T/count") builds"
assert_contains "$T/err" "parent: build cached"
assert_contains "$T/err" "candidate: build cached"
# The report says this comparison was run before.
assert_contains "$T/err" "was run 1 time before: run 1 inconclusive"
assert_contains "$T/out" "This exact comparison (same experiment file, same commits) was run 1 time before"
# Gating maps an inconclusive verdict when asked to.
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --quiet --inconclusive=reject
assert_contains "$T/err" "--inconclusive=reject maps it to exit 1"
expect_exit 0 "$ABTOOL" run "$T/repo/exp.yaml" --quiet --inconclusive=accept
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --inconclusive=maybe
assert_contains "$T/err" "--inconclusive: expected reject or accept, got 'maybe'"
echo ok
