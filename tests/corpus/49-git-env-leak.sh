# abtool run from a git hook, `git rebase -x` or a git alias inherits
# GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE pointing at the user's
# repository. A build that calls git must still see its own tree (the
# commit it builds), and must not touch the user's index: here the build
# records `git rev-parse HEAD` and runs `git add -A`.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
sed -i "s|^build: .*|build: 'make \&\& git rev-parse HEAD >rev.txt \&\& git add -A'|" "$T/repo/exp.yaml"
before=$(git -C "$T/repo" status --porcelain)
cd "$T/repo" || fail "cd"
GIT_DIR="$T/repo/.git" GIT_WORK_TREE="$T/repo" GIT_INDEX_FILE="$T/repo/.git/index" \
	expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --quiet
[ "$(git -C "$T/repo" status --porcelain)" = "$before" ] || fail "the build changed the user's index: $(git -C "$T/repo" status --porcelain)"
n=0
for tree in "$XDG_CACHE_HOME"/abtool/builds/*/; do
	[ "$(cat "$tree/rev.txt")" = "$(git -C "$tree" rev-parse HEAD)" ] ||
		fail "the build in $tree saw commit $(cat "$tree/rev.txt"), not its own $(git -C "$tree" rev-parse HEAD)"
	n=$((n + 1))
done
[ $n = 2 ] || fail "expected 2 trees, found $n"
parent=$(git -C "$T/repo" rev-parse HEAD~1)
grep -qx "$parent" "$XDG_CACHE_HOME"/abtool/builds/*/rev.txt || fail "no tree built the parent $parent"
echo ok
