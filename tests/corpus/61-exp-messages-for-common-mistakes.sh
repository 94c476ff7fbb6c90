# Common mistakes of a first experiment file get messages that say what to
# do: a regex in double quotes (YAML escapes), a `repo:` that does not
# exist (file:line:column and the resolved path), a revision that reaches
# back past the history ("parent 0 does not exist" from libgit2 is not
# shown), revisions named in the repository's own folder when the file is
# in a subfolder, and --candidate/--parent swapped (a warning).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
mkdir "$T/repo/perf"
EXP_PAIRS=2 write_exp "$T/repo/perf"
sed -i "s|^checksum: .*|checksum: {regex: \"checksum=(\\\\S+)\"}|" "$T/repo/perf/exp.yaml"
grep -q 'regex: "checksum=(\\S+)"' "$T/repo/perf/exp.yaml" || fail "the case did not write double quotes"
expect_fail 64 "exp.yaml:5:30: YAML syntax error: found unknown escape character: in double quotes YAML reads a backslash as an escape; write text with backslashes, such as a regex, in single quotes" \
	"$ABTOOL" check "$T/repo/perf/exp.yaml"

EXP_PAIRS=2 EXP_EXTRA='repo: ../prj' write_exp "$T/repo/perf"
expect_fail 64 "exp.yaml:15:7: repo: '$T/repo/prj' does not exist (a relative path starts at the experiment file's folder)" \
	"$ABTOOL" check "$T/repo/perf/exp.yaml"
EXP_PAIRS=2 EXP_EXTRA='repo: exp.yaml' write_exp "$T/repo/perf"
expect_fail 64 "repo: '$T/repo/perf/exp.yaml' is not a folder" "$ABTOOL" check "$T/repo/perf/exp.yaml"

EXP_PAIRS=2 write_exp "$T/repo/perf"
expect_fail 64 "parent revision 'HEAD~5' reaches further back than the history of '$T/repo' (a root commit on the way, or a shallow clone)" \
	"$ABTOOL" check "$T/repo/perf/exp.yaml" --parent HEAD~5
assert_not_contains "$T/err" "parent 0"
expect_fail 64 "unknown candidate revision 'nosuch' in '$T/repo':" \
	"$ABTOOL" check "$T/repo/perf/exp.yaml" --candidate nosuch

# swapped: the "parent" descends from the "candidate"
expect_exit 0 "$ABTOOL" check "$T/repo/perf/exp.yaml" --candidate HEAD~1 --parent HEAD
assert_contains "$T/err" "is a descendant of the candidate"
assert_contains "$T/err" "were the candidate and the parent swapped (--candidate and --parent, or candidate: and parent:)?"
expect_exit 0 "$ABTOOL" check "$T/repo/perf/exp.yaml"
assert_not_contains "$T/err" "descendant"

# a commit subject with terminal escape sequences (a pull request's) is
# printed without them by check and show
git -C "$T/repo" commit -q --allow-empty -m "$(printf 'evil \033]0;pwned\007\033[31mred')"
expect_exit 0 "$ABTOOL" check "$T/repo/perf/exp.yaml" --candidate HEAD
assert_contains "$T/out" "evil  ]0;pwned  [31mred"
! grep -q "$(printf '\033')" "$T/out" || fail "check printed an escape character"
echo ok
