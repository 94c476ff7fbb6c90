# history and designs fit the screen they are shown on (issue 35, item
# 6): on a terminal of 80 and of 120 columns (a pseudo-terminal), and in
# a pipe with COLUMNS set, no line is wider than the width, whatever the
# length of the names, reasons and notes; each run keeps its id, design
# and verdict, and a reason is cut after a whole word with "…". In a pipe
# without COLUMNS the table keeps every column and ~100 columns of reason,
# for grep. The runs are A/B runs of a file that holds a count (v), so
# that their verdicts are deterministic and quick.
. "$(dirname "$0")/lib.sh"

PTY="python3 $(dirname "$0")/in_pty.py"
long_design=a-design-whose-name-is-far-longer-than-any-column-should-show
# repo DIR DESIGN B: a repository whose candidate changes v=2 to v=B, and
# its experiment
repo() {
	mkdir "$1" && git -C "$1" init -q
	echo "v=2" >"$1/v.txt" && git -C "$1" add v.txt && git -C "$1" commit -qm "parent: v=2"
	echo "v=$3" >"$1/v.txt" && git -C "$1" commit -qam "candidate: v=$3"
	cat >"$1/exp.yaml" <<EOF2
name: an-experiment-whose-name-runs-on-and-on-past-any-column
design: $2
hypothesis: batching the publication removes the convoy on the allocation lock
build: "true"
benchmark: cat v.txt
metric: v
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
pairs: 6
warmup: 0
accept:
  - {name: a rule with a long name that says what it guards, faster_by: 10%, min_pair_wins: 5}
EOF2
}
repo slower "$long_design" 3
repo faster short 1
expect_exit 1 "$ABTOOL" run slower/exp.yaml --store s.db -q
expect_exit 0 "$ABTOOL" run faster/exp.yaml --store s.db -q
expect_exit 0 "$ABTOOL" note --design "$long_design" --store s.db \
	"measured again on the quiet box after the kernel update: the convoy is still there, and the lock is held longer than the batching saves"
reason=$("$ABTOOL" history --store s.db --json | jq -r '.[1].reasons[0]')

# too_wide FILE WIDTH: the lines of FILE wider than WIDTH (code points;
# a terminal's \r removed)
too_wide() {
	python3 -c 'import sys
w = int(sys.argv[2])
for l in open(sys.argv[1], encoding="utf-8").read().replace("\r", "").split("\n"):
    if len(l) > w:
        print(len(l), l)' "$1" "$2"
}
# fits NAME WIDTH: NAME's lines (a table) are no wider than WIDTH, and it
# has at least a header and a row
fits() {
	local wide
	wide=$(too_wide "$1" "$2")
	[ -z "$wide" ] || { cat "$1" >&2; fail "$1: lines wider than $2 columns: $wide"; }
	[ "$(tr -d '\r' <"$1" | grep -c .)" -ge 2 ] || { cat "$1" >&2; fail "$1: no table"; }
}

for w in 80 120; do
	for cmd in "history" "history --all-projects" "designs" "designs --all-projects"; do
		name="$(echo "$cmd" | tr -d ' -').$w"
		# shellcheck disable=SC2086 # $cmd is a command and its options
		COLUMNS=$w "$ABTOOL" $cmd --store s.db >"$name.pipe" 2>"$name.err" || fail "COLUMNS=$w $cmd"
		fits "$name.pipe" "$w"
		# shellcheck disable=SC2086
		$PTY "$w" 24 "$ABTOOL" $cmd --store s.db >"$name.tty" || fail "$cmd on a $w-column terminal"
		fits "$name.tty" "$w"
	done
	# each run keeps its id, design (elided) and verdict, the reason its
	# first words, cut after a word
	tr -d '\r' <"history.$w.tty" >"history.$w.screen"
	grep -Eq "^ 2  (.*  )?short +.* accepted " "history.$w.screen" || fail "$w: run 2's line: $(cat "history.$w.screen")"
	line=$(grep -E "^ 1  (.*  )?a-design-wh[^ ]*… +.* rejected " "history.$w.screen") ||
		fail "$w: run 1's line: $(cat "history.$w.screen")"
	shown=${line##*  }
	shown=${shown%…}
	case "$reason" in "$shown "*) ;; *) fail "$w: the reason is not cut after a word: '$shown' of '$reason'" ;; esac
	[ "${#shown}" -ge 20 ] || fail "$w: only '$shown' of the reason"
	grep -q "note .*: measured again on the" "designs.$w.tty" || fail "$w: the design's note"
done
# 120 columns have room for the date
grep -q "^ 1  $(date -u +%Y)-" history.120.screen || fail "120: no date: $(cat history.120.screen)"

# In a pipe without COLUMNS, every column and ~100 columns of the reason.
expect_exit 0 env -u COLUMNS "$ABTOOL" history --store s.db
head -n 1 "$T/out" | grep -q "  experiment  .*parent\.\.candidate  .*ratio B/A, range over rows  reason$" ||
	fail "the pipe's header: $(head -n 1 "$T/out")"
grep -q "  ${long_design:0:27}…  an-experiment-whose-name-ru…  [0-9a-f]\{10\}\.\.[0-9a-f]\{10\}  rejected  " "$T/out" ||
	fail "the pipe's line of run 1: $(cat "$T/out")"
shown=$(sed -n 3p "$T/out" | sed 's/.*  //')
[ "$(printf %s "$shown" | wc -m)" -le 100 ] && [ "$(printf %s "$shown" | wc -m)" -ge 80 ] ||
	fail "the pipe's reason: '$shown'"
echo ok
