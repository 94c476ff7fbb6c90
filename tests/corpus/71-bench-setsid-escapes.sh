# A benchmark whose child leaves the process group and the session
# (setsid) does not leave it running: not after a normal sample (the
# samples carry the leftover_processes flag), not after a timeout, not
# after a SIGKILL of abtool. The benchmark ($T/escape.sh) starts the
# escaping child and waits until the child has called setsid (the child
# writes its pid into a FIFO the benchmark reads), so the escape is over
# before the sample ends; every escaped pid is kept in $T/escaped, and the
# case waits for those processes to end (procwait.py: pidfds, no clock).
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
# escape.sh MODE: ./bench, then a child that calls setsid (setsid(1)
# execs it in a new session) and lives on; MODE "exit" ends the sample,
# "hang" blocks it (until a timeout or a kill), after the event "escaped".
cat >"$T/escape.sh" <<EOF2
#!/bin/sh
./bench 1 || exit 1
fifo=\$(mktemp -u "$T/escape.XXXXXX")
mkfifo "\$fifo"
setsid sh -c 'echo \$\$ >"\$1"; exec sleep 3600' escapee "\$fifo" &
read escaped <"\$fifo"
rm -f "\$fifo"
echo "\$escaped" >>"$T/escaped"
[ "\$1" = hang ] || exit 0
echo "escaped \$escaped" 1<>"$T/events"
exec sleep 3600
EOF2
chmod +x "$T/escape.sh"
bench() { sed -i -e "s|^benchmark: .*|benchmark: $T/escape.sh $1|" "$T/repo/exp.yaml"; }
# all_gone: every process that escaped so far has ended
all_gone() {
	[ -s "$T/escaped" ] || fail "no process escaped"
	wait_gone $(cat "$T/escaped")
}

# 1. after each normal sample
bench exit
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ "$(wc -l <"$T/escaped")" = 6 ] || fail "$(wc -l <"$T/escaped") escapes, expected one per sample (6)"
all_gone
n=$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1 and flags like '%leftover_processes%'")
[ "$n" = 6 ] || fail "$n samples flagged leftover_processes, expected all 6"

# 2. after a timeout
rm -f "$T/escaped"
bench hang
sed -i 's|^timeout: .*|timeout: 1s|' "$T/repo/exp.yaml"
expect_fail 3 "timed out after 1 s" "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store2.db"
[ "$(wc -l <"$T/escaped")" = 1 ] || fail "the timed-out sample did not escape once"
await escaped  # its event, so that case 3 waits for its own
all_gone

# 3. after a SIGKILL of abtool in the middle of a sample
rm -f "$T/escaped"
sed -i 's|^timeout: .*|timeout: 60s|' "$T/repo/exp.yaml"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store3.db" >"$T/out" 2>"$T/err" &
pid=$!
await escaped
kill -KILL $pid
wait $pid 2>/dev/null
all_gone
echo ok
