# serial
# `abtool demo` builds its embedded repository and accepts the candidate.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$ABTOOL" demo --dir "$T/demo"
assert_contains "$T/out" "# demo-odd-trial-divisors — accepted"
assert_contains "$T/out" "Verdict: accepted"
assert_contains "$T/out" "| lanes |"
[ "$(git -C "$T/demo" rev-list --count HEAD)" = 2 ] || fail "demo repository should have 2 commits"
echo ok
