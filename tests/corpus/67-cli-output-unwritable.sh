# An output file that cannot be written (--json into a folder that does
# not exist, --html naming a folder, --md in a read-only folder) is refused
# before anything is built or measured: exit 64 naming the option and the
# path, and no run stored. '-' still means stdout.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_fail 64 "abtool run: --json $T/nowhere/r.json: the folder '$T/nowhere' does not exist; create it first" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --json "$T/nowhere/r.json"
expect_fail 64 "abtool run: --html $T: is a folder; give a file name" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --html "$T"
mkdir "$T/ro"
chmod 555 "$T/ro"
if [ "$(id -u)" != 0 ]; then  # root writes anywhere
	expect_fail 64 "abtool run: --md $T/ro/r.md: cannot be written: Permission denied" \
		"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --md "$T/ro/r.md"
fi
[ ! -e "$T/store.db" ] || fail "a run was stored"
expect_fail 64 "abtool analyze: --junit $T/nowhere/j.xml: the folder '$T/nowhere' does not exist" \
	"$ABTOOL" analyze "$T/pairs.tsv" --junit "$T/nowhere/j.xml"
printf 'parent\tcandidate\n10\t9\n' >"$T/pairs.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/pairs.tsv" --md -
assert_contains "$T/out" "## Rows"
echo ok
