# abtool site over a store of two projects and the comparisons
# (site_lib.bash: accepted, rejected, inconclusive, invalid, comparison and
# bisect runs, notes, new evidence; every verdict decided on a printed
# count, none on the machine's timing): the pages are written, each run's
# report and samples are the bytes `abtool report` writes, the designs
# page lists each rejected design with the failing part of its reason and
# "do not retry without new evidence", the pages load nothing from
# elsewhere, and a second build renders only the run that is new.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/site_lib.bash"

S="$T/s.db"
site_store "$S"
A=p/github.com-acme-engine
SITE="$T/site"

expect_exit 0 "$ABTOOL" site "$SITE" --store "$S"
assert_contains "$T/out" "3 projects, 12 runs (12 rendered, 0 up to date)"
for f in index.html style.css $A/index.html $A/designs.html p/comparisons/index.html; do
	[ -s "$SITE/$f" ] || fail "no $f"
done
[ "$(ls -d "$SITE"/p/root-* | wc -l)" = 1 ] || fail "one folder for project b (root:...)"

# Each run's folder: the report and the samples as abtool report writes them.
for id in $(seq 1 12); do
	"$ABTOOL" report "$id" --format html --store "$S" | cmp -s - "$SITE/runs/$id/report.html" ||
		fail "runs/$id/report.html is not what abtool report writes"
	"$ABTOOL" report "$id" --format tsv --store "$S" | cmp -s - "$SITE/runs/$id/samples.tsv" ||
		fail "runs/$id/samples.tsv is not what abtool report writes"
done

# The designs page: each rejected design with its failing reason, the
# rejected first; the accepted and undecided after.
D="$SITE/$A/designs.html"
python3 - "$D" <<'EOF' || fail "the designs page"
import re, sys
page = open(sys.argv[1]).read()
sections = re.findall(r'<section class="design s-(\w+)" id="d-[\w.-]+" data-design="([^"]+)">(.*?)</section>',
                      page, re.S)
got = {name: (standing, body) for standing, name, body in sections}
want = {"double-work": "rejected", "halve-work": "accepted", "quarter-work": "accepted",
        "same-work": "undecided", "new-checksum": "undecided"}
assert {k: v[0] for k, v in got.items()} == want, got.keys()
assert [s for s, _, _ in sections][0] == "rejected", "rejected first"
body = got["double-work"][1]
assert "Do not retry without new evidence." in body
assert "lower bound 2.000 above 1.020 (a regression above 2%)" in body
assert "doubling the batch amortizes the lock" in body
assert "the lock was split in two since" in body, "the new evidence"
assert "tried in pull request 41" in body, "the design's note"
assert "quiet runner" not in body, "a later note on a run is not new evidence"
assert "Do not retry" not in got["halve-work"][1]
EOF
# The failing part of a rule's reason comes first.
grep -q 'no regression</strong>: lanes=1: ratio 2.000' "$D" || fail "the failed rule's reason"

