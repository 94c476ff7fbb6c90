# A candidate that does not compile: invalid (exit 3), the tail of the
# build log shown, the whole log kept, no sample run.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 20
echo 'this is not C;' >> "$T/repo/bench.c"
git -C "$T/repo" commit -qam "candidate: broken"
write_exp "$T/repo"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r.json"
assert_contains "$T/err" "candidate build failed (exit 2)"
assert_contains "$T/err" "error:"
assert_contains "$T/out" "Verdict: invalid"
log=$(grep -o "$XDG_CACHE_HOME/abtool/builds/[0-9a-f]*\.log" "$T/err" | head -1)
[ -n "$log" ] && [ -s "$log" ] || fail "the whole build log is not kept"
grep -q "this is not C" "$log" || grep -q "error" "$log" || fail "log content"
db="$T/repo/.git/abtool/abtool.db"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1")" = 0 ] || fail "samples ran"
[ "$(sqlite3 "$db" "select status from builds where side = 'candidate'")" = failed ] || fail "build status"
echo ok
