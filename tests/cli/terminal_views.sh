# What a person reads at a terminal (issue "At the terminal and beside
# hyperfine"), on fixtures whose verdicts are deterministic: the sides
# print a count (`v`), equal or not whatever the host does, and `idle`,
# printed as 0, has no ratios, so a rule on it is inconclusive.
# 2. stderr's notices are wrapped at spaces on a terminal, never cut
#    inside a word, and "this design was rejected" takes at most two lines
#    (its reason cut; `abtool show N` has it whole).
# 4. The log line counts the rules as the headline does ("1 of 2 rules
#    failed" in both, not "0 of 2 rules passed").
# 5. `abtool show` keeps a rule's detail whole: wrapped at spaces on a
#    terminal, one line in a pipe, its "; " never turned into a line break.
# 7. `designs --rejected` shows the part of a reason that failed first:
#    a row's findings are joined worst first.
# 9. Nobody who never chose a project sees one: `show` has no project
#    line for the repository's own, `history` says "this repository", and
#    --all-projects abbreviates its root commit as git would.
# 13. `compare` takes --format and --color, as `run` does.
# 18. JUnit: the test cases' times add up to the suite's, not to a
#     multiple of it (each rule's case on a row shares the row's time).
. "$(dirname "$0")/lib.sh"

PTY="python3 $(dirname "$0")/in_pty.py"
cd "$T" || fail "cd"
views_exp() {  # views_exp FILE A B RULES...: sides printing v=A and v=B
	local file=$1 a=$2 b=$3
	shift 3
	{
		cat <<EOF2
name: views
sides:
  a: {name: old, command: "echo v=$a idle=0"}
  b: {name: new, command: "echo v=$b idle=0"}
pairs: 6
warmup: 0
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
  idle: {regex: "idle=([0-9]+)", better: lower}
accept:
EOF2
		printf '%s\n' "$@"
	} >"$file"
}

# 4. One rule fails (the candidate is slower in v), one is inconclusive.
views_exp worse.yaml 2 3 "  - {name: wins, metric: v, min_pair_wins: 5}" \
	"  - {name: quiet, metric: idle, no_regression: 5%}"
expect_exit 1 "$ABTOOL" run worse.yaml --store s.db
assert_contains "$T/err" "abtool: verdict: rejected (1 of 2 rules failed) · views · run 1"
assert_contains "$T/out" "1 of 2 rules failed:"
# every rule passed: "both rules passed" in both
views_exp better.yaml 2 1 "  - {name: wins, metric: v, min_pair_wins: 5}" \
	"  - {name: gain, metric: v, faster_by: 40%}"
expect_exit 0 "$ABTOOL" run better.yaml --store s.db
assert_contains "$T/err" "abtool: verdict: accepted (both rules passed) · views · run 2"
assert_contains "$T/out" "Both rules passed:"

# 5. The min_pair_wins detail holds "(observed; noise alone reaches ...)".
detail=$(sqlite3 s.db "select json_extract(report, '\$.rules[0].detail') from runs where id = 2")
case $detail in *"(observed; noise alone reaches"*) ;; *) fail "detail: $detail" ;; esac
"$ABTOOL" show 2 --store s.db >show.pipe || fail "show"
assert_contains show.pipe "                $detail"
$PTY 60 24 "$ABTOOL" show 2 --store s.db >show.tty || fail "show on a terminal"
tr -d '\r' <show.tty >show.screen
too_wide=$(awk 'length($0) > 60 && /^                [^ ]/' show.screen)
[ -z "$too_wide" ] || fail "a detail line is wider than the terminal: $too_wide"
# the wrapped lines, joined at their indent, give the detail back whole
joined=$(awk '/^  pass +wins$/ { on = 1; next } on && /^                [^ ]/ { sub(/^ +/, ""); printf "%s%s", sep, $0; sep = " "; next } on { exit }' show.screen)
[ "$joined" = "$detail" ] || fail "wrapped detail: '$joined', stored: '$detail'"

# 9. A repository's run, its project derived from its root commit.
mkdir repo && git -C repo init -q
echo "v=2 idle=0" >repo/v.txt && git -C repo add v.txt && git -C repo commit -qm "parent: v=2"
echo "v=1 idle=0" >repo/v.txt && git -C repo commit -qam "candidate: v=1"
views_exp repo/exp.yaml 2 1 "  - {name: wins, metric: v, min_pair_wins: 5}"
sed -i -e '/^sides:/,/^  b:/d' -e 's/^pairs: 6/build: "true"\nbenchmark: cat v.txt\npairs: 6/' repo/exp.yaml
root=$(git -C repo rev-list --max-parents=0 HEAD)
(cd repo && "$ABTOOL" run exp.yaml -q >/dev/null 2>&1) || fail "run in the repository"
(cd repo && "$ABTOOL" show 1 >../show9 && "$ABTOOL" history --grep zzz >../hist9.out 2>../hist9.err &&
	"$ABTOOL" designs --all-projects >../designs9) || fail "show, history or designs in the repository"
