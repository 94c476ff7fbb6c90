# A candidate that does not compile: invalid (exit 3), stderr has the end
# of the build log and the log's path; no sample runs.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
echo 'this is not C;' >>"$T/repo/bench.c"
git -C "$T/repo" commit -qam "candidate: broken"
EXP_PAIRS=2 write_exp "$T/repo"
expect_fail 3 "abtool: candidate build failed (exit 2); last lines of $XDG_CACHE_HOME/abtool/builds/" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "this is not C"
assert_contains "$T/err" "abtool: invalid: candidate build failed (exit 2); the whole log is in "
[ "$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1")" = 0 ] || fail "samples ran"
assert_integrity "$T/store.db"
echo ok
