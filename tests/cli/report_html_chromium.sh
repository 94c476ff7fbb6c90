# The HTML report of a real run renders in Debian's Chromium, headless and
# offline: no console message (no script error, nothing refused by the
# page's Content-Security-Policy), the DOM holds the verdict and one chart
# per row, the page's own check set data-rendered="ok", and the screenshot
# (kept in $ABTOOL_SCREENSHOT_DIR) is not blank.
. "$(dirname "$0")/lib.sh"

chromium_find
PY=$(command -v python3) || fail "no python3"
SHOTS="${ABTOOL_SCREENSHOT_DIR:-$T}"
mkdir -p "$SHOTS"
WIDTH=1100
HEIGHT=1800

make_repo "$T/repo" 12 6
EXP_LANES="1, 2" EXP_PAIRS=6 EXP_EXTRA="hypothesis: halving the work <halves> the time
scaling: {parameter: lanes, work: per_lane}" write_exp "$T/repo"
"$ABTOOL" run "$T/repo/exp.yaml" --seed 11 --quiet --html "$T/report.html" --json "$T/report.json" \
	>"$T/out" 2>"$T/err"
[ $? -le 2 ] || { cat "$T/err" >&2; fail "run"; }
verdict=$(jqv "$T/report.json" .verdict)

# The console check catches errors: a broken page is caught.
printf '<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>\n' >"$T/broken.html"
chromium_run "$T/broken.dom" "$T/broken.err" --dump-dom "file://$T/broken.html" || fail "chromium (control)"
console_messages "$T/broken.err" | grep -q "Uncaught ReferenceError" ||
	fail "the console check does not see a script error; chromium's log format changed?"

chromium_run "$T/dom.html" "$T/dom.err" --dump-dom "file://$T/report.html" || {
	tail -n 20 "$T/dom.err" >&2
	fail "chromium --dump-dom"
}
if console_messages "$T/dom.err" >"$T/console"; then
	cat "$T/console" >&2
	fail "the page wrote to the console"
fi
grep -q '<body[^>]* data-rendered="ok"' "$T/dom.html" || fail "the page's own check did not pass (data-rendered)"
assert_contains "$T/dom.html" "Verdict: $verdict."
assert_contains "$T/dom.html" "halving the work &lt;halves&gt; the time"
[ "$(grep -o '<svg class="chart strip"' "$T/dom.html" | wc -l)" = 2 ] || fail "one strip chart per row"
[ "$(grep -o '<svg class="chart scaling"' "$T/dom.html" | wc -l)" = 1 ] || fail "a scaling chart"
[ "$(grep -o '<circle class="a[b]"\|<circle class="b[a]"' "$T/dom.html" | wc -l)" = 12 ] || fail "one dot per pair"

shot="$SHOTS/report_html_chromium.png"
rm -f "$shot"
chromium_run "$T/shot.out" "$T/shot.err" --window-size="$WIDTH,$HEIGHT" --screenshot="$shot" \
	"file://$T/report.html" || { tail -n 20 "$T/shot.err" >&2; fail "chromium --screenshot"; }
[ -s "$shot" ] || fail "no screenshot at $shot"
if console_messages "$T/shot.err" >"$T/console"; then
	cat "$T/console" >&2
	fail "the page wrote to the console (screenshot)"
fi
"$PY" "$(dirname "$0")/png_check.py" "$shot" "$WIDTH" "$HEIGHT" || fail "the screenshot $shot looks blank"
echo "ok (screenshot: $shot)"
