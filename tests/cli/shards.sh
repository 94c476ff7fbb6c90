# smoke
# run --shard K/N --group ID and verdict --group ID, on wall time (the
# default metric). A shard measures a deterministic part of the matrix (a
# row stays with the base row a scaling predicate pairs it with) and
# `abtool verdict --group ID` decides the shards together: on a 4-row
# experiment whose candidate does 20x the work, two shards give a group
# whose rows are the shards' own rows (the same samples, the same
# statistics) and whose verdict and row outcomes are the designed ones (no
# regression fails on every row, the scaling rule passes), with each row's
# host named; a missing or unfinished shard leaves the group
# incomplete (exit 2, not decided); shards of different commits or abtool
# versions are refused. (That shards decided together equal one unsharded
# run of the same values is tests/unit/test_shards.c's: two real runs
# would be two independent measurements.)
# Designed error: 1e-5. The wall-time decisions: no_regression: 5% failing
# on each of 4 rows where B/A is 10-20 (the lower bound above 1.05 at
# Holm's strictest level, 0.0125: the 6th smallest of 55 Walsh averages of
# 10 pairs), and scaling_not_worse: 400% passing on lanes=8 (B/A of its
# scaling against lanes=1 near 1, each value the ratio of two pairs, so
# twice the variance: the upper bound below 5). Spread assumed: the log
# ratios of 1,220 A/A pairs measured on this 2-core machine at load 12-16,
# 40% of them beside two busy loops (sd 0.33, 0.3% beyond a factor 4,
# 0.04% beyond 10, largest 12.9); resampled, 200,000 simulated rows of the
# first kind failed none (below 5e-6 per row), 200,000 of the second 2
# (1e-5).
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 5 100
cat > "$T/repo/exp.yaml" <<'EOF2'
name: shards
design: shards-design
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2, 4, 8]}
scaling: {parameter: lanes, work: total}
pairs: 10
warmup: 0
accept:
  - name: no regression
    no_regression: 5%
  - name: scaling at 8
    where: {lanes: 8}
    scaling_not_worse: 400%
EOF2
db="$T/repo/.git/abtool/abtool.db"
outcomes() {  # the verdict, then each rule's outcome and its rows' outcomes
	jq -r '.verdict, (.rules[] | .name + ": " + .outcome + " " +
		([.rows[]? | (.params | tostring) + "=" + .outcome] | join(",")))' "$1"
}
rows() {  # each row's statistics, by its parameters, sorted
	jq -S '[.rows[] | {params, ratio, ci, pairs, pair_wins, p_signed_rank, parent: .parent.median,
		candidate: .candidate.median}] | sort_by(.params.lanes)' "$@"
}

expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --shard 1/2
assert_contains "$T/err" "--shard and --group go together"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --shard 3/2 --group g
assert_contains "$T/err" "--shard: expected K/N"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --shard 4/4 --group g
assert_contains "$T/err" "this shard has no row to measure"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --shard 1/2 --group g --row lanes=1
assert_contains "$T/err" "--shard and --row do not combine"

expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --seed 4 -q --shard 1/2 --group g1 --json "$T/s1.json"
# shard 1 is lanes=1 with lanes=8, which the scaling predicate pairs with it
[ "$(jqv "$T/s1.json" '.subset.rows | join(",")')" = "lanes=1,lanes=8" ] ||
	fail "shard 1's rows: $(jqv "$T/s1.json" '.subset.rows | join(",")')"
[ "$(jqv "$T/s1.json" '.subset.shard.index')/$(jqv "$T/s1.json" '.subset.shard.count')" = 1/2 ] ||
	fail "the shard in the report"
case $(jqv "$T/s1.json" .reproduce) in
*" --shard 1/2 --group g1"*) ;;
*) fail "the Reproduce line lacks the shard: $(jqv "$T/s1.json" .reproduce)" ;;
esac
python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/s1.json" ||
	fail "a shard's report does not match docs/report-schema.json"
[ "$(sqlite3 "$db" "select json_extract(options, '\$.group') || ' ' || json_extract(options, '\$.partial') from runs where id = 1")" = "g1 1" ] ||
	fail "the group and partial in the run's options"