# Nothing loads from elsewhere: a Content-Security-Policy on every page,
# every src and every link element relative.
for f in $(cd "$SITE" && find . -name '*.html' ! -path './runs/*'); do
	assert_contains "$SITE/$f" "content=\"default-src 'none'; style-src 'self'; script-src 'self';"
	if grep -Eo '(src|href)="[^"]*"' "$SITE/$f" | grep -v -e 'href="https://github.com/acme/engine/commit/' -e 'href="data:,"' |
		grep -Eq '"[a-z]+:|"//'; then
		fail "$f refers to another site: $(grep -Eo '(src|href)="[a-z]+:[^"]*"' "$SITE/$f" | head -3)"
	fi
done

# In a headless browser, offline: every page of a project (one design's
# page of five, which are alike), the comparisons' and the site's index render without a console message (no script error,
# nothing refused by the policy), and the DOM, after the scripts ran,
# refers to no other site.
chromium_find
browse() {  # browse PAGE OUT: the DOM of PAGE (a path under $SITE, with ?query) in OUT
	chromium_run "$2" "$2.err" --dump-dom "file://$SITE/$1" || {
		tail -n 20 "$2.err" >&2
		fail "chromium $1"
	}
	if console_messages "$2.err" >"$2.console"; then
		cat "$2.console" >&2
		fail "$1 wrote to the console"
	fi
	if grep -Eo '(src|href)="[^"]*"' "$2" | grep -v -e 'href="https://github.com/acme/engine/commit/' \
		-e 'href="data:,"' | grep -Eq '"[a-z]+:|"//'; then
		fail "$1 refers to another site in its DOM"
	fi
}
n=0
for f in index.html $(cd "$SITE" && ls $A/*.html | grep -v 'design-' ) $A/design-double-work.html p/comparisons/index.html; do
	n=$((n + 1))
	browse "$f" "$T/dom$n.html"
done
# The browser's check sees an error: a page that fetches from elsewhere is caught.
sed 's|</main>|<img src="https://example.invalid/x.png"></main>|' "$SITE/$A/index.html" >"$SITE/$A/bad.html"
chromium_run "$T/bad.dom" "$T/bad.err" --dump-dom "file://$SITE/$A/bad.html" || fail "chromium (control)"
console_messages "$T/bad.err" | grep -q "Content Security Policy" ||
	fail "the console check does not see a refused image; chromium's log format changed?"
rm "$SITE/$A/bad.html"

# The search finds a design by a word of its hypothesis, from file://.
browse "$A/search.html?q=AMORTIZES" "$T/search.html"
grep -q '<body[^>]* data-search="[1-9]' "$T/search.html" || fail "the search index did not load"
python3 - "$T/search.html" <<'EOF' || fail "search for 'amortizes'"
import re, sys
found = re.findall(r'<li data-kind="(\w+)" data-name="([^"]+)">', open(sys.argv[1]).read())
assert found == [("design", "double-work")], found
EOF
browse "$A/search.html?q=convoy" "$T/search2.html"
assert_not_contains "$T/search2.html" 'data-name="b-slower"'  # another project's design
browse "$(cd "$SITE" && ls -d p/root-*)/search.html?q=convoy" "$T/search3.html"
assert_contains "$T/search3.html" 'data-name="b-slower"'
browse "$A/search.html?q=quiet+runner" "$T/search4.html"
assert_contains "$T/search4.html" 'data-name="double-work"'  # a run's note

# Rows over time: each row's chart has one point per accepted run, in
# first-parent order (c1 before c5, although c5 was measured first), the
# rejected attempts at c2 and the inconclusive one at c3 marked, and the
# cumulative change labelled a product of estimates with its Bonferroni
# interval and the warning that chaining accepted changes overstates it.
browse "$A/rows-0.html" "$T/rows.html"
python3 - "$T/rows.html" "$SITE_C1 $SITE_C5" "$SITE_C2 $SITE_C2 $SITE_C3" <<'EOF' || fail "the rows charts"
import re, sys
page = open(sys.argv[1]).read()
rows = re.findall(r'<section class="row" id="row-\d+" data-row="([^"]+)"[^>]*>(.*?)</section>', page, re.S)
assert [r for r, _ in rows] == ["lanes=1", "lanes=2"], [r for r, _ in rows]
for label, body in rows:
    svg = re.search(r'<svg class="chart rows".*?</svg>', body, re.S).group(0)
    points = re.findall(r'<g class="point (\w+)" data-run="\d+" data-verdict="\w+" data-oid="(\w+)"', svg)
    acc = [oid for kind, oid in points if kind == "accepted"]
    assert acc == sys.argv[2].split(), (label, acc)
    others = [oid for kind, oid in points if kind != "accepted"]
    assert others == sys.argv[3].split(), (label, others)
    assert "a product of estimates, not a measurement</strong>: ×0.250" in body, label
    assert "Bonferroni over the 2 changes" in body and "overstates the gain" in body, label
EOF
assert_contains "$SITE/$A/rows.html" 'href="rows-0.html#row-1">lanes=2</a>: newest accepted change ×0.500'
# The filters by row and outcome and the comparison of two runs of a row,
# set by the query (rows.js): only the row lanes=2, only its accepted
# points and lines, runs 2 (c1) and 1 (c5) side by side.
browse "$A/rows-0.html?row=lanes%3D2&outcome=accepted&a=2&b=1" "$T/filtered.html"
python3 - "$T/filtered.html" "$SITE_C1" "$SITE_C5" <<'EOF' || fail "the rows page's filters and comparison"
import re, sys
page = open(sys.argv[1]).read()
assert 'data-filters="ready"' in page
rows = dict(re.findall(r'<section class="row" id="row-\d+" data-row="([^"]+)"([^>]*)>', page))
assert "hidden" in rows["lanes=1"] and "hidden" not in rows["lanes=2"], rows
body = page.split('data-row="lanes=2"')[1]
tags = re.findall(r'<(?:g|tr) [^>]*data-verdict="\w+"[^>]*>', body)
marks = [(re.search(r'data-verdict="(\w+)"', t).group(1), re.search(r'class="[^"]*\boff\b', t) is not None)
         for t in tags]
assert len(marks) == 10 and all(off == (v != "accepted") for v, off in marks), marks
assert 'data-compared="2,1"' in rows["lanes=2"], rows["lanes=2"]
cmp = re.search(r'<div class="compared">(.*?)</div>', body, re.S).group(1)
assert "<td>run 2</td><td>run 1</td>" in cmp and sys.argv[2][:10] in cmp and sys.argv[3][:10] in cmp, cmp
assert "--candidate %s --parent %s" % (sys.argv[3], sys.argv[2]) in cmp, cmp
EOF

# Bisects: the culprit c2 with the run that confirmed it, and each step;
# regressions and rejections with their Atom feed; commit links to the
# forge of a github.com project, none for a project without a remote
# unless --commit-url gives one.
python3 - "$SITE/$A" "$SITE_C2" "$(sql "$S" "SELECT count(*) FROM bisect_steps")" \
	"$(sql "$S" "SELECT run_id FROM bisect_steps WHERE role = 'confirm'")" <<'EOF' || fail "bisects, regressions, feed"
import re, sys
import xml.etree.ElementTree as ET
d, c2, nsteps, confirm = sys.argv[1:]
page = open(d + "/bisects.html").read()
culprit = re.search(r'<p class="culprit">Culprit: <a class="commit" href="https://github.com/acme/engine/commit/(\w+)">'
                    r'.*?confirmed against its exact parent by <a class="run" href="../../runs/(\d+)/report.html">', page)
assert culprit and culprit.group(1) == c2 and culprit.group(2) == confirm, culprit
assert page.count('<tr class="step">') == int(nsteps), nsteps
reg = open(d + "/regressions.html").read()
assert re.findall(r'<tr data-run="(\d+)"', reg) == ["6", "3"], re.findall(r'<tr data-run="(\d+)"', reg)
assert 'href="bisects.html#b-1">bisect 1</a>' in reg
ns = {"a": "http://www.w3.org/2005/Atom"}
feed = ET.parse(d + "/feed.xml").getroot()
ids = [e.find("a:id", ns).text for e in feed.findall("a:entry", ns)]
assert len(ids) == 3 and ids[0].startswith("urn:abtool:bisect:") and len(set(ids)) == 3, ids
assert feed.find("a:updated", ns).text == feed.findall("a:entry", ns)[0].find("a:updated", ns).text
EOF
B=$(cd "$SITE" && ls -d p/root-*)
assert_contains "$SITE/$A/design-quarter-work.html" "<a class=\"commit\" href=\"https://github.com/acme/engine/commit/$SITE_C5\">"
assert_not_contains "$SITE/$B/design-b-faster.html" 'class="commit"'
expect_exit 0 "$ABTOOL" site "$T/site-b" --store "$S" --project "$(sql "$S" "SELECT project FROM designs WHERE name = 'b-slower'")" \
	--commit-url 'https://git.example/b/commit/{commit}?view=1&x'
grep -q '<a class="commit" href="https://git.example/b/commit/[0-9a-f]\{40\}?view=1&amp;x">' "$T/site-b/$B/design-b-faster.html" ||
	fail "--commit-url"
expect_exit 64 "$ABTOOL" site "$T/site-b" --store "$S" --commit-url 'javascript:alert(1)//{commit}'
assert_contains "$T/err" "--commit-url: expected an http(s) URL with {commit}"
# OUTDIR a file: refused before anything is written, naming it
echo keep >"$T/a-file"
expect_exit 64 "$ABTOOL" site "$T/a-file" --store "$S"
assert_contains "$T/err" "abtool site: $T/a-file is not a folder: give a folder to write the site into"
[ "$(cat "$T/a-file")" = keep ] || fail "site changed the file it refused"

# The action's site step (action.yml, site: 'true') writes the site of
# the store the gate used and names its folder for the Pages upload; with
# site: 'false' it writes nothing.
export GITHUB_OUTPUT="$T/gh_output"
: >"$GITHUB_OUTPUT"
PATH="$(dirname "$ABTOOL"):$PATH" INPUT_SITE=false INPUT_STORE="$S" SITE_DIR="$T/pages" \
	bash "$ABTOOL_TEST_SRC/scripts/action/site.sh" || fail "the action's site step (site: false)"
[ ! -e "$T/pages" ] && [ ! -s "$GITHUB_OUTPUT" ] || fail "site: 'false' wrote a site"
PATH="$(dirname "$ABTOOL"):$PATH" INPUT_SITE=true INPUT_STORE="$S" SITE_DIR="$T/pages" \
	bash "$ABTOOL_TEST_SRC/scripts/action/site.sh" >"$T/out" || fail "the action's site step"
[ "$(cat "$GITHUB_OUTPUT")" = "dir=$T/pages" ] || fail "the site step's output: $(cat "$GITHUB_OUTPUT")"
[ -s "$T/pages/$A/designs.html" ] || fail "the action's site has no designs page"
unset GITHUB_OUTPUT

# A second build renders nothing; after one new run, that run only.
expect_exit 0 "$ABTOOL" site "$SITE" --store "$S"
assert_contains "$T/out" "12 runs (0 rendered, 12 up to date)"
site_run "$S" "$T/a" "$SITE_C3" same-work "" --pairs 4
expect_exit 0 "$ABTOOL" site "$SITE" --store "$S"
assert_contains "$T/out" "13 runs (1 rendered, 12 up to date)"
rm "$SITE/runs/2/report.html"
expect_exit 0 "$ABTOOL" site "$SITE" --store "$S" --project github.com/acme/engine
assert_contains "$T/out" "1 project, 10 runs (1 rendered, 9 up to date)"
[ -s "$SITE/runs/2/report.html" ] || fail "a missing report is rendered again"
expect_exit 64 "$ABTOOL" site "$SITE" --store "$S" --project github.com/acme/none
assert_contains "$T/err" "no run of the project 'github.com/acme/none'"
echo ok
