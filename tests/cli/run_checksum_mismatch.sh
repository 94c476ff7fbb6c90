# A candidate that prints a different checksum makes the run invalid
# (exit 3), and the report names the differing values and their sides.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 20 1
write_exp "$T/repo"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r.json"
assert_contains "$T/out" "Verdict: invalid"
assert_contains "$T/out" "checksum mismatch"
assert_contains "$T/out" "parent printed '7919'"
assert_contains "$T/out" "candidate printed '7920'"
[ "$(jqv "$T/r.json" .verdict)" = invalid ] || fail "verdict"
[ "$(jqv "$T/r.json" '.rows[0].checksum_match')" = false ] || fail "checksum_match"
# history shows no ratio for a run that makes no speed claim
# (an invalid run stopped after some pairs has row ratios: give it some)
sqlite3 "$T/repo/.git/abtool/abtool.db" "update runs set ratio_min = 0.79, ratio_max = 1.2 where id = 1"
(cd "$T/repo" && "$ABTOOL" history) >"$T/h" || fail "history"
grep -Eq '  invalid +-  ' "$T/h" || fail "history ratio of an invalid run: $(cat "$T/h")"
echo ok
