# smoke
# compare, on wall time (the default metric): two commands outside any
# repository, the second doing a sixth of the work (about 5x faster in wall
# time, with the process's start) with the same output, are accepted on
# --faster-by 20%; a different output under --check-stdout is invalid; -P
# lanes 1 4 makes four rows; the runs go to the per-user store, which
# history --kind compare lists and show, report and designs read; an
# experiment file with sides: runs and names both sides without storing a
# commit.
# Designed error: 1.3e-5. The only wall-time decisions: --faster-by 20% on
# 12 pairs where B/A is 0.21-0.26 here (the upper bound, the 18th largest
# of 78 Walsh averages, below 0.833), and A/A rules with margins of 900%
# (bounds inside [0.1, 10]) on 8 pairs. Spread assumed: the log ratios of
# 1,220 A/A pairs measured on this 2-core machine at load 12-16, 40% of
# them beside two busy loops (sd 0.33, 0.3% beyond a factor 4, 0.04%
# beyond 10, largest 12.9): resampled around B/A = 0.26, 400,000 simulated
# comparisons of the first kind failed 5 times (1.3e-5); the second needs 6
# of 36 Walsh averages beyond a factor 10, 3 pairs beyond it: 56 x
# 0.0004^3 = 4e-9.
. "$(dirname "$0")/lib.sh"

W="$T/work"  # in no git repository (T is under /tmp)
mkdir -p "$W"
cd "$W"
user_db="$XDG_DATA_HOME/abtool/abtool.db"
# loop N OUTPUT: N million dependent multiply-adds, then OUTPUT
cat >"$W/loop.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long long n = strtoull(argv[1], NULL, 10) * 1000000ULL, x = 1, i;
	volatile unsigned long long sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	puts(argv[2]);
	return 0;
}
EOF2
cc -O1 -o "$W/loop" "$W/loop.c" || fail "cc loop.c"
loop() {  # loop N OUTPUT: the command
	echo "$W/loop $1 $2"
}

expect_exit 0 "$ABTOOL" compare "$(loop 120 sum=7)" "$(loop 20 sum=7)" --faster-by 20% \
	--check-stdout --pairs 12 --seed 3 -n slow -n fast --json "$T/a.json" --quiet
