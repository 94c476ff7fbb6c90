# inputs: outside the trees. Their content hashes are in the report and
# the run's options, and part of the comparison's identity: the same
# experiment file and commits with a changed input are not "the same
# comparison". An input that changes during a run (size or modification
# time, checked around every sample) makes the run invalid.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 60 30
mkdir -p "$T/data"
echo "corpus v1" > "$T/data/corpus.txt"
echo "dictionary" > "$T/dict.txt"
EXP_EXTRA="inputs: [../data, $T/dict.txt]" write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: cat $T/data/corpus.txt $T/dict.txt > /dev/null \&\& ./bench {lanes}|" "$T/repo/exp.yaml"

run_ok() {  # run_ok JSON: any verdict (half the work is too small an effect to decide on a busy host), never invalid
	"$ABTOOL" run "$T/repo/exp.yaml" --json "$1" >"$T/out" 2>"$T/err"
	local rc=$?
	[ "$rc" -le 2 ] || { cat "$T/err" >&2; fail "run exited $rc"; }
}
run_ok "$T/r1.json"
[ "$(jqv "$T/r1.json" '.inputs.paths | length')" = 2 ] || fail "two inputs in the report"
[ "$(jqv "$T/r1.json" '.inputs.paths[0].path')" = "$T/data" ] || fail "relative to the experiment file"
[ "$(jqv "$T/r1.json" '.inputs.paths[0].type')" = folder ] || fail "a folder"
[ "$(jqv "$T/r1.json" '.inputs.paths[1].sha256')" = "$(sha256sum "$T/dict.txt" | cut -c1-64)" ] ||
	fail "a file's SHA-256"
assert_contains "$T/out" "| input \`$T/dict.txt\`"
python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/r1.json" ||
	fail "the report does not match docs/report-schema.json"
db="$T/repo/.git/abtool/abtool.db"
[ "$(sqlite3 "$db" "select json_extract(options, '\$.inputs_hash') from runs where id = 1")" = \
  "$(jqv "$T/r1.json" .inputs.sha256)" ] || fail "the inputs' hash is stored with the run"

# the same comparison again: the earlier run is named
run_ok "$T/r2.json"
assert_contains "$T/err" "was run 1 time before"
[ "$(jqv "$T/r2.json" '.earlier_runs | length')" = 1 ] || fail "run 1 is the same comparison"

# a changed input: another comparison
echo "corpus v2" > "$T/data/corpus.txt"
run_ok "$T/r3.json"
assert_not_contains "$T/err" "time before"
assert_not_contains "$T/err" "times before"
[ "$(jqv "$T/r3.json" '.earlier_runs | length')" = 0 ] || fail "a changed input is not the same comparison"
[ "$(jqv "$T/r3.json" .inputs.sha256)" != "$(jqv "$T/r1.json" .inputs.sha256)" ] || fail "the hash changed"

# an input changed during the run: the fifth sample appends to it
cat > "$T/touch.sh" <<EOF2
n=\$(cat "$T/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$T/count"
[ \$n -eq 5 ] && echo more >> "$T/dict.txt"
exit 0
EOF2
sed -i "s|^benchmark: |benchmark: sh $T/touch.sh; |" "$T/repo/exp.yaml"
expect_exit 3 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r4.json"
[ "$(jqv "$T/r4.json" .verdict)" = invalid ] || fail "a changed input makes the run invalid"
case $(jqv "$T/r4.json" '.reasons | join(" | ")') in
*"inputs changed during the run"*"after sample 5"*) ;;
*) fail "the reason does not say the inputs changed: $(jqv "$T/r4.json" '.reasons | join(" | ")')" ;;
esac

# resume refuses an input changed since the run started: a run killed
# once 4 samples are stored (its fifth says so and hangs: hang_bench), its
# input changed, then resumed
rm -f "$T/count"
events_open
hang_bench "$T" 5
sed -i "s|^benchmark: sh $T/touch.sh; .*|benchmark: cat $T/data/corpus.txt $T/dict.txt > /dev/null \&\& $T/bench.sh {lanes}|" \
	"$T/repo/exp.yaml"
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/kill.db" --quiet >/dev/null 2>&1 &
pid=$!
await hung
kill -9 $pid
wait $pid 2>/dev/null
rm -f "$T/hang"
n=$(sqlite3 "$T/kill.db" "select count(*) from samples where status = 1")
[ "$n" = 4 ] || fail "the run stored $n samples before the kill, expected 4"
echo changed >> "$T/data/corpus.txt"
expect_exit 64 "$ABTOOL" resume 1 --store "$T/kill.db"
assert_contains "$T/err" "the input $T/data changed since the run started"

# a missing input stops the run before anything is built
rm "$T/dict.txt"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml"
assert_contains "$T/err" "inputs: $T/dict.txt"
echo ok
