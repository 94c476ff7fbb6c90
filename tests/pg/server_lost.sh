# The PostgreSQL server goes away in the middle of a run (an immediate
# shutdown, as a crash or a lost network would): the run stops with exit
# 74 and a message naming the lost connection and `abtool resume`; every
# sample it reported as measured before the cut is in the store; once the
# server is back, resume finishes the run with every planned sample. An
# unreachable server at the start is exit 74 naming the host, and nothing
# is written locally. This case runs its own server (in $T/pg), since it
# stops it. The cut comes while the run's 10th sample runs (it says so and
# waits: hang_bench), so that 9 samples are stored before it and the 10th
# is the one whose storing finds the server gone.
. "$(dirname "$0")/../cli/lib.sh"

server="$T/pg"
"$ABTOOL_TEST_SRC/tests/pg/pg-server" start "$server" || fail "no server"
trap '"$ABTOOL_TEST_SRC/tests/pg/pg-server" stop "$server"' EXIT
db=$("$ABTOOL_TEST_SRC/tests/pg/pg-server" url "$server" lost 2>/dev/null)

events_open
make_repo "$T/repo" 40 20
hang_bench "$T" 10
EXP_PAIRS=30 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --seed 3 --verbose >"$T/out" 2>"$T/err" &
pid=$!
await hung
[ "$(sql "$db" "select count(*) from samples where status = 1")" = 9 ] || fail "9 samples stored before the cut"
"$ABTOOL_TEST_SRC/tests/pg/pg-server" kill "$server"
rm -f "$T/hang"
release
wait $pid
rc=$?
[ $rc = 74 ] || { tail -5 "$T/err" >&2; fail "exit $rc after the server went away, not 74"; }
assert_contains "$T/err" "the connection to the server was lost"
assert_contains "$T/err" "abtool resume 1 --store postgresql://abtool@/lost?host="
# the samples the run said it measured (--verbose: one line per sample)
printed=$(grep -c ' checksum ' "$T/err")
"$ABTOOL_TEST_SRC/tests/pg/pg-server" restart "$server" || fail "restart"
stored=$(sql "$db" "select count(*) from samples where status = 1")
[ "$printed" = 9 ] || { head -5 "$T/err" >&2; fail "$printed sample lines printed, expected 9"; }
[ "$stored" = "$printed" ] || fail "$printed samples reported, $stored stored"
[ "$(sql "$db" "select status from runs where id = 1")" = running ] || fail "the run is not resumable"

expect_decided "$ABTOOL" resume 1 --store "$db"
[ "$(sql "$db" "select status from runs where id = 1")" = finished ] || fail "resume did not finish"
[ "$(sql "$db" "select count(*) from samples where run_id = 1 and status = 1 and pair >= 0")" = 60 ] \
	|| fail "not every planned sample after resume"

# unreachable at the start: exit 74 naming the host; nothing written here
mkdir -p "$T/empty" && cd "$T/empty"
expect_exit 74 "$ABTOOL" run "$T/repo/exp.yaml" --store "postgresql://abtool@/lost?host=$T/nowhere"
assert_contains "$T/err" "cannot connect to the PostgreSQL store postgresql://abtool@/lost?host=$T/nowhere (host $T/nowhere)"
[ -z "$(ls -A "$T/empty")" ] || fail "written locally: $(ls -A "$T/empty")"
[ ! -e "$T/repo/.git/abtool" ] || fail "a local store was made"
echo ok
