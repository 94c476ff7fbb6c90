# An unknown option, and an option without its argument: exit 64, the
# option named, the command's usage.
. "$(dirname "$0")/corpus.sh"

expect_fail 64 "abtool run: unrecognized option '--frobnicate'" "$ABTOOL" run exp.yaml --frobnicate
assert_contains "$T/err" "usage: abtool run EXP.yaml"
expect_fail 64 "abtool history: option '--limit' requires an argument" "$ABTOOL" history --limit
assert_contains "$T/err" "usage: abtool history"
echo ok
