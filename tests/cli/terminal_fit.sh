# The terminal after a run (issue "At the terminal and beside hyperfine"),
# on fixtures whose outcomes are deterministic: the sides print a count
# (`v`), so no verdict or warning here depends on the host's timing.
# 1. At 80x24 a run with at least four warnings (an odd pair count, and
#    each of six rows with too few pairs for a bound) leaves its verdict
#    and every row on the screen: the warnings fold into one line naming
#    the command that shows them. --verbose, a pipe and `abtool report`
#    keep them all.
# 3. The progress line's clock moves while a long sample runs (redrawn
#    each second, not only when the next sample starts), and at 80
#    columns the line keeps the side's full name, shortening the rest.
# 12. A comparison's sides are named by their names (-n) in the terminal
#    view's columns and in the progress line, not parent/candidate.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

PTY="python3 $HERE/in_pty.py"
SCREEN="python3 $HERE/vt_screen.py"
cd "$T" || fail "cd"

# 1. Six rows of three pairs: "3 pairs is odd" and one "too few" per row.
cat >fit.yaml <<'EOF2'
name: fit
sides:
  a: {name: old, command: "echo v=2 n={n}"}
  b: {name: new, command: "echo v=1 n={n}"}
matrix: {n: [1, 2, 3, 4, 5, 6]}
pairs: 3
warmup: 0
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
metric: v
accept:
  - {name: no regression, metric: v, no_regression: 5%}
  - {name: gain, metric: v, faster_by: 10%}
EOF2
$PTY 80 24 "$ABTOOL" run fit.yaml --store s.db >fit.tty
[ $? = 2 ] || fail "fit.yaml: not inconclusive"
$SCREEN 80 24 fit.tty >fit.screen
grep -qx '? inconclusive · fit · run 1' fit.screen ||
	{ cat fit.screen >&2; fail "the verdict line is not on the 80x24 screen (above)"; }
for n in 1 2 3 4 5 6; do
	grep -q "^n=$n  *2  *1  *0\.500  *3/3  " fit.screen ||
		{ cat fit.screen >&2; fail "row n=$n is not on the 80x24 screen (above)"; }
done
grep -qE '^(7|[89]|[1-9][0-9]+) warnings: abtool report 1 --store s\.db shows them$' fit.screen ||
	{ cat fit.screen >&2; fail "no folded warnings line (above)"; }
grep -q '^abtool: stored as run 1 in s.db$' fit.screen || fail "the stored line is not on the screen"
# the folded warnings are whole where asked for: --verbose, a pipe, report
$PTY 80 24 "$ABTOOL" run fit.yaml --store s.db --verbose >verbose.tty
tr -d '\r' <verbose.tty >verbose.txt
"$ABTOOL" run fit.yaml --store s.db --format text >pipe.txt 2>/dev/null
"$ABTOOL" report 1 --store s.db --format text >report.txt
for f in verbose.txt pipe.txt report.txt; do
	assert_contains $f "  - 3 pairs is odd: AB and BA orders cannot balance exactly"
	for n in 1 2 3 4 5 6; do
		assert_contains $f "  - n=$n: 3 pairs are too few for a one-sided 95% bound"
	done
	assert_not_contains $f "shows them"
done

# 12. compare -n: the view's columns and the progress line name the sides.
"$ABTOOL" compare -n short -n long 'echo v=1' 'echo v=2' --pairs 4 --store c.db -q \
	--format text >cmp.txt
grep -qE '^row +short +long +ratio' cmp.txt || { cat cmp.txt >&2; fail "compare's columns (above)"; }
$PTY 80 24 "$ABTOOL" compare -n short -n long 'echo v=1' 'echo v=2' --pairs 4 \
	--store c.db >cmp.tty
grep -q 'pair 1 long' cmp.tty || fail "the progress line does not name the side 'long'"
grep -q 'pair [0-9] candidate' cmp.tty && fail "the progress line says candidate in a comparison"
$SCREEN 80 24 cmp.tty | grep -qE '^row +short +long +ratio' || fail "compare's columns on a terminal"

