# Two runs share one store and one build cache at the same time: both
# complete, every sample of both is stored, and each side is built once
# (one lock per cache entry). The first run's first build holds its lock
# (hang_build: it says so and waits) until the second run has said it is
# waiting for that lock; then it goes on.
. "$(dirname "$0")/lib.sh"

events_open
make_repo "$T/repo" 20 10
hang_build "$T"
sed -i 's|^exec make$|echo built >>"'"$T"'/count"; rm -f "'"$T"'/hang-build"; exec make|' "$T/build.sh"
EXP_BUILD="$T/build.sh" write_exp "$T/repo"
db=$(test_store store)
touch "$T/hang-build"
start_bg r1 "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
await build
# the second run, not quiet, says when it waits for the lock the first
# holds: its stderr goes through a pipe to $T/r2.err and to a grep that
# sends the event "waiting"
{
	{
		"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" 2>&1 >"$T/r2.out"
		echo "exit r2 $?" 1<>"$T/events"
	} | tee "$T/r2.err" | {
		grep -q "another abtool is building the same tree; waiting for" && echo waiting 1<>"$T/events"
		cat >/dev/null
	}
} </dev/null >/dev/null 2>&1 9>&- &
await waiting 300 "the second run never waited for the build lock the first holds"
release
await "exit r1"
r1=${EVENT##* }
await "exit r2"
r2=${EVENT##* }
# durability, not speed: any verdict will do
[ "$r1" -le 2 ] || { cat "$T/r1.err"; fail "first run exit $r1"; }
[ "$r2" -le 2 ] || { cat "$T/r2.err"; fail "second run exit $r2"; }
[ "$(sql "$db" "select count(*) from runs where status = 'finished'")" = 2 ] || fail "two finished runs"
[ "$(sql "$db" "select count(*) from samples where status = 1")" = 28 ] || fail "all samples of both runs"
[ "$(sql "$db" "select count(*) from samples where status != 1")" = 0 ] || fail "unfinished samples"
[ "$(wc -l < "$T/count")" = 2 ] || fail "$(wc -l < "$T/count") builds: each side should be built once"
on_pg || [ "$(sql "$db" "pragma integrity_check")" = ok ] || fail "integrity_check"
echo ok
