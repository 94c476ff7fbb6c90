# No text from data starts a line of stdout or stderr with a CI runner's
# workflow command ("::" after blanks, GitHub's ::error and kin) or holds
# the older "##[" in a line of text for people: a hyperfine parameter
# name, a design name brought in by import, a note shown by show, an
# experiment file's key, a rule name, a where value, a --row value, a path
# in an error message and a pairs-file value in the Markdown report each
# carry a newline and a forged command. abtool's own annotations in
# GitHub Actions still start their lines.
. "$(dirname "$0")/corpus.sh"

# no_command FILE...: no line is a workflow command: after the blanks
# .NET's TrimStart removes, it does not start with "::", and it holds no
# "##[" (the runner's legacy form, found anywhere in a line) -- except
# abtool's own annotations, "::error title=abtool..." and
# "::warning title=abtool...".
no_command() {
	python3 - "$@" <<'EOF2' || fail "a workflow command in the output (above)"
import sys
bad = 0
for path in sys.argv[1:]:
    for n, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
        s = line.rstrip('\n').lstrip(' \t\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005'
                                     '\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000')
        if s.startswith('::error title=abtool') or s.startswith('::warning title=abtool'):
            continue
        if s.startswith('::') or '##[' in line:
            print('%s:%d: %r' % (path, n, line), file=sys.stderr)
            bad = 1
sys.exit(bad)
EOF2
}

mkdir -p "$T/w"
cd "$T/w"
forged=$'\n::error title=forged::ok\n\xc2\xa0::warning::nbsp\n  ##[error]legacy'

# a hyperfine export whose parameter name holds the forgery
cat >hf.json <<'EOF2'
{"results": [
 {"command": "a", "mean": 1, "times": [1.0, 1.1, 0.9], "parameters": {"n\n::error title=forged::ok\n##[error]x": "1"}},
 {"command": "b", "mean": 2, "times": [2.0, 2.1, 1.9], "parameters": {"n\n::error title=forged::ok\n##[error]x": "1"}}]}
EOF2
expect_fail 64 "is not a valid parameter name" "$ABTOOL" analyze hf.json
no_command "$T/out" "$T/err"

# a run, its export with a hostile design name, imported elsewhere
expect_decided "$ABTOOL" compare true 'true ' --pairs 2 --store a.db -q
"$ABTOOL" export 1 --format json --store a.db | jq --arg f "d$forged" '.design.name = $f' >ex.json \
	|| fail "export"
expect_exit 0 "$ABTOOL" import ex.json --store b.db
assert_contains "$T/out" "imported run"
no_command "$T/out" "$T/err"
expect_exit 0 "$ABTOOL" history --store b.db
no_command "$T/out" "$T/err"
expect_exit 0 "$ABTOOL" designs --store b.db
no_command "$T/out" "$T/err"

# a note, shown
expect_exit 0 "$ABTOOL" note 1 "a$forged" --store a.db
no_command "$T/out" "$T/err"
expect_exit 0 "$ABTOOL" show 1 --store a.db
assert_contains "$T/out" "error title=forged::ok"
no_command "$T/out" "$T/err"

# experiment files: a key, a rule name, a where value
printf 'name: x\nsides: {a: {name: a, command: "true"}, b: {name: b, command: "true"}}\n"k\\n::error::key\\n##[error]k": 1\n' >key.yaml
expect_fail 64 "unknown key" "$ABTOOL" check key.yaml
no_command "$T/out" "$T/err"
cat >rule.yaml <<'EOF2'
name: x
sides: {a: {name: a, command: "true"}, b: {name: b, command: "true"}}
matrix: {n: [1, 2]}
accept:
  - name: "r\n::error::rule\n##[error]rule"
    no_regression: 5%
EOF2
expect_exit 0 "$ABTOOL" check rule.yaml
assert_contains "$T/out" "error::rule"
no_command "$T/out" "$T/err"
cat >where.yaml <<'EOF2'
name: x
sides: {a: {name: a, command: "true"}, b: {name: b, command: "true"}}
matrix: {n: [1, 2]}
accept:
  - name: r
    where: {n: ["3\n::error::where\n##[error]w"]}
    no_regression: 5%
EOF2
expect_fail 64 "where" "$ABTOOL" check where.yaml
no_command "$T/out" "$T/err"
# a --row value, a path
expect_fail 64 "--row" "$ABTOOL" run rule.yaml --store a.db --row "n=$forged"
no_command "$T/out" "$T/err"
expect_fail 64 "exp.yaml" "$ABTOOL" check "$T/w/d$forged/exp.yaml"
no_command "$T/out" "$T/err"

# the Markdown report on stdout: a pairs-file value with "##[" and a rule
# name with a newline; in GitHub Actions abtool's own annotations remain
{
	echo 'workload,pair,parent,candidate'
	for i in 1 2 3 4 5 6 7; do
		printf '"v ##[error]x :: y",%d,%d,%d\n' $i $((1000 + i)) $((400 + i))
	done
} >pairs.csv
printf 'accept:\n  - name: "g\\n::error::rule\\n##[error]g"\n    faster_by: 200%%\n' >rules.yaml
GITHUB_ACTIONS=true expect_exit 1 "$ABTOOL" analyze pairs.csv --accept rules.yaml --md a.md
assert_contains "$T/out" 'v ##\[error]x :: y'
cmp -s "$T/out" a.md || fail "stdout is not the Markdown of --md"
[ "$(grep -c '^::error title=abtool' "$T/err")" = 1 ] || fail "abtool's own annotation: $(cat "$T/err")"
no_command "$T/out" "$T/err"
echo ok