# 3. At 80 columns: every progress line fits 77 columns (the erase's
# margin) and ends with the row, pair and the side's whole name.
mkdir repo && git -C repo init -q
echo "v=2" >repo/v.txt && git -C repo add v.txt && git -C repo commit -qm "parent: v=2"
echo "v=1" >repo/v.txt && git -C repo commit -qam "candidate: v=1"
cat >repo/exp.yaml <<'EOF2'
name: width
build: "true"
benchmark: cat v.txt
matrix: {lanes: [1]}
pairs: 6
warmup: 1
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
metric: v
accept:
  - {name: gain, metric: v, faster_by: 10%}
EOF2
$PTY 80 24 "$ABTOOL" run repo/exp.yaml --store w.db >width.tty
python3 - width.tty <<'EOF2' || fail "progress lines at 80 columns (above)"
import re, sys
data = open(sys.argv[1], encoding="utf-8", newline="").read()
lines = [re.split(r"[\r\x1b]", d)[0] for d in data.split("\r\x1b[K")[1:]]
lines = [l for l in lines if " samples" in l or re.match(r"\d+/\d+ ", l)]
bad = [l for l in lines if len(l) > 77 or not re.search(r" lanes=1 (pair|warmup) \d+ (parent|candidate)$", l)]
print(len(lines), "progress lines;", "bad:", bad[:3])
sys.exit(not lines or bool(bad) or not any("ETA" in l for l in lines))
EOF2

# 3. A sample that blocks until released: while it runs, the line is
# redrawn with a later elapsed clock. The case waits on events: the
# sample's own ("hung", through a FIFO) and the redraw it reads from the
# terminal; 120 s is a guard against a hang, not a wait.
mkfifo hung release
cat >slow.sh <<EOF2
#!/bin/sh
if [ ! -e "$T/slow.done" ]; then
	: >"$T/slow.done"
	echo hung >"$T/hung"
	read x <"$T/release"
fi
echo v=1
EOF2
cat >clock.yaml <<EOF2
name: clock
sides:
  a: {name: quick, command: "echo v=2"}
  b: {name: blocked, command: "sh $T/slow.sh"}
pairs: 2
warmup: 0
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
metric: v
accept:
  - {name: gain, metric: v, faster_by: 10%}
EOF2
python3 - "$ABTOOL" "$T" <<'EOF2' || fail "the clock did not move while a sample ran (above)"
import fcntl, os, pty, re, select, struct, sys, termios, time
abtool, t = sys.argv[1], sys.argv[2]
hung = os.open(t + "/hung", os.O_RDONLY | os.O_NONBLOCK)
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    os.execv(abtool, [abtool, "run", t + "/clock.yaml", "--store", t + "/k.db"])
os.set_blocking(fd, False)
buf, mark, redrawn, guard = b"", None, None, time.monotonic() + 120
def drain():
    global buf
    while True:
        try:
            d = os.read(fd, 65536)
        except (BlockingIOError, OSError):
            return
        if not d:
            return
        buf += d
while redrawn is None and time.monotonic() < guard:
    ready, _, _ = select.select([fd, hung], [], [], 1)
    drain()
    if hung in ready and mark is None and os.read(hung, 64).startswith(b"hung"):
        drain()  # the sample's first line was written before it started
        mark = len(buf)
    if mark is not None:
        m = re.search(rb"\r\x1b\[K[^\r]*?(\d+:\d\d) elapsed", buf[mark:])
        redrawn = m
with open(t + "/release", "w") as r:  # let the sample end, whatever happened
    r.write("go\n")
os.set_blocking(fd, True)
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:  # EIO: abtool closed the terminal
        break
    if not d:
        break
os.waitpid(pid, 0)
before = re.findall(rb"(\d+:\d\d) elapsed", buf[:mark or 0])
print("drawn at the start:", before[-1:] if before else None,
      "redrawn while it ran:", redrawn.group(1) if redrawn else None)
sys.exit(not (before and redrawn and redrawn.group(1) != before[-1]))
EOF2
echo ok
