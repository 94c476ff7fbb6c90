# The progress line: under a pseudo-terminal (script(1)) stderr carries
# one line redrawn in place ("\r\033[K[====>   ] done/total samples ·
# elapsed · ETA · row pair side", no ratio), builds their own line; on a
# pipe or a file there is none; with CI set, one plain line per completed
# round-robin sweep; --quiet silences it on a terminal too.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 5
EXP_PAIRS=4 write_exp "$T/repo"
script -qec "'$ABTOOL' run '$T/repo/exp.yaml' --store '$T/s.db' >/dev/null" "$T/tty.log" >/dev/null 2>&1 \
	|| true
grep -q $'\r\033\\[K\\[>  *\\] 0/10 samples · 0:00 elapsed · lanes=1 warmup 1 parent' "$T/tty.log" \
	|| fail "no first progress line on a terminal"
# (the clocks' values are the machine's: only their form is asserted)
grep -q $'\\] 9/10 samples · [0-9]*:[0-5][0-9] elapsed · ETA [0-9]*:[0-5][0-9] · lanes=1 pair 4 ' "$T/tty.log" \
	|| fail "no last progress line"
grep -q $'\r\033\\[Kbuilding parent [0-9a-f]\\{10\\} · [0-9]*:[0-5][0-9]' "$T/tty.log" || fail "no build line"
grep -q 'ratio' "$T/tty.log" && fail "a running ratio during a fixed plan"
grep -q $'\033\\[Kparent: built in ' "$T/tty.log" || fail "no build result line"

"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" >/dev/null 2>"$T/pipe.log"
grep -q $'\r' "$T/pipe.log" && fail "progress written to a file"
grep -q 'ETA' "$T/pipe.log" && fail "an ETA on a pipe"
grep -q 'sweep' "$T/pipe.log" && fail "a sweep line without CI"

CI=true "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" >/dev/null 2>"$T/ci.log"
grep -q $'\r' "$T/ci.log" && fail "redrawn progress in CI"
[ "$(grep -c '^abtool: sweep [0-9] of 4 done (pair [0-9] of every row) · ' "$T/ci.log")" = 4 ] \
	|| { cat "$T/ci.log" >&2; fail "not one line per sweep in CI"; }
grep -q '^abtool: sweep 4 of 4 done (pair 4 of every row) · 10/10 samples · ' "$T/ci.log" \
	|| fail "no last sweep line"

script -qec "'$ABTOOL' run '$T/repo/exp.yaml' --store '$T/s.db' --quiet >/dev/null" "$T/quiet.log" >/dev/null 2>&1 \
	|| true
grep -q 'ETA' "$T/quiet.log" && fail "--quiet still shows progress"
TERM=dumb script -qec "'$ABTOOL' run '$T/repo/exp.yaml' --store '$T/s.db' >/dev/null" "$T/dumb.log" \
	>/dev/null 2>&1 || true
grep -q $'\033' "$T/dumb.log" && fail "control sequences on TERM=dumb"
echo ok
