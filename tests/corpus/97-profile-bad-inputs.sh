# abtool profile and the profile outputs refuse bad inputs with exit 64
# and a message that names the fault: no run, an unknown run, --samples out
# of range, a bad --row, a side that is neither parent nor candidate, the
# folded stacks of a run without a profile, --new-evidence run:N of a run
# without one (docs/profiles.md).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 4 2
EXP_PAIRS=2 EXP_LANES="1, 2" write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --seed 3 --quiet
expect_fail 64 "expected one run" "$ABTOOL" profile --store "$db"
expect_fail 64 "has no run 99" "$ABTOOL" profile 99 --store "$db"
expect_fail 64 "--samples: expected 1 to 100, got '0'" "$ABTOOL" profile 1 --samples 0 --store "$db"
expect_fail 64 "lanes" "$ABTOOL" profile 1 --row lanes=3 --store "$db"
expect_fail 64 "--side: expected parent or candidate, got 'both'" \
	"$ABTOOL" report 1 --format folded --side both --store "$db"
expect_fail 64 "run 1 has no candidate profile" "$ABTOOL" report 1 --format folded --store "$db"
expect_fail 64 "--new-evidence run:1: run 1 has no profile; take one with 'abtool profile 1'" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --new-evidence run:1
"$ABTOOL" show 1 --profile --store "$db" >"$T/out" 2>"$T/err" || fail "show --profile"
assert_contains "$T/out" "run 1 has no profile: add 'profile:' to the experiment file, or run 'abtool profile 1'"
echo ok
