# corpus.sh - helpers of the bad-input and fault corpus (tests/corpus/).
# Each case is one bash script, NN-name.sh, registered as the CTest test
# corpus.NN-name; it sources this file (which sources tests/cli/lib.sh)
# and asserts both the exit code and the key phrase of stderr.
. "$(dirname "$0")/../cli/lib.sh"

# expect_fail CODE PHRASE CMD...: CMD exits with CODE and its stderr
# holds PHRASE (stdout and stderr stay in $T/out and $T/err).
expect_fail() {
	local code=$1 phrase=$2
	shift 2
	expect_exit "$code" "$@"
	assert_contains "$T/err" "$phrase"
}

# committed DB: the samples committed so far, one line each
# (seq|side|wall_ns|checksum), in plan order.
committed() {
	sqlite3 "$1" "select seq, side, wall_ns, checksum from samples where status = 1 order by seq"
}

# snapshot DB FILE: keep the committed samples of DB in FILE and their
# count and SHA-256 in FILE.sum.
snapshot() {
	committed "$1" >"$2" || fail "cannot read the store '$1'"
	echo "$(wc -l <"$2") $(sha256sum <"$2" | cut -d' ' -f1)" >"$2.sum"
}

# assert_unchanged DB FILE: DB holds exactly the committed samples of the
# snapshot FILE (same count, same content hash), and passes integrity_check.
assert_unchanged() {
	local now
	now="$(committed "$1" | wc -l) $(committed "$1" | sha256sum | cut -d' ' -f1)"
	[ "$now" = "$(cat "$2.sum")" ] || fail "committed samples changed: before $(cat "$2.sum"), after $now"
	assert_integrity "$1"
}

# assert_kept DB FILE: after a resume, every sample of the snapshot FILE is
# still in DB with the same side, time and checksum (done, or superseded
# when its pair was cut in half), and DB passes integrity_check.
assert_kept() {
	local seqs now
	[ -s "$2" ] || { assert_integrity "$1"; return; }
	seqs=$(cut -d'|' -f1 "$2" | paste -sd, -)
	now=$(sqlite3 "$1" "select seq, side, wall_ns, checksum from samples where seq in ($seqs) and status in (1, 2) order by seq")
	[ "$(echo "$now" | wc -l) $(echo "$now" | sha256sum | cut -d' ' -f1)" = "$(cat "$2.sum")" ] \
		|| fail "samples committed before the fault changed after resume"
	assert_integrity "$1"
}

assert_integrity() {
	[ "$(sqlite3 "$1" "pragma integrity_check")" = ok ] || fail "integrity_check of '$1' failed"
}

# run_status DB [RUN]: the status of the run (default 1).
run_status() {
	sqlite3 "$1" "select status from runs where id = ${2:-1}"
}

# start_hung_run: start `abtool run` in the background on a run whose
# fifth sample hangs (events_open, hang_bench in lib.sh), with the store
# $T/store.db; once it hangs, $T/before holds the 4 committed samples
# (snapshot) and $pid is abtool's process.
start_hung_run() {
	events_open
	make_repo "$T/repo" 2 1
	hang_bench "$T" 5
	EXP_PAIRS=4 write_exp "$T/repo"
	sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
	touch "$T/hang"
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" >"$T/out" 2>"$T/err" &
	pid=$!
	await hung
	snapshot "$T/store.db" "$T/before"
	[ "$(wc -l <"$T/before")" = 4 ] || fail "expected 4 committed samples, got $(wc -l <"$T/before")"
}

# signal_sample SIG CODE: a run whose fifth sample hangs gets SIG: exit
# CODE, the sample's process group is gone, the run is interrupted with
# its 4 committed samples unchanged, and resume finishes it without
# changing them.
signal_sample() {
	local sig=$1 code=$2 rc db="$T/store.db"
	start_hung_run
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc = "$code" ] || { cat "$T/err" >&2; fail "exit $rc after SIG$sig, expected $code"; }
	assert_contains "$T/err" "abtool: interrupted by SIG$sig: run 1 is kept with 4 of 10 samples; finish it with 'abtool resume 1 --store $db'"
	assert_group_gone "$(cat "$T/hung.pgid")"
	[ "$(run_status "$db")" = interrupted ] || fail "status $(run_status "$db"), expected interrupted"
	assert_unchanged "$db" "$T/before"
	rm -f "$T/hang"
	expect_decided "$ABTOOL" resume 1 --store "$db"
	[ "$(run_status "$db")" = finished ] || fail "resume did not finish the run"
	[ "$(sqlite3 "$db" "select count(*) from samples where status = 0")" = 0 ] || fail "planned samples left"
	assert_kept "$db" "$T/before"
}

# own_pg_server NAME: start a PostgreSQL server of this case's own (in
# $T/pg, stopped when the case exits) with a new database NAME, whose URL
# it sets in $pg_url; for cases that need a server without the CTest
# fixture "pg".
own_pg_server() {
	"$ABTOOL_TEST_SRC/tests/pg/pg-server" start "$T/pg" >&2 || fail "no PostgreSQL server"
	trap '"$ABTOOL_TEST_SRC/tests/pg/pg-server" stop "$T/pg"' EXIT
	pg_url=$("$ABTOOL_TEST_SRC/tests/pg/pg-server" url "$T/pg" "$1" 2>/dev/null) || fail "no database $1"
}

# interrupt_when_started PID: wait for the event "started", which a
# command of the case's own sends (`echo started 1<>$T/events`) once it
# runs, and then waits while $T/hang exists; fail if abtool's process PID
# ends first (procwait.py waits for it by pidfd and sends "gone PID").
# Then send PID SIGINT, wait for it, remove $T/hang, and set $rc to its
# exit code. Call events_open before starting abtool.
interrupt_when_started() {
	{
		python3 "$ABTOOL_TEST_SRC/tests/cli/procwait.py" --timeout 300 pids "$1" &&
			echo "gone $1" 1<>"$T/events"
	} </dev/null >/dev/null 2>&1 9>&- &
	while await "" 300 "abtool neither started the command nor ended within 300 s"; do
		case $EVENT in
		started) break ;;
		"gone $1") fail "abtool ended before it started the command: $(cat "$T/err")" ;;
		esac
	done
	kill -INT "$1"
	wait "$1"
	rc=$?
	rm -f "$T/hang"
}
