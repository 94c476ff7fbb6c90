# For every command, the parser's option table (abtool __doc table prints
# the arrays cmd_parse_options reads) against --help, -h, `abtool help
# COMMAND` and docs/cli.md's generated blocks (scripts/gen-cli-doc
# --check); -V and --version everywhere; did-you-mean for a mistyped
# option and command. No repository, no run: a few seconds.
. "$(dirname "$0")/lib.sh"

"$ABTOOL" __doc table >"$T/table" || fail "__doc table"
"$ABTOOL" __doc commands >"$T/commands" || fail "__doc commands"
[ "$(wc -l <"$T/commands")" -ge 17 ] || fail "fewer commands than expected: $(cat "$T/commands")"
expect_exit 0 "$ABTOOL" --help
cp "$T/out" "$T/top-help"
version=$("$ABTOOL" --version) || fail "--version"
case $version in "abtool "[0-9]*) ;; *) fail "--version printed '$version'" ;; esac
[ "$("$ABTOOL" -V)" = "$version" ] || fail "-V differs from --version"

while IFS=$'\t' read -r cmd summary; do
	expect_exit 0 "$ABTOOL" "$cmd" --help
	cp "$T/out" "$T/help.$cmd"
	expect_exit 0 "$ABTOOL" "$cmd" -h
	cmp -s "$T/out" "$T/help.$cmd" || fail "$cmd -h differs from --help"
	if [ "$cmd" != init ]; then  # init's --help adds its templates
		expect_exit 0 "$ABTOOL" help "$cmd"
		cmp -s "$T/out" "$T/help.$cmd" || fail "abtool help $cmd differs from $cmd --help"
	fi
	[ "$("$ABTOOL" "$cmd" --version)" = "$version" ] || fail "$cmd --version"
	[ "$("$ABTOOL" "$cmd" -V)" = "$version" ] || fail "$cmd -V"
done <"$T/commands"

# The comparisons, on text with its wrapping undone.
python3 - "$T" <<'PY' || fail "the tables and the help differ (above)"
import re, sys
T = sys.argv[1]
def flat(s):
    return " ".join(s.split())
table = {}
for line in open(f"{T}/table", encoding="utf-8"):
    cmd, label, group, text = line.rstrip("\n").split("\t")
    table.setdefault(cmd, []).append((label, group, text))
bad = []
top = flat(open(f"{T}/top-help", encoding="utf-8").read())
for line in open(f"{T}/commands", encoding="utf-8"):
    cmd, summary = line.rstrip("\n").split("\t")
    if flat(f"{cmd} {summary}") not in top:
        bad.append(f"abtool --help does not list '{cmd}' with its summary")
    text = open(f"{T}/help.{cmd}", encoding="utf-8").read()
    for l in text.splitlines():
        if len(l) > 80:
            bad.append(f"{cmd} --help: a line over 80 columns: {l!r}")
    opts = table.get(cmd, [])
    for want in ("-h, --help", "-V, --version"):
        if want not in [o[0] for o in opts]:
            bad.append(f"{cmd}: the table has no {want}")
    # each option in order, under its heading, with its help text
    body = text.split("\n\n", 2)[-1]
    listed = [l[2:].split("  ")[0] for l in body.splitlines() if re.match(r"  -", l)]
    if listed != [o[0] for o in opts]:
        bad.append(f"{cmd} --help lists {listed}, the table {[o[0] for o in opts]}")
    heading = None
    fbody = flat(body)
    for label, group, otext in opts:
        if flat(f"{label} {otext}") not in fbody:
            bad.append(f"{cmd} --help: no '{label} {otext}'")
        if group != heading:
            if f"{group}:" not in body:
                bad.append(f"{cmd} --help: no heading '{group}:'")
            heading = group
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

# docs/cli.md's option lists are the tables' (regenerate: scripts/gen-cli-doc).
python3 "$ABTOOL_TEST_SRC/scripts/gen-cli-doc" --check "$ABTOOL" >"$T/doc.diff" 2>&1 || {
	cat "$T/doc.diff" >&2
	fail "docs/cli.md differs from the option tables: run scripts/gen-cli-doc"
}
while IFS=$'\t' read -r cmd summary; do
	grep -qx "<!-- generated: abtool __doc md $cmd -->" "$ABTOOL_TEST_SRC/docs/cli.md" ||
		fail "docs/cli.md has no generated block for $cmd"
	[ "$(grep -cx "## $cmd" "$ABTOOL_TEST_SRC/docs/cli.md")" = 1 ] ||
		fail "docs/cli.md has $(grep -cx "## $cmd" "$ABTOOL_TEST_SRC/docs/cli.md") sections '## $cmd', not one"
	# the generated usage opens the command's section
	grep -A2 -x "## $cmd" "$ABTOOL_TEST_SRC/docs/cli.md" | grep -qx "<!-- generated: abtool __doc md $cmd -->" ||
		fail "docs/cli.md's section '## $cmd' does not open with its generated usage"
done <"$T/commands"

# did you mean, for options (as for the experiment file's keys) and commands
expect_exit 64 "$ABTOOL" run exp.yaml --jsn x
assert_contains "$T/err" "abtool run: unrecognized option '--jsn'"
assert_contains "$T/err" "abtool run: did you mean --json?"
expect_exit 64 "$ABTOOL" history --limt 3
assert_contains "$T/err" "did you mean --limit?"
expect_exit 64 "$ABTOOL" report 1 --frobnicate
assert_not_contains "$T/err" "did you mean"
expect_exit 64 "$ABTOOL" run exp.yaml --s 1   # ambiguous: getopt lists them, no guess
assert_contains "$T/err" "is ambiguous"
assert_not_contains "$T/err" "did you mean"
expect_exit 64 "$ABTOOL" reprot 1
assert_contains "$T/err" "abtool: 'reprot' is not a command; did you mean 'report'?"
expect_exit 64 "$ABTOOL" help reprot
assert_contains "$T/err" "did you mean 'report'?"
echo ok
