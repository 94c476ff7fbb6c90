# `abtool report 1` on a frozen store (tests/golden/store.db, one real run
# that was interrupted and resumed) renders each format byte for byte as
# the reviewed expected files beside it. A difference means a report
# changed: if on purpose, regenerate and review (tests/golden/README).
. "$(dirname "$0")/lib.sh"

G="$ABTOOL_TEST_SRC/tests/golden"
# Work on a copy: opening the store switches it to WAL mode and migrates it.
cp "$G/store.db" "$T/store.db"
for fmt in md json tsv html; do
	want=$G/report.$fmt
	[ "$fmt" = tsv ] && want=$G/samples.tsv
	"$ABTOOL" report 1 --store "$T/store.db" --format "$fmt" -o "$T/got.$fmt" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "abtool report 1 --format $fmt"; }
	if ! cmp -s "$want" "$T/got.$fmt"; then
		diff -u "$want" "$T/got.$fmt" | head -n 40 >&2
		fail "--format $fmt differs from $(basename "$want"); if intended: tests/golden/regenerate.sh --outputs-only, then review"
	fi
done
# stdout and -o give the same bytes.
"$ABTOOL" report 1 --store "$T/store.db" --format tsv >"$T/stdout.tsv" || fail "tsv to stdout"
cmp -s "$G/samples.tsv" "$T/stdout.tsv" || fail "tsv on stdout differs from -o"
# The fixture holds what it is for: superseded samples (one never started).
[ "$(grep -c $'\tsuperseded\t' "$G/samples.tsv")" -ge 2 ] || fail "the fixture has no superseded pair"
[ -z "$(ls "$G" | grep -E '\.db-(wal|shm)$')" ] || fail "WAL side files next to the fixture"
echo ok
