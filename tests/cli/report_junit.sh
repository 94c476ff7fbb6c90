# JUnit as test reporters read it: an accepted, a rejected, an
# inconclusive and an invalid run, each read by junitparser (Debian's
# python3-junitparser) and checked against the elements and attributes the
# Jenkins (xunit junit-10) and GitLab JUnit formats document: a time in
# seconds on every testsuite and testcase (the seconds of the samples of
# the rows it covers, a row's shared among its cases, so that the cases
# add up to the suite's time of the rows they cover), timestamp and hostname on the testsuite, a classname
# per rule, the detail as system-out of every rule's case, and counts that
# agree with the cases and with the verdict.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
"$PY" -c 'import junitparser' 2>/dev/null ||
	fail "no junitparser: install Debian's python3-junitparser (scripts/install-deps --test)"

make_repo "$T/repo" 24 6          # the candidate does a quarter of the work: far faster
# (rules decided on cpu_ns: a ratio near 0.25 against margins of 1.1)
exp() {  # exp NAME RULE-LINES: an experiment over two rows
	cat >"$T/repo/$1.yaml" <<EOF2
name: junit-$1
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2]}
metric: cpu_ns
pairs: 8
warmup: 1
accept:
$2
EOF2
}
exp accepted "  - name: no regression
    no_regression: 10%
  - name: steady
    where: {lanes: 1}
    no_regression: 20%"
exp rejected "  - name: known cost
    slower_by: 10%"
exp inconclusive "  - name: too exact
    where: {lanes: 2}
    no_regression: 200%
    max_ci_width: 0.01%"
run() {  # run NAME EXIT [REPO]
	expect_exit "$2" "$ABTOOL" run "${3:-$T/repo}/$1.yaml" --quiet --junit "$T/$1.xml" --json "$T/$1.json"
}
run accepted 0
run rejected 1
run inconclusive 2
make_repo "$T/bad" 24 6 1         # the candidate prints another checksum
cp "$T/repo/accepted.yaml" "$T/bad/invalid.yaml"
run invalid 3 "$T/bad"

# abtool report renders the stored document to the same bytes
"$ABTOOL" report latest --store "$T/bad/.git/abtool/abtool.db" --format junit -o "$T/again.xml" ||
	fail "abtool report --format junit"
cmp -s "$T/invalid.xml" "$T/again.xml" || fail "the stored run's JUnit differs from the run's"

"$PY" - "$T" <<'EOF2' || fail "junit"
import json, math, re, sys
import xml.etree.ElementTree as ET
import junitparser
from junitparser import Failure, Error, Skipped

T = sys.argv[1]
# What the Jenkins (xunit junit-10) and GitLab formats document, element by
# element: the attributes allowed, those required, the children allowed.
ALLOWED = {
    'testsuites': ({'name', 'time', 'tests', 'failures', 'errors'}, set(), {'testsuite'}),
    'testsuite': ({'name', 'tests', 'failures', 'errors', 'group', 'time', 'skipped', 'timestamp',
                   'hostname', 'id', 'package', 'file', 'log', 'url'},
                  {'name', 'tests', 'failures', 'errors'},
                  {'testsuite', 'properties', 'testcase', 'system-out', 'system-err'}),
    'properties': (set(), set(), {'property'}),
    'property': ({'name', 'value'}, {'name', 'value'}, set()),
    'testcase': ({'name', 'time', 'classname', 'group', 'file'}, {'name'},
                 {'skipped', 'error', 'failure', 'system-out', 'system-err'}),
    'failure': ({'type', 'message'}, set(), set()),
    'error': ({'type', 'message'}, set(), set()),
    'skipped': ({'type', 'message'}, set(), set()),
    'system-out': (set(), set(), set()),
}
TIME = re.compile(r'^[0-9]+(\.[0-9]+)?$')   # seconds; within the xsd's SUREFIRE_TIME


def check_format(el):
    allowed, required, children = ALLOWED[el.tag]
    assert set(el.attrib) <= allowed, (el.tag, set(el.attrib) - allowed)
    assert required <= set(el.attrib), (el.tag, required - set(el.attrib))
    for c in el:
        assert c.tag in children, (el.tag, c.tag)
        check_format(c)
    if 'time' in el.attrib:
        assert TIME.match(el.get('time')), (el.tag, el.get('time'))


