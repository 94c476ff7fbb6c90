# Two messages that said what libgit2 or PCRE2 saw instead of what to do:
# a checksum printed as raw bytes (not valid UTF-8) was "not found in
# stdout" although it printed, because a regex matches only UTF-8 text;
# and a revision naming a tree (HEAD^{tree}) or a file (HEAD:bench.c)
# printed libgit2's "can not be successfully peeled into a commit
# (git_object_t=1)". Both now say what happened and what to do (exit 3
# for the failed sample, 64 for the revision).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
# (an argument list: printf itself reads the octal escapes)
sed -i "s|^benchmark: .*|benchmark: [printf, 'result\\\\nchecksum=\\\\377\\\\376\\\\n']|" "$T/repo/exp.yaml"
grep -qF "benchmark: [printf, 'result\\nchecksum=\\377\\376\\n']" "$T/repo/exp.yaml" \
	|| fail "the case did not write the benchmark: $(grep '^benchmark' "$T/repo/exp.yaml")"
expect_fail 3 "lanes=1: parent sample 0 failed: checksum not found in stdout: no match of checksum.regex 'checksum=(\\S+)'; stdout is not valid UTF-8 (byte 0xff at offset 16, line 2) and a regex matches only UTF-8 text, so it cannot match there: print the checksum as text (hex digits, say), or hash the whole output with checksum: {stdout: sha256}" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"

# valid UTF-8 that does not match: no such hint
sed -i 's|^benchmark: .*|benchmark: "echo résultat 42"|' "$T/repo/exp.yaml"
expect_fail 3 "checksum not found in stdout: no match of checksum.regex 'checksum=(\\S+)'" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_not_contains "$T/err" "not valid UTF-8"

EXP_PAIRS=2 write_exp "$T/repo"
tree=$(git -C "$T/repo" rev-parse HEAD^{tree} | cut -c1-10)
expect_fail 64 "candidate revision 'HEAD^{tree}' names a tree ($tree), not a commit; give a commit, branch or tag that points at a commit (without a suffix such as ^{tree} or :path)" \
	"$ABTOOL" check "$T/repo/exp.yaml" --candidate 'HEAD^{tree}'
assert_not_contains "$T/err" "git_object_t"
assert_not_contains "$T/err" "peeled"
expect_fail 64 "parent revision 'HEAD:bench.c' names a blob" \
	"$ABTOOL" check "$T/repo/exp.yaml" --parent 'HEAD:bench.c' --candidate HEAD
git -C "$T/repo" tag -a treetag -m 'a tag of a tree' 'HEAD^{tree}'
expect_fail 64 "candidate revision 'treetag' names a tree ($tree), not a commit" \
	"$ABTOOL" check "$T/repo/exp.yaml" --candidate treetag
echo ok
