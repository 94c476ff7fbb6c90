# The HTML report's charts and rows table, on the SVG and in screenshots:
# an accepted run whose linear scaling line would leave the chart (its
# benchmark does not scale: the line runs far above the curves), an
# invalid run (a checksum mismatch at the first warmups) and pairs
# analyzed from a file whose smallest ratio sits left of where the axis's
# first round tick used to be. On every chart no mark lies outside the
# frame, and the ratio axis has a tick at or below the smallest plotted
# ratio and at or above the largest; the invalid run draws no empty
# scaling frame and its rows table shows what each side measured and both
# checksums. Each row's distribution chart (issue 35, item 17) has a dot
# per side's sample at its value, and the box plot of those values: the
# analyzed pairs' quartiles are known exactly; the invalid run's rows,
# whose pairs never ran, show each side's warmup. Screenshots of the accepted and the invalid report are kept
# in $ABTOOL_SCREENSHOT_DIR.
. "$(dirname "$0")/lib.sh"

chromium_find
SHOTS="${ABTOOL_SCREENSHOT_DIR:-$T}"
mkdir -p "$SHOTS"

exp() {  # exp DIR: two rows, scaling over fixed total work, a rule the gain passes on cpu_ns
	cat >"$1/exp.yaml" <<'EOF2'
name: html-charts
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 4]}
scaling: {parameter: lanes, work: total}
metric: cpu_ns
pairs: 6
warmup: 1
accept:
  - name: no regression
    no_regression: 10%
EOF2
}
make_repo "$T/ok" 24 6              # the candidate does a quarter of the work
exp "$T/ok"
expect_exit 0 "$ABTOOL" run "$T/ok/exp.yaml" --quiet --html "$T/accepted.html" --json "$T/accepted.json"
make_repo "$T/bad" 24 6 1           # ... and prints another checksum
exp "$T/bad"
expect_exit 3 "$ABTOOL" run "$T/bad/exp.yaml" --quiet --html "$T/invalid.html" --json "$T/invalid.json"
{
	echo "pair,parent,candidate"
	n=0
	for c in 45 52 57 61 64 68 71 74; do
		n=$((n + 1))
		echo "$n,100,$c"
	done
} >"$T/pairs.csv"
expect_exit 0 "$ABTOOL" analyze "$T/pairs.csv" --html "$T/analyzed.html"

python3 - "$T" <<'EOF2' || fail "charts"
import json, re, sys
import xml.etree.ElementTree as ET

T = sys.argv[1]
EPS = 0.05  # the SVG's coordinates have one decimal


def charts(path):
    html = open(path, encoding='utf-8').read()
    return html, [ET.fromstring(s) for s in re.findall(r'<svg class="chart [^"]*".*?</svg>', html, re.S)]


def frame(svg):
    r = [e for e in svg.iter('rect') if e.get('class') == 'frame']
    assert len(r) == 1, 'one frame per chart'
    x, y, w, h = (float(r[0].get(k)) for k in ('x', 'y', 'width', 'height'))
    return x, y, x + w, y + h


def inside(fr, x, y=None):
    return fr[0] - EPS <= x <= fr[2] + EPS and (y is None or fr[1] - EPS <= y <= fr[3] + EPS)


def check_scaling(svg):
    fr = frame(svg)
    assert not list(svg.iter('path')), 'a path in the scaling chart'
    lines = list(svg.iter('polyline'))
    assert lines, 'a scaling chart without curves'
    for pl in lines:
        pts = [tuple(map(float, p.split(','))) for p in pl.get('points').split()]
        assert len(pts) >= 2, ('a polyline of one point', pl.attrib)
        for x, y in pts:
            assert inside(fr, x, y), (pl.get('class'), x, y, fr)
    for c in svg.iter('circle'):
        assert inside(fr, float(c.get('cx')), float(c.get('cy'))), c.attrib
    return [pl.get('class') for pl in lines]


