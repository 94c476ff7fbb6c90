# lib.sh - shared helpers for the end-to-end cases. Each case is a bash
# script run by CTest with $ABTOOL (the binary) and $ABTOOL_TEST_TMP set;
# it builds real git repositories and runs the real binary.
set -u

# A case CTest runs once per store engine (tests/CMakeLists.txt,
# PG_CASES) has ABTOOL_TEST_ENGINE=postgresql the second time.
CASE=$(basename "$0" .sh)${ABTOOL_TEST_ENGINE:+.$ABTOOL_TEST_ENGINE}
T="${ABTOOL_TEST_TMP:-/tmp/abtool-tests}/$CASE"
rm -rf "$T"
mkdir -p "$T"
# Every case starts in its own folder, outside any git repository, wherever
# CTest runs it from (a build folder may or may not be in a checkout).
cd "$T" || exit 1
# Isolate the build cache and the store from the user's.
export XDG_CACHE_HOME="$T/cache"
# ... and from the user's config file ($XDG_CONFIG_HOME/abtool/config).
export XDG_CONFIG_HOME="$T/config"
# ... and from the per-user store outside repositories ($XDG_DATA_HOME/abtool).
export XDG_DATA_HOME="$T/data"
unset ABTOOL_STORE
# ... and from the CI that runs them: CI changes the progress output and
# GITHUB_ACTIONS writes step summaries; cases that test those set them.
unset CI GITHUB_ACTIONS GITHUB_STEP_SUMMARY GITHUB_OUTPUT NO_COLOR
# ... and from the width of the terminal they were started from: $COLUMNS
# fits history's and designs' tables in a pipe too; cases that test it set it.
unset COLUMNS
# ... and from the user's PostgreSQL settings (the cases' URLs say everything).
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGPASSFILE PGSERVICE PGSERVICEFILE \
	PGOPTIONS PGSSLMODE
export GIT_AUTHOR_NAME=abtool-test GIT_AUTHOR_EMAIL=test@abtool.invalid
export GIT_COMMITTER_NAME=abtool-test GIT_COMMITTER_EMAIL=test@abtool.invalid

# test_store NAME: a new, empty store for this case: the file $T/NAME.db,
# or, when the case runs on PostgreSQL, a new database on the tests'
# server (tests/pg/pg-server, started by the CTest fixture "pg").
test_store() {
	if [ "${ABTOOL_TEST_ENGINE:-sqlite}" = postgresql ]; then
		"$ABTOOL_TEST_SRC/tests/pg/pg-server" url "$ABTOOL_TEST_PG" "${CASE%%.*}_$1" 2>/dev/null \
			|| fail "no PostgreSQL database $1 on the tests' server ($ABTOOL_TEST_PG)"
	else
		echo "$T/$1.db"
	fi
}

# sql STORE QUERY: run QUERY on a store of either engine (sqlite3 or psql),
# rows one per line, columns joined by '|'.
sql() {
	case $1 in
	postgres*) psql -X -q -At -v ON_ERROR_STOP=1 "$1" -c "$2" ;;
	*) sqlite3 "$1" "$2" ;;
	esac
}

# on_pg: the case runs on PostgreSQL.
on_pg() {
	[ "${ABTOOL_TEST_ENGINE:-sqlite}" = postgresql ]
}

# pg_server start|stop|kill|restart: the tests' PostgreSQL server.
pg_server() {
	"$ABTOOL_TEST_SRC/tests/pg/pg-server" "$1" "$ABTOOL_TEST_PG"
}

fail() {
	echo "FAIL ($CASE): $*" >&2
	exit 1
}

# expect_exit CODE CMD...: run CMD, keep stdout/stderr in $T/out, $T/err.
expect_exit() {
	local want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		echo "--- stdout" >&2
		tail -n 40 "$T/out" >&2
		echo "--- stderr" >&2
		tail -n 40 "$T/err" >&2
		fail "expected exit $want, got $got: $*"
	fi
}

# assert_contains FILE TEXT: FILE has TEXT (fixed string).
assert_contains() {
	grep -qF -- "$2" "$1" || {
		echo "--- $1" >&2
		tail -n 60 "$1" >&2
		fail "'$1' does not contain: $2"
	}
}

assert_not_contains() {
	if grep -qF -- "$2" "$1"; then
		fail "'$1' contains: $2"
	fi
}

# assert_no_warning FILE: no warning in FILE but the host's own ("warning:
# host: ..."), which say what the machine is doing and are the host's to give.
assert_no_warning() {
	if grep -v "^abtool: warning: host: " "$1" | grep -q "warning"; then
		grep "warning" "$1" >&2
		fail "'$1' has a warning"
	fi
}

