# A comparison's Markdown, HTML and terminal reports name its sides by their names
# (issue 35, item 12): with `-n short -n long` no "parent" or "candidate"
# is left in the text (the warnings and reasons the analysis writes
# included: the renderers name the sides), the header says "Comparison of
# `short` and `long`", not "Design", and the HTML chart's legend and axis
# say "AB pair (short first)" and "long worse". A stored comparison (the
# upgrade fixture's run 8, sides one and other, with a stored warning
# "RSD above 5% (parent 2.7%, candidate 38.6%)") renders so as well. So
# do the one-line texts outside the reports: the `abtool: invalid:` and
# `abtool: verdict:` lines on stderr, `abtool show` and `abtool history`
# (they said "parent printed ... candidate printed" and "parent sample 0";
# issue 35's test report), while the TSV's side column stays parent or
# candidate (a data format).
. "$(dirname "$0")/lib.sh"

PY=$(command -v python3) || fail "no python3"

cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v11.db" "$T/fixture.db"
expect_exit 0 "$ABTOOL" report 8 --store "$T/fixture.db" --format md -o "$T/stored.md"
expect_exit 0 "$ABTOOL" report 8 --store "$T/fixture.db" --format html -o "$T/stored.html"
expect_exit 0 "$ABTOOL" report 8 --store "$T/fixture.db" --format text -o "$T/stored.txt"
# Two commands that print different things: the first warmups' checksums
# differ, so the run is invalid whatever the host does, with a reason that
# names what each side printed.
expect_exit 3 "$ABTOOL" compare 'echo 1' 'echo 2' -n short -n long --check-stdout --pairs 6 --seed 1 \
	--store "$T/new.db" --md "$T/new.md" --html "$T/new.html" --quiet
# ... and on stderr, in show and in history (a command that cannot start:
# invalid whatever the host does), and not in the TSV's side column.
expect_exit 3 "$ABTOOL" compare 'echo 1' 'echo 2' -n short -n long --check-stdout --pairs 6 --seed 1 \
	--store "$T/lines.db"
cp "$T/err" "$T/mismatch.err"
expect_exit 3 "$ABTOOL" compare -n old -n new nosuchcmd-abtool-test true --pairs 6 --seed 1 --store "$T/lines.db"
cp "$T/err" "$T/nostart.err"
assert_contains "$T/mismatch.err" "abtool: invalid: all: checksum mismatch: short printed '"
assert_contains "$T/mismatch.err" "), long printed '"
assert_contains "$T/mismatch.err" "abtool: verdict: invalid (all: checksum mismatch: short printed '"
assert_contains "$T/nostart.err" 'abtool: invalid: all: 1 failed sample(s), first: old sample 0 (warmup 1): could not start'
assert_contains "$T/nostart.err" 'abtool: verdict: invalid (all: 1 failed sample(s), first: old sample 0 (warmup 1)'
expect_exit 0 "$ABTOOL" show 1 --store "$T/lines.db"
assert_contains "$T/out" "  - all: checksum mismatch: short printed '"
expect_exit 0 "$ABTOOL" show 2 --store "$T/lines.db"
assert_contains "$T/out" '  - all: 1 failed sample(s), first: old sample 0 (warmup 1): could not start'
expect_exit 0 "$ABTOOL" history --store "$T/lines.db"
assert_contains "$T/out" "all: checksum mismatch: short printed '"
assert_contains "$T/out" 'all: 1 failed sample(s), first: old sample 0 (warmup 1): could not start'
cp "$T/out" "$T/history.txt"
for f in mismatch.err nostart.err history.txt; do
	grep -Ev '^abtool: (warning: |the samples printed different checksums)|^id ' "$T/$f" >"$T/$f.lines" || true
	grep -Eqw 'parent|candidate' "$T/$f.lines" && fail "$f names a side parent or candidate: $(grep -Ew 'parent|candidate' "$T/$f.lines")"
done
expect_exit 0 "$ABTOOL" report 1 --store "$T/lines.db" --format tsv
assert_contains "$T/out" "	AB	parent	"
assert_contains "$T/out" "	AB	candidate	"

assert_contains "$T/stored.md" 'Comparison of `one` and `other` · run 8 ·'
assert_contains "$T/stored.md" '- ⚠ all: RSD above 5% (`one` 2.7%, `other` 38.6%): a noisy machine or benchmark'
assert_contains "$T/stored.md" 'Hodges–Lehmann estimates of `other`/`one` over per-pair log ratios'
assert_contains "$T/new.md" 'Comparison of `short` and `long` · run 1 ·'
assert_contains "$T/new.md" ': checksum mismatch: `short` printed '"'"
assert_contains "$T/new.md" '`long` printed '"'"
assert_contains "$T/stored.html" 'Comparison of <code>one</code> and <code>other</code> · run 8 ·'
assert_contains "$T/stored.html" 'RSD above 5% (<code>one</code> 2.7%, <code>other</code> 38.6%)'
assert_contains "$T/stored.html" '</span>AB pair (one first)</span>'
assert_contains "$T/stored.html" '</span>BA pair (other first)</span>'
assert_contains "$T/stored.html" '>← other better</text>'
assert_contains "$T/stored.html" '>other worse →</text>'
assert_contains "$T/stored.html" '<th>one median</th><th>other median</th>'
assert_contains "$T/new.html" 'Comparison of <code>short</code> and <code>long</code> · run 1 ·'
assert_contains "$T/new.html" 'checksum mismatch: <code>short</code> printed'
# the terminal view's warnings too
assert_contains "$T/stored.txt" 'RSD above 5% (one 2.7%, other 38.6%)'
for f in stored.md new.md stored.html new.html; do
	assert_not_contains "$T/$f" "Design "
done

# No side is called parent or candidate anywhere a reader sees: the text
# of the Markdown, and of the HTML page outside its style and script
# (element text, SVG titles and labels, and the title attributes).
"$PY" - "$T" <<'EOF2' || fail "a side named parent or candidate"
import re, sys
from html.parser import HTMLParser

T = sys.argv[1]
word = re.compile(r'\b(parent|candidate)\b', re.I)


class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.skip, self.out = 0, []

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ('style', 'script')
        self.out += [v for k, v in attrs if k in ('title', 'aria-label') and v]

    def handle_endtag(self, tag):
        self.skip -= tag in ('style', 'script')

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


txt = open(f'{T}/stored.txt', encoding='utf-8').read()
assert not word.search(txt), ('stored.txt', [l for l in txt.splitlines() if word.search(l)])
for name in ('stored', 'new'):
    md = open(f'{T}/{name}.md', encoding='utf-8').read()
    assert not word.search(md), (name + '.md', [l for l in md.splitlines() if word.search(l)])
    p = Text()
    p.feed(open(f'{T}/{name}.html', encoding='utf-8').read())
    bad = [t for t in p.out if word.search(t)]
    assert not bad, (name + '.html', bad)
print('ok')
EOF2
echo ok
