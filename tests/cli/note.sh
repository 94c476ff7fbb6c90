# abtool note on the real runs of the v1 fixture store: notes on a run
# and on a design are stored with their time, shown by `abtool show`
# (design notes on every run of the design) and searchable at once.
. "$(dirname "$0")/lib.sh"

db="$T/store.db"
cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v1.db" "$db"

expect_exit 0 "$ABTOOL" note 2 --store "$db" "perf shows the extra loop is all of the time"
assert_contains "$T/out" "note 1 added to run 2 (design 'double-the-loop')"
expect_exit 0 "$ABTOOL" note --design halve-the-loop --store "$db" see https://example.invalid/pr/12 for the review
assert_contains "$T/out" "note 2 added to design 'halve-the-loop'"
printf 'from stdin:\nsecond line\n' | "$ABTOOL" note latest --store "$db" - >"$T/out" 2>"$T/err" || fail "note from stdin"
assert_contains "$T/out" "note 3 added to run 4"
expect_exit 0 "$ABTOOL" note 1 --store "$db" -- "-5% at 8 lanes would still be fine"

[ "$(sqlite3 "$db" "SELECT count(*) FROM notes")" = 4 ] || fail "four notes"
[ "$(sqlite3 "$db" "SELECT text FROM notes WHERE id = 2")" = "see https://example.invalid/pr/12 for the review" ] \
	|| fail "words joined"
[ "$(sqlite3 "$db" "SELECT text FROM notes WHERE id = 3")" = "$(printf 'from stdin:\nsecond line')" ] || fail "stdin text"
[ "$(sqlite3 "$db" "SELECT count(*) FROM notes WHERE created_at LIKE '$(date -u +%Y-%m-%d)T%Z'")" = 4 ] || fail "times"

# show: the run's notes and its design's.
expect_exit 0 "$ABTOOL" show 1 --store "$db"
grep -Eq "^  $(date -u +%Y-%m-%d) [0-9:]{5}  design  see https://example.invalid/pr/12 for the review$" "$T/out" \
	|| fail "design note on run 1"
assert_contains "$T/out" "run     -5% at 8 lanes would still be fine"
assert_not_contains "$T/out" "extra loop"
expect_exit 0 "$ABTOOL" show 2 --store "$db"
assert_contains "$T/out" "run     perf shows the extra loop is all of the time"
assert_not_contains "$T/out" "example.invalid/pr/12"

# history --grep finds them.
for q in "extra loop:2" "example.invalid:1" "second line:4" "review:1"; do
	got=$("$ABTOOL" history --store "$db" --grep "${q%%:*}" --json | jq -r 'map(.id) | join(",")')
	[ "$got" = "${q##*:}" ] || fail "--grep '${q%%:*}' found '$got'"
done

# Errors: an unknown run or design, no text.
expect_exit 64 "$ABTOOL" note 9 --store "$db" "text"
assert_contains "$T/err" "no run 9"
expect_exit 64 "$ABTOOL" note --design halve-the-lop --store "$db" "text"
assert_contains "$T/err" "no design 'halve-the-lop'"
assert_contains "$T/err" "did you mean 'halve-the-loop'?"
expect_exit 64 "$ABTOOL" note 1 --store "$db" "   "
expect_exit 64 "$ABTOOL" note 1 --store "$db"
expect_exit 64 "$ABTOOL" note --design halve-the-loop --store "$db"
[ "$(sqlite3 "$db" "SELECT count(*) FROM notes")" = 4 ] || fail "a failed note was stored"
echo ok