# jqv FILE FILTER: one value from a JSON file.
jqv() {
	jq -r "$2" "$1"
}

# bench_source WORK [SALT]: a C benchmark doing WORK million dependent
# multiply-adds (a few ms each), printing a checksum that depends only on
# its argument and SALT (default 0).
bench_source() {
	cat <<EOF2
#include <stdio.h>
#include <stdlib.h>
#define WORK $1
#define CHECKSUM_SALT ${2:-0}
int main(int argc, char **argv)
{
	int lanes = argc > 1 ? atoi(argv[1]) : 1;
	volatile unsigned long long sink;
	unsigned long long x = 1, i;
	for (i = 0; i < WORK * 1000000ULL; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	printf("lanes=%d checksum=%d\n", lanes, lanes * 7919 + CHECKSUM_SALT);
	return 0;
}
EOF2
}

# make_repo DIR PARENT_WORK CANDIDATE_WORK [CANDIDATE_SALT]: a git
# repository with two commits (parent, candidate) of bench.c and a Makefile.
make_repo() {
	local dir=$1
	mkdir -p "$dir"
	git -C "$dir" init -q
	cat >"$dir/Makefile" <<'EOF2'
bench: bench.c
	cc -O1 -o bench bench.c
EOF2
	echo bench >"$dir/.gitignore"
	bench_source "$2" >"$dir/bench.c"
	git -C "$dir" add -A
	git -C "$dir" commit -qm "parent: work $2"
	bench_source "$3" "${4:-0}" >"$dir/bench.c"
	git -C "$dir" commit -qam "candidate: work $3"
}

# write_exp DIR: the experiment file of the basic cases (override with
# EXP_EXTRA lines appended). Its rules decide on cpu_ns (EXP_METRIC), which
# other jobs on the machine barely move for a single-threaded loop; a smoke
# case that decides on wall time says EXP_METRIC=wall_ns (EXP_METRIC= gives
# no metric: line, for an EXP_EXTRA that has its own). The metric: line
# comes last, so that EXP_EXTRA's lines keep their line numbers.
write_exp() {
	cat >"$1/exp.yaml" <<EOF2
name: ${EXP_NAME:-e2e}
design: ${EXP_DESIGN:-e2e-design}
build: ${EXP_BUILD:-make}
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\\S+)'}
matrix: {lanes: [${EXP_LANES:-1}]}
pairs: ${EXP_PAIRS:-6}
warmup: 1
timeout: 60s
accept:
  - name: no regression
    no_regression: 2%
  - name: material gain
    faster_by: 20%
${EXP_EXTRA:-}
EOF2
	[ -z "${EXP_METRIC-cpu_ns}" ] || echo "metric: ${EXP_METRIC-cpu_ns}" >>"$1/exp.yaml"
}

# expect_decided CMD...: run CMD (output in $T/out, $T/err) and require a
# verdict of any kind (exit 0, 1 or 2): for cases about durability, not
# speed, whose verdict a loaded machine may leave inconclusive.
expect_decided() {
	"$@" >"$T/out" 2>"$T/err"
	local got=$?
	case $got in
	0 | 1 | 2) ;;
	*)
		tail -n 20 "$T/err" >&2
		fail "expected a verdict (exit 0, 1 or 2), got $got: $*"
		;;
	esac
}

# chromium_find: $CHROMIUM, Debian's chromium, or fail (headless cases).
chromium_find() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
		fail "no chromium: install Debian's chromium (scripts/install-deps --test)"
}

