# The terminal view's options and text: --format of run, resume and
# analyze takes text or md, --color auto, always or never (anything else
# is exit 64 naming the option); the view's strings from the input (here
# the name of analyze's file, with an escape sequence in it) reach stdout
# with their control characters as spaces, with or without colour, and
# the verdict line on stderr too.
. "$(dirname "$0")/corpus.sh"

expect_fail 64 "--format: expected text or md, got 'pdf'" "$ABTOOL" run x.yaml --format pdf
expect_fail 64 "--color: expected auto, always or never, got 'sometimes'" "$ABTOOL" analyze x.tsv --color sometimes
expect_fail 64 "--format: expected text, md, json, tsv, html, summary, junit, hyperfine or folded, got 'txt'" \
	"$ABTOOL" report 1 --format txt

name="$T/$(printf 'pairs\033[2J\033]0;t\007x').tsv"
printf 'parent\tcandidate\n' >"$name"
for i in 1 2 3 4 5 6 7 8; do printf '%d\t%d\n' $((200 + i)) $((100 + i)) >>"$name"; done
esc=$(printf '\033')
expect_exit 0 "$ABTOOL" analyze "$name" --format text --color never
grep -q "$esc" "$T/out" && fail "an escape on stdout without colour"
grep -q '^? inconclusive · .*pairs \[2J ]0;t x.tsv' "$T/out" || { cat "$T/out" >&2; fail "no view"; }
grep -q '^abtool: verdict: inconclusive (no rules) · ' "$T/err" || fail "no verdict line"
grep -q "$esc" "$T/err" && fail "an escape on stderr"
expect_exit 0 "$ABTOOL" analyze "$name" --format text --color always
grep -q "${esc}\\[2J\|${esc}\\]0" "$T/out" && fail "the file name's escapes reached stdout"
grep -q "${esc}\\[1m" "$T/out" || fail "no colour with --color always"
expect_exit 0 "$ABTOOL" analyze "$name" --quiet
[ -s "$T/err" ] && fail "--quiet: stderr is not empty"
head -1 "$T/out" | grep -q '^# ' || fail "stdout a file: not Markdown"
echo ok
