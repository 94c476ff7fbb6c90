# prepare: and cleanup: run around every sample in the sample's folder,
# untimed: prepare writes a token that the benchmark consumes (deletes) and
# requires, so every sample proves its prepare ran just before it; cleanup
# logs each sample. A failing prepare fails its sample with its own message
# and its output's tail (invalid, exit 3). --warmup N replaces the file's
# warmup: in the plan, the store and the Reproduce line.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 60 30
EXP_LANES="1, 2" EXP_PAIRS=6 EXP_EXTRA="prepare: echo {lanes} > token
cleanup: ['sh', '-c', 'echo \"{lanes} \$(pwd)\" >> $T/cleanup.log']" write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: test \"\$(cat token)\" = {lanes} \&\& rm token \&\& ./bench {lanes}|" "$T/repo/exp.yaml"
"$ABTOOL" run "$T/repo/exp.yaml" --json "$T/ok.json" --seed 3 --warmup 2 >"$T/out" 2>"$T/err"
rc=$?
# any verdict (the candidate does half the work, an effect too small to
# decide on a busy host), never invalid: every sample found its token
[ "$rc" -le 2 ] || { cat "$T/err" >&2; fail "prepared samples: exit $rc"; }
[ "$(jqv "$T/ok.json" .verdict)" != invalid ] || fail "prepared samples: not invalid"
[ "$(jqv "$T/ok.json" .plan.warmup)" = 2 ] || fail "--warmup 2 in the plan"
# 2 rows x (6 pairs + 2 warmups) x 2 sides, each with its own prepare and cleanup
db="$T/repo/.git/abtool/abtool.db"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1 and error is null")" = 32 ] ||
	fail "every sample ran after its prepare"
[ "$(wc -l < "$T/cleanup.log")" = 32 ] || fail "cleanup after every sample: $(wc -l < "$T/cleanup.log")"
[ "$(grep -c '^2 ' "$T/cleanup.log")" = 16 ] || fail "cleanup gets the row's placeholders"
[ "$(awk '{print $2}' "$T/cleanup.log" | sort -u | wc -l)" = 2 ] || fail "cleanup runs in each side's tree"
case $(jqv "$T/ok.json" .reproduce) in
*"--warmup 2"*) ;;
*) fail "the Reproduce line lacks --warmup 2: $(jqv "$T/ok.json" .reproduce)" ;;
esac
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --warmup -1
assert_contains "$T/err" "--warmup: expected an integer from 0 to 1000"

# A failing prepare: the sample fails with the hook's own message and stderr.
sed -i 's|^prepare: .*|prepare: "echo data directory missing >\&2; exit 3"|' "$T/repo/exp.yaml"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/bad.json" --seed 3
[ "$(jqv "$T/bad.json" .verdict)" = invalid ] || fail "a failed prepare makes the run invalid"
case $(jqv "$T/bad.json" '.reasons | join(" | ")') in
*"prepare: failed"*"exit"*3*) ;;
*) fail "the reason does not name the prepare hook: $(jqv "$T/bad.json" '.reasons | join(" | ")')" ;;
esac
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 2 and stderr like '%data directory missing%'")" -ge 1 ] ||
	fail "the hook's stderr is kept with the sample"
echo ok
