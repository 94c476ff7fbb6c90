# A tree with a submodule: abtool does not check out submodules, so it
# refuses (exit 64) and names the submodule, instead of building with an
# empty folder. Both the candidate's and the parent's trees are checked.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/lib" 2 1
make_repo "$T/repo" 2 1
git -C "$T/repo" -c protocol.file.allow=always submodule add -q "$T/lib" vendor/lib
git -C "$T/repo" commit -qm "add a submodule"
echo "# cand" >>"$T/repo/Makefile"
git -C "$T/repo" commit -qam candidate
write_exp "$T/repo"
short=$(git -C "$T/repo" rev-parse --short=10 HEAD)
expect_fail 64 "the tree of candidate $short has submodule 'vendor/lib': abtool does not check out submodules; vendor the code or list it under dependencies:" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] || fail "a run was stored"
# the parent's tree has it too (the candidate removed it)
git -C "$T/repo" rm -q vendor/lib
git -C "$T/repo" commit -qm "remove the submodule"
short=$(git -C "$T/repo" rev-parse --short=10 HEAD~1)
expect_fail 64 "the tree of parent $short has submodule 'vendor/lib'" "$ABTOOL" check "$T/repo/exp.yaml"
echo ok
