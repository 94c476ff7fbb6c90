# SIGTERM and SIGINT during a sample and during a build: the children are
# killed, the run is kept as interrupted with every finished sample, the
# exit code is 143 or 130, and `abtool resume` finishes it.
. "$(dirname "$0")/lib.sh"

# The hanging sleep is named by this test's pid, so that what a failed
# attempt left behind cannot be taken for this attempt's.
HANG="sleep 300.$$"

# gone PATTERN: no process matches PATTERN within 15 s (the zygote kills
# a sample as abtool's socket closes; on a loaded machine that takes a while).
gone() {
	local i
	for i in $(seq 1 300); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.05
	done
	return 1
}

make_repo "$T/repo" 20 10
# during a sample: every sample hangs while $T/hang exists
EXP_PAIRS=6 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: \"[ -e $T/hang ] \&\& $HANG; ./bench {lanes}\"|" "$T/repo/exp.yaml"
touch "$T/hang"
db="$T/store.db"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 1 400); do
	pgrep -f "$HANG" >/dev/null && break
	sleep 0.05
done
pgrep -f "$HANG" >/dev/null || fail "the sample never started"
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "exit $rc after SIGTERM, expected 143"
assert_contains "$T/err" "interrupted by SIGTERM: run 1 is kept"
assert_contains "$T/err" "abtool resume 1"
# the zygote kills what is left of the sample as abtool's socket closes:
# give it a moment on a loaded machine (a survivor would live 300 s)
gone "$HANG" || fail "the sample's process group survived"
[ "$(sqlite3 "$db" "select status from runs")" = interrupted ] || fail "status"
rm -f "$T/hang"
expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(sqlite3 "$db" "select status from runs where id = 1")" = finished ] || fail "resume did not finish the run"
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 1 and status = 0")" = 0 ] || fail "samples left"

# during a build: SIGINT
make_repo "$T/repo2" 20 10
EXP_BUILD="$HANG && make" write_exp "$T/repo2"
"$ABTOOL" run "$T/repo2/exp.yaml" --store "$db" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 1 400); do
	pgrep -f "$HANG" >/dev/null && break
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
assert_contains "$T/err" "interrupted by SIGINT"
gone "$HANG" || fail "the build survived"
[ "$(sqlite3 "$db" "select status from runs where id = 2")" = interrupted ] || fail "status after a build interrupt"
echo ok
