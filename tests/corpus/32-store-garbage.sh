# A store file of garbage bytes: exit 74, "not an abtool store", for every
# command that opens it; the file is never written to.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
perl -e 'srand(5); print map { chr(int(rand(256))) } 1 .. 65536' >"$T/store.db"
sum=$(sha256sum <"$T/store.db")
expect_fail 74 "'$T/store.db' is not an abtool store (file is not a database): a damaged store or another file; move it away to start a new store there, or give another --store" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
expect_fail 74 "is not an abtool store" "$ABTOOL" history --store "$T/store.db"
expect_fail 74 "is not an abtool store" "$ABTOOL" resume 1 --store "$T/store.db"
[ "$(sha256sum <"$T/store.db")" = "$sum" ] || fail "the garbage store was written to"
[ ! -e "$XDG_CACHE_HOME/abtool/builds" ] || fail "something was built"
echo ok
