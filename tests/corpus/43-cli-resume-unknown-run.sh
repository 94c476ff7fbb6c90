# resume of a run the store does not have (an id, a uuid prefix): exit 64,
# the store named and how to list its runs.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
expect_fail 64 "store '$T/store.db' has no run 99; list runs with 'abtool history'" \
	"$ABTOOL" resume 99 --store "$T/store.db"
expect_fail 64 "no run 'zz-not-a-uuid' in the store '$T/store.db'; list runs with 'abtool history'" \
	"$ABTOOL" resume zz-not-a-uuid --store "$T/store.db"
assert_integrity "$T/store.db"
echo ok
