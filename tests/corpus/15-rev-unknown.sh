# An unknown revision, in the file or on the command line: exit 64, the
# revspec and the repository named.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
write_exp "$T/repo"
expect_fail 64 "unknown candidate revision 'no-such-branch' in '$T/repo'" \
	"$ABTOOL" run "$T/repo/exp.yaml" --candidate no-such-branch --store "$T/store.db"
assert_contains "$T/err" "give a commit, branch or tag"
sed -i '1a parent: v9.9' "$T/repo/exp.yaml"
expect_fail 64 "unknown parent revision 'v9.9' in '$T/repo'" "$ABTOOL" check "$T/repo/exp.yaml"
[ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] || fail "a run was stored"
echo ok