[ -f "$user_db" ] || fail "no per-user store at $user_db"
[ "$(jqv "$T/a.json" .kind)" = compare ] || fail "kind: $(jqv "$T/a.json" .kind)"
[ "$(jqv "$T/a.json" '[.sides[].name] | join(",")')" = slow,fast ] || fail "sides: $(jqv "$T/a.json" .sides)"
[ "$(jqv "$T/a.json" '.rows | length')" = 1 ] || fail "rows"
# the rows are run's rows
for k in ratio ci pair_wins pairs p_signed_rank p_mann_whitney_unpaired checksum_match; do
	[ "$(jqv "$T/a.json" ".rows[0] | has(\"$k\")")" = true ] || fail "row lacks $k"
done
assert_contains "$T/out" "| slow median | RSD | fast median |"
# the document validates against the report schema, sides and all
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then
		"$p" "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/a.json" \
			|| fail "the comparison's report does not validate"
		break
	fi
done
assert_contains "$T/out" "| command | \`$W/loop 120 sum=7\`"

expect_exit 3 "$ABTOOL" compare "$(loop 1 sum=1)" "$(loop 1 sum=2)" --check-stdout --pairs 3 --quiet
assert_contains "$T/err" "checksum mismatch"

# no rule: compare's default differs, which 2 pairs cannot decide (no bound below 5 pairs): exit 2
expect_exit 2 "$ABTOOL" compare 'echo {lanes}' 'sh -c "echo {lanes}"' -P lanes 1 4 --pairs 2 \
	--check-stdout --json "$T/p.json" --quiet
[ "$(jqv "$T/p.json" '[.rows[].params.lanes] | join(",")')" = 1,2,3,4 ] \
	|| fail "-P rows: $(jqv "$T/p.json" '[.rows[].params]')"
expect_exit 2 "$ABTOOL" compare 'echo {w}' 'echo {w}' -L w a,b --pairs 2 --json "$T/l.json" --quiet
[ "$(jqv "$T/l.json" '[.rows[].params.w] | join(",")')" = a,b ] || fail "-L rows"

# rules of the options, then those of a rules file
printf '# rules\naccept:\n  - name: steady\n    max_rsd: 900%%\n  - {name: eq, equivalent_within: 900%%}\n' \
	>"$T/rules.yaml"
expect_exit 0 "$ABTOOL" compare "$(loop 5 1)" "$(loop 5 1)" --no-regression 900% --accept "$T/rules.yaml" \
	--pairs 8 --json "$T/r.json" --quiet
[ "$(jqv "$T/r.json" '[.rules[] | .name + ":" + .outcome] | join(",")')" \
	= "no-regression:pass,steady:pass,eq:pass" ] || fail "rules: $(jqv "$T/r.json" .rules)"

# the per-user store: history --kind compare, show, report; never a design
expect_exit 0 "$ABTOOL" history --kind compare --json
[ "$(jqv "$T/out" 'length')" = 5 ] || fail "history --kind compare: $(cat "$T/out")"
[ "$(jqv "$T/out" '[.[] | .kind] | unique | join(",")')" = compare ] || fail "kinds"
[ "$(jqv "$T/out" '.[-1].sides[0].name')" = slow ] || fail "history sides"
expect_exit 0 "$ABTOOL" history --kind ab --json
[ "$(jqv "$T/out" 'length')" = 0 ] || fail "history --kind ab lists comparisons"
expect_exit 0 "$ABTOOL" history
assert_contains "$T/out" "slow..fast"
expect_exit 0 "$ABTOOL" show 1
assert_contains "$T/out" "sides (two commands, no revisions)"
expect_exit 0 "$ABTOOL" report 1 --format json
cmp -s "$T/out" "$T/a.json" || fail "report 1 differs from the --json of the run"
expect_exit 0 "$ABTOOL" designs --json
[ "$(jqv "$T/out" 'length')" = 0 ] || fail "a comparison is listed as a design: $(cat "$T/out")"
[ "$(sqlite3 "$user_db" "SELECT count(*) FROM runs WHERE parent_oid != '' OR candidate_oid != ''
	OR repo != ''")" = 0 ] || fail "a comparison stored a commit"
[ "$(sqlite3 "$user_db" "SELECT count(*) FROM builds")" = 0 ] || fail "a comparison stored builds"

# declared sides in an experiment file
cat >"$W/engines.yaml" <<'EOF2'
name: engines
sides:
  a: {name: zig-js, command: "echo {n} done"}
  b: {name: jsc, command: [sh, -c, "echo {n} done"]}
matrix: {n: [1, 2]}
checksum: {stdout: sha256}
pairs: 3
EOF2
expect_exit 0 "$ABTOOL" check "$W/engines.yaml"
assert_contains "$T/out" "side a    zig-js: echo {n} done"
expect_exit 2 "$ABTOOL" run "$W/engines.yaml" --store "$T/s.db" --json "$T/e.json" --quiet
assert_contains "$T/out" "| a: zig-js | b: jsc |"
assert_contains "$T/out" "| zig-js median | RSD | jsc median |"
[ "$(jqv "$T/e.json" '.kind + " " + ([.sides[].name] | join(","))')" = "compare zig-js,jsc" ] \
	|| fail "sides of the file"
[ "$(jqv "$T/e.json" '.rows | length')" = 2 ] || fail "matrix of the file"
[ "$(sqlite3 "$T/s.db" "SELECT kind || ':' || parent_oid || ':' || candidate_oid || ':' ||
	json_extract(sides, '\$[1].name') FROM runs")" = "compare:::jsc" ] || fail "stored run"
echo ok
