# C1 control characters as UTF-8 (C2 80 to C2 9F; CSI is C2 9B) in a
# design name and a commit subject become spaces in the Markdown report,
# on stdout (run --format md, report --format md) and in --md, as ESC and
# the other C0 controls do; the store keeps the bytes.
. "$(dirname "$0")/corpus.sh"

csi=$'\xc2\x9b'
osc=$'\xc2\x9d'
make_repo "$T/repo" 2 1
git -C "$T/repo" commit --amend -qm "subject ${csi}31mred${osc}0;title"
EXP_DESIGN='"d\u009b2Jclear"' EXP_PAIRS=2 write_exp "$T/repo"
# has_c1 FILE: FILE holds a C1 control as UTF-8
has_c1() {
	LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$1"
}
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --format md --md "$T/r.md"
has_c1 "$T/out" && fail "run --format md printed a C1 control"
has_c1 "$T/r.md" && fail "--md holds a C1 control"
assert_contains "$T/out" "d 2Jclear"
assert_contains "$T/out" "subject  31mred 0;title"
expect_exit 0 "$ABTOOL" report 1 --format md --store "$T/s.db"
has_c1 "$T/out" && fail "report --format md printed a C1 control"
assert_contains "$T/out" "d 2Jclear"
expect_exit 0 "$ABTOOL" report 1 --format summary --store "$T/s.db"
has_c1 "$T/out" && fail "report --format summary printed a C1 control"
# the data itself is kept
[ "$(sqlite3 "$T/s.db" "select count(*) from designs where name = 'd${csi}2Jclear'")" = 1 ] \
	|| fail "the store changed the design's name"
echo ok
