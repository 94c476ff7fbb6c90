# Hostile strings in the Markdown report and the CI summary (GitHub's step
# summary): an experiment name with newlines and a forged
# "**Verdict: accepted.**", a rule name and an analyze pairs-file value
# with HTML and pipes, backticks in a checksum and a commit subject. None
# may start a line of its own, become HTML or end a table cell or a code
# span; the real verdict is the only verdict line. GitHub's renderer
# (cmark-gfm, Debian's) checks what a reader would see.
. "$(dirname "$0")/corpus.sh"

CMARK=$(command -v cmark-gfm) || fail "no cmark-gfm: install Debian's cmark-gfm (scripts/install-deps --test)"

# check_md FILE VERDICT: the Markdown FILE has one verdict line, VERDICT's;
# one title; no raw HTML; every table row has its table's number of cells.
check_md() {
	local f=$1
	[ "$(grep -c '^\*\*Verdict' "$f")" = 1 ] || fail "$f: verdict lines: $(grep '^\*\*Verdict' "$f")"
	grep -q "^\*\*Verdict: $2\.\*\*" "$f" || fail "$f: the verdict is not $2: $(grep '^\*\*Verdict' "$f")"
	[ "$(grep -c '^# ' "$f")" = 1 ] || fail "$f: more than the title starts with '# ': $(grep '^# ' "$f")"
	grep -n '<' "$f" | grep -v '^[0-9]*:abtool run ' && fail "$f: a '<' outside the reproduce command"
	# cells: pipes not escaped by a backslash; equal in each table
	awk '/^\|/ { s = $0; gsub(/\\\|/, "", s); n = gsub(/\|/, "", s)
		     if (want && n != want) { print FILENAME ":" NR ": " n " pipes, the table has " want; bad = 1 }
		     if (!want) want = n; next }
	     { want = 0 } END { exit bad }' "$f" || fail "$f: a table row with the wrong number of cells"
	"$CMARK" -e table "$f" >"$f.html" || fail "cmark-gfm $f"
	assert_not_contains "$f.html" "<img"
	[ "$(grep -c '<strong>Verdict' "$f.html")" = 1 ] || fail "$f.html: verdicts: $(grep '<strong>Verdict' "$f.html")"
	[ "$(grep -c '<h1>' "$f.html")" = 1 ] || fail "$f.html: headings: $(grep '<h1>' "$f.html")"
}

# A run: candidate subject and checksum with backticks and pipes; the name
# with blank lines, a verdict and a heading; a rule name with HTML.
make_repo "$T/repo" 2 1
git -C "$T/repo" commit --amend -qm 'fix `x` | <img src=x onerror=alert(1)> ``y'
cat >"$T/sum.sh" <<'EOF2'
#!/bin/sh
echo 'checksum=sum`1|2``3'
EOF2
chmod +x "$T/sum.sh"
EXP_NAME='"x\n\n**Verdict: accepted.** all rules passed\n\n# heading"' EXP_PAIRS=2 \
EXP_EXTRA="  - name: 'evil <img src=x onerror=alert(1)> | cell'
    no_regression: 50%
hypothesis: 'faster by 40% & keeps <the> result'" write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/sum.sh|" "$T/repo/exp.yaml"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/db" --md "$T/r.md" --summary "$T/s.md" --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] || [ "$rc" = 2 ] || { cat "$T/err" >&2; fail "run exited $rc, expected 1 or 2"; }
verdict=$([ "$rc" = 1 ] && echo rejected || echo inconclusive)
for f in "$T/r.md" "$T/s.md"; do
	check_md "$f" "$verdict"
	assert_contains "$f" '# x  \*\*Verdict: accepted.\*\* all rules passed  # heading — '"$verdict"
	assert_contains "$f.html" '<h1>x  **Verdict: accepted.** all rules passed  # heading — '"$verdict</h1>"
	assert_contains "$f" ' evil &lt;img src=x onerror=alert(1)&gt; | cell — '
	assert_contains "$f" '> Hypothesis: faster by 40% &amp; keeps &lt;the&gt; result'
	# a fence longer than the longest run of backticks; the pipe escaped
	assert_contains "$f" '| ```sum`1\|2``3``` ✓ |'
	assert_contains "$f.html" '<code>sum`1|2``3</code>'
	assert_contains "$f.html" 'faster by 40% &amp; keeps &lt;the&gt; result'
done
assert_contains "$T/r.md" '| subject | parent: work 2 | fix \`x\` \| &lt;img src=x onerror=alert(1)&gt; \`\`y |'
assert_contains "$T/r.md.html" '<td>fix `x` | &lt;img src=x onerror=alert(1)&gt; ``y</td>'

# analyze: a pairs-file value with a newline, HTML and a pipe; a rule name
# with blank lines and HTML; the pairs are clearly faster, one rule fails
{
	echo 'workload,pair,parent,candidate'
	for i in 1 2 3 4 5 6 7; do
		printf '"x</td><img src=x onerror=alert(1)>\n**Verdict: accepted.** | y",%d,%d,%d\n' $i $((1000 + i)) $((900 + i))
	done
} >"$T/pairs.csv"
cat >"$T/rules.yaml" <<'EOF2'
accept:
  - name: "g\n\n**all good** <img src=x onerror=alert(1)> | z"
    faster_by: 50%
EOF2
expect_exit 1 "$ABTOOL" analyze "$T/pairs.csv" --accept "$T/rules.yaml" --md "$T/a.md" --summary "$T/as.md"
cmp -s "$T/out" "$T/a.md" || fail "analyze printed other Markdown than --md wrote"
for f in "$T/a.md" "$T/as.md"; do
	check_md "$f" rejected
	assert_contains "$f" '- ✗ g  \*\*all good\*\* &lt;img src=x onerror=alert(1)&gt; | z — workload=x&lt;/td&gt;&lt;img src=x onerror=alert(1)&gt; \*\*Verdict: accepted.\*\* | y: '
	assert_contains "$f" '| x&lt;/td&gt;&lt;img src=x onerror=alert(1)&gt; \*\*Verdict: accepted.\*\* \| y | '
	assert_contains "$f.html" '<td>x&lt;/td&gt;&lt;img src=x onerror=alert(1)&gt; **Verdict: accepted.** | y</td>'
done
echo ok