assert_not_contains show9 "project"
assert_contains hist9.err "abtool history: no runs of this repository match"
assert_not_contains hist9.err "root:"
grep -q "^root:${root:0:10}  " designs9 || { cat designs9 >&2; fail "designs --all-projects: root:${root:0:10}"; }

# 7. A rule whose faster_by cannot decide on 4 pairs (inconclusive) and
# whose min_pair_wins fails (0 of 4): the failing part leads the reason.
mkdir repo7 && git -C repo7 init -q
echo "v=2" >repo7/v.txt && git -C repo7 add v.txt && git -C repo7 commit -qm "parent: v=2"
echo "v=3" >repo7/v.txt && git -C repo7 commit -qam "candidate: v=3"
cat >repo7/exp.yaml <<'EOF2'
name: r7
build: "true"
benchmark: cat v.txt
pairs: 4
warmup: 0
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
accept:
  - {name: gain, metric: v, faster_by: 10%, min_pair_wins: 3}
EOF2
(cd repo7 && "$ABTOOL" run exp.yaml -q >/dev/null 2>&1; [ $? = 1 ]) || fail "repo7: not rejected"
(cd repo7 && "$ABTOOL" designs --rejected >../designs7) || fail "designs --rejected"
grep -q "  rejected  .*  gain: all: v ratio 1.500 (0/4 pair wins): 0 pair wins, fewer than the 3 needed" designs7 ||
	{ cat designs7 >&2; fail "designs --rejected does not lead with the failing part"; }

# 2. The same comparison again, on a 60-column terminal: the memory's
# notices, wrapped at spaces.
$PTY 60 40 sh -c "cd repo7 && '$ABTOOL' run exp.yaml" >notices.tty
tr -d '\r' <notices.tty >notices.screen
python3 - notices.screen <<'EOF2' || { cat notices.screen >&2; fail "stderr's notices on a 60-column terminal (above)"; }
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
def notice(start):  # the notice's lines: its first and the indented ones after it
    i = next(k for k, l in enumerate(lines) if l.startswith(start))
    out = [lines[i]]
    while i + len(out) < len(lines) and lines[i + len(out)].startswith("  "):
        out.append(lines[i + len(out)])
    return out
memory = notice("abtool: this design 'r7' was rejected in run 1")
same = notice("abtool: this comparison ")
bad = [l for l in memory + same if len(l) > 60]
joined = " ".join(l.strip() for l in same)
ok = len(memory) <= 2 and not bad and joined == \
    "abtool: this comparison (same experiment file, commits) was run 1 time before: run 1 rejected"
print(len(memory), bad, repr(joined))
sys.exit(not ok)
EOF2
grep -q "abtool show 1): gain: all:" notices.screen || fail "the rejection notice names show and its reason"

# 13. compare --format text|md and --color, as run.
expect_exit 2 "$ABTOOL" compare 'echo v=2' 'echo v=1' --pairs 4 --store c.db -q --format text --color never
head -n 1 "$T/out" | grep -qx '? inconclusive · a-vs-b · run 1' || fail "compare --format text: $(head -n 1 "$T/out")"
expect_exit 2 "$ABTOOL" compare 'echo v=2' 'echo v=1' --pairs 4 --store c.db -q --format md
head -n 1 "$T/out" | grep -qx '# a-vs-b — inconclusive' || fail "compare --format md: $(head -n 1 "$T/out")"
$PTY 80 24 "$ABTOOL" compare 'echo v=2' 'echo v=1' --pairs 4 --store c.db -q --color always >color.tty
grep -q $'^\033\[1m\033\[33m? inconclusive' color.tty || fail "compare --color always on a terminal"
expect_exit 64 "$ABTOOL" compare 'echo v=2' 'echo v=1' --format html

# 18. Two rules over two rows: four cases whose times add up to the suite's.
views_exp junit.yaml 2 1 "  - {name: wins, metric: v, min_pair_wins: 5}" \
	"  - {name: gain, metric: v, faster_by: 40%}"
sed -i -e 's/^  a: .*/  a: {name: old, command: "echo v=2 idle=0 n={n}"}/' -e 's/^pairs: 6/pairs: 6\nmatrix: {n: [1, 2]}/' junit.yaml
expect_exit 0 "$ABTOOL" run junit.yaml --store j.db --junit junit.xml
python3 - junit.xml <<'EOF2' || fail "JUnit times (above)"
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = suite.findall('testcase')
total, parts = float(suite.get('time')), [float(c.get('time')) for c in cases]
print('suite %.3f s, %d cases, sum %.3f s' % (total, len(cases), sum(parts)))
sys.exit(not (len(cases) == 4 and total > 0 and abs(sum(parts) - total) <= 0.002 * len(cases)))
EOF2
echo ok
