# The candidate is HEAD, but HEAD is a branch without a commit (a new
# repository, or `git checkout --orphan`): exit 64, the branch named and
# what to do, instead of "revspec 'HEAD' not found".
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
git -C "$T/repo" checkout -q --orphan fresh
expect_fail 64 "the candidate is HEAD, but HEAD of '$T/repo' is branch 'fresh', which has no commit yet; commit first, or name a commit with --candidate" \
	"$ABTOOL" check "$T/repo/exp.yaml"
expect_fail 64 "is branch 'fresh', which has no commit yet" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
# naming a commit works
branch=$(git -C "$T/repo" for-each-ref --format='%(refname:short)' refs/heads | head -n 1)
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml" --candidate "$branch"
mkdir "$T/empty"
git -C "$T/empty" init -q -b trunk
cp "$T/repo/exp.yaml" "$T/empty/"
expect_fail 64 "the candidate is HEAD, but HEAD of '$T/empty' is branch 'trunk', which has no commit yet" \
	"$ABTOOL" check "$T/empty/exp.yaml"
echo ok
