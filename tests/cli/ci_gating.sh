# CI gating: with GITHUB_ACTIONS=true the summary is appended to a fake
# $GITHUB_STEP_SUMMARY and failing/inconclusive rules become ::error and
# ::warning annotations; --summary and --junit write the same for other
# CI systems; --parent gates a head against a merge base (recorded as not
# the exact parent). The rules decide on cpu_ns: a 10x slower candidate is
# rejected whatever else the machine runs.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 100          # the candidate is 10x slower: a regression
cat > "$T/repo/gate.yaml" <<'EOF2'
name: pr-gate
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2]}
metric: cpu_ns
pairs: 6
accept:
  - name: no regression
    no_regression: 3%
  - name: too noisy to decide
    where: {lanes: 1}
    no_regression: 2000%
    max_ci_width: 0.01%
EOF2
echo "# earlier step" > "$T/summary.md"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/summary.md" \
	expect_exit 1 "$ABTOOL" run "$T/repo/gate.yaml" --junit "$T/junit.xml" --summary "$T/short.md"
head -1 "$T/summary.md" | grep -q "earlier step" || fail "the step summary was overwritten, not appended"
assert_contains "$T/summary.md" "# pr-gate — rejected"
assert_contains "$T/summary.md" "| lanes |"
assert_not_contains "$T/summary.md" "## Provenance"
cmp -s <(tail -n +2 "$T/summary.md") "$T/short.md" || fail "--summary differs from the step summary"
# annotations on stderr (the runner reads both), so stdout stays the report
grep -q '^::error title=abtool%3A no regression (fail)::lanes=[12]: ratio .*(a regression above 3%25), kept by Holm'"'"'s adjustment over the verdict'"'"'s 2 refutations (one-sided adjusted p [0-9.e-]*): fail' "$T/err" \
	|| fail "no ::error annotation"
grep -q '^::warning title=abtool%3A too noisy to decide (inconclusive)::' "$T/err" || fail "no ::warning annotation"
[ "$(grep -c '^::' "$T/err")" = 2 ] || fail "one annotation per rule that did not pass"
grep -q '^::' "$T/out" && fail "annotations in the report on stdout"
# JUnit: one test case per rule and row, failures and skipped counted
python3 - "$T/junit.xml" <<'EOF2' || fail "junit"
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = s.findall('testcase')
assert s.get('tests') == '3' and len(cases) == 3, s.attrib
names = [c.get('name') for c in cases]
assert names == ['no regression [lanes=1]', 'no regression [lanes=2]', 'too noisy to decide [lanes=1]'], names
fails = [c for c in cases if c.find('failure') is not None]
assert s.get('failures') == str(len(fails)) and len(fails) >= 1, s.attrib
assert all('regression' in c.find('failure').get('message') for c in fails)
skips = [c for c in cases if c.find('skipped') is not None]
assert cases[2].find('skipped') is not None and s.get('skipped') == str(len(skips)), s.attrib
EOF2
# --inconclusive=reject: the inconclusive rule is an ::error and a JUnit
# failure, as the exit code says; an unwritable step summary is a warning
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/no-such-dir/summary.md" \
	expect_exit 1 "$ABTOOL" run "$T/repo/gate.yaml" --inconclusive=reject --junit "$T/strict.xml"
grep -q '^::error title=abtool%3A too noisy to decide (inconclusive)::' "$T/err" || fail "strict ::error"
assert_contains "$T/err" "cannot append to GITHUB_STEP_SUMMARY '$T/no-such-dir/summary.md'"
python3 - "$T/strict.xml" <<'EOF2' || fail "strict junit"
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = s.findall('testcase')
assert s.get('skipped') == '0', s.attrib
f = cases[2].find('failure')
assert f is not None and f.get('message').startswith('inconclusive (--inconclusive=reject): '), f
assert s.get('failures') == str(sum(c.find('failure') is not None for c in cases)), s.attrib
EOF2

# outside GitHub Actions nothing is appended or annotated
cp "$T/summary.md" "$T/before.md"
GITHUB_STEP_SUMMARY="$T/summary.md" expect_exit 1 "$ABTOOL" run "$T/repo/gate.yaml"
cmp -s "$T/summary.md" "$T/before.md" || fail "summary written outside GitHub Actions"
grep -q '^::' "$T/out" "$T/err" && fail "annotations outside GitHub Actions"

# an invalid run annotates its integrity reasons
make_repo "$T/bad" 20 10 1
cp "$T/repo/gate.yaml" "$T/bad/gate.yaml"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/s2.md" expect_exit 3 "$ABTOOL" run "$T/bad/gate.yaml" --junit "$T/j2.xml"
grep -q '^::error title=abtool%3A invalid run::lanes=1: checksum mismatch' "$T/err" || fail "invalid annotation"
[ "$(grep -c '^::' "$T/err")" = 1 ] || fail "an invalid run's rules annotated too: $(grep '^::' "$T/err")"
grep -q '<testcase classname="pr-gate" name="integrity" time="[0-9]*\.[0-9]*">' "$T/j2.xml" || fail "junit integrity case"

# a head against a merge base: --parent, recorded as not the exact parent
git -C "$T/repo" commit -q --allow-empty -m "second commit of the pull request"
base=$(git -C "$T/repo" rev-parse HEAD~2)
expect_exit 1 "$ABTOOL" run "$T/repo/gate.yaml" --parent "$base" --json "$T/mb.json"
[ "$(jqv "$T/mb.json" .exact_parent)" = false ] || fail "merge-base gating is recorded as exact"
[ "$(jqv "$T/mb.json" .parent.oid)" = "$base" ] || fail "parent"
assert_contains "$T/out" "(**not** the exact parent)"
assert_contains "$T/out" "--parent $base"
echo ok
