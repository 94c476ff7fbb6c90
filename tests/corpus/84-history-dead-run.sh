# A run whose abtool was killed outright (SIGKILL: it could not mark the
# run) stays 'running' in the store; history tells it from a live one by
# the pid and host the run recorded: 'running' (alive true) while its
# process runs, 'dead' (alive false, status still running) once it is
# gone; show says so too. resume refuses the live one and finishes the
# dead one.
. "$(dirname "$0")/corpus.sh"

db="$T/store.db"
start_hung_run
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "running"
assert_not_contains "$T/out" "dead"
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" '.[0].alive')" = true ] || fail "a live run is not alive"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_not_contains "$T/out" "(dead:"
expect_fail 64 "run 1 is still running (pid $pid on this host)" "$ABTOOL" resume 1 --store "$db"
kill -KILL $pid
wait $pid 2>/dev/null
assert_group_gone "$(cat "$T/hung.pgid")"
[ "$(run_status "$db")" = running ] || fail "status $(run_status "$db"), expected running"
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "dead"
assert_not_contains "$T/out" "running"
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" '.[0].alive')" = false ] || fail "a dead run is not dead"
[ "$(jqv "$T/out" '.[0].status')" = running ] || fail "the stored status changed"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "(dead: its process is gone; 'abtool resume 1' finishes it)"
# a run recorded on another host cannot be told: running, alive null
sqlite3 "$db" "update runs set options = json_set(options, '\$.hostname', 'elsewhere.invalid')"
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" '.[0].alive')" = null ] || fail "another host's run was judged"
sqlite3 "$db" "update runs set options = json_set(options, '\$.hostname', '$(cat /proc/sys/kernel/hostname)')"
rm -f "$T/hang"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
expect_exit 0 "$ABTOOL" history --store "$db" --json
[ "$(jqv "$T/out" '.[0].alive')" = null ] || fail "a finished run has alive $(jqv "$T/out" '.[0].alive')"
assert_kept "$db" "$T/before"
echo ok
