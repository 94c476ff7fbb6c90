# min_pair_wins above the planned pairs can never pass: exit 64 naming the
# rule and where the pair count came from, in check, in run (the file's
# pairs or --pairs), and in analyze --accept; nothing is measured.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=6 EXP_EXTRA='  - name: wins
    min_pair_wins: 7' write_exp "$T/repo"
expect_fail 64 "exp.yaml:15:5: accept[2] (wins): min_pair_wins 7 exceeds the 6 planned pairs per row (pairs: 6)" \
	"$ABTOOL" check "$T/repo/exp.yaml"
expect_fail 64 "min_pair_wins 7 exceeds the 6 planned pairs per row (pairs: 6)" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ ! -e "$T/store.db" ] || [ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] \
	|| fail "a run was stored"

# a share of the pairs, or a count the pairs reach, is fine
EXP_PAIRS=8 EXP_EXTRA='  - name: wins
    min_pair_wins: 7' write_exp "$T/repo"
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml"
expect_fail 64 "min_pair_wins 7 exceeds the 4 planned pairs per row (--pairs 4)" \
	"$ABTOOL" run --pairs 4 "$T/repo/exp.yaml" --store "$T/store.db"
[ ! -e "$T/store.db" ] || [ "$(sqlite3 "$T/store.db" "select count(*) from samples")" = 0 ] \
	|| fail "samples were measured"

# analyze --accept: the pairs of the file are the limit
printf 'parent\tcandidate\n10\t9\n10\t9\n' >"$T/pairs.tsv"
printf 'accept:\n  - name: wins\n    min_pair_wins: 3\n' >"$T/rules.yaml"
expect_fail 64 "rules.yaml:2:5: accept[0] (wins): min_pair_wins 3 exceeds the 2 planned pairs per row" \
	"$ABTOOL" analyze "$T/pairs.tsv" --accept "$T/rules.yaml"
echo ok