# chromium_run OUT ERR ARGS...: a fresh, offline, headless browser.
chromium_run() {
	local out=$1 err=$2 profile
	shift 2
	profile=$(mktemp -d "$T/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars "$@" \
		>"$out" 2>"$err"
}

# console_messages ERR: what the page wrote to the console, or refused.
console_messages() {
	grep -E ':CONSOLE[:(]' "$1"
}

# Waiting for other processes: on events, never on a clock.
#
# events_open: the case's event channel, the FIFO $T/events, held open on
# fd 9 for the whole case (so that a line written before the case reads it
# is kept). A process the case started writes one line per event with
# `echo LINE 1<>$T/events` (read-write: the open never blocks, even after
# the case has stopped reading); the case waits for it with await. Call it
# before starting anything that writes events (from a pipeline or a
# group, not from inside a process substitution >(...), where bash 5.2 was
# seen writing the line to its stdout instead). $T/release is a second
# FIFO a process blocks on until the case releases it (release).
events_open() {
	rm -f "$T/events" "$T/release"
	mkfifo "$T/events" "$T/release" || fail "mkfifo"
	exec 9<>"$T/events"
}

# await PREFIX [SECONDS [WHY]]: the first event line that starts with
# PREFIX is in $EVENT; lines that do not match are kept for a later await.
# Fail (with WHY, when given) if none comes within SECONDS (default 300: a
# guard against a hang, not a wait; CTest gives a case 600 s).
EVENTS_PENDING=()
await() {
	local i line
	for i in "${!EVENTS_PENDING[@]}"; do
		case ${EVENTS_PENDING[$i]} in
		"$1"*)
			EVENT=${EVENTS_PENDING[$i]}
			unset "EVENTS_PENDING[$i]"
			return 0
			;;
		esac
	done
	while IFS= read -r -t "${2:-300}" -u 9 line; do
		case $line in
		"$1"*)
			EVENT=$line
			return 0
			;;
		esac
		EVENTS_PENDING+=("$line")
	done
	fail "${3:-no event '$1' within ${2:-300} s}"
}

# start_bg NAME CMD...: run CMD in the background, its stdout and stderr
# in $T/NAME.out and $T/NAME.err; the events "pid NAME PID" (CMD's own
# process, at once) and "exit NAME STATUS" (when it ends) tell the case.
start_bg() {
	local name=$1
	shift
	{
		"$@" >"$T/$name.out" 2>"$T/$name.err" 9>&- &
		echo "pid $name $!" 1<>"$T/events"
		wait $!
		echo "exit $name $?" 1<>"$T/events"
	} </dev/null >/dev/null 2>&1 9>&- &
}

# release: let the process blocked on $T/release go on (it reads one line).
release() {
	timeout 60 sh -c 'echo go >"$1"' _ "$T/release" || fail "nothing was waiting on $T/release"
}

# hang_bench DIR N: a benchmark script DIR/bench.sh that counts its
# invocations in $T/count and, from the N-th on (or at the invocations N
# lists, when it is a list like 5,10), while $T/hang exists,
# writes its process group to $T/hung.pgid, sends the event "hung PGID"
# and blocks until released (release) or killed; otherwise, and after
# that, it runs ./bench in the tree. Use it with
# `benchmark: $DIR/bench.sh {lanes}` after events_open. Until it hangs it
# starts no process of its own (shell builtins, then exec), so it adds
# little to the sample's time.
hang_bench() {
	local at="[ \$n -ge $2 ]"
	case $2 in *,*) at="case ,$2, in *,\$n,*) true ;; *) false ;; esac" ;; esac
	cat >"$1/bench.sh" <<EOF2
#!/bin/sh
n=0
[ -e "$T/count" ] && read -r n <"$T/count"
n=\$((n + 1))
echo \$n >"$T/count"
if $at && [ -e "$T/hang" ]; then
	pgid=\$(ps -o pgid= \$\$ | tr -d ' ')
	echo "\$pgid" >"$T/hung.pgid"
	echo "hung \$pgid" 1<>"$T/events"
	read _ <"$T/release"
fi
exec ./bench "\$@"
EOF2
	chmod +x "$1/bench.sh"
}

# hang_build DIR: a build script DIR/build.sh that, while $T/hang-build
# exists, writes its process group to $T/build.pgid, sends the event
# "build PGID" and blocks until released or killed; then it runs make in
# the tree. Use it with EXP_BUILD=DIR/build.sh after events_open.
hang_build() {
	cat >"$1/build.sh" <<EOF2
#!/bin/sh
if [ -e "$T/hang-build" ]; then
	pgid=\$(ps -o pgid= \$\$ | tr -d ' ')
	echo "\$pgid" >"$T/build.pgid"
	echo "build \$pgid" 1<>"$T/events"
	read _ <"$T/release"
fi
exec make
EOF2
	chmod +x "$1/build.sh"
}

# wait_gone PID...: each PID has ended (pidfd: the kernel says when), or
# fail after 120 s (a guard, not a wait). assert_group_gone PGID: likewise
# every process of the group.
wait_gone() {
	python3 "$ABTOOL_TEST_SRC/tests/cli/procwait.py" --timeout 120 pids "$@" || fail "processes survived: $*"
}
assert_group_gone() {
	python3 "$ABTOOL_TEST_SRC/tests/cli/procwait.py" --timeout 120 group "$1" ||
		fail "processes of group $1 survived: $(pgrep -a -g "$1")"
}
