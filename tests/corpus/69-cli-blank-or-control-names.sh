# --new-evidence of white space only is refused at once (exit 64), before
# a run is stored: stored and then refused, it left a 'running' run whose
# resume skipped the block. --design must be one line without control
# characters: a newline would be printed as a space in the Reproduce line,
# naming another design.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_fail 64 "--new-evidence: say what changed since the rejection" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --new-evidence "   "
expect_fail 64 "--design: give the design's name" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --design " 	"
expect_fail 64 "--design: a name on one line, without control characters" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --design "$(printf 'pr\n12')"
expect_fail 64 "--design: a name on one line, without control characters" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --design "$(printf 'pr\033]0;x\a')"
[ ! -e "$T/store.db" ] || [ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] || fail "a run was stored"
# PARENT..CANDIDATE takes two dots (three would read '.HEAD' as a revision)
cat >>"$T/repo/exp.yaml" <<'EOF2'
dependencies:
  - {name: lib, repo: ., path: vendor/lib}
EOF2
expect_fail 64 "--dependency: expected NAME=PARENT..CANDIDATE (a dependency of the experiment and two of its revisions joined by two dots" \
	"$ABTOOL" check "$T/repo/exp.yaml" --dependency "lib=HEAD~1...HEAD"
echo ok