# one shard of two: incomplete, not decided, whatever --inconclusive says
expect_exit 2 "$ABTOOL" verdict --store "$db" --group g1 --inconclusive=accept
assert_contains "$T/err" "group 'g1' is incomplete, not decided: shard 2/2 has no run"
expect_exit 64 "$ABTOOL" verdict --store "$db" --group nosuch
assert_contains "$T/err" "no run of group 'nosuch'"

expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --seed 5 -q --shard 2/2 --group g1 --json "$T/s2.json"
[ "$(jqv "$T/s2.json" '.subset.rows | join(",")')" = "lanes=2,lanes=4" ] ||
	fail "shard 2's rows: $(jqv "$T/s2.json" '.subset.rows | join(",")')"
expect_exit 1 "$ABTOOL" verdict --store "$db" --group g1 --json "$T/group.json" --md "$T/group.md" --junit "$T/group.xml" \
	--html "$T/group.html"
python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/group.json" ||
	fail "the group's report does not match docs/report-schema.json"
# the group's rows are the shards' rows: the same samples, the same statistics
rows "$T/group.json" > "$T/group.rows"
# (a shard's report lists the rows it did not measure too, without pairs)
jq -s '{rows: ([.[].rows[] | select(.pairs > 0)])}' "$T/s1.json" "$T/s2.json" | rows > "$T/shards.rows"
diff "$T/shards.rows" "$T/group.rows" || fail "the group's rows differ from its shards' rows"
[ "$(jq length "$T/group.rows")" = 4 ] || fail "the group has $(jq length "$T/group.rows") rows, not 4"
# the designed outcomes of a candidate doing 20x the work
outcomes "$T/group.json" > "$T/group.out"
cat > "$T/want.out" <<'EOF2'
rejected
no regression: fail {"lanes":1}=fail,{"lanes":2}=fail,{"lanes":4}=fail,{"lanes":8}=fail
scaling at 8: pass {"lanes":8}=pass
EOF2
diff "$T/want.out" "$T/group.out" || fail "the group's verdict and outcomes are not the designed ones"
[ "$(jqv "$T/group.json" .kind)" = group ] || fail "kind"
[ "$(jqv "$T/group.json" '[.group.shards[].run_id] | join(",")')" = 1,2 ] || fail "the shards' runs"
host=$(jqv "$T/s1.json" .host.hostname)
[ "$(jqv "$T/group.json" '[.rows[].host] | unique | join(",")')" = "$host" ] || fail "each row's host"
[ "$(jqv "$T/group.json" '.subset')" = null ] || fail "the group is not partial"
assert_contains "$T/group.md" "group \`g1\`, 2 shards: shard 1 run 1 on"
assert_contains "$T/group.md" "(lanes=1, lanes=8); shard 2 run 2 on"
assert_contains "$T/group.md" "| host |"
grep -q '<testsuite' "$T/group.xml" || fail "junit"
grep -q 'group <code>g1</code>' "$T/group.html" || fail "html"
"$ABTOOL" verdict --store "$db" --group g1 -q > "$T/out" 2>&1; [ $? = 1 ] || fail "verdict -q"

# an unfinished shard: named, with the resume that finishes it
cp "$db" "$T/copy.db"
sqlite3 "$T/copy.db" "update runs set status = 'interrupted' where id = 2"
expect_exit 2 "$ABTOOL" verdict --group g1 --store "$T/copy.db"
assert_contains "$T/err" "shard 2/2 is run 2, interrupted (finish it: abtool resume 2)"
# another abtool version: refused
cp "$db" "$T/copy.db"
sqlite3 "$T/copy.db" "update runs set abtool_version = '0.0.1' where id = 2"
expect_exit 64 "$ABTOOL" verdict --group g1 --store "$T/copy.db"
assert_contains "$T/err" "its shards ran different abtool versions"

# shards of different commits: refused
echo more > "$T/repo/README"
git -C "$T/repo" add README
git -C "$T/repo" commit -qm "another candidate"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --seed 6 -q --pairs 2 --shard 2/2 --group g2 --candidate HEAD~1
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --seed 6 -q --pairs 2 --shard 1/2 --group g2
expect_exit 64 "$ABTOOL" verdict --store "$db" --group g2
assert_contains "$T/err" "its shards ran different parent commits"
echo ok
