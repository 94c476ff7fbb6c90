# A build that outlives build_timeout: 1s is killed with its process
# group: invalid (exit 3), "timed out after 1 s", and the next run builds
# again (a timed-out build is not cached).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 EXP_BUILD="echo \$\$ >$T/build.pid; sleep 600" write_exp "$T/repo"
echo "build_timeout: 1s" >>"$T/repo/exp.yaml"
start=$(date +%s)
expect_fail 3 "abtool: parent build failed (timed out after 1 s); last lines of " \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the build timeout did not stop the build"
kill -0 "$(cat "$T/build.pid")" 2>/dev/null && fail "the timed-out build survived"
[ "$(sqlite3 "$T/store.db" "select status from builds where side = 'parent'")" = timed_out ] || fail "build status"
rm -f "$T/build.pid"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
[ -s "$T/build.pid" ] || fail "the timed-out build was cached"
assert_integrity "$T/store.db"
echo ok
