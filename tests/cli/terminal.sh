# abtool run in a real terminal (tmux, with script(1) inside the pane to
# keep the bytes written): at 36, 80 and 200 columns no line is wider than
# the terminal, the verdict comes right after the build lines, and no
# progress line is left behind (redrawn in place, cleared at the end);
# NO_COLOR=1 leaves no colour escape while a terminal gets colour; Ctrl-C
# clears the progress and prints the resume command; with stdout a file
# the file is the Markdown report, byte for byte, and stderr holds the
# verdict line. The case waits on what the pane shows, not on a clock:
# tmux pipes each pane's output, as it reads it, to a filter that sends
# the events "bar NAME" (a progress bar was drawn) and "exit NAME" (the
# pane printed __EXIT), both once tmux has put those bytes on the screen.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || fail "tmux is missing (scripts/install-deps --test)"

events_open
mkfifo "$T/never"   # nothing writes it: a pane that is done waits on it
make_repo "$T/repo" 10 5
EXP_PAIRS=6 write_exp "$T/repo"
# a run to interrupt: its first sample waits (hang_bench) until Ctrl-C
hang_bench "$T" 1
sed -e 's/^name: e2e/name: long/' -e "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" \
	"$T/repo/exp.yaml" >"$T/repo/long.yaml"
TM="tmux -L abtool-test-$$ -f /dev/null"
trap '$TM kill-server 2>/dev/null' EXIT
cat >"$T/pane-events.py" <<'EOF2'
import os, re, sys
events, name = sys.argv[1], sys.argv[2]
fd = os.open(events, os.O_RDWR)
# a progress line: its bar, or at a narrow width its count alone
seen, bar, tail = set(), re.compile(rb'\x1b\[K(\[|[0-9]+/[0-9]+ )'), b''
while True:
    chunk = sys.stdin.buffer.read1(65536)
    if not chunk:
        break
    data = tail + chunk
    for marker, event in ((bar, 'bar'), (b'__EXIT ', 'exit')):
        if event not in seen and (marker.search(data) if event == 'bar' else marker in data):
            seen.add(event)
            os.write(fd, f'{event} {name}\n'.encode())
    tail = data[-16:]
EOF2

# start_in_tmux NAME COLUMNS ENV CMD: run CMD (in $T) in a pane COLUMNS
# wide, its bytes in $T/NAME.raw; the pane's output goes to the filter
# before CMD starts (the pane waits on $T/go.NAME until then).
start_in_tmux() {
	mkfifo "$T/go.$1"
	cat >"$T/$1.sh" <<EOF2
read _ <'$T/go.$1'
cd '$T'
export XDG_CACHE_HOME='$XDG_CACHE_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' $3
unset CI GITHUB_ACTIONS
script -qefc "$4" '$T/$1.raw'
echo "__EXIT \$?"
read _ <'$T/never'
EOF2
	$TM new-session -d -s "$1" -x "$2" -y 300 "TERM=xterm-256color bash '$T/$1.sh'" || fail "tmux did not start"
	$TM pipe-pane -O -t "$1" "exec python3 '$T/pane-events.py' '$T/events' '$1'" || fail "tmux pipe-pane"
	echo go >"$T/go.$1"
}
# wait_exit NAME: wait until the pane has shown __EXIT; $T/NAME.screen is
# then the whole pane, wrapped lines joined
wait_exit() {
	await "exit $1" 300 "$1: abtool did not end"
	$TM capture-pane -p -J -S - -t "$1" >"$T/$1.screen" || fail "capture-pane $1"
	grep -q '^__EXIT ' "$T/$1.screen" || { cat "$T/$1.screen" >&2; fail "$1: no __EXIT on the screen"; }
}
# the lines of a screen wider than COLUMNS (code points; abtool writes none wider)
too_wide() {
	python3 -c 'import sys
w = int(sys.argv[2])
for l in open(sys.argv[1], encoding="utf-8"):
    l = l.rstrip("\n")
    if len(l) > w:
        print(len(l), l)' "$1" "$2"
}
BAR='^(\[[=> ]*\] )?[0-9]+/[0-9]+ '  # at a narrow width the count without the bar

