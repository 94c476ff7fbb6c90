# repo: naming a folder that is in no git repository: exit 64, the folder
# named, and the key to fix; nothing is stored.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/plain"
printf 'name: x\nrepo: %s\nbenchmark: ./bench\n' "$T/plain" >"$T/exp.yaml"
expect_fail 64 "'$T/plain' is not a git repository (or any of its parents)" \
	"$ABTOOL" run "$T/exp.yaml" --store "$T/store.db"
assert_contains "$T/err" "set 'repo:' in the experiment file"
expect_fail 64 "'$T/plain' is not a git repository" "$ABTOOL" check "$T/exp.yaml"
[ "$(sqlite3 "$T/store.db" "select count(*) from runs" 2>/dev/null || echo 0)" = 0 ] || fail "a run was stored"
# the commands that use the working directory's repository say so
for cmd in history designs "show 1" "report 1"; do
	(cd "$T/plain" && expect_fail 64 "no store: the current folder is not in a git repository and no experiment file here names one" \
		"$ABTOOL" $cmd)
	assert_contains "$T/err" "give --store REPO/.git/abtool/abtool.db"
done
echo ok
