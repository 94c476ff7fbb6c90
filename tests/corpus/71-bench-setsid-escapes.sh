# A benchmark whose child leaves the process group and the session
# (setsid) does not leave it running: not after a normal sample (the
# samples carry the leftover_processes flag), not after a timeout, not
# after a SIGKILL of abtool. Each sleep has a unique argument, looked up
# with pgrep -f (once it is sleep: setsid has run).
. "$(dirname "$0")/corpus.sh"

u="$$$RANDOM"
# assert_gone PATTERN: no process matches within 2 s.
assert_gone() {
	local i
	for i in $(seq 1 40); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.05
	done
	fail "escaped process survived: $(pgrep -af "$1")"
}

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
bench() { sed -i -e "s|^benchmark: .*|benchmark: \"$1\"|" "$T/repo/exp.yaml"; }

# 1. after each normal sample
# (the pause lets it escape before the sample ends)
bench "./bench {lanes}; setsid sleep 35.1$u \& sleep 0.1"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
assert_gone "^sleep 35.1$u"
n=$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1 and flags like '%leftover_processes%'")
[ "$n" = 6 ] || fail "$n samples flagged leftover_processes, expected all 6"

# 2. after a timeout
bench "setsid sleep 35.2$u \& sleep 600"
sed -i 's|^timeout: .*|timeout: 1s|' "$T/repo/exp.yaml"
expect_fail 3 "timed out after 1 s" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store2.db"
assert_gone "^sleep 35.2$u"

# 3. after a SIGKILL of abtool in the middle of a sample
bench "setsid sleep 35.3$u \& touch $T/started; sleep 600"
sed -i 's|^timeout: .*|timeout: 60s|' "$T/repo/exp.yaml"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store3.db" >"$T/out" 2>"$T/err" &
pid=$!
wait_for "$T/started"
for i in $(seq 1 100); do
	pgrep -f "^sleep 35.3$u" >/dev/null && break
	sleep 0.05
done
pgrep -f "^sleep 35.3$u" >/dev/null || fail "the escaped sleep never started"
kill -KILL $pid
wait $pid 2>/dev/null
assert_gone "^sleep 35.3$u"
echo ok
