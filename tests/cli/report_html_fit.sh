# The HTML reports of every verdict fit a 1,280-pixel window and show each
# side's distribution (issue 35, item 16 and the acceptance of items 16
# and 17): accepted, rejected and invalid runs and a comparison stored in
# the upgrade fixture (tests/fixtures/store-v11.db, runs 1, 2, 3 and 8),
# the inconclusive golden run (tests/golden/store.db), and an invalid
# comparison made here whose rows table carries the mismatch of two
# SHA-256 checksums beside two parameters (the cell that was cut at
# 1,280 px). Each is rendered by `abtool report`, opened in headless
# Chromium at 1,280 x 2,000 (--dump-dom and --screenshot), and the page's own script
# says how it laid out: data-overflow (pixels the page is wider than the
# window: a horizontal scrollbar) must be 0, data-cut (the sections
# whose table scrolls sideways inside its box) empty, and data-overlap
# (the pairs of a chart's text elements whose boxes intersect) empty, for
# a comparison of sides with long names too (issue 35's test report: the
# per-pair chart's better/worse labels drew over its axis title). Every page draws a
# distribution chart per row that measured something, names its sides, and
# a page without a per-pair ratio shows no legend for one. Screenshots are
# kept in $ABTOOL_SCREENSHOT_DIR.
. "$(dirname "$0")/lib.sh"

chromium_find
SHOTS="${ABTOOL_SCREENSHOT_DIR:-$T}"
mkdir -p "$SHOTS"
WIDTH=1280
HEIGHT=2000

cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v11.db" "$T/fixture.db"
cp "$ABTOOL_TEST_SRC/tests/golden/store.db" "$T/golden.db"
# name store run dists: the report, and how many rows draw a distribution
set -- accepted fixture 1 2 rejected fixture 2 1 invalid fixture 3 1 compare fixture 8 1 \
	inconclusive golden 1 4 mismatch new 1 1 longnames long 1 1
# The checksums differ at the first warmups (the run stops there, invalid
# whatever the host does): the first row shows both digests, the others
# never ran.
expect_exit 3 "$ABTOOL" compare 'echo {size} {mode} one' 'echo {size} {mode} two' -n short -n long \
	-L size 1,22 -L mode fast,slow --check-stdout --pairs 6 --seed 1 --store "$T/new.db" --quiet
# Sides with long names (the per-pair chart's "← NAME better" and "NAME
# worse →" drew over its axis title at 1,280 px): the run's verdict does
# not matter, only its page.
"$ABTOOL" compare true true -n old_implementation -n new_implementation_with_a_longer_name \
	--pairs 6 --seed 1 --store "$T/long.db" --quiet >/dev/null || true

while [ $# -gt 0 ]; do
	name=$1 store=$2 run=$3 dists=$4
	shift 4
	expect_exit 0 "$ABTOOL" report "$run" --store "$T/$store.db" --format html -o "$T/$name.html"
	shot="$SHOTS/report_html_fit_$name.png"
	rm -f "$shot"
	# one browser for both: the DOM after the page's script, and the picture
	chromium_run "$T/$name.dom" "$T/$name.err" --window-size="$WIDTH,$HEIGHT" --dump-dom \
		--screenshot="$shot" "file://$T/$name.html" || { tail -n 20 "$T/$name.err" >&2; fail "chromium $name"; }
	if console_messages "$T/$name.err" >"$T/console"; then
		cat "$T/console" >&2
		fail "the $name page wrote to the console"
	fi
	body=$(grep -o '<body[^>]*>' "$T/$name.dom")
	case $body in
	*' data-rendered="ok"'*) ;;
	*) fail "$name: the page's own check did not pass: $body" ;;
	esac
	case $body in
	*' data-overflow="0" data-cut=""'*) ;;
	*) fail "$name: wider than $WIDTH px (overflow: the page's excess in px; cut: sections whose table scrolls): $body" ;;
	esac
	case $body in
	*' data-overlap=""'*) ;;
	*) fail "$name: text drawn over other text in a chart: $body" ;;
	esac
	got=$(grep -o '<svg class="chart dist"' "$T/$name.dom" | wc -l)
	[ "$got" = "$dists" ] || fail "$name: $got distribution charts, expected $dists"
	python3 "$(dirname "$0")/png_check.py" "$shot" "$WIDTH" "$HEIGHT" || fail "the screenshot $shot looks blank"
done

# The sides' names on the distributions' lanes and in their legend.
assert_contains "$T/compare.dom" '<tspan font-weight="600">one</tspan>'
assert_contains "$T/compare.dom" '<tspan font-weight="600">other</tspan>'
assert_contains "$T/mismatch.dom" '<tspan font-weight="600">short</tspan>'
assert_contains "$T/accepted.dom" '<tspan font-weight="600">candidate</tspan>'
# The invalid runs have no per-pair ratio: no legend for one, a note.
for name in invalid mismatch; do
	assert_not_contains "$T/$name.html" 'class="sw dot ab"'
	assert_contains "$T/$name.html" 'No row has a complete pair: there is no per-pair ratio to draw.'
done
assert_contains "$T/accepted.html" 'class="sw dot ab"'
# The mismatch's two digests are in the rows table whole.
sum_a=$(printf '1 fast one\n' | sha256sum | cut -c1-64)
sum_b=$(printf '1 fast two\n' | sha256sum | cut -c1-64)
assert_contains "$T/mismatch.html" "<code title=\"short\">$sum_a</code> ≠ <code title=\"long\">$sum_b</code>"
echo "ok (screenshots: $SHOTS/report_html_fit_*.png)"