def check_strip(svg):
    fr = frame(svg)
    assert not list(svg.iter('path')) and not list(svg.iter('polyline'))
    ratios = []
    for c in svg.iter('circle'):
        assert inside(fr, float(c.get('cx')), float(c.get('cy'))), c.attrib
        ratios.append(float(re.search(r'ratio ([0-9.]+)', c.find('title').text).group(1)))
    if not ratios:
        return None
    for r in svg.iter('rect'):
        if r.get('class') == 'ci':
            x, w = float(r.get('x')), float(r.get('width'))
            assert inside(fr, x) and inside(fr, x + w), r.attrib
            ratios += map(float, re.findall(r'[0-9.]+', r.find('title').text.split('[')[1]))
    for ln in svg.iter('line'):
        if ln.get('class') in ('one', 'hl', 'margin', 'grid'):
            assert ln.get('x1') == ln.get('x2') and inside(fr, float(ln.get('x1'))), ln.attrib
    # the labels under the frame are the ticks' values
    ticks = [float(t.text) for t in svg.iter('text')
             if re.fullmatch(r'[0-9]+(\.[0-9]+)?', t.text or '') and float(t.get('y')) > fr[3]]
    assert ticks, 'no tick'
    assert min(ticks) <= min(ratios), ('no tick at or below the smallest ratio', ticks, min(ratios))
    assert max(ticks) >= max(ratios), ('no tick at or above the largest ratio', ticks, max(ratios))
    return min(ratios), ticks


def dist_ticks(svg, fr):
    """The linear axis of a distribution chart, from its tick labels: x = a + b * value."""
    pts = [(float(t.get('x')), float(t.text)) for t in svg.iter('text')
           if re.fullmatch(r'[0-9]+(\.[0-9]+)?', t.text or '') and float(t.get('y')) > fr[3]]
    assert len(pts) >= 2, ('fewer than two plain ticks', pts)
    (x0, v0), (x1, v1) = pts[0], pts[-1]
    b = (x1 - x0) / (v1 - v0)
    return lambda v: x0 + b * (v - v0)


def check_dist(svg, names, counts):
    """Every mark inside the frame; per side (class parent, candidate) its lane named names[s],
    counts[s] dots, one box holding the median line, whiskers from the box to its dots.
    Returns per side the values in the dots' titles and the box's title."""
    fr = frame(svg)
    assert not list(svg.iter('path')) and not list(svg.iter('polyline'))
    lanes = [t for t in svg.iter('text') if t.find('tspan') is not None]
    assert [t.find('tspan').text for t in lanes] == names, ([t.find('tspan').text for t in lanes], names)
    out = []
    for s, cls in enumerate(('parent', 'candidate')):
        dots = [c for c in svg.iter('circle') if c.get('class') == 'pt ' + cls]
        assert len(dots) == counts[s], (cls, len(dots), counts[s])
        for c in dots:
            assert inside(fr, float(c.get('cx')), float(c.get('cy'))), c.attrib
            assert c.find('title').text.startswith(names[s] + ', '), c.find('title').text
        box, = [r for r in svg.iter('rect') if r.get('class') == 'box ' + cls]
        bx, bw = float(box.get('x')), float(box.get('width'))
        assert inside(fr, bx, float(box.get('y'))) and inside(fr, bx + bw), box.attrib
        xs = sorted(float(c.get('cx')) for c in dots)
        for w in svg.iter('line'):
            if w.get('class') == 'whisker ' + cls:
                for k in ('x1', 'x2'):
                    assert xs[0] - EPS <= float(w.get(k)) <= xs[-1] + EPS, (w.attrib, xs)
        out.append(([c.find('title').text for c in dots], box.find('title').text))
    for m in svg.iter('line'):
        if m.get('class') == 'med':
            assert inside(fr, float(m.get('x1'))), m.attrib
    return out