want = {  # verdict: (failures, errors, skipped) of the cases, as the exit code says
    'accepted': lambda f, e, s: f == 0 and e == 0 and s == 0,
    'rejected': lambda f, e, s: f >= 1 and e == 0,
    'inconclusive': lambda f, e, s: f == 0 and e == 0 and s >= 1,
    'invalid': lambda f, e, s: e == 1,
}
for verdict, ok in want.items():
    path = f'{T}/{verdict}.xml'
    doc = json.load(open(f'{T}/{verdict}.json'))
    assert doc['verdict'] == verdict, (verdict, doc['verdict'])
    root = ET.parse(path).getroot()
    assert root.tag == 'testsuites'
    check_format(root)

    xml = junitparser.JUnitXml.fromfile(path)
    suites = list(xml)
    assert len(suites) == 1, verdict
    suite = suites[0]
    cases = list(suite)
    kinds = [type(r) for c in cases for r in c.result]
    failures, errors, skipped = kinds.count(Failure), kinds.count(Error), kinds.count(Skipped)
    # the counts written agree with the cases the reader found, and with the verdict
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == \
        (len(cases), failures, errors, skipped), (verdict, suite.tests, suite.failures,
                                                  suite.errors, suite.skipped, kinds)
    assert (xml.tests, xml.failures, xml.errors) == (suite.tests, suite.failures, suite.errors)
    assert ok(failures, errors, skipped), (verdict, failures, errors, skipped)
    rules = sum(len(r['rows']) for r in doc['rules'])
    assert len(cases) == rules + (verdict == 'invalid'), (verdict, len(cases), rules)

    # time: the seconds of the samples behind each case
    rows_s = {json.dumps(r['params'], sort_keys=True): r['samples_wall_ns'] / 1e9 for r in doc['rows']}
    total = sum(rows_s.values())
    assert total > 0 and abs(suite.time - total) < 0.002 and abs(xml.time - total) < 0.002, \
        (verdict, suite.time, total)
    assert re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d', suite.timestamp) and \
        suite.timestamp == doc['created_at'], suite.timestamp
    assert suite.hostname and suite.hostname == doc['host']['hostname'], suite.hostname
    by_rule = {}
    for rule in doc['rules']:
        for row in rule['rows']:
            by_rule.setdefault(rule['name'], []).append(row)
    # each rule's case on a row shares the row's time: the cases add up to the suite
    on_row = {}
    for rule in doc['rules']:
        for row in rule['rows']:
            k = json.dumps(row['params'], sort_keys=True)
            on_row[k] = on_row.get(k, 0) + 1
    covered = sum(rows_s[k] for k in on_row) if on_row else total  # rows no rule selects: no case
    assert abs(sum(c.time for c in cases) - covered) <= 0.001 * len(cases) + 0.001 and covered <= total, \
        (verdict, [c.time for c in cases], covered, total)
    for c in cases:
        assert c._elem.get('time') is not None, (verdict, c.name)
        if c.name == 'integrity':
            assert c.classname == doc['experiment'] and abs(c.time - (0 if rules else total)) < 0.002
            assert isinstance(c.result[0], Error) and c.result[0].message == doc['reasons'][0]
            continue
        rule = c.classname[len(doc['experiment']) + 1:]
        assert c.classname == doc['experiment'] + '.' + rule and rule in by_rule, c.classname
        row = by_rule[rule].pop(0)
        assert c.name.startswith(rule + ' ['), c.name
        k = json.dumps(row['params'], sort_keys=True)
        assert abs(c.time - rows_s[k] / on_row[k]) < 0.002, (c.name, c.time)
        assert c.time <= total + 0.001, (c.name, c.time, total)
        # the ratio line (the rule's detail) is the system-out of every case, passing ones too
        assert c.system_out == row['detail'], (c.name, c.system_out)
        assert ' ratio ' in c.system_out or verdict == 'invalid', (c.name, c.system_out)
        assert (row['outcome'] == 'pass') == (not c.result), (c.name, row['outcome'], c.result)
    assert not any(by_rule.values()), by_rule
print('ok')
EOF2
# the classname groups the cases of one rule: EXPERIMENT.RULE
grep -qF 'classname="junit-accepted.steady" name="steady [lanes=1]"' "$T/accepted.xml" ||
	fail "classname of a rule"
echo ok
