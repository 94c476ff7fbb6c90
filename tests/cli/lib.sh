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
# EXP_EXTRA lines appended).
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
