# An output file that cannot be written (--json into a folder that does
# not exist, --html naming a folder, --md in a read-only folder, a file of
# /proc) is refused before anything is built or measured: exit 64 naming
# the option and the path, and no run stored. '-' still means stdout; a
# device is written through and a symbolic link stays one.
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
	expect_fail 64 "abtool run: --md $T/ro/r.md: cannot be written: no file can be created in '$T/ro' (Permission denied)" \
		"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --md "$T/ro/r.md"
fi
[ ! -e "$T/store.db" ] || fail "a run was stored"
expect_fail 64 "abtool analyze: --junit $T/nowhere/j.xml: the folder '$T/nowhere' does not exist" \
	"$ABTOOL" analyze "$T/pairs.tsv" --junit "$T/nowhere/j.xml"
printf 'parent\tcandidate\n10\t9\n' >"$T/pairs.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/pairs.tsv" --md -
assert_contains "$T/out" "## Rows"
# /proc takes no new file (root could open /proc/version for writing)
expect_fail 64 "--json /proc/version: cannot be written: no file can be created in '/proc'" \
	"$ABTOOL" analyze "$T/pairs.tsv" --json /proc/version
# a device or a FIFO is written through, never replaced by a file; a
# symbolic link stays a link, and its target gets the report
mknod "$T/null" c 1 3 2>/dev/null || cp -a /dev/null "$T/null" 2>/dev/null || true
if [ -c "$T/null" ]; then
	expect_exit 0 "$ABTOOL" analyze "$T/pairs.tsv" --json "$T/null"
	[ -c "$T/null" ] || fail "the device was replaced by a file"
fi
# one file per format, one format per file
expect_fail 64 "--json given twice ('$T/a.json' and '$T/b.json')" \
	"$ABTOOL" analyze "$T/pairs.tsv" --json "$T/a.json" --json "$T/b.json"
expect_fail 64 "--json and --md name the same file '$T/r.out': one would overwrite the other" \
	"$ABTOOL" analyze "$T/pairs.tsv" --json "$T/r.out" --md "$T/r.out"
echo old >"$T/real.md"
ln -s real.md "$T/link.md"
expect_exit 0 "$ABTOOL" analyze "$T/pairs.tsv" --md "$T/link.md"
[ -L "$T/link.md" ] || fail "the link was replaced by a file"
assert_contains "$T/real.md" "## Rows"
echo ok