for cols in 36 80 200; do
	# a store each: a comparison run before adds the memory's long line
	env=""
	[ "$cols" = 200 ] && env="NO_COLOR=1"  # the widest run without colour
	start_in_tmux "w$cols" "$cols" "$env" "'$ABTOOL' run repo/exp.yaml --store s$cols.db"
	wait_exit "w$cols"
	s="$T/w$cols.screen"
	grep -q '^__EXIT [0-2]$' "$s" || { cat "$s" >&2; fail "$cols columns: no verdict exit"; }
	wide=$(too_wide "$s" "$cols")
	[ -z "$wide" ] || { cat "$s" >&2; fail "$cols columns: lines wider than the terminal: $wide"; }
	grep -Eq "$BAR" "$s" && { cat "$s" >&2; fail "$cols columns: a progress line was left behind"; }
	grep -Eq '^(building|preparing) (parent|candidate) ' "$s" && fail "$cols columns: a build line was left behind"
	# every progress line was drawn over the one before it
	[ "$(grep -Eo "$(printf '\033')\\[K(\\[[=> ]*\\] |[0-9]+/[0-9]+ )" "$T/w$cols.raw" | wc -l)" -ge 3 ] \
		|| fail "$cols columns: no progress drawn"
	last_build=$(grep -nE '^(parent|candidate): (built in|build cached)' "$s" | tail -1 | cut -d: -f1)
	verdict=$(grep -nE '^[✓✗?!] (accepted|rejected|inconclusive|invalid) ' "$s" | head -1 | cut -d: -f1)
	[ -n "$last_build" ] && [ -n "$verdict" ] || { cat "$s" >&2; fail "$cols columns: no build or verdict line"; }
	[ "$verdict" -le $((last_build + 2)) ] || { cat "$s" >&2; fail "$cols columns: the verdict is not first"; }
	grep -q "^full report: abtool report 1 --store" "$s" || fail "$cols columns: no pointer to the full report"
	if [ -n "$env" ]; then
		# NO_COLOR: no SGR sequence at all (the progress's ESC [K is not colour)
		grep -q "$(printf '\033')\\[[0-9;]*m" "$T/w$cols.raw" && fail "NO_COLOR=1: a colour escape was written"
	else
		grep -q "$(printf '\033')\\[32m\\|$(printf '\033')\\[31m\\|$(printf '\033')\\[33m" "$T/w$cols.raw" \
			|| fail "$cols columns: no colour on a terminal"
	fi
done

# Ctrl-C in the middle of the samples
touch "$T/hang"
start_in_tmux intr 80 "" "'$ABTOOL' run repo/long.yaml --store s.db"
await hung 300 "the run to interrupt never started its first sample"
await "bar intr" 300 "no progress bar drawn before the first sample"
$TM capture-pane -p -t intr >"$T/intr.now"
grep -Eq "$BAR" "$T/intr.now" || fail "no progress bar to interrupt"
[ "$(grep -Ec "$BAR" "$T/intr.now")" = 1 ] || fail "more than one progress line on the screen"
$TM send-keys -t intr C-c
wait_exit intr
grep -q '^__EXIT 130$' "$T/intr.screen" || { cat "$T/intr.screen" >&2; fail "Ctrl-C: not exit 130"; }
grep -Eq "$BAR" "$T/intr.screen" && { cat "$T/intr.screen" >&2; fail "Ctrl-C: the progress line stayed"; }
grep -q "^abtool: interrupted by SIGINT: run [0-9]* is kept with .*finish it with 'abtool resume [0-9]* --store" \
	"$T/intr.screen" || { cat "$T/intr.screen" >&2; fail "Ctrl-C: no resume command"; }
rm -f "$T/hang"

# stdout a file, stderr the terminal: the file is the Markdown report
start_in_tmux file 80 "" "'$ABTOOL' run repo/exp.yaml --store s.db >out.md"
wait_exit file
id=$(sed -n 's/^abtool: stored as run \([0-9]*\) .*/\1/p' "$T/file.screen")
[ -n "$id" ] || { cat "$T/file.screen" >&2; fail "stdout a file: no stored run"; }
"$ABTOOL" report "$id" --store "$T/s.db" --format md >"$T/report.md" || fail "report --format md failed"
cmp "$T/out.md" "$T/report.md" || fail "stdout a file: not the Markdown report"
head -1 "$T/out.md" | grep -q '^# e2e — ' || fail "stdout a file: not Markdown"
grep -q '^abtool: verdict: \(accepted\|rejected\|inconclusive\) (' "$T/file.screen" \
	|| fail "stdout a file: no verdict line on stderr"
# and the report of the stored run at a terminal is the same view
start_in_tmux rep 36 "" "'$ABTOOL' report $id --store s.db"
wait_exit rep
grep -Eq '^[✓✗?] (accepted|rejected|inconclusive) ' "$T/rep.screen" || fail "report: no view on a terminal"
wide=$(too_wide "$T/rep.screen" 36)
[ -z "$wide" ] || fail "report at 36 columns: lines wider than the terminal: $wide"
echo ok
