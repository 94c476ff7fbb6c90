# Two runs share one store and one build cache at the same time: both
# complete, every sample of both is stored, and each side is built once
# (one lock per cache entry).
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 20 10
EXP_BUILD="echo built >> $T/count && sleep 1 && make" write_exp "$T/repo"
db=$(test_store store)
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet >"$T/out1" 2>"$T/err1" &
p1=$!
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet >"$T/out2" 2>"$T/err2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
# durability, not speed: any verdict will do (a loaded machine may leave it open)
[ $r1 -le 2 ] || { cat "$T/err1"; fail "first run exit $r1"; }
[ $r2 -le 2 ] || { cat "$T/err2"; fail "second run exit $r2"; }
[ "$(sql "$db" "select count(*) from runs where status = 'finished'")" = 2 ] || fail "two finished runs"
[ "$(sql "$db" "select count(*) from samples where status = 1")" = 28 ] || fail "all samples of both runs"
[ "$(sql "$db" "select count(*) from samples where status != 1")" = 0 ] || fail "unfinished samples"
[ "$(wc -l < "$T/count")" = 2 ] || fail "$(wc -l < "$T/count") builds: each side should be built once"
on_pg || [ "$(sql "$db" "pragma integrity_check")" = ok ] || fail "integrity_check"
echo ok
