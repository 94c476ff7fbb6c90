# The progress line: under a pseudo-terminal (script(1)) stderr carries
# one updating line ("\r\033[K[done/total] row pair side · ETA m:ss");
# on a pipe or a file there is none; --quiet silences it on a terminal too.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 5
EXP_PAIRS=4 write_exp "$T/repo"
script -qec "'$ABTOOL' run '$T/repo/exp.yaml' --store '$T/s.db' >/dev/null" "$T/tty.log" >/dev/null 2>&1 \
	|| true
grep -q $'\r\033\\[K\\[1/10\\] lanes=1 warmup 1 ' "$T/tty.log" || fail "no first progress line on a terminal"
grep -q $'\\[10/10\\] lanes=1 pair 4 ' "$T/tty.log" || fail "no last progress line"
grep -q 'ETA 0:0' "$T/tty.log" || fail "no ETA"
grep -q 'preparing parent' "$T/tty.log" || fail "no build progress"

"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" >/dev/null 2>"$T/pipe.log"
grep -q $'\r' "$T/pipe.log" && fail "progress written to a file"
grep -q 'ETA' "$T/pipe.log" && fail "an ETA on a pipe"

script -qec "'$ABTOOL' run '$T/repo/exp.yaml' --store '$T/s.db' --quiet >/dev/null" "$T/quiet.log" >/dev/null 2>&1 \
	|| true
grep -q 'ETA' "$T/quiet.log" && fail "--quiet still shows progress"
echo ok
