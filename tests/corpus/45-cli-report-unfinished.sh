# report of a run that was interrupted (SIGINT during its build) has no
# report yet: exit 64, its status, and how to finish it.
. "$(dirname "$0")/corpus.sh"

events_open
make_repo "$T/repo" 2 1
hang_build "$T"
EXP_PAIRS=2 EXP_BUILD="$T/build.sh" write_exp "$T/repo"
touch "$T/hang-build"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" >"$T/out" 2>"$T/err" &
pid=$!
await build
kill -INT $pid
wait $pid
[ $? = 130 ] || fail "the run was not interrupted"
rm -f "$T/hang-build"
expect_fail 64 "run 1 has no report: it is interrupted; finish it with 'abtool resume 1'" \
	"$ABTOOL" report 1 --store "$T/store.db"
expect_fail 64 "run 1 has no report" "$ABTOOL" report latest --format json --store "$T/store.db"
assert_integrity "$T/store.db"
echo ok
