# abtool bisect refuses what it cannot search, before anything is built or
# stored (exit 64, naming the option): no --good or --bad, the same commit
# twice, a good commit that is not on bad's first-parent history, an
# unknown revision, a threshold that is not a percentage, rules without a
# margin and no --threshold, an unknown metric, too few pairs for the
# search's level (naming the pairs needed), --resume with an experiment
# file or of an unknown bisect. No store is created.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
git -C "$T/repo" commit -q --allow-empty -m third
git -C "$T/repo" commit -q --allow-empty -m fourth
EXP_PAIRS=10 write_exp "$T/repo"
e="$T/repo/exp.yaml"
db="$T/repo/.git/abtool/abtool.db"
expect_fail 64 "give --good REV (before the change) and --bad REV (after it)" "$ABTOOL" bisect "$e" --good HEAD~2
expect_fail 64 "--good and --bad name the same commit" "$ABTOOL" bisect "$e" --good HEAD --bad HEAD
expect_fail 64 "--good HEAD is not on the first-parent history of --bad HEAD~2" \
	"$ABTOOL" bisect "$e" --good HEAD --bad HEAD~2
expect_fail 64 "--bad: unknown revision 'nosuch'" "$ABTOOL" bisect "$e" --good HEAD~2 --bad nosuch
expect_fail 64 "--threshold: expected a positive percentage like 5%, got '5'" \
	"$ABTOOL" bisect "$e" --good HEAD~2 --bad HEAD --threshold 5
expect_fail 64 "--metric: the experiment has no metric 'nosuch'" \
	"$ABTOOL" bisect "$e" --good HEAD~2 --bad HEAD --metric nosuch
expect_fail 64 "4 pairs per comparison give no interval at the bisect's level" \
	"$ABTOOL" bisect "$e" --good HEAD~2 --bad HEAD --pairs 4
assert_contains "$T/err" "give --pairs 8 or more"
expect_fail 64 "--resume ID takes no experiment file" "$ABTOOL" bisect "$e" --resume 1
sed -i '/^accept:/,$d' "$e"
echo 'accept: [{name: ratio, max_ratio: 1.5}]' >> "$e"
expect_fail 64 "the experiment's rules set no margin; give the smallest change that counts" \
	"$ABTOOL" bisect "$e" --good HEAD~2 --bad HEAD
[ ! -e "$db" ] || fail "a store was created"
expect_fail 64 "no store" "$ABTOOL" bisect --resume 3 --store "$T/none.db"
[ ! -e "$T/none.db" ] || fail "--resume created a store"
echo ok