def cells(html, n):
    """The text of the cells of row n of the rows table."""
    body = re.search(r'<section id="rows">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    tr = re.findall(r'<tr>(.*?)</tr>', body, re.S)[n]
    return [re.sub(r'<[^>]+>', '', c).strip() for c in re.findall(r'<td[^>]*>(.*?)</td>', tr, re.S)]


# accepted: both strips and the scaling chart inside their frames; the
# linear line is drawn, cut at the frame's top, not left out
html, svgs = charts(f'{T}/accepted.html')
strips = [check_strip(s) for s in svgs if 'strip' in s.get('class')]
assert len(strips) == 2 and all(strips), strips
sc = [check_scaling(s) for s in svgs if 'scaling' in s.get('class')]
assert len(sc) == 1 and 'ideal' in sc[0] and 'parent' in sc[0] and 'candidate' in sc[0], sc
svg, = [s for s in svgs if 'scaling' in s.get('class')]
ideal, = [p for p in svg.iter('polyline') if p.get('class') == 'ideal']
ys = [float(p.split(',')[1]) for p in ideal.get('points').split()]
assert abs(min(ys) - frame(svg)[1]) <= EPS, ('the linear line does not end at the top', ys, frame(svg))

# ... and a distribution chart per row with a dot per sample on each side
doc = json.load(open(f'{T}/accepted.json'))
dists = [s for s in svgs if 'dist' in s.get('class')]
assert len(dists) == 2, len(dists)
for svg, row in zip(dists, doc['rows']):
    check_dist(svg, ['parent', 'candidate'], [row['parent']['n'], row['candidate']['n']])

# analyzed pairs: the smallest ratio, 0.45, has a tick at or below it
html, svgs = charts(f'{T}/analyzed.html')
(lo, ticks), = [check_strip(s) for s in svgs if 'strip' in s.get('class')]
assert abs(lo - 0.45) < 1e-9 and min(ticks) <= 0.45, (lo, ticks)
# ... and the distributions: the parent's eight 100s, the candidate's 45 to
# 74, whose quartiles (type 7) are 55.75 and 68.75; every dot at its value
svg, = [s for s in svgs if 'dist' in s.get('class')]
(pt, pbox), (ct, cbox) = check_dist(svg, ['parent', 'candidate'], [8, 8])
assert pbox == 'parent: quartiles 100 to 100' and cbox == 'candidate: quartiles 55.75 to 68.75', (pbox, cbox)
assert [t.split(': ')[1] for t in ct] == ['45', '52', '57', '61', '64', '68', '71', '74'], ct
at = dist_ticks(svg, frame(svg))
for c in svg.iter('circle'):
    v = float(c.find('title').text.split(': ')[1])
    assert abs(float(c.get('cx')) - at(v)) < 0.2, (c.attrib, v, at(v))
med = sorted(float(m.get('x1')) for m in svg.iter('line') if m.get('class') == 'med')
assert abs(med[0] - at(62.5)) < 0.2 and abs(med[1] - at(100)) < 0.2, (med, at(62.5))

# invalid: no scaling chart (no side has a scaling), strips say why they
# are empty, and the rows table shows what was measured
html, svgs = charts(f'{T}/invalid.html')
assert not [s for s in svgs if 'scaling' in s.get('class')], 'an empty scaling chart'
assert 'No scaling to draw' in html
for s in svgs:
    if 'strip' in s.get('class'):
        check_strip(s)
# ... and no pair ran: each side's warmup is its distribution, said so
dist, = [s for s in svgs if 'dist' in s.get('class')]
(pt, _), (ct, _) = check_dist(dist, ['parent', 'candidate'], [1, 1])
assert pt[0].startswith('parent, warmup 1: ') and ct[0].startswith('candidate, warmup 1: '), (pt, ct)
assert '(no pair ran)' in ET.tostring(dist, encoding='unicode')
doc = json.load(open(f'{T}/invalid.json'))
row = doc['rows'][0]
assert row['checksum_match'] is False and row['measured']['parent']['samples'] >= 1, row
c = cells(html, 0)
# lanes, parent median, RSD, scaling, candidate median, RSD, scaling, ratio, pair wins, checksum
assert re.match(r'^[0-9.]+ (ns|µs|ms|s) \((\d+ samples?, )?\d+ warmups?\)$|^[0-9.]+ (ns|µs|ms|s) \(\d+ samples?\)$',
                c[1]) and re.match(r'^[0-9.]+ (ns|µs|ms|s) \(', c[4]), c
pv = [v['value'] for v in row['checksum_values'] if v['side'] == 'parent']
cv = [v['value'] for v in row['checksum_values'] if v['side'] == 'candidate']
assert c[9] == f"{', '.join(pv)} ≠ {', '.join(cv)} mismatch ✗", c[9]
print('ok')
EOF2

for name in accepted invalid; do
	shot="$SHOTS/report_html_$name.png"
	rm -f "$shot"
	chromium_run "$T/shot.out" "$T/shot.err" --window-size=1100,2100 --screenshot="$shot" \
		"file://$T/$name.html" || { tail -n 20 "$T/shot.err" >&2; fail "chromium --screenshot $name"; }
	if console_messages "$T/shot.err" >"$T/console"; then
		cat "$T/console" >&2
		fail "the $name page wrote to the console"
	fi
	python3 "$(dirname "$0")/png_check.py" "$shot" 1100 2100 || fail "the screenshot $shot looks blank"
done
echo "ok (screenshots: $SHOTS/report_html_accepted.png, $SHOTS/report_html_invalid.png)"
